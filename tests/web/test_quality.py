"""Quality gates of the browser client (issue 12, item 11), in Debian's Chromium.

axe-core, injected into the page by Playwright, finds no serious or critical violation on any page
at desktop (1366x768) and phone (390x844) widths: the sign-in page, the lobby, the rules of every
game, the profile with its statement, the recall list and a hand's recall, the friends and
leaderboard pages, and a table of each of the games at a decision point and at the result. No
rule is switched off. axe-core is an npm package used as a test tool only (the client needs no
Node.js): the tests install the pinned version into .cache/axe when it is missing.

The first page weighs under 300 KB of JS and CSS (every script and style sheet the lobby loads,
counted from the responses); its time to interactive is a speed figure, measured by
benchmarks/web_first_load.py and reported in BENCHMARKS.md, not timed here.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Response, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sanh.games import REGISTRY
from tests.web.conftest import start_hall
from tests.web.helpers import create_table, play_round, sign_in

ROOT = Path(__file__).resolve().parents[2]
AXE_VERSION = "4.10.2"
AXE_DIR = ROOT / ".cache" / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS: dict[str, ViewportSize] = {
    "desktop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844},
}
GAMES = sorted(REGISTRY)
BUDGET = 300 * 1024
"""Bytes of JS and CSS the first page may load (issue 12, item 11)."""
MAX_HANDS = 4
"""Hands a table test plays at most until one needs a click of this player."""

AXE_RUN_JS = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.slice(0, 6).map((n) => n.target.join(' ') + ' :: '
                     + (n.failureSummary || '').replace(/\\s+/g, ' ')) }));
}"""


def installed_axe_version() -> str | None:
    """The axe-core version in .cache/axe, or None when it is not installed."""
    if not AXE_JS.exists():
        return None
    return str(json.loads((AXE_JS.parent / "package.json").read_text())["version"])


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe.min.js of the pinned axe-core, installed with npm into .cache/axe when missing."""
    if installed_axe_version() != AXE_VERSION:
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is missing: the accessibility tests install axe-core with it")
        command = [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix"]
        subprocess.run(
            [*command, str(AXE_DIR), f"axe-core@{AXE_VERSION}"],
            check=True,
            timeout=600,  # bounds a hang only
            capture_output=True,
        )
    assert installed_axe_version() == AXE_VERSION
    return AXE_JS.read_text()


Check = Callable[[str], None]


def axe_checker(page: Page, source: str, found: dict[str, list[dict[str, Any]]]) -> Check:
    """A function that runs axe on the page as it stands at both widths, recording serious and
    critical violations under ``name`` in ``found``; the page is left at desktop width."""

    def check(name: str) -> None:
        for label, size in WIDTHS.items():
            page.set_viewport_size(size)
            page.wait_for_timeout(120)  # the redraw after a resize
            if not page.evaluate("() => typeof window.axe === 'object'"):
                page.add_script_tag(content=source)
            violations = page.evaluate(AXE_RUN_JS)
            if violations:
                found[f"{name} @ {label}"] = violations
        page.set_viewport_size(WIDTHS["desktop"])

    return check


def report(found: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for where, violations in found.items():
        for v in violations:
            lines.append(f"{where}: {v['impact']} {v['id']} ({v['help']})")
            lines.extend(f"    {node}" for node in v["nodes"])
    return "\n".join(lines)


def test_axe_finds_nothing_serious_on_the_pages_outside_a_table(
    page: Page, tmp_path: Path, axe_source: str
) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    check = axe_checker(page, axe_source, found)
    hall = start_hall(tmp_path)
    try:
        page.set_viewport_size(WIDTHS["desktop"])
        page.goto(hall.url)
        page.wait_for_selector("#guest")
        check("sign-in")
        sign_in(page, hall.url)
        page.wait_for_selector("#create-submit")
        check("lobby")
        page.goto(f"{hall.url}/#/rules")
        page.wait_for_selector("[data-rules-game]")
        check("rules")
        for game in GAMES:
            page.goto(f"{hall.url}/#/rules/{game}")
            page.wait_for_selector(f"[data-rules-game='{game}'][aria-current='page']")
            check(f"rules/{game}")
        page.goto(f"{hall.url}/#/profile")
        page.wait_for_selector("table.statement tr.statement-line")
        check("profile and statement")
        page.goto(f"{hall.url}/#/recall")
        page.wait_for_selector("section.panel h1")
        check("recall list")
        page.goto(f"{hall.url}/#/friends")
        page.wait_for_selector("#friends-panel")
        check("friends")
        page.goto(f"{hall.url}/#/leaders")
        page.wait_for_selector("section.panel h1")
        check("leaders")
        page.goto(f"{hall.url}/#/tournaments")
        page.wait_for_selector("#sitgo-create")
        check("tournaments")
    finally:
        hall.stop()
    assert not found, "axe-core found serious or critical violations:\n" + report(found)


@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_nothing_serious_at_a_table(
    page: Page, tmp_path: Path, axe_source: str, game: str
) -> None:
    """A table at the player's decision, at the result, and the recall of the hand."""
    found: dict[str, list[dict[str, Any]]] = {}
    check = axe_checker(page, axe_source, found)
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        create_table(page, game, seats=3, bots=2)
        decided: list[bool] = []

        def at_decision() -> None:
            decided.append(True)
            check(f"{game} table, decision")

        last_hand = 0
        for _ in range(MAX_HANDS):
            outcome = play_round(page, game, on_decision=at_decision, after_hand=last_hand)
            last_hand = outcome["result"]["hand"]
            if decided:
                break
        assert decided, f"{game}: {MAX_HANDS} hands were played without a decision"
        # The result stays up only until the next deal (1.2 s here); on a busy machine the
        # page may already show the next hand, so the check waits for the next result.
        for _ in range(MAX_HANDS):
            try:
                page.wait_for_selector(f"#result[data-hand='{last_hand}']", timeout=5000)
                break
            except PlaywrightTimeout:
                last_hand = play_round(page, game, after_hand=last_hand)["result"]["hand"]
        else:
            raise AssertionError(f"{game}: no result stayed up long enough to be checked")
        check(f"{game} table, result")
        page.goto(f"{hall.url}/#/recall")
        link = page.locator("a[href^='#/recall/']").first
        link.click()
        page.wait_for_selector("#recall-log > li")
        check(f"{game} recall")
    finally:
        hall.stop()
    assert not found, "axe-core found serious or critical violations:\n" + report(found)


def test_the_first_page_loads_under_300_kb_of_js_and_css(page: Page, tmp_path: Path) -> None:
    """Every script and style sheet of the first visit, up to the lobby, counted from the
    responses (the body as served: the hall sends them uncompressed to a browser that asks for
    gzip too, so this is both the transferred and the decoded size)."""
    sizes: dict[str, int] = {}

    def on_response(response: Response) -> None:
        kind = response.request.resource_type
        if kind in ("script", "stylesheet"):
            sizes[response.url] = len(response.body())

    page.on("response", on_response)
    hall = start_hall(tmp_path)
    try:
        sign_in(page, hall.url)
        page.wait_for_selector("#create-submit")
        page.wait_for_load_state("networkidle")
        entries = page.evaluate(
            "() => performance.getEntriesByType('resource')"
            ".filter((e) => e.initiatorType === 'script' || e.initiatorType === 'link'"
            " || e.name.endsWith('.js') || e.name.endsWith('.css'))"
            ".map((e) => [e.name, e.decodedBodySize, e.transferSize])"
        )
    finally:
        hall.stop()
    total = sum(sizes.values())
    assert any(url.endswith("/app.js") for url in sizes), sizes
    assert any(url.endswith("/style.css") for url in sizes), sizes
    timed = {name: decoded for name, decoded, _ in entries if name.endswith((".js", ".css"))}
    assert set(timed) <= set(sizes) | {hall.url + "/"}, set(timed) - set(sizes)
    assert sum(timed.values()) <= total
    assert total < BUDGET, f"{total} bytes of JS+CSS on the first page: {sorted(sizes.items())}"


def test_the_first_page_asks_for_every_module_at_once() -> None:
    """index.html preloads every module of the client and the string table: the browser fetches
    them in parallel instead of one import level after another (four levels, each a round trip
    to a busy hall, before the sign-in page could draw)."""
    web = ROOT / "sanh" / "web"
    html = (web / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    modules = {"/" + str(path.relative_to(web)) for path in web.rglob("*.js")}
    assert preloaded == modules
    assert '<link rel="preload" href="/i18n.json" as="fetch" crossorigin="anonymous">' in html
