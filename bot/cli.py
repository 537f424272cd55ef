"""`vllm-bot` command line (typer). Each command is a thin shell over the core modules.

Each command imports its use case when it runs; the figure by each lazy import is the
process time that import took after `bot.cli` (December 2026, a 2-core machine at load ~4,
so about twice a quiet one's)."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import sys
import threading
from collections.abc import Callable, Coroutine
from enum import StrEnum
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer
import typer.core

from bot.core.errors import (
    BotError,
    ConfigError,
    GitHubUnreachable,
    MessageError,
    PrUnreachable,
    UsageError,
    english,
    one_line,
    whole_line,
)
from bot.core.messages import Text
from bot.core.secrets import RedactingStream, redact
from bot.core.validators import (
    MAX_PR_NUMBER,
    check_out_file,
    check_out_folder,
    echo,
    ref_text,
)
from bot.core.weeks import parse_window

if TYPE_CHECKING:
    from rich.console import Console

    from bot.app import App
    from bot.core.config import DigestTarget
    from bot.digest.pipeline import BuiltDigest
    from bot.services import ProgressFactory
    from bot.sync import SyncResult
    from bot.usecases.lookup import LookedUp
    from bot.usecases.post import Posted

app = typer.Typer(
    name="vllm-bot",
    help="Weekly digests, PR cards and module alerts for vLLM pull requests.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
_display_type = typer.core.TyperOption.display_type_rich
_argument_type = typer.core.TyperArgument.display_type_rich


# ctx: typer's vendored click Context, whose module (typer._click) is private.
def _help_type(self: typer.core.TyperOption, ctx: Any) -> str | None:
    """Help without Python types: a flag shows none (typer 0.29 prints `<bool>`) and a
    repeatable option its element (`<str>...`, not `<list[str]>`)."""
    if self.is_flag or self.count:
        return None
    return _element(_display_type(self, ctx))


def _element(shown: str | None) -> str | None:
    if shown and shown.startswith("<list[") and shown.endswith("]>"):
        return f"<{shown[6:-2]}>..."
    return shown


def _argument_help_type(self: typer.core.TyperArgument, ctx: Any) -> str | None:
    """A repeatable argument's element type, as `_help_type` shows an option's."""
    return _element(_argument_type(self, ctx))


typer.core.TyperOption.display_type_rich = _help_type  # type: ignore[method-assign]
typer.core.TyperArgument.display_type_rich = _argument_help_type  # type: ignore[method-assign,assignment]


class _LazyConsole:
    """A rich Console built on first use. A PR card or a chat answer is written to
    sys.stdout and prints nothing through rich, and importing rich is ~20 ms of every
    start-up."""

    def __init__(self, stream: str) -> None:
        self._stream = stream
        self._console: Console | None = None

    def __getattr__(self, name: str) -> object:
        if self._console is None:
            # Lazy: see the class docstring.
            from rich.console import Console

            # Rich wants an IO[str]; it calls only write/flush/isatty (and reads what
            # RedactingStream hands on to the real stream), so the cast is the adaptation.
            file = cast("IO[str]", RedactingStream(self._stream))
            self._console = Console(file=file, highlight=False, soft_wrap=True)
        return getattr(self._console, name)


err = cast("Console", _LazyConsole("stderr"))
out = cast("Console", _LazyConsole("stdout"))

T = TypeVar("T")


class _State:
    config: Path | None = None
    debug: bool = False
    no_pager: bool = False


state = _State()


class PRFormat(StrEnum):
    text = "text"
    json = "json"


class DigestFormat(StrEnum):
    markdown = "markdown"
    json = "json"
    html = "html"
    slack = "slack"
    discord = "discord"
    png = "png"  # the trends chart alone, as posted in the digest's thread (needs --out)


class Lang(StrEnum):
    en = "en"
    zh = "zh"


ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Your TOML config (overrides the shipped defaults key by key).",
        envvar="VLLM_BOT_CONFIG",
        show_envvar=True,
    ),
]
RepoOption = Annotated[
    str | None, typer.Option("--repo", help="OWNER/NAME; default: the first configured repo.")
]
# digest and sync: several repositories (or an organisation) in one search and one report.
ReposOption = Annotated[
    list[str] | None,
    typer.Option("--repo", help="OWNER/NAME; repeat it for one digest of several repositories."),
]
OrgOption = Annotated[
    str | None,
    typer.Option("--org", help="Every public repository of this organisation (with merged PRs)."),
]
ExcludeOption = Annotated[
    list[str] | None, typer.Option("--exclude", help="With --org: leave OWNER/NAME out.")
]


def _multi_target(
    repos: list[str] | None, org: str | None, exclude: list[str] | None
) -> DigestTarget | None:
    """An organisation target for `--repo` repeated or `--org`; None for one repository."""
    if exclude and org is None:
        raise MessageError("error.cli.exclude_needs_org")
    if org is None and len(repos or []) < 2:
        return None
    # Lazy: bot.digest.org (~240 ms) loads only when --repo/--org names a multi-repo target.
    from bot.digest.org import ad_hoc_target

    if org is not None and repos:
        raise MessageError("error.cli.org_or_repos")
    return ad_hoc_target(repos or [], org, exclude or [])


def _version(value: bool) -> None:
    if value:
        # Lazy: importlib.metadata (~12 ms) stays off every start-up but --version.
        from importlib import metadata

        try:
            version = metadata.version("vllm-bot")
        except metadata.PackageNotFoundError:
            version = "dev"
        out.print(f"vllm-bot {version}", markup=False)
        raise typer.Exit(0)


@app.callback()
def _root(
    config: ConfigOption = None,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks and debug logs.")] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
    no_pager: Annotated[
        bool,
        typer.Option(
            "--no-pager",
            help="Never page long output (a terminal pages it through $VLLM_BOT_PAGER, "
            "$PAGER or less; piped output never is).",
        ),
    ] = False,
) -> None:
    state.config = config
    state.debug = debug
    state.no_pager = no_pager
    handler = logging.StreamHandler(RedactingStream("stderr"))
    handler.setFormatter(_LogFormatter(debug))
    handler.addFilter(_Once())
    # discord.py warns that voice needs PyNaCl on every start; the bot never uses voice.
    logging.getLogger("discord.client").addFilter(_not_voice)
    logging.basicConfig(level=logging.DEBUG if debug else logging.WARNING, handlers=[handler])


class _Once(logging.Filter):
    """Each distinct warning once per run: an organisation digest meets the same problem
    for many repositories, and one line says it."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[tuple[int, str]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or record.exc_info:
            return True
        key = (record.levelno, record.getMessage())
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


def _not_voice(record: logging.LogRecord) -> bool:
    return "voice will NOT be supported" not in record.getMessage()


class _LogFormatter(logging.Formatter):
    """Warnings as one line (`warning: ...`); tracebacks only with --debug."""

    def __init__(self, debug: bool) -> None:
        fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s" if debug else "%(message)s"
        super().__init__(fmt)
        self.debug = debug

    def format(self, record: logging.LogRecord) -> str:
        if self.debug:
            return super().format(record)
        return f"{record.levelname.lower()}: {record.getMessage()}"


def run(factory: Callable[[], Coroutine[object, None, T]]) -> T:
    """Run one async command; BotErrors become one line on stderr and CONTRACT exit codes."""
    try:
        result = asyncio.run(factory())
    except BotError as exc:
        if state.debug:
            err.print_exception()
        line = whole_line(str(exc)) if exc.text is not None else one_line(str(exc))
        if isinstance(exc, GitHubUnreachable):
            line = one_line(line, 150) + "; " + (exc.hint or english("error.cli.offline_hint"))
        err.print(f"error: {line}", markup=False)
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:  # main() says "interrupted", wherever Ctrl-C struck
        raise typer.Exit(130) from None
    except Exception as exc:  # a bug or an unexpected failure: one line unless --debug
        if state.debug:
            raise
        problem = one_line(f"{type(exc).__name__}: {exc}")
        err.print(f"error: {english('error.cli.unexpected', problem=problem)}", markup=False)
        raise typer.Exit(1) from None
    return result


async def _services() -> App:
    # Lazy: the App (store, config: ~500 ms) stays off `--help` and argument errors.
    from bot.app import App

    services = await App.start(state.config)
    if services.new_store:
        # Said by the run that creates it, before its work: whatever the outcome (the
        # README's first command fails offline), that run is the only one to say it.
        err.print(
            f"note: your store is {services.store_location()} (set DATABASE_URL to keep it "
            "elsewhere)",
            markup=False,
        )
    return services


def _cannot_write(path: Path, exc: OSError) -> UsageError:
    return MessageError("error.cannot_write", path=str(path), reason=str(exc.strerror))


def _emit(text: str, out_file: Path | None) -> None:
    if out_file is None:
        _page(redact(text if text.endswith("\n") else text + "\n"))
        return
    try:
        out_file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _cannot_write(out_file, exc) from None
    err.print(f"wrote {out_file}")


def _page(text: str, *, markdown: bool = False) -> None:
    """Standard output, through the pager when it is a terminal and the text is long;
    `markdown` (shown on a terminal only): as a terminal shows Markdown, wrapped at its
    width and wide tables as lists."""
    if not sys.stdout.isatty():
        sys.stdout.write(text)
        return
    # Lazy: the terminal view and the pager (~6 ms) only for output shown on a terminal.
    from bot.terminal import markdown_view, page

    if markdown:
        text = redact(markdown_view(text, out))
    if state.no_pager:
        sys.stdout.write(text)
    else:
        page(text, sys.stdout)


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def _progress() -> ProgressFactory:
    """The pipelines' progress as rich bars on stderr (silent when it is not a terminal)."""
    # Lazy: rich progress bars (~20 ms) load only for work that syncs.
    from bot.cli_progress import progress_bars

    return progress_bars(err)


def _say(line: str) -> None:
    """What a pipeline says to the person running it, on stderr."""
    err.print(line, markup=False)


def _print_posted(outcomes: list[Posted]) -> None:
    # Lazy: the post use case (~420 ms: posting, the platforms) only for a posted digest.
    from bot.usecases.post import failures

    for outcome in outcomes:
        err.print(outcome.line(), markup=False)
    if (failed := failures(outcomes)) is not None:
        raise failed


# ---------------------------------------------------------------------------- sync


@app.command()
def sync(
    repo: ReposOption = None,
    week: Annotated[str | None, typer.Option(help="ISO week (2026-W23), 'this' or 'last'.")] = None,
    since: Annotated[str | None, typer.Option(help="Window start date (with --until).")] = None,
    until: Annotated[str | None, typer.Option(help="Window end date, exclusive.")] = None,
    force: Annotated[bool, typer.Option(help="Re-fetch even when the window is fresh.")] = False,
    weeks: Annotated[
        int, typer.Option(min=0, max=52, help="Also bring the N weeks before it in (history).")
    ] = 0,
    org: OrgOption = None,
    exclude: ExcludeOption = None,
) -> None:
    """Fetch the merged PRs of a window into the store."""
    multi = _usage_value(lambda: _multi_target(repo, org, exclude))

    async def go() -> None:
        # Lazy: the sync path (~650 ms: httpx, the GitHub client) only for `sync`.
        from bot.usecases.sync import sync_repo, sync_target

        async with await _services() as services:
            window = parse_window(week, since, until, services.config.tz)
            if multi is not None:
                scopes = await sync_target(
                    services, multi, window, force=force, weeks=weeks, progress=_progress()
                )
                for scope in scopes:
                    result = scope.result
                    counts = ", ".join(f"{r} {n}" for r, n in sorted(result.repos.items()))
                    out.print(
                        f"{multi.scope_label} {scope.window.label}: {counts or 'no PRs'}; "
                        f"{result.requests} requests, {len(result.searched)} repositories "
                        f"fetched, {len(result.repos) - len(result.searched)} already complete",
                        markup=False,
                    )
                return
            synced = await sync_repo(
                services,
                repo[0] if repo else None,
                window,
                force=force,
                weeks=weeks,
                progress=_progress(),
            )
            out.print(sync_summary(synced.repo, window.label, synced.result), markup=False)
            if weeks:
                done = synced.history_synced
                out.print(
                    f"{synced.repo} history: {weeks} weeks before {window.label}, "
                    f"{done} synced now, {weeks - done} already in the store or skipped",
                    markup=False,
                )

    run(go)


@app.command("import")
def import_(
    files: Annotated[
        list[Path],
        typer.Argument(help="JSON exports of pull requests (one or more).", metavar="FILE"),
    ],
    week: Annotated[str | None, typer.Option(help="The ISO week the files are for.")] = None,
    since: Annotated[
        str | None, typer.Option(help="Start of the window the files are for.")
    ] = None,
    until: Annotated[str | None, typer.Option(help="End of that window, exclusive.")] = None,
    complete: Annotated[
        bool,
        typer.Option(
            "--complete",
            help="Mark the window complete (the digest then says 'all merged PRs'); only "
            "when a file declares a window containing it, or its merged dates reach past "
            "both edges. Without --week/--since: each file's declared window.",
        ),
    ] = False,
) -> None:
    """Import pull requests from JSON exports (offline use and archives)."""

    # Lazy: the export schema (pydantic models, ~75 ms of `vllm-bot pr N`) is for `import`.
    from bot.importer import (
        complete_span,
        import_summary,
        local_week_note,
        read_export_file,
        store_export,
    )

    async def go() -> None:
        # Every file is read and checked whole before anything is stored.
        exports = [read_export_file(file) for file in files]
        # --- releases: a release export ("release" instead of a window) ---
        # Lazy: the release reader (~420 ms) loads only for `import`.
        from bot.releases.export import import_release, read_release_export, release_object

        objects = [release_object(file) for file in files]
        if any(objects) and (week is not None or since or until or complete):
            raise MessageError("error.import.release_window")
        releases = [
            None if release is None else read_release_export(file, release, export)
            for file, export, release in zip(files, exports, objects, strict=True)
        ]
        async with await _services() as services:
            window = None
            if week is not None or since or until:
                window = parse_window(week, since, until, services.config.tz)
            marks = [complete_span(export, window) if complete else None for export in exports]
            for export, span, release in zip(exports, marks, releases, strict=True):
                if release is not None:
                    line = await import_release(services.store, release)
                    out.print(line, markup=False)
                    continue
                result = await store_export(services.store, export, span)
                for line in (*result.conflicts, *result.reopened):
                    err.print(f"warning: {line}", markup=False)
                local = None
                if span is not None and window is None:
                    # The file's own window is UTC's; the weeks are the configured timezone's.
                    tz = services.config.tz
                    local = await local_week_note(services.store, export.repo, span, tz)
                out.print(import_summary(export, window, span, result, local), markup=False)

    run(go)


def sync_summary(repo: str, label: str, result: SyncResult) -> str:
    if result.skipped_fresh:
        how = "fresh in the store, no request sent"
    elif result.confirmed_unchanged:
        how = "unchanged on GitHub"
    else:
        how = "fetched"
    rate = "rate limit unknown"
    if result.rate_remaining is not None:
        rate = f"rate limit {result.rate_remaining:,} left"
        if result.rate_reset is not None:
            rate += f" (resets {result.rate_reset.astimezone():%H:%M})"
    return (
        f"{repo} {label}: {result.prs_stored:,} PRs stored ({how}); "
        f"{result.requests} requests; {rate}; {result.seconds:.1f} s"
    )


# ---------------------------------------------------------------------------- pr / explain


def _pr_ref(ref: str, repo: str | None) -> tuple[int, str | None]:
    """`42121`, `#42121`, `OWNER/NAME#42121` or a PR URL, as `/vllm pr` accepts."""
    plain = ref.strip()
    if plain.isascii() and plain.isdigit() and 1 <= int(plain) <= MAX_PR_NUMBER:
        # The usual form, answered as parse_pr_ref answers it without loading the command
        # layer (bot.commands, ~20 ms of `vllm-bot pr N`).
        return int(plain), repo
    # Lazy: the chat command parser (~170 ms) only for a PR reference not a plain number.
    from bot.commands import CommandError, parse_pr_ref

    try:
        parsed = parse_pr_ref(ref)
    except CommandError as exc:
        reason = exc.reason.split("; expected")[0]
        raise MessageError("error.cli.pr_ref", ref=echo(ref), reason=reason) from None
    if parsed.repo and repo and parsed.repo.lower() != repo.lower():
        raise MessageError("error.cli.pr_ref_repo", named=parsed.repo, repo=repo)
    return parsed.number, parsed.repo or repo


async def _looked_up(services: App, repo: str | None, ref: str) -> LookedUp:
    """The PR of `ref` under the lookup policy every surface shares (bot.usecases.lookup)."""
    # Lazy: the lookup (~6 ms; the analysis through the App) loads for `pr` and `explain`.
    from bot.usecases.lookup import look_up_pr

    number, repo = _pr_ref(ref, repo)
    repo_name = services.config.repo(repo).name
    try:
        return await look_up_pr(services, repo_name, number)
    except PrUnreachable as exc:
        elsewhere = exc.elsewhere
        hint = (
            english("error.cli.pr_offline.elsewhere", where=f"{elsewhere[0]}#{number}")
            if elsewhere
            else None
        )
        cause = exc.text or str(exc)
        raise GitHubUnreachable(
            Text(
                "error.cli.pr_offline", {"number": str(number), "repo": repo_name, "cause": cause}
            ),
            hint=hint,
        ) from None


# `pr -5` must reach the number check, not click's "No such option".
_NUMBER_ARGS = {"ignore_unknown_options": True}
PrArgument = Annotated[
    str, typer.Argument(help="PR number, #N, OWNER/NAME#N or a GitHub PR URL.", metavar="PR")
]


@app.command(context_settings=_NUMBER_ARGS)
def pr(
    number: PrArgument,
    repo: RepoOption = None,
    format: Annotated[PRFormat, typer.Option("--format", help="Output format.")] = PRFormat.text,
    lang: Annotated[Lang | None, typer.Option(help="Language of the text card.")] = None,
) -> None:
    """One PR card (from the store, else fetched from GitHub)."""

    async def go() -> None:
        # Lazy: the report and card formatters (~140 ms) load only for `pr`.
        from bot.analysis.report import analysis_to_json
        from bot.cards import pr_text

        async with await _services() as services:
            found = await _looked_up(services, repo, number)
            if format is PRFormat.json:
                _emit(_dump(analysis_to_json(found.pr, found.analysis)), None)
            else:
                language = lang.value if lang else services.config.language
                card = pr_text(
                    found.pr, found.analysis, language, found.module_names, services.config.tz
                )
                _emit(card, None)

    run(go)


@app.command(context_settings=_NUMBER_ARGS)
def explain(
    number: PrArgument,
    repo: RepoOption = None,
    format: Annotated[PRFormat, typer.Option("--format", help="Output format.")] = PRFormat.text,
    lang: Annotated[Lang | None, typer.Option(help="Language of the headings.")] = None,
) -> None:
    """Why a PR got its modules, kind, flags, score and claims."""

    async def go() -> None:
        # Lazy: the report formatter and the digest pipeline (~350 ms) only for `explain`.
        from bot.analysis.report import analysis_to_json, explain_text
        from bot.digest.pipeline import theme_of_pr

        async with await _services() as services:
            found = await _looked_up(services, repo, number)
            pr_, analysis = found.pr, found.analysis
            theme = await theme_of_pr(services, pr_.repo, pr_.number, pr_.merged_at)
            if format is PRFormat.json:
                _emit(_dump({**analysis_to_json(pr_, analysis), "theme": theme}), None)
            else:
                line = (
                    f"theme: {theme['name']} ({theme['week']}; {'; '.join(theme['why'])}; "
                    f"{theme['trend']}, {_last_week(theme['trend'], theme['last_week'])}; "
                    f"{theme['trend_rule']})"
                    if theme
                    else "theme: none (not in a theme of its week in the store)"
                )
                language = lang.value if lang else services.config.language
                _emit(explain_text(pr_, analysis, language) + "\n" + line, None)

    run(go)


def _last_week(trend: str, members: int | None) -> str:
    """How many PRs last week's highlight of the theme had, in words when it had none."""
    if members is not None:
        return f"last week {members}"
    if trend == "unknown":
        return "last week not in the store"
    return "not a highlight last week"


# ---------------------------------------------------------------------------- modules


@app.command()
def modules(repo: RepoOption = None) -> None:
    """Module ids, names and the rules that assign them."""

    async def go() -> None:
        # Lazy: the report formatter (~140 ms) loads only for `modules`.
        from bot.analysis.report import describe_ruleset

        async with await _services() as services:
            analyzer = await services.analyzer(repo)
            lines = [f"rule set: {analyzer.ruleset.name}"]
            for row in describe_ruleset(analyzer.ruleset):
                lines.append(f"\n{row.id}  {row.name_en} · {row.name_zh}")
                lines.extend(f"    {rule}" for rule in row.rules.split("; ") if rule)
            _emit("\n".join(lines), None)

    run(go)


@app.command()
def themes(
    repo: RepoOption = None,
    week: Annotated[str | None, typer.Option(help="ISO week (2026-W23), 'this' or 'last'.")] = None,
    since: Annotated[str | None, typer.Option(help="Window start date (with --until).")] = None,
    until: Annotated[str | None, typer.Option(help="Window end date, exclusive.")] = None,
    format: Annotated[PRFormat, typer.Option("--format", help="Output format.")] = PRFormat.text,
    no_sync: Annotated[bool, typer.Option("--no-sync", help="Use the store as it is.")] = False,
) -> None:
    """The window's themes: the terms that formed each, score against the baseline, members."""

    async def go() -> None:
        # Lazy: the digest use case and the themes report (~350 ms) only for `themes`.
        from bot.digest.themes_report import themes_json, themes_text
        from bot.usecases.digest import DigestScope, build_digest

        async with await _services() as services:
            window = parse_window(week, since, until, services.config.tz)
            built = await build_digest(
                services,
                DigestScope(repo),
                window,
                "en",
                sync=not no_sync,
                progress=_progress(),
                warn=_say,
            )
            digest = built.digest
            _emit(
                _dump(themes_json(digest)) if format is PRFormat.json else themes_text(digest), None
            )

    run(go)


# ---------------------------------------------------------------------------- digest


@app.command()
def digest(
    repo: ReposOption = None,
    week: Annotated[str | None, typer.Option(help="ISO week (2026-W23), 'this' or 'last'.")] = None,
    since: Annotated[str | None, typer.Option(help="Window start date (with --until).")] = None,
    until: Annotated[str | None, typer.Option(help="Window end date, exclusive.")] = None,
    lang: Annotated[Lang | None, typer.Option(help="Language; default from config.")] = None,
    format: Annotated[
        DigestFormat, typer.Option("--format", help="Output format.")
    ] = DigestFormat.markdown,
    out_file: Annotated[Path | None, typer.Option("--out", help="Write to this file.")] = None,
    post: Annotated[
        list[str] | None,
        typer.Option("--post", help="Post to slack:CHANNEL or discord:CHANNEL (repeatable)."),
    ] = None,
    force: Annotated[bool, typer.Option(help="Post again even if already posted.")] = False,
    no_sync: Annotated[bool, typer.Option("--no-sync", help="Use the store as it is.")] = False,
    module: Annotated[
        list[str] | None,
        typer.Option(
            "--module",
            help="A module digest: only PRs of this module (repeatable; see `vllm-bot modules`).",
        ),
    ] = None,
    org: OrgOption = None,
    exclude: ExcludeOption = None,
    release: Annotated[
        str | None,
        typer.Option(
            "--release",
            help="A release digest: the PRs between the previous release tag and TAG.",
            metavar="TAG",
        ),
    ] = None,
    base: Annotated[
        str | None,
        typer.Option("--base", help="With --release: compare with this tag.", metavar="TAG"),
    ] = None,
) -> None:
    """Build the weekly digest (syncing first when needed); print, write or post it."""
    targets = list(post or [])
    if release is not None or base is not None:
        _usage(lambda: _release_options(release, base, week or since or until, module, org, repo))
        if out_file is not None:
            _usage(lambda: check_out_file(str(out_file)))
        run(
            lambda: _release_digest(
                repo, release or "", base, lang, format, out_file, targets, force, no_sync
            )
        )
        return
    multi = _usage_value(lambda: _multi_target(repo, org, exclude))
    if multi is not None and module:
        _usage(_module_digest_of_one_repo)
    if out_file is not None:
        _usage(lambda: check_out_file(str(out_file)))
    if format is DigestFormat.png and out_file is None:
        _usage(_png_needs_out)

    async def go() -> None:
        # Lazy: the digest use case and pipeline (~350 ms) load only for `digest`.
        from bot.analysis.catalogue import UnknownModule
        from bot.digest.pipeline import render_digest
        from bot.usecases.digest import DigestScope, build_digest

        async with await _services() as services:
            # Before any work: an unknown platform or a bad channel is one line, exit 2
            # (the registry names the platforms it knows).
            posts = [services.platforms.parse_target(t) for t in targets]
            for platform, _ in posts:
                # A missing token is said before the digest is built, not after.
                if (missing := platform.available()) is not None:
                    raise ConfigError(
                        Text(
                            "error.cli.post_unavailable",
                            {"platform": platform.name, "missing": missing},
                        )
                    )
            window = parse_window(week, since, until, services.config.tz)
            language = lang.value if lang else services.config.language
            scope = DigestScope(repo[0] if repo else None, module or (), multi)
            try:
                built = await build_digest(
                    services,
                    scope,
                    window,
                    language,
                    sync=not no_sync,
                    progress=_progress(),
                    warn=_say,
                )
            except UnknownModule as exc:
                raise MessageError("error.cli.unknown_module", reason=str(exc)) from None
            if posts:
                # Lazy: the post use case (posting, ~14 ms) loads only for a digest posted.
                from bot.usecases.post import post_built

                _print_posted(await post_built(services, built, posts, force=force))
                if out_file is None and format is DigestFormat.markdown:
                    return
            if format is DigestFormat.png:
                assert out_file is not None  # checked before anything started
                _write_chart(built, out_file)
                return
            rendered = render_digest(built, format.value)
            if format is DigestFormat.markdown and out_file is None and sys.stdout.isatty():
                _page(rendered, markdown=True)
            else:
                _emit(rendered, out_file)

    run(go)


# --- releases ---
def _release_options(
    release: str | None,
    base: str | None,
    window: str | None,
    module: object,
    org: object,
    repo: object,
) -> None:
    if release is None:
        raise MessageError("error.cli.base_needs_release")
    if window or module or org or (isinstance(repo, list) and len(repo) > 1):
        raise MessageError("error.cli.release_alone")
    for option, tag in (("--release", release), ("--base", base)):
        if tag is not None and (problem := ref_text(tag)) is not None:
            raise MessageError("error.cli.tag", option=option, problem=problem)


async def _release_digest(
    repo: list[str] | None,
    tag: str,
    base: str | None,
    lang: Lang | None,
    format: DigestFormat,
    out_file: Path | None,
    targets: list[str],
    force: bool,
    no_sync: bool,
) -> None:
    """`digest --release TAG [--base TAG]`: the release notes, printed, written or posted."""
    # Lazy: the release pipeline and posting (~470 ms) only for a release digest.
    from bot.releases.pipeline import render_release
    from bot.usecases.post import post_built_document
    from bot.usecases.release import release_notes

    async with await _services() as services:
        posts = [services.platforms.parse_target(t) for t in targets]
        language = lang.value if lang else services.config.language
        one = repo[0] if repo else None
        built = await release_notes(services, one, tag, language, base=base, sync=not no_sync)
        _print_posted(await post_built_document(services, built.document, posts, force=force))
        if posts and out_file is None and format is DigestFormat.markdown:
            return
        _emit(render_release(built, format.value), out_file)


def _png_needs_out() -> None:
    raise MessageError("error.cli.png_needs_out")


def _write_chart(built: BuiltDigest, out_file: Path) -> None:
    """The trends chart exactly as the digest's thread would carry it, to preview."""
    digest = built.digest
    if digest.history is None or not digest.history.weeks:
        raise MessageError("error.cli.no_chart", week=digest.week, repo=digest.repo)
    # Lazy: matplotlib only for a chart that is drawn.
    from bot.digest.charts import png_chart

    png = png_chart(digest, built.language)
    try:
        out_file.write_bytes(png.data)
    except OSError as exc:
        raise _cannot_write(out_file, exc) from None
    err.print(f"wrote {out_file} ({len(png.data):,} bytes): {png.alt_text}", markup=False)


def _module_digest_of_one_repo() -> None:
    raise MessageError("error.digest.module_one_repo")


def _usage_value(check: Callable[[], T]) -> T:
    """`_usage` that returns the checked value."""
    try:
        return check()
    except UsageError as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(2) from None


def _usage(check: Callable[[], object]) -> None:
    """A check run before anything starts: its UsageError is one line and exit 2."""
    _usage_value(check)


def _bad_archive_lang(lang: str) -> None:
    raise MessageError("error.cli.archive_lang", value=repr(lang[:60]))


@app.command()
def archive(
    out_dir: Annotated[Path, typer.Option("--out", help="Folder to write the site into.")],
    repo: Annotated[
        list[str] | None,
        typer.Option("--repo", help="OWNER/NAME (repeatable); default: every configured repo."),
    ] = None,
    weeks: Annotated[int, typer.Option(min=1, max=520, help="Weeks per repository.")] = 12,
    lang: Annotated[str, typer.Option(help="Languages, comma-separated: en,zh.")] = "en,zh",
) -> None:
    """Write the static archive from the store: index, week pages, module pages, Atom feeds."""
    languages = [part.strip() for part in lang.split(",") if part.strip()]
    if not languages or any(part not in ("en", "zh") for part in languages):
        _usage(lambda: _bad_archive_lang(lang))
    # The site's own folder is made; the folder it goes in must exist (as for mkdir).
    _usage(lambda: check_out_folder(out_dir.parent))

    async def go() -> None:
        # Lazy: the archive site builder (~130 ms) loads only for `archive`.
        from bot.usecases.archive import write_archive

        async with await _services() as services:
            count = await write_archive(services, repo, out_dir, weeks=weeks, languages=languages)
        err.print(f"wrote {count} files to {out_dir} (open {out_dir / 'index.html'})")

    run(go)


# ---------------------------------------------------------------------------- chat


@app.command()
def chat(
    text: Annotated[str, typer.Argument(help='A slash command, e.g. "/vllm pr 42121".')],
    channel: Annotated[
        str,
        typer.Option(
            help="Where the command is typed: slack:ID or discord:ID acts for that channel "
            "(e.g. slack:C0123: its subscriptions, its language); cli is the terminal.",
            metavar="slack:ID|discord:ID",
        ),
    ] = "cli",
    user: Annotated[str, typer.Option(help="User id typing the command.")] = "cli-user",
) -> None:
    """Run one /vllm command through the same command layer as Slack and Discord."""

    async def go() -> int:
        # Lazy: the chat adapter, command registry and config (~140 ms) only for `chat`.
        from bot.commands.cli_adapter import reply_without_store, run_chat
        from bot.core.config import Environment, load_config

        answered = reply_without_store(text, channel, load_config(state.config, Environment()))
        if answered is not None:
            reply_text, code = answered
        else:
            async with await _services() as services:
                reply_text, code = await run_chat(services, text, channel=channel, user=user)
        if code == 0:
            _emit(reply_text, None)
        else:
            # One line on stderr (CONTRACT); chat platforms show the usage on its own line.
            reason, _, usage = reply_text.partition("\nusage: ")
            line = " ".join(reason.split()) + (f" (usage: {usage.strip()})" if usage else "")
            err.print(f"error: {line}", markup=False)
        return code

    raise typer.Exit(run(go))


# ---------------------------------------------------------------------------- serve / doctor


@app.command()
def serve(
    port: Annotated[
        int | None,
        typer.Option(min=0, max=65535, help="Web server port 0-65535 (default from config)."),
    ] = None,
) -> None:
    """The long-running bot: scheduler, Slack, Discord and the web server."""
    # What start-up allocated stays for the process's life: out of the collector's walks.
    gc.freeze()
    gc.enable()

    async def go() -> None:
        # Lazy: the serve stack (~980 ms: Slack, Discord, scheduler) only for `serve`.
        from bot.serve import serve_forever

        async with await _services() as services:
            await serve_forever(services, port=port)

    run(go)


@app.command()
def doctor() -> None:
    """Check config, tokens, channels, database and GitHub; say what is wrong and how to fix it."""

    async def go() -> int:
        # Lazy: doctor's probes (~1 s: every client) load only for `doctor`.
        from bot.doctor import run_doctor

        async with await _services() as services:
            return await run_doctor(services, out)

    raise typer.Exit(run(go))


# The options of `vllm-bot` itself, with an example value: given after the command they
# are "No such option" to click, which does not say where they go.
_ROOT_OPTIONS = {"--config": " bot.toml", "--debug": "", "--no-pager": ""}


def _closed_loop_hook(args: threading.ExceptHookArgs) -> None:
    """Ctrl-C closes the event loop while an SQLite worker thread (aiosqlite's) may still
    finish a statement whose answer nobody awaits any more: its "Event loop is closed" is
    that, not a failure (the transaction was rolled back), and never a 24-line traceback."""
    if (
        isinstance(args.exc_value, RuntimeError)
        and str(args.exc_value) == "Event loop is closed"
        and args.thread is not None
        and "_connection_worker_thread" in args.thread.name
    ):
        return
    _thread_hook(args)


_thread_hook = threading.excepthook


def main() -> None:
    """Entry point: usage errors become one line too (CONTRACT), exit status 2; Ctrl-C
    anywhere is one line, `interrupted`, exit status 130."""
    threading.excepthook = _closed_loop_hook
    # A command runs for seconds and keeps what it allocates (modules, the rule set, a
    # window's PRs) to the end, so the cyclic collector only re-walks live objects: off,
    # a 250-PR digest takes 15% less CPU and a 10,000-PR one 0.6 s less, at the same peak
    # RSS (bench/bench_cold_start.py). `serve`, which runs for weeks, turns it back on.
    gc.disable()
    try:
        code = app(standalone_mode=False)
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C between typer's parsing and run()
        code = 130
    except typer.TyperException as exc:  # typer's (vendored click) usage errors
        message = exc.format_message()
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `vllm-bot`: the help text
            err.print(message, markup=False)
        elif (option := getattr(exc, "option_name", None)) in _ROOT_OPTIONS:
            # Root options (typer callbacks) are read before the command name only.
            ctx = getattr(exc, "ctx", None)
            command = ctx.info_name if ctx is not None else "COMMAND"
            line = english(
                "error.cli.root_option",
                option=option,
                example=_ROOT_OPTIONS[option],
                command=str(command),
            )
            err.print(f"error: {line}", markup=False)
        else:
            ctx = getattr(exc, "ctx", None)
            command = ctx.command_path if ctx is not None else "vllm-bot"
            line = english("error.cli.usage", problem=" ".join(message.split()), command=command)
            err.print(f"error: {line}", markup=False)
        code = getattr(exc, "exit_code", 2)
    if code == 130:
        # typer turns Ctrl-C outside run() into exit 130 without a word; run() leaves it
        # to this line too, so every interrupted command says it once.
        err.print("interrupted")
    sys.exit(code if isinstance(code, int) else 0)
