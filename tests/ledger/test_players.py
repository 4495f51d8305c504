"""Players, guests, starting grants, XP and play time, clans and treasuries, on both stores."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher

from sanh.games.base import Settlement
from sanh.ledger import ISSUER, Ledger, ResultCode, clan_account, player_account
from sanh.ledger.audit import audit
from sanh.ledger.players import (
    ClanRole,
    GameStats,
    Hall,
    HallConfig,
    PlayerCode,
    PlayerRefused,
)

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
"""Cheap argon2id parameters, for tests only."""


@pytest.fixture
def hall(ledger: Ledger) -> Iterator[Hall]:
    yield Hall(ledger, HallConfig(starting_grant=50_000, guest_grant=5_000), hasher=FAST_HASHER)


def refused(code: PlayerCode) -> Any:
    return pytest.raises(PlayerRefused, match=code.value)


def test_register_login_and_starting_grant(hall: Hall) -> None:
    player = hall.register("Linh", "secret-1", display_name="Linh Nguyễn", language="vi")
    assert (player.username, player.display_name, player.language, player.guest) == (
        "linh",
        "Linh Nguyễn",
        "vi",
        False,
    )
    assert hall.balance(player.id) == 50_000
    assert hall.ledger.total_issued() == 50_000
    assert hall.login("LINH", "secret-1") == player
    with refused(PlayerCode.BAD_CREDENTIALS):
        hall.login("linh", "wrong-pass")
    with refused(PlayerCode.BAD_CREDENTIALS):
        hall.login("nobody", "secret-1")
    assert hall.find("linh") == player and hall.find("nobody") is None
    # a second login grants nothing more
    hall.login("linh", "secret-1")
    assert hall.balance(player.id) == 50_000


def test_passwords_are_salted_argon2_hashes(hall: Hall) -> None:
    first = hall.register("an_1", "same-password")
    second = hall.register("binh.2", "same-password")
    with hall.ledger.store.read() as tx:
        hashes = [
            tx.execute("SELECT password_hash FROM players WHERE id = ?", (p.id,))[0][0]
            for p in (first, second)
        ]
    assert all(h.startswith("$argon2id$") for h in hashes)
    assert hashes[0] != hashes[1]  # salted
    assert all("same-password" not in h for h in hashes)


def test_login_rehashes_weak_parameters(ledger: Ledger) -> None:
    weak = Hall(ledger, hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    player = weak.register("chi", "secret-1")
    stronger = Hall(ledger, hasher=PasswordHasher(time_cost=2, memory_cost=16, parallelism=1))
    stronger.login("chi", "secret-1")
    with ledger.store.read() as tx:
        stored = tx.execute("SELECT password_hash FROM players WHERE id = ?", (player.id,))[0][0]
    assert "m=16,t=2" in stored
    assert stronger.login("chi", "secret-1").id == player.id


@pytest.mark.parametrize(
    ("username", "password", "code"),
    [
        ("ab", "secret-1", PlayerCode.USERNAME_INVALID),
        ("has space", "secret-1", PlayerCode.USERNAME_INVALID),
        ("guest_me", "secret-1", PlayerCode.USERNAME_INVALID),
        ("x" * 25, "secret-1", PlayerCode.USERNAME_INVALID),
        ("dung", "12345", PlayerCode.PASSWORD_TOO_SHORT),
    ],
)
def test_registration_refusals_change_nothing(
    hall: Hall, username: str, password: str, code: PlayerCode
) -> None:
    before = hall.ledger.counts()
    with refused(code):
        hall.register(username, password)
    assert hall.ledger.counts() == before


def test_taken_username_and_profile_checks(hall: Hall) -> None:
    player = hall.register("giang", "secret-1")
    with refused(PlayerCode.USERNAME_TAKEN):
        hall.register("Giang", "other-secret")
    with refused(PlayerCode.LANGUAGE_INVALID):
        hall.register("hoa", "secret-1", language="vietnamese!")
    with refused(PlayerCode.DISPLAY_NAME_INVALID):
        hall.set_display_name(player.id, " " * 3)
    assert hall.set_display_name(player.id, "  Giang   Lê ").display_name == "Giang Lê"
    assert hall.set_language(player.id, "en").language == "en"
    with refused(PlayerCode.NO_SUCH_PLAYER):
        hall.player(999)


def test_guests_play_then_upgrade(hall: Hall) -> None:
    guest, token = hall.create_guest()
    assert guest.guest and guest.username.startswith("guest_")
    assert hall.balance(guest.id) == 5_000
    assert hall.login_guest(guest.id, token) == guest
    with refused(PlayerCode.BAD_CREDENTIALS):
        hall.login_guest(guest.id, "not-the-token")
    with refused(PlayerCode.BAD_CREDENTIALS):
        hall.login(guest.username, token)  # guests log in by id and token only
    upgraded = hall.upgrade_guest(guest.id, token, "khanh", "secret-1")
    assert (upgraded.id, upgraded.username, upgraded.guest) == (guest.id, "khanh", False)
    assert hall.login("khanh", "secret-1").id == guest.id
    assert hall.balance(guest.id) == 5_000  # same wallet, no second grant
    with refused(PlayerCode.BAD_CREDENTIALS):
        hall.login_guest(guest.id, token)


def test_wallet_is_repaired_after_a_crash_between_player_and_grant(hall: Hall) -> None:
    player = hall.register("lan", "secret-1")
    # simulate a registration that died after inserting the player row
    orphan = hall._insert_player("minh", "Minh", "vi", FAST_HASHER.hash("secret-1"), guest=False)
    assert hall.ledger.account(player_account(orphan.id)) is None
    assert hall.login("minh", "secret-1").id == orphan.id
    assert hall.balance(orphan.id) == 50_000
    assert hall.ensure_wallet(player).code is ResultCode.EXISTS
    assert hall.ledger.total_issued() == 100_000
    assert audit(hall.ledger).ok


def test_record_hand_counts_xp_and_play_time_once(hall: Hall) -> None:
    a = hall.register("player_a", "secret-1")
    b = hall.register("player_b", "secret-1")
    settlement = Settlement(deltas=(300, -300))
    kwargs: dict[str, Any] = {"settlement_id": "t1-h1", "table_id": "t1", "players": [a.id, b.id]}
    result = hall.record_hand("lieng", settlement, play_time_ms=42_000, counts_xp=True, **kwargs)
    assert result.code is ResultCode.OK
    again = hall.record_hand("lieng", settlement, play_time_ms=42_000, counts_xp=True, **kwargs)
    assert again.code is ResultCode.EXISTS
    assert hall.stats(a.id) == [GameStats("lieng", 1, 1, 2, 42_000)]
    assert hall.stats(b.id) == [GameStats("lieng", 1, 0, 1, 42_000)]
    assert (hall.balance(a.id), hall.balance(b.id)) == (50_300, 49_700)
    second = Settlement(deltas=(-100, 100))
    hall.record_hand(
        "lieng",
        second,
        settlement_id="t1-h2",
        table_id="t1",
        players=[a.id, b.id],
        play_time_ms=8_000,
        counts_xp=True,
    )
    assert hall.stats(a.id) == [GameStats("lieng", 2, 1, 3, 50_000)]


def test_tai_xiu_counts_no_xp_but_feeds_the_clan(hall: Hall) -> None:
    """RULES.md §5.6 [S001]: no play time or personal XP; clan XP and 1 % to the treasury."""
    member = hall.register("member", "secret-1")
    outsider = hall.register("outsider", "secret-1")
    clan = hall.create_clan(member.id, "Rồng Vàng")
    settlement = Settlement(
        deltas=(950, -1_000), house=40, fee=9, clan_share=(1, 0), clan_xp=(5, 0)
    )
    result = hall.record_hand(
        "tai-xiu",
        settlement,
        settlement_id="tx-1",
        table_id="tx",
        players=[member.id, outsider.id],
        play_time_ms=30_000,
    )  # counts_xp from the registry: tai-xiu's info.counts_xp is False
    assert result.code is ResultCode.OK
    assert hall.stats(member.id) == [] and hall.stats(outsider.id) == []
    assert hall.clan(clan.id).xp == 5
    assert hall.treasury(clan.id) == 1
    assert hall.ledger.balance("fees") == 9
    assert hall.ledger.balance("house") == 40
    assert audit(hall.ledger).ok


def test_record_hand_refused_records_nothing(hall: Hall) -> None:
    a = hall.register("poor_a", "secret-1")
    b = hall.register("poor_b", "secret-1")
    settlement = Settlement(deltas=(60_000, -60_000))
    result = hall.record_hand(
        "lieng", settlement, settlement_id="x", table_id="t", players=[a.id, b.id], counts_xp=True
    )
    assert result.code is ResultCode.EXCEEDS_CREDITS
    assert hall.stats(a.id) == [] and hall.balance(a.id) == 50_000


def test_clans_create_join_roles_leave(hall: Hall) -> None:
    leader, officer, member, other = (
        hall.register(name, "secret-1") for name in ("leader", "officer", "member", "other")
    )
    clan = hall.create_clan(leader.id, "  Bang   Hổ ")
    assert clan.name == "Bang Hổ" and clan.treasury == clan_account(clan.id)
    assert hall.ledger.account(clan.treasury) is not None
    with refused(PlayerCode.CLAN_NAME_TAKEN):
        hall.create_clan(other.id, "bang hổ")
    with refused(PlayerCode.CLAN_NAME_INVALID):
        hall.create_clan(other.id, "x")
    with refused(PlayerCode.ALREADY_IN_CLAN):
        hall.create_clan(leader.id, "Another")
    with refused(PlayerCode.NO_SUCH_CLAN):
        hall.join_clan(officer.id, 999)
    assert hall.join_clan(officer.id, clan.id).role is ClanRole.MEMBER
    hall.join_clan(member.id, clan.id)
    with refused(PlayerCode.ALREADY_IN_CLAN):
        hall.join_clan(member.id, clan.id)
    with refused(PlayerCode.NOT_ALLOWED):
        hall.set_role(officer.id, member.id, "officer")
    with refused(PlayerCode.ROLE_INVALID):
        hall.set_role(leader.id, officer.id, "king")
    hall.set_role(leader.id, officer.id, ClanRole.OFFICER)
    with refused(PlayerCode.NOT_ALLOWED):
        hall.remove_member(officer.id, leader.id)
    with refused(PlayerCode.LEADER_MUST_HAND_OVER):
        hall.leave_clan(leader.id)
    hall.set_role(leader.id, officer.id, "leader")  # hand over
    assert [(m.player_id, m.role) for m in hall.members(clan.id)] == [
        (officer.id, ClanRole.LEADER),
        (leader.id, ClanRole.OFFICER),
        (member.id, ClanRole.MEMBER),
    ]
    hall.leave_clan(leader.id)
    hall.remove_member(officer.id, member.id)
    with refused(PlayerCode.NOT_IN_CLAN):
        hall.leave_clan(member.id)
    hall.leave_clan(officer.id)  # the last member leaves: the clan stays, empty
    assert hall.members(clan.id) == []
    assert hall.join_clan(other.id, clan.id).role is ClanRole.LEADER
    assert hall.membership(other.id) is not None and hall.membership(member.id) is None


def test_issuer_funds_every_grant(hall: Hall) -> None:
    players = [hall.register(f"p{n:03d}", "secret-1") for n in range(5)]
    guest, _ = hall.create_guest()
    assert hall.ledger.balance(ISSUER) == -(5 * 50_000 + 5_000)
    assert sum(hall.balance(p.id) for p in (*players, guest)) == hall.ledger.total_issued()
