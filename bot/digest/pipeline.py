"""The digest job end to end: make sure the store holds the window, build, render.

Used by `vllm-bot digest`, the `/vllm digest` command and the scheduler, so all three
produce the same digest for the same week.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.core.document import Document
from bot.core.errors import GitHubError, GitHubUnreachable, english
from bot.core.notices import due_today
from bot.core.weeks import Window, iso_week, utc_spans
from bot.digest.charts import svg_charts
from bot.digest.document import digest_document
from bot.digest.history import chain
from bot.digest.model import Digest
from bot.digest.service import make_digest, narrate
from bot.digest.themes_report import WeekPRTheme, theme_of

if TYPE_CHECKING:
    from bot.github.repo_files import Refresh
    from bot.services import ProgressFactory, Say, Services

log = logging.getLogger(__name__)


@dataclass(slots=True)
class BuiltDigest:
    """A computed (language-neutral) digest and its Document in one language."""

    digest: Digest
    document: Document

    @property
    def language(self) -> str:
        """The language the digest was rendered in (its JSON, chart and Document)."""
        return self.document.meta.get("language", "en")


async def ensure_synced(
    services: Services, repo: str, window: Window, progress: ProgressFactory | None = None
) -> GitHubError | None:
    """Sync the window unless the store already covers it. When GitHub fails and the store
    covers the window, the stored copy is used and the error returned (the caller warns
    once for all windows)."""
    try:
        await _sync_one(services, repo, window, progress, f"{repo} {window.label}")
    except GitHubError as exc:
        if await services.store.windows.is_covered(repo, window.start_utc, window.end_utc):
            return exc
        raise
    return None


async def build_for_window(
    services: Services,
    repo: str | None,
    window: Window,
    language: str,
    *,
    sync: bool = True,
    progress: ProgressFactory | None = None,
    warn: Say | None = None,
    modules: Sequence[str] = (),
) -> BuiltDigest:
    """`modules` non-empty: a module digest (only PRs touching those modules)."""
    repo_name = services.config.repo(repo).name
    weeks = services.config.digest.history_weeks
    stale: list[str] = []
    failure: GitHubError | None = None
    if sync:
        async with refreshing_rules(services, [repo_name]):
            for span in (window.previous(), window):
                if isinstance(failure, GitHubUnreachable):
                    # Unreachable a moment ago: asking again only repeats the same warning.
                    if not await services.store.windows.is_covered(
                        repo_name, span.start_utc, span.end_utc
                    ):
                        raise failure
                    stale.append(span.label)
                    continue
                error = await ensure_synced(services, repo_name, span, progress)
                if error is not None:
                    failure = error
                    stale.append(span.label)
            if not isinstance(failure, GitHubUnreachable):
                await sync_history(services, repo_name, window, weeks, progress)
    if failure is not None:
        # One warning for every window served from the store, not one per window and sink.
        text = f"{failure}; using the stored copy of {' and '.join(stale)}"
        if warn is not None:
            warn(f"warning: {text}")
        else:
            log.warning("%s: %s", repo_name, text)
    offline = not sync or isinstance(failure, GitHubUnreachable)
    analyzer = await services.analyzer(repo_name, offline=offline)
    # --no-sync means "use the store as it is": no GitHub request at all, so first-time
    # contributors stay unknown (null in JSON) rather than guessed.
    new_contributors = await _new_contributors(services, repo_name, window) if not offline else None
    digest = await make_digest(
        services.store,
        analyzer,
        repo_name,
        window,
        timezone=services.config.timezone,
        key_count=services.config.digest.key_prs,
        new_contributors=new_contributors,
        history_weeks=weeks,
        modules=modules,
        archive_base=services.config.web.archive_url(),
    )
    # The narrative model writes in one language: the digest's text for this rendering.
    digest = await narrate(digest, language)
    held = digest.history_weeks
    if not sync and warn is not None:
        # From the store as it is: say what keeps the window incomplete, in UTC and in the
        # configured timezone's weeks (an export of a UTC week leaves hours of a local one).
        await _say_gaps(services, repo_name, window, warn)
    # Said only when the themes lack history they would use (not on every digest).
    if not sync and warn is not None and held < weeks:
        partial = await _partial_weeks(services, repo_name, window, weeks)
        warn(
            f"themes: {held} of {weeks} earlier weeks in the store used as history"
            + ("" if held else " (themes scored by this window's counts alone)")
            + partial
        )
    return BuiltDigest(digest, digest_document(digest, language))


def _zone(services: Services) -> str:
    tz = services.config.tz
    return "" if str(tz) in ("UTC", "Etc/UTC") else f" (weeks in {tz})"


async def _say_gaps(services: Services, repo: str, window: Window, warn: Say) -> None:
    """One line when an ended window is not complete in the store: the spans it lacks."""
    if window.end_utc > datetime.now(UTC):
        return  # a week still running is incomplete by nature, and the digest says so
    gaps = await services.store.windows.gaps(repo, window.start_utc, window.end_utc)
    whole = (window.start_utc, window.end_utc)
    if not gaps:
        return
    where = f"{window.label}{_zone(services)}, {utc_spans([whole])}"
    if gaps == [whole]:
        warn(
            f"warning: the store holds no complete window of {where}, so the digest says "
            "incomplete; sync it, or import an export of it with --complete"
        )
        return
    warn(
        f"warning: {where}, is complete in the store but for {utc_spans(gaps)}, so the "
        "digest says incomplete; import an export covering that with --complete, or sync it"
    )


async def _partial_weeks(services: Services, repo: str, window: Window, weeks: int) -> str:
    """Why earlier weeks holding PRs are not history: the part of them never imported
    complete (e.g. the hours a UTC week's export leaves of a week of Asia/Shanghai)."""
    partial = []
    for week in chain(window.previous(), weeks):
        gaps = await services.store.windows.gaps(repo, week.start_utc, week.end_utc)
        if gaps and gaps != [(week.start_utc, week.end_utc)]:
            partial.append(f"{week.label} lacks {utc_spans(gaps)}")
    if not partial:
        return ""
    return f"; complete only in part{_zone(services)}: " + "; ".join(partial)


async def _sync_one(
    services: Services, repo: str, window: Window, progress: ProgressFactory | None, label: str
) -> None:
    # Lazy: bot.sync (~90 ms: httpx, the GitHub client) loads only when a window is synced,
    # not for `digest --no-sync` or `explain`.
    from bot.sync import sync_window

    if progress is None:
        await sync_window(services.store, services.github(), repo, window)
        return
    with progress(label) as bar:
        await sync_window(services.store, services.github(), repo, window, progress=bar)


async def refresh_labelling_rules(services: Services, repos: Sequence[str]) -> list[Refresh]:
    """Refresh the stored labelling rules of each `modules = "auto"` repository of `repos`
    when they are a day old (`bot.github.repo_files.refresh_repo_snapshot`: not again for an
    hour after a failure). New rules drop the process's analyzer of that repository; a
    failure is a warning, once a day."""
    # Lazy: the GitHub path (~20 ms) only when something syncs.
    from bot.github.repo_files import refresh_repo_snapshot

    done = []
    for repo in dict.fromkeys(repos):
        if services.config.repo(repo).modules != "auto":
            continue
        refresh = await refresh_repo_snapshot(services.github, repo, services.store)
        if refresh.changed:
            services.rules_changed(repo)
        if refresh.state == "failed" and due_today(f"auto-rules-refresh:{repo}"):
            log.warning(
                "%s (said once a day)",
                english("notice.auto_rules.refresh_failed", repo=repo, reason=refresh.reason),
            )
        done.append(refresh)
    return done


@asynccontextmanager
async def refreshing_rules(services: Services, repos: Sequence[str]) -> AsyncIterator[None]:
    """`refresh_labelling_rules` in the background of the block (a sync), finished when the
    block is: a command never waits for the rules alone."""
    task = asyncio.create_task(refresh_labelling_rules(services, repos))
    try:
        yield
    except BaseException:
        task.cancel()
        with suppress(asyncio.CancelledError, Exception):
            await task
        raise
    await task


async def sync_history(
    services: Services,
    repo: str,
    window: Window,
    weeks: int,
    progress: ProgressFactory | None = None,
) -> int:
    """Bring the `weeks` windows before `window` into the store. A week already complete in
    the store costs no request (history does not change once a week is over, so it is not
    re-confirmed); a missing one is synced once. Returns the number of weeks synced.
    A week that cannot be synced is left out of the baseline with a warning."""
    missing = [
        span
        for span in chain(window, weeks + 1)[:-1]
        if not await services.store.windows.is_covered(repo, span.start_utc, span.end_utc)
    ]
    if not missing:
        return 0
    synced = 0
    for span in missing:
        try:
            await _sync_one(services, repo, span, progress, f"{repo} {span.label} (history)")
            synced += 1
        except GitHubError as exc:
            log.warning("history week %s of %s not synced: %s", span.label, repo, exc)
    return synced


async def _new_contributors(services: Services, repo: str, window: Window) -> set[str] | None:
    """Authors whose first merged PR is in the window; None when GitHub cannot tell us."""
    # Lazy: bot.sync (~90 ms) loads only when newcomers are looked up (online).
    from bot.sync import first_time_contributors

    prs = await services.store.prs.merged_between(repo, window.start_utc, window.end_utc)
    authors = {pr.author for pr in prs if pr.author}
    if not authors:
        return set()
    try:
        return await first_time_contributors(
            services.store, services.github(), repo, authors, window.start_utc
        )
    except GitHubError as exc:
        log.warning("first-time contributors unknown for %s %s: %s", repo, window.label, exc)
        return None


def _slack(built: BuiltDigest) -> str:
    # Lazy: formatters.slack (~19 ms) loads only for the slack format.
    from formatters.slack import render_slack

    return json.dumps(render_slack(built.document), ensure_ascii=False, indent=2)


def _discord(built: BuiltDigest) -> str:
    # Lazy: formatters.discord (~20 ms) loads only for the discord format.
    from formatters.discord import render_discord

    return json.dumps(render_discord(built.document), ensure_ascii=False, indent=2)


def render_digest(built: BuiltDigest, fmt: str) -> str:
    """`digest --format`: the digest in `fmt`."""
    if fmt == "slack":
        return _slack(built)
    if fmt == "discord":
        return _discord(built)
    if fmt not in ("markdown", "html", "json"):
        raise ValueError(f"unknown digest format {fmt!r}")
    # Lazy: the renderers (~19 ms) stay off `sync` and `explain`, which load this module.
    from bot.digest.render import render_html, render_json, render_markdown

    if fmt == "html":
        return render_html(built.document, svg_charts(built.digest, built.language))
    if fmt == "json":
        return render_json(built.digest, built.language)
    return render_markdown(built.document)


async def theme_of_pr(
    services: Services, repo: str, number: int, merged_at: datetime | None
) -> WeekPRTheme | None:
    """The theme PR `number` belongs to in the week it was merged, from the store (no sync):
    {"id", "name", "why", "week"}; None when it was not merged or is in no theme."""
    if merged_at is None:
        return None
    local = merged_at.astimezone(services.config.tz)
    year, week, _ = local.isocalendar()
    window = iso_week(year, week, services.config.tz)
    built = await build_for_window(services, repo, window, services.config.language, sync=False)
    found = theme_of(built.digest, number, built.language)
    return None if found is None else {**found, "week": window.label}
