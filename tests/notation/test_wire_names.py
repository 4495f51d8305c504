"""Actions are named on the wire by their declared ``wire`` name, not their Python class name,
and stored logs written with older names still replay."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from sanh.errors import NotationError
from sanh.games import REGISTRY
from sanh.games.base import Action, Game
from sanh.notation.history import load_history, replay_history
from sanh.notation.jsonable import action_types_by_wire, event_from_json, to_jsonable

STORED = Path(__file__).parent / "data" / "histories_before_wire_names.json"


def test_every_action_declares_a_distinct_wire_name() -> None:
    for game in REGISTRY.values():
        names = action_types_by_wire(game.info.action_types)
        for cls in game.info.action_types:
            assert "wire" in cls.__dict__, cls
            assert names[cls.wire] is cls, (game.info.id, cls.wire)


def test_stored_logs_written_before_the_wire_names_replay() -> None:
    hands = json.loads(STORED.read_text(encoding="utf-8"))["hands"]
    assert {h["history"]["game"] for h in hands} >= {"tai-xiu", "texas-holdem", "phom"}
    for hand in hands:
        history = load_history(json.dumps(hand["history"]))
        _, settlement = replay_history(history)
        assert to_jsonable(settlement) == hand["settlement"], history.game
        # Written again, the events carry the same names (a renamed field under its name now).
        events = [to_jsonable(e) for e in history.events]
        assert events == [_renamed(e) for e in hand["history"]["events"]], history.game


@dataclasses.dataclass(frozen=True, slots=True)
class _Nudge(Action):
    """A test action whose wire name changed from ``Poke`` to ``Nudge``."""

    wire = "Nudge"
    wire_aliases = ("Poke",)

    amount: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class _Poke(Action):
    """An action whose wire name is the other's old one: the current name wins."""

    wire = "Poke"


def _game(*types: type[Action]) -> Game[Any]:
    return cast(Game[Any], SimpleNamespace(info=SimpleNamespace(id="test", action_types=types)))


def test_an_old_wire_name_reads_as_the_action_it_became() -> None:
    game = _game(_Nudge)
    assert event_from_json(game, {"type": "Poke", "seat": 0, "amount": 5}) == _Nudge(0, 5)
    assert event_from_json(game, {"type": "Nudge", "seat": 1}) == _Nudge(1)
    assert to_jsonable(_Nudge(0, 5)) == {"type": "Nudge", "seat": 0, "amount": 5}
    assert str(_Nudge(0, 5)) == "p1 nudge 5"
    with pytest.raises(NotationError):
        event_from_json(game, {"type": "_Nudge", "seat": 0})  # never the class name
    both = _game(_Nudge, _Poke)
    assert event_from_json(both, {"type": "Poke", "seat": 0}) == _Poke(0)


def test_an_action_without_a_wire_name_is_refused() -> None:
    with pytest.raises(TypeError, match="declares no wire name"):

        @dataclasses.dataclass(frozen=True, slots=True)
        class Nameless(Action):
            pass

    with pytest.raises(ValueError, match="named 'Nudge'"):

        @dataclasses.dataclass(frozen=True, slots=True)
        class Twin(Action):
            wire = "Nudge"

        action_types_by_wire((_Nudge, Twin))


def _renamed(event: dict[str, Any]) -> dict[str, Any]:
    """A stored event with Three Card Poker's ``Bet.spot`` under its name now, ``bet``."""
    if event.get("type") == "Bet" and "spot" in event:
        return {("bet" if key == "spot" else key): value for key, value in event.items()}
    return event


def test_a_renamed_field_is_read_under_its_old_name_and_both_are_refused() -> None:
    game = REGISTRY["three-card-poker"]
    old = event_from_json(game, {"type": "Bet", "seat": 0, "spot": "pair_plus", "amount": 100})
    new = event_from_json(game, {"type": "Bet", "seat": 0, "bet": "pair_plus", "amount": 100})
    assert old == new
    assert to_jsonable(old) == {"type": "Bet", "seat": 0, "bet": "pair_plus", "amount": 100}
    with pytest.raises(NotationError):
        event_from_json(
            game, {"type": "Bet", "seat": 0, "spot": "ante", "bet": "ante", "amount": 100}
        )


def test_every_house_bet_names_its_bet_field_bet() -> None:
    for game_id in ("three-card-poker", "teen-patti-2020", "tai-xiu"):
        game = REGISTRY[game_id]
        betting = [c for c in game.info.action_types if c.wire in ("Bet", "Place")]
        assert betting, game_id
        for cls in betting:
            assert "bet" in {f.name for f in dataclasses.fields(cls)}, (game_id, cls)
