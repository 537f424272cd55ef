"""Default alert cards, used until `bot.cards` (alert_card / batched_alert) is wired in.

The pipeline only needs something with `alert(item, language)` and
`batch(items, language)` returning Documents; `AlertCards` is that protocol.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

from bot import i18n
from bot.alerts.model import AlertItem
from bot.document import BulletList, Document, Facts, Link, Paragraph, Section, Span, Text


class AlertCards(Protocol):
    def alert(self, item: AlertItem, language: str) -> Document: ...

    def batch(self, items: Sequence[AlertItem], language: str) -> Document: ...


def _modules(item: AlertItem) -> str:
    return ", ".join(item.analysis.module_ids) or i18n.t("en", "card.none")


class DefaultAlertCards:
    """Compact cards: title, author, modules, flags, score, claims, link."""

    def alert(self, item: AlertItem, language: str) -> Document:
        pr, analysis = item.pr, item.analysis
        none = i18n.t(language, "card.none")
        facts: list[tuple[str, tuple[Span, ...]]] = [
            (
                i18n.t(language, "card.author"),
                (Text(pr.author or i18n.t(language, "card.unknown_author")),),
            ),
            (i18n.t(language, "card.modules"), (Text(_modules(item)),)),
            (
                i18n.t(language, "card.flags"),
                (
                    Text(
                        ", ".join(i18n.flag_name(f, language) for f in analysis.flag_ids)
                        or i18n.t(language, "card.no_flags")
                    ),
                ),
            ),
            (i18n.t(language, "card.score"), (Text(i18n.score(analysis.score, language)),)),
        ]
        if analysis.claims:
            facts.append(
                (
                    i18n.t(language, "card.claims"),
                    (Text("; ".join(c.text for c in analysis.claims[:3]) or none),),
                )
            )
        title = i18n.t(language, "alert.title", number=pr.number, title=pr.title)
        return Document(
            id=f"alert:{pr.repo}:{pr.number}:{language}",
            title=title,
            context=pr.repo,
            sections=(
                Section(
                    "alert",
                    title,
                    (
                        Facts(tuple(facts)),
                        Paragraph((Link(pr.url, i18n.t(language, "card.link")),)),
                    ),
                ),
            ),
            fallback=f"{pr.repo}#{pr.number} {pr.title}",
            url=pr.url,
            meta={"kind": "alert", "prs": f"{pr.repo}#{pr.number}"},
        )

    def batch(self, items: Sequence[AlertItem], language: str) -> Document:
        title = i18n.t(language, "alert.batch_title", count=len(items))
        lines = tuple(
            (
                Link(item.pr.url, f"{item.pr.repo}#{item.pr.number}"),
                Text(
                    f" {item.pr.title} · {item.pr.author or '?'} · {_modules(item)} · "
                    f"{i18n.score(item.analysis.score, language)}"
                ),
            )
            for item in items
        )
        keys = ",".join(f"{i.pr.repo}#{i.pr.number}" for i in items)
        digest = hashlib.sha256(keys.encode()).hexdigest()[:16]
        return Document(
            id=f"alert-batch:{digest}:{language}",
            title=title,
            context=", ".join(sorted({i.pr.repo for i in items})),
            sections=(Section("alerts", title, (BulletList(lines),)),),
            fallback=title,
            meta={"kind": "alert-batch", "prs": keys},
        )
