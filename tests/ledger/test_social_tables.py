"""Migrations 4 and 5 on both stores: the friends book and the leaderboard rows
(sanh/server/friends.py, sanh/server/leaderboards.py) over SQLite and PostgreSQL, and an older
database's hand records counted into the all-time boards when it is upgraded."""

from __future__ import annotations

import pytest

from sanh.ledger import store as store_module
from sanh.ledger.migrations import MIGRATIONS
from sanh.ledger.store import open_store
from sanh.server import leaderboards
from sanh.server.friends import FriendRefused, FriendsBook

PLAYER = (
    "INSERT INTO players (id, username, display_name, language, password_hash, created_at)"
    " VALUES (?, ?, ?, 'vi', '', 0)"
)


def _rows(board: list[leaderboards.PlayerRow]) -> list[tuple[str, int, int, int]]:
    return [(r.player, r.net, r.hands, r.best) for r in board]


def test_boards_and_friends_on_each_store(db_url: str) -> None:
    store = open_store(db_url)
    store.migrate()
    with store.write() as tx:
        for pid in (1, 2, 3):
            tx.execute(PLAYER, (pid, f"u{pid}", f"p{pid}"))
        tx.execute("INSERT INTO hall_bots (player_id, label) VALUES (3, 'bot')")
        leaderboards.record(tx, "tien-len", "2026-12-03", [1, 2, 3], [500, -200, -300])
        leaderboards.record(tx, "tien-len", "2026-12-01", [1, 2, -1], [-100, 100, 0])
        leaderboards.record(tx, "phom", "2026-11-29", [2, 1], [700, -700])
    week = leaderboards.board(store, "tien-len", "week", "2026-12-03")
    assert (week.first_day, week.last_day) == ("2026-11-30", "2026-12-03")
    assert _rows(week.net) == [("1", 400, 2, 500), ("2", -100, 2, 100)]
    day = leaderboards.board(store, "tien-len", "day", "2026-12-03")
    assert _rows(day.net) == [("1", 500, 1, 500), ("2", -200, 1, 0)]
    everything = leaderboards.board(store, "all", "all", "2026-12-03")
    assert _rows(everything.net) == [("2", 600, 3, 700), ("1", -300, 3, 500)]
    assert _rows(everything.best)[0][0] == "2" and [r.player for r in everything.hands] == [
        "2",
        "1",
    ]

    book = FriendsBook(store)
    assert book.request("1", "2") == "requested"
    assert book.request("2", "1") == "friends", "asking back makes friends"
    assert book.friend_ids("1") == {"2"} and book.friend_ids("2") == {"1"}
    with pytest.raises(FriendRefused, match="no_such_player"):
        book.request("1", "3")  # a bot
    assert book.block("2", "1") == "blocked"
    assert book.friend_ids("1") == set()
    with pytest.raises(FriendRefused, match="friend_blocked"):
        book.request("1", "2")
    book.set_hidden("1", True)
    assert book.hides_table("1") and not book.hides_table("2")
    store.close()


def test_an_upgrade_counts_the_recorded_hands_into_all_time(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:4])
        old = open_store(db_url)
        assert old.migrate() == [1, 2, 3, 4]
        with old.write() as tx:
            for statement in MIGRATIONS[4].sqlite[:3]:  # the hall's own hand tables
                tx.execute(statement)
            for pid in (1, 2):
                tx.execute(PLAYER, (pid, f"u{pid}", f"p{pid}"))
            tx.execute("INSERT INTO hall_bots (player_id, label) VALUES (2, 'bot')")
            for n, (game, nets) in enumerate((("phom", (300, -300)), ("tien-len", (-50, 50)))):
                tx.execute(
                    "INSERT INTO hands (id, table_id, hand, game, players, config, events,"
                    " settlement, finished_at) VALUES (?, 't', ?, ?, '[]', '{}', '[]', '{}', 0)",
                    (f"t:{n}", n, game),
                )
                for seat, net in enumerate(nets):
                    tx.execute(
                        "INSERT INTO hand_players (player_id, hand_id, seat, net, finished_at)"
                        " VALUES (?, ?, ?, ?, 0)",
                        (seat + 1, f"t:{n}", seat, net),
                    )
        old.close()
    store = open_store(db_url)
    assert store.migrate() == [5, 6]  # 6: the Sit & Go tournaments
    assert _rows(leaderboards.board(store, "all", "all", "2026-12-03").net) == [("1", 250, 2, 300)]
    assert _rows(leaderboards.board(store, "phom", "all", "2026-12-03").net) == [("1", 300, 1, 300)]
    assert leaderboards.board(store, "all", "day", "2026-12-03").net == []
    store.close()
