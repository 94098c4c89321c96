"""Clients that go away.

A client that drops its connection is normal, and two things follow from it here:

* the MCP SDK's streamable-HTTP transport logs it as an error with a traceback (``ClosedResourceError`` in its SSE
  writer): :func:`quiet_disconnects` turns those records into one DEBUG line;
* the SDK keeps serving the requests whose response stream was dropped (a client could resume them from an event
  store; this server keeps none, so nobody ever reads their answers): :class:`CancelOnDisconnect` cancels them, so
  their queries are interrupted and roll back at once instead of running to their time limit and committing what
  they computed. It also passes on the cancellations clients send, which the SDK drops for a request whose handler
  has not started yet.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import anyio

SDK_LOGGERS = ("mcp.server.streamable_http", "mcp.server.streamable_http_manager")
DISCONNECTS = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)
MAX_WATCHED_BODY = 4 << 20  # a POST body larger than this is not read for request ids (its calls run to their limit)

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


def messages(body: bytes) -> list[dict[str, Any]]:
    """The JSON-RPC messages of a POST body (one message or a batch); none when it is not JSON-RPC."""
    try:
        message = json.loads(body)
    except ValueError:
        return []
    return [m for m in (message if isinstance(message, list) else [message]) if isinstance(m, dict)]


def request_ids(body: bytes) -> list[str]:
    """The ids of the requests in a POST body."""
    return [str(m["id"]) for m in messages(body) if "method" in m and isinstance(m.get("id"), str | int)]


def cancelled_request(message: dict[str, Any]) -> str | None:
    """The request id a ``notifications/cancelled`` message names; None for any other message."""
    params = message.get("params")
    if message.get("method") != "notifications/cancelled" or not isinstance(params, dict):
        return None
    request_id = params.get("requestId")
    return str(request_id) if isinstance(request_id, str | int) else None


def cancelled_ids(body: bytes) -> list[str] | None:
    """The request ids named by a POST body made only of ``notifications/cancelled`` messages; None for any other."""
    if b"notifications/cancelled" not in body:  # every call's body passes here, on the event loop: parse only these
        return None
    found = messages(body)
    ids = [cancelled_request(m) for m in found]
    return [i for i in ids if i is not None] if found and None not in ids else None


async def relay_cancellations(read, relay, session: str, cancel: Callable[[str, str], Any]) -> None:
    """Copy the messages of ``read`` to ``relay`` (closing it at the end), but for the cancellations, which go to
    ``cancel(session, request id)``: the stdio transport's counterpart of :class:`CancelOnDisconnect`."""
    async with relay:
        async for message in read:
            root = getattr(getattr(message, "message", None), "root", None)  # a SessionMessage's JSON-RPC message
            request_id = cancelled_request({"method": getattr(root, "method", None),
                                            "params": getattr(root, "params", None)})
            if request_id is None:
                await relay.send(message)
            else:
                cancel(session, request_id)


class CancelOnDisconnect:
    """ASGI middleware around the streamable-HTTP app: a session's calls are cancelled through ``cancel(session id,
    request id)`` when its client disconnects before the response to the POST carrying them was sent in full, and
    when its client cancels them.

    A client's ``notifications/cancelled`` is answered here (202, after the transport's own Host/Origin checks) and
    not passed to the SDK, whose cancellation of a request races with its answer: a cancellation arriving as the
    handler returns ends the whole session (``AssertionError: Request already responded to``, python-sdk issue
    2416, seen in the soak), and one arriving before the handler started is dropped. Cancelled here, the call's
    queries stop, it answers with an error, and the SDK sends that one answer."""

    def __init__(self, app, path: str, cancel: Callable[[str, str], Any], security: Any = None):
        self.app = app
        self.path = path
        self.cancel = cancel
        self.security = security  # the SDK's TransportSecurityMiddleware, for the requests answered here

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        session = dict(scope["headers"]).get(b"mcp-session-id", b"").decode("latin-1")
        body = bytearray()
        read: list[dict[str, Any]] = []  # the body's messages, read here first and replayed to the app
        while len(body) <= MAX_WATCHED_BODY:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request":
                break
            body.extend(message.get("body", b""))
            if not message.get("more_body", False):
                break
        complete = bool(read) and read[-1]["type"] == "http.request" and not read[-1].get("more_body", False)
        if session and complete and (ids := cancelled_ids(bytes(body))) is not None:
            await self._cancelled(scope, receive, send, session, ids)
            return
        state = {"answered": False, "dropped": False}

        async def replay() -> dict[str, Any]:
            message = read.pop(0) if read else await receive()
            if message["type"] == "http.disconnect" and not state["answered"]:
                state["dropped"] = True
            return message

        async def watched_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                state["answered"] = True
            await send(message)

        try:
            await self.app(scope, replay, watched_send)
        finally:
            if session and complete and state["dropped"] and not state["answered"]:
                for request_id in request_ids(bytes(body)):
                    if self.cancel(session, request_id):
                        log.debug("cancelled request %s of session %s: its client disconnected", request_id, session)

    async def _cancelled(self, scope, receive, send, session: str, ids: list[str]) -> None:
        from starlette.requests import Request
        from starlette.responses import Response

        if self.security is not None:
            refused = await self.security.validate_request(Request(scope, receive), is_post=True)
            if refused is not None:
                await refused(scope, receive, send)
                return
        for request_id in ids:
            self.cancel(session, request_id)
        await Response(status_code=202)(scope, receive, send)
