"""Posting to Slack and Discord."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
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
    # What serve and doctor say when a platform's tokens do not match the config.
    "error.tokens.slack_bot": {
        "en": "SLACK_BOT_TOKEN is not set but digest targets post to Slack ({channels}); set "
        "it or remove those targets",
        "zh": "未设置 `SLACK_BOT_TOKEN`，但有周报目标发往 `Slack`（{channels}）；"
        "请设置它，或删除这些目标",
    },
    "error.tokens.slack_socket": {
        "en": 'SLACK_APP_TOKEN (xapp-…) is not set but [slack] mode = "socket"; set it, or use '
        'mode = "http" with SLACK_SIGNING_SECRET',
        "zh": '未设置 `SLACK_APP_TOKEN`（`xapp-…`），但 `[slack] mode = "socket"`；'
        '请设置它，或改用 `mode = "http"` 并设置 `SLACK_SIGNING_SECRET`',
    },
    "error.tokens.slack_http": {
        "en": 'SLACK_SIGNING_SECRET is not set but [slack] mode = "http" (it verifies '
        '/slack/events); set it, or use mode = "socket" with SLACK_APP_TOKEN',
        "zh": '未设置 `SLACK_SIGNING_SECRET`，但 `[slack] mode = "http"`'
        "（它用于校验 `/slack/events`）；请设置它，"
        '或改用 `mode = "socket"` 并设置 `SLACK_APP_TOKEN`',
    },
    "error.tokens.slack_no_bot": {
        "en": "SLACK_APP_TOKEN/SLACK_SIGNING_SECRET is set but SLACK_BOT_TOKEN is not",
        "zh": "已设置 `SLACK_APP_TOKEN`/`SLACK_SIGNING_SECRET`，但未设置 `SLACK_BOT_TOKEN`",
    },
    "error.tokens.discord_bot": {
        "en": "DISCORD_BOT_TOKEN is not set but digest targets post to Discord ({channels}); "
        "set it, give those targets a webhook_url_env, or remove them",
        "zh": "未设置 `DISCORD_BOT_TOKEN`，但有周报目标发往 `Discord`（{channels}）；请设置它，"
        "为这些目标设置 `webhook_url_env`，或删除它们",
    },
}
