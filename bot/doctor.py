"""`vllm-bot doctor`: check config, tokens, channels, database and GitHub; say how to fix.

Every check runs even when an earlier one failed, so one run lists everything to fix.
All calls are read-only (GraphQL `viewer`, and each platform's: auth.test,
conversations.info, GET /users/@me, GET /channels/{id}, …); the database check writes a
row inside a transaction it rolls back.
"""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from rich.console import Console

from bot import probes
from bot.app import chat_platforms
from bot.core.cron import parse_cron
from bot.core.errors import ConfigError
from bot.core.validators import chat_channel_problem
from bot.probes import Probe
from bot.runtime.scheduler import fire_times
from bot.serve import missing_tokens
from bot.store.store import store_location

if TYPE_CHECKING:
    from bot.app import App
    from bot.core.config import Config, DigestTarget

OK, FAIL, WARN = "✓", "✗", "!"


def _config_checks(services: App) -> list[Probe]:
    config = services.config
    results = [
        Probe(
            "config",
            True,
            f"{len(config.repos)} repo(s), {len(config.digest.targets)} digest target(s)",
        )
    ]
    try:
        zoneinfo.ZoneInfo(config.timezone)
        now = datetime.now(UTC).astimezone(config.tz)
        results.append(Probe("timezone", True, f"{config.timezone} (now {now:%Y-%m-%d %H:%M %Z})"))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        results.append(
            Probe(
                "timezone",
                False,
                f"unknown timezone {config.timezone!r}",
                "use an IANA name such as 'UTC' or 'Europe/Berlin'; on slim images install tzdata",
            )
        )
    for index, target in enumerate(config.digest.targets):
        name = f"target {target.platform}:{target.channel} schedule"
        try:
            trigger = parse_cron(target.cron, config.tz)
        except ConfigError as exc:
            results.append(
                Probe(name, False, str(exc), f"fix digest.targets.{index}.cron, e.g. '0 9 * * MON'")
            )
            continue
        start = datetime.now(UTC)
        upcoming = next(fire_times(trigger, start, start + timedelta(days=800)), None)
        when = f"next run {upcoming:%Y-%m-%d %H:%M %Z}" if upcoming else "never fires"
        results.append(
            Probe(
                name,
                upcoming is not None,
                f"'{target.cron}': {when}",
                "" if upcoming else "the expression matches no date",
            )
        )
    results.extend(_channel_checks(services))
    for problem in missing_tokens(_without_unset_webhooks(config), services.env):
        results.append(
            Probe(
                "tokens",
                False,
                problem.split(";")[0],
                problem.split(";", 1)[1].strip() if ";" in problem else "",
            )
        )
    return results


def _channel_checks(services: App) -> list[Probe]:
    """Every configured channel, checked as `digest --post` checks it, so that doctor never
    passes a channel the bot then refuses (`channel = "general"` for Discord)."""
    config = services.config
    channels = [
        (f"digest.targets.{i}.channel", t.platform, t.channel)
        for i, t in enumerate(config.digest.targets)
        if not t.webhook_url_env  # a webhook target is named freely: its URL says where
    ] + [
        (f"alerts.channels.{i}.channel", c.platform, c.channel)
        for i, c in enumerate(config.alerts.channels)
    ]
    results: list[Probe] = []
    for key, platform, channel in channels:
        problem = chat_channel_problem(platform, channel)
        if problem is not None:
            results.append(
                Probe(f"{platform}:{channel}", False, problem, f"fix {key} in your config")
            )
    return results


def _without_unset_webhooks(config: Config) -> Config:
    """`config` minus webhook targets whose variable is unset: `missing_tokens` would raise
    for them, and they need no token anyway (their own webhook check reports them)."""

    def resolvable(target: DigestTarget) -> bool:
        try:
            _ = target.webhook_url  # raises ConfigError when its variable is unset
        except ConfigError:
            return False
        return True

    targets = [t for t in config.digest.targets if resolvable(t)]
    if len(targets) == len(config.digest.targets):
        return config
    digest = config.digest.model_copy(update={"targets": targets})
    return config.model_copy(update={"digest": digest})


async def _platform_checks(services: App) -> list[Probe]:
    results: list[Probe] = []
    for platform in chat_platforms():
        results += await platform.checks(services.config, services.env)
    if not results:
        results.append(
            Probe("platforms", True, "none configured: webhooks and CLI only", warning=True)
        )
    return results


async def collect(services: App) -> list[Probe]:
    results = _config_checks(services)
    results.append(Probe("store", True, store_location(services.store.engine.url)))
    results.append(await probes.store_writable(services.store))
    results.append(await probes.github_viewer(services.env))
    results.extend(await _platform_checks(services))
    return _each_problem_once(results)


_UNSET = re.compile(r"\b([A-Z][A-Z0-9_]{3,})(?: \([^)]*\))? is not set")


def _each_problem_once(results: list[Probe]) -> list[Probe]:
    """Drop a failed check whose only problem an earlier one already named (the token
    check and the platform probe both find SLACK_APP_TOKEN unset: one line, not two)."""
    named: set[str] = set()
    kept: list[Probe] = []
    for probe in results:
        unset = set(_UNSET.findall(probe.detail)) if not probe.ok else set()
        if unset and unset <= named:
            continue
        named |= unset
        kept.append(probe)
    return kept


def print_report(results: list[Probe], console: Console) -> int:
    for probe in results:
        mark = FAIL if not probe.ok else WARN if probe.warning else OK
        console.print(f"{mark} {probe.name}: {probe.detail}", markup=False, highlight=False)
        if probe.fix and (not probe.ok or probe.warning):
            console.print(f"    fix: {probe.fix}", markup=False, highlight=False)
    failed = sum(1 for p in results if not p.ok)
    if failed:
        console.print(f"{failed} check(s) failed", markup=False)
        return 1
    console.print("all checks passed", markup=False)
    return 0


async def run_doctor(services: App, console: Console) -> int:
    """Print each check with ✓/✗ (and ! for warnings) and how to fix it; 1 if any failed."""
    return print_report(await collect(services), console)
