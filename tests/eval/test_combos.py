"""The combination engine of the shedding games (``sanh.eval.combos``).

Perft-style golden counts (``tests/golden/shedding/perft.json``), a brute-force cross-check of
legal-play generation over every card subset, chained cuts, penalties and instant wins.
"""

from __future__ import annotations

import doctest
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sanh.eval.combos as combos_module
from sanh.cards.card import Card, parse_cards
from sanh.cards.deck import DECK_52
from sanh.eval.combos import (
    SAM,
    TIEN_LEN,
    Combo,
    Family,
    Kind,
    sam_chain,
    sam_instant_win,
    tien_len_chain,
    tien_len_instant_win,
    tien_len_penalty,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "shedding" / "perft.json"
FAMILIES: dict[str, Family] = {"tien-len": TIEN_LEN, "sam-loc": SAM}


def brute_force(
    family: Family, hand: tuple[Card, ...], table: Combo | None
) -> set[frozenset[Card]]:
    """Every card subset of ``hand`` that is a legal play, by trying them all."""
    found: set[frozenset[Card]] = set()
    for size in range(1, len(hand) + 1):
        for subset in itertools.combinations(hand, size):
            combo = family.classify(subset)
            if combo is None:
                continue
            if (table is None and family.can_lead(combo)) or (
                table is not None and family.beats(combo, table)
            ):
                found.add(frozenset(subset))
    return found


def combo(family: Family, text: str) -> Combo:
    result = family.classify(parse_cards(text))
    assert result is not None, text
    return result


def test_doctests() -> None:
    """The module's examples run."""
    assert doctest.testmod(combos_module).failed == 0


@pytest.mark.parametrize(
    "position", json.loads(GOLDEN.read_text())["positions"], ids=lambda p: p["name"]
)
def test_perft_golden_counts(position: dict[str, Any]) -> None:
    """Issue 4: the number of legal plays from fixed positions (leading; answering a single, a
    pair, a straight, a 2 with and without cutting combinations) matches the stored data, and a
    brute-force search over every card subset."""
    family = FAMILIES[position["game"]]
    hand = parse_cards(position["hand"])
    table = combo(family, position["table"]) if position["table"] else None
    plays = family.plays(hand, table)
    assert len(plays) == position["plays"]
    assert {frozenset(c.cards) for c in plays} == brute_force(family, hand, table)


CUTTY_RANKS = (0, 1, 2, 3, 4, 5, 7, 11)  # 2, 3, 4, 5, 6, 7, 9, K: many pairs, runs and fours
CUTTY_DECK = tuple(c for c in DECK_52 if c.rank in CUTTY_RANKS)


@settings(max_examples=150, deadline=None)
@given(
    game=st.sampled_from(sorted(FAMILIES)),
    deck=st.sampled_from([DECK_52, CUTTY_DECK]),
    data=st.data(),
)
def test_generation_matches_brute_force(game: str, deck: tuple[Card, ...], data: Any) -> None:
    """Every legal play appears exactly once, classified as ``classify`` would, and nothing else
    does: the generator agrees with trying every subset."""
    family = FAMILIES[game]
    size = 13 if game == "tien-len" else 10
    cards = data.draw(st.permutations(deck))
    hand = family.sort(cards[:size])
    rest = cards[size : size + 16]
    tables = [None, *family.plays(rest)]
    table = tables[data.draw(st.integers(0, len(tables) - 1))]
    plays = family.plays(hand, table)
    sets = [frozenset(c.cards) for c in plays]
    assert len(sets) == len(set(sets))
    assert set(sets) == brute_force(family, hand, table)
    for play in plays:
        assert family.classify(play.cards) == play


# ----- classification and cuts ----------------------------------------------------------------
def test_tien_len_kinds() -> None:
    """RULES §12.2: singles, pairs, triples, straights 3..A (no 2), đôi thông, tứ quý."""
    kinds = {
        "7h": Kind.SINGLE,
        "7s 7h": Kind.PAIR,
        "7s 7h 7d": Kind.TRIPLE,
        "7s 7h 7d 7c": Kind.FOUR,
        "Qs Kd Ah": Kind.STRAIGHT,
        "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As": Kind.STRAIGHT,
        "3s 3c 4s 4c 5s 5c": Kind.PAIR_STRAIGHT,
        "Qs Qc Ks Kc As Ac": Kind.PAIR_STRAIGHT,
    }
    for text, kind in kinds.items():
        assert combo(TIEN_LEN, text).kind is kind, text
    for text in ("Ks As 2s", "As 2s 3s", "Ks Kc As Ac 2s 2c", "7s 8s", "7s 7h 8s", "3s 3s"):
        assert TIEN_LEN.classify(parse_cards(text, unique=False)) is None, text
    assert combo(TIEN_LEN, "3s 3c 4s 4c 5s 5c").pairs == 3


def test_sam_kinds() -> None:
    """RULES §7.2: A may be low or high but not both; a 2 only at the low end."""
    assert combo(SAM, "Ah 2c 3d").key == 3
    assert combo(SAM, "2s 3c 4d 5h").key == 5
    assert combo(SAM, "Js Qh Kd Ac").key == 14
    assert combo(SAM, "5s 5c 5d 5h 9s 9c 9d 9h").kind is Kind.DOUBLE_FOUR
    for text in ("Ks Ah 2c", "Qs Ks As 2s 3s", "3s 3c 4s 4c 5s 5c"):
        assert SAM.classify(parse_cards(text)) is None, text


def test_sam_sequence_order() -> None:
    """RULES §7.2 (DEF): A-2-3 < 2-3-4 < 3-4-5; J-Q-K < Q-K-A."""
    order = ["Ah 2c 3d", "2s 3c 4d", "3s 4c 5d", "Js Qc Kd", "Qs Kc Ad"]
    for low, high in itertools.pairwise(order):
        assert SAM.beats(combo(SAM, high), combo(SAM, low))
        assert not SAM.beats(combo(SAM, low), combo(SAM, high))
    assert not SAM.beats(combo(SAM, "4s 5c 6d 7h"), combo(SAM, "3s 4c 5d"))


def test_tien_len_cut_table() -> None:
    """RULES §12.2 / S001 TLMN 3: what each cutting combination beats."""
    single_two, pair_two = combo(TIEN_LEN, "2h"), combo(TIEN_LEN, "2s 2c")
    three = combo(TIEN_LEN, "3s 3c 4s 4c 5s 5c")
    higher_three = combo(TIEN_LEN, "4d 4h 5d 5h 6d 6h")
    four = combo(TIEN_LEN, "9s 9c 9d 9h")
    four_pairs = combo(TIEN_LEN, "6s 6c 7s 7c 8s 8c 9s 9c")
    beats = TIEN_LEN.beats
    assert beats(three, single_two) and not beats(three, pair_two) and beats(higher_three, three)
    assert beats(four, single_two) and beats(four, pair_two) and beats(four, three)
    assert not beats(four, four_pairs) and not beats(three, four)
    assert all(beats(four_pairs, t) for t in (single_two, pair_two, three, four))
    assert not beats(combo(TIEN_LEN, "9s 9c 9d"), single_two)
    assert TIEN_LEN.is_cut(four, single_two) and not TIEN_LEN.is_cut(
        combo(TIEN_LEN, "2h"), combo(TIEN_LEN, "2s")
    )


def test_tien_len_chain_variants() -> None:
    """RULES §12.5 / A-TL5: only the last cutter is paid, by the last player cut."""
    trick = [combo(TIEN_LEN, t) for t in ("2s", "2h", "6s6c7d7h8s8d", "9s9c9d9h")]
    cut = tien_len_chain(trick)
    assert cut is not None
    assert (cut.payer, cut.payee, cut.amount, cut.victims) == (2, 3, 20, (1, 2))
    last_item = tien_len_chain(trick, cumulative=False)
    assert last_item is not None and last_item.amount == 10
    assert tien_len_chain(trick[:2]) is None
    led_three = [combo(TIEN_LEN, t) for t in ("3s3c4s4c5s5c", "4d4h5d5h6d6h")]
    cut = tien_len_chain(led_three)
    assert cut is not None and (cut.payer, cut.payee, cut.amount) == (0, 1, 10)


def test_sam_chain_variants() -> None:
    """RULES §7.6 / A-SL7: 20 lá, or 40 for four aces or a chain begun on a pair of 2s."""
    quad_on_two = [combo(SAM, t) for t in ("2h", "3s3c3d3h")]
    assert sam_chain(quad_on_two) is not None
    assert sam_chain(quad_on_two).amount == 20  # type: ignore[union-attr]
    aces = [combo(SAM, t) for t in ("2h", "3s3c3d3h", "AsAcAdAh")]
    assert sam_chain(aces).amount == 40  # type: ignore[union-attr]
    assert sam_chain(aces, cumulative=True).amount == 60  # type: ignore[union-attr]
    pair = [combo(SAM, t) for t in ("2s2h", "3s3c3d3h5s5c5d5h", "6s6c6d6h7s7c7d7h")]
    cut = sam_chain(pair)
    assert cut is not None and (cut.payer, cut.payee, cut.amount) == (1, 2, 40)
    led = [combo(SAM, t) for t in ("3s3c3d3h", "4s4c4d4h")]
    assert sam_chain(led) is None
    assert sam_chain([combo(SAM, "5s"), combo(SAM, "2h")]) is None


# ----- penalties and instant wins -------------------------------------------------------------
def test_penalty_split_takes_the_highest_total() -> None:
    """A-TL6: special items replace their cards, split the way that gives the highest total."""
    assert tien_len_penalty(parse_cards("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c")).total == 32
    assert tien_len_penalty(parse_cards("5s 5c 5d 5h 6s 6c 7s 7c")).total == 20 + 4
    assert tien_len_penalty(parse_cards("3s 3c 4s 4c 5s 5c"), ordinary_weight=2).total == 12
    assert tien_len_penalty(parse_cards("3s 3c 4s 4c 5s 5c 2h"), ordinary_weight=0).special == 20
    assert tien_len_penalty(()).total == 0


def test_instant_win_functions() -> None:
    """RULES §12.4 and §7.5 hand lists."""
    assert tien_len_instant_win(parse_cards("3s 3c 4s 4c 5s 5c 6s 6c 9d Jd Kd Ah 2h")) is None
    assert (
        tien_len_instant_win(
            parse_cards("3s 3c 3d 3h 5s 7c 9s Jc Ks Ac 6s 8c Tc"), first_game_extras=True
        )
        == "four_threes"
    )
    assert sam_instant_win(parse_cards("3h 5h 7h 9h Jh Kh 3d 5d 7d 9d")) == "one_colour"
    assert sam_instant_win(parse_cards("3h 5h 7h 9h Jh Kh 3d 5d 7d 9d"), ()) is None
    assert sam_instant_win(parse_cards("5s 6h 7c 8d 9s Th Jc Qd Ks Ah")) == "dragon"
