"""Errors from the services the bot talks to (GitHub, Slack, Discord) and from serving.

A service's own words (GitHub's error message, Slack's `error` code, an OS error) are
parameters, never part of a template: they stay as the service wrote them.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # --- a command whose answer needs the network (the chat acknowledgement cannot give it)
    "error.offline.digest": {
        "en": "a digest syncs from GitHub first",
        "zh": "周报需要先从 GitHub 同步",
    },
    "error.offline.release": {
        "en": "a release is fetched from GitHub",
        "zh": "release 需要从 GitHub 获取",
    },
    # --- modules = "auto": the labelling rules' stored snapshot (bot.app, once a day)
    "notice.auto_rules.missing": {
        "en": "labelling rules of {repo} not fetched yet: modules come from generic rules and "
        "the stored PRs' folders until `vllm-bot sync` or `serve` fetches them",
        "zh": "{repo} 的标签规则尚未获取：在 `vllm-bot sync` 或 `serve` 获取之前，模块由通用规则和"
        "已存 PR 的目录得出",
    },
    "notice.auto_rules.failed": {
        "en": "labelling rules of {repo} unavailable ({reason}): modules come from generic "
        "rules and the stored PRs' folders; `vllm-bot sync` tries again after an hour",
        "zh": "无法获取 {repo} 的标签规则（{reason}）：模块由通用规则和已存 PR 的目录得出；"
        "`vllm-bot sync` 一小时后再试",
    },
    "notice.auto_rules.refresh_failed": {
        "en": "labelling rules of {repo} not refreshed ({reason}); tried again after an hour",
        "zh": "未能刷新 {repo} 的标签规则（{reason}）；一小时后再试",
    },
    # --- GitHub
    "error.github.reset.at": {
        "en": "at {when} local time (in {minutes} min)",
        "zh": "本地时间 {when}（{minutes} 分钟后）",
    },
    "error.github.reset.unknown": {"en": "at an unknown time", "zh": "未知时间"},
    "error.github.exhausted": {
        "en": "GitHub {resource} rate limit exhausted (0{limit} requests left); it resets "
        "{reset}. Try again then.",
        "zh": "GitHub {resource} 调用额度已用完（剩余 0{limit} 次）；将于{reset}重置，届时再试。",
    },
    "error.github.exhausted.anonymous": {
        "en": "GitHub {resource} rate limit exhausted (0{limit} requests left); it resets "
        "{reset}. Set GITHUB_TOKEN for a far higher limit.",
        "zh": "GitHub {resource} 调用额度已用完（剩余 0{limit} 次）；将于{reset}重置。"
        "设置 `GITHUB_TOKEN` 可获得高得多的额度。",
    },
    "error.github.exhausted.of": {"en": " of {limit}", "zh": "/{limit}"},
    "error.github.token_rejected": {
        "en": "GitHub rejected the token (401 {detail}); check GITHUB_TOKEN: it may be "
        "expired, revoked or mistyped (create one at https://github.com/settings/tokens; "
        "public repositories need no scopes)",
        "zh": "GitHub 拒绝了令牌（401 {detail}）；请检查 `GITHUB_TOKEN`：它可能已过期、被撤销或"
        "输错（在 `https://github.com/settings/tokens` 创建；公开仓库无需任何权限范围）",
    },
    "error.github.secondary": {
        "en": "GitHub secondary rate limit: asked to wait {minutes} min; try again {reset}",
        "zh": "GitHub 次级限流：要求等待 {minutes} 分钟；请于{reset}再试",
    },
    "error.github.secondary.kept": {
        "en": "GitHub kept answering with its secondary rate limit after {attempts} attempts "
        "({reason}); wait a few minutes and try again",
        "zh": "尝试 {attempts} 次后 GitHub 仍以次级限流作答（{reason}）；请等几分钟再试",
    },
    "error.github.unavailable": {
        "en": "GitHub unavailable after {attempts} attempts: {reason}",
        "zh": "尝试 {attempts} 次后 GitHub 仍不可用：{reason}",
    },
    # Why a request is worth another try (inside the "unavailable after N attempts" line).
    "error.github.reason.timeout": {
        "en": "no answer within {seconds} s",
        "zh": "{seconds} 秒内没有应答",
    },
    "error.github.reason.secondary": {
        "en": "secondary rate limit ({status}): {detail}",
        "zh": "次级限流（{status}）：{detail}",
    },
    "error.github.reason.status": {"en": "GitHub answered {status}", "zh": "GitHub 返回 {status}"},
    "error.github.reason.status_phrase": {
        "en": "GitHub answered {status} {phrase}",
        "zh": "GitHub 返回 {status} {phrase}",
    },
    "error.github.unreachable": {
        "en": "cannot reach {host}: {reason}",
        "zh": "无法连接 {host}：{reason}",
    },
    "error.github.not_found": {
        "en": "not found on GitHub: {path}",
        "zh": "GitHub 上找不到：{path}",
    },
    "error.github.http": {
        "en": "GitHub answered {status}: {detail}",
        "zh": "GitHub 返回 {status}：{detail}",
    },
    "error.github.graphql.token": {
        "en": "GitHub's GraphQL API needs a token; set GITHUB_TOKEN",
        "zh": "GitHub 的 `GraphQL` 接口需要令牌；请设置 `GITHUB_TOKEN`",
    },
    "error.github.graphql.not_json": {
        "en": "GitHub GraphQL answered with something that is not JSON",
        "zh": "GitHub `GraphQL` 返回的内容不是 JSON",
    },
    "error.github.graphql.no_data": {
        "en": "GitHub GraphQL answered without data",
        "zh": "GitHub `GraphQL` 的回答中没有数据",
    },
    "error.github.graphql": {
        "en": "GitHub GraphQL error: {detail}{more}",
        "zh": "GitHub `GraphQL` 出错：{detail}{more}",
    },
    # GitHub's own NOT_FOUND message, as GitHub worded it.
    "error.github.graphql.not_found": {"en": "{detail}{more}", "zh": "{detail}{more}"},
    "error.github.graphql.more": {"en": " (and {count} more)", "zh": "（另有 {count} 条）"},
    "error.github.repo.bad": {
        "en": "bad repository {repo}: expected OWNER/NAME",
        "zh": "仓库 {repo} 无效：应为 `OWNER/NAME`",
    },
    "error.github.repo.not_found": {
        "en": "repository {repo} not found on GitHub",
        "zh": "GitHub 上找不到仓库 {repo}",
    },
    "error.github.pr.not_found": {
        "en": "PR #{number} not found in {repo}",
        "zh": "{repo} 中找不到 PR #{number}",
    },
    "error.github.pr.no_files": {
        "en": "GitHub returned no files page for PR #{number} of {repo}",
        "zh": "GitHub 没有返回 {repo} 中 PR #{number} 的文件页",
    },
    "error.github.not_a_list": {
        "en": "GitHub answered {path} with something that is not a list",
        "zh": "GitHub 对 {path} 的回答不是列表",
    },
    "error.github.compare": {
        "en": "GitHub cannot compare {base}...{head} in {repo}",
        "zh": "GitHub 无法在 {repo} 中比较 {base}...{head}",
    },
    "error.github.not_modified": {
        "en": "GitHub answered 304 for {key} without a cached copy",
        "zh": "GitHub 对 {key} 返回了 304，但没有缓存副本",
    },
    "error.github.search.no_repo": {
        "en": "GitHub returned a search result without its repository",
        "zh": "GitHub 返回的搜索结果缺少所属仓库",
    },
    "error.github.search.scope_probe": {
        "en": "a scope search has no single fingerprint; probe each repository",
        "zh": "范围搜索没有单一指纹；请逐个仓库探测",
    },
    "error.github.search.one_second": {
        "en": "more than {cap} {cap:PR|PRs} merged within one second ({start}): GitHub's search "
        "cannot list them all",
        "zh": "一秒之内（{start}）合并的 PR 超过 {cap} 个：GitHub 的搜索无法全部列出",
    },
    "error.github.search.moved": {
        "en": "GitHub listed {listed} {listed:PR|PRs} merged in {start}..{end} but counts "
        "{total}; the window changed while syncing, try again",
        "zh": "GitHub 列出了 {start}..{end} 期间合并的 {listed} 个 PR，但计数为 {total}；"
        "同步期间窗口发生了变化，请重试",
    },
    # --- Slack
    "error.slack.no_bot_token": {
        "en": "SLACK_BOT_TOKEN is not set: create a bot token (xoxb-…), see docs/slack.md",
        "zh": "未设置 `SLACK_BOT_TOKEN`：请创建机器人令牌（`xoxb-…`），见 `docs/slack.md`",
    },
    "error.slack.no_signing_secret": {
        "en": "slack.mode is 'http' but SLACK_SIGNING_SECRET is not set",
        "zh": "`slack.mode` 为 `'http'`，但未设置 `SLACK_SIGNING_SECRET`",
    },
    "error.slack.no_app_token": {
        "en": "slack.mode is 'socket' but SLACK_APP_TOKEN is not set: create an app-level "
        "token with the connections:write scope (docs/slack.md), or set slack.mode = 'http'",
        "zh": "`slack.mode` 为 `'socket'`，但未设置 `SLACK_APP_TOKEN`：请创建带 "
        "`connections:write` 权限的应用级令牌（`docs/slack.md`），或设置 `slack.mode = 'http'`",
    },
    "error.slack.rate_limited": {
        "en": "Slack kept rate limiting {method} in {channel}; try again later",
        "zh": "`Slack` 在 {channel} 中持续限流 {method}；请稍后再试",
    },
    "error.slack.unavailable": {
        "en": "Slack is unavailable ({reason}) for {method} in {channel}; try again in a minute",
        "zh": "`Slack` 暂时不可用（{reason}），无法在 {channel} 中执行 {method}；请一分钟后再试",
    },
    # Slack refusing a post: Slack's error code is a parameter, as Slack sent it.
    "error.slack.channel_not_found": {
        "en": "Slack channel {channel} was not found: use the channel ID (like C0123456, from "
        "the channel's details), and for a private channel invite the bot first with "
        "/invite @vllm-bot",
        "zh": "找不到 `Slack` 频道 {channel}：请使用频道编号（如 `C0123456`，见频道详情）；"
        "私有频道请先用 `/invite @vllm-bot` 邀请机器人",
    },
    "error.slack.not_in_channel": {
        "en": "the bot is not in Slack channel {channel}: invite it with /invite @vllm-bot in "
        "that channel",
        "zh": "机器人不在 `Slack` 频道 {channel} 中：请在该频道用 `/invite @vllm-bot` 邀请它",
    },
    "error.slack.archived": {
        "en": "Slack channel {channel} is archived: unarchive it or change the target channel",
        "zh": "`Slack` 频道 {channel} 已归档：请取消归档，或更换目标频道",
    },
    "error.slack.token_refused": {
        "en": "Slack rejected the bot token ({error}) posting to {channel}: check "
        "SLACK_BOT_TOKEN (a bot token, xoxb-…) and reinstall the app to the workspace",
        "zh": "向 {channel} 发布时 `Slack` 拒绝了机器人令牌（{error}）：请检查 `SLACK_BOT_TOKEN`"
        "（应为机器人令牌 `xoxb-…`），并把应用重新安装到工作区",
    },
    "error.slack.missing_scope": {
        "en": "the Slack bot token lacks the {scope} scope (posting to {channel}): add it "
        "under OAuth & Permissions and reinstall the app",
        "zh": "`Slack` 机器人令牌缺少 {scope} 权限（发布到 {channel}）：请在 "
        "`OAuth & Permissions` 中添加，并重新安装应用",
    },
    "error.slack.restricted": {
        "en": "posting to Slack channel {channel} is restricted ({error}): ask a workspace "
        "admin to let the bot post there",
        "zh": "`Slack` 频道 {channel} 限制了发布（{error}）：请让工作区管理员允许机器人在此发布",
    },
    "error.slack.thread_gone": {
        "en": "the first message of this post in {channel} was deleted, so its thread is "
        "gone: post again with --force",
        "zh": "此次发布在 {channel} 中的第一条消息已被删除，其讨论串也随之消失：请用 `--force` "
        "重新发布",
    },
    "error.slack.invalid": {
        "en": "Slack refused a message for {channel} ({error}); this is a bot bug, please "
        "report it",
        "zh": "`Slack` 拒绝了发往 {channel} 的一条消息（{error}）；这是机器人的缺陷，请报告",
    },
    "error.slack.invalid.details": {
        "en": "Slack refused a message for {channel} ({error}: {details}); this is a bot bug, "
        "please report it",
        "zh": "`Slack` 拒绝了发往 {channel} 的一条消息（{error}：{details}）；这是机器人的缺陷，"
        "请报告",
    },
    "error.slack.refused": {
        "en": "Slack refused to post in {channel} ({error})",
        "zh": "`Slack` 拒绝在 {channel} 中发布（{error}）",
    },
    # --- Discord
    "error.discord.api_url": {
        "en": "DISCORD_API_URL={url} is not an http(s) URL; expected something like {example}",
        "zh": "`DISCORD_API_URL`={url} 不是 `http(s)` 地址；应类似 {example}",
    },
    "error.discord.gateway_url": {
        "en": "DISCORD_GATEWAY_URL={url} is not a ws(s) URL; expected something like {example}",
        "zh": "`DISCORD_GATEWAY_URL`={url} 不是 `ws(s)` 地址；应类似 {example}",
    },
    "error.discord.kept_failing": {
        "en": "Discord kept failing ({what}) while posting part {part} to Discord channel "
        "{channel}; the parts posted so far are recorded, run again to resume",
        "zh": "向 `Discord` 频道 {channel} 发布第 {part} 部分时 `Discord` 持续出错（{what}）；"
        "已发布的部分已记录，再次运行即可继续",
    },
    "error.discord.webhook_url": {
        "en": "the webhook URL (from the variable webhook_url_env names) is not a Discord "
        "webhook URL; expected https://discord.com/api/webhooks/ID/TOKEN (Channel settings "
        "→ Integrations → Webhooks)",
        "zh": "`webhook_url_env` 所指变量中的地址不是 `Discord` 的 `webhook` 地址；应为 "
        "`https://discord.com/api/webhooks/ID/TOKEN`（频道设置 → 整合 → `Webhooks`）",
    },
    "error.discord.no_bot_token": {
        "en": "DISCORD_BOT_TOKEN is not set: copy the bot token from the Developer Portal "
        "(your application → Bot → Reset Token), or give the target a webhook_url_env (the "
        "environment variable holding a channel webhook URL)",
        "zh": "未设置 `DISCORD_BOT_TOKEN`：请从 `Developer Portal` 复制机器人令牌（你的应用 → "
        "`Bot` → `Reset Token`），或为该目标设置 `webhook_url_env`（存放频道 `webhook` "
        "地址的环境变量）",
    },
    "error.discord.token_rejected": {
        "en": "Discord rejected DISCORD_BOT_TOKEN (401 Unauthorized): copy the current token "
        "from the Developer Portal (your application → Bot → Reset Token)",
        "zh": "`Discord` 拒绝了 `DISCORD_BOT_TOKEN`（401 `Unauthorized`）：请从 "
        "`Developer Portal` 复制当前令牌（你的应用 → `Bot` → `Reset Token`）",
    },
    # What the bot was doing when Discord refused (inside the lines below).
    "error.discord.doing.summary": {"en": "posting the summary", "zh": "发布摘要消息"},
    "error.discord.doing.part": {"en": "posting part {part}", "zh": "发布第 {part} 部分"},
    "error.discord.doing.thread": {"en": "starting the thread", "zh": "创建讨论串"},
    "error.discord.doing.thread_part": {
        "en": "posting part {part} in the thread",
        "zh": "在讨论串中发布第 {part} 部分",
    },
    "error.discord.doing.chart": {"en": "uploading the chart", "zh": "上传图表"},
    "error.discord.doing.read": {"en": "reading the channel", "zh": "读取频道"},
    # Discord refusing a post: Discord's code and text are parameters, as Discord sent them.
    "error.discord.webhook_refused": {
        "en": "the webhook of Discord channel {channel} rejected the request (401): copy the "
        "webhook URL again from Channel settings → Integrations → Webhooks into the "
        "environment variable the target's webhook_url_env names",
        "zh": "`Discord` 频道 {channel} 的 `webhook` 拒绝了请求（401）：请从频道设置 → 整合 → "
        "`Webhooks` 重新复制 `webhook` 地址，放入该目标 `webhook_url_env` 所指的环境变量",
    },
    "error.discord.token_refused": {
        "en": "Discord rejected the bot token (401 Unauthorized) while {doing} in Discord "
        "channel {channel}: set DISCORD_BOT_TOKEN to the token from the Developer Portal "
        "(your application → Bot → Reset Token)",
        "zh": "在 `Discord` 频道 {channel} 中{doing}时，`Discord` 拒绝了机器人令牌（401 "
        "`Unauthorized`）：请把 `DISCORD_BOT_TOKEN` 设为 `Developer Portal` 中的令牌（你的应用 → "
        "`Bot` → `Reset Token`）",
    },
    "error.discord.unknown_webhook": {
        "en": "the webhook of Discord channel {channel} no longer exists (10015 Unknown "
        "Webhook): create one in Channel settings → Integrations → Webhooks and put its URL "
        "in the environment variable the target's webhook_url_env names",
        "zh": "`Discord` 频道 {channel} 的 `webhook` 已不存在（10015 `Unknown Webhook`）：请在"
        "频道设置 → 整合 → `Webhooks` 中新建一个，并把其地址放入该目标 `webhook_url_env` "
        "所指的环境变量",
    },
    "error.discord.unknown_channel": {
        "en": "Discord channel {channel} does not exist (10003 Unknown Channel): use the "
        "channel's ID (turn on Developer Mode, right-click the channel → Copy Channel ID) as "
        "the target channel",
        "zh": "`Discord` 频道 {channel} 不存在（10003 `Unknown Channel`）：请用频道编号作为目标"
        "频道（打开 `Developer Mode`，右键频道 → `Copy Channel ID`）",
    },
    "error.discord.missing_access": {
        "en": "the bot cannot see Discord channel {channel} (50001 Missing Access): add the "
        "bot to that server with the invite URL in docs/discord.md and give its role View "
        "Channel there",
        "zh": "机器人看不到 `Discord` 频道 {channel}（50001 `Missing Access`）：请用 "
        "`docs/discord.md` 中的邀请链接把机器人加入该服务器，并在那里给它的角色 "
        "`View Channel` 权限",
    },
    "error.discord.missing_permissions": {
        "en": "the bot lacks a permission in Discord channel {channel} while {doing} (50013 "
        "Missing Permissions): give its role {permissions} on that channel",
        "zh": "在 `Discord` 频道 {channel} 中{doing}时机器人缺少权限（50013 "
        "`Missing Permissions`）：请在该频道给它的角色 {permissions} 权限",
    },
    "error.discord.not_text": {
        "en": "Discord channel {channel} is not a text channel (50008): pick a text or "
        "announcement channel; for a forum channel use a webhook target",
        "zh": "`Discord` 频道 {channel} 不是文字频道（50008）：请选择文字或公告频道；"
        "论坛频道请使用 `webhook` 目标",
    },
    "error.discord.summary_deleted": {
        "en": "the summary message of this post in Discord channel {channel} was deleted, "
        "so its thread cannot be started: post again with --force",
        "zh": "此次发布在 `Discord` 频道 {channel} 中的摘要消息已被删除，无法创建其讨论串："
        "请用 `--force` 重新发布",
    },
    "error.discord.invalid": {
        "en": "Discord refused a message for Discord channel {channel} as invalid ({code} "
        "{detail}); this is a bot bug, please report it",
        "zh": "`Discord` 以无效为由拒绝了发往 `Discord` 频道 {channel} 的一条消息（{code} "
        "{detail}）；这是机器人的缺陷，请报告",
    },
    "error.discord.refused": {
        "en": "Discord refused {doing} in Discord channel {channel} (HTTP {status}, code "
        "{code}: {detail})",
        "zh": "`Discord` 拒绝在 `Discord` 频道 {channel} 中{doing}（`HTTP` {status}，代码 "
        "{code}：{detail}）",
    },
    # --- platforms, schedule and serving
    "error.platform.unknown": {
        "en": "unknown platform {name}: accepted {accepted}",
        "zh": "未知平台 {name}：可用 {accepted}",
    },
    "error.platform.post_target": {
        "en": "bad --post {value}: expected {examples}",
        "zh": "`--post` {value} 无效：应为 {examples}",
    },
    "error.config.at": {"en": "{where}: {problem}", "zh": "{where}：{problem}"},
    "error.config.target_modules": {
        "en": "{where}: {problem}; `vllm-bot modules` lists them",
        "zh": "{where}：{problem}；`vllm-bot modules` 列出全部模块",
    },
    "error.serve.cannot": {"en": "cannot serve: {problem}", "zh": "无法启动服务：{problem}"},
    "error.serve.missing": {
        "en": "cannot serve: {missing}; set them, or remove what needs them (vllm-bot doctor "
        "says what needs each)",
        "zh": "无法启动服务：{missing}；请设置它们，或去掉需要它们的配置（`vllm-bot doctor` "
        "会说明各项由谁需要）",
    },
    "error.serve.listen": {
        "en": "cannot listen on {host}:{port}: {reason}; pick another port with --port or "
        "[server] port",
        "zh": "无法监听 {host}:{port}：{reason}；请用 `--port` 或 `[server] port` 换一个端口",
    },
}
