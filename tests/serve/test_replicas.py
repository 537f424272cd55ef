"""Several instances on one PostgreSQL database: migrations started together, and two
real `serve` processes sharing the scheduler, the commands and the alerts."""

from __future__ import annotations

import asyncio
import re
import sys
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from tests.fakes.databases import postgres_database
from tests.serve.test_e2e_serve import (  # noqa: F401 (fakes: the fixture)
    CONFIG,
    LOOKUP,
    MERGING,
    REPO,
    Fakes,
    fakes,
    github_delivery,
    running_serve,
    slash,
    until,
)

OPEN_STORE = (
    "import asyncio, sys\n"
    "from bot.store import Store\n"
    "async def main():\n"
    "    store = await Store.open(sys.argv[1])\n"
    "    await store.close()\n"
    "asyncio.run(main())\n"
)


async def start_together(url: str, count: int) -> list[tuple[int | None, str]]:
    """`count` processes open the store at `url` at once (replicas starting): each one's
    exit status and the end of its stderr (bench/bench_replicas.py runs it too)."""
    starts = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            OPEN_STORE,
            url,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(count)
    ]
    errors = [(await start.communicate())[1] for start in starts]
    return [(s.returncode, e.decode()[-400:]) for s, e in zip(starts, errors, strict=True)]


async def test_replicas_started_together_on_an_empty_database_all_migrate() -> None:
    async with postgres_database() as url:
        results = await start_together(url, 4)
    assert [code for code, _ in results] == [0, 0, 0, 0], results


LEADS = r"now runs the scheduler"
STANDS_BY = r"another instance runs the scheduler"


async def test_two_serve_processes_on_one_postgresql_database(
    fakes: Fakes,  # noqa: F811
    tmp_path: Path,
) -> None:
    """As operators run it: two replicas started together on an empty database, one
    scheduler, both answering, one alert for a PR whichever replica gets the webhook,
    and the standby taking over when the leader is killed."""
    github, slack, _discord = fakes
    config = CONFIG + "leader_retry_seconds = 1\n"
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    async with postgres_database() as url, AsyncExitStack() as stack:
        replicas = await asyncio.gather(
            *(
                stack.enter_async_context(
                    running_serve(
                        fakes,
                        tmp_path / name,
                        "http",
                        {"DATABASE_URL": url},
                        config_text=config,
                        started=f"{LEADS}|{STANDS_BY}",
                    )
                )
                for name in ("a", "b")
            )
        )
        leaders = [r for r in replicas if re.search(LEADS, r.log)]
        assert len(leaders) == 1, [r.log for r in replicas]
        leader, standby = leaders[0], next(r for r in replicas if r is not leaders[0])
        async with httpx.AsyncClient(timeout=30) as client:
            for replica in replicas:
                card = await slash(client, replica, slack, f"pr {LOOKUP}", "C1")
                assert f"#{LOOKUP}" in card
                metrics = (await client.get(f"{replica.base}/metrics")).text
                flag = 1 if replica is leader else 0
                assert re.search(rf"^vllm_bot_scheduler_leader {flag}(\.0)?$", metrics, re.M)
            await slash(client, standby, slack, "subscribe attention", "C2")
            merged_at = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=1)
            title = next(p.title for p in github.repos[REPO] if p.number == MERGING)
            github.touch(REPO, MERGING, state="MERGED", merged_at=merged_at, closed_at=merged_at)
            # The same merge reaches both replicas (a redelivery, a second hook).
            for replica in replicas:
                body, headers = github_delivery(MERGING, merged_at, title)
                answer = await client.post(
                    f"{replica.base}/github/webhook", content=body, headers=headers
                )
                assert answer.status_code == 202, answer.text
            await until("the alert in C2", lambda: slack.channel_messages("C2"), standby)
            leader.process.kill()
            await leader.process.wait()
            await standby.wait_log(LEADS, within=30)
            # Both flush loops have run many times by now: still one alert.
            await asyncio.sleep(6)
        assert len(slack.channel_messages("C2")) == 1
        assert "Traceback" not in standby.log, standby.log
