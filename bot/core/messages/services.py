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
        "en": "more than {cap} PRs merged within one second ({start}): GitHub's search "
        "cannot list them all",
        "zh": "一秒之内（{start}）合并的 PR 超过 {cap} 个：GitHub 的搜索无法全部列出",
    },
    "error.github.search.moved": {
        "en": "GitHub listed {listed} PRs merged in {start}..{end} but counts {total}; the "
        "window changed while syncing, try again",
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
