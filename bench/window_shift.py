"""How much a week's highlights depend on where the week starts: the highlight names of the
`[Mon, Mon)` window against those of the `[Sat, Sat)` window that starts two days earlier.

Every shared export is imported into a fresh store (bench/score_labels.py), then each week's
digest is built for both windows; per week the overlap is |A ∩ B| / |A ∪ B| of the highlight
names (`theme_id`s) and the share of PRs the two place under a highlight of the same name.

    python -m bench.window_shift [--weeks 2026-W19 2026-W20 ...] [--tree DIR]

`--tree` runs another source tree (e.g. `git archive main | tar -x -C DIR`) for a before/after.

Needs ../shared (the datasets); exits 2 with one line when it is absent.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
from pathlib import Path

from bench.score_labels import ROOT, SHARED, _cli, fresh_store

REPO = "vllm-project/vllm-ascend"
WEEKS = ["2026-W19", "2026-W20", "2026-W21", "2026-W22"]


def _highlights(env: dict[str, str], since: dt.date, out: Path) -> dict[str, set[int]]:
    until = since + dt.timedelta(days=7)
    result = _cli(
        env,
        "digest",
        "--repo",
        REPO,
        "--since",
        since.isoformat(),
        "--until",
        until.isoformat(),
        "--no-sync",
        "--format",
        "json",
        "--out",
        str(out),
    )
    if result.returncode:
        sys.exit(f"{since}: {result.stderr.strip()}")
    data = json.loads(out.read_text())
    return {h["theme_id"]: set(h["prs"]) for h in data.get("highlights") or []}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weeks", nargs="*", default=WEEKS, help="ISO weeks (vllm-ascend)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="source tree to run")
    args = parser.parse_args()
    if not (SHARED / "datasets").exists():
        sys.exit(2)
    with tempfile.TemporaryDirectory() as home:
        env = fresh_store(home, args.tree.resolve())
        names_total = 0.0
        for week in args.weeks:
            year, number = week.split("-W")
            monday = dt.date.fromisocalendar(int(year), int(number), 1)
            mon = _highlights(env, monday, Path(home) / f"{week}-mon.json")
            sat = _highlights(env, monday - dt.timedelta(days=2), Path(home) / f"{week}-sat.json")
            names = len(set(mon) & set(sat)) / max(len(set(mon) | set(sat)), 1)
            names_total += names
            placed = set().union(*mon.values(), *sat.values()) if mon or sat else set()
            both = set(mon) & set(sat)
            agree = {n for t in both for n in mon[t] & sat[t]}
            common = {n for n in placed if any(n in m for m in mon.values())} & {
                n for n in placed if any(n in s for s in sat.values())
            }
            print(
                f"{week}: names {len(set(mon) & set(sat))}/{len(set(mon) | set(sat))}"
                f" = {names:.0%}; PRs under a highlight in both windows placed alike"
                f" {len(agree)}/{len(common)}"
                f"\n  [Mon, Mon): {', '.join(sorted(mon))}\n  [Sat, Sat): {', '.join(sorted(sat))}"
            )
        print(f"mean name overlap {names_total / max(len(args.weeks), 1):.0%}")


if __name__ == "__main__":
    main()
