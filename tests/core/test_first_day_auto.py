"""A new repository's first day, as the README tells it, on a repository with `modules =
"auto"` (vllm-project/vllm-ascend) and no network: import the shared real exports week by
week, read the digests, list the modules, subscribe to them (issue 36). The README's own
first command fails offline; it still names the store it created."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.cli import vllm_bot
from tests.conftest import SHARED

REPO = "vllm-project/vllm-ascend"
DATASETS = SHARED / "datasets"
WEEKS = [f"2026-W{n}" for n in range(14, 23)]


def _export(week: str) -> Path:
    if week == "2026-W22":
        return DATASETS / "vllm-ascend-2026-W22.json"
    return DATASETS / "vllm-ascend" / f"vllm-ascend-{week}.json"


pytestmark = pytest.mark.skipif(
    not all(_export(w).exists() for w in WEEKS), reason="../shared vllm-ascend exports absent"
)

# One PR of 2026-W21 touching only a hidden folder, as in the issue: it must not reshape
# the modules of any week.
STRAY = {
    "repository": REPO,
    "pullRequests": [
        {
            "number": 99001,
            "title": "[Misc] msprobe config for dumps",
            "body": "Adds a msprobe configuration.",
            "url": f"https://github.com/{REPO}/pull/99001",
            "author": "someone",
            "createdAt": "2026-05-19T10:00:00Z",
            "mergedAt": "2026-05-20T10:00:00Z",
            "labels": [],
            "additions": 10,
            "deletions": 0,
            "changedFiles": 1,
            "files": [
                {"path": ".vllm_ascend/msprobe/config.json", "additions": 10, "deletions": 0}
            ],
        }
    ],
}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A fresh user: an empty home (the default store lives there), a config naming only
    vllm-ascend, no token and GitHub unreachable (tests/conftest.py)."""
    config = tmp_path / "bot.toml"
    config.write_text(f'[[repos]]\nname = "{REPO}"\n')
    home = tmp_path / "home"
    environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "GITHUB_TOKEN"}}
    environment.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),
        VLLM_BOT_STATE_DIR=str(home / "state" / "vllm-bot"),
        VLLM_BOT_CONFIG=str(config),
        COLUMNS="200",
    )
    return environment


def _ok(env: dict[str, str], *args: str) -> str:
    result = vllm_bot(env, "--no-pager", *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


def _week_modules(env: dict[str, str], week: str) -> dict[str, int]:
    digest = json.loads(_ok(env, "digest", "--week", week, "--no-sync", "--format", "json"))
    return {m["id"]: m["count"] for m in digest["modules"] if m["count"]}


def _listed(env: dict[str, str]) -> list[str]:
    text = _ok(env, "chat", "/vllm modules", "--channel", "slack:C1")
    return re.findall(r"^\s*- (\S+) — ", text, flags=re.MULTILINE)


def _subscribed_in(text: str) -> list[str]:
    return re.findall(r"/vllm subscribe ([\w.-]+)", text)


def test_first_day_on_an_auto_repository(env: dict[str, str], tmp_path: Path) -> None:
    # The README's first command: GitHub is unreachable, yet the store it made is named.
    store = Path(env["XDG_DATA_HOME"]) / "vllm-bot" / "vllm-bot.sqlite3"
    first = vllm_bot(env, "--no-pager", "digest", "--week", "last")
    assert first.returncode == 1 and store.exists(), first.stderr
    assert f"your store is {store}" in first.stderr, first.stderr
    again = vllm_bot(env, "--no-pager", "modules")
    assert again.returncode == 0 and "your store is" not in again.stderr, again.stderr
    # Each week as it is imported, then every week again once all nine (and a stray PR in
    # a hidden folder) are in: an import never changes an earlier week's modules.
    as_imported: dict[str, dict[str, int]] = {}
    for week in WEEKS:
        _ok(env, "import", str(_export(week)), "--week", week, "--complete")
        as_imported[week] = _week_modules(env, week)
    stray = tmp_path / "stray.json"
    stray.write_text(json.dumps(STRAY))
    _ok(env, "import", str(stray), "--week", "2026-W21")
    for week in WEEKS:
        now = _week_modules(env, week)
        if week == "2026-W21":
            assert now.pop("other") == as_imported[week].get("other", 0) + 1  # the stray PR
            as_imported[week].pop("other", None)
        assert now == as_imported[week], week

    listed = _listed(env)
    assert {"ops", "quantization", "attention", "patch", "worker"} <= set(listed)
    assert not [m for m in listed if "msprobe" in m]
    for week in WEEKS:
        top_level = as_imported[week].get("vllm-ascend", 0)
        merged = len(json.loads(_export(week).read_text())["pullRequests"])
        assert top_level < merged / 5, (week, top_level)  # no catch-all of the week

    # Every listed module can be subscribed to, by id, in the channel that listed them.
    for module in listed:
        reply = _ok(env, "chat", f"/vllm subscribe {module}", "--channel", "slack:C1")
        assert f": {module}" in reply, reply
    typo = vllm_bot(env, "chat", "/vllm subscribe quantisation", "--channel", "slack:C1")
    assert typo.returncode == 2 and "did you mean 'quantization'" in typo.stdout + typo.stderr

    # Hints and footers name only this repository's modules.
    hint = _ok(env, "chat", "/vllm subscriptions", "--channel", "slack:C2")
    assert _subscribed_in(hint) and set(_subscribed_in(hint)) <= set(listed)
    for week in WEEKS:
        for lang in ("en", "zh"):
            named = _subscribed_in(_ok(env, "digest", "--week", week, "--no-sync", "--lang", lang))
            assert named and set(named) <= set(listed), (week, lang, named)

    # No PR card shows a hidden folder's module.
    card = _ok(env, "pr", "9365")
    assert ".vllm_ascend" not in card and "Ops (ops)" in card
    assert "Other (other)" in _ok(env, "pr", "99001")


@pytest.mark.parametrize(
    "command",
    [
        ("pr", "9365"),
        ("explain", "9365"),
        ("modules",),
        ("digest", "--week", "2026-W22", "--no-sync"),
    ],
)
def test_generic_fallback_is_said_once_a_day_by_every_command(
    env: dict[str, str], command: tuple[str, ...]
) -> None:
    _ok(env, "import", str(_export("2026-W22")), "--week", "2026-W22", "--complete")
    notice = f"labelling rules of {REPO} not fetched yet"
    first = vllm_bot(env, "--no-pager", *command)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count(notice) == 1, first.stderr
    again = vllm_bot(env, "--no-pager", *command)
    assert again.returncode == 0 and notice not in again.stderr, again.stderr
