"""Imports flow one way: datalog <- mcp_server <- agents <- cli (STYLE.md)."""

import ast
from pathlib import Path

import vadaorchestra

PACKAGE = Path(vadaorchestra.__file__).parent
FORBIDDEN = {
    "datalog": ("vadaorchestra.mcp_server", "vadaorchestra.agents", "vadaorchestra.eval", "vadaorchestra.cli", "mcp",
                "autogen_agentchat",
                "autogen_ext", "autogen_core"),
    "mcp_server": ("vadaorchestra.agents", "vadaorchestra.eval", "vadaorchestra.cli", "autogen_agentchat", "autogen_ext", "autogen_core"),
    # agents reach reasoning only through MCP tools: never the workspace or the engines directly
    "agents": ("vadaorchestra.cli", "vadaorchestra.eval", "vadaorchestra.datalog.engines", "vadaorchestra.datalog.api",
               "vadaorchestra.mcp_server.workspace"),
    "eval": ("vadaorchestra.cli",),
    "audit": ("vadaorchestra.cli", "vadaorchestra.eval"),
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_lower_layers_never_import_higher_ones():
    offenders = []
    for layer, forbidden in FORBIDDEN.items():
        for path in (PACKAGE / layer).rglob("*.py") if (PACKAGE / layer).exists() else []:
            for mod in imported_modules(path):
                if any(mod == f or mod.startswith(f + ".") for f in forbidden):
                    offenders.append(f"{path.relative_to(PACKAGE)} imports {mod}")
    assert offenders == []


def test_the_datalog_layer_is_checked_at_all():
    assert list((PACKAGE / "datalog").rglob("*.py")), "the layering test must see the datalog package"
