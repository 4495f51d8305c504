"""The client's strings (sanh/web/i18n.json): both languages complete, every game term there.

The list of terms is generated from the registry (tests/web/terms.py): every action type, view
field, option name, help text and choice, settlement item, enumerated view value and settlement
fact of every registered game, every text code an engine writes (settlement line details, logs;
see sanh/texts.py) with the terms its arguments name, and every error code of the protocol
and the HTTP API. Text templates must name the same arguments in both languages as the code's
declaration; option help texts are written for players (no RULES.md references).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import sanh.server.texts  # noqa: F401  (every code: the hall's too)
from sanh.games import REGISTRY
from sanh.texts import TEXTS, placeholders
from tests.web.terms import HTTP_ERRORS, game_terms, http_error_codes, required_keys

STRINGS_FILE = Path(__file__).resolve().parents[2] / "sanh" / "web" / "i18n.json"
WEB = STRINGS_FILE.parent


def strings() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(STRINGS_FILE.read_text(encoding="utf-8"))
    return data


def test_every_key_has_both_languages() -> None:
    data = strings()
    assert data["languages"] == ["vi", "en"], "Vietnamese is the default (first) language"
    for key, texts in data["strings"].items():
        assert isinstance(texts, list) and len(texts) == 2, key
        assert all(isinstance(text, str) and text.strip() for text in texts), key


def test_every_game_term_of_the_registry_is_translated() -> None:
    have = set(strings()["strings"])
    missing = sorted(required_keys() - have)
    assert not missing, f"untranslated game terms: {missing}"


def test_every_game_has_its_terms_listed() -> None:
    for game_id in REGISTRY:
        terms = game_terms(game_id)
        assert terms["action"], game_id
        assert terms["field"], game_id
        assert terms["item"], game_id


def test_vietnamese_game_terms_of_the_rules() -> None:
    """RULES.md names: Tài/Xỉu (§5.4), Đồng ý (§5.3), Nặn/Lật (3 Cây), Tẩy (§2.3), Móm, Ù."""
    table = strings()["strings"]
    assert table["value.big"][0] == "Tài" and table["value.small"][0] == "Xỉu"
    assert table["action.Confirm"][0] == "Đồng ý"
    assert table["action.Squeeze"][0] == "Nặn"
    assert table["table.stake"][0] == "Tẩy"
    assert table["item.mom"][0].startswith("Móm")
    assert table["item.u_tron"][0] == "Ù tròn"
    assert table["action.xi-to.Check"][0] == "Không tố"
    # Settlement words (RULES.md): cóng, thối, chặt, đền, Ù, tới trắng, Liêng, Sáp, gà, chương.
    assert table["item.cong"][0] == "Cóng" and table["item.thoi"][0] == "Thối"
    assert table["item.instant_win"][0] == "Tới trắng"
    assert "chặt" in table["text.cut_by"][0] and table["text.den"][0].startswith("đền")
    assert table["item.u_den"][0] == "Đền Ù" and table["value.u"][0].startswith("Ù")
    assert table["value.lieng.straight"][0] == "Liêng" and table["value.trips"][0] == "Sáp"
    assert table["text.ga_in"][0] == "góp gà" and table["text.winner_takes_all"][0] == "nhất ăn tất"
    assert table["text.loses_to_banker"][0] == "thua chương"
    assert table["text.eats"][0] == "{seat0} ăn {cards1}"
    # Option help (the create-table tooltips) in the same words.
    assert table["option_help.phom.tai"][0].startswith("Tái:")
    assert "đền làng" in table["option_help.samloc.bao1_penalty"][0]
    assert table["option_help.tlmn.chain_cut"][0].startswith("Chặt đè")
    assert "Tẩy Max" in table["option_help.xito.tay_max"][0]
    assert "nặn" in table["option_help.ba-cay-ga.table.quick_mode"][0]
    assert "gà" in table["option_help.bacayga.ga_multiple"][0]


RULES_REFERENCE = re.compile(r"§|\bA-[A-Z]{2}\d|\[(?:DEF|CP|S\d{3})\]|RULES\.md|\bseed\b")
"""What a help text copied from ``OptionSpec.help`` looks like (``A-HE2``, ``§2.5``)."""


def option_help_key(table: dict[str, Any], game_id: str, name: str) -> str | None:
    """The help key the page shows for an option (as ``tg("option_help", game, name)``)."""
    for key in (f"option_help.{game_id}.{name}", f"option_help.{name}"):
        if key in table:
            return key
    return None


def test_every_option_has_a_help_text_for_players_in_both_languages() -> None:
    """The create-table form's tooltip of every option of every game: in both languages, not the
    option's label again, with no RULES.md reference; every ``option_help`` key names an option
    of the registry (``option_help.<game>.<name>`` one of that game's)."""
    table = strings()["strings"]
    options = {(game_id, o.name) for game_id, g in REGISTRY.items() for o in g.info.options}
    for game_id, name in sorted(options):
        key = option_help_key(table, game_id, name)
        assert key, f"{game_id}: no help text for {name}"
        vi, en = table[key]
        label_vi, label_en = table[f"option.{name}"]
        assert vi != label_vi and en != label_en, f"{key} only repeats the label"
        assert vi != en, f"{key}: the Vietnamese is the English"
        for text in (vi, en):
            assert not RULES_REFERENCE.search(text), f"{key}: {text!r}"
    names = {name for _, name in options}
    for key in table:
        if key.startswith("option_help."):
            rest = key.removeprefix("option_help.")  # an option's name, or a game id and one
            game_id, _, name = rest.partition(".")
            assert rest in names or (game_id, name) in options, f"{key} names no option"


def test_every_text_code_has_its_template_in_both_languages() -> None:
    """``text.<code>``: one per declared code, the same arguments as the declaration in both
    languages, and the English the terminal prints."""
    table = strings()["strings"]
    for code, english in TEXTS.items():
        key = f"text.{code}"
        assert key in table, key
        vi, en = table[key]
        want = sorted(set(placeholders(english)))
        assert sorted(set(placeholders(vi))) == want, (key, vi)
        assert sorted(set(placeholders(en))) == want, (key, en)
        assert en == english, f"{key}: the English differs from its catalogue"
    for key in table:
        if key.startswith("text."):
            assert key.rsplit(".", 1)[1] in TEXTS, f"{key} names no declared code"


def test_the_http_error_codes_are_the_api_s() -> None:
    assert set(HTTP_ERRORS) == http_error_codes()


def test_every_key_the_client_names_exists() -> None:
    """Literal t("...") keys in the scripts are in the table."""
    have = set(strings()["strings"])
    used: set[str] = set()
    for script in [*WEB.glob("*.js"), *WEB.glob("games/*.js")]:
        text = script.read_text(encoding="utf-8")
        used.update(re.findall(r"""\bt\(\s*["']([a-z][\w.-]*)["']""", text))
        used.update(re.findall(r"""data-i18n(?:-label)?=["']([a-z][\w.-]*)["']""", text))
    html = (WEB / "index.html").read_text(encoding="utf-8")
    used.update(re.findall(r"""data-i18n(?:-label)?=["']([a-z][\w.-]*)["']""", html))
    assert used, "no keys found: the pattern is wrong"
    assert not sorted(used - have), sorted(used - have)
