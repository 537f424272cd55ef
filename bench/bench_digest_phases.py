"""Where one `vllm-bot digest --no-sync` spends its time after start-up, phase by phase,
in a fresh process (cold in-process caches, as the CLI sees them) on a store that holds the
week and its history (e.g. the stores `bench_cold_start.py --keep DIR` leaves).

    DATABASE_URL=sqlite:////tmp/bench/this-week/bench.sqlite3 \
        .venv/bin/python bench/bench_digest_phases.py [--week 2026-W23] [--lang en]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import resource
import time
from zoneinfo import ZoneInfo

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.core.weeks import parse_week
from bot.digest.document import digest_document
from bot.digest.history import chain, load_timeline
from bot.digest.render import render_markdown
from bot.digest.service import DEFAULT_HISTORY_WEEKS, digest_at
from bot.digest.theme_memo import kept_themes
from bot.store import Store

REPO = "vllm-project/vllm"


async def run(week: str, language: str) -> None:
    marks: list[tuple[str, float]] = []
    started = time.perf_counter()

    def mark(name: str) -> None:
        marks.append((name, time.perf_counter()))

    url = os.environ["DATABASE_URL"]
    store = await Store.open(url.replace("sqlite:///", "sqlite+aiosqlite:///", 1))
    analyzer = Analyzer(load_ruleset("vllm"))
    mark("open store, rule set")
    window = parse_week(week, ZoneInfo("UTC"))
    # As make_digest builds it.
    gc.disable()  # as a CLI run builds it (bot.cli.main)
    timeline = await load_timeline(store, analyzer, REPO, chain(window, DEFAULT_HISTORY_WEEKS + 2))
    mark("load_timeline")
    async with kept_themes(store, REPO):
        mark("theme memo read")
        digest = digest_at(
            timeline,
            len(timeline.weeks) - 1,
            analyzer=analyzer,
            history_weeks=DEFAULT_HISTORY_WEEKS,
            new_contributors=None,
        )
        mark("digest_at")
    mark("theme memo saved")
    text = render_markdown(digest_document(digest, language))
    mark("document + markdown")
    await store.close()
    previous = started
    for name, at in marks:
        print(f"  {name:22} {1000 * (at - previous):7.1f} ms")
        previous = at
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  {'total':22} {1000 * (previous - started):7.1f} ms  ({len(text):,} chars, "
          f"peak RSS {rss:.0f} MB)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--week", default="2026-W23")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    asyncio.run(run(args.week, args.lang))


if __name__ == "__main__":
    main()
