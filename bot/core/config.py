"""Configuration: shipped defaults + the user's TOML file + the environment.

Everything that is not a secret or an endpoint lives in TOML; secrets and endpoints live
only in the environment (CONTRACT). Validation errors become one line naming the file,
the key path and what is accepted.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import tomllib
import typing
import zoneinfo
from datetime import UTC
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from platformdirs import user_data_dir
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from bot.core.cron import parse_cron
from bot.core.errors import ConfigError, english
from bot.core.messages import Text
from bot.core.secrets import control_characters, register
from bot.core.settings import AlertsConfig, LoggingConfig, ServeConfig
from bot.core.validators import (
    ChatPlatform,
    database_password,
    database_url_problem,
    echo,
    repo_problem,
)

REPO_PATTERN = r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _repo_name(value: str) -> str:
    if (problem := repo_problem(value)) is not None:
        raise ValueError(problem)  # shown as an example, never as the regular expression
    return value


RepoName = Annotated[str, AfterValidator(_repo_name)]

_ORG = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")


def _org_name(value: str) -> str:
    if not _ORG.match(value):
        # An example, never the regular expression.
        raise ValueError(english("error.config.org", value=echo(value)))
    return value


OrgName = Annotated[str, AfterValidator(_org_name)]


VLLM_REPO = "vllm-project/vllm"


class RepoConfig(_Strict):
    name: RepoName
    # A rule set in config/modules/, a path to one, or "auto". Left out: vLLM's own rules
    # for vllm-project/vllm only; any other repository's modules come from its own
    # labelling rules, since vLLM's (rocm, xpu, ...) would mislabel it.
    modules: str = "auto"

    @model_validator(mode="before")
    @classmethod
    def _default_ruleset(cls, data: object) -> object:
        if isinstance(data, dict) and "modules" not in data:
            name = data.get("name")
            if isinstance(name, str) and name.lower() == VLLM_REPO:
                return {**data, "modules": "vllm"}
        return data

    @field_validator("modules")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        if value == "auto" or value in builtin_rulesets():
            return value
        path = Path(value).expanduser()
        if path.suffix == ".toml" or path.exists():
            if not path.is_file():
                accepted = ", ".join(f"'{name}'" for name in (*builtin_rulesets(), "auto"))
                raise ValueError(
                    english("error.config.ruleset_missing", value=echo(value), accepted=accepted)
                )
            return value
        accepted = ", ".join(f"'{name}'" for name in (*builtin_rulesets(), "auto"))
        raise ValueError(english("error.config.ruleset_unknown", accepted=accepted))


class GitHubConfig(_Strict):
    freshness_minutes: Annotated[int, Field(ge=0)] = 60
    page_size: Annotated[int, Field(ge=1, le=100)] = 100
    max_retries: Annotated[int, Field(ge=0, le=20)] = 3
    timeout_seconds: Annotated[float, Field(gt=0)] = 30


class ServerConfig(_Strict):
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8080


class SlackConfig(_Strict):
    mode: Literal["socket", "http"] = "socket"


class DiscordConfig(_Strict):
    guild_ids: list[int] = []


# The shipped schedule, known good: checking it would load APScheduler on every command.
DEFAULT_CRON = "0 9 * * MON"


def _checked_cron(value: str) -> str:
    # Checked at load, so every command refuses a bad schedule, not only `serve`.
    if value == DEFAULT_CRON:
        return value
    try:
        parse_cron(value, UTC)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    return value


class DigestTarget(_Strict):
    platform: ChatPlatform
    channel: Annotated[str, Field(min_length=1)]
    repo: RepoName | None = None
    # One digest for several repositories: a list, or an organisation's public repositories
    # with merged PRs in the window (minus `exclude`). See docs/digest.md.
    repos: list[RepoName] = []
    org: OrgName | None = None
    exclude: list[RepoName] = []
    language: Literal["en", "zh"] | None = None
    cron: str = DEFAULT_CRON
    catch_up_hours: Annotated[float, Field(ge=0)] = 24
    # Discord channel webhook (posts without a bot connection). The URL carries the
    # webhook's token, so the config names the environment variable that holds it.
    webhook_url_env: Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")] | None = None
    # Non-empty: a module digest (only PRs touching these modules), e.g. ["rocm"].
    modules: list[Annotated[str, Field(min_length=1, max_length=64)]] = []
    chart: bool = True  # post the trends chart (PNG) into the digest's thread

    @field_validator("cron")
    @classmethod
    def _valid_cron(cls, value: str) -> str:
        return _checked_cron(value)

    @model_validator(mode="after")
    def _one_scope(self) -> DigestTarget:
        chosen = [key for key in ("repo", "repos", "org") if getattr(self, key)]
        if len(chosen) > 1:
            raise ValueError(english("error.config.one_scope", chosen=" and ".join(chosen)))
        if self.modules and (self.repos or self.org):
            raise ValueError(english("error.config.module_digest_scope"))
        if self.exclude and not self.org:
            raise ValueError(english("error.config.exclude_needs_org"))
        if self.org and any(
            name.split("/")[0].lower() != self.org.lower() for name in self.exclude
        ):
            raise ValueError(english("error.config.exclude_outside", org=self.org))
        return self

    @property
    def is_multi(self) -> bool:
        """Covers several repositories (an organisation digest)."""
        return bool(self.repos or self.org)

    @property
    def scope_label(self) -> str:
        """The organisation, or the comma-joined repositories (JSON "repo")."""
        return self.org or ",".join(self.repos)

    @property
    def webhook_url(self) -> str | None:
        if self.webhook_url_env is None:
            return None
        value = os.environ.get(self.webhook_url_env, "").strip()
        if not value:
            raise ConfigError(
                Text(
                    "error.config.webhook_unset",
                    {"channel": self.channel, "variable": repr(self.webhook_url_env)},
                )
            )
        if control_characters(value):
            raise ConfigError(
                Text("error.config.webhook_control", {"variable": self.webhook_url_env})
            )
        # The URL's last path segment is the webhook's token.
        register([value, value.rstrip("/").rsplit("/", 1)[-1]])
        return value


class DigestConfig(_Strict):
    key_prs: Annotated[int, Field(ge=1, le=200)] = 24
    # Earlier weeks used as the baseline of themes and for the trends (synced once, then
    # read from the store).
    history_weeks: Annotated[int, Field(ge=0, le=104)] = 8
    # When weekly module subscriptions (`/vllm subscribe rocm weekly`) of a channel without
    # a target of its own post; a channel with a target uses that target's cron.
    cron: str = DEFAULT_CRON
    targets: list[DigestTarget] = []

    @field_validator("cron")
    @classmethod
    def _valid_cron(cls, value: str) -> str:
        return _checked_cron(value)

    def org_target(self) -> DigestTarget | None:
        """The first target that covers several repositories (org/repos)."""
        return next((t for t in self.targets if t.is_multi), None)


class WebConfig(_Strict):
    # Public URL of `serve` (e.g. https://bot.example.org): digests link to the archive
    # under {base_url}/digests/. Empty: no links.
    base_url: Annotated[str, Field(pattern=r"^(https?://[^\s/]+(/[^\s]*)?)?$")] = ""
    archive_weeks: Annotated[int, Field(ge=1, le=520)] = 12  # weeks per repo under /digests/

    def archive_url(self) -> str | None:
        return self.base_url.rstrip("/") + "/digests/" if self.base_url else None


# --- releases ---
class ReleaseTarget(_Strict):
    """A channel that gets each published release's notes (`[[releases.targets]]`)."""

    platform: ChatPlatform
    channel: Annotated[str, Field(min_length=1)]
    repo: RepoName | None = None  # None: every configured repository
    language: Literal["en", "zh"] | None = None


class ReleasesConfig(_Strict):
    targets: list[ReleaseTarget] = []
    # serve polls each repository's releases this often (the `release` webhook posts at
    # once); 0 disables the poll.
    poll_minutes: Annotated[int, Field(ge=0)] = 30


class Config(_Strict):
    timezone: str = "UTC"
    language: Literal["en", "zh"] = "en"
    repos: Annotated[list[RepoConfig], Field(min_length=1)]
    github: GitHubConfig = GitHubConfig()
    server: ServerConfig = ServerConfig()
    slack: SlackConfig = SlackConfig()
    discord: DiscordConfig = DiscordConfig()
    digest: DigestConfig = DigestConfig()
    web: WebConfig = WebConfig()
    alerts: AlertsConfig = AlertsConfig()
    logging: LoggingConfig = LoggingConfig()
    serve: ServeConfig = ServeConfig()
    releases: ReleasesConfig = ReleasesConfig()

    @field_validator("timezone")
    @classmethod
    def _valid_timezone(cls, value: str) -> str:
        try:
            zoneinfo.ZoneInfo(value)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValueError(english("error.config.timezone", value=repr(value))) from None
        return value

    @field_validator("repos")
    @classmethod
    def _distinct_repos(cls, repos: list[RepoConfig]) -> list[RepoConfig]:
        seen: set[str] = set()
        for repo in repos:
            if repo.name.lower() in seen:
                # Two entries would give one repository two rule sets; which one wins
                # would be an accident of order.
                raise ValueError(english("error.config.repo_twice", repo=repo.name))
            seen.add(repo.name.lower())
        return repos

    @cached_property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)

    def repo(self, name: str | None) -> RepoConfig:
        """The configured repo called `name`, or the first one when `name` is None."""
        if name is None:
            return self.repos[0]
        for repo in self.repos:
            if repo.name.lower() == name.lower():
                return repo
        # An unconfigured repo still works with generic ("auto") rules; vLLM itself has
        # its shipped rule set (an organisation digest meets it unconfigured).
        if (problem := repo_problem(name)) is not None:
            raise ConfigError(Text("error.config.repo", {"name": echo(name), "problem": problem}))
        return RepoConfig(name=name)


def builtin_rulesets() -> tuple[str, ...]:
    """The rule sets shipped in config/modules/ (bot.analysis.rules.BUILTIN_RULESETS)."""
    folder = resources.files("bot.defaults") / "modules"
    return tuple(
        sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))
    )


SECRET_VARIABLES = (
    "github_token",
    "github_webhook_secret",
    "slack_bot_token",
    "slack_signing_secret",
    "slack_app_token",
    "discord_bot_token",
    "openai_api_key",
)


class Environment(BaseModel):
    """Secrets and endpoints, from the environment only: `Environment()` reads each field
    from the variable of its name (any case), and a value given as an argument wins."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    vllm_bot_config: str | None = None
    database_url: str | None = None
    github_token: SecretStr | None = None
    github_api_url: str = "https://api.github.com"
    github_graphql_url: str = "https://api.github.com/graphql"
    github_webhook_secret: SecretStr | None = None
    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    discord_bot_token: SecretStr | None = None
    discord_api_url: str | None = None  # default https://discord.com/api/v10
    discord_gateway_url: str | None = None
    openai_base_url: str | None = None
    openai_api_key: SecretStr | None = None
    # Where the GitHub token came from when not GITHUB_TOKEN ("gh auth token"); not read
    # from the environment.
    github_token_source: Annotated[str | None, Field(exclude=True)] = None

    @model_validator(mode="before")
    @classmethod
    def _from_environment(cls, given: object) -> object:
        # What pydantic-settings did here, without its import (a sixth of `vllm-bot pr`'s
        # start-up over the floor): these fields are plain strings, read by name.
        if not isinstance(given, dict):
            return given
        values = {
            key.lower(): value
            for key, value in os.environ.items()
            if key.lower() in cls.model_fields
        }
        return values | given

    @field_validator("github_token_source", mode="before")
    @classmethod
    def _not_from_environment(cls, value: object) -> None:
        return None

    @field_validator(
        *SECRET_VARIABLES,
        "openai_base_url",
        "discord_api_url",
        "discord_gateway_url",
        "database_url",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # A pasted secret often ends in a newline; surrounding whitespace is never part of
        # a token or URL, and left in place it ends up quoted in an HTTP error.
        if isinstance(value, str):
            value = value.strip()
        return None if value in ("", None) else value

    @field_validator("github_api_url", "github_graphql_url", "slack_api_url", mode="before")
    @classmethod
    def _stripped(cls, value: object) -> object:
        return value.strip() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _endpoints(self) -> Environment:
        # Checked at start: a malformed endpoint is the user's to fix, and retrying a
        # request that can never be sent only delays saying so.
        for name, schemes, example in _ENDPOINTS:
            value = getattr(self, name)
            if value is not None and (problem := _url_problem(value, schemes)) is not None:
                raise ConfigError(
                    Text(
                        "error.config.endpoint",
                        {
                            "variable": name.upper(),
                            "value": echo(value),
                            "problem": problem,
                            "example": example,
                        },
                    )
                )
        return self

    @model_validator(mode="after")
    def _gh_fallback(self) -> Environment:
        # As other GitHub tools do: no GITHUB_TOKEN but the GitHub CLI logged in.
        if self.github_token is None and (token := gh_cli_token()) is not None:
            object.__setattr__(self, "github_token", SecretStr(token))
            object.__setattr__(self, "github_token_source", "gh auth token")
        return self

    @model_validator(mode="after")
    def _clean_secrets(self) -> Environment:
        for name in SECRET_VARIABLES:
            value = getattr(self, name)
            if value is not None and control_characters(value.get_secret_value()):
                # The value itself is never shown, not even in part.
                raise ConfigError(Text("error.config.secret_control", {"variable": name.upper()}))
        register(self.secret_values())
        return self

    def secret_values(self) -> list[str]:
        """Every secret held here: tokens, and the database password."""
        values = [
            getattr(self, name).get_secret_value()
            for name in SECRET_VARIABLES
            if getattr(self, name) is not None
        ]
        password = database_password(self.database_url or "")
        if password:
            values.append(password)
        return values


def gh_cli_token() -> str | None:
    """The GitHub CLI's token (`gh auth token`) when `gh` is installed and logged in."""
    gh = shutil.which("gh")
    if gh is None or os.environ.get("VLLM_BOT_NO_GH"):
        return None
    try:
        done = subprocess.run(
            [gh, "auth", "token"], capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    token = done.stdout.strip()
    if done.returncode != 0 or not token or control_characters(token) or " " in token:
        return None
    return token


_ENDPOINTS = (
    ("github_api_url", ("http", "https"), "https://api.github.com"),
    ("github_graphql_url", ("http", "https"), "https://api.github.com/graphql"),
    ("slack_api_url", ("http", "https"), "https://slack.com/api/"),
    ("discord_api_url", ("http", "https"), "https://discord.com/api/v10"),
    ("discord_gateway_url", ("ws", "wss"), "wss://gateway.discord.gg/"),
    ("openai_base_url", ("http", "https"), "http://127.0.0.1:8000/v1"),
)


def _url_problem(value: str, schemes: tuple[str, ...]) -> str | None:
    """Why `value` is not an absolute URL of one of `schemes`, or None."""
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError:
        return "is not a URL"
    if parts.scheme not in schemes:
        shown = f"'{parts.scheme}://'" if parts.scheme else "no scheme"
        return f"has {shown} where {' or '.join(f'{s}://' for s in schemes)} is needed"
    if not parts.hostname or control_characters(value) or " " in value:
        return "has no host name or holds spaces"
    return None


def _deep_merge(base: dict[str, object], override: dict[str, object]) -> dict[str, object]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(current := merged.get(key), dict):
            merged[key] = _deep_merge(current, value)
        else:
            merged[key] = value  # lists (repos, targets) replace, as users expect
    return merged


def _read_toml(text: str, source: str) -> dict[str, object]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            Text("error.config.toml", {"source": source, "problem": str(exc)})
        ) from None


def default_config_text() -> str:
    return (resources.files("bot.defaults") / "default.toml").read_text(encoding="utf-8")


def _format_error(source: str, exc: ValidationError) -> str:
    err = exc.errors()[0]
    path = ".".join(str(p) for p in err["loc"]) or "(top level)"
    kind = err["type"]
    if kind == "extra_forbidden":
        hint = _did_you_mean(err["loc"])
        return (
            f"{source}: unknown key '{path}'{hint}; see config/default.toml for the accepted keys"
        )
    value = err.get("input")
    shown = "" if isinstance(value, dict | list) else f" (got {value!r})"
    message = err["msg"].removeprefix("Value error, ")
    if kind == "value_error" and isinstance(value, str):
        shown = "" if echo(value) in message or repr(value) in message else f" (got {echo(value)})"
    if kind == "too_short":
        message += "; expected at least one entry (see config/default.toml)"
    if kind == "literal_error":
        message = message.replace("Input should be", "accepted:")
    if kind == "list_type" and isinstance(value, dict):
        # `[repos]` is one table; a list of them is written `[[repos]]`, one per entry.
        return english("error.config.table_not_list", source=source, key=path)
    return f"{source}: {path}: {message}{shown}"


def _did_you_mean(loc: tuple[int | str, ...]) -> str:
    """`; did you mean 'language'?` for a misspelt key, from the keys its table accepts."""
    model: type[BaseModel] | None = Config
    for part in loc[:-1]:
        if model is None or isinstance(part, int):
            continue
        field = model.model_fields.get(part)
        if field is None:
            return ""
        model = _model_of(field.annotation)
    if model is None:
        return ""
    close = difflib.get_close_matches(str(loc[-1]), list(model.model_fields), n=1, cutoff=0.7)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _model_of(annotation: object) -> type[BaseModel] | None:
    """The pydantic model a field holds, itself or as the element of a list."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        if (found := _model_of(arg)) is not None:
            return found
    return None


def load_config(path: str | Path | None = None, env: Environment | None = None) -> Config:
    """Shipped defaults, overridden key by key by the user's file when there is one."""
    env = env or Environment()
    data = _read_toml(default_config_text(), "config/default.toml")
    source = "config/default.toml"
    user_path = path or env.vllm_bot_config
    if user_path:
        user_file = Path(user_path).expanduser()
        try:
            text = user_file.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(
                Text(
                    "error.config.unreadable",
                    {"path": str(user_file), "reason": str(exc.strerror)},
                )
            ) from None
        except UnicodeDecodeError as exc:
            raise ConfigError(
                Text("error.config.not_utf8", {"path": str(user_file), "byte": str(exc.start)})
            ) from None
        source = str(user_file)
        data = _deep_merge(data, _read_toml(text, source))
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_format_error(source, exc)) from None


def default_database_url() -> str:

    directory = Path(user_data_dir("vllm-bot"))
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{directory / DEFAULT_STORE_FILE}"


DEFAULT_STORE_FILE = "vllm-bot.sqlite3"


def default_store_is_new(env: Environment) -> bool:
    """True before the first run has created the default SQLite store."""
    if env.database_url or os.environ.get("DATABASE_URL"):
        return False
    return not (Path(user_data_dir("vllm-bot")) / DEFAULT_STORE_FILE).exists()


def database_url(env: Environment) -> str:
    url = env.database_url or os.environ.get("DATABASE_URL") or default_database_url()
    # Accept the plain URLs users copy from their provider and pick the async driver.
    if url.startswith("postgres://"):
        url = "postgresql+asyncpg://" + url.removeprefix("postgres://")
    elif url.startswith("postgresql://"):
        url = "postgresql+asyncpg://" + url.removeprefix("postgresql://")
    elif url.startswith("sqlite:///"):
        url = "sqlite+aiosqlite:///" + url.removeprefix("sqlite:///")
    if (problem := database_url_problem(url)) is not None:
        raise ConfigError(problem)
    return url
