"""`vllm-bot import` of a release export and `digest --release`, run as a user runs them:
offline from the store, every format, bad input one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.cli import vllm_bot
from tests.releases.helpers import release_export

REPO = "acme/widgets"


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "VLLM_BOT_CONFIG": str(tmp_path / "config.toml"),
    }
    return vllm_bot(env, *args)


def _export(tmp_path: Path) -> Path:
    titles = [
        "[Feature] Add MXFP4 quantization",
        "[BugFix] Fix the scheduler hang (from #70)",
        "[Misc] Upgrade torch-npu to 2.10.0",
        "[Ops] Remove VLLM_WIDGETS_LEGACY_KERNEL",
    ]
    return release_export(tmp_path / "release.json", REPO, titles)


def test_a_release_export_gives_release_notes_offline(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        f'[[repos]]\nname = "{REPO}"\nmodules = "generic"\n', encoding="utf-8"
    )
    imported = _cli(tmp_path, "import", str(_export(tmp_path)))
    assert imported.returncode == 0, imported.stderr
    assert "imported release v1.1.0rc1 of acme/widgets against v1.0.0: 4 PRs (1 cherry-picks)" in (
        imported.stdout
    )
    notes = _cli(tmp_path, "digest", "--release", "v1.1.0rc1", "--no-sync", "--format", "json")
    assert notes.returncode == 0, notes.stderr
    data = json.loads(notes.stdout)
    assert data["release"]["base"] == "v1.0.0" and data["release"]["tag"] == "v1.1.0rc1"
    assert data["totals"]["merged"] == 4
    assert data["totals"]["new_contributors"] is None  # offline: unknown, not 0
    sections = {s["id"]: s for s in data["sections"]}
    assert sections["fixes"]["prs"] == [70]  # the cherry-pick, as its original PR
    assert data["cherry_picks"] == {"70": [101]}
    assert data["release"]["dependencies"] == [
        {"name": "torch-npu", "from": None, "to": "2.10.0", "prs": [102]}
    ]
    assert sections["dependencies"]["items"][0]["text"].endswith("torch-npu → 2.10.0")
    assert sections["breaking"]["prs"] == [103]
    # CONTRACT: a PR is in at most one section apart from the highlights.
    placed = [n for s in data["sections"] if s["id"] != "highlights" for n in s["prs"]]
    assert sorted(placed) == [70, 100, 102, 103]
    markdown = _cli(tmp_path, "digest", "--release", "v1.1.0rc1", "--no-sync", "--lang", "zh")
    assert markdown.returncode == 0 and "发布说明" in markdown.stdout

    for args, expected in [
        (["digest", "--base", "v1.0.0"], "--base needs --release TAG"),
        (["digest", "--release", "v1.1.0rc1", "--week", "2026-W23"], "one release"),
        (["digest", "--release", "v9.0.0", "--no-sync"], "release v9.0.0 of acme/widgets is not"),
        (["digest", "--release", "v1.0.0", "--base", "v1.1.0rc1"], "is not older than v1.0.0"),
        (["import", str(tmp_path / "release.json"), "--week", "2026-W23"], "not a window"),
    ]:
        bad = _cli(tmp_path, *args)
        assert bad.returncode == 2, (args, bad.stderr)
        lines = bad.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0] and "Traceback" not in bad.stderr


async def test_a_bad_release_header_imports_nothing_of_the_other_files(tmp_path: Path) -> None:
    from bot.store import Store

    (tmp_path / "config.toml").write_text(
        f'[[repos]]\nname = "{REPO}"\nmodules = "generic"\n', encoding="utf-8"
    )
    # The weekly file comes first: before, it was stored before the release header of the
    # second file was checked.
    good = tmp_path / "weekly.json"
    weekly = json.loads(_export(tmp_path).read_text("utf-8"))
    del weekly["release"]
    good.write_text(json.dumps(weekly), "utf-8")
    bad = tmp_path / "bad-release.json"
    broken = json.loads(_export(tmp_path).read_text("utf-8"))
    broken["release"] = {"base": "v1.0.0"}  # no head tag
    bad.write_text(json.dumps(broken), "utf-8")

    refused = _cli(tmp_path, "import", str(good), str(bad))
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs a base and a head tag" in lines[0], refused.stderr
    # Nothing of the first file was stored.
    async with await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}") as store:
        assert await store.prs.count(REPO) == 0
    # The same weekly file alone imports: the refusal above was the release header's.
    assert _cli(tmp_path, "import", str(good)).returncode == 0
    async with await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}") as store:
        assert await store.prs.count(REPO) == 4
