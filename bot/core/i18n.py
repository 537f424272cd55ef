"""The one message catalogue (English and Simplified Chinese) and locale-aware formatting.

Every user-facing string lives in MESSAGES, keyed by a message id, with one entry per
language and the same ``str.format`` placeholders in each (tests enforce both). The entries
are kept per feature in ``bot.core.messages`` and merged here. Templates never contain
words, only structure, so the two languages cannot drift apart. Numbers, percentages, dates
and lists are formatted with Babel so each language follows its own convention.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_EVEN, Decimal
from functools import lru_cache
from typing import cast

from babel.dates import format_date, format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from bot.core.messages import (
    Text,
    alerts,
    archive,
    cards,
    cli,
    commands,
    digest,
    errors,
    history,
    kinds_flags,
    org,
    platforms,
    reasons,
    releases,
    services,
    terms,
    themes,
)

LANGUAGES = ("en", "zh")
_LOCALES = {"en": "en", "zh": "zh_Hans_CN"}

Catalogue = dict[str, dict[str, str]]

# Each feature's messages (bot/core/messages/<feature>.py), by feature name.
FEATURES: dict[str, Catalogue] = {
    "kinds_flags": kinds_flags.MESSAGES,
    "digest": digest.MESSAGES,
    "themes": themes.MESSAGES,
    "terms": terms.MESSAGES,
    "history": history.MESSAGES,
    "archive": archive.MESSAGES,
    "org": org.MESSAGES,
    "cards": cards.MESSAGES,
    "reasons": reasons.MESSAGES,
    "commands": commands.MESSAGES,
    "errors": errors.MESSAGES,
    "alerts": alerts.MESSAGES,
    "releases": releases.MESSAGES,
    "platforms": platforms.MESSAGES,
    "services": services.MESSAGES,
    "cli": cli.MESSAGES,
}


def merged(features: Mapping[str, Catalogue]) -> Catalogue:
    """One catalogue of the features' messages. An id defined by two features is refused:
    the later would silently replace the earlier."""
    out: Catalogue = {}
    for feature, messages in features.items():
        clash = out.keys() & messages.keys()
        if clash:
            owners = [f for f, m in features.items() if f != feature and clash & m.keys()]
            raise ValueError(
                f"message ids {sorted(clash)} are defined in {feature} and in {owners}"
            )
        out.update(messages)
    return out


MESSAGES: dict[str, dict[str, str]] = merged(FEATURES)


class _Count:
    """An integer placeholder value: "{n}" gives the number in the language's convention,
    "{n:one|other}" picks the English singular or plural text for it: the catalogue's one
    plural mechanism, which lets one message hold several counts ("1 PR was merged … by
    2 contributors")."""

    __slots__ = ("text", "value")

    def __init__(self, value: int, language: str) -> None:
        self.value = value
        self.text = number(value, language)

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, other = spec.split("|", 1)
            return one if self.value == 1 else other
        return format(self.text, spec)

    def __str__(self) -> str:
        return self.text


_HAN = "\u3400-\u9fff\uf900-\ufaff"
# A space that a template puts between a placeholder and Chinese text is right for a Latin
# value ("ROCm 相关") and wrong for a Chinese one ("ROCm / AMD 平台相关").
_SPACE_AFTER_FIELD = re.compile(rf"\{{(\w+)\}} (?=[{_HAN}])")
_SPACE_BEFORE_FIELD = re.compile(rf"(?<=[{_HAN}]) \{{(\w+)\}}")
_HAN_CHAR = re.compile(rf"[{_HAN}]")


# Only placeholders that hold names (modules, kinds, people) are joined this way; dates
# and numbers keep the template's spacing ("2026年6月1日 至 2026年6月7日").
_NAME_FIELDS = frozenset({"module", "modules", "name", "names", "kind", "kinds", "theme", "themes"})


def _cjk_spacing(template: str, values: dict[str, object]) -> str:
    def han_edge(field: str, index: int) -> bool:
        text = str(values.get(field, "")) if field in _NAME_FIELDS else ""
        return bool(text) and bool(_HAN_CHAR.match(text[index]))

    def after(match: re.Match[str]) -> str:
        return match[0][:-1] if han_edge(match[1], -1) else match[0]

    def before(match: re.Match[str]) -> str:
        return match[0][1:] if han_edge(match[1], 0) else match[0]

    return _SPACE_BEFORE_FIELD.sub(before, _SPACE_AFTER_FIELD.sub(after, template))


def variant(msg_id: str, span: str = "week") -> str:
    """The catalogue id to use: "<id>.period" for a window that is not an ISO week (so
    Chinese says 本期 rather than 本周)."""
    if span != "week" and f"{msg_id}.{span}" in MESSAGES:
        return f"{msg_id}.{span}"
    return msg_id


def message(language: str, msg_id: str, /, *, span: str = "week", **values: object) -> str:
    """The message in `language`, formatted; English when the language is unknown.

    Integer values are formatted in the language's convention (and pick a singular with
    "{n:one|other}"); `span="period"` selects "<id>.period" for non-week windows.
    """
    return message_from(language, msg_id, values, span=span)


def message_from(
    language: str, msg_id: str, values: Mapping[str, object], *, span: str = "week"
) -> str:
    """`message` with the values as one mapping: the caller's parameters (a reason's, an
    error's), whatever their names."""
    entry = MESSAGES[variant(msg_id, span)]
    template = entry.get(language) or entry["en"]
    if not values:
        return template
    formatted = {k: _formatted(v, language) for k, v in values.items()}
    if language == "zh":
        template = _cjk_spacing(template, formatted)
    return template.format(**formatted)


def render(text: Text, language: str) -> str:
    """A message not rendered yet (an error's), in `language`."""
    return message_from(language, text.msg_id, text.params)


def _formatted(value: object, language: str) -> object:
    if type(value) is str:  # the most common value, and a reason's hot path
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _Count(value, language)
    if isinstance(value, float):
        # 1,302.5; 2.0 reads "2" (Babel's English output, without Babel on the hot path).
        if language == "en":
            return f"{value:,.3f}".rstrip("0").rstrip(".")
        return number(value, language)
    if isinstance(value, Text):
        # A nested message (an error's cause): the same language as the one around it.
        return render(value, language)
    if isinstance(value, list | tuple) and value and all(isinstance(v, Text) for v in value):
        return separator(language).join(render(v, language) for v in value)
    return value


# ------------------------------------------------------------------ reasons (analysis)
#
# An analysis stores each flag reason and score contribution as a message id and
# parameters (JSON-serialisable: analyses are cached in the store), so a card can show it
# in any language. Parameter values:
#   - int / float: formatted in the language's convention (1,302);
#   - str: inserted as is (paths, labels, words quoted from the title);
#   - {"en": ..., "zh": ...}: a name with a translation (module, core path, kind);
#   - {"key": ..., "params": ...}: a nested reason ("breaking: <flag reason>");
#   - list: each item as above, joined with ``separator``.
# The plural and number rules are message()'s own, and so is the rendering: English and
# Chinese go the same way.

REASON_PREFIX = "reason."


def reason_id(key: str) -> str:
    """The catalogue id of a reason key ("flag.large.lines" → "reason.flag.large.lines")."""
    return key if key.startswith(REASON_PREFIX) else REASON_PREFIX + key


def _reason_value(value: object, language: str) -> object:
    # Runs for every parameter of every analysed PR: the common types are tested first.
    kind = type(value)
    if kind is str or kind is int or kind is float:
        return value
    # `kind is` (not isinstance) keeps the hot path cheap; the casts say what it proved.
    if kind is dict:
        mapping = cast("dict[str, object]", value)
        if "key" in mapping:
            params = cast("Mapping[str, object] | None", mapping.get("params"))
            return reason(language, str(mapping["key"]), params or {})
        return str(mapping.get(language) or mapping.get("en", ""))
    if kind is list or kind is tuple:
        return separator(language).join(
            str(_formatted(_reason_value(v, language), language))
            for v in cast("Sequence[object]", value)
        )
    return value


def reason(language: str, key: str, params: Mapping[str, object] | None = None) -> str:
    """A reason of the analysis in ``language`` (English when unknown)."""
    msg_id = reason_id(key)
    if not params:
        return message(language, msg_id)
    return message_from(
        language, msg_id, {k: _reason_value(v, language) for k, v in params.items()}
    )


def has_reason(key: str) -> bool:
    return bool(key) and reason_id(key) in MESSAGES


def separator(language: str) -> str:
    """Between items of a compact list (table cells, PR references): no "and"."""
    return "、" if language == "zh" else ", "


t = message


def locale_of(language: str) -> str:
    return _LOCALES.get(language, "en")


@lru_cache(maxsize=4096)
def number(value: int | float, language: str) -> str:
    """Integer with the language's grouping (12,345)."""
    if language == "en" and isinstance(value, int):
        # Babel's output, without its locale data (start-up) or its cost per call: every
        # analysed PR's reasons carry counts.
        return f"{value:,}"
    return format_decimal(value, locale=locale_of(language))


@lru_cache(maxsize=1024)
def score(value: float, language: str) -> str:
    if language == "en":
        # As Babel rounds "0.0" (the float's shortest repr, half to even), without its
        # locale data: a card shows scores.
        return str(Decimal(str(value)).quantize(_TENTH, ROUND_HALF_EVEN))
    return format_decimal(value, format="0.0", locale=locale_of(language))


@lru_cache(maxsize=1024)
def percent(value: float, language: str) -> str:
    """`value` is in percent (50.0 → "50%"); rounded to whole percent like the seeds."""
    return format_percent(value / 100, format="#,##0%", locale=locale_of(language))


_TENTH = Decimal("0.1")
# English dates are written without Babel, in CLDR's "en" patterns ("MMMM d, y" and
# "MMM d, y, h:mm:ss a", with the narrow no-break space before AM/PM): loading Babel's
# locale data costs ~15 ms, the largest share of a card lookup after the imports.
# tests/digest/test_i18n.py checks the output against Babel's for any date.
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def day(value: date | datetime, language: str) -> str:
    if isinstance(value, datetime):
        value = value.date()
    if language == "en":
        return f"{_MONTHS[value.month - 1]} {value.day}, {value.year}"
    return format_date(value, format="long", locale=locale_of(language))


def moment(value: datetime, language: str) -> str:
    if language == "en":
        hour = value.hour % 12 or 12
        noon = "AM" if value.hour < 12 else "PM"
        return (
            f"{_MONTHS[value.month - 1][:3]} {value.day}, {value.year}, "
            f"{hour}:{value.minute:02}:{value.second:02}\u202f{noon}"
        )
    return format_datetime(value, format="medium", locale=locale_of(language))


def window_bounds(start: datetime, end: datetime, language: str) -> tuple[str, str]:
    """Start and end as shown to people: whole-day windows show the last included day
    (the window is half-open, so "until Monday 00:00" reads as "to Sunday")."""
    midnight = all(v.hour == v.minute == v.second == v.microsecond == 0 for v in (start, end))
    if midnight:
        return day(start, language), day(end - timedelta(days=1), language)
    return moment(start, language), moment(end, language)


def join(items: Iterable[str], language: str) -> str:
    """ "a, b, and c" in English; "a、b、c" in Chinese (Babel's "a、b和c" runs Latin names
    into 和 without spacing, which the seed reports never do)."""
    values = list(items)
    if language == "zh":
        return "、".join(values)
    return format_list(values, locale=locale_of(language)) if values else ""


def kind_name(kind: str, language: str) -> str:
    key = f"kind.{kind}"
    return message(language, key) if key in MESSAGES else kind


def flag_name(flag: str, language: str) -> str:
    key = f"flag.{flag}"
    return message(language, key) if key in MESSAGES else flag


def trend(
    count: int, previous: int, language: str, *, words: bool = False, span: str = "week"
) -> str:
    """▲/▼ (or "up"/"down" in running text) with the percent change on the previous window."""
    prefix = "trend.words" if words else "trend"
    if previous == 0:
        if count:
            return message(language, "trend.new")
        return message(language, f"{prefix}.flat", span=span)
    if count == previous:
        return message(language, f"{prefix}.flat", span=span)
    change = (count - previous) * 100 / previous
    key = f"{prefix}.up" if change > 0 else f"{prefix}.down"
    return message(language, key, span=span, percent=percent(abs(change), language))
