"""The one message catalogue (English and Simplified Chinese) and locale-aware formatting.

Every user-facing string of the digest and the PR cards lives in MESSAGES, keyed by a
message id, with one entry per language and the same ``str.format`` placeholders in each
(tests enforce both). Templates never contain words, only structure, so the two languages
cannot drift apart. Numbers, percentages, dates and lists are formatted with Babel so each
language follows its own convention.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import cast

from babel.dates import format_date, format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

LANGUAGES = ("en", "zh")
_LOCALES = {"en": "en", "zh": "zh_Hans_CN"}

MESSAGES: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------ kinds (CONTRACT ids)
    "kind.feature": {"en": "Feature", "zh": "新功能"},
    "kind.bugfix": {"en": "Bug fix", "zh": "缺陷修复"},
    "kind.performance": {"en": "Performance", "zh": "性能优化"},
    "kind.refactor": {"en": "Refactor", "zh": "重构"},
    "kind.model": {"en": "Model support", "zh": "模型支持"},
    "kind.ci": {"en": "CI/build", "zh": "CI 与构建"},
    "kind.docs": {"en": "Documentation", "zh": "文档"},
    "kind.test": {"en": "Tests", "zh": "测试"},
    "kind.revert": {"en": "Revert", "zh": "回滚"},
    "kind.security": {"en": "Security", "zh": "安全"},
    "kind.misc": {"en": "Other", "zh": "其他"},
    # ------------------------------------------------------------ flags (CONTRACT ids)
    "flag.core-path": {"en": "Core-path change", "zh": "核心路径变更"},
    "flag.missing-tests": {"en": "Missing tests", "zh": "缺少测试覆盖"},
    "flag.breaking": {"en": "Breaking change", "zh": "破坏性变更"},
    "flag.dependency": {"en": "Dependency change", "zh": "依赖变更"},
    "flag.large": {"en": "Large change", "zh": "大型变更"},
    "flag.revert": {"en": "Revert", "zh": "回滚"},
    # One risk line per flag: "{count} PRs changed core paths".
    "risk.core-path": {
        "en": "{count} PRs changed core paths",
        "zh": "{count} 个 PR 涉及核心路径变更",
    },
    "risk.core-path.one": {
        "en": "{count} PR changed core paths",
        "zh": "{count} 个 PR 涉及核心路径变更",
    },
    "risk.missing-tests": {
        "en": "{count} PRs changed code without tests",
        "zh": "{count} 个 PR 缺少测试覆盖",
    },
    "risk.missing-tests.one": {
        "en": "{count} PR changed code without tests",
        "zh": "{count} 个 PR 缺少测试覆盖",
    },
    "risk.breaking": {
        "en": "{count} PRs are breaking changes",
        "zh": "{count} 个 PR 属于破坏性变更",
    },
    "risk.breaking.one": {
        "en": "{count} PR is a breaking change",
        "zh": "{count} 个 PR 属于破坏性变更",
    },
    "risk.dependency": {
        "en": "{count} PRs changed dependencies",
        "zh": "{count} 个 PR 涉及依赖变更",
    },
    "risk.dependency.one": {
        "en": "{count} PR changed dependencies",
        "zh": "{count} 个 PR 涉及依赖变更",
    },
    "risk.large": {"en": "{count} PRs are large changes", "zh": "{count} 个 PR 为大型变更"},
    "risk.large.one": {"en": "{count} PR is a large change", "zh": "{count} 个 PR 为大型变更"},
    "risk.revert": {"en": "{count} PRs are reverts", "zh": "{count} 个 PR 为回滚"},
    "risk.revert.one": {"en": "{count} PR is a revert", "zh": "{count} 个 PR 为回滚"},
    "risk.core_untested": {
        "en": "{count} PRs changed core paths without tests",
        "zh": "{count} 个 PR 修改了核心路径却没有附带测试",
    },
    "risk.core_untested.one": {
        "en": "{count} PR changed core paths without tests",
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
    # ------------------------------------------------------------ header
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
    # ------------------------------------------------------------ sections
    "section.summary": {"en": "Summary", "zh": "执行摘要"},
    "section.highlights": {"en": "Highlights", "zh": "本周重点变化"},
    "section.highlights.period": {"en": "Highlights", "zh": "本期重点变化"},
    "section.trends": {"en": "Trends", "zh": "模块与主题趋势"},
    "section.risks": {"en": "Risks", "zh": "风险观察"},
    "section.key_prs": {"en": "Key PRs", "zh": "重点 PR 速览"},
    "section.recommendations": {"en": "Recommendations", "zh": "后续建议"},
    # ------------------------------------------------------------ summary
    "summary.empty": {
        "en": "No pull requests were merged into {repo} in this window.",
        "zh": "本周期内 {repo} 没有合并任何 PR。",
    },
    # The week's news opens the summary; then the totals, one fact per clause (English
    # singulars use the inline "{n:one|other}" form).
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
    "summary.theme_item": {"en": "{name} ({count} PRs)", "zh": "{name}（{count} 个 PR）"},
    "summary.theme_item.one": {"en": "{name} ({count} PR)", "zh": "{name}（{count} 个 PR）"},
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
    # ------------------------------------------------------------ highlights
    "highlight.activity": {
        "en": "{count} {count:PR|PRs} this week ({trend}), {key} of them key.",
        "zh": "本周共 {count} 个 PR（{trend}），其中 {key} 个重点 PR。",
    },
    "highlight.activity.period": {
        "en": "{count} {count:PR|PRs} in this period ({trend}), {key} of them key.",
        "zh": "本期共 {count} 个 PR（{trend}），其中 {key} 个重点 PR。",
    },
    "highlight.activity_new": {
        "en": "{count} {count:PR|PRs} this week (none last week), {key} of them key.",
        "zh": "本周共 {count} 个 PR（上周为 0），其中 {key} 个重点 PR。",
    },
    "highlight.activity_new.period": {
        "en": "{count} {count:PR|PRs} in this period (none in the previous one), {key} of "
        "them key.",
        "zh": "本期共 {count} 个 PR（上期为 0），其中 {key} 个重点 PR。",
    },
    # The previous window is not fully synced: state this window's figures only.
    "highlight.activity_plain": {
        "en": "{count} {count:PR|PRs} this week, {key} of them key.",
        "zh": "本周共 {count} 个 PR，其中 {key} 个重点 PR。",
    },
    "highlight.activity_plain.period": {
        "en": "{count} {count:PR|PRs} in this period, {key} of them key.",
        "zh": "本期共 {count} 个 PR，其中 {key} 个重点 PR。",
    },
    "highlight.activity_other": {
        "en": "{count} key {count:PR|PRs} outside the themes above.",
        "zh": "以上主题之外的 {count} 个重点 PR。",
    },
    "highlight.more": {
        "en": "And {count} more key {count:PR|PRs} in this theme: {prs}",
        "zh": "该主题另有 {count} 个重点 PR：{prs}",
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
    # ------------------------------------------------------------ themes (highlight groups)
    "theme.continuing": {
        "en": "{count} {count:PR|PRs}, continuing (last week {previous} → this week {count}).",
        "zh": "本周 {count} 个 PR，延续上周的工作（上周 {previous} 个 → 本周 {count} 个）。",
    },
    "theme.continuing.period": {
        "en": "{count} {count:PR|PRs}, continuing (previous week {previous} → this period "
        "{count}).",
        "zh": "本期 {count} 个 PR，延续此前的工作（前一周 {previous} 个 → 本期 {count} 个）。",
    },
    "theme.unknown": {
        "en": "{count} {count:PR|PRs} (no earlier weeks in the store to compare with).",
        "zh": "本周 {count} 个 PR（存储中没有更早的周可供比较）。",
    },
    "theme.unknown.period": {
        "en": "{count} {count:PR|PRs} (no earlier weeks in the store to compare with).",
        "zh": "本期 {count} 个 PR（存储中没有更早的周可供比较）。",
    },
    "theme.authors": {"en": "Led by {authors}.", "zh": "主要贡献者：{authors}。"},
    "theme.authors_more": {
        "en": "Led by {authors}, with {count} other {count:contributor|contributors}.",
        "zh": "主要贡献者：{authors}，另有 {count} 位贡献者参与。",
    },
    "theme.claims": {"en": "Stated figures: {claims}.", "zh": "PR 中给出的数据：{claims}。"},
    "theme.author_item": {"en": "{name} ({count})", "zh": "{name}（{count} 个）"},
    # A quoted description keeps its language; in Chinese the quotes mark it as quoted.
    "theme.more": {
        "en": "And {count} more {count:PR|PRs} in this theme: {prs}",
        "zh": "该主题另有 {count} 个 PR：{prs}",
    },
    "theme.none": {"en": "No theme stood out this week.", "zh": "本周没有突出的主题。"},
    "theme.none.period": {"en": "No theme stood out in this period.", "zh": "本期没有突出的主题。"},
    "highlight.kinds": {"en": "Mostly {kinds}.", "zh": "以{kinds}为主。"},
    "highlight.kind_item": {"en": "{kind} ({count})", "zh": "{kind}（{count}）"},
    "highlight.authors": {"en": "Key work by {authors}.", "zh": "重点工作来自 {authors}。"},
    "highlight.claims": {"en": "Claimed gains: {claims}.", "zh": "声称的收益：{claims}。"},
    "highlight.claim_item": {"en": "{pr} {claim}", "zh": "{pr} {claim}"},
    "highlight.other": {"en": "Other", "zh": "其他"},
    # Claims inside a non-English sentence (bot.analysis.claims.claim_text): the figure as
    # stated, the metric translated; English shows the claim exactly as written.
    "claim.up": {"en": "{metric} up {figure}", "zh": "{metric}提升 {figure}"},
    "claim.down": {"en": "{metric} down {figure}", "zh": "{metric}降低 {figure}"},
    "claim.quoted": {"en": "“{text}”", "zh": "“{text}”"},
    "claim.where": {"en": " (on {where})", "zh": "（{where}）"},
    "claim.better": {"en": "{metric} better by {figure}", "zh": "{metric}改善 {figure}"},
    "claim.change": {"en": "{metric} {figure}", "zh": "{metric}{figure}"},
    "claim.metric.speed": {"en": "speed", "zh": "速度"},
    "claim.metric.throughput": {"en": "throughput", "zh": "吞吐量"},
    "claim.metric.latency": {"en": "latency", "zh": "延迟"},
    "claim.metric.prefill": {"en": "prefill", "zh": "预填充"},
    "claim.metric.decode": {"en": "decode", "zh": "解码"},
    "claim.metric.output": {"en": "output", "zh": "输出"},
    "claim.metric.token": {"en": "token", "zh": "词元"},
    "claim.metric.end": {"en": "end", "zh": "端"},
    "claim.metric.to": {"en": "to", "zh": "到"},
    "claim.metric.e2e": {"en": "e2e", "zh": "端到端"},
    "claim.metric.bandwidth": {"en": "bandwidth", "zh": "带宽"},
    "claim.metric.performance": {"en": "performance", "zh": "性能"},
    "claim.metric.perf": {"en": "perf", "zh": "性能"},
    "claim.metric.kernel": {"en": "kernel", "zh": "算子"},
    "claim.metric.memory": {"en": "memory", "zh": "内存"},
    "claim.metric.usage": {"en": "usage", "zh": "占用"},
    "claim.metric.acceptance": {"en": "acceptance", "zh": "接受"},
    "claim.metric.rate": {"en": "rate", "zh": "率"},
    "claim.metric.length": {"en": "length", "zh": "长度"},
    "claim.metric.hit": {"en": "hit", "zh": "命中"},
    "claim.metric.cache": {"en": "cache", "zh": "缓存"},
    "claim.metric.prefix": {"en": "prefix", "zh": "前缀"},
    "highlight.by": {"en": " by {author}", "zh": "（作者 {author}）"},
    "highlight.model_written": {
        "en": "(written by {model} from the data above, figures checked)",
        "zh": "（由 {model} 根据上述数据撰写，数字已校验）",
    },
    "highlight.none": {"en": "No key PRs this week.", "zh": "本周没有重点 PR。"},
    "highlight.none.period": {"en": "No key PRs in this period.", "zh": "本期没有重点 PR。"},
    "trend.up": {"en": "▲ {percent}", "zh": "▲ {percent}"},
    "trend.down": {"en": "▼ {percent}", "zh": "▼ {percent}"},
    "trend.flat": {"en": "unchanged", "zh": "持平"},
    "trend.new": {"en": "new", "zh": "新增"},
    # ------------------------------------------------------------ trends
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
    # --- prose ---
    # What a highlight's lead PRs change: the action from the title's verb, the object as
    # written. zh puts a space after the verb so a Latin object never runs into it.
    "highlight.changes": {"en": "This week: {changes}.", "zh": "本周{changes}。"},
    "highlight.changes.period": {"en": "In this period: {changes}.", "zh": "本期{changes}。"},
    "highlight.purpose": {"en": "{pr} says: “{text}”", "zh": "{pr} 的描述：“{text}”。"},
    "highlight.purpose_en": {
        "en": "{pr} says: “{text}”",
        "zh": "{pr} 的描述（英文原文）：“{text}”。",
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
    "change.ref": {"en": "{what} ({pr})", "zh": "{what}（{pr}）"},
    "change.quoted": {"en": "“{what}”", "zh": "“{what}”"},
    "change.add": {"en": "adds {what}", "zh": "新增 {what}"},
    "change.support": {"en": "adds support for {what}", "zh": "支持 {what}"},
    "change.fix": {"en": "fixes {what}", "zh": "修复 {what}"},
    "change.remove": {"en": "removes {what}", "zh": "移除 {what}"},
    "change.delete": {"en": "deletes {what}", "zh": "删除 {what}"},
    "change.refactor": {"en": "refactors {what}", "zh": "重构 {what}"},
    "change.migrate": {"en": "migrates {what}", "zh": "迁移 {what}"},
    "change.optimize": {"en": "optimizes {what}", "zh": "优化 {what}"},
    "change.enable": {"en": "enables {what}", "zh": "启用 {what}"},
    "change.disable": {"en": "disables {what}", "zh": "禁用 {what}"},
    "change.implement": {"en": "implements {what}", "zh": "实现 {what}"},
    "change.introduce": {"en": "introduces {what}", "zh": "引入 {what}"},
    "change.replace": {"en": "replaces {what}", "zh": "替换 {what}"},
    "change.rename": {"en": "renames {what}", "zh": "重命名 {what}"},
    "change.move": {"en": "moves {what}", "zh": "移动 {what}"},
    "change.update": {"en": "updates {what}", "zh": "更新 {what}"},
    "change.upgrade": {"en": "upgrades {what}", "zh": "升级 {what}"},
    "change.deprecate": {"en": "deprecates {what}", "zh": "弃用 {what}"},
    "change.clean": {"en": "cleans up {what}", "zh": "清理 {what}"},
    "change.unify": {"en": "unifies {what}", "zh": "统一 {what}"},
    "change.simplify": {"en": "simplifies {what}", "zh": "简化 {what}"},
    "change.speed": {"en": "speeds up {what}", "zh": "加速 {what}"},
    "change.avoid": {"en": "avoids {what}", "zh": "避免 {what}"},
    "change.revert": {"en": "reverts {what}", "zh": "回滚 {what}"},
    "change.reland": {"en": "re-lands {what}", "zh": "重新合入 {what}"},
    "change.port": {"en": "ports {what}", "zh": "移植 {what}"},
    "change.extend": {"en": "extends {what}", "zh": "扩展 {what}"},
    "change.improve": {"en": "improves {what}", "zh": "改进 {what}"},
    "change.allow": {"en": "allows {what}", "zh": "允许 {what}"},
    "change.expose": {"en": "exposes {what}", "zh": "开放 {what}"},
    "change.use": {"en": "switches to {what}", "zh": "改用 {what}"},
    "change.split": {"en": "splits {what}", "zh": "拆分 {what}"},
    "change.pin": {"en": "pins {what}", "zh": "锁定 {what}"},
    "change.integrate": {"en": "integrates {what}", "zh": "集成 {what}"},
    # A title without a leading verb names what landed: "Native W4A16 kernel for RDNA3".
    "change.keep": {"en": "keeps {what}", "zh": "保留 {what}"},
    "change.reuse": {"en": "reuses {what}", "zh": "复用 {what}"},
    "change.exclude": {"en": "excludes {what}", "zh": "排除 {what}"},
    "change.install": {"en": "installs {what}", "zh": "安装 {what}"},
    "change.convert": {"en": "converts {what}", "zh": "转换 {what}"},
    "change.land": {"en": "lands {what}", "zh": "合入 {what}"},
    "change.apply": {"en": "applies {what}", "zh": "应用 {what}"},
    "change.route": {"en": "routes {what}", "zh": "路由 {what}"},
    "change.handle": {"en": "handles {what}", "zh": "处理 {what}"},
    "change.reduce": {"en": "reduces {what}", "zh": "减少 {what}"},
    "change.prevent": {"en": "prevents {what}", "zh": "防止 {what}"},
    "change.set": {"en": "sets {what}", "zh": "设置 {what}"},
    "change.increase": {"en": "increases {what}", "zh": "提高 {what}"},
    "change.extract": {"en": "extracts {what}", "zh": "拆出 {what}"},
    # --- polish --- more title verbs; any other verb as the title writes it
    "change.fuse": {"en": "fuses {what}", "zh": "融合 {what}"},
    "change.reorganize": {"en": "reorganizes {what}", "zh": "重组 {what}"},
    "change.rework": {"en": "reworks {what}", "zh": "重写 {what}"},
    "change.guard": {"en": "guards {what}", "zh": "保护 {what}"},
    "change.cache": {"en": "caches {what}", "zh": "缓存 {what}"},
    "change.sync": {"en": "syncs {what}", "zh": "同步 {what}"},
    "change.tune": {"en": "tunes {what}", "zh": "调优 {what}"},
    "change.align": {"en": "aligns {what}", "zh": "对齐 {what}"},
    "change.register": {"en": "registers {what}", "zh": "注册 {what}"},
    "change.validate": {"en": "checks {what}", "zh": "校验 {what}"},
    "change.restore": {"en": "restores {what}", "zh": "恢复 {what}"},
    "change.initialize": {"en": "initializes {what}", "zh": "初始化 {what}"},
    "change.adjust": {"en": "changes {what}", "zh": "调整 {what}"},
    # A verb the catalogue does not word: English conjugates it ("accepts"), Chinese shows
    # the title's own verb after 合入 ("合入 Accept W4A16").
    "change.verb": {"en": "{verb} {what}", "zh": "合入 {verb} {what}"},
    "risk.unknown_found": {
        "en": " {flags}: only what the titles show is counted above.",
        "zh": "其中{flags}仅按标题统计。",
    },
    "keypr.note.from_title": {
        "en": "A PR without a description is summarised by what its title says it does.",
        "zh": "没有描述的 PR，概要依据其标题说明它做了什么。",
    },
    # ------------------------------------------------------------ key PR table
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
    # ------------------------------------------------------------ recommendations
    "rec.tests-for-core-path": {
        "en": "Add tests for the {count} core-path PRs merged without tests: {prs}.",
        "zh": "为 {count} 个修改了核心路径却未附带测试的 PR 补充回归测试：{prs}。",
    },
    "rec.release-notes-breaking": {
        "en": "Call out the {count} breaking changes in the release notes and migration docs: "
        "{prs}.",
        "zh": "在 release note 与迁移文档中明确说明 {count} 个破坏性变更：{prs}。",
    },
    "rec.watch-dependencies": {
        "en": "Watch the {count} dependency changes for downstream breakage and "
        "pin or roll back quickly if needed: {prs}.",
        "zh": "持续跟踪 {count} 个依赖变更对下游的影响，必要时尽快锁定或回退版本：{prs}。",
    },
    "rec.revert-follow-up": {
        "en": "Follow up the {count} reverts: re-land the fixed change with a regression "
        "test: {prs}.",
        "zh": "跟进 {count} 个回滚：修复后重新合入，并补充对应的回归测试：{prs}。",
    },
    "rec.split-large": {
        "en": "Schedule a post-merge review of the {count} large PRs and ask for smaller "
        "PRs next time: {prs}.",
        "zh": "对 {count} 个大型 PR 安排合入后复查，并建议后续拆分为更小的 PR：{prs}。",
    },
    "rec.verify-claims": {
        "en": "Confirm the {count} claimed performance gains in the nightly benchmarks: {prs}.",
        "zh": "在夜间基准测试中复核 {count} 个 PR 声称的性能收益：{prs}。",
    },
    "rec.cross-platform": {
        "en": "Run cross-platform regression tests: {module} activity rose {percent} "
        "({count} PRs): {prs}.",
        "zh": "增设跨平台回归测试：{module} 相关 PR 较上周增长 {percent}（{count} 个）：{prs}。",
    },
    "rec.cross-platform.period": {
        "en": "Run cross-platform regression tests: {module} activity rose {percent} "
        "({count} PRs): {prs}.",
        "zh": "增设跨平台回归测试：{module} 相关 PR 较上期增长 {percent}（{count} 个）：{prs}。",
    },
    "rec.cross-platform.one": {
        "en": "Run cross-platform regression tests: {module} activity rose {percent} "
        "({count} PR): {prs}.",
        "zh": "增设跨平台回归测试：{module} 相关 PR 较上周增长 {percent}（{count} 个）：{prs}。",
    },
    "rec.cross-platform.period.one": {
        "en": "Run cross-platform regression tests: {module} activity rose {percent} "
        "({count} PR): {prs}.",
        "zh": "增设跨平台回归测试：{module} 相关 PR 较上期增长 {percent}（{count} 个）：{prs}。",
    },
    "rec.tests-for-core-path.one": {
        "en": "Add tests for the {count} core-path PR merged without tests: {prs}.",
        "zh": "为 {count} 个修改了核心路径却未附带测试的 PR 补充回归测试：{prs}。",
    },
    "rec.release-notes-breaking.one": {
        "en": "Call out the {count} breaking change in the release notes and migration "
        "docs: {prs}.",
        "zh": "在 release note 与迁移文档中明确说明 {count} 个破坏性变更：{prs}。",
    },
    "rec.watch-dependencies.one": {
        "en": "Watch the {count} dependency change for downstream breakage and pin or roll "
        "back quickly if needed: {prs}.",
        "zh": "持续跟踪 {count} 个依赖变更对下游的影响，必要时尽快锁定或回退版本：{prs}。",
    },
    "rec.revert-follow-up.one": {
        "en": "Follow up the {count} revert: re-land the fixed change with a regression "
        "test: {prs}.",
        "zh": "跟进 {count} 个回滚：修复后重新合入，并补充对应的回归测试：{prs}。",
    },
    "rec.split-large.one": {
        "en": "Schedule a post-merge review of the {count} large PR and ask for smaller "
        "PRs next time: {prs}.",
        "zh": "对 {count} 个大型 PR 安排合入后复查，并建议后续拆分为更小的 PR：{prs}。",
    },
    "rec.verify-claims.one": {
        "en": "Confirm the {count} claimed performance gain in the nightly benchmarks: {prs}.",
        "zh": "在夜间基准测试中复核 {count} 个 PR 声称的性能收益：{prs}。",
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
    # ------------------------------------------------------------ footer
    "footer": {
        # No backticks: the footer is rendered as plain text everywhere, and a copied
        # command must not carry the zero-width spaces Slack escaping puts before them.
        "en": "Look up any PR with /vllm pr {example} ; subscribe to a module with "
        "/vllm subscribe {module} . Every figure is computed from the merged PRs; the "
        "rules are in docs/digest.md.",
        "zh": "使用 /vllm pr {example} 查看任意 PR；使用 /vllm subscribe {module} 订阅模块。"
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
    # ------------------------------------------------------------ history (trends over weeks)
    "section.history": {
        "en": "Trends over the last {weeks} {weeks:week|weeks}",
        "zh": "近 {weeks} 周趋势",
    },
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
        "en": "{count} more modules in the JSON output.",
        "zh": "另有 {count} 个模块见 JSON 输出。",
    },
    "history.more_modules.one": {
        "en": "{count} more module in the JSON output.",
        "zh": "另有 {count} 个模块见 JSON 输出。",
    },
    "title.scope": {"en": "{modules} · {title}", "zh": "{modules}｜{title}"},
    # ------------------------------------------------------------ charts
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
    "chart.alt_module": {
        "en": "{name} {values} ({direction})",
        "zh": "{name} {values}（{direction}）",
    },
    # ------------------------------------------------------------ archive
    "archive.title": {"en": "Digest archive", "zh": "周报归档"},
    "archive.intro": {
        "en": "Weekly digests computed from the merged pull requests, with module pages and "
        "Atom feeds.",
        "zh": "由已合并 PR 计算得出的每周周报，附模块页面与 Atom 订阅源。",
    },
    "archive.repo": {"en": "{repo}: digest archive", "zh": "{repo} 仓库周报归档"},
    "archive.weeks": {"en": "Weeks", "zh": "各周周报"},
    "archive.modules": {"en": "Modules", "zh": "各模块"},
    "archive.feed": {"en": "Atom feed", "zh": "Atom 订阅源"},
    "archive.github": {"en": "Repository on GitHub", "zh": "GitHub 仓库"},
    "archive.all_repos": {"en": "All repositories", "zh": "全部仓库"},
    "archive.week_line": {
        "en": "{count} merged {count:PR|PRs}",
        "zh": "合并 {count} 个 PR",
    },
    "archive.module_title": {
        "en": "{module} in {repo}: the last {weeks} {weeks:week|weeks}",
        "zh": "{repo} 仓库 {module} 模块：近 {weeks} 周",
    },
    "archive.module_week": {
        "en": "{count} {count:PR|PRs} touched this module",
        "zh": "本周 {count} 个 PR 涉及该模块",
    },
    "archive.module_none": {
        "en": "No PR touched this module.",
        "zh": "本周没有 PR 涉及该模块。",
    },
    "archive.module_more": {
        "en": "and {count} more: see the week's digest",
        "zh": "等另外 {count} 个，详见当周周报",
    },
    "archive.generated": {
        "en": "Generated by vllm-bot from the store; every figure is computed from the merged "
        "PRs (rules: docs/digest.md).",
        "zh": "由本机器人根据存储的数据生成；"
        "所有数字均由已合并 PR 计算得出（规则见 docs/digest.md）。",
    },
    # ------------------------------------------------------------ organisation digest (issue 16)
    "org.title.week": {
        "en": "{scope} weekly digest, {year} week {week} ({repos})",
        "zh": "{scope} {year} 年第 {week} 周变更周报（{repos}）",
    },
    "org.title.window": {
        "en": "{scope} digest, {label} ({repos})",
        "zh": "{scope} 变更报告（{label}，{repos}）",
    },
    "org.repos": {"en": "{count} repositories", "zh": "{count} 个仓库"},
    "org.repos.one": {"en": "{count} repository", "zh": "{count} 个仓库"},
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
    "org.theme.part": {"en": "{count} PRs in {repo}", "zh": "{repo} {count} 个 PR"},
    "org.theme.part.one": {"en": "{count} PR in {repo}", "zh": "{repo} {count} 个 PR"},
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
    # ------------------------------------------------------------ PR cards
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
    "card.more_files": {"en": "{count} more files", "zh": "另有 {count} 个文件"},
    "card.more_files.one": {"en": "{count} more file", "zh": "另有 {count} 个文件"},
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
        "en": "+{additions} / −{deletions} in {count} files",
        "zh": "{count} 个文件，+{additions} / −{deletions}",
    },
    "card.size_value.one": {
        "en": "+{additions} / −{deletions} in {count} file",
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
    "alert.batch_title": {
        "en": "{count} new PRs match your subscriptions",
        "zh": "{count} 个新 PR 匹配你的订阅",
    },
    "alert.batch_title.one": {
        "en": "{count} new PR matches your subscriptions",
        "zh": "{count} 个新 PR 匹配你的订阅",
    },
    "alert.title": {"en": "PR #{number}: {title}", "zh": "PR #{number}：{title}"},
    # Flag reasons and score contributions of the analysis (``reason(...)`` below): stored
    # as an id and parameters with each analysis, rendered in the reader's language.
    # ------------------------------------------------------------ reasons: flags
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
    # ------------------------------------------------------------ reasons: dependency verbs
    "reason.verb.bumps": {"en": "bumps", "zh": "升级"},
    "reason.verb.upgrades": {"en": "upgrades", "zh": "升级"},
    "reason.verb.updates": {"en": "updates", "zh": "更新"},
    "reason.verb.pins": {"en": "pins", "zh": "固定"},
    "reason.verb.unpins": {"en": "unpins", "zh": "解除固定"},
    "reason.verb.downgrades": {"en": "downgrades", "zh": "降级"},
    # ------------------------------------------------------------ reasons: score contributions
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
    "reason.score.activity": {"en": "{parts}", "zh": "{parts}"},
    "reason.score.activity.reviews": {"en": "{count} reviews", "zh": "{count} 次评审"},
    "reason.score.activity.reviews.one": {"en": "{count} review", "zh": "{count} 次评审"},
    "reason.score.activity.comments": {"en": "{count} comments", "zh": "{count} 条评论"},
    "reason.score.activity.comments.one": {"en": "{count} comment", "zh": "{count} 条评论"},
    # --- prose --- title-only score signals
    "reason.score.title.new": {"en": "new {what} (title)", "zh": "标题表明新增 {what}"},
    "reason.score.title.removed": {"en": "removes {what} (title)", "zh": "标题表明移除 {what}"},
    "reason.score.title.model": {"en": "adds a model (title)", "zh": "标题表明新增模型"},
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
    # ------------------------------------------------------------ commands, help, errors
    # (helper E, issue 13): every reply of /vllm on Slack, Discord and `vllm-bot chat`.
    "error.usage": {"en": "usage: {usage}", "zh": "用法：{usage}"},
    "error.hint": {"en": "; did you mean '{word}'?", "zh": "；是不是想输入 '{word}'？"},
    "error.quotes": {"en": "unbalanced quotes in the command", "zh": "命令中的引号不成对"},
    "error.pr.url": {
        "en": "not a GitHub pull-request URL: {token}; expected "
        "https://github.com/OWNER/NAME/pull/NUMBER",
        "zh": "不是 GitHub 拉取请求链接：{token}；应为 `https://github.com/OWNER/NAME/pull/NUMBER`",
    },
    "error.pr.number": {
        "en": "not a PR number: '{text}'; expected a number like 42121",
        "zh": "不是 PR 编号：'{text}'；应为数字，例如 42121",
    },
    "error.pr.zero": {
        "en": "PR numbers start at 1 (got {number})",
        "zh": "PR 编号从 1 开始（收到 {number}）",
    },
    "error.pr.large": {
        "en": "PR number {text} is too large to exist",
        "zh": "PR 编号 {text} 过大，不可能存在",
    },
    "error.pr.which": {
        "en": "which PR? give its number or URL",
        "zh": "查询哪个 PR？请给出编号或链接",
    },
    "error.pr.several": {
        "en": "one PR at a time (got {count} arguments)",
        "zh": "一次只能查询一个 PR（收到 {count} 个参数）",
    },
    "error.pr.unwatched": {
        "en": "{repo} is not watched by this bot (it follows {names})",
        "zh": "本机器人没有关注 {repo}（关注的是 {names}）",
    },
    "error.pr.not_found": {
        "en": "no pull request #{number} in {repo} (GitHub has none with that number)",
        "zh": "{repo} 中没有 #{number} 号拉取请求（GitHub 上不存在该编号）",
    },
    "error.digest.post_twice": {"en": "'post' given twice", "zh": "`post` 重复给出"},
    "error.digest.one_week": {
        "en": "one week at a time (got '{week}' and '{arg}')",
        "zh": "一次只能指定一周（收到 '{week}' 和 '{arg}'）",
    },
    "error.digest.argument": {
        "en": "unknown digest argument '{arg}'{hint} (accepted: this, last, an ISO week like "
        "2026-W23, post)",
        "zh": "未知的 digest 参数 '{arg}'{hint}"
        "（可用：`this`、`last`、形如 `2026-W23` 的周、`post`）",
    },
    "error.digest.org_modules": {
        "en": "'org' covers every repository; give either 'org' or module names",
        "zh": "`org` 已涵盖所有仓库；`org` 与模块名只能二选一",
    },
    "error.digest.no_week": {
        "en": "no ISO week {text}: weeks run from W01 to W53",
        "zh": "没有 {text} 这一周：周数为 `W01` 至 `W53`",
    },
    "error.subscribe.negated_module": {
        "en": "'{arg}': only filters can be negated (e.g. -label:x); to leave a module out, "
        "do not list it",
        "zh": "'{arg}'：只有筛选条件可以取反（如 `-label:x`）；不想订阅的模块不列出即可",
    },
    "error.subscribe.filter": {
        "en": "unknown filter '{key}:'{hint} (accepted: {accepted})",
        "zh": "未知的筛选条件 '{key}:'{hint}（可用：{accepted}）",
    },
    "error.subscribe.value": {
        "en": "filter '{key}:' needs a value, e.g. {example}",
        "zh": "筛选条件 '{key}:' 需要一个值，例如 {example}",
    },
    "error.subscribe.not_negatable": {
        "en": "'{key}:' cannot be negated",
        "zh": "'{key}:' 不能取反",
    },
    "error.subscribe.twice": {"en": "'{key}:' given twice", "zh": "'{key}:' 重复给出"},
    "error.subscribe.language": {
        "en": "unknown language '{value}' (accepted: {accepted})",
        "zh": "未知的语言 '{value}'（可用：{accepted}）",
    },
    "error.subscribe.repo": {
        "en": "bad repository '{value}' in repo: {problem}",
        "zh": "`repo:` 中的仓库 '{value}' 无效：{problem}",
    },
    "error.subscribe.flag": {
        "en": "unknown flag '{value}'{hint} (accepted: {accepted})",
        "zh": "未知的标记 '{value}'{hint}（可用：{accepted}）",
    },
    "error.subscribe.which": {
        "en": "which modules? e.g. /vllm subscribe attention moe (see /vllm modules)",
        "zh": "订阅哪些模块？例如 `/vllm subscribe attention moe`（见 `/vllm modules`）",
    },
    "error.subscribe.both": {
        "en": "'{filter}' is both required and excluded",
        "zh": "'{filter}' 既被要求又被排除",
    },
    "error.subscribe.min_number": {
        "en": "'min:{value}' is not a number; scores run from 0 to 10, e.g. min:7",
        "zh": "`min:{value}` 不是数字；分数范围为 0 到 10，例如 `min:7`",
    },
    "error.subscribe.min_range": {
        "en": "'min:{value}' is out of range; scores run from 0 to 10",
        "zh": "`min:{value}` 超出范围；分数范围为 0 到 10",
    },
    "error.subscribe.regex": {
        "en": "bad regular expression in 'path:{pattern}': {problem}",
        "zh": "`path:{pattern}` 中的正则表达式有误：{problem}",
    },
    "error.subscribe.brackets": {
        "en": "unbalanced brackets in 'path:{pattern}'",
        "zh": "`path:{pattern}` 中的方括号不成对",
    },
    "error.unsubscribe.what": {
        "en": "unsubscribe from what? a module, a subscription id or 'all'",
        "zh": "取消哪个订阅？请给出模块、订阅编号或 `all`",
    },
    "error.unsubscribe.several": {
        "en": "one target at a time (got {count}); use 'all' to remove every subscription",
        "zh": "一次只能取消一项（收到 {count} 项）；用 `all` 取消全部订阅",
    },
    "error.no_args": {
        "en": "'{command_name}' takes no arguments (got '{args}')",
        "zh": "'{command_name}' 不接受参数（收到 '{args}'）",
    },
    "error.help.topic": {
        "en": "help takes at most one command name",
        "zh": "`help` 最多接受一个命令名",
    },
    "error.help.unknown": {
        "en": "no command '{topic}'{hint}",
        "zh": "没有 '{topic}' 这个命令{hint}",
    },
    "error.unknown_command": {
        "en": "unknown command '{word}'{hint}",
        "zh": "未知命令 '{word}'{hint}",
    },
    "error.unknown_command.accepted": {
        "en": "unknown command '{word}' (accepted: {accepted})",
        "zh": "未知命令 '{word}'（可用：{accepted}）",
    },
    "error.module.unknown": {
        "en": "unknown module '{name}'{hint} (/vllm modules lists them)",
        "zh": "未知模块 '{name}'{hint}（`/vllm modules` 列出全部模块）",
    },
    "error.rate_limit": {
        "en": "GitHub's rate limit is used up, try again ({detail})",
        "zh": "GitHub 的调用额度已用完，请稍后再试（{detail}）",
    },
    "error.rate_limit.at": {
        "en": "GitHub's rate limit is used up, try again after {time} UTC ({detail})",
        "zh": "GitHub 的调用额度已用完，请在 {time}（协调世界时）之后再试（{detail}）",
    },
    "error.github_auth": {
        "en": "GitHub rejected the bot's token ({detail}); an admin needs to check GITHUB_TOKEN",
        "zh": "GitHub 拒绝了机器人的令牌（{detail}）；需要管理员检查 `GITHUB_TOKEN`",
    },
    "error.github_down": {
        "en": "GitHub is unavailable, try again in a minute ({detail})",
        "zh": "GitHub 暂时不可用，请一分钟后再试（{detail}）",
    },
    "error.apology": {
        "en": "Sorry, something went wrong on our side (error id {error_id}). It has been "
        "logged; please try again later.",
        "zh": "抱歉，我们这边出了问题（错误编号 {error_id}）。已记录日志，请稍后再试。",
    },
    "error.restarting": {
        "en": "vllm-bot is restarting; try again in a minute",
        "zh": "`vllm-bot` 正在重启，请一分钟后再试",
    },
    "error.no_alert_channel": {
        "en": "alerts go to a Slack or Discord channel; name it with --channel slack:C0123 or "
        "--channel discord:1234 to manage that channel's subscriptions from the command line",
        "zh": "提醒只发往 `Slack` 或 `Discord` 频道；请用 `--channel slack:C0123` 或 "
        "`--channel discord:1234` 指定频道，以便在命令行管理该频道的订阅",
    },
    "error.no_subscription.all": {
        "en": "this channel has no subscriptions (/vllm subscriptions lists them)",
        "zh": "本频道没有订阅（`/vllm subscriptions` 列出订阅）",
    },
    "error.no_subscription.id": {
        "en": "this channel has no subscription #{target} (/vllm subscriptions lists them)",
        "zh": "本频道没有 #{target} 号订阅（`/vllm subscriptions` 列出订阅）",
    },
    "error.no_subscription.module": {
        "en": "this channel has no subscription to {target} (/vllm subscriptions lists them)",
        "zh": "本频道没有对 {target} 的订阅（`/vllm subscriptions` 列出订阅）",
    },
    "error.no_org": {
        "en": "no organisation configured: add one to a [[digest.targets]] entry of the "
        'config, e.g. org = "vllm-project" or repos = ["OWNER/NAME", ...]',
        "zh": "未配置组织：请在配置的 `[[digest.targets]]` 中加入，例如 "
        '`org = "vllm-project"` 或 `repos = ["OWNER/NAME", ...]`',
    },
    "cmd.not_available": {"en": "subscriptions are not available yet", "zh": "订阅功能暂不可用"},
    "cmd.digest.posting": {
        "en": "posting the {week} digest in this channel",
        "zh": "正在把 {week} 周报发布到本频道",
    },
    "cmd.modules.title": {"en": "Modules of {repo}", "zh": "{repo} 的模块"},
    "cmd.modules.context": {
        "en": "{count} modules · subscribe with /vllm subscribe <module...>",
        "zh": "{count} 个模块 · 用 `/vllm subscribe <module...>` 订阅",
    },
    "cmd.modules.context.one": {
        "en": "{count} module · subscribe with /vllm subscribe <module...>",
        "zh": "{count} 个模块 · 用 `/vllm subscribe <module...>` 订阅",
    },
    "cmd.modules.section": {"en": "Modules", "zh": "模块"},
    "cmd.modules.fallback": {"en": "{count} modules: {ids}", "zh": "{count} 个模块：{ids}"},
    "cmd.modules.fallback.one": {"en": "{count} module: {ids}", "zh": "{count} 个模块：{ids}"},
    "cmd.subscribed": {"en": "subscribed this channel: {what}", "zh": "本频道已订阅：{what}"},
    "cmd.subscribed.weekly": {
        "en": "subscribed this channel to a weekly module digest: {what}",
        "zh": "本频道已订阅每周模块周报：{what}",
    },
    "cmd.already_subscribed": {
        "en": "this channel is already subscribed: {what}",
        "zh": "本频道已有该订阅：{what}",
    },
    "cmd.removed": {
        "en": "removed {count} subscriptions from this channel",
        "zh": "已从本频道移除 {count} 个订阅",
    },
    "cmd.removed.one": {
        "en": "removed {count} subscription from this channel",
        "zh": "已从本频道移除 {count} 个订阅",
    },
    "cmd.narrowed": {
        "en": "subscription #{id} no longer includes {target}; it still follows {rest}",
        "zh": "订阅 #{id} 不再包含 {target}；仍关注 {rest}",
    },
    "cmd.subscriptions.none": {
        "en": "this channel has no subscriptions; try /vllm subscribe attention",
        "zh": "本频道没有订阅；试试 `/vllm subscribe attention`",
    },
    "cmd.subscriptions.count": {
        "en": "{count} subscriptions in this channel:",
        "zh": "本频道有 {count} 个订阅：",
    },
    "cmd.subscriptions.count.one": {
        "en": "{count} subscription in this channel:",
        "zh": "本频道有 {count} 个订阅：",
    },
    "cmd.subscriptions.weekly": {"en": "(weekly digest)", "zh": "（每周周报）"},
    "cmd.version": {
        "en": "vllm-bot {bot} · rule set {ruleset} · store schema {schema}",
        "zh": "`vllm-bot` {bot} · 规则集 {ruleset} · 存储结构版本 {schema}",
    },
    "cmd.unknown": {"en": "unknown", "zh": "未知"},
    "cmd.progress.pr": {"en": "looking up {ref}…", "zh": "正在查询 {ref}…"},
    "cmd.progress.digest": {"en": "building the {week} digest…", "zh": "正在生成 {week} 周报…"},
    "cmd.progress.digest.post": {
        "en": "building the {week} digest to post it in this channel…",
        "zh": "正在生成 {week} 周报并发布到本频道…",
    },
    "cmd.progress.subscriptions": {
        "en": "updating this channel's subscriptions…",
        "zh": "正在更新本频道的订阅…",
    },
    "cmd.progress.other": {"en": "working on it…", "zh": "处理中…"},
    "cmd.posted": {
        "en": "posted the {week} digest in this channel ({count} messages, details in its thread)",
        "zh": "已在本频道发布 {week} 周报（{count} 条消息，详情见讨论串）",
    },
    "cmd.posted.nothing_new": {
        "en": "the {week} digest is already posted in this channel; nothing new to post",
        "zh": "{week} 周报已在本频道发布，没有新内容",
    },
    "cmd.posted.resumed": {
        "en": "finished posting the {week} digest: {count} more messages ({skipped} were "
        "already posted)",
        "zh": "{week} 周报已发布完毕：补发 {count} 条消息（{skipped} 条此前已发布）",
    },
    "cmd.posting_unavailable": {
        "en": "posting is not available in this deployment (no delivery store)",
        "zh": "此部署无法发布（没有投递存储）",
    },
    "cmd.preview.more": {
        "en": "…and {count} more messages of details. {again} posts the whole digest in this "
        "channel.",
        "zh": "……另有 {count} 条详细消息。{again} 可在本频道发布完整周报。",
    },
    "cmd.preview.again": {
        "en": "the same command with `post`",
        "zh": "加上 `post` 的同一命令",
    },
    "cmd.truncated": {
        "en": "…{count} more messages not shown",
        "zh": "……另有 {count} 条消息未显示",
    },
    "cmd.chat_not_posted": {
        "en": "(not posted: `vllm-bot chat` only prints; use `vllm-bot digest --post`)",
        "zh": "（未发布：`vllm-bot chat` 只打印输出；请用 `vllm-bot digest --post`）",
    },
    "help.title": {
        "en": "*/vllm* — vLLM pull-request digests, cards and alerts",
        "zh": "`/vllm` — 拉取请求周报、卡片与提醒",
    },
    "help.more": {
        "en": "`/vllm help <command>` shows examples.",
        "zh": "`/vllm help <command>` 显示示例。",
    },
    "help.examples": {"en": "examples: {examples}", "zh": "示例：{examples}"},
    "help.pr": {
        "en": "one PR card: modules, kind, flags with reasons, score, size, claims, link",
        "zh": "单个 PR 卡片：模块、类型、标记及原因、评分、规模、声明、链接",
    },
    "help.digest": {
        "en": "the weekly digest (only you see it), of some modules or of the organisation; "
        "add `post` to post it in this channel",
        "zh": "每周周报（仅您可见），可限定模块或整个组织；加上 `post` 则发布到本频道",
    },
    "help.subscribe": {
        "en": "alert this channel when matching PRs merge; filters combine with AND, `-` "
        "negates; `weekly` sends one module digest a week instead",
        "zh": "匹配的 PR 合并时提醒本频道；筛选条件同时生效，`-` 表示排除；"
        "`weekly` 改为每周一份模块周报",
    },
    "help.unsubscribe": {"en": "remove subscriptions of this channel", "zh": "移除本频道的订阅"},
    "help.subscriptions": {
        "en": "list this channel's subscriptions with their ids and filters",
        "zh": "列出本频道的订阅及其编号和筛选条件",
    },
    "help.modules": {"en": "the module ids you can subscribe to", "zh": "可订阅的模块编号"},
    "help.version": {
        "en": "the bot's version, its rule-set version and the store's schema revision",
        "zh": "机器人版本、规则集版本与存储结构版本",
    },
    "help.help": {"en": "this help, or the usage of one command", "zh": "本帮助，或某个命令的用法"},
    # Discord's command picker: one line each, at most 100 characters.
    "help.summary.pr": {
        "en": "One PR card: modules, kind, flags, score, size, link",
        "zh": "单个 PR 卡片：模块、类型、标记、评分、规模、链接",
    },
    "help.arg.pr.number": {
        "en": "pull-request number, e.g. 42121",
        "zh": "PR 编号，例如 42121",
    },
    "help.arg.pr.repo": {
        "en": "repository (default: the first watched)",
        "zh": "仓库（默认：第一个关注的仓库）",
    },
    "help.summary.digest": {
        "en": "The weekly digest, of some modules or the organisation; post=True posts it",
        "zh": "每周周报，可限定模块或整个组织；`post=True` 发布到本频道",
    },
    "help.arg.digest.modules": {
        "en": "module ids or names (several: separate with spaces), or org",
        "zh": "模块编号或名称（多个用空格分隔），或 `org`",
    },
    "help.arg.digest.week": {
        "en": "this, last or an ISO week like 2026-W23 (default: last)",
        "zh": "`this`、`last` 或形如 `2026-W23` 的周（默认 `last`）",
    },
    "help.arg.digest.post": {
        "en": "post it in this channel",
        "zh": "发布到本频道",
    },
    "help.summary.subscribe": {
        "en": "Alert this channel when matching PRs merge, or send a weekly module digest",
        "zh": "匹配的 PR 合并时提醒本频道，或每周发送模块周报",
    },
    "help.arg.subscribe.module": {
        "en": "module id or name (several: separate with spaces)",
        "zh": "模块编号或名称（多个用空格分隔）",
    },
    "help.arg.subscribe.filters": {
        "en": "optional filters, e.g. min:7 -label:ci flag:core-path",
        "zh": "可选筛选条件，例如 `min:7 -label:ci flag:core-path`",
    },
    "help.arg.subscribe.weekly": {
        "en": "one module digest a week instead of per-PR alerts",
        "zh": "每周一份模块周报，而不是逐个 PR 提醒",
    },
    "help.summary.unsubscribe": {
        "en": "Remove subscriptions of this channel",
        "zh": "移除本频道的订阅",
    },
    "help.arg.unsubscribe.target": {
        "en": "a module, a subscription id or all",
        "zh": "模块、订阅编号或 `all`",
    },
    "help.summary.subscriptions": {
        "en": "This channel's subscriptions with ids and filters",
        "zh": "本频道的订阅及其编号和筛选条件",
    },
    "help.summary.modules": {
        "en": "The module ids you can subscribe to",
        "zh": "可订阅的模块编号",
    },
    "help.summary.version": {
        "en": "Bot version, rule-set version and store schema revision",
        "zh": "机器人版本、规则集版本与存储结构版本",
    },
    "help.summary.help": {
        "en": "How to use /vllm, or one command's usage",
        "zh": "`/vllm` 的用法，或某个命令的用法",
    },
    "help.arg.help.command": {
        "en": "a command to explain",
        "zh": "要说明的命令",
    },
    # ------------------------------------------------------------ platforms: posting (issue 13)
    "posting.incomplete": {
        "en": "the {week} digest is not fully posted: {done} of {parts} messages are in this "
        "channel, missing {missing}{why}; run the command again to finish",
        "zh": "{week} 周报未发布完整：本频道已有 {done}/{parts} 条消息，缺少第 {missing} 条{why}；"
        "请再次运行该命令以补发",
    },
    "posting.incomplete.busy": {
        "en": " (another run is posting message {part} right now)",
        "zh": "（另一个任务正在发布第 {part} 条消息）",
    },
    # --- themes ---
    # Trends against last week's highlight of the same theme (bot/analysis/themes.py).
    "theme.trend.new": {
        "en": "{count} {count:PR|PRs}, new: not a highlight last week.",
        "zh": "本周 {count} 个 PR，新主题（上周不是重点主题）。",
    },
    "theme.trend.new.period": {
        "en": "{count} {count:PR|PRs}, new: not a highlight the week before.",
        "zh": "本期 {count} 个 PR，新主题（前一周不是重点主题）。",
    },
    "theme.trend.rising": {
        "en": "{count} {count:PR|PRs}, rising (last week {previous} → this week {count}).",
        "zh": "本周 {count} 个 PR，明显增多（上周 {previous} 个 → 本周 {count} 个）。",
    },
    "theme.trend.rising.period": {
        "en": "{count} {count:PR|PRs}, rising (previous week {previous} → this period {count}).",
        "zh": "本期 {count} 个 PR，明显增多（前一周 {previous} 个 → 本期 {count} 个）。",
    },
    "theme.trend.falling": {
        "en": "{count} {count:PR|PRs}, falling (last week {previous} → this week {count}).",
        "zh": "本周 {count} 个 PR，明显减少（上周 {previous} 个 → 本周 {count} 个）。",
    },
    "theme.trend.falling.period": {
        "en": "{count} {count:PR|PRs}, falling (previous week {previous} → this period {count}).",
        "zh": "本期 {count} 个 PR，明显减少（前一周 {previous} 个 → 本期 {count} 个）。",
    },
    "theme.trend.unheld": {
        "en": "{count} {count:PR|PRs} (last week is not in the store: no trend).",
        "zh": "本周 {count} 个 PR（存储中没有上周的数据，无法判断趋势）。",
    },
    "theme.trend.unheld.period": {
        "en": "{count} {count:PR|PRs} (the week before is not in the store: no trend).",
        "zh": "本期 {count} 个 PR（存储中没有前一周的数据，无法判断趋势）。",
    },
    "theme.trend.average": {
        "en": "Earlier weekly mean: {average} ({weeks} {weeks:week|weeks}).",
        "zh": "此前 {weeks} 周的周均值：{average} 个。",
    },
    "theme.fading": {
        "en": "Fading since last week: {items}.",
        "zh": "较上周明显减少的主题：{items}。",
    },
    "theme.fading.period": {
        "en": "Fading since the week before: {items}.",
        "zh": "较前一周明显减少的主题：{items}。",
    },
    "theme.fading_item": {
        "en": "{name} ({previous} → {count} {count:PR|PRs})",
        "zh": "{name}（{previous} 个 → {count} 个 PR）",
    },
    # --- releases ---
    "release.title": {"en": "{repo} {tag} release notes", "zh": "{repo} {tag} 发布说明"},
    "release.context": {"en": "Changes since {base}", "zh": "自 {base} 以来的变更"},
    "release.context.dates": {
        "en": "Changes since {base} ({start} to {end})",
        "zh": "自 {base} 以来的变更（{start} 至 {end}）",
    },
    "release.fallback": {
        "en": "{repo} {tag}: {count} PRs",
        "zh": "{repo} {tag}：{count} 个 PR",
    },
    "release.fallback.one": {"en": "{repo} {tag}: {count} PR", "zh": "{repo} {tag}：{count} 个 PR"},
    "release.unknown": {"en": "unknown", "zh": "未知"},
    "release.none": {"en": "none", "zh": "无"},
    "release.picked_as": {"en": "cherry-picked as", "zh": "拣选合入为"},
    "release.detail_sep": {"en": " — ", "zh": " —— "},
    "release.lead": {"en": "Lead PRs:", "zh": "主要 PR："},
    # After the theme's name (in bold): "DeepSeek V4: 19 PRs (Bug fix 10, Feature 3)."
    "release.highlight": {"en": ": {count} PRs ({kinds}).", "zh": "：{count} 个 PR（{kinds}）。"},
    "release.highlight.one": {
        "en": ": {count} PR ({kinds}).",
        "zh": "：{count} 个 PR（{kinds}）。",
    },
    "release.highlight.claim": {"en": "Stated: {claim}", "zh": "PR 所述：{claim}"},
    "release.kind_count": {"en": "{kind} {count}", "zh": "{kind} {count} 个"},
    "release.card.highlight": {"en": "{theme}: {count} PRs", "zh": "{theme}：{count} 个 PR"},
    "release.card.highlight.one": {"en": "{theme}: {count} PR", "zh": "{theme}：{count} 个 PR"},
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
    "release.other.kind": {"en": "{kind}: {count} PRs", "zh": "{kind}：{count} 个 PR"},
    "release.other.kind.one": {"en": "{kind}: {count} PR", "zh": "{kind}：{count} 个 PR"},
    "release.more": {"en": "+{count} more", "zh": "另有 {count} 个"},
    "help.release": {
        "en": "a release's card (counts, highlights, breaking changes, a link to its notes), "
        "the newest release without a tag; add `post` to post its release notes in this channel",
        "zh": "版本卡片（统计、亮点、破坏性变更及发布说明链接），不带标签时为最新版本；"
        "加上 `post` 则将发布说明发布到本频道",
    },
    "help.summary.release": {
        "en": "A release's card, or its notes posted here",
        "zh": "版本卡片，或将其发布说明发布到此处",
    },
    "help.arg.release.tag": {
        "en": "a release tag, e.g. v0.21.0rc1",
        "zh": "版本标签，例如 `v0.21.0rc1`",
    },
    "help.arg.release.post": {"en": "post the release notes here", "zh": "将发布说明发布到此处"},
    "cmd.progress.release": {"en": "building the release {tag}…", "zh": "正在生成版本 {tag}…"},
    "cmd.release.posting": {
        "en": "posting the {tag} release notes in this channel…",
        "zh": "正在将 {tag} 发布说明发布到本频道…",
    },
    "error.release.args": {
        "en": "release takes one tag and an optional `post`, not {words!r}",
        "zh": "`release` 只接受一个标签和可选的 `post`，而不是 {words!r}",
    },
    "release.feed.title": {"en": "{repo} releases", "zh": "{repo} 版本发布"},
    "release.feed.nav": {"en": "Repository", "zh": "仓库"},
    "cmd.subscribed.releases": {
        "en": "subscribed this channel to release notes: {what}; each published release is "
        "posted here once",
        "zh": "本频道已订阅版本发布说明：{what}；每个发布的版本只在此发布一次",
    },
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
    # --- scale ---
    "error.busy": {
        "en": "vllm-bot is busy right now; try again in a few seconds",
        "zh": "`vllm-bot` 当前繁忙，请几秒后再试",
    },
    # --- firsthour ---
    "error.subscribe.author": {
        "en": "bad author ({value}): expected a GitHub login, e.g. author:octocat (at most "
        "39 letters, digits or hyphens)",
        "zh": "作者无效（{value}）：应为 GitHub 用户名，例如 `author:octocat`"
        "（最多 39 个字母、数字或连字符）",
    },
    "error.pr.offline": {
        "en": "GitHub cannot be reached ({detail}), so this is offline: #{number} of {repo} is "
        "not in the store; {held}",
        "zh": "无法连接 GitHub（{detail}），当前处于离线状态："
        "存储中没有 {repo} 的 #{number}；{held}",
    },
    "error.pr.offline.elsewhere": {
        "en": "the store has {where}: /vllm pr {where}",
        "zh": "存储中有 {where}：/vllm pr {where}",
    },
    "error.pr.offline.holds": {
        "en": "the store holds {count} {count:PR|PRs} of {repo}",
        "zh": "存储中有 {repo} 的 {count} 个 PR",
    },
    "error.module.not_in_repo": {
        "en": "{repo} has no module '{name}'{hint}, so it could never alert; its rule set "
        "({ruleset}) has {ids}",
        "zh": "{repo} 没有模块 '{name}'{hint}，该订阅永远不会触发；其规则集（{ruleset}）包含 {ids}",
    },
    # --- usecases ---
    # The reason alone, each surface adding where its list is (`vllm-bot modules`).
    "error.module.unknown.reason": {
        "en": "unknown module '{name}'{hint}",
        "zh": "未知模块 '{name}'{hint}",
    },
}


class _Count:
    """An integer placeholder value: "{n}" gives the number in the language's convention,
    "{n:one|other}" picks the English singular or plural word for it. This is how one
    message holds several counts ("1 PR was merged … by 2 contributors"), which the
    "<id>.one" variant (keyed on `count` alone) cannot express."""

    __slots__ = ("text", "value")

    def __init__(self, value: int, language: str) -> None:
        self.value = value
        # English is formatted for every analysed PR's reasons: skip Babel (same output).
        self.text = f"{value:,}" if language == "en" else number(value, language)

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


def variant(msg_id: str, span: str = "week", count: object = None) -> str:
    """The catalogue id to use: "<id>.period" for a window that is not an ISO week (so
    Chinese says 本期 rather than 本周), then "<id>.one" for an integer count of 1."""
    if span != "week" and f"{msg_id}.{span}" in MESSAGES:
        msg_id = f"{msg_id}.{span}"
    if count == 1 and not isinstance(count, bool) and f"{msg_id}.one" in MESSAGES:
        msg_id = f"{msg_id}.one"
    return msg_id


def message(language: str, msg_id: str, /, *, span: str = "week", **values: object) -> str:
    """The message in `language`, formatted; English when the language is unknown.

    Integer values are formatted in the language's convention (and may pick a singular
    with "{n:one|other}"); an integer `count` of 1 selects the "<id>.one" variant when the
    catalogue has one; `span="period"` selects "<id>.period" for non-week windows.
    """
    return message_from(language, msg_id, values, span=span)


def message_from(
    language: str, msg_id: str, values: Mapping[str, object], *, span: str = "week"
) -> str:
    """`message` with the values as one mapping: the caller's parameters (a reason's, an
    error's), whatever their names."""
    entry = MESSAGES[variant(msg_id, span, values.get("count"))]
    template = entry.get(language) or entry["en"]
    if not values:
        return template
    formatted = {k: _formatted(v, language) for k, v in values.items()}
    if language == "zh":
        template = _cjk_spacing(template, formatted)
    return template.format(**formatted)


def _formatted(value: object, language: str) -> object:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _Count(value, language)
    if isinstance(value, float):
        # 1,302.5; 2.0 reads "2" (Babel's English output, without Babel on the hot path).
        if language == "en":
            return f"{value:,.3f}".rstrip("0").rstrip(".")
        return number(value, language)
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
# The plural and number rules are message()'s own ("<id>.one" for a `count` of 1).

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
    values = {k: _reason_value(v, language) for k, v in params.items()}
    if language != "en":
        return message_from(language, msg_id, values)
    # The English rendering runs for every analysed PR: message() without its generality.
    count = values.get("count")
    if count == 1 and f"{msg_id}.one" in MESSAGES:
        msg_id = f"{msg_id}.one"
    return MESSAGES[msg_id]["en"].format(**{k: _formatted(v, "en") for k, v in values.items()})


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
    return format_decimal(value, locale=locale_of(language))


@lru_cache(maxsize=1024)
def score(value: float, language: str) -> str:
    return format_decimal(value, format="0.0", locale=locale_of(language))


@lru_cache(maxsize=1024)
def percent(value: float, language: str) -> str:
    """`value` is in percent (50.0 → "50%"); rounded to whole percent like the seeds."""
    return format_percent(value / 100, format="#,##0%", locale=locale_of(language))


def day(value: date | datetime, language: str) -> str:
    if isinstance(value, datetime):
        value = value.date()
    return format_date(value, format="long", locale=locale_of(language))


def moment(value: datetime, language: str) -> str:
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
