"""People, not ids (issue 12, item 10) and Tài Xỉu's sides (item 7) in the page.

* At a table the bots sit with generated Vietnamese full names (sanh/ledger/bot_names.py), every
  seat with its project-drawn SVG avatar (avatar.js: the same markup for the same player id) and
  its level; at a table the house banks nobody is labelled host.
* The lobby shows each table's name, its host (a player-hosted table) or the house, its seats
  and bots; the search box finds a bot by its name typed without accents (flagged, with its
  level and a link to its table) and filters the tables by their name, host or game.
* Tài Xỉu: Xỉu and Tài show their confirmed total and how many seats bet on them, every cell
  its odds and its bettors, exactly as the server's public view counts them; at desktop and
  phone widths the top bar, the betting board, both sides and the action bar are in the
  viewport at once (the bar under the board), with no scrolling.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from sanh.ledger.bot_names import BOT_NAMES
from tests.web.conftest import start_hall
from tests.web.helpers import check_both_languages, create_table, shoot, sign_in

HANG = 60_000
"""Milliseconds: bounds a hang only."""
STRINGS = json.loads((Path(__file__).parents[2] / "sanh/web/i18n.json").read_text())["strings"]
WIDTHS = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def _bare(name: str) -> str:
    folded = name.casefold().replace("đ", "d")
    return "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))


ME_JS = """async () => {
  const headers = { authorization: 'Bearer ' + localStorage.getItem('sanh.token') };
  const me = await (await fetch('/api/me', { headers })).json();
  return { id: me.player, name: me.name, level: me.level };
}"""
SEATS_JS = """async () => {
  const num = (el, sel, key) => { const x = el && el.querySelector(sel);
    return x ? Number(x.dataset[key]) : null; };
  const avatar = await import('/avatar.js');
  const probe = document.createElement('div');
  return window.sanh.update.seats.filter((s) => s.player).map((s) => {
    const el = document.querySelector(`.seat[data-seat='${s.seat}']`);
    probe.innerHTML = avatar.avatarSVG(s.player);
    const svg = el && el.querySelector('.avatar svg');
    return { seat: s.seat, player: s.player, name: s.name, bot: s.bot, host: s.host,
             level: s.level, drawn: Boolean(el),
             shownLevel: num(el, '.level', 'level'),
             svg: svg ? svg.outerHTML : null, expected: probe.innerHTML.trim(),
             tags: el ? el.querySelector('.seat-tags')?.textContent || '' : '' };
  });
}"""


def _seats(page: Page) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = page.evaluate(SEATS_JS)
    return seats


def _row_hidden(page: Page, table: str) -> bool:
    return bool(page.eval_on_selector(f"tr[data-table-row='{table}']", "r => r.hidden"))


def test_bots_avatars_levels_the_lobby_and_the_search(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        me = page.evaluate(ME_JS)
        create_table(page, "tien-len", seats=4, bots=3)
        page.wait_for_function(
            "() => window.sanh.update.seats.filter((s) => s.bot).length === 3", timeout=HANG
        )
        ring = page.evaluate("() => window.sanh.table")
        seats = _seats(page)
        assert len(seats) == 4
        bots = [s for s in seats if s["bot"]]
        for seat in seats:
            assert seat["drawn"] and seat["svg"], seat
            assert seat["svg"] == seat["expected"], "the avatar is not its player id's"
            assert seat["level"] == seat["shownLevel"] == 1, seat  # nobody has XP yet
        assert all(b["name"] in BOT_NAMES for b in bots), [b["name"] for b in bots]
        assert len({s["svg"] for s in seats}) == 4, "two players look the same"

        # A Tài Xỉu table the house banks: the player who opened it is nobody's host there.
        page.goto(f"{hall.url}/#/lobby")
        page.wait_for_selector("#create-game")
        create_table(page, "tai-xiu", seats=3, bots=0)
        house = page.evaluate("() => window.sanh.table")
        host_labels = set(STRINGS["table.host"])
        mine = [s for s in _seats(page) if s["player"] == me["id"]]
        assert mine and not mine[0]["host"], mine
        assert not any(label in mine[0]["tags"] for label in host_labels), mine[0]["tags"]

        # The lobby: the name, host or house, seats and bots of each table.
        page.goto(f"{hall.url}/#/lobby")
        page.wait_for_selector(f"tr[data-table-row='{house}']")
        ring_row = page.locator(f"tr[data-table-row='{ring}']")
        assert ring_row.locator(f".host-cell [data-host='{me['id']}']").count() == 1
        assert me["name"] in ring_row.locator(".host-cell").inner_text()
        assert "4/4" in ring_row.inner_text()
        house_row = page.locator(f"tr[data-table-row='{house}']")
        assert house_row.locator("[data-house]").count() == 1
        assert house_row.locator("[data-host]").count() == 0
        assert not any(label in house_row.inner_text() for label in host_labels)

        # The search: a bot by its name without accents; tables by host and by game.
        bot = bots[0]
        page.fill("#lobby-search", _bare(bot["name"]))
        found = page.locator(f"#player-results li[data-player='{bot['player']}'][data-bot='1']")
        found.wait_for(timeout=HANG)
        assert found.locator(f"[data-player-table='{ring}']").count() == 1
        assert found.locator(".level").get_attribute("data-level") == "1"
        assert found.locator(".avatar svg").count() == 1
        assert _row_hidden(page, ring) and _row_hidden(page, house)
        page.fill("#lobby-search", me["name"].upper())
        page.wait_for_function(
            "t => !document.querySelector(`tr[data-table-row='${t}']`).hidden", arg=ring
        )
        assert _row_hidden(page, house)
        page.fill("#lobby-search", "tai xiu")
        page.wait_for_function(
            "t => !document.querySelector(`tr[data-table-row='${t}']`).hidden", arg=house
        )
        assert _row_hidden(page, ring)
        page.fill("#lobby-search", _bare(bot["name"]))
        found.wait_for(timeout=HANG)
        shoot(page, "people-lobby-search")
        check_both_languages(page)
    finally:
        hall.stop()


SIDES_JS = """() => {
  const num = (el, sel, key) => { const x = el.querySelector(sel);
    return x ? Number(x.dataset[key]) : 0; };
  const u = window.sanh.update;
  const v = u && u.view;
  if (!v || v.terminal || !v.bettors || !v.bettors.length) return null;
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height }; };
  const cells = [...document.querySelectorAll('.sicbo .area')].map((el) => ({
    area: el.dataset.area, odds: Boolean(el.querySelector('.odds')),
    total: num(el, '[data-total]', 'total'), bettors: num(el, '[data-bettors]', 'bettors'),
  }));
  return { totals: v.totals, bettors: v.bettors, cells,
    board: box(document.querySelector('.house-board')),
    bar: box(document.querySelector('#actions')),
    turn: Boolean(document.querySelector('#actions.my-turn')),
    top: box(document.querySelector('.topbar')),
    big: box(document.querySelector("[data-area='big']")),
    small: box(document.querySelector("[data-area='small']")),
    scrollY: window.scrollY, innerHeight: window.innerHeight, innerWidth: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth };
}"""


def _check_sides(label: str, m: dict[str, Any]) -> None:
    totals, bettors = dict(m["totals"]), dict(m["bettors"])
    cells = {c["area"]: c for c in m["cells"]}
    assert len(cells) == 50, f"{label}: {len(cells)} cells"
    assert all(c["odds"] for c in cells.values()), f"{label}: a cell without its odds"
    for area, cell in cells.items():
        assert cell["total"] == totals.get(area, 0), f"{label}: {area} total"
        assert cell["bettors"] == bettors.get(area, 0), f"{label}: {area} bettors"
    assert bettors, f"{label}: nobody's bet counted"
    assert m["scrollY"] == 0 and m["scrollWidth"] <= m["innerWidth"], label
    board, bar, top = m["board"], m["bar"], m["top"]
    assert bar is not None and m["turn"], f"{label}: no action bar at the player's turn"
    assert top["top"] >= 0 and top["bottom"] <= board["top"] + 0.5, f"{label}: top bar {top}"
    assert board["bottom"] <= bar["top"] + 0.5, f"{label}: the board runs under the bar"
    assert abs(bar["bottom"] - m["innerHeight"]) <= 0.5, f"{label}: the bar is not at the bottom"
    for side in ("big", "small"):
        box = m[side]
        assert box["top"] >= board["top"] - 0.5 and box["bottom"] <= bar["top"] + 0.5, side
        assert box["left"] >= -0.5 and box["right"] <= m["innerWidth"] + 0.5, side
    if label == "phone":
        assert top["height"] <= 56, f"the top bar takes {top['height']}px at phone width"


def test_tai_xiu_sides_show_totals_bettors_and_fit_both_widths(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        create_table(page, "tai-xiu", seats=5, bots=4)
        for label, size in WIDTHS.items():
            page.set_viewport_size(size)  # type: ignore[arg-type]
            page.wait_for_function(SIDES_JS, timeout=HANG)
            page.wait_for_timeout(400)  # the page's clock refits the board to the new size
            measured = page.evaluate(SIDES_JS)
            if measured is None:  # the round just ended: the next one's bets
                page.wait_for_function(SIDES_JS, timeout=HANG)
                page.wait_for_timeout(400)
                measured = page.evaluate(SIDES_JS)
            assert measured is not None
            _check_sides(label, measured)
        shoot(page, "tai-xiu-sides")
    finally:
        hall.stop()
