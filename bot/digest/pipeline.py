"""The digest job end to end: make sure the store holds the window, build, render.

Used by `vllm-bot digest`, the `/vllm digest` command and the scheduler, so all three
produce the same digest for the same week.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.digest.document import digest_document
from bot.digest.model import Digest
from bot.document import Document
from bot.errors import GitHubError
from bot.weeks import Window

if TYPE_CHECKING:
    from rich.console import Console

    from bot.services import Services

log = logging.getLogger(__name__)


@dataclass(slots=True)
class BuiltDigest:
    digest: Digest
    document: Document


async def ensure_synced(
    services: Services, repo: str, window: Window, console: Console | None = None
) -> None:
    """Sync the window unless the store already covers it; a stale store is used with a warning."""
    from bot.sync import sync_window

    progress = None
    if console is not None:
        from bot.progress import SyncProgress

        progress = SyncProgress(console, f"{repo} {window.label}")
    try:
        if progress is None:
            await sync_window(services.store, services.github(), repo, window)
        else:
            with progress:
                await sync_window(
                    services.store, services.github(), repo, window, progress=progress
                )
    except GitHubError as exc:
        if await services.store.is_covered(repo, window.start_utc, window.end_utc):
            log.warning("using stored data for %s %s: %s", repo, window.label, exc)
            if console is not None:
                console.print(f"warning: {exc}; using the stored copy of {window.label}")
            return
        raise


async def build_for_window(
    services: Services,
    repo: str | None,
    window: Window,
    language: str,
    *,
    sync: bool = True,
    progress_console: Console | None = None,
    modules: Sequence[str] = (),
) -> BuiltDigest:
    """`modules` non-empty: a module digest (only PRs touching those modules)."""
    from bot.digest.archive import week_url
    from bot.digest.service import make_digest

    repo_name = services.config.repo(repo).name
    if sync:
        for span in (window.previous(), window):
            await ensure_synced(services, repo_name, span, progress_console)
    analyzer = await services.analyzer(repo_name, offline=not sync)
    # --no-sync means "use the store as it is": no GitHub request at all, so first-time
    # contributors stay unknown (null in JSON) rather than guessed.
    new_contributors = await _new_contributors(services, repo_name, window) if sync else None
    digest = await make_digest(
        services.store,
        analyzer,
        repo_name,
        window,
        language,
        timezone=services.config.timezone,
        key_count=services.config.digest.key_prs,
        new_contributors=new_contributors,
        history_weeks=services.config.digest.history_weeks,
        modules=modules,
        archive_url=week_url(services.config.web.archive_url(), repo_name, window.label, language),
    )
    return BuiltDigest(digest, digest_document(digest))


async def _new_contributors(services: Services, repo: str, window: Window) -> set[str] | None:
    """Authors whose first merged PR is in the window; None when GitHub cannot tell us."""
    from bot.sync import first_time_contributors

    prs = await services.store.prs_merged_between(repo, window.start_utc, window.end_utc)
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


def render_digest(built: BuiltDigest, fmt: str) -> str:
    from bot.digest.render import render_html, render_json, render_markdown

    if fmt == "markdown":
        return render_markdown(built.document)
    if fmt == "html":
        from bot.digest.charts import svg_charts

        return render_html(built.document, svg_charts(built.digest))
    if fmt == "json":
        return render_json(built.digest)
    if fmt == "slack":
        from formatters.slack import render_slack

        return json.dumps(render_slack(built.document), ensure_ascii=False, indent=2)
    if fmt == "discord":
        from formatters.discord import render_discord

        return json.dumps(render_discord(built.document), ensure_ascii=False, indent=2)
    raise ValueError(f"unknown digest format {fmt!r}")
