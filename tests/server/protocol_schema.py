"""The published JSON Schema of the WebSocket protocol (docs/protocol.schema.json), as a
validator of what the server sends and what a client may send."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from tests.source_scan import ROOT

SCHEMA_PATH = ROOT / "docs" / "protocol.schema.json"


@cache
def published() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return data


@cache
def server_validator() -> Draft202012Validator:
    """The whole document: any server message."""
    return Draft202012Validator(published())


@cache
def client_validator() -> Draft202012Validator:
    return Draft202012Validator({**published(), "$ref": "#/$defs/client_message"})


@cache
def _validator_for(ref: str) -> Draft202012Validator:
    return Draft202012Validator({**published(), "$ref": ref})


def server_problems(messages: list[dict[str, Any]]) -> list[str]:
    """Each message the published schema refuses, with why.

    A message is checked against the schema its ``type`` names (the document's discriminator),
    then against the whole document (the two must agree)."""
    mapping = published()["$defs"]["server_message"]["discriminator"]["mapping"]
    whole = server_validator()
    problems = []
    for message in messages:
        ref = mapping.get(message.get("type")) if isinstance(message, dict) else None
        if ref is None:
            problems.append(f"no server message of type {message.get('type')!r}")
            continue
        errors = list(_validator_for(ref).iter_errors(message))
        for error in errors[:3]:
            where = "/".join(str(p) for p in error.absolute_path)
            problems.append(f"{message['type']}: {where}: {error.message[:200]}")
        if not errors and not whole.is_valid(message):
            problems.append(f"{message['type']}: valid as {ref}, not as a server message")
    return problems
