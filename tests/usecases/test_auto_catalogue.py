"""One module catalogue per repository: on an `auto` repository, `/vllm subscribe` accepts
what `/vllm modules` lists, and hints and footers name only its modules (issue 36)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.cli import vllm_bot

REPO = "acme/gadget-kit"


def _pr(number: int, path: str, labels: list[str]) -> dict[str, object]:
    return {
        "number": number,
        "title": f"Change {number}",
        "body": "",
        "url": f"https://github.com/{REPO}/pull/{number}",
        "author": "dev",
        "createdAt": "2026-05-25T08:00:00Z",
        "mergedAt": f"2026-05-2{6 + number % 3}T10:00:00Z",
        "labels": labels,
        "additions": 10,
        "deletions": 1,
        "changedFiles": 1,
        "files": [{"path": path, "additions": 10, "deletions": 1}],
    }


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "bot.toml"
    config.write_text(f'[[repos]]\nname = "{REPO}"\n')
    prs = [
        _pr(1, "gadget_kit/ops/rope.py", ["module:ops"]),
        _pr(2, "gadget_kit/quantization/w8a8.py", []),
        _pr(3, "gadget_kit/worker/runner.py", []),
        _pr(4, "gadget_kit/utils.py", []),
    ]
    export = tmp_path / "export.json"
    window = {"since": "2026-05-25T00:00:00Z", "until": "2026-06-01T00:00:00Z"}
    export.write_text(json.dumps({"repository": REPO, "pullRequests": prs, "window": window}))
    environment = dict(os.environ)
    environment.update(
        VLLM_BOT_CONFIG=str(config), VLLM_BOT_STATE_DIR=str(tmp_path / "state"), COLUMNS="200"
    )
    imported = vllm_bot(environment, "import", str(export), "--week", "2026-W22", "--complete")
    assert imported.returncode == 0, imported.stderr
    return environment


def _chat(env: dict[str, str], text: str, channel: str = "slack:C1") -> str:
    result = vllm_bot(env, "chat", text, "--channel", channel)
    return f"{result.returncode} {result.stdout}{result.stderr}"


def test_every_listed_module_is_subscribable_and_hints_name_the_repositorys(
    env: dict[str, str],
) -> None:
    listed = re.findall(r"^\s*- (\S+) — ", _chat(env, "/vllm modules"), flags=re.MULTILINE)
    assert {"ops", "quantization", "worker"} <= set(listed)
    for module in listed:
        assert _chat(env, f"/vllm subscribe {module}").startswith("0 subscribed"), module
    typo = _chat(env, "/vllm subscribe quantisation")
    assert typo.startswith("2 ") and "did you mean 'quantization'" in typo
    assert _chat(env, "/vllm unsubscribe ops").startswith("0 ")
    hint = _chat(env, "/vllm subscriptions", "slack:C2")
    named = re.findall(r"/vllm subscribe (\S+)", hint)
    assert named and named[0] in listed and named[0] not in {"docs", "tests", "other"}
    digest = vllm_bot(env, "--no-pager", "digest", "--week", "2026-W22", "--no-sync")
    footer = re.findall(r"/vllm subscribe (\S+)", digest.stdout)
    assert footer and set(footer) <= set(listed)
    # A week with no PR and none the week before: the footer points at the list instead.
    empty = vllm_bot(env, "--no-pager", "digest", "--week", "2026-W30", "--no-sync")
    assert empty.returncode == 0, empty.stderr
    assert "/vllm subscribe" not in empty.stdout and "/vllm modules" in empty.stdout
