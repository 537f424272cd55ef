from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.analysis.analyzer import Analyzer
from bot.analysis.paths import PatternSet, glob_to_regex
from bot.analysis.rules import (
    BUILTIN_RULESETS,
    RuleSetError,
    builtin_ruleset_text,
    load_ruleset,
    parse_ruleset,
)
from tests.analysis.analysis_factory import make_pr

CONTRACT_MODULES = [
    "rocm",
    "xpu",
    "cpu",
    "tpu",
    "cuda-kernels",
    "attention",
    "moe",
    "quantization",
    "spec-decode",
    "kv-connector",
    "kv-cache",
    "scheduler",
    "model-runner",
    "distributed",
    "compile",
    "models",
    "multimodal",
    "frontend",
    "rust-frontend",
    "tool-calling",
    "structured-output",
    "lora",
    "sampling",
    "metrics",
    "ci-build",
    "docs",
    "tests",
    "benchmarks",
    "dependencies",
]


def test_vllm_ruleset_covers_every_contract_module_with_rules() -> None:
    rs = load_ruleset("vllm")
    ids = {m.id for m in rs.modules}
    assert set(CONTRACT_MODULES) <= ids
    for m in rs.modules:
        if m.id in CONTRACT_MODULES:
            assert m.paths, f"{m.id} has no path rule"
            assert m.tags or m.keywords, f"{m.id} has no title rule"
            assert m.name_en and m.name_zh


def test_builtin_and_auto_names_load() -> None:
    assert load_ruleset("generic").name == "generic"
    assert load_ruleset("auto").fallback_module == "other"
    assert load_ruleset("vllm").score.key_count == 24


def test_user_toml_path_loads(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'fallback_module = "core"\n[[modules]]\nid = "core"\nname_en = "Core"\n'
        'name_zh = "核心"\npaths = ["src/**"]\n',
        encoding="utf-8",
    )
    rs = load_ruleset(str(path))
    assert rs.name == "mine"
    assert [m.id for m in rs.modules] == ["core"]


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        (
            'fallback_module = "a"\n[[modules]]\nid = "a"\nname_en = "A"\nname_zh = "A"\n'
            'path = ["x/**"]\n',
            r"bad\.toml: modules\[0\]\(id=a\)\.path: unknown key \(accepted: id, name_en, ",
        ),
        (
            'fallback_module = "a"\n[[modules]]\nid = "a"\nname_en = "A"\nname_zh = "A"\n'
            "keywords = ['(unclosed']\n",
            r"bad\.toml: modules\[0\]\(id=a\)\.keywords: invalid regular expression",
        ),
        (
            'fallback_module = "zzz"\n[[modules]]\nid = "a"\nname_en = "A"\nname_zh = "A"\n',
            r"fallback_module 'zzz' is not a module id \(accepted: a\)",
        ),
        (
            'fallback_module = "a"\n[[modules]]\nid = "a"\nname_en = "A"\nname_zh = "A"\n'
            "[score.kinds]\nbugs = 1.0\n",
            r"score\.kinds: unknown kind 'bugs' \(accepted: feature, bugfix",
        ),
        (
            'fallback_module = "a"\n[[modules]]\nid = "a"\nname_zh = "A"\n',
            r"modules\[0\]\(id=a\)\.name_en: required key is missing",
        ),
        ("name = [", r"bad\.toml: not valid TOML"),
        (
            'fallback_module = "a"\n[[modules]]\nid = "a"\nname_en = "A"\nname_zh = "A"\n'
            "paths = ['src/**', 're:(unclosed']\n",
            r"modules\[0\]\(id=a\)\.paths: invalid pattern 're:\(unclosed'",
        ),
        (
            # Valid one by one, not as the one alternation the classifier matches with.
            'fallback_module = "a"\n[[modules]]\nid = "a"\nname_en = "A"\nname_zh = "A"\n'
            "paths = ['re:(?P<x>a)', 're:(?P<x>b)']\n",
            r"modules\[0\]\(id=a\)\.paths: invalid patterns .* together: redefinition",
        ),
        (
            'fallback_module = "a"\n[[modules]]\nid = "a"\nname_en = "A"\nname_zh = "A"\n'
            "keywords = ['(?P<w>x)', '(?P<w>y)']\n",
            r"modules\[0\]\(id=a\)\.keywords: invalid regular expressions .*redefinition",
        ),
    ],
)
def test_validation_errors_name_file_key_and_accepted_values(toml: str, expected: str) -> None:
    with pytest.raises(RuleSetError) as exc:
        parse_ruleset(toml, "bad.toml")
    assert re.search(expected, str(exc.value)), str(exc.value)


def test_unknown_ruleset_name_lists_what_is_accepted() -> None:
    with pytest.raises(RuleSetError, match=r"unknown rule set 'vlm' \(accepted: vllm, generic"):
        load_ruleset("vlm")


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("vllm/v1/core/sched/**", "vllm/v1/core/sched/scheduler.py", True),
        ("vllm/v1/core/sched/", "vllm/v1/core/sched/output.py", True),
        ("vllm/v1/worker/cpu*", "vllm/v1/worker/cpu_model_runner.py", True),
        ("vllm/v1/worker/cpu*", "vllm/v1/worker/gpu/cpu_utils.py", False),
        ("*.md", "README.md", True),
        ("*.md", "docs/README.md", False),
        ("**/*.md", "docs/a/b.md", True),
        ("**/*rocm*", "vllm/platforms/rocm.py", True),
        ("tests/**/test_*.py", "tests/test_x.py", True),
        ("re:^docs/", "docs/x.md", True),
        ("re:(?i)tpu", "vllm/TPU_worker.py", True),
    ],
)
def test_path_patterns(pattern: str, path: str, matches: bool) -> None:
    assert PatternSet.compile([pattern]).matches(path) is matches
    if not pattern.startswith("re:"):
        assert bool(re.fullmatch(glob_to_regex(pattern), path)) is matches


@pytest.mark.parametrize("name", BUILTIN_RULESETS)
def test_shipped_rulesets_pass_the_checks_their_loading_skips(name: str) -> None:
    # load_ruleset leaves compiling a shipped rule set's patterns to first use; this is
    # the check that makes that safe.
    checked = parse_ruleset(builtin_ruleset_text(name), f"{name}.toml")
    assert checked == load_ruleset(name)


def test_analyzer_compiles_its_rules_on_first_use() -> None:
    # A shipped rule set loads unchecked; the first analysis builds every classifier.
    pr = make_pr("[ROCm] Fix MLA prefill scale", [("vllm/platforms/rocm.py", 10, 0)])
    assert "rocm" in [m.id for m in Analyzer(load_ruleset("vllm")).analyze(pr).modules]
