"""Interop for the poker environments: OpenSpiel-style information states and PHH out.

* :func:`information_state_string` writes one seat's information state in the shape of
  OpenSpiel's ``universal_poker`` strings (``[Round 1][Player: 0][Pot: 600][Money: ...]
  [Private: AsKd][Public: 9h9c8d][Sequences: cr600c]``), from the seat's Hold'em view only;
* :func:`to_phh` writes a Hold'em hand played in an environment as PHH text
  (:func:`sanh.notation.phh.format_phh`), complete or as one seat could know it.
"""

from __future__ import annotations

from sanh.env.aec import SanhEnv
from sanh.errors import NotationError
from sanh.games.texas_holdem import HoldemView
from sanh.notation.phh import format_phh

__all__ = ["information_state_string", "to_phh"]

_ROUNDS = {"deal": 0, "preflop": 0, "flop": 1, "turn": 2, "river": 3, "over": 3, "showdown": 3}
_LETTERS = {"folds": "f", "checks": "c", "calls": "c", "raises_to": "r", "goes_all_in": "a"}


def information_state_string(view: HoldemView) -> str:
    """The viewer's information state, OpenSpiel ``universal_poker`` style.

    Round (0 preflop … 3 river), the viewer, the pot (every chip committed), each seat's
    stack, the viewer's hole cards, the board, and the betting sequence: ``f`` fold, ``c``
    check or call, ``r<amount>`` raise to, ``a`` all in.

    :raises ValueError: for a spectator's view (no viewer).
    """
    if view.viewer is None:
        raise ValueError("an information state belongs to a seat")
    hole = view.hole[view.viewer] if view.viewer < len(view.hole) else ()
    private = "".join(str(c) for c in hole if c is not None)
    public = "".join(str(c) for c in view.board)
    sequence = []
    for entry in view.log:
        verb, *rest = entry.split(":")
        letter = _LETTERS.get(verb)
        if letter is None:
            continue
        if letter == "r" and len(rest) >= 2:
            letter += rest[1]
        sequence.append(letter)
    money = " ".join(str(s) for s in view.stacks)
    return (
        f"[Round {_ROUNDS.get(view.street, 0)}][Player: {view.viewer}]"
        f"[Pot: {sum(view.contributed)}][Money: {money}][Private: {private}]"
        f"[Public: {public}][Sequences: {''.join(sequence)}]"
    )


def to_phh(env: SanhEnv, viewer: int | None = None) -> str:
    """The Hold'em hand of ``env`` as PHH text (``viewer``: only what that seat could see).

    :raises NotationError: if the environment does not play Texas Hold'em or Poker AOF.
    """
    if env.table.game.info.id not in {"texas-holdem", "poker-aof"}:
        raise NotationError(f"PHH is for Hold'em, not {env.table.game.info.id}")
    return format_phh(env.table.state, viewer=viewer)
