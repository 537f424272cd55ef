"""PR cards and `explain`."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "explain.files": {"en": "files", "zh": "文件"},
    "explain.files_unknown": {
        "en": "files: unknown (file-based rules and flags were not applied)",
        "zh": "文件：未知（未应用基于文件的规则与标记）",
    },
    "explain.modules": {"en": "modules", "zh": "模块"},
    "explain.kind": {"en": "kind", "zh": "类型"},
    "explain.flags": {"en": "flags", "zh": "风险标记"},
    "explain.none": {"en": "none", "zh": "无"},
    "explain.score": {"en": "score", "zh": "评分"},
    "explain.claims": {"en": "claims", "zh": "性能声明"},
    "card.section.summary": {"en": "Overview", "zh": "概览"},
    "card.section.flags": {"en": "Flags", "zh": "风险标记"},
    "card.section.score": {"en": "Why this score", "zh": "评分依据"},
    "card.section.files": {"en": "Most-changed files", "zh": "改动最多的文件"},
    "card.section.claims": {"en": "Performance claims", "zh": "性能声明"},
    "card.section.prs": {"en": "PRs", "zh": "PR 列表"},
    "card.score_value": {"en": "{score} / 10", "zh": "{score} / 10"},
    "card.score_total": {"en": "= {score} / 10", "zh": "= {score} / 10"},
    "card.score_more": {"en": "{count} more contributions", "zh": "其余 {count} 项"},
    "card.score_other": {"en": "not itemised", "zh": "未逐项列出的部分"},
    "card.score_top": {
        "en": "top {shown} of {count}: {reasons}",
        "zh": "前 {shown} 项（共 {count} 项）：{reasons}",
    },
    "card.more_files": {
        "en": "{count} more {count:file|files}",
        "zh": "另有 {count} 个文件",
    },
    "card.state.open": {"en": "open", "zh": "未合并"},
    "card.state.closed": {"en": "closed", "zh": "已关闭"},
    "card.state.merged": {"en": "merged", "zh": "已合并"},
    "card.state": {"en": "State", "zh": "状态"},
    "card.author": {"en": "Author", "zh": "作者"},
    "card.created": {"en": "Created", "zh": "创建时间"},
    "card.merged": {"en": "Merged", "zh": "合并时间"},
    "card.modules": {"en": "Modules", "zh": "模块"},
    "card.kind": {"en": "Kind", "zh": "类型"},
    "card.score": {"en": "Score", "zh": "重要性"},
    "card.size": {"en": "Size", "zh": "规模"},
    "card.size_value": {
        "en": "+{additions} / −{deletions} in {count} {count:file|files}",
        "zh": "{count} 个文件，+{additions} / −{deletions}",
    },
    "card.size_unknown": {
        "en": "unknown (no file list)",
        "zh": "未知（没有文件列表）",
    },
    "card.size_partial": {
        "en": "+{additions} / −{deletions} (file list unknown)",
        "zh": "+{additions} / −{deletions}（文件列表未知）",
    },
    "card.flags": {"en": "Flags", "zh": "风险标记"},
    "card.no_flags": {"en": "No risk flag.", "zh": "未触发风险标记。"},
    "card.files_unknown": {
        "en": "The file list is unknown for this PR.",
        "zh": "该 PR 的文件列表未知。",
    },
    "card.link": {"en": "Open on GitHub", "zh": "在 GitHub 上查看"},
    "card.none": {"en": "none", "zh": "无"},
    "card.unknown_author": {"en": "unknown", "zh": "未知"},
}
