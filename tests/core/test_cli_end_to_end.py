"""The CLI run the way a user runs it (a subprocess), against the local fake GitHub."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.cli import github_env, vllm_bot
from tests.fakes.background import BackgroundFake
from tests.fakes.discord import FakeDiscord
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs, open_and_closed
from tests.fakes.slack import FakeSlack

REPO = "vllm-project/vllm"
W23 = (datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC))
W22 = (datetime(2026, 5, 25, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC))


@pytest.fixture(scope="module")
def github() -> Iterator[FakeGitHub]:
    prs = (
        make_prs(40, *W23, seed=3, first_number=30000, big={5: 130})
        + make_prs(25, *W22, seed=4, first_number=29000)
        + open_and_closed(W23[0])
    )
    with BackgroundFake(FakeGitHub({REPO: prs})) as fake:
        yield fake


@pytest.fixture
def env(github: FakeGitHub, tmp_path: Path) -> dict[str, str]:
    return github_env(github, tmp_path / "cli.sqlite3")


def test_sync_then_warm_sync_costs_no_request(env: dict[str, str]) -> None:
    first = vllm_bot(env, "sync", "--week", "2026-W23")
    assert first.returncode == 0, first.stderr
    assert f"{REPO} 2026-W23: 40 PRs stored (fetched)" in first.stdout
    second = vllm_bot(env, "sync", "--week", "2026-W23")
    assert second.returncode == 0, second.stderr
    assert "40 PRs stored (fresh in the store, no request sent); 0 requests" in second.stdout


def test_pr_json_has_contract_keys_and_all_files(env: dict[str, str]) -> None:
    result = vllm_bot(env, "pr", "30005", "--format", "json")
    assert result.returncode == 0, result.stderr
    card = json.loads(result.stdout)
    contract = {
        "repo", "number", "title", "url", "author", "state", "created_at", "merged_at",
        "additions", "deletions", "changed_files", "labels", "files", "modules", "kind",
        "flags", "score", "score_reasons", "claims",
    }  # fmt: skip
    assert contract <= set(card)
    assert card["number"] == 30005 and card["state"] == "merged"
    assert len(card["files"]) == card["changed_files"] == 130
    assert card["modules"], "every PR gets at least one module"
    assert 0 <= card["score"] <= 10


def test_pr_in_any_state_and_explain(env: dict[str, str]) -> None:
    opened = vllm_bot(env, "pr", "90000", "--format", "json")
    assert opened.returncode == 0, opened.stderr
    assert json.loads(opened.stdout)["state"] == "open"
    explained = vllm_bot(env, "explain", "30001")
    assert explained.returncode == 0, explained.stderr
    assert "modules:" in explained.stdout and "score:" in explained.stdout


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("pr", "999999"), 2, "PR #999999 not found in vllm-project/vllm"),
        (("pr", "0"), 2, "bad PR number '0'"),
        (("sync", "--week", "2099-W01"), 2, "is in the future"),
        (("sync", "--week", "soon"), 2, "expected an ISO week"),
        (("sync", "--repo", "nope"), 2, "expected OWNER/NAME"),
        (("digest", "--post", "irc:#vllm"), 2, "expected slack:CHANNEL or discord:CHANNEL"),
        (("pr", "abc"), 2, "bad PR number 'abc'"),
        (("digest", "--format", "pdf"), 2, "'pdf' is not one of"),
        (("nosuchcmd",), 2, "No such command 'nosuchcmd'"),
        (("pr", "30001", "--repo", "nope/nope"), 2, "nope/nope not found"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    env: dict[str, str], args: tuple[str, ...], code: int, message: str
) -> None:
    result = vllm_bot(env, *args)
    assert result.returncode == code, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr  # exactly one line
    assert result.stderr.startswith("error:") and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_bad_token_is_a_runtime_failure_with_a_fix(env: dict[str, str]) -> None:
    env["GITHUB_TOKEN"] = "ghp_wrong"
    result = vllm_bot(env, "sync", "--week", "2026-W22")
    assert result.returncode == 1
    assert "401" in result.stderr or "token" in result.stderr.lower()
    assert "ghp_wrong" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_unreachable_github_says_so(env: dict[str, str]) -> None:
    env["GITHUB_GRAPHQL_URL"] = "http://127.0.0.1:9/graphql"
    env["VLLM_BOT_CONFIG"] = str(Path(env["DATABASE_URL"].rsplit("/", 1)[0][20:]) / "c.toml")
    Path(env["VLLM_BOT_CONFIG"]).write_text("[github]\nmax_retries = 0\n", encoding="utf-8")
    result = vllm_bot(env, "sync", "--week", "2026-W22")
    assert result.returncode == 1
    assert "unavailable" in result.stderr.lower() or "cannot reach" in result.stderr.lower()


def test_bad_config_exits_2_naming_file_and_key(env: dict[str, str], tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text('[digest]\nkey_prs = "all"\n', encoding="utf-8")
    result = vllm_bot(env, "--config", str(config), "sync", "--week", "2026-W22")
    assert result.returncode == 2
    assert str(config) in result.stderr and "digest.key_prs" in result.stderr


def test_digest_prints_every_format_in_both_languages(env: dict[str, str], tmp_path: Path) -> None:
    as_json = vllm_bot(env, "digest", "--week", "2026-W23", "--format", "json")
    assert as_json.returncode == 0, as_json.stderr
    digest = json.loads(as_json.stdout)
    assert digest["week"] == "2026-W23" and digest["totals"]["merged"] == 40
    assert sum(k["count"] for k in digest["kinds"]) == 40
    chinese = vllm_bot(env, "digest", "--week", "2026-W23", "--lang", "zh")
    assert chinese.returncode == 0, chinese.stderr
    assert "周报" in chinese.stdout or "本周" in chinese.stdout
    page = tmp_path / "w23.html"
    html = vllm_bot(env, "digest", "--week", "2026-W23", "--format", "html", "--out", str(page))
    assert html.returncode == 0, html.stderr
    assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html>")
    for fmt in ("slack", "discord"):
        payloads = vllm_bot(env, "digest", "--week", "2026-W23", "--format", fmt)
        assert payloads.returncode == 0, payloads.stderr
        assert isinstance(json.loads(payloads.stdout), list)


def test_digest_posts_to_slack_and_discord_once(env: dict[str, str]) -> None:
    slack, discord_fake = FakeSlack(), FakeDiscord()
    with BackgroundFake(slack), BackgroundFake(discord_fake):
        channel = discord_fake.add_channel()
        env.update(
            SLACK_BOT_TOKEN=slack.token,
            SLACK_API_URL=slack.api_url,
            DISCORD_BOT_TOKEN=discord_fake.token,
            DISCORD_API_URL=discord_fake.api_url,
        )
        args = ("digest", "--week", "2026-W23", "--post", "slack:C1")
        first = vllm_bot(env, *args, "--post", f"discord:{channel.id}")
        assert first.returncode == 0, first.stderr
        posted = slack.channel_messages("C1")
        assert len(posted) >= 2
        root = posted[0]
        assert root.thread_ts is None
        assert all(m.thread_ts == root.ts for m in posted[1:])
        on_discord = discord_fake.channel_messages(channel.id)
        assert len(on_discord) == 1 and discord_fake.thread_from(on_discord[0].id) is not None
        again = vllm_bot(env, *args, "--post", f"discord:{channel.id}")
        assert again.returncode == 0, again.stderr
        assert len(slack.channel_messages("C1")) == len(posted)
        assert len(discord_fake.channel_messages(channel.id)) == 1
        missing = vllm_bot(env, "digest", "--week", "2026-W23", "--post", "slack:CNOPE")
        assert missing.returncode == 1
        assert "CNOPE" in missing.stderr and "Traceback" not in missing.stderr
        # One bad target does not stop the others; each failure is named.
        both = vllm_bot(
            env, "digest", "--week", "2026-W23", "--post", "slack:CNOPE", "--post", "slack:C2"
        )
        assert both.returncode == 1
        assert "slack:CNOPE: not posted" in both.stderr and "1 of 2 targets" in both.stderr
        assert len(slack.channel_messages("C2")) == len(posted)


def test_sync_weeks_brings_history_once_and_themes_explain_it(env: dict[str, str]) -> None:
    first = vllm_bot(env, "sync", "--week", "2026-W23", "--weeks", "3")
    assert first.returncode == 0, first.stderr
    assert f"{REPO} history: 3 weeks before 2026-W23, 3 synced now" in first.stdout
    # Complete history weeks in the store cost nothing the second time.
    again = vllm_bot(env, "sync", "--week", "2026-W23", "--weeks", "3")
    assert again.returncode == 0, again.stderr
    assert "0 synced now, 3 already in the store" in again.stdout

    shown = vllm_bot(env, "themes", "--week", "2026-W23", "--no-sync", "--format", "json")
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["history_weeks"] >= 1 and data["merged"] == 40
    members = [m["number"] for t in data["themes"] for m in t["members"]]
    assert len(members) == len(set(members))
    for theme in data["themes"]:
        assert theme["terms"] and all(m["why"] for m in theme["members"])
    text = vllm_bot(env, "themes", "--week", "2026-W23", "--no-sync")
    assert text.returncode == 0, text.stderr
    assert "earlier weeks in the store" in text.stdout
    if data["themes"]:
        number = data["themes"][0]["members"][0]["number"]
        explained = vllm_bot(env, "explain", str(number), "--format", "json")
        assert explained.returncode == 0, explained.stderr
        assert json.loads(explained.stdout)["theme"]["id"] == data["themes"][0]["id"]
