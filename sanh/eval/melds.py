"""Phỏm melds and the exact meld arranger (RULES.md §9.2, seed 001 "Luật chơi Phỏm").

A **meld** (*phỏm*) is three or four cards of one rank, or three or more consecutive cards of one
suit. Ranks run A (low, 1 point) to K (13 points); A is low only, so A-2-3 is a run and Q-K-A is
not. Cards in no meld are **deadwood** (*bài rác*); their points are what a player keeps at the
end.

The arranger finds, exactly, the arrangements (sets of disjoint melds) that leave the fewest
deadwood points, under the eating constraints of §9.3: every **eaten** card must be in a meld,
and no meld may hold two eaten cards. It is a memoised search over bitmasks of the hand: the
lowest card left is either deadwood or in one of the few melds that start with it.

>>> from sanh.cards import parse_cards
>>> hand = parse_cards("Ah 2h 3h 4h 7s 7c 7d Kc Qd Js")
>>> best = best_arrangement(hand)
>>> [format_meld(m) for m in best.melds], best.points
(['Ah2h3h4h', '7s7c7d'], 36)
>>> best_arrangement(parse_cards("5h 6h 7h 7s 7c"), eaten=parse_cards("7h 7s")) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

from sanh.cards.card import Card, Rank, Suit

__all__ = [
    "PHOM_SUIT_ORDER",
    "Arrangement",
    "all_arrangements",
    "best_arrangement",
    "best_arrangements",
    "can_extend",
    "candidate_melds",
    "card_points",
    "deadwood_points",
    "format_meld",
    "is_meld",
    "maximal_arrangements",
    "meld_key",
    "most_melded",
    "phom_rank",
    "sort_cards",
]

PHOM_SUIT_ORDER: dict[Suit, int] = {Suit.SPADES: 0, Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 3}
"""Phỏm's suit order, seed 001: ♥ (3) > ♦ (2) > ♣ (1) > ♠ (0)."""

_INF = 1 << 30


def phom_rank(card: Card) -> int:
    """The Phỏm rank of a card: A = 1, 2..10, J = 11, Q = 12, K = 13.

    >>> from sanh.cards import parse_card
    >>> phom_rank(parse_card("As")), phom_rank(parse_card("Kd"))
    (1, 13)
    """
    return _PHOM_RANK[card.rank]


_PHOM_RANK: tuple[int, ...] = tuple(1 if rank is Rank.ACE else int(rank) + 2 for rank in Rank)


def card_points(card: Card) -> int:
    """A card's deadwood points (A = 1 ... K = 13; RULES.md §9.1, A-PH1)."""
    return phom_rank(card)


def meld_key(card: Card) -> tuple[int, int]:
    """Sort key: Phỏm rank, then suit (♠ < ♣ < ♦ < ♥)."""
    return _MELD_KEY[card] if type(card) is Card else (phom_rank(card), PHOM_SUIT_ORDER[card.suit])


_MELD_KEY: tuple[tuple[int, int], ...] = tuple(
    (_PHOM_RANK[card.rank], PHOM_SUIT_ORDER[card.suit]) for card in map(Card, range(52))
)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in Phỏm order (rank A..K, then suit)."""
    return tuple(sorted(cards, key=meld_key))


def format_meld(cards: Iterable[Card]) -> str:
    """Cards written together: ``Ah2h3h``."""
    return "".join(str(c) for c in cards)


def is_meld(cards: Sequence[Card]) -> bool:
    """Whether the cards form a meld: 3-4 of a rank, or 3+ consecutive of one suit (A low).

    >>> from sanh.cards import parse_cards
    >>> is_meld(parse_cards("Ah 2h 3h")), is_meld(parse_cards("Qh Kh Ah"))
    (True, False)
    """
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    ranks = sorted(phom_rank(c) for c in cards)
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if len({c.suit for c in cards}) != 1:
        return False
    return all(b == a + 1 for a, b in pairwise(ranks))


def can_extend(meld: Sequence[Card], card: Card) -> bool:
    """Whether ``card`` can be sent (*gửi*) onto the laid-down ``meld``.

    A set of three takes its fourth card; a run takes the next card of its suit at either end.

    >>> from sanh.cards import parse_cards
    >>> run = parse_cards("4h 5h 6h")
    >>> [can_extend(run, c) for c in parse_cards("3h 7h 8h 7d")]
    [True, True, False, False]
    """
    if card in meld or not is_meld(meld):
        return False
    return is_meld((*meld, card))


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Disjoint melds chosen from a hand, and the deadwood left over."""

    melds: tuple[tuple[Card, ...], ...]
    """The melds, each sorted by :func:`meld_key`, in order of their first card."""
    deadwood: tuple[Card, ...]
    """Cards in no meld, sorted."""

    @property
    def points(self) -> int:
        """The deadwood points."""
        return sum(card_points(c) for c in self.deadwood)

    @property
    def melded(self) -> tuple[Card, ...]:
        """Every card in a meld."""
        return tuple(c for meld in self.melds for c in meld)


class _Hand:
    """A hand indexed for bitmask search (cards sorted by :func:`meld_key`)."""

    __slots__ = ("by_low", "cards", "eaten", "full", "memo", "most_memo", "points")

    def __init__(self, cards: Iterable[Card], eaten: Iterable[Card]) -> None:
        ordered = sorted(cards, key=meld_key)
        if len(set(ordered)) != len(ordered):
            raise ValueError("a hand holds each card once")
        self.cards = ordered
        position = {c: i for i, c in enumerate(ordered)}
        eaten_mask = 0
        for card in eaten:
            if card not in position:
                raise ValueError(f"eaten card {card} is not in the hand")
            eaten_mask |= 1 << position[card]
        self.eaten = eaten_mask
        self.full = (1 << len(ordered)) - 1
        self.points = [phom_rank(c) for c in ordered]
        self.by_low: list[list[int]] = [[] for _ in ordered]
        for mask in _meld_masks(ordered):
            if (mask & eaten_mask) & ((mask & eaten_mask) - 1):
                continue  # two eaten cards in one meld
            low = (mask & -mask).bit_length() - 1
            self.by_low[low].append(mask)
        self.memo: dict[int, int] = {0: 0}
        self.most_memo: dict[int, tuple[int, int]] = {0: (0, 0)}

    def best(self, mask: int) -> int:
        """The fewest deadwood points of the cards in ``mask`` (``_INF``: impossible)."""
        memo = self.memo
        result = memo.get(mask)
        if result is not None:
            return result
        low = mask & -mask
        index = low.bit_length() - 1
        result = _INF
        if not self.eaten & low:
            result = self.points[index] + self.best(mask ^ low)
        for meld in self.by_low[index]:
            if meld & mask == meld:
                value = self.best(mask ^ meld)
                if value < result:
                    result = value
        memo[mask] = result
        return result

    def most(self, mask: int) -> tuple[int, int]:
        """The most melded cards of ``mask``, then the fewest deadwood points, as
        ``(-melded, points)`` (minimised; ``(_INF, _INF)``: impossible)."""
        memo = self.most_memo
        result = memo.get(mask)
        if result is not None:
            return result
        low = mask & -mask
        index = low.bit_length() - 1
        result = (_INF, _INF)
        if not self.eaten & low:
            count, points = self.most(mask ^ low)
            result = (count, points + self.points[index])
        for meld in self.by_low[index]:
            if meld & mask == meld:
                count, points = self.most(mask ^ meld)
                if count >= _INF:
                    continue
                value = (count - meld.bit_count(), points)
                if value < result:
                    result = value
        memo[mask] = result
        return result

    def most_packing(self, mask: int) -> list[int]:
        """A packing reaching :meth:`most` (which must be possible)."""
        if mask == 0:
            return []
        target = self.most(mask)
        low = mask & -mask
        index = low.bit_length() - 1
        for meld in self.by_low[index]:
            if meld & mask == meld:
                count, points = self.most(mask ^ meld)
                if count < _INF and (count - meld.bit_count(), points) == target:
                    return [meld, *self.most_packing(mask ^ meld)]
        return self.most_packing(mask ^ low)

    def optimal(self, mask: int, target: int) -> Iterator[list[int]]:
        """Every packing of ``mask`` with exactly ``target`` deadwood points (the optimum)."""
        if mask == 0:
            if target == 0:
                yield []
            return
        low = mask & -mask
        index = low.bit_length() - 1
        if not self.eaten & low:
            rest_target = target - self.points[index]
            if rest_target >= 0 and self.best(mask ^ low) == rest_target:
                yield from self.optimal(mask ^ low, rest_target)
        for meld in self.by_low[index]:
            if meld & mask == meld and self.best(mask ^ meld) == target:
                for rest in self.optimal(mask ^ meld, target):
                    yield [meld, *rest]

    def packings(self, mask: int) -> Iterator[list[int]]:
        """Every packing of ``mask`` into melds and deadwood that covers the eaten cards."""
        if mask == 0:
            yield []
            return
        if self.best(mask) >= _INF:
            return
        low = mask & -mask
        index = low.bit_length() - 1
        if not self.eaten & low:
            yield from self.packings(mask ^ low)
        for meld in self.by_low[index]:
            if meld & mask == meld:
                for rest in self.packings(mask ^ meld):
                    yield [meld, *rest]

    def arrangement(self, melds: Sequence[int]) -> Arrangement:
        """The :class:`Arrangement` of a packing."""
        used = 0
        groups = []
        for meld in sorted(melds, key=lambda m: m & -m):
            used |= meld
            groups.append(tuple(self.cards[i] for i in range(len(self.cards)) if meld >> i & 1))
        deadwood = tuple(self.cards[i] for i in range(len(self.cards)) if not used >> i & 1)
        return Arrangement(tuple(groups), deadwood)


def _meld_masks(cards: Sequence[Card]) -> list[int]:
    """Every meld among ``cards`` (indexed by position) as a bitmask."""
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[Suit, list[tuple[int, int]]] = {}
    for i, card in enumerate(cards):
        rank = phom_rank(card)
        by_rank.setdefault(rank, []).append(i)
        by_suit.setdefault(card.suit, []).append((rank, i))
    masks: list[int] = []
    for group in by_rank.values():
        if len(group) >= 3:
            for size in range(3, len(group) + 1):
                for combo in combinations(group, size):
                    masks.append(sum(1 << i for i in combo))
    for suited in by_suit.values():
        suited.sort()
        segment: list[int] = []
        last = -1
        for rank, i in [*suited, (99, -1)]:
            if rank == last + 1 and i >= 0:
                segment.append(i)
            else:
                for start in range(len(segment) - 2):
                    mask = 0
                    for stop in range(start, len(segment)):
                        mask |= 1 << segment[stop]
                        if stop - start >= 2:
                            masks.append(mask)
                segment = [i]
            last = rank
    return masks


def candidate_melds(cards: Iterable[Card]) -> tuple[tuple[Card, ...], ...]:
    """Every meld that can be made from ``cards`` (overlapping ones included)."""
    hand = _Hand(cards, ())
    return tuple(
        tuple(hand.cards[i] for i in range(len(hand.cards)) if mask >> i & 1)
        for masks in hand.by_low
        for mask in masks
    )


_MEMO_SIZE = 4096
_MEMO: dict[tuple[str, tuple[Card, ...], tuple[Card, ...], int], Any] = {}


def _memo_key(
    name: str, cards: Iterable[Card], eaten: Iterable[Card], extra: int = 0
) -> tuple[tuple[str, tuple[Card, ...], tuple[Card, ...], int] | None, Any, Any]:
    """The memo key of a call on these cards (``None`` unless all are :class:`Card`: the results
    hold the caller's own card objects), and the cards as tuples."""
    cards = tuple(cards)
    eaten = tuple(eaten)
    if all(type(c) is Card for c in cards) and all(type(c) is Card for c in eaten):
        return (name, cards, eaten, extra), cards, eaten
    return None, cards, eaten


def _remember(key: tuple[str, tuple[Card, ...], tuple[Card, ...], int] | None, value: Any) -> None:
    if key is not None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = value


def deadwood_points(cards: Iterable[Card], eaten: Iterable[Card] = ()) -> int | None:
    """The fewest deadwood points of a hand (``None`` if the eaten cards cannot all be melded).

    Remembered per hand (as for :func:`most_melded` and :func:`maximal_arrangements`: the
    engine asks about the same hand several times an event); a hand that is refused (a card
    twice) raises every time."""
    key, cards, eaten = _memo_key("deadwood", cards, eaten)
    if key is not None and key in _MEMO:
        cached: int | None = _MEMO[key]
        return cached
    value = _deadwood_points(cards, eaten)
    _remember(key, value)
    return value


def _deadwood_points(cards: Iterable[Card], eaten: Iterable[Card]) -> int | None:
    hand = _Hand(cards, eaten)
    value = hand.best(hand.full)
    return None if value >= _INF else value


def best_arrangement(cards: Iterable[Card], eaten: Iterable[Card] = ()) -> Arrangement | None:
    """One arrangement with the fewest deadwood points, or ``None`` if the eaten cards cannot all
    be melded (each in its own meld).

    Among equal arrangements it returns the first of :func:`best_arrangements`.
    """
    hand = _Hand(cards, eaten)
    value = hand.best(hand.full)
    if value >= _INF:
        return None
    return hand.arrangement(next(hand.optimal(hand.full, value)))


def best_arrangements(cards: Iterable[Card], eaten: Iterable[Card] = ()) -> tuple[Arrangement, ...]:
    """Every arrangement with the fewest deadwood points (the player may choose among them).

    Empty if the eaten cards cannot all be melded.
    """
    hand = _Hand(cards, eaten)
    value = hand.best(hand.full)
    if value >= _INF:
        return ()
    return tuple(hand.arrangement(p) for p in hand.optimal(hand.full, value))


def most_melded(cards: Iterable[Card], eaten: Iterable[Card] = ()) -> Arrangement | None:
    """An arrangement melding as many cards as possible (fewest deadwood points among those).

    This is the Ù test (§9.5): 10 cards with 9 melded is Ù thường, all 10 Ù tròn. It differs
    from :func:`best_arrangement`, which minimises points: K + 8 melds is Ù, 8 melds + A + 2
    has fewer points. ``None`` if the eaten cards cannot all be melded.

    >>> from sanh.cards import parse_cards
    >>> hand = parse_cards("Ah 2h 3h 4s 5s 6s 9c 9d 9s Kc")
    >>> len(most_melded(hand).melded)
    9
    """
    key, cards, eaten = _memo_key("most", cards, eaten)
    if key is not None and key in _MEMO:
        cached: Arrangement | None = _MEMO[key]
        return cached
    value = _most_melded(cards, eaten)
    _remember(key, value)
    return value


def _most_melded(cards: Iterable[Card], eaten: Iterable[Card]) -> Arrangement | None:
    hand = _Hand(cards, eaten)
    if hand.most(hand.full)[0] >= _INF:
        return None
    return hand.arrangement(hand.most_packing(hand.full))


def all_arrangements(
    cards: Iterable[Card], eaten: Iterable[Card] = (), *, min_left: int = 0
) -> tuple[Arrangement, ...]:
    """Every arrangement (the empty one included) that melds every eaten card, keeping at least
    ``min_left`` cards out of the melds."""
    hand = _Hand(cards, eaten)
    size = len(hand.cards)
    out = []
    for packing in hand.packings(hand.full):
        melded = sum(m.bit_count() for m in packing)
        if size - melded >= min_left:
            out.append(hand.arrangement(packing))
    return tuple(out)


def maximal_arrangements(
    cards: Iterable[Card], eaten: Iterable[Card] = (), *, min_left: int = 0
) -> tuple[Arrangement, ...]:
    """The ways to lay down *all* one's melds: arrangements of :func:`all_arrangements` whose
    melded cards are not a strict subset of another's (no card could still join a meld).

    Splitting the same cards differently gives different arrangements; all are returned.
    """
    key, cards, eaten = _memo_key("maximal", cards, eaten, min_left)
    if key is not None and key in _MEMO:
        cached: tuple[Arrangement, ...] = _MEMO[key]
        return cached
    value = _maximal_arrangements(cards, eaten, min_left)
    _remember(key, value)
    return value


def _maximal_arrangements(
    cards: Iterable[Card], eaten: Iterable[Card], min_left: int
) -> tuple[Arrangement, ...]:
    hand = _Hand(cards, eaten)
    size = len(hand.cards)
    packings: list[tuple[int, list[int]]] = []
    for packing in hand.packings(hand.full):
        used = 0
        for meld in packing:
            used |= meld
        if size - used.bit_count() >= min_left:
            packings.append((used, packing))
    covers = {used for used, _ in packings}
    maximal = {u for u in covers if not any(v != u and v & u == u for v in covers)}
    return tuple(hand.arrangement(p) for used, p in packings if used in maximal)
