"""SIGKILL a real `vllm-bot digest --post` mid-delivery, re-run at once: every part exactly
once, in order, in its thread (bench/bench_crash.py runs 10 trials per platform)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.crash import CrashRig, crash_rig, plan

# A real process killed mid-delivery and run again: the process boundary is the subject.
pytestmark = pytest.mark.subprocess


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CrashRig]:
    with crash_rig(tmp_path_factory.mktemp("crash")) as found:
        yield found


@pytest.mark.parametrize("platform", ["slack", "discord"])
def test_a_killed_post_is_completed_by_an_immediate_rerun_without_duplicates(
    rig: CrashRig, platform: str
) -> None:
    parts = rig.parts[platform]
    assert parts >= 3  # summary, details, chart: there are boundaries to kill at
    for part, mode in plan(parts, 2):
        trial = rig.trial(platform, part, mode)
        assert trial.killed, trial
        assert (trial.missing, trial.duplicates) == (0, 0), trial
        assert trial.in_order, trial
        assert trial.rerun_exit == 0, trial


def test_a_rerun_while_the_first_run_lives_exits_1_naming_the_missing_parts(
    rig: CrashRig, tmp_path: Path
) -> None:
    import signal
    import subprocess

    channel = rig.new_channel("slack")
    gate = rig.slack.hold("chat.postMessage", 2)
    with subprocess.Popen(
        rig._args(f"slack:{channel}"),
        env=rig.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as first:
        try:
            assert gate.reached.wait(120)
            second = rig.run("digest", "--week", "2026-W23", "--post", f"slack:{channel}")
        finally:
            gate.release()
            rig.slack.gates.clear()
        first.wait(120)
    assert second.returncode == 1, second.stderr
    line = second.stderr.strip().splitlines()[-1]
    assert "incomplete" in line and "missing 2" in line and f"pid {first.pid}" in line
    assert first.returncode == 0
    assert first.returncode != signal.SIGKILL
    assert rig.score("slack", channel, rig.parts["slack"]) == (0, 0, True)
