"""Bring the store up to date with GitHub: windows of merged PRs, single PRs, contributors.

Request budget (GraphQL): a cold window costs one request per 100 PRs plus one per extra
page of 100 files (big PRs share those requests); a complete window costs one probe request
to confirm nothing changed, and none at all when it was confirmed within the freshness
period. See docs/github.md.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.core.errors import GitHubError, RateLimitExhausted
from bot.core.messages import Text
from bot.core.models import PullRequest
from bot.core.validators import echo, repo_problem
from bot.core.weeks import Window
from bot.github import GitHubClient
from bot.github.graphql_source import GraphQLSource
from bot.github.queries import scope_qualifiers
from bot.github.rest_source import RestSource
from bot.github.scope_source import ScopeSource
from bot.github.source import NullProgress, Source, SyncProgress, fetch_window, fingerprint
from bot.store.store import Store

log = logging.getLogger(__name__)

__all__ = [
    "NullProgress",
    "ScopeSyncResult",
    "SyncProgress",
    "SyncResult",
    "fetch_pr",
    "first_time_contributors",
    "first_time_contributors_in",
    "org_repos",
    "source_for",
    "sync_scope",
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


def _result(
    github: GitHubClient,
    before: int,
    started: float,
    prs: int,
    *,
    skipped_fresh: bool = False,
    confirmed_unchanged: bool = False,
) -> SyncResult:
    reset = github.rate.reset_at
    return SyncResult(
        prs_stored=prs,
        requests=github.requests - before,
        rate_remaining=github.rate.remaining,
        rate_reset=datetime.fromtimestamp(reset, UTC) if reset is not None else None,
        seconds=time.monotonic() - started,
        skipped_fresh=skipped_fresh,
        confirmed_unchanged=confirmed_unchanged,
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
    if isinstance(source, RestSource):
        source.reuse = not force

    known = await store.windows.get(repo, start, end)
    if known and known.complete and not force:
        checked = known.checked_at or known.synced_at
        if checked and datetime.now(UTC) - checked < freshness:
            progress.on_total(known.pr_count)
            progress.on_prs(known.pr_count)
            return _result(github, before, started, known.pr_count, skipped_fresh=True)
        current = await source.probe(repo, start, end)
        progress.on_page()
        if current == known.fingerprint:
            await store.windows.mark(
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
        await store.prs.upsert(prs)
        stored += len(prs)

    counting = _Total(progress)
    try:
        fetched = await fetch_window(source, repo, start, end, on_prs=keep, progress=counting)
    except RateLimitExhausted as exc:
        await store.windows.mark(repo, start, end, complete=False, pr_count=stored)
        if not isinstance(source, RestSource) or counting.total is None:
            raise
        have = await store.prs.count_merged_between(repo, start, end)
        raise RateLimitExhausted(
            resume_message(github, repo, window, have, counting.total),
            reset_at=exc.reset_at,
        ) from None
    except BaseException:
        # Cancellation included: a half-fetched window must never look complete.
        await store.windows.mark(repo, start, end, complete=False, pr_count=stored)
        raise
    await store.windows.mark(
        repo, start, end, complete=True, pr_count=fetched.count, fingerprint=fetched.fingerprint
    )
    return _result(github, before, started, fetched.count)


class _Total:
    """Passes progress on and remembers GitHub's count of the window."""

    def __init__(self, inner: SyncProgress) -> None:
        self.inner = inner
        self.total: int | None = None

    def on_total(self, prs: int) -> None:
        self.total = prs
        self.inner.on_total(prs)

    def on_page(self) -> None:
        self.inner.on_page()

    def on_prs(self, n: int) -> None:
        self.inner.on_prs(n)

    def on_file_page(self) -> None:
        self.inner.on_file_page()


# Without a token each PR costs `pulls/N` plus `pulls/N/files` (one page for most PRs).
REST_REQUESTS_PER_PR = 2


def resume_message(github: GitHubClient, repo: str, window: Window, have: int, total: int) -> str:
    """One line: what is stored, what is left, and when the window will be complete at
    the anonymous rate (the next X-RateLimit-Reset, then one more hour per full budget)."""
    rate = github.rates.get("core") or github.rate
    limit = rate.limit or 60
    left = max(total - have, 0)
    needed = left * REST_REQUESTS_PER_PR + max(1, math.ceil(total / 100))
    hours = max(1, math.ceil(needed / limit))
    if rate.reset_at is not None:
        done_at = datetime.fromtimestamp(rate.reset_at + (hours - 1) * 3600, UTC).astimezone()
        when = f"around {done_at:%Y-%m-%d %H:%M} local time"
        after = f"after {datetime.fromtimestamp(rate.reset_at, UTC).astimezone():%H:%M}"
    else:
        when, after = f"in about {hours} h", "after the limit resets"
    return (
        f"GitHub's anonymous rate limit stopped the sync: stored {have} of {total} PRs of "
        f"{repo} {window.label}, {left} left (~{needed} requests at {limit}/hour). Run sync "
        f"again {after} to resume; complete {when} (at once with GITHUB_TOKEN)"
    )


@dataclass(frozen=True, slots=True)
class ScopeSyncResult:
    repos: dict[str, int]  # every repository of the scope with its PRs of the window, stored
    searched: list[str]  # repositories fetched now (the others were already complete)
    requests: int
    seconds: float


def org_marker(org: str) -> str:
    """The sync-window key that records "every public repository of `org` was searched"."""
    return f"org:{org}"


async def _settled(store: Store, repo: str, window: Window, freshness: timedelta) -> bool:
    """Complete in the store and not worth asking again: the window was over when it was
    synced (a finished week does not change), or it was confirmed within `freshness`."""
    known = await store.windows.get(repo, window.start_utc, window.end_utc)
    if known is None or not known.complete:
        return False
    checked = known.checked_at or known.synced_at
    if checked is None:
        return False
    return checked >= window.end_utc or datetime.now(UTC) - checked < freshness


def _of_org(repo: str, org: str, skip: set[str]) -> bool:
    return repo.lower().startswith(org.lower() + "/") and repo.lower() not in skip


async def org_repos(
    store: Store, org: str, exclude: Iterable[str], window: Window
) -> dict[str, int]:
    """The organisation's repositories the store holds merged PRs of in `window`, each with
    how many (by name)."""
    skip = {name.lower() for name in exclude}
    counts: dict[str, int] = {}
    for repo in await store.prs.repos():
        if _of_org(repo, org, skip):
            count = await store.prs.count_merged_between(repo, window.start_utc, window.end_utc)
            if count:
                counts[repo] = count
    return counts


async def sync_scope(
    store: Store,
    github: GitHubClient,
    window: Window,
    *,
    repos: Iterable[str] = (),
    org: str | None = None,
    exclude: Iterable[str] = (),
    force: bool = False,
    progress: SyncProgress | None = None,
    freshness: timedelta | None = None,
) -> ScopeSyncResult:
    """Make the store hold `window` for several repositories with ONE search.

    `repos`: those repositories (each one already complete in the store costs nothing).
    `org`: every public repository of the organisation with merged PRs in the window, found
    from the search results themselves; `exclude` leaves some out (`-repo:` qualifiers, as
    are the repositories already complete). Each repository's window is then marked
    complete on its own, with the fingerprint its single-repository probe would compute.
    Without a token (REST) the repositories are synced one by one: REST search results
    carry no file lists, so one search would not save a request.
    """
    progress = progress or NullProgress()
    freshness = timedelta(minutes=github.freshness_minutes) if freshness is None else freshness
    started, before = time.monotonic(), github.requests
    wanted = list(dict.fromkeys(repos))
    excluded = list(dict.fromkeys(exclude))
    if org is None and not wanted:
        raise ValueError("sync_scope needs repositories or an organisation")
    if not github.uses_graphql:
        if org is not None:
            raise GitHubError(Text("error.sync.org_needs_token", {"org": org}))
        counts = {}
        for repo in wanted:
            result = await sync_window(store, github, repo, window, force=force, progress=progress)
            counts[repo] = result.prs_stored
        return ScopeSyncResult(counts, wanted, github.requests - before, time.monotonic() - started)

    start, end = window.start_utc, window.end_utc
    done: list[str] = []
    # Stored counts of the `done` repositories: the search leaves them out, so they stand.
    kept: dict[str, int] = {}
    if org is not None:
        marker = org_marker(org)
        if not force and await _settled(store, marker, window, freshness):
            counts = await org_repos(store, org, excluded, window)
            return ScopeSyncResult(counts, [], 0, time.monotonic() - started)
        if not force:
            known = await org_repos(store, org, excluded, window)
            done = [r for r in known if await _settled(store, r, window, freshness)]
            kept = {r: known[r] for r in done}
        scope = scope_qualifiers(org=org, exclude=[*excluded, *done])
        todo: list[str] = []
    else:
        done = [r for r in wanted if not force and await _settled(store, r, window, freshness)]
        todo = [r for r in wanted if r not in done]
        if not todo:
            counts = {r: await store.prs.count_merged_between(r, start, end) for r in wanted}
            return ScopeSyncResult(counts, [], 0, time.monotonic() - started)
        scope = scope_qualifiers(repos=todo)

    source = ScopeSource(github)
    stored: dict[str, int] = {}

    skipped: set[str] = set()

    async def keep(prs: list[PullRequest]) -> None:
        # A repository name GitHub gave that is not OWNER/NAME (`*bold*`, `a<script>b`):
        # skipped with one warning, so one odd name does not stop the organisation's digest.
        for pr in prs:
            if pr.repo not in skipped and repo_problem(pr.repo) is not None:
                skipped.add(pr.repo)
                log.warning(
                    "skipped repository %s from GitHub's search: expected OWNER/NAME "
                    "of letters, digits, '.', '-' or '_'",
                    echo(pr.repo),
                )
        prs = [pr for pr in prs if pr.repo not in skipped]
        await store.prs.upsert(prs)
        for pr in prs:
            stored[pr.repo] = stored.get(pr.repo, 0) + 1

    try:
        await fetch_window(source, scope, start, end, on_prs=keep, progress=progress)
    except BaseException:
        # Cancellation included: no repository of a half-fetched search looks complete.
        for repo in {*todo, *stored}:
            await store.windows.mark(repo, start, end, complete=False, pr_count=stored.get(repo, 0))
        raise
    if org is not None:
        # The search covered every public repository of the organisation: those the store
        # knows that had no merged PR this window are complete with 0 (a baseline of 0 for
        # "change on last week", not an unknown).
        skip = {name.lower() for name in [*excluded, *done]}
        todo = [repo for repo in await store.prs.repos() if _of_org(repo, org, skip)]
    searched = sorted({*todo, *stored})
    for repo in searched:
        count = stored.get(repo, 0)
        await store.windows.mark(
            repo,
            start,
            end,
            complete=True,
            pr_count=count,
            fingerprint=fingerprint(count, source.newest.get(repo)),
        )
    if org is not None:
        await store.windows.mark(
            org_marker(org), start, end, complete=True, pr_count=sum(stored.values())
        )
        names = sorted(repo for repo in {*stored, *done})
    else:
        names = wanted
    counts = {
        r: kept[r] if r in kept else await store.prs.count_merged_between(r, start, end)
        for r in names
    }
    return ScopeSyncResult(counts, searched, github.requests - before, time.monotonic() - started)


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
    if not refresh and (cached := await store.prs.get(repo, number)) is not None:
        return cached
    pr = await source_for(github, store).pull_request(repo, number)
    await store.prs.upsert([pr])
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
    return (await first_time_contributors_in(store, github, {repo: logins}, before))[repo]


async def first_time_contributors_in(
    store: Store,
    github: GitHubClient,
    logins: Mapping[str, Iterable[str]],
    before: datetime,
) -> dict[str, set[str]]:
    """`first_time_contributors` of several repositories; with GraphQL the questions of
    every repository share the batched requests (50 (repo, login) pairs per request)."""
    asks: dict[str, list[str]] = {}
    known_of: dict[str, dict[str, datetime | None]] = {}
    for repo, names in logins.items():
        wanted = sorted({login for login in names if login})
        known = await store.contributors.first_merged(repo, wanted) if wanted else {}
        regulars = {login for login, at in known.items() if at is not None and at < before}
        asks[repo] = [login for login in wanted if login not in regulars]
        known_of[repo] = known
    pending = {repo: ask for repo, ask in asks.items() if ask}
    answers: dict[str, dict[str, datetime | None]] = {repo: {} for repo in logins}
    if pending:
        source = source_for(github, store)
        if isinstance(source, GraphQLSource):
            pairs = [(repo, login) for repo, ask in pending.items() for login in ask]
            for (repo, login), at in (await source.merged_before_pairs(pairs, before)).items():
                answers[repo][login] = at
        else:
            for repo, ask in pending.items():
                answers[repo] = await source.merged_before(repo, ask, before)
    out: dict[str, set[str]] = {}
    for repo in logins:
        known, found = known_of[repo], answers[repo]
        updates: dict[str, datetime | None] = {
            login: min(at, earlier) if (earlier := known.get(login)) else at
            for login, at in found.items()
            if at is not None
        }
        if updates:
            await store.contributors.set_first_merged(repo, updates)
        # A login GitHub could not be asked about (odd characters) is not claimed as new.
        out[repo] = {login for login in asks[repo] if login in found and found[login] is None}
    return out
