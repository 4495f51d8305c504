"""The web client in a cluster: a page of node B opens a table node A plays, follows the
``moved`` redirect to A on its own, and after A is killed comes back to the table on B."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, WebSocket

from tests.cluster.conftest import Node, cluster, pg_url, redis_url  # noqa: F401 (fixtures)
from tests.cluster.test_nodes import playing_table, table_of, wait_for
from tests.web.conftest import STOPS
from tests.web.helpers import sign_in

pytestmark = pytest.mark.postgres


def test_the_page_follows_its_table_to_the_node_that_plays_it(
    cluster: object,  # noqa: F811
    page: Page,
) -> None:
    start = cluster  # the fixture is the start(name, system_tables) function
    a: Node = start("node-a", True)  # type: ignore[operator]
    b: Node = start("node-b", False)  # type: ignore[operator]
    table = wait_for("a bot table of node-a", lambda: playing_table(a))
    wait_for("node-b to list it", lambda: table_of(b, table)["node"] == "node-a")
    sockets: list[str] = []

    def opened(ws: WebSocket) -> None:
        sockets.append(ws.url)

    page.on("websocket", opened)
    sign_in(page, b.url)
    page.evaluate(f"location.hash = '#/table/{table}'")
    page.wait_for_selector(".seat", timeout=30_000)
    deadline = time.monotonic() + 30
    while f"ws://127.0.0.1:{a.port}/ws" not in sockets:
        assert time.monotonic() < deadline, sockets
        page.wait_for_timeout(100)
    assert sockets[0] == f"ws://127.0.0.1:{b.port}/ws"  # first the page's own node
    page.click("[data-sit]")  # the bot table's free seat, on node-a
    deadline = time.monotonic() + 30
    while not page.locator(".seat[data-mine]").count():
        assert time.monotonic() < deadline, "the guest did not sit"
        if page.locator("#buyin button[type=submit]").count():
            page.click("#buyin button[type=submit]")
        page.wait_for_timeout(200)
    STOPS.append(time.monotonic())  # the page's refused reconnections to node-a are expected
    a.kill()
    killed = len(sockets)
    wait_for("node-b to play the table", lambda: table_of(b, table)["node"] == "node-b")
    # Playwright hands its events over only while it runs: wait in the page
    deadline = time.monotonic() + 60
    while f"ws://127.0.0.1:{b.port}/ws" not in sockets[killed:]:
        assert time.monotonic() < deadline, sockets
        page.wait_for_timeout(100)
    # the seat is back on node-b (the resume token of node-a's seat works there)
    page.wait_for_selector(".seat[data-mine]", timeout=30_000)
    assert page.locator(".seat").count() >= 2
