"""The one home of the `[alerts]`, `[logging]` and `[serve]` settings: the sections as the
config file writes them, and the settings the alerts and `serve` read from a config.

They live in the core so bot/core/config.py can hold them without importing the alerts or
the runtime packages (which import the config): the config sits below both.
"""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime, time, timedelta
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot.core.validators import ChatPlatform

_QUIET = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def parse_quiet_hours(text: str) -> tuple[time, time]:
    """`"22:00-08:00"` → (22:00, 08:00); a range may wrap past midnight."""
    match = _QUIET.match(text)
    if match is None:
        raise ValueError(f'quiet_hours {text!r}: expected HH:MM-HH:MM, e.g. "22:00-08:00"')
    h1, m1, h2, m2 = (int(g) for g in match.groups())
    if not (h1 < 24 and h2 < 24 and m1 < 60 and m2 < 60):
        raise ValueError(f"quiet_hours {text!r}: hours run 00-23 and minutes 00-59")
    start, end = time(h1, m1), time(h2, m2)
    if start == end:
        raise ValueError(f"quiet_hours {text!r}: start and end are equal; leave the key out")
    return start, end


class AlertChannel(_Strict):
    """`[[alerts.channels]]`: per-channel alert options (all optional but the address)."""

    platform: ChatPlatform
    channel: Annotated[str, Field(min_length=1)]
    quiet_hours: str | None = None  # "22:00-08:00" in `timezone` (default: the global one)
    timezone: str | None = None
    language: Literal["en", "zh"] | None = None
    # Who may change this channel's subscriptions; None: `alerts.admins` applies.
    admins: list[str] | None = None

    @field_validator("quiet_hours")
    @classmethod
    def _quiet(cls, value: str | None) -> str | None:
        if value is not None:
            parse_quiet_hours(value)
        return value

    @field_validator("timezone")
    @classmethod
    def _tz(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                zoneinfo.ZoneInfo(value)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                raise ValueError(f"unknown timezone {value!r}; use an IANA name") from None
        return value

    def quiet_until(self, now: datetime, default_tz: str) -> datetime | None:
        """When the quiet period containing `now` ends, or None when `now` is not quiet."""
        if self.quiet_hours is None:
            return None
        start, end = parse_quiet_hours(self.quiet_hours)
        tz = zoneinfo.ZoneInfo(self.timezone or default_tz)
        local = now.astimezone(tz)
        t = local.time().replace(tzinfo=None)
        if start < end:
            quiet = start <= t < end
            end_day = local.date()
        else:  # wraps midnight: 22:00-08:00
            quiet = t >= start or t < end
            end_day = local.date() + timedelta(days=1) if t >= start else local.date()
        if not quiet:
            return None
        # Built from wall-clock fields so DST changes land on the configured local time.
        return datetime.combine(end_day, end, tzinfo=tz).astimezone(now.tzinfo)


class AlertsConfig(_Strict):
    """The `[alerts]` section of the config file."""

    poll_minutes: Annotated[float, Field(gt=0)] = 10
    batch_after: Annotated[int, Field(ge=1)] = 5
    # Who may change subscriptions; empty: anyone in the channel.
    admins: list[str] = []
    # Poll windows start this long before the last seen time: GitHub's search index lags
    # behind merges, and the overlap re-reads PRs that showed up late (duplicates are free).
    overlap_minutes: Annotated[float, Field(ge=0)] = 15
    # Webhook alerts wait this long so a burst of merges becomes one batched message.
    batch_window_seconds: Annotated[float, Field(ge=0)] = 60
    # PRs merged longer ago are not alerted (catch-up after downtime, late redeliveries).
    max_age_hours: Annotated[float, Field(gt=0)] = 24
    channels: list[AlertChannel] = []


class AlertSettings(AlertsConfig):
    """`[alerts]` plus what the alerts read from the top level of the config."""

    timezone: str = "UTC"
    language: Literal["en", "zh"] = "en"

    @classmethod
    def from_config(cls, config: object) -> AlertSettings:
        # `object`: a Config (which imports this module) or a test's partial stand-in.
        alerts = getattr(config, "alerts", None) or AlertsConfig()
        return cls(
            **alerts.model_dump(exclude={"channels"}),
            channels=alerts.channels,
            timezone=getattr(config, "timezone", "UTC"),
            language=getattr(config, "language", "en"),
        )

    def channel(self, platform: str, channel: str) -> AlertChannel | None:
        for entry in self.channels:
            if entry.platform == platform and entry.channel == channel:
                return entry
        return None

    def admins_for(self, platform: str, channel: str) -> list[str]:
        entry = self.channel(platform, channel)
        if entry is not None and entry.admins is not None:
            return entry.admins
        return self.admins

    def quiet_until(self, platform: str, channel: str, now: datetime) -> datetime | None:
        entry = self.channel(platform, channel)
        return entry.quiet_until(now, self.timezone) if entry else None

    def channel_language(self, platform: str, channel: str) -> str | None:
        entry = self.channel(platform, channel)
        return entry.language if entry else None


class LoggingConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["text", "json"] = "text"
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"


class ServeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sync_minutes: Annotated[float, Field(ge=0)] = 60  # 0: no periodic sync
    shutdown_grace_seconds: Annotated[float, Field(gt=0, le=600)] = 30
    leader_retry_seconds: Annotated[float, Field(gt=0)] = 15
    readiness_cache_seconds: Annotated[float, Field(ge=0)] = 15


M = TypeVar("M", bound=BaseModel)


def _section(config: object, name: str, model: type[M]) -> M:
    # Tests hand in partial configs (a namespace or dicts) as well as a Config.
    value = getattr(config, name, None)
    if isinstance(value, model):
        return value
    if isinstance(value, dict):
        return model.model_validate(value)
    return model()


def logging_settings(config: object) -> LoggingConfig:
    return _section(config, "logging", LoggingConfig)


def serve_settings(config: object) -> ServeConfig:
    return _section(config, "serve", ServeConfig)
