"""Both languages carry every user-facing key."""

from __future__ import annotations

from sanh.i18n import LANGUAGES, STRINGS, t


def test_every_language_has_every_key() -> None:
    keys = {lang: set(STRINGS[lang]) for lang in LANGUAGES}
    assert keys["vi"] == keys["en"]
    for lang in LANGUAGES:
        for key in keys[lang]:
            assert STRINGS[lang][key].strip(), f"{lang}.{key} is empty"


def test_format_fields() -> None:
    assert t("amount", "en", min="1.00", max="5.00") == "Amount (from 1.00 to 5.00)"
    assert "1.00" in t("amount", "vi", min="1.00", max="5.00")
