"""Socket Mode: the real bolt AsyncSocketModeHandler against the fake's WebSocket endpoint."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.commands import Context
from bot.slack.app import SlackBot
from bot.slack.poster import SlackPoster, slack_client
from bot.slack.socket import SlackSocketMode
from formatters.slack import render_slack
from tests.commands.fakes import REPO, bench_context, make_pr
from tests.fakes.backend import Bench
from tests.fakes.slack import FakeSlack


async def test_slash_command_over_socket_mode(
    fake_slack: FakeSlack, bench: Bench, poster: SlackPoster
) -> None:
    await bench.add(make_pr(42121), cached=True)
    await bench.add(make_pr(5), cached=False)

    def context_for(channel: str | None, user: str | None) -> Context:
        return replace(bench_context(bench), channel=channel, user=user)

    # No signing secret: Socket Mode requests are not signed.
    bot = SlackBot(
        client=slack_client(fake_slack.token, fake_slack.api_url),
        context_for=context_for,
        store=bench.store.deliveries,
        poster=poster,
        render=render_slack,
    )
    runner = SlackSocketMode(bot, fake_slack.app_token)
    await runner.start()
    try:
        await asyncio.wait_for(fake_slack.socket_connected.wait(), 5)
        assert runner.is_connected()

        def command(text: str, key: str) -> dict:
            return {
                "team_id": "T1",
                "channel_id": "C1",
                "user_id": "U1",
                "command": "/vllm",
                "text": text,
                "api_app_id": "A1",
                "response_url": fake_slack.response_url(key),
                "trigger_id": "1.2.3",
            }

        ack = await fake_slack.socket_request("slash_commands", command("pr 42121", "r1"))
        assert ack["payload"] == {"response_type": "ephemeral", "text": "looking up #42121…"}
        await bot.drain()
        [(key, card)] = fake_slack.responses
        assert key == "r1" and card["text"].startswith("PR #42121: ")
        fake_slack.responses.clear()

        ack = await fake_slack.socket_request("slash_commands", command("pr 5", "r2"))
        assert ack["payload"] == {"response_type": "ephemeral", "text": "looking up #5…"}
        await bot.drain()
        [(key, card)] = fake_slack.responses
        assert key == "r2" and card["text"].startswith("PR #5: ")
        assert bench.fetches() == [(REPO, 5)]
    finally:
        await runner.close()
    assert not runner.is_connected()
