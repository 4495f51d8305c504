"""Chat at a table and the rules at hand, in Debian's Chromium.

* A line of HTML and script typed at a table comes back as those characters: no element is
  made from it, no script runs. Quick phrases and emoji send their text; a spectator reads but
  cannot write until the host allows it; muting a player hides their lines in this browser
  (kept over a reload), unmuting shows them again.
* A line said during a hand is in that hand's recall page, as text.
* The rules page opens from the lobby's menu, shows every game's rules in the page's language
  and each house bet's exact house edge as sanh.analysis computes it; at a table the rules open
  in a panel over the table, which stays connected.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from playwright.sync_api import Browser, Page

from sanh.analysis.odds import odds_providers
from tests.web.conftest import DESKTOP, start_hall, watch_console
from tests.web.helpers import (
    check_translated,
    create_table,
    play_round,
    shoot,
    sign_in,
    switch_language,
)

XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'


def _lines(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#chat-table .chat-line .text", "nodes => nodes.map(n => n.textContent)"
    )


def _wait_line(page: Page, text: str) -> None:
    page.wait_for_function(
        """t => [...document.querySelectorAll('#chat-table .chat-line .text')]
                  .some(n => n.textContent === t)""",
        arg=text,
        timeout=15_000,
    )


def _say(page: Page, text: str) -> None:
    page.fill("#chat-table .chat-input", text)
    page.press("#chat-table .chat-input", "Enter")
    _wait_line(page, text)


def _inert(page: Page) -> None:
    assert page.evaluate("() => window.__xss") is None, "a script of the chat ran"
    assert page.locator("#chat-table img, #chat-table script, #chat-lobby img").count() == 0


def test_chat_at_a_table_is_plain_text_with_phrases_mute_and_spectators(
    page: Page, browser: Browser, tmp_path: Path
) -> None:
    hall = start_hall(tmp_path)
    other = browser.new_context(viewport=DESKTOP)
    try:
        sign_in(page, hall.url)
        create_table(page, "tien-len", seats=2, bots=1)
        table = page.evaluate("() => window.sanh.table")
        page.wait_for_selector("#chat-table")
        _say(page, XSS)
        _inert(page)
        html = page.inner_html("#chat-table .chat-lines")
        assert "&lt;img" in html and "<img" not in html
        page.click("#chat-table [data-phrase='hello']")
        _wait_line(page, "Chào cả nhà!")
        page.click("#chat-table [data-emoji='heart']")
        _wait_line(page, "❤")
        # A spectator reads every line (the table's history) but may not write...
        watcher = other.new_page()
        errors = watch_console(watcher)
        sign_in(watcher, hall.url)
        watcher.goto(f"{hall.url}/#/table/{table}")
        _wait_line(watcher, XSS)
        _inert(watcher)
        assert _lines(watcher)[-3:] == [XSS, "Chào cả nhà!", "❤"]
        assert watcher.is_disabled("#chat-table .chat-input")
        assert watcher.is_visible("#chat-table .chat-note")
        # ... until the host lets spectators chat.
        page.check("#chat-allow")
        watcher.wait_for_function(
            "() => !document.querySelector('#chat-table .chat-input').disabled", timeout=15_000
        )
        watcher.fill("#chat-table .chat-input", "<b>xin chào</b> từ khán giả")
        watcher.click("#chat-table .chat-form button[type=submit]")
        _wait_line(page, "<b>xin chào</b> từ khán giả")
        assert page.locator("#chat-table b").count() == 0
        shoot(page, "chat-table")
        # Muting the spectator hides their lines here, over a reload too; unmuting shows them.
        page.click("#chat-table .chat-line:has-text('từ khán giả') button.mute")
        page.wait_for_function(
            """() => ![...document.querySelectorAll('#chat-table .chat-line .text')]
                      .some(n => n.textContent.includes('khán giả'))"""
        )
        watcher.fill("#chat-table .chat-input", "còn nghe không?")
        watcher.press("#chat-table .chat-input", "Enter")
        _wait_line(watcher, "còn nghe không?")
        _say(page, "tôi vẫn ở đây")
        assert not any("khán giả" in t or "còn nghe" in t for t in _lines(page))
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        _wait_line(page, "tôi vẫn ở đây")
        assert not any("khán giả" in t or "còn nghe" in t for t in _lines(page))
        page.click("#chat-table .chat-muted button.unmute")
        _wait_line(page, "còn nghe không?")
        _inert(page)
        check_translated(page)
        switch_language(page, "en")
        check_translated(page)
        assert page.inner_text("#chat-table [data-phrase='hello']") == "Hi everyone!"
        assert not errors(), f"errors in the spectator's page: {errors()}"
    finally:
        other.close()
        hall.stop()


def test_the_lobby_chat_is_plain_text(page: Page, browser: Browser, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    other = browser.new_context(viewport=DESKTOP)
    try:
        sign_in(page, hall.url)
        friend = other.new_page()
        sign_in(friend, hall.url)
        page.wait_for_selector("#chat-lobby .chat-input")
        page.wait_for_function("() => document.querySelector('#chat-lobby .chat-empty')")
        page.fill("#chat-lobby .chat-input", XSS)
        page.press("#chat-lobby .chat-input", "Enter")
        for who in (page, friend):
            who.wait_for_function(
                """t => [...document.querySelectorAll('#chat-lobby .chat-line .text')]
                          .some(n => n.textContent === t)""",
                arg=XSS,
                timeout=15_000,
            )
            assert who.evaluate("() => window.__xss") is None
            assert who.locator("#chat-lobby img, #chat-lobby script").count() == 0
    finally:
        other.close()
        hall.stop()


def _rows(page: Page) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        ".rules-bets tbody tr",
        """rows => rows.map(r => ({bet: r.dataset.bet, kind: r.dataset.kind || '',
              edge: r.querySelector('.edge').dataset.edge,
              shown: r.querySelector('.edge').textContent}))""",
    )


def test_the_rules_open_from_the_lobby_and_from_a_table(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        api = page.evaluate("async () => (await (await fetch('/api/rules')).json()).games")
        page.click("header nav a[href='#/rules']")
        page.wait_for_selector("#rules-page .rules-game")
        providers = odds_providers()
        for game in api:
            page.click(f"[data-rules-game='{game['id']}']")
            page.wait_for_selector(f"#rules-page .rules-game[data-game='{game['id']}']")
            assert page.inner_text(".how-to-play") == game["vi"]["how_to_play"]
            assert page.locator(".rules-list li").count() == len(game["vi"]["rules"])
            rows = _rows(page)
            if game["id"] not in providers:
                assert not rows, game["id"]
                continue
            tables = ("system", "player") if game["id"] == "tai-xiu" else (None,)
            want = {
                (table or "", bet): odds.house_edge
                for table in tables
                for bet, odds in providers[game["id"]](None, table).bets.items()
            }
            assert {(r["kind"], r["bet"]): Fraction(r["edge"]) for r in rows} == want
            check_translated(page)
        page.click("[data-rules-game='tai-xiu']")
        page.wait_for_selector("#rules-page .rules-game[data-game='tai-xiu']")
        small = next(r for r in _rows(page) if r["bet"] == "small" and r["kind"] == "system")
        assert small["shown"] == "5,208%"  # 5/96 in the Vietnamese number format
        shoot(page, "rules-tai-xiu")
        switch_language(page, "en")
        page.wait_for_function(
            "() => document.querySelector('.rules-game').getAttribute('lang') === 'en'"
        )
        tai_xiu = next(g for g in api if g["id"] == "tai-xiu")
        assert page.inner_text(".how-to-play") == tai_xiu["en"]["how_to_play"]
        small = next(r for r in _rows(page) if r["bet"] == "small" and r["kind"] == "system")
        assert small["shown"] == "5.208%"
        check_translated(page)
        switch_language(page, "vi")
        # At a table: a panel over the table, which stays connected.
        page.goto(f"{hall.url}/#/lobby")
        create_table(page, "tien-len", seats=2, bots=1)
        page.click("#rules-open")
        page.wait_for_selector("#rules-panel[open] .rules-game[data-game='tien-len']")
        tien_len = next(g for g in api if g["id"] == "tien-len")
        assert page.inner_text("#rules-panel .how-to-play") == tien_len["vi"]["how_to_play"]
        check_translated(page)
        shoot(page, "rules-at-table")
        page.click("#rules-close")
        page.wait_for_selector("#rules-panel", state="hidden")
        assert page.evaluate("() => window.sanh.ws.readyState") == 1
        page.wait_for_selector(".seat[data-mine]")
    finally:
        hall.stop()


def test_a_hands_chat_is_in_its_recall_as_plain_text(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        create_table(page, "poker-aof", seats=2, bots=1)
        said = f"chúc may mắn {XSS}"
        played = play_round(page, "poker-aof", on_decision=lambda: _say(page, said))
        hand = played["result"]["hand"]
        table = page.evaluate("() => window.sanh.table")
        page.goto(f"{hall.url}/#/recall/{table}:{hand}")
        page.wait_for_selector("#recall-chat .chat-line")
        assert page.eval_on_selector_all(
            "#recall-chat .chat-line .text", "nodes => nodes.map(n => n.textContent)"
        ) == [said]
        assert page.locator("#recall-chat img, #recall-chat script").count() == 0
        assert page.evaluate("() => window.__xss") is None
        check_translated(page)
    finally:
        hall.stop()
