"""`vllm-bot pr REF` reads a PR reference exactly as `/vllm pr REF` does, plain numbers
included (which the CLI reads without loading the command layer)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.cli import _pr_ref
from bot.commands import CommandError, parse_pr_ref
from bot.core.errors import UsageError

NUMBERS = st.integers(min_value=-10, max_value=2**32).map(str)
# Digits of other scripts, padding and signs: the edges of "a plain number".
TEXT = st.text(st.sampled_from("0123456789١٢٣ +-#"), min_size=1, max_size=12)


@given(st.one_of(NUMBERS, TEXT))
def test_the_cli_reads_a_reference_as_the_chat_command_does(ref: str) -> None:
    try:
        parsed = parse_pr_ref(ref)
        expected: tuple[int, str | None] | None = (parsed.number, parsed.repo)
    except CommandError:
        expected = None
    try:
        got: tuple[int, str | None] | None = _pr_ref(ref, None)
    except UsageError:
        got = None
    assert got == expected
