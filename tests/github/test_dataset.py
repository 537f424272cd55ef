"""A real week of vllm-project/vllm-ascend served by the fake arrives exactly (both paths)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.weeks import Window
from bot.sync import sync_window
from tests.fakes.prdata import load_dataset
from tests.github.helpers import stored

DATASET = (
    Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "vllm-ascend-2026-W22.json"
)
pytestmark = pytest.mark.skipif(not DATASET.is_file(), reason=f"{DATASET} absent")

W22 = Window(datetime(2026, 5, 25, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC), "2026-W22")


async def test_every_pr_file_and_label_arrives(fake, store, make_client):
    repo, prs = load_dataset(DATASET)
    fake.repos[repo] = prs
    # The README promises a PR with more than 100 files; this copy has none (largest: 63),
    # so big-PR paging is covered by the synthetic tests and only counted here.

    result = await sync_window(store, make_client(), repo, W22)

    assert result.prs_stored == len(prs) == 82
    got = {pr.number: stored(pr) for pr in await store.prs.merged_between(repo, W22.start, W22.end)}
    for pr in prs:
        row = got[pr.number]
        assert (row["title"], row["body"], row["author"], row["merged_at"]) == (
            pr.title,
            pr.body,
            pr.author,
            pr.merged_at,
        )
        assert row["labels"] == pr.labels
        assert [(p, a, d) for p, a, d, _ in row["files"]] == [
            (f.path, f.additions, f.deletions) for f in pr.files
        ]
        assert (row["additions"], row["deletions"], row["changed_files"]) == (
            pr.additions,
            pr.deletions,
            pr.changed_files,
        )
    extra_file_pages = sum((len(pr.files) - 1) // 100 for pr in prs)
    assert result.requests == 1 + extra_file_pages
