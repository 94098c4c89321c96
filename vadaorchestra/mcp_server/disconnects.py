"""Clients that go away.

A client that drops its connection is normal, and two things follow from it here:

* the MCP SDK's streamable-HTTP transport logs it as an error with a traceback (``ClosedResourceError`` in its SSE
  writer): :func:`quiet_disconnects` turns those records into one DEBUG line;
* the SDK keeps serving the requests whose response stream was dropped (a client could resume them from an event
  store; this server keeps none, so nobody ever reads their answers): :class:`CancelOnDisconnect` cancels them as
  the client's own ``notifications/cancelled`` would, so their queries are interrupted and roll back at once instead
  of running to their time limit and committing what they computed.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio

SDK_LOGGERS = ("mcp.server.streamable_http", "mcp.server.streamable_http_manager")
DISCONNECTS = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)
MAX_WATCHED_BODY = 4 << 20  # a POST body larger than this is not read for request ids (its calls run to their limit)
CANCEL_WAIT = 10.0  # seconds the cancellation of a dropped request may take before it is given up

log = logging.getLogger(__name__)


class DisconnectFilter(logging.Filter):
    """Rewrite a record whose exception is a closed stream as one DEBUG line without the traceback; keep it only
    when its logger shows DEBUG."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, DISCONNECTS):
            return True
        record.msg = f"{record.getMessage()}: client disconnected ({type(exc).__name__})"
        record.args = None
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


_FILTER = DisconnectFilter()


def quiet_disconnects() -> None:
    """Install the filter on the SDK's transport loggers (idempotent)."""
    for name in SDK_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


def request_ids(body: bytes) -> list[Any]:
    """The ids of the JSON-RPC requests in a POST body (one message or a batch); none when it is not JSON-RPC."""
    try:
        message = json.loads(body)
    except ValueError:
        return []
    messages = message if isinstance(message, list) else [message]
    return [m["id"] for m in messages
            if isinstance(m, dict) and "method" in m and isinstance(m.get("id"), str | int)]


class CancelOnDisconnect:
    """ASGI middleware around the streamable-HTTP app: when a client disconnects before the response to its POST
    was sent in full, every request of that POST is cancelled in its session, by a ``notifications/cancelled``
    posted to the app on the session's behalf (the same message a client sends to cancel)."""

    def __init__(self, app, path: str):
        self.app = app
        self.path = path

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        body = bytearray()
        state = {"answered": False, "dropped": False}

        async def watched_receive() -> dict[str, Any]:
            message = await receive()
            if message["type"] == "http.request" and len(body) <= MAX_WATCHED_BODY:
                body.extend(message.get("body", b""))
            elif message["type"] == "http.disconnect" and not state["answered"]:
                state["dropped"] = True
            return message

        async def watched_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                state["answered"] = True
            await send(message)

        try:
            await self.app(scope, watched_receive, watched_send)
        finally:
            if state["dropped"] and not state["answered"] and len(body) <= MAX_WATCHED_BODY:
                with anyio.CancelScope(shield=True), anyio.move_on_after(CANCEL_WAIT):
                    for request_id in request_ids(bytes(body)):
                        await self._cancel(scope, request_id)

    async def _cancel(self, scope, request_id: Any) -> None:
        headers = dict(scope["headers"])
        if b"mcp-session-id" not in headers:
            return  # an initialize request: the session it would open was never told to the client
        note = json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                           "params": {"requestId": request_id, "reason": "the client disconnected"}}).encode()
        headers.update({b"content-type": b"application/json", b"content-length": str(len(note)).encode(),
                        b"accept": b"application/json, text/event-stream"})
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": note, "more_body": False}
            await anyio.sleep_forever()
            raise AssertionError  # pragma: no cover - sleep_forever never returns

        async def discard(_message: dict[str, Any]) -> None:
            pass

        try:
            await self.app({**scope, "headers": list(headers.items())}, receive, discard)
        except Exception:  # noqa: BLE001 - the session may be gone already: nothing is left to cancel
            log.debug("cancelling request %r of a dropped connection failed", request_id, exc_info=True)
        else:
            log.debug("cancelled request %r: its client disconnected", request_id)
