"""The digest's charts: which figures are drawn, with catalogue titles. The drawing itself
is in formatters/ (svg.py for HTML, png.py for Slack and Discord), pure functions of plain
sequences, so this module only picks the data and the words."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core import i18n
from bot.digest.history import module_name
from bot.digest.model import Digest

if TYPE_CHECKING:
    from formatters.png import PngChart

log = logging.getLogger(__name__)

# Small multiples: the modules with the most PRs over the weeks shown.
TOP_MODULES = 6
# Drawing widths (SVG user units = CSS px at full size): desktop column and phone.
WIDE, NARROW = 720, 360


@dataclass(frozen=True, slots=True)
class ChartData:
    repo: str
    language: str
    weeks: list[str]
    merged: list[int | None]
    # (name, series, direction words or "" when unknown) of the top modules, most PRs first.
    modules: list[tuple[str, list[int | None], str]]
    title_merged: str
    title_modules: str
    unknown: str
    empty: str

    @property
    def alt_text(self) -> str:
        """What the chart shows, in words (Slack alt text, Discord description)."""
        lang = self.language
        unknown = self.unknown
        merged = i18n.separator(lang).join(
            f"{w} {unknown if v is None else v}"
            for w, v in zip(self.weeks, self.merged, strict=True)
        )
        modules = (i18n.separator(lang)).join(
            i18n.t(
                lang,
                "chart.alt_module" if direction else "chart.alt_module_plain",
                name=name,
                values=" ".join("?" if v is None else str(v) for v in series),
                direction=direction,
            )
            for name, series, direction in self.modules
        )
        return i18n.t(
            lang,
            "chart.alt",
            repo=self.repo,
            first=self.weeks[0] if self.weeks else "",
            last=self.weeks[-1] if self.weeks else "",
            merged=merged or self.empty,
            modules=modules or self.empty,
        )


def chart_data(digest: Digest, lang: str, top: int = TOP_MODULES) -> ChartData:
    history = digest.history
    weeks = list(history.weeks) if history else []
    merged = list(history.merged) if history else []
    modules = []
    if history is not None:
        for module in history.modules[:top]:
            # No direction (too few complete weeks) is said by no word: "(unknown)" after
            # every module of the legend told nothing the reader could use.
            word = i18n.t(lang, f"history.direction.{module.direction}") if module.direction else ""
            modules.append((module_name(module.names, lang), list(module.series), word))
    return ChartData(
        repo=digest.repo,
        language=lang,
        weeks=weeks,
        merged=merged,
        modules=modules,
        title_merged=i18n.t(lang, "chart.merged"),
        title_modules=i18n.t(lang, "chart.modules"),
        unknown=i18n.t(lang, "chart.incomplete"),
        empty=i18n.t(lang, "chart.empty"),
    )


def responsive(draw: Callable[[int, int], str]) -> str:
    """Two drawings of one chart (width, columns), one per layout; the page's CSS shows
    one. A chart scaled down to a phone's width would shrink its labels to a few pixels."""
    return (
        f'<div class="chart-wide">{draw(WIDE, 3)}</div>'
        f'<div class="chart-narrow">{draw(NARROW, 2)}</div>'
    )


def svg_charts(digest: Digest, lang: str) -> dict[str, list[str]]:
    """Inline SVG for render_html: the weekly merged count and small multiples under the
    "history" heading, this week's kinds at the end of "trends"."""
    # Lazy: formatters.svg (~30 ms) loads only for HTML charts.
    from formatters.svg import bar_chart, hbar_chart, small_multiples

    data = chart_data(digest, lang)
    kinds = [(i18n.kind_name(k.id, lang), k.count) for k in digest.kinds if k.count]
    kinds_title = i18n.t(lang, "chart.kinds", span=digest.span)

    both = responsive
    charts: dict[str, list[str]] = {
        "trends:end": [
            both(lambda w, _: hbar_chart(kinds, title=kinds_title, empty_label=data.empty, width=w))
        ]
    }
    if digest.history is not None:
        charts["history:top"] = [
            both(
                lambda w, _: bar_chart(
                    data.weeks,
                    data.merged,
                    title=data.title_merged,
                    unknown_label=data.unknown,
                    empty_label=data.empty,
                    width=w,
                )
            ),
            both(
                lambda w, columns: small_multiples(
                    data.modules,
                    title=data.title_modules,
                    labels=data.weeks,
                    unknown_label=data.unknown,
                    empty_label=data.empty,
                    columns=columns,
                    width=w,
                    peak_label=i18n.t(lang, "chart.peak", value="{}"),
                )
            ),
        ]
    return charts


def png_chart(digest: Digest, lang: str, *, force_latin: bool = False) -> PngChart:
    """The trends chart for Slack/Discord threads (module trends + weekly merged count).

    A Chinese digest without an installed CJK font is drawn with English words and module
    ids rather than empty boxes (logged once); its alt text stays Chinese."""
    # Lazy: formatters.png and matplotlib load only when a PNG chart is posted.
    from formatters.png import cjk_font, render_trends_png

    data = chart_data(digest, lang)
    drawn = data
    weeks = len(digest.history.weeks) if digest.history is not None else 0
    title = f"{digest.repo} · " + i18n.t(lang, "section.history", weeks=weeks)
    if lang != "en" and (force_latin or cjk_font() is None):
        if not force_latin:
            log.warning(
                "no CJK font found (install fonts-noto-cjk); the %s chart uses English labels",
                lang,
            )
        drawn = chart_data(_latin(digest), "en")
        title = f"{digest.repo} · " + i18n.t("en", "section.history", weeks=weeks)
    return render_trends_png(
        weeks=drawn.weeks,
        merged=drawn.merged,
        modules=drawn.modules,
        title=title,
        title_merged=drawn.title_merged,
        title_modules=drawn.title_modules,
        unknown_label=drawn.unknown,
        empty_label=drawn.empty,
        alt_text=data.alt_text,
    )


def _latin(digest: Digest) -> Digest:
    """The digest seen in English with module ids as names (for a chart without CJK font)."""
    latin = copy.copy(digest)
    if digest.history is not None:
        history = copy.copy(digest.history)
        history.modules = [copy.copy(m) for m in digest.history.modules]
        for module in history.modules:
            module.names = (module.id, "")
        latin.history = history
    return latin
