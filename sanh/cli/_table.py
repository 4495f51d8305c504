"""The terminal table in the player's language, from the web client's strings.

``sanh play`` shows a seat's view with :func:`render_view`, a plain-text port of the page's
generic details panel (``renderValue`` in ``sanh/web/app.js``): each field under its
``field.*`` label, seats by name, cards as cards, amounts in gold and enumerated values
through ``value.*`` (``sanh/web/i18n.json``). :func:`action_label` names an action as the
page's ``actionLabel`` does, and :func:`gold` writes an amount in the language's number format
(``vi``: ``10.000,00``; ``en``: ``10,000.00``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sanh.cards.card import parse_card
from sanh.cli._texts import describe, term, web_strings
from sanh.i18n import LANGUAGES
from sanh.notation.jsonable import to_jsonable

__all__ = ["action_label", "gold", "label", "parse_gold", "render_view", "word"]

Names = Callable[[int], str]

_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
_CARD_RUN = re.compile(r"^([2-9TJQKA][cdhs])( [2-9TJQKA][cdhs])+$")
# The page's field classes (sanh/web/app.js), so that both show a field the same way.
_MONEY = re.compile(
    r"(pot|bet|stack|amount|stake|bank|balance|contribution|contributed|committed|ante|blind"
    r"|call|paid$|won|delta|result|cover|totals|^ga$|^my_(confirmed|pending)$)",
    re.IGNORECASE,
)
_SEAT_FIRST = re.compile(r"(^|_)(seat|banker)$")
_SEATS = re.compile(
    r"(seat|winner|banker|declarer|liable|current|host|leader|button|start|turn|ranking|order"
    r"|players|winners|in_play|passed|finished|undecided|sitting_out|left|thoi)$"
)
_TEXT_FIELDS = frozenset({"detail", "log", "reason"})
_SKIPPED = frozenset(
    {"legal_actions", "amount_ranges", "game", "viewer", "version", "timers", "to_act", "terminal"}
)
_SEAT_ENTRIES = frozenset({"trick", "shown"})
"""List fields whose entries are a seat and what it showed: ``[[seat, cards...], ...]``."""
_ACTION_SKIPPED = frozenset({"type", "seat", "sizes", "chair", "clan"})
_ACTION_MONEY = frozenset({"amount", "stack"})
_PER_SEAT_LIST = frozenset(
    {"card_counts", "played", "paid_la", "hands", "rows", "eaten", "melds", "paid", "removed"}
)
"""List fields holding one entry per seat: shown seat by seat."""
_PER_SEAT_IF_SEATS = frozenset(
    {
        "dealt",
        "stacks",
        "bets",
        "contributed",
        "committed",
        "round_bets",
        "folded",
        "all_in",
        "hole",
        "flipped",
        "up",
        "scores",
        "points",
        "cards",
    }
)
"""List fields that hold one entry per seat when they have one entry per seat of the hand."""


def word(key: str, lang: str, **fields: object) -> str:
    """The web string ``key`` in ``lang``, its ``{name}`` placeholders filled in."""
    text = web_strings()[key][LANGUAGES.index(lang)]
    for name, value in fields.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def gold(units: int, lang: str) -> str:
    """Minor units as gold in the language's number format.

    >>> gold(1_000_000, "vi"), gold(1_000_000, "en"), gold(-5, "vi")
    ('10.000,00', '10,000.00', '-0,05')
    """
    sign = "-" if units < 0 else ""
    whole, cents = divmod(abs(units), 100)
    grouped = f"{whole:,}"
    if lang == "vi":
        return f"{sign}{grouped.replace(',', '.')},{cents:02d}"
    return f"{sign}{grouped}.{cents:02d}"


def parse_gold(text: str, lang: str) -> int:
    """An amount typed in gold (``10.000,5`` or ``10000`` in ``vi``; ``10,000.5`` in ``en``)
    in minor units.

    >>> parse_gold("10.000,50", "vi"), parse_gold("12,5", "vi"), parse_gold("1,000.25", "en")
    (1000050, 1250, 100025)

    :raises ValueError: if the text is no amount.
    """
    raw = text.strip().replace(" ", "")
    if lang == "vi":
        grouped = re.fullmatch(r"(-?)(\d+|\d{1,3}(?:\.\d{3})+)(?:,(\d{1,2}))?", raw)
        if grouped:
            sign, whole, cents = grouped.groups()
            raw = f"{sign}{whole.replace('.', '')}.{cents or '0'}"
    else:
        grouped = re.fullmatch(r"(-?)(\d+|\d{1,3}(?:,\d{3})+)(?:\.(\d{1,2}))?", raw)
        if grouped:
            raw = raw.replace(",", "")
    if not re.fullmatch(r"-?\d+(\.\d{1,2})?", raw):
        raise ValueError(text)
    return round(float(raw) * 100)


def label(game: str, key: str, lang: str) -> str:
    """A view field's label: ``field.game.key``, else ``field.key``, else the key."""
    return term("field", game, key, lang)


def _value_word(game: str, value: str, lang: str) -> str:
    return term("value", game, value, lang)


def _card(code: str) -> str:
    return parse_card(code).pretty


def render_value(game: str, key: str, value: Any, lang: str, names: Names) -> str:
    """One view value in words (the page's ``renderValue`` as plain text)."""
    if key == "pots" and isinstance(value, list):
        parts = []
        for pot in value:
            text = gold(pot[0], lang)
            if len(pot) > 1 and isinstance(pot[1], list):
                text += " (" + ", ".join(names(s) for s in pot[1]) + ")"
            if len(pot) > 2 and isinstance(pot[2], list):
                text += " → " + ", ".join(names(s) for s in pot[2])
            parts.append(text)
        return "; ".join(parts) or "—"
    if key == "rules" and isinstance(value, list):
        rules = [
            f"{_option_label(game, str(v[0]), lang)}: " + render_value(game, "", v[1], lang, names)
            for v in value
            if isinstance(v, list) and len(v) == 2
        ]
        return " · ".join(rules) or "—"
    if key in _SEAT_ENTRIES and isinstance(value, list):
        entries = []
        for entry in value:
            if isinstance(entry, list) and entry and isinstance(entry[0], int):
                rest = " · ".join(render_value(game, "", v, lang, names) for v in entry[1:])
                entries.append(f"{names(entry[0])}: {rest}")
            else:
                entries.append(render_value(game, "", entry, lang, names))
        return " | ".join(entries) or "—"
    if isinstance(value, list):
        if not value:
            return "—"
        if all(v is None or (isinstance(v, str) and _CARD.match(v)) for v in value):
            return " ".join("??" if v is None else _card(v) for v in value)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            if _SEATS.search(key) and not _MONEY.search(key):
                return ", ".join(names(v) for v in value)
            if _MONEY.search(key):
                return " · ".join(gold(v, lang) for v in value)
        if all(isinstance(v, list | dict) for v in value):
            return " | ".join(render_value(game, key, v, lang, names) for v in value)
        return " · ".join(render_value(game, key, v, lang, names) for v in value)
    if isinstance(value, dict):
        return " · ".join(
            f"{label(game, k, lang)}: {render_value(game, k, v, lang, names)}"
            for k, v in value.items()
            if k != "type"
        )
    if isinstance(value, str) and key in _TEXT_FIELDS:
        return describe(value, lang, game=game, seat=names, gold=lambda u: gold(u, lang)) or "—"
    if isinstance(value, str) and key == "item":
        return term("item", game, value, lang)
    if isinstance(value, bool):
        return word("yes" if value else "no", lang)
    if isinstance(value, int) and _SEAT_FIRST.search(key):
        return names(value)
    if game == "tai-xiu" and key == "max_bet" and value == 0:
        return word("table.no_max", lang)
    if isinstance(value, int) and _MONEY.search(key):
        return gold(value, lang)
    if isinstance(value, int) and _SEATS.search(key):
        return names(value)
    if value is None or value == "":
        return "—"
    if isinstance(value, str) and _CARD.match(value):
        return _card(value)
    if isinstance(value, str) and _CARD_RUN.match(value):
        return " ".join(_card(c) for c in value.split())
    if isinstance(value, str):
        return _value_word(game, value, lang)
    return str(value)


def _option_label(game: str, short: str, lang: str) -> str:
    from sanh.games import find_game

    for spec in find_game(game).info.options:
        if spec.name == short or spec.name.endswith(f".{short}"):
            return term("option", "", spec.name, lang)
    return short


def render_view(game: str, view: Any, lang: str, names: Names, seats: int = 0) -> str:
    """A seat's view (an engine view or its JSON form), one field a line, in ``lang``.

    A field with one entry per seat is shown seat by seat (``seats``: the hand's seat count,
    for the fields that are per seat only when they have that many entries)."""
    data: dict[str, Any] = view if isinstance(view, dict) else to_jsonable(view)
    lines = []
    for key, value in data.items():
        if key in _SKIPPED:
            continue
        name = label(game, key, lang)
        per_seat = key in _PER_SEAT_LIST or (
            key in _PER_SEAT_IF_SEATS
            and seats > 1
            and isinstance(value, list)
            and len(value) == seats
        )
        if per_seat and isinstance(value, list) and value:
            rows = [
                f"    {names(seat)}: {render_value(game, key, entry, lang, names)}"
                for seat, entry in enumerate(value)
            ]
            lines.append(f"{name}:")
            lines.extend(rows)
            continue
        shown = render_value(game, key, value, lang, names)
        if shown != "—":
            lines.append(f"{name}: {shown}")
    return "\n".join(lines)


def action_label(game: str, action: Any, lang: str, names: Names, *, skip: str = "") -> str:
    """An action's name and its fields (cards, amounts in gold, areas) in ``lang``; ``skip``
    names a field left out (an amount range's amount, asked for afterwards)."""
    data: dict[str, Any] = action if isinstance(action, dict) else to_jsonable(action)
    parts = []
    for key, value in data.items():
        if key in _ACTION_SKIPPED or key == skip or value is None:
            continue
        if isinstance(value, list):
            if all(isinstance(v, str) and _CARD.match(v) for v in value):
                parts.append(" ".join(_card(v) for v in value))
            else:
                parts.append(",".join(str(v) for v in value))
        elif isinstance(value, bool):
            parts.append(f"{label(game, key, lang)}: {word('yes' if value else 'no', lang)}")
        elif isinstance(value, int) and key in _ACTION_MONEY:
            parts.append(gold(value, lang))
        elif isinstance(value, int) and key == "target":
            parts.append(f"→ {names(value)}")
        elif isinstance(value, int) and key == "meld":
            parts.append(f"{word('table.meld', lang)} {value + 1}")
        elif isinstance(value, int) and key == "index":
            parts.append(f"#{value + 1}")
        elif isinstance(value, str) and _CARD.match(value):
            parts.append(_card(value))
        elif isinstance(value, str):
            parts.append(_value_word(game, value, lang))
        else:
            parts.append(str(value))
    name = term("action", game, str(data.get("type", "")), lang)
    return " ".join([name, *parts])
