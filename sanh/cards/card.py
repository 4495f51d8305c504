"""Ranks, suits and cards, with a compact integer form.

A card is an ``int`` subclass: ``rank * 4 + suit`` with ranks 2..A as 0..12 and suits
clubs, diamonds, hearts, spades as 0..3. The integer form is what evaluators index with;
the class adds parsing and formatting. ``parse_card`` accepts "As", "Td", "10d", "A♠" and
"a s"; ``format_card`` writes "As" (or "A♠" with ``symbols=True``), and the two round-trip.

>>> parse_card("10d") == parse_card("Td")
True
>>> str(parse_card("A♠"))
'As'
>>> [str(c) for c in parse_cards("As Kh 10c")]
['As', 'Kh', 'Tc']
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from sanh import texts
from sanh.errors import NotationError

__all__ = [
    "Card",
    "Rank",
    "Suit",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
]


class Rank(IntEnum):
    """Card ranks, weakest to strongest in poker order (A also plays low where a game says so)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """One-character symbol: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_CHARS[self]

    @property
    def label(self) -> str:
        """Display label: ``10`` for ten, else :attr:`char`."""
        return "10" if self is Rank.TEN else self.char

    @property
    def vietnamese(self) -> str:
        """The Vietnamese name used at the table (``Át``, ``Già``, ``Đầm``, ``Bồi`` ...)."""
        return _RANK_VI[self]


class Suit(IntEnum):
    """Suits. The integer order is only an encoding; each game states its own suit order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """One-letter symbol: ``c``, ``d``, ``h``, ``s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The card symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def vietnamese(self) -> str:
        """The Vietnamese suit name: Chuồn (Tép), Rô, Cơ, Bích."""
        return ("Chuồn", "Rô", "Cơ", "Bích")[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_RANK_CHARS = "23456789TJQKA"
_RANK_VI = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Bồi", "Đầm", "Già", "Át")
_SUIT_ALIASES = {
    "c": 0,
    "♣": 0,
    "♧": 0,
    "d": 1,
    "♦": 1,
    "♢": 1,
    "h": 2,
    "♥": 2,
    "♡": 2,
    "s": 3,
    "♠": 3,
    "♤": 3,
}


class Card(int):
    """A playing card; an ``int`` equal to ``rank * 4 + suit`` (0..51).

    Instances are interned: ``Card(5) is Card(5)``.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        try:
            return _CARDS[value]
        except (IndexError, TypeError):
            raise NotationError(f"card index out of range: {value!r}") from None

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of this rank and suit."""
        return _CARDS[int(rank) * 4 + int(suit)]

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return _RANK_OF[self]

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return _SUIT_OF[self]

    def __str__(self) -> str:
        return _RANK_CHARS[self >> 2] + "cdhs"[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def pretty(self) -> str:
        """Display form with the suit symbol: ``10♦``."""
        return self.rank.label + self.suit.symbol

    @property
    def vietnamese(self) -> str:
        """Vietnamese display name: ``Át Bích``."""
        return f"{self.rank.vietnamese} {self.suit.vietnamese}"


def _make(value: int) -> Card:
    card = int.__new__(Card, value)
    return card


_CARDS: list[Card] = [_make(i) for i in range(52)]
# Each card's rank and suit members, so that ``.rank`` and ``.suit`` are one index, not an
# enum lookup per call.
_RANK_OF: tuple[Rank, ...] = tuple(Rank(i >> 2) for i in range(52))
_SUIT_OF: tuple[Suit, ...] = tuple(Suit(i & 3) for i in range(52))


def parse_card(text: str) -> Card:
    """Parse one card: a rank (``2``-``9``, ``T``/``10``, ``J``, ``Q``, ``K``, ``A``) and a suit.

    :raises NotationError: if the text is not a card.
    """
    raw = text.strip().replace(" ", "")
    if len(raw) < 2:
        raise NotationError(f"not a card: {text!r}")
    rank_text, suit_text = raw[:-1], raw[-1]
    suit = _SUIT_ALIASES.get(suit_text.lower())
    rank_key = rank_text.upper()
    if rank_key == "10":
        rank_key = "T"
    if suit is None or len(rank_key) != 1 or rank_key not in _RANK_CHARS:
        raise NotationError(f"not a card: {text!r}")
    return _CARDS[_RANK_CHARS.index(rank_key) * 4 + suit]


def parse_cards(text: str, *, unique: bool = True) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, or run together ("AsKh", "10d9c").

    :raises NotationError: on a malformed card, or a repeated card when ``unique``.
    """
    cards: list[Card] = []
    for token in text.replace(",", " ").split():
        cards.extend(_split_run(token))
    if unique:
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise NotationError(f"duplicate card {card} in {text!r}")
            seen.add(card)
    return tuple(cards)


def _split_run(token: str) -> list[Card]:
    out: list[Card] = []
    i = 0
    while i < len(token):
        j = i + 3 if token[i : i + 2] == "10" else i + 2
        if j > len(token):
            raise NotationError(f"not a card: {token[i:]!r} in {token!r}")
        out.append(parse_card(token[i:j]))
        i = j
    return out


def format_card(card: int, *, symbols: bool = False) -> str:
    """Format a card: ``As`` (or ``A♠`` with ``symbols``)."""
    c = _CARDS[card]
    return c.pretty if symbols else str(c)


def format_cards(cards: Iterable[int], *, symbols: bool = False, sep: str = " ") -> str:
    """Format several cards separated by ``sep``."""
    return sep.join(format_card(c, symbols=symbols) for c in cards)


texts.register_cards(Card, parse_card)  # cards in text codes (``eats:1:Ks``): sanh/texts.py
