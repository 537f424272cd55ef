"""The weekly digest: header, summary, facts, risks, trends, key PRs, recommendations, footer."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # One risk line per flag: "{count} PRs changed core paths".
    "risk.core-path": {
        "en": "{count} {count:PR|PRs} changed core paths",
        "zh": "{count} 个 PR 涉及核心路径变更",
    },
    "risk.missing-tests": {
        "en": "{count} {count:PR|PRs} changed code without tests",
        "zh": "{count} 个 PR 缺少测试覆盖",
    },
    "risk.breaking": {
        "en": "{count} {count:PR is a breaking change|PRs are breaking changes}",
        "zh": "{count} 个 PR 属于破坏性变更",
    },
    "risk.dependency": {
        "en": "{count} {count:PR|PRs} changed dependencies",
        "zh": "{count} 个 PR 涉及依赖变更",
    },
    "risk.large": {
        "en": "{count} {count:PR is a large change|PRs are large changes}",
        "zh": "{count} 个 PR 为大型变更",
    },
    "risk.revert": {
        "en": "{count} {count:PR is a revert|PRs are reverts}",
        "zh": "{count} 个 PR 为回滚",
    },
    "risk.core_untested": {
        "en": "{count} {count:PR|PRs} changed core paths without tests",
        "zh": "{count} 个 PR 修改了核心路径却没有附带测试",
    },
    # A file-based flag that could not be computed for some PRs (no file list).
    "risk.unknown": {
        "en": "not known for {count} {count:PR|PRs} without a file list",
        "zh": "{count} 个 PR 没有文件列表，无法判断",
    },
    "risk.unknown_line": {
        "en": "{flags}: not known for {count} {count:PR|PRs} without a file list.",
        "zh": "{count} 个 PR 没有文件列表，无法判断以下风险：{flags}。",
    },
    "risk.details.breaking": {"en": "Breaking changes", "zh": "破坏性变更明细"},
    "risk.details.dependency": {"en": "Dependency changes", "zh": "依赖变更明细"},
    "risk.details.large": {"en": "Large PRs", "zh": "大型 PR 明细"},
    "risk.none": {
        "en": "No risk flag was raised this week.",
        "zh": "本周没有 PR 触发风险标记。",
    },
    "risk.none.period": {
        "en": "No risk flag was raised in this period.",
        "zh": "本期没有 PR 触发风险标记。",
    },
    "title.week": {
        "en": "{repo} weekly digest, {year} week {week}",
        "zh": "{repo} 仓库 {year} 年第 {week} 周变更周报",
    },
    "title.window": {
        "en": "{repo} digest, {label}",
        "zh": "{repo} 仓库变更报告（{label}）",
    },
    "context.dates": {
        "en": "{label} · {start} – {end} ({timezone}) · {repo}",
        "zh": "{label} · {start} 至 {end}（{timezone}）· {repo}",
    },
    "incomplete": {
        "en": "Incomplete: this window is not fully synced yet, so PRs may be missing "
        "from every figure below.",
        "zh": "数据不完整：该周期尚未完全同步，以下各项统计可能遗漏部分 PR。",
    },
    "incomplete.short": {"en": "incomplete", "zh": "数据不完整"},
    # A window that has not ended is a different state from one that failed to sync: its
    # figures are right so far, they just will grow.
    "incomplete.running": {
        "en": "The week is not over yet (figures so far).",
        "zh": "本周尚未结束（以下为截至目前的数据）。",
    },
    "incomplete.running.period": {
        "en": "This period is not over yet (figures so far).",
        "zh": "该时间段尚未结束（以下为截至目前的数据）。",
    },
    "incomplete.running_unsynced": {
        "en": "The week is not over yet and not fully synced (figures so far; PRs may be missing).",
        "zh": "本周尚未结束，且数据尚未完全同步（以下为截至目前的数据，可能遗漏部分 PR）。",
    },
    "incomplete.running_unsynced.period": {
        "en": "This period is not over yet and not fully synced (figures so far; PRs may be "
        "missing).",
        "zh": "该时间段尚未结束，且数据尚未完全同步（以下为截至目前的数据，可能遗漏部分 PR）。",
    },
    "incomplete.short.running": {"en": "week not over yet", "zh": "本周尚未结束"},
    "incomplete.short.running.period": {"en": "period not over yet", "zh": "该时间段尚未结束"},
    "section.summary": {"en": "Summary", "zh": "执行摘要"},
    "section.highlights": {"en": "Highlights", "zh": "本周重点变化"},
    "section.highlights.period": {"en": "Highlights", "zh": "本期重点变化"},
    "section.trends": {"en": "Trends", "zh": "模块与主题趋势"},
    "section.risks": {"en": "Risks", "zh": "风险观察"},
    "section.key_prs": {"en": "Key PRs", "zh": "重点 PR 速览"},
    "section.recommendations": {"en": "Recommendations", "zh": "后续建议"},
    "summary.empty": {
        "en": "No pull requests were merged into {repo} in this window.",
        "zh": "本周期内 {repo} 没有合并任何 PR。",
    },
    # The week's news opens the summary; then the totals, one fact per clause (English
    # singulars use the inline "{n:one|other}" form).
    # The news first: the week's two or three largest efforts, each with what its lead PR
    # landed; then the other highlights by name.
    "summary.lead": {
        "en": "The week's main changes: {items}.",
        "zh": "本周最重要的变化：{items}。",
    },
    "summary.lead.period": {
        "en": "This period's main changes: {items}.",
        "zh": "本期最重要的变化：{items}。",
    },
    "summary.lead_item": {
        "en": "{name} ({count} {count:PR|PRs}) {change}",
        "zh": "{name}（{count} 个 PR）{change}",
    },
    "summary.rest": {"en": "Also: {themes}.", "zh": "此外还有 {themes}。"},
    "summary.news": {
        "en": "This week's work centred on {themes}.",
        "zh": "本周的工作主要集中在 {themes}。",
    },
    "summary.news.period": {
        "en": "This period's work centred on {themes}.",
        "zh": "本期的工作主要集中在 {themes}。",
    },
    "summary.counts": {
        "en": "{merged} {merged:PR was|PRs were} merged into {repo}, written by {contributors} "
        "{contributors:contributor|contributors}, adding {additions} {additions:line|lines} "
        "and removing {deletions}.",
        "zh": "本周 {repo} 共合并 {merged} 个 PR，共有 {contributors} 位贡献者参与，"
        "新增 {additions} 行、删除 {deletions} 行。",
    },
    "summary.counts.period": {
        "en": "{merged} {merged:PR was|PRs were} merged into {repo} in this period, written by "
        "{contributors} {contributors:contributor|contributors}, adding {additions} "
        "{additions:line|lines} and removing {deletions}.",
        "zh": "本期 {repo} 共合并 {merged} 个 PR，共有 {contributors} 位贡献者参与，"
        "新增 {additions} 行、删除 {deletions} 行。",
    },
    # No PR's size is known (title-only data): the line counts are left out, not shown as 0.
    "summary.counts_nolines": {
        "en": "{merged} {merged:PR was|PRs were} merged into {repo}, written by {contributors} "
        "{contributors:contributor|contributors}; the lines changed are unknown.",
        "zh": "本周 {repo} 共合并 {merged} 个 PR，共有 {contributors} 位贡献者参与；改动行数未知。",
    },
    "summary.counts_nolines.period": {
        "en": "{merged} {merged:PR was|PRs were} merged into {repo} in this period, written by "
        "{contributors} {contributors:contributor|contributors}; the lines changed are unknown.",
        "zh": "本期 {repo} 共合并 {merged} 个 PR，共有 {contributors} 位贡献者参与；改动行数未知。",
    },
    "summary.key": {
        "en": "{key} of them {key:is a key PR|are key PRs} (see the table below).",
        "zh": "重点 PR 共 {key} 个（见下方列表）。",
    },
    "summary.nokey": {
        "en": "No PR reached the key-PR score.",
        "zh": "没有 PR 达到重点 PR 的分数。",
    },
    "summary.title_only": {
        "en": "{count} {count:PR has|PRs have} no file list (title-only data), so {count:its|"
        "their} size and file-based risks are unknown.",
        "zh": "{count} 个 PR 没有文件列表（仅有标题数据），其规模与基于文件的风险无法判断。",
    },
    "summary.title_only_keys": {
        "en": "{count} {count:PR has|PRs have} no file list (title-only data), so {count:its|"
        "their} size and file-based risks are unknown; {keys} key {keys:PR was|PRs were} "
        "scored from titles, ranked against the other title-only PRs.",
        "zh": "{count} 个 PR 没有文件列表（仅有标题数据），其规模与基于文件的风险无法判断；"
        "{keys} 个重点 PR 依据标题评分，并在仅有标题的 PR 之间相对排序选出。",
    },
    "summary.new_contributors": {
        "en": "First-time contributors: {names}.",
        "zh": "首次贡献者：{names}。",
    },
    # --no-sync or GitHub unreachable: say it is unknown rather than imply there were none.
    "summary.new_contributors_unknown": {
        "en": "First-time contributors: unknown (needs GitHub).",
        "zh": "首次贡献者：未知（需要连接 GitHub 查询）。",
    },
    "summary.theme_item": {
        "en": "{name} ({count} {count:PR|PRs})",
        "zh": "{name}（{count} 个 PR）",
    },
    "summary.flags": {"en": "Risks: {items}.", "zh": "风险方面，{items}。"},
    "summary.no_flags": {
        "en": "No risk flag was raised.",
        "zh": "本周没有 PR 触发风险标记。",
    },
    "summary.no_flags.period": {
        "en": "No risk flag was raised.",
        "zh": "本期没有 PR 触发风险标记。",
    },
    "fact.merged": {"en": "Merged PRs", "zh": "合并 PR"},
    "fact.key": {"en": "Key PRs", "zh": "重点 PR"},
    "fact.contributors": {"en": "Contributors", "zh": "贡献者"},
    "fact.new_contributors": {"en": "First-time contributors", "zh": "首次贡献者"},
    "fact.new_contributors_value": {"en": "{count} ({names})", "zh": "{count} 位（{names}）"},
    "fact.new_contributors_none": {"en": "none", "zh": "无"},
    "fact.new_contributors_unknown": {
        "en": "unknown (needs GitHub)",
        "zh": "未知（需要连接 GitHub 查询）",
    },
    "fact.lines": {"en": "Lines", "zh": "代码行"},
    "fact.lines_value": {"en": "+{additions} / −{deletions}", "zh": "+{additions} / −{deletions}"},
    "fact.lines_unknown": {"en": "unknown (no file lists)", "zh": "未知（没有文件列表）"},
    "fact.lines_partial": {
        "en": "+{additions} / −{deletions} (unknown for {count} {count:PR|PRs})",
        "zh": "+{additions} / −{deletions}（另有 {count} 个 PR 规模未知）",
    },
    "trend.words.up": {"en": "up {percent} from last week", "zh": "较上周增长 {percent}"},
    "trend.words.down": {"en": "down {percent} from last week", "zh": "较上周下降 {percent}"},
    "trend.words.flat": {"en": "as many as last week", "zh": "与上周持平"},
    "trend.words.up.period": {
        "en": "up {percent} on the previous period",
        "zh": "较上期增长 {percent}",
    },
    "trend.words.down.period": {
        "en": "down {percent} on the previous period",
        "zh": "较上期下降 {percent}",
    },
    "trend.words.flat.period": {"en": "as many as the previous period", "zh": "与上期持平"},
    "trend.up": {"en": "▲ {percent}", "zh": "▲ {percent}"},
    "trend.down": {"en": "▼ {percent}", "zh": "▼ {percent}"},
    "trend.flat": {"en": "unchanged", "zh": "持平"},
    "trend.new": {"en": "new", "zh": "新增"},
    "trends.modules": {"en": "PRs per module", "zh": "各模块 PR 数"},
    "trends.kinds": {"en": "PRs per kind", "zh": "各类型 PR 数"},
    "trends.col.module": {"en": "Module", "zh": "模块"},
    "trends.col.kind": {"en": "Kind", "zh": "类型"},
    "trends.col.count": {"en": "This week", "zh": "本周"},
    "trends.col.count.period": {"en": "This period", "zh": "本期"},
    "trends.col.previous": {"en": "Last week", "zh": "上周"},
    "trends.col.previous.period": {"en": "Previous period", "zh": "上期"},
    "trends.col.change": {"en": "Change", "zh": "变化"},
    "trends.previous_incomplete": {
        "en": "Last week ({label}) is not fully synced, so this week is not compared with it; "
        "sync {label} to see the changes.",
        "zh": "上周（{label}）数据尚未完全同步，因此本周不与其对比；同步 {label} 后即可查看变化。",
    },
    "trends.previous_incomplete.period": {
        "en": "The previous period ({label}) is not fully synced, so this period is not "
        "compared with it; sync {label} to see the changes.",
        "zh": "上一时间段（{label}）数据尚未完全同步，因此本期不与其对比；"
        "同步 {label} 后即可查看变化。",
    },
    "trends.quiet": {
        "en": "Went quiet (active last week, no PR this week): {modules}.",
        "zh": "本周沉寂的模块（上周活跃、本周无 PR）：{modules}。",
    },
    "trends.quiet.period": {
        "en": "Went quiet (active in the previous period, no PR in this one): {modules}.",
        "zh": "本期沉寂的模块（上期活跃、本期无 PR）：{modules}。",
    },
    "risk.revert_relanded_count": {
        "en": " ({count} re-landed since)",
        "zh": "（其中 {count} 个已重新合入）",
    },
    "risk.revert_relanded": {
        "en": "; {count} re-landed this week, no follow-up needed: {pairs}",
        "zh": "；其中 {count} 个已在本周重新合入，无需跟进：{pairs}",
    },
    "risk.revert_relanded.period": {
        "en": "; {count} re-landed in this period, no follow-up needed: {pairs}",
        "zh": "；其中 {count} 个已在本期重新合入，无需跟进：{pairs}",
    },
    "risk.reland_pair": {"en": "{revert} by {reland}", "zh": "{revert} 由 {reland} 重新合入"},
    "risk.unknown_found": {
        "en": " {flags}: only what the titles show is counted above.",
        "zh": "其中{flags}仅按标题统计。",
    },
    "keypr.note.from_title": {
        "en": "A PR without a description is summarised by what its title says it does.",
        "zh": "没有描述的 PR，概要依据其标题说明它做了什么。",
    },
    # A title-only key PR whose object has no Chinese: its kind and the names its title
    # gives (the title itself is in the next column).
    "keypr.kind_names": {"en": "{kind}: {names}", "zh": "{kind}，涉及 {names}"},
    "keypr.col.pr": {"en": "PR", "zh": "PR"},
    "keypr.col.title": {"en": "Title", "zh": "标题"},
    "keypr.col.author": {"en": "Author", "zh": "作者"},
    "keypr.col.score": {"en": "Score", "zh": "重要性"},
    "keypr.col.modules": {"en": "Modules", "zh": "模块"},
    "keypr.col.summary": {"en": "Summary", "zh": "概要"},
    "keypr.note.titles": {
        "en": "* scored from titles: the PR has no file list, so its score reads the title's "
        "own signals (a new model, backend or kernel, a feature, a numbered series, a severe "
        "bug; typo, CI and other minor fixes low) and it is ranked against the other "
        "title-only PRs of the window rather than against the score floor ({floor}).",
        "zh": "* 依据标题评分：该 PR 没有文件列表，分数取自标题本身的信号（新增模型、后端或算子、"
        "新功能、编号系列、严重缺陷；拼写、CI 等小改动分低），并与本期其他仅有标题的 PR "
        "相对排序，而非按分数门槛（{floor}）筛选。",
    },
    "keypr.note.language": {
        "en": "Summaries are quoted from each PR's description, in the language it was written in.",
        "zh": "概要摘自各 PR 的描述，保留其原文语言（多为英文），未经翻译。",
    },
    "keypr.none": {
        "en": "No PR reached the key-PR score floor ({floor}).",
        "zh": "本周没有 PR 达到重点 PR 的分数门槛（{floor}）。",
    },
    "keypr.none.period": {
        "en": "No PR reached the key-PR score floor ({floor}).",
        "zh": "本期没有 PR 达到重点 PR 的分数门槛（{floor}）。",
    },
    # Recommendations from the week's data (bot.digest.recommend): each names its PR and the
    # evidence found there.
    "rec.migrate-option": {
        "en": "{pr} {what}: deployments that set {count:it|them} should switch to the new "
        "{count:name|names} before upgrading.",
        "zh": "{pr} {what}：仍在使用这 {count} 个选项的部署需在升级前改用新名称。",
    },
    "rec.migrate-option.removed": {
        "en": "{pr} {what}: deployments that set {count:it|them} must drop or replace "
        "{count:it|them} before upgrading.",
        "zh": "{pr} {what}：仍在使用这 {count} 个选项的部署需在升级前删除或替换。",
    },
    "rec.migrate.renamed": {
        "en": "renames {count} {count:option|options} ({pairs})",
        "zh": "重命名了 {count} 个选项（{pairs}）",
    },
    "rec.migrate.removed": {
        "en": "removes {names}",
        "zh": "移除了 {names}",
    },
    "rec.revert-open": {
        "en": "{pr} reverted {target}, and no later PR lands it again: re-land it with its fix, "
        "or record why it stays out.",
        "zh": "{pr} 回滚了 {target}，之后没有 PR 重新合入：修复后重新合入，或说明不再合入的原因。",
    },
    "rec.revert-open.unknown": {
        "en": "{pr} (“{target}”) reverts a change that no later PR lands again: re-land it "
        "with its fix, or record why it stays out.",
        "zh": "{pr}（“{target}”）回滚的改动之后没有 PR 重新合入：修复后重新合入，"
        "或说明不再合入的原因。",
    },
    "rec.core-untested": {
        "en": "{pr} is a large core-path change without tests ({core}; {size}): ask for a "
        "regression test before it ships.",
        "zh": "{pr} 是未附带测试的大型核心路径改动（{core}；{size}）：发布前请补充回归测试。",
    },
    "rec.series-incomplete": {
        "en": "The series “{series}” has {done} of {total} parts merged ({prs}); "
        "{count:part|parts} {missing} {count:is|are} not merged: see the series through or "
        "say where it stops.",
        "zh": "系列“{series}”共 {total} 部分，已合入 {done} 部分（{prs}），其余 {count} 部分"
        "（第 {missing} 部分）尚未合入：请跟进完成，或说明该系列在何处收尾。",
    },
    "rec.breaking": {
        "en": "{pr} is breaking ({reason}): call it out in the release notes.",
        "zh": "{pr} 是破坏性变更（{reason}）：请在 release note 中说明。",
    },
    "rec.none": {
        "en": "Nothing in this week's data calls for follow-up.",
        "zh": "本周数据中没有需要特别跟进的事项。",
    },
    "rec.none.period": {
        "en": "Nothing in this period's data calls for follow-up.",
        "zh": "本期数据中没有需要特别跟进的事项。",
    },
    "more": {"en": "and {count} more", "zh": "，另有 {count} 个"},
    "names.more": {"en": "{names} and {count} more", "zh": "{names}，另有 {count} 人"},
    "footer": {
        # No backticks: the footer is rendered as plain text everywhere, and a copied
        # command must not carry the zero-width spaces Slack escaping puts before them.
        "en": "Look up any PR with /vllm pr {example} ; subscribe to a module with "
        "/vllm subscribe {module} . Every figure is computed from the merged PRs; the "
        "rules are in docs/digest.md.",
        "zh": "使用 /vllm pr {example} 查看任意 PR；使用 /vllm subscribe {module} 订阅模块。"
        "所有数字均由已合并 PR 计算得出，规则见 docs/digest.md。",
    },
    "footer.no_module": {
        "en": "Look up any PR with /vllm pr {example} ; /vllm modules lists the modules to "
        "subscribe to. Every figure is computed from the merged PRs; the rules are in "
        "docs/digest.md.",
        "zh": "使用 /vllm pr {example} 查看任意 PR；/vllm modules 列出可订阅的模块。"
        "所有数字均由已合并 PR 计算得出，规则见 docs/digest.md。",
    },
    "footer.narrative": {
        "en": "Summary and theme paragraphs written by {model} and checked against the data.",
        "zh": "摘要与主题段落由 {model} 撰写，并已与数据核对。",
    },
    "footer.archive": {
        "en": "Every week's digest, module pages and feeds: {url}",
        "zh": "历史周报、模块页面与订阅源：{url}",
    },
    "section.history": {
        "en": "Trends over the last {weeks} {weeks:week|weeks}",
        "zh": "近 {weeks} 周趋势",
    },
    "title.scope": {"en": "{modules} · {title}", "zh": "{modules}｜{title}"},
}
