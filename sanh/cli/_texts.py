"""Engine text codes in words for the terminal, in Vietnamese or English.

:func:`describe` puts an engine's text code (a settlement line detail, a log entry; see
:mod:`sanh.texts`) into words with the web client's templates (``sanh/web/i18n.json``:
``text.*``, ``value.*``, ``item.*``, ``action.*``), the way the page does, so that the terminal
and the browser say the same thing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

from sanh.i18n import LANGUAGES
from sanh.texts import describe as describe_code
from sanh.texts import parse
from sanh.types import format_gold

__all__ = ["describe", "term", "web_strings"]

WEB_STRINGS = Path(__file__).resolve().parents[1] / "web" / "i18n.json"


@cache
def web_strings() -> dict[str, tuple[str, ...]]:
    """The web client's strings: key -> one text per language of :data:`LANGUAGES`."""
    data = json.loads(WEB_STRINGS.read_text(encoding="utf-8"))
    order = [data["languages"].index(lang) for lang in LANGUAGES]
    return {key: tuple(texts[i] for i in order) for key, texts in data["strings"].items()}


def term(kind: str, game: str, name: str, lang: str) -> str:
    """``kind.game.name``, else ``kind.name``, else the name itself (as the page's ``tg``)."""
    table = web_strings()
    index = LANGUAGES.index(lang)
    for key in (f"{kind}.{game}.{name}", f"{kind}.{name}"):
        if key in table:
            return table[key][index]
    return name


def describe(
    text: str,
    lang: str = "vi",
    *,
    game: str = "",
    seat: Callable[[int], str] | None = None,
    gold: Callable[[int], str] | None = None,
) -> str:
    """An engine text code in words in ``lang``; a text that is no known code as it is.

    ``seat`` names an engine seat (default: "Ghế 2" / "Seat 2"); ``gold`` writes an amount
    (default: the language's format, ``1,234.00`` / ``1.234,00``).
    """
    index = LANGUAGES.index(lang)
    table = web_strings()
    templates = {}
    for code, _args in parse(text):
        for key in (f"text.{game}.{code}", f"text.{code}"):
            if key in table:
                templates[code] = table[key][index]
                break
    default_seat = term("table", "", "seat_n", lang)
    return describe_code(
        text,
        templates,
        seat=seat or (lambda s: default_seat.replace("{n}", str(s + 1))),
        value=lambda name: term("value", game, name, lang),
        item=lambda name: term("item", game, name, lang),
        action=lambda name: term("action", game, name, lang),
        gold=gold or (lambda units: format_gold(units, lang)),
    )
