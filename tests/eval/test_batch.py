"""The NumPy batch API equals the single-hand evaluators, row for row."""

from __future__ import annotations

import numpy as np
import pytest

import sanh.eval
from sanh.cards import parse_cards
from sanh.eval import evaluate, tcp_rank, teen_patti_rank
from tests.eval.conftest import (
    POKER,
    POKER_BATCH,
    TCP_BATCH,
    TCP_SINGLE,
    TEEN_PATTI_BATCH,
    TEEN_PATTI_SINGLE,
    random_hands,
)

DTYPES = [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64]


@pytest.mark.parametrize("batch_name", sorted(POKER_BATCH))
@pytest.mark.parametrize("single_name", sorted(POKER))
@pytest.mark.parametrize("width", [5, 6, 7])
def test_poker_batch_equals_single(batch_name: str, single_name: str, width: int) -> None:
    hands = random_hands(3000, width, seed=100 + width)
    single = [POKER[single_name](hand) for hand in hands.tolist()]
    assert POKER_BATCH[batch_name](hands).tolist() == single


@pytest.mark.parametrize("batch_name", sorted(TCP_BATCH))
@pytest.mark.parametrize("single_name", sorted(TCP_SINGLE))
def test_three_card_batches_equal_single(batch_name: str, single_name: str) -> None:
    hands = random_hands(5000, 3, seed=3)
    rows = hands.tolist()
    assert TCP_BATCH[batch_name](hands).tolist() == [TCP_SINGLE[single_name](h) for h in rows]
    expected = [TEEN_PATTI_SINGLE[single_name](h) for h in rows]
    assert TEEN_PATTI_BATCH[batch_name](hands).tolist() == expected


@pytest.mark.parametrize("name", sorted(POKER_BATCH))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_any_integer_dtype_and_layout(name: str, dtype: type[np.integer]) -> None:
    hands = random_hands(500, 7, seed=5)
    expected = [evaluate(h) for h in hands.tolist()]
    batch = POKER_BATCH[name]
    assert batch(hands.astype(dtype)).tolist() == expected
    assert batch(np.asfortranarray(hands.astype(dtype))).tolist() == expected
    wide = np.concatenate([hands, hands], axis=1).astype(dtype)
    assert batch(wide[:, :7]).tolist() == expected  # a non-contiguous view
    assert batch(hands.astype(dtype).byteswap().view(np.dtype(dtype).newbyteorder())).tolist() == (
        expected
    )
    assert batch(hands.tolist()).tolist() == expected


def test_result_dtype_and_empty_input() -> None:
    out = sanh.eval.evaluate_batch(np.zeros((0, 7), dtype=np.uint8))
    assert out.dtype == np.int32 and out.shape == (0,)
    assert sanh.eval.tcp_rank_batch(np.zeros((0, 3))).shape == (0,)
    hands = np.array([parse_cards("As Ks Qs Js Ts 2c 3d")], dtype=np.uint8)
    assert sanh.eval.evaluate_batch(hands).dtype == np.int32


@pytest.mark.parametrize("name", sorted(POKER_BATCH))
def test_bad_rows_are_named(name: str) -> None:
    batch = POKER_BATCH[name]
    good = [0, 1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match=r"row 2: duplicate card 3c in \[0, 1, 4, 4, 5, 6, 7\]"):
        batch(np.array([good, good, [0, 1, 4, 4, 5, 6, 7]], dtype=np.uint8))
    with pytest.raises(ValueError, match=r"row 1: card index out of range: -3"):
        batch(np.array([good, [0, 1, 2, 3, 4, 5, -3]], dtype=np.int8))
    with pytest.raises(ValueError, match=r"row 0: card index out of range: 52"):
        batch(np.array([[52, 1, 2, 3, 4, 5, 6], good], dtype=np.int64))
    with pytest.raises(ValueError, match=r"row 0: card index out of range: 300"):
        batch(np.array([[300, 1, 2, 3, 4]], dtype=np.uint16))


@pytest.mark.parametrize("name", sorted(POKER_BATCH))
@pytest.mark.parametrize("count", [1, 2, 3, 4, 6, 7])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64], ids=lambda d: np.dtype(d).name)
def test_several_bad_cards_in_a_row(name: str, count: int, dtype: type[np.integer]) -> None:
    """Any number of cards from 52 to 255 in one row is caught (the portable C loop once missed
    an even number of them)."""
    good = [0, 1, 2, 3, 4, 5, 6]
    for bad in ([52, 53, 60, 63, 100, 200, 255], [255] * 7, [52] * 7):
        row = bad[:count] + good[count:]
        with pytest.raises(ValueError, match=r"row 1: (card index out of range|duplicate)"):
            POKER_BATCH[name](np.array([good, row], dtype=dtype))


@pytest.mark.parametrize("name", sorted(TCP_BATCH))
def test_three_card_bad_rows_are_named(name: str) -> None:
    for batch in (TCP_BATCH[name], TEEN_PATTI_BATCH[name]):
        with pytest.raises(ValueError, match=r"row 1: duplicate card Kh"):
            batch(np.array([[0, 1, 2], [46, 5, 46]]))
        with pytest.raises(ValueError, match=r"row 0: card index out of range: 99"):
            batch(np.array([[99, 1, 2]]))


@pytest.mark.parametrize(
    "cards",
    [
        np.zeros((3, 4), dtype=np.uint8),
        np.zeros((3, 8), dtype=np.uint8),
        np.zeros(7, dtype=np.uint8),
        np.zeros((2, 7), dtype=np.float64),
        np.zeros((2, 7), dtype=bool),
    ],
    ids=["four", "eight", "flat", "float", "bool"],
)
def test_bad_shapes_and_dtypes(cards: np.ndarray) -> None:
    with pytest.raises(ValueError, match=r"shape|integers"):
        sanh.eval.evaluate_batch(cards)


def test_three_card_batch_shape_is_checked() -> None:
    with pytest.raises(ValueError, match=r"shape \(N, 3\)"):
        sanh.eval.tcp_rank_batch(np.zeros((2, 5), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"shape \(N, 3\)"):
        sanh.eval.teen_patti_rank_batch(np.zeros((2, 2), dtype=np.uint8))


def test_batch_functions_are_reachable_from_sanh_eval() -> None:
    from sanh.eval import batch

    assert sanh.eval.evaluate_batch is batch.evaluate_batch
    assert sanh.eval.tcp_rank_batch is batch.tcp_rank_batch
    assert sanh.eval.teen_patti_rank_batch is batch.teen_patti_rank_batch
    with pytest.raises(AttributeError):
        _ = sanh.eval.no_such_thing
    hands = np.array([parse_cards("Ah 2c 3d"), parse_cards("Kh Qc Jd")])
    assert sanh.eval.teen_patti_rank_batch(hands).tolist() == [
        teen_patti_rank(hands[0].tolist()),
        teen_patti_rank(hands[1].tolist()),
    ]
    assert sanh.eval.tcp_rank_batch(hands).tolist() == [tcp_rank(h) for h in hands.tolist()]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_single_calls_accept_numpy_rows(dtype: type[np.integer]) -> None:
    """A row of a card array (NumPy integers) evaluates like a list of ints, in every backend."""
    hands = random_hands(300, 7, seed=17).astype(dtype)
    for hand in hands:
        expected = POKER["python"](hand.tolist())
        assert all(evaluate(hand) == expected for evaluate in POKER.values())
        three = hand[:3].tolist()
        assert all(rank(hand[:3]) == TCP_SINGLE["python"](three) for rank in TCP_SINGLE.values())
        assert all(
            rank(hand[:3]) == TEEN_PATTI_SINGLE["python"](three)
            for rank in TEEN_PATTI_SINGLE.values()
        )


@pytest.mark.parametrize("name", sorted(POKER_BATCH))
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64], ids=lambda d: np.dtype(d).name)
def test_the_first_of_two_bad_rows_is_named(name: str, dtype: type[np.integer]) -> None:
    """A repeat and a bad card close together (in one chunk of the C loop), either way round."""
    hands = random_hands(600, 7, seed=12).astype(dtype)
    repeat, bad = [0, 1, 4, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 99]
    for first, second, message in [(repeat, bad, "duplicate card 3c"), (bad, repeat, "range: 99")]:
        for low, high in [(10, 20), (0, 1), (254, 257), (598, 599)]:
            spoiled = hands.copy()
            spoiled[low], spoiled[high] = first, second
            with pytest.raises(ValueError, match=rf"^row {low}: .*{message}"):
                POKER_BATCH[name](spoiled)
