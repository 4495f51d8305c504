"""``sanh verify``: a provably fair round is recomputed; input that names no round is refused."""

from __future__ import annotations

import json

import pytest

from sanh.cards.card import format_cards
from sanh.cards.deck import DECKS
from sanh.cards.rng import ProvablyFairRng, commitment_of, shuffled
from sanh.cli import main


def test_a_deck_is_recomputed_and_the_commitment_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed = "a" * 64
    args = ["verify", "--server-seed", seed, "--client-seed", "table-1", "--nonce", "3"]
    assert main([*args, "--commitment", commitment_of(seed), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = format_cards(shuffled(DECKS["52"], ProvablyFairRng(seed, "table-1", 3))).split()
    assert out["deck"] == expected and out["commitment_ok"] is True
    assert main([*args, "--commitment", "0" * 64]) == 1
    assert "COMMITMENT DOES NOT MATCH" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--server-seed", "", "--client-seed", "t", "--nonce", "0"], "seed_empty"),
        (["--server-seed", "   ", "--client-seed", "t", "--nonce", "0"], "seed_empty"),
        (["--server-seed", "s", "--client-seed", "", "--nonce", "0"], "seed_empty"),
        (["--server-seed", "s", "--client-seed", "t", "--nonce", "-1"], "nonce_negative"),
    ],
)
def test_an_empty_seed_or_a_negative_nonce_is_refused(
    args: list[str], code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith(f"sanh verify: {code}: ") and "\n" not in err, err
    assert "Traceback" not in err


def test_nonce_zero_is_a_round(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--server-seed", "s", "--client-seed", "t", "--nonce", "0"]) == 0
    assert capsys.readouterr().out.startswith("commitment  " + commitment_of("s"))
