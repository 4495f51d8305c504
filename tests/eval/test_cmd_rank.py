"""``sanh rank KIND``: one strength per input line; bad lines are named and exit with status 2."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from sanh.cards import parse_cards
from sanh.cli import main
from sanh.eval import evaluate, tcp_rank, teen_patti_rank


def run_rank(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    stdin: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["rank", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_poker_prints_one_strength_per_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c 8d 9h", "A♠ K♠ Q♠ J♠ 10♠ 9♠", "9h 9d 9c 9s 2d 3c"]
    status, out, err = run_rank(monkeypatch, capsys, ["poker"], "\n".join(hands) + "\n")
    assert status == 0 and err == ""
    assert out.splitlines() == [str(evaluate(parse_cards(h))) for h in hands]
    values = [int(v) for v in out.split()]
    assert values[0] == values[2] > values[3] > values[1]  # higher = stronger, equal = tie


def test_names_add_the_category(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = "As Ks Qs Js Ts\n5c 4d 3h 2s Ad Kc Kd\n"
    status, out, _ = run_rank(monkeypatch, capsys, ["poker", "--names"], stdin)
    assert status == 0
    assert out == "7461\troyal flush\n" + f"{evaluate(parse_cards('5c 4d 3h 2s Ad'))}\tstraight\n"


@pytest.mark.parametrize(
    ("kind", "rank", "names"),
    [
        ("three-card-poker", tcp_rank, ["mini royal", "straight", "straight"]),
        ("teen-patti", teen_patti_rank, ["straight flush", "straight", "straight"]),
    ],
)
def test_three_card_kinds(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    rank: object,
    names: list[str],
) -> None:
    hands = ["As Ks Qs", "Ah 2c 3d", "Kh Qc Jd"]
    status, out, _ = run_rank(monkeypatch, capsys, [kind, "--names"], "\n".join(hands))
    assert status == 0
    strengths = [int(line.split("\t")[0]) for line in out.splitlines()]
    assert strengths == [rank(parse_cards(h)) for h in hands]  # type: ignore[operator]
    assert [line.split("\t")[1] for line in out.splitlines()] == names
    if kind == "teen-patti":
        assert strengths[1] > strengths[2]  # A-2-3 > K-Q-J (§14.4)
    else:
        assert strengths[1] < strengths[2]  # A-2-3 is the lowest straight (§13.4)


def test_blank_lines_give_blank_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Output line N answers input line N: a blank (or all-space) line gives an empty line."""
    status, out, _ = run_rank(monkeypatch, capsys, ["teen-patti"], "As Ad Ac\n\n   \n2c 3c 4c\n")
    assert status == 0
    lines = out.split("\n")
    assert lines[1:3] == ["", ""] and lines[0] and lines[3] and lines[4] == ""


def test_empty_input_prints_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_rank(monkeypatch, capsys, ["poker"], "") == (0, "", "")


def test_bad_lines_are_named_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A malformed or duplicated card (or a wrong count) names the line: its number and text;
    nothing goes to stdout and the status is 2."""
    stdin = "As Ks Qs Js Ts\nAs As Kd Qd Jd\nAhh 2c 3c 4c 5c\n\n2c 3c\n9x 8c 7c 6c 5c\n"
    status, out, err = run_rank(monkeypatch, capsys, ["poker"], stdin)
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("sanh rank: line 2: 'As As Kd Qd Jd': duplicate card As")
    assert lines[1].startswith("sanh rank: line 3: 'Ahh 2c 3c 4c 5c': not a card")
    assert lines[2] == "sanh rank: line 5: '2c 3c': poker needs 5 to 7 cards, got 2"
    assert lines[3].startswith("sanh rank: line 6: '9x 8c 7c 6c 5c': not a card")


def test_three_card_kinds_need_three_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_rank(monkeypatch, capsys, ["three-card-poker"], "As Ks\nAs Ks Qs\n")
    assert (status, out) == (2, "")
    assert err == "sanh rank: line 1: 'As Ks': three-card-poker needs 3 cards, got 2\n"


def test_unknown_kind_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        run_rank(monkeypatch, capsys, ["blackjack"], "As Ks\n")
    assert exc.value.code == 2


def test_real_process_exit_status_and_streams() -> None:
    """Through a real process: stdin, stdout, stderr and the exit status."""
    command = [sys.executable, "-m", "sanh", "rank", "teen-patti"]
    good = subprocess.run(command, input="A♠ A♦ A♣\n", capture_output=True, text=True, check=False)
    assert (good.returncode, good.stdout) == (0, "740\n")
    bad = subprocess.run(command, input="A♠ A♠ A♣\n", capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "line 1: 'A♠ A♠ A♣': duplicate card As" in bad.stderr
