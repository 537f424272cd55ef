"""`POST /github/webhook`: GitHub's push of merged PRs into the alert pipeline.

- `X-Hub-Signature-256` must be the HMAC-SHA256 of the raw body under
  GITHUB_WEBHOOK_SECRET, compared in constant time; missing or wrong → 401. Without a
  configured secret every delivery gets 503 (and the log says why): an unverified
  endpoint would let anyone trigger alerts.
- `ping` → 200 "pong". `pull_request` with action `closed` and `merged: true` → the PR
  (files fetched from GitHub; when GitHub is unreachable the PR goes on with
  files_known=False) is submitted to the pipeline. Everything else → 202, ignored.
- Idempotent on `X-GitHub-Delivery`: a redelivered id is answered 200 and does nothing.

The answer comes before the file fetch: GitHub gives a receiver 10 seconds, and fetching
files may retry for longer. The delivery id is recorded first and forgotten again if the
work fails, so GitHub's "Redeliver" button still works after an error.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from aiohttp import web

from bot.alerts.pipeline import AlertPipeline
from bot.core.errors import BotError
from bot.core.metrics import METRICS, error_kind
from bot.core.models import JSON, PullRequest, pr_state
from bot.core.tasks import TaskTracker, Tracked
from bot.reject import reject
from bot.sync import fetch_pr

if TYPE_CHECKING:
    from pydantic import SecretStr

    from bot.alerts.wiring import AlertsRuntime
    from bot.platform import PostingServices
    from bot.probes import Probe

log = logging.getLogger(__name__)

PATH = "/github/webhook"
# Deliveries processed at once (claim, fetch, alert); the rest wait their turn, answered.
WEBHOOK_WORKERS = 4
_RECENT = 10_000  # delivery ids remembered in memory for an at-once "duplicate" answer
SecretProvider = Callable[[], "str | None"]
PRFetcher = Callable[[str, int], Awaitable[PullRequest]]
# --- releases ---
ReleaseHandler = Callable[[str, str], Awaitable[None]]


def signature(secret: str, body: bytes) -> str:
    """The `X-Hub-Signature-256` value GitHub sends for `body`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, header: str | None) -> bool:
    if not header or not header.startswith("sha256="):
        return False
    return hmac.compare_digest(signature(secret, body).encode(), header.strip().encode())


def _time(value: object) -> datetime | None:
    if not value:
        return None
    return datetime.fromisoformat(str(value).replace("Z", "+00:00")).astimezone(UTC)


def pr_from_payload(payload: JSON) -> PullRequest:
    """A PullRequest from a `pull_request` event (which carries no file list)."""
    pr = payload["pull_request"]
    merged = bool(pr.get("merged"))
    return PullRequest(
        repo=payload["repository"]["full_name"],
        number=int(pr["number"]),
        title=pr.get("title") or "",
        url=pr.get("html_url") or "",
        state="merged" if merged else pr_state(pr.get("state"), "closed"),
        created_at=_time(pr.get("created_at")) or datetime.now(UTC),
        body=pr.get("body") or "",
        author=(pr.get("user") or {}).get("login"),
        merged_at=_time(pr.get("merged_at")),
        closed_at=_time(pr.get("closed_at")),
        additions=int(pr.get("additions") or 0),
        deletions=int(pr.get("deletions") or 0),
        changed_files=int(pr.get("changed_files") or 0),
        labels=[label["name"] for label in pr.get("labels") or [] if label.get("name")],
        files=[],
        files_known=False,
        review_count=int(pr.get("review_comments") or 0),
        comment_count=int(pr.get("comments") or 0),
        merged_by=(pr.get("merged_by") or {}).get("login"),
        base_ref=(pr.get("base") or {}).get("ref"),
        fetched_at=datetime.now(UTC),
    )


class WebhookReceiver(Tracked):
    def __init__(
        self,
        pipeline: AlertPipeline,
        *,
        secret: SecretProvider,
        fetch_pr: PRFetcher | None = None,
        repos: Iterable[str] | None = None,
        on_release: ReleaseHandler | None = None,
    ) -> None:
        """`secret` is read per request (so a restart is not needed after setting it);
        `fetch_pr(repo, number)` returns the PR with its files (e.g. bot.sync.fetch_pr
        with refresh=True); `repos` limits alerts to watched repositories."""
        self.pipeline = pipeline
        self.deliveries = pipeline.db.webhooks
        self.secret = secret
        self.fetch_pr = fetch_pr
        self.on_release = on_release
        self.repos = {r.lower() for r in repos} if repos is not None else None
        self.tracker = TaskTracker()
        self._recent: dict[str, None] = {}  # delivery ids answered by this process, oldest first
        self._workers = asyncio.Semaphore(WEBHOOK_WORKERS)
        self._warned = False

    def routes(self) -> list[web.RouteDef]:
        return [web.post(PATH, self.handle)]

    def add_to(self, app: web.Application) -> None:
        app.add_routes(self.routes())
        app.on_cleanup.append(self._cleanup)

    async def _cleanup(self, _app: web.Application) -> None:
        await self.drain()

    async def handle(self, request: web.Request) -> web.Response:
        if not self.accepting:
            # GitHub shows the delivery as failed; the poller picks the merge up after the
            # restart, and deliveries accepted before shutdown finish.
            return web.Response(status=503, text="shutting down\n")
        secret = self.secret()
        if not secret:
            if not self._warned:
                self._warned = True
                log.error(
                    "GitHub webhook received but GITHUB_WEBHOOK_SECRET is not set: refusing "
                    "unverifiable deliveries (503). Set it to the secret entered in the "
                    "repository's webhook settings."
                )
            return web.Response(status=503, text="webhook secret not configured\n")
        body = await request.read()
        if not verify(secret, body, request.headers.get("X-Hub-Signature-256")):
            # Never log the secret or the expected signature; one rate-limited line.
            missing = "X-Hub-Signature-256" not in request.headers
            return reject(request, f"{'missing' if missing else 'bad'} X-Hub-Signature-256")
        event = request.headers.get("X-GitHub-Event", "")
        delivery = request.headers.get("X-GitHub-Delivery", "")
        if event == "ping":
            return web.Response(status=200, text="pong\n")
        if event == "release":
            return self._release(body, delivery)
        if event != "pull_request":
            return web.Response(status=202, text=f"ignored event {event or '(none)'}\n")
        try:
            payload = json.loads(body)
        except ValueError:
            return web.Response(status=400, text="body is not JSON\n")
        pr_data = payload.get("pull_request") if isinstance(payload, dict) else None
        repository = payload.get("repository") if isinstance(payload, dict) else None
        if not isinstance(pr_data, dict) or not isinstance(repository, dict):
            return web.Response(status=400, text="pull_request event without a pull_request\n")
        try:
            pr_from_payload(payload)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # Signed by GitHub but not a shape we read: say so rather than fail later.
            return web.Response(status=400, text=f"unreadable pull_request: {type(exc).__name__}\n")
        if payload.get("action") != "closed" or not pr_data.get("merged"):
            return web.Response(status=202, text="ignored: not a merge\n")
        repo = str(repository.get("full_name", ""))
        refused = self._unwatched_or_seen(repo, delivery)
        if refused is not None:
            return refused
        # Answered before any store write: under load a write can wait seconds for the
        # SQLite lock, and GitHub gives 10. The claim (duplicates across processes) and the
        # alert happen in the background; a crash before they finish loses nothing for
        # good, because the poller reads merges from GitHub and the pipeline alerts each
        # PR once whichever way it arrived.
        self.tracker.spawn(
            self._process(payload, delivery, event), name=f"webhook delivery {delivery or '?'}"
        )
        return web.Response(status=202, text="accepted\n")

    def _unwatched_or_seen(self, repo: str, delivery: str) -> web.Response | None:
        """The answer to a delivery of an unwatched repository or one this process already
        took; None (and the delivery remembered) for one to process."""
        if self.repos is not None and repo.lower() not in self.repos:
            return web.Response(status=202, text=f"ignored: {repo} is not watched\n")
        if delivery in self._recent:
            return web.Response(status=200, text="duplicate delivery\n")
        if delivery:
            self._recent[delivery] = None
            while len(self._recent) > _RECENT:
                self._recent.pop(next(iter(self._recent)))
        return None

    async def _process(self, payload: JSON, delivery: str, event: str) -> None:
        # Answered already: a burst of deliveries queues here, a few at a time, rather
        # than taking every database connection from the slash commands.
        async with self._workers:
            await self._process_one(payload, delivery, event)

    async def _process_one(self, payload: JSON, delivery: str, event: str) -> None:
        try:
            if delivery and not await self.deliveries.claim(delivery, event, self.pipeline.clock()):
                return  # another process (or an earlier run) has it
        except Exception as exc:
            METRICS.errors.inc(kind=error_kind(exc))
            log.exception("GitHub webhook: recording delivery %s failed", delivery)
            self._recent.pop(delivery, None)  # GitHub's "Redeliver" must work
            return
        try:
            pr = pr_from_payload(payload)
            if self.fetch_pr is not None:
                try:
                    fetched = await self.fetch_pr(pr.repo, pr.number)
                except (BotError, OSError) as exc:
                    log.warning(
                        "GitHub webhook: files of %s#%d unavailable (%s); alerting without them",
                        pr.repo, pr.number, exc,
                    )  # fmt: skip
                else:
                    if fetched.state == "merged":
                        pr = fetched
            await self.pipeline.submit([pr], source="webhook")
            if delivery:
                await self.deliveries.finish(delivery)
        except Exception as exc:
            METRICS.errors.inc(kind=error_kind(exc))
            log.exception("GitHub webhook: processing delivery %s failed", delivery or "?")
            if delivery:
                self._recent.pop(delivery, None)
                await self.deliveries.forget(delivery)

    # --- releases: `release` events (action `published`) post the release's notes ---
    def _release(self, body: bytes, delivery: str) -> web.Response:
        if self.on_release is None:
            return web.Response(status=202, text="ignored event release\n")
        try:
            payload = json.loads(body)
            release = payload["release"]
            repo = str(payload["repository"]["full_name"])
            tag = str(release["tag_name"])
        except (ValueError, KeyError, TypeError):
            return web.Response(status=400, text="release event without a release\n")
        if payload.get("action") != "published" or release.get("draft"):
            return web.Response(status=202, text="ignored: not a published release\n")
        refused = self._unwatched_or_seen(repo, delivery)
        if refused is not None:
            return refused
        # Building the notes takes seconds (a comparison, the PRs): GitHub gets its answer
        # first, and the ledger keeps a re-delivery from posting twice.
        self.tracker.spawn(
            self._process_release(repo, tag, delivery), name=f"release {tag} of {repo}"
        )
        return web.Response(status=202, text="accepted\n")

    async def _process_release(self, repo: str, tag: str, delivery: str) -> None:
        assert self.on_release is not None
        try:
            if delivery and not await self.deliveries.claim(
                delivery, "release", self.pipeline.clock()
            ):
                return
            await self.on_release(repo, tag)
            if delivery:
                await self.deliveries.finish(delivery)
        except Exception as exc:
            METRICS.errors.inc(kind=error_kind(exc))
            log.exception("GitHub webhook: release %s of %s not posted", tag, repo)
            if delivery:
                self._recent.pop(delivery, None)
                await self.deliveries.forget(delivery)


class WebhookEndpoint:
    """`serve`'s POST /github/webhook handler. The receiver (and the alerts runtime, whose
    flush loop it starts) is built on the first delivery, so an install that never gets
    one never starts them. Shutdown calls `stop_accepting()`, then awaits `in_flight()`:
    deliveries being processed and the alerts runtime's last flush."""

    def __init__(
        self,
        services: PostingServices,
        alerts: Callable[[], AlertsRuntime],
        secret: SecretStr | None,
    ) -> None:
        self.services = services
        self._alerts = alerts
        self._secret = secret
        self.receiver: WebhookReceiver | None = None
        self.alerts: AlertsRuntime | None = None
        # Its sources: the receiver once built; its own task: the alert flush's last run.
        self.tracker = TaskTracker()
        self._stopping = False

    @property
    def accepting(self) -> bool:
        return self.tracker.accepting

    async def __call__(self, request: web.Request) -> web.StreamResponse:
        if not self.accepting:
            return web.Response(status=503, text="shutting down\n")
        if self.receiver is None:
            self.receiver = await self._receiver()
            self.tracker.sources.append(self.receiver)
        return await self.receiver.handle(request)

    async def _receiver(self) -> WebhookReceiver:
        services = self.services
        self.alerts = self._alerts()
        self.alerts.start()

        async def fetch(repo: str, number: int) -> PullRequest:
            return await fetch_pr(services.store, services.github(), repo, number, refresh=True)

        async def release(repo: str, tag: str) -> None:
            # Lazy: the release pipeline loads only when a release is published.
            from bot.alerts.releases import post_release

            await post_release(services, repo, tag)

        secret = self._secret
        return WebhookReceiver(
            self.alerts.pipeline,
            secret=lambda: secret.get_secret_value() if secret else None,
            fetch_pr=fetch,
            repos=[r.name for r in services.config.repos],
            on_release=release,
        )

    # The component face (`bot.platform.Component`): serve starts it with the platforms, so
    # held alerts (a crash's, a batch window's) go out when the instance starts rather
    # than at its first webhook or the leader's next poll.
    name = "alerts"
    leader_only = False

    async def start(self) -> None:
        """Build the receiver and start the flush loop, whose first round is now."""
        if self.receiver is None:
            self.receiver = await self._receiver()
            self.tracker.sources.append(self.receiver)

    async def stop(self) -> None:
        """Nothing beyond `stop_accepting`: the loop's last flush is in-flight work."""

    def ready(self) -> Probe | None:
        return None

    async def flush(self) -> None:
        """One flush now (an instance that just became leader takes over what the old
        leader held); a no-op before `start` or during shutdown."""
        if self.alerts is not None and self.accepting:
            await self.alerts.pipeline.flush()

    def stop_accepting(self) -> None:
        self.tracker.stop_accepting()
        if self.alerts is not None and not self._stopping:
            # The flush loop finishes the flush it is in (held alerts stay in the outbox
            # for the next start) and stops; awaited with the rest of the in-flight work.
            self._stopping = True
            self.tracker.spawn(self.alerts.stop(), name="alert flush")

    def in_flight(self) -> dict[asyncio.Task[object], str]:
        return self.tracker.in_flight()
