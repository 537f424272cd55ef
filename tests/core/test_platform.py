"""The Platform interface: the App's registry, channel checks and the terminal platform."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import App, chat_platforms
from bot.core.config import Environment, load_config
from bot.core.document import Document, Paragraph, Section, Text
from bot.core.errors import UsageError
from bot.core.validators import CHANNEL_FORMATS, CHAT_PLATFORMS
from bot.delivery import Attachment
from bot.platform import Platform, Platforms, check_channel, target_name
from bot.posting import post_document
from bot.store import Store
from bot.terminal import TerminalPlatform


def document() -> Document:
    return Document(
        id="digest:vllm-project/vllm:2026-W23:en",
        title="vLLM weekly digest",
        context="2026-W23",
        sections=(Section(id="summary", title="Summary", blocks=(Paragraph((Text("hi"),)),)),),
        fallback="vLLM weekly digest",
    )


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    config_file = tmp_path / "bot.toml"
    config_file.write_text(
        '[[digest.targets]]\nplatform = "discord"\nchannel = "hook1"\n'
        'webhook_url_env = "VLLM_BOT_TEST_HOOK"\ncron = "0 9 * * MON"\n'
    )
    env = Environment()
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    app = App(config=load_config(config_file, env), env=env, store=store)
    try:
        yield app
    finally:
        await app.close()


async def test_the_registry_builds_a_platform_only_when_asked(app: App) -> None:
    registry = app.platforms
    assert list(registry) == ["slack", "discord", "terminal"]
    assert registry.chat_names() == ["slack", "discord"]
    assert registry.built == {}  # naming the platforms built none of them
    slack = registry["slack"]
    assert isinstance(slack, Platform) and slack.name == "slack"
    assert registry["slack"] is slack  # one per process
    assert list(registry.built) == ["slack"]
    # Building the Slack platform built no client: posting would, and needs the token.
    assert app._slack_poster is None
    assert "SLACK_BOT_TOKEN" in (slack.available() or "")


async def test_every_platform_implements_the_interface(app: App) -> None:
    for name in app.platforms:
        platform = app.platforms[name]
        assert isinstance(platform, Platform) and platform.name == name


async def test_an_unknown_platform_is_one_line(app: App) -> None:
    with pytest.raises(UsageError) as raised:
        app.platforms.parse_target("irc:#vllm")
    assert str(raised.value) == (
        "bad --post 'irc:#vllm': expected slack:CHANNEL or discord:CHANNEL"
    )
    for bad in ("slack", "slack:", ":C1", "terminal:-"):
        with pytest.raises(UsageError, match="expected slack:CHANNEL or discord:CHANNEL"):
            app.platforms.parse_target(bad)
    with pytest.raises(UsageError, match="unknown platform 'irc': accepted slack, discord"):
        app.platforms.get_platform("irc")


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("discord:general", "bad Discord channel 'general': Discord ids are numbers"),
        ("discord:12ab", "bad Discord channel '12ab': Discord ids are numbers"),
        ("slack:general", "bad Slack channel 'general': expected a channel id like C0123456"),
    ],
)
async def test_a_bad_channel_is_one_clear_line(app: App, target: str, problem: str) -> None:
    with pytest.raises(UsageError) as raised:
        app.platforms.parse_target(target)
    assert str(raised.value).startswith(problem)
    assert "\n" not in str(raised.value)


async def test_good_channels_are_accepted(app: App) -> None:
    slack, channel = app.platforms.parse_target("slack:C0123456")
    assert (slack.name, channel) == ("slack", "C0123456")
    discord, channel = app.platforms.parse_target("discord:1234567890123456789")
    assert (discord.name, channel) == ("discord", "1234567890123456789")
    # A webhook target is named freely in the config: its URL says where it posts.
    discord, channel = app.platforms.parse_target("discord:hook1")
    assert channel == "hook1" and not discord.attaches("hook1")
    assert discord.attaches("1234567890123456789")
    assert target_name("slack", "C1") == "slack:C1"


async def test_the_terminal_prints_a_document_and_a_message(app: App) -> None:
    out = io.StringIO()
    terminal = TerminalPlatform(out)
    assert check_channel(terminal, "-") == "-"
    with pytest.raises(UsageError, match="the terminal has one channel, '-'"):
        check_channel(terminal, "C1")
    chart = Attachment(b"png", "chart.png", "Trends", "merged PRs per week: 3, 5")
    result = await post_document(app.store.deliveries, terminal, document(), "-", attachment=chart)
    printed = out.getvalue()
    assert "vLLM weekly digest" in printed and "hi" in printed
    assert "[chart.png] merged PRs per week: 3, 5" in printed
    assert result.complete and result.sent == [0, 1] and result.platform == "terminal"
    # A terminal keeps no history: the ledger is untouched and a second post prints again.
    assert await app.store.deliveries.sent(document().id, "terminal", "-") == {}
    await post_document(app.store.deliveries, terminal, document(), "-")
    assert out.getvalue().count("vLLM weekly digest") >= 2
    await terminal.post_message("-", "one line")
    assert out.getvalue().endswith("one line\n")


async def test_registering_replaces_a_platform_before_first_use() -> None:
    registry = Platforms()
    registry.register("terminal", TerminalPlatform)
    registry.register("terminal", lambda: TerminalPlatform(io.StringIO()))
    assert isinstance(registry["terminal"], TerminalPlatform)
    assert registry.get("nope") is None
    await registry.close()
    assert registry.built == {}


async def test_each_chat_platform_is_named_once_across_registry_classes_and_formats(
    app: App,
) -> None:
    # serve, doctor and /readyz iterate the platform classes; the config and the commands
    # read the channel formats: all must list the platforms the registry posts to, in order.
    assert app.platforms.chat_names() == [p.name for p in chat_platforms()]
    assert list(CHANNEL_FORMATS) == list(CHAT_PLATFORMS) == app.platforms.chat_names()
