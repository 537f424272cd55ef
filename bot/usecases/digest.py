"""Build a digest for a scope and a window: one repository, some modules of one
repository, or an organisation / several repositories; online or from the store alone.

Called by `vllm-bot digest` and `vllm-bot themes` (bot.cli), `/vllm digest` (bot.commands
handlers) and the scheduler's digest jobs (bot.runtime.scheduler), so the same scope and
window give the same digest on every surface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.analysis.catalogue import ModuleCatalogue
from bot.core.config import DigestTarget
from bot.core.errors import MessageError
from bot.core.weeks import Window
from bot.services import ProgressFactory, Say, Services

if TYPE_CHECKING:
    from bot.digest.pipeline import BuiltDigest


@dataclass(frozen=True, slots=True)
class DigestScope:
    """What a digest covers. `repo`: one repository (None: the first configured);
    `modules`: module words (ids, or names in either language) narrowing it to those
    modules' PRs; `target`: several repositories or an organisation instead; `org`: the
    configured organisation target (`/vllm digest org`); `ids`: `modules` are module ids
    already (the scheduler resolves its targets' when it reads the config)."""

    repo: str | None = None
    modules: Sequence[str] = ()
    target: DigestTarget | None = None
    org: bool = False
    ids: bool = False


async def module_ids(
    services: Services, repo: str | None, words: Sequence[str], language: str = "en"
) -> list[str]:
    """`words` as module ids of `repo`'s rule set; raises UnknownModule (a UsageError,
    the same for every surface) for a word that names no module. Local: an "auto" rule
    set comes from its cached labelling rules or the stored file paths."""
    if not words:
        return []
    return (await catalogue(services, [repo])).words(words, language)


async def catalogue(services: Services, repos: Sequence[str | None]) -> ModuleCatalogue:
    """The one module catalogue of `repos` (None: the first configured): what `/vllm
    modules` lists, `/vllm subscribe` and `--module` accept, and hints name. Local: an
    "auto" rule set comes from its stored labelling rules and the stored file paths."""
    rulesets = [(await services.analyzer(repo, offline=True)).ruleset for repo in repos]
    return ModuleCatalogue.from_rulesets(rulesets)


def multi_target(services: Services, scope: DigestScope) -> DigestTarget | None:
    """The multi-repository target of `scope`, None for one repository; raises the
    catalogue's "no organisation configured" for `org` without one."""
    if scope.target is not None:
        return scope.target
    if not scope.org:
        return None
    target = services.config.digest.org_target()
    if target is None:
        raise MessageError("error.no_org")
    return target


async def build_digest(
    services: Services,
    scope: DigestScope,
    window: Window,
    language: str,
    *,
    sync: bool = True,
    progress: ProgressFactory | None = None,
    warn: Say | None = None,
) -> BuiltDigest:
    """The digest of `scope` for `window` in `language`; `sync` False: the store as it is
    (no GitHub request)."""
    target = multi_target(services, scope)
    if target is not None:
        if scope.modules and scope.target is not None:
            raise MessageError("error.digest.module_one_repo")
        # Lazy: the organisation digest (~80 ms) loads only for a multi-repository target.
        from bot.digest.org import build_org_for_window

        return await build_org_for_window(
            services, target, window, language, sync=sync, progress=progress, warn=warn
        )
    # Lazy: the digest pipeline (~80 ms) loads only when a digest is built, not for the
    # chat commands that import this module (bot.commands.context).
    from bot.digest.pipeline import build_for_window

    modules = (
        list(scope.modules)
        if scope.ids
        else await module_ids(services, scope.repo, scope.modules, language)
    )
    return await build_for_window(
        services,
        scope.repo,
        window,
        language,
        sync=sync,
        progress=progress,
        warn=warn,
        modules=modules,
    )
