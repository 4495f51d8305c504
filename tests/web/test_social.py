"""The friends panel and the leaderboard page in the browser, against a real hall.

A friend request made over the HTTP API shows in the panel with the asker's name as text (a
name made of markup runs nothing); accepting it moves the asker to the friends list, with their
presence. The leaderboard page draws its four boards for the period chosen, in both languages.
"""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Page

from tests.web.conftest import expect_refusal, start_hall
from tests.web.helpers import check_both_languages, sign_in, switch_language

HANG = 60_000
"""Milliseconds: bounds a hang only."""
XSS = '<img src=x onerror="window.__xss=1">'


def test_the_friends_panel_shows_a_request_and_accepts_it(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        me = page.evaluate("() => localStorage.getItem('sanh.player')")
        with httpx.Client(base_url=hall.url, timeout=30) as http:
            asker = http.post("/api/guest", json={"name": XSS[:24]}).json()
            auth = {"authorization": f"Bearer {asker['token']}"}
            asked = http.post(
                "/api/friends", json={"action": "request", "player": me}, headers=auth
            )
            assert asked.status_code == 200, asked.text
        page.goto(f"{hall.url}/#/friends")
        switch_language(page, "en")
        item = page.locator(f"#friends-panel li[data-player='{asker['player']}']")
        item.wait_for(timeout=HANG)
        assert asker["name"] in item.inner_text(), "the name is shown as typed, as text"
        assert page.evaluate("() => window.__xss") is None
        check_both_languages(page)
        switch_language(page, "en")
        page.click(f"button[data-action='accept'][data-player='{asker['player']}']", timeout=HANG)
        page.wait_for_function(
            "p => [...document.querySelectorAll('#friends-panel li')].some("
            " li => li.dataset.player === p && li.querySelector('.presence'))",
            arg=asker["player"],
            timeout=HANG,
        )
        assert "Offline" in page.inner_text("#friends-panel .presence")
        # A request to nobody: the refusal in words.
        expect_refusal(page, "/api/friends", 404)
        page.fill("#friend-add input[name=player]", "999999")
        page.click("#friend-add button", timeout=HANG)
        page.wait_for_function(
            "() => document.getElementById('banner').textContent.includes('No such player')",
            timeout=HANG,
        )
        assert page.evaluate("() => window.__xss") is None
    finally:
        hall.stop()


def test_the_leaderboard_page_draws_each_board_and_period(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        page.goto(f"{hall.url}/#/leaders")
        page.wait_for_selector("#leaders #board-pick", timeout=HANG)
        switch_language(page, "en")
        page.wait_for_function(
            "() => document.querySelector('#leaders h1')?.textContent === 'Leaderboards'",
            timeout=HANG,
        )
        text = page.inner_text("#leaders")
        for words in ("Net gold won", "Hands played", "Biggest pot", "Clans by XP", "Today"):
            assert words in text, words
        page.select_option("#board-pick select[name=period]", "week")
        page.wait_for_function("() => location.hash.includes('period=week')", timeout=HANG)
        page.wait_for_function(
            "() => document.querySelector('#board-pick select[name=period]').value === 'week'",
            timeout=HANG,
        )
        page.select_option("#board-pick select[name=game]", "tien-len")
        page.wait_for_function("() => location.hash.includes('game=tien-len')", timeout=HANG)
        check_both_languages(page)
    finally:
        hall.stop()
