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

Clocks (RULES.md §2.5). A *turn* (one seat to act, no table action) has the turn timer (15 s,
7 s in quick mode); a *window* (a phase where the table itself has a legal action, such as a
betting window or a squeeze window) has one table deadline, set when the window opens (a new
phase or new table actions) and kept until it closes; at the deadline the table's default
action is applied, repeatedly while the same window stays open (Three Card Poker folds every
pending decision). Several seats acting at once without a table action keep their own
deadlines. In a window an action may answer any state version since the window opened.

Absence (RULES.md §2.7). A player whose connection drops keeps the turn clock, so a reload or
a short drop costs nothing: a deadline that passes while they are away applies the game's
``"disconnect"`` default, and once they have been away for a whole turn timer that default
applies at once whenever they must act, and at once wherever the turn is when it is the seat's
``anytime`` removal (Liêng, Phỏm, TLMN...: :meth:`TableActor._apply_removals`). A seat
restored after a restart (RULES.md §2.8) counts as away from the hand's resumption: its
player has one turn timer to come back, then the ``"timeout"`` default applies the same way
(at once on every turn), so a recovered hand ends within its timers. A bet the wallet
cannot cover is refused, and the game may answer it
(:meth:`~sanh.games.base.Game.unfunded_action`: Three Card Poker's Play becomes a fold).

Leaving (docs/protocol.md, "Leaving a table"). Between hands a ``leave`` or ``stand`` frees the
seat at once and costs nothing. During the seat's hand it is a leave *after this hand*
(``leave_pending``): the seat plays on under its clock and goes at the result, unless
cancelled. Leaving *now* is quoted (``leave_quote``: the game's :meth:`Game.leave_cost`, else
the amount held for the seat) and confirmed (``leave_now``); the seat then gets the
``"leave"`` default, at once when that default is an ``anytime`` action or a table action
(Sâm *Rời bàn*, Liêng, Hold'em and Xì tố's ``Leave``, Three Card Poker's forced fold),
otherwise on its turn.

House games (Tài Xỉu, Three Card Poker, Teen Patti) run rounds on the table's clock with or
without players: every table seat is an engine seat, a seat without a player has no stack, and
a player who sits during the betting window is given a stack at once (the engine's
:class:`~sanh.games.base.SitIn`, held in the ledger with its ``join`` log entry).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import secrets
import time
import types
import typing
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sanh.bots import Bot, bot_for
from sanh.cards.card import Card
from sanh.cards.rng import ProvablyFairRng, Rng, commitment_of, new_server_seed
from sanh.errors import ConfigError, IllegalActionError, NotationError, NotYourTurnError
from sanh.games import find_game
from sanh.games.base import (
    CHANCE,
    Action,
    Event,
    Game,
    Reason,
    Roll,
    Shuffle,
    SitIn,
    TableConfig,
)
from sanh.games.driver import chance_event
from sanh.notation.history import config_from_json
from sanh.notation.history import config_to_json as history_config
from sanh.notation.jsonable import event_from_json, to_jsonable
from sanh.server import protocol as p
from sanh.server.chat import CHAT_BURST, CHAT_HISTORY, CHAT_PER_SECOND, ChatLimiter, clean_line
from sanh.server.clock import Clock, Handle, LoopClock
from sanh.server.jsonview import fast_jsonable
from sanh.server.metrics import Histogram
from sanh.server.services import Bank, PlayerInfo
from sanh.server.settings import Settings
from sanh.texts import describe, text

__all__ = ["Connection", "LogWriter", "SeatSlot", "TableActor", "TableSpec"]

log = logging.getLogger("sanh.table")

BOT_ACTIONS_PER_WINDOW = 3
"""A bot acts at most this many times in one window (a betting window, a squeeze window)."""
RECENT_RECORDS = 100
"""How many hands' public records a table keeps (the Tài Xỉu road's last 100 rounds)."""
MAX_NONCES = 512
"""Accepted nonces remembered per player and table (a repeat is acknowledged, not applied)."""


class HoldRefused(IllegalActionError):
    """A house game's bet that the player's wallet (or the host's bank) cannot cover now."""


class Connection:
    """One WebSocket client as the tables see it: an id, a player and an outbound queue."""

    def __init__(self, player: PlayerInfo, send_limit: int = 256) -> None:
        self.player = player
        self.outbox: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=send_limit)
        self.tables: set[str] = set()
        self.closed = False
        self.hands_shown: dict[str, int] = {}
        """Table id -> the number of the last hand this connection was sent a view of: an
        ``act`` is for that hand (a version alone does not say which hand it is of)."""

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
    """The seat left the hand now (``leave_now``, or a bot sent away): the game's ``"leave"``
    default applies to it, and the seat goes at the end of the hand."""
    after_hand: str | None = None
    """A leave asked for during the hand (``"leave"`` or ``"stand"``): the seat plays on and
    goes at the hand's result, a ``"leave"`` also stops watching (cancelled by
    ``cancel_leave``)."""
    restored: bool = False
    """Rebuilt after a restart and not reclaimed yet: timeouts play it (RULES.md §2.8)."""
    ready: bool = False
    """A Tẩy-game player is ready once bought in; everyone else at once."""
    sat_at: float = field(default_factory=time.time)
    buyin_deadline: float | None = None
    away_deadline: float | None = None
    """A seat whose player is gone between hands is kept until then (the reconnection grace)."""
    dropped_at: float | None = None
    """When the player's last connection dropped (None while connected)."""

    @property
    def present(self) -> bool:
        """Whether a person or a bot is there to play the seat."""
        return self.bot is not None or (self.connected and not self.restored)


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
    bots: list[int] = field(default_factory=list)
    """Table seats held by bots (kept across restarts)."""
    bank: int = 0
    """A player-hosted table's bank: what its banker (``host``) chose with a ``host`` message;
    0: no banker (betting closed, RULES.md §5.7)."""
    spectator_chat: bool = False
    """The host lets spectators write in the table's chat (``chat_spectators``)."""


class LogWriter:
    """The actors' side of the event log's group commit (:mod:`sanh.server.eventlog`).

    An actor awaits :meth:`write` after each command and sends its messages only then, so
    nobody hears of an event before it is durable. The bank commits the events of every table
    in groups, on a writer thread: the commands of many tables share one fsync, and the event
    loop never waits for the disk.
    """

    def __init__(self, bank: Bank) -> None:
        self.bank = bank
        self.events = 0

    async def write(self, table: str, events: list[tuple[int, int, dict[str, Any]]]) -> None:
        """Append ``(hand, seq, event)`` entries of a table; returns once every event handed
        to the bank so far is durable."""
        if events:
            self.bank.log_events([(table, hand, seq, event) for hand, seq, event in events])
            self.events += len(events)
        await self.bank.sync()


@dataclass(slots=True)
class _Command:
    kind: str
    conn: Connection | None = None
    data: Any = None
    done: asyncio.Future[None] | None = None
    queued_at: float = field(default_factory=time.perf_counter)


@dataclass(frozen=True, slots=True)
class LeaveQuote:
    """What leaving now was quoted to cost one player (``leave_quote``)."""

    quote_id: str
    hand: int
    in_hand: bool
    cost: int
    basis: str


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
        log_writer: LogWriter | None = None,
        command_seconds: Histogram | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.id = table_id
        self._clock: Clock = clock if clock is not None else LoopClock()
        """What every deadline of the table reads (:mod:`sanh.server.clock`)."""
        self.command_seconds = command_seconds
        """Seconds from a client command's arrival to its messages leaving (for /metrics)."""
        self.game: Game[Any] = find_game(spec.game)
        # A table saved before the options took RULES.md's names keeps its rules.
        spec.options = self.game.canonical_options(spec.options)
        self.spec = spec
        self.bank = bank
        self.settings = settings
        self.rng_factory = rng_factory
        self.bot_rng: Rng = rng_factory(f"{table_id}/bots") if rng_factory else _BotRng()
        self.on_hand_end = on_hand_end
        self.seats: list[SeatSlot | None] = [None] * spec.seats
        self.watchers: dict[int, Connection] = {}
        self.state: Any = None
        self.hand = 0
        self.hand_players: list[int] = []
        """Engine seat -> table seat, for the hand in progress."""
        self.held: dict[int, int] = {}
        """House games: engine seat -> the gold held for its bets in the hand in progress."""
        self.out_seats: set[int] = set()
        """Engine seats out of the hand in progress whose holds were settled at once."""
        self.carry: Any = None
        """The carry of the last settled hand, in that hand's engine seats."""
        self.carry_players: list[str | None] | None = None
        """Engine seat -> player id of the hand :attr:`carry` comes from (``None``: unknown)."""
        self.deadlines: dict[int | None, float] = {}
        self._deadline_version = -1
        self._window: tuple[Any, ...] | None = None
        """The current window's key (phase, simultaneity, table actions); a new key opens a
        new window."""
        self._options: dict[str, Any] | None = None
        self.window_version = 0
        """The state version at which the current window opened."""
        self.server_seed: str | None = None
        self.hand_rng: Rng | None = None
        self.seq = 0
        self.nonces: dict[str, OrderedDict[str, int]] = {}
        self.bot_counts: dict[int, int] = {}
        self.leave_quotes: dict[str, LeaveQuote] = {}
        """Player id -> the last ``leave_quote`` sent (good for its hand while the cost holds)."""
        self.queue: asyncio.Queue[_Command] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._timer: Handle | None = None
        self._start_handle: Handle | None = None
        self._bot_handle: Handle | None = None
        self.last_result: dict[str, Any] | None = None
        self.hands_completed = 0
        self.hands_voided = 0
        self._log_buffer: list[tuple[int, int, dict[str, Any]]] = []
        """Events applied and not yet written: (hand, seq, event)."""
        self._outgoing: list[tuple[Connection, p.ServerMessage]] = []
        """Messages of the command being handled: sent once its events are durable."""
        self._logged = False
        """Events of the command being handled went to the bank (await their durability)."""
        self.log_writer = log_writer or LogWriter(bank)
        self.resumed_at: float | None = None
        """When a hand rebuilt after a restart first moved on (for the resume-time metric)."""
        self.recovering = False
        """Rebuild from the log (:meth:`recover`) before the first command (lazy restore)."""
        self.recovery: str | None = None
        """What the rebuild did (``clean``, ``resumed``, ``voided``, ``failed``)."""
        self.chat_limiter = ChatLimiter(self._clock)
        """Each player's chat rate (the hall gives every table its own shared one)."""
        self.chat_history: deque[p.ChatEntry] = deque(maxlen=CHAT_HISTORY)
        """The table's last chat lines, sent to whoever joins."""
        self.hand_chat: list[dict[str, Any]] = []
        """The lines said during the hand under way: kept with it for its seats' recall."""
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT_RECORDS)
        """The public records of the last hands (``Game.public_record``), oldest first: the
        Tài Xỉu road; restored from the log by :meth:`recover`."""

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
            "bots": sorted(spec.bots),
            "bank": spec.bank,
            "spectator_chat": spec.spectator_chat,
        }

    def _save(self) -> None:
        self.bank.save_table(self.id, self.spec_json())

    def recover(self) -> str:
        """Rebuild after a restart (RULES.md §2.8); returns what was done.

        The hand counter continues from the log and the carried data (button, previous winner)
        from the last settled hand. A hand interrupted before any card was dealt (or die
        rolled) is voided and every hold released; a hand already dealt is rebuilt by replaying
        its logged events, its players' seats restored, and it is played on: players who come
        back continue, timeouts play those who do not. A hand whose log cannot be replayed is
        void (an unrecoverable fault). Bots sit again in their seats; table stakes of players
        not in the rebuilt hand go back to their wallets.
        """
        self.hand = self.bank.last_hand(self.id)
        self.recent.extend(self.bank.recent_records(self.id, RECENT_RECORDS))
        outcome = "clean"
        seated: set[str] = set()
        unfinished = self.bank.unfinished_hand(self.id)
        if unfinished is not None:
            hand, events = unfinished
            moves = [e for e in events if e.get("kind") == "event"]
            dealt = any(e.get("type") in {"shuffle", "roll"} for e in moves)
            if not dealt:
                self.bank.void_hand(self.id, hand, describe("void_interrupted"))
                self.hands_voided += 1
                outcome = "voided"
            else:
                try:
                    seated = self._rebuild(hand, events[0], moves, events)
                    outcome = "resumed"
                except Exception:
                    log.exception("table %s hand %s: cannot replay; voided", self.id, hand)
                    self._clear_hand()
                    self.bank.void_hand(self.id, hand, describe("void_no_replay"))
                    self.hands_voided += 1
                    outcome = "voided"
        if self.state is None:
            self.carry = self._last_carry()
            self.carry_players = self.bank.last_settled_players(self.id)
        for index in list(self.spec.bots):
            if 0 <= index < len(self.seats) and self.seats[index] is None:
                self._seat_bot(index)
        self.spec.bots = [i for i, s in enumerate(self.seats) if s is not None and s.bot]
        if self.staked:
            for player_id in self.bank.stakes_at(self.id):
                if player_id not in seated and not self._is_bot_player(player_id):
                    self.bank.cash_out(self.id, player_id)
        return outcome

    def _rebuild(
        self,
        hand: int,
        opening: dict[str, Any],
        moves: list[dict[str, Any]],
        events: list[dict[str, Any]],
    ) -> set[str]:
        config = config_from_json(opening["config"], self.game)
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
                    raise ValueError(f"hand {hand}: a logged chance event disagrees with its seed")
            state = self.game.apply(state, logged)
        seated: set[str] = set()
        lineup = list(zip(opening["seats"], opening["players"], strict=True))
        # Players who sat in during a house round's betting window (SitIn) are in the log too.
        lineup += [(e["seat"], e["player"]) for e in events if e.get("kind") == "join"]
        for table_seat, player_id in lineup:
            if player_id is None:
                continue  # an empty seat of a house round
            info = self.bank.player_info(player_id)
            bot = self._new_bot() if info.bot else None
            # A restored player is away until they come back: one turn timer from the
            # resumption (:meth:`_on_resume_hand` starts it), then their timeout default.
            human = bot is None
            self.seats[table_seat] = SeatSlot(
                info,
                secrets.token_urlsafe(24),
                bot=bot,
                ready=True,
                restored=human,
                connected=not human,
                dropped_at=self._clock.now() if human else None,
            )
            seated.add(player_id)
        self.state = state
        self.hand_rng = rng
        self.seq = max([0, *(int(e.get("seq", 0)) for e in events if "seq" in e)])
        self.hand_players = list(opening["seats"])
        if self.banked:  # the bets' holds, as the ledger has them
            held = self.bank.held_in_hand(self.id, hand)
            self.held = {seat: held[pid] for seat, pid in lineup if pid is not None and pid in held}
        return seated

    def _last_carry(self) -> Any:
        record = self.bank.last_settled_hand(self.id)
        if record is None:
            return None
        try:
            config, events = record
            state = self.game.replay(
                config_from_json(config, self.game),
                [event_from_json(self.game, _event_body(e)) for e in events],
            )
            return self.game.carry(state) if self.game.is_terminal(state) else None
        except Exception:
            log.exception("table %s: the last hand does not replay; no carry", self.id)
            return None

    def _is_bot_player(self, player_id: str) -> bool:
        return any(s is not None and s.bot and s.player.id == player_id for s in self.seats)

    def start(self) -> None:
        """Start the actor task (a table still :attr:`recovering` rebuilds at its first command)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table:{self.id}")
            if self.recovering:
                return
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
            # What the command sends (self._send) is held until its events are durable: the
            # bank commits the events of every table in groups (one fsync for many), and nobody
            # may hear of an event that a crash could still lose.
            try:
                self._handle(command)
            except Exception:  # an actor must survive one bad command
                log.exception("table %s: command %s failed", self.id, command.kind)
                self._fault()
            try:
                await self._make_durable()
            except Exception:
                log.exception("table %s: the event log cannot be written", self.id)
                self._outgoing = []
                self._fault()
                with contextlib.suppress(Exception):
                    await self._make_durable()
            self._release()
            if self.command_seconds is not None and command.conn is not None:
                self.command_seconds.observe(time.perf_counter() - command.queued_at)
            if command.done is not None and not command.done.done():
                command.done.set_result(None)

    def _send(self, conn: Connection, message: p.ServerMessage) -> None:
        """Queue a message; it leaves once the events before it are durable."""
        self._outgoing.append((conn, message))

    def _release(self) -> None:
        outgoing, self._outgoing = self._outgoing, []
        for conn, message in outgoing:
            conn.send(message)

    async def _make_durable(self) -> None:
        """Write the command's events to the log (a group commit shared by every table)."""
        events, self._log_buffer = self._log_buffer, []
        if events or self._logged:
            self._logged = False
            await self.log_writer.write(self.id, events)

    def _fault(self) -> None:
        """After an unexpected error with a hand open: void it (RULES.md §2.8)."""
        if self.state is None:
            return
        try:
            self._void_hand("void_fault")
        except Exception:
            log.exception("table %s: cannot void hand %s", self.id, self.hand)

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
    def banked(self) -> bool:
        """A house game: rounds run on the table's clock, with or without players; every table
        seat is an engine seat and players sit in during the betting window (:class:`SitIn`)."""
        return self.game.info.banked

    def _revealed_seed(self) -> str | None:
        """The hand's server seed for its result, if the hall reveals this game's seeds
        (:meth:`Settings.reveals_seed`; RULES.md §2.10 keeps a player-vs-player deck secret)."""
        return self.server_seed if self.settings.reveals_seed(self.banked) else None

    @property
    def player_banked(self) -> bool:
        """A player-hosted table: a seated player banks it (the game's
        :class:`~sanh.games.hosting.PlayerBank`, RULES.md §5.7), only by choosing to (``host``)
        and with the amount they choose."""
        return self.banked and self.game.player_banked(self.spec.options)

    def _banker(self) -> int | None:
        """The table seat of a player-hosted table's banker (None: it waits for one)."""
        if not self.player_banked or self.spec.bank <= 0 or self.spec.host is None:
            return None
        return self._seat_of(self.spec.host)

    def _status(self) -> str | None:
        """What the table waits for, a text code (``waiting_for_host``), or None."""
        if self.player_banked and self._banker() is None:
            return "waiting_for_host"
        return None

    @property
    def staked(self) -> bool:
        """Whether players bring a table stake (Tẩy: the game's ``Hosting.table_stake``)."""
        return self.game.info.hosting.table_stake

    @property
    def quick(self) -> bool:
        """Quick mode: the spec's flag or the game option ``table.quick_mode``."""
        return self.spec.quick or bool(self.spec.options.get("table.quick_mode", False))

    def buyin_range(self) -> tuple[int, int]:
        """Minimum and maximum table stake after a buy-in (RULES.md §2.3, §4.9), as the game
        declares them (:meth:`~sanh.games.base.Game.buyin_limits`)."""
        return self.game.buyin_limits(self.spec.stake, self.spec.options)

    def topup_below(self) -> int:
        """A table stake below this must be topped up between hands (RULES.md §2.3, §4.9)."""
        return self.game.topup_below(self.spec.stake, self.spec.options)

    def _buyin_seconds(self) -> float:
        seconds = self.settings.buyin_timer
        option = self.game.info.hosting.buyin_timer_option
        if option is not None:
            seconds = float(self._option_values()[option])
        return self.settings.scaled(seconds)

    def _option_values(self) -> dict[str, Any]:
        """Every option of the table, defaults filled in (:meth:`Game.options`)."""
        if self._options is None:
            config = TableConfig.make(seats=self.game.info.seats_min, options=self.spec.options)
            self._options = dict(self.game.options(self.game.canonical_config(config)))
        return self._options

    def min_balance(self) -> tuple[int, int]:
        """The multiple of L a player's balance must reach to sit and be dealt in, and that
        amount (RULES.md §2.6: the game's :meth:`~sanh.games.base.Game.min_balance_multiple`)."""
        multiple = self.game.min_balance_multiple(self._option_values())
        return multiple, multiple * self.spec.stake

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
            "quick": self.quick,
            "private": self.spec.private,
            "system": self.spec.system,
            "host": self.spec.host,
            "hand": self.hand,
            "in_hand": self.state is not None,
            "waiting": self._status(),
        }

    # ----- command handling -------------------------------------------------------------
    def _handle(self, command: _Command) -> None:
        if self.recovering:
            self._recover_now()
        handler = getattr(self, f"_on_{command.kind}")
        handler(command.conn, command.data)

    def _recover_now(self) -> None:
        """Rebuild from the log, then play on (the first command of a restored table)."""
        self.recovering = False
        try:
            self.recovery = self.recover()
        except Exception:
            log.exception("table %s cannot be restored", self.id)
            self.recovery = "failed"
            self._clear_hand()
            return
        if self.state is not None:
            self._on_resume_hand(None, None)
        else:
            self._schedule_start()

    def _on_recover(self, conn: Connection | None, data: Any) -> None:
        """Nothing more: :meth:`_handle` rebuilt the table before this command."""

    def _on_sync(self, conn: Connection | None, data: Any) -> None:
        """Nothing: awaited (:meth:`call`), it tells that every command before it was handled."""

    def _error(self, conn: Connection | None, code: p.ErrorCode, message: str, **kw: Any) -> None:
        if conn is not None:
            self._send(conn, p.Error(code=code, message=message, table=self.id, **kw))

    def _refuse(
        self, conn: Connection | None, code: p.ErrorCode, reason: str, nonce: str | None = None
    ) -> None:
        """An ``error`` for a refusal whose reason is a text code: English words and the code.

        Every refusal of the table goes through here but a malformed action's (the parser's
        own words, sent with :meth:`_error`)."""
        self._error(conn, code, describe(reason), text=reason, nonce=nonce)

    def _seat_of(self, player_id: str) -> int | None:
        for index, slot in enumerate(self.seats):
            if slot is not None and slot.player.id == player_id:
                return index
        return None

    def _engine_seat(self, table_seat: int, state: Any = None) -> int | None:
        """The table seat's engine seat in the hand under way (None: not in the hand).

        House games give every table seat its own engine seat; a seat is in the hand once it
        has a stack (at the hand's opening, or by a :class:`SitIn` during the window).
        """
        state = self.state if state is None else state
        if state is None or table_seat not in self.hand_players:
            return None
        engine_seat = self.hand_players.index(table_seat)
        if self.banked and state.config.stacks[engine_seat] <= 0:
            return None
        return engine_seat

    def _on_join(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        invited = data == self.spec.invite_code or conn.player.id == self.spec.host
        if self.spec.private and not invited and self._seat_of(conn.player.id) is None:
            self._refuse(conn, p.ErrorCode.NO_SUCH_TABLE, "table_needs_invite")
            return
        self.watchers[id(conn)] = conn
        conn.tables.add(self.id)
        seat = self._seat_of(conn.player.id)
        if seat is not None:
            self._reclaim(seat)
        self._send_update(conn)
        if self.chat_history:
            self._send(conn, p.ChatHistory(table=self.id, lines=list(self.chat_history)))
        if self.recent:
            self._send(conn, p.Recent(table=self.id, records=list(self.recent)))
        if seat is not None:
            self._advance()

    def _reclaim(self, seat: int) -> None:
        slot = self.seats[seat]
        assert slot is not None
        slot.connected = True
        slot.restored = False
        slot.away_deadline = None
        slot.dropped_at = None

    def _on_resume(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        for index, slot in enumerate(self.seats):
            if slot is not None and slot.resume_token == data and slot.player.id == conn.player.id:
                self._reclaim(index)
                self.watchers[id(conn)] = conn
                conn.tables.add(self.id)
                self._send_update(conn)
                self._advance()
                return
        self._refuse(conn, p.ErrorCode.BAD_RESUME, "no_seat_for_token")

    def _on_leave(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        if id(conn) not in self.watchers and self._seat_of(conn.player.id) is None:
            self._refuse(conn, p.ErrorCode.NOT_AT_TABLE, "not_at_table")
            return
        seat = self._seat_of(conn.player.id)
        if seat is not None and self._engine_seat(seat) is not None:
            self._leave_after_hand(seat, conn, "leave")
            return
        self._unwatch(conn)
        if seat is not None:
            self._leave_between_hands(seat, conn)

    def _unwatch(self, conn: Connection) -> None:
        self.watchers.pop(id(conn), None)
        conn.tables.discard(self.id)

    def _on_disconnect(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        self.watchers.pop(id(conn), None)
        seat = self._seat_of(conn.player.id)
        if seat is None:
            return
        if any(w.player.id == conn.player.id for w in self.watchers.values()):
            return  # another tab of the same player is still connected
        slot = self.seats[seat]
        assert slot is not None
        slot.connected = False
        slot.dropped_at = self._clock.now()
        if self._engine_seat(seat) is None:
            self._keep_away(slot)
            self._broadcast()
        else:
            self._advance()

    def _keep_away(self, slot: SeatSlot) -> None:
        """Keep an absent player's seat for the reconnection grace, out of the next hands."""
        if slot.away_deadline is None:
            grace = self.settings.scaled(self.settings.reconnect_grace)
            slot.away_deadline = self._clock.now() + grace
            self._reschedule_timer()

    def _on_sit(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        if self.spec.private and id(conn) not in self.watchers:
            self._refuse(conn, p.ErrorCode.NOT_AT_TABLE, "join_with_invite")
            return
        if self._seat_of(conn.player.id) is not None:
            self._refuse(conn, p.ErrorCode.ALREADY_SEATED, "already_seated")
            return
        wanted: int | None = data
        free = [i for i, s in enumerate(self.seats) if s is None]
        if wanted is not None:
            if not 0 <= wanted < len(self.seats):
                self._refuse(conn, p.ErrorCode.BAD_AMOUNT, text("no_seat_number", wanted + 1))
                return
            if self.seats[wanted] is not None:
                self._refuse(conn, p.ErrorCode.SEAT_TAKEN, text("seat_number_taken", wanted + 1))
                return
            seat = wanted
        elif free:
            seat = free[0]
        else:
            self._refuse(conn, p.ErrorCode.TABLE_FULL, "table_full")
            return
        balance = self.bank.balance(conn.player.id)
        if self.staked:
            low, _ = self.buyin_range()
            if balance + self.bank.table_stake(self.id, conn.player.id) < low:
                self._refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, text("balance_below_buyin", low))
                return
        elif balance < self.min_balance()[1]:
            reason = text("seat_needs_multiple", *self.min_balance())
            self._refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, reason)
            return
        slot = SeatSlot(conn.player, secrets.token_urlsafe(24))
        self.seats[seat] = slot
        self.watchers[id(conn)] = conn
        conn.tables.add(self.id)
        if self.spec.host is None and not self.player_banked:
            self.spec.host = conn.player.id  # a player-banked table's banker steps up (host)
            self._save()
        if self.staked:
            existing = self.bank.table_stake(self.id, conn.player.id)
            low, _ = self.buyin_range()
            if existing >= low:
                slot.ready = True
            else:
                self._open_panel(seat, slot, conn)
        else:
            slot.ready = True
        if self._sit_in(seat):  # a house round under way: bet in it at once
            self._advance()
            return
        self._broadcast()
        self._schedule_start()

    def _panel_range(self, slot: SeatSlot) -> tuple[int, int]:
        """The amounts a buy-in (or top-up) may add now: the stake must end in the range."""
        low, high = self.buyin_range()
        have = self.bank.table_stake(self.id, slot.player.id)
        balance = self.bank.balance(slot.player.id)
        return max(low - have, 1), min(high - have, balance)

    def _open_panel(self, seat: int, slot: SeatSlot, conn: Connection | None) -> bool:
        """Open the buy-in panel (the maximum is taken at its deadline); False if impossible."""
        least, most = self._panel_range(slot)
        if least > most:
            return False
        slot.ready = False
        slot.buyin_deadline = self._clock.now() + self._buyin_seconds()
        panel = p.BuyInPanel(table=self.id, min=least, max=most, deadline=slot.buyin_deadline)
        for watcher in self._connections_of(slot.player.id, conn):
            self._send(watcher, panel)
        self._reschedule_timer()
        return True

    def _connections_of(self, player_id: str, extra: Connection | None = None) -> list[Connection]:
        out = [w for w in self.watchers.values() if w.player.id == player_id]
        if extra is not None and extra not in out:
            out.append(extra)
        return out

    def _on_buyin(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        seat = self._seat_of(conn.player.id)
        if seat is None:
            self._refuse(conn, p.ErrorCode.NOT_SEATED, "sit_down_first")
            return
        self._buy_in(seat, int(data), conn)

    def _buy_in(self, seat: int, amount: int, conn: Connection | None) -> None:
        slot = self.seats[seat]
        assert slot is not None
        if not self.staked:
            self._refuse(conn, p.ErrorCode.BAD_AMOUNT, "no_buyin")
            return
        if self._engine_seat(seat) is not None:
            self._refuse(conn, p.ErrorCode.BAD_AMOUNT, "top_up_between_hands")
            return
        least, most = self._panel_range(slot)
        if not least <= amount <= most:
            self._refuse(conn, p.ErrorCode.BAD_AMOUNT, text("buy_in_between", least, most))
            return
        if not self.bank.buy_in(self.id, slot.player.id, amount):
            self._refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, "not_enough_gold")
            return
        slot.ready = True
        slot.buyin_deadline = None
        self._broadcast()
        self._schedule_start()

    def _on_stand(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        seat = self._seat_of(conn.player.id)
        if seat is None:
            self._refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here")
            return
        if self._engine_seat(seat) is not None:
            self._leave_after_hand(seat, conn, "stand")
            return
        self._leave_between_hands(seat, conn)

    # ----- leaving (RULES.md §2.7; docs/protocol.md "Leaving a table") ------------------------
    def _leave_between_hands(self, seat: int, conn: Connection | None) -> None:
        """The seat is not in a hand: it goes at once and costs nothing (a Tẩy stake is
        cashed out); the next deal is made without it."""
        slot = self.seats[seat]
        if slot is None:
            return
        if not self._banker_leaves(seat):
            self._remove(seat)
        for watcher in self._connections_of(slot.player.id, conn):
            self._send(watcher, p.Left(table=self.id, hand=self.hand))
        self._broadcast()

    def _leave_after_hand(self, seat: int, conn: Connection, mode: str) -> None:
        """A leave (or stand) asked for during a hand: the seat plays on under its clock
        (timeouts, or the disconnection rule if the player goes away) and goes at the hand's
        result (:meth:`_after_hand`); the player keeps watching until then and may cancel."""
        slot = self.seats[seat]
        assert slot is not None
        slot.after_hand = mode
        pending = p.LeavePending(table=self.id, hand=self.hand, pending=True, stand=mode == "stand")
        for watcher in self._connections_of(slot.player.id, conn):
            self._send(watcher, pending)
        self._broadcast()

    def _on_cancel_leave(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        seat = self._seat_of(conn.player.id)
        slot = self.seats[seat] if seat is not None else None
        if slot is None:
            self._refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here")
            return
        slot.after_hand = None
        cancelled = p.LeavePending(table=self.id, hand=self.hand, pending=False)
        for watcher in self._connections_of(slot.player.id, conn):
            self._send(watcher, cancelled)
        self._broadcast()

    def _leave_cost(self, seat: int) -> tuple[int, str]:
        """What leaving now costs the seat, and its basis (``leave_quote``): nothing between
        hands; in a hand the game's exact amount (:meth:`Game.leave_cost`), else the bound the
        hall holds for the seat (its stack: ``min(balance, max_loss)``, the Tẩy stake; in a
        house game the bets held so far, which stand)."""
        engine_seat = self._engine_seat(seat)
        if self.state is None or engine_seat is None:
            return 0, "free"
        exact = self.game.leave_cost(self.state, engine_seat)
        if exact is not None:
            return int(exact), "exact"
        if self.banked:
            return self.held.get(engine_seat, 0), "bound"
        return int(self.state.config.stacks[engine_seat]), "bound"

    def _on_quote_leave(self, conn: Connection | None, data: Any) -> None:
        assert conn is not None
        seat = self._seat_of(conn.player.id)
        if seat is None:
            self._refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here")
            return
        cost, basis = self._leave_cost(seat)
        in_hand = self._engine_seat(seat) is not None
        quote = LeaveQuote(secrets.token_urlsafe(12), self.hand, in_hand, cost, basis)
        self.leave_quotes[conn.player.id] = quote
        message = p.LeaveQuote(
            table=self.id, hand=self.hand, cost=cost, basis=basis, quote_id=quote.quote_id
        )
        self._send(conn, message)

    def _on_leave_now(self, conn: Connection | None, data: Any) -> None:
        """Leave now at the quoted cost: refused, changing nothing, if the quote is not the
        player's last one for this hand (``leave_quote_unknown``) or the cost is no longer
        the quoted one (``leave_cost_changed``; a state that moved on at the same cost is
        fine)."""
        assert conn is not None
        seat = self._seat_of(conn.player.id)
        if seat is None:
            self._refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here")
            return
        quote = self.leave_quotes.get(conn.player.id)
        in_hand = self._engine_seat(seat) is not None
        if (
            quote is None
            or quote.quote_id != data
            or quote.hand != self.hand
            or quote.in_hand != in_hand
        ):
            self._refuse(conn, p.ErrorCode.LEAVE_QUOTE_UNKNOWN, "leave_quote_unknown")
            return
        cost, basis = self._leave_cost(seat)
        if (cost, basis) != (quote.cost, quote.basis):
            reason = text("leave_cost_changed", quote.cost, cost)
            self._refuse(conn, p.ErrorCode.LEAVE_COST_CHANGED, reason)
            return
        del self.leave_quotes[conn.player.id]
        self._unwatch(conn)
        if not in_hand:
            self._leave_between_hands(seat, conn)
            return
        self._send(conn, p.Left(table=self.id, hand=self.hand))
        self._leave_now(seat)

    def _leave_now(self, seat: int) -> None:
        """The seat leaves the hand under way: the game's ``"leave"`` default, at once when it
        is an ``anytime`` action or a table action, otherwise on the seat's turn
        (:meth:`_apply_absent_defaults`); the seat goes at the end of the hand."""
        if self._banker_leaves(seat):  # a player-hosted bank: the round is voided, refunded
            return
        slot = self.seats[seat]
        engine_seat = self._engine_seat(seat)
        assert slot is not None and engine_seat is not None
        slot.leaving = True
        slot.after_hand = None
        action = self.game.default_action(self.state, engine_seat, "leave")
        immediate = action is not None and (action.seat is None or type(action).anytime)
        if immediate and action is not None and self.game.is_legal(self.state, action):
            self._apply(action)
        self._advance()

    def _banker_leaves(self, seat: int) -> bool:
        """The banker of a player-hosted table stands up: the round under way (whose bets
        only the bank could pay) is voided and every bet refunded, the table has no banker
        and closes its betting until a player steps up (``host``). True if it was the banker."""
        if self._banker() != seat:
            return False
        if self.state is not None:
            self._void_hand("void_no_host")  # removes nobody: the banker is still seated
        self.spec.bank = 0
        self._remove(seat)
        self._broadcast()
        return True

    def _remove(self, seat: int) -> None:
        slot = self.seats[seat]
        if slot is None:
            return
        if self.staked:
            self.bank.cash_out(self.id, slot.player.id)
        self.seats[seat] = None
        if seat in self.spec.bots:
            self.spec.bots.remove(seat)
        if self.player_banked and self.spec.host == slot.player.id:
            self.spec.host, self.spec.bank = None, 0  # nobody inherits the bank
            self._save()
        elif self.spec.host == slot.player.id and not self.spec.system:
            remaining = [s for s in self.seats if s is not None and s.bot is None]
            remaining.sort(key=lambda s: s.sat_at)
            self.spec.host = remaining[0].player.id if remaining else None
            self._save()

    def _bank_range(self, player_id: str) -> tuple[int, int]:
        """The bank a player may choose: at least the game's
        :meth:`~sanh.games.base.Game.bank_minimum`, at most their balance."""
        least = self.game.bank_minimum(self.spec.stake, self.spec.options)
        return least, self.bank.balance(player_id)

    def _on_host(self, conn: Connection | None, data: Any) -> None:
        """``host {amount}``: become the banker of a player-hosted table, or change the bank
        for the next round (the current banker)."""
        assert conn is not None
        if not self.player_banked:
            self._refuse(conn, p.ErrorCode.NOT_HOST, "no_bank_here")
            return
        seat = self._seat_of(conn.player.id)
        if seat is None:
            self._refuse(conn, p.ErrorCode.NOT_SEATED, "sit_down_first")
            return
        banker = self._banker()
        if banker is not None and banker != seat:
            self._refuse(conn, p.ErrorCode.NOT_HOST, "bank_taken")
            return
        least, most = self._bank_range(conn.player.id)
        amount = int(data)
        if most < least:
            self._refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, text("bank_needs", least))
            return
        if not least <= amount <= most:
            self._refuse(conn, p.ErrorCode.BAD_AMOUNT, text("bank_between", least, most))
            return
        self.spec.host, self.spec.bank = conn.player.id, amount
        self._save()
        self._broadcast()
        self._schedule_start()

    def _on_chat(self, conn: Connection | None, data: Any) -> None:
        """A line of table chat: from a seated player, the host, or a spectator if the host
        allows (``spectator_chat``); refused lines are said nowhere (sanh/server/chat.py)."""
        assert conn is not None
        player = conn.player.id
        if id(conn) not in self.watchers:
            self._refuse(conn, p.ErrorCode.NOT_AT_TABLE, "not_at_table")
            return
        seat = self._seat_of(player)
        if seat is None and player != self.spec.host and not self.spec.spectator_chat:
            self._refuse(conn, p.ErrorCode.CHAT_NOT_ALLOWED, "spectators_read_only")
            return
        line, problem = clean_line(str(data))
        if problem is not None:
            self._refuse(conn, *problem)
            return
        if not self.chat_limiter.allows(player):
            reason = text("chat_too_fast", CHAT_BURST, f"{1 / CHAT_PER_SECOND:g}")
            self._refuse(conn, p.ErrorCode.CHAT_TOO_FAST, reason)
            return
        self.chat_limiter.take(player)
        entry = p.ChatEntry(
            player=player, name=conn.player.name, text=line, at=self._clock.now(), seat=seat
        )
        self.chat_history.append(entry)
        if self.state is not None:
            self.hand_chat.append(
                {"player": player, "name": entry.name, "text": line, "at": entry.at, "seat": seat}
            )
        message = p.ChatLine(table=self.id, line=entry)
        for watcher in list(self.watchers.values()):
            self._send(watcher, message)

    def _on_chat_spectators(self, conn: Connection | None, data: Any) -> None:
        """The host lets spectators write in the chat, or not."""
        assert conn is not None
        if conn.player.id != self.spec.host:
            self._refuse(conn, p.ErrorCode.NOT_HOST, "host_sets_chat")
            return
        self.spec.spectator_chat = bool(data)
        self._save()
        self._broadcast()

    def _on_add_bots(self, conn: Connection | None, data: Any) -> None:
        if conn is not None and conn.player.id != self.spec.host:
            self._refuse(conn, p.ErrorCode.NOT_HOST, "host_adds_bots")
            return
        self.add_bots(int(data))

    def _on_remove_bots(self, conn: Connection | None, data: Any) -> None:
        if conn is not None and conn.player.id != self.spec.host:
            self._refuse(conn, p.ErrorCode.NOT_HOST, "host_removes_bots")
            return
        for index, slot in enumerate(self.seats):
            if slot is None or slot.bot is None:
                continue
            if self._engine_seat(index) is None:
                self._remove(index)
            else:
                slot.leaving = True
        self._save()
        self._broadcast()

    def add_bots(self, count: int) -> None:
        """Fill up to ``count`` empty seats with bots."""
        sat_in = False
        for _ in range(count):
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                break
            self._seat_bot(free[0])
            sat_in = self._sit_in(free[0]) or sat_in
        self._save()
        if sat_in:
            self._advance()
            return
        self._broadcast()
        self._schedule_start()

    def _new_bot(self) -> Bot:
        """The game's bot, its thinking capped at :attr:`Settings.bot_samples` samples."""
        bot = bot_for(self.game.info.id)
        cap = self.settings.bot_samples
        samples = getattr(bot, "samples", None)
        if cap > 0 and isinstance(samples, int) and samples > cap:
            bot.samples = cap  # type: ignore[attr-defined]
        return bot

    def _seat_bot(self, index: int) -> None:
        info = self.bank.bot_player(f"{self.id}:{index + 1}")
        slot = SeatSlot(info, secrets.token_urlsafe(8), bot=self._new_bot())
        self.seats[index] = slot
        if index not in self.spec.bots:
            self.spec.bots.append(index)
        if self.staked:
            self.bank_for_bot(slot)
        slot.ready = True

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
            self._refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here", message.nonce)
            return
        seen = self.nonces.setdefault(conn.player.id, OrderedDict())
        if message.nonce in seen:
            ack = p.Ack(nonce=message.nonce, version=seen[message.nonce], duplicate=True)
            self._send(conn, ack)
            return
        engine_seat = self._engine_seat(seat)
        if self.state is None or engine_seat is None:
            self._refuse(conn, p.ErrorCode.NO_HAND, "no_hand_for_you", message.nonce)
            return
        if conn.hands_shown.get(self.id) != self.hand:  # sent for a hand that is over
            self._refuse(conn, p.ErrorCode.NO_HAND, "act_for_old_hand", message.nonce)
            return
        version = self.state.version
        in_window = self._window is not None and self._window[1]
        fresh = message.version == version or (
            in_window and self.window_version <= message.version <= version
        )
        if not fresh:
            reason = text("stale_version", version, message.version)
            self._refuse(conn, p.ErrorCode.STALE_VERSION, reason, message.nonce)
            return
        try:
            event = event_from_json(self.game, message.action)
        except (NotationError, TypeError, ValueError) as exc:
            self._error(conn, p.ErrorCode.MALFORMED, str(exc)[:300], nonce=message.nonce)
            return
        if not isinstance(event, Action) or event.seat != engine_seat:
            self._refuse(conn, p.ErrorCode.ILLEGAL_ACTION, "own_seat_only", message.nonce)
            return
        problem = _ill_typed(event)
        if problem is not None:
            self._error(conn, p.ErrorCode.MALFORMED, problem, nonce=message.nonce)
            return
        try:
            self._apply(event)
        except NotYourTurnError as exc:
            self._refuse(conn, p.ErrorCode.NOT_YOUR_TURN, exc.reason, message.nonce)
            return
        except HoldRefused as exc:
            self._refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, exc.reason, message.nonce)
            if self._apply_unfunded(engine_seat, event):
                self._advance()
            return
        except IllegalActionError as exc:
            self._refuse(conn, p.ErrorCode.ILLEGAL_ACTION, exc.reason, message.nonce)
            return
        except Exception:  # a rules engine must refuse, not crash; the hand is not at fault
            log.exception("table %s: the engine failed on a client's %s", self.id, event)
            self._refuse(conn, p.ErrorCode.ILLEGAL_ACTION, "not_legal_action", message.nonce)
            return
        seen[message.nonce] = version + 1
        while len(seen) > MAX_NONCES:
            seen.popitem(last=False)
        self._send(conn, p.Ack(nonce=message.nonce, version=version + 1))
        self._advance()

    def _on_tick(self, conn: Connection | None, data: Any) -> None:
        self._timer = None
        now = self._clock.now()
        for index, slot in enumerate(self.seats):
            if slot is not None and slot.buyin_deadline is not None and slot.buyin_deadline <= now:
                slot.buyin_deadline = None
                least, most = self._panel_range(slot)
                if least <= most and self._engine_seat(index) is None:
                    self._buy_in(index, most, None)
                elif self._engine_seat(index) is None:
                    self._remove(index)
                    self._broadcast()
        for index, slot in enumerate(self.seats):
            if slot is None or slot.away_deadline is None or slot.away_deadline > now:
                continue
            slot.away_deadline = None
            if not slot.present and self._engine_seat(index) is None:
                self._remove(index)
                self._broadcast()
        if self.state is not None:
            expired = [seat for seat, when in self.deadlines.items() if when <= now]
            for seat in expired:
                if self.state is None:
                    break
                self.deadlines.pop(seat, None)
                if seat is None:
                    self._close_window()
                    continue
                action = self.game.default_action(self.state, seat, self._timeout_reason(seat))
                if action is not None and self.game.is_legal(self.state, action):
                    self._apply(action)
            self._advance()
        self._reschedule_timer()

    def _close_window(self) -> None:
        """The table's deadline: its default action, again while the same window stays open."""
        window = self._window
        for _ in range(len(self.hand_players) + 4):
            if self.state is None or self.game.is_terminal(self.state):
                return
            action = self.game.default_action(self.state, None, "timeout")
            if action is None or not self.game.is_legal(self.state, action):
                return
            self._apply(action)
            if self._window_key(self.state) != window:
                return

    def _on_bots(self, conn: Connection | None, data: Any) -> None:
        self._bot_handle = None
        if self.state is None or data != self.state.version:
            self._advance()
            return
        self._bots_act()
        self._advance()

    def _on_resume_hand(self, conn: Connection | None, data: Any) -> None:
        self.resumed_at = self._clock.now()
        for slot in self.seats:
            if slot is not None and slot.restored:
                slot.dropped_at = self.resumed_at  # their grace runs from the resumption
        self._advance()

    def _on_start(self, conn: Connection | None, data: Any) -> None:
        self._start_handle = None
        self._maybe_start_hand()

    # ----- the hand -----------------------------------------------------------------------
    def _ready_seats(self) -> list[int]:
        return [index for index, slot in enumerate(self.seats) if self._is_ready(slot)]

    def _is_ready(self, slot: SeatSlot | None) -> bool:
        """Whether a seat can be dealt into the next hand (or sit in a house round)."""
        if slot is None or not slot.ready or slot.leaving or slot.after_hand or not slot.present:
            return False
        if slot.buyin_deadline is not None:
            return False
        if self.staked:
            return self.bank.table_stake(self.id, slot.player.id) > 0
        if self.banked:
            return True  # a house game needs only the amount bet
        return self.bank.balance(slot.player.id) >= self.min_balance()[1]

    def _schedule_start(self, delay: float | None = None) -> None:
        if self.state is not None or self._start_handle is not None or self.task is None:
            return
        wait = self.settings.scaled(self.settings.between_hands if delay is None else delay)
        self._start_handle = self._clock.call_later(wait, self.submit, "start")

    def _maybe_start_hand(self) -> None:
        if self.state is not None:
            return
        ready = self._ready_seats()
        info = self.game.info
        if self.banked:
            opening = self._house_lineup(ready)
            if opening is None:
                return
            lineup, host_seat = opening
        else:
            if len(ready) < info.seats_min:
                return
            lineup, host_seat = ready[: info.seats_max], None
        dealt = set(ready)
        players = [self.seats[i] if i in dealt else None for i in lineup]
        balances = {
            s.player.id: self.bank.balance(s.player.id)
            for s in players
            if s is not None and not self.staked
        }
        bound = self._loss_bound(players, balances)
        caps: dict[str, int] = {}
        for slot in players:
            if slot is not None:
                caps[slot.player.id] = self._hand_cap(slot, bound, balances.get(slot.player.id))
        self.hand += 1
        self.hand_chat = []
        self.server_seed = new_server_seed()
        rng_seed = self.server_seed
        if self.rng_factory is not None:
            rng_seed = f"{self.id}:{self.hand}"
            self.server_seed = rng_seed
        self.hand_rng = ProvablyFairRng(rng_seed, self.id, self.hand)
        self.seq = 0
        host = 0
        for engine_seat, slot in enumerate(players):
            if slot is not None and slot.player.id == self.spec.host:
                host = engine_seat
        if host_seat is not None:
            host = host_seat
        ids = [s.player.id if s is not None else None for s in players]
        clans = self.bank.clan_members([i for i in ids if i is not None])
        options = dict(self.spec.options)
        config = TableConfig.make(
            seats=len(players),
            stake=self.spec.stake,
            stacks=[caps[i] if i is not None else 0 for i in ids],
            options=options,
            host=host,
            carry=self._carry_for(ids),
            clan_members=[i is not None and i in clans for i in ids],
        )
        try:
            state, config = self._new_hand_state(config)
        except Exception:
            log.exception("table %s: cannot start a hand", self.id)
            self.hand -= 1
            self._schedule_start()  # again after the pause (a seat back may make it possible)
            return
        opened = self.bank.open_hand(
            self.id,
            self.hand,
            {} if self.banked else caps,  # a house game holds each bet as it comes
            {
                "kind": "open",
                "game": self.game.info.id,
                "staked": self.staked,
                "players": ids,
                "seats": lineup,
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
        self.hand_players = lineup
        self.held = {}
        self.out_seats = set()
        self.deadlines = {}
        self._window = None
        self.bot_counts = {}
        self._advance()

    def _carry_for(self, ids: list[str | None]) -> Any:
        """The carry for a new hand whose engine seats hold the players ``ids``: the last
        settled hand's carry with its engine seats renumbered by player
        (:meth:`~sanh.games.base.Game.remap_carry`), so a carried winner, banker or gà member
        stays the same player when someone left or sat down between hands."""
        if self.carry is None or self.carry_players is None:
            return self.carry
        new_seat = {pid: seat for seat, pid in enumerate(ids) if pid is not None}
        seats = {
            old: new_seat.get(pid) if pid is not None else None
            for old, pid in enumerate(self.carry_players)
        }
        return self.game.remap_carry(self.carry, seats)

    def _new_hand_state(self, config: TableConfig) -> tuple[Any, TableConfig]:
        """The new hand's state and config. A carry that still does not fit the lineup (it
        cannot once remapped by player, :meth:`_carry_for`; a last resort) is dealt as if every
        seat it names had left (``remap_carry(carry, {})``: a gà pot keeps its money). Only a
        game that does not remap its carry (its carry holds no money) has it dropped; for
        another the hand does not start (raised) rather than lose a carried pot."""
        try:
            return self.game.new_state(config), config
        except ConfigError:
            if config.carry is None:
                raise
            log.warning("table %s: the carry does not fit this lineup", self.id)
            remapping = type(self.game).remap_carry is not Game.remap_carry
            fallback = self.game.remap_carry(config.carry, {}) if remapping else None
            config = dataclasses.replace(config, carry=fallback)
            state = self.game.new_state(config)  # raises for a money carry: the hand waits
            if not remapping:
                self.carry = None
            return state, config

    def _hand_cap(
        self, slot: SeatSlot, bound: int | None = None, balance: int | None = None
    ) -> int:
        """What the player can commit in the hand: the table stake (Tẩy); in a house game
        the whole balance (not held: each bet is held as it comes, :meth:`_hold_bets`);
        otherwise the balance, at most ``bound``, the most the hand can cost a seat
        (:meth:`_loss_bound`), held for the hand: holding that is the same as capping debts
        at the whole balance (RULES.md §2.6)."""
        if self.staked:
            return self.bank.table_stake(self.id, slot.player.id)
        if balance is None:
            balance = self.bank.balance(slot.player.id)
        if self.banked and self.player_banked and slot.player.id == self.spec.host:
            return min(balance, self.spec.bank)  # the bank the banker chose (RULES.md §5.7)
        if self.banked:
            return balance  # what the player may bet; each bet is held as it comes
        return balance if bound is None else min(balance, bound)

    def _loss_bound(self, players: list[SeatSlot | None], balances: dict[str, int]) -> int | None:
        """``Game.max_loss`` of a non-Tẩy player-vs-player hand with these engine seats, read
        with their ``balances`` as stacks; ``None``: no bound (or options the game refuses)."""
        if self.staked or self.banked:
            return None
        stacks = [balances[s.player.id] if s is not None else 0 for s in players]
        config = TableConfig.make(
            seats=len(players), stake=self.spec.stake, stacks=stacks, options=self.spec.options
        )
        try:
            return self.game.max_loss(config)
        except ConfigError:
            return None

    def _house_lineup(self, ready: list[int]) -> tuple[list[int], int | None] | None:
        """A house round's engine seats (every table seat) and its bank seat, or None.

        The round runs with or without players; a player-hosted Tài Xỉu table needs its host,
        the bank, seated and able to pay (RULES.md §5.7).
        """
        lineup = list(range(len(self.seats)))
        if not self.player_banked:
            return lineup, None
        host = self._banker()
        if host is None or host not in ready:
            return None
        slot = self.seats[host]
        if slot is None or self._hand_cap(slot) <= 0:
            return None
        return lineup, host

    def _sit_in(self, seat: int) -> bool:
        """A player sat down at a house table during the betting window: give the empty
        engine seat a stack (the balance; its bets are held as they come) so that they bet in
        this round. The ``join`` log entry names the player for a rebuild."""
        slot = self.seats[seat]
        if self.state is None or not self.banked or slot is None or not self._is_ready(slot):
            return False
        cap = self._hand_cap(slot)
        clan = slot.player.id in self.bank.clan_members([slot.player.id])
        action = SitIn(None, chair=seat, stack=cap, clan=clan)
        if cap <= 0 or not self.game.is_legal(self.state, action):
            return False
        self._flush_log()
        self.seq += 1
        if not self.bank.join_hand(
            self.id,
            self.hand,
            self.seq,
            slot.player.id,
            0,
            {"kind": "join", "seat": seat, "player": slot.player.id},
        ):
            self.seq -= 1
            return False
        self._apply(action)
        return True

    def _apply(self, event: Event) -> None:
        """Validate, log, then apply one event (raises IllegalActionError, changing nothing).

        The log entry is buffered and written (one transaction for the command's events)
        before anyone hears of the change: see :meth:`_flush_log`.
        """
        assert self.state is not None
        state = self.game.apply(self.state, event)  # validates; pure, so nothing changes yet
        if self.banked:
            self._hold_bets(event, state)  # the bet's gold is held before the bet counts
        self.seq += 1
        self._log_buffer.append((self.hand, self.seq, {"kind": "event", **_event_json(event)}))
        self.state = state
        if not self.banked and not self.staked:
            self._release_out_seats(state)

    def _release_out_seats(self, state: Any) -> None:
        """A hold never outlives a seat's part in the hand: a seat out for good
        (:meth:`Game.out_loss`: a Liêng fold, whether played, timed out or caused by leaving)
        has its loss posted from its hold at once and the rest released, so its player can
        play elsewhere while the hand goes on (RULES.md §2.6). The event that put it out is
        written in the same transaction; the settlement counts the loss as paid."""
        for engine_seat in range(len(self.hand_players)):
            if engine_seat in self.out_seats:
                continue
            loss = self.game.out_loss(state, engine_seat)
            if loss is None:
                continue
            self.out_seats.add(engine_seat)
            slot = self.seats[self.hand_players[engine_seat]]
            if slot is None:
                continue
            self._flush_log()
            self.bank.out_hand(self.id, self.hand, slot.player.id, loss)
            if slot.bot is None:
                balance = p.BalanceUpdate(balance=self.bank.balance(slot.player.id))
                for watcher in self._connections_of(slot.player.id):
                    self._send(watcher, balance)

    def _apply_unfunded(self, engine_seat: int, event: Action) -> bool:
        """The wallet could not cover ``event``: apply what the game does then
        (:meth:`~sanh.games.base.Game.unfunded_action`: Three Card Poker's Play becomes the
        seed's fold); True if something was applied."""
        assert self.state is not None
        action = self.game.unfunded_action(self.state, engine_seat, event)
        if action is None or not self.game.is_legal(self.state, action):
            return False
        try:
            self._apply(action)
        except IllegalActionError:  # its own hold refused too: nothing more to do
            return False
        return True

    def _hold_bets(self, event: Event, state: Any) -> None:
        """House games need only the amount bet (RULES.md §2.6): hold what a seat's bets (or
        a player-hosted bank's reservations) put at risk as they grow.

        :raises HoldRefused: the wallet cannot cover it (the event does not count).
        """
        seats = {state.config.host}
        if isinstance(event, Action) and event.seat is not None:
            seats.add(event.seat)
        for seat in sorted(seats):
            risk = self.game.at_risk(state, seat) or 0
            need = risk - self.held.get(seat, 0)
            slot = self.seats[self.hand_players[seat]]
            if need <= 0 or slot is None:
                continue
            if not self.bank.hold_bet(self.id, self.hand, slot.player.id, need):
                raise HoldRefused(event, text("wallet_short", seat, need), state.version - 1)
            self.held[seat] = risk
            if slot.bot is None:  # the wallet shown in the page drops with the bet
                balance = p.BalanceUpdate(balance=self.bank.balance(slot.player.id))
                for watcher in self._connections_of(slot.player.id):
                    self._send(watcher, balance)

    def _flush_log(self) -> None:
        """Hand the buffered events to the bank now: the hand's settlement commits them first."""
        if self._log_buffer:
            events, self._log_buffer = self._log_buffer, []
            self.bank.log_events([(self.id, hand, seq, event) for hand, seq, event in events])
            self._logged = True

    def _advance(self) -> None:
        """Run chance, absent seats' defaults and bots until someone present must act."""
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
            if self._apply_removals():
                continue
            if not self._apply_absent_defaults(turn):
                break
        self._update_deadlines()
        self._schedule_bots()
        self._broadcast()

    def _apply_absent_defaults(self, turn: tuple[int, ...]) -> bool:
        """Apply the default of the first leaving or long-disconnected seat to act; True if one
        applied.

        A player whose connection drops keeps the turn clock (a reload or a short drop costs
        nothing): when a deadline passes while they are away, the game's ``"disconnect"``
        default applies (RULES.md §2.7, :meth:`_on_tick`); once they have been away for a
        whole turn timer, it applies at once whenever they must act.
        """
        now = self._clock.now()
        for engine_seat in turn:
            reason = self._absence(self.seats[self.hand_players[engine_seat]], now)
            if reason is None:
                continue
            action = self.game.default_action(self.state, engine_seat, reason)
            if action is not None and self.game.is_legal(self.state, action):
                self._apply(action)
                return True
        return False

    def _apply_removals(self) -> bool:
        """Apply the removal of the first leaving or long-disconnected seat, wherever the turn
        is, when the game's default for it is the seat's own ``anytime`` action (RULES.md §2.7:
        Liêng, Hold'em and Xì tố leaving, TLMN and Phỏm disconnections...); True if one
        applied. The seat's chips stay in the hand and it can win nothing."""
        assert self.state is not None
        now = self._clock.now()
        for engine_seat, table_seat in enumerate(self.hand_players):
            reason = self._absence(self.seats[table_seat], now)
            if reason is None:
                continue
            action = self.game.default_action(self.state, engine_seat, reason)
            if action is None or action.seat != engine_seat or not type(action).anytime:
                continue
            if self.game.is_legal(self.state, action):
                self._apply(action)
                return True
        return False

    def _absence(self, slot: SeatSlot | None, now: float) -> Reason | None:
        """Why a player's seat gets the game's default now: ``leave`` (it left the hand now),
        ``disconnect`` (away past its grace), ``timeout`` (restored after a restart and not
        reclaimed within its grace: RULES.md §2.8's timeouts, applied at once from then on),
        or ``None`` (present, a bot, or still within its grace)."""
        if slot is None or slot.bot is not None:
            return None
        if slot.leaving:
            return "leave"
        if not slot.connected and now >= self._grace_end(slot):
            return "timeout" if slot.restored else "disconnect"
        return None

    def _grace_end(self, slot: SeatSlot) -> float:
        """Until when a disconnected player's turns wait for them (one turn timer)."""
        if slot.dropped_at is None:
            return 0.0
        return slot.dropped_at + self.settings.scaled(self._turn_seconds())

    def _timeout_reason(self, engine_seat: int) -> Reason:
        """``disconnect`` for a seat whose player is away when its deadline passes."""
        slot = self.seats[self.hand_players[engine_seat]]
        if slot is not None and slot.bot is None and not slot.connected and not slot.restored:
            return "disconnect"
        return "timeout"

    def _window_key(self, state: Any) -> tuple[Any, ...]:
        """Which window (or turn) the state is in: phase, table actions, simultaneity."""
        turn = self.game.to_act(state)
        seats = turn if isinstance(turn, tuple) else ()
        table_actions = tuple(sorted({a.wire for a in self.game.legal_actions_for(state, None)}))
        simultaneous = bool(table_actions) or len(seats) > 1
        return (self.game.phase(state), simultaneous, table_actions)

    def _update_deadlines(self) -> None:
        assert self.state is not None
        turn = self.game.to_act(self.state)
        if not isinstance(turn, tuple):
            self.deadlines = {}
            return
        key = self._window_key(self.state)
        if key != self._window:
            self._window = key
            self.window_version = self.state.version
            self.bot_counts = {}
            self.deadlines.pop(None, None)
        now = self._clock.now()
        new: dict[int | None, float] = {}
        if key[2]:
            new[None] = self.deadlines.get(None) or now + self.settings.scaled(
                self._window_seconds(self.state)
            )
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
        return self.settings.quick_turn_timer if self.quick else self.settings.turn_timer

    def _window_seconds(self, state: Any) -> float:
        """The length of a table window (RULES.md §2.5): the clock the game declares for the
        phase (:class:`~sanh.games.hosting.PhaseClock`: a timer option such as a betting
        window's, or fixed seconds with a quick-mode value), else the turn timer."""
        clock = self.game.info.hosting.clock(self.game.phase(state))
        seconds = None
        if clock is not None:
            seconds = clock.length(self.game.options(state.config), self.quick)
        return self._turn_seconds() if seconds is None else seconds

    def _reschedule_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        times = list(self.deadlines.values())
        now = self._clock.now()
        for index, slot in enumerate(self.seats):
            if slot is not None:
                times += [t for t in (slot.buyin_deadline, slot.away_deadline) if t is not None]
                grace = self._grace_end(slot)
                if grace > now and self._engine_seat(index) is not None:
                    times.append(grace)  # from then on its turns apply at once
        if not times or self.task is None:
            return
        self._timer = self._clock.call_at(min(times), self.submit, "tick")

    def _schedule_bots(self) -> None:
        if self.state is None or self._bot_handle is not None or self.task is None:
            return
        if not self._bot_seats_to_act():
            return
        delay = self.settings.scaled(self.settings.bot_delay)
        version = self.state.version
        self._bot_handle = self._clock.call_later(delay, self.submit, "bots", None, version)

    def _bot_seats_to_act(self) -> list[int]:
        turn = self.game.to_act(self.state)
        if not isinstance(turn, tuple):
            return []
        seats = []
        simultaneous = self._window is not None and self._window[1]
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
        """One action of the bot to act (in a window: one action of every bot that may act)."""
        simultaneous = self._window is not None and self._window[1]
        for engine_seat in self._bot_seats_to_act():
            if self.state is None or self.game.is_terminal(self.state):
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
            if not simultaneous or self._window_key(self.state) != self._window:
                return

    def _finish_hand(self) -> None:
        state = self.state
        assert state is not None
        settlement = self.game.settle(state)
        settlement.check()
        players = self._hand_player_ids()
        record = self.game.public_record(state)
        event: dict[str, Any] = {
            "kind": "settle",
            "settlement": to_jsonable(settlement),
            "server_seed": self.server_seed,
        }
        if record is not None:
            event["record"] = record
        self._flush_log()
        try:
            self.bank.settle_hand(
                self.id,
                self.hand,
                players,
                settlement,
                staked=self.staked,
                game=self.game.info.id,
                event=event,
            )
        except Exception:
            log.exception("table %s: hand %s cannot be settled; voided", self.id, self.hand)
            self._void_hand("void_settlement")
            return
        self.hands_completed += 1
        if self.hand_chat:
            try:
                self.bank.keep_chat(self.id, self.hand, self.hand_chat)
            except Exception:  # the hand is settled: a chat that cannot be kept is only lost
                log.exception("table %s: hand %s's chat cannot be kept", self.id, self.hand)
            self.hand_chat = []
        self.carry = self.game.carry(state)
        self.carry_players = players
        result = fast_jsonable(settlement)
        self.last_result = {"hand": self.hand, "settlement": result, "players": players}
        entry = None if record is None else {"hand": self.hand, **record}
        if entry is not None:
            self.recent.append(entry)
        for conn in list(self.watchers.values()):
            self._send(
                conn,
                p.Result(
                    table=self.id,
                    hand=self.hand,
                    settlement=result,
                    seats=players,
                    server_seed=self._revealed_seed(),
                    balance=self.bank.balance(conn.player.id),
                    record=entry,
                ),
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
        self._after_hand()
        self._broadcast(final_views)

    def _hand_player_ids(self) -> list[str | None]:
        """Engine seat -> player id (None: an empty seat of a house game, or a seat gone)."""
        players: list[str | None] = []
        for table_seat in self.hand_players:
            slot = self.seats[table_seat]
            in_hand = slot is not None and self._engine_seat(table_seat) is not None
            players.append(slot.player.id if slot is not None and in_hand else None)
        return players

    def _void_hand(self, reason: str) -> None:
        """Void the hand in progress: every hold released, nothing paid (RULES.md §2.8).

        ``reason`` is a text code (``void_fault``): the ledger and ``voided`` get its English,
        ``voided_text`` the code for the client to translate.
        """
        players = self._hand_player_ids()
        words = describe(reason)
        # The events applied so far go first, in the void's transaction: an ack (or a view)
        # already queued for this command names them, and leaves with the void's result.
        self._flush_log()
        self.bank.void_hand(self.id, self.hand, words)
        self.hands_voided += 1
        for conn in list(self.watchers.values()):
            self._send(
                conn,
                p.Result(
                    table=self.id,
                    hand=self.hand,
                    settlement={},
                    seats=players,
                    server_seed=self._revealed_seed(),
                    balance=self.bank.balance(conn.player.id),
                    voided=words,
                    voided_text=reason,
                ),
            )
        self._after_hand()
        self._broadcast({})

    def _clear_hand(self) -> None:
        self.leave_quotes = {}
        self.state = None
        self.deadlines = {}
        self._window = None
        self.hand_players = []

    def _after_hand(self) -> None:
        """Between hands: absent players go, stakes below the level are topped up."""
        self._clear_hand()
        for index, slot in enumerate(self.seats):
            if slot is None:
                continue
            if slot.leaving:
                self._remove(index)
            elif slot.after_hand is not None:
                self._remove_after_hand(index, slot)
            elif not slot.present:
                self._keep_away(slot)
            elif slot.bot is not None and self.staked:
                self.bank_for_bot(slot)
            elif (
                self.staked
                and slot.buyin_deadline is None
                and self.bank.table_stake(self.id, slot.player.id) < self.topup_below()
                and not self._open_panel(index, slot, None)
            ):
                self._remove(index)
        self._reschedule_timer()
        self._schedule_start()

    def _remove_after_hand(self, seat: int, slot: SeatSlot) -> None:
        """A pending leave at the hand's result: the seat goes (``left``); a ``leave`` also
        stops watching (the result reached it first)."""
        mode = slot.after_hand
        self._remove(seat)
        for watcher in self._connections_of(slot.player.id):
            self._send(watcher, p.Left(table=self.id, hand=self.hand))
            if mode == "leave":
                self._unwatch(watcher)

    # ----- views ----------------------------------------------------------------------------
    def _view_json(self, conn: Connection, state: Any) -> dict[str, Any] | None:
        if state is None:
            return None
        seat = self._seat_of(conn.player.id)
        # A player not in the hand (an empty seat of a house round too) sees the public view.
        viewer = None if seat is None else self._engine_seat(seat, state)
        value: dict[str, Any] = fast_jsonable(self.game.observe(state, viewer))
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
                "connected": slot.present,
                "host": slot.player.id == self.spec.host,
                "ready": slot.ready,
                "leaving": slot.leaving,
                "leave_after_hand": slot.after_hand is not None,
                "engine_seat": self._engine_seat(index),
            }
            if self.staked:
                entry["table_stake"] = self.bank.table_stake(self.id, slot.player.id)
            out.append(entry)
        return out

    def _common(self) -> tuple[dict[str, float], str | None]:
        """The deadlines and the hand's commitment, the same for every watcher."""
        deadlines = {("table" if k is None else str(k)): v for k, v in self.deadlines.items()}
        commitment = (
            commitment_of(self.server_seed) if self.server_seed and self.state is not None else None
        )
        return deadlines, commitment

    def _update_for(
        self,
        conn: Connection,
        view: dict[str, Any] | None,
        seats: list[dict[str, Any]],
        common: tuple[dict[str, float], str | None] | None = None,
        watching: int | None = None,
    ) -> p.TableUpdate:
        seat = self._seat_of(conn.player.id)
        slot = self.seats[seat] if seat is not None else None
        deadlines, commitment = common if common is not None else self._common()
        if view is not None:
            conn.hands_shown[self.id] = self.hand
        return p.TableUpdate(
            table=self.id,
            game=self.game.info.id,
            seats=seats,
            your_seat=seat,
            hand=self.hand,
            view=view,
            deadlines=deadlines,
            commitment=commitment,
            resume_token=slot.resume_token if slot is not None and slot.bot is None else None,
            status=self._status(),
            bank=self.spec.bank if self._banker() is not None else None,
            spectator_chat=self.spec.spectator_chat,
            watching=self._watching() if watching is None else watching,
        )

    def _watching(self) -> int:
        """How many players watch without a seat (a player's several tabs count once)."""
        seated = {slot.player.id for slot in self.seats if slot is not None}
        return len({c.player.id for c in self.watchers.values()} - seated)

    def _send_update(self, conn: Connection) -> None:
        view = self._view_json(conn, self.state)
        self._send(conn, self._update_for(conn, view, self._seats_json()))

    def _broadcast(self, views: dict[int, dict[str, Any] | None] | None = None) -> None:
        if not self.watchers:
            return
        public: dict[str, Any] | None = None
        if views is None and self.state is not None:
            public = fast_jsonable(self.game.observe(self.state, None))
        seats = self._seats_json()
        common = self._common()
        watching = self._watching()
        for conn in list(self.watchers.values()):
            if views is not None:
                view = views.get(id(conn))
            else:
                seat = self._seat_of(conn.player.id)
                in_hand = seat is not None and self._engine_seat(seat) is not None
                view = self._view_json(conn, self.state) if in_hand else public
            self._send(conn, self._update_for(conn, view, seats, common, watching))


def _event_json(event: Event) -> dict[str, Any]:
    value: dict[str, Any] = fast_jsonable(event)
    return value


_HINTS: dict[type, dict[str, Any]] = {}


def _ill_typed(action: Action) -> str | None:
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


def _event_body(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in {"kind", "seq"}}


class _BotRng:
    """Bots' randomness: a fast PRNG seeded from the OS (bots' choices are not secret draws;
    the deck and the dice always come from the hand's provably fair stream)."""

    def __init__(self) -> None:
        self._random = random.Random(secrets.randbits(128))

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        return self._random.randrange(n)
