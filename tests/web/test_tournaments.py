"""The Sit & Go pages in the browser (sanh/web/tournaments.js): create one with bots, register
(the balance shown drops by the buy-in and the fee), it starts and the page leads to the
player's own seat at its table; a second one is cancelled and pays back. Both languages."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.web.conftest import start_hall
from tests.web.helpers import check_both_languages, shoot, sign_in

HANG = 60_000
"""Milliseconds: bounds a hang only."""

BALANCE_JS = """async () => {
  const headers = { authorization: 'Bearer ' + localStorage.getItem('sanh.token') };
  return (await (await fetch('/api/me', { headers })).json()).balance;
}"""


def _create(page: Page, game: str, seats: int, bots: int) -> str:
    page.goto(page.url.split("#")[0] + "#/tournaments")
    page.wait_for_selector("#sitgo-create")
    page.select_option("#sitgo-game", game)
    page.fill("#sitgo-seats", str(seats))
    page.fill("#sitgo-buyin", "10")
    page.fill("#sitgo-fee", "1")
    page.fill("#sitgo-bots", str(bots))
    page.click("#sitgo-submit")
    page.wait_for_selector("#tournament[data-status='registering']", timeout=HANG)
    return page.url.split("#/tournaments/")[1]


def test_create_register_play_and_cancel_a_sit_and_go(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        start = page.evaluate(BALANCE_JS)
        tid = _create(page, "poker-aof", 3, 2)
        assert page.locator("#sitgo-standings tbody tr").count() == 2
        check_both_languages(page)
        page.click("#sitgo-register")
        page.wait_for_selector("#tournament[data-status='running']", timeout=HANG)
        assert page.evaluate(BALANCE_JS) == start - 1_100  # 10 gold buy-in + 1 gold fee
        assert page.locator("#sitgo-standings tbody tr").count() == 3
        assert page.locator("#sitgo-payouts li").count() == 1  # three entrants: one paid place
        shoot(page, "sitgo-running")

        page.click("#sitgo-table")
        page.wait_for_selector(".seat[data-mine]", timeout=HANG)
        assert page.url.endswith(f"#/table/{tid}-t")

        # A second one, called off before it starts: the entry comes back.
        other = _create(page, "tien-len", 4, 1)
        page.click("#sitgo-register")
        page.wait_for_function(
            "() => document.getElementById('sitgo-unregister') !== null", timeout=HANG
        )
        page.click("#sitgo-cancel")
        page.wait_for_selector("#tournament[data-status='cancelled']", timeout=HANG)
        assert page.evaluate(BALANCE_JS) == start - 1_100
        page.goto(f"{hall.url}/#/tournaments")
        page.wait_for_selector(f"tr[data-tournament='{other}']")
        assert page.locator(f"tr[data-tournament='{tid}']").count() == 1
        shoot(page, "sitgo-list")
    finally:
        hall.stop()
