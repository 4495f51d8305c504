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
    return Draft202012Validator(published())


@cache
def client_validator() -> Draft202012Validator:
    document = published()
    return Draft202012Validator({**document, "$ref": "#/$defs/client_message"})


def server_problems(messages: list[dict[str, Any]]) -> list[str]:
    """Each message the published schema refuses, with why (the best match's path and words)."""
    problems = []
    validator = server_validator()
    for message in messages:
        errors = sorted(validator.iter_errors(message), key=lambda e: e.path)
        if errors:
            deepest = max(
                (e for error in errors for e in (error, *(error.context or []))),
                key=lambda e: len(e.absolute_path),
            )
            where = "/".join(str(p) for p in deepest.absolute_path)
            problems.append(f"{message.get('type')}: {where}: {deepest.message[:200]}")
    return problems
