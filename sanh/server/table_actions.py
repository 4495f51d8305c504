"""A client's action (``act``): checked at the door, then applied by the hand runner.

An ``act`` names the hand's state version it answers (in a window any version since the window
opened), a nonce (a repeat is acknowledged, not applied) and the action as JSON, which must
parse to an action of the player's own engine seat with fields of the right types (the engines
trust their types: :func:`ill_typed`). A refused action changes nothing and gets an ``error``
with its reason as a text code; an accepted one an ``ack`` with the new version.
"""

from __future__ import annotations

import dataclasses
import logging
import types
import typing
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from sanh.cards.card import Card
from sanh.errors import IllegalActionError, NotationError, NotYourTurnError
from sanh.games.base import Action
from sanh.notation.jsonable import event_from_json
from sanh.server import protocol as p
from sanh.server.table_types import MAX_NONCES, Connection, HoldRefused
from sanh.texts import text

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["ActionDesk", "ill_typed"]

log = logging.getLogger("sanh.table")


class ActionDesk:
    """Takes the players' ``act`` messages for one table."""

    def __init__(self, table: TableActor) -> None:
        self.t = table
        self.nonces: dict[str, OrderedDict[str, int]] = {}
        """Player id -> accepted nonces and the version each led to (the last
        :data:`MAX_NONCES`)."""

    def act(self, conn: Connection, message: p.Act) -> None:
        """``act``: apply the player's action, or refuse it changing nothing."""
        t = self.t
        nonce = message.nonce
        seat = t.seat_of(conn.player.id)
        if seat is None:
            t.out.refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here", nonce)
            return
        seen = self.nonces.setdefault(conn.player.id, OrderedDict())
        if nonce in seen:
            t.out.send(conn, p.Ack(nonce=nonce, version=seen[nonce], duplicate=True))
            return
        engine_seat = t.engine_seat(seat)
        if t.state is None or engine_seat is None:
            t.out.refuse(conn, p.ErrorCode.NO_HAND, "no_hand_for_you", nonce)
            return
        if conn.hands_shown.get(t.id) != t.hand:  # sent for a hand that is over
            t.out.refuse(conn, p.ErrorCode.NO_HAND, "act_for_old_hand", nonce)
            return
        version = t.state.version
        fresh = message.version == version or (
            t.timers.in_window and t.timers.window_version <= message.version <= version
        )
        if not fresh:
            reason = text("stale_version", version, message.version)
            t.out.refuse(conn, p.ErrorCode.STALE_VERSION, reason, nonce)
            return
        action = self._parse(conn, message, engine_seat)
        if action is None or not self._apply(conn, nonce, engine_seat, action):
            return
        seen[nonce] = version + 1
        while len(seen) > MAX_NONCES:
            seen.popitem(last=False)
        t.out.send(conn, p.Ack(nonce=nonce, version=version + 1))
        t.runner.advance()

    def _parse(self, conn: Connection, message: p.Act, engine_seat: int) -> Action | None:
        """The action of the message, of the player's own seat and well typed (None: refused)."""
        t = self.t
        try:
            event = event_from_json(t.game, message.action)
        except (NotationError, TypeError, ValueError) as exc:
            t.out.malformed(conn, str(exc)[:300], message.nonce)
            return None
        if not isinstance(event, Action) or event.seat != engine_seat:
            t.out.refuse(conn, p.ErrorCode.ILLEGAL_ACTION, "own_seat_only", message.nonce)
            return None
        problem = ill_typed(event)
        if problem is not None:
            t.out.malformed(conn, problem, message.nonce)
            return None
        return event

    def _apply(self, conn: Connection, nonce: str, engine_seat: int, action: Action) -> bool:
        """Apply the action through the hand runner; False (and an ``error``) if refused."""
        t = self.t
        try:
            t.runner.apply(action)
        except NotYourTurnError as exc:
            t.out.refuse(conn, p.ErrorCode.NOT_YOUR_TURN, exc.reason, nonce)
            return False
        except HoldRefused as exc:
            t.out.refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, exc.reason, nonce)
            if t.runner.apply_unfunded(engine_seat, action):
                t.runner.advance()
            return False
        except IllegalActionError as exc:
            t.out.refuse(conn, p.ErrorCode.ILLEGAL_ACTION, exc.reason, nonce)
            return False
        except Exception:  # a rules engine must refuse, not crash; the hand is not at fault
            log.exception("table %s: the engine failed on a client's %s", t.id, action)
            t.out.refuse(conn, p.ErrorCode.ILLEGAL_ACTION, "not_legal_action", nonce)
            return False
        return True


_HINTS: dict[type, dict[str, Any]] = {}


def ill_typed(action: Action) -> str | None:
    """Why a client's action has a field of the wrong type (the engines trust their types)."""
    kind = type(action)
    hints = _HINTS.get(kind)
    if hints is None:
        resolved = typing.get_type_hints(kind)
        hints = _HINTS[kind] = {f.name: resolved[f.name] for f in dataclasses.fields(kind)}
    for name, hint in hints.items():
        if not _matches(getattr(action, name), hint):
            return f"field {name!r} must be {hint}"
    return None


def _matches(value: Any, hint: Any) -> bool:
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53
    if hint is str:
        return isinstance(value, str) and len(value) <= 64
    if hint is Card:
        return isinstance(value, Card)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return isinstance(value, tuple) and all(_matches(v, args[0]) for v in value)
    if origin in (types.UnionType, typing.Union):
        return any(value is None if a is type(None) else _matches(value, a) for a in args)
    if origin is typing.Literal:
        return value in args
    return False
