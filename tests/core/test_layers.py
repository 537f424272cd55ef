"""The layers of docs/architecture.md hold: import-linter's contracts (pyproject.toml), no
import cycles even through function-level imports, no module loaded by its name, and every
function-level import justified by a "Lazy:" comment."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.import_graph import cycles, function_level_imports, graph, modules

ROOT = Path(__file__).resolve().parents[2]


def test_import_linter_contracts_are_kept() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_no_import_cycles_even_through_function_level_imports() -> None:
    _, every, _ = graph(modules())
    assert cycles(every) == []


def _dynamic_imports(tree: ast.AST) -> list[int]:
    """Lines loading a module from a string, which hides the dependency from readers and
    from the contracts."""
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__"):
                found.append(node.lineno)
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "importlib"
            and any(alias.name == "import_module" for alias in node.names)
        ):
            found.append(node.lineno)
    return sorted(found)


def test_no_module_is_imported_by_its_name() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in modules().values()
        for line in _dynamic_imports(ast.parse(path.read_text(), str(path)))
    ]
    assert offenders == []


def test_the_dynamic_import_check_sees_both_spellings() -> None:
    tree = ast.parse(
        "import importlib\nfrom importlib import import_module\n"
        "importlib.import_module('bot.x')\n__import__('bot.y')\n"
    )
    assert _dynamic_imports(tree) == [2, 3, 4]


def test_every_function_level_import_says_why_it_is_lazy() -> None:
    # The rule: defer an import only to keep a heavy optional path off start-up, and say
    # which in a comment starting "Lazy:" (above, on the same line, or over the run).
    bare = [
        f"{path.relative_to(ROOT)}:{line}"
        for path, line, commented in function_level_imports(modules())
        if not commented
    ]
    assert bare == []


def test_the_lazy_comment_check_reads_runs_same_lines_and_type_checking(
    tmp_path: Path,
) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"  # 1
        "if TYPE_CHECKING:\n"  # 2
        "    import json\n"  # 3: never runs, so not function-level
        "def f() -> None:\n"  # 4
        "    # Lazy: heavy path\n"  # 5
        "    # continues here\n"  # 6
        "    import os\n"  # 7: commented
        "    from os import (\n"  # 8: the run continues
        "        path,\n"  # 9
        "    )\n"  # 10
        "    x = 1\n"  # 11
        "    import re  # Lazy: same line\n"  # 12
        "    y = 2\n"  # 13
        "    import sys\n"  # 14: bare
        "    # a comment that gives no reason\n"  # 15
        "    import csv\n"  # 16: bare
    )
    found = function_level_imports({"sample": source})
    assert [(line, commented) for _, line, commented in found] == [
        (7, True),
        (8, True),
        (12, True),
        (14, False),
        (16, False),
    ]
