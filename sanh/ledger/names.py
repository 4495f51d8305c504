"""Display names: how one is cleaned, and the key that tells when two names look alike.

A display name is Unicode-normalised (NFKC), its runs of whitespace become one space, it is
trimmed, and it must then have 1 to :data:`NAME_LENGTH_MAX` characters, none of them a control
or format character (zero-width joiners, bidirectional overrides).

Two names are *confusable* when their :func:`name_key` is the same: the key is case-folded,
stripped of accents (``đ`` is ``d``), with look-alike letters and digits mapped to one letter
(Cyrillic ``а`` and Latin ``a``, ``0`` and ``o``, ``1``, ``i`` and ``l``...) and without the
spaces and punctuation between them. A player-chosen name is reserved (:func:`reserved`) when
it looks like the house, the staff or a bot: "Nhà cái", "House", "admin", "Bot 3f2a"... or is
one of the bots' own names (:data:`sanh.ledger.bot_names.BOT_NAMES`, "Nguyễn Văn An", in any
accents or look-alike letters).

>>> clean_display_name("  Ｎhà   cái ")
'Nhà cái'
>>> name_key("Nhà cái") == name_key("NHA_CAI") == name_key("nhа саі")
True
>>> reserved("H0use"), reserved("Bot 12ab"), reserved("Bảo")
(True, True, False)
>>> reserved("Sảnh"), reserved("Anh Bot"), reserved("Văn Sanh"), reserved("Mây")
(True, True, False, False)
>>> reserved("Trần Minh Tuấn"), reserved("tran minh tuan"), reserved("Trần Minh Tuấn Anh")
(True, True, False)
"""

from __future__ import annotations

import re
import unicodedata

from sanh.ledger.bot_names import BOT_NAMES

__all__ = ["NAME_LENGTH_MAX", "clean_display_name", "name_key", "reserved"]

NAME_LENGTH_MAX = 32
"""The longest display name, in characters after normalisation."""

_CONFUSABLE = str.maketrans(
    {
        # Cyrillic and Greek letters that look like Latin ones (after case folding).
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "l",
        "ї": "l",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "l",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        # Latin letters and digits that pass for one another.
        "đ": "d",
        "ð": "d",
        "ł": "l",
        "ø": "o",
        "ı": "l",
        "i": "l",
        "|": "l",
        "!": "l",
        "0": "o",
        "1": "l",
        "3": "e",
        "4": "a",
        "5": "s",
        "7": "t",
        "8": "b",
        "@": "a",
        "$": "s",
    }
)

_UPPER = str.maketrans(
    {  # capitals of other scripts that look like a Latin capital, before case folding
        "Α": "a",
        "Β": "b",
        "Ε": "e",
        "Η": "h",
        "Ι": "l",
        "Κ": "k",
        "Μ": "m",
        "Ν": "n",
        "Ο": "o",
        "Ρ": "p",
        "Τ": "t",
        "Υ": "y",
        "Χ": "x",
        "Ζ": "z",
        "А": "a",
        "В": "b",
        "Е": "e",
        "Н": "h",
        "К": "k",
        "М": "m",
        "О": "o",
        "Р": "p",
        "С": "c",
        "Т": "t",
        "Х": "x",
    }
)

_RESERVED_WORDS = (
    "house",
    "nhacai",
    "nha cai",
    "admin",
    "administrator",
    "staff",
    "moderator",
    "mod",
    "support",
    "system",
    "he thong",
    "quan tri",
    "quan tri vien",
    "nhan vien",
    "operator",
    "dealer",
    "official",
    "root",
    "bot",
)
"""Names (and words) of the house, its staff and its bots that no player may take."""

_RESERVED_NAMES = ("sanh", "sanh hall", "hall", "may choi", "computer")
"""Whole names of the hall (*sảnh*) and of its bots that no player may take, trailing digits
aside (as words they stay free: "Văn Sanh" is a name; "Máy" alone is "Mây", a name too)."""

_SPLIT = re.compile(r"[^0-9a-z]+")


def clean_display_name(raw: str) -> str | None:
    """The display name as stored (NFKC, whitespace collapsed, trimmed), or None when it is
    empty, too long, or has a control or format character."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not 1 <= len(name) <= NAME_LENGTH_MAX:
        return None
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Co", "Cs", "Cn"} for ch in name):
        return None
    return name


def _words(name: str) -> list[str]:
    """The name's words, case-folded, without accents (before mapping look-alikes)."""
    folded = unicodedata.normalize("NFKC", name).translate(_UPPER).casefold().replace("đ", "d")
    bare = "".join(
        ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch)
    )
    # Look-alike letters of other scripts become Latin before the split keeps only a-z 0-9.
    bare = "".join(ch.translate(_CONFUSABLE) if not ch.isascii() else ch for ch in bare)
    return [w for w in _SPLIT.split(bare) if w]


def _skeleton(word: str) -> str:
    mapped = word.translate(_CONFUSABLE)
    return mapped.replace("rn", "m").replace("vv", "w")


def name_key(name: str) -> str:
    """The key two confusable names share (see the module docstring)."""
    raw = unicodedata.normalize("NFKC", name).translate(_UPPER).casefold()
    raw = "".join(ch for ch in unicodedata.normalize("NFKD", raw) if not unicodedata.combining(ch))
    raw = raw.translate(_CONFUSABLE)
    return _skeleton("".join(ch for ch in raw if ch.isalnum()))


_RESERVED_KEYS = frozenset(_skeleton(w.replace(" ", "")) for w in _RESERVED_WORDS)
_RESERVED_WHOLE = frozenset(_skeleton(w.replace(" ", "")) for w in _RESERVED_NAMES)
_BOT_KEYS = frozenset(name_key(name) for name in BOT_NAMES)
"""The keys of the bots' names (sanh/ledger/bot_names.py): each is reserved whole."""


def reserved(name: str) -> bool:
    """Whether a name looks like the house's, the staff's, the hall's or a bot's: its whole key,
    or the key of one of its words (trailing digits aside), is a reserved word, its whole key is
    a reserved name (``Sảnh``, ``Máy 2``) or a bot's name, or its first word is ``bot``."""
    if name_key(name) in _BOT_KEYS:
        return True
    words = _words(name)
    if not words:
        return False
    if _skeleton(words[0].rstrip("0123456789")) == _skeleton("bot"):
        return True
    whole = {name_key(name), _skeleton("".join(words).rstrip("0123456789"))}
    candidates = whole | {_skeleton(w.rstrip("0123456789")) for w in words}
    return bool(candidates & _RESERVED_KEYS or whole & _RESERVED_WHOLE)
