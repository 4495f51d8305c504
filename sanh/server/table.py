"""Table actors: one asyncio task owns each table's engine state and applies commands in order.

A :class:`TableActor` holds the seats, the current hand's engine state, the deadlines and the
watchers (connections). Commands arrive on its queue from connection handlers, the table's
timers and its bots, and are applied one at a time; each accepted command and each chance
outcome is written to the table's event log through the :class:`~sanh.server.services.Bank`
before anyone is told about it. After every change each watcher gets its own view: the seat's
private view for a seated player in the hand, the public view for everyone else.

Hand flow: seats fill; when enough players are ready the actor opens a hand (holding every
player's commitment in the ledger), draws chance events from the table's RNG (provably fair:
the commitment to the hand's server seed is published when the hand opens and the seed is
revealed with the result), applies actions, fires timers as the game's default actions,
settles through the ledger in one batch, and after a pause starts the next hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sanh.bots import Bot, bot_for
from sanh.cards.rng import ProvablyFairRng, Rng, commitment_of, new_server_seed
from sanh.errors import IllegalActionError, NotationError, NotYourTurnError
from sanh.games import find_game
from sanh.games.base import CHANCE, Action, Event, Game, Reason, Roll, Shuffle, TableConfig
from sanh.games.driver import chance_event
from sanh.notation.history import config_from_json
from sanh.notation.history import config_to_json as history_config
from sanh.notation.jsonable import event_from_json, to_jsonable
from sanh.server import protocol as p
from sanh.server.services import Bank, PlayerInfo
from sanh.server.settings import Settings

__all__ = ["Connection", "SeatSlot", "TableActor", "TableSpec"]

log = logging.getLogger("sanh.table")

STAKED_GAMES = {"texas-holdem", "poker-aof", "xi-to"}
"""Tẩy games: players bring a table stake through the buy-in panel (RULES.md §2.3)."""
MIN_BALANCE_MULTIPLE = 10
"""RULES.md §2.6: non-Tẩy player-vs-player games need 10 L to start a hand."""
HOLD_CAP_MULTIPLE = 1000
"""A non-Tẩy hand holds at most this many L of a player's balance for the hand."""
BOT_ACTIONS_PER_WINDOW = 3


class Connection:
    """One WebSocket client as the tables see it: an id, a player and an outbound queue."""

    def __init__(self, player: PlayerInfo, send_limit: int = 256) -> None:
        self.player = player
        self.outbox: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=send_limit)
        self.tables: set[str] = set()
        self.closed = False

    def send(self, message: p.ServerMessage) -> None:
        """Queue a message; a client too slow to drain its queue is disconnected."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(p.encode(message))
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Close the connection (the writer task ends)."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


@dataclass(slots=True)
class SeatSlot:
    """A taken seat."""

    player: PlayerInfo
    resume_token: str
    bot: Bot | None = None
    connected: bool = True
    leaving: bool = False
    ready: bool = False
    """A Tẩy-game player is ready once bought in; everyone else at once."""
    sat_at: float = field(default_factory=time.time)
    buyin_deadline: float | None = None


@dataclass(slots=True)
class TableSpec:
    """A table's setup, chosen by its host (or the hall for system tables)."""

    game: str
    stake: int
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    quick: bool = False
    private: bool = False
    invite_code: str | None = None
    host: str | None = None
    system: bool = False
    name: str = ""


@dataclass(slots=True)
class _Command:
    kind: str
    conn: Connection | None = None
    data: Any = None
    done: asyncio.Future[None] | None = None


class TableActor:
    """The single owner of one table."""

    def __init__(
        self,
        table_id: str,
        spec: TableSpec,
        *,
        bank: Bank,
        settings: Settings,
        rng_factory: Callable[[str], Rng] | None = None,
        on_hand_end: Callable[[TableActor, dict[str, Any]], None] | None = None,
    ) -> None:
        self.id = table_id
        self.spec = spec
        self.game: Game[Any] = find_game(spec.game)
        self.bank = bank
        self.settings = settings
        self.rng_factory = rng_factory
        self.bot_rng: Rng = rng_factory(f"{table_id}/bots") if rng_factory else _system()
        self.on_hand_end = on_hand_end
        self.seats: list[SeatSlot | None] = [None] * spec.seats
        self.watchers: dict[int, Connection] = {}
        self.state: Any = None
        self.hand = 0
        self.hand_players: list[int] = []
        """Engine seat -> table seat, for the hand in progress."""
        self.carry: Any = None
        self.deadlines: dict[int | None, float] = {}
        self._deadline_version = -1
        self.server_seed: str | None = None
        self.hand_rng: Rng | None = None
        self.seq = 0
        self.nonces: dict[str, OrderedDict[str, int]] = {}
        self.bot_counts: dict[int, int] = {}
        self.queue: asyncio.Queue[_Command] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._start_handle: asyncio.TimerHandle | None = None
        self._bot_handle: asyncio.TimerHandle | None = None
        self.last_result: dict[str, Any] | None = None
        self.hands_completed = 0

    # ----- lifecycle ------------------------------------------------------------------
    def spec_json(self) -> dict[str, Any]:
        """The table's spec as JSON (saved so that a restart rebuilds the table)."""
        spec = self.spec
        return {
            "game": spec.game,
            "stake": spec.stake,
            "seats": spec.seats,
            "options": dict(spec.options),
            "quick": spec.quick,
            "private": spec.private,
            "invite_code": spec.invite_code,
            "host": spec.host,
            "system": spec.system,
            "name": spec.name,
        }

    def recover(self) -> str:
        """Rebuild after a restart (RULES.md §2.8); returns what was done.

        The hand counter continues from the log. A hand interrupted before any card was dealt
        (or die rolled) is voided and every hold released; a hand already dealt is rebuilt by
        replaying its logged events, its players' seats restored, and it is played on: players
        who come back continue, timers apply the default actions of those who do not. Table
        stakes of players not in that hand go back to their wallets.
        """
        self.hand = self.bank.last_hand(self.id)
        outcome = "clean"
        unfinished = self.bank.unfinished_hand(self.id)
        seated: set[str] = set()
        if unfinished is not None:
            hand, events = unfinished
            opening = events[0]
            moves = [e for e in events if e.get("kind") == "event"]
            dealt = any(e.get("type") in {"shuffle", "roll"} for e in moves)
            if not dealt:
                self.bank.void_hand(self.id, hand, "interrupted before the deal")
                outcome = "voided"
            else:
                config = config_from_json(opening["config"])
                state = self.game.new_state(config)
                self.server_seed = opening.get("server_seed")
                rng = ProvablyFairRng(self.server_seed or "", self.id, hand)
                for event in moves:
                    body = {k: v for k, v in event.items() if k not in {"kind", "seq"}}
                    logged = event_from_json(self.game, body)
                    if isinstance(logged, Shuffle | Roll):
                        # Re-draw to move the stream on; the log must agree with the seed.
                        drawn = chance_event(self.game, state, rng)
                        if drawn != logged:
                            log.error(
                                "table %s hand %s: log disagrees with its seed", self.id, hand
                            )
                    state = self.game.apply(state, logged)
                self.state = state
                self.hand_rng = rng
                self.seq = max(int(e.get("seq", 0)) for e in events)
                self.hand_players = list(opening["seats"])
                for table_seat, player_id in zip(opening["seats"], opening["players"], strict=True):
                    info = self.bank.player_info(player_id)
                    bot = bot_for(self.game.info.id) if info.bot else None
                    self.seats[table_seat] = SeatSlot(
                        info, secrets.token_urlsafe(24), bot=bot, ready=True
                    )
                    seated.add(player_id)
                outcome = "resumed"
        if self.staked:
            for player_id in self.bank.stakes_at(self.id):
                if player_id not in seated:
                    self.bank.cash_out(self.id, player_id)
        return outcome

    def start(self) -> None:
        """Start the actor task."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table:{self.id}")
            if self.state is not None:
                self.submit("resume_hand")
            else:
                self._schedule_start()

    async def stop(self) -> None:
        """Stop the actor task (pending timers are dropped)."""
        for handle in (self._timer, self._start_handle, self._bot_handle):
            if handle is not None:
                handle.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _run(self) -> None:
        while True:
            command = await self.queue.get()
            try:
                self._handle(command)
            except Exception:  # an actor must survive one bad command
                log.exception("table %s: command %s failed", self.id, command.kind)
            finally:
                if command.done is not None and not command.done.done():
                    command.done.set_result(None)

    def submit(self, kind: str, conn: Connection | None = None, data: Any = None) -> None:
        """Queue a command for the actor."""
        self.queue.put_nowait(_Command(kind, conn, data))

    async def call(self, kind: str, conn: Connection | None = None, data: Any = None) -> None:
        """Queue a command and wait until the actor has applied it."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(_Command(kind, conn, data, done))
        await done

    # ----- public facts (read-only, for the lobby) --------------------------------------
    @property
    def seated(self) -> int:
        """How many seats are taken."""
        return sum(1 for s in self.seats if s is not None)

    @property
    def staked(self) -> bool:
        """Whether players bring a table stake (Tẩy)."""
        return self.game.info.id in STAKED_GAMES

    def buyin_range(self) -> tuple[int, int]:
        """Minimum and maximum buy-in (RULES.md §2.3), from the game's own rule."""
        from sanh.games import texas_holdem, xi_to

        game_id = self.game.info.id
        if game_id == "xi-to":
            return xi_to.buyin_limits(self.spec.stake)
        return texas_holdem.buyin_limits(
            self.spec.stake, dict(self.spec.options), aof=game_id == "poker-aof"
        )

    def lobby_entry(self) -> dict[str, Any]:
        """What the lobby shows of this table."""
        return {
            "id": self.id,
            "game": self.game.info.id,
            "name": self.spec.name or self.game.info.name_vi,
            "stake": self.spec.stake,
            "seats": self.spec.seats,
            "seated": self.seated,
            "options": dict(self.spec.options),
            "quick": self.spec.quick,
            "private": self.spec.private,
            "system": self.spec.system,
            "host": self.spec.host,
            "hand": self.hand,
            "in_hand": self.state is not None,
        }

    # ----- command handling -------------------------------------------------------------
    def _handle(self, command: _Command) -> None:
        handler = getattr(self, f"_on_{command.kind}")
        handler(command.conn, command.data)

    def _error(self, conn: Connection | None, code: p.ErrorCode, message: str, **kw: Any) -> None:
        if conn is not None:
            conn.send(p.Error(code=code, message=message, table=self.id, **kw))

    def _seat_of(self, player_id: str) -> int | None:
        for index, slot in enumerate(self.seats):
            if slot is not None and slot.player.id == player_id:
                return index
        return None

    def _on_join(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        invited = data == self.spec.invite_code or conn.player.id == self.spec.host
        if self.spec.private and not invited and self._seat_of(conn.player.id) is None:
            self._error(conn, p.ErrorCode.NO_SUCH_TABLE, "this table needs an invite code")
            return
        self.watchers[id(conn)] = conn
        conn.tables.add(self.id)
        seat = self._seat_of(conn.player.id)
        if seat is not None:
            slot = self.seats[seat]
            assert slot is not None
            slot.connected = True
        self._send_update(conn)

    def _on_resume(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        for slot in self.seats:
            if slot is not None and slot.resume_token == data and slot.player.id == conn.player.id:
                slot.connected = True
                slot.leaving = False
                self.watchers[id(conn)] = conn
                conn.tables.add(self.id)
                self._send_update(conn)
                self._advance()
                return
        self._error(conn, p.ErrorCode.BAD_RESUME, "no seat for this resume token")

    def _on_leave(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        if id(conn) not in self.watchers and self._seat_of(conn.player.id) is None:
            self._error(conn, p.ErrorCode.NOT_AT_TABLE, "you are not at this table")
            return
        self.watchers.pop(id(conn), None)
        conn.tables.discard(self.id)
        seat = self._seat_of(conn.player.id)
        if seat is not None:
            self._stand(seat, "leave")

    def _on_disconnect(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        self.watchers.pop(id(conn), None)
        seat = self._seat_of(conn.player.id)
        if seat is None:
            return
        if any(
            w.player.id == conn.player.id for w in self.watchers.values()
        ):  # another tab still connected
            return
        slot = self.seats[seat]
        assert slot is not None
        slot.connected = False
        if self.state is None:
            self._stand(seat, "disconnect")
        else:
            self._advance()

    def _on_sit(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        if self.spec.private and id(conn) not in self.watchers:
            self._error(conn, p.ErrorCode.NOT_AT_TABLE, "join with the invite code first")
            return
        if self._seat_of(conn.player.id) is not None:
            self._error(conn, p.ErrorCode.ALREADY_SEATED, "you already have a seat here")
            return
        wanted: int | None = data
        free = [i for i, s in enumerate(self.seats) if s is None]
        if wanted is not None:
            if not 0 <= wanted < len(self.seats):
                self._error(conn, p.ErrorCode.BAD_AMOUNT, f"no seat {wanted}")
                return
            if self.seats[wanted] is not None:
                self._error(conn, p.ErrorCode.SEAT_TAKEN, f"seat {wanted} is taken")
                return
            seat = wanted
        elif free:
            seat = free[0]
        else:
            self._error(conn, p.ErrorCode.TABLE_FULL, "the table is full")
            return
        balance = self.bank.balance(conn.player.id)
        if self.staked:
            low, _ = self.buyin_range()
            if balance + self.bank.table_stake(self.id, conn.player.id) < low:
                self._error(conn, p.ErrorCode.INSUFFICIENT_FUNDS, "balance below the buy-in")
                return
        elif not self.game.info.banked and balance < MIN_BALANCE_MULTIPLE * self.spec.stake:
            self._error(conn, p.ErrorCode.INSUFFICIENT_FUNDS, "a seat needs 10 times the bet level")
            return
        slot = SeatSlot(conn.player, secrets.token_urlsafe(24))
        self.seats[seat] = slot
        self.watchers[id(conn)] = conn
        conn.tables.add(self.id)
        if self.spec.host is None:
            self.spec.host = conn.player.id
        if self.staked:
            existing = self.bank.table_stake(self.id, conn.player.id)
            low, high = self.buyin_range()
            if existing >= low:
                slot.ready = True
            else:
                slot.buyin_deadline = time.time() + self.settings.scaled(self.settings.buyin_timer)
                conn.send(
                    p.BuyInPanel(
                        table=self.id,
                        min=low,
                        max=min(high, balance),
                        deadline=slot.buyin_deadline,
                    )
                )
                self._reschedule_timer()
        else:
            slot.ready = True
        self._broadcast()
        self._schedule_start()

    def _on_buyin(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        seat = self._seat_of(conn.player.id)
        if seat is None:
            self._error(conn, p.ErrorCode.NOT_SEATED, "sit down first")
            return
        self._buy_in(seat, int(data), conn)

    def _buy_in(self, seat: int, amount: int, conn: Connection | None) -> None:
        slot = self.seats[seat]
        assert slot is not None
        if not self.staked:
            self._error(conn, p.ErrorCode.BAD_AMOUNT, "this game has no buy-in")
            return
        low, high = self.buyin_range()
        have = self.bank.table_stake(self.id, slot.player.id)
        balance = self.bank.balance(slot.player.id)
        top = min(high - have, balance)
        if amount < low - have or amount > top or amount <= 0:
            need = max(low - have, 0)
            self._error(conn, p.ErrorCode.BAD_AMOUNT, f"buy in between {need} and {top}")
            return
        if not self.bank.buy_in(self.id, slot.player.id, amount):
            self._error(conn, p.ErrorCode.INSUFFICIENT_FUNDS, "not enough gold")
            return
        slot.ready = True
        slot.buyin_deadline = None
        self._broadcast()
        self._schedule_start()

    def _on_stand(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        seat = self._seat_of(conn.player.id)
        if seat is None:
            self._error(conn, p.ErrorCode.NOT_SEATED, "you have no seat here")
            return
        self._stand(seat, "leave")

    def _stand(self, seat: int, reason: str) -> None:
        slot = self.seats[seat]
        if slot is None:
            return
        if self.state is not None and seat in self.hand_players:
            slot.leaving = True
            engine_seat = self.hand_players.index(seat)
            action = self.game.default_action(self.state, engine_seat, "leave")
            if action is not None and action.anytime and self.game.is_legal(self.state, action):
                self._apply(action)  # games that let a player leave at any moment
            self._advance()
            return
        self._remove(seat)
        self._broadcast()

    def _remove(self, seat: int) -> None:
        slot = self.seats[seat]
        if slot is None:
            return
        if self.staked:
            self.bank.cash_out(self.id, slot.player.id)
        self.seats[seat] = None
        if self.spec.host == slot.player.id and not self.spec.system:
            remaining = [s for s in self.seats if s is not None and s.bot is None]
            remaining.sort(key=lambda s: s.sat_at)
            self.spec.host = remaining[0].player.id if remaining else None

    def _on_add_bots(self, conn: Connection | None, data: Any) -> None:
        if conn is not None and conn.player.id != self.spec.host:
            self._error(conn, p.ErrorCode.NOT_HOST, "only the host can add bots")
            return
        self.add_bots(int(data))

    def add_bots(self, count: int) -> None:
        """Fill up to ``count`` empty seats with bots."""
        for _ in range(count):
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                break
            info = self.bank.bot_player(f"{self.id}:{free[0] + 1}")
            slot = SeatSlot(info, secrets.token_urlsafe(8), bot=bot_for(self.game.info.id))
            self.seats[free[0]] = slot
            if self.staked:
                self.bank_for_bot(slot)
            slot.ready = True
        self._broadcast()
        self._schedule_start()

    def bank_for_bot(self, slot: SeatSlot) -> None:
        """Buy a bot in at the maximum its balance allows."""
        high = self.buyin_range()[1]
        have = self.bank.table_stake(self.id, slot.player.id)
        amount = min(high - have, self.bank.balance(slot.player.id))
        if amount > 0:
            self.bank.buy_in(self.id, slot.player.id, amount)

    def _on_act(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        message: p.Act = data
        seat = self._seat_of(conn.player.id)
        if seat is None:
            self._error(conn, p.ErrorCode.NOT_SEATED, "you have no seat here", nonce=message.nonce)
            return
        seen = self.nonces.setdefault(conn.player.id, OrderedDict())
        if message.nonce in seen:
            conn.send(p.Ack(nonce=message.nonce, version=seen[message.nonce], duplicate=True))
            return
        if self.state is None or seat not in self.hand_players:
            self._error(
                conn, p.ErrorCode.NO_HAND, "no hand in progress for you", nonce=message.nonce
            )
            return
        if message.version != self.state.version:
            self._error(
                conn,
                p.ErrorCode.STALE_VERSION,
                f"the hand is at version {self.state.version}, not {message.version}",
                nonce=message.nonce,
            )
            return
        engine_seat = self.hand_players.index(seat)
        try:
            event = event_from_json(self.game, message.action)
        except (NotationError, TypeError, ValueError) as exc:
            self._error(conn, p.ErrorCode.MALFORMED, str(exc), nonce=message.nonce)
            return
        if not isinstance(event, Action) or event.seat != engine_seat:
            self._error(
                conn,
                p.ErrorCode.ILLEGAL_ACTION,
                "you can only act for your own seat",
                nonce=message.nonce,
            )
            return
        try:
            self._apply(event)
        except NotYourTurnError as exc:
            self._error(conn, p.ErrorCode.NOT_YOUR_TURN, exc.reason, nonce=message.nonce)
            return
        except IllegalActionError as exc:
            self._error(conn, p.ErrorCode.ILLEGAL_ACTION, exc.reason, nonce=message.nonce)
            return
        seen[message.nonce] = self.state.version if self.state is not None else -1
        while len(seen) > 512:
            seen.popitem(last=False)
        conn.send(p.Ack(nonce=message.nonce, version=seen[message.nonce]))
        self._advance()

    def _on_tick(self, conn: Connection | None, data: Any) -> None:
        self._timer = None
        now = time.time()
        for index, slot in enumerate(self.seats):
            if slot is not None and slot.buyin_deadline is not None and slot.buyin_deadline <= now:
                slot.buyin_deadline = None
                low, high = self.buyin_range()
                have = self.bank.table_stake(self.id, slot.player.id)
                amount = min(high - have, self.bank.balance(slot.player.id))
                if amount >= max(low - have, 1):
                    self._buy_in(index, amount, None)
                else:
                    self._remove(index)
                    self._broadcast()
        if self.state is not None:
            expired = [seat for seat, when in self.deadlines.items() if when <= now]
            for seat in expired:
                if self.state is None:
                    break
                action = self.game.default_action(self.state, seat, self._timeout_reason(seat))
                self.deadlines.pop(seat, None)
                if action is not None and self.game.is_legal(self.state, action):
                    self._apply(action)
            self._advance()
        self._reschedule_timer()

    def _timeout_reason(self, engine_seat: int | None) -> Reason:
        """``disconnect`` for a seat whose player is away when its deadline passes."""
        if engine_seat is None or self.state is None:
            return "timeout"
        slot = self.seats[self.hand_players[engine_seat]]
        if slot is not None and slot.bot is None and not slot.connected:
            return "disconnect"
        return "timeout"

    def _on_bots(self, conn: Connection | None, data: Any) -> None:
        self._bot_handle = None
        if self.state is None or data != self.state.version:
            self._advance()
            return
        self._bots_act()
        self._advance()

    def _on_resume_hand(self, conn: Connection | None, data: Any) -> None:
        self._advance()

    def _on_start(self, conn: Connection | None, data: Any) -> None:
        self._start_handle = None
        self._maybe_start_hand()

    # ----- the hand -----------------------------------------------------------------------
    def _ready_seats(self) -> list[int]:
        ready = []
        for index, slot in enumerate(self.seats):
            if slot is None or not slot.ready or slot.leaving:
                continue
            if not slot.connected and slot.bot is None:
                continue
            if self.staked and self.bank.table_stake(self.id, slot.player.id) <= 0:
                continue
            needs_balance = not self.staked and not self.game.info.banked
            minimum = MIN_BALANCE_MULTIPLE * self.spec.stake
            if needs_balance and self.bank.balance(slot.player.id) < minimum:
                continue
            ready.append(index)
        return ready

    def _schedule_start(self, delay: float | None = None) -> None:
        if self.state is not None or self._start_handle is not None or self.task is None:
            return
        wait = self.settings.scaled(self.settings.between_hands if delay is None else delay)
        loop = asyncio.get_running_loop()
        self._start_handle = loop.call_later(wait, self.submit, "start")

    def _maybe_start_hand(self) -> None:
        if self.state is not None:
            return
        ready = self._ready_seats()
        info = self.game.info
        if len(ready) < info.seats_min:
            return
        ready = ready[: info.seats_max]
        players = [self.seats[i] for i in ready]
        caps: dict[str, int] = {}
        for slot in players:
            assert slot is not None
            if self.staked:
                caps[slot.player.id] = self.bank.table_stake(self.id, slot.player.id)
            else:
                balance = self.bank.balance(slot.player.id)
                caps[slot.player.id] = min(balance, HOLD_CAP_MULTIPLE * self.spec.stake)
        self.hand += 1
        self.server_seed = new_server_seed()
        rng_seed = self.server_seed
        if self.rng_factory is not None:
            rng_seed = f"{self.id}:{self.hand}"
            self.server_seed = rng_seed
        self.hand_rng = ProvablyFairRng(rng_seed, self.id, self.hand)
        self.seq = 0
        host_player = self.spec.host
        host = 0
        for engine_seat, slot in enumerate(players):
            assert slot is not None
            if slot.player.id == host_player:
                host = engine_seat
        config = TableConfig.make(
            seats=len(players),
            stake=self.spec.stake,
            stacks=[caps[s.player.id] for s in players if s is not None],
            options=dict(self.spec.options),
            host=host,
            carry=self.carry,
        )
        try:
            state = self.game.new_state(config)
        except Exception:
            log.exception("table %s: cannot start a hand", self.id)
            self.hand -= 1
            return
        opened = self.bank.open_hand(
            self.id,
            self.hand,
            caps,
            {
                "kind": "open",
                "game": self.game.info.id,
                "staked": self.staked,
                "players": [s.player.id for s in players if s is not None],
                "seats": ready,
                "config": history_config(config),
                "commitment": commitment_of(self.server_seed),
                "server_seed": self.server_seed,
            },
        )
        if opened.refused:
            log.warning("table %s: commitments refused for %s", self.id, opened.refused)
            self.hand -= 1
            self._schedule_start()
            return
        self.state = state
        self.hand_players = ready
        self.deadlines = {}
        self.bot_counts = {}
        self._advance()

    def _apply(self, event: Event) -> None:
        """Validate, log, then apply one event (raises IllegalActionError, changing nothing)."""
        assert self.state is not None
        self.game.validate(self.state, event)
        self.seq += 1
        self.bank.log_event(self.id, self.hand, self.seq, {"kind": "event", **_event_json(event)})
        self.state = self.game.apply(self.state, event)

    def _advance(self) -> None:
        """Run chance, disconnected seats' defaults and bots until a human must act."""
        for _ in range(10_000):
            if self.state is None:
                return
            turn = self.game.to_act(self.state)
            if turn is None:
                self._finish_hand()
                return
            if turn is CHANCE:
                assert self.hand_rng is not None
                self._apply(chance_event(self.game, self.state, self.hand_rng))
                continue
            if not self._apply_absent_defaults(turn):
                break
        self._update_deadlines()
        self._schedule_bots()
        self._broadcast()

    def _apply_absent_defaults(self, turn: tuple[int, ...]) -> bool:
        """Apply the leaving default of the first leaving seat to act; True if one applied.

        A disconnected player keeps the seat until the turn's deadline, when the game's
        disconnection default applies (RULES.md §2.7), so a reload or a short drop costs nothing.
        """
        for engine_seat in turn:
            slot = self.seats[self.hand_players[engine_seat]]
            if slot is None or slot.bot is not None:
                continue
            if not slot.leaving:
                continue
            action = self.game.default_action(self.state, engine_seat, "leave")
            if action is not None and self.game.is_legal(self.state, action):
                self._apply(action)
                return True
        return False

    def _update_deadlines(self) -> None:
        assert self.state is not None
        turn = self.game.to_act(self.state)
        if not isinstance(turn, tuple):
            self.deadlines = {}
            return
        table_actions = self.game.legal_actions_for(self.state, None)
        now = time.time()
        window = self.settings.windows.get(self.game.info.id, self._turn_seconds())
        new: dict[int | None, float] = {}
        if table_actions:
            new[None] = self.deadlines.get(None, now + self.settings.scaled(window))
        else:
            # A simultaneous phase keeps each seat's deadline; a turn keeps it only while the
            # state has not moved since it was set.
            keep = len(turn) > 1 or self._deadline_version == self.state.version
            for seat in turn:
                if keep and seat in self.deadlines:
                    new[seat] = self.deadlines[seat]
                else:
                    new[seat] = now + self.settings.scaled(self._turn_seconds())
        self.deadlines = new
        self._deadline_version = self.state.version
        self._reschedule_timer()

    def _turn_seconds(self) -> float:
        if self.spec.quick:
            return self.settings.quick_turn_timer
        return self.settings.turn_timer

    def _reschedule_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        times = list(self.deadlines.values())
        times += [s.buyin_deadline for s in self.seats if s is not None and s.buyin_deadline]
        if not times or self.task is None:
            return
        delay = max(0.0, min(times) - time.time()) + 0.001
        self._timer = asyncio.get_running_loop().call_later(delay, self.submit, "tick")

    def _schedule_bots(self) -> None:
        if self.state is None or self._bot_handle is not None or self.task is None:
            return
        if not self._bot_seats_to_act():
            return
        delay = self.settings.scaled(self.settings.bot_delay)
        version = self.state.version
        self._bot_handle = asyncio.get_running_loop().call_later(
            delay, self.submit, "bots", None, version
        )

    def _bot_seats_to_act(self) -> list[int]:
        turn = self.game.to_act(self.state)
        if not isinstance(turn, tuple):
            return []
        seats = []
        simultaneous = len(turn) > 1 or bool(self.game.legal_actions_for(self.state, None))
        for engine_seat in turn:
            slot = self.seats[self.hand_players[engine_seat]]
            if slot is None or slot.bot is None:
                continue
            if simultaneous and self.bot_counts.get(engine_seat, 0) >= BOT_ACTIONS_PER_WINDOW:
                continue
            if self.game.legal_actions_for(self.state, engine_seat) or self.game.amount_ranges_for(
                self.state, engine_seat
            ):
                seats.append(engine_seat)
        return seats

    def _bots_act(self) -> None:
        for engine_seat in self._bot_seats_to_act():
            if self.state is None:
                return
            slot = self.seats[self.hand_players[engine_seat]]
            assert slot is not None and slot.bot is not None
            view = self.game.observe(self.state, engine_seat)
            if not view.legal_actions and not view.amount_ranges:
                continue
            action = slot.bot.act(view, self.bot_rng)
            try:
                self._apply(action)
            except IllegalActionError:
                log.warning(
                    "table %s: bot %s chose an illegal action %s", self.id, engine_seat, action
                )
                fallback = self.game.default_action(self.state, engine_seat, "timeout")
                if fallback is None or not self.game.is_legal(self.state, fallback):
                    continue
                self._apply(fallback)
            self.bot_counts[engine_seat] = self.bot_counts.get(engine_seat, 0) + 1
            return

    def _finish_hand(self) -> None:
        state = self.state
        assert state is not None
        settlement = self.game.settle(state)
        settlement.check()
        players: list[str | None] = []
        for table_seat in self.hand_players:
            slot = self.seats[table_seat]
            players.append(slot.player.id if slot is not None else None)
        self.bank.settle_hand(
            self.id,
            self.hand,
            players,
            settlement,
            staked=self.staked,
            game=self.game.info.id,
            event={
                "kind": "settle",
                "settlement": to_jsonable(settlement),
                "server_seed": self.server_seed,
            },
        )
        self.hands_completed += 1
        self.carry = self.game.carry(state)
        result = to_jsonable(settlement)
        self.last_result = {"hand": self.hand, "settlement": result, "players": players}
        for conn in list(self.watchers.values()):
            conn.send(
                p.Result(
                    table=self.id,
                    hand=self.hand,
                    settlement=result,
                    seats=players,
                    server_seed=self.server_seed,
                    balance=self.bank.balance(conn.player.id),
                )
            )
        if self.on_hand_end is not None:
            self.on_hand_end(
                self,
                {
                    "hand": self.hand,
                    "players": players,
                    "state": state,
                    "settlement": settlement,
                    "server_seed": self.server_seed,
                },
            )
        final_views = {id(conn): self._view_json(conn, state) for conn in self.watchers.values()}
        self.state = None
        self.deadlines = {}
        for index, slot in enumerate(self.seats):
            if slot is None:
                continue
            if slot.leaving or (not slot.connected and slot.bot is None):
                self._remove(index)
            elif slot.bot is not None and self.staked:
                self.bank_for_bot(slot)
        self._reschedule_timer()
        self._broadcast(final_views)
        self._schedule_start()

    # ----- views ----------------------------------------------------------------------------
    def _view_json(self, conn: Connection, state: Any) -> dict[str, Any] | None:
        if state is None:
            return None
        seat = self._seat_of(conn.player.id)
        viewer = None
        if seat is not None and seat in self.hand_players:
            viewer = self.hand_players.index(seat)
        value: dict[str, Any] = to_jsonable(self.game.observe(state, viewer))
        return value

    def _seats_json(self) -> list[dict[str, Any]]:
        out = []
        for index, slot in enumerate(self.seats):
            if slot is None:
                out.append({"seat": index, "player": None})
                continue
            entry: dict[str, Any] = {
                "seat": index,
                "player": slot.player.id,
                "name": slot.player.name,
                "bot": slot.bot is not None,
                "connected": slot.connected or slot.bot is not None,
                "host": slot.player.id == self.spec.host,
                "ready": slot.ready,
                "engine_seat": self.hand_players.index(index)
                if self.state is not None and index in self.hand_players
                else None,
            }
            if self.staked:
                entry["table_stake"] = self.bank.table_stake(self.id, slot.player.id)
            out.append(entry)
        return out

    def _update_for(self, conn: Connection, view: dict[str, Any] | None) -> p.TableUpdate:
        seat = self._seat_of(conn.player.id)
        slot = self.seats[seat] if seat is not None else None
        return p.TableUpdate(
            table=self.id,
            game=self.game.info.id,
            seats=self._seats_json(),
            your_seat=seat,
            hand=self.hand,
            view=view,
            deadlines={("table" if k is None else str(k)): v for k, v in self.deadlines.items()},
            commitment=commitment_of(self.server_seed)
            if self.server_seed and self.state is not None
            else None,
            resume_token=slot.resume_token if slot is not None else None,
        )

    def _send_update(self, conn: Connection) -> None:
        conn.send(self._update_for(conn, self._view_json(conn, self.state)))

    def _broadcast(self, views: dict[int, dict[str, Any] | None] | None = None) -> None:
        public: dict[str, Any] | None = None
        if views is None and self.state is not None:
            public = to_jsonable(self.game.observe(self.state, None))
        for conn in list(self.watchers.values()):
            if views is not None:
                view = views.get(id(conn))
            else:
                seat = self._seat_of(conn.player.id)
                in_hand = seat is not None and seat in self.hand_players and self.state is not None
                view = self._view_json(conn, self.state) if in_hand else public
            conn.send(self._update_for(conn, view))


def _event_json(event: Event) -> dict[str, Any]:
    value: dict[str, Any] = to_jsonable(event)
    return value


def _system() -> Rng:
    from sanh.cards.rng import SystemRng

    return SystemRng()
