"""Errors a chat user can see: every one has an id here (CommandError takes ids only)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
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
        "en": "which modules? name one or more as /vllm modules lists them",
        "zh": "订阅哪些模块？请按 `/vllm modules` 列出的名称给出一个或多个",
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
    "error.release.args": {
        "en": "release takes one tag and an optional `post`, not {words!r}",
        "zh": "`release` 只接受一个标签和可选的 `post`，而不是 {words!r}",
    },
    "error.busy": {
        "en": "vllm-bot is busy right now; try again in a few seconds",
        "zh": "`vllm-bot` 当前繁忙，请几秒后再试",
    },
    "error.pending": {
        "en": "you have {count} commands waiting for their answers already; try again "
        "once one is answered",
        "zh": "你已有 {count} 条命令在等待回答，请等其中一条回答后再试",
    },
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
    # A week, a repository, a channel that a core check refused (bot.core.weeks,
    # bot.core.validators): chat shows them in the channel's language, the CLI in English.
    "error.week.bad": {
        "en": "bad week {spec}: expected an ISO week like 2026-W23, or 'this' or 'last'",
        "zh": "周 {spec} 无效：应为 `ISO` 周（例如 `2026-W23`），或 `this`、`last`",
    },
    "error.week.none": {
        "en": "no ISO week {week}; expected an ISO week like 2026-W23, or 'this' or 'last'",
        "zh": "不存在 `ISO` 周 {week}；应为 `ISO` 周（例如 `2026-W23`），或 `this`、`last`",
    },
    "error.week.future": {
        "en": "week {week} is in the future (it starts {start}); use 'this', 'last' or an "
        "earlier ISO week",
        "zh": "{week} 周尚未到来（开始于 {start}）；请使用 `this`、`last` 或更早的 `ISO` 周",
    },
    "error.ref": {
        "en": "{value} is not a git tag or branch name: expected at most {limit} characters "
        "without spaces, control characters, '..', '~^:?*[\\' or '@{{', no part starting "
        "with '.', e.g. v0.21.0rc1",
        "zh": "{value} 不是 `git` 标签或分支名：应为至多 {limit} 个字符，不含空格、控制字符、"
        "'..'、'~^:?*[\\' 或 '@{{'，各段不以 '.' 开头，例如 `v0.21.0rc1`",
    },
    "error.repo.shape": {
        "en": "expected OWNER/NAME, e.g. vllm-project/vllm",
        "zh": "应为 `OWNER/NAME`，例如 `vllm-project/vllm`",
    },
    "error.repo.owner": {
        "en": "the owner ({length} characters) is not a GitHub account name: 1-39 letters, "
        "digits or single hyphens; expected OWNER/NAME, e.g. vllm-project/vllm",
        "zh": "所有者（{length} 个字符）不是 GitHub 账户名：应为 1-39 个字母、数字或单个连字符；"
        "应为 `OWNER/NAME`，例如 `vllm-project/vllm`",
    },
    "error.repo.name": {
        "en": "the name ({length} characters) is not a GitHub repository name: 1-100 "
        "letters, digits, '.', '-' or '_'; expected OWNER/NAME, e.g. vllm-project/vllm",
        "zh": "名称（{length} 个字符）不是 GitHub 仓库名：应为 1-100 个字母、数字、'.'、'-' 或 "
        "'_'；应为 `OWNER/NAME`，例如 `vllm-project/vllm`",
    },
    "error.channel.slack": {
        "en": "bad Slack channel {channel}: expected a channel id like C0123456 (capital "
        "letters and digits)",
        "zh": "`Slack` 频道 {channel} 无效：应为频道编号，例如 `C0123456`（大写字母和数字）",
    },
    "error.channel.discord": {
        "en": "bad Discord channel {channel}: Discord ids are numbers (15-21 digits, e.g. "
        "discord:1234567890123456789)",
        "zh": "`Discord` 频道 {channel} 无效：`Discord` 的频道编号是数字"
        "（15-21 位，例如 `discord:1234567890123456789`）",
    },
    # Subscriptions (bot.alerts.subscriptions).
    "error.modules.unknown": {
        "en": "unknown {count:module|modules} {names}; see /vllm modules for the list",
        "zh": "{count} 个未知模块：{names}；模块列表见 `/vllm modules`",
    },
    "error.module.unknown_item": {
        "en": "'{word}' (did you mean '{hint}'?)",
        "zh": "'{word}'（是不是想输入 '{hint}'？）",
    },
    "error.module.unknown_word": {"en": "'{word}'", "zh": "'{word}'"},
    "error.subscribe.admins": {
        "en": "only this channel's alert admins may change its subscriptions "
        "(alerts.admins in the bot's config); ask one of them",
        "zh": "只有本频道的提醒管理员可以修改订阅（见机器人配置中的 `alerts.admins`）；"
        "请联系其中一位",
    },
    "error.subscribe.no_modules": {
        "en": "which modules? name one or more as /vllm modules lists them",
        "zh": "订阅哪些模块？请按 `/vllm modules` 列出的名称给出一个或多个",
    },
    "error.subscribe.releases_filters": {
        "en": "a release subscription takes only lang:, not {filters} (every release's notes "
        "are posted whole)",
        "zh": "版本订阅只接受 `lang:`，不接受 {filters}（每个版本的发布说明都会完整发布）",
    },
    "error.subscribe.weekly_filters": {
        "en": "a weekly subscription takes modules and lang: only, not {filters} (filters "
        "pick which PRs alert; the weekly digest covers all the modules' PRs)",
        "zh": "每周订阅只接受模块和 `lang:`，不接受 {filters}"
        "（筛选条件决定哪些 PR 触发提醒；周报涵盖这些模块的全部 PR）",
    },
    "error.subscribe.limit": {
        "en": "this channel already has {count} {count:subscription|subscriptions} (the limit "
        "is {limit}); remove some with /vllm unsubscribe",
        "zh": "本频道已有 {count} 个订阅（上限为 {limit} 个）；请用 `/vllm unsubscribe` 删除一些",
    },
    "error.unsubscribe.id": {
        "en": "not a subscription id: '{target}'",
        "zh": "不是订阅编号：'{target}'",
    },
    # The reason alone, each surface adding where its list is (`vllm-bot modules`).
    "error.module.unknown.reason": {
        "en": "unknown module '{name}'{hint}",
        "zh": "未知模块 '{name}'{hint}",
    },
}
