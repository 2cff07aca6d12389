"""The package's shape: every import inside `ludus` points down the pipeline, and none goes round
in a circle. Function-level imports count the same as module-level ones: a circle hidden inside a
function is still a circle.

The layers, lowest first (a module may import from its own subpackage and from lower layers):

    language → engine, tools → compiler → pipeline, bots, rules_text → testing, simulation, adapters → replay → repl, lsp → cli
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ludus"

LAYERS = {
    "language": 0,
    "engine": 1,
    "tools": 1,
    "compiler": 2,
    "pipeline": 3,
    "bots": 3,
    "rules_text": 3,
    "testing": 4,
    "simulation": 4,
    "adapters": 4,
    "replay": 5,
    "repl": 6,
    "lsp": 6,
    "cli": 7,
    "__main__": 8,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """Every ludus module `name` imports, anywhere in its body."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "ludus")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "ludus":
                continue
            for alias in node.names:  # `from ..engine import ops` imports the module ludus.engine.ops
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in MODULES else target)
    found.discard(name)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def layer(name: str) -> tuple[str, int]:
    top = name.split(".")[1] if "." in name else ""
    return top, LAYERS.get(top, -1)


def test_every_subpackage_has_a_layer():
    tops = {name.split(".")[1] for name in MODULES if "." in name}
    assert tops <= set(LAYERS), f"put these in LAYERS (and in docs/architecture.md): {tops - set(LAYERS)}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n != "ludus"))
def test_imports_point_down_the_pipeline(name):
    top, rank = layer(name)
    for target in sorted(GRAPH[name]):
        assert target != "ludus", f"{name} imports the package root; import the module it needs"
        t_top, t_rank = layer(target)
        assert t_top == top or t_rank < rank, f"{name} ({top}) imports {target} ({t_top}), which is not below it"


def test_no_import_circles():
    # Tarjan's strongly connected components over the import graph
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH.get(v, ()):
            if w not in MODULES:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in MODULES:
        if v not in index:
            visit(v)
    assert circles == []


def test_the_circle_finder_finds_a_circle(monkeypatch):
    """The check above must be able to fail: plant a two-module circle and see it caught."""
    monkeypatch.setitem(GRAPH, "ludus.engine.vm", GRAPH["ludus.engine.vm"] | {"ludus.engine.match"})
    with pytest.raises(AssertionError):
        test_no_import_circles()


def test_the_public_api_is_kept():
    import ludus

    for name in ["load", "analyse", "Game", "Match", "IllegalAction", "MatchError", "RuleError", "LudusError",
                 "Diagnostic", "CHANCE", "TERMINAL"]:
        assert hasattr(ludus, name), name
