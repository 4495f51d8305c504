"""Text codes (sanh/texts.py; the games' codes in sanh/games/_texts.py): building, parsing and
English rendering; every engine writes its settlement line details and log entries as codes."""

from __future__ import annotations

import json

import pytest

from sanh.cards import parse_cards
from sanh.cards.rng import SeededRng
from sanh.games import REGISTRY
from sanh.games._texts import CONFIG_TEXTS, DETAILS, REFUSALS
from sanh.games.base import TableConfig
from sanh.games.driver import random_playout
from sanh.notation.history import dump_history, load_history, record_history, replay_history
from sanh.notation.jsonable import to_jsonable
from sanh.server.texts import SERVER_TEXTS
from sanh.texts import (
    KINDS,
    TEXTS,
    catalogue,
    describe,
    is_code,
    join,
    parse,
    placeholders,
    text,
)


def test_each_code_is_declared_once_beside_its_code() -> None:
    catalogues = [DETAILS, REFUSALS, CONFIG_TEXTS, SERVER_TEXTS]
    assert sum(len(c) for c in catalogues) == len({code for c in catalogues for code in c})
    for templates in catalogues:
        assert all(TEXTS[code] == template for code, template in templates.items())
    # Declaring a code again with its template changes nothing; with another one, it is refused.
    assert catalogue({"odds": DETAILS["odds"]}) == {"odds": "wins {n0}:1"}
    with pytest.raises(ValueError, match="declared twice"):
        catalogue({"odds": "pays {n0}:1"})
    with pytest.raises(ValueError, match="no such placeholder"):
        catalogue({"test_only_bad_placeholder": "pays {amount}"})
    with pytest.raises(ValueError, match="lower-case name"):
        catalogue({"Odds": "wins"})
    assert TEXTS["odds"] == "wins {n0}:1" and "test_only_bad_placeholder" not in TEXTS


def test_every_template_numbers_its_arguments_from_zero() -> None:
    for code, template in TEXTS.items():
        indexes = sorted({index for _, index in placeholders(template)})
        assert indexes == list(range(len(indexes))), code
        kinds = {kind for kind, _ in placeholders(template)}
        assert kinds <= set(KINDS), code
        rest = template
        for kind, index in placeholders(template):
            rest = rest.replace(f"{{{kind}{index}}}", "")
        assert "{" not in rest and "}" not in rest, f"{code}: a brace that is no placeholder"


def test_build_parse_and_describe() -> None:
    detail = join(text("pays_la", 1, 0, 3), text("ordinary", 3), "")
    assert detail == "pays_la:1:0:3|ordinary:3"
    assert parse(detail) == (("pays_la", ("1", "0", "3")), ("ordinary", ("3",)))
    assert describe(detail) == "p2 → p1: 3 lá, 3 ordinary cards"
    cut = text("cut_by", "four", parse_cards("5s 5h 5d 5c"))
    assert cut == "cut_by:four:5s5h5d5c"
    assert describe(cut) == "cut by four 5♠ 5♥ 5♦ 5♣"
    assert describe(text("raises_to", 0, 45000)) == "p1 raised to 450.00"
    assert describe(join(text("odds", "0.95"), text("commission", 4990))) == (
        "wins 0.95:1, commission 49.90"
    )
    names = {0: "You", 1: "Bot 2"}
    assert describe(text("eats", 1, parse_cards("Ks")[0]), seat=names.__getitem__) == (
        "Bot 2 ate K♠"
    )
    assert describe(text("hand", "full_house"), value=str.upper) == "FULL_HOUSE"


def test_builder_refuses_unknown_codes_wrong_arity_and_separators() -> None:
    with pytest.raises(KeyError):
        text("no_such_code")
    with pytest.raises(ValueError, match="takes 1 arguments"):
        text("odds")
    with pytest.raises(ValueError, match="may not hold"):
        text("hand", "a:b")
    with pytest.raises(TypeError):
        text("odds", True)


def test_free_text_is_shown_as_it_is() -> None:
    """Details written before the codes (old hand records) stay readable."""
    for old in ("wins 1:1, profit 8.00, fee 0.40", "p1→p2 1 lá (1 ordinary)", "high card"):
        assert not is_code(old)
        assert parse(old) == ()
        assert describe(old) == old
    assert describe("tie:stake refunded") == "tie:stake refunded"  # code form, unknown code


def _settlements(game_id: str, hands: int) -> list[tuple[object, object]]:
    game = REGISTRY[game_id]
    info = game.info
    out = []
    seed = 1000
    for seats in range(info.seats_min, min(info.seats_max, 5) + 1):
        for _ in range(hands):
            seed += 1
            state = random_playout(game, TableConfig.make(seats=seats, stake=100), SeededRng(seed))
            out.append((state, game.settle(state)))
    return out


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_engines_write_known_codes_and_histories_round_trip(game_id: str) -> None:
    game = REGISTRY[game_id]
    details = 0
    for state, settlement in _settlements(game_id, 8):
        for line in settlement.lines:  # type: ignore[attr-defined]
            if line.detail:
                details += 1
                assert is_code(line.detail), (game_id, line.detail)
                assert all(code in TEXTS for code, _ in parse(line.detail)), line.detail
        data = to_jsonable(settlement)
        assert json.loads(json.dumps(data, ensure_ascii=False)) == data
        history = load_history(dump_history(record_history(game, state)))
        _, replayed = replay_history(history)
        assert replayed == settlement
        view = to_jsonable(game.observe(state, 0))
        for entry in view.get("log", []):
            assert is_code(entry) and all(code in TEXTS for code, _ in parse(entry)), entry
    if game_id not in {"texas-holdem", "poker-aof", "lieng", "xi-to"}:
        assert details, f"{game_id}: no settlement line with a detail in the sample"
