"""JSON and text renderings of an analysis for `pr`, `explain` and `modules`."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from bot.core.i18n import message
from bot.core.models import JSON, Analysis, PullRequest

from .files import pr_file_count
from .rules import ModuleRule, RuleSet
from .score import shown_points


def _iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    text = dt.isoformat()
    return text.replace("+00:00", "Z")


def analysis_to_json(pr: PullRequest, analysis: Analysis) -> JSON:
    """The CONTRACT keys of `pr --format json`, plus `explain` details."""
    return {
        "repo": pr.repo,
        "number": pr.number,
        "title": pr.title,
        "url": pr.url,
        "author": pr.author,
        "state": pr.state,
        "created_at": _iso(pr.created_at),
        "merged_at": _iso(pr.merged_at),
        # null, not 0, when unknown (a PR imported from its title alone).
        "additions": pr.additions if pr.size_known else None,
        "deletions": pr.deletions if pr.size_known else None,
        "changed_files": pr.changed_files if pr.files_known or pr.changed_files else None,
        "labels": list(pr.labels),
        "files": [
            {"path": f.path, "additions": f.additions, "deletions": f.deletions} for f in pr.files
        ],
        "modules": analysis.module_ids,
        "kind": analysis.kind,
        "flags": [{"id": f.id, "reason": f.reason} for f in analysis.flags],
        "score": analysis.score,
        "score_reasons": analysis.score_reasons(),
        "claims": [c.text for c in analysis.claims],
        "files_known": pr.files_known,
        "explain": {
            "primary_module": analysis.primary_module,
            "modules": [{"id": m.id, "rule": m.rule, "lines": m.lines} for m in analysis.modules],
            "kind_reason": analysis.kind_reason,
            "contributions": [
                {"feature": c.feature, "points": c.points, "reason": c.reason}
                for c in analysis.contributions
            ],
            "claims": [
                {"text": c.text, "factor": c.factor, "metric": c.metric} for c in analysis.claims
            ],
        },
    }


def explain_text(pr: PullRequest, analysis: Analysis, language: str = "en") -> str:
    """Plain-text explanation for `vllm-bot explain N`: headings in `language`; rule
    names and reasons stay as the rule set writes them (they are what `modules` lists)."""

    def head(msg_id: str) -> str:
        return message(language, f"explain.{msg_id}")

    colon = "：" if language == "zh" else ": "
    none = head("none")
    lines = [f"#{pr.number} {pr.title}", pr.url, ""]
    if not pr.files_known:
        lines.append(head("files_unknown"))
    else:
        adds = pr.additions or sum(f.additions for f in pr.files)
        dels = pr.deletions or sum(f.deletions for f in pr.files)
        lines.append(f"{head('files')}{colon}{pr_file_count(pr)} (+{adds:,} -{dels:,})")
    lines.append("")
    lines.append(f"{head('modules')}{colon.rstrip()}")
    for i, m in enumerate(analysis.modules):
        marker = "*" if i == 0 else "-"
        size = f", {m.lines:,} lines" if m.lines else ""
        lines.append(f"  {marker} {m.id}  ({m.rule}{size})")
    lines.append("")
    lines.append(f"{head('kind')}{colon}{analysis.kind}  ({analysis.kind_reason})")
    lines.append("")
    lines.append(
        f"{head('flags')}{colon.rstrip()}" if analysis.flags else f"{head('flags')}{colon}{none}"
    )
    for f in analysis.flags:
        lines.append(f"  - {f.id}: {f.reason}")
    lines.append("")
    lines.append(f"{head('score')}{colon}{analysis.score:.1f} / 10")
    # One decimal, rounded so the lines add up to the score (caps included).
    shown = [c for c in analysis.contributions if c.points]
    for c, points in zip(shown, shown_points(shown, analysis.score), strict=True):
        lines.append(f"  {points:+5.1f}  {c.feature:<10} {c.reason}")
    if shown:
        lines.append(f"  {'=':>5} {analysis.score:4.1f}  total")
    lines.append("")
    lines.append(
        f"{head('claims')}{colon.rstrip()}" if analysis.claims else f"{head('claims')}{colon}{none}"
    )
    for claim in analysis.claims:
        extra = []
        if claim.factor:
            extra.append(f"factor {claim.factor:g}")
        if claim.metric:
            extra.append(claim.metric)
        lines.append(f"  - {claim.text}" + (f"  ({', '.join(extra)})" if extra else ""))
    return "\n".join(lines)


class ModuleRow(NamedTuple):
    """One `vllm-bot modules` row; iterates as its four table cells."""

    id: str
    name_en: str
    name_zh: str
    rules: str


def _rules_summary(m: ModuleRule, fallback: bool) -> str:
    parts = []
    if m.paths:
        parts.append("paths: " + ", ".join(m.paths))
    if m.exclude:
        parts.append("except: " + ", ".join(m.exclude))
    if m.tags:
        parts.append("tags: " + ", ".join(f"[{t}]" for t in m.tags))
    if m.labels:
        parts.append("labels: " + ", ".join(m.labels))
    if m.keywords:
        parts.append("title words: " + ", ".join(m.keywords))
    if m.hints:
        parts.append("title hints (files unknown): " + ", ".join(m.hints))
    if m.auxiliary:
        parts.append("auxiliary: only when nothing else matches or named by tag/label")
    if m.catch_all:
        parts.append("catch-all: files no other module matches")
    if m.group:
        parts.append(f"group {m.group}: a title word yields to a tag/label of the group")
    if fallback:
        parts.append("fallback when no rule matches")
    return "; ".join(parts)


def describe_ruleset(ruleset: RuleSet) -> list[ModuleRow]:
    """One row per module for `vllm-bot modules`: id, English and Chinese names, rules."""
    return [
        ModuleRow(m.id, m.name_en, m.name_zh, _rules_summary(m, m.id == ruleset.fallback_module))
        for m in ruleset.modules
    ]
