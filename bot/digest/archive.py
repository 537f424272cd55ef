"""The static archive: an index of repositories and weeks, each week's digest per language,
one page per module over the last N weeks, and one Atom feed per repository and language.

Layout (every link between pages is relative, so the folder can be published as it is —
GitHub Pages, any web server, or `serve` under /digests/):

    index.html                              repositories and their weeks
    OWNER/NAME/index.html                   one repository: weeks, modules, feeds
    OWNER/NAME/WEEK.LANG.html               the week's digest (same page as digest --format html)
    OWNER/NAME/modules/MODULE.LANG.html     the module over the archived weeks
    OWNER/NAME/feed.LANG.xml                Atom feed (RFC 4287), newest week first

Each repository's weeks are read with one PR query (bot.digest.history.load_timeline), so a
52-week archive analyses every PR once. Pages are pure functions of that timeline.
"""

from __future__ import annotations

import asyncio
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from bot.core import i18n
from bot.core.document import (
    BulletList,
    Document,
    Inline,
    Link,
    Paragraph,
    Section,
    Span,
    Strong,
    Text,
)
from bot.core.weeks import Window, iso_week
from bot.digest.archive_paths import (
    ATOM,
    feed_path,
    module_path,
    rfc3339,
    week_path,
)
from bot.digest.charts import responsive, svg_charts
from bot.digest.document import digest_document, shorten, title_and_context
from bot.digest.history import (
    History,
    Timeline,
    chain,
    history_of,
    in_modules,
    load_timeline,
    module_name,
)
from bot.digest.model import Digest
from bot.digest.prose import summary_of
from bot.digest.render import render_html
from bot.digest.service import digest_at, ruleset_settings
from bot.releases.archive import release_pages

if TYPE_CHECKING:
    from datetime import tzinfo

    from bot.analysis.analyzer import Analyzer
    from bot.services import Services
    from bot.store import Store


# Language switch labels are each language's own name (not translated).
LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
# Key PRs of a module listed per week on its page; the rest are counted.
MODULE_PRS_PER_WEEK = 8
# Deterministic feed and entry ids (urn:uuid, RFC 4122 name-based): the same repository,
# week and language always get the same id, wherever and whenever the archive is built.
_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/vllm-bot/archive")


def _rel(from_path: str, to_path: str) -> str:
    """Relative link from one site path to another (both relative to the site root)."""
    depth = from_path.count("/")
    return "../" * depth + to_path


def entry_id(repo: str, week: str, language: str) -> str:
    return f"urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'{repo}/{week}/{language}')}"


def feed_id(repo: str, language: str) -> str:
    return f"urn:uuid:{uuid.uuid5(_ID_NAMESPACE, f'{repo}/feed/{language}')}"


@dataclass(slots=True)
class RepoArchive:
    """One repository's loaded weeks: the archived ones are the last `weeks` of the
    timeline; the ones before feed their trends."""

    repo: str
    timeline: Timeline
    analyzer: Analyzer
    weeks: int
    history_weeks: int
    timezone: str
    key_count: int | None = None
    # Computed once per week and rendered in every language (the digest is neutral).
    digests: dict[int, Digest] = field(default_factory=dict)

    @property
    def indices(self) -> list[int]:
        """Archived week indices, oldest first: weeks with stored PRs or a sync record."""
        first = len(self.timeline.weeks) - self.weeks
        return [
            i
            for i in range(max(first, 0), len(self.timeline.weeks))
            if self.timeline.weeks[i].prs or self.timeline.weeks[i].synced
        ]

    def digest(self, index: int) -> Digest:
        """The digest of week `index`, built on first use and then shared by every
        language's pages and feed."""
        if index not in self.digests:
            self.digests[index] = digest_at(
                self.timeline,
                index,
                analyzer=self.analyzer,
                timezone=self.timezone,
                key_count=self.key_count,
                history_weeks=self.history_weeks,
            )
        return self.digests[index]


async def load_repo_archive(
    store: Store,
    analyzer: Analyzer,
    repo: str,
    *,
    weeks: int,
    history_weeks: int,
    tz: tzinfo,
    now: datetime | None = None,
    key_count: int | None = None,
) -> RepoArchive | None:
    """The repository's last `weeks` ISO weeks up to its newest stored merge (never the
    running week); None when nothing of it is stored."""
    now = now or datetime.now(UTC)
    newest = await store.prs.last_merged(repo)
    if newest is None:
        return None
    last_week = (now.astimezone(tz) - timedelta(days=7)).date()
    day = min(newest.astimezone(tz).date(), last_week)
    iso = day.isocalendar()
    latest = iso_week(iso.year, iso.week, tz)
    windows: list[Window] = chain(latest, weeks + history_weeks)
    timeline = await load_timeline(store, analyzer, repo, windows, now=now)
    return RepoArchive(
        repo=repo,
        timeline=timeline,
        analyzer=analyzer,
        weeks=weeks,
        history_weeks=history_weeks,
        timezone=str(tz),
        key_count=key_count,
    )


# ---------------------------------------------------------------------------- pages


def _other_language(language: str, languages: Sequence[str]) -> list[str]:
    return [lang for lang in languages if lang != language]


def _nav(path: str, archive: RepoArchive | None, language: str) -> list[tuple[str, str]]:
    nav = [(i18n.t(language, "archive.all_repos"), _rel(path, "index.html"))]
    if archive is not None:
        nav.append((archive.repo, _rel(path, f"{archive.repo}/index.html")))
        nav.append((i18n.t(language, "archive.github"), f"https://github.com/{archive.repo}"))
    return nav


def week_page(archive: RepoArchive, index: int, language: str, languages: Sequence[str]) -> str:
    digest = archive.digest(index)
    path = week_path(archive.repo, digest.week, language)
    nav = _nav(path, archive, language)
    position = archive.indices.index(index)
    if position > 0:
        older = archive.timeline.weeks[archive.indices[position - 1]].window.label
        nav.append(("← " + older, _rel(path, week_path(archive.repo, older, language))))
    if position + 1 < len(archive.indices):
        newer = archive.timeline.weeks[archive.indices[position + 1]].window.label
        nav.append((newer + " →", _rel(path, week_path(archive.repo, newer, language))))
    for other in _other_language(language, languages):
        nav.append(
            (
                LANGUAGE_NAMES.get(other, other),
                _rel(path, week_path(archive.repo, digest.week, other)),
            )
        )
    return render_html(digest_document(digest, language), svg_charts(digest, language), nav)


def _module_series(archive: RepoArchive) -> History:
    names, _, _, _ = ruleset_settings(archive.analyzer)
    return history_of(archive.timeline, weeks=archive.weeks, module_names=names)


def module_page(
    archive: RepoArchive, module: str, language: str, languages: Sequence[str], history: History
) -> str:
    # Lazy: formatters.svg (~30 ms) loads only for module pages, not for week_url in a digest.
    from formatters.svg import bar_chart

    path = module_path(archive.repo, module, language)
    series = next((m for m in history.modules if m.id == module), None)
    name = module_name(series.names, language) if series else module
    lang = language
    sections = []
    by_label = {archive.timeline.weeks[i].window.label: i for i in archive.indices}
    for label in reversed(history.weeks):
        index = by_label.get(label)
        if index is None:
            continue
        week = archive.timeline.weeks[index]
        prs = sorted(
            (p for p in week.prs if in_modules(p, {module})),
            key=lambda p: (-p.analysis.score, p.pr.number),
        )
        link = Link(_rel(path, week_path(archive.repo, label, lang)), label)
        blocks: list[Paragraph | BulletList] = []
        if not archive.timeline.complete(index):
            short = i18n.t(lang, "incomplete.short")
            blocks.append(Paragraph((Strong("⚠ " + short),)))
        if not prs:
            blocks.append(Paragraph((Text(i18n.t(lang, "archive.module_none")),)))
        else:
            blocks.append(Paragraph((Text(i18n.t(lang, "archive.module_week", count=len(prs))),)))
            items: list[Inline] = []
            for apr in prs[:MODULE_PRS_PER_WEEK]:
                pr = apr.pr
                item: list[Span] = [
                    Link(pr.url, f"#{pr.number}"),
                    Text(" " + shorten(pr.title, 90)),
                ]
                if pr.author:
                    item.append(Text(i18n.t(lang, "highlight.by", author=pr.author)))
                item.append(Text(f" · {i18n.score(apr.analysis.score, lang)}"))
                items.append(tuple(item))
            if len(prs) > MODULE_PRS_PER_WEEK:
                more = i18n.t(lang, "archive.module_more", count=len(prs) - MODULE_PRS_PER_WEEK)
                items.append((Link(_rel(path, week_path(archive.repo, label, lang)), more),))
            blocks.append(BulletList(tuple(items)))
        blocks.insert(0, Paragraph((link,)))
        sections.append(Section(f"week-{label}", label, tuple(blocks)))
    title = i18n.t(
        lang, "archive.module_title", module=name, repo=archive.repo, weeks=len(history.weeks)
    )
    doc = Document(
        id=f"archive:{archive.repo}:module:{module}:{lang}",
        title=title,
        context=f"{history.weeks[0]} – {history.weeks[-1]}" if history.weeks else "",
        sections=tuple(sections),
        fallback=title,
        footer=i18n.t(lang, "archive.generated"),
        meta={"language": lang},
    )
    values = series.series if series else [None] * len(history.weeks)
    chart = responsive(
        lambda width, _: bar_chart(
            history.weeks,
            values,
            title=f"{name} · {i18n.t(lang, 'chart.merged')}",
            unknown_label=i18n.t(lang, "chart.incomplete"),
            empty_label=i18n.t(lang, "chart.empty"),
            width=width,
        )
    )
    first = sections[0].id if sections else ""
    nav = _nav(path, archive, lang)
    for other in _other_language(lang, languages):
        nav.append(
            (LANGUAGE_NAMES.get(other, other), _rel(path, module_path(archive.repo, module, other)))
        )
    return render_html(doc, {f"{first}:top": [chart]} if first else {}, nav)


def _week_item(
    archive: RepoArchive, index: int, path: str, lang: str, languages: Sequence[str]
) -> Inline:
    """ "2026-W23 · 中文 · 182 merged PRs": the week in the page's language, then the others."""
    week = archive.timeline.weeks[index]
    label = week.window.label
    item: list[Span] = [Link(_rel(path, week_path(archive.repo, label, lang)), label)]
    for other in _other_language(lang, languages):
        item += [
            Text(" · "),
            Link(
                _rel(path, week_path(archive.repo, label, other)), LANGUAGE_NAMES.get(other, other)
            ),
        ]
    item.append(Text(" · " + i18n.t(lang, "archive.week_line", count=len(week.prs))))
    if not archive.timeline.complete(index):
        item.append(Text(" · ⚠ " + i18n.t(lang, "incomplete.short")))
    return tuple(item)


def repo_page(
    archive: RepoArchive, language: str, languages: Sequence[str], history: History
) -> str:
    lang = language
    path = f"{archive.repo}/index.html"
    weeks = [_week_item(archive, i, path, lang, languages) for i in reversed(archive.indices)]
    modules: list[Inline] = []
    for m in history.modules:
        item: list[Span] = [
            Link(_rel(path, module_path(archive.repo, m.id, lang)), module_name(m.names, lang))
        ]
        for other in _other_language(lang, languages):
            item += [
                Text(" · "),
                Link(
                    _rel(path, module_path(archive.repo, m.id, other)),
                    LANGUAGE_NAMES.get(other, other),
                ),
            ]
        item.append(Text(" · " + i18n.t(lang, "archive.week_line", count=m.total)))
        modules.append(tuple(item))
    feeds: list[Inline] = [
        (
            Link(
                _rel(path, feed_path(archive.repo, other)),
                f"{i18n.t(lang, 'archive.feed')} ({LANGUAGE_NAMES.get(other, other)})",
            ),
        )
        for other in languages
    ]
    title = i18n.t(lang, "archive.repo", repo=archive.repo)
    doc = Document(
        id=f"archive:{archive.repo}:{lang}",
        title=title,
        context=i18n.t(lang, "archive.intro"),
        sections=(
            Section("weeks", i18n.t(lang, "archive.weeks"), (BulletList(tuple(weeks)),)),
            Section(
                "modules",
                i18n.t(lang, "archive.modules"),
                (BulletList(tuple(modules)),) if modules else (),
            ),
            Section("feeds", i18n.t(lang, "archive.feed"), (BulletList(tuple(feeds)),)),
        ),
        fallback=title,
        footer=i18n.t(lang, "archive.generated"),
        meta={"language": lang},
    )
    return render_html(doc, {}, _nav(path, archive, lang))


def index_page(archives: Sequence[RepoArchive], language: str, languages: Sequence[str]) -> str:
    lang = language
    sections = []
    for archive in archives:
        items = [
            _week_item(archive, i, "index.html", lang, languages) for i in reversed(archive.indices)
        ]
        head: Inline = (
            Link(f"{archive.repo}/index.html", i18n.t(lang, "archive.repo", repo=archive.repo)),
            Text(" · "),
            Link(f"https://github.com/{archive.repo}", i18n.t(lang, "archive.github")),
        )
        sections.append(
            Section(archive.repo, archive.repo, (Paragraph(head), BulletList(tuple(items))))
        )
    title = i18n.t(lang, "archive.title")
    doc = Document(
        id=f"archive:index:{lang}",
        title=title,
        context=i18n.t(lang, "archive.intro"),
        sections=tuple(sections),
        fallback=title,
        footer=i18n.t(lang, "archive.generated"),
        meta={"language": lang},
    )
    return render_html(doc, {}, [])


def feed(archive: RepoArchive, language: str, base_url: str | None = None) -> str:
    """Atom feed of the archived weeks, newest first. `updated` of an entry is the end of
    its week (when a complete week's figures are final; a week that is not fully synced
    says so in its title); the feed's is its newest entry's."""
    path = feed_path(archive.repo, language)
    base = base_url.rstrip("/") + "/" if base_url else None

    def href(target: str) -> str:
        return base + target if base else _rel(path, target)

    ET.register_namespace("", ATOM)
    root = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": language})
    ET.SubElement(root, f"{{{ATOM}}}id").text = feed_id(archive.repo, language)
    ET.SubElement(root, f"{{{ATOM}}}title").text = i18n.t(
        language, "archive.repo", repo=archive.repo
    )
    entries = []
    for index in reversed(archive.indices):
        digest = archive.digest(index)
        week = archive.timeline.weeks[index]
        updated = min(week.window.end_utc, archive.timeline.now or week.window.end_utc)
        entries.append((digest, updated))
    updated_feed = max((u for _, u in entries), default=archive.timeline.now or datetime.now(UTC))
    ET.SubElement(root, f"{{{ATOM}}}updated").text = rfc3339(updated_feed)
    author = ET.SubElement(root, f"{{{ATOM}}}author")
    ET.SubElement(author, f"{{{ATOM}}}name").text = "vllm-bot"
    ET.SubElement(
        root, f"{{{ATOM}}}link", {"rel": "self", "href": href(path), "type": "application/atom+xml"}
    )
    ET.SubElement(
        root,
        f"{{{ATOM}}}link",
        {"rel": "alternate", "href": href(f"{archive.repo}/index.html"), "type": "text/html"},
    )
    ET.SubElement(root, f"{{{ATOM}}}generator").text = "vllm-bot"
    for digest, updated in entries:
        entry = ET.SubElement(root, f"{{{ATOM}}}entry")
        title, _ = title_and_context(digest, language)
        if not digest.complete:
            title += " (⚠ " + i18n.t(language, "incomplete.short") + ")"
        ET.SubElement(entry, f"{{{ATOM}}}id").text = entry_id(archive.repo, digest.week, language)
        ET.SubElement(entry, f"{{{ATOM}}}title").text = title
        ET.SubElement(entry, f"{{{ATOM}}}updated").text = rfc3339(updated)
        ET.SubElement(entry, f"{{{ATOM}}}published").text = rfc3339(updated)
        ET.SubElement(
            entry,
            f"{{{ATOM}}}link",
            {
                "rel": "alternate",
                "type": "text/html",
                "href": href(week_path(archive.repo, digest.week, language)),
            },
        )
        summary = summary_of(digest, language)
        ET.SubElement(entry, f"{{{ATOM}}}summary").text = shorten(summary, 280)
        content = ET.SubElement(entry, f"{{{ATOM}}}content", {"type": "text"})
        content.text = summary
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def repo_site(
    archive: RepoArchive, languages: Sequence[str], base_url: str | None = None
) -> dict[str, str]:
    """Every page and feed of one repository, by site path."""
    pages: dict[str, str] = {}
    history = _module_series(archive)
    for lang in languages:
        pages[f"{archive.repo}/index.html"] = pages.get(f"{archive.repo}/index.html") or repo_page(
            archive, lang, languages, history
        )
        for index in archive.indices:
            label = archive.timeline.weeks[index].window.label
            pages[week_path(archive.repo, label, lang)] = week_page(archive, index, lang, languages)
        for module in history.modules:
            pages[module_path(archive.repo, module.id, lang)] = module_page(
                archive, module.id, lang, languages, history
            )
        pages[feed_path(archive.repo, lang)] = feed(archive, lang, base_url)
    return pages


def site(
    archives: Sequence[RepoArchive], languages: Sequence[str], base_url: str | None = None
) -> dict[str, str]:
    """The whole archive by site path (index in the first language)."""
    pages = {"index.html": index_page(archives, languages[0], languages)}
    for archive in archives:
        pages |= repo_site(archive, languages, base_url)
    return pages


def write_site(pages: Mapping[str, str], out: Path) -> int:
    """Write every page under `out`; returns the number of files."""
    for relative, text in pages.items():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return len(pages)


async def archive_pages(
    services: Services,
    repos: Sequence[str] | None,
    *,
    weeks: int,
    languages: Sequence[str],
    now: datetime | None = None,
    base_url: str | None = None,
) -> dict[str, str]:
    """The archive of `repos` (default: every configured repository that the store holds)
    from the store as it is: no GitHub request. `base_url`: where the site is served (feeds
    then carry absolute links, as feed readers prefer); None: relative links only."""
    config = services.config
    names = list(repos) if repos else [r.name for r in config.repos]
    archives = []
    for name in names:
        repo_name = config.repo(name).name
        analyzer = await services.analyzer(repo_name, offline=True)
        archive = await load_repo_archive(
            services.store,
            analyzer,
            repo_name,
            weeks=weeks,
            history_weeks=config.digest.history_weeks,
            tz=config.tz,
            now=now,
            key_count=config.digest.key_prs,
        )
        if archive is not None:
            archives.append(archive)
    pages = site(archives, languages, base_url)
    # --- releases: a page per stored release and a feed of releases ---
    for name in names:
        repo_name = config.repo(name).name
        analyzer = await services.analyzer(repo_name, offline=True)
        pages |= await release_pages(
            services.store,
            analyzer,
            repo_name,
            languages,
            tz=config.tz,
            history_weeks=config.digest.history_weeks,
            base_url=base_url,
        )
    return pages


async def store_fingerprint(store: Store, repos: Sequence[str]) -> tuple[object, ...]:
    """Changes whenever a sync or import changes what the archive would show: per repo the
    newest stored merge and every sync window's state (one query each)."""
    far_past, far_future = datetime(1970, 1, 1, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC)
    parts: list[object] = []
    for repo in repos:
        rows = await store.windows.overlapping(repo, far_past, far_future)
        # --- releases: an imported or fetched release changes the release pages ---
        releases = getattr(store, "releases", None)  # stores of archive tests have none
        tags = tuple(await releases.tags(repo)) if releases is not None else ()
        parts.append(
            (
                repo,
                await store.prs.last_merged(repo),
                tuple((r.start, r.end, r.complete, r.pr_count, r.synced_at) for r in rows),
                tags,
            )
        )
    return tuple(parts)


class ArchiveCache:
    """The archive `serve` offers under /digests/: built from the store on the first request
    and kept until a sync changes the store (store_fingerprint), then rebuilt once."""

    def __init__(self, services: Services, languages: Sequence[str] = ("en", "zh")) -> None:
        self.services = services
        self.languages = list(languages)
        self._pages: dict[str, str] = {}
        self._fingerprint: tuple[object, ...] | None = None
        self._lock = asyncio.Lock()
        self.builds = 0

    async def page(self, path: str) -> str | None:
        config = self.services.config
        repos = [r.name for r in config.repos]
        fingerprint = await store_fingerprint(self.services.store, repos)
        async with self._lock:
            if fingerprint != self._fingerprint:
                self._pages = await archive_pages(
                    self.services,
                    repos,
                    weeks=config.web.archive_weeks,
                    languages=self.languages,
                    base_url=config.web.archive_url(),
                )
                self._fingerprint = fingerprint
                self.builds += 1
        return self._pages.get(path or "index.html")
