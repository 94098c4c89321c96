"""A client that goes away is normal: the MCP SDK's streamable-HTTP transport logs it as an error with a traceback
(``ClosedResourceError`` in its SSE writer). :func:`quiet_disconnects` turns those records into one DEBUG line."""

from __future__ import annotations

import logging

import anyio

SDK_LOGGERS = ("mcp.server.streamable_http", "mcp.server.streamable_http_manager")
DISCONNECTS = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)


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
