"""No organisation configured: the chat's `/vllm digest org` means the configured one and
says the catalogue's reason (tests/usecases/test_same_answer.py); the CLI's `--org` takes a
NAME, with no flag for "the configured one", so it cannot reach that state."""

from __future__ import annotations

from pathlib import Path

from bot.core.i18n import message
from tests.cli import vllm_bot

DOWN = "http://127.0.0.1:9"  # nothing listens there: GitHub unreachable


def test_the_cli_names_its_organisation_so_only_the_chat_can_lack_one(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[[repos]]\nname = "acme/widgets"\nmodules = "generic"\n', "utf-8")
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "VLLM_BOT_CONFIG": str(config),
        "VLLM_BOT_NO_GH": "1",
        "GITHUB_TOKEN": "",
        "GITHUB_API_URL": DOWN,
        "GITHUB_GRAPHQL_URL": f"{DOWN}/graphql",
    }
    cli = vllm_bot(env, "digest", "--org", "acme", "--no-sync", "--week", "2026-W23")
    chat = vllm_bot(env, "chat", "/vllm digest org 2026-W23")
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.startswith("# acme weekly digest, 2026 week 23")
    assert message("en", "error.no_org") not in cli.stderr
    assert chat.returncode == 2
    assert chat.stderr == f"error: {message('en', 'error.no_org')}\n"
