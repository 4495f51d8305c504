"""Helpers shared by the Xì tố and Liêng tests: stacked decks, playing actions, view checks."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from sanh.cards import Card, parse_cards
from sanh.errors import IllegalActionError
from sanh.games.base import Action, Event, Game, Shuffle
from sanh.notation.jsonable import to_jsonable


def stacked(deck: Sequence[Card], first: str) -> Shuffle:
    """A shuffle whose top cards are ``first`` (in order), the rest of ``deck`` after them."""
    top = parse_cards(first)
    rest = [card for card in deck if card not in top]
    assert len(top) + len(rest) == len(deck), "cards not in the deck"
    return Shuffle((*top, *rest))


def play(game: Game[Any], state: Any, events: Iterable[Event]) -> Any:
    """Apply events one by one (each validated)."""
    for event in events:
        state = game.apply(state, event)
    return state


def rejected(game: Game[Any], state: Any, event: Event, match: str) -> IllegalActionError:
    """Assert ``event`` is refused with a message matching ``match`` and the state is intact."""
    snapshot = repr(state)
    with pytest.raises(IllegalActionError, match=match) as info:
        game.apply(state, event)
    assert repr(state) == snapshot
    return info.value


def view_json(game: Game[Any], state: Any, viewer: int | None) -> str:
    """The JSON text of a view."""
    return json.dumps(to_jsonable(game.observe(state, viewer)), ensure_ascii=False)


def card_tokens(text: str) -> set[str]:
    """Every card string that appears as a JSON string value in ``text``."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str) and len(value) == 2:
            found.add(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(json.loads(text))
    return found


def seen_by(game: Game[Any], state: Any, viewer: int | None) -> set[str]:
    """The cards a viewer's view contains."""
    return card_tokens(view_json(game, state, viewer))


def seat_action(actions: Iterable[Action], kind: type[Action]) -> Action:
    """The one action of this type among ``actions``."""
    found = [a for a in actions if type(a) is kind]
    assert len(found) == 1, f"{kind.__name__} not unique in {actions}"
    return found[0]
