"""Reasons the analysis gives a user (flag reasons, score contributions) as message ids and
parameters of the one catalogue, bot/core/i18n.py (ids under ``reason.``).

Analysis code never writes a reason string itself: it names a message id and passes
parameters (see ``bot.core.i18n.reason`` for the value types). That is all an analysis
keeps and the store caches: the English text (``Flag.reason`` / ``ScoreContribution.reason``,
the CONTRACT JSON stays English) is rendered on first read, for the few PRs a card, a
report or a digest's key-PR table shows; cards render ``key`` + ``params`` in their language.
"""

from __future__ import annotations

from itertools import groupby

from bot.core import i18n
from bot.core.models import Flag, ScoreContribution

Params = dict[str, object]


def render(key: str, params: Params, language: str = "en") -> str:
    """The reason ``key`` with ``params`` in ``language`` (English when unknown)."""
    return i18n.reason(language, key, params)


def localized(en: str, zh: str) -> dict[str, str]:
    """A name with a translation, as a parameter value."""
    return {"en": en, "zh": zh or en}


def nested(key: str, params: Params) -> dict[str, object]:
    """A reason inside another reason, as a parameter value."""
    return {"key": i18n.reason_id(key), "params": params}


def make_flag(flag_id: str, key: str, **params: object) -> Flag:
    return Flag(flag_id, "", i18n.reason_id(key), params)


def make_contribution(feature: str, points: float, key: str, **params: object) -> ScoreContribution:
    return ScoreContribution(feature, points, "", i18n.reason_id(key), params)


def reuse_flag(feature: str, points: float, key: str, flag: Flag) -> ScoreContribution:
    """A contribution whose template is the flag's own one (same placeholders): shares the
    flag's English text when it has been rendered."""
    return ScoreContribution(feature, points, flag.text, i18n.reason_id(key), flag.params)


def by_weight(contributions: list[ScoreContribution]) -> list[ScoreContribution]:
    """Largest points first, then by feature, then by English reason: the reason decides
    only between equal points of one feature, so only those are rendered."""
    ordered = sorted(contributions, key=lambda c: (-c.points, c.feature))
    out: list[ScoreContribution] = []
    for _, tied in groupby(ordered, key=lambda c: (-c.points, c.feature)):
        group = list(tied)
        out.extend(sorted(group, key=lambda c: c.reason) if len(group) > 1 else group)
    return out


def flag_text(flag: Flag, language: str) -> str:
    """A flag's reason in ``language``; the stored English text when it has no key."""
    if i18n.has_reason(flag.key):
        return render(flag.key, flag.params, language)
    return flag.reason


def contribution_text(contribution: ScoreContribution, language: str) -> str:
    if i18n.has_reason(contribution.key):
        return render(contribution.key, contribution.params, language)
    return contribution.reason
