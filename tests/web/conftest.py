"""Fixtures for the browser tests: a hall server in a subprocess and Debian's Chromium.

The hall runs ``sanh serve`` over a temporary SQLite database with its clocks scaled by
``TIMER_SCALE`` (fast, but a turn still leaves a page several seconds to click). Chromium is the
system one at ``/usr/bin/chromium`` (``make test`` installs it with apt when it is missing);
Playwright never downloads a browser here.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    ViewportSize,
    sync_playwright,
)

from tests.hall_env import TEST_HALL_ENV

CHROMIUM = os.environ.get("SANH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMER_SCALE = 0.4
"""Turns last 15 s x 0.4 = 6 s, betting windows 12 s (Tài Xỉu) or 6 s."""
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


STOPS: list[float] = []
"""When halls were stopped (monotonic clock): a page still open then loses its connection."""
LOST_CONNECTION = ("ERR_CONNECTION_REFUSED", "ERR_CONNECTION_RESET", "ERR_EMPTY_RESPONSE")
"""Chromium's words for a request or WebSocket that found no server."""


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Hall:
    """A running ``sanh serve`` in a subprocess."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    stopped_at: float | None = None

    @property
    def url(self) -> str:
        """The base URL."""
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL)."""
        if self.stopped_at is None:
            self.stopped_at = time.monotonic()
            STOPS.append(self.stopped_at)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def start_hall(directory: Path, **env: str) -> Hall:
    """Start a hall over a new database in ``directory``; waits until /healthz answers."""
    port = free_port()
    log = directory / "hall.log"
    args = [
        sys.executable,
        "-m",
        "sanh",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{directory / 'hall.db'}",
        "--timer-scale",
        str(TIMER_SCALE),
        "--no-system-tables",
    ]
    environment = {
        **os.environ,
        "SANH_BETWEEN_HANDS": "6",
        "SANH_BOT_DELAY": "0.5",
        "SANH_LOG_JSON": "false",
        **TEST_HALL_ENV,
        "SANH_HOUSE_TAI_XIU_TABLES": "1",  # the create form's house Tài Xỉu tables
        **env,
    }
    with log.open("ab") as out:
        process = subprocess.Popen(args, stdout=out, stderr=out, env=environment)
    hall = Hall(process, port, log)
    deadline = time.monotonic() + 60  # bounds a hang only (a busy machine starts slowly)
    while time.monotonic() < deadline:
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{hall.url}/healthz", timeout=1) as response,
        ):
            if response.status == 200:
                return hall
        if process.poll() is not None:
            break
        time.sleep(0.05)
    hall.stop()
    raise RuntimeError("the hall did not start: " + log.read_text()[-2000:])


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """The Playwright driver."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Debian's headless Chromium."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)")
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile at desktop size."""
    ctx = browser.new_context(viewport=DESKTOP)
    yield ctx
    ctx.close()


REFUSALS: dict[int, set[tuple[str, int]]] = {}
"""Per page (``id``): the refusals a test provokes on purpose, as (path, HTTP status)."""
REFUSED = re.compile(
    r"^console: Failed to load resource: the server responded with a status of (\d+)"
)


def expect_refusal(tab: Page, path: str, status: int) -> None:
    """The test makes the hall refuse ``path`` with ``status`` (a wrong password, a second
    claim...), which the page shows in words: Chromium's console line for that response is
    then not an error of the page. Any other refused request still fails the test."""
    REFUSALS.setdefault(id(tab), set()).add((path, status))


def _expected(tab: Page, text: str) -> bool:
    match = REFUSED.match(text)
    if not match:
        return False
    url = text.rsplit(" (", 1)[-1].rstrip(")")
    path = urllib.parse.urlsplit(url).path
    return (path, int(match.group(1))) in REFUSALS.get(id(tab), set())


def watch_console(tab: Page) -> Callable[[], list[str]]:
    """Collect the page's uncaught script errors and console errors; the function returned
    lists them. A connection that fails once a hall has been stopped (the page reconnecting to
    a hall the test shut down) is not an error of the page, nor a refusal the test provoked
    (``expect_refusal``)."""
    errors: list[tuple[float, str]] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            where = message.location.get("url", "")
            errors.append((time.monotonic(), f"console: {message.text} ({where})"))

    tab.on("pageerror", lambda error: errors.append((time.monotonic(), f"script: {error}")))
    tab.on("console", on_console)

    def found() -> list[str]:
        stopped = min(STOPS, default=float("inf"))
        return [
            text
            for at, text in errors
            if not (at >= stopped and any(word in text for word in LOST_CONNECTION))
            and not _expected(tab, text)
        ]

    return found


@pytest.fixture(autouse=True)
def _halls_stopped() -> Iterator[None]:
    """The hall stops of one test only (``watch_console`` forgives lost connections after)."""
    STOPS.clear()
    yield
    STOPS.clear()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    """A page that fails the test on any uncaught script error or console error."""
    tab = context.new_page()
    errors = watch_console(tab)
    yield tab
    found = errors()
    REFUSALS.pop(id(tab), None)
    assert not found, f"errors in the page: {found}"
