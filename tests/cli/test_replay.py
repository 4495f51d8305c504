"""``sanh replay FILE [FILE ...] [--json]`` on PHH files and sanh JSON histories."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from sanh.cards.rng import SeededRng
from sanh.cli import main
from sanh.games import find_game
from sanh.games.base import TableConfig
from sanh.games.driver import random_playout
from sanh.notation.history import dump_history, record_history
from sanh.notation.phh import parse_phh, replay_phh
from tests.shared import shared_path


def test_replay_json_gives_one_line_per_hand_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = find_game("texas-holdem")
    config = TableConfig.make(seats=4, stake=100, stacks=[20_000, 15_000, 30_000, 9_000])
    state = random_playout(game, config, SeededRng("cli"))
    history = tmp_path / "hand.json"
    history.write_text(dump_history(record_history(game, state, seed="cli")))
    real = shared_path("phh-real", "abs-50nlh.phhs")
    assert main(["replay", "--json", str(history), str(real)]) == 0
    lines = capsys.readouterr().out.splitlines()
    hands = parse_phh(real.read_text())
    assert len(lines) == 1 + len(hands)
    first = json.loads(lines[0])
    assert first["format"] == "sanh-history/1" and first["game"] == "texas-holdem"
    assert first["final_stacks"] == list(state.stacks)
    for line, hand in zip(lines[1:], hands, strict=True):
        record = json.loads(line, parse_float=Decimal)
        assert record["hand"] == hand.key and record["format"] == "phh"
        expected = replay_phh(hand).final_stacks_in_file_units()
        assert record["final_stacks"] == expected
        assert sum(record["deltas"]) == 0


def test_replay_prints_stacks_and_pots(capsys: pytest.CaptureFixture[str]) -> None:
    real = shared_path("phh-real", "abs-100nlh.phhs")
    assert main(["replay", str(real)]) == 0
    out = capsys.readouterr().out
    assert "[1]: texas-holdem" in out
    assert "final stacks: 201.30  80.60  197.00" in out
    assert "pot 2.00 to p1" in out


def test_replay_reports_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text(
        "variant = 'NT'\nblinds_or_straddles = [1, 2]\nstarting_stacks = [10, 10]\n"
        "actions = ['p1 cc']\n"
    )
    missing = tmp_path / "missing.json"
    assert main(["replay", str(bad), str(missing)]) == 1
    err = capsys.readouterr().err
    assert "bad.phh" in err and "it is p2's turn, not p1's" in err
    assert "missing.json" in err
