"""Release notes beside the maintainers' own: the four shared vllm-ascend releases.

Imports each release of ../shared/datasets/releases (with the nine weekly exports of
../shared/datasets/vllm-ascend as history) into a throwaway store, runs
`vllm-bot digest --release TAG --no-sync --format json` in a fresh process, and compares
the JSON with `maintainers-notes.md` (PR numbers per section, parsed from its links):

- per section: the maintainers' PRs (those in the release's data), how many of them our
  same section lists among its curated items, our item count against theirs (goals:
  >= 60% of their PRs, at most 2x their items);
- highlights: the maintainers' highlighted PRs that our highlight lines name (goal >= 50%);
- breaking changes: found / missed / flagged where the maintainers list none;
- dependency lines: right (the version the maintainers state) / wrong / unknown version /
  not in the maintainers' notes.

    .venv/bin/python bench/score_release.py [--tree DIR] [--verbose]

`--tree DIR` scores another checkout (its `bot` package is imported from DIR), so the
same script measures main before a change.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "datasets"
RELEASES = SHARED / "releases"
NOTES = RELEASES / "maintainers-notes.md"
REPO = "vllm-project/vllm-ascend"

# The maintainers' headings -> our section ids. Older notes keep fixes under "Others".
HEADINGS = {
    "highlights": "highlights",
    "features": "features",
    "hardware and operator support": "hardware",
    "performance": "performance",
    "stability and bug fixes": "fixes",
    "others": "fixes",
    "dependencies": "dependencies",
    "breaking changes and migration notes": "breaking",
    "documentation": "docs",
}
ORDER = ("features", "hardware", "performance", "fixes", "dependencies", "breaking", "docs")
_PR = re.compile(r"/pull/(\d+)")
_REF = re.compile(r"#(\d+)")
_VERSION = re.compile(r"\bv?(\d+(?:\.\d+)+(?:[.\-]?(?:rc|post|dev|a|b)\d*[\w.]*)?)", re.I)
# A dependency's spellings -> one key ("Upstream vLLM", "PyTorch / torch_npu").
ALIASES = {
    "upstream vllm": "vllm",
    "vllm": "vllm",
    "pytorch": "torch",
    "torch": "torch",
    "torch_npu": "torch-npu",
    "torch-npu": "torch-npu",
    "torchnpu": "torch-npu",
    "pta": "torch-npu",
    "cann": "cann",
    "triton-ascend": "triton-ascend",
    "triton_ascend": "triton-ascend",
    "mooncake": "mooncake",
    "xlite": "xlite",
    "python": "python",
    "transformers": "transformers",
}


@dataclass
class Reference:
    """One release of maintainers-notes.md: PRs and bullet counts per section."""

    tag: str
    prs: dict[str, set[int]] = field(default_factory=dict)
    items: dict[str, int] = field(default_factory=dict)
    dependencies: list[tuple[set[str], set[str]]] = field(default_factory=list)  # keys, versions


def _keys(text: str) -> set[str]:
    low = text.lower()
    found = set()
    for alias, key in ALIASES.items():
        if re.search(rf"(?<![\w-]){re.escape(alias)}(?![\w-])", low):
            found.add(key)
    # "PyTorch and TorchNPU", "PyTorch / torch_npu": torch_npu is its own key.
    if "torch-npu" in found or "torchnpu" in low.replace(" ", ""):
        found.add("torch-npu")
    return found


def parse_notes(text: str) -> dict[str, Reference]:
    refs: dict[str, Reference] = {}
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        tag = block.split()[0]
        ref = Reference(tag)
        for part in re.split(r"^### ", block, flags=re.M)[1:]:
            heading, _, body = part.partition("\n")
            section = HEADINGS.get(heading.strip().lower())
            if section is None:
                continue  # known issues: issues, not PRs
            bullets = [line for line in body.splitlines() if line.startswith("- ")]
            ref.items[section] = ref.items.get(section, 0) + len(bullets)
            ref.prs.setdefault(section, set()).update(int(n) for n in _PR.findall(body))
            if section == "dependencies":
                for line in bullets:
                    ref.dependencies.append((_keys(line), set(_VERSION.findall(line))))
        refs[tag] = ref
    return refs


def _run(cli: list[str], env: dict[str, str], cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [*cli, *args], env=env, cwd=cwd, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def build(path: Path, tree: Path) -> dict[str, object]:
    """The release's JSON notes as `tree`'s code writes them."""
    head = json.loads(path.read_text(encoding="utf-8"))["release"]["head"]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        config = tmp / "config.toml"
        config.write_text(f'[[repos]]\nname = "{REPO}"\nmodules = "generic"\n', encoding="utf-8")
        env = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{tmp}/s.db")
        env["VLLM_BOT_CONFIG"] = str(config)
        env["PYTHONPATH"] = str(tree)
        cli = [sys.executable, "-m", "bot"]
        history = sorted((SHARED / "vllm-ascend").glob("*.json"))
        for week in [*history, SHARED / "vllm-ascend-2026-W22.json", path]:
            if week.exists():
                _run(cli, env, tree, "import", str(week))
        out = _run(cli, env, tree, "digest", "--release", head, "--no-sync", "--format", "json")
    data: dict[str, object] = json.loads(out)
    return data


def _curated(data: dict[str, object]) -> dict[str, tuple[set[int], int]]:
    """Section id -> (PRs of its curated items, item count)."""
    out: dict[str, tuple[set[int], int]] = {}
    sections = data.get("sections") or []
    assert isinstance(sections, list)
    for section in sections:
        items = section["items"]
        if section["id"] == "highlights":
            # The PRs a highlight line names, not every member of its theme.
            named = {int(n) for item in items for n in _REF.findall(item["text"])}
            out["highlights"] = (named, len(items))
        else:
            out[section["id"]] = ({n for item in items for n in item["prs"]}, len(items))
    return out


def _dependency_lines(data: dict[str, object]) -> list[tuple[str, str | None, list[int]]]:
    release = data.get("release") or {}
    assert isinstance(release, dict)
    lines = [(d["name"], d["to"], d["prs"]) for d in release.get("dependencies") or []]
    return lines


def score(ref: Reference, data: dict[str, object], verbose: bool) -> list[str]:
    rows_ = data.get("prs") or []
    assert isinstance(rows_, list)
    present = {int(p["number"]) for p in rows_}
    curated = _curated(data)
    rows = [f"{ref.tag} ({len(present)} PRs)"]
    rows.append(f"  {'section':<13}{'theirs':>7}{'in ours':>9}{'share':>7}{'items':>13}  goal")
    for section in ("highlights", *ORDER):
        theirs = ref.prs.get(section, set()) & present
        ours, count = curated.get(section, (set(), 0))
        their_items = ref.items.get(section, 0)
        if not theirs and not count and not their_items:
            continue
        held = len(theirs & ours)
        share = f"{held / len(theirs):.0%}" if theirs else "-"
        goal_share = 0.5 if section == "highlights" else 0.6
        ok_share = not theirs or held / len(theirs) >= goal_share
        ok_items = section == "highlights" or count <= 2 * max(their_items, 1)
        goal = "ok" if ok_share and ok_items else "MISS"
        rows.append(
            f"  {section:<13}{len(theirs):>7}{held:>9}{share:>7}"
            f"{f'{count} vs {their_items}':>13}  {goal}"
        )
        if verbose and theirs - ours:
            rows.append(f"    not in ours: {sorted(theirs - ours)}")
    theirs = ref.prs.get("breaking", set()) & present
    ours, _ = curated.get("breaking", (set(), 0))
    rows.append(
        f"  breaking: found {len(theirs & ours)}, missed {len(theirs - ours)} "
        f"{sorted(theirs - ours)}, flagged beyond theirs {len(ours - theirs)} "
        f"{sorted(ours - theirs)}"
    )
    right = wrong = unknown = extra = 0
    details = []
    for name, version, prs in _dependency_lines(data):
        keys = _keys(name) or {name.lower()}
        match = [versions for k, versions in ref.dependencies if k & keys]
        if version is None:
            unknown += 1
            verdict = "unknown"
        elif not match:
            extra += 1
            verdict = "not in theirs"
        elif any(version.lstrip("v") in {v.lstrip("v") for v in vs} for vs in match):
            right += 1
            verdict = "right"
        else:
            wrong += 1
            verdict = "WRONG"
        details.append(f"    {name} -> {version} {prs}: {verdict}")
    rows.append(
        f"  dependency lines: right {right}, wrong {wrong}, unknown {unknown}, "
        f"not in theirs {extra} (theirs: {len(ref.dependencies)})"
    )
    if verbose:
        rows += details
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="checkout to score")
    parser.add_argument("--verbose", action="store_true", help="name what is missed")
    args = parser.parse_args()
    if not NOTES.exists():
        raise SystemExit(f"{NOTES} absent: the shared release data is needed")
    refs = parse_notes(NOTES.read_text(encoding="utf-8"))
    for path in sorted(RELEASES.glob("*.json")):
        head = json.loads(path.read_text(encoding="utf-8"))["release"]["head"]
        if head not in refs:
            continue
        print("\n".join(score(refs[head], build(path, args.tree.resolve()), args.verbose)))


if __name__ == "__main__":
    main()
