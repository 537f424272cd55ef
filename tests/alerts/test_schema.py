"""Migration 0002 matches the tables, and settings validate as documented."""

from __future__ import annotations

from datetime import datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from pydantic import ValidationError

import bot.alerts.tables  # noqa: F401  (registers the alert tables on the metadata)
from bot.core.config import load_config
from bot.core.settings import AlertSettings
from bot.store.tables import metadata

from .conftest import Env

ALERT_TABLES = {"subscriptions", "alerts_sent", "webhook_deliveries", "alert_state", "held_alerts"}


async def test_migration_matches_the_tables(env: Env) -> None:
    def diff(connection) -> list:
        context = MigrationContext.configure(connection)
        return compare_metadata(context, metadata)

    async with env.store.engine.connect() as connection:
        changes = await connection.run_sync(diff)
    mine = [c for c in changes if ALERT_TABLES & set(_tables(c))]
    assert mine == []


def _tables(change) -> list[str]:
    names = []
    for part in change if isinstance(change, list) else [change]:
        for item in part if isinstance(part, tuple) else [part]:
            name = getattr(item, "name", None) or getattr(
                getattr(item, "table", None), "name", None
            )
            if isinstance(item, str):
                names.append(item)
            elif name:
                names.append(name)
    return names


def test_settings_read_the_current_config_and_default_the_rest() -> None:
    config = load_config()
    settings = AlertSettings.from_config(config)
    assert settings.poll_minutes == config.alerts.poll_minutes
    assert settings.batch_after == config.alerts.batch_after
    assert settings.channels == [] and settings.batch_window_seconds == 60


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("22-08", "expected HH:MM-HH:MM"),
        ("25:00-08:00", "hours run 00-23"),
        ("08:00-08:00", "start and end are equal"),
    ],
)
def test_bad_quiet_hours_are_explained(value: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        AlertSettings.model_validate(
            {"channels": [{"platform": "slack", "channel": "C1", "quiet_hours": value}]}
        )


def test_quiet_hours_across_a_dst_change_end_at_local_wall_time() -> None:
    settings = AlertSettings.model_validate(
        {
            "timezone": "Europe/Berlin",
            "channels": [{"platform": "slack", "channel": "C1", "quiet_hours": "22:00-08:00"}],
        }
    )
    from zoneinfo import ZoneInfo

    berlin = ZoneInfo("Europe/Berlin")
    # The night clocks go forward (2026-03-29): quiet still ends at 08:00 local time.
    night = datetime(2026, 3, 28, 23, 0, tzinfo=berlin)
    end = settings.quiet_until("slack", "C1", night)
    assert end is not None and end.astimezone(berlin) == datetime(2026, 3, 29, 8, 0, tzinfo=berlin)
