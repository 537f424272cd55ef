"""core checks DATABASE_URL without SQLAlchemy: its parse must agree with `make_url`."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st
from sqlalchemy.engine import make_url

from bot.core.validators import _parse_database_url

_PIECES = st.sampled_from(
    [
        "sqlite",
        "postgresql",
        "+asyncpg",
        "+aiosqlite",
        "://",
        ":",
        "@",
        "/",
        "?",
        "[",
        "]",
        "host=",
        "&",
        "%40",
        "u",
        "p",
        "db",
        "5432",
        "x",
    ]
)


@given(st.lists(_PIECES, max_size=12).map("".join))
@example("sqlite://://")  # an empty port: SQLAlchemy refuses it (found by hypothesis)
def test_the_plain_parse_reads_what_sqlalchemy_reads(url: str) -> None:
    try:
        parsed = make_url(url)
    except Exception:
        assert _parse_database_url(url) is None
        return
    ours = _parse_database_url(url)
    assert ours is not None
    assert (ours.backend, ours.host, ours.database, ours.query) == (
        parsed.get_backend_name(),
        parsed.host,
        parsed.database,
        frozenset(parsed.query),
    )
