"""The daily-gold button of the profile page, in both languages, against a real hall."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.web.conftest import start_hall
from tests.web.helpers import sign_in, switch_language

START = 10_000_000
"""A test hall's guest wallet (tests/hall_env.py)."""


def banner_says(page: Page, words: str) -> None:
    page.wait_for_function(
        "w => document.getElementById('banner').textContent.includes(w)", arg=words
    )


def test_the_daily_gold_button_claims_once_and_then_says_so_in_the_players_language(
    page: Page, tmp_path: Path
) -> None:
    hall = start_hall(tmp_path, SANH_DAILY_BELOW="100000000", SANH_DAILY_GOLD="100000")
    try:
        sign_in(page, hall.url)
        switch_language(page, "en")
        page.goto(f"{hall.url}/#/profile")
        page.wait_for_selector("#daily-gold")
        assert page.inner_text("#daily-gold") == "Daily gold"
        page.click("#daily-gold")
        banner_says(page, "Claimed 1,000.00")
        balance = page.locator("#balance")
        assert balance.get_attribute("data-units") == str(START + 100_000)
        page.click("#daily-gold")
        banner_says(page, "today's gold has been claimed already")
        switch_language(page, "vi")
        page.wait_for_selector("#daily-gold")
        assert page.inner_text("#daily-gold") == "Nhận vàng hằng ngày"
        page.click("#daily-gold")
        banner_says(page, "hôm nay bạn đã nhận vàng rồi")
        assert balance.get_attribute("data-units") == str(START + 100_000)
    finally:
        hall.stop()
