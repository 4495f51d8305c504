"""The hall's bots' names: Vietnamese full names, family + middle + given, with diacritics.

The list is generated, not drawn at random: every family name (:data:`FAMILY`) with every
middle and given name of one set (:data:`MALE` or :data:`FEMALE`: a middle name such as *Văn*
or *Thị* goes with given names of its own set), in a fixed order, then walked with a fixed
stride so that neighbouring picks differ in every part. A bot's name follows from its label
(:func:`bot_name`: the label's CRC-32 picks the start, a clash with a taken name the next
candidate), so the same label gets the same name in every hall built the same way.

The names are reserved: no player may take one (:func:`sanh.ledger.names.reserved` compares
:func:`~sanh.ledger.names.name_key`, so the name without accents or in look-alike letters is
refused too), and a bot is therefore never mistaken for a person. A player whose own name is
one of them still has it with a difference (a fourth word, a number).

>>> bot_name("tien-len-1:2") == bot_name("tien-len-1:2")
True
>>> len(BOT_NAMES), BOT_NAMES[0]
(5400, 'Nguyễn Văn An')
>>> all(len(name.split()) == 3 for name in BOT_NAMES)
True
"""

from __future__ import annotations

import zlib

__all__ = ["BOT_NAMES", "FAMILY", "FEMALE", "MALE", "bot_name"]

FAMILY = (
    "Nguyễn",
    "Trần",
    "Lê",
    "Phạm",
    "Hoàng",
    "Huỳnh",
    "Phan",
    "Vũ",
    "Võ",
    "Đặng",
    "Bùi",
    "Đỗ",
    "Hồ",
    "Ngô",
    "Dương",
)
"""Fifteen of the most common Vietnamese family names."""

MALE = (
    ("Văn", "Đức", "Hữu", "Quốc", "Minh", "Gia"),
    (
        "An",
        "Bình",
        "Cường",
        "Dũng",
        "Duy",
        "Hải",
        "Hiếu",
        "Hùng",
        "Huy",
        "Khánh",
        "Khoa",
        "Long",
        "Nam",
        "Phong",
        "Phúc",
        "Quân",
        "Quang",
        "Sơn",
        "Tâm",
        "Thắng",
        "Trung",
        "Tuấn",
        "Việt",
        "Vinh",
        "Tài",
        "Thành",
        "Toàn",
        "Đạt",
        "Lộc",
        "Hoàng",
    ),
)
"""Middle names and given names that go together (men's)."""

FEMALE = (
    ("Thị", "Ngọc", "Thu", "Thanh", "Hoài", "Bảo"),
    (
        "Anh",
        "Châu",
        "Giang",
        "Hà",
        "Hạnh",
        "Hoa",
        "Hương",
        "Lan",
        "Linh",
        "Mai",
        "My",
        "Ngân",
        "Nhung",
        "Thảo",
        "Trang",
        "Vy",
        "Yến",
        "Hằng",
        "Loan",
        "Phương",
        "Quyên",
        "Tiên",
        "Trâm",
        "Uyên",
        "Xuân",
        "Diệp",
        "Hân",
        "Nga",
        "Oanh",
        "Thủy",
    ),
)
"""Middle names and given names that go together (women's)."""


def _generate() -> tuple[str, ...]:
    ordered = [
        f"{family} {middle} {given}"
        for family in FAMILY
        for middles, givens in (MALE, FEMALE)
        for middle in middles
        for given in givens
        if given != middle
    ]
    return tuple(ordered)


BOT_NAMES = _generate()
"""Every bot name, in the generated order (family, set, middle, given)."""

_STRIDE = 1_009
"""A prime that does not divide ``len(BOT_NAMES)``: a walk by it visits every name once."""
assert len(BOT_NAMES) % _STRIDE != 0


def bot_name(label: str, attempt: int = 0) -> str:
    """The name of the bot with ``label``; ``attempt`` n gives the n-th next candidate (for a
    name another player already has)."""
    start = zlib.crc32(label.encode()) % len(BOT_NAMES)
    return BOT_NAMES[(start + attempt * _STRIDE) % len(BOT_NAMES)]
