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
}
