"""Tiến lên miền Nam đếm lá (TLMN): RULES.md §12, §16A; seed 001 "Tiến lên miền nam đếm lá".

2 to 4 players, 13 cards each from one 52-card deck (the rest are not used). The first game is
led by the holder of 3♠, whose first play must include it; later games by the previous winner
(the runner-up if the winner left). Plays climb within a trick; a pass locks a player out until
the trick ends; a play nobody beats ends the trick and its player leads. The hand ends when a
player has played all 13 cards (count scoring, the default) or when one player still holds
cards (rank scoring), or at once on an instant win (*tới trắng*).

Glossary: *tới trắng* instant win (``outcome="instant_win"``); *thối* left holding 2s or
special combinations (they are counted, :func:`~sanh.eval.combos.tien_len_penalty`); *cóng*
has played no card (``played[seat] == 0``, ordinary cards doubled); *chặt* / *chặt đè* cut /
chained cut (``item="cut"`` debts); *heo* a 2; *người nhì* runner-up (``carry["runner_up"]``);
*đút 3 bích* going out on 3♠; *thối 3 bích* / *cứu làng* failing at it / the player who
stopped it; *xét hàng* ranking a disconnected player as a loser (:class:`Leave`).

Seat order: turn order runs to increasing seat numbers (``tlmn.direction = ccw``: the next seat
counter-clockwise is seat + 1); ``cw`` reverses it. Dealing gives card ``k`` of the deck order
to seat ``k mod n`` until each seat holds 13.

Choices where the rules are silent (each [DEF] unless RULES.md names it):

* Debts are capped at the payer's stack and split pro rata among receivers (§2.6); a player's
  receipts in the same hand do not raise their cap. A seat whose stack is below
  ``platform.min_balance_multiple`` × L (10 by default, A-PL4) sits the hand out: it is dealt
  nothing and pays nothing; a carried winner or runner-up sitting out counts as gone.
* A leaving or disconnected player (:class:`Leave`, accepted at any moment) is removed from the turn
  order at once and, in count mode, pays at the end as a loser holding their cards, cóng
  included; in rank mode they take the last places, the earliest leaver last. When only one
  player is left in play the hand ends. If the leaver was the first leader who had to play
  3♠, the next player leads freely.
* Rank mode: a player going out ends the trick (cut payments are settled) and the next player
  in play leads. Places: finishing order, the player left holding cards, then the leavers.
* Đút 3 bích (§16) needs the final play to be the single 3♠ before anyone has gone out; it
  ends the hand in either scoring mode, and so does thối 3 bích. ``n`` in (n−1) × 26 counts the
  players not gone. If the cứu làng's play is not a cut, the failer also pays the heo value of
  the 2s in the beaten play.
* Cóng: the split into items is the one with the highest total at 2 lá per ordinary card, so a
  cóng player's 3 đôi thông count as 6 ordinary cards (12 lá) rather than 10 lá.
* Instant-win hands: ``six_pairs`` counts a four of a kind as two pairs.
* The 4-đôi-thông restore (§16) offers the turn to a player who passed at most once per play
  on the table.

The largest loss (:meth:`TienLen.max_loss`), in lá, for ``n`` seats and cóng multiplier ``m``.
A hand the deal does not end at once (no *tới trắng*) holds at most three 2s (four are an
instant win) and at most five pairs counting 2s and a tứ quý as two (six are), so its special
items are worth at most 25 (2♥ 2♦ 2♣) + 40 (two tứ quý; a 4 đôi thông is worth 30 for four
pairs, a tứ quý with 3 đôi thông 30 for five) = **65** lá, and items plus ordinary cards at
most 65 + 2 = **67** (fewer items leave more ordinary cards but count less). A seat's cards
reach its payments only once each: as an item cut in a chain it pays for, a special item or
an ordinary card left at the end, or the beaten play of a Thối 3 Bích. A cóng seat never
played, so no chain charges it. With ``tlmn.chain_cut = cumulative`` a chain also charges the
earlier victims, other seats' plays: at most all four 2s (30 in all, shared with the payer's
own) and two tứ quý (40) per other seat, so the payer's own cards and the chains it pays are
worth at most ``S = 30 + 40 n`` (the payer's tứ quý and ordinary cards at most 45, so
``40 n + 35`` with the cards left); with ``last_item`` a chain charges the payer's own play
only and ``S = 65``. The cases, of which one seat meets one per hand:

* *tới trắng*: 26 (rank scoring: 2), nothing else that hand;
* count scoring, someone goes out: ``40 n + 35`` (``last_item``: 67); cóng: ``65 + 2 m``;
* rank scoring: the last place pays ``n − 1`` and its items: ``n − 1 + S``;
* §16 Đút 3 Bích: ``26 + S``; Thối 3 Bích: ``26 (n − 1) + S``.

The bound is the largest case that the options allow, × L, and at least
``platform.min_balance_multiple`` × L. Four players, defaults: 195 L (the cumulative chain
2♠, seven tứ quý, then a higher tứ quý over the payer's costs it 145 lá, and 2♥ 2♦ 2♣ with two
ordinary cards left 27 more: 172 reached).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.errors import ConfigError, IllegalActionError
from sanh.eval.combos import (
    TIEN_LEN,
    TWO,
    Combo,
    Kind,
    climb_rank,
    tien_len_chain,
    tien_len_instant_win,
    tien_len_penalty,
    two_value,
)
from sanh.games._evolve import evolve, put
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
    Rules,
    Settlement,
    Shuffle,
    TableConfig,
    View,
    option,
    remap_named_seats,
)
from sanh.texts import join, text
from sanh.types import Chips, Seat

__all__ = [
    "GAMES",
    "RANK_PAYMENTS",
    "Leave",
    "Pass",
    "Play",
    "TienLen",
    "TienLenRules",
    "TienLenState",
    "TienLenView",
]

HAND_SIZE = 13
THREE_SPADES = Card.of(1, 3)
INSTANT_WIN_LA = 26
"""*Tới trắng*: 26 lá from each other player in count mode (RULES.md §12.4)."""
INSTANT_WIN_RANK = 2
"""*Tới trắng* in rank mode: 2 × L from each other player (RULES.md §12.6)."""
RANK_PAYMENTS: dict[int, tuple[int, ...]] = {2: (1,), 3: (1, 2), 4: (1, 2, 3)}
"""Rank mode (RULES.md §12.6): what the 2nd, 3rd … last places pay the 1st, in L."""
DUT_3_BICH_LA = 26
TWOS_LA = 30
"""All four 2s of the deck, in lá (5 + 5 + 10 + 10)."""
NON_TWO_ITEMS_LA = 40
"""The most lá a hand holds in special items other than 2s: two tứ quý (module docstring)."""
HAND_ITEMS_LA = 65
"""The most lá a hand the deal does not end holds in special items: three 2s, two tứ quý."""


@dataclass(frozen=True, slots=True)
class TienLenRules(Rules):
    """The table's rule options, each declared once (RULES.md §12, §15 A-TL*, §16A;
    ``TienLen().rules(config)``)."""

    scoring: str = option(
        "tlmn.scoring", "count", ("count", "rank"), "A-TL2: card count or 1/3/6 places"
    )
    first_lead_must_include_3s: bool = option(
        "tlmn.first_lead_must_include_3s", True, (), "A-TL8: the first play includes 3♠"
    )
    cong_multiplier: int = option(
        "tlmn.cong_multiplier", 2, (1, 2, 3), "A-TL7: cóng multiplies ordinary cards"
    )
    chain_cut: str = option(
        "tlmn.chain_cut", "cumulative", ("cumulative", "last_item"), "A-TL5: chained cut amount"
    )
    four_pairs_restore_turn: bool = option(
        "tlmn.opt_four_pairs_restore_turn", False, (), "§16: 4 đôi thông restore a passed turn"
    )
    first_game_instant_wins: bool = option(
        "tlmn.opt_first_game_instant_wins",
        False,
        (),
        "§16: first game, four 3s or đôi thông holding 3♠ win at once",
    )
    dut_3_bich: bool = option(
        "tlmn.opt_dut_3_bich", False, (), "§16: Đút 3 Bích / Thối 3 Bích / Cứu Làng"
    )
    direction: str = option("tlmn.direction", "ccw", ("ccw", "cw"), "A-PL2: turn direction")
    min_balance_multiple: int = option(
        "platform.min_balance_multiple", 10, (), "A-PL4: L needed to be dealt in (0: no check)"
    )
    """A seat needs a stack of this many L to be dealt in (§2.6, A-PL4)."""
    quick_mode: bool = option(
        "table.quick_mode", False, (), "A-PL5: 7 s turn timer (the server's clock)"
    )

    def check(self) -> None:
        """The balance multiple is not negative."""
        if self.min_balance_multiple < 0:
            raise ConfigError(text=text("option_not_negative", "platform.min_balance_multiple"))

    @property
    def step(self) -> int:
        """+1: turn order to increasing seats (ccw); -1: cw."""
        return 1 if self.direction == "ccw" else -1


@dataclass(frozen=True, slots=True)
class TienLenState:
    """A hand of Tiến lên. Hands are sorted weakest first (3♠ … 2♥)."""

    config: TableConfig
    rules: TienLenRules
    version: int = 0
    history: tuple[Event, ...] = ()
    dealt_in: tuple[bool, ...] = ()
    """Seats with the balance to start (§2.6); the others sit the hand out."""
    hands: tuple[tuple[Card, ...], ...] = ()
    """Every seat's cards; empty before the deal."""
    played: tuple[int, ...] = ()
    """Cards each seat has played (0 at the end: cóng)."""
    in_play: tuple[bool, ...] = ()
    """Still playing: dealt, not gone out, not left."""
    left: tuple[Seat, ...] = ()
    """Seats removed by :class:`Leave`, in order."""
    finished: tuple[Seat, ...] = ()
    """Seats that played all their cards, in order."""
    first_game: bool = True
    leader: Seat | None = None
    """Who leads (led) the hand's first trick."""
    turn: Seat | None = None
    trick: tuple[tuple[Seat, Combo], ...] = ()
    """The plays of the current trick, in order; the last is on the table."""
    passed: tuple[bool, ...] = ()
    declined: tuple[bool, ...] = ()
    """Restore offers (§16 four-pairs rule) declined for the play now on the table."""
    must_include: Card | None = None
    """The card the first play must include (3♠ in the first game)."""
    dut_pending: Seat | None = None
    """A seat left holding only 3♠ whose previous play is on the table (§16 Đút 3 Bích)."""
    debts: tuple[Debt, ...] = ()
    over: bool = False
    outcome: str = ""
    """``instant_win``, ``out`` (count), ``ranked``, ``last_player``, ``dut_3_bich``,
    ``thoi_3_bich``."""
    instant: str = ""
    """The instant-win hand, if any."""
    winner: Seat | None = None
    places: tuple[Seat, ...] = ()
    """Rank mode: every seat, 1st to last."""
    paid_la: tuple[int, ...] = ()
    """End-of-hand payments per seat in lá (cut payments excluded), for the runner-up."""

    @property
    def table(self) -> Combo | None:
        """The play on the table (the last of the trick), if any."""
        return self.trick[-1][1] if self.trick else None

    @property
    def table_seat(self) -> Seat | None:
        """Who made the play on the table."""
        return self.trick[-1][0] if self.trick else None


@dataclass(frozen=True, slots=True, kw_only=True)
class TienLenView(View):
    """One seat's view: its own cards, everyone's card counts, the trick."""

    seats: int
    stake: int
    step: int
    """Turn order: +1 to increasing seat numbers, -1 to decreasing."""
    scoring: str
    hand: tuple[Card, ...]
    """The viewer's own cards (empty for a spectator)."""
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
    finished: tuple[Seat, ...]
    sitting_out: tuple[Seat, ...]
    """Seats without the balance to start (§2.6), not dealt in."""
    first_game: bool
    must_include: tuple[Card, ...]
    """The card the viewer's first play must include (only in the viewer's own view)."""
    cuts: tuple[tuple[Seat, Seat, int], ...]
    """Cut payments so far: (payer, payee, lá)."""
    outcome: str
    instant: str
    winner: Seat | None
    places: tuple[Seat, ...]
    paid_la: tuple[int, ...]


class TienLen(Game[TienLenState]):
    """Tiến lên miền Nam đếm lá."""

    info = GameInfo(
        id="tien-len",
        name="Tien Len Mien Nam",
        name_vi="Tiến lên miền Nam đếm lá",
        seats_min=2,
        seats_max=4,
        deck="52",
        banked=False,
        max_actions=400,
        rules_source="RULES.md §12, §15 (A-TL1..A-TL11), §16A; seed 001 Tiến lên miền nam đếm lá",
        aliases=("tlmn", "tien len", "tiến lên", "tien-len-mien-nam", "Tiến lên miền Nam"),
        rules=TienLenRules,
        action_types=(Play, Pass, Leave),
    )

    # ----- setup ----------------------------------------------------------------------------
    def max_loss(self, config: TableConfig) -> Chips:
        """The most one seat can pay in a hand (module docstring, *The largest loss*).

        >>> TienLen().max_loss(TableConfig.make(seats=4, stake=100))
        19500
        """
        rules = self.rules(config)
        n = config.seats
        cumulative = rules.chain_cut == "cumulative"
        own_and_chains = TWOS_LA + NON_TWO_ITEMS_LA * n if cumulative else HAND_ITEMS_LA
        cases = [INSTANT_WIN_RANK if rules.scoring == "rank" else INSTANT_WIN_LA]
        if rules.scoring == "count":
            cases.append(TWOS_LA + 45 + NON_TWO_ITEMS_LA * (n - 1) if cumulative else 67)
            cases.append(HAND_ITEMS_LA + 2 * rules.cong_multiplier)
        else:
            cases.append(RANK_PAYMENTS[n][-1] + own_and_chains)
        if rules.dut_3_bich:
            cases.append(DUT_3_BICH_LA * (n - 1) + own_and_chains)
        return max(max(cases) * config.stake, rules.min_balance_multiple * config.stake)

    def rules(self, config: TableConfig) -> TienLenRules:
        """The resolved rule options of a table (cached per set of options)."""
        rules = super().rules(config)
        assert isinstance(rules, TienLenRules)
        return rules

    def new_state(self, config: TableConfig) -> TienLenState:
        """A hand waiting for the shuffle; seats below ``platform.min_balance_multiple`` × L
        sit it out.

        :raises ConfigError: on an impossible config, or fewer than two seats able to start.
        """
        self.check_config(config)
        carry_seat(config.carry, "winner", config.seats)  # validates the carry's shape
        rules = self.rules(config)
        dealt_in = dealt_in_seats(config, rules.min_balance_multiple)
        return TienLenState(config=config, rules=rules, dealt_in=dealt_in)

    def to_act(self, state: TienLenState) -> tuple[Seat, ...] | Chance | None:
        """:data:`CHANCE` before the deal, the seat to play, or ``None`` once over."""
        if state.over:
            return None
        if not state.hands:
            return CHANCE
        assert state.turn is not None
        return (state.turn,)

    def chance_spec(self, state: TienLenState) -> ChanceSpec:
        """A shuffle of the 52-card deck."""
        return ChanceSpec("shuffle", DECK_52)

    # ----- legal actions --------------------------------------------------------------------
    def legal_plays(self, state: TienLenState) -> tuple[Combo, ...]:
        """Every legal play of the seat to act (empty if none, or not in play)."""
        if state.over or not state.hands or state.turn is None:
            return ()
        seat = state.turn
        hand = state.hands[seat]
        table = state.table
        if table is None:
            plays = TIEN_LEN.plays(hand)
            if state.must_include is not None:
                plays = tuple(c for c in plays if state.must_include in c.cards)
            return plays
        plays = TIEN_LEN.plays(hand, table)
        if state.passed[seat]:  # offered a restore (§16): only 4 đôi thông
            plays = tuple(c for c in plays if c.pairs >= 4)
        return plays

    def legal_actions(self, state: TienLenState) -> tuple[Action, ...]:
        """Plays and pass of the seat to act (:class:`Leave`, an ``anytime`` action, is not
        listed: it is legal for every seat in play at any moment)."""
        if self.to_act(state) is None or not state.hands:
            return ()
        seat = state.turn
        actions: list[Action] = [Play(seat, c.cards) for c in self.legal_plays(state)]
        if state.table is not None:
            actions.append(Pass(seat))
        return tuple(actions)

    def validate_action(self, state: TienLenState, action: Action) -> None:
        """Check a play, pass or leave; raise :class:`IllegalActionError` saying why not."""
        version = state.version
        if isinstance(action, Leave):
            if action.seat is None:
                raise IllegalActionError(action, "leave_needs_seat", version)
            if not state.in_play[action.seat]:
                raise IllegalActionError(action, "no_longer_in_play", version)
            return
        seat = action.seat
        if seat is None:
            raise IllegalActionError(action, "play_needs_seat", version)
        if isinstance(action, Pass):
            if state.table is None:
                raise IllegalActionError(action, "leader_must_play", version)
            return
        if not isinstance(action, Play):
            raise IllegalActionError(action, "not_tien_len_action", version)
        combo = self._check_cards(state, action, seat)
        table = state.table
        if table is None:
            if state.must_include is not None and state.must_include not in combo.cards:
                raise IllegalActionError(
                    action, text("first_play_includes", state.must_include), version
                )
            return
        if not TIEN_LEN.beats(combo, table):
            raise IllegalActionError(
                action,
                text("does_not_beat", combo.kind.value, combo.cards, table.kind.value, table.cards),
                version,
            )
        if state.passed[seat] and combo.pairs < 4:
            raise IllegalActionError(action, "four_pairs_only", version)

    @staticmethod
    def _check_cards(state: TienLenState, action: Play, seat: Seat) -> Combo:
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
        combo = TIEN_LEN.classify(cards)
        if combo is None:
            ranks = [climb_rank(c) for c in cards]
            if len(cards) >= 3 and TWO in ranks and len(set(ranks)) == len(ranks):
                raise IllegalActionError(action, "straight_no_two", version)
            shown = TIEN_LEN.sort(cards)
            raise IllegalActionError(action, text("not_combination", shown), version)
        return combo

    # ----- transitions ----------------------------------------------------------------------
    def transition(self, state: TienLenState, event: Event) -> TienLenState:
        """The next state after a validated event."""
        if isinstance(event, Shuffle):
            return self._deal(state, event.order)
        if isinstance(event, Leave):
            assert event.seat is not None
            return self._leave(state, event.seat)
        if isinstance(event, Pass):
            assert event.seat is not None
            return self._pass(state, event.seat)
        assert isinstance(event, Play) and event.seat is not None
        return self._play(state, event.seat, event.cards)

    def _deal(self, state: TienLenState, order: tuple[Card, ...]) -> TienLenState:
        config, rules = state.config, state.rules
        n = config.seats
        players = [s for s in range(n) if state.dealt_in[s]]
        m = len(players)
        dealt = [TIEN_LEN.sort(order[i : HAND_SIZE * m : m]) for i in range(m)]
        hands = tuple(dealt[players.index(s)] if s in players else () for s in range(n))
        winner = carry_seat(config.carry, "winner", n)
        runner_up = carry_seat(config.carry, "runner_up", n)
        if winner is not None and not state.dealt_in[winner]:
            winner = None
        if runner_up is not None and not state.dealt_in[runner_up]:
            runner_up = None
        must_include: Card | None = None
        if winner is not None:
            leader, first_game = winner, False
        elif runner_up is not None:
            leader, first_game = runner_up, False
        else:
            first_game = True
            lowest = min((c for h in hands for c in h), key=TIEN_LEN.strength)
            leader = next(s for s in range(n) if lowest in hands[s])
            if rules.first_lead_must_include_3s:
                must_include = lowest
        state = evolve(
            state,
            hands=hands,
            played=(0,) * n,
            in_play=state.dealt_in,
            first_game=first_game,
            leader=leader,
            turn=leader,
            passed=(False,) * n,
            declined=(False,) * n,
            must_include=must_include,
        )
        extras = rules.first_game_instant_wins and first_game
        for seat in seats_from(leader, n, rules.step):
            hand_name = tien_len_instant_win(hands[seat], first_game_extras=extras)
            if hand_name is not None:
                amount = INSTANT_WIN_LA if rules.scoring == "count" else INSTANT_WIN_RANK
                debts = tuple(
                    Debt(other, seat, amount, "instant_win", text("hand", hand_name))
                    for other in players
                    if other != seat
                )
                paid = tuple(amount if s in players and s != seat else 0 for s in range(n))
                return self._end(state, seat, "instant_win", debts, paid, instant=hand_name)
        return state

    def _play(self, state: TienLenState, seat: Seat, cards: tuple[Card, ...]) -> TienLenState:
        rules = state.rules
        combo = TIEN_LEN.classify(cards)
        assert combo is not None
        gone = set(cards)
        hand = tuple(c for c in state.hands[seat] if c not in gone)
        hands = put(state.hands, seat, hand)
        played = put(state.played, seat, state.played[seat] + len(cards))
        beaten_seat = state.table_seat
        beaten = state.table
        state = evolve(
            state,
            hands=hands,
            played=played,
            trick=(*state.trick, (seat, combo)),
            declined=(False,) * state.config.seats,
            must_include=None,
        )
        n_live = sum(state.dealt_in) - len(state.left)
        # §16 Thối 3 Bích: the play before the 3♠ was beaten; the beater saves the village.
        if (
            state.dut_pending is not None
            and beaten_seat == state.dut_pending
            and beaten is not None
        ):
            failer = state.dut_pending
            cut_debts = self._chain_debts(state)
            debts = [Debt(failer, seat, (n_live - 1) * DUT_3_BICH_LA, "thoi_3_bich")]
            if not (cut_debts and cut_debts[0].payer == failer):
                heo = sum(two_value(c) for c in beaten.cards)
                if heo:
                    debts.append(Debt(failer, seat, heo, "thoi_3_bich_heo"))
            paid = tuple(
                sum(d.amount for d in debts) if s == failer else 0
                for s in range(state.config.seats)
            )
            state = evolve(state, debts=state.debts + cut_debts)
            return self._end(state, seat, "thoi_3_bich", tuple(debts), paid)
        if not hand:
            return self._went_out(state, seat, combo)
        if rules.dut_3_bich and not state.finished and hand == (THREE_SPADES,):
            state = evolve(state, dut_pending=seat)
        return self._advance(state, seat)

    def _went_out(self, state: TienLenState, seat: Seat, combo: Combo) -> TienLenState:
        config, rules = state.config, state.rules
        n = config.seats
        state = evolve(state, debts=state.debts + self._chain_debts(state))
        if (
            rules.dut_3_bich
            and not state.finished
            and combo.kind is Kind.SINGLE
            and combo.cards[0] == THREE_SPADES
        ):
            debts = []
            paid = [0] * n
            for other in range(n):
                if other == seat or not state.dealt_in[other]:
                    continue
                heo = sum(two_value(c) for c in state.hands[other])
                debts.append(Debt(other, seat, DUT_3_BICH_LA + heo, "dut_3_bich"))
                paid[other] = DUT_3_BICH_LA + heo
            return self._end(state, seat, "dut_3_bich", tuple(debts), tuple(paid))
        if rules.scoring == "count":
            return self._count_end(state, seat, "out")
        in_play = put(state.in_play, seat, False)
        state = evolve(
            state,
            in_play=in_play,
            finished=(*state.finished, seat),
            trick=(),
            passed=(False,) * n,
            declined=(False,) * n,
            dut_pending=None,
        )
        if sum(in_play) <= 1:
            return self._rank_end(state)
        return evolve(state, turn=self._next_in_play(state, seat))

    def _pass(self, state: TienLenState, seat: Seat) -> TienLenState:
        if state.passed[seat]:  # a declined restore offer (§16)
            state = evolve(state, declined=put(state.declined, seat, True))
        else:
            state = evolve(state, passed=put(state.passed, seat, True))
        return self._advance(state, seat)

    def _leave(self, state: TienLenState, player: Seat) -> TienLenState:
        in_play = put(state.in_play, player, False)
        state = evolve(
            state,
            in_play=in_play,
            left=(*state.left, player),
            dut_pending=None if state.dut_pending == player else state.dut_pending,
        )
        if sum(in_play) <= 1:
            state = evolve(state, debts=state.debts + self._chain_debts(state))
            if state.rules.scoring == "count":
                survivor = next(s for s in range(state.config.seats) if in_play[s])
                return self._count_end(state, survivor, "last_player")
            return self._rank_end(state)
        if state.turn != player:
            return state
        state = evolve(state, must_include=None)
        if state.table is None:
            return evolve(state, turn=self._next_in_play(state, player))
        return self._advance(state, player)

    def _advance(self, state: TienLenState, after: Seat) -> TienLenState:
        """Give the turn to the next seat that may answer, or end the trick."""
        n = state.config.seats
        table_seat = state.table_seat
        for seat in [*seats_from(after, n, state.rules.step)[1:], after]:
            if not state.in_play[seat] or seat == table_seat:
                continue
            if not state.passed[seat] or self._restore_offer(state, seat):
                return evolve(state, turn=seat)
        # Everyone else passed: the trick ends and the last player to play leads.
        assert table_seat is not None
        leader = table_seat if state.in_play[table_seat] else self._next_in_play(state, table_seat)
        return evolve(
            state,
            debts=state.debts + self._chain_debts(state),
            trick=(),
            passed=(False,) * n,
            declined=(False,) * n,
            turn=leader,
        )

    def _restore_offer(self, state: TienLenState, seat: Seat) -> bool:
        """§16: a passed player holding 4 đôi thông that cut the table is offered the turn."""
        table = state.table
        if (
            not state.rules.four_pairs_restore_turn
            or state.declined[seat]
            or table is None
            or len(state.hands[seat]) < 8
        ):
            return False
        return any(c.pairs >= 4 for c in TIEN_LEN.plays(state.hands[seat], table))

    def _next_in_play(self, state: TienLenState, seat: Seat) -> Seat:
        for other in seats_from(seat, state.config.seats, state.rules.step)[1:]:
            if state.in_play[other]:
                return other
        raise AssertionError("nobody in play")

    def _chain_debts(self, state: TienLenState) -> tuple[Debt, ...]:
        combos = [combo for _, combo in state.trick]
        cut = tien_len_chain(combos, cumulative=state.rules.chain_cut == "cumulative")
        if cut is None:
            return ()
        payer, payee = state.trick[cut.payer][0], state.trick[cut.payee][0]
        return (Debt(payer, payee, cut.amount, "cut", cut_text(combos, cut.victims)),)

    # ----- the end --------------------------------------------------------------------------
    def _count_end(self, state: TienLenState, winner: Seat, outcome: str) -> TienLenState:
        n = state.config.seats
        debts = []
        paid = [0] * n
        for seat in range(n):
            if seat == winner or not state.dealt_in[seat]:
                continue
            cong = state.played[seat] == 0
            weight = state.rules.cong_multiplier if cong else 1
            penalty = tien_len_penalty(state.hands[seat], ordinary_weight=weight)
            paid[seat] = penalty.total
            detail = join(
                text("ordinary", penalty.ordinary),
                *(text("special", label, value) for label, value in penalty.items),
            )
            debts.append(Debt(seat, winner, penalty.total, "cong" if cong else "penalty", detail))
        return self._end(state, winner, outcome, tuple(debts), tuple(paid))

    def _rank_end(self, state: TienLenState) -> TienLenState:
        n = state.config.seats
        remaining = [s for s in seats_from(0, n, 1) if state.in_play[s]]
        places = (*state.finished, *remaining, *reversed(state.left))
        first = places[0]
        debts = []
        paid = [0] * n
        for place, seat in enumerate(places[1:]):
            amount = RANK_PAYMENTS[len(places)][place]
            debts.append(Debt(seat, first, amount, "place", text("place", place + 2)))
            paid[seat] = amount
        last = places[-1]
        special = tien_len_penalty(state.hands[last], ordinary_weight=0).total
        if special:
            debts.append(Debt(last, first, special, "special_items"))
            paid[last] += special
        state = evolve(state, places=places)
        return self._end(state, first, "ranked", tuple(debts), tuple(paid))

    @staticmethod
    def _end(
        state: TienLenState,
        winner: Seat,
        outcome: str,
        debts: tuple[Debt, ...],
        paid: tuple[int, ...],
        *,
        instant: str = "",
    ) -> TienLenState:
        return evolve(
            state,
            over=True,
            turn=None,
            winner=winner,
            outcome=outcome,
            instant=instant,
            debts=state.debts + debts,
            paid_la=paid,
        )

    def settle(self, state: TienLenState) -> Settlement:
        """Cut payments and end payments, capped per payer (RULES.md §2.6)."""
        if not state.over:
            raise IllegalActionError(None, "hand_not_over", state.version)
        detail: list[tuple[str, Any]] = [
            ("outcome", state.outcome),
            ("winner", state.winner),
            ("paid_la", state.paid_la),
        ]
        if state.instant:
            detail.append(("instant", state.instant))
        if state.places:
            detail.append(("places", state.places))
        return settle_debts(state.config, state.debts, detail)

    # ----- table flow -----------------------------------------------------------------------
    def runner_up(self, state: TienLenState) -> Seat | None:
        """*Người nhì*: rank mode, the best placed loser; count mode, the loser who paid the
        fewest penalty lá, ties to the earliest in turn order after the winner (A-TL9).
        Players who left are never runner-up."""
        if not state.over or state.winner is None:
            return None
        if state.places:
            return next((s for s in state.places[1:] if s not in state.left), None)
        candidates = [
            s
            for s in seats_from(state.winner, state.config.seats, state.rules.step)[1:]
            if state.dealt_in[s] and s not in state.left
        ]
        if not candidates:
            return None
        return min(candidates, key=lambda s: state.paid_la[s])

    def carry(self, state: TienLenState) -> Any:
        """``{"winner": seat, "runner_up": seat}`` for the next hand's ``TableConfig.carry``.

        The server sets an entry to ``None`` when that player has left the table (and
        renumbers it if it renumbers seats); with both ``None`` the next hand is a first game.
        """
        if not state.over:
            return None
        return {"winner": state.winner, "runner_up": self.runner_up(state)}

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The carried winner and runner-up in the next lineup (one gone: ``None``)."""
        return remap_named_seats(carry, seats, ("winner", "runner_up"))

    def default_action(
        self, state: TienLenState, seat: Seat | None, reason: Reason
    ) -> Action | None:
        """Timeout: pass, or when leading the lowest single (with 3♠ first). Disconnect or
        leave: :class:`Leave`, an automatic loss (RULES.md §12.7)."""
        if seat is None or state.over or not state.hands:
            return None
        if reason in ("disconnect", "leave"):
            return Leave(seat) if state.in_play[seat] else None
        if state.turn != seat:
            return None
        if state.table is not None:
            return Pass(seat)
        plays = self.legal_plays(state)
        singles = [c for c in plays if c.kind is Kind.SINGLE]
        choice = min(singles or plays, key=lambda c: c.key)
        return Play(seat, choice.cards)

    # ----- views ----------------------------------------------------------------------------
    def observe(self, state: TienLenState, viewer: Seat | None) -> TienLenView:
        """Own cards only; others' card counts; the trick and the results are public."""
        n = state.config.seats
        dealt = bool(state.hands)
        own = viewer is not None and dealt
        table = state.table
        return TienLenView(
            **self.view_base(state, viewer),
            seats=n,
            stake=state.config.stake,
            step=state.rules.step,
            scoring=state.rules.scoring,
            hand=state.hands[viewer] if own and viewer is not None else (),
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
            finished=state.finished,
            sitting_out=tuple(s for s in range(n) if not state.dealt_in[s]),
            first_game=state.first_game,
            must_include=(
                (state.must_include,)
                if state.must_include is not None and viewer == state.turn
                else ()
            ),
            cuts=tuple((*between(d), d.amount) for d in state.debts if d.item == "cut"),
            outcome=state.outcome,
            instant=state.instant,
            winner=state.winner,
            places=state.places,
            paid_la=state.paid_la,
        )

    def render_text(self, view: View) -> str:
        """The terminal table: seats with card counts, the trick, your hand."""
        assert isinstance(view, TienLenView)
        return render_shedding(
            title=f"Tiến lên miền Nam · {view.scoring} scoring",
            view=view,
            seat_notes=lambda s: _seat_notes(view, s),
        )


def _seat_notes(view: TienLenView, seat: Seat) -> str:
    notes = []
    if seat in view.sitting_out:
        return "sitting out"
    if seat in view.left:
        notes.append("left")
    if seat in view.finished:
        notes.append(f"out #{view.finished.index(seat) + 1}")
    if seat in view.passed:
        notes.append("passed")
    if view.played[seat] == 0 and view.card_counts[seat]:
        notes.append("cóng so far")
    return ", ".join(notes)


GAMES = (TienLen(),)
