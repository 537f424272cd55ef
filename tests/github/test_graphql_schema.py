"""Every GraphQL document the bot sends validates against GitHub's public schema."""

from __future__ import annotations

import pytest

from bot.github import queries
from tests.fakes.schema import SCHEMA_PATH, validation_errors

pytestmark = pytest.mark.skipif(not SCHEMA_PATH.is_file(), reason=f"{SCHEMA_PATH} absent")


def _generated() -> dict[str, str]:
    """Every generated document shape the bot sends, at its smallest and largest."""
    return {
        "SEARCH_MERGED": queries.SEARCH_MERGED,
        "SEARCH_MERGED_SCOPE": queries.SEARCH_MERGED_SCOPE,
        "PROBE_WINDOW": queries.PROBE_WINDOW,
        "PULL_REQUEST": queries.PULL_REQUEST,
        "files_pages_query(1)": queries.files_pages_query([1]),
        "files_pages_query(10)": queries.files_pages_query(
            list(range(1, queries.FILE_PAGES_PER_REQUEST + 1))
        ),
        "merged_before_query(1)": queries.merged_before_query(1),
        "merged_before_query(50)": queries.merged_before_query(queries.AUTHORS_PER_REQUEST),
        "pull_requests_query(1)": queries.pull_requests_query([1]),
        "pull_requests_query(100)": queries.pull_requests_query(
            list(range(1, queries.PULL_REQUESTS_PER_REQUEST + 1))
        ),
        "repo_files_query(0)": queries.repo_files_query(0),
        "repo_files_query(2)": queries.repo_files_query(2),
    }


def _documents() -> dict[str, str]:
    constants = {
        name: value
        for name, value in vars(queries).items()
        if name.isupper() and isinstance(value, str) and value.lstrip().startswith("query")
    }
    return constants | _generated()


def test_every_query_constant_is_covered():
    # A new constant that is not a full operation (a fragment) must still be used by one.
    assert {"SEARCH_MERGED", "PROBE_WINDOW", "PULL_REQUEST"} <= set(_documents())


@pytest.mark.parametrize("name", sorted(_documents()))
def test_document_is_valid(name):
    assert validation_errors(_documents()[name]) == []


def test_validation_catches_a_wrong_field():
    broken = queries.PULL_REQUEST.replace("changedFiles", "changedFileCount")
    assert any("changedFileCount" in message for message in validation_errors(broken))
