"""Fair randomness: rejection sampling, Fisher-Yates, seeded and provably fair sources."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from scipy.stats import chisquare

from sanh.cards import DECK_52, ProvablyFairRng, SeededRng, SystemRng, commitment_of, shuffled
from sanh.cards.rng import roll_dice
from sanh.cli import main


def test_seeded_is_deterministic_and_seed_sensitive() -> None:
    a = shuffled(DECK_52, SeededRng(1))
    assert a == shuffled(DECK_52, SeededRng(1))
    assert a != shuffled(DECK_52, SeededRng(2))
    assert sorted(a) == list(DECK_52)


def test_randbelow_bounds() -> None:
    for rng in (SeededRng("x"), SystemRng()):
        values = {rng.randbelow(7) for _ in range(500)}
        assert values == set(range(7))
        assert rng.randbelow(1) == 0
        with pytest.raises(ValueError):
            rng.randbelow(0)


def test_provably_fair_stream_is_the_published_hmac() -> None:
    rng = ProvablyFairRng("s3cret", "player", 5)
    expected = hmac.new(b"s3cret", b"player:5:0", hashlib.sha256).digest()
    assert rng.block(0) == expected
    assert rng.commitment == hashlib.sha256(b"s3cret").hexdigest()


def test_commitment_binds_the_deck() -> None:
    """Publishing SHA-256(server seed) fixes the deck: another seed gives another commitment."""
    deck = shuffled(DECK_52, ProvablyFairRng("seed-a", "client", 1))
    assert shuffled(DECK_52, ProvablyFairRng("seed-a", "client", 1)) == deck
    assert commitment_of("seed-a") != commitment_of("seed-b")
    assert shuffled(DECK_52, ProvablyFairRng("seed-b", "client", 1)) != deck
    assert shuffled(DECK_52, ProvablyFairRng("seed-a", "client", 2)) != deck


def test_verify_cli_reproduces_deck_and_dice(capsys: pytest.CaptureFixture[str]) -> None:
    deck = shuffled(DECK_52, ProvablyFairRng("srv", "cli", 3))
    commit = commitment_of("srv")
    args = ["verify", "--server-seed", "srv", "--client-seed", "cli", "--nonce", "3"]
    assert main([*args, "--commitment", commit, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deck"] == [str(c) for c in deck] and out["commitment_ok"] is True
    assert main([*args, "--commitment", "00" * 32, "--json"]) == 1
    capsys.readouterr()
    assert main([*args, "--game", "dice", "--json"]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert dice == list(roll_dice(ProvablyFairRng("srv", "cli", 3), 3))


def test_shuffle_uniformity_chi_square() -> None:
    """Card x position counts over many shuffles fit the uniform distribution."""
    n_cards, shuffles = 8, 16000
    counts = [[0] * n_cards for _ in range(n_cards)]
    rng = SeededRng("chi-square")
    for _ in range(shuffles):
        for position, card in enumerate(shuffled(range(n_cards), rng)):
            counts[card][position] += 1
    flat = [c for row in counts for c in row]
    # Rows and columns are fixed by construction: (n - 1)^2 = 49 degrees of freedom, not 63.
    result = chisquare(flat, ddof=len(flat) - 1 - (n_cards - 1) ** 2)
    assert result.pvalue > 0.001, result


def test_dice_uniformity_chi_square() -> None:
    rng = SeededRng("dice")
    counts = [0] * 6
    for _ in range(6000):
        for die in roll_dice(rng, 3):
            counts[die - 1] += 1
    assert chisquare(counts).pvalue > 0.001
