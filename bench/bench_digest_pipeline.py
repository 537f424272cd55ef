"""The digest job from a warm store: load both weeks, analyse, build, render.

    .venv/bin/python bench/bench_digest_pipeline.py [--prs 10000]

`bench_digest.py` times the build alone; this one times what `vllm-bot digest --no-sync`
does on a store that already holds the week and the week before (SQLite in a temp dir).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench.bench_digest import WINDOW, synthetic_prs
from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.digest.document import digest_document
from bot.digest.render import render_markdown
from bot.digest.service import make_digest
from bot.store import Store


async def run(count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}")
        previous = WINDOW.previous()
        this_week = synthetic_prs(count, 100_000, seed=1)
        last_week = synthetic_prs(count, 200_000, seed=2)
        shift = WINDOW.start - previous.start
        for pr in last_week:
            assert pr.merged_at is not None  # synthetic PRs are merged ones
            pr.merged_at -= shift
            pr.created_at -= shift
        started = time.perf_counter()
        await store.prs.upsert(this_week + last_week)
        for window, prs in ((WINDOW, this_week), (previous, last_week)):
            await store.windows.mark(
                "vllm-project/vllm", window.start, window.end, complete=True, pr_count=len(prs)
            )
        print(f"store {2 * count:,} PRs: {time.perf_counter() - started:.2f} s")
        analyzer = Analyzer(load_ruleset("vllm"))
        # Cold: rules run and analyses are cached; warm: what a re-run or the scheduler sees.
        # Peak memory is measured in a separate run because tracemalloc slows Python down.
        for label, trace in (("cold", False), ("warm", False), ("warm, traced", True)):
            if trace:
                tracemalloc.start()
            started = time.perf_counter()
            digest = await make_digest(
                store, analyzer, "vllm-project/vllm", WINDOW, timezone="UTC", new_contributors=set()
            )
            markdown = render_markdown(digest_document(digest, "en"))
            seconds = time.perf_counter() - started
            line = f"{count:,}-PR week, {label}: "
            if trace:
                line += f"peak {tracemalloc.get_traced_memory()[1] / 2**20:.0f} MiB"
                tracemalloc.stop()
            else:
                line += f"{seconds:.2f} s ({digest.totals.merged:,} PRs, {len(markdown):,} chars)"
            print(line)
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prs", type=int, nargs="*", default=[250, 10_000])
    args = parser.parse_args()
    for count in args.prs:
        asyncio.run(run(count))


if __name__ == "__main__":
    main()
