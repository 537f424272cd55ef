"""Release exports (`vllm-bot import` of `../shared/datasets/releases/` files): the PRs
between two tags as the weekly export writes them, with a `"release"` object
(`base`, `head`, `base_date`, `head_date`) instead of a window."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bot.core.errors import MessageError
from bot.core.models import PullRequest
from bot.core.validators import ref_text
from bot.importer import Export, read_export_file
from bot.releases.commits import cherry_pick_of
from bot.store.releases import StoredRelease
from bot.store.store import Store

RELEASE_SHAPE = '"release": {"base": TAG, "head": TAG, "base_date": DATE, "head_date": DATE}'


@dataclass(frozen=True, slots=True)
class ReleaseExport:
    release: StoredRelease
    prs: list[PullRequest]


def _date(value: object, where: str) -> datetime | None:
    if value in (None, ""):
        return None
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise MessageError("release.error.date", where=where, value=repr(value)) from None


def release_object(path: Path) -> dict[str, object] | None:
    """The file's `"release"` object, or None for a weekly export. Read before the PRs so
    the importer can tell the two kinds of file apart."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None  # the weekly reader reports what is wrong with the file
    release = data.get("release") if isinstance(data, dict) else None
    if release is None:
        return None
    if not isinstance(release, dict):
        raise MessageError("release.error.object", path=str(path), shape=RELEASE_SHAPE)
    return release


def read_release_export(
    path: Path, release: dict[str, object], export: Export | None = None
) -> ReleaseExport:
    """The release and its PRs, checked whole before anything is stored (`export`: the
    file as the importer has already read it, so it is not read twice)."""
    base, head = release.get("base"), release.get("head")
    if not isinstance(base, str) or not isinstance(head, str) or not base or not head:
        raise MessageError("release.error.tags", path=str(path), shape=RELEASE_SHAPE)
    for where, tag in (("base", base), ("head", head)):
        # A tag names a page of the archive and a row of the store: git's own rules, and
        # the store's column length, the same on SQLite and PostgreSQL.
        if (problem := ref_text(tag)) is not None:
            raise MessageError("release.error.tag", path=str(path), where=where, problem=problem)
    if export is None:
        export = read_export_file(path)
    entries = [
        (cherry_pick_of(pr.title, pr.number, pr.body) or pr.number, pr.number) for pr in export.prs
    ]
    stored = StoredRelease(
        repo=export.repo,
        tag=head,
        base=base,
        base_date=_date(release.get("base_date"), f"{path}: release.base_date"),
        head_date=_date(release.get("head_date"), f"{path}: release.head_date"),
        entries=[(reported, None if reported == pick else pick) for reported, pick in entries],
        commits=len(export.prs),
    )
    return ReleaseExport(stored, export.prs)


async def import_release(store: Store, export: ReleaseExport) -> str:
    """Store a release export's PRs and membership; the one line `import` prints."""
    async with store.transaction() as session:  # the release with its PRs, or nothing
        await store.prs.upsert(export.prs, session=session)
        await store.releases.put(export.release, session=session)
    stored = export.release
    picks = sum(1 for _, pick in stored.entries if pick is not None)
    return (
        f"imported release {stored.tag} of {stored.repo} against {stored.base}: "
        f"{len(export.prs)} PRs ({picks} cherry-picks)"
    )
