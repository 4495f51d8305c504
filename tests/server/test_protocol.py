"""The WebSocket protocol's strict decoding: every malformed frame is a typed refusal."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanh.server import protocol as p


def test_round_trip_of_every_client_message() -> None:
    samples = [
        {"type": "hello", "token": "t", "protocol": 1},
        {"type": "resume", "resume_token": "r"},
        {"type": "join", "table": "t1"},
        {"type": "leave", "table": "t1"},
        {"type": "sit", "table": "t1", "seat": 2},
        {"type": "stand", "table": "t1"},
        {"type": "buyin", "table": "t1", "amount": 1000},
        {"type": "act", "table": "t1", "nonce": "n", "version": 3, "action": {"type": "Fold"}},
        {"type": "add_bots", "table": "t1", "count": 2},
        {"type": "ping"},
    ]
    for sample in samples:
        message = p.decode_client(json.dumps(sample))
        assert type(message).__struct_config__.tag == sample["type"]


@pytest.mark.parametrize(
    "frame",
    [
        "",
        "not json",
        "[]",
        "{}",
        '{"type": "nope"}',
        '{"type": "sit"}',
        '{"type": "sit", "table": 5}',
        '{"type": "act", "table": "t", "nonce": "n", "version": "x", "action": {}}',
        '{"type": "ping", "extra": 1}',
        '{"type": "buyin", "table": "t", "amount": 1.5}',
    ],
)
def test_malformed_frames_raise_msgspec_errors(frame: str) -> None:
    with pytest.raises((msgspec.ValidationError, msgspec.DecodeError)):
        p.decode_client(frame)


@settings(max_examples=400)
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200)))
def test_random_bytes_never_crash_the_decoder(frame: bytes | str) -> None:
    try:
        message = p.decode_client(frame)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return
    assert isinstance(message, p.ClientMessage)


def test_server_messages_encode_with_their_type() -> None:
    error = p.Error(code=p.ErrorCode.STALE_VERSION, message="old", nonce="n")
    assert json.loads(p.encode(error)) == {
        "type": "error",
        "code": "stale_version",
        "message": "old",
        "nonce": "n",
        "table": None,
        "text": None,
    }
