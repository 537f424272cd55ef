"""Merged fake PRs and the squash commits that merged them, for release tests."""

from __future__ import annotations

from datetime import datetime

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
