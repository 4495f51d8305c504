"""docs/protocol.schema.json is the JSON Schema generated from sanh/server/protocol.py: the
committed file is what the regeneration command prints, it is valid JSON Schema 2020-12, and it
tells the protocol's messages from what is not one. (Every message the server sends in a game
is checked against it in tests/server/test_e2e_games.py.)"""

from __future__ import annotations

import subprocess
import sys

from jsonschema import Draft202012Validator

from sanh.server import protocol as p
from tests.server.protocol_schema import (
    SCHEMA_PATH,
    client_validator,
    published,
    server_problems,
)
from tests.source_scan import ROOT


def test_the_committed_schema_is_what_the_command_generates() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "sanh.server.protocol", "--schema"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        cwd=ROOT,
        check=True,
    )
    assert out.stdout == SCHEMA_PATH.read_text(encoding="utf-8"), (
        "docs/protocol.schema.json is stale: python -m sanh.server.protocol --schema"
        " > docs/protocol.schema.json"
    )
    assert published() == p.schema()


def test_the_schema_is_valid_and_names_every_message() -> None:
    Draft202012Validator.check_schema(published())
    server = published()["$defs"]["server_message"]["discriminator"]["mapping"]
    client = published()["$defs"]["client_message"]["discriminator"]["mapping"]
    assert set(server) == {
        "welcome", "table", "buyin_panel", "result", "ack", "error", "pong", "balance",
        "leave_pending", "leave_quote", "left", "chat", "chat_history", "presence",
        "friend_invite", "moved",
    }  # fmt: skip
    assert set(client) == {
        "hello", "resume", "join", "leave", "sit", "stand", "buyin", "act", "add_bots",
        "remove_bots", "ping", "cancel_leave", "quote_leave", "leave_now", "host", "chat",
        "lobby_chat", "chat_spectators",
    }  # fmt: skip


def test_messages_the_server_encodes_validate_and_others_do_not() -> None:
    import msgspec

    sent = [
        p.Welcome(player="7", name="An", balance=100_000),
        p.Error(code=p.ErrorCode.TABLE_FULL, message="the table is full", text="table_full"),
        p.Ack(nonce="n1", version=3),
        p.Pong(),
        p.BuyInPanel(table="t1", min=4000, max=20000, deadline=1.5e9),
        p.BalanceUpdate(balance=5),
    ]
    messages = [msgspec.json.decode(p.encode(m)) for m in sent]
    assert server_problems(messages) == []
    wrong = [
        {"type": "welcome", "player": "7", "name": "An"},
        {"type": "error", "code": "no_such_code", "message": "x"},
        {"type": "ack", "nonce": "n1", "version": "3"},
        {"type": "hello", "token": "t"},
    ]
    assert len(server_problems(wrong)) == len(wrong)
    hello = {"type": "hello", "token": "t", "protocol": p.PROTOCOL_VERSION}
    assert client_validator().is_valid(hello)
    assert not client_validator().is_valid({"type": "act", "table": "t1"})
