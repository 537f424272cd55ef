"""Optional: the HTML digest and archive pages in a real headless browser (Debian's chromium)
at desktop and phone widths. Skips where /usr/bin/chromium is not installed
(`apt-get install chromium fonts-noto-cjk`).

The pages themselves carry no script. The check runs on a throw-away copy with one measuring
script appended: it records the document's scroll width and any element wider than the
viewport, and chromium's --dump-dom prints the result.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from bot.digest.charts import svg_charts
from bot.digest.document import digest_document
from bot.digest.render import render_html
from tests.digest.helpers import fixture_digest
from tests.formatters.test_charts import _history

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium not installed")

PROBE = """<script>
(function () {
  var vw = document.documentElement.clientWidth, wide = [];
  document.querySelectorAll('body *').forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1 && wide.length < 5) {
      wide.push(el.tagName + '.' + el.className + ':' + Math.round(r.right));
    }
  });
  var out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = 'scroll=' + document.documentElement.scrollWidth + ' view=' + vw +
    ' wide=' + wide.join(',');
  document.body.appendChild(out);
})();
</script>"""


def _chromium(tmp: Path, *args: str) -> str:
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={tmp / 'profile'}",
        *args,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    return done.stdout


def _measure(tmp: Path, html: str, width: int) -> tuple[int, int, str]:
    page = tmp / f"probe-{width}.html"
    page.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = _chromium(tmp, "--dump-dom", f"--window-size={width},900", page.as_uri())
    match = re.search(r"scroll=(\d+) view=(\d+) wide=([^<]*)", dom)
    assert match, dom[-500:]
    return int(match[1]), int(match[2]), match[3]


def _pages() -> dict[str, str]:
    pages = {}
    for language in ("en", "zh"):
        digest = replace(fixture_digest(), history=_history(26, {4}))
        pages[f"digest.{language}"] = render_html(
            digest_document(digest, language), svg_charts(digest, language)
        )
    return pages


@pytest.mark.parametrize("width", [1280, 390])
def test_pages_have_no_horizontal_overflow(tmp_path: Path, width: int) -> None:
    for name, html in _pages().items():
        scroll, view, wide = _measure(tmp_path, html, width)
        assert scroll <= view, f"{name} at {width}px scrolls sideways ({scroll} > {view}): {wide}"
        assert not wide, f"{name} at {width}px: elements wider than the screen: {wide}"


def test_screenshots_render(tmp_path: Path) -> None:
    # Written for a person to look at (pytest --basetemp=DIR keeps them); here only checked
    # to be real images of the requested width.
    from PIL import Image

    html = _pages()["digest.zh"]
    page = tmp_path / "digest.zh.html"
    page.write_text(html, encoding="utf-8")
    for width in (1280, 390):
        shot = tmp_path / f"digest.zh.{width}.png"
        _chromium(tmp_path, f"--screenshot={shot}", f"--window-size={width},2000", page.as_uri())
        assert Image.open(shot).size == (width, 2000)
