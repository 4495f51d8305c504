"""``Game.remap_carry`` for the games whose carry names seats only (no money): the carried
seats follow their players into the next lineup; a player gone leaves the game's first-hand
rule (pure: the carry given is not changed)."""

from __future__ import annotations

from sanh.games import find_game
from sanh.games.base import TableConfig

MOVED = {0: 0, 1: None, 2: 1, 3: 2}
"""Seat 1 left between hands: seats 2 and 3 move down."""


def test_sam_and_tien_len_renumber_their_winner_and_runner_up() -> None:
    sam = find_game("sam-loc")
    assert sam.remap_carry({"winner": 3}, MOVED) == {"winner": 2}
    assert sam.remap_carry({"winner": 1}, MOVED) == {"winner": None}
    tlmn = find_game("tien-len")
    carry = {"winner": 2, "runner_up": 1}
    assert tlmn.remap_carry(carry, MOVED) == {"winner": 1, "runner_up": None}
    assert carry == {"winner": 2, "runner_up": 1}
    moved = tlmn.remap_carry(carry, MOVED)
    state = tlmn.new_state(TableConfig.make(seats=3, stake=100, carry=moved))
    assert state.config.carry == {"winner": 1, "runner_up": None}


def test_lieng_and_xi_to_renumber_the_winner_pair_and_keep_the_rest() -> None:
    lieng = find_game("lieng")
    assert lieng.remap_carry((("winner", 3),), MOVED) == (("winner", 2),)
    assert lieng.remap_carry((("winner", 1),), MOVED) == ()
    xito = find_game("xi-to")
    carry = (("winner", 1), ("hole_5th", True), ("tay_max", False))
    assert xito.remap_carry(carry, MOVED) == (("hole_5th", True), ("tay_max", False))
    assert xito.remap_carry(None, MOVED) is None


def test_holdem_button_search_starts_at_the_next_player_still_here() -> None:
    holdem = find_game("texas-holdem")
    assert holdem.remap_carry({"button": 3}, MOVED) == {"button": 2}
    assert holdem.remap_carry({"button": 1}, MOVED) == {"button": 1}  # seat 1 gone: seat 2's
    everyone_gone = dict.fromkeys(range(4))
    assert holdem.remap_carry({"button": 1}, everyone_gone) is None
