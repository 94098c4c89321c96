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


def test_reading_the_question_imports_no_policy_and_no_verifier():
    forbidden = ("vadaorchestra.agents.offline", "vadaorchestra.agents.llm", "vadaorchestra.agents.pipeline",
                 "vadaorchestra.agents.verify", "vadaorchestra.agents.team", "vadaorchestra.agents.run")
    offenders = [f"{path.name} imports {mod}" for path in (PACKAGE / "agents" / "question").rglob("*.py")
                 for mod in imported_modules(path) if any(mod == f or mod.startswith(f + ".") for f in forbidden)]
    assert offenders == []


def test_no_import_circle_among_the_agents_modules():
    """An import circle hides which module owns what (compose <-> offline <-> limits had one)."""
    import itertools

    graph: dict[str, set[str]] = {}
    for path in (PACKAGE / "agents").rglob("*.py"):
        name = ".".join(("vadaorchestra", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(
            node.test) for n in ast.walk(node)}  # annotations only: no import at run time
        graph[name] = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and id(n) not in
                       typing_only and n.module.startswith("vadaorchestra.agents")}
    graph = {k: {m for m in v if m in graph and m != k and not k.startswith(m + ".")} for k, v in graph.items()}
    cycles = []
    for a, b in itertools.combinations(sorted(graph), 2):
        def reaches(x: str, y: str) -> bool:
            seen, todo = set(), [x]
            while todo:
                n = todo.pop()
                if n == y:
                    return True
                if n not in seen:
                    seen.add(n)
                    todo += graph.get(n, ())
            return False
        if reaches(a, b) and reaches(b, a):
            cycles.append((a, b))
    assert cycles == []
