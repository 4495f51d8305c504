"""The decks the games use: 52 cards, 36 cards (A-9, for 3 Cây) and 28 cards (8-A, for Xì tố)."""

from __future__ import annotations

from sanh.cards.card import Card, Rank

__all__ = ["DECKS", "DECK_28", "DECK_36", "DECK_52", "deck_of"]

DECK_52: tuple[Card, ...] = tuple(Card(i) for i in range(52))
"""The standard deck, in index order."""

DECK_36: tuple[Card, ...] = tuple(
    c for c in DECK_52 if c.rank == Rank.ACE or Rank.TWO <= c.rank <= Rank.NINE
)
"""A and 2-9 of every suit: the deck of 3 Cây Gà and Ba Cây Chương."""

DECK_28: tuple[Card, ...] = tuple(c for c in DECK_52 if c.rank >= Rank.EIGHT)
"""8, 9, 10, J, Q, K, A of every suit: the deck of Xì tố."""

DECKS: dict[str, tuple[Card, ...]] = {"52": DECK_52, "36": DECK_36, "28": DECK_28}


def deck_of(name: str) -> tuple[Card, ...]:
    """The deck named ``"52"``, ``"36"`` or ``"28"``."""
    return DECKS[name]
