"""The organisation digest over several repositories (issue 16)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "org.title.week": {
        "en": "{scope} weekly digest, {year} week {week} ({repos})",
        "zh": "{scope} {year} 年第 {week} 周变更周报（{repos}）",
    },
    "org.title.window": {
        "en": "{scope} digest, {label} ({repos})",
        "zh": "{scope} 变更报告（{label}，{repos}）",
    },
    "org.repos": {
        "en": "{count} {count:repository|repositories}",
        "zh": "{count} 个仓库",
    },
    "org.summary": {
        "en": "{merged} {merged:PR was|PRs were} merged across {repos} by {contributors} "
        "{contributors:contributor|contributors}; {key} key {key:PR|PRs}.",
        "zh": "本周期 {repos}共合并 {merged} 个 PR，贡献者 {contributors} 人，重点 PR {key} 个。",
    },
    "org.summary.empty": {
        "en": "No pull requests were merged in {scope} in this window.",
        "zh": "本周期内 {scope} 没有合并任何 PR。",
    },
    "org.summary.busiest": {
        "en": "Busiest: {repo} ({count} merged).",
        "zh": "最活跃的仓库：{repo}（合并 {count} 个）。",
    },
    "org.section.repos": {"en": "Repositories", "zh": "各仓库概况"},
    "org.section.themes": {"en": "Cross-repository themes", "zh": "跨仓库主题"},
    "org.section.key_prs": {"en": "Key PRs across the organisation", "zh": "全组织重点 PR"},
    "org.section.quiet": {"en": "Quiet repositories", "zh": "低活跃仓库"},
    "org.col.repo": {"en": "Repository", "zh": "仓库"},
    "org.col.merged": {"en": "Merged", "zh": "合并数"},
    "org.col.key": {"en": "Key PRs", "zh": "重点 PR"},
    "org.col.contributors": {"en": "Contributors", "zh": "贡献者"},
    "org.col.change": {"en": "Change on last week", "zh": "较上周"},
    "org.col.pr": {"en": "PR", "zh": "PR"},
    "org.col.title": {"en": "Title", "zh": "标题"},
    "org.col.score": {"en": "Score (of repo's top)", "zh": "评分（占本仓库最高分）"},
    "org.unknown": {"en": "unknown", "zh": "未知"},
    "org.theme.line": {"en": "{theme}: {parts}", "zh": "{theme}：{parts}"},
    "org.theme.part": {
        "en": "{count} {count:PR|PRs} in {repo}",
        "zh": "{repo} {count} 个 PR",
    },
    "org.themes.none": {
        "en": "No theme spans more than one repository this week.",
        "zh": "本周没有跨多个仓库的主题。",
    },
    "org.themes.none.period": {
        "en": "No theme spans more than one repository in this period.",
        "zh": "本期没有跨多个仓库的主题。",
    },
    "org.repo.facts.unknown": {
        "en": "merged, key PRs and contributors unknown: no PR of this window is stored yet "
        "· change on last week: {change}",
        "zh": "合并数、重点 PR、贡献者未知：本周期尚无已存储的 PR · 较上周 {change}",
    },
    "org.repo.facts": {
        "en": "{merged} merged · {key} key · {contributors} "
        "{contributors:contributor|contributors} · change on last week: {change}",
        "zh": "合并 {merged} · 重点 {key} · 贡献者 {contributors} · 较上周 {change}",
    },
    "org.repo.key_prs": {"en": "Key PRs", "zh": "重点 PR"},
    "org.repo.risks": {"en": "Risks", "zh": "风险"},
    "org.repo.no_key": {"en": "No key PRs.", "zh": "无重点 PR。"},
    "org.quiet.line": {
        "en": "{repo}: {count} merged ({prs})",
        "zh": "{repo}：合并 {count} 个（{prs}）",
    },
    "org.key.normalised": {
        "en": "Ranked by score divided by the top key-PR score of the PR's own repository, "
        "so each repository's best PR counts 100%.",
        "zh": "按评分与该 PR 所在仓库最高重点 PR 评分之比排序，各仓库最重要的 PR 均为 100%。",
    },
    "org.footer": {
        "en": "One digest for {repos}. Every figure is computed from the merged PRs of each "
        "repository with its own rule set.",
        "zh": "本周报汇总 {repos}。各项数据均按各仓库自己的规则集从已合并 PR 计算得出。",
    },
}
