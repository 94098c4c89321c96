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


def test_the_readme_snippet_that_embeds_the_team_in_an_autogen_app_runs():
    import anyio

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### In an existing AutoGen app", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    body = "\n".join("    " + line for line in code.splitlines())
    namespace: dict = {}
    exec(f"async def snippet():\n{body}\n    return result\n", namespace)  # noqa: S102 - our own README
    result = anyio.run(namespace["snippet"])
    assert "TERMINATE" in result.messages[-1].to_text()
    assert "DeepLogic Ltd" in result.messages[-1].to_text()
