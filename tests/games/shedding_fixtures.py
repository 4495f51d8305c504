"""Helpers for the shedding-game tests: fixed deals, fixed positions, moves written as text."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sanh.cards.card import Card, parse_card, parse_cards
from sanh.cards.deck import DECK_52
from sanh.errors import NotationError
from sanh.eval.combos import Family
from sanh.games._shedding import Leave, Pass, Play
from sanh.games.base import Action, Game, OptionValue, Shuffle, TableConfig
from sanh.notation.jsonable import to_jsonable


def deck_order(hands: Sequence[Sequence[Card]], size: int) -> tuple[Card, ...]:
    """A deck order that deals ``hands`` (card ``k`` to seat ``k mod n``), rest after."""
    n = len(hands)
    used = [c for h in hands for c in h]
    assert len(set(used)) == len(used), "a card is in two hands"
    assert all(len(h) == size for h in hands), "every hand needs its full size"
    order = [hands[k % n][k // n] for k in range(size * n)]
    taken = set(used)
    return tuple(order + [c for c in DECK_52 if c not in taken])


def deal(
    game: Game[Any],
    hands: Sequence[str],
    *,
    size: int,
    stake: int = 100,
    stacks: Sequence[int] | None = None,
    options: Mapping[str, OptionValue] | None = None,
    carry: Any = None,
    host: int = 0,
) -> Any:
    """A new hand dealt so that seat ``i`` holds ``hands[i]``."""
    config = TableConfig.make(
        seats=len(hands), stake=stake, stacks=stacks, options=options, carry=carry, host=host
    )
    state = game.new_state(config)
    return game.apply(state, Shuffle(deck_order([parse_cards(h) for h in hands], size)))


def move(text: str) -> Action:
    """``"p1 3s4s5d"`` plays, ``"p2 pass"`` passes, ``"leave p3"``: p3 leaves."""
    words = text.split()
    if words[0] == "leave":
        return Leave(int(words[1][1:]) - 1)
    seat = int(words[0][1:]) - 1
    if len(words) > 1 and words[1] == "pass":
        return Pass(seat)
    return Play(seat, parse_cards(" ".join(words[1:])))


def act(game: Game[Any], state: Any, *moves: str) -> Any:
    """Apply moves written as text."""
    for text in moves:
        state = game.apply(state, move(text))
    return state


def position(family: Family, state: Any, **fields: Any) -> Any:
    """A fixed position: ``state`` with fields replaced (hands given as text, sorted)."""
    hands = fields.pop("hands", None)
    if hands is not None:
        fields["hands"] = tuple(family.sort(parse_cards(h)) for h in hands)
    return dataclasses.replace(state, **fields)


def view_cards(view: Any) -> set[Card]:
    """Every card named anywhere in a view's JSON form."""
    found: set[Card] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            with contextlib.suppress(NotationError):
                found.add(parse_card(value))
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(json.loads(json.dumps(to_jsonable(view))))
    return found


def line_total(settlement: Any, seat: int, items: Iterable[str]) -> int:
    """The sum of a seat's settlement lines for some items."""
    wanted = set(items)
    return sum(
        line.amount for line in settlement.lines if line.seat == seat and line.item in wanted
    )
