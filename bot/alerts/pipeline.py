"""One alert pipeline, fed by the webhook receiver and by the poller.

    submit(prs)  analyse → match (MatchIndex) → skip pairs already handled → hold in the
                 outbox (held_alerts) until the channel's batch window closes
    flush()      per due channel: quiet hours? hold until they end. Otherwise re-match
                 (subscriptions may have changed while held) → claim → send → record

Why an outbox: held alerts, batch windows and retries survive restarts, and two sources
(or two processes) queueing the same PR for a channel collapse into one row.

Exactly-once (alerts_sent, unique per subscription and PR) is the one ledger primitive,
`bot.store.ledger`, shared with digest delivery:

- Inserting a "sent" row *before* sending would lose the alert whenever the send fails
  (Slack down, token revoked): the row would say sent and nothing would ever retry.
- Inserting it only *after* sending lets two senders (webhook and poller, or two bot
  processes) both pass a "not sent yet?" check and both post.
- So the row is written before sending as a *claim* with its owner (host, pid, lease).
  Exactly one sender wins each (subscription, PR). After a successful send the winner
  turns its claim into "sent"; after a failed send it marks it "failed", so a later
  attempt, from either source, can send. A claim left by a crash is taken over as soon as
  its owner is known to be gone, and the send goes through `bot.delivery.deliver`, which
  asks the platform whether the crashed attempt's message got through before posting
  again (Slack metadata, Discord nonce): no repeat there either.
- A send that posted only some parts of a long card is not "sent": it is retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from inspect import isawaitable
from typing import Literal

from bot.alerts.matching import MatchIndex, PRFacts
from bot.alerts.model import AlertItem, Subscription
from bot.alerts.render import AlertCards, BotCards
from bot.alerts.repository import AlertStore, Held
from bot.analysis.analyzer import Analyzer
from bot.core.document import Document
from bot.core.logging import log_post
from bot.core.metrics import METRICS, Metrics, error_kind
from bot.core.models import Analysis, PullRequest
from bot.core.settings import AlertSettings
from bot.delivery import DeliveryIncomplete, DeliveryResult
from bot.store.ledger import Owner
from bot.store.store import Store

log = logging.getLogger(__name__)

Sender = Callable[[str, str, Document], Awaitable[object]]
AnalyzerFor = Callable[[str], "Awaitable[Analyzer] | Analyzer"]
Source = Literal["webhook", "poll"]


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class SubmitResult:
    matched: int = 0  # PRs that matched at least one subscription
    queued: int = 0  # (channel, PR) pairs newly put in the outbox
    skipped: int = 0  # not merged, too old, or already handled


@dataclass(slots=True)
class FlushResult:
    messages: int = 0
    alerts: int = 0  # (channel, PR) pairs delivered
    held_quiet: int = 0
    failed: int = 0
    sent: list[tuple[str, str, str]] = field(default_factory=list)  # platform, channel, doc id


class AlertPipeline:
    def __init__(
        self,
        store: Store,
        settings: AlertSettings,
        *,
        analyzer_for: AnalyzerFor,
        sender: Sender,
        cards: AlertCards | None = None,
        clock: Callable[[], datetime] = _utcnow,
        lease: timedelta = timedelta(minutes=10),
        retry_base: timedelta = timedelta(minutes=1),
        max_attempts: int = 8,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.db = AlertStore(store)
        self.settings = settings
        self.analyzer_for = analyzer_for
        self.sender = sender
        self.cards = cards or BotCards()
        self.clock = clock
        self.lease = lease
        self.retry_base = retry_base
        self.max_attempts = max_attempts
        self.metrics = metrics or METRICS
        self._index: MatchIndex | None = None
        self._version: object = None
        self._analysed: OrderedDict[tuple[str, int], tuple[PullRequest, Analysis]] = OrderedDict()
        self._flush_lock = asyncio.Lock()

    # ------------------------------------------------------------------ index

    def invalidate(self) -> None:
        """Called by the SubscriptionService after a change in this process."""
        self._index = None

    async def index(self) -> MatchIndex:
        # One cheap query notices changes made by other processes (e.g. `vllm-bot chat`).
        version = await self.db.subscriptions.version()
        if self._index is None or version != self._version:
            self._index = MatchIndex(await self.db.subscriptions.find())
            self._version = version
        return self._index

    # ------------------------------------------------------------------ analysis

    async def _analyse(self, pr: PullRequest) -> Analysis:
        analyzer = self.analyzer_for(pr.repo)
        if isawaitable(analyzer):
            analyzer = await analyzer
        return analyzer.analyze(pr)

    def _remember(self, pr: PullRequest, analysis: Analysis) -> None:
        key = (pr.repo, pr.number)
        self._analysed[key] = (pr, analysis)
        self._analysed.move_to_end(key)
        while len(self._analysed) > 2000:
            self._analysed.popitem(last=False)

    async def _load(self, repo: str, number: int) -> tuple[PullRequest, Analysis] | None:
        found = self._analysed.get((repo, number))
        if found is not None:
            return found
        pr = await self.store.prs.get(repo, number)  # after a restart: the stored copy
        if pr is None:
            return None
        analysis = await self._analyse(pr)
        self._remember(pr, analysis)
        return pr, analysis

    # ------------------------------------------------------------------ submit

    async def submit(self, prs: Iterable[PullRequest], *, source: Source) -> SubmitResult:
        """Queue alerts for merged PRs; PRs seen before (by either source) cost nothing."""
        result = SubmitResult()
        now = self.clock()
        index = await self.index()
        max_age = timedelta(hours=self.settings.max_age_hours)
        for pr in prs:
            if pr.state != "merged" or pr.merged_at is None or now - pr.merged_at > max_age:
                result.skipped += 1
                continue
            if not pr.files_known:
                # GitHub could not list the files just now; an earlier full copy is better.
                stored = await self.store.prs.get(pr.repo, pr.number)
                if stored is not None and stored.files_known:
                    pr = stored
            analysis = await self._analyse(pr)
            subs = index.match(PRFacts.of(pr, analysis))
            if not subs:
                continue
            result.matched += 1
            await self.store.prs.upsert([pr])  # held alerts are re-read from the store
            self._remember(pr, analysis)
            by_channel: dict[tuple[str, str], list[Subscription]] = defaultdict(list)
            for sub in subs:
                by_channel[sub.address].append(sub)
            for (platform, channel), group in by_channel.items():
                ids = [s.id for s in group]
                handled = await self.db.sends.handled(
                    ids, pr.repo, pr.number, now=now, lease=self.lease
                )
                if len(handled) == len(ids):
                    result.skipped += 1
                    continue
                release = await self._release_time(platform, channel, source, now)
                if await self.db.outbox.hold(
                    platform=platform,
                    channel=channel,
                    repo=pr.repo,
                    number=pr.number,
                    reason="batch",
                    release_at=release,
                    now=now,
                ):
                    result.queued += 1
        await self.flush()
        return result

    async def _release_time(
        self, platform: str, channel: str, source: Source, now: datetime
    ) -> datetime:
        if source == "poll" or self.settings.batch_window_seconds == 0:
            return now  # a poll is its own batch
        # Join the channel's open window, so merges within a minute go out together.
        window_end = await self.db.outbox.open_batch(platform, channel, now)
        return window_end or now + timedelta(seconds=self.settings.batch_window_seconds)

    # ------------------------------------------------------------------ flush

    async def flush(self) -> FlushResult:
        """Send every channel that has a due alert (with its not-yet-due ones, batched)."""
        result = FlushResult()
        async with self._flush_lock:
            now = self.clock()
            for platform, channel in await self.db.outbox.due_channels(now):
                rows = await self.db.outbox.held(platform, channel)
                quiet_end = self.settings.quiet_until(platform, channel, now)
                if quiet_end is not None:
                    await self.db.outbox.reschedule(
                        [r.id for r in rows], release_at=quiet_end, reason="quiet"
                    )
                    result.held_quiet += len(rows)
                    continue
                await self._send_channel(platform, channel, rows, now, result)
        return result

    def _language(self, subs: Sequence[Subscription], platform: str, channel: str) -> str:
        for sub in subs:
            if sub.language:
                return sub.language
        return self.settings.channel_language(platform, channel) or self.settings.language

    async def _send_channel(
        self, platform: str, channel: str, rows: list[Held], now: datetime, result: FlushResult
    ) -> None:
        index = await self.index()
        by_language: dict[str, list[tuple[Held, AlertItem]]] = defaultdict(list)
        stale: list[int] = []
        for row in rows:
            loaded = await self._load(row.repo, row.pr_number)
            if loaded is None:
                stale.append(row.id)
                continue
            pr, analysis = loaded
            # Re-match: an unsubscribe during quiet hours must cancel what was held.
            here = (platform, channel)
            subs = [s for s in index.match(PRFacts.of(pr, analysis)) if s.address == here]
            if not subs:
                stale.append(row.id)
                continue
            item = AlertItem(pr, analysis, tuple(s.id for s in subs))
            by_language[self._language(subs, platform, channel)].append((row, item))
        await self.db.outbox.drop(stale)

        for language, entries in by_language.items():
            claimed: list[tuple[Held, AlertItem, Owner]] = []
            for row, item in entries:
                token = Owner.current()
                won = await self.db.sends.claim(
                    sub_ids=item.subscription_ids,
                    repo=item.pr.repo,
                    number=item.pr.number,
                    platform=platform,
                    channel=channel,
                    owner=token,
                    now=now,
                    lease=self.lease,
                )
                if not won:
                    await self.db.outbox.drop([row.id])  # sent, or being sent, by someone else
                    continue
                if await self.db.sends.channel_has_sent(
                    platform, channel, item.pr.repo, item.pr.number
                ):
                    # Another subscription of this channel already posted the PR.
                    await self.db.sends.mark_sent(token, now)
                    await self.db.outbox.drop([row.id])
                    continue
                claimed.append((row, item, token))
            claimed.sort(key=lambda c: (c[1].pr.merged_at or now, c[1].pr.number))
            if len(claimed) > self.settings.batch_after:
                messages = [(self.cards.batch([c[1] for c in claimed], language), claimed)]
            else:
                messages = [(self.cards.alert(c[1], language), [c]) for c in claimed]
            for document, group in messages:
                await self._deliver(platform, channel, document, group, result)

    async def _deliver(
        self,
        platform: str,
        channel: str,
        document: Document,
        group: list[tuple[Held, AlertItem, Owner]],
        result: FlushResult,
    ) -> None:
        started = time.perf_counter()
        try:
            outcome = await self.sender(platform, channel, document)
            if isinstance(outcome, DeliveryResult) and not outcome.complete:
                # Some parts are missing (another live run holds one): not sent yet.
                raise DeliveryIncomplete(outcome)
        except Exception as exc:
            result.failed += len(group)
            self.metrics.errors.inc(kind=error_kind(exc))
            log_post(log, platform, channel, document.id, "failed", started, detail=str(exc))
            now = self.clock()
            for row, item, token in group:
                await self.db.sends.fail(token, exc)
                attempts = row.attempts + 1
                if attempts >= self.max_attempts:
                    log.error(
                        "alert for %s#%d to %s:%s dropped after %d failed attempts: %s",
                        item.pr.repo, item.pr.number, platform, channel, attempts, exc,
                    )  # fmt: skip
                    await self.db.outbox.drop([row.id])
                    continue
                delay = min(self.retry_base * 2 ** (attempts - 1), timedelta(hours=1))
                await self.db.outbox.reschedule(
                    [row.id], release_at=now + delay, reason="retry", failed=True
                )
            log.warning(
                "sending an alert to %s:%s failed (%s); retrying later", platform, channel, exc
            )
            return
        now = self.clock()
        for row, _item, token in group:
            await self.db.sends.mark_sent(token, now)
            await self.db.outbox.drop([row.id])
        result.messages += 1
        result.alerts += len(group)
        result.sent.append((platform, channel, document.id))
        # Counted here, after the claim became "sent": a batched message counts each PR.
        self.metrics.alerts_posted.inc(len(group), platform=platform)
        log_post(log, platform, channel, document.id, "posted", started, alerts=len(group))

    # ------------------------------------------------------------------ background

    async def run(self, stop: asyncio.Event, *, tick: float = 5.0) -> None:
        """Flush due alerts until `stop` is set (serve runs this as a task)."""
        while not stop.is_set():
            try:
                await self.flush()
            except Exception as exc:
                self.metrics.errors.inc(kind=error_kind(exc))
                log.exception("flushing alerts failed; retrying in %.0f s", tick)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=tick)
