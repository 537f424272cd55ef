"""Per-PR alerts of subscriptions."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "alert.batch_title": {
        "en": "{count} new {count:PR matches|PRs match} your subscriptions",
        "zh": "{count} 个新 PR 匹配你的订阅",
    },
    "alert.title": {"en": "PR #{number}: {title}", "zh": "PR #{number}：{title}"},
}
