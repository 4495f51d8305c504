"""Domain type aliases shared by every part of sanh."""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["UNITS_PER_GOLD", "Chips", "Seat", "format_gold"]

Seat: TypeAlias = int
"""A 0-based seat index; written ``p1``..``pN`` in notation."""

Chips: TypeAlias = int
"""An amount of play gold in minor units (1 gold = 100 units). Never a float."""

UNITS_PER_GOLD = 100


def format_gold(units: Chips, lang: str = "en") -> str:
    """Format minor units as gold with two decimals, grouped as the language writes numbers
    (the web client's ``gold``): ``1,234.00`` in English, ``1.234,00`` in Vietnamese.

    >>> format_gold(123400)
    '1,234.00'
    >>> format_gold(-5)
    '-0.05'
    >>> format_gold(1000000, "vi")
    '10.000,00'
    """
    sign = "-" if units < 0 else ""
    whole, cents = divmod(abs(units), UNITS_PER_GOLD)
    text = f"{whole:,}.{cents:02d}"
    if lang == "vi":
        text = text.replace(",", " ").replace(".", ",").replace(" ", ".")
    return sign + text
