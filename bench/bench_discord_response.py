"""Time from a Discord interaction to its first response, for `/vllm pr N`.

    .venv/bin/python bench/bench_discord_response.py [--interactions 100] [--github-latency 0.8]

Everything is real except Discord and GitHub: discord.py's Client and CommandTree (fed the
INTERACTION_CREATE payload the gateway would deliver, through ``parse_interaction_create``),
the command layer, a migrated SQLite store, the shipped vLLM rule set, the real card and
Discord formatter. The fake Discord (tests/fakes/discord.py) records when each interaction
callback arrives; "GitHub" is a fetch that takes `--github-latency` seconds.

The clock starts when the interaction payload is created (the moment the gateway hands it
over) and stops when the fake Discord receives the interaction callback.

cached:   the PR is in the store; the first response is still the deferral, sent before
          the store is read (goal: p95 < 100 ms), and the card replaces it (edit).
uncached: the PR is not in the store: the first response is the deferral (goal: every one
          well inside Discord's 3 s, < 1 s), and the card must then replace it (edit).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.latency import percentile, slow_github_app
from bot.commands import Context
from bot.commands.context import Backend
from bot.core.config import Config, RepoConfig
from bot.discord.app import CommandHandler, VllmDiscordBot
from bot.discord.endpoints import DiscordEndpoints, override_endpoints
from bot.store import Store
from formatters.discord import render_discord
from tests.commands.fakes import NOW, REPO, make_pr
from tests.fakes.discord import FakeDiscord

EDIT = "PATCH /webhooks/{webhook_id}/{token}/messages/{message_id}"
FOLLOWUP = "POST /webhooks/{webhook_id}/{token}"


async def run(interactions: int, latency: float) -> bool:
    config = Config(repos=[RepoConfig(name=REPO)])
    cached_numbers = list(range(1, interactions + 1))
    uncached_numbers = [100_000 + n for n in range(interactions)]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}")
        await store.prs.upsert([make_pr(n) for n in cached_numbers])
        async with (
            slow_github_app(store, latency, map(make_pr, uncached_numbers)) as app,
            FakeDiscord() as fake,
        ):
            backend = Backend(app)
            # The rule set loads before timing, as in a running bot; the card's size says how
            # many follow-ups each answer takes.
            bodies = len(render_discord(await backend.local_card(REPO, 1, "en")))

            def context(channel: str | None, user: str | None) -> Context:
                return Context(
                    platform="discord",
                    config=config,
                    backend=backend,
                    channel=channel,
                    user=user,
                    now=lambda: NOW,
                )

            endpoints = DiscordEndpoints(fake.api_url, None)
            with override_endpoints(endpoints):
                handler = CommandHandler(
                    config=config, context_factory=context, store=store.deliveries
                )
                client = VllmDiscordBot(handler=handler, endpoints=endpoints, sync_commands=False)
                await client.login(fake.token)
                channel = fake.add_channel().id
                try:
                    cached = await measure(fake, client, channel, cached_numbers)
                    uncached = await measure(fake, client, channel, uncached_numbers)
                    # Each card is one response plus follow-ups for its other bodies, in
                    # both cases; wait for all of them before closing the client.
                    extra = (bodies - 1) * 2 * interactions
                    await fake.wait_for(
                        lambda: (
                            len(fake.requests_to(EDIT)) >= interactions
                            and len(fake.requests_to(FOLLOWUP)) >= extra
                        ),
                        within=latency + 30,
                    )
                    edits = fake.requests_to(EDIT)
                finally:
                    await client.close()
        await store.close()

    types = {c.type for c in fake.callbacks}
    ms = 1000
    print(f"/vllm pr N on Discord, {interactions} interactions per case, one at a time")
    print(f"(GitHub latency {latency:.2f} s; first response = interaction callback received)")
    print("| case | first response | p50 ms | p95 ms | max ms | goal |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, kind, values, goal in (
        ("cached", "deferral (type 5)", cached, "p95 < 100 ms"),
        ("uncached", "deferral (type 5)", uncached, "max < 1 s (Discord: 3 s)"),
    ):
        print(
            f"| {name} | {kind} | {percentile(values, 50) * ms:.1f} | "
            f"{percentile(values, 95) * ms:.1f} | {max(values) * ms:.1f} | {goal} |"
        )
    edited = [e for e in edits if e.status == 200]
    print(f"cards edited into the original response: {len(edited)}/{2 * interactions}")
    print(
        f"callback types seen: {sorted(types)}; mean cached {statistics.mean(cached) * ms:.1f} ms"
    )
    ok = (
        percentile(cached, 95) < 0.1
        and max(uncached) < 1.0
        and len(edited) == 2 * interactions
        and not fake.violations
    )
    print("goals met" if ok else "GOALS MISSED")
    return ok


async def measure(
    fake: FakeDiscord, client: VllmDiscordBot, channel: int, numbers: list[int]
) -> list[float]:
    latencies = []
    for number in numbers:
        payload = fake.slash_interaction(
            "pr",
            [{"name": "number", "type": 4, "value": number}],
            channel_id=channel,
            user_id=100_000 + number,  # one user each: a user's share of the queue is 5
        )
        # What the gateway does with an INTERACTION_CREATE event.
        client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        interaction_id = int(payload["id"])

        def answered(i: int = interaction_id) -> bool:
            return bool(fake.callbacks_for(i))

        await fake.wait_for(answered)
        created = fake.interactions[interaction_id].created_at
        latencies.append(fake.callbacks_for(interaction_id)[0].received_at - created)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interactions", type=int, default=100)
    parser.add_argument("--github-latency", type=float, default=0.8)
    args = parser.parse_args()
    started = time.monotonic()
    ok = asyncio.run(run(args.interactions, args.github_latency))
    print(f"wall time {time.monotonic() - started:.1f} s")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
