"""The Tài Xỉu road (issue 12, item 7) in the page: after rounds played by clicking, the bead
plate holds one bead per round with the round's total, the counts per side add up, and a
reload (a new ``join``) draws the same road from the server's ``recent``."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.web.conftest import start_hall
from tests.web.helpers import check_both_languages, create_table, play_round, shoot, sign_in

HANG = 60_000
"""Milliseconds: bounds a hang only."""


def _road(page: Page) -> list[tuple[int, str]]:
    return page.eval_on_selector_all(
        "#recent .bead-plate .bead",
        "beads => beads.map(b => [Number(b.dataset.hand), b.className.split(' ')[1]])",
    )


def test_the_road_shows_every_round_and_survives_a_reload(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        create_table(page, "tai-xiu", seats=3, bots=0)
        results = []
        for _ in range(2):
            after = results[-1]["hand"] if results else 0
            results.append(play_round(page, "tai-xiu", after_hand=after)["result"])
        last = results[-1]
        page.wait_for_selector(f"#recent .bead[data-hand='{last['hand']}']", timeout=HANG)
        road = _road(page)
        hands = [hand for hand, _ in road]
        assert hands == sorted(hands) and last["hand"] in hands
        sides = {hand: side for hand, side in road}
        for result in results:
            record = result["record"]
            assert record["hand"] == result["hand"] and record["total"] == sum(record["dice"])
            assert sides[result["hand"]] == record["result"]
        counts = {
            side: int(page.inner_text(f"#recent [data-count='{side}']"))
            for side in ("tai", "xiu", "triple")
        }
        assert sum(counts.values()) == len(road)
        assert counts == {s: sum(1 for _, x in road if x == s) for s in counts}
        shoot(page, "tai-xiu-road")
        check_both_languages(page)
        page.reload()
        page.wait_for_selector(f"#recent .bead[data-hand='{last['hand']}']", timeout=HANG)
        assert _road(page)[: len(road)] == road
    finally:
        hall.stop()
