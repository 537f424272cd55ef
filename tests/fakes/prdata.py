"""Synthetic, seeded pull-request data shaped like vLLM's, for the fake GitHub.

`make_prs` spreads merges over a window; `big` gives chosen PRs many files (vLLM has PRs with
300+). `load_dataset` reads a ../shared dataset file into the same records.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

TAGS = ["Bugfix", "Kernel", "Core", "Model", "Frontend", "CI/Build", "Doc", "Perf", "V1", "ROCm"]
SUBJECTS = [
    "fused MoE",
    "paged attention",
    "prefix caching",
    "spec decode",
    "FP8 quantization",
    "the scheduler",
    "LoRA adapters",
    "tool calling",
    "structured output",
    "the KV connector",
    "multimodal inputs",
    "torch.compile",
    "the OpenAI server",
    "sampling",
    "metrics",
]
VERBS = ["Fix", "Add", "Support", "Optimize", "Refactor", "Remove", "Speed up", "Enable"]
PATHS = [
    "vllm/v1/core/sched/scheduler.py",
    "vllm/v1/attention/backends/flash_attn.py",
    "vllm/model_executor/layers/fused_moe/layer.py",
    "vllm/model_executor/models/llama.py",
    "vllm/entrypoints/openai/serving_chat.py",
    "vllm/v1/worker/gpu_model_runner.py",
    "csrc/attention/paged_attention_v1.cu",
    "vllm/lora/layers.py",
    "docs/usage/faq.md",
    "tests/v1/core/test_scheduler.py",
    "requirements/common.txt",
    ".buildkite/test-pipeline.yaml",
    "vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py",
    "vllm/config/__init__.py",
]
AUTHORS = [
    "WoosukKwon",
    "youkaichao",
    "DarkLight1337",
    "njhill",
    "robertgshaw2",
    "mgoin",
    "Isotr0py",
    "jeejeelee",
    "hmellor",
    "simon-mo",
    "russellb",
    "ywang96",
    "LucasWilkinson",
    "tlrmchlsmth",
]
LABELS = ["ready", "documentation", "ci/build", "performance", "v1", "rocm", "frontend"]
CHANGE_TYPES = ["MODIFIED", "MODIFIED", "MODIFIED", "ADDED", "DELETED", "RENAMED"]


@dataclass(slots=True)
class FakeFile:
    path: str
    additions: int
    deletions: int
    change_type: str = "MODIFIED"


@dataclass(slots=True)
class FakePR:
    number: int
    title: str
    author: str | None
    created_at: datetime
    updated_at: datetime
    state: str = "MERGED"  # GraphQL spelling: OPEN, CLOSED, MERGED
    merged_at: datetime | None = None
    closed_at: datetime | None = None
    body: str = ""
    labels: list[str] = field(default_factory=list)
    files: list[FakeFile] = field(default_factory=list)
    base_ref: str = "main"
    merged_by: str | None = None
    reviews: int = 0
    comments: int = 0
    # Datasets state sizes explicitly; generated PRs derive them from their files.
    additions: int | None = None
    deletions: int | None = None
    changed_files: int | None = None

    def __post_init__(self) -> None:
        if self.additions is None:
            self.additions = sum(f.additions for f in self.files)
        if self.deletions is None:
            self.deletions = sum(f.deletions for f in self.files)
        if self.changed_files is None:
            self.changed_files = len(self.files)


def _files(rng: random.Random, count: int) -> list[FakeFile]:
    files = []
    bases = rng.sample(PATHS, len(PATHS))
    for i in range(count):
        base = bases[i % len(bases)]
        # Paths are unique within a PR, as on GitHub; big PRs get numbered siblings.
        stem, _, ext = base.rpartition(".")
        path = base if i < len(bases) else f"{stem}_{i}.{ext}"
        files.append(
            FakeFile(path, rng.randint(0, 300), rng.randint(0, 120), rng.choice(CHANGE_TYPES))
        )
    return files


def make_prs(
    count: int,
    start: datetime,
    end: datetime,
    *,
    seed: int = 0,
    first_number: int = 20000,
    big: dict[int, int] | None = None,
) -> list[FakePR]:
    """`count` merged PRs with merge times spread over [start, end).

    `big` maps an index (0-based) to its number of files, e.g. {7: 250}.
    """
    rng = random.Random(seed)
    big = big or {}
    span = (end - start).total_seconds()
    prs = []
    for i in range(count):
        merged = start + timedelta(seconds=int(span * (i + rng.random()) / count))
        merged = min(merged, end - timedelta(seconds=1))
        created = merged - timedelta(hours=rng.randint(1, 24 * 20))
        n_files = big.get(i, rng.randint(1, 12))
        title = f"[{rng.choice(TAGS)}] {rng.choice(VERBS)} {rng.choice(SUBJECTS)}"
        prs.append(
            FakePR(
                number=first_number + i,
                title=title,
                author=rng.choice(AUTHORS),
                created_at=created,
                updated_at=merged + timedelta(minutes=rng.randint(0, 90)),
                merged_at=merged,
                closed_at=merged,
                body=f"## Purpose\n{title}.\n\n## Test Plan\npytest -q\n",
                labels=rng.sample(LABELS, rng.randint(0, 3)),
                files=_files(rng, n_files),
                merged_by=rng.choice(AUTHORS),
                reviews=rng.randint(0, 6),
                comments=rng.randint(0, 15),
            )
        )
    return prs


def open_and_closed(start: datetime, *, first_number: int = 90000) -> list[FakePR]:
    """One open and one closed-unmerged PR, for single-PR lookups in any state."""
    return [
        FakePR(
            number=first_number,
            title="[WIP] Add a new model",
            author="newcomer",
            created_at=start,
            updated_at=start + timedelta(hours=1),
            state="OPEN",
            files=[FakeFile("vllm/model_executor/models/new.py", 400, 0, "ADDED")],
        ),
        FakePR(
            number=first_number + 1,
            title="[Bugfix] Abandoned attempt",
            author="someone",
            created_at=start,
            updated_at=start + timedelta(hours=2),
            state="CLOSED",
            closed_at=start + timedelta(hours=2),
            files=[FakeFile("vllm/sampling_params.py", 3, 1)],
        ),
    ]


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC) if value else None


def load_dataset(path: Path) -> tuple[str, list[FakePR]]:
    """A ../shared dataset file (README format) as fake PRs, sizes taken as stated."""
    data = json.loads(path.read_text(encoding="utf-8"))
    prs = []
    for item in data["pullRequests"]:
        merged = _time(item.get("mergedAt"))
        prs.append(
            FakePR(
                number=item["number"],
                title=item["title"],
                author=item.get("author"),
                created_at=_time(item["createdAt"]),
                updated_at=merged or _time(item["createdAt"]),
                merged_at=merged,
                closed_at=merged,
                body=item.get("body") or "",
                labels=list(item.get("labels") or []),
                files=[
                    FakeFile(f["path"], f.get("additions", 0), f.get("deletions", 0))
                    for f in item.get("files") or []
                ],
                base_ref=item.get("baseRefName") or "main",
                additions=item.get("additions"),
                deletions=item.get("deletions"),
                changed_files=item.get("changedFiles"),
            )
        )
    return data["repository"], prs
