"""The CLI and the chat are adapters over the same use cases: `vllm-bot pr N` and
`vllm-bot chat "/vllm pr N"` show the same card, and `vllm-bot digest --no-sync` and
`/vllm digest` offline the same digest, whatever the store and GitHub hold."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.i18n import message
from tests.cli import github_env, vllm_bot
from tests.core.test_e2e_chat import rocm_prs
from tests.fakes.background import BackgroundFake
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs, open_and_closed

REPO = "vllm-project/vllm"
W22 = (datetime(2026, 5, 25, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC))
W23 = (datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC))
MERGED = 30_003
# Open PRs of the tests that edit one on GitHub: one each, so they stay independent.
OPEN_STALE, OPEN_DOWN = 90_000, 90_010
DOWN = "http://127.0.0.1:9"  # nothing listens there: GitHub unreachable


@pytest.fixture(scope="module")
def github() -> Iterator[FakeGitHub]:
    prs = (
        make_prs(20, *W23, seed=7, first_number=30_000)
        + make_prs(12, *W22, seed=8, first_number=29_000)
        + rocm_prs()
        # An open PR per test that edits it on GitHub (and a closed one each, unused).
        + open_and_closed(W23[0], first_number=OPEN_STALE)
        + open_and_closed(W23[0], first_number=OPEN_DOWN)
    )
    with BackgroundFake(FakeGitHub({REPO: prs})) as fake:
        yield fake


@pytest.fixture
def env(github: FakeGitHub, tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "bot.toml"
    # Every stored open PR is stale (asked again), and a failure is not retried.
    config.write_text("[github]\nfreshness_minutes = 0\nmax_retries = 0\n", encoding="utf-8")
    return github_env(github, tmp_path / "store.sqlite3", clean=True, VLLM_BOT_CONFIG=str(config))


def offline(env: dict[str, str]) -> dict[str, str]:
    return {**env, "GITHUB_API_URL": DOWN, "GITHUB_GRAPHQL_URL": f"{DOWN}/graphql"}


def both_cards(
    env: dict[str, str], number: int
) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    cli = vllm_bot(env, "pr", str(number))
    chat = vllm_bot(env, "chat", f"/vllm pr {number}")
    return cli, chat


def title_line(card: str) -> str:
    return card.splitlines()[0]


def test_a_merged_pr_in_the_store_is_the_same_card(env: dict[str, str]) -> None:
    first = vllm_bot(env, "pr", str(MERGED))  # fetched once, and stored
    assert first.returncode == 0, first.stderr
    cli, chat = both_cards(offline(env), MERGED)  # a merged PR needs no GitHub
    assert cli.returncode == chat.returncode == 0, cli.stderr + chat.stderr
    assert cli.stdout == chat.stdout
    assert title_line(cli.stdout).startswith(f"#{MERGED} ")
    for field in ("Modules", "Kind", "Score", "Flags", "Merged"):
        assert field in cli.stdout


def test_a_stale_open_pr_is_fetched_again_by_both(env: dict[str, str], github: FakeGitHub) -> None:
    assert vllm_bot(env, "pr", str(OPEN_STALE)).returncode == 0  # now stored, soon stale
    github.touch(REPO, OPEN_STALE, title="[Model] Add a new model, ready for review")
    cli, chat = both_cards(env, OPEN_STALE)
    assert cli.returncode == chat.returncode == 0, cli.stderr + chat.stderr
    assert cli.stdout == chat.stdout
    assert title_line(cli.stdout) == f"#{OPEN_STALE} [Model] Add a new model, ready for review"


def test_a_stale_open_pr_with_github_down_is_the_stored_card_on_both(
    env: dict[str, str], github: FakeGitHub
) -> None:
    assert vllm_bot(env, "pr", str(OPEN_DOWN)).returncode == 0
    github.touch(REPO, OPEN_DOWN, title="[Model] A title the store has not seen")
    cli, chat = both_cards(offline(env), OPEN_DOWN)
    assert cli.returncode == chat.returncode == 0, cli.stderr + chat.stderr
    assert cli.stdout == chat.stdout
    assert title_line(cli.stdout) == f"#{OPEN_DOWN} [WIP] Add a new model"
    for run in (cli, chat):
        assert f"showing stored {REPO}#{OPEN_DOWN}: GitHub failed" in run.stderr


def test_a_pr_not_stored_with_github_down_is_the_same_offline_error(env: dict[str, str]) -> None:
    assert vllm_bot(env, "pr", str(MERGED)).returncode == 0  # the store holds one PR
    cli, chat = both_cards(offline(env), MERGED + 1)
    assert cli.returncode == chat.returncode == 1
    assert cli.stdout == chat.stdout == ""
    for run in (cli, chat):
        assert f"#{MERGED + 1} of {REPO} is not in the store" in run.stderr
    assert "the store holds 1 PR of" in chat.stderr  # what it holds instead


# ---------------------------------------------------------------------------- digest


def prs_listed(text: str) -> list[int]:
    """The PR numbers a digest names, in order, each once: its content, whatever the
    rendering (Markdown on the CLI, the Document's plain text on the chat)."""
    return list(dict.fromkeys(int(n) for n in re.findall(r"#(\d{5})\b", text)))


def synced(env: dict[str, str]) -> dict[str, str]:
    for week in ("2026-W22", "2026-W23"):
        done = vllm_bot(env, "sync", "--week", week)
        assert done.returncode == 0, done.stderr
    return offline(env)


def test_the_offline_digest_is_the_same_on_both(env: dict[str, str]) -> None:
    down = synced(env)
    cli = vllm_bot(down, "digest", "--week", "2026-W23", "--no-sync")
    chat = vllm_bot(down, "chat", "/vllm digest 2026-W23")
    assert cli.returncode == chat.returncode == 0, cli.stderr + chat.stderr
    assert prs_listed(cli.stdout) == prs_listed(chat.stdout) != []
    assert title_line(cli.stdout).lstrip("# ") == title_line(chat.stdout).lstrip("# ")
    assert "weekly digest, 2026 week 23" in title_line(chat.stdout)


def test_the_offline_module_digest_is_the_same_on_both(env: dict[str, str]) -> None:
    down = synced(env)
    cli = vllm_bot(down, "digest", "--week", "2026-W23", "--no-sync", "--module", "rocm")
    chat = vllm_bot(down, "chat", "/vllm digest rocm 2026-W23")
    assert cli.returncode == chat.returncode == 0, cli.stderr + chat.stderr
    listed = prs_listed(chat.stdout)
    assert prs_listed(cli.stdout) == listed
    assert set(listed) >= {31_000, 31_001}


def test_an_unknown_module_is_the_same_reason_on_both(env: dict[str, str]) -> None:
    cli = vllm_bot(env, "digest", "--week", "2026-W23", "--no-sync", "--module", "rcom")
    chat = vllm_bot(env, "chat", "/vllm digest rcom 2026-W23")
    assert cli.returncode == chat.returncode == 2
    reason = "unknown module 'rcom'; did you mean 'rocm'?"
    assert reason in cli.stderr and reason in chat.stderr


def test_the_organisation_digest_without_one_configured_is_the_catalogue_error(
    env: dict[str, str],
) -> None:
    chat = vllm_bot(env, "chat", "/vllm digest org 2026-W23")
    assert chat.returncode == 2
    assert chat.stderr == f"error: {message('en', 'error.no_org')}\n"
