"""Flag reasons and score contributions of the analysis, stored as an id and
parameters with each analysis and rendered in the reader's language (``i18n.reason``)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # Flag reasons and score contributions of the analysis (``reason(...)`` below): stored
    # as an id and parameters with each analysis, rendered in the reader's language.
    "reason.flag.core-path": {"en": "touches {names}", "zh": "涉及{names}"},
    "reason.flag.missing-tests": {
        "en": "{lines} {lines:line|lines} of source changed, no test file touched",
        "zh": "改动 {lines} 行源代码，未改动任何测试文件",
    },
    "reason.flag.breaking.label": {"en": "labelled {label}", "zh": "带有标签 {label}"},
    "reason.flag.breaking.deleted-file": {
        "en": "deletes or renames public file {path}",
        "zh": "删除或重命名公开文件 {path}",
    },
    "reason.flag.breaking.deleted-files": {
        "en": "deletes or renames public file {path} and {more} more",
        "zh": "删除或重命名公开文件 {path} 等（另有 {more} 个）",
    },
    "reason.flag.breaking.word-title": {"en": "'{word}' in the title", "zh": "标题中有“{word}”"},
    "reason.flag.breaking.word-body": {
        "en": "'{word}' in the description",
        "zh": "描述中有“{word}”",
    },
    "reason.flag.breaking.title": {"en": "title: {what}", "zh": "标题：{what}"},
    "reason.flag.breaking.settings-removed": {
        "en": "removes {removed} {removed:line|lines} from {path} (user-facing settings)",
        "zh": "从 {path}（用户可见的配置）删除 {removed} 行",
    },
    "reason.flag.dependency.pin": {"en": "{verb} {what} to {to}", "zh": "{verb} {what} 至 {to}"},
    "reason.flag.dependency.file": {"en": "changes {path}", "zh": "修改 {path}"},
    "reason.flag.dependency.files": {
        "en": "changes {path} and {more} more",
        "zh": "修改 {path} 等（另有 {more} 个）",
    },
    "reason.flag.large.lines": {
        "en": "{lines} {lines:line|lines} changed (> {limit})",
        "zh": "改动 {lines} 行（超过 {limit}）",
    },
    "reason.flag.large.files": {
        "en": "{files} {files:file|files} changed (> {limit})",
        "zh": "改动 {files} 个文件（超过 {limit}）",
    },
    "reason.flag.large.both": {
        "en": "{lines} {lines:line|lines} changed (> {line_limit}); {files} {files:file|files} "
        "changed (> {file_limit})",
        "zh": "改动 {lines} 行（超过 {line_limit}）；改动 {files} 个文件（超过 {file_limit}）",
    },
    "reason.flag.revert.target": {"en": "reverts {target}", "zh": "回滚 {target}"},
    "reason.flag.revert.unknown": {"en": "reverts an earlier change", "zh": "回滚先前的变更"},
    "reason.verb.bumps": {"en": "bumps", "zh": "升级"},
    "reason.verb.upgrades": {"en": "upgrades", "zh": "升级"},
    "reason.verb.updates": {"en": "updates", "zh": "更新"},
    "reason.verb.pins": {"en": "pins", "zh": "固定"},
    "reason.verb.unpins": {"en": "unpins", "zh": "解除固定"},
    "reason.verb.downgrades": {"en": "downgrades", "zh": "降级"},
    "reason.score.core-path": {"en": "touches {names}", "zh": "涉及{names}"},
    "reason.score.size": {"en": "{lines} {lines:line|lines} changed", "zh": "改动 {lines} 行"},
    "reason.score.module": {"en": "in {module}", "zh": "属于{module}"},
    "reason.score.breadth": {
        "en": "spans {count} {count:module|modules} ({ids})",
        "zh": "跨 {count} 个模块（{ids}）",
    },
    "reason.score.claim": {"en": "{claim} claim", "zh": "声称 {claim}"},
    "reason.score.claim.unquantified": {
        "en": "{claim} claim (no speed-up factor)",
        "zh": "声称 {claim}（非加速倍数）",
    },
    "reason.score.breaking": {"en": "breaking: {reason}", "zh": "破坏性变更：{reason}"},
    "reason.score.kind": {"en": "kind {kind}", "zh": "类型：{kind}"},
    "reason.score.kind.tag-only": {
        "en": "kind {kind} from a tag, no new model in the title",
        "zh": "类型：{kind}（仅来自标签，标题未新增模型）",
    },
    "reason.score.activity": {"en": "{parts}", "zh": "{parts}"},
    "reason.score.activity.reviews": {
        "en": "{count} {count:review|reviews}",
        "zh": "{count} 次评审",
    },
    "reason.score.activity.comments": {
        "en": "{count} {count:comment|comments}",
        "zh": "{count} 条评论",
    },
    # title-only score signals
    # --- prose --- title-only score signals
    "reason.score.title.new": {"en": "new {what} (title)", "zh": "标题表明新增 {what}"},
    "reason.score.title.removed": {"en": "removes {what} (title)", "zh": "标题表明移除 {what}"},
    "reason.score.title.model": {"en": "adds a model (title)", "zh": "标题表明新增模型"},
    "reason.score.title.default": {
        "en": "changes a default: {what} (title)",
        "zh": "标题表明更改默认行为：{what}",
    },
    "reason.score.title.deprecated": {
        "en": "deprecates or removes: {what} (title)",
        "zh": "标题表明弃用或移除：{what}",
    },
    "reason.score.title.named": {"en": "names {what} (title)", "zh": "标题点名 {what}"},
    "reason.score.title.series": {"en": "part of a numbered series", "zh": "属于编号系列"},
    "reason.score.title.series-head": {"en": "first of its series", "zh": "系列的第一个"},
    "reason.score.title.severe": {"en": "fixes {what} (title)", "zh": "标题表明修复 {what}"},
    "reason.score.title.minor": {"en": "minor change ({what})", "zh": "小改动（{what}）"},
    "reason.score.label": {"en": "label {label}", "zh": "标签 {label}"},
    "reason.score.cap.kind": {
        "en": "capped at {cap} for kind {kind}",
        "zh": "{kind}类变更最高 {cap} 分",
    },
    "reason.score.cap.trivial": {
        "en": "trivial change (typo/nit) capped at {cap}",
        "zh": "细微修改（拼写等）最高 {cap} 分",
    },
    "reason.score.cap.max": {"en": "capped at {cap}", "zh": "最高 {cap} 分"},
}
