"""Driving the web client like a player: sign in, create a table, click the action buttons."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sanh.cli._texts import term, web_strings
from sanh.games import REGISTRY
from sanh.i18n import LANGUAGES
from sanh.types import format_gold
from tests.web.conftest import ARTIFACTS, DESKTOP, PHONE

__all__ = [
    "STRATEGIES",
    "check_recall",
    "check_translated",
    "create_table",
    "play_round",
    "shoot",
    "sign_in",
]

UNTRANSLATED_JS = """() => {
  const texts = [document.body.textContent];
  for (const el of document.querySelectorAll('[aria-label],[title],[placeholder]')) {
    texts.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '',
               el.getAttribute('placeholder') || '');
  }
  for (const el of document.querySelectorAll('option')) texts.push(el.textContent);
  const all = texts.join('\\n');
  const bad = [];
  for (const m of all.matchAll(/⟦[^⟧]*⟧/g)) bad.push(m[0]);
  for (const word of ['undefined', 'NaN', '[object Object]']) {
    if (all.includes(word)) bad.push(word);
  }
  return [...new Set(bad)];
}"""


def sign_in(page: Page, url: str) -> None:
    """Open the hall and play as a guest; waits for the lobby."""
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.click("#guest")
    page.wait_for_selector("#create-game")


def create_table(page: Page, game: str, seats: int, bots: int) -> None:
    """Create a table from the lobby form; the page sits the host, then calls the bots."""
    page.select_option("#create-game", game)
    page.fill("#create-seats", str(seats))
    page.fill("#create-bots", str(bots))
    page.click("#create-submit")
    page.wait_for_selector(".seat[data-mine]", timeout=15_000)


def shoot(page: Page, name: str) -> list[Path]:
    """Screenshots at desktop and phone widths (the page is left at desktop width)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    paths = []
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        # The picture shows the table at rest: the deal's and the chips' motion has landed.
        page.wait_for_function("() => !window.sanhMotion || window.sanhMotion.moving === 0")
        path = ARTIFACTS / f"{name}-{label}.png"
        page.screenshot(path=str(path), full_page=True)
        paths.append(path)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name}: the page is {width}px wide at {label} width"
        hidden = page.evaluate(
            "() => [...document.querySelectorAll('#result .scroll')]"
            ".map((e) => e.scrollWidth - e.clientWidth).filter((d) => d > 1)"
        )
        assert not hidden, f"{name}: the result's lines overflow their box at {label} width"
    page.set_viewport_size(DESKTOP)
    return paths


def check_translated(page: Page) -> None:
    """No ⟦key⟧ marker (an untranslated key) and no ``undefined``/``NaN`` on the page."""
    bad = page.evaluate(UNTRANSLATED_JS)
    assert not bad, f"untranslated or broken text on the page: {bad}"


def switch_language(page: Page, lang: str) -> None:
    """Choose a language in the top bar; waits until the page is redrawn in it (a redraw
    may wait for requests: a form filled before it ends would be drawn again empty)."""
    page.select_option("#lang", lang)
    page.wait_for_function(
        "l => document.documentElement.lang === l && document.body.dataset.drawnLang === l",
        arg=lang,
    )


def check_both_languages(page: Page) -> None:
    """The page has no untranslated key in English nor in Vietnamese (left in Vietnamese)."""
    for lang in ("en", "vi"):
        switch_language(page, lang)
        check_translated(page)


# ----- the recall of a hand ---------------------------------------------------------------------
RECALL_JS = """async id => {
  const headers = { authorization: 'Bearer ' + localStorage.getItem('sanh.token') };
  return (await fetch('/api/recall/' + encodeURIComponent(id), { headers })).json();
}"""
RAW = re.compile(r"[{}\[\]\"]|[a-z]_[a-z]|\b[a-z]+:[a-z\d]|\bp\d+ [a-z]")
"""What an action left raw looks like: JSON (``{"type": ...}``), a code (``player_a``,
``odds:1``) or notation (``p1 call``)."""


def _cards_of(action: dict[str, Any]) -> list[str]:
    cards = action.get("cards") or []
    return [*cards, action["card"]] if action.get("card") else list(cards)


def check_recall(page: Page, url: str, game: str) -> None:
    """Open the recall of the player's latest hand and find each of its events rendered, in
    both languages: who acted ("you", the player's name, the table), the translated action,
    its amount in gold, its cards as SVG cards, its bet area and target by name; the deal and
    the dice as such. No raw JSON, code or notation, no untranslated key."""
    page.goto(f"{url}/#/recall")
    link = page.locator("a[href^='#/recall/']").first
    link.wait_for()
    hand_id = unquote((link.get_attribute("href") or "").removeprefix("#/recall/"))
    hand = page.evaluate(RECALL_JS, hand_id)
    events: list[dict[str, Any]] = hand["actions"]
    assert events, f"{game}: the recall lists no event"
    table = web_strings()
    dice_game = REGISTRY[game].info.deck == "dice"
    link.click()
    for lang in ("en", "vi"):  # left in Vietnamese, the default
        switch_language(page, lang)
        page.wait_for_selector(f"#recall-log[data-lang='{lang}']")
        strings = {key: texts[LANGUAGES.index(lang)] for key, texts in table.items()}

        def text(key: str, strings: dict[str, str] = strings) -> str:
            return strings[key]

        def who(seat: int | None, text: Callable[[str], str] = text) -> str:
            if seat is None:
                return text("recall.table")
            if seat == hand["seat"]:
                return text("table.you")
            return hand["names"][seat] or text("table.seat_n").replace("{n}", str(seat + 1))

        items = page.locator("#recall-log > li")
        assert items.count() == len(events), f"{game}: {items.count()} items, {len(events)} events"
        for number, event in enumerate(events):
            item = items.nth(number)
            shown = item.inner_text()
            kind = event["type"]
            assert item.get_attribute("data-type") == kind, (game, number, event)
            if kind == "shuffle":
                assert shown == text("recall.deal"), (game, shown)
                continue
            if kind == "roll":
                dice = "·".join(str(d) for d in event["dice"])
                label = "recall.dice" if dice_game else "recall.draw"
                assert shown.startswith(f"{text(label)}: {dice}"), (game, shown)
                continue
            actor = event["chair"] if kind == "SitIn" else event["seat"]
            assert shown.startswith(f"{who(actor)}: "), (game, shown, event)
            what = item.locator(".what").inner_text()
            assert not RAW.search(what), f"{game}: {what!r} left raw ({event})"
            assert term("action", game, kind, lang) in what, (game, what, event)
            for field in ("amount", "stack"):
                if isinstance(event.get(field), int):
                    assert format_gold(event[field], lang) in what, (game, what, event)
            for field in ("bet", "spot", "reason"):
                if isinstance(event.get(field), str):
                    assert term("value", game, event[field], lang) in what, (game, what, event)
            if isinstance(event.get("target"), int):
                assert who(event["target"]) in what, (game, what, event)
            for card in _cards_of(event):
                assert item.locator(f"svg[data-card='{card}']").count(), (game, card, event)
        check_translated(page)


# ----- strategies: which button a player clicks -----------------------------------------------
Clicker = Callable[[Page, dict[str, Any]], bool]


def click_first(page: Page, selectors: list[str]) -> bool:
    """Click the first enabled element matching one of ``selectors`` in the action area."""
    for selector in selectors:
        button = page.locator(selector).filter(visible=True)
        if button.count() and button.first.is_enabled():
            button.first.click()
            return True
    return False


def act(kinds: list[str]) -> list[str]:
    """Selectors of the action buttons of these types."""
    return [f"button.act[data-type='{kind}']:not(.card-btn)" for kind in kinds]


def submit_range(page: Page, kind: str, amount_gold: float | None = None) -> bool:
    """Type an amount into a range form (or keep its minimum) and confirm it."""
    form = page.locator(f"form.range[data-type='{kind}']")
    if not form.count():
        return False
    if amount_gold is not None:
        form.first.locator("input[type=number]").fill(f"{amount_gold:.2f}")
    form.first.locator("button[type=submit]").click()
    return True


def poker(page: Page, memo: dict[str, Any]) -> bool:
    if not memo.get("raised") and page.locator("form.range[data-type='RaiseTo']").count():
        memo["raised"] = True
        # Move the slider to its minimum and use the number input: a min-raise.
        return submit_range(page, "RaiseTo")
    return click_first(page, act(["Check", "Call", "AllIn", "Fold"]))


def stud(page: Page, memo: dict[str, Any]) -> bool:
    if click_first(page, act(["SetRules", "TurnUp", "Show"])):
        return True
    if not memo.get("raised") and page.locator("form.range[data-type='Raise']").count():
        memo["raised"] = True
        return submit_range(page, "Raise")
    return click_first(page, act(["Check", "Call", "Muck", "AllIn", "Fold"]))


def phom(page: Page, memo: dict[str, Any]) -> bool:
    return click_first(
        page, [*act(["LayDown", "Send", "Draw"]), "button.card-btn.discard", *act(["Eat"])]
    )


def shedding(page: Page, memo: dict[str, Any]) -> bool:
    if click_first(page, act(["DeclineSam"])):
        return True
    options = page.locator("button.play-option")
    if options.count():
        if not memo.get("picked"):
            # Select the cards of the first legal play in the hand, then press Play.
            memo["picked"] = True
            label = options.first.get_attribute("aria-label") or ""
            cards = page.evaluate("() => window.sanh.actions.find(a => a.type === 'Play').cards")
            for card in cards:
                page.click(f"button.card-btn[data-pick='{card}']")
            assert page.locator("button.play-selected").count(), label
            page.click("button.play-selected")
            return True
        options.first.click()
        return True
    return click_first(page, act(["Pass"]))


def ba_cay(page: Page, memo: dict[str, Any]) -> bool:
    if click_first(page, act(["Ready", "Start"])):
        return True
    if page.locator("form.range[data-type='Bet']").count():
        return submit_range(page, "Bet")
    if not memo.get("squeezed") and page.locator("button.card-btn.squeeze").count():
        memo["squeezed"] = True
        page.locator("button.card-btn.squeeze").first.click()
        return True
    return click_first(page, act(["Flip"]))


def tai_xiu(page: Page, memo: dict[str, Any]) -> bool:
    step = memo.get("step", 0)
    if step == 0:
        page.click("[data-area='small']")
        memo["step"] = 1
        return True
    if step == 1 and click_first(page, ["button.chip.c0.act"]):
        memo["step"] = 2
        return True
    if step == 2 and click_first(page, ["button.chip.c1.act"]):
        memo["step"] = 3
        return True
    if step == 3 and click_first(page, ["button.act.confirm"]):
        memo["step"] = 4
        return True
    return step >= 4 and click_first(page, act(["Ready"]))


def spots(first_spot: str) -> Clicker:
    def clicker(page: Page, memo: dict[str, Any]) -> bool:
        if page.locator("form.range[data-type='Bet']").count() and not memo.get("bet"):
            memo["bet"] = True
            return submit_range(page, "Bet")
        if not memo.get("bet") and page.locator(f"[data-spot='{first_spot}']:enabled").count():
            page.click(f"[data-spot='{first_spot}']")
            return True
        return click_first(page, act(["Ready", "Play", "Fold"]))

    return clicker


STRATEGIES: dict[str, Clicker] = {
    "texas-holdem": poker,
    "poker-aof": poker,
    "lieng": stud,
    "xi-to": stud,
    "phom": phom,
    "tien-len": shedding,
    "sam-loc": shedding,
    "ba-cay-ga": ba_cay,
    "ba-cay-chuong": ba_cay,
    "tai-xiu": tai_xiu,
    "three-card-poker": spots("ante"),
    "teen-patti-2020": spots("player_a"),
}


def play_round(
    page: Page,
    game: str,
    *,
    on_decision: Callable[[], None] | None = None,
    after_hand: int = 0,
    timeout: float = 90,
) -> dict[str, Any]:
    """Click through one hand that includes this player; returns the result message.

    Only a result of a hand numbered above ``after_hand`` counts (so a caller can play the
    next hand). ``on_decision`` runs once, the first time the player must act.
    """
    strategy = STRATEGIES[game]
    memo: dict[str, Any] = {}
    clicks = 0
    decided = False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = page.evaluate(
            "after => { const r = window.sanh.result; const me = window.sanh.player;"
            " return r && r.hand > after && r.seats.includes(me) ? r : null; }",
            after_hand,
        )
        if result is not None:
            return {"result": result, "clicks": clicks}
        if page.locator("#buyin").count():
            page.click("#buyin button[type=submit]")
            continue
        if page.locator(".actions.my-turn").count():
            if not decided and on_decision is not None:
                decided = True
                on_decision()
            before = page.evaluate("() => window.sanh.rendered")
            if strategy(page, memo):
                clicks += 1
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_function(
                        "n => window.sanh.rendered > n", arg=before, timeout=5000
                    )
                continue
        page.wait_for_timeout(100)
    raise TimeoutError(f"{game}: no result within {timeout} s ({clicks} clicks)")
