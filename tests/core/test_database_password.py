"""The database password is found for redaction without SQLAlchemy, exactly as it parses it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.engine import make_url

from bot.core.validators import database_password

# Printable ASCII, '@', ':', '/' and '%' included: the characters that move URL boundaries.
PART = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=16)


@given(user=PART, password=PART, scheme=st.sampled_from(["postgresql", "postgresql+asyncpg"]))
def test_the_password_is_the_one_sqlalchemy_reads(user: str, password: str, scheme: str) -> None:
    url = f"{scheme}://{user}:{password}@db.example.com:5432/bot"
    try:
        expected = make_url(url).password
    except Exception:  # SQLAlchemy refuses it: the config check reports it, not redaction
        return
    assert database_password(url) == (str(expected) if expected else None)


def test_a_url_without_a_password_has_none() -> None:
    for url in ("sqlite:///bot.sqlite3", "postgresql://bot@db/bot", "postgresql://db/bot", ""):
        assert database_password(url) is None
    assert database_password("postgresql://bot:p%40ss@db/bot") == "p@ss"
