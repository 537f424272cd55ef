"""Highlights say what changed (branch prose, issue 21 B): an opening sentence built from the
lead PRs' titles, naming each PR inline, and only the PRs of the theme."""

from __future__ import annotations

import re

import pytest

from bot.analysis.changes import title_change
from bot.digest.build import change_sentence
from tests.digest.helpers import fixture_digest


@pytest.mark.parametrize(("language", "opening"), [("en", "This week: "), ("zh", "本周")])
def test_each_highlight_opens_with_what_its_lead_prs_change(language: str, opening: str) -> None:
    digest = fixture_digest(language)
    assert digest.highlights
    titles = {row.number: row.title for row in digest.prs}
    for highlight in digest.highlights:
        first = re.split(r"(?<=[.。])\s", highlight.text, maxsplit=1)[0]
        assert first.startswith(opening), highlight.text
        named = [int(n) for n in re.findall(r"#(\d+)", first)]
        # The lead PR is named, and nothing outside the theme is.
        assert named and named[0] == highlight.prs[0]
        assert set(named) <= set(highlight.prs)
        for number in named:
            change = title_change(titles[number])
            assert change is not None and change.object.split()[0] in first


def test_same_action_is_grouped_and_order_kept() -> None:
    changes = [
        (1, title_change("[Model] Add Foo model")),
        (2, title_change("[Bugfix] Fix bar crash")),
        (3, title_change("Add Baz backend")),
    ]
    text = change_sentence(changes, "en", "week")
    assert text == "This week: adds Foo model (#1) and Baz backend (#3); fixes bar crash (#2)."
    zh = change_sentence(changes, "zh", "week")
    # English wording inside a Chinese sentence is quoted as the title wrote it.
    assert zh == "本周新增“Foo model”（#1）、“Baz backend”（#3），修复“bar crash”（#2）。"
