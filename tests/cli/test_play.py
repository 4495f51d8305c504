"""``sanh play``: a scripted human plays one hand of every registered game in the terminal.

The script answers the first decision of the hand with the first choice (an amount at its
minimum), then always the last choice (waiting for the table's clock when that is offered,
which closes a betting window). The session balance must change by exactly the seat's settlement.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console

from sanh.cards.rng import SeededRng
from sanh.cli import cmd_play, main
from sanh.errors import IllegalActionError
from sanh.games import REGISTRY
from sanh.games.base import Roll, Settlement, TableConfig
from sanh.games.tai_xiu import CloseBetting, Confirm, Place


class Script:
    """Answers prompts like a cautious player."""

    def __init__(self) -> None:
        self.decisions = 0
        self.prompts: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        amount = re.search(r"\(\D*([\d,]+\.\d\d)", prompt)
        if amount:  # an amount prompt: the minimum (as shown, in the English format)
            return amount.group(1)
        if "(c/k)" in prompt or "(y/n)" in prompt:
            return "k"
        self.decisions += 1
        if self.decisions > 2000:
            raise RuntimeError("the hand does not end")
        return "1" if self.decisions == 1 else str(self.last_choices)

    last_choices = 1


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_one_scripted_hand_changes_balance_by_the_settlement(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = REGISTRY[game_id]
    script = Script()
    settlements: list[Settlement] = []
    original_ask = cmd_play._ask

    def ask(game_: Any, state: Any, console: Console, lang: str) -> Any:
        script.last_choices = max(len(cmd_play.player_menu(game_, state)), 1)
        return original_ask(game_, state, console, lang)

    monkeypatch.setattr(cmd_play, "_ask", ask)
    monkeypatch.setattr(
        cmd_play, "_show_settlement", lambda console, game, s, lang: settlements.append(s)
    )
    monkeypatch.setattr("builtins.input", script)
    console = Console(file=io.StringIO(), width=120)
    seats = 1 if game.info.banked else game.info.seats_min
    start = 1_000_000
    balance = cmd_play.play_session(
        game,
        console,
        lang="en",
        seats=max(seats, game.info.seats_min),
        stake=1000,
        balance=start,
        options={},
        rng=SeededRng(f"play/{game_id}"),
        hands=1,
    )
    assert len(settlements) == 1
    assert balance == start + settlements[0].deltas[0]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("vi", ["Tổng 4", "thắng 1 ăn 50", "lãi 50,00", "phí 2,50", "Xỉu", "cửa Xỉu", "Nhà cái"]),
        (
            "en",
            [
                "Total 4",
                "wins 50:1",
                "profit 50.00",
                "fee 2.50",
                "Small (Xỉu)",
                "You: bet on Total 4",
            ],
        ),
    ],
)
def test_the_settlement_shows_its_details_in_the_language(lang: str, words: list[str]) -> None:
    game = REGISTRY["tai-xiu"]
    state = game.new_state(TableConfig.make(seats=1, stake=100))
    for action in (Place(0, "total_4", 100), Place(0, "small", 100), Confirm(0)):
        state = game.apply(state, action)
    state = game.apply(game.apply(state, CloseBetting(None)), Roll((1, 1, 2)))
    out = io.StringIO()
    cmd_play._show_settlement(Console(file=out, width=200), "tai-xiu", game.settle(state), lang)
    text = out.getvalue()
    for word in words:
        assert word in text, (word, text)
    assert "odds:" not in text and "total_4" not in text


def test_unknown_game_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "no-such-game"]) == 2
    assert "unknown game" in capsys.readouterr().err


def test_every_subcommand_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    from sanh.cli import build_parser

    parser = build_parser()
    with pytest.raises(SystemExit) as exit_info:
        parser.parse_args(["--help"])
    assert exit_info.value.code == 0
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"play", "odds", "simulate", "verify", "serve", "audit", "replay"} <= set(commands)
    for name in commands:
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args([name, "--help"])
        assert exit_info.value.code == 0, name
    assert "usage" in capsys.readouterr().out


def test_a_refusal_is_printed_in_the_chosen_language() -> None:
    """The engine's reason is a text code: the terminal says it in Vietnamese or English."""
    game = REGISTRY["tai-xiu"]
    state = game.new_state(TableConfig.make(seats=2, stake=100))
    with pytest.raises(IllegalActionError) as info:
        game.apply(state, Place(0, "small", 0))
    assert info.value.reason == "chips_not_positive"
    assert cmd_play.refusal(info.value, "tai-xiu", "en") == (
        "Not allowed: chips must be a positive amount"
    )
    assert cmd_play.refusal(info.value, "tai-xiu", "vi") == "Không hợp lệ: số phỉnh phải lớn hơn 0"
    with pytest.raises(IllegalActionError) as info:
        game.apply(state, Place(1, "small", 10**9))
    vi = cmd_play.refusal(info.value, "tai-xiu", "vi")
    assert "vượt quá số dư" in vi and "is over" not in vi and "{" not in vi, vi
