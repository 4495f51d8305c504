"""No gold from nowhere, no one pretending (issue 11, section 2), through a real ``sanh serve``.

Each hall here runs on a fixed time (``SANH_FIXED_NOW``) so that moving it is a restart with a
later time, never a sleep: the limits' windows and backoffs and the daily gold's calendar day
(Asia/Ho_Chi_Minh) are read from it. A restart is also what shows that the limits live in the
database.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.ledger.audit import audit
from sanh.ledger.book import Ledger
from sanh.ledger.players import PlayerRefused
from sanh.server.guard import Guard, Limits, Throttled
from sanh.server.services import DailyRefused
from sanh.server.wallet_services import WalletServices
from tests.ledger import conftest as ledger_fixtures
from tests.server.conftest import Client, HallProcess, free_port

store_url = ledger_fixtures.db_url
"""The ledger tests' ``db_url`` fixture: a fresh SQLite and a fresh PostgreSQL database."""

T0 = datetime(2026, 3, 1, 16, 30, tzinfo=UTC).timestamp()
"""23:30 on 1 March in Hồ Chí Minh City (UTC+7): one hour later it is 2 March there (and
still 1 March in UTC)."""


@pytest.fixture
def start_hall(tmp_path: Path) -> Iterator[Any]:
    """Start a hall with these ``SANH_*`` settings at time ``now``; stopped at the end."""
    halls: list[HallProcess] = []

    def start(now: float = T0, **env: str) -> HallProcess:
        hall = HallProcess(
            tmp_path / f"hall{len(halls)}.db", free_port(), 0.05, log=tmp_path / "hall.log"
        )
        hall.env = {"SANH_GUEST_GRANT": "100000", **env, "SANH_FIXED_NOW": str(now)}
        halls.append(hall)
        hall.start()
        return hall

    yield start
    for hall in halls:
        hall.stop()


def restart(hall: HallProcess, now: float) -> None:
    """Stop the hall and start it again on the same database at time ``now``."""
    hall.stop()
    hall.env["SANH_FIXED_NOW"] = str(now)
    hall.start()


def post(hall: HallProcess, path: str, body: Any = None, token: str = "") -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{hall.url}{path}", json=body, headers=headers, timeout=10)


def get(hall: HallProcess, path: str, token: str) -> Any:
    response = httpx.get(
        f"{hall.url}{path}", headers={"authorization": f"Bearer {token}"}, timeout=10
    )
    assert response.status_code == 200, response.text
    return response.json()


def refusal(response: httpx.Response, status: int) -> tuple[str, str]:
    """The error code and text code of a refused request, checking its status."""
    assert response.status_code == status, response.text
    body = response.json()
    return body["error"], body["text"]


def test_guests_per_address_are_limited_with_retry_after_and_the_limit_survives_a_restart(
    start_hall: Any,
) -> None:
    hall = start_hall(SANH_GUESTS_PER_HOUR="3")
    for k in range(3):
        made = post(hall, "/api/guest", {"name": f"khach {k}"})
        assert made.status_code == 201, made.text
        assert get(hall, "/api/me", made.json()["token"])["balance"] == 100_000  # 1,000 gold
    over = post(hall, "/api/guest", {"name": "one too many"})
    assert refusal(over, 429) == ("rate_limited", "too_many_guests:3600")
    assert over.headers["retry-after"] == "3600"

    restart(hall, T0 + 1_800)  # half an hour on: the three still count
    over = post(hall, "/api/guest", {"name": "one too many"})
    assert refusal(over, 429) == ("rate_limited", "too_many_guests:1800")
    assert over.headers["retry-after"] == "1800"

    restart(hall, T0 + 3_600)  # the first three leave the hour
    assert post(hall, "/api/guest", {"name": "next hour"}).status_code == 201


def test_registrations_per_address_are_limited(start_hall: Any) -> None:
    hall = start_hall(SANH_REGISTRATIONS_PER_HOUR="1")
    assert (
        post(hall, "/api/register", {"username": "lan", "password": "secret1"}).status_code == 201
    )
    over = post(hall, "/api/register", {"username": "minh", "password": "secret1"})
    assert refusal(over, 429) == ("rate_limited", "too_many_registrations:3600")
    assert over.headers["retry-after"] == "3600"


def test_failed_log_ins_back_off_exponentially_across_restarts(start_hall: Any) -> None:
    hall = start_hall(SANH_LOGIN_FREE_FAILURES="2", SANH_LOGIN_BACKOFF="10")
    assert (
        post(hall, "/api/register", {"username": "lan", "password": "secret1"}).status_code == 201
    )
    wrong = {"username": "lan", "password": "guess"}
    right = {"username": "lan", "password": "secret1"}
    for _ in range(2):
        assert refusal(post(hall, "/api/login", wrong), 401) == (
            "bad_credentials",
            "wrong_credentials",
        )
    # Two failures: even the right password waits 10 s after the last one.
    blocked = post(hall, "/api/login", right)
    assert refusal(blocked, 429) == ("rate_limited", "too_many_logins:10")
    assert blocked.headers["retry-after"] == "10"

    restart(hall, T0 + 10)  # the wait is over, and it was kept across the restart
    assert refusal(post(hall, "/api/login", wrong), 401)[0] == "bad_credentials"
    blocked = post(hall, "/api/login", right)  # a third failure: twice as long
    assert refusal(blocked, 429) == ("rate_limited", "too_many_logins:20")
    assert blocked.headers["retry-after"] == "20"

    restart(hall, T0 + 30)
    assert post(hall, "/api/login", right).status_code == 200
    # A success forgets the account's failures: one more mistake is only a mistake.
    assert refusal(post(hall, "/api/login", wrong), 401)[0] == "bad_credentials"
    assert post(hall, "/api/login", right).status_code == 200


def ledger_state(hall: HallProcess) -> tuple[dict[str, int], dict[str, int]]:
    """The ledger's account balances and row counts, and it audits clean."""
    with Ledger.open(hall.db_url) as ledger:
        report = audit(ledger)
        assert report.ok, report.to_text()
        balances = {a.id: a.balance for a in ledger.accounts()}
        assert sum(balances.values()) == 0
        return balances, {**ledger.counts(), "daily_claims": report.stats["daily_claims"]}


def test_daily_gold_is_paid_once_per_player_and_calendar_day_in_vietnam(start_hall: Any) -> None:
    hall = start_hall(SANH_DAILY_GOLD="50000", SANH_DAILY_BELOW="200000")
    token = post(hall, "/api/guest", {"name": "Mai"}).json()["token"]
    player = get(hall, "/api/me", token)["player"]
    claim = post(hall, "/api/daily", token=token)
    assert claim.status_code == 200, claim.text
    assert claim.json() == {"day": "2026-03-01", "amount": 50_000, "balance": 150_000}
    balances, counts = ledger_state(hall)
    assert balances[f"player:{player}"] == 150_000
    assert balances["promotions"] == -50_000
    assert counts["daily_claims"] == 1
    statement = get(hall, "/api/statement", token)["transfers"]
    assert statement[0]["code"] == "daily_gold" and statement[0]["amount"] == 50_000

    again = post(hall, "/api/daily", token=token)
    assert refusal(again, 409) == ("refused", "daily_claimed")
    assert ledger_state(hall) == (balances, counts), "a refused claim changes nothing"
    assert get(hall, "/api/statement", token)["transfers"] == statement

    restart(hall, T0 + 3_600)  # 00:30 on 2 March in Vietnam (17:30 on 1 March in UTC)
    claim = post(hall, "/api/daily", token=token)
    assert claim.status_code == 200, claim.text
    assert claim.json() == {"day": "2026-03-02", "amount": 50_000, "balance": 200_000}
    assert ledger_state(hall)[1]["daily_claims"] == 2

    restart(hall, T0 + 3_600 + 86_400)  # 3 March: 2,000 gold is not below the threshold
    refused = post(hall, "/api/daily", token=token)
    assert refusal(refused, 409) == ("refused", "daily_not_eligible:200000")
    assert ledger_state(hall)[0][f"player:{player}"] == 200_000


NOT_ALLOWED = {
    "Nhà cái": "display_name_reserved",
    "NHA CAI 99": "display_name_reserved",
    "House": "display_name_reserved",
    "Ηouse": "display_name_reserved",  # a Greek capital Eta
    "h0use": "display_name_reserved",
    "admin": "display_name_reserved",
    "Adm1n": "display_name_reserved",
    "Quản trị viên": "display_name_reserved",
    "Bot 3f2a1c": "display_name_reserved",
    "B0T": "display_name_reserved",
    "staff": "display_name_reserved",
    "Trần Minh Tuấn": "display_name_reserved",  # a bot's name (sanh/ledger/bot_names.py)
    "tran  minh TUAN": "display_name_reserved",
    "ad\u200bmin": "display_name_invalid:32",  # a zero-width space
    "x" * 33: "display_name_invalid:32",
    "   ": "display_name_invalid:32",
    "LAN": "display_name_taken",  # the registered player Lan's, case folded
    "Lаn": "display_name_taken",  # a Cyrillic а
    "Lân": "display_name_taken",  # accents stripped
}


def test_display_names_are_normalised_and_never_pass_for_the_house_staff_bots_or_others(
    start_hall: Any,
) -> None:
    hall = start_hall()
    made = post(hall, "/api/register", {"username": "lan", "password": "secret1", "name": "Lan"})
    assert made.status_code == 201, made.text
    for name, code in NOT_ALLOWED.items():
        assert refusal(post(hall, "/api/guest", {"name": name}), 409) == ("refused", code), name
        answer = post(
            hall, "/api/register", {"username": "other", "password": "x" * 8, "name": name}
        )
        assert refusal(answer, 409) == ("refused", code), name
    guest = post(hall, "/api/guest", {"name": "  Ｍai   Anh "}).json()
    assert guest["name"] == "Mai Anh"  # NFKC (a fullwidth M), trimmed, one space
    token = guest["token"]
    for name, code in NOT_ALLOWED.items():
        answer = httpx.patch(
            f"{hall.url}/api/me",
            json={"name": name},
            headers={"authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert refusal(answer, 409) == ("refused", code), name
    assert get(hall, "/api/me", token)["name"] == "Mai Anh", "a refused name changes nothing"
    # Lan may keep (and set again) her own name.
    lan = post(hall, "/api/login", {"username": "lan", "password": "secret1"}).json()["token"]
    answer = httpx.patch(
        f"{hall.url}/api/me",
        json={"name": "lan"},
        headers={"authorization": f"Bearer {lan}"},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text


def test_the_language_is_vi_or_en(start_hall: Any) -> None:
    hall = start_hall()
    for language in ("fr", "EN", "vi-VN", ""):
        answer = post(hall, "/api/guest", {"name": "Hoa", "language": language})
        if language == "":  # an empty language is the hall's default
            assert answer.status_code == 201
            continue
        assert refusal(answer, 409) == ("refused", "language_invalid"), language
    guest = post(hall, "/api/guest", {"name": "Hoa Anh", "language": "en"}).json()
    assert guest["language"] == "en"
    answer = httpx.patch(
        f"{hall.url}/api/me",
        json={"language": "de"},
        headers={"authorization": f"Bearer {guest['token']}"},
        timeout=10,
    )
    assert refusal(answer, 409) == ("refused", "language_invalid")
    assert get(hall, "/api/me", guest["token"])["language"] == "en"


def test_gold_at_a_table_counts_toward_the_daily_threshold(start_hall: Any) -> None:
    """A player whose wallet is low only because its gold sits at a table (a Tẩy stake) is not
    below the threshold: the daily gold counts the wallet, its held gold and its stakes."""
    hall = start_hall(SANH_DAILY_BELOW="100000")  # a guest's whole 1,000 gold
    client = Client.guest(hall, "Thu")
    created = client.http("POST", "/api/tables", json={"game": "texas-holdem", "stake": 100})
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    client.connect()
    client.send({"type": "join", "table": table})
    client.send({"type": "sit", "table": table})
    panel = client.until("buyin_panel")
    client.send({"type": "buyin", "table": table, "amount": panel["min"]})
    deadline = time.monotonic() + 20  # only bounds a hang
    while (balance := get(hall, "/api/me", client.token)["balance"]) == 100_000:
        assert time.monotonic() < deadline, "the buy-in never reached the ledger"
        time.sleep(0.05)
    assert balance == 100_000 - panel["min"]
    refused = post(hall, "/api/daily", token=client.token)
    assert refusal(refused, 409) == ("refused", "daily_not_eligible:100000")
    assert get(hall, "/api/me", client.token)["balance"] == balance
    client.close()


def test_the_limits_the_daily_gold_and_the_names_hold_on_sqlite_and_postgresql(
    store_url: str,
) -> None:
    """The same over the wallet services on both stores (migration 3 on each), reopened as a
    restart reopens them."""
    now = [T0]
    limits = Limits(guests_per_hour=1, login_free_failures=1, login_backoff=5)
    services = WalletServices.open(store_url)
    try:
        guard = Guard(services.ledger.store, limits, lambda: now[0])
        guard.admit_guest("10.0.0.1")
        guard.created("guest", "10.0.0.1")
        guard.login_failed("lan", "10.0.0.1")
        registered = services.register("lan", "secret1", "Lan", "vi")
        player = services.guest("Mai", "vi")
        assert services.daily_gold(player.id, "2026-03-01", amount=500, below=10**9) == 100_500
    finally:
        services.close()
    now[0] += 1  # one second later, after a restart
    services = WalletServices.open(store_url)
    try:
        guard = Guard(services.ledger.store, limits, lambda: now[0])
        with pytest.raises(Throttled) as guest_refused:
            guard.admit_guest("10.0.0.1")
        assert (guest_refused.value.code, guest_refused.value.retry_after) == (
            "too_many_guests",
            3_599,
        )
        guard.admit_guest("10.0.0.2")  # another address is free
        with pytest.raises(Throttled) as login_refused:
            guard.check_login("lan", "10.0.0.2")  # the account waits, whatever the address
        assert (login_refused.value.code, login_refused.value.retry_after) == (
            "too_many_logins",
            4,
        )
        with pytest.raises(DailyRefused) as daily_refused:
            services.daily_gold(player.id, "2026-03-01", amount=500, below=10**9)
        assert daily_refused.value.code == "daily_claimed"
        assert services.bank.balance(player.id) == 100_500
        report = audit(services.ledger)
        assert report.ok, report.to_text()
        assert report.stats["daily_claims"] == 1
        assert report.stats["balance_promotions"] == -500
        for name, code in (("Nhà cái", "display_name_reserved"), ("LÀN", "display_name_taken")):
            with pytest.raises(PlayerRefused) as name_refused:
                services.guest(name, "vi")
            assert name_refused.value.code == code
        services.update_profile(registered.id, name="Lan", language="en")  # her own name
    finally:
        services.close()
