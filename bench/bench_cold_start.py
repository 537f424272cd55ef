"""Cold start of the CLI from a warm store: median wall time of fresh `vllm-bot` processes.

Imports the sample export into a throwaway SQLite store once, then runs each command
`--runs` times (default 10) as a new process and prints the median and the goal.

    .venv/bin/python bench/bench_cold_start.py [--runs 10]
    .venv/bin/python bench/bench_cold_start.py --importtime "pr 43001"   # top 10 imports
    .venv/bin/python bench/bench_cold_start.py --root /tmp/old-checkout   # another tree
    .venv/bin/python bench/bench_cold_start.py --compare /tmp/old-checkout  # both, interleaved

Wall time on a shared machine moves with the load; the CPU time (user + system) of the
child process is printed beside it and is the steadier figure to compare trees by.
`--compare` alternates the runs of the two trees, so both see the same load.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "vllm-sample-2026-W22-W23.json"
CLI = [sys.executable, "-m", "bot"]

# (label, argv, goal in seconds)
COMMANDS: list[tuple[str, list[str], float]] = [
    ("vllm-bot pr 43001", ["pr", "43001"], 0.6),
    ('vllm-bot chat "/vllm help"', ["chat", "/vllm help"], 0.6),
    (
        "vllm-bot digest --week 2026-W23 --no-sync",
        ["digest", "--week", "2026-W23", "--no-sync"],
        1.0,
    ),
]


def _env(data_dir: Path, root: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DISCORD_"))}
    env["DATABASE_URL"] = f"sqlite:///{data_dir / 'bench.db'}"
    # The tree under test, also when it is not the installed one.
    env["PYTHONPATH"] = str(root or ROOT)
    env.pop("VLLM_BOT_CONFIG", None)
    return env


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process."""
    cpu, start = _cpu(), time.perf_counter()
    cwd = env["PYTHONPATH"]
    done = subprocess.run([*CLI, *argv], env=env, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    return elapsed, _cpu() - cpu


def warm_store(env: dict[str, str]) -> None:
    argv = ["import", str(SAMPLE), "--since", "2026-05-25", "--until", "2026-06-08", "--complete"]
    _run(argv, env)
    # One run of each command fills caches a real user's store already holds (analyses).
    for _label, command, _goal in COMMANDS:
        _run(command, env)


def importtime(argv: list[str], env: dict[str, str], top: int = 10) -> list[tuple[int, str]]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot", *argv],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    rows: list[tuple[int, str]] = []
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if match and match.group(3) == " ":
            # Top-level imports only, by cumulative time: what start-up pays for each.
            rows.append((int(match.group(2)), match.group(4)))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--importtime", metavar="ARGS", help="print the top 10 imports of one run")
    parser.add_argument("--root", type=Path, help="the checkout to measure (default: this one)")
    parser.add_argument("--compare", type=Path, help="another checkout, run alternately")
    args = parser.parse_args()
    if args.compare is not None:
        compare(args.compare.resolve(), args.runs)
        return
    if args.root is not None:
        global ROOT
        ROOT = args.root.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(Path(tmp))
        warm_store(env)
        if args.importtime:
            for micros, name in importtime(shlex.split(args.importtime), env):
                print(f"{micros / 1000:8.1f} ms  {name}")
            return
        for label, command, goal in COMMANDS:
            runs = [_run(command, env) for _ in range(args.runs)]
            times = [wall for wall, _ in runs]
            median = statistics.median(times)
            cpu = statistics.median(c for _, c in runs)
            verdict = "ok" if median <= goal else "over"
            print(
                f"{label:45} median {median:.3f} s (CPU {cpu:.3f} s)  min {min(times):.3f}  "
                f"max {max(times):.3f}  goal {goal:.1f} s  {verdict}"
            )


def _summary(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def compare(other: Path, runs: int) -> None:
    """This tree and `other`, one run each in turn, each from its own warm store."""
    with tempfile.TemporaryDirectory() as mine, tempfile.TemporaryDirectory() as theirs:
        envs = {"this": _env(Path(mine)), "other": _env(Path(theirs), other)}
        for env in envs.values():
            warm_store(env)
        for label, command, goal in COMMANDS:
            results: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
            for _ in range(runs):
                for name, env in envs.items():
                    results[name].append(_run(command, env))
            (wall, cpu), (other_wall, other_cpu) = (_summary(r) for r in results.values())
            print(
                f"{label:45} this {wall:.3f} s (CPU {cpu:.3f})  other {other_wall:.3f} s "
                f"(CPU {other_cpu:.3f})  saved {other_wall - wall:+.3f} s  goal {goal:.1f} s"
            )


if __name__ == "__main__":
    main()
