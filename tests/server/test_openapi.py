"""``/openapi.json`` is the contract of the HTTP API: a valid OpenAPI 3.1 document, built from
the handlers' own types, naming every route, parameter, body, answer and error; and the server
answers the way it says (a body that is not JSON, a field that does not fit, a wrong method)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from openapi_spec_validator import validate
from starlette.routing import Mount, Route, WebSocketRoute

from sanh.server.app import create_app
from sanh.server.settings import Settings
from sanh.server.wallet_services import WalletServices
from tests.server.conftest import Client, HallProcess, free_port

METHODS = ("get", "put", "post", "delete", "patch")


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    """One hall for the module (no test here changes what another reads)."""
    where = tmp_path_factory.mktemp("openapi")
    process = HallProcess(where / "hall.db", free_port(), 0.05, log=where / "hall.log")
    process.start()
    yield process
    process.stop()


def document(hall: HallProcess) -> dict[str, Any]:
    response = httpx.get(f"{hall.url}/openapi.json", timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    data: dict[str, Any] = response.json()
    return data


def app_routes() -> tuple[set[str], list[str]]:
    """The HTTP paths of the app's routes, and the kinds of its other routes."""
    services = WalletServices.open("sqlite:///:memory:")
    try:
        app = create_app(Settings(bots_on_start=False), services)
        paths = {r.path for r in app.routes if isinstance(r, Route)}
        others = sorted(type(r).__name__ for r in app.routes if not isinstance(r, Route))
    finally:
        services.close()
    return paths, others


def test_the_document_is_valid_openapi_and_names_every_route(hall: HallProcess) -> None:
    doc = document(hall)
    validate(doc)  # raises on any violation of the OpenAPI 3.1 schema
    assert doc["openapi"] == "3.1.0"
    paths, others = app_routes()
    # Every route is documented, but the WebSocket (docs/protocol.schema.json), the static
    # files of the web client and the 404 no_such_endpoint of any other path under /api.
    assert set(doc["paths"]) == paths
    assert others == sorted([WebSocketRoute.__name__, Mount.__name__, Mount.__name__])
    assert {"/api/register", "/api/tables/{table}/bots", "/api/recall/{hand}"} <= paths


def test_every_operation_declares_its_parameters_body_answer_and_errors(
    hall: HallProcess,
) -> None:
    doc = document(hall)
    schemas = doc["components"]["schemas"]
    operations = 0
    for path, item in doc["paths"].items():
        for method, op in item.items():
            operations += 1
            where = f"{method.upper()} {path}"
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert declared == set(re.findall(r"\{(\w+)\}", path)), where
            assert all(p["required"] for p in op.get("parameters", []) if p["in"] == "path")
            success = [c for c in op["responses"] if c.startswith("2")]
            assert len(success) == 1, where
            assert "content" in op["responses"][success[0]], where
            for code, answer in op["responses"].items():
                if code.startswith("4"):
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, where
            if "security" in op:
                assert "401" in op["responses"], where
            if "requestBody" in op:
                assert {"413", "422"} <= set(op["responses"]), where
                ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                body = schemas[ref.rsplit("/", 1)[1]]
                assert op["requestBody"]["required"] == bool(body.get("required")), where
    assert operations >= 20
    register = doc["paths"]["/api/register"]["post"]
    assert register["requestBody"]["required"] is True
    assert register["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Session"
    }
    assert doc["paths"]["/api/tables/{table}/bots"]["post"]["requestBody"]["required"] is False
    assert set(doc["paths"]["/api/me"]) == {"get", "patch"}
    lobby = {p["name"]: p for p in doc["paths"]["/api/lobby"]["get"]["parameters"]}
    assert set(lobby) == {"game", "stake_min", "stake_max", "open_seats", "q"}
    people = {p["name"]: p for p in doc["paths"]["/api/players"]["get"]["parameters"]}
    assert set(people) == {"q", "bots", "limit"} and people["q"]["required"] is True
    row = schemas["FoundPlayer"]["properties"]
    assert set(row) == {"id", "name", "level", "xp", "guest", "bot", "tables"}
    assert lobby["open_seats"]["schema"] == {"type": "boolean", "default": False}
    error = schemas["Error"]
    assert error["required"] == ["error", "message", "text"]
    assert set(error["properties"]) == {"error", "message", "text", "field"}


def test_a_body_that_is_not_json_or_does_not_fit_is_refused_naming_the_field(
    hall: HallProcess,
) -> None:
    url = hall.url
    not_json = httpx.post(f"{url}/api/register", content=b'{"username": ', timeout=10)
    assert not_json.status_code == 422
    assert not_json.json() == {
        "error": "malformed",
        "message": "the body is not JSON",
        "text": "body_not_json",
    }
    client = Client.guest(hall)
    cases = [
        ({"game": "lieng", "stake": "100"}, "$.stake"),
        ({"stake": 100}, "$.game"),
        ({"game": "lieng", "stake": 100, "colour": "red"}, "$.colour"),
        ({"game": "lieng", "stake": 100, "options": {"x": [1]}}, "$.options[...]"),
    ]
    for body, field in cases:
        answer = client.http("POST", "/api/tables", json=body)
        assert answer.status_code == 422, answer.text
        data = answer.json()
        expected = ("malformed", f"field_invalid:{field}", field)
        assert (data["error"], data["text"], data["field"]) == expected, data
        assert field.split("[")[0].removeprefix("$.") in data["message"], data
    lobby = client.http("GET", "/api/lobby?stake_min=lots")
    assert lobby.status_code == 422
    assert lobby.json()["field"] == "$.stake_min"
    unknown = client.http("GET", "/api/statement?limit=5&page=2")
    assert (unknown.status_code, unknown.json()["field"]) == (422, "$.page")
    # What fits still works.
    assert client.http("GET", "/api/statement?limit=5").status_code == 200
    assert client.http("GET", "/api/lobby?open_seats=true&stake_min=1").status_code == 200


def test_a_method_a_path_does_not_take_is_405_with_the_methods_it_takes(
    hall: HallProcess,
) -> None:
    doc = document(hall)
    http = httpx.Client(base_url=hall.url, timeout=10)
    for path, item in doc["paths"].items():
        concrete = re.sub(r"\{\w+\}", "x1", path)
        for method in METHODS:
            if method in item:
                continue
            answer = http.request(method.upper(), concrete)
            assert answer.status_code == 405, (method, path, answer.text)
            body = msgspec.json.decode(answer.content)
            assert body["error"] == "method_not_allowed" and body["text"] == "method_not_allowed"
            allowed = {m.strip().lower() for m in answer.headers["allow"].split(",")}
            assert allowed - {"head"} == set(item), (path, allowed)
    http.close()
