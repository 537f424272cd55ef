"""What people wait for: fresh `vllm-bot` processes against a store that holds real weeks.

Builds throwaway SQLite stores through the CLI itself (`vllm-bot import … --complete`):

- `week`: a 250-PR week (2026-W23) and the 8 weeks before it, ~230 PRs each;
- `10k`: a 10,000-PR week and the same 8 weeks of history;
- `ascend`: the nine real vllm-project/vllm-ascend weeks of `../shared/datasets` (W14–W22)
  under a config naming only that repository, so its modules are `auto`: what an auto
  repository's `pr` costs (`--only ascend`).

Titles are vLLM's own (`../shared/datasets/vllm-titles`), descriptions real PR descriptions
(`../shared/datasets/vllm-ascend`), files derived from each title's tag so the vllm rule set
classifies them. Without `../shared` the PRs are bench_digest's synthetic ones (said so).

Each command then runs as a new process, alternating with the floor, `python -c "import
sqlalchemy.ext.asyncio, aiosqlite, httpx, pydantic"` (what any store-reading command pays),
so both see the same load. Reported per command: median wall time, CPU time (user + system)
and peak RSS of the child (`os.wait4`), the ratio of the medians to the floor's, and the
goal. The first run after the import is reported apart: it analyses every PR once and fills
the store's analysis cache, which every later run reads.

    .venv/bin/python bench/bench_cold_start.py [--runs 5] [--only pr,help,digest,10k]
    .venv/bin/python bench/bench_cold_start.py --importtime          # top 10 imports each
    .venv/bin/python bench/bench_cold_start.py --compare /work/main  # another tree, alternated
    .venv/bin/python bench/bench_cold_start.py --keep /tmp/bench     # reuse the stores
    .venv/bin/python bench/bench_cold_start.py --profile             # top 15 functions each

`--keep DIR` imports into DIR once and reuses those stores on the next runs (what the
first run stores, the analysis cache and the theme memo, stays too: the first-run line is
then a warm run). `--profile` runs each command once more under cProfile and prints its
top 15 functions by cumulative time.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import random
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "datasets"
REPO = "vllm-project/vllm"
WEEK = "2026-W23"
WEEK_START = datetime(2026, 6, 1, tzinfo=UTC)  # Monday of 2026-W23
HISTORY_WEEKS = 8
ASCEND = "vllm-project/vllm-ascend"
ASCEND_PR = "9365"  # a W22 PR touching vllm_ascend/ops and tests
FLOOR = [sys.executable, "-c", "import sqlalchemy.ext.asyncio, aiosqlite, httpx, pydantic"]
# A title's tag to a file the vllm rule set knows (bench_digest's areas, plus common tags).
TAG_PATHS = {
    "rocm": "vllm/platforms/rocm.py",
    "amd": "vllm/platforms/rocm.py",
    "xpu": "vllm/platforms/xpu.py",
    "cpu": "vllm/platforms/cpu.py",
    "tpu": "vllm/platforms/tpu.py",
    "attention": "vllm/v1/attention/backends/flash_attn.py",
    "moe": "vllm/model_executor/layers/fused_moe/layer.py",
    "core": "vllm/v1/core/sched/scheduler.py",
    "scheduler": "vllm/v1/core/sched/scheduler.py",
    "frontend": "vllm/entrypoints/openai/serving_chat.py",
    "spec decode": "vllm/v1/spec_decode/eagle.py",
    "quantization": "vllm/model_executor/layers/quantization/fp8.py",
    "quant": "vllm/model_executor/layers/quantization/fp8.py",
    "model": "vllm/model_executor/models/llama.py",
    "ci/build": ".buildkite/test-pipeline.yaml",
    "ci": ".buildkite/test-pipeline.yaml",
    "doc": "docs/usage/README.md",
    "docs": "docs/usage/README.md",
    "bugfix": "vllm/engine/arg_utils.py",
    "misc": "vllm/utils/__init__.py",
    "kernel": "csrc/attention/attention_kernels.cu",
    "v1": "vllm/v1/engine/core.py",
}
_TAG = re.compile(r"^\s*\[([^\]]+)\]")


@dataclass(frozen=True)
class Command:
    key: str
    label: str
    argv: list[str]
    store: str  # "week" or "10k"
    goal_ratio: float | None  # to the floor
    goal_seconds: float | None = None
    goal_rss_mb: float | None = None


def commands(pr_number: int) -> list[Command]:
    digest = ["digest", "--week", WEEK, "--no-sync"]
    return [
        Command("pr", f"vllm-bot pr {pr_number}", ["pr", str(pr_number)], "week", 1.2),
        Command("help", 'vllm-bot chat "/vllm help"', ["chat", "/vllm help"], "week", 1.2),
        Command("digest", "vllm-bot digest --no-sync (250 PRs)", digest, "week", 2.0),
        Command("10k", "vllm-bot digest --no-sync (10,000 PRs)", digest, "10k", None, 5.0, 300),
        Command("ascend", f"vllm-bot pr {ASCEND_PR} (vllm-ascend, auto)", ["pr", ASCEND_PR],
                "ascend", 1.2),
    ]  # fmt: skip


# ---------------------------------------------------------------------------- the data


def _read(path: Path) -> list[dict[str, object]]:
    prs: list[dict[str, object]] = json.loads(path.read_text())["pullRequests"]
    return prs


def _sources() -> tuple[list[list[str]], list[str], str]:
    """Weeks of real titles, real descriptions, and where they came from."""
    titles_dir, bodies_dir = SHARED / "vllm-titles", SHARED / "vllm-ascend"
    if titles_dir.is_dir() and bodies_dir.is_dir():
        weeks = [
            [str(pr["title"]) for pr in _read(path)] for path in sorted(titles_dir.glob("*.json"))
        ]
        bodies = [
            str(pr["body"])
            for path in sorted(bodies_dir.glob("*.json"))
            for pr in _read(path)
            if pr.get("body")
        ]
        return weeks, bodies, "real vLLM titles, real descriptions (../shared/datasets)"
    sys.path.insert(0, str(ROOT))
    from bench.bench_digest import synthetic_prs

    fake = synthetic_prs(250 * (HISTORY_WEEKS + 1), 1, seed=7)
    weeks = [[p.title for p in fake[i : i + 250]] for i in range(0, len(fake), 250)]
    return weeks, [p.body for p in fake], "synthetic PRs (../shared is absent)"


def _pr(
    number: int, title: str, body: str, merged: datetime, rng: random.Random
) -> dict[str, object]:
    tag = _TAG.match(title)
    path = TAG_PATHS.get(tag.group(1).strip().lower(), "") if tag else ""
    path = path or f"vllm/{rng.choice(['engine', 'worker', 'config', 'utils'])}/x{number % 40}.py"
    files = [{"path": path, "additions": rng.randrange(1, 400), "deletions": rng.randrange(0, 120)}]
    if rng.random() < 0.5:
        files.append({"path": f"tests/test_{number % 97}.py", "additions": 30, "deletions": 0})
    created = merged - timedelta(days=rng.randrange(1, 20))
    return {
        "number": number,
        "title": title,
        "body": body,
        "url": f"https://github.com/{REPO}/pull/{number}",
        "author": f"dev{rng.randrange(400)}",
        "createdAt": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "mergedAt": merged.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "labels": [],
        "additions": sum(int(f["additions"]) for f in files),  # type: ignore[call-overload]
        "deletions": sum(int(f["deletions"]) for f in files),  # type: ignore[call-overload]
        "changedFiles": len(files),
        "files": files,
    }


def exports(size: int, folder: Path) -> tuple[list[tuple[Path, datetime]], int]:
    """One export file per week (target week of `size` PRs, then the history weeks), and
    the number of one PR of the target week."""
    weeks, bodies, _ = _sources()
    rng = random.Random(size)
    number = 100_000
    files: list[tuple[Path, datetime]] = []
    for back in range(HISTORY_WEEKS + 1):
        start = WEEK_START - timedelta(weeks=back)
        if back == 0:
            pool = [t for week in weeks for t in week]
            titles = [pool[i % len(pool)] for i in range(size)]
        else:
            titles = weeks[-back % len(weeks)]
        step = 7 * 86400 / len(titles)
        prs = []
        for i, title in enumerate(titles):
            merged = start + timedelta(seconds=int(i * step) + 1)
            prs.append(_pr(number, title, bodies[number % len(bodies)], merged, rng))
            number += 1
        path = folder / f"week-{back}.json"
        end = start + timedelta(weeks=1)
        window = {"since": start.isoformat(), "until": end.isoformat()}
        path.write_text(json.dumps({"repository": REPO, "pullRequests": prs, "window": window}))
        files.append((path, start))
    return files, 100_000


# ---------------------------------------------------------------------------- running


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mb: float


def _env(data_dir: Path, root: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DISCORD_", "GITHUB_"))
    }
    env["DATABASE_URL"] = f"sqlite:///{data_dir / 'bench.sqlite3'}"
    # The tree under test, also when it is not the installed one.
    env["PYTHONPATH"] = str(root)
    env.pop("VLLM_BOT_CONFIG", None)
    # Bytecode is written and reused, as in an installed copy: a tree that must compile its
    # modules on every run would measure the compiler.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_once(argv: list[str], env: dict[str, str] | None = None) -> Run:
    """Wall time, CPU time and peak RSS of one fresh process (its own rusage, via wait4)."""
    started = time.perf_counter()
    cwd = env["PYTHONPATH"] if env else None
    child = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=False
    )
    assert child.stderr is not None
    error = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)} exited {child.returncode}: {error.decode()[-400:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def python_of(env: dict[str, str]) -> str:
    """The tree's own virtualenv when it has one: another checkout may need other packages."""
    own = Path(env["PYTHONPATH"]) / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def bot(argv: list[str], env: dict[str, str]) -> list[str]:
    return [python_of(env), "-m", "bot", *argv]


def ascend_exports() -> list[tuple[Path, str]]:
    """The nine shared vllm-ascend weeks and their ISO weeks."""
    weeks = [(SHARED / "vllm-ascend" / f"vllm-ascend-2026-W{n}.json", n) for n in range(14, 22)]
    weeks.append((SHARED / "vllm-ascend-2026-W22.json", 22))
    return [(path, f"2026-W{n}") for path, n in weeks]


def fill_ascend(env: dict[str, str], folder: Path) -> int:
    config = folder / "bot.toml"
    config.write_text(f'[[repos]]\nname = "{ASCEND}"\n')
    env["VLLM_BOT_CONFIG"] = str(config)
    for path, week in ascend_exports():
        run_once(bot(["import", str(path), "--week", week, "--complete"], env), env)
    return int(ASCEND_PR)


def fill(env: dict[str, str], size: int, folder: Path) -> int:
    # The export files are written by a child: peak RSS is read with wait4, and a forked
    # child starts with its parent's resident pages, so this process must stay small.
    written = subprocess.run(
        [sys.executable, __file__, "--write-exports", str(size), str(folder)],
        capture_output=True,
        text=True,
        check=True,
    )
    pr_number = int(written.stdout)
    files = [
        (folder / f"week-{back}.json", WEEK_START - timedelta(weeks=back))
        for back in range(HISTORY_WEEKS + 1)
    ]
    for path, start in files:
        since, until = start.date().isoformat(), (start + timedelta(weeks=1)).date().isoformat()
        argv = ["import", str(path), "--since", since, "--until", until, "--complete"]
        run_once(bot(argv, env), env)
    return pr_number


def importtime(argv: list[str], env: dict[str, str], top: int = 10) -> list[tuple[int, str]]:
    done = subprocess.run(
        [python_of(env), "-X", "importtime", "-m", "bot", *argv],
        env=env,
        cwd=env["PYTHONPATH"],
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


def profile(argv: list[str], env: dict[str, str], folder: Path, top: int = 15) -> list[str]:
    """The `top` functions of one run by cumulative time (cProfile in a fresh process)."""
    out = folder / f"profile-{argv[0]}.prof"
    subprocess.run(
        [python_of(env), "-m", "cProfile", "-o", str(out), "-m", "bot", *argv],
        env=env,
        cwd=env["PYTHONPATH"],
        capture_output=True,
        check=True,
    )
    stats = pstats.Stats(str(out))
    rows = []
    # The interpreter, runpy, the CLI framework and asyncio's loop wrap everything: skipped.
    wrappers = ("<frozen", "runpy", "typer", "click", "asyncio", "{built-in method builtins.exec}")
    for func, (_, calls, _, cumulative, _) in sorted(
        stats.stats.items(),  # type: ignore[attr-defined]
        key=lambda item: -item[1][3],
    ):
        name = pstats.func_std_string(func)  # type: ignore[attr-defined]
        if any(w in name for w in wrappers) or ("<module>" in name and "bot/__main__" in name):
            continue
        rows.append(f"    {cumulative:7.3f} s  {calls:7d}  {name.replace(str(ROOT) + '/', '')}")
        if len(rows) == top:
            break
    return rows


def _median(runs: list[Run]) -> Run:
    return Run(
        statistics.median(r.wall for r in runs),
        statistics.median(r.cpu for r in runs),
        max(r.rss_mb for r in runs),
    )


def _goal(command: Command, run: Run, floor: Run) -> str:
    parts = []
    if command.goal_ratio is not None:
        ok = run.wall <= command.goal_ratio * floor.wall
        parts.append(f"goal <= {command.goal_ratio}x {'ok' if ok else 'over'}")
    if command.goal_seconds is not None:
        ok = run.wall < command.goal_seconds
        parts.append(f"goal < {command.goal_seconds:.0f} s {'ok' if ok else 'over'}")
    if command.goal_rss_mb is not None:
        ok = run.rss_mb < command.goal_rss_mb
        parts.append(f"< {command.goal_rss_mb:.0f} MB {'ok' if ok else 'over'}")
    return "; ".join(parts)


def _line(name: str, run: Run, floor: Run) -> str:
    return (
        f"{name:6} {run.wall:6.3f} s  CPU {run.cpu:6.3f} s  RSS {run.rss_mb:5.0f} MB  "
        f"{run.wall / floor.wall:4.2f}x floor (CPU {run.cpu / floor.cpu:4.2f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per command (10k: at most 3)")
    parser.add_argument("--only", default="pr,help,digest,10k", help="commands to run")
    parser.add_argument("--importtime", action="store_true", help="top 10 imports per command")
    parser.add_argument("--compare", type=Path, help="another checkout, run alternately")
    parser.add_argument("--keep", type=Path, help="keep the stores in DIR and reuse them")
    parser.add_argument("--profile", action="store_true", help="top 15 functions per command")
    parser.add_argument("--write-exports", nargs=2, metavar=("SIZE", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write_exports:
        print(exports(int(args.write_exports[0]), Path(args.write_exports[1]))[1])
        return
    wanted = set(args.only.split(","))
    if "ascend" in wanted and not (SHARED / "vllm-ascend").is_dir():
        print("ascend: skipped (../shared/datasets/vllm-ascend is absent)")
        wanted.discard("ascend")
    trees = {"this": ROOT}
    if args.compare is not None:
        trees["other"] = args.compare.resolve()
    real = (SHARED / "vllm-titles").is_dir() and (SHARED / "vllm-ascend").is_dir()
    source = "real vLLM titles and descriptions" if real else "synthetic PRs (no ../shared)"
    load = os.getloadavg()
    print(f"data: {source}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep.resolve() if args.keep else Path(tmp)
        envs: dict[tuple[str, str], dict[str, str]] = {}
        pr_number = 0
        stores = {"week": 250, "10k": 10_000, "ascend": 0}
        needed = {c.store for c in commands(0) if c.key in wanted}
        for (name, root), store in [(t, s) for t in trees.items() for s in sorted(needed)]:
            folder = base / f"{name}-{store}"
            folder.mkdir(parents=True, exist_ok=True)
            envs[name, store] = env = _env(folder, root)
            done = folder / "pr-number"
            if store == "ascend":
                env["VLLM_BOT_CONFIG"] = str(folder / "bot.toml")
            if done.exists():
                pr_number = int(done.read_text()) if store != "ascend" else pr_number
                print(f"{name} tree, {store} store reused from {folder}")
                continue
            started = time.perf_counter()
            if store == "ascend":
                fill_ascend(env, folder)
            else:
                pr_number = fill(env, stores[store], folder)
            done.write_text(str(ASCEND_PR if store == "ascend" else pr_number))
            print(f"{name} tree, {store} store imported in {time.perf_counter() - started:.1f} s")
        for command in commands(pr_number):
            if command.key not in wanted:
                continue
            print(f"\n{command.label}")
            for name in trees:
                env = envs[name, command.store]
                first = run_once(bot(command.argv, env), env)
                print(f"  {name:5} first run (fills the analysis cache): {first.wall:.3f} s, "
                      f"RSS {first.rss_mb:.0f} MB")  # fmt: skip
            # After the first run: -X importtime runs the command, which fills the cache.
            if args.importtime:
                for micros, module in importtime(command.argv, envs["this", command.store]):
                    print(f"    {micros / 1000:7.1f} ms  {module}")
            runs = min(args.runs, 3) if command.store == "10k" else args.runs
            results: dict[str, list[Run]] = {"floor": [], **{name: [] for name in trees}}
            for _ in range(runs):
                results["floor"].append(run_once(FLOOR))
                for name in trees:
                    env = envs[name, command.store]
                    results[name].append(run_once(bot(command.argv, env), env))
            floor = _median(results["floor"])
            print(f"  {'floor':6} {floor.wall:6.3f} s  CPU {floor.cpu:6.3f} s  "
                  f"RSS {floor.rss_mb:5.0f} MB")  # fmt: skip
            for name in trees:
                run = _median(results[name])
                print(f"  {_line(name, run, floor)}  {_goal(command, run, floor)}")
            load = os.getloadavg()
            print(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
            if args.profile:
                print("  top 15 by cumulative time (one run under cProfile, this tree):")
                env = envs["this", command.store]
                print("\n".join(profile(command.argv, env, Path(tmp))))


if __name__ == "__main__":
    main()
