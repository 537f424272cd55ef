"""One httpx.AsyncClient for GitHub: auth, retries, rate limits, request counting.

Every GitHub request of the bot goes through `GitHubClient`, so retry and rate-limit policy
lives in one place:

- 5xx, timeouts and connection errors: retried with jittered exponential backoff, at most
  `max_retries` times, then `GitHubUnavailable` with the last reason.
- 403/429 secondary limits: wait `Retry-After` (else until `X-RateLimit-Reset`, else a
  minute, as GitHub documents), then retry; a wait longer than `max_wait` is not worth
  blocking a command for and becomes `RateLimitExhausted`.
- primary limit exhausted (remaining 0): `RateLimitExhausted` naming the reset time in local
  time, without sending more requests.
- 401: `GitHubAuthError` with a hint; GraphQL `errors`: `GitHubError` (`NotFoundError` for
  NOT_FOUND), never silently empty data.

The token is only ever placed in the Authorization header; no message or repr contains it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from importlib import metadata

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_random_exponential,
)

from bot.core.errors import (
    GitHubAuthError,
    GitHubError,
    GitHubUnavailable,
    GitHubUnreachable,
    NotFoundError,
    RateLimitExhausted,
)
from bot.core.messages import Text
from bot.core.models import JSON, JSONValue

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
Notice = Callable[[str], None]
# A request's query string (`per_page=100`).
Query = Mapping[str, str | int]


def _version() -> str:
    try:
        return metadata.version("vllm-bot")
    except metadata.PackageNotFoundError:
        return "dev"


# GitHub rejects requests without a User-Agent and asks for one that identifies the app.
USER_AGENT = f"vllm-bot/{_version()}"
UNAUTHENTICATED_NOTICE = (
    "GITHUB_TOKEN is not set: using the REST API, which GitHub limits to 60 requests/hour "
    "without a token. Set GITHUB_TOKEN for fast syncs through GraphQL."
)
# A primary limit resetting sooner than this is waited for (the search API's minute budget).
PRIMARY_WAIT = 65.0


@dataclass(slots=True)
class RateLimit:
    """The latest rate-limit state GitHub reported (headers or GraphQL `rateLimit`)."""

    limit: int | None = None
    remaining: int | None = None
    reset_at: float | None = None  # epoch seconds
    used: int | None = None
    last_cost: int | None = None  # GraphQL points the last query cost


class _Retryable(Exception):
    """A failure worth another attempt; `wait` overrides the backoff when GitHub said how long."""

    def __init__(self, reason: Text, *, wait: float | None = None, kind: str = "unavailable"):
        super().__init__(reason)
        self.reason = reason
        self.wait = wait
        self.kind = kind  # "unavailable" | "secondary"


def format_reset(reset_at: float | None, now: float | None = None) -> Text:
    """'at 14:05 local time (in 37 min)' — users read local clocks, not epoch seconds."""
    if reset_at is None:
        return Text("error.github.reset.unknown")
    now = time.time() if now is None else now
    local = datetime.fromtimestamp(reset_at, UTC).astimezone()
    minutes = max(0, round((reset_at - now) / 60))
    when = local.strftime("%H:%M") if minutes < 24 * 60 else local.strftime("%Y-%m-%d %H:%M")
    # As a string: a count would be grouped ("1,440 min").
    return Text("error.github.reset.at", {"when": when, "minutes": str(minutes)})


def _int(headers: Mapping[str, str], name: str) -> int | None:
    value = headers.get(name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _retry_after(headers: Mapping[str, str], now: float) -> float | None:
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:  # HTTP-date form, allowed by RFC 9110
        return max(0.0, parsedate_to_datetime(value).timestamp() - now)
    except (TypeError, ValueError):
        return None


def _message(response: httpx.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return response.text[:200]
    if not isinstance(data, dict):
        return ""
    text = str(data.get("message") or "")
    # 422s carry the useful part in errors[].message ("... cannot be searched ...").
    details = [e.get("message") for e in data.get("errors") or [] if isinstance(e, dict)]
    return "; ".join([text, *[d for d in details if d]])[:300]


class GitHubClient:
    """Wraps one httpx.AsyncClient. Use `async with` or call `aclose()`."""

    def __init__(
        self,
        *,
        token: str | None,
        api_url: str = "https://api.github.com",
        graphql_url: str = "https://api.github.com/graphql",
        timeout: float = 30.0,
        max_retries: int = 5,
        page_size: int = 100,
        freshness_minutes: float = 60,
        sleep: Sleep = asyncio.sleep,
        backoff_base: float = 1.0,
        backoff_max: float = 60.0,
        max_wait: float = 900.0,
        notice: Notice | None = None,
        clock: Callable[[], float] = time.time,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._token = token
        self.api_url = api_url.rstrip("/")
        self.graphql_url = graphql_url
        self.max_retries = max_retries
        self.page_size = page_size
        # How long a confirmed window is trusted without asking GitHub (config.github).
        self.freshness_minutes = freshness_minutes
        self.sleep = sleep
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_wait = max_wait
        self.clock = clock
        self._notice = notice or (lambda text: log.warning("%s", text))
        self._noticed = False
        self.requests = 0  # HTTP requests sent, retries included: what the summary reports
        self.waits: list[float] = []  # every sleep asked for, for the user's and tests' benefit
        # GitHub keeps separate budgets (graphql, core, search): one state per resource.
        self.rates: dict[str, RateLimit] = {}
        headers = {"User-Agent": USER_AGENT, "X-GitHub-Api-Version": "2022-11-28"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._http = httpx.AsyncClient(
            headers=headers,
            timeout=httpx.Timeout(timeout),
            transport=transport,
            follow_redirects=True,
        )

    def __repr__(self) -> str:  # never the token
        mode = "graphql" if self.uses_graphql else "rest"
        return f"GitHubClient({mode}, api={self.api_url!r}, requests={self.requests})"

    @property
    def uses_graphql(self) -> bool:
        """GraphQL needs a token; without one the REST API is the only way in."""
        return bool(self._token)

    def notice_unauthenticated(self) -> None:
        """Say once per client that anonymous use is slow, so the user knows why."""
        if not self._noticed:
            self._noticed = True
            self._notice(UNAUTHENTICATED_NOTICE)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> GitHubClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ------------------------------------------------------------------ rate limits

    @property
    def rate(self) -> RateLimit:
        """The budget syncs spend: graphql with a token, core without."""
        main = "graphql" if self._token else "core"
        return self.rates.get(main) or next(iter(self.rates.values()), RateLimit())

    def _resource(self, url: str) -> str:
        if url == self.graphql_url:
            return "graphql"
        return "search" if httpx.URL(url).path.rstrip("/").endswith("/search/issues") else "core"

    def _read_headers(self, headers: Mapping[str, str], resource: str) -> None:
        remaining = _int(headers, "x-ratelimit-remaining")
        if remaining is None:
            return
        rate = self.rates.setdefault(headers.get("x-ratelimit-resource") or resource, RateLimit())
        rate.remaining = remaining
        rate.limit = _int(headers, "x-ratelimit-limit") or rate.limit
        rate.used = _int(headers, "x-ratelimit-used")
        reset = _int(headers, "x-ratelimit-reset")
        if reset is not None:
            rate.reset_at = float(reset)

    def _read_graphql_rate(self, data: JSON | None) -> None:
        info = (data or {}).get("rateLimit")
        if not isinstance(info, dict):
            return
        rate = self.rates.setdefault("graphql", RateLimit())
        if info.get("remaining") is not None:
            rate.remaining = int(info["remaining"])
        if info.get("cost") is not None:
            rate.last_cost = int(info["cost"])
        if info.get("resetAt"):
            reset = datetime.fromisoformat(str(info["resetAt"]).replace("Z", "+00:00"))
            rate.reset_at = reset.timestamp()

    def _exhausted(self, resource: str) -> RateLimitExhausted:
        rate = self.rates.get(resource) or RateLimit()
        # The limit as a string: GitHub's "5000", not a grouped count.
        limit = Text("error.github.exhausted.of", {"limit": str(rate.limit)}) if rate.limit else ""
        said = {
            "resource": resource,
            "limit": limit,
            "reset": format_reset(rate.reset_at, self.clock()),
        }
        text = (
            Text("error.github.exhausted", said)
            if self._token
            else Text("error.github.exhausted.anonymous", said)
        )
        return RateLimitExhausted(text, reset_at=rate.reset_at)

    def _check_budget(self, resource: str) -> None:
        # Known to be at zero and not yet reset: asking again only burns goodwill.
        rate = self.rates.get(resource)
        if rate and rate.remaining == 0 and rate.reset_at and rate.reset_at > self.clock():
            raise self._exhausted(resource)

    # ------------------------------------------------------------------ requests

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, _Retryable) and exc.wait is not None:
            return exc.wait
        jitter = wait_random_exponential(multiplier=self.backoff_base, max=self.backoff_max)
        return jitter(state)

    async def _sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        if seconds > 0:
            log.info("GitHub: waiting %.1f s before retrying", seconds)
        await self.sleep(seconds)

    def _classify(self, response: httpx.Response, resource: str) -> None:
        """Raise for anything but success/304; _Retryable for what deserves another try."""
        status = response.status_code
        if status < 400 or status == 304:
            return
        now = self.clock()
        headers = response.headers
        message = _message(response)
        if status == 401:
            raise GitHubAuthError(
                Text("error.github.token_rejected", {"detail": message or "Unauthorized"})
            )
        remaining = _int(headers, "x-ratelimit-remaining")
        retry_after = _retry_after(headers, now)
        limited = status == 429 or (
            status == 403
            and (retry_after is not None or remaining == 0 or "rate limit" in message.lower())
        )
        if limited:
            reset = _int(headers, "x-ratelimit-reset")
            if retry_after is not None:
                wait = retry_after
            elif remaining == 0:
                # Primary limit. The search budget resets every minute: worth waiting for;
                # the hourly budgets are not.
                if reset is None or reset - now > PRIMARY_WAIT:
                    raise self._exhausted(resource)
                wait = max(1.0, reset - now)
            elif reset is not None:
                wait = max(1.0, reset - now)
            else:
                wait = 60.0  # GitHub: "wait for at least one minute before retrying"
            if wait > self.max_wait:
                again = {"minutes": f"{wait / 60:.0f}", "reset": format_reset(now + wait, now)}
                raise RateLimitExhausted(
                    Text("error.github.secondary", again),
                    reset_at=now + wait,
                )
            said = {"status": status, "detail": message}
            raise _Retryable(
                Text("error.github.reason.secondary", said), wait=wait, kind="secondary"
            )
        if status >= 500:
            phrase = response.reason_phrase
            if not phrase:
                raise _Retryable(Text("error.github.reason.status", {"status": status}))
            said = {"status": status, "phrase": phrase}
            raise _Retryable(Text("error.github.reason.status_phrase", said))
        if status == 404:
            raise NotFoundError(Text("error.github.not_found", {"path": response.request.url.path}))
        detail = message or response.reason_phrase
        raise GitHubError(Text("error.github.http", {"status": status, "detail": detail}))

    async def _send_once(
        self,
        method: str,
        url: str,
        *,
        params: Query | None = None,
        headers: Mapping[str, str] | None = None,
        json: JSON | None = None,
    ) -> httpx.Response:
        resource = self._resource(url)
        self._check_budget(resource)
        self.requests += 1
        try:
            response = await self._http.request(
                method, url, params=params, headers=headers, json=json
            )
        except httpx.TimeoutException as exc:
            seconds = str(self._http.timeout.read)  # as configured ("10.0"), not a count
            raise _Retryable(Text("error.github.reason.timeout", {"seconds": seconds})) from exc
        except httpx.ConnectError as exc:
            # Refused or no such host: a retry seconds later meets the same answer, so
            # say so at once instead of backing off for ten seconds.
            said = {"host": httpx.URL(url).host, "reason": str(exc) or type(exc).__name__}
            raise GitHubUnreachable(Text("error.github.unreachable", said)) from exc
        except httpx.TransportError as exc:
            said = {"host": httpx.URL(url).host, "reason": str(exc) or type(exc).__name__}
            raise _Retryable(Text("error.github.unreachable", said)) from exc
        self._read_headers(response.headers, resource)
        self._classify(response, resource)
        return response

    async def request(
        self,
        method: str,
        url: str,
        *,
        params: Query | None = None,
        headers: Mapping[str, str] | None = None,
        json: JSON | None = None,
    ) -> httpx.Response:
        """Send with retries; returns a 2xx or 304 response, or raises a bot error."""
        retrying = AsyncRetrying(
            retry=retry_if_exception_type(_Retryable),
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            sleep=self._sleep,
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    return await self._send_once(
                        method, url, params=params, headers=headers, json=json
                    )
        except _Retryable as exc:
            tried = {"attempts": self.max_retries + 1, "reason": exc.reason}
            if exc.kind == "secondary":
                raise RateLimitExhausted(Text("error.github.secondary.kept", tried)) from None
            raise GitHubUnavailable(Text("error.github.unavailable", tried)) from None
        raise AssertionError("unreachable: tenacity either returns or raises")

    async def rest(
        self,
        path_or_url: str,
        *,
        params: Query | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        if not self._token:
            self.notice_unauthenticated()
        url = path_or_url if "://" in path_or_url else f"{self.api_url}/{path_or_url.lstrip('/')}"
        return await self.request("GET", url, params=params, headers=headers)

    async def graphql(self, query: str, variables: Mapping[str, JSONValue] | None = None) -> JSON:
        """The `data` of a GraphQL response; any `errors` entry raises."""
        if not self._token:
            raise GitHubAuthError(Text("error.github.graphql.token"))
        response = await self.request(
            "POST", self.graphql_url, json={"query": query, "variables": dict(variables or {})}
        )
        try:
            payload = response.json()
        except ValueError:
            raise GitHubError(Text("error.github.graphql.not_json")) from None
        data = payload.get("data")
        self._read_graphql_rate(data)
        errors = payload.get("errors")
        if errors:
            first = errors[0] if isinstance(errors[0], dict) else {"message": str(errors[0])}
            kind = first.get("type")
            text = first.get("message") or "unknown error"
            count = len(errors) - 1
            more = Text("error.github.graphql.more", {"count": count}) if count else ""
            said = {"detail": text, "more": more}
            if kind == "NOT_FOUND":
                raise NotFoundError(Text("error.github.graphql.not_found", said))
            if kind == "RATE_LIMITED":
                self.rates.setdefault("graphql", RateLimit()).remaining = 0
                raise self._exhausted("graphql")
            raise GitHubError(Text("error.github.graphql", said))
        if not isinstance(data, dict):
            raise GitHubError(Text("error.github.graphql.no_data"))
        return data
