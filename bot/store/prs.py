"""The pull-request aggregate: PRs with their files and labels (`pull_requests`, `pr_files`,
`pr_labels`), and what the stored PRs tell about a repository offline (labels, folders)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.core.models import FileChange, PullRequest
from bot.store.analyses import AnalysisCache
from bot.store.sql import chunks, upsert
from bot.store.tables import pr_files, pr_labels, pull_requests
from bot.store.text import load_text, store_text

_COLUMNS = (
    "title",
    "body",
    "url",
    "author",
    "state",
    "created_at",
    "merged_at",
    "closed_at",
    "additions",
    "deletions",
    "changed_files",
    "files_known",
    "review_count",
    "comment_count",
    "merged_by",
    "base_ref",
    "fetched_at",
)


class StoredFolders(NamedTuple):
    """Folders of a repository's stored PRs (`PullRequests.folders`)."""

    tops: list[str]
    subfolders: dict[str, list[str]]
    prs: dict[str, int]  # top-level folder -> stored PRs touching it


class PullRequests:
    def __init__(
        self,
        session: async_sessionmaker[AsyncSession],
        engine: AsyncEngine,
        analyses: AnalysisCache,
    ) -> None:
        self.session = session
        self.engine = engine
        self.analyses = analyses

    async def upsert(
        self, prs: Sequence[PullRequest], *, session: AsyncSession | None = None
    ) -> None:
        """Insert or replace PRs with their files and labels, in one transaction (the
        caller's `session`, when given: an import writes its windows in the same one)."""
        if not prs:
            return
        if session is not None:
            await self._upsert(session, prs)
            return
        async with self.session.begin() as own:
            await self._upsert(own, prs)

    async def _upsert(self, session: AsyncSession, prs: Sequence[PullRequest]) -> None:
        unique = {(pr.repo, pr.number): pr for pr in prs}
        ids: dict[tuple[str, int], int] = {}
        for chunk in chunks(list(unique.values())):
            rows = [
                {"repo": pr.repo, "number": pr.number}
                | {c: store_text(getattr(pr, c)) for c in _COLUMNS}
                for pr in chunk
            ]
            stmt = upsert(self.engine, pull_requests).values(rows)
            stmt = stmt.on_conflict_do_update(
                index_elements=["repo", "number"],
                set_={c: stmt.excluded[c] for c in _COLUMNS},
            ).returning(pull_requests.c.id, pull_requests.c.repo, pull_requests.c.number)
            for row_id, repo, number in await session.execute(stmt):
                ids[(repo, number)] = row_id
        pr_ids = list(ids.values())
        for id_chunk in chunks(pr_ids):
            await session.execute(delete(pr_files).where(pr_files.c.pr_id.in_(id_chunk)))
            await session.execute(delete(pr_labels).where(pr_labels.c.pr_id.in_(id_chunk)))
        # The PRs may have changed: their cached analyses no longer apply.
        await self.analyses.forget(session, pr_ids)
        files = [
            {
                "pr_id": ids[key],
                "path": store_text(f.path),
                "additions": f.additions,
                "deletions": f.deletions,
                "change_type": f.change_type,
            }
            for key, pr in unique.items()
            for f in pr.files
        ]
        labels = [
            {"pr_id": ids[key], "name": store_text(name)}
            for key, pr in unique.items()
            for name in pr.labels
        ]
        for rows_chunk in chunks(files, 5000):
            await session.execute(pr_files.insert(), list(rows_chunk))
        for rows_chunk in chunks(labels, 5000):
            await session.execute(pr_labels.insert(), list(rows_chunk))

    async def _load(
        self, session: AsyncSession, where: Sequence[ColumnElement[bool]]
    ) -> list[PullRequest]:
        columns = [pull_requests.c.id, pull_requests.c.repo, pull_requests.c.number] + [
            pull_requests.c[c] for c in _COLUMNS
        ]
        rows = (await session.execute(select(*columns).where(*where))).all()
        if not rows:
            return []
        by_id = {row[0]: row for row in rows}
        files: dict[int, list[FileChange]] = defaultdict(list)
        labels: dict[int, list[str]] = defaultdict(list)
        for chunk in chunks(list(by_id)):
            file_rows = await session.execute(
                select(
                    pr_files.c.pr_id,
                    pr_files.c.path,
                    pr_files.c.additions,
                    pr_files.c.deletions,
                    pr_files.c.change_type,
                )
                .where(pr_files.c.pr_id.in_(chunk))
                .order_by(pr_files.c.id)
            )
            for pr_id, path, additions, deletions, change_type in file_rows:
                files[pr_id].append(FileChange(load_text(path), additions, deletions, change_type))
            label_rows = await session.execute(
                select(pr_labels.c.pr_id, pr_labels.c.name)
                .where(pr_labels.c.pr_id.in_(chunk))
                .order_by(pr_labels.c.id)
            )
            for pr_id, name in label_rows:
                labels[pr_id].append(load_text(name))
        return [
            PullRequest(
                repo=row[1],
                number=row[2],
                labels=labels[row[0]],
                files=files[row[0]],
                **{c: load_text(v) for c, v in zip(_COLUMNS, row[3:], strict=True)},
            )
            for row in rows
        ]

    async def get(self, repo: str, number: int) -> PullRequest | None:
        async with self.session() as session:
            found = await self._load(
                session, [pull_requests.c.repo == repo, pull_requests.c.number == number]
            )
        return found[0] if found else None

    async def many(self, repo: str, numbers: Sequence[int]) -> dict[int, PullRequest]:
        """The stored PRs among `numbers` (a release's), by number; missing ones left out."""
        found: dict[int, PullRequest] = {}
        async with self.session() as session:
            for chunk in chunks(sorted(set(numbers))):
                for pr in await self._load(
                    session, [pull_requests.c.repo == repo, pull_requests.c.number.in_(chunk)]
                ):
                    found[pr.number] = pr
        return found

    async def merged_between(self, repo: str, start: datetime, end: datetime) -> list[PullRequest]:
        """Merged PRs with start <= merged_at < end, oldest merge first."""
        async with self.session() as session:
            prs = await self._load(
                session,
                [
                    pull_requests.c.repo == repo,
                    pull_requests.c.merged_at >= start,
                    pull_requests.c.merged_at < end,
                ],
            )
        prs.sort(key=lambda pr: (pr.merged_at, pr.number))
        return prs

    async def count_merged_between(
        self, repo: str, start: datetime, end: datetime, *, session: AsyncSession | None = None
    ) -> int:
        """PRs of `repo` merged in [start, end) (in the caller's `session` when given, so
        it counts what that transaction wrote)."""
        query = (
            select(func.count())
            .select_from(pull_requests)
            .where(
                pull_requests.c.repo == repo,
                pull_requests.c.merged_at >= start,
                pull_requests.c.merged_at < end,
            )
        )
        if session is not None:
            return await session.scalar(query) or 0
        async with self.session() as own:
            count: int | None = await own.scalar(query)
        return count or 0  # COUNT(*) always returns a row

    async def merge_times(
        self, repo: str, numbers: Sequence[int]
    ) -> dict[int, tuple[datetime | None, datetime | None]]:
        """Merge and close time of those of `numbers` stored for `repo` (what an
        import compares before it replaces a PR)."""
        found: dict[int, tuple[datetime | None, datetime | None]] = {}
        async with self.session() as session:
            for chunk in chunks(list(numbers)):
                rows = await session.execute(
                    select(
                        pull_requests.c.number,
                        pull_requests.c.merged_at,
                        pull_requests.c.closed_at,
                    ).where(pull_requests.c.repo == repo, pull_requests.c.number.in_(chunk))
                )
                for number, merged, closed in rows:
                    found[number] = (merged, closed)
        return found

    async def repos_with(self, number: int) -> list[str]:
        """The repositories of which #`number` is stored (a lookup says where it is)."""
        async with self.session() as session:
            rows = await session.execute(
                select(pull_requests.c.repo).where(pull_requests.c.number == number).distinct()
            )
            return sorted(r for (r,) in rows)

    async def count(self, repo: str) -> int:
        """How many PRs of `repo` the store holds."""
        async with self.session() as session:
            value: int | None = await session.scalar(
                select(func.count()).select_from(pull_requests).where(pull_requests.c.repo == repo)
            )
        return value or 0

    async def last_merged(self, repo: str) -> datetime | None:
        """The newest merge time stored for `repo` (the archive's latest week)."""
        async with self.session() as session:
            value: datetime | None = await session.scalar(
                select(func.max(pull_requests.c.merged_at)).where(pull_requests.c.repo == repo)
            )
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)  # SQLite returns naive UTC
        return value

    async def repos(self) -> list[str]:
        async with self.session() as session:
            rows = await session.execute(select(pull_requests.c.repo).distinct())
            return sorted(r for (r,) in rows)

    async def label_names(self, repo: str) -> list[str]:
        """Every label seen on stored PRs of `repo` (auto rules make modules of them)."""
        async with self.session() as session:
            rows = await session.execute(
                select(pr_labels.c.name)
                .join(pull_requests, pr_labels.c.pr_id == pull_requests.c.id)
                .where(pull_requests.c.repo == repo)
                .distinct()
            )
            return sorted(load_text(name) for (name,) in rows)

    async def folders(self, repo: str) -> StoredFolders:
        """The folders seen in stored PRs' files, from one read of their paths: the
        top-level ones (offline stand-in for the repository tree), the second-level ones
        under each ("vllm_ascend" → ["attention", "ops", ...]: how auto rules split the
        repository's own package) and how many PRs touched each top-level one (which folder
        is the package is decided over the whole history, not by one PR)."""
        async with self.session() as session:
            rows = await session.execute(
                select(pr_files.c.pr_id, pr_files.c.path)
                .join(pull_requests, pr_files.c.pr_id == pull_requests.c.id)
                .where(pull_requests.c.repo == repo)
            )
            touched: dict[str, set[int]] = {}
            tree: dict[str, set[str]] = {}
            for pr_id, path in rows:
                parts = path.split("/")
                if len(parts) > 1:
                    touched.setdefault(parts[0], set()).add(pr_id)
                if len(parts) > 2:
                    tree.setdefault(parts[0], set()).add(parts[1])
        return StoredFolders(
            sorted(touched),
            {top: sorted(subs) for top, subs in sorted(tree.items())},
            {top: len(prs) for top, prs in sorted(touched.items())},
        )
