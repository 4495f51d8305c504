"""The client's strings (sanh/web/i18n.json): both languages complete, every game term there.

The list of terms is generated from the registry (tests/web/terms.py): every action type, view
field, option name and choice, settlement item, enumerated view value and settlement fact of every
registered game, every text code an engine writes (settlement line details, logs; see
sanh/games/_texts.py) with the terms its arguments name, and every error code of the protocol and
the HTTP API. Text templates must name the same arguments in both languages as the code's
declaration.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from sanh.games import REGISTRY
from sanh.games._texts import TEXTS, placeholders
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
        assert en == english, f"{key}: the English differs from sanh/games/_texts.py"
    for key in table:
        if key.startswith("text."):
            assert key.rsplit(".", 1)[1] in TEXTS, f"{key} names no code of sanh/games/_texts.py"


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
