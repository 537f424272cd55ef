"""Inline SVG charts for the HTML digest and the archive: pure functions, text in, text out.

No script, no external asset (fonts come from the page's CSS stack), so a page stays one
self-contained file. Every chart carries a <title> and <desc> for screen readers, scales
with its container (viewBox, width 100%), and escapes every label.

An unknown value (a week that is not fully synced) is drawn as a dashed placeholder
spanning the plot with "?" — never as a short bar, which would read as a dip.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from xml.sax.saxutils import escape

BAR = "#0969da"
MUTED = "#59636e"
GRID = "#d1d9e0"
UNKNOWN = "#8c959f"
FONT = 'font-family="inherit"'


def _open(width: int, height: int, title: str, desc: str, prefix: str) -> list[str]:
    # Deterministic ids (same input, same page) that differ between charts on one page.
    uid = f"{prefix}-{hashlib.sha1((title + desc).encode()).hexdigest()[:8]}"
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" style="max-width:{width}px;height:auto" role="img" '
        f'aria-labelledby="{uid}-t {uid}-d" class="chart">',
        f'<title id="{uid}-t">{escape(title)}</title>',
        f'<desc id="{uid}-d">{escape(desc)}</desc>',
    ]


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 11,
    anchor: str = "start",
    fill: str = MUTED,
    weight: str = "normal",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}" font-weight="{weight}" {FONT}>{escape(text)}</text>'
    )


def _describe(labels: Sequence[str], values: Sequence[int | None], unknown: str) -> str:
    return ", ".join(
        f"{label}: {unknown if v is None else v}" for label, v in zip(labels, values, strict=True)
    )


def _tick_every(n: int, room: int) -> int:
    """Label every k-th column so labels never overlap (about `room` labels fit)."""
    return max(1, -(-n // max(room, 1)))


def bar_chart(
    labels: Sequence[str],
    values: Sequence[int | None],
    *,
    title: str,
    unknown_label: str,
    empty_label: str,
    width: int = 720,
    height: int = 220,
) -> str:
    """Vertical bars, one per week (oldest first); None is an unknown week."""
    desc = _describe(labels, values, unknown_label) if labels else empty_label
    out = _open(width, height, title, desc, "bars")
    out.append(_text(0, 14, title, size=13, fill="#1f2328", weight="600"))
    left, right, top, bottom = 36, 8, 28, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    known = [v for v in values if v is not None]
    if not known:
        out.append(_text(width / 2, top + plot_h / 2, empty_label, size=12, anchor="middle"))
        out.append("</svg>")
        return "".join(out)
    peak = max(max(known), 1)
    for frac in (0.0, 0.5, 1.0):
        y = top + plot_h * (1 - frac)
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="{GRID}" stroke-width="1"/>'
        )
        out.append(_text(left - 4, y + 4, f"{round(peak * frac)}", size=10, anchor="end"))
    n = len(values)
    step = plot_w / n
    bar_w = max(step * 0.72, 1.0)
    every = _tick_every(n, int(plot_w // 64))
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = left + i * step + (step - bar_w) / 2
        if value is None:
            out.append(
                f'<rect x="{x:.1f}" y="{top}" width="{bar_w:.1f}" height="{plot_h}" fill="none" '
                f'stroke="{UNKNOWN}" stroke-dasharray="3 3" stroke-width="1">'
                f"<title>{escape(label)}: {escape(unknown_label)}</title></rect>"
            )
            out.append(_text(x + bar_w / 2, top + 12, "?", size=11, anchor="middle", fill=UNKNOWN))
        else:
            h = plot_h * value / peak
            out.append(
                f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w:.1f}" '
                f'height="{h:.1f}" fill="{BAR}"><title>{escape(label)}: {value}</title></rect>'
            )
        if i == n - 1 or (i % every == 0 and n - 1 - i >= every):
            out.append(
                _text(x + bar_w / 2, height - bottom + 14, _short(label), size=10, anchor="middle")
            )
    if any(v is None for v in values):
        out.append(
            _text(
                width - right,
                height - 4,
                f"? = {unknown_label}",
                size=10,
                anchor="end",
                fill=UNKNOWN,
            )
        )
    out.append("</svg>")
    return "".join(out)


def _short(label: str) -> str:
    """2026-W23 → W23 under a bar (the year is in the chart's range)."""
    return label.split("-", 1)[1] if label[:4].isdigit() and "-W" in label else label


def small_multiples(
    panels: Sequence[tuple[str, Sequence[int | None], str]],
    *,
    title: str,
    labels: Sequence[str],
    unknown_label: str,
    empty_label: str,
    columns: int = 3,
    width: int = 720,
    peak_label: str = "max {}",
) -> str:
    """One small bar chart per module (name, series, caption), sharing the week axis but
    each scaled to its own peak (the shape matters, the caption says the level)."""
    rows = max(1, -(-len(panels) // columns))
    cell_w, cell_h = width / columns, 92
    height = 24 + rows * cell_h
    desc = (
        "; ".join(
            f"{f'{name} ({caption})' if caption else name}: "
            f"{_describe(labels, series, unknown_label)}"
            for name, series, caption in panels
        )
        or empty_label
    )
    out = _open(width, int(height), title, desc, "multiples")
    out.append(_text(0, 14, title, size=13, fill="#1f2328", weight="600"))
    if not panels:
        out.append(_text(width / 2, 56, empty_label, size=12, anchor="middle"))
    for k, (name, series, caption) in enumerate(panels):
        ox, oy = (k % columns) * cell_w, 24 + (k // columns) * cell_h
        out.append(_text(ox + 4, oy + 14, _clip(name, 22), size=11, fill="#1f2328", weight="600"))
        out.append(_text(ox + cell_w - 10, oy + 14, caption, size=10, anchor="end"))
        plot_x, plot_y, plot_w, plot_h = ox + 4, oy + 22, cell_w - 16, cell_h - 34
        out.append(
            f'<line x1="{plot_x:.1f}" x2="{plot_x + plot_w:.1f}" y1="{plot_y + plot_h:.1f}" '
            f'y2="{plot_y + plot_h:.1f}" stroke="{GRID}" stroke-width="1"/>'
        )
        known = [v for v in series if v is not None]
        peak = max(max(known, default=0), 1)
        step = plot_w / max(len(series), 1)
        bar_w = max(step * 0.7, 0.8)
        for i, value in enumerate(series):
            x = plot_x + i * step + (step - bar_w) / 2
            if value is None:
                out.append(
                    f'<rect x="{x:.1f}" y="{plot_y:.1f}" width="{bar_w:.1f}" height="{plot_h:.1f}" '
                    f'fill="none" stroke="{UNKNOWN}" stroke-dasharray="2 2" stroke-width="0.8"/>'
                )
            else:
                h = plot_h * value / peak
                out.append(
                    f'<rect x="{x:.1f}" y="{plot_y + plot_h - h:.1f}" width="{bar_w:.1f}" '
                    f'height="{h:.1f}" fill="{BAR}"/>'
                )
        if known:
            out.append(_text(plot_x, plot_y + plot_h + 11, peak_label.format(max(known)), size=9))
    out.append("</svg>")
    return "".join(out)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def hbar_chart(
    items: Sequence[tuple[str, int]], *, title: str, empty_label: str, width: int = 720
) -> str:
    """Horizontal bars with their counts (this week's kinds)."""
    bar_h, gap = 18, 6
    height = 24 + max(len(items), 1) * (bar_h + gap) + 4
    desc = ", ".join(f"{label}: {value}" for label, value in items) or empty_label
    out = _open(width, height, title, desc, "hbars")
    out.append(_text(0, 14, title, size=13, fill="#1f2328", weight="600"))
    if not items:
        out.append(_text(width / 2, 40, empty_label, size=12, anchor="middle"))
    label_w = min(150, int(width * 0.32))
    peak = max((v for _, v in items), default=1) or 1
    plot_w = width - label_w - 48
    for i, (label, value) in enumerate(items):
        y = 24 + i * (bar_h + gap)
        w = plot_w * value / peak
        out.append(
            _text(label_w - 6, y + 13, _clip(label, 22), size=11, anchor="end", fill="#1f2328")
        )
        out.append(
            f'<rect x="{label_w}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{BAR}">'
            f"<title>{escape(label)}: {value}</title></rect>"
        )
        out.append(_text(label_w + w + 4, y + 13, str(value), size=11))
    out.append("</svg>")
    return "".join(out)
