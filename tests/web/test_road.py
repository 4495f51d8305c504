"""The Tài Xỉu road (issue 12, item 7) and the result panel (item 8) in the page: after
rounds played by clicking, the bead plate holds one bead per round with the round's side, the
counts per side add up, the last result clears once the next round is dealt, and a reload (a
new ``join``) draws the same road from the server's ``recent``."""

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
        # The result shows the player's own line first, and it clears once the next round
        # is dealt (the road keeps the round).
        assert page.locator(f"#result[data-hand='{last['hand']}'] .my-result").count() == 1
        page.wait_for_function(
            "h => { const u = window.sanh.update;"
            " return u && u.hand > h && u.view && !u.view.terminal; }",
            arg=last["hand"],
            timeout=HANG,
        )
        page.wait_for_function("() => !document.getElementById('result')", timeout=HANG)
        assert page.locator(f"#recent .bead[data-hand='{last['hand']}']").count() == 1
        shoot(page, "tai-xiu-road")
        check_both_languages(page)
        page.reload()
        page.wait_for_selector(f"#recent .bead[data-hand='{last['hand']}']", timeout=HANG)
        assert _road(page)[: len(road)] == road
    finally:
        hall.stop()
