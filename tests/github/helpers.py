"""Comparisons between what the fake serves and what the store holds."""

from __future__ import annotations

from bot.core.models import PullRequest
from tests.fakes.prdata import FakePR


def expected(pr: FakePR, *, rest: bool = False) -> dict:
    return {
        "number": pr.number,
        "title": pr.title,
        "body": pr.body,
        "author": pr.author,
        "state": pr.state.lower(),
        "created_at": pr.created_at,
        "merged_at": pr.merged_at,
        "labels": list(pr.labels),
        "files": [(f.path, f.additions, f.deletions, f.change_type) for f in pr.files],
        "additions": pr.additions,
        "deletions": pr.deletions,
        "changed_files": pr.changed_files,
        # REST has no review count (see rest_source); GraphQL does.
        "review_count": 0 if rest else pr.reviews,
        "comment_count": pr.comments,
        "merged_by": pr.merged_by,
        "base_ref": pr.base_ref,
    }


def stored(pr: PullRequest) -> dict:
    return {
        "number": pr.number,
        "title": pr.title,
        "body": pr.body,
        "author": pr.author,
        "state": pr.state,
        "created_at": pr.created_at,
        "merged_at": pr.merged_at,
        "labels": list(pr.labels),
        "files": [(f.path, f.additions, f.deletions, f.change_type) for f in pr.files],
        "additions": pr.additions,
        "deletions": pr.deletions,
        "changed_files": pr.changed_files,
        "review_count": pr.review_count,
        "comment_count": pr.comment_count,
        "merged_by": pr.merged_by,
        "base_ref": pr.base_ref,
    }
