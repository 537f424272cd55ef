from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.errors import UsageError
from bot.core.weeks import iso_week, parse_week, parse_window

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_iso_week_is_monday_to_monday_in_timezone() -> None:
    tz = ZoneInfo("Asia/Shanghai")
    window = parse_week("2026-W23", tz, NOW)
    assert window.start == datetime(2026, 6, 1, tzinfo=tz)
    assert window.end == datetime(2026, 6, 8, tzinfo=tz)
    assert window.start_utc == datetime(2026, 5, 31, 16, tzinfo=UTC)
    assert window.label == "2026-W23"


def test_this_and_last_follow_the_configured_timezone() -> None:
    # Sunday 23:30 UTC is already Monday (next ISO week) in Shanghai.
    now = datetime(2026, 6, 7, 23, 30, tzinfo=UTC)
    assert parse_week("this", ZoneInfo("UTC"), now).label == "2026-W23"
    assert parse_week("this", ZoneInfo("Asia/Shanghai"), now).label == "2026-W24"
    assert parse_week("last", ZoneInfo("Asia/Shanghai"), now).label == "2026-W23"


@pytest.mark.parametrize("spec", ["2026-W60", "W23", "2026-23", "next", ""])
def test_bad_weeks_are_usage_errors(spec: str) -> None:
    with pytest.raises(UsageError, match="ISO week"):
        parse_week(spec, ZoneInfo("UTC"), NOW)


def test_future_week_is_a_clear_error() -> None:
    with pytest.raises(UsageError, match="in the future"):
        parse_week("2027-W02", ZoneInfo("UTC"), NOW)


def test_previous_week_across_a_year_boundary() -> None:
    window = iso_week(2026, 1, ZoneInfo("UTC"))
    assert window.previous().label == "2025-W52"


def test_previous_week_across_dst_keeps_local_midnights() -> None:
    tz = ZoneInfo("Europe/Berlin")
    window = iso_week(2026, 14, tz)  # the week after the March DST change
    previous = window.previous()
    assert previous.start.hour == 0 and previous.end == window.start
    assert previous.end - previous.start == timedelta(days=7)


def test_since_until_window() -> None:
    window = parse_window(None, "2026-06-01", "2026-06-03", ZoneInfo("UTC"), NOW)
    assert window.end - window.start == timedelta(days=2)
    with pytest.raises(UsageError, match="go together"):
        parse_window(None, "2026-06-01", None, ZoneInfo("UTC"), NOW)
    with pytest.raises(UsageError, match="must be after"):
        parse_window(None, "2026-06-03", "2026-06-01", ZoneInfo("UTC"), NOW)
    with pytest.raises(UsageError, match="not both"):
        parse_window("last", "2026-06-01", "2026-06-03", ZoneInfo("UTC"), NOW)
    with pytest.raises(UsageError, match="bad --since"):
        parse_window(None, "June 1", "2026-06-03", ZoneInfo("UTC"), NOW)


@given(st.integers(2000, 2030), st.integers(1, 52))
def test_weeks_tile_time_without_gaps(year: int, week: int) -> None:
    window = iso_week(year, week, ZoneInfo("UTC"))
    assert window.previous().end == window.start
    assert window.end - window.start == timedelta(days=7)
    assert window.start.isocalendar().week == week
