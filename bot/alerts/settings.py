"""Alert settings: `AlertSettings`, the `[alerts]` keys (`AlertsConfig`, bot/core/settings.py)
plus the top-level timezone and language the alert pipeline, poller and subscription
service read.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Literal

from bot.core.settings import AlertChannel, AlertsConfig, parse_quiet_hours

if TYPE_CHECKING:
    from bot.core.config import Config

__all__ = ["AlertChannel", "AlertSettings", "AlertsConfig", "parse_quiet_hours"]


class AlertSettings(AlertsConfig):
    """`[alerts]` plus what the alerts read from the top level of the config."""

    timezone: str = "UTC"
    language: Literal["en", "zh"] = "en"

    @classmethod
    def from_config(cls, config: Config) -> AlertSettings:
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
