"""The trends chart as a PNG for Slack and Discord threads: a pure function returning bytes.

matplotlib (Agg backend: no display, no GUI toolkit) is imported inside the functions, never
at module level: it costs ~0.5-1 s to import and the CLI, the command layer and `serve`'s
acks must not pay that unless a chart is drawn.

CJK labels need a font with Han glyphs. The chart looks for an installed one by family
name (CJK_FAMILIES; on Debian/Ubuntu `apt-get install fonts-noto-cjk` provides "Noto Sans
CJK SC"). Without one, `cjk_font()` is None and the caller draws the chart with Latin labels
rather than boxes (bot/digest/charts.py does, and says so in the log).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

# Preferred families with Simplified Chinese glyphs, best first.
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Noto Sans CJK JP",
    "Droid Sans Fallback",
)
BAR = "#0969da"
UNKNOWN = "#8c959f"
LINE_COLOURS = ("#0969da", "#cf222e", "#1a7f37", "#8250df", "#bf8700", "#57606a")


@dataclass(frozen=True, slots=True)
class PngChart:
    data: bytes
    alt_text: str
    width: int
    height: int
    font: str | None  # the CJK family used, None when none was needed or found


@lru_cache(maxsize=1)
def cjk_font() -> str | None:
    """An installed font family with Chinese glyphs, or None."""
    # Lazy: matplotlib loads only when a PNG chart is drawn (see the module docstring).
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    return next((family for family in CJK_FAMILIES if family in installed), None)


def _needs_cjk(texts: Sequence[str]) -> bool:
    return any("\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for t in texts for ch in t)


def render_trends_png(
    *,
    weeks: Sequence[str],
    merged: Sequence[int | None],
    modules: Sequence[tuple[str, Sequence[int | None], str]],
    title: str,
    title_merged: str,
    title_modules: str,
    unknown_label: str,
    empty_label: str,
    alt_text: str,
) -> PngChart:
    """Weekly merged PRs (bars; an unknown week is a dashed placeholder with "?", never a
    short bar) above the top modules' weekly PRs (lines with a gap at unknown weeks)."""
    # Lazy: matplotlib loads only when a PNG is drawn; see the module docstring.
    import matplotlib

    matplotlib.use("Agg")
    # Lazy: as above; after matplotlib.use so the Agg backend is chosen first.
    from matplotlib.figure import Figure

    texts = [title, title_merged, title_modules, unknown_label, empty_label]
    texts += [name for name, _, _ in modules] + [word for _, _, word in modules]
    family = cjk_font() if _needs_cjk(texts) else None
    rc: dict[RcKeyType, list[str]] = {
        "font.family": [family, "DejaVu Sans"] if family else ["DejaVu Sans"]
    }
    width, height, dpi = 1000, 640, 100
    with matplotlib.rc_context(rc):
        figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, layout="constrained")
        top, bottom = figure.subplots(2, 1, height_ratios=(1, 1.25))
        figure.suptitle(title, fontsize=13, fontweight="bold")
        x = list(range(len(weeks)))
        short = [w.split("-", 1)[1] if "-W" in w else w for w in weeks]
        every = max(1, math.ceil(len(weeks) / 13))
        known = [v for v in merged if v is not None]
        top.set_title(title_merged, fontsize=11, loc="left")
        if not known:
            top.text(0.5, 0.5, empty_label, ha="center", va="center", transform=top.transAxes)
            top.set_xticks([])
            top.set_yticks([])
        else:
            peak = max(known) or 1
            top.bar(
                [i for i, v in zip(x, merged, strict=True) if v is not None],
                known,
                color=BAR,
                width=0.72,
            )
            for i, value in zip(x, merged, strict=True):
                if value is None:
                    top.bar(i, peak, width=0.72, fill=False, edgecolor=UNKNOWN, linestyle="--")
                    top.text(i, peak * 0.5, "?", ha="center", va="center", color=UNKNOWN)
            if any(v is None for v in merged):
                top.text(
                    1.0,
                    1.02,
                    f"? = {unknown_label}",
                    ha="right",
                    va="bottom",
                    fontsize=9,
                    color=UNKNOWN,
                    transform=top.transAxes,
                )
            top.set_xticks(x[::every], short[::every], fontsize=8)
            top.set_xlim(-0.6, len(weeks) - 0.4)
        bottom.set_title(title_modules, fontsize=11, loc="left")
        if not modules or not known:
            bottom.text(0.5, 0.5, empty_label, ha="center", va="center", transform=bottom.transAxes)
            bottom.set_xticks([])
            bottom.set_yticks([])
        else:
            for k, (name, series, word) in enumerate(modules):
                values = [math.nan if v is None else v for v in series]
                bottom.plot(
                    x,
                    values,
                    marker="o",
                    markersize=3,
                    linewidth=1.6,
                    color=LINE_COLOURS[k % len(LINE_COLOURS)],
                    label=f"{name} ({word})" if word else name,
                )
            for i, value in zip(x, merged, strict=True):
                if value is None:
                    bottom.axvspan(i - 0.5, i + 0.5, color=UNKNOWN, alpha=0.15, linewidth=0)
            bottom.set_xticks(x[::every], short[::every], fontsize=8)
            bottom.set_xlim(-0.6, len(weeks) - 0.4)
            bottom.set_ylim(bottom=0)
            bottom.legend(fontsize=8, loc="upper left", ncols=2, frameon=False)
        for axes in (top, bottom):
            axes.spines[["top", "right"]].set_visible(False)
            axes.tick_params(labelsize=8)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return PngChart(buffer.getvalue(), alt_text, width, height, family)
