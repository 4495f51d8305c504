"""Table actors: one asyncio task owns each table's engine state and applies commands in order.

A :class:`TableActor` is the owner of one table: it holds the table's facts (its spec and game,
the seats, the watchers, the hand under way) and the collaborators that do the work, each in
its own module:

- :class:`~sanh.server.table_seating.Seating` (``seating``): watching, sitting, the buy-in
  panel, standing and leaving, a player-hosted bank's host;
- :class:`~sanh.server.table_hand.HandRunner` (``runner``): open a hand
  (:mod:`~sanh.server.table_opening`), apply its events, finish (settle) or void it;
- :class:`~sanh.server.table_actions.ActionDesk` (``actions``): a client's ``act``, checked;
- :class:`~sanh.server.table_clock.TableClock` (``timers``): turn and window deadlines, panels,
  reconnection graces, the pause between hands;
- :class:`~sanh.server.table_recovery.Recovery` (``restorer``): the rebuild after a restart;
- :class:`~sanh.server.table_bots.BotDriver` (``bots``): bots sit, think and act;
- :class:`~sanh.server.table_chat.TableChat` (``chat``): the table's chat;
- :class:`~sanh.server.table_broadcast.Broadcaster` (``out``): what each watcher is told.

Commands (:mod:`sanh.server.table_commands`, one dataclass each) arrive on the actor's queue
from connection handlers, the table's timers and its bots, and are applied one at a time,
matched by type in :meth:`TableActor._handle`. Each accepted command and each chance outcome
is written to the table's event log through the :class:`~sanh.server.services.Bank` before
anyone is told about it: the messages a command sends are held by the broadcaster until the
actor has made its events durable (:meth:`TableActor._run`).

Absence (RULES.md §2.7). A player whose connection drops keeps the turn clock, so a reload or
a short drop costs nothing: a deadline that passes while they are away applies the game's
``"disconnect"`` default, and once they have been away for a whole turn timer that default
applies at once whenever they must act, and at once wherever the turn is when it is the seat's
``anytime`` removal (Liêng, Phỏm, TLMN...). A bet the wallet cannot cover is refused, and the
game may answer it (:meth:`~sanh.games.base.Game.unfunded_action`: Three Card Poker's Play
becomes a fold).

House games (Tài Xỉu, Three Card Poker, Teen Patti) run rounds on the table's clock with or
without players: every table seat is an engine seat, a seat without a player has no stack, and
a player who sits during the betting window is given a stack at once (the engine's
:class:`~sanh.games.base.SitIn`, held in the ledger with its ``join`` log entry).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sanh.cards.rng import Rng
from sanh.games import find_game
from sanh.games.base import Game, TableConfig
from sanh.server import protocol as p
from sanh.server import table_commands as c
from sanh.server.chat import ChatLimiter
from sanh.server.clock import Clock, LoopClock
from sanh.server.metrics import Histogram
from sanh.server.services import Bank
from sanh.server.settings import Settings
from sanh.server.table_actions import ActionDesk
from sanh.server.table_actions import ill_typed as _ill_typed
from sanh.server.table_bots import BotDriver
from sanh.server.table_broadcast import Broadcaster
from sanh.server.table_chat import TableChat
from sanh.server.table_clock import TableClock
from sanh.server.table_hand import HandRunner
from sanh.server.table_recovery import Recovery
from sanh.server.table_seating import Seating
from sanh.server.table_types import (
    BOT_ACTIONS_PER_WINDOW,
    MAX_NONCES,
    RECENT_RECORDS,
    BotRng,
    Connection,
    HoldRefused,
    LeaveQuote,
    LogWriter,
    SeatSlot,
    TableSpec,
    resume_token,
)

__all__ = [
    "BOT_ACTIONS_PER_WINDOW",
    "MAX_NONCES",
    "RECENT_RECORDS",
    "Connection",
    "HoldRefused",
    "LeaveQuote",
    "LogWriter",
    "SeatSlot",
    "TableActor",
    "TableSpec",
    "_ill_typed",
]

log = logging.getLogger("sanh.table")


@dataclass(slots=True)
class _Queued:
    """A command on an actor's queue: who waits for it, and since when it waited."""

    command: c.Command
    done: asyncio.Future[None] | None = None
    queued_at: float = field(default_factory=time.perf_counter)


class TableActor:
    """The single owner of one table: its facts, its collaborators, its command queue."""

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
        self.clock: Clock = clock if clock is not None else LoopClock()
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
        self.bot_rng: Rng = rng_factory(f"{table_id}/bots") if rng_factory else BotRng()
        self.on_hand_end = on_hand_end
        self.log_writer = log_writer or LogWriter(bank)
        self.resume_key: bytes = secrets.token_bytes(32)
        """What the seats' resume tokens are made with (the hall gives its kept key)."""
        self.draining = False
        """Deal no new hand: the node is handing this table over (a graceful stop drains)."""
        # ----- the table's facts (the collaborators read and change them) -----
        self.seats: list[SeatSlot | None] = [None] * spec.seats
        self.watchers: dict[int, Connection] = {}
        self.state: Any = None
        self.hand = 0
        self.hand_players: list[int] = []
        """Engine seat -> table seat, for the hand in progress."""
        self.held: dict[int, int] = {}
        """House games: engine seat -> the gold held for its bets in the hand in progress."""
        self.carry: Any = None
        """The carry of the last settled hand, in that hand's engine seats."""
        self.carry_players: list[str | None] | None = None
        """Engine seat -> player id of the hand :attr:`carry` comes from (``None``: unknown)."""
        self.last_result: dict[str, Any] | None = None
        self.hands_completed = 0
        self.hands_voided = 0
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT_RECORDS)
        """The public records of the last hands (``Game.public_record``), oldest first: the
        Tài Xỉu road; restored from the log by :meth:`recover`."""
        self.levels: dict[str, int] = {}
        """Player id -> level (sanh/ledger/levels.py), read when a player is first shown and
        again after each hand."""
        self._options: dict[str, Any] | None = None
        self.queue: asyncio.Queue[_Queued] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        # ----- the collaborators -----
        self.out = Broadcaster(self)
        self.timers = TableClock(self)
        self.seating = Seating(self)
        self.runner = HandRunner(self)
        self.actions = ActionDesk(self)
        self.bots = BotDriver(self)
        self.chat = TableChat(self)
        self.restorer = Recovery(self)

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
            "tournament": spec.tournament,
            "entrants": list(spec.entrants),
        }

    def save(self) -> None:
        """Save the spec (a restart rebuilds the table from it)."""
        self.bank.save_table(self.id, self.spec_json())

    def recover(self) -> str:
        """Rebuild after a restart (RULES.md §2.8; :mod:`sanh.server.table_recovery`)."""
        return self.restorer.recover()

    @property
    def recovering(self) -> bool:
        """Rebuild from the log before the first command (lazy restore)."""
        return self.restorer.pending

    @recovering.setter
    def recovering(self, value: bool) -> None:
        self.restorer.pending = value

    @property
    def recovery(self) -> str | None:
        """What the rebuild did (``clean``, ``resumed``, ``voided``, ``failed``)."""
        return self.restorer.outcome

    @property
    def resumed_at(self) -> float | None:
        """When a hand rebuilt after a restart first moved on (for the resume-time metric)."""
        return self.restorer.resumed_at

    def start(self) -> None:
        """Start the actor task (a table still :attr:`recovering` rebuilds at its first command)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table:{self.id}")
            if self.recovering:
                return
            if self.state is not None:
                self.submit(c.ResumeHand())
            else:
                self.timers.reschedule()  # seats kept for players away (their graces)
                self.timers.schedule_start()

    async def stop(self) -> None:
        """Stop the actor task (pending timers are dropped)."""
        self.timers.cancel()
        self.bots.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _run(self) -> None:
        while True:
            queued = await self.queue.get()
            # What the command sends is held until its events are durable: the bank commits
            # the events of every table in groups (one fsync for many), and nobody may hear of
            # an event that a crash could still lose.
            try:
                self._handle(queued.command)
            except Exception:  # an actor must survive one bad command
                log.exception("table %s: command %s failed", self.id, queued.command)
                self.runner.fault()
            try:
                await self.runner.make_durable()
            except Exception:
                log.exception("table %s: the event log cannot be written", self.id)
                self.out.drop()
                self.runner.fault()
                with contextlib.suppress(Exception):
                    await self.runner.make_durable()
            self.out.release()
            if self.command_seconds is not None and c.client_of(queued.command) is not None:
                self.command_seconds.observe(time.perf_counter() - queued.queued_at)
            if queued.done is not None and not queued.done.done():
                queued.done.set_result(None)

    def submit(
        self, command: c.Command | str, conn: Connection | None = None, data: object = None
    ) -> None:
        """Queue a command for the actor (a :mod:`~sanh.server.table_commands` command; a
        word with its payload is turned into one first, its types checked:
        :func:`~sanh.server.table_commands.from_kind`)."""
        if isinstance(command, str):
            command = c.from_kind(command, conn, data)
        self.queue.put_nowait(_Queued(command))

    async def call(
        self, command: c.Command | str, conn: Connection | None = None, data: object = None
    ) -> None:
        """Queue a command and wait until the actor has applied it."""
        if isinstance(command, str):
            command = c.from_kind(command, conn, data)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(_Queued(command, done))
        await done

    # ----- command handling -------------------------------------------------------------
    def _handle(self, command: c.Command) -> None:
        if self.recovering:
            self.restorer.now()
        match command:
            case c.Join(conn, invite):
                self.seating.join(conn, invite)
            case c.Resume(conn, token):
                self.seating.resume(conn, token)
            case c.Leave(conn):
                self.seating.leave(conn)
            case c.Disconnect(conn):
                self.seating.disconnect(conn)
            case c.Sit(conn, seat):
                self.seating.sit(conn, seat)
            case c.BuyIn(conn, amount):
                self.seating.on_buyin(conn, amount)
            case c.Stand(conn):
                self.seating.stand(conn)
            case c.CancelLeave(conn):
                self.seating.cancel_leave(conn)
            case c.QuoteLeave(conn):
                self.seating.quote_leave(conn)
            case c.LeaveNow(conn, quote_id):
                self.seating.leave_now(conn, quote_id)
            case c.Host(conn, amount):
                self.seating.host(conn, amount)
            case c.Chat(conn, said):
                self.chat.say(conn, said)
            case c.ChatSpectators(conn, allow):
                self.chat.allow_spectators(conn, allow)
            case c.Act(conn, message):
                self.actions.act(conn, message)
            case c.AddBots(conn, count):
                self.bots.on_add(conn, count)
            case c.RemoveBots(conn):
                self.bots.on_remove(conn)
            case c.Tick():
                self.timers.tick()
            case c.Bots(version):
                self.bots.on_think(version)
            case c.Start():
                self.runner.start()
            case c.ResumeHand():
                self.restorer.resume_hand()
            case c.Recover() | c.Sync():
                pass  # the rebuild above, or only a mark in the queue

    # ----- the parts' shared reading of the table --------------------------------------------
    def seat_of(self, player_id: str) -> int | None:
        """The player's table seat (None: not seated)."""
        for index, slot in enumerate(self.seats):
            if slot is not None and slot.player.id == player_id:
                return index
        return None

    _seat_of = seat_of

    def engine_seat(self, table_seat: int, state: Any = None) -> int | None:
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

    def is_bot_player(self, player_id: str) -> bool:
        """Whether ``player_id`` is one of the table's seated bots."""
        return any(s is not None and s.bot and s.player.id == player_id for s in self.seats)

    @property
    def deadlines(self) -> dict[int | None, float]:
        """Engine seat (``None``: the table's window) -> when its default applies."""
        return self.timers.deadlines

    @property
    def chat_history(self) -> deque[p.ChatEntry]:
        """The table's last chat lines, sent to whoever joins."""
        return self.chat.history

    @property
    def chat_limiter(self) -> ChatLimiter:
        """Each player's chat rate (the hall gives every table its own shared one)."""
        return self.chat.limiter

    @chat_limiter.setter
    def chat_limiter(self, limiter: ChatLimiter) -> None:
        self.chat.limiter = limiter

    def resume_token(self, seat: int, player: str) -> str:
        """The resume token of ``player`` at ``seat`` (the same on every node of the hall)."""
        return resume_token(self.resume_key, self.id, seat, player)

    def add_bots(self, count: int) -> None:
        """Fill up to ``count`` empty seats with bots."""
        self.bots.add(count)

    def _after_hand(self) -> None:
        self.runner.after_hand()

    def _release(self) -> None:
        self.out.release()

    # ----- public facts (read-only, for the lobby and the parts) -----------------------------
    @property
    def seated(self) -> int:
        """How many seats are taken."""
        return sum(1 for s in self.seats if s is not None)

    @property
    def banked(self) -> bool:
        """A house game: rounds run on the table's clock, with or without players; every table
        seat is an engine seat and players sit in during the betting window (:class:`SitIn`)."""
        return self.game.info.banked

    def revealed_seed(self) -> str | None:
        """The hand's server seed for its result, if the hall reveals this game's seeds
        (:meth:`Settings.reveals_seed`; RULES.md §2.10 keeps a player-vs-player deck secret)."""
        seed = self.runner.server_seed
        return seed if self.settings.reveals_seed(self.banked) else None

    @property
    def player_banked(self) -> bool:
        """A player-hosted table: a seated player banks it (the game's
        :class:`~sanh.games.hosting.PlayerBank`, RULES.md §5.7), only by choosing to (``host``)
        and with the amount they choose."""
        return self.banked and self.game.player_banked(self.spec.options)

    @property
    def house(self) -> bool:
        """The house banks this table (a house game not banked by a player, from the game's
        declared seat model): no player there is its host, whoever manages its bots."""
        return self.banked and not self.player_banked

    def seat_model(self) -> str:
        """Who plays against whom: ``house`` (the house banks every seat), ``player_bank`` (a
        seated player banks the table) or ``players`` (player against player)."""
        if not self.banked:
            return "players"
        return "player_bank" if self.player_banked else "house"

    def host_name(self) -> str | None:
        """The display name of the table's host, when a seated player hosts it (never at a
        table the house banks)."""
        if self.house or self.spec.host is None:
            return None
        seat = self.seat_of(self.spec.host)
        slot = None if seat is None else self.seats[seat]
        return None if slot is None else slot.player.name

    def banker(self) -> int | None:
        """The table seat of a player-hosted table's banker (None: it waits for one)."""
        if not self.player_banked or self.spec.bank <= 0 or self.spec.host is None:
            return None
        return self.seat_of(self.spec.host)

    def status(self) -> str | None:
        """What the table waits for, a text code (``waiting_for_host``), or None."""
        if self.player_banked and self.banker() is None:
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

    def option_values(self) -> dict[str, Any]:
        """Every option of the table, defaults filled in (:meth:`Game.options`)."""
        if self._options is None:
            config = TableConfig.make(seats=self.game.info.seats_min, options=self.spec.options)
            self._options = dict(self.game.options(self.game.canonical_config(config)))
        return self._options

    def min_balance(self) -> tuple[int, int]:
        """The multiple of L a player's balance must reach to sit and be dealt in, and that
        amount (RULES.md §2.6: the game's :meth:`~sanh.games.base.Game.min_balance_multiple`)."""
        multiple = self.game.min_balance_multiple(self.option_values())
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
            "host": None if self.house else self.spec.host,
            "host_name": self.host_name(),
            "house": self.house,
            "seat_model": self.seat_model(),
            "bots": sum(1 for slot in self.seats if slot is not None and slot.bot is not None),
            "hand": self.hand,
            "in_hand": self.state is not None,
            "waiting": self.status(),
        }
