"""Becoming the banker of a player-hosted Tài Xỉu table, in the browser, in both languages.

A hall as seed 001 has it (``SANH_HOUSE_TAI_XIU_TABLES`` off): the create form offers only the
player-hosted kind of Tài Xỉu table; the new table has no banker, so it says it waits for one
(``waiting_for_host``) until the player fills in "Làm cái / Be the banker" with an amount.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from sanh.cli._texts import web_strings
from sanh.i18n import LANGUAGES
from sanh.types import format_gold
from tests.web.conftest import start_hall
from tests.web.helpers import check_translated, create_table, sign_in, switch_language

BANK = 1_500_00
"""The bank chosen (1,500.00 gold: a 1-gold table needs at least 150 gold)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_player_becomes_the_banker_of_a_new_tai_xiu_table(
    page: Page, tmp_path: Path, lang: str
) -> None:
    strings = {key: texts[LANGUAGES.index(lang)] for key, texts in web_strings().items()}
    hall = start_hall(tmp_path, SANH_HOUSE_TAI_XIU_TABLES="0")
    try:
        sign_in(page, hall.url)
        switch_language(page, lang)
        page.select_option("#create-game", "tai-xiu")
        kinds = page.locator("[data-opt='taixiu.table'] option")
        assert kinds.evaluate_all("els => els.map((e) => e.value)") == ["player"]
        create_table(page, "tai-xiu", 3, 0)
        waiting = page.wait_for_selector("[data-status='waiting_for_host']")
        assert waiting.inner_text() == strings["text.waiting_for_host"]
        form = page.locator("#bank-form")
        assert form.locator("button").inner_text() == strings["table.be_banker"]
        check_translated(page)
        form.locator("input").fill(str(BANK // 100))
        form.locator("button").click()
        page.wait_for_selector("[data-status='waiting_for_host']", state="detached")
        pill = page.locator("#bank-form .pill")
        pill.wait_for()
        assert pill.inner_text() == f"{strings['table.bank']}: {format_gold(BANK, lang)}"
        assert page.locator(".seat[data-mine] .tag.banker").inner_text() == strings["table.banker"]
        check_translated(page)
    finally:
        hall.stop()
