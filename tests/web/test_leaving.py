"""The "Rời bàn" button during a hand: a leave after this hand, which can be cancelled, and a
"leave now" confirmed against the cost the server quotes (docs/protocol.md, "Leaving a table").
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.web.conftest import start_hall
from tests.web.helpers import check_translated, create_table, sign_in


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def test_leaving_during_a_hand_is_after_it_or_now_at_the_quoted_cost(
    page: Page, tmp_path: Path
) -> None:
    # Slow bots (10 s x 0.4 = 4 s a move): the hand is still on while the page is driven.
    hall = start_hall(tmp_path, SANH_BOT_DELAY="10")
    try:
        sign_in(page, hall.url)
        create_table(page, "texas-holdem", seats=2, bots=1)
        page.wait_for_selector("#buyin")
        page.click("#buyin button[type=submit]")
        page.wait_for_selector(".actions.my-turn", timeout=20_000)
        hand = page.evaluate("() => window.sanh.update.hand")

        # During the hand the button asks to leave after it; the page stays at the table.
        page.click("button#leave")
        page.wait_for_selector("#leave-pending")
        assert page.evaluate("() => window.sanh.leave.pending") is True
        assert page.evaluate("() => location.hash").startswith("#/table/")
        check_translated(page)
        # Cancelled: the seat stays and the button is back.
        page.click("#cancel-leave")
        page.wait_for_selector("button#leave")
        assert page.evaluate("() => window.sanh.leave") is None

        # Leave now: the confirmation shows the cost the server quoted.
        page.click("button#leave")
        page.wait_for_function(
            "() => { const b = document.querySelector('#leave-now');"
            " return b && !b.textContent.includes('…'); }"
        )
        quoted = page.evaluate("() => window.sanh.quote")
        assert quoted["hand"] == hand and quoted["basis"] in {"exact", "bound"}
        # The page writes gold in its language's format (vi: 1.234,00): compare the digits.
        cost = str(quoted["cost"]).rjust(3, "0")
        assert cost in _digits(page.inner_text("#leave-now"))
        page.click("#leave-now")  # asks for a fresh quote, then confirms it on the page
        page.wait_for_selector("#leave-confirm[open]")
        shown = page.inner_text("#leave-confirm .confirm-text")
        assert cost in _digits(shown), shown
        page.click("#leave-confirm .confirm-ok")
        page.wait_for_function("() => location.hash.startsWith('#/lobby')", timeout=20_000)
    finally:
        hall.stop()
