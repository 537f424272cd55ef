"""No organisation configured: the chat's `/vllm digest org` means the configured one and
says the catalogue's reason (tests/usecases/test_same_answer.py); the CLI's `--org` takes a
NAME, with no flag for "the configured one", so it cannot reach that state."""

from __future__ import annotations

from pathlib import Path

from bot.core.i18n import message
from tests.cli import vllm_bot
from tests.usecases.offline import offline_env


def test_the_cli_names_its_organisation_so_only_the_chat_can_lack_one(tmp_path: Path) -> None:
    env = offline_env(tmp_path, '[[repos]]\nname = "acme/widgets"\nmodules = "generic"\n')
    cli = vllm_bot(env, "digest", "--org", "acme", "--no-sync", "--week", "2026-W23")
    chat = vllm_bot(env, "chat", "/vllm digest org 2026-W23")
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.startswith("# acme weekly digest, 2026 week 23")
    assert message("en", "error.no_org") not in cli.stderr
    assert chat.returncode == 2
    assert chat.stderr == f"error: {message('en', 'error.no_org')}\n"
