"""The pages outside a hand in both languages, the reload in the middle of a hand, and the
messages when the connection drops and comes back (a session token never in the hall's log).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from sanh.cli._texts import web_strings
from sanh.games import REGISTRY
from sanh.games.base import OptionSpec
from sanh.i18n import LANGUAGES
from tests.web.conftest import start_hall
from tests.web.helpers import (
    check_both_languages,
    check_translated,
    create_table,
    play_round,
    sign_in,
    switch_language,
)


def offered_options(game: str) -> list[OptionSpec]:
    """The options the create-table form offers: every one but those for replays only."""
    return [o for o in REGISTRY[game].info.options if not o.replay_only]


def test_every_page_in_both_languages_shows_no_untranslated_key(page: Page, tmp_path: Path) -> None:
    hall = start_hall(tmp_path)
    try:
        page.goto(hall.url)
        page.wait_for_selector("#guest")
        check_both_languages(page)  # the sign-in page
        sign_in(page, hall.url)
        for game in sorted(REGISTRY):  # the lobby with each game's create-table options
            page.goto(f"{hall.url}/#/lobby?game={game}")
            page.wait_for_function(
                "g => document.querySelector('#create-game')?.value === g", arg=game
            )
            assert page.locator("#create-options [data-opt]").count() == len(offered_options(game))
            check_both_languages(page)
        create_table(page, "poker-aof", seats=2, bots=1)
        play_round(page, "poker-aof")
        check_both_languages(page)
        for hash_ in ("#/profile", "#/recall"):
            page.goto(f"{hall.url}/{hash_}")
            page.wait_for_selector("section.panel h1")
            check_both_languages(page)
        page.click("a[href^='#/recall/']")
        page.wait_for_selector("#result")
        check_both_languages(page)
    finally:
        hall.stop()


def test_every_option_of_the_create_table_form_has_its_help_as_a_tooltip(
    page: Page, tmp_path: Path
) -> None:
    """Each option's label carries its translated help (``option_help.*``) as its ``title``, in
    Vietnamese and in English: never the engine's English ``OptionSpec.help``."""
    table = web_strings()
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        for game in sorted(REGISTRY):
            page.goto(f"{hall.url}/#/lobby?game={game}")
            for lang in LANGUAGES:
                switch_language(page, lang)
                index = LANGUAGES.index(lang)
                want = []
                for option in offered_options(game):
                    key = f"option_help.{game}.{option.name}"
                    key = key if key in table else f"option_help.{option.name}"
                    want.append(table[key][index])
                    assert table[key][index] != option.help
                page.wait_for_function(
                    "([g, first]) => document.querySelector('#create-game')?.value === g"
                    " && document.querySelector('#create-options [title]')?.title === first",
                    arg=[game, want[0]],
                )
                titles = page.eval_on_selector_all(
                    "#create-options label", "els => els.map(e => e.getAttribute('title'))"
                )
                assert titles == want, f"{game} ({lang})"
                check_translated(page)
    finally:
        hall.stop()


def heads_up_until_my_turn(page: Page, url: str) -> None:
    """Sign in, open a heads-up Hold'em table against a bot, buy in, wait for one's turn."""
    sign_in(page, url)
    create_table(page, "texas-holdem", seats=2, bots=1)
    page.wait_for_selector("#buyin")
    page.click("#buyin button[type=submit]")
    page.wait_for_selector(".actions.my-turn", timeout=20_000)


def test_reload_in_the_middle_of_a_hand_restores_seat_cards_and_timer(
    page: Page, tmp_path: Path
) -> None:
    # Slow bots (10 s x 0.4 = 4 s a move) leave time to reload while the bot is to act.
    hall = start_hall(tmp_path, SANH_BOT_DELAY="10")
    try:
        heads_up_until_my_turn(page, hall.url)
        cards = page.eval_on_selector_all(
            ".seat[data-mine] svg.card.face", "els => els.map(e => e.dataset.card)"
        )
        assert len(cards) == 2
        page.click("button.act[data-type='Call']")
        page.wait_for_function(
            "() => { const u = window.sanh.update; return u && u.view"
            " && !u.view.to_act.includes(u.view.viewer); }"
        )
        before = page.evaluate("() => window.sanh.update")
        waiting = [seat for seat in before["deadlines"] if seat != "table"]
        assert waiting, "the bot's turn has a deadline"

        page.reload()
        page.wait_for_selector(".seat[data-mine] svg.card.face")
        after = page.evaluate("() => window.sanh.update")
        assert after["hand"] == before["hand"]
        assert after["your_seat"] == before["your_seat"]
        assert (
            page.eval_on_selector_all(
                ".seat[data-mine] svg.card.face", "els => els.map(e => e.dataset.card)"
            )
            == cards
        )
        assert after["deadlines"] == before["deadlines"]
        seat = waiting[0]
        timer = page.locator(f".seat[data-engine='{seat}'] .timer[data-deadline]")
        assert float(timer.get_attribute("data-deadline") or 0) == before["deadlines"][seat]
        assert int((timer.inner_text()).split()[0]) > 0
        check_translated(page)

        # The connection drops: a clear message, then the seat comes back by itself.
        switch_language(page, "en")
        page.evaluate("() => window.sanh.ws.close()")
        page.wait_for_selector("#banner[data-kind='warn']:not([hidden])")
        assert "Connection to the server lost" in page.inner_text("#banner")
        assert page.locator(".lost").count() == 1
        page.wait_for_selector("#banner[data-kind='ok']:not([hidden])", timeout=10_000)
        assert "Reconnected" in page.inner_text("#banner")
        page.wait_for_selector(".seat[data-mine] svg.card.face")
        assert page.locator(".lost").count() == 0

        # The page signs in with a hello frame: its WebSocket URL, in the log, holds no token.
        token = page.evaluate("() => localStorage.getItem('sanh.token')")
        log = hall.log.read_text(errors="replace")
        assert log.count('"WebSocket /ws" [accepted]') >= 3  # the reload and the reconnection
        assert token and token not in log
    finally:
        hall.stop()


def test_a_reload_during_ones_own_turn_keeps_the_turn(page: Page, tmp_path: Path) -> None:
    """A dropped player keeps the turn clock (RULES.md §2.7 applies the disconnect default only
    when the deadline passes): reloading while it is one's turn costs nothing."""
    hall = start_hall(tmp_path, SANH_BOT_DELAY="10")
    try:
        heads_up_until_my_turn(page, hall.url)
        before = page.evaluate("() => window.sanh.update")
        me = before["view"]["viewer"]
        page.reload()
        page.wait_for_selector(".actions.my-turn", timeout=10_000)
        after = page.evaluate("() => window.sanh.update")
        assert after["hand"] == before["hand"]
        assert after["view"]["version"] == before["view"]["version"], "nothing was played for me"
        assert not after["view"]["folded"][me]
        assert after["deadlines"][str(me)] == before["deadlines"][str(me)], "the same clock"
        choice = "Check" if page.locator("button.act[data-type='Check']").count() else "Call"
        page.click(f"button.act[data-type='{choice}']")
        page.wait_for_function(
            "v => { const u = window.sanh.update; return u && u.view && u.view.version > v; }",
            arg=after["view"]["version"],
        )
        view = page.evaluate("() => window.sanh.update.view")
        assert not view["folded"][me], "my own action, not a fold by default"
    finally:
        hall.stop()
