"""The hall: every table actor, the lobby, and the connections, over the wallet's services."""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from sanh.cards.rng import Rng
from sanh.errors import ConfigError, SanhError
from sanh.games import REGISTRY, find_game
from sanh.games.base import Game, GameInfo, OptionSpec, TableConfig
from sanh.ledger.names import name_key
from sanh.server import table_commands as c
from sanh.server.chat import ChatLimiter, LobbyChat
from sanh.server.clock import Clock, LoopClock
from sanh.server.metrics import Histogram
from sanh.server.services import Bank
from sanh.server.settings import Settings
from sanh.server.table import LogWriter, TableActor, TableSpec
from sanh.texts import clean, text

__all__ = [
    "Hall",
    "Metrics",
    "Placement",
    "TableElsewhere",
    "offered_options",
    "system_tables",
]

log = logging.getLogger("sanh.hall")


def system_tables() -> list[tuple[str, Game[Any]]]:
    """(table id, game) of the house tables opened at start: ``<game id>-system`` for every
    registered game that declares one (:class:`~sanh.games.hosting.HouseTable`).

    Their rounds run on the clock with or without players; a few bots bet there too, so that a
    newcomer finds a live board (the other bettors' totals, the results)."""
    return [
        (f"{game_id}-system", game)
        for game_id, game in sorted(REGISTRY.items())
        if game.info.hosting.house_table is not None
    ]


def offered_options(info: GameInfo, house_tai_xiu: bool) -> list[OptionSpec]:
    """A game's options as ``GET /api/games`` offers them for new tables: never the
    replay-only ones, and for a game a player may bank (:class:`~sanh.games.hosting.PlayerBank`),
    unless ``house_tai_xiu`` (``Settings.house_tai_xiu_tables``), only the player-hosted bank
    (its default there; seed 001: the one house-banked table is the hall's own)."""
    bank = info.hosting.player_bank
    out = []
    for spec in info.options:
        if spec.replay_only:
            continue
        if bank is not None and spec.name == bank.option and not house_tai_xiu:
            spec = dataclasses.replace(spec, default=bank.value, choices=(bank.value,))
        out.append(spec)
    return out


BOT_TABLE_STAKE = 1000
"""The bet level L of the bot tables opened at start (10 gold)."""

MAX_STAKE = 100_000_000
"""The largest bet level L a player's table may have (1,000,000 gold)."""


@dataclass(slots=True)
class Metrics:
    """Counters exported at /metrics."""

    connections: int = 0
    messages_in: int = 0
    messages_out: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    actions: int = 0
    started_at: float = field(default_factory=time.time)
    command_seconds: Histogram = field(default_factory=Histogram)
    """Client commands, from arrival at the table to their answer leaving (durable first)."""


class TableElsewhere(SanhError):
    """A table this process may not open: another node of the cluster holds its lease."""

    def __init__(self, table: str) -> None:
        self.table = table
        super().__init__(f"table {table!r} is another node's")


class Placement(Protocol):
    """Where the tables of a cluster live (:class:`sanh.cluster.node.ClusterNode`); a hall
    without one is the only process over its database and opens every table itself."""

    name: str
    """This node's name."""

    def claim(self, table: str) -> bool:
        """Take ``table``'s lease for this node (``True``: this node may open it)."""
        ...

    def remote_lobby(self) -> list[dict[str, Any]]:
        """The lobby entries of the other live nodes' tables (each names its ``node``)."""
        ...

    def locate(self, table: str) -> dict[str, Any] | None:
        """The lobby entry of another live node's table, by id or a private table's invite
        code (its ``node`` and ``url``, the WebSocket to follow), if one holds it."""
        ...


class Hall:
    """Owns the tables and the lobby."""

    def __init__(
        self,
        settings: Settings,
        bank: Bank,
        *,
        rng_factory: Callable[[str], Rng] | None = None,
        on_hand_end: Callable[[TableActor, dict[str, Any]], None] | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.settings = settings
        self.clock: Clock = clock if clock is not None else LoopClock()
        """What every deadline of the hall reads: its tables' and its connections'."""
        self.bank = bank
        self.rng_factory = rng_factory
        self.on_hand_end = on_hand_end
        self.tables: dict[str, TableActor] = {}
        self.metrics = Metrics()
        self.chat_limiter = ChatLimiter(self.clock)
        """Every player's chat rate, over the lobby and every table (sanh/server/chat.py)."""
        self.resume_key: bytes = secrets.token_bytes(32)
        """The seats' resume-token key: the hall's kept one (``create_app`` reads it from the
        database), so a table rebuilt elsewhere keeps its players' tokens."""
        self.lobby_chat = LobbyChat()
        self.log_writer = LogWriter(bank)
        """One group commit of event logs for every table."""
        self.placement: Placement | None = None
        """The cluster this hall is a node of (``sanh serve --node``); ``None``: one process."""
        self.table_bank: Callable[[TableSpec], Bank] | None = None
        """The bank of a table whose money is not the hall's gold (a tournament's chips,
        :mod:`sanh.server.tournaments`); ``None``: every table's is :attr:`bank`."""
        self._counter = 0

    def restore(self) -> dict[str, str]:
        """Rebuild every recorded table after a start (see :meth:`TableActor.recover`)."""
        outcomes: dict[str, str] = {}
        for table_id, data in self.bank.saved_tables():
            if table_id in self.tables or data.get("game") not in REGISTRY:
                continue
            try:
                spec = TableSpec(**data)
                actor = self._add(table_id, spec, start=False, save=False)
                outcomes[table_id] = actor.recover()
            except TableElsewhere:
                continue
            except Exception:
                log.exception("table %s cannot be restored", table_id)
                outcomes[table_id] = "failed"
                self.tables.pop(table_id, None)
                continue
            actor.start()
        return outcomes

    def open_recorded(self) -> list[TableActor]:
        """Start the actor of every recorded table; each rebuilds itself from the log lazily.

        A table is rebuilt (:meth:`TableActor.recover`) before its first command: at once if a
        player comes back to it, otherwise when :meth:`recover_all` reaches it. So the hall
        serves as soon as it starts and a table resumes within its own replay time, however
        many tables were in play.
        """
        actors = []
        for table_id, data in self.bank.saved_tables():
            if table_id in self.tables or data.get("game") not in REGISTRY:
                continue
            try:
                actor = self._add(table_id, TableSpec(**data), start=False, save=False)
            except TableElsewhere:
                continue  # a live node plays it
            except Exception:
                log.exception("table %s cannot be restored", table_id)
                self.tables.pop(table_id, None)
                continue
            actor.recovering = True
            actor.start()
            actors.append(actor)
        return actors

    async def recover_all(self, actors: list[TableActor]) -> dict[str, str]:
        """Rebuild the tables still waiting for it, one at a time (the loop serves between)."""
        outcomes: dict[str, str] = {}
        for actor in actors:
            if actor.recovering and actor.task is not None:
                await actor.call(c.Recover())
            outcomes[actor.id] = actor.recovery or "failed"
        return outcomes

    def open_bot_tables(self) -> None:
        """One table of bots per player-vs-player game, with one seat left for a person."""
        for game_id, game in sorted(REGISTRY.items()):
            if game.info.banked or not self.settings.game_offered(game_id):
                continue
            table_id = f"bots-{game_id}"
            seats = min(max(game.info.seats_min + 1, 4), game.info.seats_max)
            actor = self.tables.get(table_id)
            if actor is None:
                spec = TableSpec(
                    game=game_id,
                    stake=BOT_TABLE_STAKE,
                    seats=seats,
                    system=True,
                    name=game.info.name_vi,
                )
                try:
                    actor = self._add(table_id, spec)
                except TableElsewhere:
                    continue  # another node of the cluster opened it
            if actor.seated == 0:
                actor.submit(c.AddBots(None, actor.spec.seats - 1))

    def open_system_tables(self) -> None:
        """Open the house tables the registered games declare (:func:`system_tables`)."""
        for table_id, game in system_tables():
            house = game.info.hosting.house_table
            if house is None or table_id in self.tables:
                continue
            spec = TableSpec(
                game=game.info.id,
                stake=house.stake,
                seats=min(house.seats, game.info.seats_max),
                system=True,
                name=game.info.name_vi,
            )
            try:
                actor = self._add(table_id, spec)
            except TableElsewhere:
                continue  # another node of the cluster opened it
            if house.bots and not actor.spec.bots:
                actor.submit(c.AddBots(None, house.bots))

    def _add(
        self, table_id: str, spec: TableSpec, *, start: bool = True, save: bool = True
    ) -> TableActor:
        """Open a table's actor here. :raises TableElsewhere: in a cluster, when another node
        holds the table's lease."""
        if self.placement is not None and not self.placement.claim(table_id):
            raise TableElsewhere(table_id)
        bank = self.bank
        if spec.tournament is not None and self.table_bank is not None:
            bank = self.table_bank(spec)
        actor = TableActor(
            table_id,
            spec,
            bank=bank,
            settings=self.settings,
            rng_factory=self.rng_factory,
            on_hand_end=self.on_hand_end,
            log_writer=self.log_writer,
            command_seconds=self.metrics.command_seconds,
            clock=self.clock,
        )
        actor.chat_limiter = self.chat_limiter
        actor.resume_key = self.resume_key
        self.tables[table_id] = actor
        if save:
            self.bank.save_table(table_id, actor.spec_json())
        if start:
            actor.start()
        return actor

    def create_table(
        self,
        *,
        game: str,
        stake: int,
        seats: int | None,
        options: dict[str, Any],
        quick: bool,
        private: bool,
        host: str | None,
        name: str = "",
        house_tai_xiu: bool = True,
    ) -> TableActor:
        """Create a player-hosted table. :raises ConfigError: if the setup is impossible.

        :param house_tai_xiu: whether a house-banked table of a game a player may bank
            (:class:`~sanh.games.hosting.PlayerBank`) may be created: the public API
            (``POST /api/tables``) passes False unless ``Settings.house_tai_xiu_tables``
            (seed 001: one such table, the hall's own; the game's ``house_only`` refusal); the
            hall's own code and in-process tests may. Without it an omitted bank option is the
            player's bank (what ``GET /api/games`` offers, :func:`offered_options`)."""
        try:
            rules = find_game(game)
        except KeyError:
            raise ConfigError(text=text("unknown_game", clean(game))) from None
        info = rules.info
        if not self.settings.game_offered(info.id):
            raise ConfigError(text=text("game_not_offered", info.id))
        count = seats if seats is not None else info.seats_max
        if not info.seats_min <= count <= info.seats_max:
            bounds = (info.seats_min, info.seats_max, count)
            raise ConfigError(text=text("seats_range", info.id, *bounds))
        if stake <= 0 or stake > MAX_STAKE:
            raise ConfigError(text=text("stake_range", 1, MAX_STAKE))
        # Validate the options against the game (unknown names and bad values are refused).
        options = dict(options)
        names = {spec.name for spec in info.options}
        for option in info.options:
            if option.replay_only and option.name in options:
                raise ConfigError(text=text("option_replay_only", option.name))
        bank = info.hosting.player_bank
        if bank is not None and not house_tai_xiu:
            options.setdefault(bank.option, bank.value)  # the only kind the public API creates
        if quick and "table.quick_mode" in names:
            options["table.quick_mode"] = True
        quick = quick or bool(options.get("table.quick_mode", False))
        values = rules.options(TableConfig.make(seats=max(count, info.seats_min), options=options))
        if bank is not None and not rules.player_banked(values) and not house_tai_xiu:
            raise ConfigError(text=bank.house_only)
        _check_setup(rules, stake, count, options)
        if info.banked:
            rules.check_house_options(values)
        table_id = "t" + secrets.token_hex(4)
        spec = TableSpec(
            game=info.id,
            stake=stake,
            seats=count,
            options=options,
            quick=quick,
            private=private,
            invite_code=secrets.token_hex(3).upper() if private else None,
            host=host,
            name=name,
        )
        return self._add(table_id, spec)

    def lobby(
        self,
        *,
        game: str | None = None,
        stake_min: int | None = None,
        stake_max: int | None = None,
        open_seats: bool = False,
        q: str = "",
    ) -> list[dict[str, Any]]:
        """Public tables with filters (private tables are reached by invite code); ``q``: part
        of the table's name, its host's name or its game's name (compared by name key)."""
        key = name_key(q) if q else ""
        out = []
        for actor in self.tables.values():
            if actor.spec.private:
                continue
            entry = actor.lobby_entry()
            if game is not None and entry["game"] != game:
                continue
            if stake_min is not None and entry["stake"] < stake_min:
                continue
            if stake_max is not None and entry["stake"] > stake_max:
                continue
            if open_seats and entry["seated"] >= entry["seats"]:
                continue
            if key and not _matches(key, entry, actor.game.info.name, actor.game.info.name_vi):
                continue
            out.append(entry)
        if self.placement is not None:
            for entry in out:
                entry["node"] = self.placement.name
            for entry in self.placement.remote_lobby():
                if entry["private"] or (game is not None and entry["game"] != game):
                    continue
                if stake_min is not None and entry["stake"] < stake_min:
                    continue
                if stake_max is not None and entry["stake"] > stake_max:
                    continue
                if open_seats and entry["seated"] >= entry["seats"]:
                    continue
                if key and not _matches(key, entry, *_game_names(entry["game"])):
                    continue
                out.append(entry)
        out.sort(key=lambda e: (not e["system"], e["game"], e["stake"], e["id"]))
        return out

    def by_invite(self, code: str) -> TableActor | None:
        """The private table with this invite code."""
        for actor in self.tables.values():
            if actor.spec.private and actor.spec.invite_code == code.strip().upper():
                return actor
        return None

    async def close(self) -> None:
        """Stop every table actor."""
        for actor in list(self.tables.values()):
            await actor.stop()


def _matches(key: str, entry: dict[str, Any], *names: str) -> bool:
    """Whether the table's name, host's name or one of ``names`` holds the key ``key``."""
    return any(key in name_key(name) for name in (entry["name"], entry["host_name"] or "", *names))


def _game_names(game_id: str) -> tuple[str, ...]:
    """A game's names in both languages (none for a game this process does not know)."""
    game = REGISTRY.get(game_id)
    return (game.info.name, game.info.name_vi) if game is not None else ()


def _check_setup(rules: Game[Any], stake: int, seats: int, options: dict[str, Any]) -> None:
    """Build the game's first state with these options for every lineup the table can deal
    (``seats_min`` players up to ``seats``), so a setup the game refuses (an option's value
    impossible beside another, a seat number beyond the table) is refused when the table is
    created, not at its first hand. Every seat has a deep stack here: what the players bring
    is checked when a hand opens. :raises ConfigError: the game's own refusal."""
    low = rules.info.seats_min
    for count in range(low, max(low, seats) + 1):
        probe = TableConfig.make(
            seats=count, stake=stake, stacks=(stake * 1_000_000,) * count, options=options
        )
        rules.new_state(probe)
