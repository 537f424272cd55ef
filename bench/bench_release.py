"""Release digests: GitHub requests of the two real vllm-ascend releases against their lower
bound, and the time to build a 400-PR release digest in a fresh process.

Needs ../shared/datasets/releases (the two release exports). The requests part serves the
exports from the fake GitHub (tags whose histories are the exports' commits, compare pages
of 100, GraphQL with the real schema) into an empty store. The timing part imports 400 of
the releases' PRs as one release (v0.19.1rc1 -> a tag at its 400th commit) into a
throwaway store, with the nine history weeks, then runs
`vllm-bot digest --release TAG --no-sync` as new processes.

    .venv/bin/python bench/bench_release.py [--runs 5]

Wall time on a shared machine moves with the load; the CPU time (user + system) of the
child process is the steadier figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.github.client import GitHubClient  # noqa: E402
from bot.releases.fetch import fetch_release  # noqa: E402
from bot.store.store import Store  # noqa: E402
from tests.fakes.github import FakeCommit, FakeGitHub, FakeTag  # noqa: E402
from tests.fakes.prdata import load_dataset  # noqa: E402

DATASETS = ROOT.parent / "shared" / "datasets"
RELEASES = DATASETS / "releases"
FILES = [
    RELEASES / "vllm-ascend-v0.19.1rc1..v0.20.2rc1.json",
    RELEASES / "vllm-ascend-v0.20.2rc1..v0.21.0rc1.json",
]
REPO = "vllm-project/vllm-ascend"
SIZE = 400


def _commits(path: Path) -> list[FakeCommit]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        FakeCommit(
            p["mergeCommit"] or f"c{p['number']}",
            f"{p['title']} (#{p['number']})",
            datetime.fromisoformat(p["mergedAt"].replace("Z", "+00:00")),
        )
        for p in data["pullRequests"]
    ]


async def requests_figures() -> list[str]:
    first, second = (_commits(f) for f in FILES)
    root = FakeCommit("base", "v0.19.1rc1", first[0].date)
    tags = [
        FakeTag("v0.19.1rc1", [root]),
        FakeTag("v0.20.2rc1", [root, *first]),
        FakeTag("v0.21.0rc1", [root, *first, *second]),
    ]
    prs = [pr for f in FILES for pr in load_dataset(f)[1]]
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeGitHub({REPO: prs}, tags={REPO: tags}) as fake:
            store = await Store.open(f"sqlite+aiosqlite:///{tmp}/s.db")
            client = GitHubClient(
                token=fake.token, api_url=fake.api_url, graphql_url=fake.graphql_url
            )
            for tag in ("v0.20.2rc1", "v0.21.0rc1"):
                before = len(fake.log)
                release, used = await fetch_release(store, client, REPO, tag)
                ops: dict[str, int] = {}
                for entry in fake.log[before:]:
                    op = entry.operation or "REST"  # REST requests have no GraphQL operation
                    ops[op] = ops.get(op, 0) + 1
                lines.append(
                    f"{tag} (base {release.base}, {len(release.entries)} PRs): "
                    f"{used.used} requests, lower bound {used.lower_bound} "
                    f"({', '.join(f'{k} {v}' for k, v in sorted(ops.items()))})"
                )
            await client.aclose()
            await store.close()
    return lines


def _export_400(tmp: Path) -> Path:
    raw = [p for f in FILES for p in json.loads(f.read_text(encoding="utf-8"))["pullRequests"]]
    chosen = raw[:SIZE]
    release = {
        "base": "v0.19.1rc1",
        "head": "v0.400.0rc1",
        "base_date": "2026-04-30T18:32:13+08:00",
        "head_date": chosen[-1]["mergedAt"],
    }
    path = tmp / "release-400.json"
    payload = {"repository": REPO, "release": release, "pullRequests": chosen}
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def timing(runs: int) -> list[str]:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        config = tmp / "config.toml"
        config.write_text(f'[[repos]]\nname = "{REPO}"\nmodules = "generic"\n', encoding="utf-8")
        env = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{tmp}/s.db")
        env["VLLM_BOT_CONFIG"] = str(config)
        cli = [sys.executable, "-m", "bot"]
        weeks = sorted((DATASETS / "vllm-ascend").glob("*.json"))
        for path in [*weeks, _export_400(tmp)]:
            subprocess.run([*cli, "import", str(path)], env=env, check=True, capture_output=True)
        lines = []
        for fmt in ("markdown", "json"):
            argv = [*cli, "digest", "--release", "v0.400.0rc1", "--no-sync", "--format", fmt]
            # The first run fills the analysis cache, as the import's first digest would.
            started = time.perf_counter()
            subprocess.run(argv, env=env, check=True, capture_output=True, cwd=ROOT)
            first = time.perf_counter() - started
            times, cpu = [], []
            for _ in range(runs):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.perf_counter()
                subprocess.run(argv, env=env, check=True, capture_output=True, cwd=ROOT)
                times.append(time.perf_counter() - started)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            lines.append(
                f"digest --release (400 PRs, --format {fmt}, fresh process, warm store): "
                f"median {statistics.median(times):.2f} s wall, "
                f"{statistics.median(cpu):.2f} s CPU over {runs} runs "
                f"(min {min(times):.2f}, max {max(times):.2f}); first run, analysis cache "
                f"empty: {first:.2f} s"
            )
        return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not RELEASES.is_dir():
        sys.exit(f"{RELEASES} absent: the release exports are needed")
    for line in asyncio.run(requests_figures()):
        print(line)
    for line in timing(args.runs):
        print(line)


if __name__ == "__main__":
    main()
