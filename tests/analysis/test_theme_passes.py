"""Issue 33's theme rules: upkeep themes (CI, tests, docs, stack upgrades) named by their
subject, no small accidental groups, one identity per subject across weeks, key PRs spread
over the themes."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from bot.analysis import themes
from bot.analysis.theme_identity import Subject, same_subject
from bot.analysis.themes import HistoryWeek, ThemeDoc, ThemeRules, detect_themes
from bot.digest.build import build_digest
from tests.digest.fixtures import MODULE_NAMES, REPO, WINDOW, _pr

FILLER = [
    "[Bugfix] Fix crash in scheduler",
    "[Misc] Add support for new model",
    "[Doc] Update kernel docs",
    "[Perf] Improve kernel performance",
    "[Frontend] Fix chat template",
    "[Core] Tidy engine loop",
]


# As a rule set's kind tags are (rules_from): no theme is named "CI" or "Bugfix".
RULES = ThemeRules(
    stop_terms=frozenset({"ci", "test", "doc", "bugfix", "misc", "perf", "frontend", "core"})
)


def _docs(titles: list[str], start: int, kind: str = "bugfix") -> list[ThemeDoc]:
    return [ThemeDoc(start + i, t, f"dev{i}", kind=kind) for i, t in enumerate(titles)]


def _week(titles: list[str], start: int) -> list[ThemeDoc]:
    # A week of some size: the named titles among 3x the filler.
    return _docs(titles, start) + _docs(FILLER * 3, start + 100)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (("deepseek", "DeepSeek"), ("deepseekv4", "DeepSeek-V4"), True),
        (("dsv4", "DSv4"), ("deepseekv4", "DeepSeek V4"), True),
        (("deepseekv4", "DeepseekV4"), ("deepseek", "DeepSeek"), True),
        (("mrv2", "MRV2"), ("modelrunnerv2", "Model Runner V2"), True),
        (("main2mian", "main2mian"), ("main2main", "Main2Main"), True),
        # Two versions are two models; a digit is never a typo.
        (("deepseekv32", "DeepSeek V3.2"), ("deepseekv4", "DeepSeek V4"), False),
        (("qwen35", "Qwen3.5"), ("qwen36", "Qwen3.6"), False),
        (("m:rocm", "ROCm"), ("rocm", "ROCm"), False),
    ],
)
def test_one_subject_across_spellings(a: tuple[str, str], b: tuple[str, str], same: bool) -> None:
    assert same_subject(Subject(a[0], (a[1],)), Subject(b[0], (b[1],))) is same
    assert same_subject(Subject(b[0], (b[1],)), Subject(a[0], (a[1],))) is same


def test_a_subject_respelt_next_week_continues_and_does_not_fade() -> None:
    before = _week(["[DeepSeek] Add sparse MLA", "[DeepSeek] Fix MTP", "[DeepSeek] Tidy cache"], 1)
    after = _week(["[DSv4] Fix RoPE", "[DeepSeek-V4] Add indexer", "[DeepSeek-V4] Fix init"], 1000)
    result = detect_themes(after, [HistoryWeek("w-1", 1, before)], RULES)
    theme = next(t for t in result.themes if "deepseek" in t.key)
    assert theme.trend == "continuing" and theme.last_week == 3
    assert not result.fading


def test_a_subject_still_a_highlight_is_falling_never_fading() -> None:
    before = _week([f"[Mooncake] Fix transfer {i}" for i in range(9)], 1)
    after = _week([f"[Mooncake] Fix store {i}" for i in range(3)], 1000)
    # Quiet weeks before: three PRs are still more than Mooncake's usual share.
    quiet = [HistoryWeek(f"w-{k}", k, _docs(FILLER * 3, 2000 + 100 * k)) for k in (2, 3, 4)]
    result = detect_themes(after, [HistoryWeek("w-1", 1, before), *quiet], RULES)
    theme = next(t for t in result.themes if t.key == "mooncake")
    assert theme.trend == "falling"
    assert all(f.id != theme.id for f in result.fading)


def test_two_prs_sharing_a_name_take_no_slot_in_a_week_of_some_size() -> None:
    window = _week(["[Bugfix] Skip flaky Gemma4 test", "[Bugfix] Fix Gemma4 file name"], 1)
    result = detect_themes(window, [], RULES)
    assert not any("gemma" in t.key for t in result.themes)
    # A name the rule set declares is no coincidence: two PRs of it are a group.
    declared = detect_themes(window, [], replace(RULES, aliases={"Gemma4": ["Gemma-4"]}))
    assert any(t.key == "gemma4" for t in declared.themes)


def test_a_large_ci_effort_is_a_theme_named_by_its_subject() -> None:
    nightly = [
        ThemeDoc(
            i,
            title,
            "ci-dev",
            kind="ci",
            paths=(f"tests/e2e/nightly/test_{i}.py", ".github/workflows/nightly.yaml"),
        )
        for i, title in enumerate(
            [
                "[CI] Add GLM nightly case",
                "[CI] Fix nightly MiniMax-M2.5 case",
                "[CI] Remove duplicate cases",
                "[Test] Add upstream cases",
                "[CI] Move cases to weekly",
            ],
            1,
        )
    ]
    window = nightly + _docs(FILLER * 3, 100) + _docs(["[Doc] Fix typo"], 200, kind="docs")
    result = detect_themes(window, [], RULES)
    theme = result.theme_of(1)
    assert theme is not None and theme.kind == "upkeep"
    assert theme.name.startswith("CI: ") and "nightly" in theme.name
    assert sorted(theme.numbers) == [1, 2, 3, 4, 5]
    # The model a CI change names in passing gets no member from it.
    assert not any("minimax" in t.key for t in result.themes)


def test_ci_prs_of_a_named_effort_stay_with_it() -> None:
    sync = [
        ThemeDoc(i, f"[CI] Main2main 05{i:02}", "sync", kind="ci", paths=("tests/e2e/x.py",))
        for i in range(1, 4)
    ]
    other = [
        ThemeDoc(10 + i, f"[CI] Fix case {i}", "ci", kind="ci", paths=("tests/e2e/y.py",))
        for i in range(3)
    ]
    result = detect_themes(sync + other + _docs(FILLER * 3, 100), [], RULES)
    theme = result.theme_of(1)
    assert theme is not None and theme.kind == "initiative" and theme.name == "Main2main"


def test_a_stack_upgrade_over_several_prs_is_a_theme_named_by_what_it_upgrades() -> None:
    upgrade = [
        ThemeDoc(1, "[Misc][Upgrade] Upgrade CANN to 9.0.0 and triton-ascend to 3.2.1", kind="ci"),
        ThemeDoc(2, "[Misc] Upgrade torch-npu to 2.10.0", kind="ci"),
        ThemeDoc(3, "[Misc] Drop custom so for CANN8.5.1", kind="refactor"),
    ]
    result = detect_themes(upgrade + _docs(FILLER * 3, 100), [], RULES)
    theme = result.theme_of(1)
    assert theme is not None and theme.kind == "upkeep"
    assert theme.name == "Toolchain upgrade: CANN 9.0.0, triton-ascend 3.2.1, torch-npu 2.10.0"
    # The old version's fallout names the upgraded package: it is part of the effort.
    assert sorted(theme.numbers) == [1, 2, 3]


def test_routine_bumps_and_one_upgrade_are_no_upgrade_theme() -> None:
    bumps = [
        ThemeDoc(1, "[CI] Bump actions/checkout from 4 to 6", kind="ci"),
        ThemeDoc(2, "[CI] Bump docker/login-action from 3 to 4", kind="ci"),
        ThemeDoc(3, "[CI] Bump actions/cache from 4 to 5", kind="ci"),
        ThemeDoc(4, "[Misc] update vllm to v0.19.1", kind="ci"),
        ThemeDoc(5, "[Bugfix] Fix vllm import on 0.19.1", kind="bugfix"),
    ]
    result = detect_themes(bumps + _docs(FILLER * 3, 100), [], RULES)
    # GitHub Actions are CI plumbing, and one upgrade is no effort of the week.
    assert not any(t.key.startswith("u:deps") for t in result.themes)
    # The repository's own name ("vllm" of vllm-ascend) is in every title: only its upgrade
    # titles join, not every PR that names it.
    own = [
        ThemeDoc(1, "[Misc] Upgrade vllm to 0408", kind="ci"),
        ThemeDoc(2, "[Test] Upgrade aisbench to 20260330", kind="test"),
        ThemeDoc(3, "[Bugfix] Fix vllm serve crash", kind="bugfix"),
        ThemeDoc(4, "[Feature] Add vllm bench option", kind="feature"),
    ]
    rules = replace(RULES, stop_terms=RULES.stop_terms | {"vllm"})
    result = detect_themes(own + _docs(FILLER * 3, 100), [], rules)
    assert not any(t.key.startswith("u:deps") for t in result.themes)


def test_the_memo_key_follows_every_theme_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    themes._code_version.cache_clear()
    before = themes.memo_prefix()
    real = type(themes.Path(themes.__file__)).read_bytes

    def changed(path: themes.Path) -> bytes:
        data = real(path)
        return data + b"# changed" if path.name == "theme_identity.py" else data

    monkeypatch.setattr(type(themes.Path(themes.__file__)), "read_bytes", changed)
    themes._code_version.cache_clear()
    try:
        assert themes.memo_prefix() != before
    finally:
        monkeypatch.undo()
        themes._code_version.cache_clear()


def test_key_prs_spread_over_the_themes() -> None:
    files = [("vllm/x.py", 10, 1)]
    prs = [
        _pr(100 + i, f"[ROCm] Tune {i}", f"a{i}", ["rocm"], "performance", 9 - i / 10, files=files)
        for i in range(6)
    ] + [
        _pr(200 + i, f"[XPU] Add op {i}", f"intel{i}", ["xpu"], "feature", 5 - i / 10, files=files)
        for i in range(4)
    ]
    prs += [
        _pr(300 + i, f"Fix thing {i}", f"dev{i}", ["other"], "bugfix", 1.0, files=files)
        for i in range(20)
    ]
    digest = build_digest(
        prs,
        [],
        repo=REPO,
        window=WINDOW,
        timezone="UTC",
        module_names=MODULE_NAMES,
        key_count=4,
        score_floor=6.0,
    )
    keys = [k.number for k in digest.key_prs]
    theme_of = {n: h.theme_id for h in digest.highlights for n in h.prs}
    # The XPU lead (below the floor) is a key PR; ROCm has two of the first places, not four.
    assert 200 in keys and len(keys) == 4
    assert Counter(theme_of.get(n) for n in keys[:3])[theme_of[100]] == 2
