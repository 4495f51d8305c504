"""The browser client's first page: time to usable and bytes of JS+CSS (issue 12, item 11).

Run: ``python -m benchmarks.web_first_load [--runs 20]`` (never from the tests). It starts
``sanh serve`` on a new SQLite database in a temporary directory (with its system tables, as a
player finds the hall) and drives Debian's Chromium (``/usr/bin/chromium``) with Playwright,
each run in a new browser profile:

- **first visit**: no session, an empty cache; usable = the sign-in page drawn with its
  "play as a guest" button bound (``body[data-ready]`` and ``#guest``);
- **returning, cold cache**: a session token in localStorage, an empty cache; usable = the lobby
  drawn, its table list and create-table form bound (``#create-submit``);
- **returning, warm cache**: the same profile loading the page a second time;
- side by side, interleaved with the first visits: the first visit to index.html with its
  preload hints removed (as it was before them: modules found one import level at a time).

Times are ``performance.now()`` (from the navigation's start) when a MutationObserver first sees
the page usable, so the driver's polling adds nothing. Bytes are the Resource Timing entries of
every ``.js``/``.css`` the page loaded (decoded and transferred sizes), with i18n.json (the
string table, data and not code) listed apart. Targets: usable within 1 s on localhost and under
300 KB of JS+CSS. The machine's load average is printed before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Route, sync_playwright

CHROMIUM = os.environ.get("SANH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
VIEWPORT = {"width": 1366, "height": 768}

WATCH_JS = """(() => {
  const marks = {};
  const look = () => {
    const t = performance.now();
    if (!marks.signin && document.body && document.body.dataset.ready === '1'
        && document.getElementById('guest')) marks.signin = t;
    if (!marks.lobby && document.body && document.body.dataset.ready === '1'
        && document.getElementById('create-submit')) marks.lobby = t;
  };
  new MutationObserver(look).observe(document,
    { subtree: true, childList: true, attributes: true });
  window.__usable = marks;
})();"""

BYTES_JS = """() => performance.getEntriesByType('resource').map((e) =>
  ({ name: e.name, decoded: e.decodedBodySize, transferred: e.transferSize }))"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def start_hall(directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``sanh serve`` with its system tables; returns the process and the base URL."""
    port = _free_port()
    env = {**os.environ, "SANH_GUESTS_PER_HOUR": "1000000", "SANH_LOG_JSON": "false"}
    args = [sys.executable, "-m", "sanh", "serve", "--port", str(port)]
    args += ["--db", f"sqlite:///{directory / 'hall.db'}"]
    log = (directory / "hall.log").open("ab")
    process = subprocess.Popen(args, stdout=log, stderr=log, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/healthz", timeout=1):
            return process, url
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("the hall did not start")


PRELOAD = re.compile(r'^\s*<link rel="(?:module)?preload"[^>]*>\n', re.MULTILINE)


def without_preloads(route: Route) -> None:
    """index.html as it was before its preload hints (the side-by-side peer)."""
    response = route.fetch()
    route.fulfill(response=response, body=PRELOAD.sub("", response.text()))


def one_load(
    browser: Browser, url: str, token: str | None, *, preload: bool = True
) -> dict[str, Any]:
    """One new profile: a first load, then (with a token) a second one on the warm cache."""
    context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    try:
        if not preload:
            context.route(f"{url}/", without_preloads)
        if token is not None:
            context.add_init_script(
                f"localStorage.setItem('sanh.token', {token!r});"
                "localStorage.setItem('sanh.lang', 'vi');"
            )
        context.add_init_script(WATCH_JS)
        page = context.new_page()
        mark = "lobby" if token else "signin"
        page.goto(url)
        page.wait_for_function(f"() => window.__usable && window.__usable.{mark}", timeout=30_000)
        cold = float(page.evaluate(f"() => window.__usable.{mark}"))
        entries = page.evaluate(BYTES_JS)
        run: dict[str, Any] = {"cold": cold, "entries": entries}
        if token is not None:
            page.reload()
            page.wait_for_function("() => window.__usable && window.__usable.lobby")
            run["warm"] = float(page.evaluate("() => window.__usable.lobby"))
        page.close()
        return run
    finally:
        context.close()


def sizes(entries: list[dict[str, Any]]) -> dict[str, int]:
    code = [e for e in entries if e["name"].split("?")[0].endswith((".js", ".css"))]
    strings = [e for e in entries if e["name"].split("?")[0].endswith("i18n.json")]
    return {
        "files": len(code),
        "decoded": sum(int(e["decoded"]) for e in code),
        "transferred": sum(int(e["transferred"]) for e in code),
        "i18n": sum(int(e["decoded"]) for e in strings),
    }


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):.0f} | {p90:.0f} | {ordered[-1]:.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    print(f"before: `uptime`: {_uptime()}")
    with tempfile.TemporaryDirectory() as tmp:
        process, url = start_hall(Path(tmp))
        try:
            token = httpx.post(f"{url}/api/guest", json={}, timeout=30).json()["token"]
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    one_load(browser, url, token)  # warms the server (imports, first queries)
                    first, bare, back = [], [], []
                    for _ in range(args.runs):  # interleaved: both meet the same load
                        first.append(one_load(browser, url, None))
                        bare.append(one_load(browser, url, None, preload=False))
                        back.append(one_load(browser, url, token))
                finally:
                    browser.close()
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(15)
    print(f"after: `uptime`: {_uptime()}")
    print(f"\n{args.runs} runs each, ms from the navigation's start (target: under 1000 ms)\n")
    print("| page usable | median ms | p90 ms | max ms |")
    print("|---|---:|---:|---:|")
    print(f"| first visit: sign-in page | {summary([r['cold'] for r in first])} |")
    print(
        "| first visit: sign-in page, index.html without its preload hints (before) | "
        f"{summary([r['cold'] for r in bare])} |"
    )
    print(f"| returning, cold cache: lobby | {summary([r['cold'] for r in back])} |")
    print(f"| returning, warm cache: lobby | {summary([r['warm'] for r in back])} |")
    weight = sizes(back[0]["entries"])
    print("\n| first page JS+CSS (target: under 300 KB) | bytes |")
    print("|---|---:|")
    print(f"| {weight['files']} files, decoded | {weight['decoded']:,} |")
    print(f"| {weight['files']} files, transferred (with headers) | {weight['transferred']:,} |")
    print(f"| i18n.json (strings, not counted) | {weight['i18n']:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
