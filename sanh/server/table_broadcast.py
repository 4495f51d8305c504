"""The table's broadcaster: what each watcher is told, held until the command's events are durable.

Every message a command sends goes through :meth:`Broadcaster.send` and waits in
:attr:`Broadcaster.outgoing` until the actor has made the command's events durable
(:meth:`~sanh.server.table.TableActor._run`), then :meth:`Broadcaster.release` hands them to
the connections. After each change :meth:`Broadcaster.broadcast` tells every watcher the table:
the seat's private view for a seated player in the hand, the public view for everyone else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sanh.cards.rng import commitment_of
from sanh.server import protocol as p
from sanh.server.jsonview import fast_jsonable
from sanh.server.table_types import Connection
from sanh.texts import describe

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["Broadcaster"]


class Broadcaster:
    """The table's outbound side: refusals, updates, views (one per watcher)."""

    def __init__(self, table: TableActor) -> None:
        self.t = table
        self.outgoing: list[tuple[Connection, p.ServerMessage | bytes]] = []
        """Messages of the command being handled (a ``table`` update already encoded, shared
        by the watchers who see the same): sent once its events are durable."""
        self._viewed: tuple[Any, Any] | None = None
        """The (state, game) whose views :attr:`_views` holds."""
        self._views: dict[int | None, dict[str, Any]] = {}
        """Engine seat (``None``: the public view) -> its view of :attr:`_viewed` as JSON."""

    # ----- holding and releasing ---------------------------------------------------------------
    def send(self, conn: Connection, message: p.ServerMessage | bytes) -> None:
        """Queue a message; it leaves once the events before it are durable."""
        self.outgoing.append((conn, message))

    def release(self) -> None:
        """Hand the command's messages to their connections (its events are durable)."""
        outgoing, self.outgoing = self.outgoing, []
        for conn, message in outgoing:
            if isinstance(message, bytes):
                conn.send_encoded(message)
            else:
                conn.send(message)

    def drop(self) -> None:
        """Forget the command's messages (its events could not be written)."""
        self.outgoing = []

    def to_player(
        self, player_id: str, message: p.ServerMessage, extra: Connection | None = None
    ) -> None:
        """Send ``message`` to every connection of the player (and ``extra``)."""
        for conn in self.connections_of(player_id, extra):
            self.send(conn, message)

    def to_all(self, message: p.ServerMessage) -> None:
        """Send ``message`` to every watcher."""
        for conn in list(self.t.watchers.values()):
            self.send(conn, message)

    def connections_of(self, player_id: str, extra: Connection | None = None) -> list[Connection]:
        """The watchers that are the player (and ``extra``, once)."""
        out = [w for w in self.t.watchers.values() if w.player.id == player_id]
        if extra is not None and extra not in out:
            out.append(extra)
        return out

    # ----- refusals ------------------------------------------------------------------------------
    def _error(self, conn: Connection | None, code: p.ErrorCode, message: str, **kw: Any) -> None:
        if conn is not None:
            self.send(conn, p.Error(code=code, message=message, table=self.t.id, **kw))

    def malformed(self, conn: Connection | None, problem: str, nonce: str | None = None) -> None:
        """A malformed action: the parser's own words (no text code)."""
        self._error(conn, p.ErrorCode.MALFORMED, problem, nonce=nonce)

    def refuse(
        self, conn: Connection | None, code: p.ErrorCode, reason: str, nonce: str | None = None
    ) -> None:
        """An ``error`` for a refusal whose reason is a text code: English words and the code.

        Every refusal of the table goes through here but a malformed action's (the parser's
        own words, sent with :meth:`malformed`)."""
        self._error(conn, code, describe(reason), text=reason, nonce=nonce)

    # ----- the table as each watcher sees it --------------------------------------------------
    def view_json(self, conn: Connection, state: Any) -> dict[str, Any] | None:
        """The view of ``state`` the connection's player is entitled to (None: no hand)."""
        if state is None:
            return None
        t = self.t
        seat = t.seat_of(conn.player.id)
        # A player not in the hand (an empty seat of a house round too) sees the public view.
        viewer = None if seat is None else t.engine_seat(seat, state)
        return self.view_of(state, viewer)

    def view_of(self, state: Any, viewer: int | None) -> dict[str, Any]:
        """``viewer``'s view of ``state`` as JSON, made once per state and viewer: the engines
        are pure and a state is never changed, so a view is rebuilt only when the state (or
        the game) is another one, never for a broadcast that changed only the seats."""
        game = self.t.game
        viewed = self._viewed
        if viewed is None or viewed[0] is not state or viewed[1] is not game:
            self._viewed, self._views = (state, game), {}
        view = self._views.get(viewer)
        if view is None:
            view = self._views[viewer] = fast_jsonable(game.observe(state, viewer))
        return view

    def seats_json(self) -> list[dict[str, Any]]:
        """The seats as every watcher sees them."""
        t = self.t
        out = []
        missing = [s.player.id for s in t.seats if s is not None and s.player.id not in t.levels]
        if missing:  # read once per newcomer and once per hand (the runner clears them)
            t.levels.update(t.bank.levels(missing))
        house = t.house
        for index, slot in enumerate(t.seats):
            if slot is None:
                out.append({"seat": index, "player": None})
                continue
            entry: dict[str, Any] = {
                "seat": index,
                "player": slot.player.id,
                "name": slot.player.name,
                "bot": slot.bot is not None,
                "connected": slot.present,
                "host": not house and slot.player.id == t.spec.host,
                "manages": slot.player.id == t.spec.host,
                "level": t.levels.get(slot.player.id, 1),
                "ready": slot.ready,
                "leaving": slot.leaving,
                "leave_after_hand": slot.after_hand is not None,
                "engine_seat": t.engine_seat(index),
            }
            if t.staked:
                entry["table_stake"] = t.bank.table_stake(t.id, slot.player.id)
            out.append(entry)
        return out

    def common(self) -> tuple[dict[str, float], str | None]:
        """The deadlines and the hand's commitment, the same for every watcher."""
        t = self.t
        deadlines = {("table" if k is None else str(k)): v for k, v in t.timers.deadlines.items()}
        seed = t.runner.server_seed
        commitment = commitment_of(seed) if seed and t.state is not None else None
        return deadlines, commitment

    def update_for(
        self,
        conn: Connection,
        view: dict[str, Any] | None,
        seats: list[dict[str, Any]],
        common: tuple[dict[str, float], str | None] | None = None,
        watching: int | None = None,
    ) -> p.TableUpdate:
        """The ``table`` message for one connection."""
        t = self.t
        seat = t.seat_of(conn.player.id)
        deadlines, commitment = common if common is not None else self.common()
        if view is not None:
            conn.hands_shown[t.id] = t.hand
        return self._update(seat, view, seats, deadlines, commitment, watching)

    def _update(
        self,
        seat: int | None,
        view: dict[str, Any] | None,
        seats: list[dict[str, Any]],
        deadlines: dict[str, float],
        commitment: str | None,
        watching: int | None,
    ) -> p.TableUpdate:
        """The ``table`` message for whoever holds ``seat`` (``None``: a spectator)."""
        t = self.t
        slot = t.seats[seat] if seat is not None else None
        return p.TableUpdate(
            table=t.id,
            game=t.game.info.id,
            seats=seats,
            your_seat=seat,
            hand=t.hand,
            view=view,
            deadlines=deadlines,
            commitment=commitment,
            resume_token=slot.resume_token if slot is not None and slot.bot is None else None,
            status=t.status(),
            bank=t.spec.bank if t.banker() is not None else None,
            spectator_chat=t.spec.spectator_chat,
            watching=self.watching() if watching is None else watching,
        )

    def watching(self) -> int:
        """How many players watch without a seat (a player's several tabs count once)."""
        t = self.t
        seated = {slot.player.id for slot in t.seats if slot is not None}
        return len({c.player.id for c in t.watchers.values()} - seated)

    def send_update(self, conn: Connection) -> None:
        """Tell one connection the whole table (it joined or came back)."""
        view = self.view_json(conn, self.t.state)
        self.send(conn, self.update_for(conn, view, self.seats_json()))

    def broadcast(self, views: dict[int, dict[str, Any] | None] | None = None) -> None:
        """Tell every watcher the table; ``views``: the view each connection gets (by its id),
        instead of the current state's (a hand's last views, sent with its result).

        The message a watcher gets depends only on their seat and their view, so it is encoded
        once for each (seat, view) and the bytes shared: every spectator (and every seated
        player out of the hand) gets the one public view, a player's several tabs one copy."""
        t = self.t
        if not t.watchers:
            return
        seats = self.seats_json()
        deadlines, commitment = self.common()
        watching = self.watching()
        encoded: dict[tuple[int | None, int], bytes] = {}
        for conn in list(t.watchers.values()):
            seat = t.seat_of(conn.player.id)
            if views is not None:
                view = views.get(id(conn))
            elif t.state is None:
                view = None
            else:
                engine_seat = None if seat is None else t.engine_seat(seat)
                view = self.view_of(t.state, engine_seat)
            if view is not None:
                conn.hands_shown[t.id] = t.hand
            key = (seat, id(view))
            data = encoded.get(key)
            if data is None:
                message = self._update(seat, view, seats, deadlines, commitment, watching)
                data = encoded[key] = p.encode(message)
            self.send(conn, data)
