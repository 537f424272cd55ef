"""Search qualifiers and window splitting: the arithmetic behind exact windows."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.errors import GitHubError
from bot.github.queries import merged_range
from bot.github.source import SEARCH_CAP, fingerprint, split_window
from tests.fakes.github import _date_filter

START = datetime(2026, 6, 1, tzinfo=UTC)
END = datetime(2026, 6, 8, tzinfo=UTC)


def test_merged_range_is_half_open_in_whole_seconds():
    assert merged_range(START, END) == "merged:2026-06-01T00:00:00Z..2026-06-07T23:59:59Z"
    keep = _date_filter(merged_range(START, END).removeprefix("merged:"))
    assert keep(START) and keep(END - timedelta(seconds=1))
    assert not keep(END) and not keep(START - timedelta(seconds=1))


def test_split_prefers_days_and_covers_the_window_exactly():
    parts = split_window(START, END, 1500)
    assert len(parts) == 2
    assert parts[0][0] == START and parts[-1][1] == END
    assert all(a[1] == b[0] for a, b in itertools.pairwise(parts))
    assert all((b - a) % timedelta(days=1) == timedelta(0) for a, b in parts)


def test_split_goes_to_hours_when_days_are_too_few():
    parts = split_window(START, END, 10_000)
    assert len(parts) == 13  # 10,000 / 800, hour-aligned
    assert all((b - a) % timedelta(hours=1) == timedelta(0) for a, b in parts)
    day = split_window(START, START + timedelta(days=1), 1200)
    assert [b - a for a, b in day] == [timedelta(hours=12)] * 2


def test_split_refuses_a_single_second():
    with pytest.raises(GitHubError, match="within one second"):
        split_window(START, START + timedelta(seconds=1), SEARCH_CAP + 1)


def test_fingerprint_normalises_times():
    assert fingerprint(3, "2026-06-01T10:00:00Z") == fingerprint(
        3, datetime(2026, 6, 1, 10, tzinfo=UTC)
    )
    assert fingerprint(0, None) == "0|-"
