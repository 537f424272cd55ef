"""`vllm-bot digest --release TAG` and `/vllm release TAG post` are adapters over one
release use case (bot.usecases.release): for the same stored release they name the same
PRs in the same sections."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.core.i18n import message
from bot.releases.model import SECTION_IDS
from tests.cli import vllm_bot
from tests.releases.helpers import release_export
from tests.usecases.offline import offline_env

REPO = "acme/widgets"
TAG = "v1.1.0rc1"
TITLES = [
    "[Feature] Add MXFP4 quantization",
    "[Feature] Support the widget scheduler",
    "[BugFix] Fix the scheduler hang (from #70)",
    "[BugFix] Fix a crash on empty batches",
    "[Misc] Upgrade torch-npu to 2.10.0",
    "[Ops] Remove VLLM_WIDGETS_LEGACY_KERNEL",
    "[CI] Run the nightly tests on A3",
    "[Doc] Describe the widget cache",
]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    env = offline_env(
        tmp_path, f'[[repos]]\nname = "{REPO}"\nmodules = "generic"\n\n[github]\nmax_retries = 0\n'
    )
    imported = vllm_bot(
        env, "import", str(release_export(tmp_path / "release.json", REPO, TITLES, head=TAG))
    )
    assert imported.returncode == 0, imported.stderr
    return env


def chat_sections(text: str) -> dict[str, set[int]]:
    """The PRs under each section heading of the notes as the chat shows them (a heading
    is an unindented line, its items the indented lines below it; a cherry-pick's own
    number is not a PR of the notes)."""
    picked = re.compile(re.escape(message("en", "release.picked_as")) + r" #\d+")
    headings = {message("en", f"release.section.{sid}"): sid for sid in SECTION_IDS}
    headings[message("en", "release.section.changelog")] = "changelog"
    found: dict[str, set[int]] = {}
    current: str | None = None
    for line in text.splitlines():
        if line and not line[0].isspace():
            current = headings.get(line.strip())
            if current is not None:
                found[current] = set()
        elif current is not None:
            found[current] |= {int(n) for n in re.findall(r"#(\d+)", picked.sub("", line))}
    return found


def cli_sections(text: str) -> dict[str, set[int]]:
    data = json.loads(text)
    found = {
        s["id"]: {n for item in s["items"] for n in item["prs"]}
        for s in data["sections"]
        if s["id"] != "highlights"
    }
    if data["changelog"]:
        found["changelog"] = {
            n for s in data["changelog"] for item in s["items"] for n in item["prs"]
        }
    return found


def test_the_cli_and_the_chat_notes_name_the_same_prs_per_section(env: dict[str, str]) -> None:
    cli = vllm_bot(env, "digest", "--release", TAG, "--no-sync", "--format", "json")
    chat = vllm_bot(env, "chat", f"/vllm release {TAG} post")  # GitHub down: the store's
    assert cli.returncode == chat.returncode == 0, cli.stderr + chat.stderr
    sections = cli_sections(cli.stdout)
    assert chat_sections(chat.stdout) == sections
    assert {"features", "fixes", "dependencies", "breaking", "changelog"} <= set(sections)
    assert 106 in sections["changelog"]  # CI, in the changelog on both
    assert sections["fixes"] >= {70}  # the cherry-pick, as its original PR, on both
    every = {100 + i for i in range(len(TITLES))} - {102} | {70}
    assert set().union(*sections.values()) == every
    assert f"release {TAG} of {REPO} from the store: GitHub failed" in chat.stderr


def test_with_github_down_the_chat_shows_the_stored_notes_and_the_cli_says_so(
    env: dict[str, str],
) -> None:
    cli = vllm_bot(env, "digest", "--release", TAG)
    chat = vllm_bot(env, "chat", f"/vllm release {TAG} post")
    # The CLI syncs unless told --no-sync, and a sync GitHub cannot answer is an error
    # with the offline way in its line; the chat answers from the store.
    assert cli.returncode == 1 and "cannot reach 127.0.0.1" in cli.stderr
    assert chat.returncode == 0 and f"widgets {TAG} release notes" in chat.stdout
