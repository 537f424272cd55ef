"""The release digest, release cards and release feeds."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "release.title": {"en": "{repo} {tag} release notes", "zh": "{repo} {tag} 发布说明"},
    "release.context": {"en": "Changes since {base}", "zh": "自 {base} 以来的变更"},
    "release.context.dates": {
        "en": "Changes since {base} ({start} to {end})",
        "zh": "自 {base} 以来的变更（{start} 至 {end}）",
    },
    "release.fallback": {
        "en": "{repo} {tag}: {count} {count:PR|PRs}",
        "zh": "{repo} {tag}：{count} 个 PR",
    },
    "release.unknown": {"en": "unknown", "zh": "未知"},
    "release.none": {"en": "none", "zh": "无"},
    "release.picked_as": {"en": "cherry-picked as", "zh": "拣选合入为"},
    "release.detail_sep": {"en": " — ", "zh": " —— "},
    "release.lead": {"en": "Lead PRs:", "zh": "主要 PR："},
    # After the theme's name (in bold): "DeepSeek V4: 19 PRs (Bug fix 10, Feature 3)."
    "release.highlight": {
        "en": ": {count} {count:PR|PRs} ({kinds}).",
        "zh": "：{count} 个 PR（{kinds}）。",
    },
    "release.highlight.claim": {"en": "Stated: {claim}", "zh": "PR 所述：{claim}"},
    "release.kind_count": {"en": "{kind} {count}", "zh": "{kind} {count} 个"},
    "release.card.highlight": {
        "en": "{theme}: {count} {count:PR|PRs}",
        "zh": "{theme}：{count} 个 PR",
    },
    "release.card.notes": {"en": "Full {tag} release notes", "zh": "{tag} 完整发布说明"},
    "release.fact.prs": {"en": "PRs", "zh": "PR 数"},
    "release.fact.contributors": {"en": "Contributors", "zh": "贡献者"},
    "release.fact.new_contributors": {"en": "First-time contributors", "zh": "首次贡献者"},
    "release.fact.between": {"en": "Releases in between", "zh": "其间的版本"},
    "release.fact.unmapped": {"en": "Commits without a PR", "zh": "无对应 PR 的提交"},
    "release.section.counts": {"en": "In this release", "zh": "本版本概况"},
    "release.section.highlights": {"en": "Highlights", "zh": "亮点"},
    "release.section.features": {"en": "Features", "zh": "新功能"},
    "release.section.hardware": {
        "en": "Hardware and operator support",
        "zh": "硬件与算子支持",
    },
    "release.section.performance": {"en": "Performance", "zh": "性能"},
    "release.section.fixes": {"en": "Stability and bug fixes", "zh": "稳定性与缺陷修复"},
    "release.section.dependencies": {"en": "Dependencies", "zh": "依赖"},
    "release.section.breaking": {
        "en": "Breaking changes and migration notes",
        "zh": "破坏性变更与迁移说明",
    },
    "release.section.deprecations": {"en": "Deprecations", "zh": "弃用"},
    "release.section.docs": {"en": "Documentation", "zh": "文档"},
    "release.section.other": {
        "en": "Other changes (CI, tests, refactors)",
        "zh": "其他变更（CI、测试、重构）",
    },
    "release.section.notes": {"en": "Release notes", "zh": "发布说明"},
    "release.section.reverted": {"en": "Reverted changes", "zh": "已回退的变更"},
    "release.section.changelog": {"en": "Full changelog", "zh": "完整变更列表"},
    "release.changelog.section": {"en": "{section}:", "zh": "{section}："},
    "release.reverted_by": {"en": "reverted by", "zh": "已被回退："},
    "release.enable": {"en": "enable with {how}", "zh": "启用方式：{how}"},
    "release.merged.more": {"en": "and {count} more", "zh": "等另 {count} 个"},
    "release.dependency_files": {
        "en": "Dependency files changed, versions not stated:",
        "zh": "修改了依赖文件但未说明版本：",
    },
    "release.evidence.removed": {
        "en": "removes or renames a setting: “{title}”",
        "zh": "移除或重命名了配置项：“{title}”",
    },
    "release.evidence.split": {
        "en": "users must now set this separately: “{answer}”",
        "zh": "用户现在需要单独设置：“{answer}”",
    },
    "release.highlights.none": {
        "en": "No theme stands out among this release's PRs.",
        "zh": "本版本的 PR 中没有突出的主题。",
    },
    "release.dependency": {
        "en": "{name}: {before} → {after}",
        "zh": "{name}：{before} → {after}",
    },
    "release.versions_unknown": {
        "en": "changes dependency files; the versions are unknown from this data",
        "zh": "修改了依赖文件；现有数据无法得知版本",
    },
    "release.other.kind": {
        "en": "{kind}: {count} {count:PR|PRs}",
        "zh": "{kind}：{count} 个 PR",
    },
    "release.more": {"en": "+{count} more", "zh": "另有 {count} 个"},
    "release.feed.title": {"en": "{repo} releases", "zh": "{repo} 版本发布"},
    "release.feed.nav": {"en": "Repository", "zh": "仓库"},
    "release.evidence.title": {"en": "stated in the title", "zh": "标题中说明"},
    "release.evidence.answer": {
        "en": "user-facing change: “{answer}”",
        "zh": "面向用户的变更：“{answer}”",
    },
    "release.footer.offline": {
        "en": "Built from the store (no GitHub request); highlights compared with {history} "
        "earlier weeks.",
        "zh": "基于本地存储生成（未请求 GitHub）；亮点与之前 {history} 周对比。",
    },
    "release.footer.requests": {
        "en": "GitHub requests: {used} for the release (lower bound {bound}) and {newcomers} "
        "for first-time contributors; highlights compared with {history} earlier weeks.",
        "zh": "GitHub 请求：版本数据 {used} 次（下限 {bound} 次），首次贡献者查询 {newcomers} 次；"
        "亮点与之前 {history} 周对比。",
    },
    # Errors of the release digest (bot/releases/export.py, fetch.py, pipeline.py): the
    # CLI prints the English line, the chat the channel's language.
    "release.error.date": {
        "en": "{where}: bad date {value}: expected ISO 8601",
        "zh": "{where}：日期 {value} 无效：应为 `ISO 8601` 格式",
    },
    "release.error.object": {
        "en": "{path}: 'release' must be an object: {shape}",
        "zh": "{path}：'release' 必须是对象：{shape}",
    },
    "release.error.tag": {
        "en": "nothing imported: {path}: release.{where}: {problem}",
        "zh": "未导入任何内容：{path}：release.{where}：{problem}",
    },
    "release.error.tags": {
        "en": "{path}: 'release' needs a base and a head tag: {shape}",
        "zh": "{path}：'release' 需要 `base` 和 `head` 两个标签：{shape}",
    },
    "release.error.not_version": {
        "en": "{tag} is not a version tag; give --base TAG to compare it",
        "zh": "{tag} 不是版本标签；请用 `--base TAG` 指定对比的标签",
    },
    "release.error.no_earlier": {
        "en": "no release tag before {tag}; give --base TAG",
        "zh": "{tag} 之前没有版本标签；请用 `--base TAG` 指定",
    },
    "release.error.no_versions": {
        "en": "{repo} has no version tags; give a tag",
        "zh": "{repo} 没有版本标签；请给出一个标签",
    },
    "release.error.no_tag": {
        "en": "{repo} has no tag {tag}; newest tags: {known}",
        "zh": "{repo} 没有标签 {tag}；最新的标签：{known}",
    },
    "release.error.none_stored": {
        "en": "no release of {repo} is in the store; give a tag, or import a release export",
        "zh": "存储中没有 {repo} 的版本；请给出标签，或导入版本导出文件",
    },
    "release.error.not_stored": {
        "en": "release {tag} of {repo} is not in the store; run without --no-sync, or "
        "`vllm-bot import` its release export",
        "zh": "存储中没有 {repo} 的版本 {tag}；请去掉 `--no-sync` 运行，或用 `vllm-bot import` "
        "导入它的版本导出文件",
    },
    "release.error.not_stored.against": {
        "en": "release {tag} against {base} of {repo} is not in the store; run without "
        "--no-sync, or `vllm-bot import` its release export",
        "zh": "存储中没有 {repo} 的版本 {tag}（对比 {base}）；请去掉 `--no-sync` 运行，或用 "
        "`vllm-bot import` 导入它的版本导出文件",
    },
    "release.error.order": {
        "en": "--base {base} is not older than {tag}; give an earlier tag, or leave --base "
        "out for the previous release",
        "zh": "`--base {base}` 并不早于 {tag}；请给出更早的标签，或省略 `--base` 以对比上一个版本",
    },
}
