"""Import pull requests from a JSON export (offline use, archives, demos).

The format uses GitHub's GraphQL field names:
{"repository": "owner/name", "pullRequests": [{"number", "title", "body", "url", "author",
"createdAt", "mergedAt", "baseRefName", "labels": [..], "additions", "deletions",
"changedFiles", "files": [{"path", "additions", "deletions"}], "filesKnown"}],
"window": {"since", "until"}}

`window` (optional; top-level "since"/"until" mean the same) is the export's declaration
of what it holds: every PR merged in [since, until). Only such a declaration, or merged
dates reaching past both edges, lets
`import --complete` mark a window complete (`coverage`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.core.errors import UsageError
from bot.core.models import JSON, PR_STATES, FileChange, PRState, PullRequest

EXPECTED = "expected a JSON export (see README, 'Export format for import')"


def _time(value: str | None, where: str) -> datetime | None:
    if value in (None, ""):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except (TypeError, ValueError):
        raise UsageError(f"{where}: bad timestamp {value!r}: expected ISO 8601") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _state(raw: JSON, merged_at: datetime | None, where: str) -> PRState:
    if merged_at:
        return "merged"
    value = str(raw.get("state", "open")).lower()
    if value not in PR_STATES:
        raise UsageError(f"{where}: bad state {value!r}: expected open, closed or merged")
    return PR_STATES[value]


def _pr(repo: str, raw: JSON, where: str) -> PullRequest:
    try:
        number = int(raw["number"])
        title = str(raw["title"])
    except (KeyError, TypeError, ValueError):
        raise UsageError(f"{where}: each pull request needs a number and a title") from None
    merged_at = _time(raw.get("mergedAt"), where)
    created_at = _time(raw.get("createdAt"), where) or merged_at or datetime.now(UTC)
    author = raw.get("author")
    if isinstance(author, dict):  # GraphQL shape: {"login": ...}
        author = author.get("login")
    labels = raw.get("labels") or []
    if isinstance(labels, dict):
        labels = [node["name"] for node in labels.get("nodes", [])]
    files_known = bool(raw.get("filesKnown", True))
    files = [
        FileChange(
            str(f["path"]),
            int(f.get("additions", 0)),
            int(f.get("deletions", 0)),
            f.get("changeType"),
        )
        for f in (raw.get("files") or [])
    ]
    return PullRequest(
        repo=repo,
        number=number,
        title=title,
        body=raw.get("body") or "",
        url=raw.get("url") or f"https://github.com/{repo}/pull/{number}",
        state=_state(raw, merged_at, where),
        author=author,
        created_at=created_at,
        merged_at=merged_at,
        closed_at=_time(raw.get("closedAt"), where) or merged_at,
        additions=int(raw.get("additions") or 0),
        deletions=int(raw.get("deletions") or 0),
        changed_files=int(raw.get("changedFiles") or len(files)),
        labels=[str(label) for label in labels],
        files=files,
        files_known=files_known,
        merged_by=raw.get("mergedBy"),
        base_ref=raw.get("baseRefName"),
        fetched_at=datetime.now(UTC),
    )


@dataclass(frozen=True, slots=True)
class Export:
    repo: str
    prs: list[PullRequest]
    declared: tuple[datetime, datetime] | None  # the file's own `window`, when it has one


def coverage(export: Export, start: datetime, end: datetime) -> str | None:
    """Why `export` does not show it holds every PR merged in [start, end), or None.

    Judged by the export's declared `window` when it has one (it must contain [start,
    end)); otherwise by its merged dates: a PR merged before `start` and one at or after
    `end` show the export was not cut off inside the window."""
    if export.declared is not None:
        since, until = export.declared
        if since <= start and end <= until:
            return None
        return (
            f"the file declares the window {since.date()}..{until.date()}, "
            f"which does not contain {start.date()}..{end.date()}"
        )
    merged = sorted(p.merged_at for p in export.prs if p.merged_at is not None)
    if merged and merged[0] < start and merged[-1] >= end:
        return None
    span = f"{merged[0].date()}..{merged[-1].date()}" if merged else "no merged PRs"
    return (
        f"the file declares no window and its merged dates ({span}) do not reach past both "
        f'edges of {start.date()}..{end.date()}; add "window": {{"since": …, "until": …}}'
    )


def read_export(path: Path) -> tuple[str, list[PullRequest]]:
    """The repository and pull requests in an export file."""
    export = read_export_file(path)
    return export.repo, export.prs


def read_export_file(path: Path) -> Export:
    """The repository, pull requests and declared window of an export file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}; {EXPECTED}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON: {exc}; {EXPECTED}") from None
    if not isinstance(data, dict) or "pullRequests" not in data or "repository" not in data:
        raise UsageError(f"{path}: expected an object with 'repository' and 'pullRequests'")
    repo = str(data["repository"])
    prs = [
        _pr(repo, raw, f"{path}: pullRequests[{i}]") for i, raw in enumerate(data["pullRequests"])
    ]
    declared = None
    window = data.get("window")
    if window is None and ("since" in data or "until" in data):
        # The flat form real exports use: {"repository", "since", "until", "pullRequests"}.
        window = {"since": data.get("since"), "until": data.get("until")}
    if window is not None:
        since = _time(window.get("since"), f"{path}: window") if isinstance(window, dict) else None
        until = _time(window.get("until"), f"{path}: window") if isinstance(window, dict) else None
        if since is None or until is None or until <= since:
            raise UsageError(
                f"{path}: 'window' must be "
                '{"since": DATE, "until": DATE} with until after since'
            )
        declared = (since, until)
    return Export(repo, prs, declared)
