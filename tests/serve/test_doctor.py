"""`vllm-bot doctor` against local fakes of Slack, Discord and GitHub."""

from __future__ import annotations

import io

from rich.console import Console

from bot.core.config import Environment
from bot.doctor import run_doctor
from tests.serve.conftest import FakeServices, make_config
from tests.serve.fakes import DISCORD_TOKEN, GITHUB_TOKEN, SLACK_APP_TOKEN, SLACK_TOKEN, FakeAPIs

TARGETS = [
    {"platform": "slack", "channel": "C0123", "cron": "0 9 * * MON"},
    {"platform": "discord", "channel": "111111111111111111", "cron": "0 9 * * 1"},
]
ALL_TOKENS = {
    "slack_bot_token": SLACK_TOKEN,
    "slack_app_token": SLACK_APP_TOKEN,
    "discord_bot_token": DISCORD_TOKEN,
    "github_token": GITHUB_TOKEN,
}


async def doctor(services: FakeServices) -> tuple[int, str]:
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, highlight=False, color_system=None)
    code = await run_doctor(services, console)
    return code, buffer.getvalue()


async def test_everything_fine(store, fake_apis: FakeAPIs) -> None:
    services = FakeServices(
        make_config(digest={"targets": TARGETS}), store, Environment(**ALL_TOKENS)
    )
    code, out = await doctor(services)
    assert code == 0, out
    assert "✗" not in out
    for line in (
        "✓ config: 1 repo(s), 2 digest target(s)",
        "✓ timezone: Europe/Berlin",
        "✓ database writable: sqlite accepts writes",
        "✓ github token: authenticated as octocat; rate limit 4999/5000",
        "✓ slack token: bot vllm-bot in workspace vLLM",
        "✓ slack app token: accepted for Socket Mode",
        "✓ slack channel C0123: #vllm, bot is a member",
        "✓ discord token: bot vllm-bot (id 42)",
        "✓ discord channel 111111111111111111: #vllm-digest visible to the bot",
        "all checks passed",
    ):
        assert line in out, out
    assert "✓ target slack:C0123 schedule: '0 9 * * MON': next run" in out
    # Nothing was posted: only read-only calls.
    assert all(
        c.split()[1] in {"auth.test", "apps.connections.open", "conversations.info"}
        for c in fake_apis.calls
        if c.startswith("slack")
    )
    # And the written probe row was rolled back.
    assert await store.http_cache.get("doctor://write-probe") is None


async def test_each_problem_is_reported_with_a_fix(store, fake_apis: FakeAPIs) -> None:
    # Private: a public channel would be fine without the bot (chat:write.public).
    fake_apis.slack_channels["C0123"].update(is_member=False, is_private=True)
    fake_apis.forbidden_discord_channels.add("111111111111111111")
    targets = [*TARGETS, {"platform": "discord", "channel": "999999999999999999"}]
    env = ALL_TOKENS | {"github_token": "ghp_wrong", "slack_app_token": "xapp-wrong"}
    services = FakeServices(make_config(digest={"targets": targets}), store, Environment(**env))
    code, out = await doctor(services)
    assert code == 1
    assert "✗ github token: GitHub rejected GITHUB_TOKEN (401)" in out
    assert "✗ slack app token: apps.connections.open: invalid_auth" in out
    assert "✗ slack channel C0123: #vllm is private and the bot is not a member" in out
    assert "fix: invite the bot: type /invite @<bot name> in #vllm" in out
    assert (
        "✗ discord channel 111111111111111111: GET /channels/111111111111111111 answered 403" in out
    )
    assert (
        "✗ discord channel 999999999999999999: GET /channels/999999999999999999 answered 404" in out
    )
    assert "fix: no such channel" in out
    assert "5 check(s) failed" in out
    # Secrets never appear in the report.
    assert SLACK_TOKEN not in out and DISCORD_TOKEN not in out and "ghp_wrong" not in out


async def test_bad_slack_token_and_missing_tokens(store, fake_apis: FakeAPIs) -> None:
    services = FakeServices(
        make_config(digest={"targets": TARGETS}),
        store,
        Environment(slack_bot_token="xoxb-wrong", github_token=GITHUB_TOKEN),
    )
    code, out = await doctor(services)
    assert code == 1
    assert "✗ slack token: auth.test: invalid_auth" in out
    assert "fix: SLACK_BOT_TOKEN is not valid" in out
    assert "✗ tokens: SLACK_APP_TOKEN (xapp-…) is not set" in out
    assert "✗ tokens: DISCORD_BOT_TOKEN is not set but digest targets post to Discord" in out
    # Each problem once (issue 14): the token check already named DISCORD_BOT_TOKEN.
    assert sum("DISCORD_BOT_TOKEN is not set" in line for line in out.splitlines()) == 1
    assert "slack channel" not in out  # not probed with a rejected token


async def test_nothing_configured_but_github_unreachable(store) -> None:
    # conftest points GitHub at a closed port.
    services = FakeServices(make_config(), store, Environment())
    code, out = await doctor(services)
    assert code == 1
    assert "✗ github token: cannot reach 127.0.0.1" in out
    assert "! platforms: none configured: webhooks and CLI only" in out


async def test_no_github_token_is_a_warning_not_a_failure(store, fake_apis: FakeAPIs) -> None:
    services = FakeServices(make_config(), store, Environment())
    code, out = await doctor(services)
    assert code == 0, out
    assert "! github token: GITHUB_TOKEN not set: REST only, 60 requests/hour (4999 left)" in out
    assert "fix: create a token" in out


async def test_unwritable_database_fails(tmp_path, fake_apis: FakeAPIs) -> None:
    from bot.store import Store

    path = tmp_path / "ro.sqlite3"
    writable = await Store.open(f"sqlite+aiosqlite:///{path}")
    await writable.close()
    # Read-only at the SQLite level (file permissions do not stop root, who runs CI here).
    readonly = await Store.open(f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true", migrate=False)
    try:
        services = FakeServices(make_config(), readonly, Environment(github_token=GITHUB_TOKEN))
        code, out = await doctor(services)
    finally:
        await readonly.close()
    assert code == 1
    assert "✗ database writable:" in out and "readonly" in out


async def test_github_checks_pass_against_the_projects_own_github_fake(store) -> None:
    # tests/fakes/github.py validates queries against GitHub's schema: /readyz's
    # GET /rate_limit and doctor's GraphQL `viewer { login }` must work there too.
    from bot.probes import github_reachable
    from tests.fakes.github import FakeGitHub

    async with FakeGitHub() as github:
        env = Environment(
            github_token=github.token,
            github_api_url=github.api_url,
            github_graphql_url=github.graphql_url,
        )
        code, out = await doctor(FakeServices(make_config(), store, env))
        reachable, remaining = await github_reachable(env)
    assert code == 0, out
    assert "✓ github token: authenticated as vllm-bot; rate limit 4999/5000" in out, out
    assert reachable.ok and remaining == 5000


async def test_github_at_a_wrong_url_says_which_variable_to_fix(store, fake_apis) -> None:
    env = Environment(
        github_token=GITHUB_TOKEN, github_graphql_url=f"{fake_apis.base}/github/nowhere"
    )
    code, out = await doctor(FakeServices(make_config(), store, env))
    assert code == 1
    assert "✗ github token: GitHub GraphQL at " in out and "answered 404" in out, out
    assert "    fix: check GITHUB_GRAPHQL_URL: https://api.github.com/graphql" in out


async def test_public_channel_without_the_bot_is_fine_with_chat_write_public(
    store, fake_apis: FakeAPIs
) -> None:
    fake_apis.slack_channels["C0123"]["is_member"] = False
    fake_apis.slack_channels["G0456"] = {
        "id": "G0456",
        "name": "secret",
        "is_member": False,
        "is_private": True,
    }
    targets = [
        {"platform": "slack", "channel": "C0123", "cron": "0 9 * * MON"},
        {"platform": "slack", "channel": "G0456", "cron": "0 9 * * MON"},
    ]
    tokens = {"slack_bot_token": SLACK_TOKEN, "slack_app_token": SLACK_APP_TOKEN}
    services = FakeServices(make_config(digest={"targets": targets}), store, Environment(**tokens))
    _, out = await doctor(services)
    assert "✓ slack channel C0123: #vllm, bot is not a member: it posts with the" in out, out
    assert "✗ slack channel G0456: #secret is private and the bot is not a member" in out, out


async def test_unset_webhook_variable_is_one_failed_check(store, fake_apis, monkeypatch) -> None:
    # doctor runs every check; a webhook target whose variable is unset must not abort it.
    monkeypatch.delenv("VLLM_BOT_TEST_DOCTOR_HOOK_UNSET", raising=False)
    hooked = {
        "platform": "discord",
        "channel": "hook1",
        "webhook_url_env": "VLLM_BOT_TEST_DOCTOR_HOOK_UNSET",
    }
    services = FakeServices(
        make_config(digest={"targets": [hooked]}), store, Environment(**ALL_TOKENS)
    )
    code, out = await doctor(services)
    assert code == 1
    assert "✗ discord webhook hook1: " in out and "VLLM_BOT_TEST_DOCTOR_HOOK_UNSET" in out
    assert "✓ github token" in out  # the later checks still ran
