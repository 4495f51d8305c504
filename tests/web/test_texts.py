"""Engine text codes and error codes in the page, in Vietnamese and in English.

Settlements of seeded hands of every game whose lines carry details (text codes, see
sanh/texts.py) are shown at a table the way the server sends them (a ``result``
message); each detail must read exactly as the terminal renders it in that language, with no
code left raw and no untranslated key. Every error code of the protocol gets a translated
headline with the server's English message after it (a refusal's text code in the page's
language instead), and a real refusal from the hall too; a voided hand says so and why.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from sanh.cards.rng import SeededRng
from sanh.cli._texts import describe, web_strings
from sanh.games import REGISTRY
from sanh.games.base import CHANCE, TableConfig
from sanh.games.driver import chance_event, random_action, random_playout
from sanh.i18n import LANGUAGES
from sanh.notation.jsonable import to_jsonable
from sanh.server.protocol import ErrorCode
from sanh.texts import describe as describe_code
from sanh.texts import parse
from tests.web.conftest import expect_refusal, start_hall
from tests.web.helpers import check_translated, create_table, sign_in, switch_language

SEEDS = 30
"""Seeded hands tried per game; the one whose lines use the most distinct codes is shown."""
RAW = re.compile(r"[a-z]:\w|[a-z]_[a-z]|\|")
"""What a code left untranslated looks like (``odds:5``, ``high_card``, ``a|b``)."""


def samples() -> dict[str, tuple[int, dict[str, Any]]]:
    """Per game with line details: (seats, the JSON settlement of its richest seeded hand)."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for game_id, game in sorted(REGISTRY.items()):
        info = game.info
        seats = min(max(3, info.seats_min), info.seats_max)
        best: tuple[int, dict[str, Any]] | None = None
        for seed in range(SEEDS):
            config = TableConfig.make(seats=seats, stake=100)
            state = random_playout(game, config, SeededRng(f"texts/{game_id}/{seed}"))
            settlement = game.settle(state)
            codes = {code for line in settlement.lines for code, _ in parse(line.detail)}
            if codes and (best is None or len(codes) > best[0]):
                best = (len(codes), to_jsonable(settlement))
        if best is not None:
            out[game_id] = (seats, best[1])
    return out


def seat_name(lang: str) -> Callable[[int], str]:
    """Seat names as the page shows them: engine seat 0 is the player, the others strangers."""
    table = web_strings()
    index = LANGUAGES.index(lang)

    def name(seat: int) -> str:
        if seat == 0:
            return table["table.you"][index]
        return table["table.seat_n"][index].replace("{n}", str(seat + 1))

    return name


def expected(game: str, settlement: dict[str, Any], lang: str) -> list[str]:
    """Each line's detail as the terminal says it."""
    return [
        describe(line["detail"], lang, game=game, seat=seat_name(lang))
        for line in settlement["lines"]
        if line["detail"]
    ]


def inject(page: Page, message: dict[str, Any]) -> None:
    """Hand the page a server message as if it came over its WebSocket."""
    page.evaluate("m => window.sanh.ws.onmessage({ data: JSON.stringify(m) })", message)


def test_settlement_details_read_in_both_languages(page: Page, tmp_path: Path) -> None:
    shown = samples()
    assert {"tien-len", "tai-xiu", "three-card-poker", "phom"} <= set(shown), sorted(shown)
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        # A Tiến lên table where the host waits alone: no hand starts, nothing else is sent.
        create_table(page, "tien-len", seats=4, bots=0)
        update = page.evaluate("() => window.sanh.update")
        me = page.evaluate("() => window.sanh.player")
        for number, (game, (seats, settlement)) in enumerate(shown.items(), start=1000):
            inject(page, {**update, "game": game, "hand": number, "view": None})
            players = [me, *(f"other-{s}" for s in range(1, seats))]
            inject(
                page,
                {
                    "type": "result",
                    "table": update["table"],
                    "hand": number,
                    "settlement": settlement,
                    "seats": players,
                },
            )
            page.wait_for_selector(f"#result[data-hand='{number}']")
            for lang in ("en", "vi"):
                switch_language(page, lang)
                details = page.eval_on_selector_all(
                    "#result .line-detail", "els => els.map(e => e.textContent)"
                )
                assert details == expected(game, settlement, lang), (game, lang)
                raw = [d for d in details if RAW.search(d)]
                assert not raw, f"{game} ({lang}): codes left raw: {raw}"
                check_translated(page)
            assert "thắng" in page.inner_text("#result") or "thua" in page.inner_text("#result")
        # A Hold'em view in the middle of a hand: the log reads in words as well.
        view, log = holdem_view()
        inject(page, {**update, "game": "texas-holdem", "hand": 2000, "view": view})
        for lang in ("en", "vi"):
            switch_language(page, lang)
            page.wait_for_selector(".center-poker .log li")
            shown = page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
            # (no seat of this table is in that hand: every seat is named by its number)
            want = [describe(entry, lang, game="texas-holdem") for entry in log]
            assert shown == want[-4:], (lang, shown, want)
            assert not [entry for entry in shown if RAW.search(entry)], shown
            check_translated(page)
    finally:
        hall.stop()


def holdem_view() -> tuple[dict[str, Any], list[str]]:
    """Seat 0's view of a seeded Hold'em hand after several actions, and its log."""
    game = REGISTRY["texas-holdem"]
    rng = SeededRng("texts/holdem-log")
    state = game.new_state(TableConfig.make(seats=3, stake=100))
    view: dict[str, Any] = {}
    while game.to_act(state) is not None:
        turn = game.to_act(state)
        event = (
            chance_event(game, state, rng) if turn is CHANCE else random_action(game, state, rng)
        )
        state = game.apply(state, event)
        view = to_jsonable(game.observe(state, 0))
        if len(view["log"]) >= 3 and not view["terminal"]:
            break
    assert len(view["log"]) >= 3, view["log"]
    return view, list(view["log"])


def test_every_error_code_and_a_void_read_in_both_languages(page: Page, tmp_path: Path) -> None:
    table = web_strings()
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        create_table(page, "tien-len", seats=4, bots=0)
        update = page.evaluate("() => window.sanh.update")
        for lang in ("vi", "en"):
            switch_language(page, lang)
            index = LANGUAGES.index(lang)
            for code in ErrorCode:
                message = f"the server's words for {code.value}"
                inject(page, {"type": "error", "code": code.value, "message": message})
                banner = page.inner_text("#banner")
                headline = table[f"error.{code.value}"][index]
                assert banner.startswith(headline), (code, banner)
                assert page.inner_text("#banner .banner-detail") == message
                assert page.get_attribute("#banner", "data-code") == code.value
            # A refusal carries its reason as a text code: the detail is in the page's language.
            for reason in (
                "betting_closed",
                "cannot_check:500",
                "does_not_beat:pair:7d7h:pair:8s8c",
            ):
                english = describe_code(reason)
                inject(
                    page,
                    {
                        "type": "error",
                        "code": "illegal_action",
                        "message": english,
                        "text": reason,
                        "table": update["table"],
                    },
                )
                detail = page.inner_text("#banner .banner-detail")
                assert detail == describe(reason, lang, game="tien-len"), (reason, detail)
                if lang == "vi":
                    assert detail != english, detail
            check_translated(page)
        # A voided hand (RULES.md §2.8): the result says so, in both languages, without breaking.
        me = page.evaluate("() => window.sanh.player")
        voided = {
            "type": "result",
            "table": update["table"],
            "hand": 77,
            "settlement": {},
            "seats": [me, None],
            "voided": "unrecoverable server fault",
            "voided_text": "void_fault",
        }
        inject(page, voided)
        for lang in ("vi", "en"):
            switch_language(page, lang)
            text = page.inner_text("#result.voided[data-hand='77']")
            assert table["table.voided"][LANGUAGES.index(lang)] in text, text
            assert table["text.void_fault"][LANGUAGES.index(lang)] in text, text
            check_translated(page)
        # A real refusal: an action while no hand is dealt.
        page.evaluate(
            "t => window.sanh.ws.send(JSON.stringify({type: 'act', table: t, nonce: 'n-1',"
            " version: 0, action: {type: 'Pass', seat: 0}}))",
            update["table"],
        )
        page.wait_for_selector("#banner[data-code='no_hand']:not([hidden])")
        assert page.inner_text("#banner").startswith(table["error.no_hand"][1])
        switch_language(page, "vi")
        page.evaluate(
            "t => window.sanh.ws.send(JSON.stringify({type: 'act', table: t, nonce: 'n-2',"
            " version: 0, action: {type: 'Pass', seat: 0}}))",
            update["table"],
        )
        page.wait_for_function(
            "h => document.querySelector('#banner').textContent.startsWith(h)",
            arg=table["error.no_hand"][0],
        )
    finally:
        hall.stop()


def test_http_errors_read_in_both_languages(page: Page, tmp_path: Path) -> None:
    """An HTTP error (a wrong password at sign-in, a table setup the hall refuses) shows its
    text code in the page's language after the translated headline, not the English message."""
    table = web_strings()
    expect_refusal(page, "/api/login", 401)  # the wrong password
    expect_refusal(page, "/api/tables", 422)  # the table setup refused
    hall = start_hall(tmp_path)
    try:
        page.goto(hall.url)
        page.wait_for_selector("body[data-ready='1']")
        for lang in ("vi", "en"):
            switch_language(page, lang)
            index = LANGUAGES.index(lang)
            page.fill("#login-form [name=username]", "nobody_here")
            page.fill("#login-form [name=password]", "not-the-password")
            page.click("#login-form button[value=login]")
            words = describe("wrong_credentials", lang)
            page.wait_for_function(
                "w => document.querySelector('#auth-error').textContent.includes(w)", arg=words
            )
            shown = page.inner_text("#auth-error")
            assert shown.startswith(table["auth.failed"][index]), shown
            assert table["error.bad_credentials"][index] in shown, shown
            if lang == "vi":
                assert describe_code("wrong_credentials") not in shown, shown
            check_translated(page)
        page.click("#guest")
        page.wait_for_selector("#create-game")
        for lang in ("vi", "en"):
            switch_language(page, lang)
            page.select_option("#create-game", "ba-cay-chuong")
            page.fill("[data-opt='bacaychuong.betting_s']", "0")
            page.click("#create-submit")
            words = describe("option_timer:bacaychuong.betting_s:3600:0", lang)
            page.wait_for_function(
                "w => document.querySelector('#create-msg').textContent.includes(w)", arg=words
            )
            shown = page.inner_text("#create-msg")
            assert shown.startswith(table["error.bad_config"][LANGUAGES.index(lang)]), shown
            if lang == "vi":
                assert "timer" not in shown and "thời gian" in shown, shown
            check_translated(page)
    finally:
        hall.stop()
