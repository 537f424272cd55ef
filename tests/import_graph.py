"""Shape of the product code: lines, largest files, import cycles, function-level imports.

Reads bot/ and formatters/ with `ast` (nothing is imported). An import under
`if TYPE_CHECKING:` is not an edge (it never runs). A cycle is a strongly connected
component of two or more modules in the graph of module-level imports.

    .venv/bin/python tests/import_graph.py [--list]
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "formatters")


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import with whether it sits inside a function; TYPE_CHECKING blocks skipped."""

    def walk(
        node: ast.AST, in_function: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    yield from walk(other, in_function)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, in_function
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            yield from walk(child, inner)

    yield from walk(tree, False)


def _targets(node: ast.Import | ast.ImportFrom, here: str, known: dict[str, Path]) -> set[str]:
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = here.split(".")
            if known[here].name != "__init__.py":
                package = package[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        # As import-linter reads it: `from pkg import mod` is an edge to pkg.mod only.
        names = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
            for alias in node.names
        ]
    out: set[str] = set()
    for name in names:
        # `from a.b import c`: c is a module when a file says so, else a name in a.b.
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != here:
            out.add(name)
    return out


def graph(
    known: dict[str, Path],
) -> tuple[dict[str, set[str]], dict[str, set[str]], list[tuple[str, int]]]:
    """Module-level edges, all edges (function-level too), and the function-level imports."""
    edges: dict[str, set[str]] = {name: set() for name in known}
    every: dict[str, set[str]] = {name: set() for name in known}
    local: list[tuple[str, int]] = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(), str(path))
        for node, in_function in _imports(tree):
            targets = _targets(node, name, known)
            every[name] |= targets
            if in_function:
                if targets:
                    local.append((name, node.lineno))
            else:
                edges[name] |= targets
    return edges, every, local


def function_level_imports(known: dict[str, Path]) -> list[tuple[Path, int, bool]]:
    """Every function-level import (own code, third party, stdlib) as (file, line, commented).

    Commented: a comment starting with "Lazy:" ends on the line above, sits on the same line,
    or covers the run of consecutive imports this one belongs to. The rule is that an import
    is deferred only to keep a heavy path off start-up, and the comment says which.
    """
    found: list[tuple[Path, int, bool]] = []
    for path in known.values():
        lines = path.read_text().splitlines()
        tree = ast.parse("\n".join(lines), str(path))
        local = sorted(
            (node for node, in_function in _imports(tree) if in_function),
            key=lambda node: node.lineno,
        )
        ok: dict[int, bool] = {}
        for node in local:
            end = node.end_lineno or node.lineno
            if any("# Lazy:" in lines[n - 1] for n in range(node.lineno, end + 1)):
                ok[end] = True
            else:
                above = node.lineno - 1
                # Walk up a comment block: it counts when one of its lines opens "# Lazy:".
                block = above
                while block >= 1 and lines[block - 1].strip().startswith("#"):
                    if lines[block - 1].strip().startswith("# Lazy:"):
                        ok[end] = True
                        break
                    block -= 1
                else:
                    ok[end] = ok.get(above, False)
            found.append((path, node.lineno, ok[end]))
    return found


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of size two or more."""
    sys.setrecursionlimit(10_000)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--list", action="store_true", help="list the function-level imports")
    args = parser.parse_args()
    known = modules()
    sizes = sorted(
        (
            (len(path.read_text().splitlines()), str(path.relative_to(ROOT)))
            for path in known.values()
        ),
        reverse=True,
    )
    edges, every, local = graph(known)
    found = cycles(edges)
    hidden = cycles(every)
    print(
        f"product code: {sum(n for n, _ in sizes)} lines in {len(sizes)} files (bot/, formatters/)"
    )
    print("largest files: " + ", ".join(f"{path} {n}" for n, path in sizes[:5]))
    print(f"import cycles (strongly connected components): {len(found)}")
    for component in found:
        print("  " + " <-> ".join(component))
    # A function-level import only defers a cycle to the first call: count those too.
    print(f"import cycles counting function-level imports: {len(hidden)}")
    for component in hidden:
        print("  " + " <-> ".join(component))
    print(f"function-level imports of own code: {len(local)}")
    if args.list:
        for name, line in local:
            print(f"  {known[name].relative_to(ROOT)}:{line}")
    every_local = function_level_imports(known)
    bare = [(path, line) for path, line, commented in every_local if not commented]
    state = "all commented" if not bare else f"{len(bare)} without a Lazy: comment"
    print(f"function-level imports: {len(every_local)} ({state})")
    for path, line in bare:
        print(f"  {path.relative_to(ROOT)}:{line}")


if __name__ == "__main__":
    main()
