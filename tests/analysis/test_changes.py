"""What a title says a PR changes: the action from its leading verb, the object as written."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.analysis.changes import MAX_OBJECT_CHARS, says_little, third_person, title_change


@pytest.mark.parametrize(
    ("title", "action", "obj"),
    [
        ("[Spec Decode] Add Cohere EAGLE draft model", "add", "Cohere EAGLE draft model"),
        ("[Attention] Remove the Tree Attention backend", "remove", "the Tree Attention backend"),
        ("[Bugfix][CI] Fix Step3 pipeline KeyError (#123)", "fix", "Step3 pipeline KeyError"),
        ("Add support for Foo models", "support", "Foo models"),
        ("[ROCm][CI] Fix and stabilize EAGLE3 acceptance tests", "fix", "EAGLE3 acceptance tests"),
        ("feat(sched): Migrate MoeWNA16 to MK oracle", "migrate", "MoeWNA16 to MK oracle"),
        ("[Perf] Speed up prefix cache lookup", "speed", "prefix cache lookup"),
        # A scope before the verb is not the change.
        ("[Feature](dsa, cp): Add DSA context parallel.", "add", "DSA context parallel"),
        ("[BugFix] Keep the router gate in FP32", "keep", "the router gate in FP32"),
        # "X supports Y": X gains support for Y.
        ("[EPLB][Feature] EPLB Support w4a8", "support", "w4a8 in EPLB"),
        ("[CI]Style: Convert `test/` to ruff format", "convert", "`test/` to ruff format"),
        # No leading verb: a noun phrase naming what landed, never a guessed verb.
        ("[Kernel] Native W4A16 kernel for RDNA3", "land", "Native W4A16 kernel for RDNA3"),
    ],
)
def test_action_and_object(title: str, action: str, obj: str) -> None:
    change = title_change(title)
    assert change is not None
    assert (change.action, change.object) == (action, obj)


def test_a_bugfix_title_without_a_verb_fixes_its_subject() -> None:
    change = title_change("[Bugfix] Gemma4 startup crash", "bugfix")
    assert change is not None and (change.action, change.object) == ("fix", "Gemma4 startup crash")


def test_empty_title_has_no_change() -> None:
    assert title_change("[Bugfix]") is None
    assert title_change("") is None


@given(st.text(min_size=1, max_size=400))
def test_object_is_bounded_and_taken_from_the_title(title: str) -> None:
    change = title_change(title)
    if change is None:
        return
    assert len(change.object) <= MAX_OBJECT_CHARS
    assert change.object.rstrip("…").strip() in " ".join(title.split()) or "…" in change.object


@pytest.mark.parametrize(
    ("title", "action", "obj"),
    [
        # British spellings read as the American verbs.
        (
            "[Frontend] Reorganise online serving utility modules",
            "reorganize",
            "online serving utility modules",
        ),
        ("[Perf] Optimise the sampler", "optimize", "the sampler"),
        ("[ROCm] Fuse RoPE and FP8 quantization", "fuse", "RoPE and FP8 quantization"),
        ("[MoE] Rework the router", "rework", "the router"),
        # "<noun> support for X": support for X.
        ("Add model support for granite speech plus", "support", "granite speech plus"),
    ],
)
def test_more_verbs_and_british_spellings(title: str, action: str, obj: str) -> None:
    change = title_change(title)
    assert change is not None and (change.action, change.object) == (action, obj)


@pytest.mark.parametrize(
    ("title", "verb", "obj"),
    [
        ("Accept W4A16 in FlashInferB12xExperts", "accept", "W4A16 in FlashInferB12xExperts"),
        ("[Perf] Pad the input ids", "pad", "the input ids"),
        ("[Misc] Discard native RmsNormGated ops", "discard", "native RmsNormGated ops"),
        # Irregular verbs, and an adverb before the verb.
        ("make quark ocp mx dtype parser robust", "make", "quark ocp mx dtype parser robust"),
        ("[Config] Correctly identify granite-4.0-micro", "identify", "granite-4.0-micro"),
        ("[XPU] Automatically detect target platform", "detect", "target platform"),
    ],
)
def test_any_verb_word_english_writes_as_one_is_the_action(title: str, verb: str, obj: str) -> None:
    change = title_change(title)
    assert change is not None and (change.action, change.verb, change.object) == ("verb", verb, obj)


@pytest.mark.parametrize(
    "title",
    ["Model runner V2 cleanup", "[Kernel] Native W4A16 kernel for RDNA3", "Mamba prefix caching"],
)
def test_nouns_and_adjectives_are_no_verbs(title: str) -> None:
    # "modeled" is far rarer than "model"; "natived" and "mambaed" are no English words.
    change = title_change(title)
    assert change is not None and change.action == "land"


@pytest.mark.parametrize(
    ("title", "little"),
    [
        ("[Performance]Reduce sampling", True),
        ("Fix typo", True),
        ("Fix the bug", True),
        ("Remove vLLM", False),
        ("Reduce sampling overhead", False),
        ("Fix W8A8", False),
    ],
)
def test_a_one_plain_word_object_says_little(title: str, little: bool) -> None:
    change = title_change(title)
    assert change is not None and says_little(change) is little


@given(st.sampled_from(["fix", "pad", "patch", "copy", "play", "accept"]))
def test_third_person(verb: str) -> None:
    out = third_person(verb)
    assert out.startswith(verb[:-1]) and out.endswith("s")
    assert out in {"fixes", "pads", "patches", "copies", "plays", "accepts"}
