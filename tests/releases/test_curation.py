"""Release notes a release manager would publish: curated sections with a changelog,
picks read as their originals, reverts cancelling, dependencies and breaking changes from
what the PRs say (issue 34)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.core.models import AnalyzedPR, FileChange, PullRequest
from bot.digest.render import render_html
from bot.releases.build import build_release_digest, section_cap
from bot.releases.document import release_document, release_json
from bot.releases.export import import_release, read_release_export, release_object
from bot.releases.model import ReleaseData, ReleasePR
from bot.releases.sections import brings_up_hardware, place, version_changes
from bot.releases.service import load_release, release_digest
from formatters.slack import render_slack
from tests.releases.helpers import release_export

ANALYZER = Analyzer(load_ruleset("generic"))
REPO = "acme/widgets"
T0 = datetime(2026, 6, 1, tzinfo=UTC)
WORDS = (
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "sigma",
    "omicron",
    "upsilon",
    "omega",
    "apple",
    "banana",
    "cherry",
    "grape",
    "lemon",
    "mango",
    "melon",
    "olive",
    "peach",
    "pear",
    "plum",
    "quince",
)
NO = "### Does this PR introduce _any_ user-facing change?\nNo.\n"


def _pr(number: int, title: str, body: str = "", paths: tuple[str, ...] = ("widgets/core.py",)):
    when = T0 + timedelta(hours=number)
    return PullRequest(
        repo=REPO,
        number=number,
        title=title,
        url=f"https://github.com/{REPO}/pull/{number}",
        state="merged",
        created_at=when,
        merged_at=when,
        author=f"dev{number % 5}",
        body=body,
        files=[FileChange(p, 30, 2) for p in paths],
        additions=30 * len(paths),
        deletions=2,
        changed_files=len(paths),
    )


def _apr(pr: PullRequest) -> AnalyzedPR:
    return AnalyzedPR(pr, ANALYZER.analyze(pr))


def _digest(prs: list[PullRequest]):
    release = [ReleasePR(_apr(pr), pr.number, pr.url) for pr in prs]
    data = ReleaseData(REPO, "v2.0.0", "v1.0.0", T0, T0 + timedelta(days=9), release, len(prs))
    return build_release_digest(data)


def _listed(out) -> list[int]:
    curated = [n for s in out["sections"] if s["id"] != "highlights" for n in s["prs"]]
    return curated + [n for s in out["changelog"] for n in s["prs"]]


def _section(out, sid: str) -> list[int]:
    return next((s["prs"] for s in out["sections"] if s["id"] == sid), [])


async def test_a_reverted_pick_is_listed_once_under_reverted_changes(tmp_path, store):
    path = release_export(
        tmp_path / "r.json",
        REPO,
        [
            "[Feature] Add the widget cache",
            "[Cherry-pick] Fix widget crash (from #50)",
            'Revert "[Cherry-pick] Fix widget crash (from #50)"',
            "[BugFix] Fix the spinner",
        ],
    )
    await import_release(store, read_release_export(path, release_object(path)))
    stored = await store.releases.get(REPO, "v1.1.0rc1")
    # The revert is its own PR (#102), not folded into #50.
    assert sorted(r for r, _ in stored.entries) == [50, 100, 102, 103]
    data, missing = await load_release(store, ANALYZER, stored)
    assert missing == []
    out = release_json(await release_digest(store, ANALYZER, data), "en")
    assert out["totals"]["merged"] == 4
    assert sorted(_listed(out)) == [50, 100, 102, 103]
    assert _section(out, "reverted") == [50, 102]
    assert 50 not in _section(out, "fixes")


def test_a_revert_matched_by_its_quoted_title_cancels_the_original():
    digest = _digest(
        [
            _pr(10, "[Feature] Cache the code start compilation for npugraph_ex"),
            _pr(11, 'Revert "[Feature] Cache the code start compilation for npugraph_ex'),
        ]
    )
    out = release_json(digest, "en")
    assert _section(out, "reverted") == [10, 11] and _section(out, "features") == []


async def test_a_pick_is_analysed_as_its_original_when_the_store_holds_it(tmp_path, store):
    original = _pr(50, "[Feature] Support DeepSeek V4 MTP", "Adds MTP.")
    await store.prs.upsert([original])
    path = release_export(
        tmp_path / "r.json", REPO, ["[v1.1.0][Cherry-pick] misc sync (Cherry-Pick 50)"]
    )
    await import_release(store, read_release_export(path, release_object(path)))
    stored = await store.releases.get(REPO, "v1.1.0rc1")
    data, _ = await load_release(store, ANALYZER, stored)
    assert [(rp.number, rp.picked_as, rp.apr.pr.title) for rp in data.prs] == [
        (50, 100, original.title)
    ]
    out = release_json(await release_digest(store, ANALYZER, data), "en")
    assert _section(out, "features") == [50]
    assert out["cherry_picks"] == {"50": [100]}


def test_release_tooling_tags_never_form_a_highlight():
    titles = [f"[Cherry-pick][v2.0.0] Fix widget part {i}" for i in range(8)]
    digest = _digest([_pr(100 + i, t) for i, t in enumerate(titles)])
    names = " ".join(h.name.lower() for h in digest.highlights)
    assert "cherry" not in names and "pick" not in names


def test_a_no_answer_is_not_overridden_by_a_title_word():
    pr = _pr(1, "[Refactor] migrate compilation backend from torchair to npugraph_ex", NO)
    assert place(_apr(pr)).breaking is None


def test_a_yes_answer_removing_an_env_var_is_breaking_even_in_docs():
    body = (
        "### Does this PR introduce _any_ user-facing change?\n"
        "Yes. VLLM_WIDGET_FAST is removed; use `--fast` instead.\n"
    )
    pr = _pr(2, "[Doc] Update the widget guide", body, ("docs/guide.md",))
    assert place(_apr(pr)).breaking is not None


def test_a_removed_env_var_in_a_title_is_breaking_and_a_split_option_an_action():
    assert place(_apr(_pr(3, "[Misc] Remove VLLM_WIDGET_CONTEXT_PARALLEL"))).breaking
    body = (
        "### Does this PR introduce _any_ user-facing change?\n"
        "Yes, introduces an option. Now, we should enable both FC1 and DSA_CP to use it.\n"
    )
    split = place(_apr(_pr(4, "[Misc] introduce additional_config for dsa_cp", body)))
    assert split.breaking is not None and split.breaking.msg_id == "release.evidence.split"


def test_a_ci_change_naming_a_device_is_ci_and_a_feature_is_not_a_fix():
    ci = _pr(5, "[CI] update A3 PVC name", "", (".github/workflows/a3.yaml",))
    assert place(_apr(ci)).main == "other"
    feature = _pr(6, "[Feature] Support prefix cache, fix the hybrid block size")
    assert place(_apr(feature)).main in ("features", "hardware", "performance")


def test_the_release_notes_pr_is_not_listed_in_the_curated_notes():
    notes = _pr(7, "[Doc][Misc] Prepare v2.0.0 release notes", "", ("docs/release_notes.md",))
    out = release_json(
        _digest([notes, _pr(8, "[Doc] Add the widget guide", "", ("docs/a.md",))]), "en"
    )
    assert 7 not in _section(out, "docs") and 7 in _listed(out)


def test_dependencies_come_from_the_description_and_never_from_a_date():
    body = (
        "Upgrade CANN from 9.0.1 to 9.1.0 … torch-npu from 2.10.0.post2 to 2.10.0.post4\n\n"
        "- vLLM version: v0.16.0\n"
    )
    assert version_changes("[Misc] Upgrade the base image", body) == [
        ("CANN", "9.0.1", "9.1.0"),
        ("torch-npu", "2.10.0.post2", "2.10.0.post4"),
    ]
    assert version_changes("[Misc] Upgrade vllm to 0619") == []
    assert version_changes("[Spec] update num_speculative_tokens to 1") == []
    assert version_changes("[Lint] bump ruff to 0.6.1") == []
    ruff = _pr(9, "[Lint] ruff reformat", "", ("pyproject.toml", "widgets/core.py"))
    assert place(_apr(ruff)).dependency_files == []


def test_how_to_enable_a_feature_is_said_on_its_item():
    body = "Adds the widget cache. To enable it, set `VLLM_WIDGET_CACHE=1`.\n"
    pr = _pr(12, "[Feature] Add the widget cache", body)
    markdown = render_html(release_document(_digest([pr]), "en"))
    assert "enable with" in markdown and "VLLM_WIDGET_CACHE=1" in markdown


def test_sections_are_capped_with_the_release_and_the_rest_is_in_the_changelog():
    prs = [_pr(100 + i, f"[BugFix] Fix {word}") for i, word in enumerate(WORDS)]
    prs += [_pr(200 + i, f"[BugFix] Fix DeepSeek V4 {w}") for i, w in enumerate(WORDS[:4])]
    digest = _digest(prs)
    out = release_json(digest, "en")
    fixes = next(s for s in out["sections"] if s["id"] == "fixes")
    cap = section_cap("fixes", len(prs))
    assert cap is not None and len(fixes["items"]) <= cap < len(prs)
    assert sorted(_listed(out)) == sorted(pr.number for pr in prs)
    assert section_cap("fixes", 400) > section_cap("fixes", 40)


def test_the_changelog_is_folded_in_html_and_its_own_message_on_chat():
    prs = [_pr(100 + i, f"[BugFix] Fix {word}") for i, word in enumerate(WORDS)]
    document = release_document(_digest(prs), "en")
    html = render_html(document)
    assert "<details>" in html and "Full changelog" in html
    messages = render_slack(document)
    starts = [json.dumps(m).find("Full changelog") for m in messages]
    holder = next(i for i, at in enumerate(starts) if at >= 0)
    assert holder > 0 and "Stability" not in json.dumps(messages[holder]).split("Full changelog")[0]


async def test_offline_the_base_is_the_newest_tag_not_dated_after_the_head(tmp_path, store):
    from bot.releases.pipeline import offline_base

    for base, base_date in (
        ("v0.23.0", "2026-08-16T00:00:00Z"),
        ("v0.23.0rc1", "2026-07-20T00:00:00Z"),
    ):
        path = release_export(tmp_path / f"{base}.json", REPO, ["[Feature] x"], base=base)
        data = json.loads(path.read_text("utf-8"))
        data["release"].update(
            {"head": "v0.24.0rc1", "base_date": base_date, "head_date": "2026-08-04T00:00:00Z"}
        )
        path.write_text(json.dumps(data), "utf-8")
        await import_release(store, read_release_export(path, release_object(path)))
    chosen = offline_base(await store.releases.of_tag(REPO, "v0.24.0rc1"))
    assert chosen is not None and chosen.base == "v0.23.0rc1"


def test_highlights_lead_with_subjects_that_bring_features():
    prs = [_pr(100 + i, f"[BugFix] Fix MTP {w}") for i, w in enumerate(WORDS[:6])]
    prs += [_pr(200 + i, f"[Feature] Support DeepSeek V4 {w}") for i, w in enumerate(WORDS[6:9])]
    prs += [_pr(300 + i, f"[BugFix] Fix DeepSeek V4 {w}") for i, w in enumerate(WORDS[9:12])]
    prs += [_pr(400 + i, f"[Misc] Tidy {w}") for i, w in enumerate(WORDS[12:])]
    digest = _digest(prs)
    names = [h.name for h in digest.highlights]
    assert "MTP" not in names and "BugFix" not in names  # fixes only; a kind tag
    for highlight in digest.highlights:
        if highlight.prs > 1:
            assert highlight.lead[0].number >= 200  # a feature leads the subject


def test_a_changed_default_and_a_first_part_outrank_bigger_features_as_highlights():
    big = ("widgets/a.py", "widgets/b.py", "widgets/c.py", "widgets/d.py", "widgets/e.py")
    prs = [_pr(100 + i, f"[Feature] Add the {w} widget", paths=big) for i, w in enumerate(WORDS)]
    prs.append(
        _pr(
            500,
            "[Feature] Support the staged renderer",
            "### Does this PR introduce _any_ user-facing change?\n"
            "Yes, the default render mode is changed to staged.\n",
        )
    )
    prs.append(_pr(501, "[1/N][Feature] Streaming exports"))
    prs.append(
        _pr(
            502,
            "[Feature] Add the spinner",
            "### Does this PR introduce _any_ user-facing change?\nNo.\n",
        )
    )
    prs.append(_pr(503, "[Lint] Add lint hooks for shell scripts", paths=big))
    named = {n for h in _digest(prs).highlights if h.prs == 1 for n in h.numbers}
    assert {500, 501} <= named  # what users get without asking; a multi-part initiative
    assert 502 not in named and 503 not in named  # a plain small feature; lint tooling


def test_how_to_opt_in_is_no_breaking_change_while_a_must_now_set_is():
    answer = "### Does this PR introduce _any_ user-facing change?\n{}\n"
    opt_in = (
        "Yes. To enable the sparse cache, users need to set the `enable_sparse` option "
        'to `"true"` in `additional_config`.'
    )
    after = "Yes. Users need to set `enable_sparse` to enable the sparse cache."
    must = "Yes. Users must now set `WIDGET_MODE` instead of `WIDGET_LEGACY`."
    assert (
        place(_apr(_pr(1, "[BugFix] Restore the sparse cache", answer.format(opt_in)))).breaking
        is None
    )
    assert place(_apr(_pr(2, "[Feature] Sparse cache", answer.format(after)))).breaking is None
    assert place(_apr(_pr(3, "[Feature] Widget modes", answer.format(must)))).breaking is not None


def test_translated_pages_stay_in_the_changelog_not_the_curated_docs():
    pages = tuple(f"docs/zh/page{i}.md" for i in range(8))
    prs = [_pr(100, "[Doc] Translated Doc files 2026-06-04", paths=pages)]
    prs.append(_pr(101, "[Doc] Add the widget tuning guide", paths=("docs/tuning.md",)))
    digest = _digest(prs)
    docs = next(s for s in digest.sections if s.id == "docs")
    assert [i.number for i in docs.items] == [101]
    assert any(i.number == 100 for s in digest.changelog for i in s.items)


def test_a_bring_up_on_an_accelerator_reads_as_a_headline():
    for title in (
        "[Feature] Support DeepSeek for A5",
        "[Build] Add support for Ascend950 chip",
        "Support pooling models on 310P platform",
        "[Feature] DeepSeek-V4 for Ascend950",
    ):
        assert brings_up_hardware(title), title
    for title in (
        "[BugFix] Fix A3 PVC name",
        "[BugFix] Fix precision for 310P",
        "[Feature] Support the staged renderer",
    ):
        assert not brings_up_hardware(title), title
