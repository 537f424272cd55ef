"""The bad-input table (bench/bad_inputs.py): every case exits 2 with one line, no
traceback, under 300 characters, naming what is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bad_inputs import CASES, LONG, Case, run_case


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 192
    assert len({case.label for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.label[:50] for case in CASES])
def test_bad_input(case: Case, tmp_path: Path) -> None:
    outcome = run_case(case, tmp_path)
    assert outcome.problems == [], (outcome.code, outcome.stderr)
    assert outcome.stdout == ""
    line = outcome.line
    assert LONG[:100] not in line  # a 5,000-character input is echoed cut, not whole
    assert "^[" not in line and "[A-Za-z" not in line  # examples, never regular expressions
