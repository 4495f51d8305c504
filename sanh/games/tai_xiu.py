"""Tài Xỉu (Sic Bo): bets on three dice, at the system table or at a player-hosted table.

Rules source: RULES.md §5 (from the Tài Xỉu part of seed 001, ``shared/seeds/001_*.txt``), with
§1 (money, rounding), §2.6 (a house game needs only the amount bet), §2.7-2.8 (disconnection and
interrupted rounds), §2.9 (clan rules) and §15 A-TX1 … A-TX7.

A round:

1. **Betting window** (§5.3). A seat *places* chips on a bet area with :class:`Place` (the area
   lights up, chips add up), then *confirms* them with :class:`Confirm` (the seed's "Đồng ý").
   :class:`Clear` takes back the chips placed and not yet confirmed; :class:`Ready` says a seat
   has finished (nothing left unconfirmed). Only confirmed bets play:
   chips still unconfirmed when the window closes are dropped, and a seat that disconnects has
   its unconfirmed chips cleared (its default action), while its confirmed bets stand (§5.8).
   The window closes with the table's own action :class:`CloseBetting` (``seat=None``), its
   default action when the countdown (option ``taixiu.betting_s``) runs out, and closes by
   itself once no seat is left to act.
2. **Chance**: a :class:`~sanh.games.base.Roll` of three dice.
3. **Settlement** (§5.4-5.6), itemised per bet.

Bet areas (``Place.bet``) and payouts (``x`` means ``x:1``, A-TX2):

=====================  ======================================  ==============================
``small`` (*Xỉu*)       total 4-10, not a triple                 1
``big`` (*Tài*)         total 11-17, not a triple                1
``single_N`` N=1..6    N shows on 1 / 2 / 3 dice                1 / 2 / 3
``combination_A_B``    both A and B show (A < B, 15 areas)      5
``total_K`` K=4..17    the sum is K (triples count, A-TX6)      table below (A-TX1)
``double_N``           at least two dice show N                 8
``triple_N``           all three dice show N                    150
``any_triple``         any triple                               24
=====================  ======================================  ==============================

Total odds (``taixiu.total_paytable``): ``asian`` (default) 4/17: 50, 5/16: 18, 6/15: 14,
7/14: 12, 8/13: 8, 9-12: 6; ``macau`` 60/30/17/12/8/6; or an explicit list ``4=50,5=18,...``
naming every total 4..17.

Tables (``taixiu.table``):

* ``system`` (default): the house is the bank (``Settlement.house``); the fee is 5 %; no bank
  limit. Every seat is a bettor; ``TableConfig.host`` plays no part.
* ``player``: the host seat (``TableConfig.host``) is the bank and cannot bet; the fee is 3 %.
  A chip is accepted only while the host's available balance can pay it: every bet reserves
  ``stake × its highest odds`` (3 for a single number, 50 for total 4 …) out of the host's
  balance (``TableConfig.stacks[host]``); placed chips reserve too, so a confirmation never
  fails. The host's net positive result is charged the 3 % fee as well (A-TX4,
  ``taixiu.fee_on_host``). Only bets of the table's seats are counted.

Fees and the clan (§5.5-5.6, A-TX3, A-TX5; the rounding policy of :mod:`sanh.games.base`): a
winning bet's profit ``P`` (the stake is excluded) is paid by the bank and split among the
winner (``P × 95 %`` or ``97 %``), the fee (``P × 5 %`` or ``3 %``) and, for a clan member, the
clan treasury (``P × 1 %``, carved out of the fee by default). Each share rounds down to a unit;
the remainder goes to ``breakage``. A clan member (``TableConfig.clan_members``) whose confirmed
stakes in the round total at least 5,000,000 gold earns 5 clan XP (``Settlement.clan_xp``); the
host of a player table earns none. Tài Xỉu counts no play time and no personal XP
(``info.counts_xp = False``).

Glossary (seed 001 → code): *Tài* ``big``; *Xỉu* ``small``; *cược đơn* / *cược theo số*
``single``; *cược 2 số* ``combination``; *cược tổng* ``total``; *cược số cặp* ``double``;
*3 số giống nhau* ``triple``; *3 số giống nhau bất kỳ* ``any_triple``; *Đồng ý* :class:`Confirm`;
*chủ bàn* host; *bàn hệ thống* system table; *Bang hội* clan; *gold tích lũy của Bang* clan
treasury (``clan_share``).

Options ([DEF]/[CP] numbers are options, RULES.md §1), named as RULES.md names them
(``taixiu.<name>``, ``clan.treasury_*``); older configs and hand histories name them without the
prefix (``table``, ``min_bet``, ``clan_treasury_source``...), read as deprecated aliases:

* ``taixiu.table`` = ``system`` | ``player``;
* ``taixiu.allow_opposite_bets`` = ``false`` | ``true`` (A-TX7): by default, once a seat has
  chips on Tài (placed or confirmed) its chips on Xỉu are refused in that round, and vice versa;
* ``taixiu.min_bet`` (units; 0, the default, means the table level L) and ``taixiu.max_bet``
  (units; 0, the default, means no maximum); both apply per bet area and round (the confirmed
  and placed chips of one seat on one area);
* ``taixiu.total_paytable`` (A-TX1), ``taixiu.triple_loses_totals`` (A-TX6, default false),
  ``taixiu.fee_basis`` = ``bet_profit`` | ``round_net`` (A-TX3), ``taixiu.fee_on_host``
  (A-TX4, default true), ``clan.treasury_source`` = ``fee`` | ``extra`` and
  ``clan.treasury_min_stake`` (gold; default 0) (A-TX5);
* ``taixiu.betting_s`` (30, RULES.md §2.5): the countdown, read by the server's clock (the
  engine itself has no time).

Choices where the rules are silent: a seat may place chips at most :data:`MAX_PLACES_PER_SEAT`
times per round; the host's own clan treasury share is taken from the host's fee base like any
member's (the same base as the fee, §5.6), but the host never earns clan XP; a view shows the
table's confirmed totals per area and how many seats bet on it (as the Tài/Xỉu boards do) but
never another seat's bets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, TypeAlias

from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.games._window import CloseBetting, Ready
from sanh.games.base import (
    CHANCE,
    Action,
    AmountRange,
    Chance,
    ChanceSpec,
    Event,
    Game,
    GameInfo,
    OptionValue,
    Reason,
    Roll,
    Rules,
    Settlement,
    SettlementLine,
    SitIn,
    TableConfig,
    View,
    check_sit_in,
    option,
    seat_in,
)
from sanh.games.hosting import Hosting, HouseTable, PhaseClock, PlayerBank
from sanh.texts import clean, describe, join, text
from sanh.types import UNITS_PER_GOLD, Chips, Seat, format_gold

__all__ = [
    "AREAS",
    "CLAN_XP",
    "CLAN_XP_MIN_STAKE",
    "GAMES",
    "MAX_PLACES_PER_SEAT",
    "TOTAL_PAYTABLES",
    "Clear",
    "CloseBetting",
    "Confirm",
    "Place",
    "Ready",
    "TaiXiu",
    "TaiXiuRules",
    "TaiXiuState",
    "TaiXiuView",
    "area_max_odds",
    "area_multiplier",
    "parse_total_paytable",
]

TOTAL_PAYTABLES: dict[str, tuple[int, ...]] = {
    "asian": (50, 18, 14, 12, 8, 6, 6, 6, 6, 8, 12, 14, 18, 50),
    "macau": (60, 30, 17, 12, 8, 6, 6, 6, 6, 8, 12, 17, 30, 60),
}
"""Total-bet odds for totals 4..17 (A-TX1): ``asian`` is the default [CP]."""


def _make_areas() -> tuple[str, ...]:
    areas = ["small", "big"]
    areas += [f"single_{n}" for n in range(1, 7)]
    areas += [f"combination_{a}_{b}" for a in range(1, 7) for b in range(a + 1, 7)]
    areas += [f"total_{k}" for k in range(4, 18)]
    areas += [f"double_{n}" for n in range(1, 7)]
    areas += [f"triple_{n}" for n in range(1, 7)]
    areas.append("any_triple")
    return tuple(areas)


AREAS: tuple[str, ...] = _make_areas()
"""Every bet area (50), in the order of RULES.md §5.4."""

_AREA_INDEX: dict[str, int] = {area: index for index, area in enumerate(AREAS)}
_SMALL, _BIG = _AREA_INDEX["small"], _AREA_INDEX["big"]

Stakes: TypeAlias = tuple[tuple[str, Chips], ...]
"""A seat's chips by area: ``(area, amount)`` pairs, amounts positive, in :data:`AREAS` order."""

CLAN_XP = 5
"""Clan XP earned by a member who stakes at least :data:`CLAN_XP_MIN_STAKE` in a round [S001]."""
CLAN_XP_MIN_STAKE: Chips = 5_000_000 * UNITS_PER_GOLD
"""5,000,000 gold in units [S001]."""
CLAN_SHARE_BP = 100
"""1 % of a clan member's winnings, in basis points [S001]."""
FEE_BP = {"system": 500, "player": 300}
"""The fee in basis points of the profit: 5 % at the system table, 3 % at a player table."""
MAX_PLACES_PER_SEAT = 60
"""How many :class:`Place` actions one seat may make in one round [DEF]."""
SEATS_MAX = 100
"""Seats (bettors, and the host at a player table) per table [DEF]. The engine works for any
number; the limit keeps the conformance suite's random rounds (50 amount ranges per seat)
fast."""


# ----- actions ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Place(Action):
    """Place ``amount`` more chips on ``bet`` (an area of :data:`AREAS`), not yet confirmed."""

    wire = "Place"

    bet: str = "big"
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Confirm(Action):
    """Confirm every chip placed and not yet confirmed ("Đồng ý"): they become bets."""

    wire = "Confirm"


@dataclass(frozen=True, slots=True)
class Clear(Action):
    """Take back every chip placed and not yet confirmed."""

    wire = "Clear"


# ----- payouts ---------------------------------------------------------------------------
def parse_total_paytable(spec: str) -> tuple[int, ...]:
    """The odds of totals 4..17 from ``asian``, ``macau`` or ``4=50,5=18,...,17=50``.

    :raises ConfigError: if the text does not name every total 4..17 with positive odds.

    >>> parse_total_paytable("asian")[0]
    50
    """
    if spec in TOTAL_PAYTABLES:
        return TOTAL_PAYTABLES[spec]
    odds: dict[int, int] = {}
    try:
        for part in spec.replace(";", ",").split(","):
            key, value = part.replace(":", "=").split("=")
            odds[int(key)] = int(value)
        complete = sorted(odds) == list(range(4, 18)) and all(v > 0 for v in odds.values())
    except ValueError:
        complete = False
    if not complete:
        code = text("option_total_paytable", "taixiu.total_paytable", clean(repr(spec)))
        raise ConfigError(text=code)
    return tuple(odds[k] for k in range(4, 18))


def area_max_odds(area: str, total_odds: tuple[int, ...] = TOTAL_PAYTABLES["asian"]) -> int:
    """The highest odds an area can pay: what a stake reserves of a player-table bank (§5.7)."""
    kind, _, rest = area.partition("_")
    if kind in ("small", "big"):
        return 1
    if kind == "single":
        return 3
    if kind == "combination":
        return 5
    if kind == "total":
        return total_odds[int(rest) - 4]
    if kind == "double":
        return 8
    if area == "any_triple":
        return 24
    return 150


def area_multiplier(
    area: str,
    dice: tuple[int, ...],
    total_odds: tuple[int, ...] = TOTAL_PAYTABLES["asian"],
    *,
    triple_loses_totals: bool = False,
) -> int:
    """The odds ``x`` (of ``x:1``) that ``area`` wins with on ``dice``; 0 if it loses.

    >>> area_multiplier("big", (6, 4, 3)), area_multiplier("big", (4, 4, 4))
    (1, 0)
    >>> area_multiplier("single_5", (5, 5, 2))
    2
    """
    total = sum(dice)
    triple = dice[0] == dice[1] == dice[2]
    kind, _, rest = area.partition("_")
    if area == "small":
        return 1 if 4 <= total <= 10 and not triple else 0
    if area == "big":
        return 1 if 11 <= total <= 17 and not triple else 0
    if area == "any_triple":
        return 24 if triple else 0
    if kind == "single":
        return dice.count(int(rest))
    if kind == "combination":
        first, second = (int(x) for x in rest.split("_"))
        return 5 if first in dice and second in dice else 0
    if kind == "total":
        if int(rest) != total or (triple and triple_loses_totals):
            return 0
        return total_odds[total - 4]
    if kind == "double":
        return 8 if dice.count(int(rest)) >= 2 else 0
    if kind == "triple":
        return 150 if triple and dice[0] == int(rest) else 0
    raise ValueError(f"no bet area {area!r}")


@lru_cache(maxsize=16)
def _area_odds(total_odds: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(area_max_odds(area, total_odds) for area in AREAS)


@lru_cache(maxsize=64)
def _paytable(spec: str) -> tuple[int, ...]:
    return parse_total_paytable(spec)


@dataclass(frozen=True, slots=True)
class TaiXiuRules(Rules):
    """The table's rule options, each declared once (RULES.md §5, A-TX1..A-TX7;
    ``TaiXiu().rules(config)``). The bet limits in units are the state's
    (:attr:`TaiXiuState.min_bet`: ``taixiu.min_bet`` 0 means the table's L)."""

    table: str = option(
        "taixiu.table",
        "system",
        ("system", "player"),
        "§5.7: who banks the table",
        aliases=("table",),
    )
    allow_opposite_bets: bool = option(
        "taixiu.allow_opposite_bets",
        False,
        help="A-TX7: Tài and Xỉu in one round",
        aliases=("allow_opposite_bets",),
    )
    min_bet_option: int = option(
        "taixiu.min_bet",
        0,
        help="smallest bet per area in units (0: L)",
        aliases=("min_bet",),
    )
    max_bet: int = option(
        "taixiu.max_bet",
        0,
        help="largest bet per area in units (0: none)",
        aliases=("max_bet",),
    )
    total_paytable: str = option(
        "taixiu.total_paytable",
        "asian",
        help="A-TX1: asian, macau or 4=50,...,17=50",
        aliases=("total_paytable",),
    )
    triple_loses_totals: bool = option(
        "taixiu.triple_loses_totals",
        False,
        help="A-TX6: triples lose total bets",
        aliases=("triple_loses_totals",),
    )
    fee_basis: str = option(
        "taixiu.fee_basis",
        "bet_profit",
        ("bet_profit", "round_net"),
        "A-TX3: fee base",
        aliases=("fee_basis",),
    )
    fee_on_host: bool = option(
        "taixiu.fee_on_host",
        True,
        help="A-TX4: fee on the host's net win",
        aliases=("fee_on_host",),
    )
    treasury_source: str = option(
        "clan.treasury_source",
        "fee",
        ("fee", "extra"),
        "A-TX5: clan 1 % source",
        aliases=("clan_treasury_source",),
    )
    treasury_min_gold: int = option(
        "clan.treasury_min_stake",
        0,
        help="A-TX5: gold staked for the clan 1 %",
        aliases=("clan_treasury_min_stake",),
    )
    betting_s: int = option(
        "taixiu.betting_s",
        30,
        help="§2.5: betting countdown, seconds (the server's clock)",
        aliases=("betting_s",),
    )

    def check(self) -> None:
        """The paytable parses; the limits and the clan stake are not negative."""
        _paytable(self.total_paytable)
        if self.min_bet_option < 0 or self.max_bet < 0:
            raise ConfigError(text=text("bet_limits_impossible", self.min_bet_option, self.max_bet))
        if self.treasury_min_gold < 0:
            raise ConfigError(text=text("option_not_negative", "clan.treasury_min_stake"))

    @property
    def fee_bp(self) -> int:
        """The fee in basis points: 5 % at the system table, 3 % at a player's (§5.7)."""
        return FEE_BP[self.table]

    @property
    def total_odds(self) -> tuple[int, ...]:
        """The odds of the totals 4..17 (A-TX1)."""
        return _paytable(self.total_paytable)

    @property
    def treasury_min_stake(self) -> Chips:
        """The stake that counts for the clan 1 %, in units (A-TX5)."""
        return self.treasury_min_gold * UNITS_PER_GOLD

    @property
    def area_odds(self) -> tuple[int, ...]:
        """The highest odds of each area of :data:`AREAS` (what a stake reserves, §5.7)."""
        return _area_odds(self.total_odds)

    @property
    def player_table(self) -> bool:
        """Whether the host seat is the bank."""
        return self.table == "player"


# ----- state and view --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TaiXiuState:
    """A Tài Xỉu round."""

    config: TableConfig
    version: int = 0
    history: tuple[Event, ...] = ()
    rules: TaiXiuRules = TaiXiuRules()
    confirmed: tuple[Stakes, ...] = ()
    """Per seat, the confirmed stakes: ``(area, amount)`` pairs in the order of :data:`AREAS`."""
    pending: tuple[Stakes, ...] = ()
    """Per seat, the chips placed and not yet confirmed, as ``(area, amount)`` pairs."""
    places: tuple[int, ...] = ()
    """Per seat, how many :class:`Place` actions it made this round."""
    ready: tuple[bool, ...] = ()
    """Per seat, whether it has said :class:`Ready` this round."""
    reserved: Chips = 0
    """Player table: the bank reserved by every confirmed and placed chip (stake × highest
    odds); 0 at the system table."""
    bettors: tuple[Seat, ...] = ()
    """The seats that may act now in the betting window (derived after every step)."""
    closed: bool = False
    dice: tuple[int, ...] = ()

    @property
    def min_bet(self) -> Chips:
        """The least total per area, in units: ``taixiu.min_bet``, or L when it is 0."""
        return self.rules.min_bet_option or self.config.stake


@dataclass(frozen=True, slots=True, kw_only=True)
class TaiXiuView(View):
    """What a seat sees: nothing about the dice is hidden; other seats' chips are private."""

    phase: str
    """``betting``, ``rolling`` or ``over``."""
    table: str
    """``system`` or ``player``."""
    host: Seat | None
    """The bank's seat at a player table (``None`` at the system table)."""
    fee_pct: str
    min_bet: Chips
    max_bet: Chips
    """0: no maximum."""
    balance: Chips
    """The viewer's balance free for chips (0 for a spectator or the host)."""
    bank_available: Chips | None
    """A player table's bank: the host's balance less every reservation, or once settled the
    host's balance after settlement (``None``: the system table, unlimited)."""
    my_confirmed: tuple[tuple[str, Chips], ...]
    my_pending: tuple[tuple[str, Chips], ...]
    totals: tuple[tuple[str, Chips], ...]
    """Every seat's confirmed bets added up, for each area holding some."""
    bettors: tuple[tuple[str, int], ...]
    """How many seats have confirmed bets on each area holding some (as public as
    :attr:`totals`: the boards' player counts per side, never whose bets they are)."""
    total_odds: tuple[tuple[int, int], ...]
    """The odds of each total bet, ``(total, x)``."""
    dice: tuple[int, ...]
    result: str
    """``tai``, ``xiu`` or ``triple`` once rolled."""
    my_lines: tuple[SettlementLine, ...]
    my_delta: Chips


def _amount(stakes: Stakes, area: str) -> Chips:
    for name, amount in stakes:
        if name == area:
            return amount
    return 0


def _add(stakes: Stakes, area: str, amount: Chips) -> Stakes:
    merged = dict(stakes)
    merged[area] = merged.get(area, 0) + amount
    return tuple(sorted(merged.items(), key=lambda item: _AREA_INDEX[item[0]]))


def _merge(first: Stakes, second: Stakes) -> Stakes:
    out = first
    for area, amount in second:
        out = _add(out, area, amount)
    return out


def _split(amount: Chips, shares_bp: tuple[int, ...]) -> tuple[tuple[Chips, ...], Chips]:
    """Split ``amount`` by basis-point shares, each rounded down; the remainder is breakage."""
    parts = tuple(amount * bp // 10_000 for bp in shares_bp)
    return parts, amount - sum(parts)


_PAYOUT_AREA = {
    "single": "single_1",
    "combination": "combination_1_2",
    "double": "double_1",
    "triple": "triple_1",
}
"""A bet kind of the odds reports -> one area of that kind (for its payout)."""


# ----- the game --------------------------------------------------------------------------
class TaiXiu(Game[TaiXiuState]):
    """Tài Xỉu (RULES.md §5, seed 001)."""

    info = GameInfo(
        id="tai-xiu",
        name="Sic Bo",
        name_vi="Tài Xỉu",
        seats_min=1,
        seats_max=SEATS_MAX,
        deck="dice",
        banked=True,
        max_actions=SEATS_MAX * (3 * MAX_PLACES_PER_SEAT + 2) + 2,
        rules_source="RULES.md §5, §1, §2.6-2.9, A-TX1..A-TX7; seed 001 (Tài Xỉu)",
        aliases=("Tài Xỉu", "Sic Bo", "Tai Xiu", "taixiu", "sicbo"),
        rules=TaiXiuRules,
        action_types=(Place, Confirm, Clear, Ready, CloseBetting, SitIn),
        counts_xp=False,
        private_actions=(Place, Confirm, Clear, Ready),
        hosting=Hosting(
            clocks=(PhaseClock("betting", option="taixiu.betting_s"),),
            player_bank=PlayerBank(
                option="taixiu.table",
                value="player",
                house_value="system",
                house_only="tai_xiu_system_table_only",
            ),
            house_table=HouseTable(stake=100, seats=50, bots=6),
        ),
    )

    # ----- hosting -------------------------------------------------------------------------
    def phase(self, state: TaiXiuState) -> str:
        """``betting``, ``rolling`` or ``over`` (the betting window has its clock)."""
        return "betting" if not state.closed else "rolling" if not state.dice else "over"

    def bank_minimum(self, stake: Chips, options: Mapping[str, OptionValue]) -> Chips:
        """A player's bank covers at least one minimum chip at the highest odds (§5.7)."""
        return stake * area_max_odds("triple_6")

    def bet_payout(self, bet: str) -> str:
        """A bet kind's payout under the default paytable (a single pays by its matches)."""
        if bet == "single":
            return "1:1 / 2:1 / 3:1"
        odds = area_max_odds(_PAYOUT_AREA.get(bet, bet), TOTAL_PAYTABLES["asian"])
        return f"{odds}:1"

    def check_house_options(self, values: Mapping[str, OptionValue]) -> None:
        """At the house's table the total bets pay at most the rule texts' paytables."""
        if values["taixiu.table"] == "player":
            return  # a player's bank pays its own bets
        most = tuple(map(max, *TOTAL_PAYTABLES.values()))
        paid = parse_total_paytable(str(values["taixiu.total_paytable"]))
        if any(p > m for p, m in zip(paid, most, strict=True)):
            raise ConfigError(text=text("option_over_house_paytable", "taixiu.total_paytable"))

    # ----- setup ---------------------------------------------------------------------------
    def rules(self, config: TableConfig) -> TaiXiuRules:
        """The table's rule options (cached per option set)."""
        rules = super().rules(config)
        assert isinstance(rules, TaiXiuRules)
        return rules

    def new_state(self, config: TableConfig) -> TaiXiuState:
        """A round with its betting window open. :raises ConfigError: on a bad config."""
        self.check_config(config)
        if config.clan_members and len(config.clan_members) != config.seats:
            flags = (len(config.clan_members), config.seats)
            raise ConfigError(text=text("clan_flags_for_seats", *flags))
        rules = self.rules(config)
        min_bet, max_bet = rules.min_bet_option or config.stake, rules.max_bet
        if min_bet <= 0 or (max_bet and max_bet < min_bet):
            raise ConfigError(text=text("bet_limits_impossible", min_bet, max_bet))
        empty: tuple[Stakes, ...] = ((),) * config.seats
        state = TaiXiuState(
            config=config,
            rules=rules,
            confirmed=empty,
            pending=empty,
            places=(0,) * config.seats,
            ready=(False,) * config.seats,
        )
        return self._refresh(state)

    def _refresh(self, state: TaiXiuState) -> TaiXiuState:
        """The state with :attr:`TaiXiuState.bettors` recomputed; the window closes by itself
        once no seat is left to act (every bettor ready, out of balance or at the cap) and no
        seat is empty (an empty seat may still be given a stack: :class:`SitIn`)."""
        if state.closed:
            return replace(state, bettors=())
        bank = self.bank_available(state)
        bettors = tuple(
            seat
            for seat in range(state.config.seats)
            if not self.is_host(state, seat) and self._can_act(state, seat, bank)
        )
        closed = not bettors and not any(
            self.is_empty_seat(state, seat) for seat in range(state.config.seats)
        )
        return replace(state, bettors=bettors, closed=closed)

    def is_empty_seat(self, state: TaiXiuState, seat: Seat) -> bool:
        """Whether ``seat`` is empty: no stack, no chips, not the bank (see :class:`SitIn`)."""
        return (
            state.config.stacks[seat] == 0
            and not state.confirmed[seat]
            and not state.pending[seat]
            and not self.is_host(state, seat)
        )

    # ----- money helpers -------------------------------------------------------------------
    def is_host(self, state: TaiXiuState, seat: Seat | None) -> bool:
        """Whether ``seat`` is the bank of a player table."""
        return state.rules.player_table and seat == state.config.host

    def balance(self, state: TaiXiuState, seat: Seat) -> Chips:
        """What ``seat`` can still place: its balance less its confirmed and placed chips."""
        held = sum(a for _, a in state.confirmed[seat]) + sum(a for _, a in state.pending[seat])
        return state.config.stacks[seat] - held

    def at_risk(self, state: TaiXiuState, seat: Seat) -> Chips | None:
        """A bettor's confirmed and placed chips; the host of a player table, every
        reservation (the most its bank can pay out)."""
        if self.is_host(state, seat):
            return state.reserved
        return sum(a for _, a in state.confirmed[seat]) + sum(a for _, a in state.pending[seat])

    def bank_available(self, state: TaiXiuState) -> Chips | None:
        """A player table's bank less every reservation (``None`` at the system table)."""
        if not state.rules.player_table:
            return None
        return state.config.stacks[state.config.host] - state.reserved

    def _reservation(self, state: TaiXiuState, stakes: Stakes) -> Chips:
        """What ``stakes`` reserve of a player table's bank (0 at the system table)."""
        if not state.rules.player_table:
            return 0
        odds = state.rules.area_odds
        return sum(amount * odds[_AREA_INDEX[area]] for area, amount in stakes)

    def _blocked(self, state: TaiXiuState, seat: Seat, index: int) -> bool:
        """Whether an area is refused because the opposite side holds chips (A-TX7)."""
        if state.rules.allow_opposite_bets or index not in (_SMALL, _BIG):
            return False
        other = "big" if index == _SMALL else "small"
        return bool(_amount(state.confirmed[seat], other) or _amount(state.pending[seat], other))

    def _area_bounds(
        self, state: TaiXiuState, seat: Seat, index: int, free: Chips, bank: Chips | None
    ) -> tuple[Chips, Chips]:
        """The least and most that may be placed on an area now (empty if least > most)."""
        rules = state.rules
        area = AREAS[index]
        current = _amount(state.confirmed[seat], area) + _amount(state.pending[seat], area)
        least = max(1, state.min_bet - current)
        most = free
        if rules.max_bet:
            most = min(most, rules.max_bet - current)
        if bank is not None:
            most = min(most, bank // rules.area_odds[index])
        return least, most

    # ----- turn ----------------------------------------------------------------------------
    def to_act(self, state: TaiXiuState) -> tuple[Seat, ...] | Chance | None:
        """Bettors who can act during the window, then chance, then over."""
        if not state.closed:
            return state.bettors
        if not state.dice:
            return CHANCE
        return None

    def _can_act(self, state: TaiXiuState, seat: Seat, bank: Chips | None) -> bool:
        if state.ready[seat]:
            return False
        if state.pending[seat]:
            return True
        if state.places[seat] >= MAX_PLACES_PER_SEAT:
            return False
        free = self.balance(state, seat)
        if free <= 0:
            return False
        for index in range(len(AREAS)):
            if not self._blocked(state, seat, index):
                least, most = self._area_bounds(state, seat, index, free, bank)
                if least <= most:
                    return True
        return False

    def chance_spec(self, state: TaiXiuState) -> ChanceSpec:
        """Three six-sided dice."""
        return ChanceSpec(kind="roll", dice=3, sides=6)

    def _seat_ranges(
        self, state: TaiXiuState, seat: Seat, bank: Chips | None
    ) -> tuple[AmountRange, ...]:
        if state.closed or self.is_host(state, seat) or state.ready[seat]:
            return ()
        if state.places[seat] >= MAX_PLACES_PER_SEAT:
            return ()
        free = self.balance(state, seat)
        if free <= 0:
            return ()
        ranges = []
        for index, area in enumerate(AREAS):
            if self._blocked(state, seat, index):
                continue
            least, most = self._area_bounds(state, seat, index, free, bank)
            if least <= most:
                ranges.append(AmountRange(Place(seat, area, 0), least, most))
        return tuple(ranges)

    def amount_ranges(self, state: TaiXiuState) -> tuple[AmountRange, ...]:
        """Every bettor's legal chip amounts on every area."""
        if state.closed:
            return ()
        bank = self.bank_available(state)
        return tuple(
            r for seat in range(state.config.seats) for r in self._seat_ranges(state, seat, bank)
        )

    def legal_actions_for(self, state: TaiXiuState, seat: Seat | None) -> tuple[Action, ...]:
        """One seat's legal actions (computed for that seat only), or the table's."""
        if state.closed:
            return ()
        if seat is None:
            return (CloseBetting(None),)
        if not 0 <= seat < state.config.seats:
            return ()
        return self._seat_actions(state, seat, self.bank_available(state))

    def amount_ranges_for(self, state: TaiXiuState, seat: Seat | None) -> tuple[AmountRange, ...]:
        """One seat's legal chip amounts."""
        if state.closed or seat is None or not 0 <= seat < state.config.seats:
            return ()
        return self._seat_ranges(state, seat, self.bank_available(state))

    def _seat_actions(
        self, state: TaiXiuState, seat: Seat, bank: Chips | None
    ) -> tuple[Action, ...]:
        actions: list[Action] = []
        for amount_range in self._seat_ranges(state, seat, bank):
            actions.append(amount_range.at(amount_range.min))
            if amount_range.max != amount_range.min:
                actions.append(amount_range.at(amount_range.max))
        if state.pending[seat]:
            actions += [Confirm(seat), Clear(seat)]
        elif seat in state.bettors:
            actions.append(Ready(seat))
        return tuple(actions)

    def legal_actions(self, state: TaiXiuState) -> tuple[Action, ...]:
        """Places at their minimum and maximum, Confirm/Clear with chips placed, and the close."""
        if state.closed:
            return ()
        bank = self.bank_available(state)
        actions: list[Action] = []
        for seat in range(state.config.seats):
            actions += self._seat_actions(state, seat, bank)
        actions.append(CloseBetting(None))
        return tuple(actions)

    def validate(self, state: TaiXiuState, event: Event) -> None:
        """As :meth:`Game.validate`, with a clear refusal for the host of a player table."""
        if isinstance(event, Place | Confirm | Clear | Ready) and not state.closed:
            seat = event.seat
            if self.is_host(state, seat):
                raise NotYourTurnError(
                    event,
                    "host_is_bank",
                    state.version,
                )
            if seat is not None and 0 <= seat < len(state.ready) and state.ready[seat]:
                raise NotYourTurnError(event, text("finished_betting", seat), state.version)
        super().validate(state, event)

    def validate_action(self, state: TaiXiuState, action: Action) -> None:
        """Check an action against the window, the limits, the balance and the bank."""
        if state.closed:
            raise IllegalActionError(action, "betting_closed", state.version)
        if isinstance(action, CloseBetting):
            if action.seat is not None:
                raise IllegalActionError(action, "only_table_closes", state.version)
            return
        if isinstance(action, SitIn):
            check_sit_in(
                state.config, action, lambda chair: self.is_empty_seat(state, chair), state.version
            )
            return
        seat = action.seat
        if seat is None:
            raise IllegalActionError(action, "table_does_not_bet", state.version)
        if isinstance(action, Confirm | Clear):
            if not state.pending[seat]:
                raise IllegalActionError(action, "nothing_to_confirm", state.version)
            return
        if isinstance(action, Ready):
            if state.pending[seat]:
                raise IllegalActionError(action, "confirm_first", state.version)
            return
        if not isinstance(action, Place):
            raise IllegalActionError(action, "not_tai_xiu_action", state.version)
        self._validate_place(state, action, seat)

    def _validate_place(self, state: TaiXiuState, action: Place, seat: Seat) -> None:
        rules, version = state.rules, state.version
        index = _AREA_INDEX.get(action.bet)
        if index is None:
            raise IllegalActionError(
                action, text("no_bet_area_tai_xiu", clean(action.bet)), version
            )
        amount = action.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise IllegalActionError(action, "chips_not_positive", version)
        if state.places[seat] >= MAX_PLACES_PER_SEAT:
            raise IllegalActionError(action, text("max_places", MAX_PLACES_PER_SEAT), version)
        if self._blocked(state, seat, index):
            side, other = ("small", "big") if index == _SMALL else ("big", "small")
            raise IllegalActionError(action, text("side_refused", other, side), version)
        current = _amount(state.confirmed[seat], action.bet) + _amount(
            state.pending[seat], action.bet
        )
        total = current + amount
        if total < state.min_bet:
            raise IllegalActionError(
                action, text("under_table_min", action.bet, total, state.min_bet), version
            )
        if rules.max_bet and total > rules.max_bet:
            raise IllegalActionError(
                action, text("over_table_max", action.bet, total, rules.max_bet), version
            )
        free = self.balance(state, seat)
        if amount > free:
            raise IllegalActionError(action, text("over_balance", amount, free), version)
        bank = self.bank_available(state)
        if bank is not None:
            need = amount * rules.area_odds[index]
            if need > bank:
                raise IllegalActionError(
                    action, text("bank_cannot_reserve", bank, action.bet, need), version
                )

    def transition(self, state: TaiXiuState, event: Event) -> TaiXiuState:
        """Place, confirm or clear chips, close the window (dropping unconfirmed chips), roll."""
        if isinstance(event, Roll):
            return replace(state, dice=tuple(event.dice))
        if isinstance(event, SitIn):
            return self._refresh(replace(state, config=seat_in(state.config, event)))
        if isinstance(event, CloseBetting):
            empty: tuple[Stakes, ...] = ((),) * state.config.seats
            dropped = sum(self._reservation(state, row) for row in state.pending)
            return replace(
                state, closed=True, pending=empty, reserved=state.reserved - dropped, bettors=()
            )
        return self._refresh(self._seat_transition(state, event))

    def _seat_transition(self, state: TaiXiuState, event: Event) -> TaiXiuState:
        assert isinstance(event, Action) and event.seat is not None
        seat = event.seat
        pending = list(state.pending)
        if isinstance(event, Place):
            pending[seat] = _add(pending[seat], event.bet, event.amount)
            places = list(state.places)
            places[seat] += 1
            reserved = state.reserved + self._reservation(state, ((event.bet, event.amount),))
            return replace(state, pending=tuple(pending), places=tuple(places), reserved=reserved)
        if isinstance(event, Confirm):
            confirmed = list(state.confirmed)
            confirmed[seat] = _merge(confirmed[seat], pending[seat])
            pending[seat] = ()
            return replace(state, confirmed=tuple(confirmed), pending=tuple(pending))
        if isinstance(event, Ready):
            ready = list(state.ready)
            ready[seat] = True
            return replace(state, ready=tuple(ready))
        assert isinstance(event, Clear)
        reserved = state.reserved - self._reservation(state, pending[seat])
        pending[seat] = ()
        return replace(state, pending=tuple(pending), reserved=reserved)

    def default_action(
        self, state: TaiXiuState, seat: Seat | None, reason: Reason
    ) -> Action | None:
        """The deadline closes the window; a disconnection or leaving clears unconfirmed chips.

        Confirmed bets stand in every case (§2.7, §5.8); a timeout changes nothing for a seat.
        """
        if state.closed:
            return None
        if seat is None:
            return CloseBetting(None)
        if reason != "timeout" and state.pending[seat] and not self.is_host(state, seat):
            return Clear(seat)
        return None

    # ----- settlement ----------------------------------------------------------------------
    def _shares(self, state: TaiXiuState, seat: Seat, staked: Chips) -> tuple[int, int, int]:
        """Basis points of a win kept by ``seat``, taken as fee, sent to its clan treasury."""
        rules = state.rules
        members = state.config.clan_members
        member = bool(members and members[seat]) and staked >= rules.treasury_min_stake
        fee = rules.fee_bp
        if not member:
            return 10_000 - fee, fee, 0
        if rules.treasury_source == "fee":
            return 10_000 - fee, fee - CLAN_SHARE_BP, CLAN_SHARE_BP
        return 10_000 - fee - CLAN_SHARE_BP, fee, CLAN_SHARE_BP

    def settle(self, state: TaiXiuState) -> Settlement:
        """Itemised settlement: every confirmed bet, the fees, the clan shares and XP."""
        if not state.dice:
            raise ValueError("the round is not over: nothing to settle")
        rules, config = state.rules, state.config
        seats = config.seats
        host = config.host if rules.player_table else None
        deltas = [0] * seats
        clan_share = [0] * seats
        clan_xp = [0] * seats
        fee = breakage = 0
        lines: list[SettlementLine] = []
        bank_result = 0  # the bank's gross result: lost stakes in, profits out
        bank_lines: list[SettlementLine] = []
        for seat in range(seats):
            if seat == host:
                continue
            staked = sum(amount for _, amount in state.confirmed[seat])
            keep_bp, fee_bp, clan_bp = self._shares(state, seat, staked)
            members = config.clan_members
            if members and members[seat] and staked >= CLAN_XP_MIN_STAKE:
                clan_xp[seat] = CLAN_XP
            gross = 0
            for area, stake in state.confirmed[seat]:
                odds = area_multiplier(
                    area,
                    state.dice,
                    rules.total_odds,
                    triple_loses_totals=rules.triple_loses_totals,
                )
                amount = stake * odds if odds else -stake
                gross += amount
                bank_lines.append(
                    SettlementLine(host, "bank", -amount, stake, text("bet_of", seat, area))
                )
                if odds and rules.fee_basis == "bet_profit":
                    (kept, taken, clan), rest = _split(amount, (keep_bp, fee_bp, clan_bp))
                    fee, clan_share[seat], breakage = (
                        fee + taken,
                        clan_share[seat] + clan,
                        (breakage + rest),
                    )
                    detail = join(
                        text("odds", odds), text("profit", amount), text("fee", taken + clan)
                    )
                    lines.append(SettlementLine(seat, area, kept, stake, detail))
                    deltas[seat] += kept
                else:
                    detail = text("odds", odds) if odds else text("loses")
                    lines.append(SettlementLine(seat, area, amount, stake, detail))
                    deltas[seat] += amount
            bank_result -= gross
            if rules.fee_basis == "round_net" and gross > 0:
                (kept, taken, clan), rest = _split(gross, (keep_bp, fee_bp, clan_bp))
                fee, clan_share[seat], breakage = (
                    fee + taken,
                    clan_share[seat] + clan,
                    (breakage + rest),
                )
                lines.append(
                    SettlementLine(seat, "fee", kept - gross, 0, text("fee_on_net", gross))
                )
                deltas[seat] += kept - gross
        house = 0
        if host is None:
            house = bank_result
            lines.extend(bank_lines)
        else:
            lines.extend(bank_lines)
            deltas[host] = bank_result
            if rules.fee_on_host and bank_result > 0:
                keep_bp, fee_bp, clan_bp = self._shares(state, host, 0)
                (kept, taken, clan), rest = _split(bank_result, (keep_bp, fee_bp, clan_bp))
                fee, clan_share[host], breakage = (
                    fee + taken,
                    clan_share[host] + clan,
                    (breakage + rest),
                )
                lines.append(
                    SettlementLine(
                        host,
                        "host_fee",
                        kept - bank_result,
                        0,
                        text("fee_on_bank", bank_result),
                    )
                )
                deltas[host] = kept
        total = sum(state.dice)
        triple = state.dice[0] == state.dice[1] == state.dice[2]
        settlement = Settlement(
            deltas=tuple(deltas),
            house=house,
            fee=fee,
            breakage=breakage,
            clan_share=tuple(clan_share),
            clan_xp=tuple(clan_xp),
            lines=tuple(lines),
            detail=(
                ("dice", state.dice),
                ("total", total),
                ("result", _result(state.dice)),
                ("triple", triple),
                ("table", rules.table),
            ),
        )
        settlement.check()
        return settlement

    # ----- views ---------------------------------------------------------------------------
    def public_record(self, state: TaiXiuState) -> dict[str, Any] | None:
        """The round's dice, total and side (``tai``, ``xiu`` or ``triple``): one bead of
        the road."""
        if not state.dice:
            return None
        return {"dice": list(state.dice), "total": sum(state.dice), "result": _result(state.dice)}

    def observe(self, state: TaiXiuState, viewer: Seat | None) -> TaiXiuView:
        """The viewer's chips and balance, the table's confirmed totals, the bank, the dice."""
        rules = state.rules
        seated = viewer is not None and 0 <= viewer < state.config.seats
        bettor = seated and not self.is_host(state, viewer)
        totals: Stakes = ()
        bettors: Stakes = ()
        for row in state.confirmed:
            totals = _merge(totals, row)
            bettors = _merge(bettors, tuple((area, 1) for area, amount in row if amount > 0))
        phase = self.phase(state)
        my_lines: tuple[SettlementLine, ...] = ()
        my_delta = 0
        bank = self.bank_available(state)
        if state.dice:
            settlement = self.settle(state)
            if bank is not None:  # reservations are released at settlement (§5.7)
                host = state.config.host
                bank = state.config.stacks[host] + settlement.deltas[host]
            if seated:
                assert viewer is not None
                my_lines = tuple(line for line in settlement.lines if line.seat == viewer)
                my_delta = settlement.deltas[viewer]
        return TaiXiuView(
            **self.view_base(state, viewer),
            phase=phase,
            table=rules.table,
            host=state.config.host if rules.player_table else None,
            fee_pct=f"{rules.fee_bp / 100:g}%",
            min_bet=state.min_bet,
            max_bet=rules.max_bet,
            balance=self.balance(state, viewer) if bettor and viewer is not None else 0,
            bank_available=bank,
            my_confirmed=state.confirmed[viewer] if viewer is not None and seated else (),
            my_pending=state.pending[viewer] if viewer is not None and seated else (),
            totals=totals,
            bettors=bettors,
            total_odds=tuple((k, rules.total_odds[k - 4]) for k in range(4, 18)),
            dice=state.dice,
            result=_result(state.dice) if state.dice else "",
            my_lines=my_lines,
            my_delta=my_delta,
        )

    def render_text(self, view: View) -> str:
        """A text Tài Xỉu board: the dice, the Tài/Xỉu totals, every area, the host's bank."""
        if not isinstance(view, TaiXiuView):
            return super().render_text(view)
        totals = dict(view.totals)
        mine = dict(view.my_confirmed)
        placed = dict(view.my_pending)

        def cell(area: str) -> str:
            text = format_gold(totals[area]) if area in totals else "-"
            if mine.get(area) or placed.get(area):
                text += f" (you {format_gold(mine.get(area, 0))}"
                if placed.get(area):
                    text += f" +{format_gold(placed[area])} unconfirmed"
                text += ")"
            return text

        bank = "unlimited" if view.bank_available is None else format_gold(view.bank_available)
        host = "" if view.host is None else f", host p{view.host + 1}"
        limit = format_gold(view.max_bet) if view.max_bet else "none"
        out = [
            f"Tài Xỉu · {view.table} table{host} · fee {view.fee_pct} · {view.phase}",
            f"  bank available: {bank} · bet per area {format_gold(view.min_bet)} .. {limit}",
        ]
        if view.dice:
            face = " ".join(f"[{d}]" for d in view.dice)
            out.append(f"  DICE {face}  total {sum(view.dice)} → {view.result.upper()}")
        out.append(f"  XỈU  small 4-10  1:1   {cell('small')}")
        out.append(f"  TÀI  big 11-17   1:1   {cell('big')}")
        out.append(f"  any_triple      24:1   {cell('any_triple')}")
        groups = (
            ("single (1/2/3:1)", [f"single_{n}" for n in range(1, 7)]),
            ("double (8:1)", [f"double_{n}" for n in range(1, 7)]),
            ("triple (150:1)", [f"triple_{n}" for n in range(1, 7)]),
        )
        for title, areas in groups:
            out.append(f"  {title}: " + "  ".join(f"{a.split('_')[1]}:{cell(a)}" for a in areas))
        odds = dict(view.total_odds)
        for low, high in ((4, 10), (11, 17)):
            out.append(
                "  totals: "
                + "  ".join(f"{k}({odds[k]}:1):{cell(f'total_{k}')}" for k in range(low, high + 1))
            )
        combos = [a for a in AREAS if a.startswith("combination_")]
        held = [a for a in combos if totals.get(a) or mine.get(a) or placed.get(a)]
        out.append(
            "  combination (5:1): " + ("  ".join(f"{a[12]}-{a[14]}:{cell(a)}" for a in held) or "-")
        )
        if view.viewer is not None and view.viewer != view.host:
            out.append(f"  your balance free for chips: {format_gold(view.balance)}")
        for line in view.my_lines:
            out.append(f"  {line.item:<18} {format_gold(line.amount):>12}  {describe(line.detail)}")
        if view.terminal and view.viewer is not None:
            out.append(f"  round result: {format_gold(view.my_delta)}")
        return "\n".join(out)


def _result(dice: tuple[int, ...]) -> str:
    if dice[0] == dice[1] == dice[2]:
        return "triple"
    return "tai" if sum(dice) >= 11 else "xiu"


GAMES = (TaiXiu(),)
