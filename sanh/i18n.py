"""User-facing strings in Vietnamese (the default) and English.

``t(key, lang, **fields)`` looks a key up; a missing key raises ``KeyError`` so that an
untranslated string cannot slip through (the tests check both tables have the same keys).
"""

from __future__ import annotations

__all__ = ["LANGUAGES", "STRINGS", "t"]

LANGUAGES = ("vi", "en")

STRINGS: dict[str, dict[str, str]] = {
    "vi": {
        "choose_game": "Chọn trò chơi",
        "game_number": "Số thứ tự trò chơi",
        "balance": "Số dư",
        "hand": "Ván",
        "your_turn": "Đến lượt bạn",
        "choose_action": "Chọn hành động (số)",
        "amount": "Số tiền (từ {min} đến {max})",
        "bad_choice": "Lựa chọn không hợp lệ: {text}",
        "illegal": "Không hợp lệ: {reason}",
        "settlement": "Kết quả ván",
        "net": "Thắng/thua",
        "again": "Chơi ván nữa? (c/k)",
        "yes": "c",
        "goodbye": "Tạm biệt! Số dư cuối: {balance}",
        "broke": "Bạn đã hết tiền chơi.",
        "table_action": "bàn",
        "waiting": "Đang chờ...",
        "bot": "Máy",
        "you": "Bạn",
        "house": "Nhà cái",
        "fee": "Phí",
        "breakage": "Làm tròn",
        "detail": "Chi tiết",
        "stake": "Cược",
        "wait_table": "Chờ bàn (đến giờ thì bàn tự đi tiếp)",
    },
    "en": {
        "choose_game": "Choose a game",
        "game_number": "Game number",
        "balance": "Balance",
        "hand": "Hand",
        "your_turn": "Your turn",
        "choose_action": "Choose an action (number)",
        "amount": "Amount (from {min} to {max})",
        "bad_choice": "Not a valid choice: {text}",
        "illegal": "Not allowed: {reason}",
        "settlement": "Result",
        "net": "Net",
        "again": "Play another hand? (y/n)",
        "yes": "y",
        "goodbye": "Goodbye! Final balance: {balance}",
        "broke": "You are out of play gold.",
        "table_action": "table",
        "waiting": "Waiting...",
        "bot": "Bot",
        "you": "You",
        "house": "House",
        "fee": "Fee",
        "breakage": "Breakage",
        "detail": "Detail",
        "stake": "Stake",
        "wait_table": "Wait for the table (it goes on when its time is up)",
    },
}


def t(key: str, lang: str = "vi", **fields: object) -> str:
    """The string ``key`` in ``lang``, formatted with ``fields``."""
    text = STRINGS[lang][key]
    return text.format(**fields) if fields else text
