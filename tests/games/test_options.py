"""Option names: RULES.md's, one name per option; the names older configs used are aliases.

Every option a game declares is named ``<prefix>.<name>`` with a prefix of RULES.md. The house
games' options went without a prefix before they took RULES.md's names (``variant``,
``betting_s``, ``table``...): those names are the options' deprecated aliases, read from older
configs and hand histories (:meth:`Game.canonical_options`) and refused, with a hint, in a new
table's options.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from sanh.cards.card import parse_cards
from sanh.cards.rng import SeededRng
from sanh.errors import ConfigError, NotationError
from sanh.eval.melds import card_points
from sanh.games import REGISTRY, find_game, sam_loc
from sanh.games.base import MAX_TIMER_S, TableConfig
from sanh.games.driver import random_playout
from sanh.notation.history import (
    config_from_json,
    dump_history,
    load_history,
    record_history,
    replay_history,
)
from sanh.notation.jsonable import to_jsonable
from sanh.server.settings import Settings
from tests.shared import shared_path

ROOT = Path(__file__).resolve().parents[2]
OPTIONS_MD = ROOT / "docs" / "options.md"

PREFIXES = frozenset(
    {
        "aof",
        "bacaychuong",
        "bacayga",
        "clan",
        "holdem",
        "lieng",
        "phom",
        "platform",
        "samloc",
        "table",
        "taixiu",
        "tcp",
        "teenpatti",
        "tlmn",
        "xito",
    }
)
"""The prefixes of RULES.md's option names (``tcp.variant``, ``clan.treasury_source``...)."""

RULES_NAME = re.compile(r"`((?:" + "|".join(sorted(PREFIXES)) + r")\.[a-z_0-9]+)")
"""An option name where RULES.md writes one (``platform.xp_*`` gives ``platform.xp_``)."""

OLD_NAMES: dict[str, dict[str, str]] = {
    "three-card-poker": {
        "variant": "tcp.variant",
        "shared_player_hand": "tcp.shared_player_hand",
        "fold_forfeits_pairplus": "tcp.fold_forfeits_pairplus",
        "pairplus_paytable": "tcp.pairplus_paytable",
        "six_card_bonus": "tcp.six_card_bonus",
        "ante_bonus_on_forced_fold": "tcp.ante_bonus_on_forced_fold",
        "bet_min_multiple": "tcp.bet_min_multiple",
        "bet_max_multiple": "tcp.bet_max_multiple",
        "betting_s": "tcp.betting_s",
        "decision_s": "tcp.decision_s",
    },
    "tai-xiu": {
        "table": "taixiu.table",
        "allow_opposite_bets": "taixiu.allow_opposite_bets",
        "min_bet": "taixiu.min_bet",
        "max_bet": "taixiu.max_bet",
        "total_paytable": "taixiu.total_paytable",
        "triple_loses_totals": "taixiu.triple_loses_totals",
        "fee_basis": "taixiu.fee_basis",
        "fee_on_host": "taixiu.fee_on_host",
        "clan_treasury_source": "clan.treasury_source",
        "clan_treasury_min_stake": "clan.treasury_min_stake",
        "betting_s": "taixiu.betting_s",
    },
    "teen-patti-2020": {
        "betting_s": "teenpatti.betting_s",
        "bet_min_multiple": "teenpatti.bet_min_multiple",
        "bet_max_multiple": "teenpatti.bet_max_multiple",
        "main_pays_pct": "teenpatti.main_pays_pct",
        "tie_pays": "teenpatti.tie_pays",
        "pairplus_paytable": "teenpatti.pairplus_paytable",
        "six_card_paytable": "teenpatti.six_card_paytable",
    },
}
"""Every option name of the house games before they took RULES.md's names, and the new name."""

NON_DEFAULT: dict[str, dict[str, Any]] = {
    "three-card-poker": {
        "tcp.variant": "s002",
        "tcp.six_card_bonus": True,
        "tcp.bet_max_multiple": 50,
        "tcp.betting_s": 20,
    },
    "tai-xiu": {
        "taixiu.allow_opposite_bets": True,
        "taixiu.total_paytable": "macau",
        "taixiu.fee_basis": "round_net",
        "clan.treasury_source": "extra",
        "taixiu.betting_s": 25,
    },
    "teen-patti-2020": {
        "teenpatti.main_pays_pct": 90,
        "teenpatti.tie_pays": 40,
        "teenpatti.bet_max_multiple": 500,
        "teenpatti.betting_s": 20,
    },
}
"""Options of each house game that change its rounds (and its settlements)."""


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_option_is_named_with_a_rules_md_prefix(game_id: str) -> None:
    for spec in REGISTRY[game_id].info.options:
        prefix, dot, rest = spec.name.partition(".")
        assert dot and prefix in PREFIXES, f"{game_id}: {spec.name} has no RULES.md prefix"
        assert re.fullmatch(r"[a-z0-9_]+", rest), spec.name
        for alias in spec.aliases:
            assert "." not in alias, f"{game_id}: alias {alias} of {spec.name}"


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_an_alias_names_one_option_and_never_an_option_of_its_own(game_id: str) -> None:
    info = REGISTRY[game_id].info
    names = {spec.name for spec in info.options}
    aliases = [alias for spec in info.options for alias in spec.aliases]
    assert len(aliases) == len(set(aliases)), f"{game_id}: an alias names two options"
    assert not names & set(aliases), f"{game_id}: an alias is an option's name"


@pytest.mark.parametrize("game_id", sorted(OLD_NAMES))
def test_the_house_games_old_names_are_their_deprecated_aliases(game_id: str) -> None:
    game = REGISTRY[game_id]
    assert game.deprecated_names() == OLD_NAMES[game_id]
    names = {spec.name for spec in game.info.options} - NEWER_OPTIONS
    assert names == set(OLD_NAMES[game_id].values())


NEWER_OPTIONS = {"tcp.no_balance_is_fold"}
"""Options added after the house games' options got their prefixes: no old name."""


def test_canonical_options_read_old_names_under_the_new_ones() -> None:
    game = find_game("tai-xiu")
    old = {"table": "player", "min_bet": 500, "clan_treasury_source": "extra"}
    assert game.canonical_options(old) == {
        "taixiu.table": "player",
        "taixiu.min_bet": 500,
        "clan.treasury_source": "extra",
    }
    both = {"taixiu.table": "player", "table": "player", "table.quick_mode": True}
    assert game.canonical_options(both) == {"taixiu.table": "player", "table.quick_mode": True}
    with pytest.raises(ConfigError, match=re.escape("'taixiu.table' is given twice")):
        game.canonical_options({"taixiu.table": "player", "table": "system"})
    config = TableConfig.make(seats=2, options=old)
    canonical = game.canonical_config(config)
    assert canonical.option_map == game.canonical_options(old)
    assert game.new_state(canonical).rules.player_table


@pytest.mark.parametrize("game_id", sorted(OLD_NAMES))
def test_a_new_table_refuses_an_old_name_and_names_the_new_one(game_id: str) -> None:
    game = REGISTRY[game_id]
    for old, new in OLD_NAMES[game_id].items():
        value = next(spec.default for spec in game.info.options if spec.name == new)
        config = TableConfig.make(seats=2, options={old: value})
        with pytest.raises(
            ConfigError, match=f"unknown option '{old}' \\(now '{re.escape(new)}'\\)"
        ):
            game.new_state(config)


@pytest.mark.parametrize("game_id", sorted(OLD_NAMES))
def test_a_hand_history_written_with_the_old_names_loads_and_replays(game_id: str) -> None:
    """A history whose config names the options the old way (as files written before the
    rename do) loads under the new names and replays to its recorded settlement."""
    game = REGISTRY[game_id]
    options = NON_DEFAULT[game_id]
    config = TableConfig.make(seats=3, stake=100, options=options, clan_members=[True] * 3)
    state = random_playout(game, config, SeededRng(f"old-names-{game_id}"))
    data = json.loads(dump_history(record_history(game, state, seed="old")))
    renamed = {new: old for old, new in OLD_NAMES[game_id].items()}
    data["config"]["options"] = {renamed[k]: v for k, v in data["config"]["options"].items()}
    assert not set(data["config"]["options"]) & set(options), "the file has only old names"
    history = load_history(json.dumps(data))
    assert history.config == config
    replayed, settlement = replay_history(history)
    assert replayed == state
    assert to_jsonable(settlement) == data["settlement"] == to_jsonable(game.settle(state))


def test_config_from_json_reads_old_names_only_when_it_knows_the_game() -> None:
    game = find_game("three-card-poker")
    data = {"seats": 1, "stake": 100, "stacks": [10_000], "options": {"variant": "s002"}}
    assert config_from_json(data, game).option_map == {"tcp.variant": "s002"}
    assert config_from_json(data).option_map == {"variant": "s002"}
    clash = {**data, "options": {"variant": "s002", "tcp.variant": "s000"}}
    with pytest.raises(NotationError, match="given twice"):
        config_from_json(clash, game)


# ----- every RULES.md name is an option or a documented hall setting --------------------------


def rules_md_names() -> set[str]:
    """Every option name RULES.md gives."""
    return set(RULES_NAME.findall(shared_path("RULES.md").read_text()))


def engine_option_names() -> set[str]:
    return {spec.name for game in REGISTRY.values() for spec in game.info.options}


def documented() -> dict[str, tuple[str, str]]:
    """The rows of ``docs/options.md``'s table of hall settings and fixed rules:
    RULES.md name -> (where it is in sanh, its default)."""
    text = OPTIONS_MD.read_text()
    section = text.split("## Hall settings and fixed rules", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 4:
            name = cells[0].strip("`")
            assert name not in rows, f"{name} is documented twice"
            rows[name] = (cells[1], cells[2])
    return rows


def test_every_rules_md_option_name_is_an_engine_option_or_a_documented_setting() -> None:
    names = rules_md_names()
    assert len(names) > 90 and "tcp.variant" in names and "platform.turn_timer_s" in names
    engine, rows = engine_option_names(), documented()
    missing = []
    for name in sorted(names):
        if name.endswith("_"):  # a family of names, ``platform.xp_*``
            if not any(row.startswith(name) for row in rows):
                missing.append(name + "*")
        elif name not in engine and name not in rows:
            missing.append(name)
    assert not missing, f"RULES.md names neither an option nor in docs/options.md: {missing}"
    for name in rows:
        assert name not in engine, f"{name} is an engine option: drop its docs/options.md row"
        in_rules = name in names or any(n.endswith("_") and name.startswith(n) for n in names)
        assert in_rules, f"docs/options.md lists {name}, which RULES.md does not name"


def test_the_documented_settings_and_fixed_rules_are_the_codes() -> None:
    """Each row of docs/options.md says where the rule is and its default: a hall setting's
    field exists with that default; a fixed rule's value is the code's."""
    rows = documented()
    defaults = Settings()
    fields = {f.name for f in dataclasses.fields(Settings)}
    settings_rows = 0
    for name, (where, default) in rows.items():
        setting = re.fullmatch(r"setting `([a-z_]+)`", where)
        if setting is None:
            assert where.startswith(("fixed", "game limit")), f"{name}: {where}"
            continue
        settings_rows += 1
        field = setting.group(1)
        assert field in fields, f"{name}: no setting {field}"
        value = getattr(defaults, field)
        expected: object = {"true": True, "false": False}.get(default, default)
        if isinstance(value, int | float) and not isinstance(value, bool):
            expected = float(default)
        assert value == expected, f"{name}: {field} is {value!r}, documented {default}"
    assert settings_rows >= 4
    assert rows["samloc.hand_size"][1] == str(sam_loc.HAND_SIZE) == "10"
    assert rows["samloc.max_players"][1] == str(REGISTRY["sam-loc"].info.seats_max) == "5"
    assert rows["phom.card_points"][1] == "A = 1 … K = 13"
    points = [card_points(card) for card in parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")]
    assert points == list(range(1, 14))
    assert rows["platform.rake_pct"][1] == "0" and rows["clan.all_games"][1] == "false"


def test_every_timer_option_takes_1_second_to_an_hour() -> None:
    """A window or timer option (``..._s``) of zero, negative or absurd length is refused."""
    timers = [
        (game, spec)
        for game in REGISTRY.values()
        for spec in game.info.options
        if spec.name.endswith("_s")
    ]
    assert len(timers) >= 7
    for game, spec in timers:
        seats = max(game.info.seats_min, 2)
        for bad in (0, -5, MAX_TIMER_S + 1):
            with pytest.raises(ConfigError, match="timer"):
                game.options(TableConfig.make(seats=seats, options={spec.name: bad}))
        for good in (1, MAX_TIMER_S):
            assert (
                game.options(TableConfig.make(seats=seats, options={spec.name: good}))[spec.name]
                == good
            )
