"""Async access to the store. All reads and writes of the bot go through `Store`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Table, delete, event, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from bot.models import FileChange, PullRequest
from bot.store.analyses import AnalysisCache
from bot.store.http_cache import HTTPCache
from bot.store.ledger import CLAIMED, FAILED, LEASE, SENT, Claim, ClaimLedger, Owner
from bot.store.migrate import upgrade
from bot.store.sql import chunks, table_of, upsert
from bot.store.tables import (
    ContributorRow,
    DeliveryRow,
    HTTPCacheRow,
    PRAnalysisRow,
    PRFileRow,
    PRLabelRow,
    PullRequestRow,
    SyncWindowRow,
)
from bot.store.text import load_text, store_text

# DeliveryRow.state: a run is posting the part (or crashed doing so) / the part is posted.
DELIVERY_CLAIMED = CLAIMED
DELIVERY_SENT = SENT
_DELIVERY_KEY = ("document", "platform", "channel", "part")


_PR_COLUMNS = (
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


@dataclass(frozen=True, slots=True)
class SyncWindow:
    repo: str
    start: datetime
    end: datetime
    complete: bool
    pr_count: int
    fingerprint: str | None
    synced_at: datetime | None
    checked_at: datetime | None


@dataclass(frozen=True, slots=True)
class Delivery:
    part: int
    parts: int
    message_id: str | None
    thread_id: str | None


def _sqlite_wal(dbapi_connection: Any, _record: Any) -> None:
    """WAL: readers (a `/vllm pr` answered from the store) never wait for a writer (a
    webhook's alert, a sync), so acknowledgements stay fast under load. A read-only
    database keeps its mode."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    except Exception:  # read-only file or URI: reading works in any journal mode
        pass
    finally:
        cursor.close()


class Store:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.session = async_sessionmaker(engine, expire_on_commit=False)
        # One repository per aggregate that has moved out of this class.
        self.analyses = AnalysisCache(self.session, engine)
        self.http_cache = HTTPCache(self.session, engine)

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> Store:
        parsed = make_url(url)
        database = parsed.database or ""
        # `file:` names an SQLite URI (uri=true): its path is not a directory to create.
        if (
            parsed.get_backend_name() == "sqlite"
            and database not in ("", ":memory:")
            and not (database.startswith("file:"))
        ):
            # Once per process, before any connection exists: blocking here is harmless.
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240
        kwargs = {}
        if parsed.get_backend_name() == "sqlite":
            # Writers wait for each other instead of failing with "database is locked".
            kwargs["connect_args"] = {"timeout": 30}
        engine = create_async_engine(url, **kwargs)
        if parsed.get_backend_name() == "sqlite" and database not in ("", ":memory:"):
            event.listen(engine.sync_engine, "connect", _sqlite_wal)
        if migrate:
            await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _insert(self, table: Table) -> Any:
        return upsert(self.engine, table)

    # ------------------------------------------------------------------ health

    async def ping(self) -> None:
        """One round trip to the database; raises what the driver raises."""
        async with self.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def probe_write(self) -> None:
        """Insert a row and roll it back: proves write access without leaving anything
        behind (`vllm-bot doctor`); raises what the driver raises."""
        async with self.engine.connect() as connection:
            transaction = await connection.begin()
            try:
                await connection.execute(
                    table_of(HTTPCacheRow)
                    .insert()
                    .values(
                        url="doctor://write-probe",
                        etag="-",
                        body="",
                        link=None,
                        fetched_at=datetime.now(UTC),
                    )
                )
            finally:
                await transaction.rollback()

    # ------------------------------------------------------------------ pull requests

    async def upsert_prs(self, prs: Sequence[PullRequest]) -> None:
        """Insert or replace PRs with their files and labels, in one transaction."""
        if not prs:
            return
        unique = {(pr.repo, pr.number): pr for pr in prs}
        async with self.session.begin() as session:
            ids: dict[tuple[str, int], int] = {}
            for chunk in chunks(list(unique.values())):
                rows = [
                    {"repo": pr.repo, "number": pr.number}
                    | {c: store_text(getattr(pr, c)) for c in _PR_COLUMNS}
                    for pr in chunk
                ]
                stmt = self._insert(table_of(PullRequestRow)).values(rows)
                stmt = stmt.on_conflict_do_update(
                    index_elements=["repo", "number"],
                    set_={c: stmt.excluded[c] for c in _PR_COLUMNS},
                ).returning(PullRequestRow.id, PullRequestRow.repo, PullRequestRow.number)
                for row_id, repo, number in await session.execute(stmt):
                    ids[(repo, number)] = row_id
            pr_ids = list(ids.values())
            for id_chunk in chunks(pr_ids):
                await session.execute(delete(PRFileRow).where(PRFileRow.pr_id.in_(id_chunk)))
                await session.execute(delete(PRLabelRow).where(PRLabelRow.pr_id.in_(id_chunk)))
                # The PR may have changed: its cached analyses no longer apply.
                await session.execute(
                    delete(PRAnalysisRow).where(PRAnalysisRow.pr_id.in_(id_chunk))
                )
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
                await session.execute(table_of(PRFileRow).insert(), list(rows_chunk))
            for rows_chunk in chunks(labels, 5000):
                await session.execute(table_of(PRLabelRow).insert(), list(rows_chunk))

    async def _load(self, session: AsyncSession, where: Any) -> list[PullRequest]:
        # Plain rows, not ORM objects: a 10,000-PR week loads twice as fast this way.
        columns = [PullRequestRow.id, PullRequestRow.repo, PullRequestRow.number] + [
            getattr(PullRequestRow, c) for c in _PR_COLUMNS
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
                    PRFileRow.pr_id,
                    PRFileRow.path,
                    PRFileRow.additions,
                    PRFileRow.deletions,
                    PRFileRow.change_type,
                )
                .where(PRFileRow.pr_id.in_(chunk))
                .order_by(PRFileRow.id)
            )
            for pr_id, path, additions, deletions, change_type in file_rows:
                files[pr_id].append(FileChange(load_text(path), additions, deletions, change_type))
            label_rows = await session.execute(
                select(PRLabelRow.pr_id, PRLabelRow.name)
                .where(PRLabelRow.pr_id.in_(chunk))
                .order_by(PRLabelRow.id)
            )
            for pr_id, name in label_rows:
                labels[pr_id].append(load_text(name))
        return [
            PullRequest(
                repo=row[1],
                number=row[2],
                labels=labels[row[0]],
                files=files[row[0]],
                **{c: load_text(v) for c, v in zip(_PR_COLUMNS, row[3:], strict=True)},
            )
            for row in rows
        ]

    async def get_pr(self, repo: str, number: int) -> PullRequest | None:
        async with self.session() as session:
            found = await self._load(
                session, [PullRequestRow.repo == repo, PullRequestRow.number == number]
            )
        return found[0] if found else None

    async def prs_merged_between(
        self, repo: str, start: datetime, end: datetime
    ) -> list[PullRequest]:
        """Merged PRs with start <= merged_at < end, oldest merge first."""
        async with self.session() as session:
            prs = await self._load(
                session,
                [
                    PullRequestRow.repo == repo,
                    PullRequestRow.merged_at >= start,
                    PullRequestRow.merged_at < end,
                ],
            )
        prs.sort(key=lambda pr: (pr.merged_at, pr.number))
        return prs

    async def count_merged_between(self, repo: str, start: datetime, end: datetime) -> int:
        async with self.session() as session:
            count: int | None = await session.scalar(
                select(func.count())
                .select_from(PullRequestRow)
                .where(
                    PullRequestRow.repo == repo,
                    PullRequestRow.merged_at >= start,
                    PullRequestRow.merged_at < end,
                )
            )
        return count or 0  # COUNT(*) always returns a row

    async def last_merged(self, repo: str) -> datetime | None:
        """The newest merge time stored for `repo` (the archive's latest week)."""
        async with self.session() as session:
            value = await session.scalar(
                select(func.max(PullRequestRow.merged_at)).where(PullRequestRow.repo == repo)
            )
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)  # SQLite returns naive UTC
        return value

    async def repos(self) -> list[str]:
        async with self.session() as session:
            rows = await session.execute(select(PullRequestRow.repo).distinct())
            return sorted(r for (r,) in rows)

    async def label_names(self, repo: str) -> list[str]:
        """Every label seen on stored PRs of `repo` (auto rules make modules of them)."""
        async with self.session() as session:
            rows = await session.execute(
                select(PRLabelRow.name)
                .join(PullRequestRow, PRLabelRow.pr_id == PullRequestRow.id)
                .where(PullRequestRow.repo == repo)
                .distinct()
            )
            return sorted(load_text(name) for (name,) in rows)

    async def top_level_dirs(self, repo: str) -> list[str]:
        """Top-level folders seen in stored PRs' files (offline stand-in for the repo tree)."""
        async with self.session() as session:
            rows = await session.execute(
                select(PRFileRow.path)
                .join(PullRequestRow, PRFileRow.pr_id == PullRequestRow.id)
                .where(PullRequestRow.repo == repo)
                .distinct()
            )
            return sorted({path.split("/", 1)[0] for (path,) in rows if "/" in path})

    async def subfolders(self, repo: str) -> dict[str, list[str]]:
        """Second-level folders per top-level folder seen in stored PRs' files ("vllm_ascend"
        → ["attention", "ops", ...]): how auto rules split the repository's own package."""
        async with self.session() as session:
            rows = await session.execute(
                select(PRFileRow.path)
                .join(PullRequestRow, PRFileRow.pr_id == PullRequestRow.id)
                .where(PullRequestRow.repo == repo)
                .distinct()
            )
            tree: dict[str, set[str]] = {}
            for (path,) in rows:
                parts = path.split("/")
                if len(parts) > 2:
                    tree.setdefault(parts[0], set()).add(parts[1])
            return {top: sorted(subs) for top, subs in sorted(tree.items())}

    # ------------------------------------------------------------------ sync windows

    async def get_window(self, repo: str, start: datetime, end: datetime) -> SyncWindow | None:
        async with self.session() as session:
            row = await session.scalar(
                select(SyncWindowRow).where(
                    SyncWindowRow.repo == repo,
                    SyncWindowRow.start == start,
                    SyncWindowRow.end == end,
                )
            )
        return _window(row) if row else None

    async def windows(self, repo: str, start: datetime, end: datetime) -> list[SyncWindow]:
        """Windows of `repo` that overlap [start, end)."""
        async with self.session() as session:
            rows = (
                await session.execute(
                    select(SyncWindowRow)
                    .where(
                        SyncWindowRow.repo == repo,
                        SyncWindowRow.start < end,
                        SyncWindowRow.end > start,
                    )
                    .order_by(SyncWindowRow.start)
                )
            ).scalars()
            return [_window(r) for r in rows]

    async def is_covered(self, repo: str, start: datetime, end: datetime) -> bool:
        """True when complete windows cover [start, end) without a gap."""
        cursor = start
        for window in await self.windows(repo, start, end):
            if not window.complete:
                continue
            if window.start <= cursor < window.end:
                cursor = window.end
            if cursor >= end:
                return True
        return cursor >= end

    async def mark_window(
        self,
        repo: str,
        start: datetime,
        end: datetime,
        *,
        complete: bool,
        pr_count: int,
        fingerprint: str | None = None,
        synced: bool = True,
    ) -> None:
        """Record a window's state. `synced=False` records only a confirmation check."""
        now = datetime.now(UTC)
        values = {
            "repo": repo,
            "start": start,
            "end": end,
            "complete": complete,
            "pr_count": pr_count,
            "fingerprint": fingerprint,
            "checked_at": now,
        }
        if synced:
            values["synced_at"] = now
        stmt = self._insert(table_of(SyncWindowRow)).values(values)
        stmt = stmt.on_conflict_do_update(
            index_elements=["repo", "start", "end"],
            set_={k: stmt.excluded[k] for k in values if k not in ("repo", "start", "end")},
        )
        async with self.session.begin() as session:
            await session.execute(stmt)

    # ------------------------------------------------------------------ contributors

    async def first_merged(self, repo: str, logins: Iterable[str]) -> dict[str, datetime | None]:
        """Known first-merge times; a login missing from the result was never looked up."""
        logins = list(logins)
        found: dict[str, datetime | None] = {}
        async with self.session() as session:
            for chunk in chunks(logins):
                rows = await session.execute(
                    select(ContributorRow.login, ContributorRow.first_merged_at).where(
                        ContributorRow.repo == repo, ContributorRow.login.in_(chunk)
                    )
                )
                found.update({login: at for login, at in rows})
        return found

    async def set_first_merged(self, repo: str, values: dict[str, datetime | None]) -> None:
        if not values:
            return
        rows = [{"repo": repo, "login": k, "first_merged_at": v} for k, v in values.items()]
        async with self.session.begin() as session:
            for chunk in chunks(rows):
                stmt = self._insert(table_of(ContributorRow)).values(list(chunk))
                stmt = stmt.on_conflict_do_update(
                    index_elements=["repo", "login"],
                    set_={"first_merged_at": stmt.excluded.first_merged_at},
                )
                await session.execute(stmt)

    # ------------------------------------------------------------------ delivery ledger

    async def deliveries(self, document: str, platform: str, channel: str) -> dict[int, Delivery]:
        """The parts of `document` posted to `channel` (sent ones only: a claim is a part
        some run is still posting, or was when it crashed)."""
        async with self.session() as session:
            rows = await session.execute(
                select(DeliveryRow).where(
                    DeliveryRow.document == document,
                    DeliveryRow.platform == platform,
                    DeliveryRow.channel == channel,
                    DeliveryRow.state == DELIVERY_SENT,
                )
            )
            return {
                r.part: Delivery(r.part, r.parts, r.message_id, r.thread_id) for r in rows.scalars()
            }

    @property
    def delivery_ledger(self) -> ClaimLedger:
        return ClaimLedger(self.engine, self.session, DeliveryRow, _DELIVERY_KEY)

    async def claim_delivery(
        self,
        document: str,
        platform: str,
        channel: str,
        part: int,
        parts: int,
        *,
        owner: Owner,
        lease: timedelta = LEASE,
        now: datetime | None = None,
    ) -> Claim:
        """Claim `part` for `owner` before posting it (bot.store.ledger: NEW, DOUBT when an
        earlier attempt died or failed and may have posted it, BUSY, DONE)."""
        now = now or datetime.now(UTC)
        key = {"document": document, "platform": platform, "channel": channel, "part": part}
        return await self.delivery_ledger.claim(
            key, owner, lease=lease, values={"parts": parts, "posted_at": now}, now=now
        )

    async def fail_delivery(
        self,
        document: str,
        platform: str,
        channel: str,
        part: int,
        *,
        owner: Owner,
        error: BaseException | str,
    ) -> None:
        """`owner`'s send of `part` raised: keep the error (redacted, short) and let the next
        run take the part at once, reconciling first (the post may have gone through)."""
        key = {"document": document, "platform": platform, "channel": channel, "part": part}
        await self.delivery_ledger.fail(key, owner, error)

    async def release_delivery(
        self, document: str, platform: str, channel: str, part: int, *, owner: Owner
    ) -> None:
        """Drop `owner`'s claim on a part it never started posting. A claim another run
        has taken over meanwhile is left alone."""
        key = {"document": document, "platform": platform, "channel": channel, "part": part}
        await self.delivery_ledger.release(key, owner)

    async def delivery_errors(self, document: str, platform: str, channel: str) -> dict[int, str]:
        """The last error of each part whose send failed (and is not posted yet)."""
        async with self.session() as session:
            rows = await session.execute(
                select(DeliveryRow.part, DeliveryRow.last_error).where(
                    DeliveryRow.document == document,
                    DeliveryRow.platform == platform,
                    DeliveryRow.channel == channel,
                    DeliveryRow.state == FAILED,
                )
            )
            return {part: error or "" for part, error in rows}

    async def record_delivery(
        self,
        document: str,
        platform: str,
        channel: str,
        part: int,
        parts: int,
        message_id: str | None,
        thread_id: str | None,
    ) -> None:
        """Mark `part` sent, whether or not this run's claim is still there: the message
        exists either way, and a run that took the claim over finds the part done."""
        key = {"document": document, "platform": platform, "channel": channel, "part": part}
        await self.delivery_ledger.record(
            key,
            {
                "parts": parts,
                "message_id": message_id,
                "thread_id": thread_id,
                "posted_at": datetime.now(UTC),
            },
        )

    async def forget_deliveries(self, document: str, platform: str, channel: str) -> None:
        """Used by --force: the next run posts the document again from part 0 (claims of a
        run posting it right now go too: --force means "post it again", whatever runs)."""
        async with self.session.begin() as session:
            await session.execute(
                delete(DeliveryRow).where(
                    DeliveryRow.document == document,
                    DeliveryRow.platform == platform,
                    DeliveryRow.channel == channel,
                )
            )


def _window(row: SyncWindowRow) -> SyncWindow:
    return SyncWindow(
        row.repo,
        row.start,
        row.end,
        row.complete,
        row.pr_count,
        row.fingerprint,
        row.synced_at,
        row.checked_at,
    )
