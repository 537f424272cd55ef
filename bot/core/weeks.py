"""ISO weeks and date windows in the configured timezone. Windows are half-open [start, end)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo

from bot.core.errors import MessageError
from bot.core.validators import echo

WEEK_PATTERN = re.compile(r"^(\d{4})-?W(\d{1,2})$", re.IGNORECASE)
# The CLI's flags say it in English; the week errors below are catalogue messages
# (`error.week.*`), which chat shows in the channel's language.


@dataclass(frozen=True, slots=True)
class Window:
    start: datetime  # timezone-aware, inclusive
    end: datetime  # exclusive
    label: str  # "2026-W23" or "2026-06-01..2026-06-08"

    @property
    def start_utc(self) -> datetime:
        return self.start.astimezone(UTC)

    @property
    def end_utc(self) -> datetime:
        return self.end.astimezone(UTC)

    def previous(self) -> Window:
        """The window of the same length just before this one (the previous ISO week)."""
        if (week := WEEK_PATTERN.match(self.label)) is not None:
            monday = date.fromisocalendar(int(week[1]), int(week[2]), 1) - timedelta(days=7)
            return iso_week(monday.isocalendar().year, monday.isocalendar().week, self.start.tzinfo)
        length = self.end - self.start
        start = self.start - length
        return Window(start, self.start, f"{start.date()}..{self.start.date()}")


def utc_minute(value: datetime) -> str:
    """`2026-05-24 16:00`: a moment in UTC to the minute (the zone said once, after)."""
    return f"{value.astimezone(UTC):%Y-%m-%d %H:%M}"


def utc_spans(spans: Sequence[tuple[datetime, datetime]]) -> str:
    """Spans as people read them: `2026-05-24 16:00..2026-05-25 00:00 UTC`."""
    return ", ".join(f"{utc_minute(start)}..{utc_minute(end)} UTC" for start, end in spans)


def _midnight(day: date, tz: tzinfo | None) -> datetime:
    return datetime.combine(day, time(0), tzinfo=tz)


def iso_week(year: int, week: int, tz: tzinfo | None) -> Window:
    try:
        monday = date.fromisocalendar(year, week, 1)
    except ValueError:
        # As strings: a year is not a quantity ("2026", not "2,026").
        raise MessageError("error.week.none", week=f"{year}-W{week:02d}") from None
    return Window(
        _midnight(monday, tz), _midnight(monday + timedelta(days=7), tz), f"{year}-W{week:02d}"
    )


def parse_week(spec: str, tz: ZoneInfo, now: datetime | None = None) -> Window:
    now = (now or datetime.now(UTC)).astimezone(tz)
    text = spec.strip().lower()
    if text in ("this", "last"):
        day = now.date() - timedelta(days=7 if text == "last" else 0)
        iso = day.isocalendar()
        return iso_week(iso.year, iso.week, tz)
    match = WEEK_PATTERN.match(text)
    if match is None:
        raise MessageError("error.week.bad", spec=echo(spec))
    window = iso_week(int(match[1]), int(match[2]), tz)
    if window.start > now:
        raise MessageError("error.week.future", week=window.label, start=str(window.start.date()))
    return window


FIRST_YEAR, LAST_YEAR = 2008, 2100


def parse_date(value: str, tz: ZoneInfo, name: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise MessageError("error.week.date", name=name, value=echo(value)) from None
    if not FIRST_YEAR <= parsed.year < LAST_YEAR:
        # Windows step back for history; at the calendar's edge that overflows.
        raise MessageError(
            "error.week.year",
            name=name,
            value=echo(value),
            first=str(FIRST_YEAR),
            last=str(LAST_YEAR - 1),
        )
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=tz)


def parse_window(
    week: str | None,
    since: str | None,
    until: str | None,
    tz: ZoneInfo,
    now: datetime | None = None,
) -> Window:
    """One window from either --week or --since/--until (default: last week)."""
    if week is not None and not week.strip():
        # An empty value (an unset shell variable) must not quietly mean "last week".
        raise MessageError("error.week.empty")
    if week and (since or until):
        raise MessageError("error.week.both")
    for name, value in (("--since", since), ("--until", until)):
        if value is not None and not value.strip():
            raise MessageError("error.week.date_empty", name=name)
    if since or until:
        if not (since and until):
            raise MessageError("error.week.since_until")
        start, end = parse_date(since, tz, "--since"), parse_date(until, tz, "--until")
        if end <= start:
            raise MessageError("error.week.order", until=echo(until), since=echo(since))
        return Window(start, end, f"{start.date()}..{end.date()}")
    return parse_week(week or "last", tz, now)
