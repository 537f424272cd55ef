"""Sync a scope and a window into the store: one repository (and the history weeks before
it) or several repositories / an organisation, one search per week.

Called by `vllm-bot sync` (bot.cli, which imports this module only for that command, so
the sync path is imported here at the top); the digest use case syncs through the digest
pipeline, and the scheduler's periodic sync through bot.runtime.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass

from bot.core.config import DigestTarget
from bot.core.weeks import Window
from bot.digest.history import chain
from bot.digest.pipeline import refreshing_rules, sync_history
from bot.services import ProgressFactory, Services
from bot.sync import ScopeSyncResult, SyncResult, sync_scope, sync_window


@dataclass(frozen=True, slots=True)
class RepoSynced:
    repo: str
    window: Window
    result: SyncResult
    history_weeks: int = 0  # weeks before `window` asked for
    history_synced: int = 0  # of those, synced now (the rest were in the store or failed)


@dataclass(frozen=True, slots=True)
class ScopeSynced:
    target: DigestTarget
    window: Window
    result: ScopeSyncResult


async def sync_repo(
    services: Services,
    repo: str | None,
    window: Window,
    *,
    force: bool = False,
    weeks: int = 0,
    progress: ProgressFactory | None = None,
) -> RepoSynced:
    """`window` of `repo` (None: the first configured), then the `weeks` before it."""
    name = services.config.repo(repo).name
    label = f"{name} {window.label}"
    async with refreshing_rules(services, [name]):
        with progress(label) if progress is not None else nullcontext() as bar:
            result = await sync_window(
                services.store, services.github(), name, window, force=force, progress=bar
            )
        done = await sync_history(services, name, window, weeks, progress) if weeks else 0
    return RepoSynced(name, window, result, weeks, done)


async def sync_target(
    services: Services,
    target: DigestTarget,
    window: Window,
    *,
    force: bool = False,
    weeks: int = 0,
    progress: ProgressFactory | None = None,
) -> list[ScopeSynced]:
    """Every repository of `target` for `window` and the `weeks` before it, oldest first."""
    done = []
    async with refreshing_rules(services, target.repos):
        for span in reversed(chain(window, weeks + 1)):
            label = f"{target.scope_label} {span.label}"
            with progress(label) if progress is not None else nullcontext() as bar:
                result = await sync_scope(
                    services.store,
                    services.github(),
                    span,
                    repos=target.repos,
                    org=target.org,
                    exclude=target.exclude,
                    force=force,
                    progress=bar,
                )
            done.append(ScopeSynced(target, span, result))
    return done
