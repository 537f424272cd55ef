"""SVG and PNG charts render for English and Chinese, an empty history and 52 weeks."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from bot.digest.charts import chart_data, png_chart, svg_charts
from bot.digest.document import digest_document
from bot.digest.history import History, ModuleSeries
from bot.digest.render import render_html
from formatters.svg import bar_chart, hbar_chart, small_multiples
from tests.digest.helpers import fixture_digest

SVG = "{http://www.w3.org/2000/svg}"


def _history(weeks: int, unknown: set[int] = frozenset()) -> History:
    labels = [f"2025-W{(i % 52) + 1:02d}" for i in range(weeks)]
    merged = [None if i in unknown else 150 + (i * 37) % 90 for i in range(weeks)]
    modules = [
        ModuleSeries(
            mid,
            name,
            [None if i in unknown else (i * (k + 3)) % 17 for i in range(weeks)],
            "rising",
            1.0,
            1.0,
        )
        for k, (mid, name) in enumerate(
            [("rocm", "ROCm / AMD 平台"), ("attention", "注意力机制"), ("moe", "MoE <&>")]
        )
    ]
    return History(
        weeks=labels,
        starts=[""] * weeks,
        complete=[i not in unknown for i in range(weeks)],
        merged=merged,
        contributors=list(merged),
        new_contributors=[None] * weeks,
        modules=modules,
    )


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}desc") is not None
    return root


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("weeks", [0, 1, 52])
def test_svg_charts_render_and_parse(language: str, weeks: int) -> None:
    digest = replace(fixture_digest(), history=_history(weeks, {3} if weeks > 3 else set()))
    charts = svg_charts(digest, language)
    assert set(charts) == {"trends:end", "history:top"}
    for markup in (m for group in charts.values() for m in group):
        for part in markup.split("</div>"):
            if "<svg" in part:
                _parse(part[part.index("<svg") :])
    page = render_html(digest_document(digest, language), charts)
    assert "<script" not in page and "http://www.w3.org/2000/svg" in page
    # One self-contained file: no external resource is referenced.
    assert 'src="' not in page and "<link" not in page


def test_an_unknown_week_is_a_placeholder_not_a_short_bar() -> None:
    values = [10, None, 12]
    root = _parse(
        bar_chart(
            ["W1", "W2", "W3"], values, title="t", unknown_label="not synced", empty_label="e"
        )
    )
    rects = root.findall(f"{SVG}rect")
    filled = [r for r in rects if r.get("fill") != "none"]
    dashed = [r for r in rects if r.get("stroke-dasharray")]
    assert len(filled) == 2 and len(dashed) == 1
    # The placeholder spans the whole plot height, taller than any bar.
    assert float(dashed[0].get("height")) >= max(float(r.get("height")) for r in filled)
    assert "not synced" in ET.tostring(root, encoding="unicode")


def test_labels_are_escaped_and_empty_charts_say_so() -> None:
    svg = small_multiples(
        [("<script>alert(1)</script>", [1, 2], "steady")],
        title="T & <b>",
        labels=["W1", "W2"],
        unknown_label="?",
        empty_label="none",
    )
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    _parse(svg)
    empty = _parse(hbar_chart([], title="kinds", empty_label="nothing yet"))
    assert "nothing yet" in ET.tostring(empty, encoding="unicode")


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("weeks", [0, 52])
def test_png_chart_renders_with_alt_text(language: str, weeks: int) -> None:
    pytest.importorskip("matplotlib")
    from PIL import Image

    digest = replace(fixture_digest(), history=_history(weeks, {5} if weeks else set()))
    chart = png_chart(digest, language)
    image = Image.open(io.BytesIO(chart.data))
    assert image.format == "PNG" and image.size == (chart.width, chart.height)
    assert chart.alt_text == chart_data(digest, language).alt_text and digest.repo in chart.alt_text
    if weeks:
        assert "2025-W52" in chart.alt_text


def test_zh_chart_uses_a_cjk_font_when_installed_and_degrades_without() -> None:
    pytest.importorskip("matplotlib")
    from formatters.png import cjk_font

    digest = replace(fixture_digest(), history=_history(8))
    chart = png_chart(digest, "zh")
    if cjk_font() is None:
        assert chart.font is None  # Latin labels, not empty boxes
    else:
        assert chart.font == cjk_font()
    latin = png_chart(digest, "zh", force_latin=True)
    assert latin.font is None and latin.alt_text == chart.alt_text  # alt text stays Chinese
    assert "图表" in latin.alt_text


def test_the_png_legend_names_each_module_without_an_unknown_direction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Too few complete weeks give no direction: the legend read "Attention (unknown)",
    "ROCm (unknown)"… after every module (issue 36); it names the module alone."""
    pytest.importorskip("matplotlib")
    from matplotlib.axes import Axes
    from matplotlib.legend import Legend

    history = _history(8)
    names = [("ROCm / AMD", "ROCm"), ("Attention", "注意力"), ("MoE", "MoE")]
    history.modules = [
        replace(m, names=n, direction="rising" if i == 0 else None)
        for i, (m, n) in enumerate(zip(history.modules, names, strict=True))
    ]
    digest = replace(fixture_digest(), history=history)
    shown: list[str] = []
    legend = Axes.legend

    def record(self: Axes, *args: object, **kwargs: object) -> Legend:
        drawn = legend(self, *args, **kwargs)
        shown.extend(text.get_text() for text in drawn.get_texts())
        return drawn

    monkeypatch.setattr(Axes, "legend", record)
    chart = png_chart(digest, "en", force_latin=True)
    assert shown == ["ROCm / AMD (rising ↑)", "Attention", "MoE"]
    assert "unknown" not in chart.alt_text and "()" not in chart.alt_text
    assert "(rising ↑)" in chart.alt_text and "Attention " in chart.alt_text
