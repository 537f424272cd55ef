"""Whatever the titles, every PR of a release is in exactly one curated section or the
changelog and every item names its PRs (property tests over generated releases)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.core.models import AnalyzedPR, FileChange, PullRequest
from bot.releases.build import build_release_digest
from bot.releases.document import release_json
from bot.releases.model import ReleaseData, ReleasePR

ANALYZER = Analyzer(load_ruleset("generic"))
REPO = "acme/widgets"
T0 = datetime(2026, 6, 1, tzinfo=UTC)
TAGS = ["[Feature]", "[BugFix]", "[Perf]", "[Doc]", "[CI]", "[Misc]", "[310P]", "[Ops]", ""]
WORDS = [
    "Remove VLLM_WIDGET_FLAG",
    "Upgrade torch to 2.10.0",
    "Disable fusion by default",
    "deprecate the old cache",
    "Add fused kernel",
    "Fix crash",
    "overlap communication",
    "Support DeepSeek V4",
    "(from #77)",
]
PATHS = ["widgets/core.py", "requirements.txt", "docs/a.md", "tests/test_a.py", "Dockerfile"]

prs_strategy = st.lists(
    st.tuples(
        st.sampled_from(TAGS),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
        st.sampled_from(PATHS),
    ),
    min_size=1,
    max_size=40,
)


def _release(specs) -> ReleaseData:
    prs = []
    for i, (tag, words, path) in enumerate(specs):
        number = 100 + i
        when = T0 + timedelta(hours=i)
        pr = PullRequest(
            repo=REPO,
            number=number,
            title=f"{tag} {' '.join(words)}".strip(),
            url=f"https://github.com/{REPO}/pull/{number}",
            state="merged",
            created_at=when,
            merged_at=when,
            author=f"dev{i % 5}",
            files=[FileChange(path, 3, 1)],
            additions=3,
            deletions=1,
            changed_files=1,
        )
        prs.append(ReleasePR(AnalyzedPR(pr, ANALYZER.analyze(pr)), number, pr.url))
    return ReleaseData(REPO, "v2.0.0", "v1.0.0", T0, T0 + timedelta(days=2), prs, len(prs))


@settings(max_examples=40, deadline=None)
@given(prs_strategy, st.sampled_from(["en", "zh"]))
def test_every_pr_is_in_exactly_one_section_and_each_item_names_prs(specs, language):
    data = _release(specs)
    digest = build_release_digest(data)
    out = release_json(digest, language)
    listed = [s for s in out["sections"] if s["id"] != "highlights"] + out["changelog"]
    placed = [n for s in listed for n in s["prs"]]
    assert sorted(placed) == sorted(rp.number for rp in data.prs)
    numbers = {rp.number for rp in data.prs}
    for section in [*out["sections"], *out["changelog"]]:
        for item in section["items"]:
            assert item["text"] and item["prs"] and set(item["prs"]) <= numbers
    assert out["totals"]["merged"] == len(data.prs)
    assert out["totals"]["contributors"] == len({f"dev{i % 5}" for i in range(len(specs))})
