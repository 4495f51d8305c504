"""High card: a small game defined outside sanh, added through the ``sanh.games`` entry point.

This directory is laid out as an installed distribution would be (``sanh_high_card.py`` and its
``sanh_high_card-0.1.dist-info/entry_points.txt``): put it on ``sys.path`` (or ``PYTHONPATH``)
and :func:`sanh.games.load_entry_points` (or the first import of :mod:`sanh.games`) registers
the game. Nothing in ``sanh/`` names it: the hall hosts it from its declarations alone
(docs/ARCHITECTURE.md, "Adding a game").

Rules. A Tẩy game for 2 to 6 players: each brings a table stake through the buy-in panel
(4 L to 20 L), topped up below 2 L between hands. Every seat antes L and is dealt one card
face down; then, all at once, each seat *plays* (one more L) or *folds* (loses the ante) in a
betting window the table closes on its clock (``highcard.betting_s``): a seat that has not
chosen by then folds. The highest card among the players (rank, then suit) takes the pot;
when nobody plays, every ante goes back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.errors import ConfigError, IllegalActionError
from sanh.games.base import (
    CHANCE,
    Action,
    Chance,
    ChanceSpec,
    Event,
    Game,
    GameInfo,
    OptionValue,
    Reason,
    Rules,
    Settlement,
    SettlementLine,
    Shuffle,
    TableConfig,
    View,
    option,
)
from sanh.games.hosting import Hosting, PhaseClock
from sanh.texts import text
from sanh.types import Chips, Seat

__all__ = ["GAMES", "CloseBetting", "Fold", "HighCard", "HighCardState", "HighCardView", "Play"]


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Stay in: one more L in the pot."""

    wire = "Play"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    """Give up the ante."""

    wire = "Fold"


@dataclass(frozen=True, slots=True)
class CloseBetting(Action):
    """The table's clock closes the betting window (``seat=None``): the undecided fold."""

    wire = "CloseBetting"


@dataclass(frozen=True, slots=True)
class HighCardState:
    config: TableConfig
    version: int = 0
    history: tuple[Event, ...] = ()
    phase: str = "deal"
    """``deal`` (waiting for the shuffle), ``betting`` or ``over``."""
    dealt: tuple[Seat, ...] = ()
    """The seats in the hand (a stake of at least 2 L)."""
    cards: tuple[Card | None, ...] = ()
    choices: tuple[str | None, ...] = ()
    """Per seat: ``None`` (undecided or not dealt), ``play`` or ``fold``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HighCardView(View):
    phase: str
    stake: Chips
    pot: Chips
    cards: tuple[Card | None, ...]
    """The viewer's own card; every player's once the hand is over (folded cards stay down)."""
    decided: tuple[bool, ...]
    choices: tuple[str | None, ...]
    """Shown once the hand is over."""
    winner: Seat | None


@dataclass(frozen=True, slots=True)
class HighCardRules(Rules):
    """The game's rule options, each declared once: ``GameInfo.options`` and
    ``HighCard().rules(config)`` derive from these fields."""

    betting_s: int = option("highcard.betting_s", 20, help="the betting window, seconds")
    buyin_s: int = option("highcard.buyin_s", 8, help="the buy-in panel's timer, seconds")


class HighCard(Game[HighCardState]):
    """High card (see the module docstring)."""

    info: ClassVar[GameInfo] = GameInfo(
        id="high-card",
        name="High Card",
        name_vi="Bài Cao",
        seats_min=2,
        seats_max=6,
        deck="52",
        banked=False,
        max_actions=1 + 6 + 1,
        rules_source="tests/games_plugin/sanh_high_card.py",
        aliases=("bai cao test",),
        rules=HighCardRules,
        action_types=(Play, Fold, CloseBetting),
        hosting=Hosting(
            table_stake=True,
            buyin_timer_option="highcard.buyin_s",
            clocks=(PhaseClock("betting", option="highcard.betting_s"),),
        ),
    )

    # ----- hosting --------------------------------------------------------------------------
    def buyin_limits(self, stake: Chips, options: Mapping[str, OptionValue]) -> tuple[Chips, Chips]:
        return 4 * stake, 20 * stake

    def topup_below(self, stake: Chips, options: Mapping[str, OptionValue]) -> Chips:
        return 2 * stake

    def rules_at_hand(self) -> dict[str, Any]:
        return {
            "section": self.info.rules_source,
            "vi": {"how_to_play": "Mỗi người một lá; theo hoặc bỏ; lá cao nhất ăn.", "rules": []},
            "en": {"how_to_play": "One card each; play or fold; high card wins.", "rules": []},
        }

    # ----- the rules ------------------------------------------------------------------------
    def new_state(self, config: TableConfig) -> HighCardState:
        self.check_config(config)
        dealt = tuple(s for s in range(config.seats) if config.stacks[s] >= 2 * config.stake)
        if len(dealt) < 2:
            bounds = (self.info.seats_min, self.info.seats_max, len(dealt))
            raise ConfigError(text=text("seats_range", self.info.id, *bounds))
        return HighCardState(
            config=config,
            dealt=dealt,
            cards=(None,) * config.seats,
            choices=(None,) * config.seats,
        )

    def to_act(self, state: HighCardState) -> tuple[Seat, ...] | Chance | None:
        if state.phase == "deal":
            return CHANCE
        if state.phase == "betting":
            return tuple(s for s in state.dealt if state.choices[s] is None)
        return None

    def chance_spec(self, state: HighCardState) -> ChanceSpec:
        return ChanceSpec("shuffle", deck=DECK_52)

    def legal_actions(self, state: HighCardState) -> tuple[Action, ...]:
        turn = self.to_act(state)
        if not isinstance(turn, tuple):
            return ()
        seats: tuple[Action, ...] = tuple(a for s in turn for a in (Play(s), Fold(s)))
        return (*seats, CloseBetting(None))

    def validate_action(self, state: HighCardState, action: Action) -> None:
        if isinstance(action, CloseBetting) != (action.seat is None):
            raise IllegalActionError(action, "only_table_seats", state.version)

    def transition(self, state: HighCardState, event: Event) -> HighCardState:
        if isinstance(event, Shuffle):
            cards = list(state.cards)
            for index, seat in enumerate(state.dealt):
                cards[seat] = event.order[index]
            return replace(state, phase="betting", cards=tuple(cards))
        assert isinstance(event, Action)
        choices = list(state.choices)
        if isinstance(event, CloseBetting):
            for seat in state.dealt:
                choices[seat] = choices[seat] or "fold"
        else:
            assert event.seat is not None
            choices[event.seat] = "play" if isinstance(event, Play) else "fold"
        done = all(choices[s] is not None for s in state.dealt)
        return replace(state, choices=tuple(choices), phase="over" if done else "betting")

    def default_action(
        self, state: HighCardState, seat: Seat | None, reason: Reason
    ) -> Action | None:
        if state.phase != "betting":
            return None
        if seat is None:
            return CloseBetting(None)
        return Fold(seat) if seat in state.dealt and state.choices[seat] is None else None

    def _paid(self, state: HighCardState) -> list[Chips]:
        stake = state.config.stake
        paid = [0] * state.config.seats
        for seat in state.dealt:
            paid[seat] = stake * (2 if state.choices[seat] == "play" else 1)
        return paid

    def _winner(self, state: HighCardState) -> Seat | None:
        players = [s for s in state.dealt if state.choices[s] == "play"]
        if state.phase != "over" or not players:
            return None
        return max(players, key=lambda s: int(state.cards[s] or 0))

    def settle(self, state: HighCardState) -> Settlement:
        paid = self._paid(state)
        winner = self._winner(state)
        if winner is None:
            return Settlement(deltas=(0,) * state.config.seats)
        deltas = tuple(sum(paid) - p if s == winner else -p for s, p in enumerate(paid))
        lines = tuple(SettlementLine(s, "pot", d) for s, d in enumerate(deltas) if d)
        return Settlement(deltas=deltas, lines=lines, detail=(("winner", winner),))

    def observe(self, state: HighCardState, viewer: Seat | None) -> HighCardView:
        over = state.phase == "over"
        cards = tuple(
            card if s == viewer or (over and state.choices[s] == "play") else None
            for s, card in enumerate(state.cards)
        )
        return HighCardView(
            **self.view_base(state, viewer),
            phase=state.phase,
            stake=state.config.stake,
            pot=sum(self._paid(state)),
            cards=cards,
            decided=tuple(c is not None for c in state.choices),
            choices=state.choices if over else (None,) * state.config.seats,
            winner=self._winner(state),
        )


GAMES = (HighCard(),)
