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

import contextlib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sanh.games import REGISTRY
from tests.web.conftest import ARTIFACTS, start_hall
from tests.web.helpers import STRATEGIES, create_table, sign_in

GAMES = sorted(REGISTRY)
HOUSE = {"tai-xiu", "three-card-poker", "teen-patti-2020"}
SHEDDING = {"tien-len", "sam-loc"}
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
  const strip = document.querySelector('#actions .hand-strip');
  return {
    seats: [...document.querySelectorAll('.seat')].map((el) => ({ ...box(el),
      mine: el.dataset.mine === '1', seat: Number(el.dataset.seat) })),
    bar: bar ? { ...box(bar), position: getComputedStyle(bar).position,
                 turn: bar.classList.contains('my-turn') } : null,
    oval: oval ? box(oval) : null,
    board: board ? box(board) : null,
    strip: strip ? box(strip) : null,
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
    if game in SHEDDING:  # the hand to choose from is in the fixed bar, in the viewport
        strip = m["strip"]
        assert strip is not None, f"{where}: the hand is not in the action bar"
        assert strip["top"] >= bar["top"] - 0.5 and strip["bottom"] <= m["innerHeight"] + 0.5
        assert strip["right"] <= m["innerWidth"] + 0.5, f"{where}: the hand runs off the screen"
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
        if game in HOUSE:  # a spectator in another browser: "+1 watching" at the next update
            table = page.evaluate("() => window.sanh.table")
            watcher = page.context.browser.new_context()  # type: ignore[union-attr]
            other = watcher.new_page()
            sign_in(other, hall.url)
            other.goto(f"{hall.url}/#/table/{table}")
            other.wait_for_selector("#house")
            page.wait_for_selector("#house-more[data-watching='1']", timeout=30_000)
            vi = page.inner_text("#house-more")
            assert "đang xem" in vi and "đang chơi" in vi, vi
        SHOTS.mkdir(parents=True, exist_ok=True)
        for label, size in WIDTHS.items():
            page.set_viewport_size(size)
            wait_my_turn(page)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(150)  # a redraw after the resize
            if game in HOUSE:  # the page refits on its 200 ms clock when something moved
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_function(SETTLED_JS, timeout=2000)
            measured = page.evaluate(MEASURE_JS)
            if not measured["bar"] or not measured["bar"]["turn"]:  # the turn just passed
                wait_my_turn(page)
                measured = page.evaluate(MEASURE_JS)
            page.screenshot(path=str(SHOTS / f"{game}-{label}.png"))
            check_layout(game, label, measured)
        if game in HOUSE:
            watcher.close()
    finally:
        hall.stop()


SETTLED_JS = """() => { const b = document.querySelector('.house-board');
  const a = document.querySelector('#actions');
  return b && a && b.getBoundingClientRect().bottom <= a.getBoundingClientRect().top; }"""
BOXES_JS = """sel => [...document.querySelectorAll(sel)].map((el) => {
  const r = el.getBoundingClientRect(); return [r.top, r.bottom]; })"""
KEY_OF_JS = """sel => { const k = document.querySelector(sel + ' kbd.key');
  return k ? k.textContent : null; }"""


def test_shortcuts_act_never_while_typing_and_leaving_now_asks(page: Page, tmp_path: Path) -> None:
    # Slow bots (10 s x 0.4 = 4 s a move): the hand is still on while the page is driven.
    hall = start_hall(tmp_path, SANH_BOT_DELAY="10")
    try:
        sign_in(page, hall.url)
        create_table(page, "texas-holdem", seats=2, bots=1)
        wait_my_turn(page)
        page.wait_for_selector("#actions [data-key='F']")
        # The keys are shown on the buttons they press.
        assert page.evaluate(KEY_OF_JS, "button.act[data-type='Fold']") == "F"
        call = "Check" if page.locator("button.act[data-type='Check']").count() else "Call"
        assert page.evaluate(KEY_OF_JS, f"button.act[data-type='{call}']") == "C"
        assert page.locator("#actions [data-key='R']").count() == 1  # the raise amount
        assert page.locator("#actions [data-key='Enter']").count() == 1
        view = page.evaluate("() => window.sanh.update.view")
        me, version = view["viewer"], view["version"]

        # Typing in the chat presses nothing: "f" and Enter go to the chat line.
        page.click("#chat-table .chat-input")
        page.keyboard.type("f c")
        page.wait_for_timeout(600)
        after = page.evaluate("() => window.sanh.update.view")
        assert after["version"] == version and not after["folded"][me]
        assert page.locator(".actions.my-turn").count() == 1
        page.fill("#chat-table .chat-input", "")

        # Out of the chat, C checks or calls.
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("c")
        page.wait_for_function(
            "v => { const u = window.sanh.update; return u.view && u.view.version > v; }",
            arg=version,
        )
        after = page.evaluate("() => window.sanh.update.view")
        assert not after["folded"][me], "C is a check or a call, not a fold"

        # "Rời bàn" in the hand is a leave after it; leaving now asks first, with the cost.
        if page.evaluate("() => !!window.sanh.update.view && !window.sanh.update.view.terminal"):
            page.click("button#leave")
            page.wait_for_selector("#leave-pending")
            page.wait_for_function(
                "() => { const b = document.querySelector('#leave-now');"
                " return b && !b.textContent.includes('…'); }"
            )
            page.click("#leave-now")
            page.wait_for_selector("#leave-confirm[open]")
            cost = page.evaluate("() => window.sanh.quote.cost")
            text = page.inner_text("#leave-confirm .confirm-text")
            # the page writes gold in its language's format (vi: 1.234,00): the digits
            assert str(cost).rjust(3, "0") in "".join(c for c in text if c.isdigit()), text
            page.keyboard.press("f")  # the table's keys are off while the dialog is open
            page.keyboard.press("Escape")  # and Escape keeps the seat
            page.wait_for_selector("#leave-confirm", state="detached")
            assert page.evaluate("() => location.hash").startswith("#/table/")
            assert page.evaluate("() => window.sanh.leave && window.sanh.leave.pending") is True
    finally:
        hall.stop()


def test_phom_discards_sit_in_the_fixed_bar_and_digits_discard(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        page.set_viewport_size(WIDTHS["phone"])
        sign_in(page, hall.url)
        create_table(page, "phom", seats=2, bots=1)
        strip = "#actions .hand-strip button.card-btn.discard"
        for _ in range(40):
            wait_my_turn(page, timeout=90_000)
            if page.locator(strip).count():
                break
            before = page.evaluate("() => window.sanh.rendered")
            key = "D" if page.locator("#actions [data-key='D']").count() else "E"
            page.keyboard.press(key.lower())  # draw (or eat)
            page.wait_for_function("n => window.sanh.rendered > n", arg=before)
        assert page.locator(strip).count(), "no discard was offered"
        measured = page.evaluate(MEASURE_JS)
        bar = measured["bar"]
        assert bar["position"] == "fixed" and abs(bar["bottom"] - measured["innerHeight"]) <= 0.5
        for top, bottom in page.evaluate(BOXES_JS, strip):  # one redraw's buttons, at once
            assert top >= bar["top"] - 0.5 and bottom <= measured["innerHeight"] + 0.5
        assert page.evaluate(KEY_OF_JS, strip) == "1"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phom-discard-phone.png"))
        hand = page.evaluate("() => window.sanh.update.view.hands[window.sanh.update.view.viewer]")
        page.keyboard.press("1")
        page.wait_for_function(
            "n => { const v = window.sanh.update.view;"
            " return !v || v.terminal || (v.hands[v.viewer] || []).length < n; }",
            arg=len(hand),
        )
    finally:
        hall.stop()


def test_tai_xiu_digits_place_chips(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        create_table(page, "tai-xiu", seats=3, bots=1)
        wait_my_turn(page)
        page.click("[data-area='big']")
        page.wait_for_selector("#actions button.chip[data-key='1']")
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("2")  # the second chip: ten minimum bets
        page.wait_for_function(
            "() => (window.sanh.update.view.my_pending || []).length > 0", timeout=10_000
        )
        view = page.evaluate("() => window.sanh.update.view")
        assert view["my_pending"] == [["big", view["min_bet"] * 10]], view["my_pending"]
    finally:
        hall.stop()


@pytest.mark.parametrize("game", ["ba-cay-chuong", "ba-cay-ga"])
def test_three_cay_cards_to_squeeze_sit_in_the_fixed_bar(
    page: Page, tmp_path: Path, game: str
) -> None:
    hall = start_hall(tmp_path)
    try:
        page.set_viewport_size(WIDTHS["phone"])
        sign_in(page, hall.url)
        create_table(page, game, seats=3, bots=2)
        strip = "#actions .squeeze-strip button.card-btn.squeeze"
        memo: dict[str, Any] = {"squeezed": True}  # the helper bets and readies, never squeezes
        for _ in range(40):
            wait_my_turn(page, timeout=90_000)
            if page.locator(strip).count():
                break
            before = page.evaluate("() => window.sanh.rendered")
            if STRATEGIES[game](page, memo):
                page.wait_for_function("n => window.sanh.rendered > n", arg=before)
            else:
                page.wait_for_timeout(200)
        assert page.locator(strip).count(), "no squeeze was offered"
        measured = page.evaluate(MEASURE_JS)
        bar = measured["bar"]
        assert bar["position"] == "fixed" and abs(bar["bottom"] - measured["innerHeight"]) <= 0.5
        for top, bottom in page.evaluate(BOXES_JS, strip):  # one redraw's buttons, at once
            assert top >= bar["top"] - 0.5 and bottom <= measured["innerHeight"] + 0.5
        assert page.evaluate(KEY_OF_JS, strip) == "1"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{game}-squeeze-phone.png"))
        page.keyboard.press("1")  # squeezes the first face-down card
        page.wait_for_function(
            "() => { const v = window.sanh.update.view; return !v || v.terminal ||"
            " !v.legal_actions.some((a) => a.type === 'Squeeze' && a.index === 0); }"
        )
    finally:
        hall.stop()
