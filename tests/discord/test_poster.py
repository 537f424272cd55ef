"""Posting a digest with the real discord.py against the fake Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import pytest
from discord.http import HTTPClient, Route

from bot.core.config import Environment, load_config
from bot.core.document import BulletList, Document, Paragraph, Section, Text
from bot.core.errors import ConfigError
from bot.discord.endpoints import DiscordEndpoints, override_endpoints
from bot.discord.poster import (
    ALLOWED_MENTIONS,
    DiscordPoster,
    DiscordPostError,
    DiscordWebhookPoster,
    _logged_in_http,
    parse_webhook_url,
)
from bot.store import Store
from formatters.discord import discord_thread_name, render_discord
from tests.commands.fakes import digest_document
from tests.fakes.discord import FORUM, BucketSpec, FakeDiscord

MESSAGES = "POST /channels/{channel_id}/messages"
THREADS = "POST /channels/{channel_id}/messages/{message_id}/threads"
WEBHOOK = "POST /webhooks/{webhook_id}/{token}"


def hostile_digest() -> Document:
    """A digest whose text tries to ping everyone; allowed_mentions must keep it silent."""
    doc = digest_document("2026-W23")
    pings = Section(
        "pings",
        "Mentions",
        (Paragraph((Text("@everyone @here <@123456789012345678> <@&876543210987654321>"),)),),
    )
    return Document(
        id=doc.id,
        title=doc.title,
        context=doc.context,
        sections=(pings, *doc.sections),
        fallback=doc.fallback,
    )


async def post(
    http: HTTPClient, store: Store, doc: Document, channel: int | str, **kw: object
) -> object:
    return await DiscordPoster(http).post_document(
        store.deliveries,
        document_id=doc.id,
        channel=str(channel),
        payloads=render_discord(doc),
        thread_name=discord_thread_name(doc),
        **kw,  # type: ignore[arg-type]
    )


def assert_threaded(fake: FakeDiscord, channel: int, payloads: list[dict]) -> None:
    """Summary alone in the channel, every other part once, in order, in its thread."""
    in_channel = fake.channel_messages(channel)
    assert [m.body for m in in_channel] == [payloads[0]]
    thread = fake.thread_from(in_channel[0].id)
    assert thread is not None and len(fake.threads) == 1
    in_thread = fake.channel_messages(thread.id)
    assert [m.body for m in in_thread] == payloads[1:]
    times = [m.received_at for m in [in_channel[0], *in_thread]]
    assert times == sorted(times)


async def test_digest_posts_completely_in_a_thread_within_limits(
    fake: FakeDiscord, http: HTTPClient, store: Store
) -> None:
    channel = fake.add_channel().id
    doc = hostile_digest()
    payloads = render_discord(doc)
    assert len(payloads) > 5  # more than one bucket's worth: the limits are exercised

    result = await post(http, store, doc, channel)

    assert result.sent == list(range(len(payloads)))  # type: ignore[attr-defined]
    assert_threaded(fake, channel, payloads)
    thread = fake.thread_from(fake.channel_messages(channel)[0].id)
    assert thread is not None and thread.name == discord_thread_name(doc)
    # The fake validated every body against Discord's limits; all were accepted.
    assert all(r.status == 200 for r in fake.requests_to(MESSAGES))
    assert all(body["allowed_mentions"] == {"parse": []} for body in fake.sent_bodies())


async def test_bucket_headers_are_obeyed_without_a_single_429(store: Store) -> None:
    # A tight bucket (2 messages per 0.3 s): posting 11 parts must wait, not collide.
    async with FakeDiscord(message_limit=BucketSpec(2, 0.3)) as fake:
        with override_endpoints(DiscordEndpoints(api_url=fake.api_url, gateway_url=None)):
            http = HTTPClient(asyncio.get_running_loop())
            await http.static_login(fake.token)
            try:
                channel = fake.add_channel().id
                doc = digest_document("2026-W23")
                await post(http, store, doc, channel)
            finally:
                await http.close()
        # The fake answers a request past the bucket with 429 and records a violation, so
        # none of either means the client waited whenever the bucket was empty (how long
        # it takes is for bench/, not a test).
        assert fake.violations == []
        assert not [r for r in fake.requests if r.status == 429]
        assert len(fake.requests_to(MESSAGES)) > 2 * 2  # enough parts to empty the bucket
        assert_threaded(fake, channel, render_discord(doc))


async def test_429_retry_after_is_honoured(
    fake: FakeDiscord, http: HTTPClient, store: Store
) -> None:
    channel = fake.add_channel().id
    fake.rate_limit(MESSAGES, retry_after=0.4)
    doc = digest_document("2026-W23")

    await post(http, store, doc, channel)

    attempts = fake.requests_to(MESSAGES)
    assert attempts[0].status == 429 and attempts[1].status == 200
    assert attempts[1].at - attempts[0].at >= 0.4 - 0.01
    assert_threaded(fake, channel, render_discord(doc))  # the retried summary posted once


async def test_global_429_holds_every_route(fake: FakeDiscord, http: HTTPClient) -> None:
    first, second = fake.add_channel().id, fake.add_channel().id
    fake.rate_limit(MESSAGES, retry_after=0.5, is_global=True)
    body = {"content": "hi", "allowed_mentions": ALLOWED_MENTIONS}

    def send(channel: int) -> asyncio.Task:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
        return asyncio.create_task(http.request(route, json=body))

    blocked = send(first)
    # Start the second request once discord.py has read the 429 and closed its global gate
    # (`HTTPClient._global_over`, an asyncio.Event every request waits on); earlier, it is
    # simply in flight at the same time, which no client can prevent.
    async with asyncio.timeout(5):
        # No event fires when a gate *closes*, hence the yield loop.
        while http._global_over.is_set():  # type: ignore[attr-defined]  # noqa: ASYNC110
            await asyncio.sleep(0)
    limited_at = next(r.at for r in fake.requests if r.status == 429)
    other = send(second)  # another channel: only the global limit can hold it back
    await asyncio.gather(blocked, other)

    other_request = next(r for r in fake.requests if r.path.endswith(f"/{second}/messages"))
    assert other_request.at - limited_at >= 0.5 - 0.01
    assert len(fake.messages) == 2


async def test_server_error_is_retried(fake: FakeDiscord, http: HTTPClient, store: Store) -> None:
    channel = fake.add_channel().id
    fake.fail(THREADS, status=502, message="502: Bad Gateway")
    doc = digest_document("2026-W23")

    await post(http, store, doc, channel)

    assert [r.status for r in fake.requests_to(THREADS)] == [502, 201]
    assert_threaded(fake, channel, render_discord(doc))


async def test_restart_resumes_at_the_first_part_not_sent(
    fake: FakeDiscord, http: HTTPClient, store: Store
) -> None:
    channel = fake.add_channel().id
    doc = digest_document("2026-W23")
    payloads = render_discord(doc)
    # The bot loses Send Messages in Threads after the summary and two details.
    fake.fail(MESSAGES, status=403, code=50013, message="Missing Permissions", after=3)

    with pytest.raises(DiscordPostError):
        await post(http, store, doc, channel)
    assert len(fake.messages) == 3
    assert sorted(await store.deliveries.sent(doc.id, "discord", str(channel))) == [0, 1, 2]

    fresh = DiscordPoster(http)  # a new process: nothing in memory, only the ledger
    result = await fresh.post_document(
        store.deliveries,
        document_id=doc.id,
        channel=str(channel),
        payloads=payloads,
        thread_name=discord_thread_name(doc),
    )

    assert result.skipped == [0, 1, 2]
    assert result.sent == list(range(3, len(payloads)))
    assert_threaded(fake, channel, payloads)
    # The resumed run found the existing thread (Discord answers 160004) instead of a new one.
    assert [r.status for r in fake.requests_to(THREADS)] == [201, 400]


async def test_crash_before_the_thread_resumes_without_a_second_summary(
    fake: FakeDiscord, http: HTTPClient, store: Store
) -> None:
    channel = fake.add_channel().id
    doc = digest_document("2026-W23")
    fake.fail(THREADS, status=403, code=50013, message="Missing Permissions")

    with pytest.raises(DiscordPostError, match="Create Public Threads"):
        await post(http, store, doc, channel)
    await post(http, store, doc, channel)

    assert_threaded(fake, channel, render_discord(doc))


async def test_rerun_posts_nothing(fake: FakeDiscord, http: HTTPClient, store: Store) -> None:
    channel = fake.add_channel().id
    doc = digest_document("2026-W23")
    await post(http, store, doc, channel)
    requests_before = len(fake.requests)

    again = await post(http, store, doc, channel)

    assert again.nothing_new  # type: ignore[attr-defined]
    assert len(fake.requests) == requests_before

    forced = await post(http, store, doc, channel, force=True)
    assert forced.sent == list(range(len(render_discord(doc))))  # type: ignore[attr-defined]
    assert len(fake.threads) == 2


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("unknown", ["10003", "Copy Channel ID"]),
        ("hidden", ["50001", "invite URL", "View Channel"]),
        ("read-only", ["50013", "Send Messages"]),
        ("bad-token", ["401", "DISCORD_BOT_TOKEN"]),
    ],
)
async def test_permanent_errors_name_the_channel_and_the_fix(
    fake: FakeDiscord, http: HTTPClient, store: Store, setup: str, expected: list[str]
) -> None:
    channel = 999_999_999_999_999_999
    if setup == "hidden":
        fake.add_channel(channel, visible=False)
    elif setup == "read-only":
        fake.add_channel(channel, can_send=False)
    elif setup == "bad-token":
        fake.add_channel(channel)
        fake.token = "a-rotated-token"  # the bot's token was reset in the portal

    with pytest.raises(DiscordPostError) as raised:
        await post(http, store, digest_document("2026-W23"), channel)

    message = str(raised.value)
    assert f"Discord channel {channel}" in message
    for words in expected:
        assert words in message
    assert "fake-bot-token" not in message
    # Permanent means permanent: exactly one attempt, no retries.
    assert len(fake.requests_to(MESSAGES)) == 1
    assert fake.messages == []


# ---------------------------------------------------------------------------- webhooks


async def webhook_post(
    url: str, store: Store, doc: Document, channel: str = "digest-hook"
) -> object:
    async with aiohttp.ClientSession() as session:
        return await DiscordWebhookPoster(url, session).post_document(
            store.deliveries,
            document_id=doc.id,
            channel=channel,
            payloads=render_discord(doc),
            thread_name=discord_thread_name(doc),
        )


def normalised(body: dict) -> dict:
    """A body without what discord.py's Webhook.send adds on the way (``tts: false``, embed
    ``flags: 0``) and without the forum post's thread name."""
    embeds = [{k: v for k, v in e.items() if k != "flags"} for e in body.get("embeds", [])]
    kept = {k: v for k, v in body.items() if k not in ("thread_name", "tts")}
    return kept | {"embeds": embeds}


async def test_webhook_target_posts_in_order(
    fake: FakeDiscord, endpoints: object, store: Store
) -> None:
    channel = fake.add_channel().id
    hook = fake.add_webhook(channel)
    doc = hostile_digest()
    payloads = render_discord(doc)

    await webhook_post(hook.url, store, doc)

    posted = fake.channel_messages(channel)
    # Webhooks cannot start a thread in a text channel: the details follow in the channel.
    assert [normalised(m.body) for m in posted] == [normalised(p) for p in payloads]
    assert {m.webhook_id for m in posted} == {hook.id}
    assert all(r.json["allowed_mentions"] == {"parse": []} for r in fake.requests_to(WEBHOOK))
    assert all("Authorization" not in r.path for r in fake.requests_to(WEBHOOK))

    again = await webhook_post(hook.url, store, doc)
    assert again.nothing_new  # type: ignore[attr-defined]
    assert len(fake.channel_messages(channel)) == len(payloads)


async def test_webhook_in_a_forum_opens_a_post_and_resumes_in_it(
    fake: FakeDiscord, endpoints: object, store: Store
) -> None:
    forum = fake.add_channel(type=FORUM).id
    hook = fake.add_webhook(forum)
    doc = digest_document("2026-W23")
    payloads = render_discord(doc)
    fake.fail(WEBHOOK, status=404, code=10015, message="Unknown Webhook", after=4)

    with pytest.raises(DiscordPostError, match="webhook_url"):
        await webhook_post(hook.url, store, doc)
    await webhook_post(hook.url, store, doc)

    (thread,) = fake.threads.values()
    assert thread.parent_id == forum and thread.name == discord_thread_name(doc)
    posted = fake.channel_messages(thread.id)
    assert [normalised(m.body) for m in posted] == [normalised(p) for p in payloads]
    assert posted[0].body["thread_name"] == discord_thread_name(doc)


async def test_webhook_url_with_thread_id_posts_in_that_thread(
    fake: FakeDiscord, http: HTTPClient, endpoints: object, store: Store
) -> None:
    channel = fake.add_channel().id
    hook = fake.add_webhook(channel)
    starter = await http.request(
        Route("POST", "/channels/{channel_id}/messages", channel_id=channel),
        json={"content": "digests", "allowed_mentions": ALLOWED_MENTIONS},
    )
    thread = await http.start_thread_with_message(
        channel, int(starter["id"]), name="digests", auto_archive_duration=10080
    )

    await webhook_post(f"{hook.url}?thread_id={thread['id']}", store, digest_document("W"))

    assert len(fake.channel_messages(int(thread["id"]))) == len(
        render_discord(digest_document("W"))
    )


@asynccontextmanager
async def discord_http(env: Environment) -> AsyncIterator[HTTPClient]:
    """A logged-in REST client for DISCORD_BOT_TOKEN (the posters' login), closed on exit."""
    http = await _logged_in_http(env)
    try:
        yield http
    finally:
        await http.close()


def test_webhook_urls_are_parsed() -> None:
    token = "A" * 68
    url = f"https://discord.com/api/v10/webhooks/123456789012345678/{token}?thread_id=42"
    assert parse_webhook_url(url) == (123456789012345678, token, 42)
    with pytest.raises(ConfigError, match="webhook"):
        parse_webhook_url("https://example.com/not-a-hook")


async def test_unknown_webhook_error_hides_the_token(
    fake: FakeDiscord, endpoints: object, store: Store
) -> None:
    hook = fake.add_webhook(fake.add_channel().id)
    wrong = hook.url[: -len(hook.token)] + "x" * 68

    with pytest.raises(DiscordPostError) as raised:
        await webhook_post(wrong, store, digest_document("2026-W23"))

    # The fix names where the URL lives now: the variable the target's webhook_url_env names.
    assert "10015" in str(raised.value) and "webhook_url_env" in str(raised.value)
    assert hook.token not in str(raised.value) and "x" * 68 not in str(raised.value)


def test_bullet_heavy_document_stays_within_limits() -> None:
    # Guard for the fake itself: a document the renderer splits must pass its validation.
    from tests.fakes.discord import MESSAGE_KEYS, validate_message

    items = tuple((Text("x" * 900),) for _ in range(60))
    doc = Document("d", "T", "c", (Section("s", "S", (BulletList(items),)),), "f")
    for body in render_discord(doc):
        validate_message(body, MESSAGE_KEYS)


# ---------------------------------------------------------------------------- one-off posting


async def test_post_document_from_the_environment(
    fake: FakeDiscord, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel = fake.add_channel().id
    hook = fake.add_webhook(fake.add_channel().id)
    monkeypatch.setenv("DISCORD_API_URL", fake.api_url)
    monkeypatch.setenv("DISCORD_BOT_TOKEN", fake.token)
    doc = digest_document("2026-W23")
    saved = Route.BASE
    payloads, name = render_discord(doc), discord_thread_name(doc)
    try:
        async with discord_http(Environment()) as http:
            by_bot = await DiscordPoster(http).post_document(
                store.deliveries,
                document_id=doc.id,
                channel=str(channel),
                payloads=payloads,
                thread_name=name,
            )
        async with aiohttp.ClientSession() as session:
            by_hook = await DiscordWebhookPoster(hook.url, session).post_document(
                store.deliveries,
                document_id=doc.id,
                channel="hook",
                payloads=payloads,
                thread_name=name,
            )
    finally:
        Route.BASE = saved

    parts = len(render_discord(doc))
    assert by_bot.sent == by_hook.sent == list(range(parts))
    assert_threaded(fake, channel, render_discord(doc))
    assert len(fake.channel_messages(hook.channel_id)) == parts


async def test_discord_http_explains_a_missing_or_wrong_token(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_API_URL", fake.api_url)
    saved = Route.BASE
    try:
        with pytest.raises(ConfigError, match="DISCORD_BOT_TOKEN is not set"):
            async with discord_http(Environment()):
                pass
        monkeypatch.setenv("DISCORD_BOT_TOKEN", "not-the-token")
        with pytest.raises(DiscordPostError, match="Reset Token") as raised:
            async with discord_http(Environment()):
                pass
    finally:
        Route.BASE = saved
    assert "not-the-token" not in str(raised.value)


# ---------------------------------------------------------------------------- DISCORD_API_URL


async def test_webhook_target_posts_through_discord_api_url(
    fake: FakeDiscord, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.app import App
    from bot.posting import post_digest

    channel = fake.add_channel().id
    hook = fake.add_webhook(channel)
    assert hook.url.startswith("https://discord.com/")  # as Discord hands it out
    config_file = tmp_path / "bot.toml"
    config_file.write_text(
        '[[digest.targets]]\nplatform = "discord"\nchannel = "hook1"\n'
        'webhook_url_env = "VLLM_BOT_TEST_HOOK"\ncron = "0 9 * * MON"\n'
    )
    monkeypatch.setenv("VLLM_BOT_TEST_HOOK", hook.url)
    env = Environment(discord_api_url=fake.api_url)
    services = App(config=load_config(config_file, env), env=env, store=store)
    doc = digest_document("2026-W23")

    # discord.py's defaults, as in a fresh `vllm-bot digest --post discord:hook1` process.
    with override_endpoints(DiscordEndpoints()):
        result = await post_digest(services, SimpleNamespace(document=doc), "discord", "hook1")

    assert result.sent == list(range(len(render_discord(doc))))
    posted = fake.channel_messages(channel)
    assert len(posted) == len(result.sent) and {m.webhook_id for m in posted} == {hook.id}


async def test_doctor_checks_a_webhook_through_discord_api_url(fake: FakeDiscord) -> None:
    from bot.discord.probes import discord_webhook

    hook = fake.add_webhook(fake.add_channel().id)
    env = Environment(discord_api_url=fake.api_url)

    found = await discord_webhook(hook.url, "hook1", env)
    wrong = hook.url[: -len(hook.token)] + "x" * 68
    missing = await discord_webhook(wrong, "hook1", env)

    assert found.ok, found
    assert fake.requests_to("GET /webhooks/{webhook_id}/{token}")
    assert not missing.ok and "webhook_url_env" in missing.fix
    assert "x" * 68 not in missing.detail + missing.fix
