"""Every GraphQL document the bot sends validates against GitHub's public schema."""

from __future__ import annotations

import pytest

from bot.github import queries
from tests.fakes.schema import SCHEMA_PATH, validation_errors

pytestmark = pytest.mark.skipif(not SCHEMA_PATH.is_file(), reason=f"{SCHEMA_PATH} absent")


def _documents() -> dict[str, str]:
    constants = {
        name: value
        for name, value in vars(queries).items()
        if name.isupper() and isinstance(value, str) and value.lstrip().startswith("query")
    }
    return constants | queries.example_documents()


def test_every_query_constant_is_covered():
    # A new constant that is not a full operation (a fragment) must still be used by one.
    assert {"SEARCH_MERGED", "PROBE_WINDOW", "PULL_REQUEST"} <= set(_documents())


@pytest.mark.parametrize("name", sorted(_documents()))
def test_document_is_valid(name):
    assert validation_errors(_documents()[name]) == []


def test_validation_catches_a_wrong_field():
    broken = queries.PULL_REQUEST.replace("changedFiles", "changedFileCount")
    assert any("changedFileCount" in message for message in validation_errors(broken))
