"""Domain type aliases shared by every part of sanh."""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["UNITS_PER_GOLD", "Chips", "Seat", "format_gold"]

Seat: TypeAlias = int
"""A 0-based seat index; written ``p1``..``pN`` in notation."""

Chips: TypeAlias = int
"""An amount of play gold in minor units (1 gold = 100 units). Never a float."""

UNITS_PER_GOLD = 100


def format_gold(units: Chips) -> str:
    """Format minor units as gold with two decimals and US digit grouping.

    >>> format_gold(123400)
    '1,234.00'
    >>> format_gold(-5)
    '-0.05'
    """
    sign = "-" if units < 0 else ""
    whole, cents = divmod(abs(units), UNITS_PER_GOLD)
    return f"{sign}{whole:,}.{cents:02d}"
