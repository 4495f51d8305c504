"""Text codes: the machine form of every text sanh writes for players, and its English.

Nothing sanh writes for a player is prose. A text is a *code*: one or more parts joined by
``|``, each part a code name and its arguments joined by ``:``::

    odds:0.95|commission:4990          wins 0.95:1, commission 49.90
    pays_la:1:0:3|ordinary:3           p2 → p1: 3 lá, 3 ordinary cards
    raises_to:0:45000                  p1 raised to 450.00

The argument kinds are in each code's template: ``{seat0}`` (an engine seat), ``{gold0}`` (an
amount in minor units), ``{n0}`` (a number shown as is), ``{cards0}`` (card codes run together,
``Ks7d``), ``{value0}`` (a term translated as ``value.*``: a hand category, a play's kind),
``{item0}`` (a settlement item, translated as ``item.*``) and ``{action0}`` (an action type,
``Fold``, translated as ``action.*``).

This module is the machinery only and sits at the bottom of sanh beside :mod:`sanh.types` and
:mod:`sanh.errors` (it imports nothing else of sanh). The codes live beside the code that
writes them, each catalogue declared once with :func:`catalogue`:

- :mod:`sanh.games._texts`: the engines' settlement details and log entries, their refusals
  (an :class:`~sanh.errors.IllegalActionError`'s ``reason``) and their checks of a table's
  options (a :class:`~sanh.errors.ConfigError`'s ``text``);
- :mod:`sanh.server.texts`: the hall's own answers and refusals.

:data:`TEXTS` is every code declared so far and its English template; a game from another
package declares its own codes the same way. The web client's ``sanh/web/i18n.json`` holds
``text.<code>`` in Vietnamese and English with the same placeholders (the tests check both);
the terminal and the CLI format with :func:`describe` or :func:`sanh.cli._texts.describe`.

Codes stay plain strings, so settlements and views keep their JSON form and hand histories
replay unchanged. A text that is not made of known codes (a record written before the codes)
is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Protocol

from sanh.types import format_gold

__all__ = [
    "KINDS",
    "TEXTS",
    "catalogue",
    "clean",
    "describe",
    "is_code",
    "join",
    "parse",
    "placeholders",
    "register_cards",
    "text",
]

KINDS = ("seat", "gold", "n", "cards", "value", "item", "action")
"""The kinds of argument a template may name."""

_PLACEHOLDER = re.compile(r"\{(" + "|".join(KINDS) + r")(\d)\}")
_ANY_PLACEHOLDER = re.compile(r"\{[^}]*\}")
_NAME = re.compile(r"[a-z][a-z0-9_]*")
_CODE = re.compile(r"^[a-z][a-z0-9_]*(:[^:|]*)*(\|[a-z][a-z0-9_]*(:[^:|]*)*)*$")

_TEXTS: dict[str, str] = {}
TEXTS: Mapping[str, str] = MappingProxyType(_TEXTS)
"""Every code declared (by :func:`catalogue`) and its English template."""

_ARITY: dict[str, int] = {}


def placeholders(template: str) -> tuple[tuple[str, int], ...]:
    """The ``(kind, index)`` placeholders of a template, in order of appearance."""
    return tuple((kind, int(index)) for kind, index in _PLACEHOLDER.findall(template))


def _arity(template: str) -> int:
    return max((index + 1 for _, index in placeholders(template)), default=0)


def catalogue(templates: Mapping[str, str]) -> Mapping[str, str]:
    """Declare ``templates`` (code -> English template) and return them, read-only.

    A code may be declared once (declaring it again with the same template, as a module
    reload does, changes nothing).

    :raises ValueError: if a code is already declared with another template, is not a
        lower-case name, or its template has a placeholder of no known kind.
    """
    for code, template in templates.items():
        if not _NAME.fullmatch(code):
            raise ValueError(f"a text code is a lower-case name: {code!r}")
        if _TEXTS.get(code, template) != template:
            raise ValueError(f"text code {code!r} is declared twice")
        unknown = set(_ANY_PLACEHOLDER.findall(template)) - {
            "{" + kind + str(index) + "}" for kind, index in placeholders(template)
        }
        if unknown:
            raise ValueError(f"text code {code!r}: no such placeholder {sorted(unknown)}")
    for code, template in templates.items():
        _TEXTS[code] = template
        _ARITY[code] = _arity(template)
    return MappingProxyType(dict(templates))


class _Card(Protocol):
    @property
    def pretty(self) -> str: ...


_CARD_TYPES: list[type] = []
_CARD_PARSERS: list[Callable[[str], _Card]] = []


def register_cards(card_type: type, parse_card: Callable[[str], _Card]) -> None:
    """Make ``card_type`` a ``cards`` argument (its ``str()`` is its two-character code) and
    ``parse_card`` the way :func:`describe` reads one back (its ``pretty`` shown).

    :mod:`sanh.cards.card` registers :class:`~sanh.cards.card.Card` (this module sits below
    the cards and does not import them).
    """
    if card_type not in _CARD_TYPES:
        _CARD_TYPES.append(card_type)
        _CARD_PARSERS.append(parse_card)


def _is_card(value: object) -> bool:
    return any(isinstance(value, t) for t in _CARD_TYPES)


def _arg(value: object) -> str:
    if isinstance(value, bool):
        raise TypeError(f"a text argument is not a boolean: {value!r}")
    if _is_card(value):
        return str(value)
    if isinstance(value, int | str | float):
        out = str(value)
    elif isinstance(value, Sequence) and all(_is_card(c) for c in value):
        out = "".join(str(c) for c in value)
    else:
        raise TypeError(f"not a text argument: {value!r}")
    if ":" in out or "|" in out:
        raise ValueError(f"a text argument may not hold ':' or '|': {out!r}")
    return out


def text(code: str, *args: object) -> str:
    """One part: ``code`` with its arguments (``text("odds", 5) == "odds:5"``).

    :raises KeyError: if ``code`` is not in :data:`TEXTS`.
    :raises ValueError: if the number of arguments is not the template's.
    """
    arity = _ARITY[code]
    if len(args) != arity:
        raise ValueError(f"text {code!r} takes {arity} arguments, not {len(args)}")
    return ":".join((code, *(_arg(a) for a in args)))


def join(*parts: str) -> str:
    """Several parts as one text (empty parts are left out)."""
    return "|".join(p for p in parts if p)


def parse(detail: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The ``(code, args)`` parts of a text; ``()`` for an empty text or one not in code form."""
    if not is_code(detail):
        return ()
    out = []
    for part in detail.split("|"):
        code, *args = part.split(":")
        out.append((code, tuple(args)))
    return tuple(out)


def is_code(detail: str) -> bool:
    """Whether ``detail`` has the form of a code (known or not)."""
    return bool(detail) and _CODE.match(detail) is not None


def _default_value(name: str) -> str:
    return name.replace("_", " ")


def _default_action(name: str) -> str:
    return name.lower()


def clean(value: object, limit: int = 40) -> str:
    """Free text (a client's unknown bet area) as a safe argument: ``:`` and ``|`` become ``?``."""
    return str(value)[:limit].replace(":", "?").replace("|", "?")


def _seat_name(seat: int) -> str:
    return f"p{seat + 1}"


def describe(
    detail: str,
    templates: Mapping[str, str] = TEXTS,
    *,
    seat: Callable[[int], str] = _seat_name,
    value: Callable[[str], str] = _default_value,
    item: Callable[[str], str] = _default_value,
    action: Callable[[str], str] = _default_action,
    cards: Callable[[Iterable[_Card]], str] | None = None,
    sep: str = ", ",
    gold: Callable[[int], str] = format_gold,
) -> str:
    """A text in words: each part's template filled in (English by default).

    ``gold`` writes an amount in minor units (default: :func:`format_gold`, ``1,234.00``).

    A text not in code form, or with a code missing from ``templates``, is returned as it is.
    """
    parts = parse(detail)
    if not parts or any(code not in templates for code, _ in parts):
        return detail
    show_cards = cards or _pretty_cards

    def part(code: str, args: tuple[str, ...]) -> str:
        def fill(match: re.Match[str]) -> str:
            kind, index = match.group(1), int(match.group(2))
            arg = args[index] if index < len(args) else ""
            try:
                if kind == "seat":
                    return seat(int(arg))
                if kind == "gold":
                    return gold(int(arg))
                if kind == "cards":
                    return show_cards(_cards(arg))
            except ValueError:
                return arg
            if kind == "value":
                return value(arg)
            if kind == "item":
                return item(arg)
            if kind == "action":
                return action(arg)
            return arg

        return _PLACEHOLDER.sub(fill, templates[code])

    return sep.join(part(code, args) for code, args in parts)


def _pretty_cards(cards: Iterable[_Card]) -> str:
    return " ".join(c.pretty for c in cards)


def _cards(run: str) -> tuple[_Card, ...]:
    if len(run) % 2 or not _CARD_PARSERS:
        raise ValueError(run)
    parse_card = _CARD_PARSERS[0]
    return tuple(parse_card(run[i : i + 2]) for i in range(0, len(run), 2))
