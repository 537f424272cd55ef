"""History, charts and archive at 52 weeks of vLLM-sized data (synthetic, warm SQLite store).

    .venv/bin/python -m bench.bench_history [--prs-per-week 300] [--weeks 52]

Measures, on one store holding WEEKS weeks of PRS_PER_WEEK PRs each (analysed with the real
vllm rule set):
  * a digest with 52 weeks of history: first (analyses computed and cached) and warm;
  * the history alone (history_of over the loaded timeline);
  * rendering the charts: inline SVG (en) and the PNG (en, zh);
  * writing the 52-week archive in en and zh (every week page, module page and feed).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, timedelta
from pathlib import Path
from typing import Any

from bench.bench_digest import synthetic_prs
from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.core.weeks import iso_week
from bot.digest.archive import load_repo_archive, site, write_site
from bot.digest.charts import png_chart, svg_charts
from bot.digest.history import chain, history_of, load_timeline
from bot.digest.service import make_digest
from bot.store import Store

REPO = "vllm-project/vllm"


# Wall time and this process's CPU time: on a shared machine the wall figure includes the
# time other processes held the CPU.
def _report(label: str, wall: float, cpu: float) -> None:
    print(f"  {label:<58} {wall:7.2f} s wall {cpu:7.2f} s CPU")


async def _timed(label: str, step: Callable[[], Awaitable[Any]]) -> Any:
    wall, cpu = time.perf_counter(), time.process_time()
    result = await step()
    _report(label, time.perf_counter() - wall, time.process_time() - cpu)
    return result


def _timed_sync(label: str, step: Callable[[], Any]) -> Any:
    wall, cpu = time.perf_counter(), time.process_time()
    result = step()
    _report(label, time.perf_counter() - wall, time.process_time() - cpu)
    return result


async def main(weeks: int, per_week: int) -> None:
    last = iso_week(2026, 23, UTC)
    windows = chain(last, weeks)
    now = last.end + timedelta(days=2)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}")
        try:
            prs = []
            for i, window in enumerate(windows):
                batch = synthetic_prs(per_week, 40000 + i * per_week, seed=i)
                for k, pr in enumerate(batch):
                    pr.merged_at = window.start_utc + timedelta(seconds=(k * 600_000) // per_week)
                prs += batch
            await store.prs.upsert(prs)
            for window in windows:
                count = await store.prs.count_merged_between(REPO, window.start_utc, window.end_utc)
                await store.windows.mark(
                    REPO, window.start_utc, window.end_utc, complete=True, pr_count=count
                )
            print(f"{len(prs):,} PRs over {weeks} weeks ({per_week} a week), SQLite")
            analyzer = Analyzer(load_ruleset("vllm"))

            def digest() -> Awaitable[Any]:
                return make_digest(store, analyzer, REPO, last, history_weeks=weeks, now=now)

            await _timed(f"digest with {weeks}-week history, cold (analyses computed)", digest)
            built = await _timed(
                f"digest with {weeks}-week history, warm (analyses cached)", digest
            )
            timeline = await _timed(
                "load_timeline alone (one PR query, cached analyses)",
                lambda: load_timeline(store, analyzer, REPO, windows, now=now),
            )
            _timed_sync(f"history_of over {weeks} weeks", lambda: history_of(timeline))
            _timed_sync(
                "SVG charts (merged, small multiples, kinds)", lambda: svg_charts(built, "en")
            )
            _timed_sync(
                "PNG chart, en (first: includes the matplotlib import)",
                lambda: png_chart(built, "en"),
            )
            _timed_sync("PNG chart, en (again)", lambda: png_chart(built, "en"))
            # The digest holds no language: the same one renders in Chinese.
            _timed_sync("PNG chart, zh (CJK font)", lambda: png_chart(built, "zh"))

            async def archive() -> int:
                loaded = await load_repo_archive(
                    store,
                    analyzer,
                    REPO,
                    weeks=weeks,
                    history_weeks=8,
                    tz=UTC,
                    now=now,
                )
                assert loaded is not None
                pages = site([loaded], ["en", "zh"])
                return write_site(pages, Path(tmp) / "site")

            files = await _timed(f"archive of {weeks} weeks, en+zh, written", archive)
            size = sum(p.stat().st_size for p in (Path(tmp) / "site").rglob("*") if p.is_file())
            print(f"  archive: {files} files, {size / 1e6:.1f} MB")
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weeks", type=int, default=52)
    parser.add_argument("--prs-per-week", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(main(args.weeks, args.prs_per_week))
