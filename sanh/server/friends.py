"""Friends: requests, accept/decline, block; presence; invitations to a table.

The relations live in the ledger's database (migration 4, sanh/ledger/migrations.py):
``friend_requests`` (one row per pending request, from -> to), ``friendships`` (one row each
way), ``blocks`` (who blocked whom) and ``players.hide_table``.

* A request to a player who already asked you makes you friends at once; a request to or from
  a player one of you blocked is refused (``friend_blocked``), so a blocked player can neither
  ask nor invite you. Blocking ends the friendship and every request between the two.
* Presence (:class:`Social`): who of your friends is online (has an open WebSocket) and at which
  table (the table they sit at, else one they watch), unless they hide it (``hide``); a private
  table's id is never shown (``private: true``: a friend needs its invite code to get in). It
  comes over the WebSocket as ``presence`` messages (docs/protocol.md): the whole list after
  the welcome and after a friendship changes, one entry when a friend comes, goes, or changes
  table.
* An invitation (``invite``) goes to an online friend as a ``friend_invite`` message with what
  opens the table: its id, or a private table's invite code (``#/table/<join>`` in the web
  client). Only a player at the table (seated, watching or its host) may invite to it.

The HTTP endpoints are module-level functions reading ``request.app.state.social``;
they are declared on :data:`ENDPOINTS`, one of the app's endpoint groups (``app.GROUPS``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any, Literal

import msgspec
from starlette import status
from starlette.requests import Request

from sanh.ledger.store import LedgerStore, StoreTx
from sanh.server import protocol as p
from sanh.server.api import ApiError, Endpoints
from sanh.server.services import PlayerInfo
from sanh.server.table import Connection

__all__ = [
    "ENDPOINTS",
    "FriendAction",
    "FriendRef",
    "FriendRefused",
    "Friends",
    "FriendsBook",
    "Social",
    "friends_change",
    "friends_list",
]

Action = Literal["request", "accept", "decline", "remove", "block", "unblock", "invite", "hide"]


class FriendAction(msgspec.Struct, forbid_unknown_fields=True):
    """One change: ``request``, ``accept`` or ``decline`` (a request from ``player``; declining
    your own request withdraws it), ``remove`` (a friend), ``block``/``unblock`` (``player``),
    ``invite`` (a friend to ``table``, which you are at) or ``hide`` (``hide``: friends do not
    see which table you are at)."""

    action: Action
    player: str | None = None
    table: str | None = None
    hide: bool | None = None


class FriendRef(msgspec.Struct):
    """A player in a request or the block list."""

    player: str
    name: str
    at: int
    """When the request or the block was made (epoch nanoseconds)."""


class Friends(msgspec.Struct):
    """Your friends with their presence, the requests to and from you, whom you block."""

    friends: list[p.FriendPresence]
    incoming: list[FriendRef]
    outgoing: list[FriendRef]
    blocked: list[FriendRef]
    hide_table: bool
    invited: int | None = None
    """For an ``invite``: to how many of the friend's open connections it went."""


class FriendRefused(Exception):
    """A refused change: its HTTP status and text code (nothing changed)."""

    def __init__(self, status_code: int, code: str) -> None:
        super().__init__(code)
        self.status_code = status_code
        self.code = code


def _pid(player: str | None) -> int:
    if player is None or not player.isdigit() or len(player) > 18:
        raise FriendRefused(status.HTTP_404_NOT_FOUND, "no_such_player")
    return int(player)


class FriendsBook:
    """The friend relations in the database (every method is one transaction)."""

    def __init__(self, store: LedgerStore) -> None:
        self.store = store

    # ----- reading ----------------------------------------------------------------------------
    def friend_ids(self, player: str) -> set[str]:
        with self.store.read() as tx:
            rows = tx.execute(
                "SELECT friend_id FROM friendships WHERE player_id = ?", (_pid(player),)
            )
        return {str(r[0]) for r in rows}

    def hides_table(self, player: str) -> bool:
        with self.store.read() as tx:
            rows = tx.execute("SELECT hide_table FROM players WHERE id = ?", (_pid(player),))
        return bool(rows and rows[0][0])

    def listing(self, player: str) -> dict[str, Any]:
        """Friends (id, name, hides their table), requests each way, blocks, own setting."""
        me = _pid(player)
        with self.store.read() as tx:
            friends = tx.execute(
                "SELECT f.friend_id, p.display_name, p.hide_table FROM friendships f"
                " JOIN players p ON p.id = f.friend_id WHERE f.player_id = ?"
                " ORDER BY p.display_name, f.friend_id",
                (me,),
            )
            incoming = tx.execute(
                "SELECT r.from_id, p.display_name, r.at FROM friend_requests r"
                " JOIN players p ON p.id = r.from_id WHERE r.to_id = ? ORDER BY r.at",
                (me,),
            )
            outgoing = tx.execute(
                "SELECT r.to_id, p.display_name, r.at FROM friend_requests r"
                " JOIN players p ON p.id = r.to_id WHERE r.from_id = ? ORDER BY r.at",
                (me,),
            )
            blocked = tx.execute(
                "SELECT b.blocked_id, p.display_name, b.at FROM blocks b"
                " JOIN players p ON p.id = b.blocked_id WHERE b.player_id = ? ORDER BY b.at",
                (me,),
            )
            hide = tx.execute("SELECT hide_table FROM players WHERE id = ?", (me,))

        def refs(rows: Iterable[tuple[Any, ...]]) -> list[FriendRef]:
            return [FriendRef(player=str(a), name=str(b), at=int(c)) for a, b, c in rows]

        return {
            "friends": [(str(a), str(b), bool(c)) for a, b, c in friends],
            "incoming": refs(incoming),
            "outgoing": refs(outgoing),
            "blocked": refs(blocked),
            "hide_table": bool(hide and hide[0][0]),
        }

    # ----- changing ---------------------------------------------------------------------------
    def _write(self, work: Callable[[StoreTx], str]) -> str:
        return self.store.run_write(work)

    @staticmethod
    def _other(tx: StoreTx, me: int, player: str | None) -> int:
        """The other player: a person (not a bot), not oneself."""
        other = _pid(player)
        if other == me:
            raise FriendRefused(status.HTTP_409_CONFLICT, "friend_self")
        rows = tx.execute(
            "SELECT 1 FROM players WHERE id = ?"
            " AND NOT EXISTS (SELECT 1 FROM hall_bots WHERE player_id = ?)",
            (other, other),
        )
        if not rows:
            raise FriendRefused(status.HTTP_404_NOT_FOUND, "no_such_player")
        return other

    @staticmethod
    def _blocked(tx: StoreTx, a: int, b: int) -> bool:
        rows = tx.execute(
            "SELECT 1 FROM blocks WHERE (player_id = ? AND blocked_id = ?)"
            " OR (player_id = ? AND blocked_id = ?)",
            (a, b, b, a),
        )
        return bool(rows)

    @staticmethod
    def _are_friends(tx: StoreTx, a: int, b: int) -> bool:
        rows = tx.execute("SELECT 1 FROM friendships WHERE player_id = ? AND friend_id = ?", (a, b))
        return bool(rows)

    @staticmethod
    def _befriend(tx: StoreTx, a: int, b: int) -> None:
        now = time.time_ns()
        tx.execute(
            "DELETE FROM friend_requests WHERE (from_id = ? AND to_id = ?)"
            " OR (from_id = ? AND to_id = ?)",
            (a, b, b, a),
        )
        tx.executemany(
            "INSERT INTO friendships (player_id, friend_id, since) VALUES (?, ?, ?)",
            [(a, b, now), (b, a, now)],
        )

    def request(self, player: str, other_id: str | None) -> str:
        """Ask ``other_id`` to be friends: ``requested``, or ``friends`` when they had asked."""
        me = _pid(player)

        def work(tx: StoreTx) -> str:
            other = self._other(tx, me, other_id)
            if self._blocked(tx, me, other):
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_blocked")
            if self._are_friends(tx, me, other):
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_already")
            asked = tx.execute(
                "SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ?", (other, me)
            )
            if asked:
                self._befriend(tx, me, other)
                return "friends"
            sent = tx.execute(
                "SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ?", (me, other)
            )
            if sent:
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_request_sent")
            tx.execute(
                "INSERT INTO friend_requests (from_id, to_id, at) VALUES (?, ?, ?)",
                (me, other, time.time_ns()),
            )
            return "requested"

        return self._write(work)

    def accept(self, player: str, other_id: str | None) -> str:
        """Accept ``other_id``'s request."""
        me = _pid(player)

        def work(tx: StoreTx) -> str:
            other = self._other(tx, me, other_id)
            asked = tx.execute(
                "SELECT 1 FROM friend_requests WHERE from_id = ? AND to_id = ?", (other, me)
            )
            if not asked:
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_no_request")
            self._befriend(tx, me, other)
            return "friends"

        return self._write(work)

    def decline(self, player: str, other_id: str | None) -> str:
        """Decline ``other_id``'s request, or withdraw one's own request to them."""
        me = _pid(player)

        def work(tx: StoreTx) -> str:
            other = self._other(tx, me, other_id)
            pending = tx.execute(
                "SELECT 1 FROM friend_requests WHERE (from_id = ? AND to_id = ?)"
                " OR (from_id = ? AND to_id = ?)",
                (other, me, me, other),
            )
            if not pending:
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_no_request")
            tx.execute(
                "DELETE FROM friend_requests WHERE (from_id = ? AND to_id = ?)"
                " OR (from_id = ? AND to_id = ?)",
                (other, me, me, other),
            )
            return "declined"

        return self._write(work)

    def remove(self, player: str, other_id: str | None) -> str:
        """End a friendship."""
        me = _pid(player)

        def work(tx: StoreTx) -> str:
            other = self._other(tx, me, other_id)
            if not self._are_friends(tx, me, other):
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_not_friends")
            tx.execute(
                "DELETE FROM friendships WHERE (player_id = ? AND friend_id = ?)"
                " OR (player_id = ? AND friend_id = ?)",
                (me, other, other, me),
            )
            return "removed"

        return self._write(work)

    def block(self, player: str, other_id: str | None) -> str:
        """Block a player: no friendship or request between the two is left."""
        me = _pid(player)

        def work(tx: StoreTx) -> str:
            other = self._other(tx, me, other_id)
            if tx.execute(
                "SELECT 1 FROM blocks WHERE player_id = ? AND blocked_id = ?", (me, other)
            ):
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_blocked_already")
            tx.execute(
                "DELETE FROM friendships WHERE (player_id = ? AND friend_id = ?)"
                " OR (player_id = ? AND friend_id = ?)",
                (me, other, other, me),
            )
            tx.execute(
                "DELETE FROM friend_requests WHERE (from_id = ? AND to_id = ?)"
                " OR (from_id = ? AND to_id = ?)",
                (me, other, other, me),
            )
            tx.execute(
                "INSERT INTO blocks (player_id, blocked_id, at) VALUES (?, ?, ?)",
                (me, other, time.time_ns()),
            )
            return "blocked"

        return self._write(work)

    def unblock(self, player: str, other_id: str | None) -> str:
        """Lift one's block of a player."""
        me = _pid(player)

        def work(tx: StoreTx) -> str:
            other = self._other(tx, me, other_id)
            if not tx.execute(
                "SELECT 1 FROM blocks WHERE player_id = ? AND blocked_id = ?", (me, other)
            ):
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_not_blocked")
            tx.execute("DELETE FROM blocks WHERE player_id = ? AND blocked_id = ?", (me, other))
            return "unblocked"

        return self._write(work)

    def set_hidden(self, player: str, hide: bool) -> None:
        """Whether friends may see which table the player is at."""
        me = _pid(player)

        def work(tx: StoreTx) -> str:
            tx.execute("UPDATE players SET hide_table = ? WHERE id = ?", (int(hide), me))
            return "ok"

        self._write(work)


class _WatchedTables(set[str]):
    """A connection's set of joined tables that tells presence when it changes."""

    def __init__(self, tables: Iterable[str], changed: Callable[[], None]) -> None:
        super().__init__(tables)
        self._changed = changed

    def add(self, table: str) -> None:
        if table not in self:
            super().add(table)
            self._changed()

    def discard(self, table: object) -> None:
        if table in self:
            super().discard(table)
            self._changed()

    def remove(self, table: str) -> None:
        super().remove(table)
        self._changed()


class Social:
    """Presence and invitations over the hall's connections, and the friends book.

    It keeps, for each online player, their open connections, their friends (read when they
    come online, updated by every change made through :meth:`change`) and whether they hide
    their table, so a presence update costs no database read.
    """

    def __init__(self, hall: Any, accounts: Any) -> None:
        self.hall = hall
        self.book = FriendsBook(accounts.ledger.store)
        self.connections: dict[str, list[Connection]] = {}
        self.friends_of: dict[str, set[str]] = {}
        self.hidden: dict[str, bool] = {}
        self.names: dict[str, str] = {}
        self.shown: dict[str, tuple[bool, str | None, str | None, bool]] = {}
        """What each online player's friends were last told of them."""

    # ----- where a player is --------------------------------------------------------------------
    def _where(self, player: str) -> tuple[str | None, str | None, bool]:
        """(table id, game, private) of the table the player sits at, else one they watch."""
        best: tuple[int, str] | None = None
        for conn in self.connections.get(player, ()):
            for table_id in conn.tables:
                actor = self.hall.tables.get(table_id)
                if actor is None:
                    continue
                rank = 0 if actor._seat_of(player) is not None else 1
                if best is None or (rank, table_id) < best:
                    best = (rank, table_id)
        if best is None:
            return None, None, False
        actor = self.hall.tables[best[1]]
        return best[1], str(actor.spec.game), bool(actor.spec.private)

    def presence_of(self, player: str, name: str, hides: bool | None = None) -> p.FriendPresence:
        """What a friend may know of ``player`` now."""
        online = bool(self.connections.get(player))
        hides = self.hidden.get(player, False) if hides is None else hides
        table = game = None
        private = False
        if online and not hides:
            table, game, private = self._where(player)
            if private:
                table = None
        return p.FriendPresence(
            player=player, name=name, online=online, table=table, game=game, private=private
        )

    # ----- connections ---------------------------------------------------------------------------
    def online(self, conn: Connection) -> None:
        """A signed-in connection: watch its tables, send it the presence of its friends and,
        for the player's first connection, tell their online friends."""
        player = conn.player.id
        conn.tables = _WatchedTables(conn.tables, lambda: self._moved(player))
        first = not self.connections.get(player)
        self.connections.setdefault(player, []).append(conn)
        self.names[player] = conn.player.name
        if first:
            self.friends_of[player] = self.book.friend_ids(player)
            self.hidden[player] = self.book.hides_table(player)
        conn.send(self._full(player))
        self._moved(player)

    def offline(self, conn: Connection) -> None:
        """A connection closed: the player's last one tells their friends they left."""
        player = conn.player.id
        conns = self.connections.get(player, [])
        if conn in conns:
            conns.remove(conn)
        self._moved(player)
        if not conns:
            self.connections.pop(player, None)
            self.friends_of.pop(player, None)
            self.hidden.pop(player, None)
            self.shown.pop(player, None)
            self.names.pop(player, None)

    def _moved(self, player: str) -> None:
        """Tell the player's online friends where they are now, if that changed."""
        if player not in self.connections:
            return  # gone already (a table forgetting a closed connection)
        entry = self.presence_of(player, self.names.get(player, ""))
        key = (entry.online, entry.table, entry.game, entry.private)
        if self.shown.get(player) == key:
            return
        self.shown[player] = key
        for friend in self.friends_of.get(player, ()):
            for conn in self.connections.get(friend, ()):
                conn.send(p.Presence(friends=[entry], full=False))

    def _full(self, player: str) -> p.Presence:
        listing = self.book.listing(player)
        return p.Presence(friends=self._entries(listing), full=True)

    def _entries(self, listing: dict[str, Any]) -> list[p.FriendPresence]:
        return [self.presence_of(fid, name, hides) for fid, name, hides in listing["friends"]]

    def _refresh(self, *players: str) -> None:
        """After a change of friendships: reload the friends of these players (those online)
        and send each of their connections the whole list again."""
        for player in players:
            if not self.connections.get(player):
                continue
            self.friends_of[player] = self.book.friend_ids(player)
            full = self._full(player)
            for conn in self.connections[player]:
                conn.send(full)

    # ----- the API's changes --------------------------------------------------------------
    def listing(self, player: str) -> Friends:
        listing = self.book.listing(player)
        return Friends(
            friends=self._entries(listing),
            incoming=listing["incoming"],
            outgoing=listing["outgoing"],
            blocked=listing["blocked"],
            hide_table=listing["hide_table"],
        )

    def change(self, me: PlayerInfo, body: FriendAction) -> Friends:
        """Apply one :class:`FriendAction` (raises :class:`FriendRefused`, nothing changed)."""
        invited: int | None = None
        if body.action == "hide":
            if body.hide is None:
                raise FriendRefused(status.HTTP_409_CONFLICT, "friend_hide_missing")
            self.book.set_hidden(me.id, body.hide)
            if me.id in self.hidden:
                self.hidden[me.id] = body.hide
                self._moved(me.id)
        elif body.action == "invite":
            invited = self.invite(me, body.player, body.table)
        else:
            change = getattr(self.book, body.action)
            change(me.id, body.player)
            assert body.player is not None  # the book refused a missing one
            self._refresh(me.id, body.player)
        answer = self.listing(me.id)
        answer.invited = invited
        return answer

    def invite(self, me: PlayerInfo, friend: str | None, table: str | None) -> int:
        """Send a friend an invitation to a table one is at; to how many connections."""
        if friend is None or friend not in self.book.friend_ids(me.id):
            raise FriendRefused(status.HTTP_409_CONFLICT, "friend_not_friends")
        actor = self.hall.tables.get(table) if table else None
        if actor is None:
            raise FriendRefused(status.HTTP_404_NOT_FOUND, "friend_no_table")
        here = any(actor.id in conn.tables for conn in self.connections.get(me.id, ()))
        if not (here or actor._seat_of(me.id) is not None or actor.spec.host == me.id):
            raise FriendRefused(status.HTTP_409_CONFLICT, "friend_invite_not_there")
        conns = self.connections.get(friend, [])
        if not conns:
            raise FriendRefused(status.HTTP_409_CONFLICT, "friend_offline")
        join = (actor.spec.invite_code if actor.spec.private else None) or actor.id
        message = p.FriendInvite(
            player=me.id, name=me.name, table=actor.id, game=str(actor.spec.game), join=join
        )
        for conn in conns:
            conn.send(message)
        return len(conns)


# ----- the HTTP endpoints ---------------------------------------------------------------
def _social(request: Request) -> Social:
    social: Social = request.app.state.social
    return social


async def friends_list(request: Request, player: PlayerInfo) -> Any:
    """Your friends (online, at which table), the requests to and from you, your blocks."""
    return _social(request).listing(player.id)


async def friends_change(request: Request, player: PlayerInfo, body: FriendAction) -> Any:
    """Ask, accept, decline, remove, block, unblock, invite a friend to a table, hide your table.

    Returns the lists as ``GET /api/friends`` does (and, for ``invite``, ``invited``)."""
    try:
        return _social(request).change(player, body)
    except FriendRefused as exc:
        if exc.code == "friend_no_table":
            raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_table", text=exc.code) from None
        if exc.status_code == status.HTTP_404_NOT_FOUND:
            raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_player", text=exc.code) from None
        raise ApiError(status.HTTP_409_CONFLICT, "refused", text=exc.code) from None


ENDPOINTS = Endpoints()
"""The friends endpoints (``GET/POST /api/friends``)."""
ENDPOINTS.endpoint("GET", "/api/friends", response=Friends)(friends_list)
ENDPOINTS.endpoint("POST", "/api/friends", response=Friends, errors=[404, 409])(friends_change)
