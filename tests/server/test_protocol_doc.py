"""docs/protocol.md stays true to the code: every message type with each of its fields, every
error code, the protocol version and the limits; and the web client speaks that version."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import msgspec
import pytest

from sanh.server import protocol as p
from sanh.server.settings import Settings
from sanh.server.table import MAX_NONCES

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
APP_JS = ROOT / "sanh" / "web" / "app.js"


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _sections(text: str) -> dict[str, str]:
    """The text of each ``##``/``###`` section, by its heading (without the hashes)."""
    parts = re.split(r"^#{2,3} (.+)$", text, flags=re.MULTILINE)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def _messages(base: type[msgspec.Struct]) -> dict[str, type[msgspec.Struct]]:
    out: dict[str, type[msgspec.Struct]] = {}
    for cls in base.__subclasses__():
        tag = cls.__struct_config__.tag
        assert isinstance(tag, str), cls
        out[tag] = cls
    return out


CLIENT = _messages(p.ClientMessage)
SERVER = _messages(p.ServerMessage)


def _documented(text: str, part: str) -> list[str]:
    """The message types with a ``### `type` `` heading between ``## part`` and the next ``##``."""
    start = text.index(f"\n## {part}\n")
    end = text.find("\n## ", start + 1)
    return re.findall(r"^### `([a-z_]+)`$", text[start:end], flags=re.MULTILINE)


def test_the_messages_found_are_those_the_server_decodes_and_sends() -> None:
    decoded = {cls.__struct_config__.tag for cls in typing.get_args(p.CLIENT_TYPES)}
    assert set(CLIENT) == decoded
    assert {"hello", "act", "resume", "ping"} <= set(CLIENT)
    assert {"welcome", "table", "buyin_panel", "result", "ack", "error", "pong"} <= set(SERVER)


def test_every_client_and_server_message_has_its_section() -> None:
    text = _text()
    assert sorted(_documented(text, "Client messages")) == sorted(CLIENT)
    assert sorted(_documented(text, "Server messages")) == sorted(SERVER)


@pytest.mark.parametrize("tag", sorted({*CLIENT, *SERVER}))
def test_every_field_of_a_message_is_in_its_section(tag: str) -> None:
    section = _sections(_text())[f"`{tag}`"]
    message = CLIENT.get(tag) or SERVER[tag]
    missing = [f.name for f in msgspec.structs.fields(message) if f"`{f.name}`" not in section]
    assert not missing, f"{tag}: fields {missing} are not in its section of docs/protocol.md"


def test_every_error_code_is_in_the_table_of_codes() -> None:
    section = _sections(_text())["Error codes"]
    rows = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    assert sorted(rows) == sorted(code.value for code in p.ErrorCode)


def test_the_version_and_the_limits_are_the_codes() -> None:
    text = " ".join(_text().split())
    settings = Settings()
    assert f"This is protocol version {p.PROTOCOL_VERSION} " in text
    assert f"A frame over {settings.max_message_bytes:,} bytes" in text
    assert f"A frame over {settings.max_frame_bytes:,} bytes" in text
    rate = f"{settings.rate_per_second:g} messages a second with bursts of {settings.rate_burst}"
    assert rate in text
    assert f"The last {MAX_NONCES} accepted" in text
    assert f"({settings.buyin_timer:g} s by default, `buyin_timer`" in text
    assert f"for {settings.reconnect_grace:g} s (`reconnect_grace`)" in text


def test_the_web_client_speaks_the_servers_protocol_version() -> None:
    found = re.search(r"^const PROTOCOL = (\d+);", APP_JS.read_text(encoding="utf-8"), re.M)
    assert found is not None, "app.js names no PROTOCOL version"
    assert int(found.group(1)) == p.PROTOCOL_VERSION
