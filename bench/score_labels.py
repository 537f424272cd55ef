"""Builds the labelled dev weeks' digests and scores them with ../shared/tools/score_digest.py.

Every shared export is imported into a fresh store (so trends and "new this week" see the
history a real deployment would have), then each labelled week's digest is built as JSON
(scored), and as markdown in en and zh (kept for reading beside the seed reports).

    python bench/score_labels.py [--out DIR] [--weeks ascend-2026-W18 vllm-2026-01-16 ...]

Needs ../shared (the datasets); exits 2 with one line when it is absent.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATASETS = SHARED / "datasets"
LABELS = DATASETS / "labels"
SCORER = SHARED / "tools" / "score_digest.py"


# Runs `bot` from PYTHONPATH even when this venv installs another tree in editable mode
# (setuptools' editable finder comes before PYTHONPATH on sys.meta_path); config/ is the
# package's bot.defaults, as pyproject.toml maps it.
_LAUNCH = """
import importlib.util, os, runpy, sys
sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f)]
config = os.path.join(os.environ['PYTHONPATH'], 'config')
for name, folder in (('bot.defaults', config), ('bot.defaults.modules', config + '/modules')):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(folder, '__init__.py'), submodule_search_locations=[folder]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
sys.argv[0] = 'vllm-bot'
runpy.run_module('bot', run_name='__main__', alter_sys=True)
"""


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _LAUNCH, *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=env["PYTHONPATH"],  # `-c` puts the working folder first on sys.path
    )


def _window(label: str) -> tuple[str, str]:
    """The [since, until) window a label file is for, from its name."""
    kind, _, rest = label.partition("-")
    if kind == "ascend":
        year, week = rest.split("-W")
        monday = dt.date.fromisocalendar(int(year), int(week), 1)
        return monday.isoformat(), (monday + dt.timedelta(days=7)).isoformat()
    end = dt.date.fromisoformat(rest)
    return (end - dt.timedelta(days=7)).isoformat(), end.isoformat()


def _repo(label: str) -> str:
    return "vllm-project/vllm-ascend" if label.startswith("ascend") else "vllm-project/vllm"


def _import_all(env: dict[str, str]) -> None:
    history = sorted((DATASETS / "vllm-ascend").glob("*.json"))
    ascend = [*history, DATASETS / "vllm-ascend-2026-W22.json"]
    result = _cli(env, "import", *map(str, ascend), "--complete")
    if result.returncode:
        sys.exit(f"import failed: {result.stderr.strip()}")
    # The title lists cover "the 7 days before DATE" (datasets README) but declare no window,
    # and their merge times are spread evenly, so the importer cannot see that a list is the
    # whole week. A copy that declares the documented window lets the history weeks count.
    titles = Path(env["XDG_CACHE_HOME"]) / "titles"
    titles.mkdir(parents=True, exist_ok=True)
    for path in sorted((DATASETS / "vllm-titles").glob("*.json")):
        end = dt.date.fromisoformat(path.stem[-10:])
        export = json.loads(path.read_text())
        export.update(since=(end - dt.timedelta(days=7)).isoformat(), until=end.isoformat())
        (titles / path.name).write_text(json.dumps(export))
    result = _cli(env, "import", *map(str, sorted(titles.glob("*.json"))), "--complete")
    if result.returncode:
        sys.exit(f"import of the title lists failed: {result.stderr.strip()}")


def fresh_store(home: str, tree: Path = ROOT) -> dict[str, str]:
    """The environment of a `vllm-bot` (of the source `tree`) whose store (under `home`)
    holds every shared export, with GitHub unreachable."""
    env = dict(os.environ)
    env.update(
        XDG_DATA_HOME=f"{home}/data",
        XDG_STATE_HOME=f"{home}/state",
        XDG_CACHE_HOME=f"{home}/cache",
        DATABASE_URL=f"sqlite:///{home}/store.db",
        PYTHONPATH=str(tree),
    )
    env.pop("GITHUB_TOKEN", None)
    # Nothing is reachable: a closed port makes every fetch fail at once.
    env.update(GITHUB_API_URL="http://127.0.0.1:9", GITHUB_GRAPHQL_URL="http://127.0.0.1:9/graphql")
    _import_all(env)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="keep the digests here")
    parser.add_argument("--weeks", nargs="*", default=None, help="label names (default: all)")
    parser.add_argument("--no-md", action="store_true", help="JSON only (faster)")
    args = parser.parse_args()
    if not SCORER.exists():
        sys.exit(2)
    labels = args.weeks or sorted(p.stem for p in LABELS.glob("*.json"))
    with tempfile.TemporaryDirectory() as home:
        out = args.out or Path(home) / "out"
        out.mkdir(parents=True, exist_ok=True)
        env = fresh_store(home)
        pairs: list[str] = []
        for label in labels:
            since, until = _window(label)
            common = [
                "digest",
                "--repo",
                _repo(label),
                "--since",
                since,
                "--until",
                until,
                "--no-sync",
            ]
            target = out / f"{label}.json"
            result = _cli(env, *common, "--format", "json", "--out", str(target))
            if result.returncode:
                sys.exit(f"{label}: {result.stderr.strip()}")
            pairs += [str(target), str(LABELS / f"{label}.json")]
            if not args.no_md:
                for lang in ("en", "zh"):
                    _cli(env, *common, "--lang", lang, "--out", str(out / f"{label}.{lang}.md"))
        subprocess.run([sys.executable, str(SCORER), *pairs], check=False)


if __name__ == "__main__":
    main()
