"""Cards, decks and fair randomness."""

from __future__ import annotations

from sanh.cards.card import (
    Card,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from sanh.cards.deck import DECK_28, DECK_36, DECK_52, DECKS, deck_of
from sanh.cards.rng import (
    ProvablyFairRng,
    Rng,
    SeededRng,
    SystemRng,
    commitment_of,
    new_server_seed,
    roll_dice,
    shuffled,
)

__all__ = [
    "DECKS",
    "DECK_28",
    "DECK_36",
    "DECK_52",
    "Card",
    "ProvablyFairRng",
    "Rank",
    "Rng",
    "SeededRng",
    "Suit",
    "SystemRng",
    "commitment_of",
    "deck_of",
    "format_card",
    "format_cards",
    "new_server_seed",
    "parse_card",
    "parse_cards",
    "roll_dice",
    "shuffled",
]
