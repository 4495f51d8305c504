"""Three-card point scoring ("3 cây"): the shared scoring of 3 Cây Gà and Ba Cây Chương.

RULES.md §10.2-10.3, seed 001 ("3 CÂY GÀ", "Ba cây Chương", section 2 of each):

* A hand is three cards of the 36-card deck (A to 9). A counts 1, 2-9 their face value.
* The score is the last digit of the total; a last digit of 0 counts as **10**, the highest
  score ("20 điểm được tính là 10 điểm"). Scores run from 1 to 10.
* Equal scores compare each hand's **top card**: suit first, ♦ > ♥ > ♣ > ♠ (*rô > cơ > tép >
  bích*), then within the suit 9 > 8 > ... > 2 > A, except that **A♦ is the highest card of
  all** ("A rô to nhất"). Two different hands never tie.

:func:`ba_cay_rank` packs the score and the top card into one integer: higher is stronger.

>>> from sanh.cards import parse_cards
>>> ba_cay_score(parse_cards("8d As Ac"))
10
>>> ba_cay_score(parse_cards("9h 9s 4c"))
2
>>> ba_cay_rank(parse_cards("7d 2h Ad")) > ba_cay_rank(parse_cards("8d As Ac"))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sanh.cards.card import Card, Rank, Suit

__all__ = [
    "SUIT_ORDER",
    "ba_cay_rank",
    "ba_cay_score",
    "card_order",
    "card_points",
    "top_card",
]

SUIT_ORDER: dict[Suit, int] = {Suit.SPADES: 0, Suit.CLUBS: 1, Suit.HEARTS: 2, Suit.DIAMONDS: 3}
"""The 3-card games' suit order: ♦ (3) > ♥ (2) > ♣ (1) > ♠ (0)."""


def card_points(card: Card) -> int:
    """A card's points: A = 1, 2-9 face value, 10/J/Q/K = 10 (not in the 36-card deck).

    >>> from sanh.cards import parse_card
    >>> card_points(parse_card("Ah")), card_points(parse_card("7c"))
    (1, 7)
    """
    rank = card.rank
    if rank is Rank.ACE:
        return 1
    if rank <= Rank.NINE:
        return int(rank) + 2
    return 10


def ba_cay_score(cards: Iterable[Card]) -> int:
    """The score of a hand: the last digit of the total, 0 counting as 10 (so 1..10)."""
    digit = sum(card_points(c) for c in cards) % 10
    return 10 if digit == 0 else digit


def card_order(card: Card) -> int:
    """A card's strength for tie-breaks: suit first (♦ > ♥ > ♣ > ♠), then 9 > ... > 2 > A.

    A♦ is above every other card (39); A♠ is the lowest (0).

    :raises ValueError: for a 10, J, Q or K (not in the 36-card deck).

    >>> from sanh.cards import parse_cards
    >>> [card_order(c) for c in parse_cards("As 9s Ah Ad 9d")]
    [0, 8, 20, 39, 38]
    """
    suit = SUIT_ORDER[card.suit]
    rank = card.rank
    if rank is Rank.ACE:
        return 39 if card.suit is Suit.DIAMONDS else suit * 10
    if rank > Rank.NINE:
        raise ValueError(f"{card} is not in the 36-card deck")
    return suit * 10 + int(rank) + 1  # 2 -> 1 ... 9 -> 8


def top_card(cards: Sequence[Card]) -> Card:
    """The hand's strongest card by :func:`card_order` (the tie-break card)."""
    if not cards:
        raise ValueError("an empty hand has no top card")
    return max(cards, key=card_order)


def ba_cay_rank(cards: Sequence[Card]) -> int:
    """A total order on three-card hands: score first, then the top card. Higher is stronger.

    :raises ValueError: unless the hand has exactly three cards.
    """
    if len(cards) != 3:
        raise ValueError(f"a 3 cây hand has 3 cards, not {len(cards)}")
    return ba_cay_score(cards) * 64 + card_order(top_card(cards))
