"""The static archive: an index of repositories and weeks, each week's digest per language,
one page per module over the last N weeks, and one Atom feed per repository and language.

Layout (every link is relative, so the folder can be published as it is):

    index.html
    OWNER/NAME/index.html
    OWNER/NAME/WEEK.LANG.html
    OWNER/NAME/modules/MODULE.LANG.html
    OWNER/NAME/feed.LANG.xml
"""

from __future__ import annotations


def week_path(repo: str, week: str, language: str) -> str:
    return f"{repo}/{week}.{language}.html"


def week_url(base: str | None, repo: str, week: str, language: str) -> str | None:
    """The week's page under the archive's public URL ([web] base_url), None without one."""
    if not base:
        return None
    return base.rstrip("/") + "/" + week_path(repo, week, language)
