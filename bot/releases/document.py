"""The release digest as a Document (release notes) and as a chat card.

Every word comes from the message catalogue (bot/core/i18n.py, block `releases`); user
text (titles, logins, tags) stays inside spans so each renderer escapes it once.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.document import (
    BulletList,
    Document,
    Facts,
    Link,
    Paragraph,
    Section,
    Span,
    Strong,
    Text,
    plain,
)
from bot.core.i18n import day, join, kind_name, message, number
from bot.core.models import JSON
from bot.releases.model import DependencyChange, Highlight, Item, ReleaseDigest

REFS_IN_OTHER = 40  # PR links per "other" line before "+N more"
CARD_HIGHLIGHTS = 3
CARD_BREAKING = 5


def document_id(digest: ReleaseDigest, card: bool = False) -> str:
    kind = "release-card" if card else "release"
    return f"{kind}:{digest.repo}:{digest.tag}:{digest.base}:{digest.language}"


def _unknown(language: str) -> str:
    return message(language, "release.unknown")


def _ref(number_: int, url: str) -> Link:
    return Link(url, f"#{number_}")


def _item_spans(item: Item, language: str, detail: bool = True) -> tuple[Span, ...]:
    spans: list[Span] = [Text(item.title), Text(" "), _ref(item.number, item.url)]
    if item.picked_as is not None and item.picked_url:
        spans += [
            Text(" "),
            Text(message(language, "release.picked_as")),
            Text(" "),
            _ref(item.picked_as, item.picked_url),
        ]
    if detail and item.detail:
        spans += [Text(message(language, "release.detail_sep")), Text(item.detail)]
    return tuple(spans)


def _highlight_spans(h: Highlight, language: str) -> tuple[Span, ...]:
    kinds = join(
        [
            message(language, "release.kind_count", kind=kind_name(k, language), count=n)
            for k, n in h.kinds[:4]
        ],
        language,
    )
    spans: list[Span] = [
        Strong(h.name),
        Text(message(language, "release.highlight", count=h.prs, kinds=kinds)),
        Text(" "),
        Text(message(language, "release.lead")),
    ]
    for i, item in enumerate(h.lead):
        spans += [
            Text(" " if i == 0 else "; "),
            Text(item.title),
            Text(" "),
            _ref(item.number, item.url),
        ]
    if h.claim is not None:
        text, number_, url = h.claim
        spans += [
            Text(". " + message(language, "release.highlight.claim", claim=text) + " "),
            _ref(number_, url),
        ]
    return tuple(spans)


def _facts(digest: ReleaseDigest) -> Facts:
    lang = digest.language
    new = (
        _unknown(lang) if digest.new_contributors is None else number(digest.new_contributors, lang)
    )
    items: list[tuple[str, tuple[Span, ...]]] = [
        (message(lang, "release.fact.prs"), (Text(number(digest.prs, lang)),)),
        (message(lang, "release.fact.contributors"), (Text(number(digest.contributors, lang)),)),
        (message(lang, "release.fact.new_contributors"), (Text(new),)),
    ]
    if digest.between is None:
        between = _unknown(lang)
    else:
        between = join(digest.between, lang) if digest.between else message(lang, "release.none")
    items.append((message(lang, "release.fact.between"), (Text(between),)))
    if digest.unmapped:
        items.append(
            (message(lang, "release.fact.unmapped"), (Text(number(len(digest.unmapped), lang)),))
        )
    return Facts(tuple(items))


def _dependency_spans(change: DependencyChange, repo: str, language: str) -> tuple[Span, ...]:
    before = change.before or _unknown(language)
    spans: list[Span] = [
        Text(
            message(
                language,
                "release.dependency",
                name=change.name,
                before=before,
                after=change.after or _unknown(language),
            )
        )
    ]
    for n in change.numbers:
        spans += [Text(" "), _ref(n, f"https://github.com/{repo}/pull/{n}")]
    return tuple(spans)


def _other(digest: ReleaseDigest) -> BulletList:
    lang = digest.language
    rows = []
    for kind, numbers in digest.other:
        spans: list[Span] = [
            Text(
                message(lang, "release.other.kind", kind=kind_name(kind, lang), count=len(numbers))
            )
        ]
        for n in numbers[:REFS_IN_OTHER]:
            spans += [Text(" "), _ref(n, f"https://github.com/{digest.repo}/pull/{n}")]
        if len(numbers) > REFS_IN_OTHER:
            spans.append(
                Text(" " + message(lang, "release.more", count=len(numbers) - REFS_IN_OTHER))
            )
        rows.append(tuple(spans))
    return BulletList(tuple(rows))


def _context(digest: ReleaseDigest) -> str:
    lang = digest.language
    if digest.base_date and digest.head_date:
        return message(
            lang,
            "release.context.dates",
            base=digest.base,
            start=day(digest.base_date, lang),
            end=day(digest.head_date, lang),
        )
    return message(lang, "release.context", base=digest.base)


def _footer(digest: ReleaseDigest) -> str:
    lang = digest.language
    if digest.requests is None:
        return message(lang, "release.footer.offline", history=digest.history_weeks)
    return message(
        lang,
        "release.footer.requests",
        used=digest.requests.used,
        bound=digest.requests.lower_bound,
        newcomers=digest.requests.newcomers,
        history=digest.history_weeks,
    )


def _name(digest: ReleaseDigest) -> str:
    return digest.repo.split("/")[-1]


def release_document(digest: ReleaseDigest) -> Document:
    """The full release notes (markdown to paste into a GitHub release, HTML, chat)."""
    lang = digest.language
    sections: list[Section] = [
        Section("release-counts", message(lang, "release.section.counts"), (_facts(digest),))
    ]
    if digest.highlights:
        blocks: tuple[BulletList | Paragraph, ...] = (
            BulletList(tuple(_highlight_spans(h, lang) for h in digest.highlights)),
        )
    else:
        blocks = (Paragraph((Text(message(lang, "release.highlights.none")),)),)
    sections.append(
        Section("release-highlights", message(lang, "release.section.highlights"), blocks)
    )
    for section in digest.sections:
        if section.id == "dependencies":
            rows = [_dependency_spans(c, digest.repo, lang) for c in digest.dependencies]
            rows += [_unstated_spans(i, lang) for i in digest.unstated_dependencies]
            blocks = (BulletList(tuple(rows)),)
        else:
            blocks = (BulletList(tuple(_item_spans(i, lang) for i in section.items)),)
        sections.append(
            Section(f"release-{section.id}", message(lang, f"release.section.{section.id}"), blocks)
        )
    if digest.other:
        sections.append(
            Section("release-other", message(lang, "release.section.other"), (_other(digest),))
        )
    title = message(lang, "release.title", repo=_name(digest), tag=digest.tag)
    return Document(
        id=document_id(digest),
        title=title,
        context=_context(digest),
        sections=tuple(sections),
        fallback=message(
            lang, "release.fallback", repo=_name(digest), tag=digest.tag, count=digest.prs
        ),
        lead_sections=2,
        footer=_footer(digest),
        url=digest.url,
        meta={"language": lang, "kind": "release", "tag": digest.tag},
    )


def _breaking(digest: ReleaseDigest) -> Sequence[Item]:
    section = digest.section("breaking")
    return section.items if section else []


def release_card(digest: ReleaseDigest, notes_url: str | None = None) -> Document:
    """The chat card of `/vllm release`: counts, highlights, breaking changes, a link."""
    lang = digest.language
    sections: list[Section] = [
        Section("release-counts", message(lang, "release.section.counts"), (_facts(digest),))
    ]
    if digest.highlights:
        rows = []
        for h in digest.highlights[:CARD_HIGHLIGHTS]:
            spans: list[Span] = [
                Text(message(lang, "release.card.highlight", theme=h.name, count=h.prs))
            ]
            for item in h.lead:
                spans += [Text(" "), _ref(item.number, item.url)]
            rows.append(tuple(spans))
        sections.append(
            Section(
                "release-highlights",
                message(lang, "release.section.highlights"),
                (BulletList(tuple(rows)),),
            )
        )
    breaking = _breaking(digest)
    if breaking:
        rows = [_item_spans(i, lang, detail=False) for i in breaking[:CARD_BREAKING]]
        if len(breaking) > CARD_BREAKING:
            rows.append((Text(message(lang, "release.more", count=len(breaking) - CARD_BREAKING)),))
        sections.append(
            Section(
                "release-breaking",
                message(lang, "release.section.breaking"),
                (BulletList(tuple(rows)),),
            )
        )
    # GitHub's page of the tag when neither the archive nor a release page is known.
    url = notes_url or digest.url or f"https://github.com/{digest.repo}/releases/tag/{digest.tag}"
    if url:
        sections.append(
            Section(
                "release-link",
                message(lang, "release.section.notes"),
                (Paragraph((Link(url, message(lang, "release.card.notes", tag=digest.tag)),)),),
            )
        )
    return Document(
        id=document_id(digest, card=True),
        title=message(lang, "release.title", repo=_name(digest), tag=digest.tag),
        context=_context(digest),
        sections=tuple(sections),
        fallback=message(
            lang, "release.fallback", repo=_name(digest), tag=digest.tag, count=digest.prs
        ),
        lead_sections=len(sections),
        footer="",
        url=url,
        meta={"language": lang, "kind": "release-card", "tag": digest.tag},
    )


def _unstated_spans(item: Item, language: str) -> tuple[Span, ...]:
    return (
        *_item_spans(item, language, detail=False),
        Text(message(language, "release.detail_sep")),
        Text(message(language, "release.versions_unknown")),
    )


def release_json(digest: ReleaseDigest) -> JSON:
    """`digest --release --format json`: the digest's data with each item's text as the
    notes write it (the same words as the markdown, without markup)."""
    lang = digest.language
    texts: dict[str, list[str]] = {
        "highlights": [plain(_highlight_spans(h, lang)) for h in digest.highlights],
        "unstated": [plain(_unstated_spans(i, lang)) for i in digest.unstated_dependencies],
        "other": [
            message(lang, "release.other.kind", kind=kind_name(kind, lang), count=len(numbers))
            for kind, numbers in digest.other
        ],
    }
    for section in digest.sections:
        texts[section.id] = [plain(_item_spans(i, lang)) for i in section.items]
    return digest.to_json(texts)
