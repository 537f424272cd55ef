"""One interface for every place a document can be posted and a command answered: Slack,
Discord, the terminal.

A `Platform` is everything the bot knows about one platform, in one class per platform
(bot/slack/platform.py, bot/discord/platform.py, bot/terminal.py):

- what it posts: it renders a neutral `Document` with its pure formatter (formatters/),
  posts it as a thread through the delivery ledger (`bot.delivery.deliver`: claimed part by
  part, resumed after a crash, nothing posted twice), posts one message, and names and
  checks a channel. Posting (`bot.posting`), the alerts sender, the scheduler, the CLI's
  `--post` and the chat `/vllm digest post` all go through it, so nothing outside
  `bot/<platform>/` branches on a platform's name;
- how it answers a command: its `Platform.Responder` (acknowledge, respond, follow up), the
  one per-command object `bot.commands.driver.drive` talks to;
- what running it takes: the tokens it needs (`missing_tokens`), doctor's `checks`, the
  /readyz probe (`readiness`) and what `serve` mounts (`Route`) or starts (`Component`).
  These are classmethods: serve's preflight and doctor ask them of the configuration
  before any client exists.

`Platforms` is the registry the App builds from config and environment: a read-only
mapping from name to Platform whose entries are built on first use (a PR lookup never
builds a platform client). This module imports no platform: the App registers them.

`PostingServices` is what posting needs of the process: `Services` plus the registry.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.core.document import Document
from bot.core.errors import UsageError
from bot.core.messages import Text
from bot.core.models import JSON
from bot.core.tasks import Work
from bot.core.validators import echo
from bot.services import Services

if TYPE_CHECKING:
    from aiohttp import web

    from bot.core.config import Config, Environment
    from bot.delivery import Attachment, DeliveryResult, Sent
    from bot.probes import Probe
    from bot.store.deliveries import Deliveries


@dataclass(frozen=True, slots=True)
class Post:
    """One document's post, resolved once for every platform: its ledger key and payloads."""

    store: Deliveries
    document: Document
    document_id: str
    channel: str
    payloads: list[JSON]
    force: bool
    attachment: Attachment | None


class Platform(ABC):
    """One platform: posting, answering a command, and what running it takes.

    `post_document` resolves the ledger key and renders once, then the platform posts the
    `Post`. The defaults are what the terminal keeps (a chart fits, always available, no
    client of its own to close, no token, nothing for doctor, /readyz or serve)."""

    # The ledger's and the metrics' name ("slack", "discord", "terminal").
    name: str

    # ------------------------------------------------------------------ posting

    @abstractmethod
    def render(self, document: Document, channel: str | None = None) -> list[JSON]:
        """The platform's message payloads for `document` (pure: its formatter)."""

    @abstractmethod
    def channel_problem(self, channel: str) -> str | None:
        """Why `channel` cannot be one of this platform's channels (one line), or None."""

    @abstractmethod
    async def post_thread(self, post: Post) -> DeliveryResult:
        """Post the resolved `post` as a thread (summary, details, then its attachment)."""

    @abstractmethod
    async def post_message(self, channel: str, text: str) -> Sent:
        """Post one plain message in `channel` (no ledger: the caller decides on repeats)."""

    def attaches(self, channel: str) -> bool:
        """Whether a post to `channel` can carry a file (the chart): when it cannot, the
        chart is not even drawn."""
        return True

    def available(self) -> str | None:
        """Why nothing can be posted now (a missing token, with the fix), or None."""
        return None

    async def post_document(
        self,
        store: Deliveries,
        document: Document,
        channel: str,
        *,
        document_id: str | None = None,
        force: bool = False,
        attachment: Attachment | None = None,
    ) -> DeliveryResult:
        """Post `document` as a thread (summary, details, then `attachment`) through the
        ledger under `document_id` (default: the document's id)."""
        payloads = self.render(document, channel)
        key = document_id or document.id
        return await self.post_thread(
            Post(store, document, key, channel, payloads, force, attachment)
        )

    async def close(self) -> None:
        # A platform's client belongs to the App (or the chat bot), which closes it.
        return None

    # ------------------------------------------------------------------ running it

    @classmethod
    def missing_tokens(cls, config: Config, env: Environment) -> list[str]:
        """What the config needs of this platform and the environment lacks, as fix-it
        phrases ("X is not set but …; set it …")."""
        return []

    @classmethod
    async def checks(cls, config: Config, env: Environment) -> list[Probe]:
        """doctor's read-only checks (tokens, channels); [] when nothing is configured."""
        return []

    @classmethod
    def readiness(cls, env: Environment) -> Callable[[], Awaitable[Probe]] | None:
        """/readyz's login check when this platform has a token, else None."""
        return None

    @classmethod
    def serve(cls, services: Any) -> tuple[list[Route], list[Component]]:
        """The routes `serve` mounts and the components it starts for this platform (none
        when its token is unset). `services` is the running `bot.app.App`, which this
        layer cannot name: it sits above the platforms."""
        return [], []


def target_name(platform: str, channel: str) -> str:
    """How a channel is written everywhere: `slack:C0123`, `discord:1234…`."""
    return f"{platform}:{channel}"


def check_channel(platform: Platform, channel: str) -> str:
    """`channel` when `platform` accepts it, else UsageError with one clear line."""
    problem = platform.channel_problem(channel)
    if problem is not None:
        raise UsageError(problem)
    return channel


class Platforms(Mapping[str, Platform]):
    """The registry: platform name -> Platform, each built the first time it is asked for.

    Factories are registered by the composition root (`bot.app.App`), so this module and
    its callers never import a platform library."""

    def __init__(self, factories: Mapping[str, Callable[[], Platform]] | None = None) -> None:
        self._factories: dict[str, Callable[[], Platform]] = dict(factories or {})
        self._built: dict[str, Platform] = {}
        # Platforms that are not chat services (the terminal): never a `--post` target.
        self._local: set[str] = set()

    def register(self, name: str, factory: Callable[[], Platform]) -> None:
        """Add (or replace, before first use) the platform `name`."""
        self._factories[name] = factory
        self._built.pop(name, None)

    def __getitem__(self, name: str) -> Platform:
        built = self._built.get(name)
        if built is None:
            built = self._built[name] = self._factories[name]()
        return built

    def __iter__(self) -> Iterator[str]:
        return iter(self._factories)

    def __len__(self) -> int:
        return len(self._factories)

    @property
    def built(self) -> Mapping[str, Platform]:
        """The platforms built so far (metrics and shutdown must not build one)."""
        return dict(self._built)

    def register_local(self, name: str, factory: Callable[[], Platform]) -> None:
        """Add a platform that is not a chat service (the terminal): not a `--post` target."""
        self.register(name, factory)
        self._local.add(name)

    def chat_names(self) -> list[str]:
        """The chat platforms, in registration order (asking builds none of them)."""
        return [name for name in self._factories if name not in self._local]

    def get_platform(self, name: str) -> Platform:
        """The platform `name`, or UsageError naming the accepted ones."""
        if name not in self._factories:
            accepted = ", ".join(self.chat_names())
            raise UsageError(
                Text("error.platform.unknown", {"name": echo(name), "accepted": accepted})
            )
        return self[name]

    def parse_target(self, value: str) -> tuple[Platform, str]:
        """`slack:C0123` -> (the Slack platform, "C0123"); UsageError with one line when the
        platform is unknown or the channel is not one of its channels."""
        name, sep, channel = value.partition(":")
        if not sep or name not in self.chat_names() or not channel:
            examples = " or ".join(f"{n}:CHANNEL" for n in self.chat_names())
            raise UsageError(
                Text("error.platform.post_target", {"value": repr(value), "examples": examples})
            )
        platform = self[name]
        return platform, check_channel(platform, channel)

    async def close(self) -> None:
        """Close every platform built so far (their clients and sessions)."""
        built, self._built = self._built, {}
        for platform in built.values():
            await platform.close()


# ---------------------------------------------------------------------------- serve

# An aiohttp handler (aiohttp is named for type checking only: posting never loads it).
Handler = Callable[["web.Request"], Awaitable["web.StreamResponse"]]


@dataclass
class Route:
    """A route `serve`'s web server mounts (Slack's events, the GitHub webhook, …); `work`
    is what shutdown drains for it when the handler is not `Work` itself."""

    method: str
    path: str
    handler: Handler
    work: Work | None = None


class Component(Protocol):
    """A connection `serve` starts and stops; `leader_only` ones run on the scheduler
    leader alone. A Protocol because three unrelated classes are one: Slack Socket Mode
    (`bot.slack.socket.SlackSocket`), the Discord gateway (`bot.discord.gateway`) and the
    alerts' webhook endpoint (`bot.alerts.webhook.WebhookEndpoint`)."""

    name: str
    leader_only: bool

    async def start(self) -> None: ...
    async def stop(self) -> None: ...

    def ready(self) -> Probe | None:
        """The connection's state for /readyz, or None to let the platform's probe answer."""
        ...


class PostingServices(Services):
    """`Services` plus the platform registry: what posting a document takes."""

    @property
    @abstractmethod
    def platforms(self) -> Platforms:
        """Every place a document can be posted, by name."""
