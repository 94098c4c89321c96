"""A real MCP server in this process: streamable HTTP on a loopback port, in a background thread.

The agents then reach it the way they reach any server, through ``McpWorkbench`` with
``StreamableHttpServerParams`` — no subprocess to start, no port to choose, a random bearer token.
"""

from __future__ import annotations

import secrets
import socket
import threading
import time
from pathlib import Path

from vadaorchestra.errors import VadaError


class LocalServer:
    """``with LocalServer(catalog_dir) as params:`` gives ``StreamableHttpServerParams`` for ``McpWorkbench``."""

    def __init__(self, catalog: str | Path, data: str | Path | None = None, *, engine: str = "duckdb",
                 preview: int = 20, timeout: float = 120.0):
        from vadaorchestra.mcp_server.catalog import Catalog
        from vadaorchestra.mcp_server.server import ReasoningServer

        self.catalog = Catalog.load(catalog, data)
        self.server = ReasoningServer(self.catalog, engine=engine, preview=preview)
        self.token = secrets.token_urlsafe(16)
        self.timeout = timeout
        self._thread: threading.Thread | None = None
        self._uvicorn = None
        self.url = ""

    def __enter__(self):
        import logging

        import uvicorn

        # the SDK logs a closed stream at the end of every HTTP session as an error; it is not one
        logging.getLogger("mcp.server.streamable_http").setLevel(logging.CRITICAL)
        from autogen_ext.tools.mcp import StreamableHttpServerParams

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(self.server.http_app(self.token), log_level="warning", lifespan="on")
        self._uvicorn = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._uvicorn.run, kwargs={"sockets": [sock]}, daemon=True,
                                        name="vadaorchestra-mcp")
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._uvicorn.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise VadaError("the in-process MCP server did not start")
            time.sleep(0.01)
        self.url = f"http://127.0.0.1:{port}/mcp"
        return StreamableHttpServerParams(url=self.url, headers={"Authorization": f"Bearer {self.token}"},
                                          timeout=self.timeout, sse_read_timeout=self.timeout)

    def __exit__(self, *exc) -> None:
        if self._uvicorn is not None:
            self._uvicorn.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.server.close()
