"""The daily-gold button of the profile page, in both languages, against a real hall.

Choosing a language redraws the page *after* the redraw's requests come back, so the old
button stays in the page for a while: every step waits for the page it needs (the button in
the language just chosen) instead of for any ``#daily-gold``. The timeouts only bound a hang.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.web.conftest import expect_refusal, start_hall
from tests.web.helpers import sign_in, switch_language

START = 10_000_000
"""A test hall's guest wallet (tests/hall_env.py)."""
HANG = 60_000
"""Milliseconds: bounds a hang only."""
BUTTON = {"en": "Daily gold", "vi": "Nhận vàng hằng ngày"}


def banner_says(page: Page, words: str) -> None:
    page.wait_for_function(
        "w => document.getElementById('banner').textContent.includes(w)", arg=words, timeout=HANG
    )


def profile_in(page: Page, lang: str) -> None:
    """Wait until the profile page is drawn in ``lang`` (its daily-gold button says so)."""
    page.wait_for_function(
        "w => document.getElementById('daily-gold')?.textContent === w",
        arg=BUTTON[lang],
        timeout=HANG,
    )


def test_the_daily_gold_button_claims_once_and_then_says_so_in_the_players_language(
    page: Page, tmp_path: Path
) -> None:
    hall = start_hall(tmp_path, SANH_DAILY_BELOW="100000000", SANH_DAILY_GOLD="100000")
    expect_refusal(page, "/api/daily", 409)  # the second claim of the day
    try:
        sign_in(page, hall.url)
        page.goto(f"{hall.url}/#/profile")
        profile_in(page, "vi")  # a new browser starts in Vietnamese
        switch_language(page, "en")
        profile_in(page, "en")  # the redraw is done: no other one is pending
        assert page.inner_text("#daily-gold") == BUTTON["en"]
        page.click("#daily-gold", timeout=HANG)
        banner_says(page, "Claimed 1,000.00")
        balance = page.locator("#balance")
        assert balance.get_attribute("data-units") == str(START + 100_000)
        page.click("#daily-gold", timeout=HANG)
        banner_says(page, "today's gold has been claimed already")
        switch_language(page, "vi")
        profile_in(page, "vi")
        assert page.inner_text("#daily-gold") == BUTTON["vi"]
        page.click("#daily-gold", timeout=HANG)
        banner_says(page, "hôm nay bạn đã nhận vàng rồi")
        assert balance.get_attribute("data-units") == str(START + 100_000)
    finally:
        hall.stop()
