"""A bounded schemathesis run against a real hall: no 5xx, no answer the document denies.

Every operation of ``/openapi.json`` is fed schemathesis' cases (positive and negative, a fixed
number of each, derandomised, under a time limit that only bounds a hang) over HTTP to a
``sanh serve`` subprocess, signed in as a guest; every answer goes through schemathesis' checks
(no server error, a documented status, content type and headers, a body that fits its schema,
bad input refused).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from sanh.server.settings import Settings
from tests.server.conftest import HallProcess, free_port

CASES = 8
"""Cases per operation and generation mode (18 operations, 2 modes: under 300 in all)."""
TIME_LIMIT = 240.0
"""Seconds for the whole run; only bounds a hang (it takes about a tenth of that)."""

CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {
                # A body that fits the schema may still be a setup the lobby or the game
                # refuses (an unknown game, a stake out of range, an option the game does not
                # have): 422 bad_config, with its text code (docs/options.md).
                "include-path": "/api/tables",
                "include-method": "POST",
                "checks": {
                    "positive_data_acceptance": {
                        "expected-statuses": ["2xx", "401", "403", "404", "409", "422"]
                    }
                },
            }
        ]
    }
)


@pytest.fixture
def contract_hall(tmp_path: Path) -> Iterator[HallProcess]:
    hall = HallProcess(tmp_path / "hall.db", free_port(), 0.05, log=tmp_path / "hall.log")
    if _has_setting("guests_per_hour"):
        hall.env["SANH_GUESTS_PER_HOUR"] = "1000000"  # every POST /api/guest case makes one
    hall.start()
    yield hall
    hall.stop()


def _has_setting(name: str) -> bool:
    """Whether the hall has a setting of this name (the guest limit comes with another change)."""
    return name in (getattr(Settings, "model_fields", None) or {}) or hasattr(Settings, name)


def test_no_case_finds_a_server_error_or_an_answer_the_document_denies(
    contract_hall: HallProcess,
) -> None:
    url = contract_hall.url
    token = httpx.post(f"{url}/api/guest", json={"name": "fuzz"}, timeout=10).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json", config=CONFIG)
    deadline = time.monotonic() + TIME_LIMIT
    failures: dict[str, str] = {}
    calls = 0

    def check(case: Any) -> None:
        nonlocal calls
        if time.monotonic() > deadline:
            return
        calls += 1
        response = case.call(base_url=url, headers=headers, timeout=30)
        case.validate_response(
            response, headers=headers, transport_kwargs={"base_url": url, "headers": headers}
        )

    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 18, [op.label for op in operations]
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            run = settings(
                max_examples=CASES,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.explicit, Phase.generate, Phase.shrink],
                suppress_health_check=list(HealthCheck),
            )(given(operation.as_strategy(generation_mode=mode))(check))
            try:
                run()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE  # nothing in it can be made invalid
            except (Exception, BaseExceptionGroup) as exc:
                failures[f"{operation.label} ({mode.value})"] = str(exc)[:2000]
    assert not failures, "\n\n".join(f"{k}:\n{v}" for k, v in failures.items())
    assert calls >= 100, calls
