"""The Slack app (slack-bolt AsyncApp): `/vllm`, link unfurling, HTTP and Socket Mode.

`/vllm` is acknowledged before anything reads the database or GitHub: a parse error in the
ack itself, anything else with a progress line ("looking up #42121…"); the command layer's
answer driver (`bot.commands.driver`) then builds the answer in one of a bounded number of
workers (`bot.core.tasks.Admission`: round-robin between channels and users, a few
commands per user) and it goes through the command's `response_url`. A full queue, or a
user with too many commands pending, is answered "try again" in the ack: never late, never
a 404. At shutdown a command still queued, or cut off at the grace's end, is told to try
again through its `response_url`.

HTTP mode: `slack_web_app(bot)` / `slack_routes(bot)` serve `POST /slack/events`; bolt checks
`X-Slack-Signature` with SLACK_SIGNING_SECRET and its 5-minute replay window, answering 401
otherwise. Socket Mode: `bot.slack.socket.SlackSocketMode(bot, SLACK_APP_TOKEN)`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_sdk.web.async_client import AsyncWebClient

from bot.commands import Command, CommandError, Context, DigestCommand, Reply, parse_pr_ref
from bot.commands.backend import services_context
from bot.commands.driver import Responder, drive, drive_admitted
from bot.commands.registry import parse, progress_text
from bot.core.document import Document
from bot.core.errors import BotError, ConfigError
from bot.core.i18n import message
from bot.core.logging import log_post
from bot.core.messages import Text
from bot.core.metrics import METRICS, Metrics
from bot.core.models import JSON
from bot.core.tasks import (
    COMMAND_QUEUE,
    COMMAND_WORKERS,
    Admission,
    RateLimitedLog,
    Refusal,
    TaskTracker,
    TrackedCommands,
)
from bot.delivery import DeliveryIncomplete, DeliveryResult
from bot.platform import Platform
from bot.posting import incomplete_message, post_document
from bot.reject import reject, slack_signature_problem
from bot.slack import NAME
from bot.slack.poster import SlackPoster
from formatters.slack import render_slack
from formatters.validate import validate_slack_message

if TYPE_CHECKING:
    from bot.app import App
    from bot.store.deliveries import Deliveries

log = logging.getLogger(__name__)
# A flood of commands past the queue: one line a minute, not one per command.
_busy_log = RateLimitedLog(60.0)

Render = Callable[[Document], list[JSON]]
ContextFactory = Callable[[str | None, str | None], Context]

# response_url accepts up to five messages within 30 minutes of the command.
RESPONSE_URL_MESSAGES = 5
_SLACK_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _default_render(document: Document) -> list[JSON]:
    return render_slack(document)


def _text(text: str) -> str:
    # Replies echo user input ("unknown command '<!channel>'"): escaping <, > and & is what
    # keeps it from pinging anyone or forming links. Backticks and *bold* stay meaningful.
    return text.translate(_SLACK_ESCAPES)


class SlackBot(TrackedCommands):
    """The AsyncApp with the bot's listeners, plus what they share.

    `context_for(channel, user)` builds the command Context for a channel (language, watched
    repos, backend, subscriptions); `store` holds the delivery ledger and `platform` is the
    Slack platform `digest … post` posts through (without one, the command says posting is
    not available here).
    """

    def __init__(
        self,
        *,
        client: AsyncWebClient,
        context_for: ContextFactory,
        store: Deliveries,
        signing_secret: str | None = None,
        poster: SlackPoster | None = None,
        platform: Platform | None = None,
        render: Render | None = None,
        metrics: Metrics | None = None,
        admission: Admission | None = None,
    ) -> None:
        self.client = client
        self.context_for = context_for
        self.store = store
        self.poster = poster or SlackPoster(client)
        self.render = render or _default_render
        # `/vllm digest post` goes through the same Platform and ledger path as
        # `bot.posting.post_digest` (the App's, over the process's one poster).
        self.platform = platform
        self.metrics = metrics or METRICS
        # Background answers, named for the shutdown log; `serve` drains them before
        # closing clients.
        self.tracker = TaskTracker()
        # Commands worked on at once (sized to the database pool) and queued beyond that.
        self.admission = admission or Admission(COMMAND_WORKERS, COMMAND_QUEUE)
        self.signing_secret = signing_secret
        self.app = _bolt_app(client, signing_secret)
        self.app.command("/vllm")(self._on_command)
        self.app.event("link_shared")(self._on_link_shared)

    # ------------------------------------------------------------------ /vllm

    async def _on_command(self, ack: Any, command: JSON, respond: Any) -> None:
        # Latency is measured from here (receipt) to the last reply.
        received = time.perf_counter()
        channel = command.get("channel_id")
        ctx = self.context_for(channel, command.get("user_id"))
        if not self.accepting:
            # Shutting down: answers started before the signal finish; new ones would be
            # cut off by the grace period, so say so instead of starting them.
            await ack(response_type="ephemeral", text=message(ctx.lang, "error.restarting"))
            return
        try:
            parsed: Command | CommandError = parse(command.get("text") or "")
        except CommandError as exc:
            parsed = exc
        # bolt runs this listener in a task of its own and answers the HTTP request as soon
        # as `ack` is called; the task goes on with the follow-up, and shutdown waits for it.
        # The ack never waits on the database or GitHub: bad input is answered from the
        # text alone (in the config's language for the channel), anything else is
        # acknowledged at once and answered through response_url by a bounded worker.
        if isinstance(parsed, CommandError):
            quiet = replace(ctx, subscriptions=None)  # no store lookup for the language
            await drive(
                parsed, quiet, SlackSurface(self, ack, respond, quiet), metrics=self.metrics
            )
            return
        ticket = self.admission.ticket(command.get("user_id"), channel)
        if isinstance(ticket, Refusal):
            self.metrics.commands_busy.inc(platform=NAME)
            _busy_log.log(log, "/vllm in %s refused: %s", channel, ticket.name.lower())
            text = message(ctx.lang, ticket.value, count=self.admission.per_user)
            await ack(response_type="ephemeral", text=text)
            return
        try:
            async with self.tracker.track(f"/vllm in {channel}"):
                await ack(response_type="ephemeral", text=_text(progress_text(parsed, ctx.lang)))
                surface = SlackSurface(self, ack, respond, ctx, acked=True)
                await drive_admitted(
                    ticket, parsed, ctx, surface, metrics=self.metrics, received=received
                )
        except Exception:
            log.exception("answering /vllm in %s failed", channel)
        finally:
            ticket.cancel()

    async def post_in_channel(
        self, document: Document, channel: str, command: Command | None, language: str
    ) -> Reply:
        if self.platform is None:
            return Reply.failed(message(language, "cmd.posting_unavailable"))
        started = time.perf_counter()
        try:
            result = await post_document(self.store, self.platform, document, channel)
        except DeliveryIncomplete as exc:
            log_post(log, NAME, channel, document.id, "incomplete", started, detail=str(exc))
            return Reply.failed(incomplete_text(exc.result, command, language))
        except BotError as exc:
            log_post(log, NAME, channel, document.id, "failed", started, detail=str(exc))
            return Reply.failed(exc.message(language))
        outcome = "delivered" if result.nothing_new else "posted"
        log_post(log, NAME, channel, document.id, outcome, started, parts=len(result.sent))
        return Reply(text=_posted_text(result, command, language))

    async def send_responses(self, respond: Any, bodies: Sequence[JSON]) -> None:
        for body in bodies[:RESPONSE_URL_MESSAGES]:
            response = await respond(**body)
            status = getattr(response, "status_code", 200)
            if status != 200:
                self.metrics.errors.inc(kind="slack")
                log.error(
                    "response_url refused a reply: %s %s", status, getattr(response, "body", "")
                )

    def bodies(self, reply: Reply, language: str = "en") -> list[JSON]:
        """Slack response bodies (ack or response_url) for a Reply; the first one acks."""
        kind = "ephemeral" if reply.ephemeral or reply.post_to_channel else "in_channel"
        if reply.document is None:
            return [{"response_type": kind, "text": _text(reply.text) or "…"}]
        try:
            payloads = self.render(reply.document)
        except Exception:
            log.exception("rendering %s for Slack failed", reply.document.id)
            return [{"response_type": kind, "text": _text(reply.document.fallback or reply.text)}]
        bodies = [
            {"response_type": kind, **{k: v for k, v in p.items() if k in ("text", "blocks")}}
            for p in payloads
        ]
        if len(bodies) > 1 and reply.document.id.startswith("digest:"):
            # A digest preview is its summary; the details belong in a channel thread.
            week = reply.document.meta.get("week")
            again = (
                f"`/vllm digest {week} post`" if week else message(language, "cmd.preview.again")
            )
            more = message(language, "cmd.preview.more", count=len(bodies) - 1, again=again)
            return [bodies[0], {"response_type": kind, "text": more}]
        merged = _merged(payloads)
        if merged is not None:
            # A card is one reply when it fits one message (its thread part included).
            return [{"response_type": kind, **merged}]
        if len(bodies) > RESPONSE_URL_MESSAGES:
            rest = len(bodies) - RESPONSE_URL_MESSAGES + 1
            bodies = bodies[: RESPONSE_URL_MESSAGES - 1]
            more = message(language, "cmd.truncated", count=rest)
            bodies.append({"response_type": kind, "text": more})
        return bodies

    # ------------------------------------------------------------------ unfurling

    async def _on_link_shared(self, event: JSON) -> None:
        # Events are acknowledged by bolt already; the card may need GitHub, so it is built
        # in a task that shutdown waits for.
        if self.accepting:
            self.tracker.spawn(self._unfurl(event), f"unfurl in {event.get('channel')}")

    async def _unfurl(self, event: JSON) -> None:
        channel = event.get("channel")
        ctx = self.context_for(channel, event.get("user"))
        unfurls: JSON = {}
        for link in event.get("links", []):
            url = link.get("url", "")
            blocks = await self._unfurl_blocks(url, ctx)
            if blocks:
                unfurls[url] = {"blocks": blocks}
        if not unfurls:
            return
        try:
            await self.poster.unfurl(
                unfurls,
                channel=channel,
                ts=event.get("message_ts"),
                unfurl_id=event.get("unfurl_id"),
                source=event.get("source"),
            )
        except BotError as exc:
            self.metrics.errors.inc(kind="slack")
            log.warning("unfurl in %s failed: %s", channel, exc)

    async def _unfurl_blocks(self, url: str, ctx: Context) -> list[JSON] | None:
        """The compact card (the first message of the card) for a watched repo's PR URL."""
        try:
            ref = parse_pr_ref(url)
        except CommandError:
            return None
        repo = ctx.watched_repo(ref.repo) if ref.repo else None
        if repo is None:
            return None  # someone else's repo: leave Slack's own preview alone
        try:
            document = await ctx.backend.card(repo, ref.number, ctx.lang)
            return self.render(document)[0].get("blocks")
        except BotError as exc:
            log.info("no unfurl for %s: %s", url, exc)
        except Exception:
            log.exception("unfurling %s failed", url)
        return None


class _DropMessage(logging.Filter):
    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != self.message


def _bolt_app(client: AsyncWebClient, signing_secret: str | None) -> AsyncApp:
    bolt_log = logging.getLogger("bot.slack.bolt")
    # AsyncApp reads SLACK_BOT_TOKEN from the environment by itself when `token` is not
    # given (there is no way to say "none"), then warns on every start that the `client`
    # wins. That client is the one we want (same token, plus SLACK_API_URL), so the warning
    # is noise; it is dropped for this constructor call only.
    quiet = _DropMessage(warning_client_prioritized_and_token_skipped())
    bolt_log.addFilter(quiet)
    try:
        return AsyncApp(
            client=client,
            signing_secret=signing_secret or "",
            # Socket Mode has no signatures and nothing to verify.
            request_verification_enabled=bool(signing_secret),
            process_before_response=False,
            logger=bolt_log,
        )
    finally:
        bolt_log.removeFilter(quiet)


def _merged(payloads: list[JSON]) -> JSON | None:
    """All payloads as one message, or None if that would break a Slack limit."""
    if len(payloads) < 2:
        return None
    blocks = [block for payload in payloads for block in payload.get("blocks", [])]
    ids = [block["block_id"] for block in blocks if "block_id" in block]
    if len(ids) != len(set(ids)):
        return None
    merged = {"text": payloads[0].get("text", ""), "blocks": blocks}
    return merged if not validate_slack_message(merged) else None


def _week(result: DeliveryResult, command: Command | None) -> str:
    return command.week if isinstance(command, DigestCommand) else result.document_id


def incomplete_text(result: DeliveryResult, command: Command | None, language: str) -> str:
    """A post another run (or a failure) left unfinished, in the channel's language."""
    return incomplete_message(result, _week(result, command), language)


def _posted_text(result: DeliveryResult, command: Command | None, language: str) -> str:
    week = _week(result, command)
    if result.nothing_new:
        return message(language, "cmd.posted.nothing_new", week=week)
    if result.skipped:
        return message(
            language,
            "cmd.posted.resumed",
            week=week,
            count=len(result.sent),
            skipped=len(result.skipped),
        )
    return message(language, "cmd.posted", week=week, count=result.parts)


class SlackSurface(Responder):
    """One `/vllm` command on Slack: `ack` within 3 seconds, then `response_url`."""

    platform = "slack"

    def __init__(
        self, bot: SlackBot, ack: Any, respond: Any, ctx: Context, *, acked: bool = False
    ) -> None:
        self.bot = bot
        self.ack = ack
        self.respond_url = respond
        self.ctx = ctx
        # Acknowledged already (with a progress line): every answer goes to response_url.
        self.acked = acked

    async def respond(self, reply: Reply, command: Command | None) -> Reply:
        outcome = await self._posted(reply, command)
        first, *rest = self.bot.bodies(outcome, self.ctx.lang)
        if self.acked:
            rest = [first, *rest]
        else:
            await self.ack(**first)
        if rest:
            await self.bot.send_responses(self.respond_url, rest)
        return outcome

    async def acknowledge(self, text: str, *, public: bool) -> None:
        if self.acked:
            return
        # Always private: a public "working on it" line would stay in the channel even if
        # the answer turns out to be an error.
        await self.ack(response_type="ephemeral", text=_text(text))

    async def follow_up(self, reply: Reply, command: Command) -> Reply:
        outcome = await self._posted(reply, command)
        await self.bot.send_responses(self.respond_url, self.bot.bodies(outcome, self.ctx.lang))
        return outcome

    async def _posted(self, reply: Reply, command: Command | None) -> Reply:
        """`digest … post`: the document goes in the channel; the user hears how it went."""
        if reply.ok and reply.post_to_channel and reply.document is not None and self.ctx.channel:
            return await self.bot.post_in_channel(
                reply.document, self.ctx.channel, command, self.ctx.lang
            )
        return reply


# ---------------------------------------------------------------------------- HTTP mode


def events_view(bot: SlackBot) -> Callable[[web.Request], Coroutine[Any, Any, web.Response]]:
    """The aiohttp handler of `POST /slack/events`.

    The signature and the 5-minute window are checked here, before bolt: a malformed header
    (`X-Slack-Request-Timestamp: abc`) must be a 401 with one rate-limited line, never bolt's
    500 with a traceback, and a flood of bad signatures must not log a line each."""

    async def events(request: web.Request) -> web.Response:
        if bot.signing_secret:
            body = await request.read()
            problem = slack_signature_problem(bot.signing_secret, request.headers, body)
            if problem is not None:
                return reject(request, problem)
        try:
            bolt_response = await bot.app.async_dispatch(await to_bolt_request(request))
        except Exception as exc:
            # Listeners run after the ack, so what fails here is bolt reading the body
            # (JSON that is not an object, bytes that are not JSON): bad input, not ours.
            return reject(request, f"unreadable body ({type(exc).__name__})", status=400)
        return await to_aiohttp_response(bolt_response)

    return events


def slack_routes(bot: SlackBot, path: str = "/slack/events") -> list[web.RouteDef]:
    """The `POST /slack/events` route, to mount on the bot's one web server."""
    return [web.post(path, events_view(bot))]


def slack_web_app(bot: SlackBot, path: str = "/slack/events") -> web.Application:
    """A standalone aiohttp application serving Slack's HTTP mode."""
    app = web.Application()
    app.add_routes(slack_routes(bot, path))
    return app


# ---------------------------------------------------------------------------- wiring


def build_slack_bot(services: App, **overrides: Any) -> SlackBot:
    """The Slack bot over the running services (tokens and URL from the environment)."""
    env = services.env
    if env.slack_bot_token is None:
        raise ConfigError(Text("error.slack.no_bot_token"))
    # The process's one SlackPoster (and its client): the 1 message/second/channel pacing
    # then holds across command replies, scheduled digests and alerts.
    poster = services.slack_poster()
    client = poster.client
    secret = env.slack_signing_secret.get_secret_value() if env.slack_signing_secret else None
    if services.config.slack.mode == "http" and not secret:
        raise ConfigError(Text("error.slack.no_signing_secret"))

    def context_for(channel: str | None, user: str | None) -> Context:
        return services_context(services, platform="slack", channel=channel, user=user)

    options: JSON = {
        "client": client,
        "context_for": context_for,
        "store": services.store.deliveries,
        "signing_secret": secret,
        "poster": poster,
        "platform": services.platforms[NAME],
    }
    options.update(overrides)
    return SlackBot(**options)
