"""Sâm Lốc: RULES.md §7 and §15 (A-SL*); seed 001 "Sâm (Lốc)".

2 to 5 players, 10 cards each from one 52-card deck (the rest are not used). Suits never count.
After the deal come the instant wins (*thắng trắng*), then the Sâm declaration window (*báo
Sâm*): every seat declares or declines at once, the first declaration wins and the declarer
leads and must play out all 10 cards unbeaten. Otherwise the leader is the previous winner (in
the first game the holder of the lowest card, ties to the nearest seat from the host). Plays
climb within a trick, a pass locks a player out until the trick ends, the first player to empty
their hand wins (*về Nhất*) and every loser pays by the cards left.

Glossary: *báo Sâm* declare (:class:`DeclareSam`); *bắt Sâm* beating a declarer's play (Sâm
failure, ``outcome="sam_failed"``); *thắng trắng* instant win; *báo 1* down to one card (the
player just before them must play their highest single, ``bao1`` offences); *thối 2* going out on
2s (``thoi``); *treo* played no card; *chặt* / *đè* cut / over-cut (``item="cut"`` debts);
*đền trắng* passing with a beating play against a Sâm that then succeeds; *đền báo* a declarer
leaving; *rời bàn* leaving mid-game (:class:`Leave`, accepted at any moment); *đền làng*
paying for every loser.

Seat order: turn order runs to increasing seat numbers (``samloc.direction = ccw``); ``cw``
reverses it. Dealing gives card ``k`` of the deck order to seat ``k mod n``.

Choices where the rules are silent (each [DEF] unless RULES.md names it):

* The declaration window is simultaneous: each seat declares or declines; the table action
  :class:`CloseDeclarations` ends it when the ``samloc.declare_s`` clock runs out.
* Two fours of a kind (only a cut of a pair of 2s) are over-cut by two higher fours (the
  higher four first). A higher four of a kind beating a four that was led is no cut and pays
  nothing; only chains that start by cutting 2s pay (§7.6).
* Báo 1: an offence is a single below the player's highest rank played while the next player
  in play holds one card; if that player goes out by beating that very single, the offender
  pays every loser's card amount (*đền làng*); thối and leaving payments stay with their
  payers. A lower single the one-card player does not beat at once costs nothing.
* A declarer who goes out on 2s fails; the game then ends with no winner, and the next game
  is led as a first game. Đền báo (a declarer leaving) ends the game the same way. With
  ``samloc.sam_fail_ends_game = false`` a failed Sâm turns into an ordinary game, ordinary
  payments included.
* ``n`` in every payment counts the players not gone (thối players are still in the game).
  A thối player may not leave (they are out of play; their debt stands).
* With ``samloc.finish_on_two = forbid`` a play of only 2s that empties the hand is refused
  unless it is the player's only possible lead; then it is thối as with ``lose``.
* With ``samloc.leave_penalty_to = winner`` the leaver's (n−1) × 10 goes to the final winner,
  or 10 lá to each player there at the time if the game ends with no winner.
* Debts are capped at the payer's stack and split pro rata among receivers (§2.6). A seat
  whose stack is below ``platform.min_balance_multiple`` × L (10 by default, A-PL4) sits the
  game out; a carried winner sitting out counts as gone. The random first leader
  (``samloc.first_leader = random``) is a die with a face per seat dealt in.

The largest loss (:meth:`SamLoc.max_loss`), in lá, for ``n`` seats. A hand holds 10 cards, so
at most two fours of a kind, and at most three 2s (25 lá) while four 2s are an instant win, four
(30) when ``samloc.instant_wins`` leaves them out. ``A`` is ``samloc.quad_ace_cut_value`` and
``A⁺ = max(A − 20, 0)`` (there is one four of aces).

* **Cuts** a seat pays: each chain it is the last player cut in needs one of its 2s (a single or
  a pair) or its own four of a kind, and a cutter from another seat. With ``chain_value`` a
  chain pays 20 per four in the final cutting play (a pair of 2s' chain is cut by two fours, 40)
  or ``A`` for the four aces: at most ``20 × 2 (n − 1) + A⁺`` over the other seats' fours, and
  at most ``max(40, A)`` per chain for at most 4 chains (three 2s and a four, or two 2s and two
  fours; 5 with four 2s). With ``cumulative`` a chain pays every link, so at most
  ``20 × 2 n + A⁺`` over every four at the table.
* **The end**, one of: the seat's cards (Treo 15, plus its 2s with
  ``treo_adds_two_values``; else 1 a card and 5/10 a 2 for at most 9 cards: 6 + 25 = 31, or
  9 + its 2s with ``two_count = add``); *đền làng* or *đền trắng* for Treo, paying every loser's
  cards (``15 (n − 1) + 30``: each loser's base is at most 15 and the deck's 2s are 30, from
  three seats on); thối on 2s (at most three 2s, 25, plus ``thoi_finish_penalty``); leaving,
  ``10 (n − 1)``.
* **A Sâm**: the declarer pays ``25 (n − 1)`` on failure or when leaving, another seat 25, or
  ``25 (n − 1)`` for *đền trắng*; no cut or card payment goes with it, and the game ends,
  unless ``samloc.sam_fail_ends_game = false``: a declarer who failed then plays on and may pay
  cuts and the end too. An instant win costs 20.

The bound is ``max(20, 25 (n − 1), cuts + end)`` (``25 (n − 1) + cuts + end`` when a failed Sâm
plays on), × L, and at least ``platform.min_balance_multiple`` × L. Two seats with
``cumulative``: the cuts' 100 lá are reached (2♥ cut by four 3s over-cut by four 4s, then 2♦
cut by four 5s over-cut by four aces: 40 + 60).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.errors import ConfigError, IllegalActionError
from sanh.eval.combos import (
    SAM,
    SAM_INSTANT_WINS,
    TWO,
    Combo,
    Kind,
    climb_rank,
    sam_chain,
    sam_instant_win,
    two_value,
)
from sanh.games._evolve import put
from sanh.games._shedding import (
    Debt,
    Leave,
    Pass,
    Play,
    between,
    carry_seat,
    cut_text,
    dealt_in_seats,
    render_shedding,
    seats_from,
    settle_debts,
)
from sanh.games.base import (
    CHANCE,
    Action,
    Chance,
    ChanceSpec,
    Event,
    Game,
    GameInfo,
    Reason,
    Roll,
    Rules,
    Settlement,
    Shuffle,
    TableConfig,
    View,
    option,
    remap_named_seats,
)
from sanh.games.hosting import Hosting, PhaseClock
from sanh.texts import clean, text
from sanh.types import Chips, Seat

__all__ = [
    "GAMES",
    "CloseDeclarations",
    "DeclareSam",
    "DeclineSam",
    "Leave",
    "Pass",
    "Play",
    "SamLoc",
    "SamRules",
    "SamState",
    "SamView",
    "card_amount",
]

HAND_SIZE = 10
SAM_LA = 25
"""Sâm success: 25 lá from each other player; failure: (n−1) × 25 to the catcher."""
INSTANT_WIN_LA = 20
LEAVE_LA = 10
TREO_LA = 15


@dataclass(frozen=True, slots=True)
class DeclareSam(Action):
    """*Báo Sâm*: the seat will play out all its cards unbeaten, leading first."""

    wire = "DeclareSam"


@dataclass(frozen=True, slots=True)
class DeclineSam(Action):
    """The seat does not declare Sâm."""

    wire = "DeclineSam"


@dataclass(frozen=True, slots=True)
class CloseDeclarations(Action):
    """The table closes the declaration window (``seat=None``; the clock ran out)."""

    wire = "CloseDeclarations"


@dataclass(frozen=True, slots=True)
class SamRules(Rules):
    """The table's rule options, each declared once (RULES.md §7, §15 A-SL*;
    ``SamLoc().rules(config)``)."""

    first_leader: str = option(
        "samloc.first_leader",
        "lowest_card",
        ("lowest_card", "host", "random"),
        "A-SL2: first game's leader without a Sâm",
    )
    sam_fail_ends_game: bool = option(
        "samloc.sam_fail_ends_game", True, (), "A-SL4: a failed Sâm ends the game"
    )
    two_count: str = option(
        "samloc.two_count", "replace", ("replace", "add"), "A-SL5: a 2 left counts"
    )
    finish_on_two: str = option(
        "samloc.finish_on_two", "lose", ("lose", "forbid"), "A-SL6: going out on 2s"
    )
    thoi_finish_penalty: int = option(
        "samloc.thoi_finish_penalty", 0, (), "A-SL6: extra lá for going out on 2s"
    )
    overcut_amount: str = option(
        "samloc.overcut_amount",
        "chain_value",
        ("chain_value", "cumulative"),
        "A-SL7: over-cut amount",
    )
    four_aces: int = option("samloc.quad_ace_cut_value", 40, (), "A-SL8: four aces cutting a 2")
    bao1_penalty: str = option(
        "samloc.bao1_penalty", "den_lang", ("den_lang", "none"), "A-SL9: Báo 1 penalty"
    )
    bao1_enforce: bool = option("samloc.bao1_enforce", False, (), "A-SL9: force the highest single")
    den_trang_scope: str = option(
        "samloc.den_trang_scope",
        "sam_only",
        ("sam_only", "sam_and_treo"),
        "A-SL10: Đền trắng scope",
    )
    leave_penalty_to: str = option(
        "samloc.leave_penalty_to",
        "each_player",
        ("each_player", "winner"),
        "A-SL11: who receives Rời bàn",
    )
    instant_win_names: str = option(
        "samloc.instant_wins",
        ",".join(SAM_INSTANT_WINS),
        (),
        "A-SL12: comma-separated instant-win hands",
    )
    treo_adds_two_values: bool = option(
        "samloc.treo_adds_two_values", True, (), "A-SL13: Treo adds the value of 2s held"
    )
    direction: str = option("samloc.direction", "ccw", ("ccw", "cw"), "A-PL2: turn direction")
    declare_s: int = option(
        "samloc.declare_s", 10, (), "§2.5: the Báo Sâm window, seconds (the server's)"
    )
    min_balance_multiple: int = option(
        "platform.min_balance_multiple", 10, (), "A-PL4: L needed to be dealt in (0: no check)"
    )
    """A seat needs a stack of this many L to be dealt in (§2.6, A-PL4)."""
    quick_mode: bool = option(
        "table.quick_mode", False, (), "A-PL5: 7 s turn timer (the server's clock)"
    )

    def check(self) -> None:
        """Every instant win named is known; the amounts are not negative."""
        wins = self.instant_wins
        unknown = [w for w in wins if w not in SAM_INSTANT_WINS]
        if unknown:
            bad, allowed = clean(repr(", ".join(unknown))), ", ".join(SAM_INSTANT_WINS)
            raise ConfigError(text=text("option_not_allowed", "samloc.instant_wins", bad, allowed))
        amounts = (
            ("samloc.thoi_finish_penalty", self.thoi_finish_penalty),
            ("samloc.quad_ace_cut_value", self.four_aces),
            ("platform.min_balance_multiple", self.min_balance_multiple),
        )
        for name, value in amounts:
            if value < 0:
                raise ConfigError(text=text("option_not_negative", name))

    @property
    def instant_wins(self) -> tuple[str, ...]:
        """The instant-win hands in play (A-SL12)."""
        return tuple(w.strip() for w in self.instant_win_names.split(",") if w.strip())

    @property
    def overcut_cumulative(self) -> bool:
        """Whether an over-cut pays the cumulative amount (A-SL7)."""
        return self.overcut_amount == "cumulative"

    @property
    def den_trang_with_treo(self) -> bool:
        """Whether Đền trắng also covers Treo (A-SL10)."""
        return self.den_trang_scope == "sam_and_treo"

    @property
    def step(self) -> int:
        """+1: turn order to increasing seats (ccw); -1: cw."""
        return 1 if self.direction == "ccw" else -1


@dataclass(frozen=True, slots=True)
class SamState:
    """A game of Sâm. Hands are sorted weakest first (3 … A, 2)."""

    config: TableConfig
    rules: SamRules
    version: int = 0
    history: tuple[Event, ...] = ()
    phase: str = "deal"
    """``deal``, ``roll`` (random first leader), ``declare``, ``play`` or ``over``."""
    dealt_in: tuple[bool, ...] = ()
    """Seats with the balance to start (§2.6); the others sit the game out."""
    hands: tuple[tuple[Card, ...], ...] = ()
    played: tuple[int, ...] = ()
    in_play: tuple[bool, ...] = ()
    """May still play: not left, not out on 2s."""
    left: tuple[Seat, ...] = ()
    thoi: tuple[Seat, ...] = ()
    """Players who went out on 2s (lost; they pay the final winner)."""
    first_game: bool = True
    base_leader: Seat | None = None
    """Who leads without a Sâm."""
    undecided: tuple[bool, ...] = ()
    """Declaration window: seats that have not declared or declined."""
    declarer: Seat | None = None
    sam_active: bool = False
    """A Sâm is declared and not failed."""
    turn: Seat | None = None
    trick: tuple[tuple[Seat, Combo], ...] = ()
    passed: tuple[bool, ...] = ()
    debts: tuple[Debt, ...] = ()
    """Debts fixed so far (cuts, leaving, Sâm results)."""
    to_winner: tuple[tuple[Seat, int, str, tuple[Seat, ...]], ...] = ()
    """Debts owed to whoever finally wins: (payer, lá, item, fallback receivers)."""
    den_trang: tuple[tuple[Seat, Seat], ...] = ()
    """(passer, table seat): passes made while holding a play that beat the table."""
    bao1: tuple[tuple[Seat, Seat], ...] = ()
    """(offender, one-card player): the single on the table is below the offender's highest
    and the next player holds one card (cleared by the next play or the trick's end)."""
    outcome: str = ""
    """``instant_win``, ``out``, ``last_player``, ``sam_success``, ``sam_failed``,
    ``sam_failed_on_twos``, ``den_bao``."""
    instant: str = ""
    winner: Seat | None = None
    paid_la: tuple[int, ...] = ()
    """End-of-game card payments per seat in lá (for display)."""

    @property
    def table(self) -> Combo | None:
        """The play on the table, if any."""
        return self.trick[-1][1] if self.trick else None

    @property
    def table_seat(self) -> Seat | None:
        """Who made the play on the table."""
        return self.trick[-1][0] if self.trick else None

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == "over"


@dataclass(frozen=True, slots=True, kw_only=True)
class SamView(View):
    """One seat's view: its own cards, everyone's card counts, the trick."""

    seats: int
    stake: int
    step: int
    """Turn order: +1 to increasing seat numbers, -1 to decreasing."""
    phase: str
    hand: tuple[Card, ...]
    card_counts: tuple[int, ...]
    played: tuple[int, ...]
    turn: Seat | None
    table: tuple[Card, ...]
    table_kind: str
    table_seat: Seat | None
    trick: tuple[tuple[Seat, tuple[Card, ...]], ...]
    passed: tuple[Seat, ...]
    in_play: tuple[Seat, ...]
    left: tuple[Seat, ...]
    sitting_out: tuple[Seat, ...]
    """Seats without the balance to start (§2.6), not dealt in."""
    thoi: tuple[Seat, ...]
    bao1: tuple[Seat, ...]
    """Seats in play down to one card (announced by the system)."""
    undecided: tuple[Seat, ...]
    declarer: Seat | None
    sam_active: bool
    cuts: tuple[tuple[Seat, Seat, int], ...]
    outcome: str
    instant: str
    winner: Seat | None
    paid_la: tuple[int, ...]


def card_amount(hand: tuple[Card, ...], played: int, rules: SamRules) -> tuple[int, str]:
    """What a loser holding ``hand`` pays, in lá, and why (RULES.md §7.6).

    1 lá a card, a 2 counting 5 (♠ ♣) or 10 (♦ ♥) instead (``add``: on top); *treo* (no card
    played) 15 lá plus the 2s' value (A-SL13).

    >>> from sanh.cards import parse_cards
    >>> card_amount(parse_cards("7s 9c 2h"), 3, SamRules())  # RULES.md §7.8, player A
    (12, 'cards')
    """
    twos = sum(two_value(c) for c in hand)
    if played == 0:
        return TREO_LA + (twos if rules.treo_adds_two_values else 0), "treo"
    plain = sum(1 for c in hand if climb_rank(c) != TWO)
    if rules.two_count == "add":
        plain = len(hand)
    return plain + twos, "cards"


class SamLoc(Game[SamState]):
    """Sâm Lốc."""

    info = GameInfo(
        id="sam-loc",
        name="Sam Loc",
        name_vi="Sâm Lốc",
        seats_min=2,
        seats_max=5,
        deck="52",
        banked=False,
        max_actions=400,
        rules_source="RULES.md §7, §15 (A-SL1..A-SL13); seed 001 Sâm (Lốc)",
        aliases=("sam", "sâm", "sam loc", "sâm lốc"),
        rules=SamRules,
        action_types=(Play, Pass, Leave, DeclareSam, DeclineSam, CloseDeclarations),
        hosting=Hosting(clocks=(PhaseClock("declare", option="samloc.declare_s"),)),
    )

    # ----- setup ----------------------------------------------------------------------------
    def max_loss(self, config: TableConfig) -> Chips:
        """The most one seat can pay in a game (module docstring, *The largest loss*).

        >>> SamLoc().max_loss(TableConfig.make(seats=4, stake=100))
        21500
        """
        rules = self.rules(config)
        n = config.seats
        four_twos = "four_twos" not in rules.instant_wins  # a hand may hold four 2s
        twos = (10, 10, 5, 5) if four_twos else (10, 10, 5)
        extra_ace = max(rules.four_aces - 20, 0)
        if rules.overcut_cumulative:
            cuts = 20 * 2 * n + extra_ace
        else:
            chains = min(5 if four_twos else 4, 2 * (n - 1))
            cuts = min(chains * max(40, rules.four_aces), 20 * 2 * (n - 1) + extra_ace)
        treo = TREO_LA + (sum(twos) if rules.treo_adds_two_values else 0)
        if rules.two_count == "add":
            cards = HAND_SIZE - 1 + sum(twos)
        else:
            cards = max(HAND_SIZE - 1 - k + sum(twos[:k]) for k in range(len(twos) + 1))
        end = max(treo, cards, LEAVE_LA * (n - 1), 25 + rules.thoi_finish_penalty)
        if n >= 3 and (rules.bao1_penalty == "den_lang" or rules.den_trang_with_treo):
            end = max(end, TREO_LA * (n - 1) + 30)
        sam = SAM_LA * (n - 1)
        if rules.sam_fail_ends_game:
            worst = max(INSTANT_WIN_LA, sam, cuts + end)
        else:
            worst = max(INSTANT_WIN_LA, sam + cuts + end)
        return max(worst, rules.min_balance_multiple) * config.stake

    def rules(self, config: TableConfig) -> SamRules:
        """The resolved rule options of a table. :raises ConfigError: on a bad value."""
        rules = super().rules(config)
        assert isinstance(rules, SamRules)
        return rules

    def new_state(self, config: TableConfig) -> SamState:
        """A game waiting for the shuffle; seats below ``platform.min_balance_multiple`` × L sit
        it out.

        :raises ConfigError: on an impossible config, or fewer than two seats able to start.
        """
        self.check_config(config)
        carry_seat(config.carry, "winner", config.seats)
        rules = self.rules(config)
        dealt_in = dealt_in_seats(config, rules.min_balance_multiple)
        return SamState(config=config, rules=rules, dealt_in=dealt_in)

    def to_act(self, state: SamState) -> tuple[Seat, ...] | Chance | None:
        """Chance (deal, random leader), the undecided seats, the seat to play, or ``None``."""
        if state.phase in ("deal", "roll"):
            return CHANCE
        if state.phase == "declare":
            assert state.base_leader is not None
            order = seats_from(state.base_leader, state.config.seats, state.rules.step)
            return tuple(s for s in order if state.undecided[s])
        if state.phase == "play":
            assert state.turn is not None
            return (state.turn,)
        return None

    def chance_spec(self, state: SamState) -> ChanceSpec:
        """A shuffle of the 52-card deck, or one die with a face per seat (random leader)."""
        if state.phase == "roll":
            return ChanceSpec("roll", dice=1, sides=sum(state.dealt_in))
        return ChanceSpec("shuffle", DECK_52)

    # ----- legal actions --------------------------------------------------------------------
    def legal_plays(self, state: SamState) -> tuple[Combo, ...]:
        """Every legal play of the seat to act in the play phase."""
        if state.phase != "play" or state.turn is None:
            return ()
        seat = state.turn
        hand = state.hands[seat]
        table = state.table
        plays = SAM.plays(hand, table)
        rules = state.rules
        if rules.finish_on_two == "forbid":
            kept = tuple(c for c in plays if not _thoi_play(c, hand))
            plays = kept if kept or table is not None else plays
        if rules.bao1_enforce and self._next_on_bao1(state, seat):
            top = climb_rank(hand[-1])
            plays = tuple(
                c for c in plays if c.kind is not Kind.SINGLE or climb_rank(c.cards[0]) == top
            )
        return plays

    def legal_actions(self, state: SamState) -> tuple[Action, ...]:
        """Every legal action: the acting seats', then the table's (closing the declaration
        window). :class:`Leave`, an ``anytime`` action, is not listed."""
        actions: list[Action] = []
        if state.phase == "declare":
            turn = self.to_act(state)
            assert isinstance(turn, tuple)
            for seat in turn:
                actions.extend((DeclareSam(seat), DeclineSam(seat)))
            actions.append(CloseDeclarations(None))
        elif state.phase == "play":
            actions.extend(Play(state.turn, c.cards) for c in self.legal_plays(state))
            if state.table is not None:
                actions.append(Pass(state.turn))
        else:
            return ()
        return tuple(actions)

    def validate_action(self, state: SamState, action: Action) -> None:
        """Check an action; raise :class:`IllegalActionError` saying why it is refused."""
        version = state.version
        if isinstance(action, Leave):
            if action.seat is None:
                raise IllegalActionError(action, "leave_needs_seat", version)
            if not state.in_play[action.seat]:
                raise IllegalActionError(action, "no_longer_in_play", version)
            return
        if isinstance(action, CloseDeclarations):
            if state.phase != "declare":
                raise IllegalActionError(action, "no_declaration_window", version)
            if action.seat is not None:
                raise IllegalActionError(action, "only_table_closes_window", version)
            return
        seat = action.seat
        if seat is None:
            raise IllegalActionError(action, "needs_seat", version)
        if isinstance(action, DeclareSam | DeclineSam):
            if state.phase != "declare":
                raise IllegalActionError(action, "declaration_closed", version)
            return
        if state.phase != "play":
            raise IllegalActionError(action, "declarations_open", version)
        if isinstance(action, Pass):
            if state.table is None:
                raise IllegalActionError(action, "leader_must_play", version)
            return
        if not isinstance(action, Play):
            raise IllegalActionError(action, "not_sam_action", version)
        combo = self._check_cards(state, action, seat)
        table = state.table
        hand = state.hands[seat]
        if table is None and not SAM.can_lead(combo):
            raise IllegalActionError(action, "double_four_cuts_twos", version)
        if table is not None and not SAM.beats(combo, table):
            raise IllegalActionError(
                action,
                text("does_not_beat", combo.kind.value, combo.cards, table.kind.value, table.cards),
                version,
            )
        if (
            state.rules.finish_on_two == "forbid"
            and _thoi_play(combo, hand)
            and (table is not None or any(not _thoi_play(c, hand) for c in SAM.plays(hand)))
        ):
            raise IllegalActionError(action, "no_going_out_on_twos", version)
        if (
            state.rules.bao1_enforce
            and combo.kind is Kind.SINGLE
            and self._next_on_bao1(state, seat)
            and climb_rank(combo.cards[0]) != climb_rank(hand[-1])
        ):
            raise IllegalActionError(action, "bao1_highest", version)

    @staticmethod
    def _check_cards(state: SamState, action: Play, seat: Seat) -> Combo:
        version = state.version
        cards = action.cards
        if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
            raise IllegalActionError(action, "cards_not_tuple", version)
        if not cards:
            raise IllegalActionError(action, "play_needs_card", version)
        if len(set(cards)) != len(cards):
            raise IllegalActionError(action, "card_repeated", version)
        hand = state.hands[seat]
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalActionError(action, text("not_held", missing), version)
        combo = SAM.classify(cards)
        if combo is None:
            shown = SAM.sort(cards)
            ranks = [climb_rank(c) for c in cards]
            if len(cards) >= 3 and TWO in ranks and len(set(ranks)) == len(ranks):
                raise IllegalActionError(action, text("two_low_end", shown), version)
            raise IllegalActionError(action, text("not_combination", shown), version)
        return combo

    def _next_on_bao1(self, state: SamState, seat: Seat) -> bool:
        following = self._next_in_play(state, seat)
        return following is not None and len(state.hands[following]) == 1

    # ----- transitions ----------------------------------------------------------------------
    def transition(self, state: SamState, event: Event) -> SamState:
        """The next state after a validated event."""
        if isinstance(event, Shuffle):
            return self._deal(state, event.order)
        if isinstance(event, Roll):
            players = [s for s in range(state.config.seats) if state.dealt_in[s]]
            return self._after_leader(state, players[event.dice[0] - 1])
        if isinstance(event, Leave):
            assert event.seat is not None
            return self._leave(state, event.seat)
        if isinstance(event, CloseDeclarations):
            return self._start_play(state)
        if isinstance(event, DeclareSam):
            assert event.seat is not None
            return dataclasses.replace(
                state,
                phase="play",
                declarer=event.seat,
                sam_active=True,
                turn=event.seat,
                undecided=(False,) * state.config.seats,
            )
        if isinstance(event, DeclineSam):
            assert event.seat is not None
            undecided = put(state.undecided, event.seat, False)
            state = dataclasses.replace(state, undecided=undecided)
            return self._start_play(state) if not any(undecided) else state
        if isinstance(event, Pass):
            assert event.seat is not None
            return self._pass(state, event.seat)
        assert isinstance(event, Play) and event.seat is not None
        return self._play(state, event.seat, event.cards)

    def _deal(self, state: SamState, order: tuple[Card, ...]) -> SamState:
        config, rules = state.config, state.rules
        n = config.seats
        players = [s for s in range(n) if state.dealt_in[s]]
        m = len(players)
        dealt = [SAM.sort(order[i : HAND_SIZE * m : m]) for i in range(m)]
        hands = tuple(dealt[players.index(s)] if s in players else () for s in range(n))
        state = dataclasses.replace(
            state,
            hands=hands,
            played=(0,) * n,
            in_play=state.dealt_in,
            passed=(False,) * n,
            undecided=state.dealt_in,
        )
        winner = carry_seat(config.carry, "winner", n)
        if winner is not None and state.dealt_in[winner]:
            return self._after_leader(dataclasses.replace(state, first_game=False), winner)
        if rules.first_leader == "host":
            order_from_host = seats_from(config.host, n, rules.step)
            return self._after_leader(state, next(s for s in order_from_host if s in players))
        if rules.first_leader == "random":
            return dataclasses.replace(state, phase="roll")
        lowest = min(climb_rank(c) for h in hands for c in h)
        order_from_host = seats_from(config.host, n, rules.step)
        leader = next(s for s in order_from_host if any(climb_rank(c) == lowest for c in hands[s]))
        return self._after_leader(state, leader)

    def _after_leader(self, state: SamState, leader: Seat) -> SamState:
        n = state.config.seats
        state = dataclasses.replace(state, base_leader=leader, phase="declare")
        for seat in seats_from(leader, n, state.rules.step):
            hand_name = sam_instant_win(state.hands[seat], state.rules.instant_wins)
            if hand_name is not None:
                players = self._live(state)
                debts = tuple(
                    Debt(other, seat, INSTANT_WIN_LA, "instant_win", text("hand", hand_name))
                    for other in players
                    if other != seat
                )
                paid = tuple(INSTANT_WIN_LA if s in players and s != seat else 0 for s in range(n))
                state = dataclasses.replace(state, instant=hand_name)
                return self._finish(state, seat, "instant_win", debts, paid)
        return state

    def _start_play(self, state: SamState) -> SamState:
        assert state.base_leader is not None
        leader = state.base_leader
        if not state.in_play[leader]:
            nxt = self._next_in_play(state, leader)
            assert nxt is not None
            leader = nxt
        return dataclasses.replace(
            state, phase="play", turn=leader, undecided=(False,) * state.config.seats
        )

    def _live(self, state: SamState) -> list[Seat]:
        """Players dealt in and still in the game (not left), thối players included."""
        return [s for s in range(state.config.seats) if state.dealt_in[s] and s not in state.left]

    def _play(self, state: SamState, seat: Seat, cards: tuple[Card, ...]) -> SamState:
        rules = state.rules
        combo = SAM.classify(cards)
        assert combo is not None
        before = state.hands[seat]
        following = self._next_in_play(state, seat)
        gone = set(cards)
        hand = tuple(c for c in before if c not in gone)
        bao1: tuple[tuple[Seat, Seat], ...] = ()
        if state.bao1 and state.bao1[0][1] == seat and not hand:
            bao1 = state.bao1  # the Báo 1 player goes out over the offending single
        elif (
            combo.kind is Kind.SINGLE
            and following is not None
            and len(state.hands[following]) == 1
            and climb_rank(combo.cards[0]) < climb_rank(before[-1])
        ):
            bao1 = ((seat, following),)
        state = dataclasses.replace(
            state,
            hands=put(state.hands, seat, hand),
            played=put(state.played, seat, state.played[seat] + len(cards)),
            trick=(*state.trick, (seat, combo)),
            bao1=bao1,
        )
        live = self._live(state)
        if state.sam_active:
            declarer = state.declarer
            assert declarer is not None
            if seat != declarer:  # bắt Sâm: the declarer's play is beaten
                debt = Debt(declarer, seat, (len(live) - 1) * SAM_LA, "sam_failed")
                if rules.sam_fail_ends_game:
                    return self._finish(state, seat, "sam_failed", (debt,), _zeros(state))
                state = dataclasses.replace(
                    state, sam_active=False, debts=(*state.debts, debt), trick=((seat, combo),)
                )
            elif not hand:
                if _twos_only(combo):  # a declarer going out on 2s fails
                    debts = tuple(
                        Debt(declarer, s, SAM_LA, "sam_failed_on_twos")
                        for s in live
                        if s != declarer
                    )
                    if rules.sam_fail_ends_game:
                        return self._finish(state, None, "sam_failed_on_twos", debts, _zeros(state))
                    state = dataclasses.replace(state, sam_active=False, debts=state.debts + debts)
                    return self._out_on_twos(state, seat, charge=False)
                return self._sam_success(state)
            else:
                return self._advance(state, seat)
        if not hand:
            if _twos_only(combo):
                return self._out_on_twos(state, seat, charge=True)
            state = dataclasses.replace(state, debts=state.debts + self._chain_debts(state))
            return self._ordinary_end(state, seat, "out")
        return self._advance(state, seat)

    def _out_on_twos(self, state: SamState, seat: Seat, *, charge: bool) -> SamState:
        """Thối 2: the player lost; the next player in play leads a fresh trick."""
        n = state.config.seats
        to_winner = state.to_winner
        if charge:
            combo = state.trick[-1][1]
            amount = sum(two_value(c) for c in combo.cards) + state.rules.thoi_finish_penalty
            to_winner = (*to_winner, (seat, amount, "thoi", ()))
        state = dataclasses.replace(
            state,
            debts=state.debts + self._chain_debts(state),
            to_winner=to_winner,
            in_play=put(state.in_play, seat, False),
            thoi=(*state.thoi, seat),
            trick=(),
            passed=(False,) * n,
            bao1=(),
        )
        remaining = [s for s in range(n) if state.in_play[s]]
        if len(remaining) == 1:
            return self._ordinary_end(state, remaining[0], "last_player")
        nxt = self._next_in_play(state, seat)
        assert nxt is not None
        return dataclasses.replace(state, turn=nxt)

    def _sam_success(self, state: SamState) -> SamState:
        declarer = state.declarer
        assert declarer is not None
        live = self._live(state)
        others = [
            s for s in seats_from(declarer, state.config.seats, state.rules.step) if s in live
        ]
        others = others[1:]
        passers = {p for p, target in state.den_trang if target == declarer}
        culprit = next((s for s in others if s in passers), None)
        if culprit is not None:  # Đền trắng: one player pays the whole Sâm
            debts: tuple[Debt, ...] = (Debt(culprit, declarer, len(others) * SAM_LA, "den_trang"),)
        else:
            debts = tuple(Debt(s, declarer, SAM_LA, "sam_success") for s in others)
        return self._finish(state, declarer, "sam_success", debts, _zeros(state))

    def _pass(self, state: SamState, seat: Seat) -> SamState:
        den_trang = state.den_trang
        table_seat = state.table_seat
        assert table_seat is not None
        if self.legal_plays(state):
            den_trang = (*den_trang, (seat, table_seat))
        state = dataclasses.replace(
            state, passed=put(state.passed, seat, True), den_trang=den_trang
        )
        return self._advance(state, seat)

    def _leave(self, state: SamState, player: Seat) -> SamState:
        rules = state.rules
        live = self._live(state)
        others = [s for s in live if s != player]
        state = dataclasses.replace(
            state,
            in_play=put(state.in_play, player, False),
            left=(*state.left, player),
            undecided=put(state.undecided, player, False),
        )
        if state.sam_active and player == state.declarer:  # Đền báo
            debts = tuple(Debt(player, s, SAM_LA, "den_bao") for s in others)
            if rules.sam_fail_ends_game:
                return self._finish(state, None, "den_bao", debts, _zeros(state))
            state = dataclasses.replace(state, sam_active=False, debts=state.debts + debts)
        elif rules.leave_penalty_to == "winner":
            amount = LEAVE_LA * len(others)
            state = dataclasses.replace(
                state, to_winner=(*state.to_winner, (player, amount, "leave", tuple(others)))
            )
        else:
            debts = tuple(Debt(player, s, LEAVE_LA, "leave") for s in others)
            state = dataclasses.replace(state, debts=state.debts + debts)
        remaining = [s for s in range(state.config.seats) if state.in_play[s]]
        if len(remaining) == 1:
            state = dataclasses.replace(state, debts=state.debts + self._chain_debts(state))
            if state.sam_active:
                return self._sam_success(state)
            return self._ordinary_end(state, remaining[0], "last_player")
        if state.phase == "declare":
            return self._start_play(state) if not any(state.undecided) else state
        if state.turn != player:
            return state
        if state.table is None:
            nxt = self._next_in_play(state, player)
            assert nxt is not None
            return dataclasses.replace(state, turn=nxt)
        return self._advance(state, player)

    def _advance(self, state: SamState, after: Seat) -> SamState:
        """Give the turn to the next seat that may answer, or end the trick."""
        n = state.config.seats
        table_seat = state.table_seat
        for seat in seats_from(after, n, state.rules.step)[1:]:
            if state.in_play[seat] and seat != table_seat and not state.passed[seat]:
                return dataclasses.replace(state, turn=seat)
        assert table_seat is not None
        leader = table_seat
        if not state.in_play[table_seat]:
            nxt = self._next_in_play(state, table_seat)
            assert nxt is not None
            leader = nxt
        return dataclasses.replace(
            state,
            debts=state.debts + self._chain_debts(state),
            trick=(),
            passed=(False,) * n,
            bao1=(),
            turn=leader,
        )

    def _next_in_play(self, state: SamState, seat: Seat) -> Seat | None:
        for other in seats_from(seat, state.config.seats, state.rules.step)[1:]:
            if state.in_play[other]:
                return other
        return None

    def _chain_debts(self, state: SamState) -> tuple[Debt, ...]:
        if state.sam_active:
            return ()
        combos = [combo for _, combo in state.trick]
        cut = sam_chain(
            combos,
            cumulative=state.rules.overcut_cumulative,
            four_aces=state.rules.four_aces,
        )
        if cut is None:
            return ()
        payer, payee = state.trick[cut.payer][0], state.trick[cut.payee][0]
        if payer in state.left:  # a leaver pays nothing more (RULES.md §7.6)
            return ()
        return (Debt(payer, payee, cut.amount, "cut", cut_text(combos, cut.victims)),)

    # ----- the end --------------------------------------------------------------------------
    def _ordinary_end(self, state: SamState, winner: Seat, outcome: str) -> SamState:
        rules = state.rules
        n = state.config.seats
        order = seats_from(winner, n, rules.step)[1:]
        losers = [
            s for s in order if state.dealt_in[s] and s not in state.left and s not in state.thoi
        ]
        amounts = {s: card_amount(state.hands[s], state.played[s], rules) for s in losers}
        paid = [0] * n
        for seat, (amount, _) in amounts.items():
            paid[seat] = amount
        total = sum(amount for amount, _ in amounts.values())
        debts: list[Debt] = []
        offenders = [p for p, target in state.bao1 if target == winner and p in losers]
        # (``bao1`` holds the offence only when the winner went out over that single.)
        passers = {p for p, target in state.den_trang if target == winner}
        treo_culprit = next((s for s in losers if s in passers), None)
        if offenders and rules.bao1_penalty == "den_lang" and total:
            debts.append(Debt(offenders[-1], winner, total, "bao1_den_lang"))
        elif (
            rules.den_trang_with_treo
            and losers
            and all(state.played[s] == 0 for s in losers)
            and treo_culprit is not None
        ):
            debts.append(Debt(treo_culprit, winner, total, "den_trang"))
        else:
            debts.extend(Debt(s, winner, amount, item) for s, (amount, item) in amounts.items())
        return self._finish(state, winner, outcome, tuple(debts), tuple(paid))

    def _finish(
        self,
        state: SamState,
        winner: Seat | None,
        outcome: str,
        debts: tuple[Debt, ...],
        paid: tuple[int, ...],
    ) -> SamState:
        owed: list[Debt] = []
        for payer, amount, item, fallback in state.to_winner:
            if winner is not None and winner != payer:
                owed.append(Debt(payer, winner, amount, item))
            elif fallback:
                owed.extend(Debt(payer, s, amount // len(fallback), item) for s in fallback)
        return dataclasses.replace(
            state,
            phase="over",
            turn=None,
            winner=winner,
            outcome=outcome,
            debts=state.debts + tuple(owed) + debts,
            paid_la=paid,
        )

    def settle(self, state: SamState) -> Settlement:
        """Every debt of the game, capped per payer (RULES.md §2.6)."""
        if not state.over:
            raise IllegalActionError(None, "game_not_over", state.version)
        detail: list[tuple[str, Any]] = [
            ("outcome", state.outcome),
            ("winner", state.winner),
            ("declarer", state.declarer),
            ("paid_la", state.paid_la),
        ]
        if state.instant:
            detail.append(("instant", state.instant))
        return settle_debts(state.config, state.debts, detail)

    def leave_cost(self, state: SamState, seat: Seat) -> Chips | None:
        """What *Rời bàn* now costs ``seat``: 10 lá to each other player still in (25 as a
        Sâm declarer's *Đền báo*), and whatever ending the game then adds, capped at what its
        balance still covers (RULES.md §7.6, §2.6); 0 when it is not in play."""
        leave = Leave(seat)
        if not self.is_legal(state, leave):
            return 0
        after = self.apply(state, leave)
        config = state.config
        cost = settle_debts(config, state.debts).deltas[seat]
        cost -= settle_debts(config, after.debts).deltas[seat]
        if not after.over:  # a Rời bàn owed to the game's winner (samloc.leave_penalty_to)
            pending = sum(amount for payer, amount, _, _ in after.to_winner if payer == seat)
            pending -= sum(amount for payer, amount, _, _ in state.to_winner if payer == seat)
            owed = sum(d.amount for d in after.debts if d.payer == seat) * config.stake
            cost += min(pending * config.stake, max(0, config.stacks[seat] - owed))
        return cost

    # ----- table flow -----------------------------------------------------------------------
    def carry(self, state: SamState) -> Any:
        """``{"winner": seat}`` for the next game (``None``: the next game is led as a first
        game). The server sets it to ``None`` if the winner has left the table."""
        if not state.over:
            return None
        return {"winner": state.winner}

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The carried winner in the next lineup (a winner gone: ``None``, a first game)."""
        return remap_named_seats(carry, seats, ("winner",))

    def default_action(self, state: SamState, seat: Seat | None, reason: Reason) -> Action | None:
        """Timeout or disconnect: decline Sâm; pass; lead the lowest single (the highest if the
        next player is on Báo 1). Leave: :class:`Leave` (*Rời bàn*, or *Đền báo* for a
        declarer). The table closes the declaration window (``seat=None``)."""
        if seat is None:
            return CloseDeclarations(None) if state.phase == "declare" else None
        if state.phase not in ("declare", "play"):
            return None
        if reason == "leave":
            return Leave(seat) if state.in_play[seat] else None
        if state.phase == "declare":
            return DeclineSam(seat) if state.undecided[seat] else None
        if state.turn != seat:
            return None
        if state.table is not None:
            return Pass(seat)
        plays = self.legal_plays(state)
        singles = [c for c in plays if c.kind is Kind.SINGLE] or list(plays)
        pick = max if self._next_on_bao1(state, seat) else min
        choice = pick(singles, key=lambda c: c.key)
        return Play(seat, choice.cards)

    # ----- views ----------------------------------------------------------------------------
    def observe(self, state: SamState, viewer: Seat | None) -> SamView:
        """Own cards only; others' card counts; the trick and results are public."""
        n = state.config.seats
        dealt = bool(state.hands)
        table = state.table
        return SamView(
            **self.view_base(state, viewer),
            seats=n,
            stake=state.config.stake,
            step=state.rules.step,
            phase=state.phase,
            hand=state.hands[viewer] if dealt and viewer is not None else (),
            card_counts=tuple(len(h) for h in state.hands) if dealt else (0,) * n,
            played=state.played if dealt else (0,) * n,
            turn=state.turn,
            table=table.cards if table else (),
            table_kind=table.kind.value if table else "",
            table_seat=state.table_seat,
            trick=tuple((s, c.cards) for s, c in state.trick),
            passed=tuple(s for s in range(n) if dealt and state.passed[s]),
            in_play=tuple(s for s in range(n) if dealt and state.in_play[s]),
            left=state.left,
            sitting_out=tuple(s for s in range(n) if not state.dealt_in[s]),
            thoi=state.thoi,
            bao1=tuple(
                s for s in range(n) if dealt and state.in_play[s] and len(state.hands[s]) == 1
            ),
            undecided=tuple(s for s in range(n) if dealt and state.undecided[s]),
            declarer=state.declarer,
            sam_active=state.sam_active,
            cuts=tuple((*between(d), d.amount) for d in state.debts if d.item == "cut"),
            outcome=state.outcome,
            instant=state.instant,
            winner=state.winner,
            paid_la=state.paid_la,
        )

    def render_text(self, view: View) -> str:
        """The terminal table: seats with card counts, the trick, your hand."""
        assert isinstance(view, SamView)
        extra = ""
        if view.phase == "declare":
            extra = "Báo Sâm? Waiting for: " + " ".join(f"p{s + 1}" for s in view.undecided)
        elif view.sam_active and view.declarer is not None:
            extra = f"Sâm declared by p{view.declarer + 1}"
        return render_shedding(
            title="Sâm Lốc", view=view, seat_notes=lambda s: _seat_notes(view, s), extra=extra
        )


def _seat_notes(view: SamView, seat: Seat) -> str:
    notes = []
    if seat in view.sitting_out:
        return "sitting out"
    if seat == view.declarer:
        notes.append("Sâm" if view.sam_active else "declared Sâm")
    if seat in view.left:
        notes.append("left")
    if seat in view.thoi:
        notes.append("thối")
    if seat in view.passed:
        notes.append("passed")
    if seat in view.bao1:
        notes.append("báo 1")
    if view.played[seat] == 0 and view.card_counts[seat] and view.phase == "play":
        notes.append("treo so far")
    return ", ".join(notes)


def _twos_only(combo: Combo) -> bool:
    """A play of only 2s that is thối when it is a player's last (four 2s never are)."""
    return combo.is_twos and combo.kind is not Kind.FOUR


def _thoi_play(combo: Combo, hand: tuple[Card, ...]) -> bool:
    """Whether playing ``combo`` from ``hand`` goes out on 2s (*thối 2*)."""
    return _twos_only(combo) and combo.size == len(hand)


def _zeros(state: SamState) -> tuple[int, ...]:
    return (0,) * state.config.seats


GAMES = (SamLoc(),)
