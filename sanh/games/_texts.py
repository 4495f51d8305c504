"""Machine codes for the texts engines write for players: settlement line details, log entries.

Engines never write prose for players. A text is a *code*: one or more parts joined by ``|``,
each part a code name and its arguments joined by ``:``::

    odds:0.95|commission:4990          wins 0.95:1, commission 49.90
    pays_la:1:0:3|ordinary:3           p2 → p1: 3 lá, 3 ordinary cards
    raises_to:0:45000                  p1 raised to 450.00

The argument kinds are in each code's template: ``{seat0}`` (an engine seat), ``{gold0}`` (an
amount in minor units), ``{n0}`` (a number shown as is), ``{cards0}`` (card codes run together,
``Ks7d``), ``{value0}`` (a term translated as ``value.*``: a hand category, a play's kind) and
``{item0}`` (a settlement item, translated as ``item.*``). :data:`TEXTS` holds the English
template of every code; the web client's ``sanh/web/i18n.json`` holds ``text.<code>`` in
Vietnamese and English with the same placeholders (the tests check both), the terminal and the
CLI format with :func:`describe` or :func:`sanh.cli._texts.describe`.

Codes stay plain strings, so settlements and views keep their JSON form and hand histories
replay unchanged. A text that is not made of known codes (a record written before the codes)
is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from sanh.cards.card import Card, parse_card
from sanh.types import format_gold

__all__ = [
    "KINDS",
    "TEXTS",
    "describe",
    "is_code",
    "join",
    "parse",
    "placeholders",
    "text",
]

KINDS = ("seat", "gold", "n", "cards", "value", "item")
"""The kinds of argument a template may name."""

TEXTS: Mapping[str, str] = {
    # ----- a bet against the house, the bank or the dealer --------------------------------
    "odds": "wins {n0}:1",
    "loses": "loses",
    "profit": "profit {gold0}",
    "fee": "fee {gold0}",
    "commission": "commission {gold0}",
    "bet_of": "{seat0}: bet on {item1}",
    "fee_on_net": "fee on the net win {gold0}",
    "fee_on_bank": "fee on the bank's net win {gold0}",
    "tie_refund": "tie: stake refunded",
    "house_net": "the house's net",
    "push": "push",
    "dealer_not_qualify": "the dealer does not qualify",
    "beats_dealer": "beats the dealer",
    "ties_dealer": "tie with the dealer",
    "loses_to_dealer": "loses to the dealer",
    "fold": "fold",
    "forced_fold": "forced fold ({value0})",
    "forfeit_fold": "forfeited by the fold",
    "hand": "{value0}",
    # ----- payments between players (Tiến lên, Sâm, Phỏm, 3 Cây) --------------------------
    "pays_la": "{seat0} → {seat1}: {n2} lá",
    "rounding": "rounding",
    "capped": "capped: owed {gold0}",
    "rounding_capped": "rounding of a capped payment",
    "ordinary": "{n0} ordinary cards",
    "special": "{value0}: {n1} lá",
    "cut_victim": "{value0} {cards1}",
    "cut_by": "cut by {value0} {cards1}",
    "place": "place {n0}",
    "eats": "{seat0} ate {cards1}",
    "left_table": "disconnected or left the table",
    "den": "pays for everyone (đền {item0})",
    "loses_to_banker": "loses to the banker",
    "beats_banker": "beats the banker",
    "walkover": "the only one able to pay",
    "ga_in": "pays into the gà",
    "winner_takes_all": "winner takes all",
    "ga_ten": "takes the gà with 10 points",
    "no_bets": "nobody bet",
    "too_few_players": "fewer than two players can pay",
    "no_cover": "nobody can cover the bank ({gold0})",
    "banker_left": "the banker left before the deal",
    # ----- the public log of a betting round (Hold'em) ------------------------------------
    "folds": "{seat0} folded",
    "checks": "{seat0} checked",
    "calls": "{seat0} called",
    "goes_all_in": "{seat0} went all-in",
    "raises_to": "{seat0} raised to {gold1}",
}
"""Every code and its English template."""

_PLACEHOLDER = re.compile(r"\{(" + "|".join(KINDS) + r")(\d)\}")
_CODE = re.compile(r"^[a-z][a-z0-9_]*(:[^:|]*)*(\|[a-z][a-z0-9_]*(:[^:|]*)*)*$")


def placeholders(template: str) -> tuple[tuple[str, int], ...]:
    """The ``(kind, index)`` placeholders of a template, in order of appearance."""
    return tuple((kind, int(index)) for kind, index in _PLACEHOLDER.findall(template))


def _arity(template: str) -> int:
    return max((index + 1 for _, index in placeholders(template)), default=0)


_ARITY = {code: _arity(template) for code, template in TEXTS.items()}


def _arg(value: object) -> str:
    if isinstance(value, bool):
        raise TypeError(f"a text argument is not a boolean: {value!r}")
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, int | str | float):
        out = str(value)
    elif isinstance(value, Sequence) and all(isinstance(c, Card) for c in value):
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


def _seat_name(seat: int) -> str:
    return f"p{seat + 1}"


def describe(
    detail: str,
    templates: Mapping[str, str] = TEXTS,
    *,
    seat: Callable[[int], str] = _seat_name,
    value: Callable[[str], str] = _default_value,
    item: Callable[[str], str] = _default_value,
    cards: Callable[[Iterable[Card]], str] | None = None,
    sep: str = ", ",
) -> str:
    """A text in words: each part's template filled in (English by default).

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
                    return format_gold(int(arg))
                if kind == "cards":
                    return show_cards(_cards(arg))
            except ValueError:
                return arg
            if kind == "value":
                return value(arg)
            if kind == "item":
                return item(arg)
            return arg

        return _PLACEHOLDER.sub(fill, templates[code])

    return sep.join(part(code, args) for code, args in parts)


def _pretty_cards(cards: Iterable[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def _cards(run: str) -> tuple[Card, ...]:
    if len(run) % 2:
        raise ValueError(run)
    return tuple(parse_card(run[i : i + 2]) for i in range(0, len(run), 2))
