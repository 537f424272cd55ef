"""What the bot knows about itself and a repository's rule set: its modules, and the
versions of the bot, the rule set and the store's schema. Local (no GitHub request).

Called by `/vllm modules` and `/vllm version` (bot.commands handlers); `vllm-bot modules`
shows the rule set's own rules (bot.analysis.report).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.analysis.catalogue import ModuleInfo, module_infos
from bot.services import Services

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class VersionInfo:
    """What `/vllm version` shows; None where it cannot be known (shown as unknown)."""

    bot: str | None
    ruleset: str | None
    schema: str | None


async def modules(services: Services, repo: str | None) -> list[ModuleInfo]:
    """The module catalogue of `repo`'s rule set: an "auto" one from its cached labelling
    rules or the stored file paths, never a GitHub request."""
    analyzer = await services.analyzer(repo, offline=True)
    return module_infos(analyzer.ruleset)


def bot_version() -> str | None:
    # Lazy: importlib.metadata (email, zipfile, csv) stays off `/vllm help`.
    from importlib import metadata

    try:
        return metadata.version("vllm-bot")
    except metadata.PackageNotFoundError:
        return None


async def version(services: Services, repo: str | None) -> VersionInfo:
    """Bot version, rule-set version of `repo` and the store's schema revision."""
    # Lazy: the analysis cache key and the migrations load only for `/vllm version`.
    from bot.analysis.cache import analysis_key
    from bot.store.migrate import schema_revision

    ruleset: str | None = None
    try:
        analyzer = await services.analyzer(repo, offline=True)
        key = analysis_key(analyzer)
        name = analyzer.ruleset.name
        ruleset = f"{name} {key[:10]}" if key else name
    except Exception:
        log.warning("version: rule set of %s unavailable", repo, exc_info=True)
    schema: str | None = None
    try:
        schema = await schema_revision(services.store.engine)
    except Exception:
        log.warning("version: store schema revision unavailable", exc_info=True)
    return VersionInfo(bot=bot_version(), ruleset=ruleset, schema=schema)
