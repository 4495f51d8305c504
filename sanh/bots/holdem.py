"""The Hold'em bot: Monte Carlo equity against the visible board, weighed against pot odds.

The bot sees only its seat's :class:`~sanh.games.texas_holdem.HoldemView`: its two hole cards,
the board, the pot, what it must call and how many opponents are still in. It estimates its
equity (its share of the pot at showdown) by dealing the unseen cards at random: the rest of the
board and two cards to each opponent (opponents' ranges are taken as uniformly random; the bot
does not read betting patterns). Then:

* facing a bet, it folds when its equity is below the pot odds (``to_call / (pot + to_call)``),
  raises with a clearly strong hand, and otherwise calls;
* when it can check, it bets with an above-average hand (about half to a full pot), sometimes
  bets a middling hand, and otherwise checks;
* in All-in or Fold it goes all-in when its equity beats the price of the all-in.

Randomness: one draw from the ``Rng`` the caller passes seeds a local generator for the deals
and the few mixed choices, so the bot is deterministic under a seed and fast (about 10 ms a
decision; see ``BENCHMARKS.md``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sanh.bots.base import Bot, RandomBot
from sanh.cards.rng import Rng
from sanh.games._holdem_eval import CARD_VALUE, evaluate_key
from sanh.games.base import Action, AmountRange, View
from sanh.games.texas_holdem import AllIn, Call, Check, Fold, HoldemView, RaiseTo

__all__ = ["BOTS", "HoldemBot", "estimate_equity"]

_FULL_DECK = tuple(range(52))


def estimate_equity(
    hole: Sequence[int],
    board: Sequence[int],
    opponents: int,
    samples: int,
    rnd: random.Random,
) -> float:
    """The expected share of the pot of ``hole`` against ``opponents`` random hands.

    The unseen board cards and the opponents' cards are dealt ``samples`` times from the cards
    not in ``hole`` or ``board``; a tie counts as an equal share.
    """
    if opponents < 1:
        return 1.0
    known = set(hole) | set(board)
    deck = [card for card in _FULL_DECK if card not in known]
    missing = 5 - len(board)
    draw = missing + 2 * opponents
    value = CARD_VALUE
    base = sum(value[card] for card in board)
    board_cards = tuple(board)
    hero_key = value[hole[0]] + value[hole[1]]
    hero_cards = tuple(hole)
    total = 0.0
    sample = rnd.sample
    for _ in range(samples):
        cards = sample(deck, draw)
        extra = cards[:missing]
        full_board = board_cards + tuple(extra)
        board_key = base
        for card in extra:
            board_key += value[card]
        mine = evaluate_key(board_key + hero_key, hero_cards + full_board)
        best_other = -1
        ties = 0
        for index in range(missing, draw, 2):
            first, second = cards[index], cards[index + 1]
            theirs = evaluate_key(
                board_key + value[first] + value[second], (first, second, *full_board)
            )
            if theirs > best_other:
                best_other = theirs
                ties = 0
            if theirs == mine:
                ties += 1
        if mine > best_other:
            total += 1.0
        elif mine == best_other:
            total += 1.0 / (ties + 1)
    return total / samples


def _amount_action(ranges: Sequence[AmountRange], target: int, unit: int = 1) -> Action | None:
    """The raise nearest ``target`` (rounded to ``unit``) within the legal range, if any."""
    if unit > 1:
        target = max(unit, (target + unit // 2) // unit * unit)
    for amount_range in ranges:
        if isinstance(amount_range.template, RaiseTo):
            return amount_range.at(max(amount_range.min, min(amount_range.max, target)))
    return None


class HoldemBot:
    """Equity-versus-pot-odds Hold'em player (see the module docstring)."""

    def __init__(self, samples: int = 500) -> None:
        self.samples = samples
        """Monte Carlo deals per decision."""

    def act(self, view: View, rng: Rng) -> Action:
        """A legal action for the viewer of ``view``."""
        if not isinstance(view, HoldemView) or view.viewer is None:
            return RandomBot().act(view, rng)
        seat = view.viewer
        legal = view.legal_actions
        if not legal:
            raise ValueError("the view has no legal action")
        rnd = random.Random(rng.randbelow(1 << 62))
        hole = view.hole[seat]
        if len(hole) != 2 or None in hole:
            return RandomBot().act(view, rng)
        opponents = sum(
            1
            for other in range(len(view.dealt))
            if other != seat and view.dealt[other] and not view.folded[other]
        )
        cards = [int(card) for card in hole if card is not None]
        equity = self.equity(cards, [int(c) for c in view.board], opponents, rnd)
        fair = 1.0 / (opponents + 1)
        edge = equity / fair
        to_call = view.to_call
        pot = view.pot
        kinds = {type(action): action for action in legal}
        if AllIn in kinds:  # All-in or Fold
            return self._all_in_or_fold(view, kinds, equity, edge, rnd)
        if to_call == 0:
            if edge > 1.45 or (edge > 1.15 and rnd.random() < 0.3):
                fraction = 0.5 + 0.5 * rnd.random()
                target = view.bets[seat] + max(view.big_blind, int(pot * fraction))
                bet = _amount_action(view.amount_ranges, target, view.small_blind)
                if bet is not None:
                    return bet
            return kinds.get(Check) or kinds[Fold]
        price = to_call / (pot + to_call)
        if equity < price and not (equity > 0.9 * price and rnd.random() < 0.15):
            return kinds[Fold]
        if edge > 1.8 and equity > price + 0.15:
            target = max(view.bets) + max(pot, 2 * to_call)
            unit = view.small_blind
            if equity > 0.8:  # all-in: the whole stake, not rounded
                target, unit = view.stacks[seat] + view.bets[seat], 1
            raise_action = _amount_action(view.amount_ranges, target, unit)
            if raise_action is not None and rnd.random() < 0.8:
                return raise_action
        return kinds.get(Call) or kinds[Fold]

    def equity(
        self, hole: Sequence[int], board: Sequence[int], opponents: int, rnd: random.Random
    ) -> float:
        """The estimated share of the pot: :func:`estimate_equity` over ``samples`` deals (a
        subclass may estimate it another way, e.g. from a table)."""
        return estimate_equity(hole, board, opponents, self.samples, rnd)

    @staticmethod
    def _all_in_or_fold(
        view: HoldemView,
        kinds: dict[type, Action],
        equity: float,
        edge: float,
        rnd: random.Random,
    ) -> Action:
        seat = view.viewer
        assert seat is not None
        to_call = view.to_call
        pot = view.pot
        if to_call > 0:
            risk = min(view.stacks[seat], to_call)
            if equity >= risk / (pot + risk) + 0.02:
                return kinds[AllIn]
            return kinds[Fold]
        if Check in kinds and edge < 1.3:
            return kinds[Check]
        if edge > 1.25 or (edge > 1.05 and rnd.random() < 0.25):
            return kinds[AllIn]
        return kinds.get(Check) or kinds[Fold]


def _factory() -> Bot:
    return HoldemBot()


BOTS = {"texas-holdem": _factory, "poker-aof": _factory}
"""Bots registered for the Hold'em games."""
