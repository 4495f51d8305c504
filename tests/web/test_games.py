"""Every registered game played through the page: sign in, open a table with bots, click the
action buttons through a full round, and find the balance shown changed exactly by the
settlement. Screenshots of each table at a decision point and at the settlement, at desktop and
phone widths, go to artifacts/screenshots/; both languages are checked for untranslated keys on
both pages. Then the hand's recall shows every event it lists, readably, in both languages.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from sanh.games import REGISTRY
from tests.web.conftest import start_hall
from tests.web.helpers import (
    check_both_languages,
    check_recall,
    create_table,
    play_round,
    shoot,
    sign_in,
)

GAMES = sorted(REGISTRY)
STAKED = {"texas-holdem", "poker-aof", "xi-to"}
"""Tẩy games at the hall: the hand settles between table stakes (RULES.md §2.3)."""
RAW_CODES = {"xi-to": ("auto_follow_2", "hole_5th", "tay_max"), "tai-xiu": ("max_bet",)}
"""Names a view holds that the page must show translated."""
MAX_HANDS = 4
"""Hands a test plays at most until one needs a click of this player."""


def units(page: Page, selector: str, attribute: str) -> int:
    value = page.get_attribute(selector, attribute)
    assert value not in (None, ""), f"{selector} has no {attribute}"
    return int(value)


@pytest.mark.parametrize("game", GAMES)
def test_play_a_round_in_the_page(page: Page, tmp_path: Path, game: str) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        create_table(page, game, seats=3, bots=2)
        balance_before = units(page, "#balance", "data-units")
        stake_before = None
        if game in STAKED:
            page.wait_for_selector("#buyin")
            page.click("#buyin button[type=submit]")
            page.wait_for_selector(".seat[data-mine][data-table-stake]:not([data-table-stake='0'])")
            stake_before = units(page, ".seat[data-mine]", "data-table-stake")
            page.wait_for_function(
                "v => document.querySelector('#balance').dataset.units === String(v)",
                arg=balance_before - stake_before,
            )

        def at_decision() -> None:
            shoot(page, f"{game}-decision")
            check_both_languages(page)
            text = page.evaluate("() => document.body.textContent")
            for code in RAW_CODES.get(game, ()):  # the details panel names rules, not codes
                assert code not in text, f"{game}: {code!r} shown raw"

        # A hand can end without this player's decision (a dealt Ù in Phỏm, everyone folding to
        # the big blind...): then the table plays on and the next hand counts as well.
        net, last_hand, clicks = 0, 0, 0
        for _ in range(MAX_HANDS):
            outcome = play_round(page, game, on_decision=at_decision, after_hand=last_hand)
            result = outcome["result"]
            last_hand = result["hand"]
            clicks = outcome["clicks"]
            page.wait_for_selector(f"#result[data-hand='{last_hand}'] [data-my-net]")
            hand_net = units(page, "#result [data-my-net]", "data-my-net")
            mine = result["seats"].index(page.evaluate("window.sanh.player"))
            assert hand_net == result["settlement"]["deltas"][mine]
            net += hand_net
            if game in STAKED:
                assert stake_before is not None
                page.wait_for_function(
                    "v => document.querySelector('.seat[data-mine]').dataset.tableStake"
                    " === String(v)",
                    arg=stake_before + net,
                )
            else:
                page.wait_for_function(
                    "v => document.querySelector('#balance').dataset.units === String(v)",
                    arg=balance_before + net,
                )
            if clicks:
                break
        assert clicks > 0, f"{MAX_HANDS} hands were played without a click"
        shoot(page, f"{game}-settlement")
        check_both_languages(page)
        check_recall(page, hall.url, game)
        shoot(page, f"{game}-recall")
    finally:
        hall.stop()
