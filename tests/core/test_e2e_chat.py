"""`vllm-bot chat "/vllm …"` run as a user runs it (a subprocess, the real CLI, App and
backend) against the local fake GitHub: the same command layer Slack and Discord use."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.cli import github_env, vllm_bot
from tests.fakes.background import BackgroundFake
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import FakeFile, FakePR, make_prs

REPO = "vllm-project/vllm"
W23 = (datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC))
ROCM = [31_000, 31_001]


def rocm_prs() -> list[FakePR]:
    prs = []
    for i, number in enumerate(ROCM):
        merged = W23[0] + timedelta(days=i + 1)
        prs.append(
            FakePR(
                number=number,
                title=f"[ROCm] Enable AITER fused MoE on MI300 part {i + 1}",
                author="rocm-dev",
                created_at=merged - timedelta(days=3),
                updated_at=merged,
                merged_at=merged,
                closed_at=merged,
                labels=["rocm"],
                files=[FakeFile("vllm/platforms/rocm.py", 25, 4)],
            )
        )
    return prs


@pytest.fixture(scope="module")
def github() -> Iterator[FakeGitHub]:
    prs = make_prs(20, *W23, seed=7, first_number=30_000) + rocm_prs()
    with BackgroundFake(FakeGitHub({REPO: prs})) as fake:
        yield fake


@pytest.fixture(scope="module")
def env(github: FakeGitHub, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    # One store for the module: `subscriptions` reads what `subscribe` wrote.
    return github_env(github, tmp_path_factory.mktemp("chat") / "chat.sqlite3", clean=True)


def chat(env: dict[str, str], text: str, *options: str) -> subprocess.CompletedProcess[str]:
    return vllm_bot(env, "chat", text, *options)


def test_chat_pr_answers_the_card_from_github(env: dict[str, str], github: FakeGitHub) -> None:
    result = chat(env, "/vllm pr 30004")
    assert result.returncode == 0, result.stderr
    title = next(p.title for p in github.repos[REPO] if p.number == 30004)
    assert "30004" in result.stdout and title in result.stdout
    assert "Traceback" not in result.stderr


def test_chat_module_digest_lists_that_modules_prs(env: dict[str, str]) -> None:
    result = chat(env, "/vllm digest rocm 2026-W23")
    assert result.returncode == 0, result.stderr
    assert "ROCm" in result.stdout
    assert all(str(number) in result.stdout for number in ROCM), result.stdout


def test_chat_subscribe_then_subscriptions_for_a_slack_channel(env: dict[str, str]) -> None:
    subscribed = chat(env, "/vllm subscribe rocm min:5", "--channel", "slack:C0123")
    assert subscribed.returncode == 0, subscribed.stderr
    assert "rocm" in subscribed.stdout.lower()
    listed = chat(env, "/vllm subscriptions", "--channel", "slack:C0123")
    assert listed.returncode == 0, listed.stderr
    assert "rocm" in listed.stdout.lower() and "5" in listed.stdout
    # Another channel's list is its own.
    other = chat(env, "/vllm subscriptions", "--channel", "slack:C0999")
    assert other.returncode == 0, other.stderr
    assert "no subscriptions" in other.stdout and "min:5" not in other.stdout


def test_chat_version_names_bot_rules_and_schema(env: dict[str, str]) -> None:
    result = chat(env, "/vllm version")
    assert result.returncode == 0, result.stderr
    migrations = Path(__file__).resolve().parents[2] / "bot" / "store" / "migrations" / "versions"
    head = max(p.name.split("_", 1)[0] for p in migrations.glob("[0-9]*_*.py"))
    assert re.search(r"vllm-bot \d+\.\d+\.\d+", result.stdout), result.stdout
    assert "rule set vllm" in result.stdout and f"schema {head}" in result.stdout


def test_chat_bad_input_is_one_line_and_exit_2(env: dict[str, str]) -> None:
    result = chat(env, "/vllm pr abc")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
