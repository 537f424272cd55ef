"""Auto modules: the repository's own package folder is split by its second-level folders,
and label-derived modules have readable names."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime

import pytest

from bot.analysis.analyzer import Analyzer
from bot.analysis.auto_rules import build_auto_ruleset, readable_name
from bot.core.models import FileChange, PullRequest
from tests.conftest import SHARED

SUBS = {"vllm_ascend": ["attention", "ops", "worker", "_310p", "spec_decode"], "tests": ["ut"]}
FOLDERS = ["vllm_ascend", "csrc", "tests", "docs"]


def _pr(number: int, paths: list[str], labels: list[str] = ()) -> PullRequest:
    return PullRequest(
        repo="vllm-project/vllm-ascend",
        number=number,
        title="Change",
        url="u",
        state="merged",
        created_at=datetime(2026, 5, 25, tzinfo=UTC),
        labels=list(labels),
        files=[FileChange(p, 30, 5) for p in paths],
        additions=30 * len(paths),
        deletions=5 * len(paths),
    )


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("module:ops", "Ops"),
        ("module:quantization", "Quantization"),
        ("spec_decode", "Spec decode"),
        ("kv_offload", "KV offload"),
        ("_310p", "310P"),
        ("eplb", "EPLB"),
        ("ROCm", "ROCm"),
    ],
)
def test_readable_names(label: str, name: str) -> None:
    assert readable_name(label) == name


def test_package_folder_is_split_by_second_level_folders() -> None:
    rs = build_auto_ruleset(
        None, None, FOLDERS, labels=["module:ops"], repo="vllm-project/vllm-ascend", subfolders=SUBS
    )
    by_id = {m.id: m for m in rs.modules}
    assert {"attention", "ops", "worker", "310p", "spec-decode"} <= set(by_id)
    assert by_id["ops"].name_en == "Ops" and "module:ops" in by_id["ops"].labels
    assert "vllm_ascend/ops/**" in by_id["ops"].paths
    analyzer = Analyzer(rs)
    ops = analyzer.analyze(_pr(1, ["vllm_ascend/ops/rope.py"]))
    assert ops.module_ids == ["ops"]
    attention = analyzer.analyze(_pr(2, ["vllm_ascend/attention/mla_v1.py"]))
    assert attention.module_ids == ["attention"]
    # Only the package's own top-level files stay in the package module.
    root = analyzer.analyze(_pr(3, ["vllm_ascend/utils.py"]))
    assert root.module_ids == ["vllm-ascend"]
    assert "vllm-ascend" not in attention.module_ids + ops.module_ids
    # Other repositories' folders are not split.
    plain = build_auto_ruleset(None, None, FOLDERS, subfolders=SUBS)
    assert "attention" not in {m.id for m in plain.modules}


def test_vllm_ascend_weeks_have_no_catch_all_theme() -> None:
    path = SHARED / "datasets" / "vllm-ascend-2026-W22.json"
    if not path.exists():
        pytest.skip(f"{path} not available")
    from bot.importer import read_export

    repo, prs = read_export(path)
    paths = {f.path for p in prs for f in p.files}
    subs: dict[str, set[str]] = {}
    for p in paths:
        parts = p.split("/")
        if len(parts) > 2:
            subs.setdefault(parts[0], set()).add(parts[1])
    labels = [label for p in prs for label in p.labels]
    rs = build_auto_ruleset(
        None,
        None,
        sorted({p.split("/")[0] for p in paths if "/" in p}),
        labels=labels,
        repo=repo,
        subfolders={k: sorted(v) for k, v in subs.items()},
    )
    analyzer = Analyzer(rs)
    counts = Counter(m for p in prs for m in analyzer.analyze(p).module_ids)
    print(json.dumps(counts.most_common(12)))
    # Before: "vllm-ascend" held 40 of 82 PRs. Now no source module holds a third of them.
    assert counts["vllm-ascend"] < len(prs) / 8
    assert counts["ops"] >= 10 and counts["attention"] >= 5 and counts["worker"] >= 5
    names = {m.id: m.name_en for m in rs.modules}
    assert names["ops"] == "Ops" and names["quantization"] == "Quantization"


@pytest.mark.parametrize(
    "stray", [".vllm_ascend", "build", "third_party", "vendor", "generated", "vllm_ascend.egg-info"]
)
def test_hidden_build_vendored_and_generated_folders_never_decide_the_package(stray: str) -> None:
    # Sorted before (or beside) the real package, named like it or not: one PR touching
    # `.vllm_ascend/msprobe/` made every vllm_ascend PR one ".vllm_ascend (top-level files)".
    folders = sorted([*FOLDERS, stray])
    subs = {**SUBS, stray: ["msprobe"]}
    rs = build_auto_ruleset(
        None, None, folders, repo="vllm-project/vllm-ascend", subfolders=subs,
        folder_prs={"vllm_ascend": 300, stray: 1},
    )  # fmt: skip
    names = {m.id: m.name_en for m in rs.modules}
    assert names["vllm-ascend"] == "vllm_ascend (top-level files)"
    assert "msprobe" not in names and stray not in {m.lower() for m in names.values()}
    analyzer = Analyzer(rs)
    assert analyzer.analyze(_pr(1, ["vllm_ascend/attention/mla_v1.py"])).module_ids == ["attention"]
    assert analyzer.analyze(_pr(2, [f"{stray}/msprobe/config.json"])).module_ids == ["other"]


def test_the_package_is_the_folder_most_of_the_history_touches() -> None:
    # Two folders named after the repository: the one most stored PRs touch is the package,
    # whichever sorts first and whatever one week adds.
    folders = ["vllm-ascend", "vllm_ascend", "tests"]
    subs = {"vllm-ascend": ["scripts"], "vllm_ascend": ["ops", "worker"]}
    for few in (1, 40):
        rs = build_auto_ruleset(
            None, None, folders, repo="vllm-project/vllm-ascend", subfolders=subs,
            folder_prs={"vllm-ascend": few, "vllm_ascend": 600},
        )  # fmt: skip
        ids = {m.id for m in rs.modules}
        assert {"ops", "worker"} <= ids and "scripts" not in ids
