"""``sanh play --lang``: the whole terminal table speaks the player's language.

A scripted player plays whole hands of every game in Vietnamese and in English, choosing among
its menu with a seeded RNG (an amount at the minimum shown). The output must use only the
language's words (no English word of the web strings that is not also Vietnamese, and no raw
code such as ``card_counts`` or ``total_4``), write amounts in the language's number format,
and offer no table action (closing a window, a forced fold, a timer action). End of input and
Ctrl-C end a session with status 0 and no traceback.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from sanh.cards.rng import SeededRng
from sanh.cli import cmd_play, main
from sanh.cli._table import gold, parse_gold
from sanh.cli._texts import term
from sanh.games import REGISTRY
from sanh.games.base import Action, AmountRange, TableConfig
from sanh.i18n import STRINGS

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"[a-z]+(?:_[a-z0-9]+)+|[^\W\d_]+", re.IGNORECASE)


def _vocabulary(index: int, lang: str) -> set[str]:
    data = json.loads((ROOT / "sanh" / "web" / "i18n.json").read_text(encoding="utf-8"))
    texts = [v[index] for v in data["strings"].values()] + list(STRINGS[lang].values())
    return {w.lower() for text in texts for w in WORD.findall(text)}


VI_WORDS = _vocabulary(0, "vi")
EN_ONLY = _vocabulary(1, "en") - VI_WORDS


class Player:
    """Answers the terminal's prompts: a random menu entry, an amount at the minimum shown."""

    def __init__(self, out: io.StringIO, seed: str, *, limit: int = 400) -> None:
        self.out = out
        self.rnd = random.Random(seed)
        self.limit = limit
        self.menu_size = 1

    def __call__(self, prompt: str = "") -> str:
        self.out.write(prompt + "\n")
        amount = re.search(r"\(\D*?([\d.,]+)\D+[\d.,]+\)", prompt)
        if amount:
            return amount.group(1)
        if "(c/k)" in prompt or "(y/n)" in prompt:
            return "k"
        self.limit -= 1
        if self.limit < 0:
            raise EOFError  # a hand that does not end: the player walks away
        return str(self.rnd.randint(1, self.menu_size))


def _play(
    game_id: str, lang: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, set[str]]:
    """One scripted hand; (the terminal's output, the table action types the game offered)."""
    game = REGISTRY[game_id]
    out = io.StringIO()
    player = Player(out, f"{game_id}/{lang}/{seed}")
    table_actions: set[str] = set()
    menus: list[list[Action | AmountRange | None]] = []
    original_menu = cmd_play.player_menu

    def menu(game_: Any, state: Any) -> list[Action | AmountRange | None]:
        table_actions.update(type(a).__name__ for a in game_.legal_actions_for(state, None))
        choices = original_menu(game_, state)
        menus.append(choices)
        player.menu_size = len(choices)
        return choices

    monkeypatch.setattr(cmd_play, "player_menu", menu)
    monkeypatch.setattr("builtins.input", player)
    seats = 1 if game.info.banked else max(game.info.seats_min, min(3, game.info.seats_max))
    cmd_play.play_session(
        game,
        Console(file=out, width=140),
        lang=lang,
        seats=seats,
        stake=1000,
        balance=1_000_000,
        options={},
        rng=SeededRng(f"language/{game_id}/{seed}"),
        hands=1,
    )
    for choices in menus:
        for choice in choices:
            if isinstance(choice, Action):
                assert choice.seat == cmd_play.HUMAN, choice
            elif isinstance(choice, AmountRange):
                assert choice.template.seat == cmd_play.HUMAN, choice
    return out.getvalue(), table_actions


def _not_vietnamese(word: str) -> bool:
    """A code, an English-only word of the strings, or an ASCII word no Vietnamese text has."""
    lower = word.lower()
    return "_" in word or lower in EN_ONLY or (word.isascii() and lower not in VI_WORDS)


def _menu_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^\s+\d+\) ", line)]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_hand_in_vietnamese_has_no_english_word_and_vietnamese_numbers(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(2):
        text, table_actions = _play(game_id, "vi", seed, monkeypatch)
        assert "Số dư: 10.000,00" in text
        english = sorted({w for w in WORD.findall(text) if _not_vietnamese(w)})
        assert not english, (english, text[-3000:])
        assert not re.search(r"\d\.\d\d(?!\d)", text), "an English decimal point in vi output"
        _no_table_action(game_id, "vi", text, table_actions)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_hand_in_english_has_no_code_and_english_numbers(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(2):
        text, table_actions = _play(game_id, "en", seed, monkeypatch)
        assert "Balance: 10,000.00" in text
        codes = sorted({w for w in WORD.findall(text) if "_" in w})
        assert not codes, (codes, text[-3000:])
        assert not re.search(r"\d,\d\d(?!\d)", text), "a Vietnamese decimal comma in en output"
        _no_table_action(game_id, "en", text, table_actions)


def _no_table_action(game_id: str, lang: str, text: str, table_actions: set[str]) -> None:
    menu = "\n".join(_menu_lines(text))
    for kind in table_actions | {"CloseBetting", "ForceFold", "TimeUp", "CloseDeclarations"}:
        name = term("action", game_id, kind, lang)
        assert not re.search(rf"\d\) {re.escape(name)}( |$)", menu, re.MULTILINE), (kind, menu)


def test_the_tai_xiu_menu_waits_for_the_clock_instead_of_closing_betting() -> None:
    game = REGISTRY["tai-xiu"]
    state = game.new_state(TableConfig.make(seats=1, stake=100))
    clock = game.default_action(state, None, "timeout")
    assert clock is not None and type(clock).__name__ == "CloseBetting"
    assert clock in game.legal_actions_for(state, None)
    choices = cmd_play.player_menu(game, state)
    assert choices[-1] is None
    assert all(c is None or isinstance(c, AmountRange) or c.seat == 0 for c in choices)
    assert not any(isinstance(c, Action) and type(c).__name__ == "CloseBetting" for c in choices)
    out = io.StringIO()
    answers = iter([str(len(choices))])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("builtins.input", lambda prompt="": next(answers))
        assert cmd_play._ask(game, state, Console(file=out, width=200), "vi") == clock
    text = out.getvalue()
    assert "Đóng cửa cược" not in text and "Chờ bàn" in text
    assert "Đặt Xỉu [1,00 .. " in text, text  # the range: no "0,00" amount, the bounds in gold


def test_amounts_are_gold_in_the_language_format() -> None:
    assert gold(1_000_000, "vi") == "10.000,00" and gold(1_000_000, "en") == "10,000.00"
    assert gold(-123_456_789, "vi") == "-1.234.567,89"
    assert parse_gold("10.000,00", "vi") == 1_000_000 == parse_gold("10,000.00", "en")
    assert parse_gold("10000", "vi") == 1_000_000 == parse_gold("10000", "en")
    assert parse_gold("2,5", "vi") == 250 and parse_gold("2.5", "en") == 250
    for bad in ("", "abc", "1,2,3", "1.2.3,4.5"):
        with pytest.raises(ValueError):
            parse_gold(bad, "vi")


@pytest.mark.parametrize("stop", [EOFError, KeyboardInterrupt])
@pytest.mark.parametrize("argv", [["play", "tien-len"], ["play"]])
def test_eof_or_ctrl_c_ends_the_session_with_status_0(
    stop: type[BaseException],
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def ends(prompt: str = "") -> str:
        raise stop

    monkeypatch.setattr("builtins.input", ends)
    assert main([*argv, "--lang", "vi", "--seed", "eof"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    if len(argv) == 2:
        assert re.search(r"Tạm biệt! Số dư cuối: -?\d{1,3}(\.\d{3})*,\d\d\n", captured.out)


def _terminal(args: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "120"}
    return subprocess.Popen(
        [sys.executable, "-m", "sanh", "play", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def test_a_real_end_of_input_exits_0() -> None:
    process = _terminal(["tien-len", "--lang", "en", "--seed", "eof"])
    out, err = process.communicate(b"", timeout=120)
    assert process.returncode == 0, err.decode()
    assert b"Traceback" not in err
    assert re.search(rb"Goodbye! Final balance: -?\d{1,3}(,\d{3})*\.\d\d\n", out), out


def test_a_real_ctrl_c_at_a_prompt_exits_0() -> None:
    process = _terminal(["tien-len", "--lang", "vi", "--seed", "sigint"])
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + 120  # bounds a hang only
    prompts = ("Chọn hành động".encode(), b"(c/k)")  # an action, or another hand
    while not any(prompt in seen for prompt in prompts):
        assert time.monotonic() < deadline, seen
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, seen
        seen += chunk
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err.decode()
    assert b"Traceback" not in err
    assert "Tạm biệt!" in (seen + out).decode()
