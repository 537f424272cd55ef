"""`vllm-bot themes` and the theme line of `explain`: what formed each theme, its score
against the baseline, its members and why each joined (from the digest's detection)."""

from __future__ import annotations

from typing import TypedDict

from bot.analysis.themes import RISE_MIN, RISE_RATIO, Theme
from bot.core.models import JSON
from bot.digest.model import Digest
from bot.digest.prose import fading_json, theme_name

_TREND_WORDS = {
    "new": "new: not a highlight last week",
    "continuing": "continuing",
    "rising": "rising",
    "falling": "falling",
    "unknown": "unknown: last week is not in the store",
}
# How the trend words are decided, shown with every `themes` output.
TREND_RULE = (
    f"trend: against last week's highlight of the same theme; rising/falling = at least "
    f"{RISE_RATIO:g}x more/fewer members and {RISE_MIN} PRs apart, else continuing; new = "
    f"not a highlight last week"
)


class PRTheme(TypedDict):
    """The theme a PR is in: `explain`'s "theme"."""

    id: str
    name: str
    why: list[str]  # why the PR joined
    kind: str  # "area" | "initiative"
    members: int
    trend: str  # new | continuing | rising | falling | unknown
    last_week: int | None  # members of last week's highlight of it (None: none)
    trend_rule: str


class WeekPRTheme(PRTheme):
    week: str  # the ISO week the PR was merged in


def _names(digest: Digest, language: str) -> dict[str, str]:
    return {h.theme_id: theme_name(h, language) for h in digest.highlights}


def theme_json(theme: Theme, name: str | None = None) -> JSON:
    return {
        "id": theme.id,
        "name": name or theme.name,
        "kind": theme.kind,
        "key": theme.key,
        "module": theme.module,
        "terms": theme.terms,
        "signals": theme.signals,
        "support": theme.support,
        "window_prs": theme.window_prs,
        "history_prs": theme.history_prs,
        "history_total": theme.history_total,
        "history_weeks": theme.history_weeks,
        "lift": theme.lift,
        "score": theme.score,
        "weight": theme.weight,
        "trend": theme.trend,
        "last_week": theme.last_week,  # members of last week's highlight (None: none)
        "baseline_per_week": theme.baseline,
        "history": {str(k): v for k, v in sorted(theme.history.items())},
        "authors": [{"login": a, "prs": n} for a, n in theme.authors],
        "members": [{"number": m.number, "why": m.reasons} for m in theme.members],
    }


def themes_json(digest: Digest, language: str = "en") -> JSON:
    """`vllm-bot themes --format json`; names of areas in `language`."""
    result = digest.theme_result
    names = _names(digest, language)
    return {
        "repo": digest.repo,
        "week": digest.week,
        "start": digest.start.isoformat(),
        "end": digest.end.isoformat(),
        "merged": digest.totals.merged,
        "history_weeks": digest.history_weeks,
        "history_labels": digest.history_labels,
        "candidates": result.candidates if result else 0,
        "last_week": result.last_week if result else None,
        "trend_rule": TREND_RULE,
        "themes": [theme_json(t, names.get(t.id)) for t in (result.themes if result else [])],
        "fading": [fading_json(f, language) for f in digest.fading],
    }


def themes_text(digest: Digest, language: str = "en") -> str:
    """`vllm-bot themes`; names of areas in `language`."""
    result = digest.theme_result
    titles = {row.number: row.title for row in digest.prs}
    names = _names(digest, language)
    held = digest.history_weeks
    lines = [
        f"{digest.repo} {digest.week}: {digest.totals.merged} PRs merged; baseline: "
        + (
            f"{held} earlier weeks in the store ({', '.join(digest.history_labels)})"
            if held
            else "none (no earlier week in the store: themes scored by support alone)"
        )
    ]
    if result is None or not result.themes:
        lines.append("no theme stood out")
        lines.extend(_fading_lines(digest, language))
        return "\n".join(lines)
    lines.append(f"{result.candidates} terms qualified; {len(result.themes)} themes chosen")
    lines.append(TREND_RULE + (f" (last week: {result.last_week})" if result.last_week else ""))
    for n, theme in enumerate(result.themes, 1):
        lift = "unknown" if theme.lift is None else f"{theme.lift:g}x"
        lines.append("")
        lines.append(f"{n}. {names.get(theme.id, theme.name)}  [{theme.id}, {theme.kind}]")
        lines.append(f"   terms: {', '.join(theme.terms) or '-'}")
        if theme.signals:
            lines.append(f"   signals: {'; '.join(theme.signals)}")
        lines.append(
            f"   score {theme.score:g} (weight {theme.weight:g}): {theme.support} of "
            f"{theme.window_prs} PRs this window vs {theme.history_prs} of "
            f"{theme.history_total} in {theme.history_weeks} earlier weeks; lift {lift}"
        )
        trend = _TREND_WORDS.get(theme.trend, theme.trend)
        if theme.last_week is not None:
            trend += f" (last week {theme.last_week} -> this week {len(theme.members)})"
        if theme.baseline is not None:
            trend += (
                f"; about {theme.baseline:g} PRs a week named it in the "
                f"{theme.history_weeks} earlier weeks"
            )
        lines.append(f"   trend: {trend}")
        lines.append(f"   members ({len(theme.members)}):")
        for member in theme.members:
            title = titles.get(member.number, "")
            lines.append(f"     #{member.number} {title}  <- {'; '.join(member.reasons)}")
    lines.extend(_fading_lines(digest, language))
    return "\n".join(lines)


def _fading_lines(digest: Digest, language: str) -> list[str]:
    """Last week's highlights that are gone or fell by half: one plain line each."""
    if not digest.fading:
        return []
    lines = ["", "fading since last week:"]
    for f in digest.fading:
        now = "still a highlight" if f.highlight else "no highlight now"
        name = theme_name(f, language)
        lines.append(
            f"  {name} [{f.id}]: last week {f.last_week} -> this week {f.this_week} ({now})"
        )
    return lines


def theme_of(digest: Digest, number: int, language: str) -> PRTheme | None:
    """The theme PR `number` is in ({"id", "name", "why", "kind", "members", "trend",
    "last_week", "trend_rule"}); None when it is in none."""
    result = digest.theme_result
    if result is None:
        return None
    names = _names(digest, language)
    for theme in result.themes:
        for member in theme.members:
            if member.number == number:
                return {
                    "id": theme.id,
                    "name": names.get(theme.id, theme.name),
                    "why": member.reasons,
                    "kind": theme.kind,
                    "members": len(theme.members),
                    "trend": theme.trend,
                    "last_week": theme.last_week,
                    "trend_rule": TREND_RULE,
                }
    return None
