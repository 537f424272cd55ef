"""A module digest: every figure computed over the PRs touching those modules only."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import timedelta
from pathlib import Path

from bot.core.config import load_config
from bot.digest.document import digest_document
from bot.digest.render import render_json, render_markdown
from bot.digest.service import make_digest
from bot.store import Store
from tests.cli import vllm_bot
from tests.digest.history_helpers import NAMES, NOW, REPO, LabelAnalyzer, fill, pr, weeks_ending


async def _digest(tmp_path: Path, modules: list[str]):
    windows = weeks_ending("2026-W23", 6)
    prs = []
    for i, window in enumerate(windows):
        at = window.start_utc + timedelta(days=1)
        prs += [
            pr(100 + 10 * i, at, ("rocm",), "amd-dev"),
            pr(101 + 10 * i, at, ("rocm", "tests"), "amd-dev2"),
            pr(102 + 10 * i, at, ("attention",), "attn-dev"),
            pr(103 + 10 * i, at, ("docs",), "writer"),
        ]
    async with await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}") as store:
        await fill(store, prs, windows)
        return await make_digest(
            store,
            LabelAnalyzer(),
            REPO,
            windows[-1],
            history_weeks=6,
            modules=modules,
            module_names=NAMES,
            now=NOW,
            score_floor=0,
        )


async def test_a_module_digest_holds_only_that_modules_prs(tmp_path: Path) -> None:
    digest = await _digest(tmp_path, ["rocm"])
    numbers = {row.number for row in digest.prs}
    assert numbers == {150, 151}
    assert all("rocm" in row.modules for row in digest.prs)
    assert {k.number for k in digest.key_prs} <= numbers
    assert all(set(f.prs) <= numbers for f in digest.flags)
    assert digest.totals.merged == 2 and digest.totals.contributors == 2
    assert digest.scope == ["rocm"]
    # Its trend is the module's series over the weeks.
    assert digest.history is not None
    assert [m.id for m in digest.history.modules] == ["rocm"]
    assert digest.history.modules[0].series == [2] * 6
    assert digest.history.merged == [2] * 6
    data = json.loads(render_json(digest, "en"))
    assert {p["number"] for p in data["prs"]} == {150, 151}
    doc = digest_document(digest, "en")
    assert doc.id.endswith(":modules=rocm")  # its own ledger entry: posted once per scope
    assert doc.title.startswith("ROCm / AMD · ")
    assert "#152" not in render_markdown(doc) and "#153" not in render_markdown(doc)


async def test_several_modules_and_chinese(tmp_path: Path) -> None:
    digest = await _digest(tmp_path, ["rocm", "attention"])
    assert {row.number for row in digest.prs} == {150, 151, 152}
    assert digest_document(digest, "zh").title.startswith("ROCm / AMD 平台、注意力机制｜")


def test_targets_can_be_module_digests_with_or_without_chart(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(
        '[[digest.targets]]\nplatform = "slack"\nchannel = "C1"\nmodules = ["rocm"]\n'
        'chart = false\n[web]\nbase_url = "https://bot.example.org"\n',
        encoding="utf-8",
    )
    config = load_config(path)
    (target,) = config.digest.targets
    assert target.modules == ["rocm"] and target.chart is False
    assert config.web.archive_url() == "https://bot.example.org/digests/"
    assert config.digest.history_weeks == 8


def test_the_footer_says_where_the_archive_lives_when_base_url_is_set() -> None:
    from bot.digest.archive_paths import week_url
    from tests.digest.helpers import fixture_digest

    url = week_url("https://bot.example.org/digests/", "vllm-project/vllm", "2026-W23", "zh")
    assert url == "https://bot.example.org/digests/vllm-project/vllm/2026-W23.zh.html"
    base = "https://bot.example.org/digests/"
    footer = digest_document(fixture_digest(archive_base=base), "zh").footer
    assert url in footer and "历史周报" in footer
    assert "digests" not in digest_document(fixture_digest(), "zh").footer
    # One computed digest links each language's own page.
    en_url = week_url(base, "vllm-project/vllm", "2026-W23", "en")
    assert en_url in digest_document(fixture_digest(archive_base=base), "en").footer
    assert week_url(None, "a/b", "2026-W23", "en") is None


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}")
    return vllm_bot(env, *args)


def test_the_cli_builds_a_module_digest(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[2] / "examples" / "vllm-sample-2026-W22-W23.json"
    window = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    assert _cli(tmp_path, "import", str(sample), *window).returncode == 0
    week = ("digest", "--week", "2026-W23", "--no-sync")
    full = json.loads(_cli(tmp_path, *week, "--format", "json").stdout)
    # Names resolve as `/vllm subscribe` resolves them: id or name, any case.
    done = _cli(tmp_path, *week, "--module", "ROCm / AMD", "--format", "json")
    assert done.returncode == 0, done.stderr
    scoped = json.loads(done.stdout)
    rocm = {p["number"] for p in full["prs"] if "rocm" in p["modules"]}
    assert rocm and {p["number"] for p in scoped["prs"]} == rocm < {
        p["number"] for p in full["prs"]
    }
    assert scoped["scope"] == ["rocm"] and scoped["totals"]["merged"] == len(rocm)
    assert scoped["scope_names"] == ["ROCm / AMD"] and "scope_names" not in full
    assert [m["id"] for m in scoped["history"]["modules"]] == ["rocm"]
    out = tmp_path / "rocm.md"
    written = _cli(
        tmp_path, *week, "--module", "rocm", "--module", "spec-decode", "--out", str(out)
    )
    assert written.returncode == 0, written.stderr
    assert out.read_text(encoding="utf-8").startswith("# ROCm / AMD, Speculative decoding · ")


def test_an_unknown_module_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = _cli(tmp_path, "digest", "--week", "2026-W23", "--no-sync", "--module", "rcom")
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1
    # The chat's words: one resolver and one error for --module and /vllm digest.
    assert "unknown module 'rcom'; did you mean 'rocm'?" in bad.stderr
    assert "vllm-bot modules" in bad.stderr
