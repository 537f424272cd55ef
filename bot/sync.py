"""Bring the store up to date with GitHub: windows of merged PRs, single PRs, contributors.

Request budget (GraphQL): a cold window costs one request per 100 PRs plus one per extra
page of 100 files (big PRs share those requests); a complete window costs one probe request
to confirm nothing changed, and none at all when it was confirmed within the freshness
period. See docs/github.md.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.github import GitHubClient
from bot.github.graphql_source import GraphQLSource
from bot.github.rest_source import RestSource
from bot.github.source import NullProgress, Source, SyncProgress, fetch_window
from bot.models import PullRequest
from bot.store.store import Store
from bot.weeks import Window

__all__ = [
    "NullProgress",
    "SyncProgress",
    "SyncResult",
    "fetch_pr",
    "first_time_contributors",
    "source_for",
    "sync_window",
]


@dataclass(frozen=True, slots=True)
class SyncResult:
    prs_stored: int  # PRs of the window now in the store
    requests: int  # HTTP requests this sync sent (retries included)
    rate_remaining: int | None
    rate_reset: datetime | None
    seconds: float
    skipped_fresh: bool = False  # confirmed recently: no request at all
    confirmed_unchanged: bool = False  # one probe request confirmed the stored window


def source_for(github: GitHubClient, store: Store | None) -> Source:
    """GraphQL needs a token; without one, REST with conditional requests."""
    if github.uses_graphql:
        return GraphQLSource(github)
    github.notice_unauthenticated()
    return RestSource(github, store)


def _result(github: GitHubClient, before: int, started: float, prs: int, **flags) -> SyncResult:
    reset = github.rate.reset_at
    return SyncResult(
        prs_stored=prs,
        requests=github.requests - before,
        rate_remaining=github.rate.remaining,
        rate_reset=datetime.fromtimestamp(reset, UTC) if reset is not None else None,
        seconds=time.monotonic() - started,
        **flags,
    )


async def sync_window(
    store: Store,
    github: GitHubClient,
    repo: str,
    window: Window,
    *,
    force: bool = False,
    progress: SyncProgress | None = None,
    freshness: timedelta | None = None,
) -> SyncResult:
    """Make the store hold exactly GitHub's merged PRs of `window` for `repo`.

    The window is marked complete only when every search page and every file page arrived;
    when anything fails it is marked incomplete (complete PRs that arrived stay stored) and
    the error propagates.
    """
    progress = progress or NullProgress()
    freshness = timedelta(minutes=github.freshness_minutes) if freshness is None else freshness
    started, before = time.monotonic(), github.requests
    start, end = window.start_utc, window.end_utc
    source = source_for(github, store)

    known = await store.get_window(repo, start, end)
    if known and known.complete and not force:
        checked = known.checked_at or known.synced_at
        if checked and datetime.now(UTC) - checked < freshness:
            progress.on_total(known.pr_count)
            progress.on_prs(known.pr_count)
            return _result(github, before, started, known.pr_count, skipped_fresh=True)
        current = await source.probe(repo, start, end)
        progress.on_page()
        if current == known.fingerprint:
            await store.mark_window(
                repo,
                start,
                end,
                complete=True,
                pr_count=known.pr_count,
                fingerprint=current,
                synced=False,
            )
            progress.on_total(known.pr_count)
            progress.on_prs(known.pr_count)
            return _result(github, before, started, known.pr_count, confirmed_unchanged=True)

    stored = 0

    async def keep(prs: list[PullRequest]) -> None:
        nonlocal stored
        await store.upsert_prs(prs)
        stored += len(prs)

    try:
        fetched = await fetch_window(source, repo, start, end, on_prs=keep, progress=progress)
    except BaseException:
        # Cancellation included: a half-fetched window must never look complete.
        await store.mark_window(repo, start, end, complete=False, pr_count=stored)
        raise
    await store.mark_window(
        repo, start, end, complete=True, pr_count=fetched.count, fingerprint=fetched.fingerprint
    )
    return _result(github, before, started, fetched.count)


async def fetch_pr(
    store: Store,
    github: GitHubClient,
    repo: str,
    number: int,
    *,
    refresh: bool = False,
) -> PullRequest:
    """One PR in any state: from the store when there, else from GitHub (and then stored).

    Raises NotFoundError("PR #N not found in O/R") when GitHub has no such PR.
    """
    if not refresh and (cached := await store.get_pr(repo, number)) is not None:
        return cached
    pr = await source_for(github, store).pull_request(repo, number)
    await store.upsert_prs([pr])
    return pr


async def first_time_contributors(
    store: Store,
    github: GitHubClient,
    repo: str,
    logins: Iterable[str],
    before: datetime,
) -> set[str]:
    """The logins with no PR merged into `repo` before `before`.

    The contributors cache keeps, per login, the time of a merge known to exist (an upper
    bound of their first merge). A cached time earlier than `before` settles "not new"
    without a request; everyone else (in practice the few newcomers) is asked in batched
    searches, 50 logins per GraphQL request.
    """
    wanted = sorted({login for login in logins if login})
    if not wanted:
        return set()
    known = await store.first_merged(repo, wanted)
    regulars = {login for login, at in known.items() if at is not None and at < before}
    ask = [login for login in wanted if login not in regulars]
    if not ask:
        return set()
    answers = await source_for(github, store).merged_before(repo, ask, before)
    updates = {
        login: min(at, known[login]) if known.get(login) else at
        for login, at in answers.items()
        if at is not None
    }
    await store.set_first_merged(repo, updates)
    # A login GitHub could not be asked about (odd characters) is not claimed as new.
    return {login for login in ask if login in answers and answers[login] is None}
