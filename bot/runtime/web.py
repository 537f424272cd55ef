"""The one web server: platform routes plus /healthz, /readyz and /metrics."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from aiohttp import web

from bot.app import chat_platforms
from bot.core.metrics import CONTENT_TYPE, Metrics
from bot.core.models import JSON
from bot.platform import Component, Route
from bot.probes import Probe, github_reachable, store_reachable
from bot.reject import RejectionLog

if TYPE_CHECKING:
    from bot.app import App
    from bot.digest.archive import ArchiveCache


class Readiness:
    """Store reachable, GitHub reachable, configured platforms logged in.

    Results are cached for `cache_seconds`: probes that hit GitHub and the platforms must
    not multiply with every load-balancer poll.
    """

    def __init__(
        self,
        services: App,
        components: Sequence[Component] = (),
        cache_seconds: float = 15,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.services = services
        self.components = list(components)
        self.cache_seconds = cache_seconds
        self.clock = clock
        self.draining = False
        self.github_remaining: int | None = None
        self._cached: tuple[float, list[tuple[str, Probe]]] | None = None
        self._lock = asyncio.Lock()

    async def _github(self) -> Probe:
        probe, remaining = await github_reachable(self.services.env)
        if remaining is not None:
            self.github_remaining = remaining
        return probe

    async def _platform(self, name: str, fallback: Callable[[], Awaitable[Probe]]) -> Probe:
        for component in self.components:
            if component.name == name:
                probe = component.ready()
                if probe is not None:
                    return probe
        return await fallback()

    async def _probes(self) -> list[tuple[str, Probe]]:
        env = self.services.env
        named: list[tuple[str, Awaitable[Probe]]] = [
            ("store", store_reachable(self.services.store)),
            ("github", self._github()),
        ]
        for platform in chat_platforms():
            fallback = platform.readiness(env)
            if fallback is not None:
                named.append((platform.name, self._platform(platform.name, fallback)))
        probes = await asyncio.gather(*(check for _, check in named))
        return [(name, probe) for (name, _), probe in zip(named, probes, strict=True)]

    async def check(self) -> tuple[bool, JSON]:
        async with self._lock:
            now = self.clock()
            if self._cached is None or now - self._cached[0] >= self.cache_seconds:
                self._cached = (now, await self._probes())
            probes = self._cached[1]
        checks = {name: {"ok": p.ok, "detail": p.detail} for name, p in probes}
        if self.draining:
            checks["shutdown"] = {"ok": False, "detail": "shutting down"}
        ready = all(c["ok"] for c in checks.values())
        return ready, {"ready": ready, "checks": checks}


def archive_routes(cache: ArchiveCache) -> list[Route]:
    """GET /digests/...: the archive (bot.digest.archive.ArchiveCache) as static pages."""

    async def view(request: web.Request) -> web.StreamResponse:
        path = request.match_info.get("path", "")
        if path.endswith("/") or not path:
            path += "index.html"
        if ".." in path.split("/"):
            raise web.HTTPNotFound()
        page = await cache.page(path)
        if page is None:
            raise web.HTTPNotFound()
        kind = "application/atom+xml" if path.endswith(".xml") else "text/html"
        return web.Response(text=page, content_type=kind, charset="utf-8")

    async def root(_: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/digests/")

    return [Route("GET", "/digests/{path:.*}", view), Route("GET", "/digests", root)]


# What a request may carry: the URL (path and query) and each header line. Past these it
# is answered 414 / 431 by `oversized`; the parser reads up to PARSER_LIMIT so that it is
# the bot, not aiohttp's parser (a 400 with a traceback in the log), that refuses.
MAX_URL = 8192
MAX_HEADER = 8192
MAX_HEADERS_TOTAL = 32768
PARSER_LIMIT = 65536
OVERSIZED = RejectionLog(interval=60.0)


@web.middleware
async def oversized(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """414 for an over-long URL, 431 for over-long headers: one line a minute in the log
    (the next says how many more), before any handler, signature check or body read."""
    if len(request.raw_path) > MAX_URL:
        OVERSIZED(
            "HTTP 414", f"URL of {len(request.raw_path)} bytes (limit {MAX_URL})", request.remote
        )
        return web.Response(status=414, text=f"URL too long (limit {MAX_URL} bytes)\n")
    sizes = [len(name) + len(value) for name, value in request.raw_headers]
    if (sizes and max(sizes) > MAX_HEADER) or sum(sizes) > MAX_HEADERS_TOTAL:
        OVERSIZED(
            "HTTP 431", f"headers of {sum(sizes)} bytes (limit {MAX_HEADER} each)", request.remote
        )
        return web.Response(
            status=431, text=f"request headers too large (limit {MAX_HEADER} bytes each)\n"
        )
    return await handler(request)


class _ParserErrors(logging.Filter):
    """aiohttp's own "Error handling request" (beyond PARSER_LIMIT, or not HTTP at all):
    one rate-limited line without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith("Error handling request"):
            return True
        exc = record.exc_info[1] if record.exc_info else None
        OVERSIZED("HTTP 400", f"unparsable request ({type(exc).__name__})", None)
        return False


SERVER_LOG = logging.getLogger("bot.web.server")
SERVER_LOG.addFilter(_ParserErrors())


def build_app(
    readiness: Readiness, metrics: Metrics, routes: Sequence[Route] = ()
) -> web.Application:
    async def healthz(_: web.Request) -> web.Response:
        # Alive: the event loop answers. Nothing external, so a GitHub outage never gets
        # the process restarted.
        return web.json_response({"status": "ok"})

    async def readyz(_: web.Request) -> web.Response:
        ready, body = await readiness.check()
        return web.json_response(body, status=200 if ready else 503)

    async def metrics_view(_: web.Request) -> web.Response:
        return web.Response(body=metrics.render().encode(), headers={"Content-Type": CONTENT_TYPE})

    app = web.Application(middlewares=[oversized])
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_view)
    for route in routes:
        app.router.add_route(route.method, route.path, route.handler)
    return app


async def start_site(
    app: web.Application, host: str, port: int, shutdown_timeout: float
) -> tuple[web.AppRunner, int]:
    """Listen; returns the runner and the bound port (port 0 picks a free one)."""
    runner = web.AppRunner(
        app,
        access_log=None,
        shutdown_timeout=shutdown_timeout,
        max_line_size=PARSER_LIMIT,
        max_field_size=PARSER_LIMIT,
        logger=SERVER_LOG,
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    bound = port
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            bound = int(address[1])
            break
    return runner, bound
