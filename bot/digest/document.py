"""Digest → localized neutral Document (the one thing every renderer renders), in the
language asked for: the Digest itself is language-neutral (bot.digest.prose writes it).

Section order follows issue 4: summary, highlights, trends, risks, key PRs,
recommendations; the header is the Document title/context, the footer its footer.
All words come from the bot.core.i18n catalogue; PR titles, authors and descriptions only
ever appear inside spans so each renderer escapes them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from babel.numbers import format_decimal

from bot.analysis.claims import stated_claim_text
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
)
from bot.core.weeks import WEEK_PATTERN, Window
from bot.digest.archive_paths import week_url
from bot.digest.build import CORE_UNTESTED, HIGHLIGHT_PRS, risk_order, status_message
from bot.digest.history import module_name, sparkline
from bot.digest.model import Digest, KeyPR, PRRow
from bot.digest.prose import (
    fading_text,
    highlight_text,
    module_names,
    recommendation_text,
    summary_of,
    theme_name,
    title_summary,
)

# Risk lines, risk details and the trends table list everything: the issue asks for the
# PRs per flag, and the chat formatters split long lists into several messages themselves.
TITLE_CHARS = 70
SUMMARY_CHARS = 140
_PR_REF = re.compile(r"#(\d+)")


def _sep(lang: str) -> str:
    return " " if lang == "en" else ""


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit - 1)
    return text[: cut if cut > limit // 2 else limit - 1].rstrip(" ,;:") + "…"


def linkify(text: str, urls: Mapping[int, str]) -> Inline:
    """Text with every "#N" of a PR in `urls` turned into a link to that PR."""
    spans: list[Span] = []
    last = 0
    for match in _PR_REF.finditer(text):
        url = urls.get(int(match[1]))
        if url is None:
            continue
        if match.start() > last:
            spans.append(Text(text[last : match.start()]))
        spans.append(Link(url, match[0]))
        last = match.end()
    if last < len(text):
        spans.append(Text(text[last:]))
    return tuple(spans)


def _refs(numbers: list[int], urls: Mapping[int, str], lang: str) -> list[Span]:
    """Every PR of `numbers` as a link, in the given (most important first) order."""
    spans: list[Span] = []
    for i, number in enumerate(numbers):
        if i:
            spans.append(Text(" " if lang == "en" else "、"))
        url = urls.get(number)
        spans.append(Link(url, f"#{number}") if url else Text(f"#{number}"))
    return spans


def title_and_context(digest: Digest, lang: str) -> tuple[str, str]:
    week = WEEK_PATTERN.match(digest.week)
    if week:
        title = i18n.t(lang, "title.week", repo=digest.repo, year=week[1], week=int(week[2]))
    else:
        title = i18n.t(lang, "title.window", repo=digest.repo, label=digest.week)
    if digest.scope:
        title = i18n.t(lang, "title.scope", modules=scope_names(digest, lang), title=title)
    return title, context_line(digest, lang)


def context_line(digest: Digest, lang: str) -> str:
    """The dates line under a digest's title (an organisation digest's too), flagged when
    the window is incomplete."""
    start, end = i18n.window_bounds(digest.start, digest.end, lang)
    context = i18n.t(
        lang,
        "context.dates",
        label=digest.week,
        start=start,
        end=end,
        timezone=digest.timezone,
        repo=digest.repo,
    )
    if not digest.complete:
        short = "incomplete.short.running" if digest.in_progress else "incomplete.short"
        context = f"⚠ {i18n.t(lang, short, span=digest.span)} · {context}"
    return context


def digest_document_id(repo: str, week: str, language: str, modules: Sequence[str] = ()) -> str:
    """The digest's key in the delivery ledger. A module digest is its own document (posted
    once per module set, whatever order the modules were named in)."""
    return f"digest:{repo}:{week}:{language}{scope_key(modules)}"


def scope_key(modules: Sequence[str]) -> str:
    """ ":modules=a,b" for a module set (sorted: the order it was named in does not count)."""
    return f":modules={','.join(sorted(set(modules)))}" if modules else ""


def digest_document(digest: Digest, lang: str) -> Document:
    """The digest as a Document in `lang`."""
    urls = {row.number: row.url for row in digest.prs}
    rows = {row.number: row for row in digest.prs}
    title, context = title_and_context(digest, lang)

    sections = [_summary(digest, lang, urls)]
    if digest.totals.merged:
        sections += [
            _highlights(digest, lang, urls),
            _trends(digest, lang),
            *([_history(digest, lang)] if digest.history is not None else []),
            _risks(digest, lang, urls, rows),
            _key_prs(digest, lang),
            _recommendations(digest, lang, urls),
        ]

    example = (
        digest.key_prs[0].number
        if digest.key_prs
        else (digest.prs[0].number if digest.prs else 12345)
    )
    # The subscription example names a module of this repository's rule set: the digest's
    # own scope, else the first module theme of the week, else its busiest module, else
    # last week's; with none known, the footer points at /vllm modules instead.
    modules = list(digest.scope) + [h.module for h in digest.highlights if h.module]
    modules += [m.id for m in digest.modules if m.count] + [m.id for m in digest.modules]
    footer = (
        i18n.t(lang, "footer", example=str(example), module=modules[0])
        if modules
        else i18n.t(lang, "footer.no_module", example=str(example))
    )
    archive_url = week_url(digest.archive_base, digest.repo, digest.week, lang)
    if archive_url:
        footer += _sep(lang) + i18n.t(lang, "footer.archive", url=archive_url)
    if digest.narrative_model:
        footer += _sep(lang) + i18n.t(lang, "footer.narrative", model=digest.narrative_model)

    return Document(
        id=digest_document_id(digest.repo, digest.week, lang, digest.scope),
        title=title,
        context=context,
        sections=tuple(sections),
        fallback=shorten(f"{title}: {summary_of(digest, lang)}", 280),
        lead_sections=1,
        footer=footer,
        meta={
            "repo": digest.repo,
            "week": digest.week,
            "language": lang,
            "complete": "yes" if digest.complete else "no",
        },
    )


def _summary(digest: Digest, lang: str, urls: Mapping[int, str]) -> Section:
    blocks: list[Block] = []
    summary = summary_of(digest, lang)
    text = linkify(summary, urls)
    status = status_message(digest)
    if status is not None:
        # The warning is in bold so it survives every platform's rendering; like every data
        # caveat it closes the summary, which opens with the week's news (the header line
        # above already carries "⚠ incomplete").
        warning = i18n.t(lang, status, span=digest.span)
        rest = summary.removesuffix(warning).rstrip()
        text = (*linkify(rest, urls), Text(_sep(lang)), Strong("⚠ " + warning))
    blocks.append(Paragraph(text))
    if digest.totals.merged:
        totals = digest.totals
        facts: list[tuple[str, Inline]] = [
            (i18n.t(lang, "fact.merged"), (Text(i18n.number(totals.merged, lang)),)),
            (i18n.t(lang, "fact.key"), (Text(i18n.number(totals.key, lang)),)),
            (i18n.t(lang, "fact.contributors"), (Text(i18n.number(totals.contributors, lang)),)),
            (i18n.t(lang, "fact.lines"), (Text(_lines_fact(digest, lang)),)),
        ]
        # Always stated: "unknown" (no GitHub) must not read as "none".
        if totals.new_contributors is None:
            newcomers = i18n.t(lang, "fact.new_contributors_unknown")
        elif not digest.new_contributors:
            newcomers = i18n.t(lang, "fact.new_contributors_none")
        else:
            newcomers = i18n.t(
                lang,
                "fact.new_contributors_value",
                count=totals.new_contributors,
                names=i18n.join(digest.new_contributors, lang),
            )
        facts.append((i18n.t(lang, "fact.new_contributors"), (Text(newcomers),)))
        blocks.append(Facts(tuple(facts)))
    return Section("summary", i18n.t(lang, "section.summary"), tuple(blocks))


def _lines_fact(digest: Digest, lang: str) -> str:
    """+A / −D, "unknown" when no PR's size is known, with the unknown count otherwise."""
    totals = digest.totals
    if totals.additions is None or totals.deletions is None:
        return i18n.t(lang, "fact.lines_unknown")
    values = {
        "additions": i18n.number(totals.additions, lang),
        "deletions": i18n.number(totals.deletions, lang),
    }
    if totals.sizes_unknown:
        return i18n.t(lang, "fact.lines_partial", count=totals.sizes_unknown, **values)
    return i18n.t(lang, "fact.lines_value", **values)


def _flag_names(flags: list[str], lang: str) -> str:
    return i18n.join((i18n.flag_name(f, lang) for f in flags), lang)


def _highlights(digest: Digest, lang: str, urls: Mapping[int, str]) -> Section:
    key = {k.number: k for k in digest.key_prs}
    rows = {row.number: row for row in digest.prs}
    blocks: list[Block] = []
    for n, highlight in enumerate(digest.highlights, 1):
        spans: list[Span] = [Strong(f"{n}. {theme_name(highlight, lang)}"), Text(" ")]
        spans += linkify(highlight_text(highlight, lang, digest.span), urls)
        if highlight.model_written and digest.narrative_model:
            note = i18n.t(lang, "highlight.model_written", model=digest.narrative_model)
            spans.append(Text(_sep(lang) + note))
        blocks.append(Paragraph(tuple(spans)))
        items: list[Inline] = []
        listed = [n for n in highlight.prs if n in rows]
        for number in listed[:HIGHLIGHT_PRS]:
            row = rows[number]
            item: list[Span] = [Link(row.url, f"#{row.number}"), Text(" "), Text(row.title)]
            if row.author:
                item.append(Text(i18n.t(lang, "highlight.by", author=row.author)))
            pr = key.get(number)
            if pr is not None and pr.claims:
                claims = (stated_claim_text(c, lang) for c in pr.claims)
                item.append(Text(" · " + ("; " if lang == "en" else "；").join(claims)))
            if row.flags:
                item.append(Text(" · "))
                item.append(Strong(_flag_names(row.flags, lang)))
            items.append(tuple(item))
        rest = listed[HIGHLIGHT_PRS:]
        if rest:
            refs = i18n.separator(lang).replace(",", "").join(f"#{n}" for n in rest)
            items.append(linkify(i18n.t(lang, "theme.more", count=len(rest), prs=refs), urls))
        if items:
            blocks.append(BulletList(tuple(items)))
    title = i18n.t(lang, "section.highlights", span=digest.span)
    if not blocks:
        blocks.append(Paragraph((Text(i18n.t(lang, "theme.none", span=digest.span)),)))
    fading = fading_text(digest, lang)  # last week's themes that are gone or fell by half
    if fading:
        blocks.append(Paragraph((Text(fading),)))
    return Section("highlights", title, tuple(blocks))


def _trend_cell(count: int, previous: int, lang: str) -> Inline:
    return (Text(i18n.trend(count, previous, lang)),)


def _trends(digest: Digest, lang: str) -> Section:
    span = digest.span
    # Every module with activity; modules that went quiet are named below the table.
    active = [m for m in digest.modules if m.count]
    blocks: list[Block] = []
    if digest.previous_complete:
        header: tuple[str, ...] = (
            i18n.t(lang, "trends.col.count", span=span),
            i18n.t(lang, "trends.col.previous", span=span),
            i18n.t(lang, "trends.col.change"),
        )
        align: tuple[str, ...] = ("l", "r", "r", "r")
        module_rows: tuple[tuple[Inline, ...], ...] = tuple(
            (
                (Text(module_name(m.names, lang)),),
                (Text(i18n.number(m.count, lang)),),
                (Text(i18n.number(m.previous or 0, lang)),),
                _trend_cell(m.count, m.previous or 0, lang),
            )
            for m in active
        )
        kind_rows: tuple[tuple[Inline, ...], ...] = tuple(
            (
                (Text(i18n.kind_name(k.id, lang)),),
                (Text(i18n.number(k.count, lang)),),
                (Text(i18n.number(k.previous or 0, lang)),),
                _trend_cell(k.count, k.previous or 0, lang),
            )
            for k in digest.kinds
        )
    else:
        # No baseline: this window's counts only, and the reason up front.
        label = _previous_label(digest)
        note = i18n.t(lang, "trends.previous_incomplete", span=span, label=label)
        blocks.append(Paragraph((Strong("⚠ " + note),)))
        header = (i18n.t(lang, "trends.col.count", span=span),)
        align = ("l", "r")
        module_rows = tuple(
            ((Text(module_name(m.names, lang)),), (Text(i18n.number(m.count, lang)),))
            for m in active
        )
        kind_rows = tuple(
            ((Text(i18n.kind_name(k.id, lang)),), (Text(i18n.number(k.count, lang)),))
            for k in digest.kinds
        )
    blocks += [
        Paragraph((Strong(i18n.t(lang, "trends.modules")),)),
        Table((i18n.t(lang, "trends.col.module"), *header), module_rows, align),
        Paragraph((Strong(i18n.t(lang, "trends.kinds")),)),
        Table((i18n.t(lang, "trends.col.kind"), *header), kind_rows, align),
    ]
    if digest.quiet_modules:
        names = module_names(digest, lang)
        quiet = i18n.join((names.get(q, q) for q in digest.quiet_modules), lang)
        blocks.append(Paragraph((Text(i18n.t(lang, "trends.quiet", span=span, modules=quiet)),)))
    return Section("trends", i18n.t(lang, "section.trends"), tuple(blocks))


def scope_names(digest: Digest, lang: str) -> str:
    """The module digest's modules by name ("ROCm / AMD", "ROCm、XPU")."""
    return i18n.separator(lang).join(digest.scope_names(lang))


# Modules listed in the history table; the JSON holds every module's series.
HISTORY_MODULES = 12


def _mean(values: list[int | None], lang: str) -> Inline:
    known = [v for v in values if v is not None]
    if not known:
        return (Text(i18n.t(lang, "history.unknown")),)
    return (Text(format_decimal(sum(known) / len(known), "0.#", locale=i18n.locale_of(lang))),)


def _last(values: list[int | None], lang: str) -> Inline:
    value = values[-1] if values else None
    return (Text(i18n.t(lang, "history.unknown") if value is None else i18n.number(value, lang)),)


def _history(digest: Digest, lang: str) -> Section:
    """Trends over the last N weeks: sparklines per figure and module, with direction."""
    history = digest.history
    assert history is not None
    weeks = len(history.weeks)
    title = i18n.t(lang, "section.history", weeks=weeks)
    blocks: list[Block] = []
    if not any(history.complete):
        command = f"vllm-bot sync --repo {digest.repo} --weeks {weeks}"
        text = i18n.t(lang, "history.none", command="\x00")
        before, _, after = text.partition("\x00")
        blocks.append(Paragraph((Text(before), Code(command), Text(after))))
        return Section("history", title, tuple(blocks))
    series = i18n.t(lang, "history.col.series", first=history.weeks[0], last=history.weeks[-1])
    header = (
        i18n.t(lang, "history.col.what"),
        series,
        i18n.t(lang, "history.col.now"),
        i18n.t(lang, "history.col.average"),
    )
    unknown = i18n.t(lang, "history.unknown")
    overall = [
        ("history.merged", history.merged),
        ("history.contributors", history.contributors),
        ("history.new_contributors", history.new_contributors),
    ]
    # One line per figure (not a table): on Slack every table is a message of its own.
    colon = ": " if lang == "en" else "："
    lines: list[Inline] = []
    for key, values in overall:
        if all(v is None for v in values):
            lines.append((Strong(i18n.t(lang, key)), Text(colon + unknown)))
            continue
        spark = sparkline(values)
        lines.append(
            (
                Strong(i18n.t(lang, key)),
                Text(f"{colon}{spark} · {header[2]} "),
                *_last(values, lang),
                Text(f" · {header[3]} "),
                *_mean(values, lang),
            )
        )
    blocks += [
        Paragraph(
            (
                Strong(i18n.t(lang, "history.overall")),
                Text(f" ({series})" if lang == "en" else f"（{series}）"),
            )
        ),
        BulletList(tuple(lines)),
    ]
    shown = history.modules[:HISTORY_MODULES]
    if shown:
        module_header = (
            i18n.t(lang, "trends.col.module"),
            series,
            i18n.t(lang, "history.col.now"),
            i18n.t(lang, "history.col.average"),
            i18n.t(lang, "history.col.direction"),
        )
        module_rows = tuple(
            (
                (Text(module_name(m.names, lang)),),
                (Text(sparkline(m.series)),),
                _last(m.series, lang),
                _mean(m.series, lang),
                (Text(i18n.t(lang, f"history.direction.{m.direction or 'unknown'}")),),
            )
            for m in shown
        )
        blocks += [
            Paragraph((Strong(i18n.t(lang, "history.modules")),)),
            Table(module_header, module_rows, ("l", "l", "r", "r", "l")),
        ]
        if len(history.modules) > len(shown):
            rest = len(history.modules) - len(shown)
            blocks.append(Paragraph((Text(i18n.t(lang, "history.more_modules", count=rest)),)))
    notes = []
    if history.incomplete:
        notes.append(i18n.t(lang, "history.incomplete", weeks=i18n.join(history.incomplete, lang)))
    notes.append(
        i18n.t(
            lang,
            "history.rule",
            recent=history.recent_weeks,
            minimum=history.recent_weeks + 1,
        )
    )
    blocks.append(Paragraph((Text(_sep(lang).join(notes)),)))
    return Section("history", title, tuple(blocks))


def _previous_label(digest: Digest) -> str:
    return Window(digest.start, digest.end, digest.week).previous().label


def _risks(
    digest: Digest, lang: str, urls: Mapping[int, str], rows: Mapping[int, PRRow]
) -> Section:
    colon = ": " if lang == "en" else "："
    by_id = {f.id: f for f in digest.flags if f.count}
    items: list[Inline] = []
    # Most important first: core-path changes without tests, then per flag (RISK_ORDER).
    for risk in [CORE_UNTESTED] * bool(digest.core_untested) + risk_order(by_id):
        if risk == CORE_UNTESTED:
            numbers = digest.core_untested
            sentence = i18n.t(lang, "risk.core_untested", count=len(numbers))
            items.append((Strong(sentence), Text(colon), *_refs(numbers, urls, lang)))
            continue
        flag = by_id[risk]
        key = f"risk.{flag.id}"
        sentence = (
            i18n.t(lang, key, count=flag.count)
            if key in i18n.MESSAGES
            else f"{flag.id}: {flag.count}"
        )
        risk_line: list[Span] = [
            Strong(i18n.flag_name(flag.id, lang)),
            Text(f" — {sentence}{colon}"),
            *_refs(flag.prs, urls, lang),
        ]
        if flag.id == "revert" and digest.relanded:
            # Re-landed in the same window: reported as such, not as open follow-up work.
            pairs = i18n.separator(lang).join(
                i18n.t(lang, "risk.reland_pair", revert=f"#{r.revert}", reland=f"#{r.reland}")
                for r in digest.relanded
            )
            note = i18n.t(
                lang,
                "risk.revert_relanded",
                span=digest.span,
                count=len(digest.relanded),
                pairs=pairs,
            )
            risk_line += linkify(note, urls)
        items.append(tuple(risk_line))
    # File-based flags that could not be computed for PRs without a file list: one line,
    # so a title-only week never reads as "no core-path change".
    unknown = [f for f in digest.flags if f.unknown]
    if unknown:
        count = max(f.unknown for f in unknown)
        names = _flag_names([f.id for f in unknown], lang)
        unknown_text = i18n.t(lang, "risk.unknown_line", flags=names, count=count)
        # A flag also found from titles ("[CI] Bump torch") has a count above: a lower bound.
        found = [f.id for f in unknown if f.count]
        if found:
            unknown_text += i18n.t(lang, "risk.unknown_found", flags=_flag_names(found, lang))
        items.append((Text(unknown_text),))
    if not items:
        none = i18n.t(lang, "risk.none", span=digest.span)
        return Section("risks", i18n.t(lang, "section.risks"), (Paragraph((Text(none),)),))
    blocks: list[Block] = [BulletList(tuple(items))]
    for flag_id in risk_order(f for f in ("breaking", "dependency", "large") if f in by_id):
        detail: list[Inline] = []
        for number in by_id[flag_id].prs:
            row = rows[number]
            line: list[Span] = [Link(row.url, f"#{number}"), Text(" " + shorten(row.title, 90))]
            if row.author:
                line.append(Text(i18n.t(lang, "highlight.by", author=row.author)))
            if flag_id == "large" and row.additions is not None and row.deletions is not None:
                line.append(
                    Text(
                        " · "
                        + i18n.t(
                            lang,
                            "fact.lines_value",
                            additions=i18n.number(row.additions, lang),
                            deletions=i18n.number(row.deletions, lang),
                        )
                    )
                )
            detail.append(tuple(line))
        blocks.append(Paragraph((Strong(i18n.t(lang, f"risk.details.{flag_id}")),)))
        blocks.append(BulletList(tuple(detail)))
    return Section("risks", i18n.t(lang, "section.risks"), tuple(blocks))


def _key_prs(digest: Digest, lang: str) -> Section:
    if not digest.key_prs:
        floor = i18n.score(digest.score_floor, lang)
        none = i18n.t(lang, "keypr.none", span=digest.span, floor=floor)
        return Section("key_prs", i18n.t(lang, "section.key_prs"), (Paragraph((Text(none),)),))
    names = module_names(digest, lang)
    rows = tuple(
        (
            (Link(pr.url, f"#{pr.number}"),),
            (Text(shorten(pr.title, TITLE_CHARS)),),
            (Text(pr.author or i18n.t(lang, "card.unknown_author")),),
            (Text(i18n.score(pr.score, lang) + ("*" if pr.scored_from_titles else "")),),
            (Text(i18n.separator(lang).join(names.get(m, m) for m in pr.modules[:3])),),
            (Text(shorten(_key_summary(pr, lang), SUMMARY_CHARS)),),
        )
        for pr in digest.key_prs
    )
    header = tuple(
        i18n.t(lang, f"keypr.col.{c}")
        for c in ("pr", "title", "author", "score", "modules", "summary")
    )
    table = Table(header, rows, ("l", "l", "l", "r", "l", "l"))
    # Say where the summaries come from only for the ones the table shows.
    from_titles = [pr.summary.strip() == pr.title.strip() for pr in digest.key_prs]
    notes = [i18n.t(lang, "keypr.note.language")] if not all(from_titles) else []
    if any(from_titles):
        notes.append(i18n.t(lang, "keypr.note.from_title"))
    if any(pr.scored_from_titles for pr in digest.key_prs):
        floor = i18n.score(digest.score_floor, lang)
        notes.append(i18n.t(lang, "keypr.note.titles", floor=floor))
    blocks: list[Block] = [table, *(Paragraph((Text(note),)) for note in notes)]
    return Section("key_prs", i18n.t(lang, "section.key_prs"), tuple(blocks))


def _key_summary(pr: KeyPR, lang: str) -> str:
    # Without a description the summary is the title: say what the title says it does
    # instead of repeating it in the next column.
    if pr.summary.strip() == pr.title.strip():  # keep in step with _key_prs' notes
        return title_summary(pr.title, pr.kind, lang)
    return pr.summary


def _recommendations(digest: Digest, lang: str, urls: Mapping[int, str]) -> Section:
    if not digest.recommendations:
        block: Block = Paragraph((Text(i18n.t(lang, "rec.none", span=digest.span)),))
    else:
        block = BulletList(
            tuple(
                linkify(recommendation_text(r, lang, digest.span), urls)
                for r in digest.recommendations
            ),
            ordered=True,
        )
    return Section("recommendations", i18n.t(lang, "section.recommendations"), (block,))
