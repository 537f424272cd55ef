"""PR cards and alerts as neutral Documents, plus the plain-text card of `pr --format text`.

The card answers "what is this PR and should I look at it": modules, kind, flags with their
reasons, the score with its top reasons, size, the most-changed files and claims. Words
come from bot.core.i18n; PR titles, paths and reasons stay inside spans so every renderer
escapes them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, tzinfo

from bot.analysis.reasons import contribution_text, flag_text
from bot.analysis.score import shown_points
from bot.core import i18n
from bot.core.document import (
    Block,
    BulletList,
    Code,
    Document,
    Facts,
    Inline,
    Link,
    Paragraph,
    Section,
    Span,
    Strong,
    Table,
    Text,
    plain,
)
from bot.core.models import Analysis, AnalyzedPR, PullRequest

TOP_FILES = 5
SCORE_REASONS = 3  # in the one-line score of the overview
SCORE_ITEMS = 6  # contribution lines in "Why this score" before the rest is summed

# Callers hold module names either per language (id → (en, zh), from the rule set) or
# already localised (id → name); both are accepted.
ModuleNames = Mapping[str, tuple[str, str] | str]


def module_name(module_id: str, names: ModuleNames | None, language: str) -> str:
    value = (names or {}).get(module_id)
    if value is None:
        return module_id
    if isinstance(value, str):
        return value
    return value[1] if language == "zh" and value[1] else value[0]


def _when(value: datetime | None, language: str, tz: tzinfo = UTC) -> str:
    """A time in the configured timezone, named after it (`Asia/Shanghai`, `UTC`)."""
    if value is None:
        return i18n.t(language, "card.none")
    return i18n.moment(value.astimezone(tz), language) + f" {tz}"


def _modules(analysis: Analysis, names: ModuleNames | None, language: str) -> Inline:
    if not analysis.modules:
        return (Text(i18n.t(language, "card.none")),)
    spans: list[Span] = []
    for i, match in enumerate(analysis.modules):
        if i:
            spans.append(Text(", " if language == "en" else "、"))
        spans.append(Text(module_name(match.id, names, language)))
        spans.append(Text(" ("))
        spans.append(Code(match.id))
        spans.append(Text(")"))
    return tuple(spans)


def _size(pr: PullRequest, language: str) -> str:
    if not pr.size_known:
        return i18n.t(language, "card.size_unknown")
    if not pr.files_known:
        # GitHub gave the totals but no file list: no file count to state.
        return i18n.t(language, "card.size_partial", additions=pr.additions, deletions=pr.deletions)
    return i18n.t(
        language,
        "card.size_value",
        additions=pr.additions,
        deletions=pr.deletions,
        count=pr.changed_files or len(pr.files),
    )


def _score_line(analysis: Analysis, language: str) -> str:
    value = i18n.t(language, "card.score_value", score=i18n.score(analysis.score, language))
    positive = [c for c in analysis.contributions if c.points > 0]
    reasons = [contribution_text(c, language) for c in positive[:SCORE_REASONS]]
    if reasons:
        joined = "; ".join(reasons) if language == "en" else "；".join(reasons)
        if len(positive) > len(reasons):
            # Say these are the largest ones, not all of them.
            joined = i18n.t(
                language, "card.score_top", shown=len(reasons), count=len(positive), reasons=joined
            )
        value += f" ({joined})" if language == "en" else f"（{joined}）"
    return value


def _score_items(analysis: Analysis, language: str) -> tuple[Inline, ...]:
    """Every contribution, caps included, with points that add up to the score; more than
    SCORE_ITEMS positive ones are summed in one "N more" line so the sum still holds."""
    shown = [c for c in analysis.contributions if c.points]
    points = shown_points(shown, analysis.score)
    positive = [(c, p) for c, p in zip(shown, points, strict=True) if c.points > 0]
    negative = [(c, p) for c, p in zip(shown, points, strict=True) if c.points < 0]
    items: list[Inline] = []
    listed = positive if len(positive) <= SCORE_ITEMS else positive[: SCORE_ITEMS - 1]
    for c, p in listed:
        items.append((Text(f"{_signed(p, language)} "), Text(contribution_text(c, language))))
    rest = positive[len(listed) :]
    if rest:
        total = sum(p for _, p in rest)
        more = i18n.t(language, "card.score_more", count=len(rest))
        items.append((Text(f"{_signed(total, language)} "), Text(more)))
    for c, p in negative:  # caps last: they apply to the sum above
        items.append((Text(f"{_signed(p, language)} "), Text(contribution_text(c, language))))
    residual = round(analysis.score - sum(points), 1)
    if residual:
        # Never a list that does not add up: what the items do not explain is shown too.
        other = i18n.t(language, "card.score_other")
        items.append((Text(f"{_signed(residual, language)} "), Text(other)))
    score = i18n.score(analysis.score, language)
    items.append((Strong(i18n.t(language, "card.score_total", score=score)),))
    return tuple(items)


def _signed(points: float, language: str) -> str:
    text = i18n.score(abs(points), language)
    return f"+{text}" if points >= 0 else f"−{text}"


def _flags(analysis: Analysis, language: str) -> Block:
    if not analysis.flags:
        return Paragraph((Text(i18n.t(language, "card.no_flags")),))
    colon = ": " if language == "en" else "："
    return BulletList(
        tuple(
            (Strong(i18n.flag_name(f.id, language)), Text(colon + flag_text(f, language)))
            for f in analysis.flags
        )
    )


def _files(pr: PullRequest, language: str) -> tuple[Block, ...]:
    if not pr.files_known:
        return (Paragraph((Text(i18n.t(language, "card.files_unknown")),)),)
    # Most lines first; path breaks ties so the card is stable.
    top = sorted(pr.files, key=lambda f: (-f.lines, f.path))[:TOP_FILES]
    rows = tuple(
        (
            (Code(f.path),),
            (Text(f"+{i18n.number(f.additions, language)}"),),
            (Text(f"−{i18n.number(f.deletions, language)}"),),
        )
        for f in top
    )
    blocks: list[Block] = [Table(("", "+", "−"), rows, ("l", "r", "r"))] if rows else []
    hidden = len(pr.files) - len(top)
    if hidden > 0:
        blocks.append(Paragraph((Text(i18n.t(language, "card.more_files", count=hidden)),)))
    return tuple(blocks)


def pr_card(
    pr: PullRequest,
    analysis: Analysis,
    language: str = "en",
    module_names: ModuleNames | None = None,
    tz: tzinfo = UTC,
) -> Document:
    """The full card of one PR (`/vllm pr N`), its times in `tz` (the config's timezone)."""
    lang = language
    state = i18n.t(lang, f"card.state.{pr.state}")
    author = pr.author or i18n.t(lang, "card.unknown_author")
    facts: list[tuple[str, Inline]] = [
        (i18n.t(lang, "card.state"), (Text(state),)),
        (i18n.t(lang, "card.author"), (Text(author),)),
        (i18n.t(lang, "card.created"), (Text(_when(pr.created_at, lang, tz)),)),
    ]
    if pr.merged_at is not None:
        facts.append((i18n.t(lang, "card.merged"), (Text(_when(pr.merged_at, lang, tz)),)))
    facts += [
        (i18n.t(lang, "card.modules"), _modules(analysis, module_names, lang)),
        (i18n.t(lang, "card.kind"), (Text(i18n.kind_name(analysis.kind, lang)),)),
        (i18n.t(lang, "card.score"), (Text(_score_line(analysis, lang)),)),
        (i18n.t(lang, "card.size"), (Text(_size(pr, lang)),)),
        (i18n.t(lang, "card.link"), (Link(pr.url, f"#{pr.number}"),)),
    ]
    sections = [
        Section("card", i18n.t(lang, "card.section.summary"), (Facts(tuple(facts)),)),
        Section("flags", i18n.t(lang, "card.section.flags"), (_flags(analysis, lang),)),
    ]
    if any(c.points for c in analysis.contributions):
        sections.append(
            Section(
                "score",
                i18n.t(lang, "card.section.score"),
                (BulletList(_score_items(analysis, lang)),),
            )
        )
    sections.append(Section("files", i18n.t(lang, "card.section.files"), _files(pr, lang)))
    if analysis.claims:
        sections.append(
            Section(
                "claims",
                i18n.t(lang, "card.section.claims"),
                (BulletList(tuple((Text(c.text),) for c in analysis.claims)),),
            )
        )
    title = f"#{pr.number} {pr.title}"
    return Document(
        id=f"pr:{pr.repo}:{pr.number}",
        title=title,
        context=f"{pr.repo} · {state} · {author} · {_size(pr, lang)}",
        sections=tuple(sections),
        fallback=i18n.t(lang, "alert.title", number=str(pr.number), title=pr.title),
        lead_sections=2,
        url=pr.url,
        meta={"repo": pr.repo, "number": str(pr.number), "language": lang},
    )


def _alert_line(
    pr: PullRequest, analysis: Analysis, language: str, names: ModuleNames | None
) -> Inline:
    spans: list[Span] = [Link(pr.url, f"#{pr.number}"), Text(" " + pr.title)]
    if pr.author:
        spans.append(Text(i18n.t(language, "highlight.by", author=pr.author)))
    modules = [module_name(m, names, language) for m in analysis.module_ids]
    details = [i18n.join(modules, language)] if modules else []
    details.append(i18n.t(language, "card.score_value", score=i18n.score(analysis.score, language)))
    spans.append(Text(" · " + " · ".join(details)))
    if analysis.flags:
        spans.append(Text(" · "))
        spans.append(
            Strong(i18n.join((i18n.flag_name(f.id, language) for f in analysis.flags), language))
        )
    if analysis.claims:
        spans.append(Text(" · " + "; ".join(c.text for c in analysis.claims)))
    return tuple(spans)


def alert_card(
    pr: PullRequest,
    analysis: Analysis,
    language: str = "en",
    module_names: ModuleNames | None = None,
    *,
    context: str | None = None,
) -> Document:
    """A compact alert for one new PR matching a subscription."""
    lang = language
    facts: list[tuple[str, Inline]] = [
        (i18n.t(lang, "card.author"), (Text(pr.author or i18n.t(lang, "card.unknown_author")),)),
        (i18n.t(lang, "card.modules"), _modules(analysis, module_names, lang)),
        (i18n.t(lang, "card.score"), (Text(_score_line(analysis, lang)),)),
    ]
    if analysis.flags:
        names = i18n.join((i18n.flag_name(f.id, lang) for f in analysis.flags), lang)
        facts.append((i18n.t(lang, "card.flags"), (Strong(names),)))
    if analysis.claims:
        facts.append(
            (
                i18n.t(lang, "card.section.claims"),
                (Text("; ".join(c.text for c in analysis.claims)),),
            )
        )
    facts.append((i18n.t(lang, "card.link"), (Link(pr.url, f"#{pr.number}"),)))
    title = i18n.t(lang, "alert.title", number=str(pr.number), title=pr.title)
    return Document(
        id=f"alert:{pr.repo}:{pr.number}",
        title=title,
        context=context or pr.repo,
        sections=(Section("alert", i18n.t(lang, "card.section.summary"), (Facts(tuple(facts)),)),),
        fallback=title,
        lead_sections=1,
        url=pr.url,
        meta={"repo": pr.repo, "number": str(pr.number), "language": lang},
    )


def batched_alert(
    prs: Sequence[AnalyzedPR],
    language: str = "en",
    module_names: ModuleNames | None = None,
    *,
    context: str = "",
    doc_id: str | None = None,
) -> Document:
    """One message listing several new PRs (a busy poll), most important first."""
    ordered = sorted(prs, key=lambda a: (-a.analysis.score, a.pr.number))
    title = i18n.t(language, "alert.batch_title", count=len(ordered))
    items = tuple(_alert_line(a.pr, a.analysis, language, module_names) for a in ordered)
    repos = sorted({a.pr.repo for a in ordered})
    numbers = ",".join(str(a.pr.number) for a in sorted(ordered, key=lambda a: a.pr.number))
    return Document(
        id=doc_id or f"alert:{'+'.join(repos)}:{numbers}",
        title=title,
        context=context or ", ".join(repos),
        sections=(Section("prs", i18n.t(language, "card.section.prs"), (BulletList(items),)),),
        fallback=title,
        lead_sections=1,
        meta={"language": language},
    )


def _display_width(text: str) -> int:
    """Terminal columns of `text`: wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def document_text(doc: Document) -> str:
    """Plain text of a Document (terminal output): no markup, nothing to escape."""
    lines = [doc.title]
    if doc.url:
        lines.append(doc.url)
    if doc.context:
        lines.append(doc.context)
    for section in doc.sections:
        lines += ["", section.title]
        for block in section.blocks:
            if isinstance(block, Paragraph):
                lines.append("  " + plain(block.spans))
            elif isinstance(block, BulletList):
                for n, item in enumerate(block.items, 1):
                    marker = f"{n}." if block.ordered else "-"
                    lines.append(f"  {marker} {plain(item)}")
            elif isinstance(block, Facts):
                # Pad by display width: a CJK label ("作者") is two columns per character.
                width = max(_display_width(label) for label, _ in block.items)
                for label, value in block.items:
                    pad = " " * (width - _display_width(label))
                    lines.append(f"  {label}{pad}  {plain(value)}")
            elif isinstance(block, Table):
                for row in block.rows:
                    lines.append("  " + "  ".join(plain(cell) for cell in row))
    if doc.footer:
        lines += ["", doc.footer]
    return "\n".join(lines) + "\n"


def pr_text(
    pr: PullRequest,
    analysis: Analysis,
    language: str = "en",
    module_names: ModuleNames | None = None,
    tz: tzinfo = UTC,
) -> str:
    """The card as plain text for `vllm-bot pr N --format text`."""
    return document_text(pr_card(pr, analysis, language, module_names, tz))
