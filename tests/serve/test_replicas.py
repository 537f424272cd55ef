"""Several instances on one database: migrations started together, claims between
processes that report the same hostname and pid."""

from __future__ import annotations

import asyncio
import sys

from tests.fakes.databases import postgres_database

OPEN_STORE = (
    "import asyncio, sys\n"
    "from bot.store import Store\n"
    "async def main():\n"
    "    store = await Store.open(sys.argv[1])\n"
    "    await store.close()\n"
    "asyncio.run(main())\n"
)


async def test_replicas_started_together_on_an_empty_database_all_migrate() -> None:
    async with postgres_database() as url:
        starts = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                OPEN_STORE,
                url,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            for _ in range(4)
        ]
        results = [await start.communicate() for start in starts]
        codes = [start.returncode for start in starts]
        assert codes == [0, 0, 0, 0], [err.decode()[-400:] for _, err in results]
