"""Crash trials: SIGKILL `vllm-bot digest --post` at each part boundary and inside each send,
then re-run it at once; count parts missing and duplicated on the platform.

    .venv/bin/python -m bench.bench_crash [--trials 10] [--platform slack --platform discord]

Real subprocesses of the CLI against the local fakes (tests/fakes/crash.py): a trial holds
one request in the fake, kills the CLI while it waits ("boundary": the request is then
dropped, as if the process died between parts; "inside": the platform had accepted it),
then runs the same command again and reads what the channel holds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fakes.crash import Trial, crash_rig, plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=10, help="trials per platform")
    parser.add_argument("--platform", action="append", choices=["slack", "discord"])
    args = parser.parse_args(argv)
    platforms = args.platform or ["slack", "discord"]
    started = time.perf_counter()
    results: list[Trial] = []
    with tempfile.TemporaryDirectory() as tmp, crash_rig(Path(tmp)) as rig:
        for platform in platforms:
            parts = rig.parts[platform]
            print(f"{platform}: {parts} parts per delivery (summary, details, chart)")
            for part, mode in plan(parts, args.trials):
                trial = rig.trial(platform, part, mode)
                results.append(trial)
                print(
                    f"  kill {mode:8} part {part + 1}/{parts}: killed={trial.killed} "
                    f"missing={trial.missing} duplicates={trial.duplicates} "
                    f"in_order={trial.in_order} rerun_exit={trial.rerun_exit}"
                    f"  | {trial.rerun_line[:110]}"
                )
    print()
    print("platform  trials  killed  parts_missing  duplicates  out_of_order  rerun_exit")
    failed = False
    for platform in platforms:
        mine = [t for t in results if t.platform == platform]
        exits = Counter(t.rerun_exit for t in mine)
        missing = sum(t.missing for t in mine)
        duplicates = sum(t.duplicates for t in mine)
        disorder = sum(not t.in_order for t in mine)
        killed = sum(t.killed for t in mine)
        failed |= bool(missing or duplicates or disorder or set(exits) != {0})
        exit_text = ", ".join(f"{code}×{n}" for code, n in sorted(exits.items()))
        print(
            f"{platform:8}  {len(mine):6}  {killed:6}  {missing:13}  {duplicates:10}  "
            f"{disorder:12}  {exit_text}"
        )
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
