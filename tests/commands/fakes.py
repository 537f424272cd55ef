"""Contexts for the command, Slack, Discord and serve tests, over the real backend
(tests/fakes/backend.py), and a digest-sized document for the posters' tests."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import create_async_engine

from bot.app import App
from bot.commands import Context
from bot.commands.context import Backend
from bot.core.config import Config, Environment, RepoConfig
from bot.core.document import BulletList, Document, Link, Paragraph, Section, Strong, Text
from bot.store import Store
from tests.fakes.backend import NOW, REPO, Bench, make_pr

__all__ = ["NOW", "REPO", "bench_context", "config", "context", "digest_document", "make_pr"]


def digest_document(label: str, sections: int = 6, language: str = "en") -> Document:
    """A digest-sized document: each section big enough to need its own Slack message."""
    body = []
    for i in range(sections):
        items = tuple(
            (
                Link(f"https://github.com/{REPO}/pull/{40000 + i * 100 + j}", f"#{40000 + j}"),
                Text(f" section {i} item {j}: " + "a long explanation of the change " * 8),
            )
            for j in range(30)
        )
        body.append(
            Section(f"s{i}", f"Section {i}", (Paragraph((Strong(f"part {i}"),)), BulletList(items)))
        )
    return Document(
        id=f"digest:{REPO}:{label}:{language}",
        title=f"vLLM weekly digest {label}",
        context=f"{REPO} · {label}",
        sections=tuple(body),
        fallback=f"vLLM weekly digest {label}",
        meta={"repo": REPO, "week": label, "language": language},
    )


def config(*repos: str) -> Config:
    return Config(repos=[RepoConfig(name=r) for r in (repos or (REPO,))])


def context(
    *, platform: str = "slack", channel: str | None = "C1", language: str | None = None
) -> Context:
    """A Context over the real backend with an empty store it never opens and no GitHub:
    for commands answered without stored data (a parse error, a refused week, a
    subscription on a service the caller supplies). Anything else: `bench_context`."""
    env = Environment(github_api_url="http://127.0.0.1:9")  # nothing listens there
    store = Store(create_async_engine("sqlite+aiosqlite://"))
    app = App(config=config(), env=env, store=store)
    return Context(
        platform=platform,
        config=app.config,
        backend=Backend(app),
        channel=channel,
        user="U1",
        language=language,
        now=lambda: NOW,
    )


def bench_context(
    bench: Bench,
    *,
    platform: str = "slack",
    channel: str | None = "C1",
    subscriptions: bool = False,
    repos: tuple[str, ...] = (),
    language: str | None = None,
) -> Context:
    """A command's Context over the real backend of `bench` (its store's subscriptions
    when `subscriptions`), at NOW."""
    return Context(
        platform=platform,
        config=config(*repos),
        backend=bench.backend,
        channel=channel,
        user="U1",
        subscriptions=bench.app.subscriptions if subscriptions else None,
        language=language,
        now=lambda: NOW,
    )
