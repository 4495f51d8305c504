"""Motion at the table (issue 12, item 3), in Chromium: the page's motions (sanh/web/motion.js,
Web Animations) run when a hand is played by clicking: cards dealt from the shoe, chips sliding
to the bets, the pot and the winner, the Tài Xỉu dice bowl, the 3 Cây squeeze peeling a card
open, a Tiến lên play sliding to the middle; each step lasts under 400 ms; a key or a click
finishes every motion at once. Under ``prefers-reduced-motion: reduce`` none runs: no animation
of any kind (not even a CSS transition) is ever found on the page while a hand is played.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.web.conftest import start_hall
from tests.web.helpers import create_table, play_round, sign_in

EXPECTED = {
    "texas-holdem": {"deal", "chips"},
    "tai-xiu": {"chips", "bowl"},
    "ba-cay-ga": {"deal", "peel"},
    "tien-len": {"deal", "play"},
}
"""The motions a hand of each game shows at least (the others depend on the cards)."""
STEP_MS = 400
SAMPLER_JS = """() => {
  window.__motionSeen = 0;
  setInterval(() => {
    window.__motionSeen = Math.max(window.__motionSeen, document.getAnimations().length);
  }, 20);
}"""


def motion(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        "() => ({ ...window.sanhMotion, moving: window.sanhMotion.moving,"
        " seen: window.__motionSeen })"
    )
    return result


def play_hand(page: Page, url: str, game: str) -> None:
    sign_in(page, url)
    page.evaluate(SAMPLER_JS)
    create_table(page, game, seats=3, bots=2)
    last = 0
    for _ in range(3):  # the hand to play, and one more when it ended without one's click
        outcome = play_round(page, game, after_hand=last)
        last = outcome["result"]["hand"]
        if outcome["clicks"]:
            break


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_a_hand_moves_and_each_step_is_short(page: Page, tmp_path: Path, game: str) -> None:
    hall = start_hall(tmp_path)
    try:
        play_hand(page, hall.url, game)
        # Every motion lands and its tokens go (a house table's next round may start new ones
        # meanwhile: the page comes to rest between them, each step being short).
        page.wait_for_function(
            "() => window.sanhMotion.moving === 0"
            " && document.querySelectorAll('.motion-chip, .motion-bowl').length === 0",
            timeout=5_000,
        )
        stats = motion(page)
        assert EXPECTED[game] <= set(stats["kinds"]), stats
        assert stats["seen"] > 0, "an animation was found running on the page"
        assert 0 < stats["longest"] < STEP_MS, stats
    finally:
        hall.stop()


def test_a_key_finishes_every_motion_at_once(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        create_table(page, "texas-holdem", seats=3, bots=2)
        page.wait_for_selector("#buyin")
        page.click("#buyin button[type=submit]")
        # The deal of the first hand: caught while its cards fly (polled every frame).
        page.wait_for_function("() => window.sanhMotion.moving > 0", polling="raf", timeout=30_000)
        left = page.evaluate(
            "() => { document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift' }));"
            " return [window.sanhMotion.moving, window.sanhMotion.skipped]; }"
        )
        assert left == [0, 1], "one key press ended every motion"
    finally:
        hall.stop()


@pytest.mark.parametrize("game", ["texas-holdem", "tai-xiu"])
def test_nothing_moves_under_reduced_motion(page: Page, tmp_path: Path, game: str) -> None:
    page.emulate_media(reduced_motion="reduce")
    hall = start_hall(tmp_path)
    try:
        play_hand(page, hall.url, game)
        page.wait_for_timeout(700)
        stats = motion(page)
        assert stats["started"] == 0, stats
        assert stats["seen"] == 0, "no animation nor transition ran on the page"
        assert page.locator(".motion-chip, .motion-bowl").count() == 0
    finally:
        hall.stop()
