"""Trends over weeks and the charts drawn from them."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "history.overall": {"en": "The repository per week", "zh": "仓库每周概况"},
    "history.modules": {"en": "PRs per module per week", "zh": "各模块每周 PR 数"},
    "history.merged": {"en": "Merged PRs", "zh": "合并 PR 数"},
    "history.contributors": {"en": "Contributors", "zh": "贡献者"},
    "history.new_contributors": {"en": "First-time contributors", "zh": "首次贡献者"},
    "history.col.what": {"en": "Figure", "zh": "指标"},
    "history.col.series": {"en": "{first} → {last}", "zh": "{first} → {last}"},
    "history.col.now": {"en": "Last", "zh": "最近一周"},
    "history.col.average": {"en": "Weekly mean", "zh": "周均"},
    "history.col.direction": {"en": "Direction", "zh": "走向"},
    "history.direction.rising": {"en": "rising ↑", "zh": "上升 ↑"},
    "history.direction.falling": {"en": "falling ↓", "zh": "下降 ↓"},
    "history.direction.steady": {"en": "steady →", "zh": "平稳 →"},
    "history.direction.unknown": {"en": "unknown", "zh": "未知"},
    "history.unknown": {"en": "unknown", "zh": "未知"},
    "history.incomplete": {
        "en": "· marks a week that is not fully synced ({weeks}): its figures are unknown "
        "and left out of means and directions.",
        "zh": "· 表示该周尚未完全同步（{weeks}）：数值未知，不计入均值与走向。",
    },
    "history.rule": {
        "en": "Direction: the mean of the last {recent} synced weeks against the mean of every "
        "synced week shown; rising at 25% and 1 PR a week above it, falling likewise below, "
        "unknown with fewer than {minimum} synced weeks.",
        "zh": "走向：最近 {recent} 个已同步周的均值与所示全部已同步周的均值相比；"
        "高出 25% 且每周多至少 1 个 PR 为上升，反之为下降；已同步周少于 {minimum} 个时为未知。",
    },
    "history.none": {
        "en": "None of these weeks is fully synced yet: run {command}.",
        "zh": "这些周均尚未完全同步：请运行 {command}。",
    },
    "history.more_modules": {
        "en": "{count} more {count:module|modules} in the JSON output.",
        "zh": "另有 {count} 个模块见 JSON 输出。",
    },
    "chart.merged": {"en": "Merged PRs per week", "zh": "每周合并 PR 数"},
    "chart.modules": {"en": "Top modules, PRs per week", "zh": "主要模块每周 PR 数"},
    "chart.kinds": {"en": "This week's PRs by kind", "zh": "本周各类型 PR 数"},
    "chart.kinds.period": {"en": "This period's PRs by kind", "zh": "本期各类型 PR 数"},
    "chart.peak": {"en": "max {value}", "zh": "最高 {value}"},
    "chart.incomplete": {"en": "not fully synced", "zh": "未完全同步"},
    "chart.empty": {"en": "No synced week to draw yet.", "zh": "暂无已同步的周可供绘制。"},
    "chart.alt": {
        "en": "Chart of {repo}, {first} to {last}. Merged PRs per week: {merged}. "
        "Top modules: {modules}.",
        "zh": "{repo} 图表，{first} 至 {last}。每周合并 PR 数：{merged}。主要模块：{modules}。",
    },
    "chart.alt_module_plain": {"en": "{name} {values}", "zh": "{name} {values}"},
    "chart.alt_module": {
        "en": "{name} {values} ({direction})",
        "zh": "{name} {values}（{direction}）",
    },
}
