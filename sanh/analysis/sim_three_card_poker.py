"""Monte Carlo simulation of Three Card Poker, vectorised with NumPy (RULES.md §13).

One seat bets 1 unit on every spot of the rule set (Ante, Pair Plus, and the 6 Card Bonus under
s000) and plays the optimal Ante strategy found by :mod:`sanh.analysis.odds_three_card_poker`
(Play exactly when Play is worth more than Fold: "Q-6-4 or better"). Each round's return per unit
staked is computed for every bet, and the report gives each bet's RTP with a 95 % interval.

The vectorised path works on many rounds at once:

* **Deck orders.** A :class:`numpy.random.Generator` seeded from SHA-256 of the seed runs a
  partial Fisher-Yates shuffle on a block of decks (row ``k`` is a deck order; for positions
  ``i = 0..5`` it swaps card ``i`` with a uniform card ``i..51``). The first six cards of each row
  are then a uniform draw of an ordered deal, and each row is a full permutation of the deck, so
  the same rows can be fed to the real engine as :class:`~sanh.games.base.Shuffle` events.
  The engine deals the Player hand from cards 0-2 and the dealer from cards 3-5.
* **Three-card hands** go through a lookup over ordered card triples (``52 ** 3`` entries) to
  the row of the table of all 22,100 hands: dense strength, category, dealer qualification, and
  the optimal Play decision.
* **The 6 Card Bonus** is classified column by column: ranks sorted by a sorting network (runs
  of equal ranks give pairs, trips, quads), suit counts packed in 3-bit fields, a 13-bit rank
  mask and a lookup of straights over all 8,192 masks.

``tests/analysis/test_sim_three_card_poker.py`` proves that the vectorised returns equal the
engine's settlement on the same deck orders, and that the intervals cover the exact odds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from sanh.analysis._tcp_tables import three_card_table
from sanh.analysis.odds_three_card_poker import ante_play
from sanh.analysis.simulate import SimReport, bet_sim
from sanh.eval import HandCategory, TcpCategory
from sanh.games.three_card_poker import (
    ANTE_BONUS,
    PAIR_PLUS_PAYTABLES,
    SIX_CARD_BONUS,
    VARIANT_DEFAULTS,
)

__all__ = ["CHUNK", "SIMULATORS", "deal_decks", "generator_for", "round_returns", "simulate"]

CHUNK = 1 << 18
"""Rounds per vectorised block."""

IntArray = npt.NDArray[np.int64]


def generator_for(seed: int | str) -> np.random.Generator:
    """A NumPy generator seeded from SHA-256 of the seed's text (stable across platforms)."""
    digest = hashlib.sha256(f"sanh/tcp-simulate/{seed}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest, "big"))


def deal_decks(gen: np.random.Generator, rounds: int) -> npt.NDArray[np.int8]:
    """``rounds`` deck orders (one per row) whose first six cards are uniformly dealt."""
    decks = np.tile(np.arange(52, dtype=np.int8), (rounds, 1))
    rows = np.arange(rounds)
    for i in range(6):
        j = gen.integers(i, 52, size=rounds)
        picked = decks[rows, j]
        decks[rows, j] = decks[:, i]
        decks[:, i] = picked
    return decks


def _straight_tops() -> npt.NDArray[np.int8]:
    """For every 13-bit rank mask: the top rank of its best five-card straight, or -1."""
    tops = np.full(1 << 13, -1, dtype=np.int8)
    masks = np.arange(1 << 13)
    for top in range(3, 13):  # ascending, so higher straights overwrite lower ones
        ranks = [top - k if top - k >= 0 else 12 for k in range(5)]
        straight = sum(1 << r for r in ranks)
        tops[(masks & straight) == straight] = top
    return tops


_STRAIGHT_TOPS = _straight_tops()


_SORT6: tuple[tuple[int, int], ...] = (
    (0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5), (1, 2), (3, 4),
)  # fmt: skip
"""A 12-comparator sorting network for six values."""


def six_card_pays(cards: npt.NDArray[np.int8]) -> IntArray:
    """Per row of six cards: the 6 Card Bonus multiple x, or -1 when the bet loses.

    Works column by column: the ranks are sorted by a sorting network, rank groups are runs of
    equal neighbours, suit counts are 3-bit fields packed into one integer, straights come from
    a lookup over 13-bit rank masks, and the suited rank mask of a flush is built only for the
    (about 1 %) rows holding one.
    """
    columns = np.ascontiguousarray(cards.T)
    r = [columns[i] >> 2 for i in range(6)]
    for i, j in _SORT6:
        r[i], r[j] = np.minimum(r[i], r[j]), np.maximum(r[i], r[j])
    same = [r[i + 1] == r[i] for i in range(5)]
    three = [same[i] & same[i + 1] for i in range(4)]
    trips = three[0] | three[1] | three[2] | three[3]
    quads = (three[0] & same[2]) | (three[1] & same[3]) | (three[2] & same[4])
    groups = same[0].astype(np.int8)
    for i in range(1, 5):
        groups += same[i] & ~same[i - 1]
    one = np.int16(1)
    rank_mask = np.left_shift(one, r[0].astype(np.int16))
    for i in range(1, 6):
        rank_mask |= np.left_shift(one, r[i].astype(np.int16))
    fields = np.zeros(len(cards), dtype=np.int32)
    for i in range(6):
        fields += np.left_shift(np.int32(1), 3 * (columns[i] & 3).astype(np.int32))
    suit_counts = [(fields >> (3 * suit)) & 7 for suit in range(4)]
    flush = (suit_counts[0] >= 5) | (suit_counts[1] >= 5)
    flush |= (suit_counts[2] >= 5) | (suit_counts[3] >= 5)
    pays = np.full(len(cards), -1, dtype=np.int64)
    pays[trips] = SIX_CARD_BONUS[HandCategory.THREE_OF_A_KIND]
    pays[_STRAIGHT_TOPS[rank_mask] >= 0] = SIX_CARD_BONUS[HandCategory.STRAIGHT]
    pays[trips & (groups >= 2)] = SIX_CARD_BONUS[HandCategory.FULL_HOUSE]
    pays[quads] = SIX_CARD_BONUS[HandCategory.FOUR_OF_A_KIND]
    rows = np.flatnonzero(flush)
    if len(rows):
        suited = cards[rows]
        suit = np.argmax(np.stack([count[rows] for count in suit_counts], axis=1), axis=1)
        in_suit = (suited & 3) == suit[:, None]
        suited_bits = np.where(in_suit, np.left_shift(1, (suited >> 2).astype(np.int64)), 0)
        top = _STRAIGHT_TOPS[suited_bits.sum(axis=1)]
        flush_pays = np.full(len(rows), SIX_CARD_BONUS[HandCategory.FLUSH], dtype=np.int64)
        flush_pays[top >= 0] = SIX_CARD_BONUS[HandCategory.STRAIGHT_FLUSH]
        flush_pays[top == 12] = SIX_CARD_BONUS[HandCategory.ROYAL_FLUSH]
        pays[rows] = flush_pays
    return pays


def _category_pays(pays: dict[TcpCategory, int], default: int) -> IntArray:
    out = np.full(len(TcpCategory), default, dtype=np.int64)
    for category, multiple in pays.items():
        out[category] = multiple
    return out


def round_returns(deals: npt.NDArray[np.int8], rules: str = "s000") -> dict[str, IntArray]:
    """Per round (rows: the first six cards of each deck order), each bet's net return per unit:
    ``ante_play`` (Ante, Play and Ante Bonus per unit of Ante), ``pair_plus`` and (when the rule
    set offers it) ``six_card_bonus``."""
    flags = VARIANT_DEFAULTS[rules]
    table = three_card_table()
    plays_table = ante_play().plays
    c = deals.astype(np.int32)
    player = table.by_triple[c[:, 0] * 2704 + c[:, 1] * 52 + c[:, 2]]
    dealer = table.by_triple[c[:, 3] * 2704 + c[:, 4] * 52 + c[:, 5]]
    p_strength, d_strength = table.dense[player], table.dense[dealer]
    category = table.category[player]
    plays = plays_table[player]
    compare = np.sign(p_strength - d_strength).astype(np.int64)  # +1 win, 0 tie, -1 lose
    shown = np.where(table.qualifies[dealer], 2 * compare, 1)
    bonus = _category_pays(ANTE_BONUS, 0)[category]
    out: dict[str, IntArray] = {"ante_play": np.where(plays, shown + bonus, -1).astype(np.int64)}
    paytable = PAIR_PLUS_PAYTABLES[str(flags["tcp.pairplus_paytable"])]
    pair_plus = _category_pays(paytable, -1)[category]
    if flags["tcp.fold_forfeits_pairplus"]:
        pair_plus = np.where(plays, pair_plus, -1)
    out["pair_plus"] = pair_plus.astype(np.int64)
    if flags["tcp.six_card_bonus"]:
        out["six_card_bonus"] = six_card_pays(deals[:, :6])
    return out


def simulate(
    rounds: int,
    seed: int | str = 0,
    rules: str | None = None,
    progress: Callable[[int], None] = lambda done: None,
) -> SimReport:
    """Simulate ``rounds`` rounds; see the module docstring.

    :raises ValueError: on an unknown rule set or a non-positive round count.
    """
    variant = rules or "s000"
    if variant not in VARIANT_DEFAULTS:
        raise ValueError(f"three-card-poker has rule sets s000 and s002, not {rules!r}")
    if rounds <= 0:
        raise ValueError("rounds must be positive")
    gen = generator_for(seed)
    totals: dict[str, list[int]] = {}
    done = 0
    while done < rounds:
        size = min(CHUNK, rounds - done)
        returns = round_returns(deal_decks(gen, size)[:, :6], variant)
        for name, values in returns.items():
            total = totals.setdefault(name, [0, 0])
            total[0] += int(values.sum())
            total[1] += int((values * values).sum())
        done += size
        progress(done)
    bets = {name: bet_sim(rounds, float(s), float(sq)) for name, (s, sq) in totals.items()}
    return SimReport(
        game="three-card-poker",
        rules=variant,
        rounds=rounds,
        seed=str(seed),
        bets=bets,
        method="vectorised",
    )


SIMULATORS = {"three-card-poker": simulate}
