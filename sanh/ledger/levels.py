"""A player's level from their XP (RULES.md §2.9 gives the XP; the curve is the hall's).

Level *n* needs ``5·n·(n−1)`` XP in all games together: level 1 at 0 XP, level 2 at 10,
level 3 at 30, level 4 at 60, level 10 at 450, level 100 at 49,500. With the default XP (one
per hand, one more per hand won) a level takes about ``10·(n−1)`` more XP than the one before
it, so the first levels come within an evening and the hundredth after tens of thousands of
hands.

>>> [level(xp) for xp in (0, 9, 10, 29, 30, 60, 449, 450)]
[1, 1, 2, 2, 3, 4, 9, 10]
>>> xp_for(10), level(xp_for(100))
(450, 100)
"""

from __future__ import annotations

from math import isqrt

__all__ = ["level", "xp_for"]


def xp_for(n: int) -> int:
    """The XP level ``n`` (>= 1) needs."""
    return 5 * n * (n - 1)


def level(xp: int) -> int:
    """The highest level whose XP ``xp`` reaches (1 for 0 XP or less)."""
    if xp <= 0:
        return 1
    # 5n(n-1) <= xp  <=>  n <= (1 + sqrt(1 + 4xp/5)) / 2; isqrt, then correct the rounding.
    n = (1 + isqrt(1 + (4 * xp) // 5)) // 2
    while xp_for(n + 1) <= xp:
        n += 1
    while xp_for(n) > xp:
        n -= 1
    return max(n, 1)
