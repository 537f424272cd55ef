"""Every user-visible output on the shared data, hashed: the guard of a behaviour-preserving
refactor.

Builds, from one store holding every shared export (and the four releases):
- weekly digests of three labelled weeks (full data and titles only) in every format and
  language, module digests, an organisation digest of both repositories;
- release notes of the four shared releases in every format and language;
- PR cards (`pr`, text and JSON, en and zh) and chat answers (`chat`);
- alert cards, single and batched, rendered for Slack and Discord in both languages.

Each output's SHA-256 is compared with the manifest `tests/golden/shared-outputs.json`;
`--write` records a new manifest (after a change that is meant to change outputs; say so in
the commit). `--out DIR` keeps the outputs, to diff two trees' files.

    .venv/bin/python bench/outputs_identical.py [--write] [--out DIR] [--jobs N]

Needs ../shared (the datasets); exits 2 with one line when it is absent. Exits 1 when an
output differs, naming each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.score_labels import _LAUNCH, DATASETS, ROOT, _repo, _window, fresh_store

MANIFEST = ROOT / "tests" / "golden" / "shared-outputs.json"
RELEASES = DATASETS / "releases"
WEEKS = ("ascend-2026-W21", "ascend-2026-W22", "vllm-2026-02-20")
FORMATS = {"markdown": "md", "json": "json", "html": "html", "slack": "slack.json"}
FORMATS["discord"] = "discord.json"
LANGS = ("en", "zh")
ASCEND = "vllm-project/vllm-ascend"
CARDS = ("9812", "9438", "9504")

# Alerts have no CLI of their own: the poller renders them through bot.cards and the
# platform formatters, as this does (in a fresh process, from the shared W22 export).
_ALERTS = """
import json, sys
from pathlib import Path
from bot.analysis.analyzer import Analyzer
from bot.analysis.rules import load_ruleset
from bot.cards import alert_card, batched_alert
from bot.core.models import AnalyzedPR
from bot.importer import read_export_file
from formatters.discord import render_discord
from formatters.slack import render_slack

export = read_export_file(Path(sys.argv[1]))
analyzer = Analyzer(load_ruleset("generic"))
prs = sorted(export.prs, key=lambda p: p.number)[:12]
pairs = [AnalyzedPR(p, analyzer.analyze(p)) for p in prs]
out = Path(sys.argv[2])


def write(name, doc):
    for platform, render in (("slack", render_slack), ("discord", render_discord)):
        text = json.dumps(render(doc), ensure_ascii=False, sort_keys=True)
        (out / f"{name}.{platform}.json").write_text(text)


for lang in ("en", "zh"):
    for i, a in enumerate(pairs[:4]):
        write(f"alert-{i}.{lang}", alert_card(a.pr, a.analysis, lang))
    write(f"alert-batch.{lang}", batched_alert(pairs, lang))
"""


def _run(env: dict[str, str], args: list[str], name: str, out: Path) -> str | None:
    """Runs one CLI command; its stdout (or the --out file) becomes `out/name`."""
    done = subprocess.run(
        [sys.executable, "-c", _LAUNCH, *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=env["PYTHONPATH"],
    )
    target = out / name
    if done.returncode:
        # A refusal is an output too (its one line); a crash is not. Other stderr lines are
        # left out: which parallel command prints a once-a-day notice first is chance.
        errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
        if done.returncode != 2 and not errors:
            return f"{name}: exit {done.returncode}: {done.stderr.strip()[-400:]}"
        target.write_text(f"exit {done.returncode}\n" + "\n".join(errors), encoding="utf-8")
    elif not target.exists():
        target.write_text(done.stdout, encoding="utf-8")
    return None


def _jobs(out: Path) -> list[tuple[list[str], str]]:
    jobs: list[tuple[list[str], str]] = []
    for label in WEEKS:
        since, until = _window(label)
        common = ["digest", "--repo", _repo(label), "--since", since, "--until", until, "--no-sync"]
        for fmt, ext in FORMATS.items():
            for lang in LANGS:
                name = f"week-{label}.{lang}.{ext}"
                jobs.append(([*common, "--format", fmt, "--lang", lang], name))
    since, until = _window("ascend-2026-W22")
    for module, repo in (("ops", ASCEND), ("quantization", ASCEND)):
        for lang in LANGS:
            for fmt in ("markdown", "json"):
                args = ["digest", "--repo", repo, "--since", since, "--until", until, "--no-sync"]
                args += ["--module", module, "--format", fmt, "--lang", lang]
                jobs.append((args, f"module-{module}.{lang}.{FORMATS[fmt]}"))
    for lang in LANGS:
        for fmt in ("markdown", "json"):
            args = ["digest", "--repo", ASCEND, "--repo", "vllm-project/vllm"]
            args += ["--since", since, "--until", until, "--no-sync", "--format", fmt]
            jobs.append(([*args, "--lang", lang], f"org.{lang}.{FORMATS[fmt]}"))
    for path in sorted(RELEASES.glob("*.json")):
        head = json.loads(path.read_text(encoding="utf-8"))["release"]["head"]
        for fmt, ext in FORMATS.items():
            for lang in LANGS:
                args = ["digest", "--repo", ASCEND, "--release", head, "--no-sync"]
                name = f"release-{head}.{lang}.{ext}"
                jobs.append(([*args, "--format", fmt, "--lang", lang], name))
    for number in CARDS:
        for lang in LANGS:
            args = ["pr", number, "--repo", ASCEND, "--lang", lang]
            jobs.append((args, f"card-{number}.{lang}.txt"))
        jobs.append((["pr", number, "--repo", ASCEND, "--format", "json"], f"card-{number}.json"))
    chats = (f"/vllm pr {ASCEND}#9812", "/vllm modules", "/vllm help", "/vllm pr 1")
    for i, text in enumerate(chats):
        jobs.append((["chat", text], f"chat-{i}.txt"))
    return jobs


def build(out: Path, jobs: int) -> list[str]:
    """Writes every output into `out`; returns the failures."""
    with tempfile.TemporaryDirectory() as home:
        env = fresh_store(home)
        env["VLLM_BOT_NO_PAGER"] = "1"
        env["COLUMNS"] = "100"
        for path in sorted(RELEASES.glob("*.json")):
            done = subprocess.run(
                [sys.executable, "-c", _LAUNCH, "import", str(path)],
                env=env,
                capture_output=True,
                text=True,
                check=False,
                cwd=env["PYTHONPATH"],
            )
            if done.returncode:
                return [f"import {path.name}: {done.stderr.strip()}"]
        work = _jobs(out)
        with ThreadPoolExecutor(jobs) as pool:
            errors = [e for e in pool.map(lambda j: _run(env, j[0], j[1], out), work) if e]
        done = subprocess.run(
            [sys.executable, "-c", _ALERTS, str(DATASETS / "vllm-ascend-2026-W22.json"), str(out)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
            cwd=env["PYTHONPATH"],
        )
        if done.returncode:
            errors.append(f"alerts: {done.stderr.strip()[-400:]}")
    return errors


# The build time is the one part of an output that is meant to change from run to run.
_STAMP = re.compile(rb'"generated_at": ?"[^"]*"')


def digests(out: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(_STAMP.sub(b'"generated_at":""', p.read_bytes())).hexdigest()
        for p in sorted(out.iterdir())
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record a new manifest")
    parser.add_argument("--out", type=Path, default=None, help="keep the outputs here")
    parser.add_argument("--jobs", type=int, default=2, help="commands run at once (default 2)")
    args = parser.parse_args()
    if not DATASETS.exists():
        print(f"error: {DATASETS} is absent: this needs the shared datasets", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as scratch:
        out = args.out or Path(scratch)
        out.mkdir(parents=True, exist_ok=True)
        errors = build(out, args.jobs)
        if errors:
            print("\n".join(errors), file=sys.stderr)
            sys.exit(1)
        actual = digests(out)
    if args.write:
        MANIFEST.parent.mkdir(parents=True, exist_ok=True)
        MANIFEST.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {len(actual)} output hashes to {MANIFEST.relative_to(ROOT)}")
        return
    expected: dict[str, str] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    changed = sorted(k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k))
    for name in changed:
        state = "missing" if name not in actual else "new" if name not in expected else "differs"
        print(f"{state}: {name}")
    print(f"{len(actual) - len(changed)}/{len(expected.keys() | actual.keys())} outputs identical")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
