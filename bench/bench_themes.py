"""Theme detection speed in a fresh `vllm-bot` process, with descriptions and history.

    nice -n 10 .venv/bin/python -m bench.bench_themes [--runs 3] [--keep DIR]

Builds a temporary store from the real vllm-ascend PRs in ../shared (titles, full
descriptions, files, labels), re-numbered and spread over the weeks: a 250-PR week with 8
weeks of 250-PR history, and a 10,000-PR window with the same history. Each figure is a
new `vllm-bot themes` / `vllm-bot digest` process (imports, store read, analysis, themes,
rendering) run with --no-sync; wall time, CPU time (user + system) and peak RSS come from
the operating system (wait4). Goals: 250 PRs under 1 s, 10,000 PRs under 5 s, peak RSS
under 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
REPO = "vllm-project/vllm-ascend"
TARGET = (2026, 30)  # the measured week; its 8 weeks of history come before it
HISTORY = 8
HISTORY_PRS = 250
JSONDict = dict[str, object]


def _pool() -> list[dict[str, object]]:
    files = sorted((SHARED / "vllm-ascend").glob("vllm-ascend-2026-W*.json"))
    files.append(SHARED / "vllm-ascend-2026-W22.json")
    pool: list[dict[str, object]] = []
    for path in files:
        if path.exists():
            pool.extend(json.loads(path.read_text(encoding="utf-8"))["pullRequests"])
    if not pool:
        sys.exit(f"no vllm-ascend datasets under {SHARED}: this bench needs ../shared")
    return pool


def _week_start(year: int, week: int) -> datetime:
    return datetime.fromisocalendar(year, week, 1).replace(tzinfo=UTC)


def _export(pool: list[dict[str, object]], count: int, start: datetime, first: int) -> JSONDict:
    """`count` PRs of the pool (cycled), re-numbered from `first`, merged inside the week."""
    step = timedelta(days=7) / (count + 1)
    prs = []
    for i in range(count):
        pr = dict(pool[(first + i) % len(pool)])
        merged = start + step * (i + 1)
        pr.update(
            number=first + i,
            url=f"https://github.com/{REPO}/pull/{first + i}",
            createdAt=(merged - timedelta(hours=6)).isoformat().replace("+00:00", "Z"),
            mergedAt=merged.isoformat().replace("+00:00", "Z"),
            mergeCommit=f"{first + i:040x}",
        )
        prs.append(pr)
    end = start + timedelta(days=7)
    return {
        "repository": REPO,
        "source": "bench_themes (vllm-ascend PRs re-numbered)",
        "window": {"since": start.isoformat(), "until": end.isoformat()},
        "pullRequests": prs,
    }


def _cli() -> list[str]:
    return [str(Path(sys.executable).with_name("vllm-bot"))]


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one fresh process."""
    started = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(args)} failed:\n{stderr}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _store(folder: Path, pool: list[dict[str, object]], window_prs: int) -> dict[str, str]:
    """A store with HISTORY weeks of HISTORY_PRS PRs and the target week of `window_prs`."""
    config = folder / "bot.toml"
    config.write_text(f'timezone = "UTC"\n[[repos]]\nname = "{REPO}"\nmodules = "auto"\n')
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite+aiosqlite:///{folder / 'store.db'}",
        VLLM_BOT_CONFIG=str(config),
    )
    env.pop("OPENAI_BASE_URL", None)  # no model narrative: the figure is the bot's own
    year, week = TARGET
    target = _week_start(year, week)
    number = 100_000
    for offset in range(HISTORY, -1, -1):
        start = target - timedelta(days=7 * offset)
        count = window_prs if offset == 0 else HISTORY_PRS
        path = folder / f"week-{offset}.json"
        path.write_text(json.dumps(_export(pool, count, start, number)), encoding="utf-8")
        number += count
        label = f"{start.isocalendar().year}-W{start.isocalendar().week:02d}"
        subprocess.run(
            [*_cli(), "import", str(path), "--week", label, "--complete"],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per figure")
    parser.add_argument("--keep", type=Path, help="build the stores here and keep them")
    parser.add_argument("--sizes", default="250,10000", help="window sizes, comma-separated")
    options = parser.parse_args()
    pool = _pool()
    week = f"{TARGET[0]}-W{TARGET[1]:02d}"
    root = options.keep or Path(tempfile.mkdtemp(prefix="bench-themes-"))
    try:
        for size in (int(s) for s in options.sizes.split(",")):
            folder = root / f"w{size}"
            folder.mkdir(parents=True, exist_ok=True)
            env = _store(folder, pool, size)
            for command in (["themes", "--format", "json"], ["digest"]):
                args = [*_cli(), command[0], "--week", week, "--no-sync", *command[1:]]
                runs = [_run(args, env) for _ in range(options.runs)]
                wall = min(r[0] for r in runs)
                cpu = min(r[1] for r in runs)
                rss = max(r[2] for r in runs)
                print(
                    f"{size:>6}-PR window, {HISTORY} weeks x {HISTORY_PRS} PRs history, "
                    f"`vllm-bot {command[0]}` fresh process: {wall:.2f} s wall, "
                    f"{cpu:.2f} s CPU (best of {options.runs}), peak RSS {rss:.0f} MB"
                )
    finally:
        if options.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
