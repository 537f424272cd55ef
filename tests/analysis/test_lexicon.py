"""bot.analysis.lexicon reads lemminflect's tables as lemminflect does, without its import."""

from __future__ import annotations

import subprocess
import sys

import pytest
from lemminflect import getAllLemmas, getInflection

from bot.analysis.lexicon import all_lemmas, verb_form

WORDS = [
    "fix", "take", "make", "model", "kernels", "native", "skip", "pad", "copy", "patch",
    "set", "run", "default", "configure", "apply", "support", "discard", "build", "ran",
    "caches", "intergrate", "flashinfer", "all", "blog", "bless", "broadcast", "modeled",
]  # fmt: skip


@pytest.mark.parametrize("word", WORDS)
def test_lemmas_and_verb_forms_are_lemminflects(word: str) -> None:
    assert all_lemmas(word) == dict(getAllLemmas(word))
    if word in getAllLemmas(word).get("VERB", ()):
        for tag in ("VBD", "VBN", "VBG", "VBZ"):
            assert verb_form(word, tag) == getInflection(word, tag)[0], tag


def test_finding_verbs_imports_neither_lemminflect_nor_numpy() -> None:
    code = (
        "import sys\n"
        "from bot.analysis.changes import is_verb, third_person\n"
        "assert is_verb('accept') and third_person('take') == 'takes'\n"
        "print(sorted(m for m in ('lemminflect', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
