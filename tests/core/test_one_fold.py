"""One fold, one visibility rule, no import circle, modules a reader can hold (issue 19).

* no module of engine/ or client/ but engine/fold.py calls a kind's ``evolve``, and none but
  the visibility rule (``GameRules.visible`` in engine/game.py) asks a kind's ``redact``;
* no module in engine/ or client/ is over 600 lines;
* engine/ and client/ have no import circle between their modules (imports inside functions
  included: a circle there still ties two modules into one idea).
"""

from __future__ import annotations

import ast
import pathlib

from .sources import nodes

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: modules allowed to reach a kind's ``evolve`` / ``redact`` through an attribute, and why
EVOLVE_CALLERS = {
    "engine/fold.py": "the one fold",
    # the seating stage wraps every kind's rules (its own evolve calls the kind's): the rules
    # themselves, composed; it folds nothing
    "engine/entropy.py": "the rules with the seating stage, composed",
}
REDACT_CALLERS = {
    "engine/game.py": "GameRules.visible, the one visibility rule",
    "engine/entropy.py": "the rules with the seating stage, composed",
}


def modules() -> list[pathlib.Path]:
    return sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "client").rglob("*.py"))


def rel(path: pathlib.Path) -> str:
    return path.relative_to(ROOT).as_posix()


def in_kind_folder(path: pathlib.Path) -> bool:
    """A kind's own folder (engine/games/<kind>/): its rules may use their own functions."""
    parts = path.relative_to(ROOT).parts
    return parts[:2] == ("engine", "games") and len(parts) > 3


def attribute_uses(path: pathlib.Path, names: set[str]) -> list[str]:
    """Lines where ``<something>.<name>`` is read, for ``name`` in ``names`` (attrs.evolve, the
    attrs library's copy function, is not a kind's evolve)."""
    found = []
    for node in nodes(path):
        if isinstance(node, ast.Attribute) and node.attr in names:
            if isinstance(node.value, ast.Name) and node.value.id in ("attrs", "_attrs"):
                continue
            shown = rel(path) if path.is_relative_to(ROOT) else path.name
            found.append(f"{shown}:{node.lineno}: .{node.attr}")
    return found


def test_only_the_fold_calls_a_kinds_evolve():
    offences = []
    for path in modules():
        if rel(path) in EVOLVE_CALLERS or in_kind_folder(path):
            continue
        offences += attribute_uses(path, {"evolve"})
    assert offences == []


def test_only_the_visibility_rule_asks_a_kinds_redact():
    offences = []
    for path in modules():
        if rel(path) in REDACT_CALLERS or in_kind_folder(path):
            continue
        offences += attribute_uses(path, {"redact"})
    assert offences == []


def test_the_scan_sees_what_it_forbids(tmp_path):
    # the checks above would pass on an empty tree: show they catch a copy of the rule
    copy = tmp_path / "copy.py"
    copy.write_text("def f(rules, e, seat):\n"
                    "    return rules.evolve(None, rules.redact(e, seat))\n")
    found = attribute_uses(copy, {"evolve", "redact"})
    assert [line.rsplit(": ", 1)[1] for line in found] == [".evolve", ".redact"]


def test_no_module_is_over_600_lines():
    long = [f"{rel(p)}: {n} lines" for p in modules()
            if (n := len(p.read_text().splitlines())) > 600]
    assert long == []


def _imports(path: pathlib.Path) -> set[str]:
    """The engine/client modules ``path`` imports (anywhere in it), as dotted names."""
    name = rel(path)[:-3].replace("/", ".")
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    if path.name == "__init__.py":
        name = name[: -len(".__init__")]
        package = name
    out = set()
    for node in nodes(path):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return {m for m in out if m.split(".")[0] in ("engine", "client")}


def _graph() -> dict[str, set[str]]:
    known = {}
    for path in modules():
        name = rel(path)[:-3].replace("/", ".")
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        known[name] = path
    graph = {}
    for name, path in known.items():
        graph[name] = {m for m in _imports(path) if m in known and m != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan).  A package and its
    own modules are one idea: an ``__init__`` importing its parts is not a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def edges(node):
        # a module importing its own package's __init__ (or the reverse) is the package itself
        return {m for m in graph[node]
                if not (m.startswith(node + ".") or node.startswith(m + "."))}

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on.add(node)
        for nxt in edges(node):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    import sys

    sys.setrecursionlimit(10_000)
    for node in graph:
        if node not in index:
            visit(node)
    return out


def test_no_import_circle():
    assert _cycles(_graph()) == []


def test_the_circle_check_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
