"""A small Prometheus text-format exposition (version 0.0.4) for /metrics.

Hand-rolled rather than prometheus_client: the bot needs four metric shapes, and a
process-global registry would leak state between tests and between `App` instances.

Other modules record through the process-wide `METRICS`:

    from bot.core.metrics import METRICS
    METRICS.alerts_posted.inc(platform="slack")
    METRICS.errors.inc(kind="github")
    with METRICS.command("slack", "pr"):
        ...
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from threading import Lock

from bot.core import errors
from bot.core.secrets import redact
from bot.core.validators import CHAT_PLATFORMS

log = logging.getLogger("bot.commands")

LabelKey = tuple[tuple[str, str], ...]
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(key: LabelKey, extra: Sequence[tuple[str, str]] = ()) -> str:
    pairs = [*key, *extra]
    if not pairs:
        return ""
    return "{" + ",".join(f'{k}="{_escape(v)}"' for k, v in pairs) + "}"


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    return repr(float(value)) if not float(value).is_integer() else str(int(value))


class _Metric:
    kind = "untyped"

    def __init__(self, name: str, help_text: str, labelnames: Sequence[str] = ()) -> None:
        self.name = name
        self.help = help_text
        self.labelnames = tuple(labelnames)
        self._lock = Lock()

    def _key(self, labels: dict[str, str]) -> LabelKey:
        if set(labels) != set(self.labelnames):
            raise ValueError(f"{self.name} takes labels {self.labelnames}, got {tuple(labels)}")
        return tuple((name, redact(str(labels[name]))) for name in self.labelnames)

    def header(self) -> list[str]:
        return [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} {self.kind}"]

    def samples(self) -> Iterable[str]:
        raise NotImplementedError


class Counter(_Metric):
    kind = "counter"

    def __init__(self, name: str, help_text: str, labelnames: Sequence[str] = ()) -> None:
        super().__init__(name, help_text, labelnames)
        self._values: dict[LabelKey, float] = {}

    def inc(self, amount: float = 1, **labels: str) -> None:
        if amount < 0:
            raise ValueError("counters only go up")
        key = self._key(labels)
        with self._lock:
            self._values[key] = self._values.get(key, 0) + amount

    def value(self, **labels: str) -> float:
        return self._values.get(self._key(labels), 0)

    def samples(self) -> Iterable[str]:
        for key, value in sorted(self._values.items()):
            yield f"{self.name}{_labels(key)} {_number(value)}"


class Gauge(_Metric):
    """A value read at scrape time from `source` (None: no sample), or set explicitly."""

    kind = "gauge"

    def __init__(
        self,
        name: str,
        help_text: str,
        source: Callable[[], float | None] | None = None,
    ) -> None:
        super().__init__(name, help_text)
        self.source = source
        self._value: float | None = None

    def set(self, value: float | None) -> None:
        self._value = value

    def value(self) -> float | None:
        if self.source is not None:
            try:
                return self.source()
            except Exception:  # a broken source must not break the whole scrape
                log.debug("metric source %s failed", self.name, exc_info=True)
                return None
        return self._value

    def samples(self) -> Iterable[str]:
        value = self.value()
        if value is not None:
            yield f"{self.name} {_number(value)}"


class CounterFunc(Gauge):
    """A monotonic count owned elsewhere (e.g. the GitHub client's request counter)."""

    kind = "counter"


DEFAULT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class Histogram(_Metric):
    kind = "histogram"

    def __init__(
        self,
        name: str,
        help_text: str,
        labelnames: Sequence[str] = (),
        buckets: Sequence[float] = DEFAULT_BUCKETS,
    ) -> None:
        super().__init__(name, help_text, labelnames)
        self.buckets = tuple(sorted(buckets))
        self._counts: dict[LabelKey, list[int]] = {}
        self._sums: dict[LabelKey, float] = {}

    def observe(self, value: float, **labels: str) -> None:
        key = self._key(labels)
        with self._lock:
            counts = self._counts.setdefault(key, [0] * (len(self.buckets) + 1))
            for i, bound in enumerate(self.buckets):
                if value <= bound:
                    counts[i] += 1
            counts[-1] += 1  # +Inf
            self._sums[key] = self._sums.get(key, 0.0) + value

    def count(self, **labels: str) -> int:
        counts = self._counts.get(self._key(labels))
        return counts[-1] if counts else 0

    def samples(self) -> Iterable[str]:
        for key, counts in sorted(self._counts.items()):
            bounds = [*(_number(b) for b in self.buckets), "+Inf"]
            for bound, count in zip(bounds, counts, strict=True):
                yield f"{self.name}_bucket{_labels(key, [('le', bound)])} {count}"
            yield f"{self.name}_sum{_labels(key)} {_number(self._sums[key])}"
            yield f"{self.name}_count{_labels(key)} {counts[-1]}"


class Metrics:
    """The bot's metrics. One process-wide instance (`METRICS`); tests make their own."""

    def __init__(self) -> None:
        self.digests_posted = Counter(
            "vllm_bot_digests_posted_total", "Weekly digests posted.", ["platform"]
        )
        self.alerts_posted = Counter(
            "vllm_bot_alerts_posted_total", "Module alerts posted.", ["platform"]
        )
        self.jobs = Counter(
            "vllm_bot_jobs_total", "Scheduled job runs by outcome.", ["job", "outcome"]
        )
        self.errors = Counter("vllm_bot_errors_total", "Errors by kind.", ["kind"])
        self.command_seconds = Histogram(
            "vllm_bot_command_duration_seconds",
            "Slash command latency, from receipt to reply.",
            ["platform", "command"],
        )
        self.github_requests = CounterFunc(
            "vllm_bot_github_requests_total", "HTTP requests sent to GitHub (retries included)."
        )
        self.github_rate_remaining = Gauge(
            "vllm_bot_github_rate_limit_remaining", "GitHub rate limit left, as last reported."
        )
        self.leader = Gauge("vllm_bot_scheduler_leader", "1 when this instance runs the scheduler.")
        self.up = Gauge("vllm_bot_up", "1 while the bot runs.")
        self.command_queue = Gauge(
            "vllm_bot_command_queue_depth",
            "Slash commands acknowledged and waiting for a worker.",
        )
        self.commands_running = Gauge(
            "vllm_bot_commands_running", "Slash commands being answered now."
        )
        self.commands_busy = Counter(
            "vllm_bot_commands_busy_total",
            "Slash commands answered 'busy, try again' because the queue was full.",
            ["platform"],
        )
        self.db_pool_size = Gauge(
            "vllm_bot_db_pool_size", "Database connections the pool may open (size + overflow)."
        )
        self.db_pool_in_use = Gauge(
            "vllm_bot_db_pool_in_use", "Database connections checked out of the pool now."
        )
        self.up.set(1)

    def all(self) -> list[_Metric]:
        return [m for m in vars(self).values() if isinstance(m, _Metric)]

    def render(self) -> str:
        lines: list[str] = []
        for metric in self.all():
            lines.extend(metric.header())
            lines.extend(metric.samples())
        return "\n".join(lines) + "\n"

    @contextmanager
    def command(
        self, platform: str, name: str, *, started: float | None = None
    ) -> Iterator[CommandRun]:
        """Time one slash command and log one line for it.

        `started` (a `time.perf_counter()` value) is when the command arrived, for adapters
        that acknowledge first and answer from a background task: the histogram measures
        receipt to reply, not just the last leg. The body may set `run.outcome`: a reply
        that is an error is not an exception. `"failed"` (our side or GitHub's) is counted
        in `errors{kind="command"}`; `"invalid"` (bad input) is the user's and is not.
        """
        run = CommandRun()
        started = time.perf_counter() if started is None else started
        try:
            yield run
        except BaseException as exc:
            # Cancellation (shutdown cut the answer off) is not the command's fault.
            run.outcome = "cancelled" if isinstance(exc, asyncio.CancelledError) else "failed"
            if run.outcome == "failed":
                run.kind = error_kind(exc)
            raise
        finally:
            seconds = time.perf_counter() - started
            self.command_seconds.observe(seconds, platform=platform, command=name)
            if run.outcome == "failed":
                self.errors.inc(kind=run.kind)
            level = logging.WARNING if run.outcome == "failed" else logging.INFO
            log.log(
                level,
                "command %s on %s: %s in %.3f s",
                name,
                platform,
                run.outcome,
                seconds,
                extra={
                    "event": "command",
                    "platform": platform,
                    "command": name,
                    "outcome": run.outcome,
                    "seconds": round(seconds, 3),
                    **({"channel": run.channel} if run.channel else {}),
                },
            )


@dataclass(slots=True)
class CommandRun:
    """What a command's body reports back to `Metrics.command`."""

    outcome: str = "ok"  # ok | invalid (bad input) | failed | cancelled
    kind: str = "command"  # errors{kind} when failed
    channel: str | None = None

    def reply(self, ok: bool, runtime: bool) -> None:
        """Outcome from a command-layer Reply (errors come back as replies, not raises)."""
        if not ok:
            self.outcome = "failed" if runtime else "invalid"


# The services whose errors are counted under their own kind; each client maps its
# library's exceptions onto a BotError naming its `service` at its boundary (the store maps
# its driver's to StoreError), so an error is classified by the bot's classes alone.
_SERVICE_KINDS = frozenset({*CHAT_PLATFORMS, "store"})


def error_kind(exc: BaseException) -> str:
    """A short, bounded label for an error (metric labels must not be unbounded text):
    github, github_rate_limit, slack, discord, store, usage, timeout, network, internal."""
    if isinstance(exc, errors.RateLimitExhausted):
        return "github_rate_limit"
    if isinstance(exc, errors.GitHubError):
        return "github"
    if isinstance(exc, errors.BotError) and exc.service in _SERVICE_KINDS:
        return exc.service
    if isinstance(exc, errors.UsageError):
        return "usage"
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, OSError):
        return "network"
    return "internal"


METRICS = Metrics()
