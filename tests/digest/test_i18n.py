"""The message catalogue is complete in both languages and formats per convention."""

from __future__ import annotations

import re
import string
from datetime import UTC, datetime, timedelta, timezone

import pytest
from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal
from hypothesis import given
from hypothesis import strategies as st

from bot.core import i18n
from bot.core.models import FLAG_IDS, KIND_IDS


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("msg_id", sorted(i18n.MESSAGES))
def test_every_message_has_both_languages_and_the_same_placeholders(msg_id: str) -> None:
    entry = i18n.MESSAGES[msg_id]
    assert set(entry) == set(i18n.LANGUAGES)
    assert all(entry[lang].strip() for lang in i18n.LANGUAGES)
    assert _fields(entry["en"]) == _fields(entry["zh"])


def test_a_count_of_one_is_singular_through_the_inline_form_only() -> None:
    # One plural mechanism: no "<id>.one" entry picked by `count`, the template says it.
    assert not [m for m in i18n.MESSAGES if m.endswith(".one")]
    assert i18n.t("en", "risk.large", count=1) == "1 PR is a large change"
    assert i18n.t("en", "risk.large", count=0) == "0 PRs are large changes"
    assert i18n.t("en", "cmd.removed", count=1) == "removed 1 subscription from this channel"
    assert i18n.reason("en", "score.activity.reviews", {"count": 1}) == "1 review"
    assert i18n.reason("zh", "score.activity.reviews", {"count": 1}) == i18n.t(
        "zh", "reason.score.activity.reviews", count=1
    )


def test_stable_ids_are_translated_like_the_seed_reports() -> None:
    assert [i18n.flag_name(f, "zh") for f in FLAG_IDS] == [
        "核心路径变更",
        "缺少测试覆盖",
        "破坏性变更",
        "依赖变更",
        "大型变更",
        "回滚",
    ]
    for kind in KIND_IDS:
        assert i18n.kind_name(kind, "zh") != i18n.kind_name(kind, "en") or kind == "ci"


def test_chinese_text_has_no_untranslated_english_words() -> None:
    # Product names and ids (PR, CI, KV, GitHub, release note) are how the seeds write them.
    allowed = {"PR", "CI", "GitHub", "release", "note", "JSON", "Atom", "docs", "digest", "md"}
    for msg_id, entry in i18n.MESSAGES.items():
        # Placeholders, `code` and slash commands are not prose.
        text = re.sub(r"\{[^}]*\}|`[^`]*`|/vllm \w+", " ", entry["zh"])
        words = "".join(c if c.isascii() and c.isalpha() else " " for c in text).split()
        stray = [w for w in words if w not in allowed]
        assert not stray, f"{msg_id}: {stray}"


def test_numbers_dates_and_plurals_follow_each_language() -> None:
    assert i18n.number(12345, "en") == "12,345"
    assert i18n.percent(150.0, "zh") == "150%"
    assert i18n.day(datetime(2026, 6, 1, tzinfo=UTC), "en") == "June 1, 2026"
    assert i18n.day(datetime(2026, 6, 1, tzinfo=UTC), "zh") == "2026年6月1日"
    assert i18n.t("en", "risk.revert", count=1) == "1 PR is a revert"
    assert i18n.t("en", "risk.revert", count=1234) == "1,234 PRs are reverts"
    assert i18n.t("zh", "risk.revert", count=2) == "2 个 PR 为回滚"
    assert i18n.join(["a", "b", "c"], "zh") == "a、b、c"
    assert i18n.trend(3, 2, "en") == "▲ 50%"
    assert i18n.trend(1, 2, "zh", words=True) == "较上周下降 50%"
    assert i18n.trend(4, 0, "en") == "new"


@given(
    st.datetimes(
        min_value=datetime(1, 1, 1),
        timezones=st.sampled_from(
            [UTC, timezone(timedelta(hours=8)), timezone(-timedelta(hours=5))]
        ),
    )
)
def test_english_dates_are_babels_without_its_locale_data(value: datetime) -> None:
    # i18n writes English dates itself (start-up); they must stay what Babel writes.
    assert i18n.moment(value, "en") == format_datetime(value, format="medium", locale="en")
    assert i18n.day(value, "en") == format_date(value.date(), format="long", locale="en")


@given(st.integers(-(10**18), 10**18))
def test_english_counts_are_babels_without_its_locale_data(value: int) -> None:
    # Babel itself fails past 28 digits.
    assert i18n.number(value, "en") == format_decimal(value, locale="en")


@given(st.floats(-1e9, 1e9) | st.integers(-(10**6), 10**6))
def test_english_scores_are_babels_without_its_locale_data(value: float) -> None:
    # Scores run 0-100; far beyond that, floats need more than Decimal's 28 digits.
    # Uncached: the cache takes -0.0 for 0.0 (they are equal), with or without Babel.
    written = i18n.score.__wrapped__(value, "en")
    assert written == format_decimal(value, format="0.0", locale="en")


def test_half_open_windows_show_the_last_included_day() -> None:
    start, end = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC)
    assert i18n.window_bounds(start, end, "en") == ("June 1, 2026", "June 7, 2026")
