"""The release digest as a Document (release notes) and as a chat card.

Every word comes from the message catalogue (bot/core/i18n.py, block `releases`), written
here in the language asked for: the ReleaseDigest itself holds none, so one build renders
in every language. User text (titles, logins, tags) stays inside spans so each renderer
escapes it once.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.analysis.claims import claim_text
from bot.core.document import (
    BulletList,
    Code,
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
from bot.core.i18n import day, join, kind_name, message, number, reason, render
from bot.core.messages import Text as Message
from bot.core.models import JSON, Claim, Flag
from bot.releases.model import DependencyChange, Detail, Highlight, Item, ReleaseDigest

REFS_IN_OTHER = 40  # PR links per "other" line before "+N more"
CARD_HIGHLIGHTS = 3
CARD_BREAKING = 5


def document_id(digest: ReleaseDigest, language: str, card: bool = False) -> str:
    kind = "release-card" if card else "release"
    return f"{kind}:{digest.repo}:{digest.tag}:{digest.base}:{language}"


def _unknown(language: str) -> str:
    return message(language, "release.unknown")


def _ref(number_: int, url: str) -> Link:
    return Link(url, f"#{number_}")


def detail_text(detail: Detail, language: str) -> str:
    """An item's evidence in `language`."""
    if isinstance(detail, Claim):
        return claim_text(detail, language)
    if isinstance(detail, Flag):
        return reason(language, detail.key, detail.params) if detail.key else detail.reason
    if isinstance(detail, Message):
        return render(detail, language)
    return detail  # a version change: names and numbers, the same in every language


def _merged_spans(item: Item, language: str, repo_url: str) -> list[Span]:
    """ "**DeepSeek V4**: Fix MTP #1; Fix PP #2; Fix graph #3 and 2 more #4 #5"."""
    spans: list[Span] = [Strong(item.subject or item.title), Text(": ")]
    for i, (title, number_, url) in enumerate(item.merged):
        spans += [Text("; " if i else ""), Text(title), Text(" "), _ref(number_, url)]
    shown = {n for _, n, _ in item.merged}
    rest = [n for n in item.numbers if n not in shown]
    if rest:
        spans.append(Text(" " + message(language, "release.merged.more", count=len(rest))))
        spans += [s for n in rest for s in (Text(" "), _ref(n, f"{repo_url}/pull/{n}"))]
    return spans


def _item_spans(item: Item, language: str, detail: bool = True) -> tuple[Span, ...]:
    if item.merged:
        repo_url = item.url.rsplit("/pull/", 1)[0]
        spans: list[Span] = _merged_spans(item, language, repo_url)
    else:
        spans = [Text(item.title), Text(" "), _ref(item.number, item.url)]
    if item.picked_as is not None and item.picked_url:
        spans += [
            Text(" "),
            Text(message(language, "release.picked_as")),
            Text(" "),
            _ref(item.picked_as, item.picked_url),
        ]
    if item.reverted_by is not None:
        number_, url = item.reverted_by
        spans += [
            Text(message(language, "release.detail_sep")),
            Text(message(language, "release.reverted_by") + " "),
            _ref(number_, url),
        ]
    if detail and item.detail is not None:
        text = detail_text(item.detail, language)
        if text:
            spans += [Text(message(language, "release.detail_sep")), Text(text)]
    if detail and item.enable:
        how = message(language, "release.enable", how="\0").split("\0")
        spans += [
            Text(message(language, "release.detail_sep") + how[0]),
            Code(item.enable.strip("`")),
            Text(how[1] if len(how) > 1 else ""),
        ]
    return tuple(spans)


def _highlight_spans(h: Highlight, language: str) -> tuple[Span, ...]:
    if h.prs == 1 and len(h.lead) == 1:
        # One important feature on its own: its title is the highlight.
        item = h.lead[0]
        single: list[Span] = [Strong(item.title), Text(" "), _ref(item.number, item.url)]
        if h.claim is not None:
            claim, _, _ = h.claim
            single += [
                Text(message(language, "release.detail_sep")),
                Text(claim_text(claim, language)),
            ]
        return tuple(single)
    kinds = join(
        [
            message(language, "release.kind_count", kind=kind_name(k, language), count=n)
            for k, n in h.kinds[:4]
        ],
        language,
    )
    spans: list[Span] = [
        Strong(h.title(language)),
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
        claim, number_, url = h.claim
        text = claim_text(claim, language)
        spans += [
            Text(". " + message(language, "release.highlight.claim", claim=text) + " "),
            _ref(number_, url),
        ]
    return tuple(spans)


def _facts(digest: ReleaseDigest, lang: str) -> Facts:
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


def _other(digest: ReleaseDigest, lang: str) -> BulletList:
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


def _context(digest: ReleaseDigest, lang: str) -> str:
    if digest.base_date and digest.head_date:
        return message(
            lang,
            "release.context.dates",
            base=digest.base,
            start=day(digest.base_date, lang),
            end=day(digest.head_date, lang),
        )
    return message(lang, "release.context", base=digest.base)


def _footer(digest: ReleaseDigest, lang: str) -> str:
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


def release_document(digest: ReleaseDigest, lang: str) -> Document:
    """The full release notes in `lang` (markdown to paste into a GitHub release, HTML,
    chat)."""
    sections: list[Section] = [
        Section("release-counts", message(lang, "release.section.counts"), (_facts(digest, lang),))
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
            if digest.unstated_dependencies:
                rows.append(_unstated_spans(digest.unstated_dependencies, lang))
            blocks = (BulletList(tuple(rows)),)
        else:
            blocks = (BulletList(tuple(_item_spans(i, lang) for i in section.items)),)
        sections.append(
            Section(f"release-{section.id}", message(lang, f"release.section.{section.id}"), blocks)
        )
    if digest.changelog:
        sections.append(
            Section(
                "release-changelog",
                message(lang, "release.section.changelog"),
                _changelog(digest, lang),
                collapsed=True,
            )
        )
    title = message(lang, "release.title", repo=_name(digest), tag=digest.tag)
    return Document(
        id=document_id(digest, lang),
        title=title,
        context=_context(digest, lang),
        sections=tuple(sections),
        fallback=message(
            lang, "release.fallback", repo=_name(digest), tag=digest.tag, count=digest.prs
        ),
        lead_sections=2,
        footer=_footer(digest, lang),
        url=digest.url,
        meta={"language": lang, "kind": "release", "tag": digest.tag},
    )


def _breaking(digest: ReleaseDigest) -> Sequence[Item]:
    section = digest.section("breaking")
    return section.items if section else []


def release_card(digest: ReleaseDigest, lang: str, notes_url: str | None = None) -> Document:
    """The chat card of `/vllm release` in `lang`: counts, highlights, breaking changes, a
    link."""
    sections: list[Section] = [
        Section("release-counts", message(lang, "release.section.counts"), (_facts(digest, lang),))
    ]
    if digest.highlights:
        rows = []
        for h in digest.highlights[:CARD_HIGHLIGHTS]:
            spans: list[Span] = [
                Text(message(lang, "release.card.highlight", theme=h.title(lang), count=h.prs))
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
        id=document_id(digest, lang, card=True),
        title=message(lang, "release.title", repo=_name(digest), tag=digest.tag),
        context=_context(digest, lang),
        sections=tuple(sections),
        fallback=message(
            lang, "release.fallback", repo=_name(digest), tag=digest.tag, count=digest.prs
        ),
        lead_sections=len(sections),
        footer="",
        url=url,
        meta={"language": lang, "kind": "release-card", "tag": digest.tag},
    )


def _unstated_spans(items: Sequence[Item], language: str) -> tuple[Span, ...]:
    """One line naming the PRs that change dependency files without stating versions."""
    spans: list[Span] = [Text(message(language, "release.dependency_files"))]
    for item in items:
        spans += [Text(" "), _ref(item.number, item.url)]
    return tuple(spans)


def _changelog(digest: ReleaseDigest, lang: str) -> tuple[Paragraph | BulletList, ...]:
    """Every PR the curated sections leave out, under its section's name."""
    blocks: list[Paragraph | BulletList] = []
    for section in digest.changelog:
        name = message(lang, f"release.section.{section.id}")
        blocks.append(
            Paragraph((Strong(message(lang, "release.changelog.section", section=name)),))
        )
        if section.id == "other":
            blocks.append(_other(digest, lang))
        else:
            blocks.append(BulletList(tuple(_item_spans(i, lang, False) for i in section.items)))
    return tuple(blocks)


def release_json(digest: ReleaseDigest, lang: str) -> JSON:
    """`digest --release --format json`: the digest's data with each item's text as the
    notes write it in `lang` (the same words as the markdown, without markup)."""
    texts: dict[str, list[str]] = {
        "highlights": [plain(_highlight_spans(h, lang)) for h in digest.highlights],
        "other": [
            message(lang, "release.other.kind", kind=kind_name(kind, lang), count=len(numbers))
            for kind, numbers in digest.other
        ],
    }
    for section in digest.sections:
        texts[section.id] = [plain(_item_spans(i, lang)) for i in section.items]
    for section in digest.changelog:
        texts[f"changelog-{section.id}"] = [
            plain(_item_spans(i, lang, False)) for i in section.items
        ]
    return digest.to_json(lang, texts)
