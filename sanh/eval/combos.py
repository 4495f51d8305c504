"""Combinations of the climbing games: Tiến lên miền Nam (RULES.md §12) and Sâm Lốc (§7).

One engine with two rule families, :data:`TIEN_LEN` and :data:`SAM`. A family says what a set of
cards is (:meth:`Family.classify`), which play beats which, cuts (*chặt*) included
(:meth:`Family.beats`, :meth:`Family.is_cut`), and lists every legal play of a hand against the
play on the table (:meth:`Family.plays`, exact: every card subset that is a legal play appears
once). Chained cuts (*chặt đè*) and who pays whom are :func:`tien_len_chain` and
:func:`sam_chain`; the card-count penalties and the instant-win hands are here too.

Glossary (Vietnamese → code): *lá* single card → ``SINGLE``; *đôi* → ``PAIR``; *sám* (*bộ ba*)
→ ``TRIPLE``; *sảnh* (Tiến lên), *bộ dọc* (Sâm) → ``STRAIGHT``; *đôi thông* (consecutive pairs)
→ ``PAIR_STRAIGHT``; *tứ quý* → ``FOUR``; *hai tứ quý* (Sâm, cuts a pair of 2s) →
``DOUBLE_FOUR``; *heo* a 2; *chặt* cut; *chặt đè* / *đè* over-cut.

Rank order in both games: 3 < 4 < … < K < A < 2 (:func:`climb_rank`). Tiến lên breaks equal
ranks by suit ♠ < ♣ < ♦ < ♥ and compares plays of one type and size by their highest card;
in Sâm suits never count and sequences compare by their top position (A low = 1, 2 = 2, …,
K = 13, A high = 14; RULES.md §7.2).

>>> from sanh.cards import parse_cards
>>> TIEN_LEN.classify(parse_cards("3s 4c 5d")).kind
<Kind.STRAIGHT: 'straight'>
>>> TIEN_LEN.classify(parse_cards("Ks Ah 2d")) is None  # no 2 in a Tiến lên straight
True
>>> SAM.classify(parse_cards("Ah 2c 3d")).kind  # A-2-3 is a Sâm sequence
<Kind.STRAIGHT: 'straight'>
>>> TIEN_LEN.beats(TIEN_LEN.classify(parse_cards("4s 4c 5d 5h 6s 6c")),
...                TIEN_LEN.classify(parse_cards("2h")))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, product

from sanh.cards.card import Card

__all__ = [
    "SAM",
    "SAM_INSTANT_WINS",
    "TIEN_LEN",
    "TWO",
    "Combo",
    "CutPayment",
    "Family",
    "Kind",
    "Penalty",
    "SamFamily",
    "TienLenFamily",
    "climb_rank",
    "sam_chain",
    "sam_instant_win",
    "sam_link_value",
    "tien_len_chain",
    "tien_len_instant_win",
    "tien_len_item_value",
    "tien_len_penalty",
    "two_value",
]

TWO = 12
"""The climbing rank of a 2 (*heo*), the highest rank."""

_NO_TWO_TOP = 11  # A: the highest rank a Tiến lên straight or pair straight may reach


class Kind(StrEnum):
    """Types of play."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    STRAIGHT = "straight"
    """*Sảnh* (Tiến lên) or *bộ dọc* (Sâm): 3 or more consecutive ranks."""
    PAIR_STRAIGHT = "pair_straight"
    """*Đôi thông*: 3 or more consecutive pairs (Tiến lên only)."""
    FOUR = "four"
    """*Tứ quý*: four cards of one rank."""
    DOUBLE_FOUR = "double_four"
    """Two fours of a kind played together (Sâm only; cuts a pair of 2s)."""


def climb_rank(card: int) -> int:
    """The rank in climbing order: 3 → 0, 4 → 1, …, K → 10, A → 11, 2 → 12.

    >>> from sanh.cards import parse_card
    >>> climb_rank(parse_card("3s")), climb_rank(parse_card("As")), climb_rank(parse_card("2d"))
    (0, 11, 12)
    """
    return ((card >> 2) + 12) % 13


def two_value(card: int) -> int:
    """The *heo* value of a 2: 5 for a black 2 (♠ ♣), 10 for a red 2 (♦ ♥); 0 otherwise."""
    if card >> 2 != 0:
        return 0
    return 10 if (card & 3) in (1, 2) else 5


@dataclass(frozen=True, slots=True)
class Combo:
    """A play: its type, its cards (weakest first) and its strength key.

    Two plays of the same kind and the same number of cards compare by ``key`` (higher wins).
    """

    kind: Kind
    cards: tuple[Card, ...]
    key: int
    """Tiến lên: the strength of the highest card (rank * 4 + suit, ♠ < ♣ < ♦ < ♥). Sâm: the
    rank (3 = 0 … 2 = 12), a sequence's top position (A low = 1 … A high = 14), or for two
    fours ``high * 13 + low``."""

    @property
    def size(self) -> int:
        """The number of cards."""
        return len(self.cards)

    @property
    def is_twos(self) -> bool:
        """True if every card is a 2 (a single, pair or triple of 2s)."""
        return all(card >> 2 == 0 for card in self.cards)

    @property
    def pairs(self) -> int:
        """For a pair straight, the number of pairs (3 đôi thông → 3); otherwise 0."""
        return self.size // 2 if self.kind is Kind.PAIR_STRAIGHT else 0

    def __str__(self) -> str:
        return f"{self.kind.value} " + "".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class CutPayment:
    """Who pays whom for a chain of cuts in one trick, as indices into the trick's plays."""

    payer: int
    """Index of the last play that was cut (its owner pays)."""
    payee: int
    """Index of the last cutter (its owner is paid)."""
    amount: int
    """In lá (× the bet level L)."""
    victims: tuple[int, ...]
    """Indices of every play cut in the chain, first to last."""


class Family:
    """A rule family: which card sets are plays, which play beats which, every legal play."""

    name: str = ""

    def strength(self, card: int) -> int:
        """The order key of one card (higher is stronger)."""
        raise NotImplementedError

    def classify(self, cards: Iterable[int]) -> Combo | None:
        """The play these cards make, or ``None`` if they are no legal combination."""
        raise NotImplementedError

    def beats(self, play: Combo, table: Combo) -> bool:
        """Whether ``play`` may be played on ``table`` (a higher play of its type, or a cut)."""
        raise NotImplementedError

    def is_cut(self, play: Combo, table: Combo) -> bool:
        """Whether ``play`` beating ``table`` is a cut (*chặt*) that carries a payment."""
        raise NotImplementedError

    def can_lead(self, combo: Combo) -> bool:
        """Whether ``combo`` may start a trick."""
        return True

    def plays(self, hand: Sequence[int], table: Combo | None = None) -> tuple[Combo, ...]:
        """Every legal play from ``hand``: any lead if ``table`` is ``None``, else every play
        that beats ``table``. Each card subset appears once, in a deterministic order."""
        raise NotImplementedError

    def sort(self, cards: Iterable[int]) -> tuple[Card, ...]:
        """Cards weakest first in this family's order."""
        return tuple(Card(c) for c in sorted(cards, key=self.strength))

    def _groups(self, hand: Sequence[int]) -> list[list[Card]]:
        groups: list[list[Card]] = [[] for _ in range(13)]
        for card in self.sort(hand):
            groups[climb_rank(card)].append(card)
        return groups


def _same_type_beats(play: Combo, table: Combo) -> bool:
    return play.kind is table.kind and play.size == table.size and play.key > table.key


_CARD: tuple[Card, ...] = tuple(Card(value) for value in range(52))
_CLIMB: tuple[int, ...] = tuple(climb_rank(value) for value in range(52))
_TL_STRENGTH: tuple[int, ...] = tuple(
    _CLIMB[value] * 4 + ((value & 3) + 1) % 4 for value in range(52)
)
"""Tiến lên strength of each card (:meth:`TienLenFamily.strength`), for the hot loops."""


_TL_CLASSIFIED: dict[tuple[int, ...], Combo | None] = {}


class TienLenFamily(Family):
    """Tiến lên miền Nam (RULES.md §12.2; seed 001 "Luật chặt").

    Straights and pair straights run from 3 to A (no 2, A high only). Cuts: 3 đôi thông beat a
    single 2 or a lower 3 đôi thông; a tứ quý beats a single 2, a pair of 2s, any 3 đôi thông
    or a lower tứ quý; 4 đôi thông beat a single 2, a pair of 2s, any 3 đôi thông, a tứ quý
    or lower 4 đôi thông.
    """

    name = "tien-len"

    def strength(self, card: int) -> int:
        """``climb_rank * 4 + suit`` with ♠ 0 < ♣ 1 < ♦ 2 < ♥ 3: 3♠ = 0 … 2♥ = 51."""
        return climb_rank(card) * 4 + ((card & 3) + 1) % 4

    def sort(self, cards: Iterable[int]) -> tuple[Card, ...]:
        """Cards weakest first (3♠ … 2♥)."""
        cards = list(cards)
        try:
            return tuple(sorted([_CARD[c] for c in cards], key=_TL_STRENGTH.__getitem__))
        except (IndexError, TypeError):  # not cards: the general path says why
            return super().sort(cards)

    def _groups(self, hand: Sequence[int]) -> list[list[Card]]:
        groups: list[list[Card]] = [[] for _ in range(13)]
        climb = _CLIMB
        for card in self.sort(hand):
            groups[climb[card]].append(card)
        return groups

    def classify(self, cards: Iterable[int]) -> Combo | None:
        """The Tiến lên play these cards make, or ``None``.

        Remembered per card sequence (the engine classifies a play to check it, then to
        apply it); the result's cards are the canonical :class:`Card` objects either way."""
        raw = tuple(cards)
        try:
            return _TL_CLASSIFIED[raw]
        except KeyError:
            pass
        except TypeError:  # unhashable items: not cards, the general path says why
            return self._classify(list(raw))
        combo = self._classify(list(raw))
        if len(_TL_CLASSIFIED) >= 8192:
            _TL_CLASSIFIED.clear()
        _TL_CLASSIFIED[raw] = combo
        return combo

    def _classify(self, raw: list[int]) -> Combo | None:
        ordered = self.sort(set(raw))
        n = len(ordered)
        if n == 0 or n != len(raw):
            return None
        key = _TL_STRENGTH[ordered[-1]]
        ranks = [_CLIMB[c] for c in ordered]
        if n == 1:
            return Combo(Kind.SINGLE, ordered, key)
        if ranks[0] == ranks[-1]:
            kind = {2: Kind.PAIR, 3: Kind.TRIPLE, 4: Kind.FOUR}.get(n)
            return Combo(kind, ordered, key) if kind is not None else None
        if n >= 3 and ranks[-1] <= _NO_TWO_TOP and ranks == list(range(ranks[0], ranks[0] + n)):
            return Combo(Kind.STRAIGHT, ordered, key)
        if (
            n >= 6
            and n % 2 == 0
            and ranks[-1] <= _NO_TWO_TOP
            and ranks[0::2] == ranks[1::2]
            and ranks[0::2] == list(range(ranks[0], ranks[0] + n // 2))
        ):
            return Combo(Kind.PAIR_STRAIGHT, ordered, key)
        return None

    def beats(self, play: Combo, table: Combo) -> bool:
        """Higher play of the same type and size, or a cut (RULES.md §12.2)."""
        if _same_type_beats(play, table):
            return True
        single_two = table.kind is Kind.SINGLE and table.is_twos
        pair_two = table.kind is Kind.PAIR and table.is_twos
        if play.kind is Kind.FOUR:
            return single_two or pair_two or table.pairs == 3
        if play.kind is Kind.PAIR_STRAIGHT:
            if play.pairs == 3:
                return single_two
            return (
                single_two or pair_two or table.kind is Kind.FOUR or 3 <= table.pairs < play.pairs
            )
        return False

    def is_cut(self, play: Combo, table: Combo) -> bool:
        """A cutting play (đôi thông, tứ quý) beating a 2 or a cutting play is a *chặt*."""
        cutter = play.kind in (Kind.FOUR, Kind.PAIR_STRAIGHT)
        victim = (table.kind in (Kind.SINGLE, Kind.PAIR) and table.is_twos) or table.kind in (
            Kind.FOUR,
            Kind.PAIR_STRAIGHT,
        )
        return cutter and victim and self.beats(play, table)

    def plays(self, hand: Sequence[int], table: Combo | None = None) -> tuple[Combo, ...]:
        """Every legal Tiến lên play from ``hand`` against ``table``."""
        groups = self._groups(hand)
        out: list[Combo] = []
        if table is None:
            self._of_rank(groups, 1, Kind.SINGLE, out)
            self._of_rank(groups, 2, Kind.PAIR, out)
            self._of_rank(groups, 3, Kind.TRIPLE, out)
            self._of_rank(groups, 4, Kind.FOUR, out)
            self._straights(groups, 0, out)
            self._pair_straights(groups, 0, out)
            return tuple(out)
        kind, size = table.kind, table.size
        if kind is Kind.SINGLE:
            out.extend(
                Combo(Kind.SINGLE, (c,), s)
                for g in groups
                for c in g
                if (s := _TL_STRENGTH[c]) > table.key
            )
        elif kind in (Kind.PAIR, Kind.TRIPLE, Kind.FOUR):
            self._of_rank(groups, size, kind, out, table.key)
        elif kind is Kind.STRAIGHT:
            self._straights(groups, size, out, table.key)
        elif kind is Kind.PAIR_STRAIGHT:
            self._pair_straights(groups, size, out, table.key)
        # Cuts.
        single_two = kind is Kind.SINGLE and table.is_twos
        pair_two = kind is Kind.PAIR and table.is_twos
        if single_two or pair_two or table.pairs == 3:
            self._of_rank(groups, 4, Kind.FOUR, out)
        if single_two:
            self._pair_straights(groups, 6, out)
        if single_two or pair_two or kind is Kind.FOUR:
            self._pair_straights(groups, -8, out)
        elif kind is Kind.PAIR_STRAIGHT:  # more pairs beat fewer (4 đôi thông on 3)
            self._pair_straights(groups, -(size + 2), out)
        return tuple(out)

    def _of_rank(
        self, groups: list[list[Card]], size: int, kind: Kind, out: list[Combo], above: int = -1
    ) -> None:
        for group in groups:
            if len(group) < size:
                continue
            for cards in combinations(group, size):
                key = _TL_STRENGTH[cards[-1]]
                if key > above:
                    out.append(Combo(kind, cards, key))

    def _straights(
        self, groups: list[list[Card]], size: int, out: list[Combo], above: int = -1
    ) -> None:
        """Straights of ``size`` cards (0: every size) with a key above ``above``."""
        for low in range(_NO_TWO_TOP + 1):
            high = low
            while high <= _NO_TWO_TOP and groups[high]:
                length = high - low + 1
                if length >= 3 and size in (0, length):
                    for tops in groups[high]:
                        key = _TL_STRENGTH[tops]
                        if key <= above:
                            continue
                        for rest in product(*groups[low:high]):
                            out.append(Combo(Kind.STRAIGHT, (*rest, tops), key))
                high += 1

    def _pair_straights(
        self, groups: list[list[Card]], size: int, out: list[Combo], above: int = -1
    ) -> None:
        """Pair straights of ``size`` cards (0: every size; -k: at least k cards)."""
        for low in range(_NO_TWO_TOP + 1):
            high = low
            while high <= _NO_TWO_TOP and len(groups[high]) >= 2:
                cards_count = 2 * (high - low + 1)
                wanted = (
                    cards_count >= 6
                    if size == 0
                    else (cards_count >= -size if size < 0 else cards_count == size)
                )
                if wanted:
                    for top in combinations(groups[high], 2):
                        key = _TL_STRENGTH[top[1]]
                        if key <= above:
                            continue
                        for rest in product(*(combinations(g, 2) for g in groups[low:high])):
                            cards = tuple(c for pair in rest for c in pair) + top
                            out.append(Combo(Kind.PAIR_STRAIGHT, cards, key))
                high += 1


def _sam_positions(ranks: Sequence[int]) -> tuple[int, ...]:
    """Sequence positions of Sâm for climbing ranks (A high = 14; the A low form is tried too)."""
    # climb rank 3..K = 0..10 → positions 3..13; A = 11 → 14 (or 1); 2 = 12 → 2.
    return tuple(r + 3 if r <= 10 else (14 if r == 11 else 2) for r in ranks)


class SamFamily(Family):
    """Sâm Lốc (RULES.md §7.2; seed 001 "Sâm (Lốc)").

    Suits never count. Sequences (*bộ dọc*) run over A-2-3-…-K-A with A low or high (not
    both) and a 2 only at the low end: A-2-3, 2-3-4-5 and J-Q-K-A are sequences, K-A-2 is not.
    A four of a kind cuts a single 2, two fours of a kind played together cut a pair of 2s, and
    a higher four of a kind beats a lower one.
    """

    name = "sam-loc"

    def strength(self, card: int) -> int:
        """The climbing rank (suits never count)."""
        return climb_rank(card)

    def sort(self, cards: Iterable[int]) -> tuple[Card, ...]:
        """Cards weakest first (by rank, then by card index for a stable order)."""
        return tuple(Card(c) for c in sorted(cards, key=lambda c: (climb_rank(c), c)))

    def classify(self, cards: Iterable[int]) -> Combo | None:
        """The Sâm play these cards make, or ``None``."""
        raw = list(cards)
        ordered = self.sort(set(raw))
        n = len(ordered)
        if n == 0 or n != len(raw):
            return None
        ranks = [climb_rank(c) for c in ordered]
        if ranks[0] == ranks[-1]:
            kind = {1: Kind.SINGLE, 2: Kind.PAIR, 3: Kind.TRIPLE, 4: Kind.FOUR}.get(n)
            return Combo(kind, ordered, ranks[0]) if kind is not None else None
        if n == 8 and ranks[0] == ranks[3] and ranks[4] == ranks[7]:
            return Combo(Kind.DOUBLE_FOUR, ordered, ranks[7] * 13 + ranks[0])
        if n >= 3 and len(set(ranks)) == n:
            top = self._sequence_top(ranks)
            if top is not None:
                return Combo(Kind.STRAIGHT, self._sequence_order(ordered, top), top)
        return None

    @staticmethod
    def _sequence_top(ranks: Sequence[int]) -> int | None:
        positions = sorted(_sam_positions(ranks))
        best: int | None = None
        candidates = [positions]
        if 14 in positions:  # the ace may also play low
            candidates.append(sorted(1 if p == 14 else p for p in positions))
        for seq in candidates:
            if seq == list(range(seq[0], seq[0] + len(seq))):
                best = seq[-1] if best is None else max(best, seq[-1])
        return best

    @staticmethod
    def _sequence_order(cards: Sequence[Card], top: int) -> tuple[Card, ...]:
        """Cards in sequence order, low end first (A first when it plays low)."""
        low = top - len(cards) + 1

        def position(card: Card) -> int:
            p = _sam_positions([climb_rank(card)])[0]
            return 1 if p == 14 and low == 1 else p

        return tuple(sorted(cards, key=position))

    def beats(self, play: Combo, table: Combo) -> bool:
        """Higher play of the same type and size, or a cut (RULES.md §7.2)."""
        if _same_type_beats(play, table):
            return True
        if not table.is_twos:
            return False
        return (table.kind is Kind.SINGLE and play.kind is Kind.FOUR) or (
            table.kind is Kind.PAIR and play.kind is Kind.DOUBLE_FOUR
        )

    def is_cut(self, play: Combo, table: Combo) -> bool:
        """A four of a kind on a 2, two fours on a pair of 2s: the cuts that carry payments.

        Over-cuts (a higher four on a four that cut) are recognised by :func:`sam_chain`.
        """
        return (
            table.is_twos and play.kind in (Kind.FOUR, Kind.DOUBLE_FOUR) and self.beats(play, table)
        )

    def can_lead(self, combo: Combo) -> bool:
        """Two fours of a kind only cut a pair of 2s; everything else may lead."""
        return combo.kind is not Kind.DOUBLE_FOUR

    def plays(self, hand: Sequence[int], table: Combo | None = None) -> tuple[Combo, ...]:
        """Every legal Sâm play from ``hand`` against ``table``."""
        groups = self._groups(hand)
        out: list[Combo] = []
        if table is None:
            for size, kind in ((1, Kind.SINGLE), (2, Kind.PAIR), (3, Kind.TRIPLE), (4, Kind.FOUR)):
                self._of_rank(groups, size, kind, out)
            self._sequences(groups, 0, out)
            return tuple(out)
        kind, size = table.kind, table.size
        if kind in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.FOUR):
            self._of_rank(groups, size, kind, out, table.key)
        elif kind is Kind.STRAIGHT:
            self._sequences(groups, size, out, table.key)
        elif kind is Kind.DOUBLE_FOUR:
            self._double_fours(groups, out, table.key)
        if table.is_twos and kind is Kind.SINGLE:
            self._of_rank(groups, 4, Kind.FOUR, out)
        if table.is_twos and kind is Kind.PAIR:
            self._double_fours(groups, out)
        return tuple(out)

    @staticmethod
    def _of_rank(
        groups: list[list[Card]], size: int, kind: Kind, out: list[Combo], above: int = -1
    ) -> None:
        for rank in range(above + 1, 13):
            group = groups[rank]
            if len(group) >= size:
                out.extend(Combo(kind, cards, rank) for cards in combinations(group, size))

    @staticmethod
    def _double_fours(groups: list[list[Card]], out: list[Combo], above: int = -1) -> None:
        fours = [r for r in range(13) if len(groups[r]) == 4]
        for low, high in combinations(fours, 2):
            key = high * 13 + low
            if key > above:
                out.append(Combo(Kind.DOUBLE_FOUR, (*groups[low], *groups[high]), key))

    @staticmethod
    def _sequences(groups: list[list[Card]], size: int, out: list[Combo], above: int = -1) -> None:
        """Sequences of ``size`` cards (0: every size) with a top position above ``above``."""
        # position p (1..14) → climbing rank: 1 and 14 → A (11), 2 → 2 (12), 3..13 → p - 3.
        at = [11, 12, *range(0, 11), 11]  # index p - 1
        for low in range(1, 15):
            high = low
            while high <= 14 and groups[at[high - 1]] and not (low == 1 and high == 14):
                length = high - low + 1
                # A-2-…-K (1..13) is the same card set as 2-…-K-A (2..14): keep the higher.
                duplicate = low == 1 and high == 13
                if length >= 3 and size in (0, length) and high > above and not duplicate:
                    for cards in product(*(groups[at[p - 1]] for p in range(low, high + 1))):
                        out.append(Combo(Kind.STRAIGHT, cards, high))
                high += 1


TIEN_LEN = TienLenFamily()
"""The Tiến lên miền Nam rule family."""

SAM = SamFamily()
"""The Sâm Lốc rule family."""


# ----- chained cuts -------------------------------------------------------------------------
def tien_len_item_value(combo: Combo) -> int:
    """The lá value of a cut Tiến lên play (RULES.md §12.5): black 2 = 5, red 2 = 10 (a pair
    of 2s adds both), 3 đôi thông = 10, tứ quý = 20, 4 đôi thông = 30; anything else 0."""
    if combo.is_twos:
        return sum(two_value(c) for c in combo.cards)
    if combo.kind is Kind.FOUR:
        return 20
    if combo.kind is Kind.PAIR_STRAIGHT:
        return 10 if combo.pairs == 3 else 30
    return 0


def tien_len_chain(trick: Sequence[Combo], *, cumulative: bool = True) -> CutPayment | None:
    """The cut payment of a Tiến lên trick (its plays in order), or ``None`` if it ends uncut.

    Only the last cutter is paid, by the last player cut; the amount is the sum of every item
    cut in the chain (``cumulative``, A-TL5) or only the last item cut.

    >>> from sanh.cards import parse_cards
    >>> trick = [TIEN_LEN.classify(parse_cards(t)) for t in ("2h", "6s6c7d7h8s8d", "9s9c9d9h")]
    >>> tien_len_chain(trick)
    CutPayment(payer=1, payee=2, amount=20, victims=(0, 1))
    """
    last = len(trick) - 1
    if last < 1 or not TIEN_LEN.is_cut(trick[last], trick[last - 1]):
        return None
    start = last - 1
    while start >= 1 and TIEN_LEN.is_cut(trick[start], trick[start - 1]):
        start -= 1
    victims = tuple(range(start, last))
    values = [tien_len_item_value(trick[i]) for i in victims]
    amount = sum(values) if cumulative else values[-1]
    return CutPayment(last - 1, last, amount, victims)


def _is_four_aces(combo: Combo) -> bool:
    return combo.kind is Kind.FOUR and climb_rank(combo.cards[0]) == 11


def sam_link_value(cutter: Combo, *, four_aces: int = 40) -> int:
    """The lá value of one Sâm cut by ``cutter``: a four of a kind 20 (four aces
    ``four_aces``, 40 by default), two fours of a kind 40 (seed 001 "Tỉ lệ cộng trừ tiền")."""
    if cutter.kind is Kind.DOUBLE_FOUR:
        return 40
    return four_aces if _is_four_aces(cutter) else 20


def sam_chain(
    trick: Sequence[Combo], *, cumulative: bool = False, four_aces: int = 40
) -> CutPayment | None:
    """The cut payment of a Sâm trick, or ``None`` if no 2 was cut.

    A chain starts when a four of a kind cuts a 2 (or two fours cut a pair of 2s) and goes on
    while each play over-cuts (*đè*) the previous cut. The last player cut pays the last
    cutter; the owner of the 2s and earlier cutters pay nothing. The amount (A-SL7) is 20 lá,
    or 40 if the final cutter used four aces or the chain began with a pair of 2s
    (``cumulative``: the sum of every link's value).

    >>> from sanh.cards import parse_cards
    >>> trick = [SAM.classify(parse_cards(t)) for t in ("2h", "3s3c3d3h", "4s4c4d4h")]
    >>> sam_chain(trick)
    CutPayment(payer=1, payee=2, amount=20, victims=(0, 1))
    """
    last = len(trick) - 1
    if last < 1:
        return None
    start = last
    while (
        start >= 1
        and trick[start - 1].kind is trick[start].kind
        and trick[start].kind
        in (
            Kind.FOUR,
            Kind.DOUBLE_FOUR,
        )
    ):
        start -= 1
    # ``start`` is the first cutter of the run; the play before it must be the cut 2s.
    if start < 1 or not SAM.is_cut(trick[start], trick[start - 1]):
        return None
    first = start - 1
    victims = tuple(range(first, last))
    if cumulative:
        amount = sum(sam_link_value(trick[i], four_aces=four_aces) for i in range(start, last + 1))
    elif trick[first].kind is Kind.PAIR:
        amount = 40
    else:
        amount = sam_link_value(trick[last], four_aces=four_aces)
    return CutPayment(last - 1, last, amount, victims)


# ----- penalties and instant wins -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Penalty:
    """A Tiến lên hand left at the end, counted (RULES.md §12.5)."""

    ordinary: int
    """Cards counted as ordinary cards (1 lá each, times the cóng multiplier)."""
    items: tuple[tuple[str, int], ...]
    """Special items converted: (label, lá), e.g. ``("red_two", 10)``, ``("four", 20)``."""
    total: int
    """The penalty in lá."""

    @property
    def special(self) -> int:
        """The lá of the special items alone."""
        return sum(value for _, value in self.items)


_ITEM_VALUES = {"pair_straight_3": 10, "four": 20, "pair_straight_4": 30}


def tien_len_penalty(hand: Sequence[int], *, ordinary_weight: int = 1) -> Penalty:
    """Split a hand into ordinary cards and special items the way that gives the highest total
    (A-TL6): each 2 (black 5, red 10), 3 đôi thông (10), tứ quý (20), 4 đôi thông (30);
    every other card counts ``ordinary_weight`` lá (1; the cóng multiplier for a cóng hand; 0
    to value the special items alone).

    >>> from sanh.cards import parse_cards
    >>> tien_len_penalty(parse_cards("2h 4s 5c")).total  # RULES.md §12.8, player A
    12
    """
    items: list[tuple[str, int]] = []
    counts = [0] * 12
    for card in hand:
        rank = climb_rank(card)
        if rank == TWO:
            items.append(("red_two" if two_value(card) == 10 else "black_two", two_value(card)))
        else:
            counts[rank] += 1
    candidates: list[tuple[str, tuple[int, ...], int]] = []  # (label, ranks, cards per rank)
    for rank in range(12):
        if counts[rank] == 4:
            candidates.append(("four", (rank,), 4))
    for length, label in ((3, "pair_straight_3"), (4, "pair_straight_4")):
        for low in range(12 - length + 1):
            ranks = tuple(range(low, low + length))
            if all(counts[r] >= 2 for r in ranks):
                candidates.append((label, ranks, 2))
    best_value = -1
    best_items: tuple[str, ...] = ()
    best_left = 0

    def search(start: int, left: list[int], chosen: list[str], value: int) -> None:
        nonlocal best_value, best_items, best_left
        total = value + ordinary_weight * sum(left)
        if total > best_value:
            best_value, best_items, best_left = total, tuple(chosen), sum(left)
        for index in range(start, len(candidates)):
            label, ranks, need = candidates[index]
            if all(left[r] >= need for r in ranks):
                for r in ranks:
                    left[r] -= need
                chosen.append(label)
                search(index, left, chosen, value + _ITEM_VALUES[label])
                chosen.pop()
                for r in ranks:
                    left[r] += need

    search(0, counts, [], 0)
    all_items = tuple(items) + tuple((label, _ITEM_VALUES[label]) for label in best_items)
    total = sum(v for _, v in all_items) + ordinary_weight * best_left
    return Penalty(best_left, all_items, total)


def _counts(hand: Iterable[int]) -> list[int]:
    counts = [0] * 13
    for card in hand:
        counts[climb_rank(card)] += 1
    return counts


def tien_len_instant_win(hand: Sequence[int], *, first_game_extras: bool = False) -> str | None:
    """The Tiến lên instant win (*tới trắng*) a dealt hand holds, or ``None`` (RULES.md §12.4):
    ``dragon`` (3 to A), ``five_pair_straight``, ``six_pairs``, ``four_twos``; with
    ``first_game_extras`` (§16 ``tlmn.opt_first_game_instant_wins``) also ``four_threes`` and
    ``pair_straight_with_3s`` (3 or 4 đôi thông holding 3♠)."""
    counts = _counts(hand)
    if counts[TWO] == 4:
        return "four_twos"
    if all(counts[r] >= 1 for r in range(12)):
        return "dragon"
    for low in range(12 - 5 + 1):
        if all(counts[r] >= 2 for r in range(low, low + 5)):
            return "five_pair_straight"
    if sum(c // 2 for c in counts) >= 6:
        return "six_pairs"
    if first_game_extras:
        if counts[0] == 4:
            return "four_threes"
        three_spades = Card.of(1, 3)
        if three_spades in hand and all(counts[r] >= 2 for r in range(3)):
            return "pair_straight_with_3s"
    return None


SAM_INSTANT_WINS = ("four_twos", "dragon", "one_colour", "three_triples", "five_pairs")
"""The Sâm instant-win hands (RULES.md §7.5, A-SL12), in checking order."""


def sam_instant_win(hand: Sequence[int], allowed: Iterable[str] = SAM_INSTANT_WINS) -> str | None:
    """The Sâm instant win (*thắng trắng*) a dealt hand holds, or ``None`` (RULES.md §7.5):
    four 2s, a sequence of the whole hand (*sảnh rồng*), one colour, three triples, five
    pairs (a four of a kind counts as two pairs, and as a triple)."""
    wanted = set(allowed)
    counts = _counts(hand)
    if "four_twos" in wanted and counts[TWO] == 4:
        return "four_twos"
    if "dragon" in wanted:
        combo = SAM.classify(hand)
        if combo is not None and combo.kind is Kind.STRAIGHT and len(hand) >= 10:
            return "dragon"
    if "one_colour" in wanted and len({(c & 3) in (1, 2) for c in hand}) == 1:
        return "one_colour"
    if "three_triples" in wanted and sum(1 for c in counts if c >= 3) >= 3:
        return "three_triples"
    if "five_pairs" in wanted and sum(c // 2 for c in counts) >= 5:
        return "five_pairs"
    return None
