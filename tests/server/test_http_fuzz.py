"""Hostile input over every HTTP endpoint and field: never a 5xx, every 4xx with a text code.

The endpoints, their path parameters, their query parameters and their body fields are read
from the hall's own OpenAPI document (``/openapi.json``), so an endpoint added later is fuzzed
without touching this file. Each field gets a fixed list of hostile values (too long, huge or
negative numbers, floats, null, wrong types, nested objects, unicode edge cases: control
characters, lone surrogates, right-to-left overrides, only spaces), each body is also sent
without its required fields, as non-JSON and as too large, and every case goes with a guest's
token and without one. Every answer must be below 500, and every 4xx an ``Error`` body whose
``text`` is a text code of ``SERVER_TEXTS`` or ``CONFIG_TEXTS`` (the client translates it).

The hall is the real app over uvicorn in the test's loop (:class:`InProcessHall`); the list of
cases is deterministic (no random generation), about 1,500 requests.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from sanh.server.settings import Settings
from sanh.texts import TEXTS, parse
from tests.server.harness import InProcessHall


@dataclass(frozen=True)
class Raw:
    """A JSON value written as is (a lone surrogate escape, a number JSON cannot round)."""

    text: str


HOSTILE_STRINGS: list[Any] = [
    "",
    " ",
    "    ",
    "\t\n",
    "x" * 33,
    "x" * 65,
    "x" * 5000,
    "é" * 40,
    "\x00",
    "a\x00b",
    "\x07bell",
    "\x1b[31mred",
    "\u202eevil",
    "\u200b",
    "\u200b\u200b\u200b",
    "\ufeff",
    "\U0001f0a1\U0001f600",
    "Ａｄｍｉｎ",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "'; DROP TABLE players; --",
    "%00",
    "a:b|c",
    Raw('"\\ud800"'),
    Raw('"x\\udfff"'),
    Raw('"\\u0000"'),
]
HOSTILE_NUMBERS: list[Any] = [
    0,
    -1,
    -(2**31),
    2**31,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    -(2**64),
    10**40,
    1.5,
    -0.0,
    1e308,
    Raw("1e400"),
    Raw("-1e400"),
]
HOSTILE_OTHERS: list[Any] = [
    None,
    True,
    False,
    [],
    [1, 2, 3],
    {},
    {"$ref": "#"},
    {"a": {"b": {"c": [None]}}},
    ["x"] * 2000,
    Raw("[" * 200 + "]" * 200),
]
HOSTILE = HOSTILE_STRINGS + HOSTILE_NUMBERS + HOSTILE_OTHERS
A_FEW_STRINGS: list[Any] = ["", "x" * 5000, "1", "\u202eevil", Raw('"\\ud800"')]
A_FEW_NUMBERS: list[Any] = [-1, 2**64, 1.5, Raw("1e400")]


def hostile_values(schema: dict[str, Any]) -> list[Any]:
    """Every hostile value of the field's own kind, and a few of every other kind."""
    kinds = {schema.get("type")} | {c.get("type") for c in schema.get("anyOf", ())}
    numbers = bool(kinds & {"integer", "number"})
    strings = "string" in kinds
    return [
        *(HOSTILE_STRINGS if strings else A_FEW_STRINGS),
        *(HOSTILE_NUMBERS if numbers else A_FEW_NUMBERS),
        *HOSTILE_OTHERS,
    ]


HOSTILE_PATH = [
    "",
    " ",
    "0",
    "-1",
    str(2**64),
    str(-(2**64)),
    str(10**40),
    "1.5",
    "1e400",
    "NaN",
    "x" * 33,
    "x" * 5000,
    "é" * 40,
    "\x00",
    "\u202eevil",
    "\U0001f600",
    "../../etc/passwd",
    "a/b",
    "%",
    "null",
]

BAD_BODIES: list[bytes] = [
    b"",
    b"null",
    b"[]",
    b"1",
    b'"text"',
    b"not json",
    b"{",
    b"\xff\xfe\xfd",
    b'{"a": NaN}',
    b"[" * 5000 + b"]" * 5000,
    b'{"x": "' + b"a" * 20_000 + b'"}',
    b"{" + b'"k": 1, ' * 3000 + b'"k": 2}',
]

EXAMPLES: dict[str, Any] = {
    "game": "tien_len",
    "stake": 100,
    "username": "fuzzuser",
    "password": "fuzz-password-1",
    "language": "en",
    "name": "Fuzz",
}
"""A value the hall accepts for fields whose schema alone does not give one (a game id, a
stake in range), so that the other fields of the body are the ones refused."""


def _encode(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, list):
        return "[" + ",".join(_encode(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{_encode(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def _example(name: str, schema: dict[str, Any], components: dict[str, Any]) -> Any:
    """A plain value that fits ``schema`` (the base each hostile value is put into)."""
    if name in EXAMPLES:
        return EXAMPLES[name]
    schema = _resolve(schema, components)
    if "default" in schema:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    choices = schema.get("anyOf") or schema.get("oneOf")
    if choices:
        return _example(name, next(c for c in choices if c.get("type") != "null"), components)
    kind = schema.get("type")
    return {"string": "fuzz", "integer": 1, "number": 1, "boolean": False, "array": []}.get(
        kind, {}
    )


def _resolve(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    return schema


@dataclass(frozen=True)
class Case:
    method: str
    path: str
    query: str
    body: bytes | None
    signed: bool
    what: str


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    path_names: tuple[str, ...]
    query: dict[str, dict[str, Any]]
    body: dict[str, Any] | None
    """The body's object schema (properties, required), or None."""
    signed: bool


def operations(document: dict[str, Any]) -> list[Operation]:
    """Every operation of the OpenAPI document, with its parameters and body schema."""
    components = document["components"]["schemas"]
    out = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            parameters = operation.get("parameters", [])
            body = None
            if "requestBody" in operation:
                schema = operation["requestBody"]["content"]["application/json"]["schema"]
                body = _resolve(schema, components)
            out.append(
                Operation(
                    method=method.upper(),
                    path=path,
                    path_names=tuple(p["name"] for p in parameters if p["in"] == "path"),
                    query={p["name"]: p["schema"] for p in parameters if p["in"] == "query"},
                    body=body,
                    signed="security" in operation,
                )
            )
    return out


def cases(op: Operation, components: dict[str, Any]) -> Iterator[Case]:
    """The hostile requests of one operation (each with and without a token when it needs
    one)."""
    plain_path = op.path
    for name in op.path_names:
        plain_path = plain_path.replace("{" + name + "}", "1")
    properties = (op.body or {}).get("properties", {})
    base = {k: _example(k, s, components) for k, s in properties.items()}
    required = set((op.body or {}).get("required", ()))
    base_body = _encode(base).encode() if op.body is not None else None
    plain = []
    # every path parameter
    for name in op.path_names:
        for value in HOSTILE_PATH:
            path = op.path
            for other in op.path_names:
                part = quote(value, safe="") if other == name else "1"
                path = path.replace("{" + other + "}", part)
            plain.append((path, "", base_body, f"path {name}={value[:20]!r}"))
    # every query parameter
    for name in op.query:
        for value in HOSTILE_PATH:
            plain.append((plain_path, f"{name}={quote(value, safe='')}", None, f"?{name}"))
    if op.query:
        plain.append((plain_path, "unknown=1", None, "unknown query"))
        plain.append((plain_path, "&".join(f"{n}=" for n in op.query), None, "empty query"))
    # every body field
    for name, schema in properties.items():
        for value in hostile_values(_resolve(schema, components)):
            body = _encode({**base, name: value}).encode()
            plain.append((plain_path, "", body, f"body {name}={str(value)[:20]!r}"))
        if name in required:
            rest = {k: v for k, v in base.items() if k != name}
            plain.append((plain_path, "", _encode(rest).encode(), f"body without {name}"))
    if op.body is not None:
        unknown = _encode({**base, "unknown_field": 1}).encode()
        plain.append((plain_path, "", unknown, "body with an unknown field"))
    # the whole body (also to operations that take none)
    for body in BAD_BODIES:
        plain.append((plain_path, "", body, f"body {body[:20]!r}"))
    plain.append((plain_path, "", b"{}" * 20_000, "a huge body"))
    for path, query, body, what in plain:
        yield Case(op.method, path, query, body, op.signed, what)
    if op.signed:  # the token is checked first: a few cases without one, and every bad body
        for path, query, body, what in plain[:: max(1, len(plain) // 8)]:
            yield Case(op.method, path, query, body, False, what)
        for body in BAD_BODIES:
            yield Case(op.method, plain_path, "", body, False, f"body {body[:20]!r}")


def _check(case: Case, response: httpx.Response) -> str | None:
    """What is wrong with the answer to a hostile case, or None."""
    where = f"{case.method} {case.path}?{case.query} {case.what} signed={case.signed}"
    if response.status_code >= 500:
        return f"[5xx] {where}: {response.status_code} {response.text[:200]}"
    if response.status_code < 400:
        return None
    try:
        body = response.json()
    except ValueError:
        return f"{where}: {response.status_code} not JSON: {response.text[:200]}"
    words = body.get("text") if isinstance(body, dict) else None
    if not isinstance(body.get("error"), str) or not isinstance(words, str):
        return f"{where}: {response.status_code} without a text code: {body}"
    if not parse(words) or any(code not in TEXTS for code, _ in parse(words)):
        return f"{where}: {response.status_code} text {words!r} is not a known text code"
    return None


def test_no_hostile_input_answers_5xx_and_every_refusal_has_a_text_code(tmp_path: Path) -> None:
    settings = Settings(
        bots_on_start=False,
        guests_per_hour=1_000_000,
        registrations_per_hour=1_000_000,
        rate_per_second=1000,
        rate_burst=1000,
    )

    async def main() -> None:
        async with (
            InProcessHall(tmp_path / "hall.db", settings) as hall,
            httpx.AsyncClient(base_url=hall.url, timeout=60) as http,
        ):
            document = (await http.get("/openapi.json")).json()
            components = document["components"]["schemas"]
            ops = operations(document)
            assert len(ops) >= 18, [f"{o.method} {o.path}" for o in ops]
            guest = await http.post("/api/guest", json={"name": "fuzzer"})
            token = guest.json()["token"]
            problems: list[str] = []
            sent = 0
            for op in ops:
                if op.path == "/api/rules" or op.path == "/metrics":
                    # heavy answers that take no input: a few cases, not every hostile body
                    todo = list(cases(op, components))[:3]
                else:
                    todo = list(cases(op, components))
                for case in todo:
                    headers = {"content-type": "application/json"}
                    if case.signed:
                        headers["authorization"] = f"Bearer {token}"
                    url = case.path + (f"?{case.query}" if case.query else "")
                    response = await http.request(
                        case.method, url, content=case.body, headers=headers
                    )
                    sent += 1
                    problem = _check(case, response)
                    if problem is not None:
                        problems.append(problem)
            problems.sort(key=lambda line: not line.startswith("[5xx]"))  # the worst first
            assert not problems, f"{len(problems)} of {sent}:\n" + "\n".join(problems[:2000])
            assert sent > 1000, sent  # about 1,500

    asyncio.run(main())


def test_bad_tokens_are_refused_with_a_text_code(tmp_path: Path) -> None:
    """Hostile ``Authorization`` headers on a signed-in operation: 401 with a text code."""
    settings = Settings(bots_on_start=False)

    async def main() -> None:
        async with (
            InProcessHall(tmp_path / "hall.db", settings) as hall,
            httpx.AsyncClient(base_url=hall.url, timeout=60) as http,
        ):
            for header in [
                "",
                "Bearer",
                "Bearer  x",
                "Basic abc",
                "Bearer " + "x" * 5000,
                "Bearer a\tb",
                "Bearer \u00e9",
                "Bearer ../..",
            ]:
                raw = header.encode("utf-8")  # a token of bytes that are not ASCII
                response = await http.get("/api/me", headers={"authorization": raw})
                assert response.status_code == 401, (header[:20], response.text)
                assert response.json()["text"] == "log_in_first"

    asyncio.run(main())
