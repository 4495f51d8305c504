"""Cards: parse/format round-trips, decks, the compact integer form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sanh.cards import (
    DECK_28,
    DECK_36,
    DECK_52,
    Card,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from sanh.errors import NotationError


@given(st.integers(0, 51), st.booleans())
def test_format_parse_round_trip(index: int, symbols: bool) -> None:
    card = Card(index)
    assert parse_card(format_card(card, symbols=symbols)) is card


@pytest.mark.parametrize(
    ("text", "expected"),
    [("As", "As"), ("Td", "Td"), ("10d", "Td"), ("A♠", "As"), ("10♥", "Th"), ("kc", "Kc")],
)
def test_parse_spellings(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "11d", "Asd", "☃s"])
def test_malformed_cards_raise(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


def test_parse_many_and_duplicates() -> None:
    assert format_cards(parse_cards("AsKh 10c,9d")) == "As Kh Tc 9d"
    with pytest.raises(NotationError, match="duplicate"):
        parse_cards("As Kd As")
    assert len(parse_cards("As As", unique=False)) == 2


def test_integer_form() -> None:
    card = Card.of(Rank.ACE, Suit.SPADES)
    assert int(card) == 51 and card.rank is Rank.ACE and card.suit is Suit.SPADES
    assert Card(51) is card
    with pytest.raises(NotationError):
        Card(52)


def test_names() -> None:
    assert parse_card("As").vietnamese == "Át Bích"
    assert parse_card("Qh").pretty == "Q♥"
    assert parse_card("10d").pretty == "10♦"


def test_decks() -> None:
    assert len(set(DECK_52)) == 52
    assert len(DECK_36) == 36 and {c.rank for c in DECK_36} == {
        Rank.ACE,
        *(Rank(r) for r in range(Rank.TWO, Rank.NINE + 1)),
    }
    assert len(DECK_28) == 28 and min(c.rank for c in DECK_28) == Rank.EIGHT
