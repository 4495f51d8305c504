"""The hall's own refusals are text codes (sanh/server/texts.py ``SERVER_TEXTS``, and a
game's refusal of a table setup, sanh/games/_texts.py ``CONFIG_TEXTS``).

Errors of the HTTP API carry ``text`` beside the English ``message`` (null only for a parser's
complaint); the table actor and the WebSocket never send an English sentence of their own (a
static check of their source), only a malformed message's parser words.
"""

from __future__ import annotations

import ast
import asyncio
from typing import Any

import httpx

from sanh.games import REGISTRY
from sanh.games._texts import CONFIG_TEXTS
from sanh.server.app import create_app
from sanh.server.hall import Hall
from sanh.server.settings import Settings
from sanh.server.texts import SERVER_TEXTS
from sanh.server.wallet_services import WalletServices
from sanh.texts import TEXTS, describe, parse
from tests.source_scan import ROOT, call_name

HALL_TEXTS = {**SERVER_TEXTS, **CONFIG_TEXTS}
"""What the hall answers with: its own codes and the games' refusals of a table's setup."""


def _api(calls: list[tuple[str, str, dict[str, Any] | None, bool]]) -> list[dict[str, Any]]:
    """Each (method, path, JSON body, signed in as a guest) call's status and JSON answer."""
    settings = Settings(bots_on_start=False)
    services = WalletServices.open("sqlite:///:memory:")
    out: list[dict[str, Any]] = []

    async def body() -> None:
        hall = Hall(settings, services.bank)
        try:
            app = create_app(settings, services, hall)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://hall") as client:
                guest = (await client.post("/api/guest", json={"name": "g"})).json()
                headers = {"authorization": f"Bearer {guest['token']}"}
                for method, path, data, signed in calls:
                    response = await client.request(
                        method, path, json=data, headers=headers if signed else {}
                    )
                    out.append({"status": response.status_code, **response.json()})
        finally:
            await hall.close()

    try:
        asyncio.run(body())
    finally:
        services.close()
    return out


def test_http_errors_carry_their_text_code_and_english() -> None:
    table = {"game": "ba-cay-chuong", "stake": 100, "seats": 4}
    answers = _api(
        [
            ("POST", "/api/login", {"username": "nobody", "password": "whatever"}, False),
            ("GET", "/api/me", None, False),
            ("GET", "/api/tables/t0000", None, True),
            ("GET", "/api/recall/12345", None, True),
            ("POST", "/api/register", {"username": "someone", "password": "abc"}, False),
            ("POST", "/api/register", {"username": "guest_x", "password": "abcdefgh"}, False),
            ("POST", "/api/clans/leave", None, True),
            ("POST", "/api/tables", {**table, "seats": 99}, True),
            ("POST", "/api/tables", {**table, "stake": 0}, True),
            ("POST", "/api/tables", {**table, "options": {"bacaychuong.betting_s": 0}}, True),
            ("POST", "/api/tables", {**table, "options": {"no.such": 1}}, True),
            ("PATCH", "/api/me", {"language": "not a tag"}, True),
            ("POST", "/api/tables", {"game": "x", "stake": "1"}, True),
            ("GET", "/openapi.json", None, False),
        ]
    )
    document = answers.pop()
    assert document["components"]["schemas"]["Error"]["required"] == ["error", "message", "text"]
    login = document["paths"]["/api/login"]["post"]["responses"]["401"]
    assert login["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    got = [(a["status"], a["error"], a["text"], a["message"]) for a in answers]
    info = REGISTRY["ba-cay-chuong"].info
    low, high = info.seats_min, info.seats_max
    assert got[:7] == [
        (401, "bad_credentials", "wrong_credentials", "wrong credentials"),
        (401, "unauthenticated", "log_in_first", "log in first"),
        (404, "no_such_table", "no_such_table", "no such table"),
        (404, "no_such_hand", "no_such_hand", "no such hand of yours"),
        (409, "refused", "password_too_short:6", "a password needs at least 6 characters"),
        (
            409,
            "refused",
            "username_invalid:3:24",
            "a username is 3 to 24 of a-z 0-9 _ . and does not start with 'guest'",
        ),
        (409, "refused", "not_in_clan", "you are not in a clan"),
    ]
    assert got[7:11] == [
        (
            422,
            "bad_config",
            f"seats_range:ba-cay-chuong:{low}:{high}:99",
            f"ba-cay-chuong seats {low}..{high}, not 99",
        ),
        (
            422,
            "bad_config",
            "stake_range:1:100000000",
            "the bet level must be between 0.01 and 1,000,000.00",
        ),
        (
            422,
            "bad_config",
            "option_timer:bacaychuong.betting_s:3600:0",
            "option bacaychuong.betting_s: a timer of 1 to 3600 seconds, not 0",
        ),
        (
            422,
            "bad_config",
            "unknown_option:ba-cay-chuong:no.such",
            "ba-cay-chuong: unknown option 'no.such'",
        ),
    ]
    assert got[11][:3] == (409, "refused", "language_invalid")
    for answer in answers[:12]:
        assert all(code in HALL_TEXTS for code, _ in parse(answer["text"])), answer
        assert answer["message"] == describe(answer["text"]), answer
    # A body that does not fit: the parser's own words, and the field as a text code.
    assert got[12][:3] == (422, "malformed", "field_invalid:$.stake") and got[12][3]


# ----- the static check -------------------------------------------------------------------------
WORDS = {
    "_error": 2,
    "_refuse": 2,
    "refuse_frame": 1,
    "send_free_error": 1,
    "refuse": 2,
    "_send_refusal": 4,
    "_send_free_error": 4,
    "_coded_error": 1,
}
"""Calls that send an error, and the position of their words (``ApiError``'s is 2 or ``text=``,
``Error``'s ``message=``)."""
FREE = {"_error", "send_free_error"}
"""Senders of free words: only for a parser's complaint (``MALFORMED``, ``_refusal_code``) or
the English of a code (``describe(reason)``)."""


def _english(node: ast.expr) -> bool:
    """Whether ``node`` is plainly English (a sentence, an f-string, a built string)."""
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        parts = parse(node.value)
        return not parts or any(code not in TEXTS for code, _ in parts)
    return False


def _words(node: ast.Call) -> list[ast.expr]:
    name = call_name(node.func)
    keywords = {k.arg: k.value for k in node.keywords}
    if name == "ApiError":
        return [*node.args[2:3], *(v for k, v in keywords.items() if k in {"message", "text"})]
    if name == "Error":
        return [keywords["message"]] if "message" in keywords else []
    position = WORDS[name]
    if len(node.args) > position and not isinstance(node.args[-1], ast.Starred):
        return [node.args[position]]
    return [v for k, v in keywords.items() if k in {"message", "reason"}]


def problems_in(source: str) -> tuple[int, list[str]]:
    """How many error-sending calls ``source`` makes, and which pass English words."""
    checked, problems = 0, []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = call_name(node.func)
        if name not in {*WORDS, "ApiError", "Error"}:
            continue
        checked += 1
        said = ast.unparse(node)
        parser = "MALFORMED" in said or "_refusal_code" in said or "'malformed'" in said
        for arg in _words(node):
            if _english(arg):
                problems.append(f"{node.lineno}: {ast.unparse(arg)} is no text code")
            elif name in FREE and not parser and ast.unparse(arg) != "describe(reason)":
                problems.append(f"{node.lineno}: {name} sends free words: {said}")
    return checked, problems


def test_no_server_error_is_an_english_sentence() -> None:
    total = 0
    server = ROOT / "sanh/server"
    tables = sorted(str(p.relative_to(ROOT)) for p in server.glob("table*.py"))
    http = sorted(str(path.relative_to(ROOT)) for path in server.glob("http_*.py"))
    for path in (*tables, "sanh/server/ws.py", "sanh/server/api.py", *http):
        checked, problems = problems_in((ROOT / path).read_text(encoding="utf-8"))
        assert not problems, f"{path}:\n" + "\n".join(problems)
        total += checked
    assert total > 40, total


def test_the_static_check_sees_english() -> None:
    source = (
        "self._error(conn, p.ErrorCode.TABLE_FULL, 'the table is full')\n"
        "self._refuse(conn, p.ErrorCode.BAD_AMOUNT, f'no seat {wanted}')\n"
        "raise ApiError(404, 'no_such_table', 'no such table')\n"
        "conn.send(p.Error(code=p.ErrorCode.BAD_RESUME, message='no seat for this token'))\n"
        "self._error(conn, p.ErrorCode.NOT_SEATED, words)\n"
        "raise ApiError(404, 'no_such_table', text='no_such_table')\n"
        "self._refuse(conn, p.ErrorCode.TABLE_FULL, 'table_full')\n"
        "self._error(conn, p.ErrorCode.MALFORMED, str(exc))\n"
        "self._refuse(conn, p.ErrorCode.BAD_AMOUNT, text('no_seat_number', seat + 1))\n"
    )
    checked, problems = problems_in(source)
    assert checked == 9
    assert sorted(int(p.split(":")[0]) for p in problems) == [1, 2, 3, 4, 5]


def test_a_setup_the_game_refuses_is_refused_when_the_table_is_created() -> None:
    """An option value the game refuses only when it builds a hand (Liêng's minimum raise of
    0 L: a valid integer, but the raise must be at least 1 L) is refused by the lobby with
    ``bad_config``, and no table is made; a valid setup of the same game is created."""
    answers = _api(
        [
            ("POST", "/api/tables", {"game": "lieng", "stake": 100, "seats": 3}, True),
            (
                "POST",
                "/api/tables",
                {"game": "lieng", "stake": 100, "seats": 3, "options": {"lieng.min_raise": 0}},
                True,
            ),
            ("GET", "/api/lobby?game=lieng", None, True),
        ]
    )
    created, refused, lobby = answers
    assert created["status"] == 201, created
    assert refused["status"] == 422 and refused["error"] == "bad_config", refused
    assert "lieng.min_raise" in refused["message"], refused
    lieng = [t for t in lobby["tables"] if t["game"] == "lieng" and not t.get("system")]
    assert [t["id"] for t in lieng] == [created["id"]], lobby


def test_replay_only_options_are_neither_offered_nor_accepted() -> None:
    """Hold'em's ``holdem.unknown_cards`` and ``holdem.mucked`` replay recorded hands (PHH
    ``????`` cards, mucks); at a table a host could blind a seat or forfeit its showdown, so
    the lobby does not list them and refuses them."""
    table = {"game": "texas-holdem", "stake": 100, "seats": 6}
    games, unknown, mucked = _api(
        [
            ("GET", "/api/games", None, False),
            ("POST", "/api/tables", {**table, "options": {"holdem.unknown_cards": "2"}}, True),
            ("POST", "/api/tables", {**table, "options": {"holdem.mucked": "1"}}, True),
        ]
    )
    (holdem,) = [g for g in games["games"] if g["id"] == "texas-holdem"]
    offered = {o["name"] for o in holdem["options"]}
    assert "holdem.require_hole_card" in offered
    assert not offered & {"holdem.unknown_cards", "holdem.mucked"}
    assert (unknown["status"], unknown["error"], unknown["text"]) == (
        422,
        "bad_config",
        "option_replay_only:holdem.unknown_cards",
    )
    assert mucked["text"] == "option_replay_only:holdem.mucked"
    assert (
        mucked["message"] == "option holdem.mucked is for replaying recorded hands, not for a table"
    )


def test_a_host_may_not_make_the_house_pay_more_than_the_rules_paytables() -> None:
    """House tables take the rule texts' paytables (Teen Patti's defaults or less) but nothing
    more generous; a player-hosted Tài Xỉu bank pays its own, and a house-banked Tài Xỉu table
    is the hall's own only (``tai_xiu_system_table_only``)."""
    generous = ",".join(f"{total}=100" for total in range(4, 18))
    teen = {"game": "teen-patti-2020", "stake": 100, "seats": 5}
    tai = {"game": "tai-xiu", "stake": 100, "seats": 5}
    answers = _api(
        [
            ("POST", "/api/tables", {**teen, "options": {"teenpatti.tie_pays": 50}}, True),
            ("POST", "/api/tables", {**teen, "options": {"teenpatti.tie_pays": 51}}, True),
            ("POST", "/api/tables", {**teen, "options": {"teenpatti.main_pays_pct": 100}}, True),
            (
                "POST",
                "/api/tables",
                {**teen, "options": {"teenpatti.pairplus_paytable": "50-40-30-6-3-2"}},
                True,
            ),
            (
                "POST",
                "/api/tables",
                {**teen, "options": {"teenpatti.pairplus_paytable": "40-30-20-5-2-1"}},
                True,
            ),
            (
                "POST",
                "/api/tables",
                {**tai, "options": {"taixiu.total_paytable": "macau", "taixiu.table": "system"}},
                True,
            ),
            (
                "POST",
                "/api/tables",
                {**tai, "options": {"taixiu.total_paytable": generous, "taixiu.table": "system"}},
                True,
            ),
            (
                "POST",
                "/api/tables",
                {**tai, "options": {"taixiu.total_paytable": generous, "taixiu.table": "player"}},
                True,
            ),
        ]
    )
    got = [(a["status"], a.get("text")) for a in answers]
    over = "option_over_house_paytable:"
    assert got == [
        (201, None),
        (422, over + "teenpatti.tie_pays"),
        (422, over + "teenpatti.main_pays_pct"),
        (422, over + "teenpatti.pairplus_paytable"),
        (201, None),
        (422, "tai_xiu_system_table_only"),  # seed 001: the one house Tài Xỉu table is the hall's
        (422, "tai_xiu_system_table_only"),
        (201, None),
    ], answers
    assert answers[1]["message"] == (
        "option teenpatti.tie_pays may not pay more than the rules' paytables"
        " at a table the house banks"
    )
