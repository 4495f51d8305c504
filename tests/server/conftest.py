"""Fixtures: a real hall server in a subprocess over a temporary SQLite database."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from sanh.server.protocol import PROTOCOL_VERSION
from tests.hall_env import TEST_HALL_ENV


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class HallProcess:
    """A running ``sanh serve``."""

    db: Path
    port: int
    scale: float
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment (``SANH_*`` settings) for the server process."""
    extra: list[str] = field(default_factory=list)
    """Extra ``sanh serve`` arguments (a cluster node's flags)."""
    _out: Any = None
    started_at: float = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.db}"

    def start(self, *, system_tables: bool = False) -> None:
        args = [
            sys.executable,
            "-m",
            "sanh",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--timer-scale",
            str(self.scale),
        ]
        if not system_tables:
            args.append("--no-system-tables")
        args += self.extra
        assert self.log is not None
        if self._out is not None:
            self._out.close()
        out = self._out = self.log.open("ab")
        env = {
            **os.environ,
            "SANH_BETWEEN_HANDS": "1",
            "SANH_BOT_DELAY": "0.5",
            **TEST_HALL_ENV,
            **self.env,
        }
        self.started_at = time.monotonic()
        self.process = subprocess.Popen(args, stdout=out, stderr=out, env=env)
        deadline = time.monotonic() + 60  # bounds a hang only (a busy machine starts slowly)
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError("the hall did not start: " + self.log.read_text()[-2000:])

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        if self._out is not None:
            self._out.close()
            self._out = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self._out is not None:
            self._out.close()
            self._out = None


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[HallProcess]:
    process = HallProcess(tmp_path / "hall.db", free_port(), 0.05, log=tmp_path / "hall.log")
    process.start()
    yield process
    process.stop()


@dataclass
class Client:
    """A player: an HTTP session and a WebSocket, recording every message received."""

    hall: HallProcess
    token: str
    player: str
    ws: ClientConnection | None = None
    stack: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)
    received: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def guest(cls, hall: HallProcess, name: str = "tester") -> Client:
        data = httpx.post(f"{hall.url}/api/guest", json={"name": name}, timeout=10).json()
        return cls(hall, data["token"], data["player"])

    def http(self, method: str, path: str, **kw: Any) -> httpx.Response:
        headers = {"authorization": f"Bearer {self.token}"}
        return httpx.request(method, f"{self.hall.url}{path}", headers=headers, timeout=10, **kw)

    def connect(self) -> dict[str, Any]:
        """Open the WebSocket and sign in with a first ``hello`` frame; returns the welcome."""
        ws_url = self.hall.url.replace("http://", "ws://")
        self.ws = self.stack.enter_context(connect(f"{ws_url}/ws", max_size=2**22))
        self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": self.token})
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        return welcome

    def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        assert self.ws is not None
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        return message

    def until(self, kind: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind!r} message")
            message = self.recv(left)
            if message["type"] == kind:
                return message

    def close(self) -> None:
        if self.ws is not None:
            self.stack.close()
            self.ws = None
