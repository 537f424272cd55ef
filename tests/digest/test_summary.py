"""One-line summaries: the first meaningful sentence, templates and bookkeeping removed."""

from __future__ import annotations

import pytest

from bot.digest.summary import summarize
from tests.digest.fixtures import TEMPLATE_TAIL

CASES = [
    ("plain first sentence", "Adds X to Y. Then more.", "Adds X to Y."),
    (
        "vLLM template with Purpose, checklist and footer",
        "## Purpose\n\nFIX #123\n\nMake the scheduler fair between LoRA adapters.\n"
        + TEMPLATE_TAIL,
        "Make the scheduler fair between LoRA adapters.",
    ),
    (
        "HTML comment before the text",
        "<!-- describe your change -->\n<!-- multi\nline -->\nRemoves the tree attention backend.",
        "Removes the tree attention backend.",
    ),
    (
        "vllm-ascend template and version footer",
        "### What this PR does / why we need it?\nSupports MXFP4 dispatch on A5.\n\n"
        "### Does this PR introduce _any_ user-facing change?\nNo.\n\n- vLLM version: v0.20.2\n",
        "Supports MXFP4 dispatch on A5.",
    ),
    (
        "only a sign-off falls back to the title",
        "Signed-off-by: A B <a@b.c>\nCo-authored-by: C <c@d.e>",
        "TITLE",
    ),
    ("empty body falls back to the title", "", "TITLE"),
    (
        "checklist only falls back to the title",
        "- [ ] I ran the tests\n- [x] I updated the docs",
        "TITLE",
    ),
    (
        "images and code blocks are skipped",
        "![plot](https://x/y.png)\n\n```bash\npython bench.py --fast\n```\n\n"
        "Speeds up top-p sampling.",
        "Speeds up top-p sampling.",
    ),
    (
        "leading issue reference is stripped",
        "Fixes #4321: the KV cache leaked blocks on preemption.",
        "the KV cache leaked blocks on preemption.",
    ),
    (
        "test plan section is not a summary",
        "## Test Plan\n\npytest tests/ -k foo passes everywhere.\n",
        "TITLE",
    ),
    (
        "abbreviations and versions do not end the sentence",
        "Bumps torch to v2.11.0, e.g. for Blackwell support. Second sentence.",
        "Bumps torch to v2.11.0, e.g. for Blackwell support.",
    ),
    (
        "Chinese full stop ends the sentence",
        "修复了调度器在抢占时的死锁问题。另外补充了测试。",
        "修复了调度器在抢占时的死锁问题。",
    ),
    (
        "bold pseudo-headings of templates",
        "**Purpose**\n\n**Test Plan**\n\nnone\n",
        "TITLE",
    ),
    (
        "link text is kept, URL-only lines are not",
        "https://github.com/vllm-project/vllm/pull/1\n\nPorts [the fix](https://x.y) to ROCm.",
        "Ports the fix to ROCm.",
    ),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_summary(body: str, expected: str) -> None:
    assert summarize(body, "TITLE") == expected


def test_long_sentences_are_cut_at_a_word() -> None:
    body = "This change " + "really " * 60 + "matters."
    summary = summarize(body, "TITLE")
    assert summary.endswith("…") and len(summary) <= 160
    assert summary[:-1].split()[-1] == "really"


# ------------------------------------------------------------------ purpose (branch prose)


def test_purpose_comes_from_the_template_purpose_section() -> None:
    from bot.digest.summary import purpose

    body = (
        "Related RFC issue: Refs #4012\n\n"
        "## Purpose\n\nFix permission check logic.\n\n"
        "Admins were denied access to shared dashboards because the role was read too late.\n\n"
        "## Test Plan\n\npytest tests/test_perm.py\n"
    )
    # The reference line and the sentence restating the title are skipped.
    assert purpose(body, "[Bugfix] Fix permission check logic") == (
        "Admins were denied access to shared dashboards because the role was read too late."
    )


def test_purpose_is_none_when_the_description_only_points_elsewhere() -> None:
    from bot.digest.summary import purpose

    assert purpose("Fixes vllm-project/vllm#9314.\n\n- [x] tests", "Keep script removable") is None
    assert purpose("", "anything") is None


def test_a_stray_comment_end_leaves_no_quote_marker_in_the_summary() -> None:
    body = "-->\nThere are clients that need the GPT-OSS model adapted to graph mode.\n"
    assert summarize(body, "[Feature] add fiav2 into acl_graph") == (
        "There are clients that need the GPT-OSS model adapted to graph mode."
    )
