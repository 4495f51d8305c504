"""Heuristic bots for the shedding games: Tiến lên miền Nam and Sâm Lốc.

They see only their own seat's view (their hand, the trick, everyone's card counts) and always
return one of the view's legal actions. The heuristic:

* finish at once when one legal play empties the hand (never by going out on 2s in Sâm);
  when the hand is two plays, lead the stronger one first;
* otherwise keep the cutting combinations (2s, tứ quý, đôi thông) and shed the weakest cards,
  leading the play that holds the lowest card (the longest such play);
* answer with the cheapest play that beats the table without breaking a cutting combination;
  cut a 2 whenever possible; spend 2s and cutting combinations only when an opponent is close
  to going out or the bot's own hand is small; otherwise pass;
* before a player on one card (Sâm *báo 1*, or any opponent on one card in Tiến lên), avoid
  leading singles and answer singles only with the highest;
* Sâm: declare (*báo Sâm*) only when the hand splits into plays that no unseen cards could beat
  by a play of the same type (cuts aside), all but the last.

No randomness is used: the same view gives the same action.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.cards.rng import Rng
from sanh.eval.combos import SAM, TIEN_LEN, Combo, Family, Kind, climb_rank
from sanh.games._shedding import Pass, Play
from sanh.games.base import Action, View
from sanh.games.sam_loc import DeclareSam, DeclineSam

__all__ = ["BOTS", "SamBot", "TienLenBot"]

_Choice = tuple[Play, Combo]


class _ShedderBot:
    """The shared heuristic; subclasses name the rule family."""

    family: ClassVar[Family]

    def act(self, view: View, rng: Rng) -> Action:
        """A legal action of the viewer (``rng`` is not used: the bot is deterministic)."""
        actions = view.legal_actions
        if not actions:
            raise ValueError("the view has no legal action")
        special = self.special(view, actions)
        if special is not None:
            return special
        plays: list[_Choice] = []
        for action in actions:
            if isinstance(action, Play):
                combo = self.family.classify(action.cards)
                if combo is not None:
                    plays.append((action, combo))
        passing = next((a for a in actions if isinstance(a, Pass)), None)
        if not plays:
            return passing if passing is not None else actions[0]
        return self.choose(view, plays, passing)

    def special(self, view: View, actions: Sequence[Action]) -> Action | None:
        """A game-specific decision outside the tricks (Sâm declarations)."""
        return None

    def thoi(self, combo: Combo, hand: Sequence[Card]) -> bool:
        """Whether playing ``combo`` would go out on 2s (Sâm *thối 2*)."""
        return False

    def stranded(self, combo: Combo, hand: Sequence[Card]) -> bool:
        """Whether playing ``combo`` leaves a hand that can only go out badly."""
        return False

    def protected(self, hand: Sequence[Card]) -> set[Card]:
        """Cards worth keeping: 2s and the cards of cutting combinations."""
        keep = {c for c in hand if climb_rank(c) == 12}
        for combo in self.family.plays(hand):
            if combo.kind is Kind.FOUR or combo.kind is Kind.PAIR_STRAIGHT:
                keep.update(combo.cards)
        return keep

    def choose(self, view: Any, plays: list[_Choice], passing: Action | None) -> Action:
        """Pick among the legal plays (and the pass, if any)."""
        family = self.family
        hand: tuple[Card, ...] = view.hand
        finishing = [a for a, c in plays if c.size == len(hand) and not self.thoi(c, hand)]
        if finishing:
            return finishing[0]
        others = [s for s in view.in_play if s != view.viewer]
        danger = min((view.card_counts[s] for s in others), default=13)
        following = _next_in_play(view)
        next_on_one = following is not None and view.card_counts[following] == 1
        protected = self.protected(hand)
        if not view.table:
            return self.lead(hand, plays, protected, next_on_one or danger == 1)
        table = family.classify(view.table)
        assert table is not None
        cuts = [p for p in plays if family.is_cut(p[1], table)]
        if cuts and table.is_twos:
            return min(cuts, key=lambda p: (p[1].size, p[1].key))[0]
        usable = [p for p in plays if not self.thoi(p[1], hand)]
        usable = [p for p in usable if not self.stranded(p[1], hand)] or usable
        if next_on_one and table.kind is Kind.SINGLE:
            top = max(climb_rank(c) for c in hand)
            usable = [p for p in usable if climb_rank(p[1].cards[0]) == top]
        cheap = [p for p in usable if not set(p[1].cards) & protected]
        if cheap:
            return min(cheap, key=lambda p: p[1].key)[0]
        if usable and (danger <= 3 or len(hand) <= 4):
            return min(usable, key=lambda p: (p[1].size, p[1].key))[0]
        if passing is not None:
            return passing
        return min(plays, key=lambda p: p[1].key)[0]

    def lead(
        self, hand: tuple[Card, ...], plays: list[_Choice], protected: set[Card], careful: bool
    ) -> Action:
        """Choose a lead: two-step finishes first, then shed the weakest cards."""
        family = self.family
        two_step: list[tuple[tuple[int, int], Play]] = []
        top = max(climb_rank(c) for c in hand)
        for action, combo in plays:
            if careful and combo.kind is Kind.SINGLE and climb_rank(combo.cards[0]) != top:
                continue
            rest = [c for c in hand if c not in combo.cards]
            remainder = family.classify(rest)
            if (
                remainder is not None
                and family.can_lead(remainder)
                and not self.thoi(remainder, rest)
            ):
                two_step.append((_power(combo), action))
        if two_step:
            return max(two_step, key=lambda t: t[0])[1]
        pool = [p for p in plays if not set(p[1].cards) & protected and not self.thoi(p[1], hand)]
        pool = pool or [p for p in plays if not self.thoi(p[1], hand)] or plays
        pool = [p for p in pool if not self.stranded(p[1], hand)] or pool
        if careful:
            multi = [p for p in pool if p[1].size > 1]
            singles = [p for p in plays if p[1].kind is Kind.SINGLE and not self.thoi(p[1], hand)]
            if multi:
                pool = multi
            elif singles:
                return max(singles, key=lambda p: family.strength(p[1].cards[0]))[0]
        return min(
            pool,
            key=lambda p: (min(family.strength(c) for c in p[1].cards), -p[1].size, p[1].key),
        )[0]


def _power(combo: Combo) -> tuple[int, int]:
    """How hard a play is to beat, roughly: cutting kinds, then 2s, then the key."""
    if combo.kind in (Kind.FOUR, Kind.PAIR_STRAIGHT, Kind.DOUBLE_FOUR):
        return (2, combo.key)
    if combo.is_twos:
        return (1, combo.key)
    return (0, combo.key)


def _next_in_play(view: Any) -> int | None:
    if view.viewer is None:
        return None
    for offset in range(1, view.seats):
        seat = (view.viewer + view.step * offset) % view.seats
        if seat in view.in_play:
            return int(seat)
    return None


class TienLenBot(_ShedderBot):
    """The Tiến lên miền Nam heuristic bot."""

    family = TIEN_LEN


class SamBot(_ShedderBot):
    """The Sâm Lốc heuristic bot (declares Sâm only on a hand it can prove strong)."""

    family = SAM

    def special(self, view: View, actions: Sequence[Action]) -> Action | None:
        """Declare Sâm or not while the window is open."""
        if not any(isinstance(a, DeclareSam | DeclineSam) for a in actions):
            return None
        hand: tuple[Card, ...] = getattr(view, "hand", ())
        wanted = DeclareSam if sam_is_safe(frozenset(hand)) else DeclineSam
        return next(a for a in actions if isinstance(a, wanted))

    def choose(self, view: Any, plays: list[_Choice], passing: Action | None) -> Action:
        """A declarer follows its plan; everyone else plays the shared heuristic."""
        if view.sam_active and view.declarer == view.viewer and not view.table:
            planned = sam_safe_lead(frozenset(view.hand), plays)
            if planned is not None:
                return planned
        return super().choose(view, plays, passing)

    def thoi(self, combo: Combo, hand: Sequence[Card]) -> bool:
        """Going out on 2s (four 2s never count)."""
        return combo.is_twos and combo.kind is not Kind.FOUR and combo.size == len(hand)

    def stranded(self, combo: Combo, hand: Sequence[Card]) -> bool:
        """Playing ``combo`` would leave only 2s (then going out is thối)."""
        rest = [c for c in hand if c not in combo.cards]
        return bool(rest) and len(rest) < 4 and all(climb_rank(c) == 12 for c in rest)

    def protected(self, hand: Sequence[Card]) -> set[Card]:
        """2s and fours of a kind (Sâm has no đôi thông)."""
        keep = {c for c in hand if climb_rank(c) == 12}
        counts: dict[int, list[Card]] = {}
        for card in hand:
            counts.setdefault(climb_rank(card), []).append(card)
        for cards in counts.values():
            if len(cards) == 4:
                keep.update(cards)
        return keep


def _unbeatable(combo: Combo, unseen_counts: Sequence[int]) -> bool:
    """No unseen cards make a higher play of the same type and size (cuts aside)."""
    if combo.kind in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.FOUR):
        return all(unseen_counts[r] < combo.size for r in range(combo.key + 1, 13))
    if combo.kind is Kind.STRAIGHT:
        at = [11, 12, *range(0, 11), 11]  # sequence position p (1..14) → climbing rank
        length = combo.size
        for top in range(combo.key + 1, 15):
            low = top - length + 1
            possible = low >= 1 and not (low == 1 and top == 14)
            if possible and all(unseen_counts[at[p - 1]] for p in range(low, top + 1)):
                return False
        return True
    return False


def _unseen_counts(hand: frozenset[Card]) -> tuple[int, ...]:
    counts = [0] * 13
    for card in DECK_52:
        if card not in hand:
            counts[climb_rank(card)] += 1
    return tuple(counts)


def _finishes(rest: frozenset[Card]) -> bool:
    """The cards make one play that may lead and is not going out on 2s."""
    whole = SAM.classify(rest)
    return (
        whole is not None
        and SAM.can_lead(whole)
        and not (whole.is_twos and whole.kind is not Kind.FOUR)
    )


@lru_cache(maxsize=65536)
def _safe_from(rest: frozenset[Card], unseen: tuple[int, ...]) -> bool:
    if _finishes(rest):
        return True
    return any(
        combo.size < len(rest)
        and _unbeatable(combo, unseen)
        and _safe_from(rest - frozenset(combo.cards), unseen)
        for combo in SAM.plays(tuple(rest))
    )


def sam_is_safe(hand: frozenset[Card]) -> bool:
    """Whether the hand splits into Sâm plays of which all but the last are unbeatable by
    unseen cards (a play of the same type; cuts aside)."""
    return bool(hand) and _safe_from(hand, _unseen_counts(hand))


def sam_safe_lead(hand: frozenset[Card], plays: Sequence[_Choice]) -> Play | None:
    """A declarer's next lead keeping the plan of :func:`sam_is_safe`, if there is one."""
    unseen = _unseen_counts(hand)
    for action, combo in plays:
        if combo.size == len(hand) and _finishes(hand):
            return action
    for action, combo in plays:
        rest = hand - frozenset(combo.cards)
        if rest and _unbeatable(combo, unseen) and _safe_from(rest, unseen):
            return action
    return None


BOTS = {"tien-len": TienLenBot, "sam-loc": SamBot}
