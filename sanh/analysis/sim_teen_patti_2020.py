"""Monte Carlo simulation of Teen Patti 20-20 (``sanh simulate teen-patti-2020``), vectorised.

Each round deals six cards without replacement (uniformly, in NumPy, from a generator seeded by
SHA-256 of the seed) in the order A1 B1 A2 B2 A3 B3, and settles a stake of
:data:`STAKE` units on each bet with the engine's arithmetic (0.95:1 rounded down, push on a
tie, Tie 50:1, Pair Plus on hand A, 6 Card Bonus on the best five of six). Hand strengths and
categories come from tables built with :mod:`sanh.eval` (the evaluators the engine uses); the
six-card category is computed from rank and suit counts. ``tests/analysis`` proves
:func:`round_returns` equal to the engine's settlement, line by line, on seeded deals and on a
deal of every paying category.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache
from itertools import combinations, permutations

import numpy as np
import numpy.typing as npt

from sanh.analysis.simulate import BetSim, SimReport, bet_sim
from sanh.eval import HandCategory, TeenPattiCategory, teen_patti_category, teen_patti_rank
from sanh.games.teen_patti_2020 import Paytable

__all__ = [
    "BETS",
    "SIMULATORS",
    "STAKE",
    "deal_cards",
    "generator_for",
    "round_returns",
    "simulate_teen_patti",
]

STAKE = 100
"""Units staked on each bet every round (a multiple of 20, so 0.95:1 pays whole units)."""

BETS = ("player_a", "player_b", "tie", "pair_plus", "six_card_bonus")
"""The reported bets (``pair_plus`` is the Pair Plus on hand A)."""

CHUNK = 200_000

IntArray = npt.NDArray[np.int64]

_PAIR_PLUS_ORDER = (
    TeenPattiCategory.THREE_ACES,
    TeenPattiCategory.THREE_OF_A_KIND,
    TeenPattiCategory.STRAIGHT_FLUSH,
    TeenPattiCategory.STRAIGHT,
    TeenPattiCategory.FLUSH,
    TeenPattiCategory.PAIR,
)
_SIX_CARD_ORDER = (
    HandCategory.ROYAL_FLUSH,
    HandCategory.STRAIGHT_FLUSH,
    HandCategory.FOUR_OF_A_KIND,
    HandCategory.FULL_HOUSE,
    HandCategory.FLUSH,
    HandCategory.STRAIGHT,
    HandCategory.THREE_OF_A_KIND,
)


def generator_for(seed: int | str) -> np.random.Generator:
    """The NumPy generator of a simulation seed (SHA-256 of ``sanh-sim/<seed>``)."""
    digest = hashlib.sha256(f"sanh-sim/{seed}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "big"))


def deal_cards(rng: np.random.Generator, rounds: int) -> IntArray:
    """``rounds`` × 6 cards dealt without replacement, uniformly: the first six of a shuffle.

    The ``k``-th card is the ``j``-th smallest card not yet dealt, ``j`` uniform in
    ``[0, 52 - k)``: every ordered six cards are equally likely.
    """
    out = np.empty((rounds, 6), dtype=np.int64)
    for k in range(6):
        card = rng.integers(0, 52 - k, size=rounds)
        if k:
            dealt = np.sort(out[:, :k], axis=1)
            for i in range(k):
                card += dealt[:, i] <= card
        out[:, k] = card
    return out


@lru_cache(maxsize=1)
def _three_card_tables() -> tuple[IntArray, IntArray]:
    """Strength and category of every ordered triple of cards (52 × 52 × 52 arrays)."""
    hands = list(combinations(range(52), 3))
    ranks = np.array([teen_patti_rank(hand) for hand in hands], dtype=np.int64)
    kinds = np.array([int(teen_patti_category(int(r))) for r in ranks], dtype=np.int64)
    triples = np.array(hands, dtype=np.int64)
    strength = np.zeros((52, 52, 52), dtype=np.int64)
    category = np.zeros((52, 52, 52), dtype=np.int64)
    for order in permutations(range(3)):
        a, b, c = (triples[:, i] for i in order)
        strength[a, b, c] = ranks
        category[a, b, c] = kinds
    return strength, category


_STRAIGHTS = [(0b11111 << (top - 4), top) for top in range(12, 3, -1)] + [((1 << 12) | 0b1111, 3)]


def _straight_top(masks: IntArray) -> IntArray:
    """The best straight's top rank in each 13-bit rank mask (-1 if none)."""
    top = np.full(masks.shape, -1, dtype=np.int64)
    for pattern, high in reversed(_STRAIGHTS):
        top = np.where((masks & pattern) == pattern, high, top)
    return top


def six_card_categories(cards: IntArray) -> IntArray:
    """The best-five :class:`HandCategory` (as ints) of each row of six cards."""
    ranks, suits = cards >> 2, cards & 3
    rows = np.arange(len(cards))[:, None]
    rank_counts = np.bincount((rows * 13 + ranks).ravel(), minlength=len(cards) * 13)
    rank_counts = rank_counts.reshape(len(cards), 13)
    suit_counts = np.bincount((rows * 4 + suits).ravel(), minlength=len(cards) * 4)
    suit_counts = suit_counts.reshape(len(cards), 4)
    bits = np.int64(1) << ranks
    present = (np.where(rank_counts > 0, 1, 0) << np.arange(13)).sum(axis=1)
    flush_suit = suit_counts.argmax(axis=1)
    flush = suit_counts.max(axis=1) >= 5
    suited = np.where(suits == flush_suit[:, None], bits, 0).sum(axis=1)
    suited_top = _straight_top(suited)
    plain_top = _straight_top(present)
    most = rank_counts.max(axis=1)
    trips = (rank_counts == 3).sum(axis=1)
    pairs = (rank_counts == 2).sum(axis=1)
    out = np.full(len(cards), int(HandCategory.HIGH_CARD), dtype=np.int64)
    rules = [  # the first matching rule wins, strongest first
        (flush & (suited_top == 12), HandCategory.ROYAL_FLUSH),
        (flush & (suited_top >= 0), HandCategory.STRAIGHT_FLUSH),
        (most == 4, HandCategory.FOUR_OF_A_KIND),
        ((trips == 2) | ((trips == 1) & (pairs >= 1)), HandCategory.FULL_HOUSE),
        (flush, HandCategory.FLUSH),
        (plain_top >= 0, HandCategory.STRAIGHT),
        (trips == 1, HandCategory.THREE_OF_A_KIND),
        (pairs >= 2, HandCategory.TWO_PAIR),
        (pairs == 1, HandCategory.ONE_PAIR),
    ]
    for condition, category in reversed(rules):
        out = np.where(condition, int(category), out)
    return out


def round_returns(deals: IntArray, paytable: Paytable | None = None) -> dict[str, IntArray]:
    """Each bet's net amount (units) per round for a :data:`STAKE` on it, as the engine pays.

    ``deals`` holds the six cards in deal order A1 B1 A2 B2 A3 B3 (one row per round).
    """
    paytable = paytable or Paytable()
    strength, category = _three_card_tables()
    hand_a, hand_b = deals[:, 0::2], deals[:, 1::2]
    rank_a = strength[hand_a[:, 0], hand_a[:, 1], hand_a[:, 2]]
    rank_b = strength[hand_b[:, 0], hand_b[:, 1], hand_b[:, 2]]
    win = STAKE * paytable.main_pays_pct // 100
    player_a = np.where(rank_a > rank_b, win, np.where(rank_a < rank_b, -STAKE, 0))
    player_b = np.where(rank_b > rank_a, win, np.where(rank_b < rank_a, -STAKE, 0))
    tie = np.where(rank_a == rank_b, STAKE * paytable.tie, -STAKE)
    pair_plus_pay = np.full(len(TeenPattiCategory), -STAKE, dtype=np.int64)
    for kind, odds in zip(_PAIR_PLUS_ORDER, paytable.pair_plus, strict=True):
        pair_plus_pay[int(kind)] = STAKE * odds if odds else -STAKE
    pair_plus = pair_plus_pay[category[hand_a[:, 0], hand_a[:, 1], hand_a[:, 2]]]
    six_pay = np.full(len(HandCategory), -STAKE, dtype=np.int64)
    for six_kind, odds in zip(_SIX_CARD_ORDER, paytable.six_card, strict=True):
        six_pay[int(six_kind)] = STAKE * odds if odds else -STAKE
    six_card = six_pay[six_card_categories(deals)]
    return {
        "player_a": player_a.astype(np.int64),
        "player_b": player_b.astype(np.int64),
        "tie": tie.astype(np.int64),
        "pair_plus": pair_plus,
        "six_card_bonus": six_card,
    }


def simulate_teen_patti(
    rounds: int,
    seed: int | str = 0,
    rules: str | None = None,
    progress: Callable[[int], None] = lambda done: None,
) -> SimReport:
    """Simulate ``rounds`` rounds; each bet's RTP with a 95 % interval.

    :raises ValueError: if ``rounds`` is not positive, or on another rule set than ``s004``.
    """
    if rules not in (None, "s004", "default"):
        raise ValueError(f"teen-patti-2020 has one rule set, 's004', not {rules!r}")
    if rounds <= 0:
        raise ValueError(f"rounds must be positive, not {rounds}")
    rng = generator_for(seed)
    sums = dict.fromkeys(BETS, 0.0)
    squares = dict.fromkeys(BETS, 0.0)
    done = 0
    while done < rounds:
        size = min(CHUNK, rounds - done)
        returns = round_returns(deal_cards(rng, size))
        for bet in BETS:
            unit = returns[bet] / STAKE
            sums[bet] += float(unit.sum())
            squares[bet] += float((unit * unit).sum())
        done += size
        progress(done)
    bets: dict[str, BetSim] = {bet: bet_sim(rounds, sums[bet], squares[bet]) for bet in BETS}
    return SimReport(
        game="teen-patti-2020",
        rules="s004",
        rounds=rounds,
        seed=str(seed),
        bets=bets,
        method="vectorised",
    )


SIMULATORS = {"teen-patti-2020": simulate_teen_patti}
