"""The statement on the profile page (issue 12, item 8): after hands of several games played
by clicking, every line's running balance is the one below plus its amount, the newest line
ends at the balance in the header, and all the lines sum to it (the wallet is listed whole)."""

from __future__ import annotations

import itertools
from pathlib import Path

from playwright.sync_api import Page

from tests.web.conftest import start_hall
from tests.web.helpers import (
    check_both_languages,
    create_table,
    play_round,
    sign_in,
    switch_language,
)

HANG = 60_000
"""Milliseconds: bounds a hang only."""


def test_the_statement_rows_sum_to_the_balance_shown(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        for game in ("tien-len", "three-card-poker"):
            create_table(page, game, seats=3, bots=2)
            play_round(page, game)
            page.click("#leave", timeout=HANG)
            page.wait_for_function("() => !location.hash.includes('/table/')", timeout=HANG)
        page.goto(f"{hall.url}/#/profile")
        page.wait_for_selector("table.statement tr.statement-line", timeout=HANG)
        # The page shows the wallet after the hands: no hold is open any more.
        page.wait_for_function(
            "() => !document.querySelector('tr.statement-line[data-status=pending]')",
            timeout=HANG,
        )
        rows = page.eval_on_selector_all(
            "tr.statement-line",
            "rows => rows.map(r => [r.dataset.status, Number(r.dataset.amount),"
            " Number(r.dataset.balance)])",
        )
        shown = int(page.get_attribute("#balance", "data-units") or "")
        assert rows[0][2] == shown
        for (_, amount, balance), (_, _, below) in itertools.pairwise(rows):
            assert balance == below + amount
        assert sum(amount for _, amount, _ in rows) == shown
        statuses = {status for status, _, _ in rows}
        assert "settled" in statuses or "released" in statuses, statuses
        check_both_languages(page)
    finally:
        hall.stop()


def test_penalty_cards_show_as_counts_not_gold(page: Page, tmp_path: Path) -> None:
    """Tiến lên's result lists the penalty lá each seat paid as a number of cards (the
    settlement's ``paid_la``), not as an amount of gold."""
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        switch_language(page, "en")
        create_table(page, "tien-len", seats=3, bots=2)
        paid, after = None, 0
        for _ in range(3):  # an instant win pays no lá: then the next hand counts
            result = play_round(page, "tien-len", after_hand=after)["result"]
            after = result["hand"]
            paid = dict(result["settlement"]["detail"]).get("paid_la")
            if paid is not None:
                break
        assert paid is not None, "three hands in a row ended in an instant win"
        page.wait_for_selector(f"#result[data-hand='{after}']", timeout=HANG)
        shown = page.eval_on_selector_all(
            "#result [data-count-seat]", "spans => spans.map(s => s.textContent)"
        )
        assert len(shown) == len(paid)
        for text, count in zip(shown, paid, strict=True):
            assert text.endswith(f": {count} cards"), (text, count)
    finally:
        hall.stop()
