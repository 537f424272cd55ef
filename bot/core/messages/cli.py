"""Errors of the command line and of what it reads (options, the config, exports, rule
sets), and of the use cases and pipelines every surface shares (issue 22): the CLI shows
them in English (`str(exc)`), chat in the channel's language (`exc.message(language)`)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # The command line's options (bot.cli).
    "error.cli.exclude_needs_org": {
        "en": "--exclude only applies with --org NAME, e.g. "
        "--org vllm-project --exclude vllm-project/aibrix",
        "zh": "`--exclude` 只能与 `--org NAME` 一起使用，例如 "
        "`--org vllm-project --exclude vllm-project/aibrix`",
    },
    "error.cli.org_or_repos": {
        "en": "give --org NAME or --repo OWNER/NAME (repeated), not both",
        "zh": "请给出 `--org NAME` 或（可重复的）`--repo OWNER/NAME`，不要同时给出",
    },
    "error.cli.pr_ref": {
        "en": "bad PR number {ref}: {reason}; accepted: 42121, #42121, OWNER/NAME#42121 or "
        "https://github.com/OWNER/NAME/pull/42121",
        "zh": "PR 编号 {ref} 无效：{reason}；可用：`42121`、`#42121`、`OWNER/NAME#42121` 或 "
        "`https://github.com/OWNER/NAME/pull/42121`",
    },
    "error.cli.pr_ref_repo": {
        "en": "the PR reference names {named} but --repo says {repo}",
        "zh": "PR 引用指向 {named}，但 `--repo` 给出的是 {repo}",
    },
    "error.cli.pr_offline": {
        "en": "PR #{number} of {repo} is not in the store, and {cause}",
        "zh": "存储中没有 {repo} 的 PR #{number}，而且{cause}",
    },
    "error.cli.pr_offline.elsewhere": {
        "en": "the store has {where}: vllm-bot pr {where}",
        "zh": "存储中有 {where}：`vllm-bot pr {where}`",
    },
    "error.cli.offline_hint": {
        "en": "to try the bot offline: vllm-bot import FILE --week W --complete, "
        "then vllm-bot digest --week W --no-sync (README)",
        "zh": "离线试用机器人：先 `vllm-bot import FILE --week W --complete`，"
        "再 `vllm-bot digest --week W --no-sync`（见 `README`）",
    },
    "error.config.table_not_list": {
        "en": "{source}: {key}: [{key}] is one table, but {key} is a list: use [[{key}]] "
        "(double brackets), once per entry",
        "zh": "{source}：{key}：[{key}] 只是一个表，而 {key} 是列表：请写成 [[{key}]]（双括号），"
        "每项写一次",
    },
    "import.local_week_complete": {
        "en": "{week} in {tz} (the configured timezone) is complete",
        "zh": "{tz}（配置的时区）的 {week} 已完整",
    },
    "import.local_week_gaps": {
        "en": "weeks are in {tz} (the configured timezone): {week} there is {start}..{end}, "
        "and the store still lacks {gaps}, so its digest stays incomplete; import an export "
        'covering that with --complete, or set timezone = "UTC"',
        "zh": "周按 {tz}（配置的时区）计算：那里的 {week} 是 {start}..{end}，库中仍缺 {gaps}，"
        "因此其周报仍不完整；请用 `--complete` 导入覆盖这段时间的导出文件，"
        '或设置 `timezone = "UTC"`',
    },
    "error.store.no_folder": {
        "en": "DATABASE_URL names the SQLite file {path}, whose folder {folder} does not exist; "
        "create the folder, or give a file in one that exists",
        "zh": "`DATABASE_URL` 指定的 `SQLite` 文件 {path} 所在的文件夹 {folder} 不存在；"
        "请先创建该文件夹，或指定已存在文件夹中的文件",
    },
    "error.cannot_write": {
        "en": "cannot write {path}: {reason}",
        "zh": "无法写入 {path}：{reason}",
    },
    "error.cli.post_unavailable": {
        "en": "cannot post to {platform}: {missing}; set it, or leave out --post {platform}:…",
        "zh": "无法发布到 {platform}：{missing}；请设置它，或去掉 `--post {platform}:…`",
    },
    "error.cli.unknown_module": {
        "en": "{reason}; accepted: the ids or names `vllm-bot modules` lists",
        "zh": "{reason}；可用：`vllm-bot modules` 列出的编号或名称",
    },
    "error.cli.base_needs_release": {
        "en": "--base needs --release TAG (the release compared with it)",
        "zh": "`--base` 需要 `--release TAG`（与之比较的版本）",
    },
    "error.cli.release_alone": {
        "en": "--release makes the digest of one release of one repository; use it without "
        "--week/--since/--until, --module, --org or a second --repo",
        "zh": "`--release` 生成一个仓库某一版本的摘要；请勿与 "
        "`--week`/`--since`/`--until`、`--module`、`--org` 或第二个 `--repo` 同用",
    },
    "error.cli.png_needs_out": {
        "en": "--format png writes the trends chart to a file: give --out FILE.png",
        "zh": "`--format png` 把趋势图写入文件：请给出 `--out FILE.png`",
    },
    "error.cli.no_chart": {
        "en": "no trends chart for {week}: the store holds no earlier week of {repo}; run "
        "without --no-sync, or import earlier weeks first",
        "zh": "{week} 没有趋势图：存储中没有 {repo} 更早的周；请去掉 `--no-sync` 运行，"
        "或先导入更早的周",
    },
    "error.cli.archive_lang": {
        "en": "bad --lang {value}: expected en, zh or en,zh",
        "zh": "`--lang` {value} 无效：应为 `en`、`zh` 或 `en,zh`",
    },
    "error.cli.root_option": {
        "en": "{option} goes before the command; use e.g. "
        "'vllm-bot {option}{example} {command} …' (see 'vllm-bot --help')",
        "zh": "{option} 应放在命令之前；例如 `vllm-bot {option}{example} {command} …`（见 `vllm-bot"
        " --help`）",
    },
    "error.cli.usage": {
        "en": "{problem} (see '{command} --help')",
        "zh": "{problem}（见 `{command} --help`）",
    },
    "error.cli.unexpected": {
        "en": "{problem} (run with --debug for details)",
        "zh": "{problem}（加 `--debug` 运行可查看详情）",
    },
    "error.cli.tag": {"en": "{option}: {problem}", "zh": "`{option}`：{problem}"},
    "error.cli.channel_platform": {
        "en": "--channel: {value} names no platform; expected slack:ID or discord:ID (e.g. "
        "slack:C0123, discord:1234), or cli for the terminal",
        "zh": "`--channel`：{value} 未指明平台；应为 `slack:ID` 或 `discord:ID`（例如 "
        "`slack:C0123`、`discord:1234`），或 `cli` 表示终端",
    },
    "error.cli.channel": {"en": "--channel: {problem}", "zh": "`--channel`：{problem}"},
    # Digests, posts and the archive (bot.usecases).
    "error.digest.module_one_repo": {
        "en": "--module makes a digest of one repository's modules; use it without --org or a "
        "second --repo",
        "zh": "`--module` 生成一个仓库若干模块的摘要；请勿与 `--org` 或第二个 `--repo` 同用",
    },
    "error.post.not_stored": {
        "en": "nothing to post: {week} of {repo} is not in the store; run without --no-sync "
        "(or `vllm-bot sync`) first",
        "zh": "没有可发布的内容：存储中没有 {repo} 的 {week}；请先去掉 `--no-sync` 运行"
        "（或先运行 `vllm-bot sync`）",
    },
    "error.post.failed": {
        "en": "{failed} of {total} targets were not posted (see above)",
        "zh": "{total} 个目标中有 {failed} 个未发布（见上文）",
    },
    "error.archive.empty": {
        "en": "nothing to archive: the store holds no PR of these repositories",
        "zh": "没有可归档的内容：存储中没有这些仓库的 PR",
    },
    "error.lookup.needs_network": {
        "en": "{repo}#{number} needs GitHub",
        "zh": "{repo}#{number} 需要访问 GitHub",
    },
    "error.org.option": {"en": "{where}: {problem}", "zh": "{where}：{problem}"},
    "error.sync.org_needs_token": {
        "en": "an organisation digest (org:{org}) needs GITHUB_TOKEN: without a token "
        "GitHub's REST search is limited to 60 requests an hour; list the repositories "
        "with repos = [...] instead",
        "zh": "组织摘要（`org:{org}`）需要 `GITHUB_TOKEN`：没有令牌时 GitHub 的搜索接口每小时限 60 "
        "次请求；请改用 `repos = [...]` 列出仓库",
    },
    "error.alerts.no_connection": {
        "en": "no {platform} connection to post alerts with ({why})",
        "zh": "没有可用于发布提醒的 {platform} 连接（{why}）",
    },
    "error.slack.no_token": {
        "en": "SLACK_BOT_TOKEN is not set: create a Slack app and export its bot token "
        "(see docs/slack.md)",
        "zh": "未设置 `SLACK_BOT_TOKEN`：请创建一个 `Slack` 应用并导出其机器人令牌（见 `docs/slack."
        "md`）",
    },
    # Weeks and dates (bot.core.weeks) and --out (bot.core.validators).
    "error.week.date": {
        "en": "bad {name} {value}: expected a date like 2026-06-01 or 2026-06-01T12:00",
        "zh": "{name} {value} 无效：应为日期，例如 `2026-06-01` 或 `2026-06-01T12:00`",
    },
    "error.week.year": {
        "en": "bad {name} {value}: expected a date from {first} (GitHub's first year) to "
        "{last}, e.g. 2026-06-01",
        "zh": "{name} {value} 无效：应为 {first} 年（GitHub 的第一年）至 {last} 年之间的日期，"
        "例如 `2026-06-01`",
    },
    "error.week.empty": {
        "en": "--week is empty: expected an ISO week like 2026-W23, or 'this' or 'last'",
        "zh": "`--week` 为空：应为 `ISO` 周（例如 `2026-W23`），或 `this`、`last`",
    },
    "error.week.both": {
        "en": "use either --week or --since/--until, not both",
        "zh": "请只用 `--week` 或 `--since`/`--until` 之一，不要同时使用",
    },
    "error.week.date_empty": {
        "en": "{name} is empty: expected a date like 2026-06-01",
        "zh": "{name} 为空：应为日期，例如 `2026-06-01`",
    },
    "error.week.since_until": {
        "en": "--since and --until go together; give both",
        "zh": "`--since` 与 `--until` 须一起使用；请同时给出",
    },
    "error.week.order": {
        "en": "--until ({until}) must be after --since ({since}), "
        "e.g. --since 2026-06-01 --until 2026-06-08",
        "zh": "`--until`（{until}）必须晚于 `--since`（{since}），"
        "例如 `--since 2026-06-01 --until 2026-06-08`",
    },
    "error.out.folder": {
        "en": "--out: the folder {folder} does not exist; create it first, or give a path in "
        "a folder that exists, e.g. digest-2026-W23.md",
        "zh": "`--out`：文件夹 {folder} 不存在；请先创建，或给出已存在文件夹中的路径，"
        "例如 `digest-2026-W23.md`",
    },
    "error.out.path": {
        "en": "bad --out {path}: expected a file path, e.g. digest-2026-W23.md",
        "zh": "`--out` {path} 无效：应为文件路径，例如 `digest-2026-W23.md`",
    },
    # The config (bot.core.config, bot.core.cron).
    "error.config.cron_fields": {
        "en": "bad cron {expr}: expected 5 fields (minute hour day month weekday), "
        "e.g. '0 9 * * MON'",
        "zh": "定时表达式 {expr} 无效：应为 5 个字段（分 时 日 月 星期），例如 `0 9 * * MON`",
    },
    "error.config.cron": {
        "en": "bad cron {expr}: {problem}; expected e.g. '0 9 * * MON'",
        "zh": "定时表达式 {expr} 无效：{problem}；应为例如 `0 9 * * MON`",
    },
    "error.config.webhook_unset": {
        "en": "digest target discord:{channel} names webhook_url_env = {variable} but that "
        "environment variable is not set",
        "zh": "摘要目标 `discord:{channel}` 指定了 `webhook_url_env = {variable}`，但该环境变量未设"
        "置",
    },
    "error.config.webhook_control": {
        "en": "{variable} holds a control character; set it to the URL alone",
        "zh": "{variable} 含有控制字符；请只设置为链接本身",
    },
    "error.config.repo": {
        "en": "bad repository {name}: {problem}",
        "zh": "仓库 {name} 无效：{problem}",
    },
    "error.config.toml": {
        "en": "{source}: not valid TOML: {problem}; expected TOML like config/default.toml",
        "zh": "{source}：不是有效的 `TOML`：{problem}；应为类似 `config/default.toml` 的 `TOML`",
    },
    "error.config.endpoint": {
        "en": "{variable} {value} {problem}; expected a URL like {example} "
        "(or unset it for the default)",
        "zh": "{variable} {value} {problem}；应为链接，例如 {example}（或取消设置以使用默认值）",
    },
    "error.config.secret_control": {
        "en": "{variable} holds a control character (a newline or tab inside the value?); "
        "set it to the token alone",
        "zh": "{variable} 含有控制字符（值中有换行或制表符？）；请只设置为令牌本身",
    },
    "error.config.unreadable": {
        "en": "cannot read config file {path}: {reason}; give --config (or VLLM_BOT_CONFIG) "
        "an existing TOML file",
        "zh": "无法读取配置文件 {path}：{reason}；请为 `--config`（或 `VLLM_BOT_CONFIG`）指定一个存"
        "在的 `TOML` 文件",
    },
    "error.config.not_utf8": {
        "en": "{path}: not UTF-8 text (byte {byte}); save the config as UTF-8",
        "zh": "{path}：不是 `UTF-8` 文本（第 {byte} 字节）；请将配置保存为 `UTF-8`",
    },
    "error.config.org": {
        "en": "bad organisation {value}: expected a GitHub login such as vllm-project "
        "(letters, digits and '-', at most 39)",
        "zh": "组织 {value} 无效：应为 GitHub 用户名，例如 `vllm-project`"
        "（字母、数字和 '-'，最多 39 个）",
    },
    "error.config.ruleset_missing": {
        "en": "rule set file {value} does not exist; expected an existing .toml file or one "
        "of {accepted}",
        "zh": "规则集文件 {value} 不存在；应为存在的 `.toml` 文件或 {accepted} 之一",
    },
    "error.config.ruleset_unknown": {
        "en": "unknown rule set; accepted: {accepted} or a path to a .toml file",
        "zh": "未知的规则集；可用：{accepted} 或 `.toml` 文件的路径",
    },
    "error.config.one_scope": {
        "en": "set one of repo, repos and org, not {chosen}; e.g. "
        'org = "vllm-project" or repos = ["vllm-project/vllm", "vllm-project/vllm-ascend"]',
        "zh": "`repo`、`repos` 和 `org` 只能设置其一，而不是 {chosen}；例如 "
        '`org = "vllm-project"` 或 `repos = ["vllm-project/vllm", "vllm-project/vllm-ascend"]`',
    },
    "error.config.module_digest_scope": {
        "en": "modules: a module digest covers one repository; drop modules or set "
        'repo = "OWNER/NAME" instead of repos/org',
        "zh": '`modules`：模块摘要只覆盖一个仓库；请去掉 `modules`，或用 `repo = "OWNER/NAME"` 代'
        "替 `repos`/`org`",
    },
    "error.config.exclude_needs_org": {
        "en": 'exclude only applies with org = "OWNER"',
        "zh": '`exclude` 只能与 `org = "OWNER"` 一起使用',
    },
    "error.config.exclude_outside": {
        "en": "exclude lists repositories of {org}, as {org}/NAME",
        "zh": "`exclude` 列出的是 {org} 的仓库，形如 `{org}/NAME`",
    },
    "error.config.timezone": {
        "en": "unknown timezone {value}; use an IANA name such as 'UTC' or 'Asia/Shanghai'",
        "zh": "未知的时区 {value}；请使用时区数据库名称，例如 `UTC` 或 `Asia/Shanghai`",
    },
    "error.config.repo_twice": {
        "en": "{repo} is listed twice; expected each repository once "
        "(merge the two [[repos]] entries)",
        "zh": "{repo} 被列出两次；每个仓库只应出现一次（请合并这两个 `[[repos]]` 条目）",
    },
    # Rule sets (bot.analysis.rules, bot.analysis.auto_rules).
    "error.rules.toml": {
        "en": "{source}: not valid TOML: {problem}",
        "zh": "{source}：不是有效的 `TOML`：{problem}",
    },
    "error.rules.unreadable": {
        "en": "{path}: cannot read rule set: {reason}",
        "zh": "{path}：无法读取规则集：{reason}",
    },
    "error.rules.unknown": {
        "en": "unknown rule set {name} (accepted: {accepted}, auto, or a path to a .toml file)",
        "zh": "未知的规则集 {name}（可用：{accepted}、`auto`，或 `.toml` 文件的路径）",
    },
    "error.yaml.indentation": {
        "en": "unexpected indentation at {content}",
        "zh": "{content} 处的缩进不符合预期",
    },
    "error.yaml.line": {"en": "unexpected line {content}", "zh": "不符合预期的行 {content}"},
    "error.yaml.key": {
        "en": "expected 'key: value', got {content}",
        "zh": "应为 `key: value`，收到 {content}",
    },
    "error.yaml.labeler": {
        "en": "labeler.yml must be a mapping of label -> rules",
        "zh": "`labeler.yml` 必须是“标签 -> 规则”的映射",
    },
    # A narrative a model wrote, refused (bot.digest.narrative; said in the log).
    "error.narrative.empty": {"en": "empty text", "zh": "文本为空"},
    "error.narrative.long": {
        "en": "text longer than {limit} characters",
        "zh": "文本超过 {limit} 个字符",
    },
    "error.narrative.foreign": {
        "en": "mentions PRs not merged in {scope}: {numbers}",
        "zh": "提到了不在 {scope} 合并的 PR：{numbers}",
    },
    "error.narrative.figures": {
        "en": "states figures absent from the data: {figures}",
        "zh": "给出了数据中没有的数字：{figures}",
    },
    "error.narrative.not_object": {
        "en": "answer is not a JSON object",
        "zh": "回答不是 JSON 对象",
    },
    "error.narrative.sentences": {
        "en": "more than {limit} sentences",
        "zh": "超过 {limit} 句",
    },
    # JSON exports (bot.importer).
    "error.import.expected": {
        "en": "expected a JSON export (see README, 'Export format for import')",
        "zh": "应为 JSON 导出文件（见 `README` 的 `Export format for import` 一节）",
    },
    "error.import.unreadable": {
        "en": "cannot read {path}: {reason}; {expected}",
        "zh": "无法读取 {path}：{reason}；{expected}",
    },
    "error.import.not_utf8": {
        "en": "{path}: not UTF-8 text (byte {byte}); expected a JSON export saved as UTF-8",
        "zh": "{path}：不是 `UTF-8` 文本（第 {byte} 字节）；应为以 `UTF-8` 保存的 JSON 导出文件",
    },
    "error.import.depth": {
        "en": "{path}: JSON nested more than {limit} levels deep; {expected}",
        "zh": "{path}：JSON 嵌套超过 {limit} 层；{expected}",
    },
    "error.import.not_json": {
        "en": "{path}: not valid JSON: {problem}; {expected}",
        "zh": "{path}：不是有效的 JSON：{problem}；{expected}",
    },
    "error.import.too_deep": {
        "en": "{path}: JSON nested too deeply; {expected}",
        "zh": "{path}：JSON 嵌套过深；{expected}",
    },
    "error.import.not_object": {
        "en": "{path}: expected an object with 'repository' and 'pullRequests' (got a {kind})",
        "zh": "{path}：应为含有 `repository` 和 `pullRequests` 的对象（收到的是 {kind}）",
    },
    "error.import.kind": {
        "en": '{path}: a {kind} export cannot be imported by this version; {expected} with "'
        'pullRequests" and an optional "window"',
        "zh": '{path}：此版本无法导入 {kind} 导出文件；{expected}，需含 `"pullRequests"`，`"wind'
        'ow"` 可选',
    },
    "error.import.release_window": {
        "en": "nothing imported: a release export holds the PRs between two tags, not a "
        "window; import it without --week/--since/--until/--complete",
        "zh": "未导入任何内容：版本导出文件包含两个标签之间的 PR，而不是一个时间窗口；"
        "请不带 `--week`/`--since`/`--until`/`--complete` 导入",
    },
    "error.import.complete_needs_window": {
        "en": "nothing imported: --complete needs the window: --week W or --since D --until D, "
        'or a file that declares its own ("window"), which {path} does not',
        "zh": "未导入任何内容：`--complete` 需要时间窗口：`--week W` 或 `--since D --until D`，或一"
        '个自己声明窗口（`"window"`）的文件，而 {path} 没有声明',
    },
    "error.import.not_covered": {
        "en": "nothing imported, not marking {week} complete: {path}: {problem}; give a file "
        "that covers the window, or leave out --complete",
        "zh": "未导入任何内容，未将 {week} 标记为完整：{path}：{problem}；"
        "请给出覆盖该窗口的文件，或去掉 `--complete`",
    },
    "error.import.window_outside": {
        "en": "the file declares the window {declared}, which does not contain {window}",
        "zh": "文件声明的窗口是 {declared}，不包含 {window}",
    },
    "error.import.window_undeclared": {
        "en": "the file declares no window and its merged dates ({dates}) do not reach past "
        'both edges of {window}; add "window": {{"since": …, "until": …}}',
        "zh": '文件没有声明窗口，其合并日期（{dates}）也未越过 {window} 的两端；请加上 `"window":'
        ' {{"since": …, "until": …}}`',
    },
    "error.import.no_merged": {"en": "no merged PRs", "zh": "没有已合并的 PR"},
    "error.import.timestamp_span": {
        "en": "{value} is outside the dates a pull request can have: expected a date from "
        "{earliest} to {latest}",
        "zh": "{value} 超出拉取请求可能的日期范围：应为 {earliest} 至 {latest} 之间的日期",
    },
    "error.import.change_type": {
        "en": "{value} is not a change GitHub reports for a file: expected one of {accepted}",
        "zh": "{value} 不是 GitHub 报告的文件变更类型：应为 {accepted} 之一",
    },
    "error.import.timestamp_type": {
        "en": "expected an ISO 8601 timestamp string, e.g. {example}",
        "zh": "应为 `ISO 8601` 时间戳字符串，例如 {example}",
    },
    "error.import.timestamp": {
        "en": "bad timestamp {value}: expected ISO 8601, e.g. {example}",
        "zh": "时间戳 {value} 无效：应为 `ISO 8601`，例如 {example}",
    },
    "error.import.timestamp_range": {
        "en": "timestamp {value} is out of range: expected a date between years 1 and 9999",
        "zh": "时间戳 {value} 超出范围：应为 1 年至 9999 年之间的日期",
    },
    "error.import.repository": {
        "en": "bad repository {value}: {problem}",
        "zh": "仓库 {value} 无效：{problem}",
    },
    "error.import.state": {
        "en": "state: bad state {value}: expected open, closed or merged",
        "zh": "`state`：状态 {value} 无效：应为 `open`、`closed` 或 `merged`",
    },
    "error.import.merged_null": {
        "en": 'mergedAt: null: expected a merge time, e.g. "2026-06-02T10:00:00Z", or '
        '"state": "open" or "closed" for a PR not merged',
        "zh": '`mergedAt`：值为空：应为合并时间，例如 `"2026-06-02T10:00:00Z"`；未合并的 PR 请写 '
        '`"state": "open"` 或 `"closed"`',
    },
    "error.import.merged_missing": {
        "en": 'mergedAt: missing: "state": "merged" needs a merge time',
        "zh": '`mergedAt`：缺失：`"state": "merged"` 需要合并时间',
    },
    "error.import.window_order": {
        "en": 'expected {{"since": DATE, "until": DATE}} with until after since',
        "zh": '应为 `{{"since": DATE, "until": DATE}}`，且结束晚于开始',
    },
    "error.import.flat_window": {
        "en": 'expected "since" and "until" together, until after since, e.g. '
        '"since": "2026-05-25", "until": "2026-06-01"',
        "zh": '`"since"` 与 `"until"` 须同时给出，且结束晚于开始，例如 `"since": "2026-05-25'
        '", "until": "2026-06-01"`',
    },
}
