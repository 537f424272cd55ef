"""Import pull requests from a JSON export (offline use, archives, demos).

The format uses GitHub's GraphQL field names:
{"repository": "owner/name", "pullRequests": [{"number", "title", "body", "url", "author",
"createdAt", "mergedAt", "baseRefName", "labels": [..], "additions", "deletions",
"changedFiles", "files": [{"path", "additions", "deletions"}], "filesKnown"}],
"window": {"since", "until"}}

The whole file is checked against one schema (`ExportFile`) before anything is stored,
and the first bad field is named with its path (`pullRequests[3].mergedAt`).

`window` (optional; top-level "since"/"until" mean the same) is the export's declaration
of what it holds: every PR merged in [since, until). Only such a declaration, or merged
dates reaching past both edges, lets
`import --complete` mark a window complete (`coverage`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from bot.core.errors import MessageError, UsageError, english
from bot.core.messages import Text
from bot.core.models import PR_STATES, FileChange, PRState, PullRequest
from bot.core.validators import MAX_PR_NUMBER, echo, ref_problem, repo_problem
from bot.core.weeks import iso_week, utc_minute, utc_spans

if TYPE_CHECKING:
    from bot.core.weeks import Window
    from bot.store.store import Store

EXPECTED = Text("error.import.expected")
# json.loads recurses once per nesting level; no export nests deeper than a few levels.
MAX_DEPTH = 64
_END = datetime.max.replace(tzinfo=UTC)


EXAMPLE_TIME = "2026-06-02T10:00:00Z"
EARLIEST = datetime(2008, 1, 1, tzinfo=UTC)  # GitHub opened in 2008
# A week's export may declare the week it was taken in, up to its end.
LATEST_AHEAD = timedelta(days=8)
INT32_MAX = 2**31 - 1  # GitHub's GraphQL Int, and the store's INTEGER columns


def _timestamp(value: object) -> datetime:
    if not isinstance(value, str):
        raise ValueError(english("error.import.timestamp_type", example=EXAMPLE_TIME))
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            english("error.import.timestamp", value=echo(value), example=EXAMPLE_TIME)
        ) from None
    parsed = parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    try:
        parsed = parsed.astimezone(UTC)
    except OverflowError:  # a date at the calendar's edge, with an offset past it
        raise ValueError(english("error.import.timestamp_range", value=echo(value))) from None
    # No pull request predates GitHub, and none merged tomorrow: a date outside is a broken
    # export, and a window of 0001..9999 would mark every week ever complete.
    latest = datetime.now(UTC) + LATEST_AHEAD
    if not EARLIEST <= parsed <= latest:
        raise ValueError(
            english(
                "error.import.timestamp_span",
                value=echo(value),
                earliest=f"{EARLIEST:%Y-%m-%d}",
                latest=f"{latest:%Y-%m-%d}",
            )
        )
    return parsed


def _ref(value: str) -> str:
    if (problem := ref_problem(value, MAX_BRANCH_LENGTH)) is not None:
        raise ValueError(problem)
    return value


def _repository(value: str) -> str:
    if (problem := repo_problem(value)) is not None:
        raise ValueError(english("error.import.repository", value=echo(value), problem=problem))
    return value


def _login(value: object) -> object:
    # GraphQL shape: {"login": ...}
    if isinstance(value, dict) and set(value) <= {"login", "__typename"}:
        return value.get("login")
    return value


def _labels(value: object) -> object:
    # GraphQL shape: {"nodes": [{"name": ...}]}; any other object is refused.
    if isinstance(value, dict) and set(value) == {"nodes"} and isinstance(value["nodes"], list):
        return [n.get("name") if isinstance(n, dict) else n for n in value["nodes"]]
    return value


Timestamp = Annotated[datetime, BeforeValidator(_timestamp)]
Count = Annotated[int, Field(ge=0, le=INT32_MAX, strict=True)]
Login = Annotated[str, Field(max_length=39)]  # GitHub's limit for an account name
MAX_BRANCH_LENGTH = 1000  # git sets none; the store keeps branch names whole (TEXT)
# What GitHub's GraphQL (PatchStatus) and REST (status) call a file's change.
CHANGE_TYPES = ("added", "changed", "copied", "deleted", "modified", "removed", "renamed")
LongText = Annotated[str, Field(max_length=1_000_000)]


class _Strict(BaseModel):
    # Unknown keys are kept out of the model, not refused: real exports carry more
    # (mergeCommit, source, ...) than the bot reads.
    model_config = ConfigDict(extra="ignore", frozen=True)


def _change_type(value: str) -> str:
    if value.lower() not in CHANGE_TYPES and value.lower() != "unchanged":
        raise ValueError(
            english("error.import.change_type", value=echo(value), accepted=", ".join(CHANGE_TYPES))
        )
    return value


class FileIn(_Strict):
    path: Annotated[str, Field(min_length=1, max_length=4096)]
    additions: Count = 0
    deletions: Count = 0
    changeType: Annotated[str, AfterValidator(_change_type)] | None = None


class PullRequestIn(_Strict):
    number: Annotated[int, Field(gt=0, le=MAX_PR_NUMBER, strict=True)]
    title: Annotated[str, Field(max_length=10_000)]
    body: LongText | None = None
    url: Annotated[str, Field(max_length=2048, pattern=r"^https?://\S+$")] | None = None
    author: Annotated[Login | None, BeforeValidator(_login)] = None
    createdAt: Timestamp | None = None
    mergedAt: Timestamp | None = None
    closedAt: Timestamp | None = None
    state: Annotated[str, AfterValidator(lambda v: v.lower())] | None = None
    labels: Annotated[list[Annotated[str, Field(max_length=200)]], BeforeValidator(_labels)] = []
    additions: Count = 0
    deletions: Count = 0
    changedFiles: Count | None = None
    files: list[FileIn] = []
    filesKnown: bool = True
    mergedBy: Annotated[Login | None, BeforeValidator(_login)] = None
    baseRefName: Annotated[str, AfterValidator(_ref)] | None = None

    @model_validator(mode="after")
    def _merged_or_state(self) -> PullRequestIn:
        if self.state is not None and self.state not in PR_STATES:
            raise ValueError(english("error.import.state", value=repr(self.state)))
        unmerged = self.state in ("open", "closed")
        if self.mergedAt is None and "mergedAt" in self.model_fields_set and not unmerged:
            raise ValueError(english("error.import.merged_null"))
        if self.mergedAt is None and self.state == "merged":
            raise ValueError(english("error.import.merged_missing"))
        return self


class WindowIn(_Strict):
    since: Timestamp
    until: Timestamp

    @model_validator(mode="after")
    def _ordered(self) -> WindowIn:
        if self.until <= self.since:
            raise ValueError(english("error.import.window_order"))
        return self


class WindowExport(_Strict):
    """An export of the PRs of a window (or of whatever the exporter picked)."""

    repository: Annotated[str, AfterValidator(_repository)]
    pullRequests: list[PullRequestIn]
    window: WindowIn | None = None
    # The flat form real exports use: {"repository", "since", "until", "pullRequests"}.
    since: Timestamp | None = None
    until: Timestamp | None = None

    @model_validator(mode="after")
    def _flat_window(self) -> WindowExport:
        if (self.since is None) != (self.until is None) or (
            self.since and self.until and self.until <= self.since
        ):
            raise ValueError(english("error.import.flat_window"))
        return self

    def declared(self) -> tuple[datetime, datetime] | None:
        if self.window is not None:
            return self.window.since, self.window.until
        if self.since is not None and self.until is not None:
            return self.since, self.until
        return None


def export_kind(data: object) -> str:
    """Which export a file is: the tag of its model in `ExportFile`.

    The seam for other exports: a release's PRs (a `"release"` object instead of a
    window) join `ExportFile` as `Annotated[ReleaseExport, Tag("release")]`, with a
    branch here and in `EXPORT_KINDS`. Until then a release file reads as a window export
    without a window (its PRs, nothing marked complete), as it always has."""
    return "window"


ExportFile = Annotated[Union[Annotated[WindowExport, Tag("window")]], Discriminator(export_kind)]  # noqa: UP007
EXPORT_KINDS = ("window",)
_SCHEMA: TypeAdapter[WindowExport] = TypeAdapter(ExportFile)


_FIELDS = frozenset(PullRequestIn.model_fields) | frozenset(WindowExport.model_fields)


def _path(loc: tuple[int | str, ...]) -> str:
    shown = ""
    for part in loc:
        if isinstance(part, int):
            shown += f"[{part}]"
        elif not str(part).startswith(("function-", "union", "nullable", "str", "int")) and part:
            shown += f".{part}" if shown else str(part)
    return shown or "(top level)"


def _first_error(source: Path, exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    loc = tuple(error["loc"])
    where = _path(loc[1:] if loc and loc[0] in EXPORT_KINDS else loc)
    message = error["msg"].removeprefix("Value error, ")
    # A check of several fields names the one at fault first ("mergedAt: ..."): its path.
    field, sep, rest = message.partition(": ")
    if sep and field.isidentifier() and field in _FIELDS:
        where, message = f"{where}.{field}", rest
    value = error.get("input")
    kind = error["type"]
    if kind == "missing":
        message = "missing: expected it (see README, 'Export format for import')"
    elif kind in ("int_type", "int_parsing", "int_from_float"):
        message = "expected a whole number"
    elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        message = message.replace("Input should be", "expected a number")
    elif kind == "list_type":
        message = "expected a list"
    elif kind in ("model_type", "dict_type", "model_attributes_type"):
        message = "expected an object"
    elif kind == "string_type":
        message = "expected a string"
    elif kind == "bool_type":
        message = "expected true or false"
    elif kind == "string_too_long":
        message = message.replace("String should have", "expected")
    shown = ""
    if not isinstance(value, dict | list) and kind != "missing" and echo(str(value)) not in message:
        shown = f" (got {json.dumps(value, default=str)[:60]})"
    return f"{source}: {where}: {message}{shown}"


def _depth(data: str) -> int:
    """The deepest nesting of brackets in `data` (strings skipped), without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for char in data:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def _pr(repo: str, raw: PullRequestIn, now: datetime) -> PullRequest:
    merged_at = raw.mergedAt
    state: PRState = "merged" if merged_at else PR_STATES[raw.state or "open"]
    files = [FileChange(f.path, f.additions, f.deletions, f.changeType) for f in raw.files]
    return PullRequest(
        repo=repo,
        number=raw.number,
        title=raw.title,
        body=raw.body or "",
        url=raw.url or f"https://github.com/{repo}/pull/{raw.number}",
        state=state,
        author=raw.author,
        created_at=raw.createdAt or merged_at or now,
        merged_at=merged_at,
        closed_at=raw.closedAt or merged_at,
        additions=raw.additions,
        deletions=raw.deletions,
        changed_files=raw.changedFiles if raw.changedFiles is not None else len(files),
        labels=list(raw.labels),
        files=files,
        files_known=raw.filesKnown,
        merged_by=raw.mergedBy,
        base_ref=raw.baseRefName,
        fetched_at=now,
    )


@dataclass(frozen=True, slots=True)
class Export:
    repo: str
    prs: list[PullRequest]
    declared: tuple[datetime, datetime] | None  # the file's own `window`, when it has one
    path: Path | None = None


def coverage(export: Export, start: datetime, end: datetime) -> Text | None:
    """Why `export` does not show it holds every PR merged in [start, end), or None.

    Judged by the export's declared `window` when it has one (it must contain [start,
    end)); otherwise by its merged dates: a PR merged before `start` and one at or after
    `end` show the export was not cut off inside the window."""
    if export.declared is not None:
        since, until = export.declared
        if since <= start and end <= until:
            return None
        return Text(
            "error.import.window_outside",
            {
                "declared": _span(since, until),
                "window": _span(start, end),
            },
        )
    merged = sorted(p.merged_at for p in export.prs if p.merged_at is not None)
    if merged and merged[0] < start and merged[-1] >= end:
        return None
    span = f"{merged[0].date()}..{merged[-1].date()}" if merged else Text("error.import.no_merged")
    return Text("error.import.window_undeclared", {"dates": span, "window": _span(start, end)})


def _span(start: datetime, end: datetime) -> str:
    """A window in UTC, as dates when it starts and ends at midnight UTC, else to the minute
    (a week of Asia/Shanghai is 2026-05-24 16:00..2026-05-31 16:00 UTC: as dates it would
    read as the UTC week it is not)."""
    start, end = start.astimezone(UTC), end.astimezone(UTC)
    if start.time() == end.time() == datetime.min.time():
        return f"{start.date()}..{end.date()}"
    return utc_spans([(start, end)])


def read_export(path: Path) -> tuple[str, list[PullRequest]]:
    """The repository and pull requests in an export file."""
    export = read_export_file(path)
    return export.repo, export.prs


def read_export_file(path: Path) -> Export:
    """The repository, pull requests and declared window of an export file, checked whole
    before anything is returned: a bad field is a UsageError naming its path."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise MessageError(
            "error.import.unreadable", path=str(path), reason=str(exc.strerror), expected=EXPECTED
        ) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MessageError("error.import.not_utf8", path=str(path), byte=str(exc.start)) from None
    if _depth(text) > MAX_DEPTH:
        raise MessageError(
            "error.import.depth", path=str(path), limit=str(MAX_DEPTH), expected=EXPECTED
        )
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MessageError(
            "error.import.not_json", path=str(path), problem=str(exc), expected=EXPECTED
        ) from None
    except RecursionError:  # defence in depth: _depth should have caught it
        raise MessageError("error.import.too_deep", path=str(path), expected=EXPECTED) from None
    if not isinstance(data, dict):
        kind = type(data).__name__ if data is not None else "null"
        raise MessageError("error.import.not_object", path=str(path), kind=kind)
    if (kind := export_kind(data)) not in EXPORT_KINDS:
        raise MessageError("error.import.kind", path=str(path), kind=kind, expected=EXPECTED)
    try:
        parsed = _SCHEMA.validate_python(data)
    except ValidationError as exc:
        raise UsageError(_first_error(path, exc)) from None
    now = datetime.now(UTC)
    prs = [_pr(parsed.repository, raw_pr, now) for raw_pr in parsed.pullRequests]
    return Export(parsed.repository, prs, parsed.declared(), path)


@dataclass(frozen=True, slots=True)
class ImportResult:
    stored: int
    conflicts: list[str]  # one line each: a merge date kept or changed
    reopened: list[str]  # one line each: a complete window marked incomplete again


def _when(value: datetime | None) -> str:
    return f"{value:%Y-%m-%d %H:%M} UTC" if value is not None else "not merged"


async def store_export(
    store: Store, export: Export, complete: tuple[datetime, datetime] | None = None
) -> ImportResult:
    """Store an export's PRs without changing a stored fact silently.

    A stored merge time inside a complete window is kept (the window's count was taken
    from it), and a stored merge is never undone; every other changed merge time is
    replaced and said. A complete window whose count the import changes anyway (a PR
    new to it) is marked incomplete again, and said. `complete`: the window the file
    covers, marked complete with its new count."""
    repo = export.repo
    windows = [
        w
        for w in await store.windows.overlapping(repo, datetime.min.replace(tzinfo=UTC), _END)
        if w.complete and (w.start, w.end) != complete
    ]

    def protected(at: datetime | None) -> str | None:
        for w in windows:
            if at is not None and w.start <= at < w.end:
                return f"{w.start.date()}..{w.end.date()}"
        return None

    stored = await store.prs.merge_times(repo, [pr.number for pr in export.prs])
    conflicts: list[str] = []
    prs: list[PullRequest] = []
    touched: set[tuple[datetime, datetime]] = set()
    for pr in export.prs:
        before = stored.get(pr.number)
        if before is not None:
            merged, closed = before
            if merged is not None and pr.merged_at != merged:
                kept = protected(merged)
                if kept is not None or pr.merged_at is None:
                    why = f"complete window {kept}" if kept else "a merge is never undone"
                    conflicts.append(
                        f"#{pr.number} of {repo}: kept the stored merge time {_when(merged)} "
                        f"({why}); the file says {_when(pr.merged_at)}"
                    )
                    pr = replace(pr, state="merged", merged_at=merged, closed_at=closed or merged)
                else:
                    conflicts.append(
                        f"#{pr.number} of {repo}: merge time changed from {_when(merged)} "
                        f"to {_when(pr.merged_at)} (in no complete window)"
                    )
            touched.update((w.start, w.end) for w in windows if w.start <= (merged or _END) < w.end)
        touched.update(
            (w.start, w.end) for w in windows if pr.merged_at and w.start <= pr.merged_at < w.end
        )
        prs.append(pr)
    counts = {span: await store.prs.count_merged_between(repo, *span) for span in sorted(touched)}
    reopened: list[str] = []
    # One transaction: an import stopped part-way (Ctrl-C, a failure) leaves the store as
    # it was, never PRs without the windows they reopen.
    async with store.transaction() as session:
        await store.prs.upsert(prs, session=session)
        for (start, end), was in counts.items():
            now = await store.prs.count_merged_between(repo, start, end, session=session)
            if now != was:
                await store.windows.mark(
                    repo, start, end, complete=False, pr_count=now, session=session
                )
                reopened.append(
                    f"{repo} {start.date()}..{end.date()} was complete with {was} merged PRs "
                    f"and now holds {now}: marked incomplete; re-sync it (vllm-bot sync "
                    f"--since {start.date()} --until {end.date()}) or import a file covering "
                    "it with --complete"
                )
        if complete is not None:
            count = await store.prs.count_merged_between(repo, *complete, session=session)
            await store.windows.mark(
                repo, *complete, complete=True, pr_count=count, session=session
            )
    return ImportResult(len(prs), conflicts, reopened)


def complete_span(export: Export, window: Window | None) -> tuple[datetime, datetime]:
    """The window `import --complete` marks for `export`, once the file is shown to cover it."""
    if window is None:
        if export.declared is None:
            raise MessageError("error.import.complete_needs_window", path=str(export.path))
        return export.declared
    problem = coverage(export, window.start, window.end)
    if problem is not None:
        raise MessageError(
            "error.import.not_covered",
            week=window.label,
            path=str(export.path),
            problem=problem,
        )
    return window.start_utc, window.end_utc


async def local_week_note(
    store: Store, repo: str, span: tuple[datetime, datetime], tz: tzinfo
) -> str | None:
    """What a window marked complete means in the configured timezone, when its weeks are
    not UTC's: an export of a UTC week leaves the hours of the local week before its
    Monday 00:00 UTC uncovered, and that week's digest stays incomplete. None in UTC, or
    when the window is not a week's worth (a day, a month: no one week to speak of)."""
    start, end = span
    if start.astimezone(tz).utcoffset() == end.astimezone(tz).utcoffset() == timedelta(0):
        return None
    if end - start != timedelta(weeks=1):
        return None
    # The local week holding most of the window: the week the file is for.
    middle = (start + (end - start) / 2).astimezone(tz)
    year, week, _ = middle.isocalendar()
    local = iso_week(year, week, tz)
    gaps = await store.windows.gaps(repo, local.start_utc, local.end_utc)
    if not gaps:
        return english("import.local_week_complete", week=local.label, tz=str(tz))
    return english(
        "import.local_week_gaps",
        week=local.label,
        tz=str(tz),
        start=utc_minute(local.start_utc),
        end=f"{utc_minute(local.end_utc)} UTC",
        gaps=utc_spans(gaps),
    )


def import_summary(
    export: Export,
    window: Window | None,
    span: tuple[datetime, datetime] | None,
    result: ImportResult,
    local: str | None = None,
) -> str:
    """The one line an import prints; `local`: what the window marked complete means in
    the configured timezone (`local_week_note`), when its weeks are not UTC's."""
    message = f"imported {result.stored} PRs of {export.repo} from {export.path}"
    if result.conflicts:
        message += f" ({len(result.conflicts)} merge times differed, see above)"
    if span is not None and window is None:
        start, end = span
        inside = sum(1 for p in export.prs if p.merged_at and start <= p.merged_at < end)
        # The file's own window is UTC's; said so when the configured weeks are not.
        zone = " (UTC)" if local is not None else ""
        message += f"; {start.date()}..{end.date()}{zone} marked complete ({inside} PRs in it)"
        if local is not None:
            message += f"; {local}"
    elif window is not None:
        inside = sum(
            1 for p in export.prs if p.merged_at and window.start <= p.merged_at < window.end
        )
        if span is not None:
            message += f"; {window.label} marked complete ({inside} PRs in it)"
        else:
            message += (
                f"; {inside} in {window.label}, which stays incomplete "
                "(--complete marks it complete when the file covers it)"
            )
    return message
