"""The lookup tables as data (sanh.eval.lookup), and the doctests of sanh.eval."""

from __future__ import annotations

import doctest
import importlib

import pytest

from sanh.eval.lookup import (
    POKER_LOOKUP,
    TCP_LOOKUP,
    TEEN_PATTI_LOOKUP,
    HandCategory,
    Lookup,
    Row,
    TcpCategory,
    multisets,
    rank_key,
    straights,
    teen_patti_straights,
)


@pytest.mark.parametrize(
    "module",
    [
        "sanh.eval",
        "sanh.eval.lookup",
        "sanh.eval.poker",
        "sanh.eval.three_card",
        "sanh.eval.batch",
        "sanh.eval._backend",
    ],
)
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0


def test_rows_are_declared_weakest_first_and_indices_follow() -> None:
    for lookup in (POKER_LOOKUP, TCP_LOOKUP, TEEN_PATTI_LOOKUP):
        categories = [row.category for row in lookup.rows]
        assert categories == sorted(categories)
        assert list(lookup.categories) == sorted(lookup.categories)
        entries = lookup.entries()
        assert [e.index for e in entries] == list(range(len(lookup)))
        for index, (pattern, suited) in enumerate(lookup.patterns):
            assert lookup.get_entry(pattern, suited=suited).index == index
            assert lookup.get_entry(reversed(pattern), suited=suited).index == index


def test_class_counts() -> None:
    """7,462 five-card classes; 741 of each three-card ranking."""
    assert (len(POKER_LOOKUP), len(TCP_LOOKUP), len(TEEN_PATTI_LOOKUP)) == (7462, 741, 741)


def test_get_entry_raises_and_get_entry_or_none_does_not() -> None:
    assert POKER_LOOKUP.get_entry_or_none((0, 0, 0, 0, 0), suited=False) is None
    with pytest.raises(ValueError, match="no hand has ranks"):
        POKER_LOOKUP.get_entry((12, 12, 11, 11, 10), suited=True)
    with pytest.raises(ValueError, match="not a strength"):
        TCP_LOOKUP.category_of(741)
    assert POKER_LOOKUP.category_of(7461) is HandCategory.ROYAL_FLUSH


def test_a_pattern_declared_twice_is_refused() -> None:
    row = Row(TcpCategory.HIGH_CARD, ((2, 1, 0), (0, 1, 2)), suited=False)
    with pytest.raises(ValueError, match="declared twice"):
        Lookup("broken", [row])


def test_multisets_and_straights() -> None:
    assert multisets((2, 2, 1))[0] == (1, 1, 0, 0, 2)  # 3s and 2s with a 4: the weakest
    assert multisets((2, 2, 1))[-1] == (12, 12, 11, 11, 10)
    assert len(multisets((1, 1, 1, 1, 1), exclude=straights(5))) == 1277
    with pytest.raises(ValueError, match="largest first"):
        multisets((1, 2))
    assert straights(5)[0] == (3, 2, 1, 0, 12)
    assert teen_patti_straights()[-2:] == [(1, 0, 12), (12, 11, 10)]
    assert rank_key((12, 12)) == 2 * 5**12
