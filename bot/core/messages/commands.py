"""Replies and help of the /vllm slash command (Slack, Discord, `vllm-bot chat`)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "cmd.not_available": {"en": "subscriptions are not available yet", "zh": "订阅功能暂不可用"},
    "cmd.digest.posting": {
        "en": "posting the {week} digest in this channel",
        "zh": "正在把 {week} 周报发布到本频道",
    },
    "cmd.modules.title": {"en": "Modules of {repo}", "zh": "{repo} 的模块"},
    "cmd.modules.context": {
        "en": "{count} {count:module|modules} · subscribe with /vllm subscribe <module...>",
        "zh": "{count} 个模块 · 用 `/vllm subscribe <module...>` 订阅",
    },
    "cmd.modules.section": {"en": "Modules", "zh": "模块"},
    "cmd.modules.fallback": {
        "en": "{count} {count:module|modules}: {ids}",
        "zh": "{count} 个模块：{ids}",
    },
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
        "en": "removed {count} {count:subscription|subscriptions} from this channel",
        "zh": "已从本频道移除 {count} 个订阅",
    },
    "cmd.narrowed": {
        "en": "subscription #{id} no longer includes {target}; it still follows {rest}",
        "zh": "订阅 #{id} 不再包含 {target}；仍关注 {rest}",
    },
    "cmd.subscriptions.none": {
        "en": "this channel has no subscriptions; try /vllm subscribe {module}",
        "zh": "本频道没有订阅；试试 `/vllm subscribe {module}`",
    },
    "cmd.subscriptions.count": {
        "en": "{count} {count:subscription|subscriptions} in this channel:",
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
    "cmd.subscribed.releases": {
        "en": "subscribed this channel to release notes: {what}; each published release is "
        "posted here once",
        "zh": "本频道已订阅版本发布说明：{what}；每个发布的版本只在此发布一次",
    },
}
