"""The hall server: an ASGI app (Starlette on uvicorn) with an HTTP API and a WebSocket protocol."""

from sanh.server import texts as texts  # the hall's codes, declared before any is written
