"""Cards drawn by the project (sanh/web/cards.js) and table sounds (sanh/web/sound.js), in
Debian's Chromium.

Cards: every card of the 52-, 36- and 28-card decks (the decks the games use, from
sanh.cards.deck) renders as an inline SVG whose visible index is its rank, whose pips are its
suit's (as many as the rank for 2-10, the court figure twice, mirrored, for J, Q, K) and whose
colour is the suit's in two and in four colours; the four-colour button recolours and is
remembered across a reload; backs stand for hidden cards at a table; no image is fetched; at
390 px the cards of a hand show a large index that stays readable.

Sound: no AudioContext is made before the first user gesture (cues before it are skipped), the
mute button is remembered across a reload and silences the cues, and with sound on a Tài Xỉu
round played by clicking plays the deal, your turn, ten seconds left (at its deadline minus 10 s),
chips (the bets acknowledged) and, for a round won, the win. WebAudio is real; the page's own log
(window.__sanhSound.log) tells which cues were played.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request

from sanh.cards.deck import DECKS
from tests.web.conftest import DESKTOP, PHONE, Hall, start_hall
from tests.web.helpers import create_table, play_round, shoot, sign_in

RANK_TEXT = {"T": "10"}
SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
BLACK, RED, BLUE, GREEN = (
    "rgb(17, 24, 39)",
    "rgb(200, 16, 46)",
    "rgb(29, 78, 216)",
    "rgb(21, 128, 61)",
)
COLOURS = {
    False: {"s": BLACK, "c": BLACK, "h": RED, "d": RED},
    True: {"s": BLACK, "c": GREEN, "h": RED, "d": BLUE},
}
SIZES = ("lg", "md", "sm", "xs")
IMAGE_SUFFIXES = (".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp")

GALLERY_JS = """async ({codes, sizes}) => {
  const m = await import('/cards.js');
  let box = document.getElementById('deck-gallery');
  if (!box) {
    box = document.createElement('section');
    box.id = 'deck-gallery';
    box.className = 'panel';
    document.getElementById('app').prepend(box);
  }
  box.innerHTML = sizes.map(size => `<div class="cards" data-size="${size}">`
    + codes.map(c => m.cardSVG(c, {size})).join('') + m.cardSVG(null, {size}) + '</div>').join('');
}"""

READ_JS = """() => [...document.querySelectorAll('#deck-gallery svg.card')].map(svg => {
  const shown = [...svg.querySelectorAll('.full, .mini')]
    .filter(g => getComputedStyle(g).display !== 'none');
  const layout = shown.length === 1 ? shown[0] : null;
  const text = layout ? layout.querySelector('text') : null;
  const box = svg.getBoundingClientRect();
  const uses = layout ? [...layout.querySelectorAll('use')].map(u => u.getAttribute('href')) : [];
  return {
    size: svg.parentElement.dataset.size, card: svg.dataset.card || null,
    back: svg.classList.contains('back'), label: svg.getAttribute('aria-label'),
    layout: layout ? (layout.classList.contains('full') ? 'full' : 'mini') : shown.length,
    rank: text ? text.textContent : null, fill: text ? getComputedStyle(text).fill : null,
    uses, width: box.width, height: box.height,
    textHeight: text ? text.getBoundingClientRect().height : 0,
    backUses: [...svg.querySelectorAll('use')].map(u => u.getAttribute('href')),
  };
})"""


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    running = start_hall(tmp_path_factory.mktemp("hall"))
    yield running
    running.stop()


def image_requests(page: Page) -> list[str]:
    """URLs of images the page asks the network for (filled in as the page runs)."""
    seen: list[str] = []

    def note(request: Request) -> None:
        url = request.url.split("?")[0].lower()
        if not url.startswith("data:") and (
            request.resource_type == "image" or url.endswith(IMAGE_SUFFIXES)
        ):
            seen.append(request.url)

    page.on("request", note)
    return seen


def check_gallery(cards: list[dict[str, Any]], codes: list[str], four: bool) -> None:
    """Each drawn card has its rank, its suit's pips and colour; the backs are backs."""
    assert len(cards) == len(SIZES) * (len(codes) + 1)
    for card in cards:
        if card["back"]:
            assert card["card"] is None and card["backUses"] == ["#sanh-back"], card
            assert card["width"] > 0 and card["height"] > 0, card
            continue
        code = card["card"]
        rank, suit = RANK_TEXT.get(code[0], code[0]), code[1]
        assert card["label"] == rank + SYMBOL[suit], card
        assert card["rank"] == rank, card
        assert card["fill"] == COLOURS[four][suit], (four, card)
        # Under 50 px wide a card shows the large index (mini), else the full face.
        assert card["layout"] == ("mini" if card["width"] < 50 else "full"), card
        pips = [href for href in card["uses"] if href.startswith("#sanh-pip-")]
        assert pips and all(href == f"#sanh-pip-{suit}" for href in pips), card
        if card["layout"] == "mini":
            continue
        courts = [href for href in card["uses"] if href.startswith("#sanh-court-")]
        if code[0] in "JQK":
            assert courts == [f"#sanh-court-{code[0]}"] * 2 and len(pips) == 4, card
        else:
            count = 1 if code[0] == "A" else int(rank)
            assert not courts and len(pips) == count + 2, card  # + the two corner indices


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_every_card_of_a_deck_is_drawn_in_two_and_four_colours(
    page: Page, hall: Hall, deck: str
) -> None:
    images = image_requests(page)
    codes = [str(card) for card in DECKS[deck]]
    page.goto(hall.url)
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("() => localStorage.removeItem('sanh.cards.four')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.get_attribute("#four-colour", "aria-pressed") == "false"
    for four in (False, True):
        if four:  # the top bar's button, then a reload: the choice is remembered
            page.click("#four-colour")
            assert page.get_attribute("#four-colour", "aria-pressed") == "true"
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
            assert page.get_attribute("#four-colour", "aria-pressed") == "true"
            assert page.evaluate("() => document.documentElement.classList.contains('four-colour')")
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            page.evaluate(GALLERY_JS, {"codes": codes, "sizes": list(SIZES)})
            check_gallery(page.evaluate(READ_JS), codes, four)
        shoot(page, f"cards-deck{deck}-{'four' if four else 'two'}-colour")
    page.click("#four-colour")  # back to two colours, at once (no redraw)
    check_gallery(page.evaluate(READ_JS), codes, False)
    assert not images, f"images fetched: {images}"


def test_a_table_draws_backs_for_hidden_cards_and_readable_faces_on_a_phone(
    page: Page, hall: Hall
) -> None:
    images = image_requests(page)
    sign_in(page, hall.url)
    create_table(page, "tien-len", seats=3, bots=2)
    page.wait_for_selector("#table-page svg.card.face")
    page.wait_for_selector(".seat:not([data-mine]) svg.card.back")
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        # Measured where the cards lie, not while they are dealt (scaled down in flight).
        page.wait_for_function("() => window.sanhMotion.moving === 0", polling="raf")
        backs = page.evaluate(
            "() => [...document.querySelectorAll('.seat:not([data-mine]) svg.card')].map(s => ["
            "s.classList.contains('back'), s.dataset.card || null,"
            " [...s.querySelectorAll('use')].map(u => u.getAttribute('href')).join(' ')])"
        )
        # Opponents' cards are hidden: only backs, and no card code in the page for them.
        assert backs and all(b == [True, None, "#sanh-back"] for b in backs), backs
        hand = page.evaluate(
            "() => [...document.querySelectorAll('button.card-btn[data-pick] svg.card')].map(s => {"
            " const shown = [...s.querySelectorAll('.full, .mini')].find("
            "g => getComputedStyle(g).display !== 'none');"
            " const text = shown.querySelector('text').getBoundingClientRect();"
            " const box = s.getBoundingClientRect();"
            " return {card: s.dataset.card, width: box.width, right: box.right,"
            " layout: shown.classList.contains('mini') ? 'mini' : 'full', text: text.height}; })"
        )
        assert len(hand) == 13, hand  # a Tiến lên hand, every card a face
        for card in hand:
            assert card["width"] >= 28, (size, card)
            assert card["right"] <= size["width"], (size, card)  # inside the viewport
            # The rank drawn at least 13 px tall: a large index on a phone, not tiny pips.
            assert card["text"] >= 13, (size, card)
            if size == PHONE:
                assert card["layout"] == "mini", card
    shoot(page, "cards-tien-len-table")
    assert not images, f"images fetched: {images}"


AUDIO_WATCH = """(() => {
  window.__audioMade = [];
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) {
      super(...args);
      window.__audioMade.push({ active: navigator.userActivation.hasBeenActive });
    }
  };
})()"""
"""Counts the AudioContexts the page makes (and whether a user gesture came first); the
context stays the real one."""


def sound(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        "() => ({log: window.__sanhSound.log, skipped: window.__sanhSound.skipped,"
        " state: window.__sanhSound.state, made: window.__audioMade})"
    )
    return result


def wait_for_ten(page: Page) -> None:
    """At a turn first seen with more than 10 s left, wait (before acting) for its tick."""
    left = page.evaluate(
        "() => { const u = window.sanh.update, d = u.deadlines || {};"
        " const at = d[String(window.sanh.update.view.viewer)] || d.table;"
        " return at ? at - Date.now() / 1000 : 0; }"
    )
    if left > 10.5:
        page.wait_for_function(
            "() => window.__sanhSound.log.some(e => e.cue === 'ten')",
            timeout=(left - 8) * 1000,
        )


def test_sound_waits_for_a_gesture_remembers_mute_and_plays_a_round(page: Page, hall: Hall) -> None:
    page.add_init_script(AUDIO_WATCH)
    page.goto(hall.url)
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("() => localStorage.removeItem('sanh.sound')")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"  # on by default
    assert sound(page)["made"] == [] and sound(page)["state"] == "none"
    sign_in(page, hall.url)  # the first click: now audio may start
    heard = sound(page)
    assert len(heard["made"]) == 1 and heard["made"][0]["active"], heard
    assert heard["state"] == "running", heard

    create_table(page, "tai-xiu", seats=3, bots=2)
    # A reload at the table: the round's view comes before any gesture, so its cues are
    # skipped and no AudioContext is made.
    page.wait_for_selector(".actions.my-turn", timeout=30_000)
    page.reload()
    page.wait_for_selector(".seat[data-mine]")
    page.wait_for_function("() => window.__sanhSound.skipped.length > 0")
    heard = sound(page)
    assert heard["made"] == [] and heard["log"] == [], heard
    assert {s["why"] for s in heard["skipped"]} == {"no_gesture"}, heard

    # Mute (the click is the gesture), reload: still muted, and cues are skipped as muted.
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    page.reload()
    page.wait_for_selector(".seat[data-mine]")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    page.click("body", position={"x": 5, "y": 300})  # a gesture while muted: no audio
    page.evaluate("async () => (await import('/sound.js')).play('chips')")
    heard = sound(page)
    assert heard["made"] == [] and heard["log"] == [], heard
    assert heard["skipped"][-1] == {"cue": "chips", "why": "muted"}, heard

    # Sound on again; play rounds until one is won (each round: small, two chips, Đồng ý).
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
    assert sound(page)["state"] == "running"
    # A round is won about half the time: 20 rounds played and all lost is a 1 in 500,000
    # chance (it stops at the first win, after two rounds on average). A round this page could
    # not bet in, or whose cues it did not all hear, is not counted (a busy machine has more).
    last_hand, won, counted = 0, False, 0
    for _ in range(60):
        if counted >= 20:
            break
        page.evaluate("() => { window.__sanhSound.log.length = 0; }")
        outcome = play_round(
            page, "tai-xiu", after_hand=last_hand, on_decision=lambda: wait_for_ten(page)
        )
        result = outcome["result"]
        last_hand = result["hand"]
        page.wait_for_selector(f"#result[data-hand='{last_hand}'] [data-my-net]")
        net = int(page.get_attribute("#result [data-my-net]", "data-my-net") or "0")
        log = sound(page)["log"]
        cues = [entry["cue"] for entry in log]
        assert ("win" in cues) == (net > 0), (net, cues)
        if "deal" not in cues or outcome["clicks"] == 0:
            continue  # the round began while muted, or ended before this page could bet
        assert cues.index("deal") < cues.index("turn") < cues.index("chips"), cues
        for entry in log:
            if entry["cue"] == "ten":  # ten seconds before the deadline, not later
                assert entry["deadline"] - 10.05 <= entry["at"] / 1000 < entry["deadline"], entry
        if "ten" not in cues:
            continue
        counted += 1
        if net > 0:
            won = True
            break
    assert won, f"no round was won in {counted} played"
    assert all(made["active"] for made in sound(page)["made"])


def test_every_cue_is_short_and_audible(page: Page, hall: Hall) -> None:
    """Each cue rendered offline by the page's own synthesis: a sound under a second, not silence
    (and rendering needs no gesture and makes no AudioContext)."""
    page.add_init_script(AUDIO_WATCH)
    page.goto(hall.url)
    page.wait_for_selector("body[data-ready='1']")
    levels = page.evaluate(
        "async () => { const m = await import('/sound.js'); const out = {};"
        " for (const cue of m.CUE_NAMES) out[cue] = await m.renderCue(cue); return out; }"
    )
    assert sorted(levels) == ["chips", "deal", "ten", "turn", "win"], levels
    for cue, level in levels.items():
        assert 0.05 < level["seconds"] < 0.8, (cue, level)
        assert 0.05 < level["peak"] <= 1 and level["rms"] > 0.002, (cue, level)
    assert sound(page)["made"] == []


def test_the_card_and_sound_code_is_small() -> None:
    """cards.js, cards.css and sound.js together stay small (the first page's budget)."""
    web = Path(__file__).resolve().parents[2] / "sanh" / "web"
    total = sum((web / name).stat().st_size for name in ("cards.js", "cards.css", "sound.js"))
    assert total < 30_000, total
