"""Crontab expressions of `[[digest.targets]] cron`, read the way users write them.

Lives below the config so a bad expression is refused when the config is loaded, by
every command, not only by `serve` and `doctor`.
"""

from __future__ import annotations

import re
from datetime import tzinfo
from typing import TYPE_CHECKING

from bot.core.errors import ConfigError
from bot.core.messages import Text

if TYPE_CHECKING:
    from apscheduler.triggers.cron import CronTrigger

__all__ = ["parse_cron"]

# APScheduler 3 numbers weekdays from Monday=0, crontab from Sunday=0 (and 7). Users write
# crontab, so numeric weekdays are rewritten as names, which both read the same way.
_DOW_NAMES = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
_DOW_ITEM = re.compile(r"^(\*|[0-7]|[a-z]{3})(?:-([0-7]|[a-z]{3}))?(?:/(\d+))?$")


def _dow_number(token: str) -> int | None:
    if token.isdigit():
        return int(token) % 7
    return _DOW_NAMES.index(token) if token in _DOW_NAMES else None


def _crontab_weekdays(field: str) -> str:
    """A crontab day-of-week field in APScheduler 3 terms (names, never numbers)."""
    if field in ("*", "?"):
        return "*"
    days: set[int] = set()
    for item in field.lower().split(","):
        match = _DOW_ITEM.match(item)
        if match is None:
            return field  # not ours to interpret; APScheduler validates and reports it
        first, last, step = match[1], match[2], int(match[3] or 1)
        low: int | None
        high: int | None
        if first == "*":
            low, high = 0, 6
        else:
            low = _dow_number(first)
            if last:  # "1-7" is Monday to Sunday, so 7 stays 7 as a range end
                high = 7 if last == "7" else _dow_number(last)
            elif match[3]:  # "1/2": from Monday, every second day
                high = 6
            else:
                high = low
        if low is None or high is None or high < low or step < 1:
            return field
        days.update(day % 7 for day in range(low, high + 1, step))
    return ",".join(_DOW_NAMES[d] for d in sorted(days))


def parse_cron(expr: str, tz: tzinfo) -> CronTrigger:
    """A crontab expression (5 fields, crontab weekday numbers) in `tz`; ConfigError if bad."""
    fields = expr.split()
    if len(fields) != 5:
        raise ConfigError(Text("error.config.cron_fields", {"expr": repr(expr)}))
    fields[4] = _crontab_weekdays(fields[4])
    # Lazy: APScheduler (and its tzlocal) loads only for configs that schedule digests.
    from apscheduler.triggers.cron import CronTrigger

    try:
        return CronTrigger.from_crontab(" ".join(fields), timezone=tz)
    except ValueError as exc:
        raise ConfigError(
            Text("error.config.cron", {"expr": repr(expr), "problem": str(exc)})
        ) from None
