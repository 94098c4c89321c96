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


def ask(question: str, root: Path):
    """The offline run of ``question`` over the catalog of ``root`` (data resolved under it)."""
    from vadaorchestra.agents.run import ask_sync

    return ask_sync(question, catalog=root / "catalog", data=root)
