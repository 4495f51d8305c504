"""The HTTP API's contract: typed endpoints, and the OpenAPI document built from the same types.

An endpoint is a module-level async function declared with :meth:`Endpoints.endpoint` on its
module's group (an app's :class:`Api` serves the groups it is given)::

    ENDPOINTS = Endpoints()

    @ENDPOINTS.endpoint("POST", "/api/tables/{table}/bots", response=TableEntry, errors=[403, 404])
    async def add_bots(request: Request, player: PlayerInfo, table: str, body: BotsRequest) -> Any:
        hall = context(request).hall  # what the app holds, in ``request.app.state``

Its parameters say what it takes, by name: ``body`` (a msgspec struct decoded from the JSON
body; required when the struct has a required field), ``query`` (a struct decoded from the query
string), ``player`` (the signed-in player: the operation needs a bearer token), ``request`` (the
Starlette request), and the path's ``{names}`` as strings. It returns what the ``response`` type
describes (encoded with msgspec, with the endpoint's ``status``) or a Starlette
:class:`~starlette.responses.Response` of its own. Every refusal is an :class:`ApiError`, sent as
:class:`Error`; the statuses an endpoint may answer with are its ``errors``, with 401 (a
``player``), 413 and 422 (a ``body``) and 422 (a ``query``, or a typed path parameter such as
``clan: ClanId``) added by themselves. A method a
path does not declare is answered with 405 ``method_not_allowed``.

:meth:`Api.document` is the OpenAPI 3.1 document: paths, parameters, bodies, responses and
errors, with every schema from :func:`msgspec.json.schema_components`.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import msgspec
from starlette import status
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import Receive, Scope, Send

from sanh.texts import clean, describe, text

__all__ = ["MAX_BODY_BYTES", "Api", "ApiError", "Endpoint", "Endpoints", "Error"]

MAX_BODY_BYTES = 16_384
"""A larger request body is refused with 413 ``too_large``."""

REF_TEMPLATE = "#/components/schemas/{name}"


class ApiError(Exception):
    """An HTTP error with a typed code, and its words: a text code (``text``, its English the
    message) or, for a parser's complaint, a free English ``message`` (and the ``field`` it is
    about, a JSON path like ``$.stake``)."""

    def __init__(
        self,
        status_code: int,
        code: str,
        message: str = "",
        *,
        text: str | None = None,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        message = message or describe(text or "")
        super().__init__(message)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.text = text
        self.field = field
        self.headers = headers
        """Extra response headers (``Retry-After`` on a 429)."""


class Error(msgspec.Struct, omit_defaults=True):
    """Every HTTP error's body."""

    error: str
    """The error code (``refused``, ``malformed``, ``bad_config``, ``unauthenticated``...)."""
    message: str
    """What went wrong, in English."""
    text: str | None
    """The same as a text code (sanh/server/texts.py ``SERVER_TEXTS``) for the client to
    translate; for a parser's words, ``field_invalid`` with the field."""
    field: str | None = None
    """For a body or query that does not fit its schema: the field, as a JSON path
    (``$.stake``, ``$.options``); absent otherwise."""


def error_response(exc: ApiError) -> Response:
    """The JSON answer of a refusal."""
    body = Error(error=exc.code, message=exc.message, text=exc.text, field=exc.field)
    return Response(
        msgspec.json.encode(body),
        status_code=exc.status_code,
        media_type="application/json",
        headers=exc.headers,
    )


_AT = re.compile(r" - at `(\$[^`]*)`$")
_FIELD = re.compile(r"(?:unknown|required) field `([^`]*)`")


def _field_of(exc: msgspec.ValidationError) -> str:
    """The JSON path a msgspec validation error is about (``$`` for the whole value)."""
    words = str(exc)
    at = _AT.search(words)
    path = at.group(1) if at else "$"
    named = _FIELD.search(words)
    return f"{path}.{named.group(1)}" if named else path


def _invalid(exc: msgspec.ValidationError) -> ApiError:
    """422 ``malformed``: the parser's words, and the field as a text code
    (``field_invalid:$.stake``) for the client to translate."""
    field = _field_of(exc)
    return ApiError(
        status.HTTP_422_UNPROCESSABLE_CONTENT,
        "malformed",
        str(exc)[:300],
        text=text("field_invalid", clean(field, 80)),
        field=field,
    )


def _required(kind: type[Any]) -> bool:
    """Whether a struct has a field without a default (its body must be sent)."""
    return any(f.required for f in msgspec.structs.fields(kind))


@dataclass(frozen=True)
class Endpoint:
    """One operation: a method on a path, its handler and its contract."""

    method: str
    path: str
    handler: Callable[..., Awaitable[Any]]
    status: int
    response: Any
    """The type of a JSON answer (None: ``media_type`` text, or no body)."""
    media_type: str
    errors: tuple[int, ...]
    """The statuses of its refusals (an :class:`Error`)."""
    also: dict[int, Any]
    """Other statuses the handler answers with, and the type of their JSON body."""
    body: type[Any] | None
    query: type[Any] | None
    player: bool
    """Whether the operation needs a signed-in player (a bearer token)."""
    wants_request: bool
    path_names: tuple[str, ...]
    path_types: dict[str, Any]
    """The type of each path parameter that is not a plain string (``Annotated[int, Meta(...)]``):
    a value that does not fit it is 422 ``malformed``, naming the parameter."""

    @property
    def body_required(self) -> bool:
        return self.body is not None and _required(self.body)

    @property
    def statuses(self) -> tuple[int, ...]:
        """Every error status the operation may answer with."""
        out = set(self.errors)
        if self.player:
            out.add(status.HTTP_401_UNAUTHORIZED)
        if self.body is not None:
            out |= {status.HTTP_413_CONTENT_TOO_LARGE, status.HTTP_422_UNPROCESSABLE_CONTENT}
        if self.query is not None or self.path_types:
            out.add(status.HTTP_422_UNPROCESSABLE_CONTENT)
        return tuple(sorted(out))


class Endpoints:
    """A group of declared operations (one module's endpoints, in the order declared)."""

    def __init__(self) -> None:
        self.endpoints: list[Endpoint] = []

    def __iter__(self) -> Iterator[Endpoint]:
        return iter(self.endpoints)

    def endpoint(
        self,
        method: str,
        path: str,
        *,
        status: int = status.HTTP_200_OK,
        response: Any = None,
        errors: Iterable[int] = (),
        also: Mapping[int, Any] | None = None,
        media_type: str = "application/json",
    ) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]:
        """Declare an operation (see the module's documentation)."""

        def declare(handler: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
            hints = typing.get_type_hints(handler, include_extras=True)
            names = tuple(inspect.signature(handler).parameters)
            path_names = tuple(re.findall(r"\{(\w+)\}", path))
            known = {"body", "query", "player", "request", *path_names}
            unknown = [n for n in names if n not in known]
            if unknown:
                raise TypeError(f"{handler.__name__}: unknown parameters {unknown}")
            self.endpoints.append(
                Endpoint(
                    method=method.upper(),
                    path=path,
                    handler=handler,
                    status=status,
                    response=response,
                    media_type=media_type,
                    errors=tuple(errors),
                    also=dict(also or {}),
                    body=hints["body"] if "body" in names else None,
                    query=hints["query"] if "query" in names else None,
                    player="player" in names,
                    wants_request="request" in names,
                    path_names=path_names,
                    path_types={n: hints[n] for n in path_names if hints.get(n, str) is not str},
                )
            )
            return handler

        return declare


class Api(Endpoints):
    """The typed endpoints of the HTTP API (see the module's documentation): the groups it is
    given, and any declared on it with :meth:`endpoint`."""

    def __init__(
        self,
        authenticate: Callable[[Request], Any],
        on_error: Callable[[Request, ApiError], Response | None] | None = None,
        groups: Iterable[Endpoints] = (),
    ) -> None:
        """``authenticate`` returns the signed-in player of a request or raises
        :class:`ApiError`; ``on_error`` sees every refusal with its request (to count it) and
        may answer an exception of its own kind (return a response) instead; ``groups``: the
        operations declared in modules (:class:`Endpoints`), in order."""
        super().__init__()
        self.authenticate = authenticate
        self.on_error = on_error
        self.translators: list[Callable[[Exception], ApiError | None]] = []
        for group in groups:
            self.endpoints += group

    def translate(self, translator: Callable[[Exception], ApiError | None]) -> None:
        """Turn other exceptions of the handlers into refusals (``None``: not one of mine)."""
        self.translators.append(translator)

    # ----- serving ---------------------------------------------------------------------------
    def routes(self, *, fallback: str | None = None) -> list[BaseRoute]:
        """One Starlette route per path, answering its declared methods (and HEAD for GET);
        with ``fallback`` (``/api``), any other path under it is 404 ``no_such_endpoint``
        (JSON, as every refusal, not the static files' plain text)."""
        by_path: dict[str, dict[str, Endpoint]] = {}
        for endpoint in self.endpoints:
            by_path.setdefault(endpoint.path, {})[endpoint.method] = endpoint
        routes: list[BaseRoute] = [
            Route(path, _Path(self._serve(methods))) for path, methods in by_path.items()
        ]
        if fallback is not None:
            routes.append(Mount(fallback, app=_Path(_no_endpoint)))
        return routes

    def _serve(self, methods: dict[str, Endpoint]) -> Callable[[Request], Awaitable[Response]]:
        allowed = sorted({*methods, *(["HEAD"] if "GET" in methods else [])})

        async def serve(request: Request) -> Response:
            method = "GET" if request.method == "HEAD" else request.method
            endpoint = methods.get(method)
            if endpoint is None:
                response = error_response(
                    ApiError(
                        status.HTTP_405_METHOD_NOT_ALLOWED,
                        "method_not_allowed",
                        text="method_not_allowed",
                    )
                )
                response.headers["allow"] = ", ".join(allowed)
                return response
            try:
                return await self._call(endpoint, request)
            except Exception as exc:
                refusal = exc if isinstance(exc, ApiError) else self._translated(exc)
                if refusal is None:
                    raise
                if self.on_error is not None:
                    answer = self.on_error(request, refusal)
                    if answer is not None:
                        return answer
                return error_response(refusal)

        return serve

    def _translated(self, exc: Exception) -> ApiError | None:
        for translator in self.translators:
            refusal = translator(exc)
            if refusal is not None:
                return refusal
        return None

    async def _call(self, endpoint: Endpoint, request: Request) -> Response:
        kwargs: dict[str, Any] = {name: request.path_params[name] for name in endpoint.path_names}
        for name, kind in endpoint.path_types.items():
            try:
                kwargs[name] = msgspec.convert(kwargs[name], kind, strict=False)
            except msgspec.ValidationError as exc:
                raise _invalid(msgspec.ValidationError(f"{exc} - at `$.{name}`")) from None
        if endpoint.wants_request:
            kwargs["request"] = request
        if endpoint.player:
            kwargs["player"] = self.authenticate(request)
        if endpoint.query is not None:
            try:
                kwargs["query"] = msgspec.convert(
                    dict(request.query_params), endpoint.query, strict=False
                )
            except msgspec.ValidationError as exc:
                raise _invalid(exc) from None
        if endpoint.body is not None:
            kwargs["body"] = await _decode_body(request, endpoint.body)
        result = await endpoint.handler(**kwargs)
        if isinstance(result, Response):
            return result
        return Response(
            msgspec.json.encode(result), status_code=endpoint.status, media_type=endpoint.media_type
        )

    # ----- the document ------------------------------------------------------------------------
    def document(self, *, title: str, version: str, description: str) -> dict[str, Any]:
        """The OpenAPI 3.1 document of every endpoint."""
        types: list[Any] = [Error]
        for endpoint in self.endpoints:
            types += [t for t in (endpoint.body, endpoint.query, endpoint.response) if t]
            types += endpoint.also.values()
        unique = list(dict.fromkeys(types))
        schemas, components = msgspec.json.schema_components(unique, ref_template=REF_TEMPLATE)
        schema_of = dict(zip(unique, schemas, strict=True))
        paths: dict[str, dict[str, Any]] = {}
        for endpoint in self.endpoints:
            operation = self._operation(endpoint, schema_of, components)
            paths.setdefault(endpoint.path, {})[endpoint.method.lower()] = operation
        return {
            "openapi": "3.1.0",
            "info": {"title": title, "version": version, "description": description},
            "paths": paths,
            "components": {
                "schemas": components,
                "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            },
        }

    @staticmethod
    def _operation(
        endpoint: Endpoint, schema_of: dict[Any, Any], components: dict[str, Any]
    ) -> dict[str, Any]:
        doc = inspect.getdoc(endpoint.handler) or endpoint.path
        summary, _, rest = doc.partition("\n")
        operation: dict[str, Any] = {
            "operationId": endpoint.handler.__name__,
            "summary": summary.strip(),
        }
        if rest.strip():
            operation["description"] = rest.strip()
        parameters: list[dict[str, Any]] = [
            {"name": name, "in": "path", "required": True, "schema": _path_schema(endpoint, name)}
            for name in endpoint.path_names
        ]
        if endpoint.query is not None:
            component = components[schema_of[endpoint.query]["$ref"].rsplit("/", 1)[1]]
            required = set(component.get("required", ()))
            for name, schema in component["properties"].items():
                parameter = {"name": name, "in": "query", "required": name in required}
                parameters.append({**parameter, "schema": schema})
        if parameters:
            operation["parameters"] = parameters
        if endpoint.body is not None:
            operation["requestBody"] = {
                "required": endpoint.body_required,
                "content": {"application/json": {"schema": schema_of[endpoint.body]}},
            }
        answer: dict[str, Any] = {"description": status_phrase(endpoint.status)}
        if endpoint.response is not None:
            answer["content"] = {endpoint.media_type: {"schema": schema_of[endpoint.response]}}
        elif endpoint.media_type != "application/json":
            answer["content"] = {endpoint.media_type: {"schema": {"type": "string"}}}
        responses: dict[str, Any] = {str(endpoint.status): answer}
        for code in endpoint.statuses:
            responses[str(code)] = {
                "description": status_phrase(code),
                "content": {"application/json": {"schema": schema_of[Error]}},
            }
        for code, kind in endpoint.also.items():
            responses[str(code)] = {
                "description": status_phrase(code),
                "content": {"application/json": {"schema": schema_of[kind]}},
            }
        operation["responses"] = responses
        if endpoint.player:
            operation["security"] = [{"bearer": []}]
        return operation


async def _no_endpoint(request: Request) -> Response:
    return error_response(
        ApiError(status.HTTP_404_NOT_FOUND, "no_such_endpoint", text="no_such_endpoint")
    )


def _path_schema(endpoint: Endpoint, name: str) -> dict[str, Any]:
    kind = endpoint.path_types.get(name)
    return {"type": "string"} if kind is None else msgspec.json.schema(kind)


class _Path:
    """The ASGI app of one path: every method reaches it (an undeclared one is refused with 405
    here, not by Starlette's plain-text answer or the static files under ``/``)."""

    def __init__(self, serve: Callable[[Request], Awaitable[Response]]) -> None:
        self.serve = serve

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self.serve(Request(scope, receive))
        await response(scope, receive, send)


def status_phrase(code: int) -> str:
    """The reason phrase of an HTTP status (``Not Found``)."""
    return HTTPStatus(code).phrase


async def _decode_body(request: Request, kind: type[Any]) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ApiError(status.HTTP_413_CONTENT_TOO_LARGE, "too_large", text="body_too_large")
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.ValidationError as exc:
        raise _invalid(exc) from None
    except msgspec.DecodeError:
        raise ApiError(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "malformed", text="body_not_json"
        ) from None
