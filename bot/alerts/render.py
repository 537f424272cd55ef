"""The alert cards: one merged PR, or a batch of them, as a neutral Document.

The pipeline only needs something with `alert(item, language)` and
`batch(items, language)` returning Documents (`AlertCards`); production and the tests use
`BotCards`, over the PR cards of `bot.cards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.alerts.model import AlertItem
from bot.cards import alert_card, batched_alert
from bot.core.document import Document
from bot.core.models import AnalyzedPR


class AlertCards(Protocol):
    def alert(self, item: AlertItem, language: str) -> Document: ...

    def batch(self, items: Sequence[AlertItem], language: str) -> Document: ...


class BotCards:
    """AlertCards over bot.cards (alert_card / batched_alert)."""

    def alert(self, item: AlertItem, language: str) -> Document:
        return alert_card(item.pr, item.analysis, language)

    def batch(self, items: Sequence[AlertItem], language: str) -> Document:
        return batched_alert([AnalyzedPR(i.pr, i.analysis) for i in items], language)
