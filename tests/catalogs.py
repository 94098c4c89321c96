"""Small catalogs of our own, written into a folder, and a question asked over one offline: what the whole-run tests
of several modules share."""

from __future__ import annotations

from pathlib import Path


def write_catalog(root: Path, tools: dict[str, str], files: dict[str, str]) -> Path:
    """``root`` with ``catalog/<tool>.dl`` for each tool program and ``data/<file>`` for each data file."""
    (root / "catalog").mkdir(parents=True, exist_ok=True)
    for tool, text in tools.items():
        (root / "catalog" / f"{tool}.dl").write_text(text)
    (root / "data").mkdir(exist_ok=True)
    for file, text in files.items():
        (root / "data" / file).write_text(text)
    return root


_SERVERS: dict[Path, tuple[object, object]] = {}


def ask(question: str, root: Path):
    """The offline run of ``question`` over the catalog of ``root`` (data resolved under it), through one server per
    catalog for the whole test session (started on first use, as an MCP client meets a running server; a server's
    start costs about as much as a question)."""
    import atexit

    import anyio

    from vadaorchestra.agents.local import LocalServer
    from vadaorchestra.agents.run import ask as run

    if root not in _SERVERS:
        server = LocalServer(root / "catalog", root)
        _SERVERS[root] = (server, server.__enter__())
        atexit.register(server.__exit__, None, None, None)
    params = _SERVERS[root][1]
    return anyio.run(lambda: run(question, server_params=params, catalog=root / "catalog", data=root))
