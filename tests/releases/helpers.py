"""Merged fake PRs and the squash commits that merged them, and release export files, for
release tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from tests.fakes.github import FakeCommit
from tests.fakes.prdata import FakeFile, FakePR


def merged(number: int, title: str, when: datetime, path: str = "vllm_ascend/ops/x.py") -> FakePR:
    return FakePR(
        number=number,
        title=title,
        author=f"dev{number % 7}",
        created_at=when,
        updated_at=when,
        merged_at=when,
        closed_at=when,
        files=[FakeFile(path, 10, 2)],
    )


def squash(pr: FakePR) -> FakeCommit:
    """The commit a squash merge of `pr` leaves: its title and "(#N)"."""
    assert pr.merged_at is not None
    return FakeCommit(f"sha{pr.number}", f"{pr.title} (#{pr.number})", pr.merged_at)


def release_export(
    path: Path, repo: str, titles: Sequence[str], *, base: str = "v1.0.0", head: str = "v1.1.0rc1"
) -> Path:
    """A release export (the `vllm-bot import` file) of one PR per title, #100 up, one a
    day from 2026-06-01, each changing one file."""
    prs = []
    for i, title in enumerate(titles):
        n, at = 100 + i, f"2026-06-{i + 1:02d}T12:00:00Z"
        prs.append(
            {
                "number": n,
                "title": title,
                "body": "",
                "url": f"https://github.com/{repo}/pull/{n}",
                "author": f"dev{i}",
                "createdAt": at,
                "mergedAt": at,
                "labels": [],
                "additions": 10,
                "deletions": 2,
                "changedFiles": 1,
                "files": [{"path": "widgets/core.py", "additions": 10, "deletions": 2}],
            }
        )
    release = {"base": base, "head": head, "base_date": "2026-05-31T00:00:00Z"}
    path.write_text(
        json.dumps({"repository": repo, "release": release, "pullRequests": prs}), "utf-8"
    )
    return path
