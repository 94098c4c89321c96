"""The docs match the code: every command the README and the Dockerfile show exists with the options they use."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import typer

from vadaorchestra.cli import app

ROOT = Path(__file__).resolve().parents[1]


def _commands_in(text: str) -> list[list[str]]:
    """``vadaorchestra ...`` invocations in the fenced bash blocks and the Dockerfile's JSON CMD."""
    found = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():  # a continued line is one command
            line = line.split("  #")[0].strip()
            for part in re.split(r"&&|\|", line):
                words = shlex.split(part)
                if words and words[0] == "vadaorchestra":
                    found.append(words[1:])
    for cmd in re.findall(r"^CMD (\[.*?\])\s*$", text.replace("\\\n", ""), re.S | re.M):
        words = json.loads(cmd)
        if words[0] == "vadaorchestra":
            found.append(words[1:])
    return found


def _is_group(cmd) -> bool:
    return hasattr(cmd, "commands")  # typer vendors its own click: no isinstance against click.Group


def _resolve(words: list[str]):
    cmd = typer.main.get_command(app)
    rest = list(words)
    while _is_group(cmd) and rest and rest[0] in cmd.commands:
        cmd = cmd.commands[rest.pop(0)]
    return cmd, rest


DOCUMENTED = [(name, words) for name in ("README.md", "Dockerfile")
              for words in _commands_in((ROOT / name).read_text(encoding="utf-8"))]


def test_the_readme_and_the_dockerfile_show_commands():
    names = {name for name, _ in DOCUMENTED}
    assert names == {"README.md", "Dockerfile"}


@pytest.mark.parametrize(("source", "words"), DOCUMENTED, ids=[f"{n}:{' '.join(w)[:40]}" for n, w in DOCUMENTED])
def test_every_documented_command_exists_with_its_options(source, words):
    cmd, rest = _resolve(words)
    assert not _is_group(cmd), f"{source}: 'vadaorchestra {' '.join(words)}' names no command"
    if words[0] == "run" and rest and not rest[0].startswith("-"):  # the options belong to the scenario's script
        import importlib.util

        script = ROOT / "scenarios" / rest[0].replace("-", "_") / "run.py"
        spec = importlib.util.spec_from_file_location(f"docs_scenario_{script.parent.name}", script)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if hasattr(module, "parser"):
            module.parser().parse_args(rest[1:])  # exits on an unknown option
        rest = rest[:1]
    options = {opt for p in cmd.params for opt in p.opts + p.secondary_opts}
    for word in rest:
        if word.startswith("--"):
            assert word.split("=")[0] in options, f"{source}: {cmd.name} has no option {word}"
    ctx = cmd.make_context(cmd.name, list(rest), resilient_parsing=False)  # parses: arguments and values fit
    assert ctx.params


def test_every_command_has_help():
    group = typer.main.get_command(app)
    stack = [group]
    while stack:
        cmd = stack.pop()
        assert cmd.help or cmd.short_help, cmd.name
        if _is_group(cmd):
            stack.extend(cmd.commands.values())


# --- every README code block in Python or shell runs ----------------------------------------------------------------
# The commands run in order, in one folder of their own that sees the repository's examples/, scenarios/ and
# benchmarks/ (so later commands find what earlier ones wrote, as a reader's would): the slow tier
# (python -m pytest -m slow), which .ci/run runs.
SHELL_LANGS = ("bash", "sh", "shell")
NEEDS = [  # (pattern, reason): the only reasons a README command is not run at all
    (r"--model local|models install|\.\[local\]|llama-cpp-python|eval_local\.sh|CMAKE_ARGS",
     "needs the local model (1.1 GB) and llama.cpp"),
    (r"--model model\.json|--judge", "needs a model of yours (model.json, judge.json)"),
    (r"\.\[spark\]|-m spark|--engine spark|--spark\b|deploy/spark_cluster\.py",
     "needs the spark extra and Java (its tests run apart: python -m pytest -m spark)"),
    (r"^(docker|podman|curl)\b|^deploy/container-check",
     "needs a container runtime: deploy/container-check builds and runs the image with podman"),
]
SOUFFLE = r"--engine souffle|--verify-engines"
SETUP = r"^python3 -m venv \.venv && \. \.venv/bin/activate && pip install -e \"\.\[test\]\"$"


def _readme_blocks() -> list[tuple[int, str, str]]:
    """(line, language, code) of every fenced block in Python or shell."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [(text[:m.start()].count("\n") + 1, m.group(1), m.group(2))
            for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)
            if m.group(1) == "python" or m.group(1) in SHELL_LANGS]


def _readme_steps() -> list[tuple[str, str, str]]:
    """(id, kind, code): a Python block whole, a shell block line by line (continued lines joined)."""
    steps = []
    for line, lang, code in _readme_blocks():
        if lang == "python":
            steps.append((f"README.md:{line}:python", "python", code))
            continue
        for i, command in enumerate(code.replace("\\\n", " ").splitlines()):
            if command.strip():
                steps.append((f"README.md:{line}+{i + 1}:{command.split('#')[0].strip()[:48]}", "shell",
                              command.strip()))
    return steps


STEPS = _readme_steps()


def test_the_readme_has_python_and_shell_blocks_to_run():
    kinds = {kind for _, kind, _ in STEPS}
    assert kinds == {"python", "shell"} and len(STEPS) > 30


@pytest.fixture(scope="module")
def docs_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    for name in ("examples", "scenarios", "benchmarks", "deploy"):
        (folder / name).symlink_to(ROOT / name)
    return folder


def _env() -> dict[str, str]:
    import os
    import sys

    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # `vadaorchestra`, `python`
    for name in [k for k in env if k.lower().endswith("_proxy")]:
        del env[name]
    return env


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve_over_http(command: str, folder: Path) -> None:
    """`serve --transport http` runs until stopped: it must answer /health, then it is stopped."""
    import socket
    import subprocess
    import time

    import httpx

    with socket.socket() as s:
        taken = s.connect_ex(("127.0.0.1", 8000)) == 0
    port = _free_port() if taken else 8000  # another server on 8000 here: the same command on a free port
    words = shlex.split(command.split("  #")[0]) + (["--port", str(port)] if taken else [])
    proc = subprocess.Popen(words, cwd=folder, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, f"{command!r} exited: {proc.stderr.read()}"
            assert time.monotonic() < deadline, f"{command!r}: no /health within 60 s"
            time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.parametrize(("step", "kind", "code"), STEPS, ids=[s[0] for s in STEPS])
def test_every_readme_block_runs(step, kind, code, docs_folder):
    import subprocess
    import sys

    from vadaorchestra.datalog.engines import souffle_available

    for pattern, reason in NEEDS:
        if re.search(pattern, code, re.M):
            pytest.skip(reason)
    if re.search(SOUFFLE, code) and not souffle_available():
        pytest.skip("needs Soufflé (the 'souffle' binary is not on PATH)")
    if kind == "shell" and re.fullmatch(SETUP, code):
        # the install this suite runs in: shown by its result, not run again inside it
        import vadaorchestra

        assert Path(vadaorchestra.__file__).resolve().parent == ROOT / "vadaorchestra", \
            "the suite runs on the install of this checkout (pip install -e .), as the README's install line makes"
        return
    if kind == "shell" and code.startswith("python -m pytest"):
        return  # the suite itself, which is running this
    if kind == "shell" and re.match(r"vadaorchestra serve .*--transport http", code):
        _serve_over_http(code, docs_folder)
        return
    if kind == "python":
        words, stdin = [sys.executable, "-c", code], subprocess.DEVNULL
    else:
        words, stdin = ["bash", "-euo", "pipefail", "-c", code], subprocess.DEVNULL
    result = subprocess.run(words, cwd=docs_folder, env=_env(), stdin=stdin, capture_output=True, text=True,
                            timeout=1800)
    assert result.returncode == 0, f"{step} exited {result.returncode}:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
