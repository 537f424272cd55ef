"""The catalogue's feature modules: each message in both languages with the same placeholders,
every module merged, no id in two modules."""

from __future__ import annotations

import pkgutil
import string

import pytest

import bot.core.messages
from bot.core import i18n


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def problems(messages: dict[str, dict[str, str]]) -> list[str]:
    """What is wrong with a feature's messages: a language without a text, an unknown
    language, placeholders that differ from the English ones."""
    out = []
    for msg_id, entry in messages.items():
        missing = [lang for lang in i18n.LANGUAGES if not entry.get(lang, "").strip()]
        if missing:
            out.append(f"{msg_id}: no text in {missing}")
        if extra := sorted(set(entry) - set(i18n.LANGUAGES)):
            out.append(f"{msg_id}: unknown languages {extra}")
        en = _placeholders(entry.get("en", ""))
        for lang in i18n.LANGUAGES:
            if lang in entry and _placeholders(entry[lang]) != en:
                out.append(f"{msg_id}: {lang} placeholders {_placeholders(entry[lang])} != {en}")
    return out


def test_every_feature_module_is_part_of_the_catalogue() -> None:
    modules = {m.name for m in pkgutil.iter_modules(bot.core.messages.__path__)}
    assert modules == set(i18n.FEATURES)
    assert len(i18n.MESSAGES) == sum(len(m) for m in i18n.FEATURES.values())


@pytest.mark.parametrize("feature", sorted(i18n.FEATURES))
def test_every_message_is_in_both_languages_with_the_same_placeholders(feature: str) -> None:
    assert problems(i18n.FEATURES[feature]) == []


def test_a_message_in_one_language_or_with_other_placeholders_is_caught() -> None:
    broken = {
        "x.en_only": {"en": "{count} {count:PR|PRs}"},
        "x.empty_zh": {"en": "Title", "zh": " "},
        "x.renamed": {"en": "{count} {count:PR|PRs}", "zh": "{n} 个 PR"},
        "x.fine": {"en": "{count} {count:PR|PRs}", "zh": "{count} 个 PR"},
    }
    found = problems(broken)
    assert [p.split(":")[0] for p in found] == ["x.en_only", "x.empty_zh", "x.renamed"]


def test_an_id_in_two_feature_modules_is_refused() -> None:
    features = {
        "digest": {"x.title": {"en": "Title", "zh": "标题"}},
        "cards": {"x.title": {"en": "Card", "zh": "卡片"}, "x.other": {"en": "o", "zh": "o"}},
    }
    with pytest.raises(ValueError, match=r"x\.title.*cards.*digest"):
        i18n.merged(features)
    assert set(i18n.merged({"digest": features["digest"]})) == {"x.title"}


def test_a_span_variant_is_not_a_plural() -> None:
    assert i18n.t("zh", "theme.none", span="period") == "本期没有突出的主题。"
    assert i18n.t("en", "release.fallback", repo="o/r", tag="v1", count=1) == "o/r v1: 1 PR"
    assert i18n.t("en", "release.fallback", repo="o/r", tag="v1", count=2) == "o/r v1: 2 PRs"
