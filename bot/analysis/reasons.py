"""Every reason the analysis gives a user (flag reasons, score contributions), in English and
Simplified Chinese, in one place.

Analysis code never writes a reason string itself: it names a message key and passes
parameters, and ``render`` turns them into text for a language. The English rendering is
stored in ``Flag.reason`` / ``ScoreContribution.reason`` (the CONTRACT JSON stays English);
cards render ``key`` + ``params`` again in the card's language.

Parameter values are kept JSON-serialisable because analyses are cached in the store:

- ``int`` / ``float``: formatted with the language's number convention (1,302);
- ``str``: inserted as-is (paths, labels, words quoted from the title);
- ``{"en": ..., "zh": ...}``: a name that has a translation (module, core path, kind);
- ``{"key": ..., "params": ...}``: a nested reason (the flag reason inside "breaking: ...");
- ``list``: each item rendered as above, joined in the language's list style.

A key with a ``.one`` variant uses it when the ``count`` parameter is 1 (English singulars).
"""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.models import Flag, ScoreContribution

Params = dict[str, Any]

REASONS: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------ flags
    "flag.core-path": {"en": "touches {names}", "zh": "涉及{names}"},
    "flag.missing-tests": {
        "en": "{lines} lines of source changed, no test file touched",
        "zh": "改动 {lines} 行源代码，未改动任何测试文件",
    },
    "flag.breaking.label": {"en": "labelled {label}", "zh": "带有标签 {label}"},
    "flag.breaking.deleted-file": {
        "en": "deletes or renames public file {path}",
        "zh": "删除或重命名公开文件 {path}",
    },
    "flag.breaking.deleted-files": {
        "en": "deletes or renames public file {path} and {more} more",
        "zh": "删除或重命名公开文件 {path} 等（另有 {more} 个）",
    },
    "flag.breaking.word-title": {"en": "'{word}' in the title", "zh": "标题中有“{word}”"},
    "flag.breaking.word-body": {"en": "'{word}' in the description", "zh": "描述中有“{word}”"},
    "flag.breaking.title": {"en": "title: {what}", "zh": "标题：{what}"},
    "flag.breaking.settings-removed": {
        "en": "removes {removed} lines from {path} (user-facing settings)",
        "zh": "从 {path}（用户可见的配置）删除 {removed} 行",
    },
    "flag.dependency.pin": {"en": "{verb} {what} to {to}", "zh": "{verb} {what} 至 {to}"},
    "flag.dependency.file": {"en": "changes {path}", "zh": "修改 {path}"},
    "flag.dependency.files": {
        "en": "changes {path} and {more} more",
        "zh": "修改 {path} 等（另有 {more} 个）",
    },
    "flag.large.lines": {
        "en": "{lines} lines changed (> {limit})",
        "zh": "改动 {lines} 行（超过 {limit}）",
    },
    "flag.large.files": {
        "en": "{files} files changed (> {limit})",
        "zh": "改动 {files} 个文件（超过 {limit}）",
    },
    "flag.large.both": {
        "en": "{lines} lines changed (> {line_limit}); {files} files changed (> {file_limit})",
        "zh": "改动 {lines} 行（超过 {line_limit}）；改动 {files} 个文件（超过 {file_limit}）",
    },
    "flag.revert.target": {"en": "reverts {target}", "zh": "回滚 {target}"},
    "flag.revert.unknown": {"en": "reverts an earlier change", "zh": "回滚先前的变更"},
    # ------------------------------------------------------------ dependency verbs
    "verb.bumps": {"en": "bumps", "zh": "升级"},
    "verb.upgrades": {"en": "upgrades", "zh": "升级"},
    "verb.updates": {"en": "updates", "zh": "更新"},
    "verb.pins": {"en": "pins", "zh": "固定"},
    "verb.unpins": {"en": "unpins", "zh": "解除固定"},
    "verb.downgrades": {"en": "downgrades", "zh": "降级"},
    # ------------------------------------------------------------ score contributions
    "score.core-path": {"en": "touches {names}", "zh": "涉及{names}"},
    "score.size": {"en": "{lines} lines changed", "zh": "改动 {lines} 行"},
    "score.module": {"en": "in {module}", "zh": "属于{module}"},
    "score.breadth": {
        "en": "spans {count} modules ({ids})",
        "zh": "跨 {count} 个模块（{ids}）",
    },
    "score.claim": {"en": "{claim} claim", "zh": "声称 {claim}"},
    "score.claim.unquantified": {
        "en": "{claim} claim (no speed-up factor)",
        "zh": "声称 {claim}（非加速倍数）",
    },
    "score.breaking": {"en": "breaking: {reason}", "zh": "破坏性变更：{reason}"},
    "score.kind": {"en": "kind {kind}", "zh": "类型：{kind}"},
    "score.activity": {"en": "{parts}", "zh": "{parts}"},
    "score.activity.reviews": {"en": "{count} reviews", "zh": "{count} 次评审"},
    "score.activity.reviews.one": {"en": "{count} review", "zh": "{count} 次评审"},
    "score.activity.comments": {"en": "{count} comments", "zh": "{count} 条评论"},
    "score.activity.comments.one": {"en": "{count} comment", "zh": "{count} 条评论"},
    "score.label": {"en": "label {label}", "zh": "标签 {label}"},
    "score.cap.kind": {
        "en": "{kind} changes are capped at {cap}",
        "zh": "{kind}类变更最高 {cap} 分",
    },
    "score.cap.trivial": {
        "en": "trivial change (typo/nit) capped at {cap}",
        "zh": "细微修改（拼写等）最高 {cap} 分",
    },
    "score.cap.max": {"en": "capped at {cap}", "zh": "最高 {cap} 分"},
}

_SEPARATORS = {"en": ", ", "zh": "、"}


def _number(value: int | float, language: str) -> str:
    # English is rendered for every analysed PR, so it skips Babel (same output: 1,302).
    if language == "en":
        if isinstance(value, int):
            return f"{value:,}"
        return f"{value:,.3f}".rstrip("0").rstrip(".")
    return i18n.number(value, language)


def _value(value: Any, language: str) -> str:
    # Most values are strings; test types in order of frequency (this runs for every PR).
    kind = type(value)
    if kind is str:
        return value
    if kind is int or kind is float:
        return _number(value, language)
    if kind is dict:
        if "key" in value:
            return render(value["key"], value.get("params") or {}, language)
        return str(value.get(language) or value.get("en", ""))
    if kind is list or kind is tuple:
        return _SEPARATORS.get(language, ", ").join([_value(v, language) for v in value])
    return str(value)


def render(key: str, params: Params, language: str = "en") -> str:
    """The reason ``key`` with ``params`` in ``language`` (English when unknown)."""
    if "count" in params and params["count"] == 1 and f"{key}.one" in REASONS:
        key = f"{key}.one"
    entry = REASONS[key]
    template = entry.get(language) or entry["en"]
    if not params:
        return template
    return template.format_map({k: _value(v, language) for k, v in params.items()})


def localized(en: str, zh: str) -> dict[str, str]:
    """A name with a translation, as a parameter value."""
    return {"en": en, "zh": zh or en}


def nested(key: str, params: Params) -> dict[str, Any]:
    """A reason inside another reason, as a parameter value."""
    return {"key": key, "params": params}


def make_flag(flag_id: str, key: str, **params: Any) -> Flag:
    return Flag(flag_id, render(key, params), key, params)


def make_contribution(feature: str, points: float, key: str, **params: Any) -> ScoreContribution:
    return ScoreContribution(feature, points, render(key, params), key, params)


def reuse_flag(feature: str, points: float, key: str, flag: Flag) -> ScoreContribution:
    """A contribution whose template is the flag's own one (same placeholders): reuses the
    flag's English text instead of rendering it again."""
    return ScoreContribution(feature, points, flag.reason, key, flag.params)


def flag_text(flag: Flag, language: str) -> str:
    """A flag's reason in ``language``; the stored English text when it has no key."""
    if flag.key in REASONS:
        return render(flag.key, flag.params, language)
    return flag.reason


def contribution_text(contribution: ScoreContribution, language: str) -> str:
    if contribution.key in REASONS:
        return render(contribution.key, contribution.params, language)
    return contribution.reason
