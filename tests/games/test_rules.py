"""Each rule option is declared once, as a field of the game's Rules dataclass, from which
``GameInfo.options`` and ``Game.rules(config)`` derive."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from sanh.errors import ConfigError
from sanh.games import REGISTRY, find_game
from sanh.games.base import Game, TableConfig
from sanh.games.lieng import Lieng, LiengOptions

GAME = find_game("lieng")


DECLARED = [g for g in REGISTRY.values() if g.info.rules is not None]


@pytest.mark.parametrize("game", DECLARED, ids=lambda g: g.info.id)
def test_each_declared_game_derives_its_options_and_rules(game: Game[Any]) -> None:
    rules_type = game.info.rules
    assert rules_type is not None
    fields = [f for f in dataclasses.fields(rules_type) if "option" in f.metadata]
    assert game.info.options == tuple(f.metadata["option"] for f in fields)
    config = TableConfig.make(seats=game.info.seats_min)
    rules = game.rules(config)
    values = game.options(config)
    for f in fields:
        assert f.default == f.metadata["option"].default, f.name
        assert getattr(rules, f.name) == values[f.metadata["option"].name], f.name


def test_the_options_are_the_fields_of_the_rules_dataclass() -> None:
    assert {"lieng", "xi-to"} <= {g.info.id for g in DECLARED}
    assert GAME.info.rules is LiengOptions
    fields = [f for f in dataclasses.fields(LiengOptions) if "option" in f.metadata]
    assert GAME.info.options == tuple(f.metadata["option"] for f in fields)
    for f in fields:
        assert f.default == f.metadata["option"].default, f.name
    assert "lieng.min_raise" in {o.name for o in GAME.info.options}


def test_rules_give_the_tables_values_typed_and_checked() -> None:
    assert isinstance(GAME, Lieng)
    config = TableConfig.make(seats=3, options={"lieng.direction": "cw", "lieng.min_raise": 2})
    rules = GAME.rules(config)
    values = GAME.options(config)
    for f in dataclasses.fields(rules):
        assert getattr(rules, f.name) == values[f.metadata["option"].name]
    assert rules.step == -1 and rules.min_raise == 2 and rules.raise_cap == 10
    assert GAME.rules(config) is rules  # remembered per option set
    with pytest.raises(ConfigError) as caught:
        GAME.rules(TableConfig.make(seats=2, options={"lieng.raise_cap": 1, "lieng.min_raise": 2}))
    assert caught.value.text == "option_zero_or_at_least:lieng.raise_cap:lieng.min_raise"


def test_a_cached_value_never_lets_an_equal_value_of_another_type_through() -> None:
    assert GAME.rules(TableConfig.make(seats=2, options={"lieng.min_raise": 1})).min_raise == 1
    with pytest.raises(ConfigError, match="expected an integer"):
        GAME.rules(TableConfig.make(seats=2, options={"lieng.min_raise": True}))
    with pytest.raises(ConfigError):
        GAME.rules(TableConfig.make(seats=2, options={"lieng.direction": ["cw"]}))  # type: ignore[dict-item]


def test_options_are_declared_in_one_place_only() -> None:
    with pytest.raises(ValueError, match="derived from the Rules"):
        dataclasses.replace(GAME.info, options=GAME.info.options)


def test_every_game_declares_its_options_once_in_a_rules_dataclass() -> None:
    missing = [g.info.id for g in REGISTRY.values() if g.info.rules is None]
    assert missing == []
    for game in REGISTRY.values():
        rules = game.rules(TableConfig.make(seats=game.info.seats_min))
        assert type(rules) is game.info.rules, game.info.id


def test_three_card_poker_variant_sets_its_flags_and_an_explicit_flag_wins() -> None:
    game = find_game("three-card-poker")
    s002 = game.rules(TableConfig.make(seats=1, options={"tcp.variant": "s002"}))
    assert (s002.shared_player_hand, s002.six_card_bonus, s002.pairplus_paytable) == (
        False,
        False,
        "40-30-6-3-1",
    )
    mixed = game.rules(
        TableConfig.make(seats=1, options={"tcp.variant": "s002", "tcp.six_card_bonus": True})
    )
    assert mixed.six_card_bonus is True and mixed.shared_player_hand is False
    with pytest.raises(ConfigError):
        game.rules(TableConfig.make(seats=1, options={"tcp.bet_min_multiple": 0}))


def test_tai_xiu_minimum_is_the_stake_unless_set_and_limits_are_checked() -> None:
    game = find_game("tai-xiu")
    assert game.new_state(TableConfig.make(seats=2, stake=500)).min_bet == 500
    config = TableConfig.make(seats=2, stake=500, options={"taixiu.min_bet": 700})
    assert game.new_state(config).min_bet == 700
    with pytest.raises(ConfigError):
        game.new_state(TableConfig.make(seats=2, stake=500, options={"taixiu.max_bet": 100}))
    with pytest.raises(ConfigError):
        game.rules(TableConfig.make(seats=2, options={"taixiu.total_paytable": "nonsense"}))
