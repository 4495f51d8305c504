"""The hall server: an ASGI app (Starlette on uvicorn) with an HTTP API and a WebSocket protocol."""
