"""The code's shape in figures, read with `ast` (nothing is imported): import circles
(`TYPE_CHECKING` and function-level imports included), imports that run from a lower layer
up (the layers of pyproject's first import-linter contract), classes per platform,
`post_document` definitions, use-case functions and their callers, the largest modules and
longest functions, Protocols and ABCs, and the message catalogue's size.

    .venv/bin/python bench/shape.py [--tree DIR] [--json]

`--tree DIR` reads another checkout, so one script gives the before and the after.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import tomllib
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

PACKAGES = ("bot", "formatters")
PLATFORMS = {"slack": ("bot/slack",), "discord": ("bot/discord",), "terminal": ("bot/terminal",)}


def modules(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _targets(node: ast.Import | ast.ImportFrom, here: str, known: dict[str, Path]) -> set[str]:
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
        names = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
            for alias in node.names
        ]
    out: set[str] = set()
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != here:
            out.add(name)
    return out


def graph(root: Path, known: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges[name] = set().union(*(_targets(n, name, known) for n in _imports(tree)))
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of two or more modules (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        item = stack.pop()
                        on.discard(item)
                        part.append(item)
                        if item == node:
                            break
                    if len(part) > 1:
                        out.append(sorted(part))
    return out


def layers(root: Path) -> list[list[str]]:
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    first = next(c for c in contracts if c.get("type") == "layers")
    return [[m.strip() for m in re.split(r"[|:]", layer)] for layer in first["layers"]]


def _layer_of(module: str, order: list[list[str]]) -> int | None:
    best: tuple[int, int] | None = None
    for i, layer in enumerate(order):
        for prefix in layer:
            inside = module == prefix or module.startswith(prefix + ".")
            if inside and (best is None or len(prefix) > best[1]):
                best = (i, len(prefix))
    return None if best is None else best[0]


def upward(edges: dict[str, set[str]], order: list[list[str]]) -> list[str]:
    """Imports from a module to one in a higher layer (index 0 is the top)."""
    found = []
    for source, targets in edges.items():
        low = _layer_of(source, order)
        for target in targets:
            high = _layer_of(target, order)
            if low is not None and high is not None and high < low:
                found.append(f"{source} -> {target}")
    return sorted(found)


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _bases(node: ast.ClassDef) -> set[str]:
    names = {ast.unparse(b).rpartition(".")[2] for b in node.bases}
    names |= {ast.unparse(k.value).rpartition(".")[2] for k in node.keywords}
    return names


def shape(root: Path) -> dict[str, object]:
    known = modules(root)
    edges = graph(root, known)
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in known.items()}
    lines = {n: len(p.read_text(encoding="utf-8").splitlines()) for n, p in known.items()}
    functions = sorted(
        (
            (f.end_lineno or f.lineno) - f.lineno + 1,
            f"{name}:{f.name}",
        )
        for name, tree in trees.items()
        for f in _functions(tree)
    )
    classes: dict[str, list[str]] = defaultdict(list)
    seams: list[str] = []
    for name, tree in trees.items():
        where = str(known[name].relative_to(root))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for platform, prefixes in PLATFORMS.items():
                if where.startswith(prefixes):
                    classes[platform].append(f"{name}.{node.name}")
            if _bases(node) & {"Protocol", "ABC", "ABCMeta"}:
                seams.append(f"{name}.{node.name}")
    post = [
        f"{name}:{f.name}"
        for name, tree in trees.items()
        for f in _functions(tree)
        if f.name == "post_document"
    ]
    usecases = {
        f"{name}.{node.name}"
        for name, tree in trees.items()
        if name.startswith("bot.usecases.")
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("_")
    }
    callers = sorted(
        name
        for name, targets in edges.items()
        if not name.startswith("bot.usecases")
        and any(t.startswith("bot.usecases") for t in targets)
    )
    po = sorted((root / "bot").rglob("*.po"))
    ids: dict[str, int] = {}
    for path in po:
        ids[str(path.relative_to(root))] = len(
            re.findall(r'^msgid "(?!")', path.read_text(encoding="utf-8"), re.M)
        )
    if not po and (root / "bot/core/messages").is_dir():
        count = 0
        for path in (root / "bot/core/messages").glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Dict):
                    count += sum(isinstance(k, ast.Constant) for k in node.keys)
        ids["bot/core/messages/*.py (dict keys)"] = count
    order = layers(root)
    cycles = circles(edges)
    return {
        "modules": len(known),
        "lines": sum(lines.values()),
        "circles": cycles,
        "upward_imports": upward(edges, order),
        "classes_per_platform": {k: sorted(v) for k, v in classes.items()},
        "post_document": sorted(post),
        "protocols_and_abcs": sorted(seams),
        "usecase_functions": sorted(usecases),
        "usecase_callers": callers,
        "largest_modules": sorted(((n, m) for m, n in lines.items()), reverse=True)[:5],
        "longest_functions": functions[::-1][:5],
        "catalogue": ids,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--json", action="store_true", help="everything, as JSON")
    args = parser.parse_args()
    data = shape(args.tree.resolve())
    if args.json:
        json.dump(data, sys.stdout, indent=1)
        print()
        return
    cycles = data["circles"]
    assert isinstance(cycles, list)
    print(f"modules {data['modules']}, lines {data['lines']}")
    print(f"circles (TYPE_CHECKING and function-level imports included): {len(cycles)}")
    for part in cycles:
        print(f"  {len(part)} modules: {', '.join(part)}")
    for key in ("upward_imports", "post_document", "protocols_and_abcs", "usecase_functions"):
        value = data[key]
        assert isinstance(value, list)
        print(f"{key}: {len(value)}")
    per = data["classes_per_platform"]
    assert isinstance(per, dict)
    print("classes per platform: " + ", ".join(f"{k} {len(v)}" for k, v in per.items()))
    callers = data["usecase_callers"]
    assert isinstance(callers, list)
    print(f"modules calling bot.usecases: {len(callers)}")
    print(f"largest modules: {data['largest_modules']}")
    print(f"longest functions: {data['longest_functions']}")
    print(f"catalogue: {data['catalogue']}")


if __name__ == "__main__":
    main()
