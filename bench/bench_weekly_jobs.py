"""Weekly module subscriptions → digest jobs: the grouping every weekly run does.

    .venv/bin/python bench/bench_weekly_jobs.py [--subs 10000] [--channels 500] [--seed 1]

Subscriptions are random (1-3 modules, a tenth of them alerts rather than weekly) over
`--channels` Slack channels, 50 of which have a digest target. Prints the jobs found and the
best of 5 timings of `bot.runtime.scheduler.weekly_jobs`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_alert_matching import MODULES
from bot.alerts.model import Subscription
from bot.core.config import Config
from bot.core.filters import SubscriptionFilters
from bot.runtime.scheduler import weekly_jobs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--subs", type=int, default=10_000)
    parser.add_argument("--channels", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    targets = [{"platform": "slack", "channel": f"C{i}"} for i in range(50)]
    config = Config.model_validate(
        {"repos": [{"name": "vllm-project/vllm"}], "digest": {"targets": targets}}
    )
    now = datetime.now(UTC)
    subs = [
        Subscription(
            i,
            "slack",
            f"C{rng.randrange(args.channels)}",
            tuple(rng.sample(MODULES, rng.randint(1, 3))),
            SubscriptionFilters(),
            now,
            language=rng.choice([None, "zh"]),
            weekly=rng.random() > 0.1,
        )
        for i in range(args.subs)
    ]
    timings = []
    for _ in range(5):
        started = time.perf_counter()
        jobs = weekly_jobs(config, subs)
        timings.append(time.perf_counter() - started)
    print(f"{args.subs:,} subscriptions → {len(jobs):,} weekly digest jobs")
    print(f"weekly_jobs: {min(timings) * 1000:.1f} ms (best of 5)")


if __name__ == "__main__":
    main()
