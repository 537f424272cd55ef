"""Shared by the command-latency benches: the real services over a store, with a GitHub that
answers every request `latency` seconds late, and one percentile definition so Slack and
Discord figures compare."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from pydantic import SecretStr

from bot.app import App
from bot.core.config import Environment
from bot.core.models import PullRequest
from bot.store import Store
from tests.fakes.backend import REPO, bench_config, fake_pr
from tests.fakes.github import FakeGitHub, Fault


@asynccontextmanager
async def slow_github_app(
    store: Store, latency: float, on_github: Iterable[PullRequest] = ()
) -> AsyncIterator[App]:
    """The bot's services over `store` and a fake GitHub holding `on_github`, each of whose
    answers takes `latency` seconds (what a PR not in the store waits for). A command's
    backend is `bot.commands.context.Backend(app)`."""
    async with FakeGitHub({REPO: [fake_pr(pr) for pr in on_github]}) as github:
        github.faults.append(Fault(delay=latency, times=math.inf))
        env = Environment(
            github_token=SecretStr(github.token),
            github_api_url=github.api_url,
            github_graphql_url=github.graphql_url,
        )
        app = App(config=bench_config(), env=env, store=store)
        try:
            yield app
        finally:
            if (client := app.github_if_started) is not None:
                await client.aclose()


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least p% of values at or below."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]
