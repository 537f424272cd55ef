"""Golden outputs of the synthetic week; regenerate with UPDATE_GOLDEN=1 and review the diff."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.digest.document import digest_document
from bot.digest.render import render_html, render_json, render_markdown
from tests.digest.helpers import fixture_digest

GOLDEN = Path(__file__).with_name("golden")


def _check(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"missing golden {path}; run with UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8"), f"{name} differs from its golden"


@pytest.mark.parametrize("language", ["en", "zh"])
def test_markdown_golden(language: str) -> None:
    _check(f"week.{language}.md", render_markdown(digest_document(fixture_digest(), language)))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_json_golden(language: str) -> None:
    _check(f"week.{language}.json", render_json(fixture_digest(), language))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_html_golden(language: str) -> None:
    _check(f"week.{language}.html", render_html(digest_document(fixture_digest(), language)))


def test_build_is_deterministic_whatever_the_input_order() -> None:
    from tests.digest.fixtures import previous_week, this_week

    forward = render_json(fixture_digest(), "en")
    shuffled = render_json(
        fixture_digest(prs=this_week()[::-1], previous=previous_week()[::-1]), "en"
    )
    assert forward == shuffled


def test_one_computed_digest_renders_every_language() -> None:
    """The digest is computed once: rendering it in one language leaves it as it was, so
    the other language's output from the same object matches its golden."""
    digest = fixture_digest()
    zh_first = render_json(digest, "zh")
    assert render_json(digest, "en") == (GOLDEN / "week.en.json").read_text(encoding="utf-8")
    assert (
        render_json(digest, "zh")
        == zh_first
        == (GOLDEN / "week.zh.json").read_text(encoding="utf-8")
    )
    en_md = render_markdown(digest_document(digest, "en"))
    assert en_md == (GOLDEN / "week.en.md").read_text(encoding="utf-8")
