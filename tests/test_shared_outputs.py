"""Behaviour held byte for byte: every output on the shared data (digests, release notes,
cards, chat answers, alerts; every format and language) matches the recorded manifest.

A change meant to change outputs records a new one (`bench/outputs_identical.py --write`)
and says why in its commit. Skips without ../shared.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "outputs_identical.py"

pytestmark = pytest.mark.skipif(
    not (ROOT.parent / "shared" / "datasets").is_dir(), reason="needs ../shared/datasets"
)


def test_every_output_on_the_shared_data_matches_the_manifest() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
