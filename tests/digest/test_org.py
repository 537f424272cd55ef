"""The organisation digest end to end against the GitHub fake: one search per week for
every repository, each repository's own figures, cross-repository themes, every format."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.app import App
from bot.core.config import Config, DigestTarget, Environment
from bot.core.errors import UsageError
from bot.core.weeks import Window, iso_week
from bot.digest.pipeline import render_digest
from bot.store.store import Store
from bot.usecases.digest import DigestScope, build_digest
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import load_dataset, make_prs

VLLM, ASCEND = "vllm-project/vllm", "vllm-project/vllm-ascend"
WEEK = Window(datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC), "2026-W23")
DATASETS = Path(__file__).resolve().parents[3] / "shared" / "datasets"


def _config(target: dict, history_weeks: int = 0) -> Config:
    return Config(
        repos=[{"name": VLLM, "modules": "vllm"}],
        digest={"history_weeks": history_weeks, "targets": [target]},
    )


def _themed(prs, count: int, offset: int = 0) -> None:
    for i, pr in enumerate(prs[offset : offset + count]):
        pr.title = f"[DeepSeek V4] load MTP weights, part {i}"


@pytest.fixture
async def fake() -> AsyncIterator[FakeGitHub]:
    async with FakeGitHub() as server:
        vllm = make_prs(60, WEEK.start, WEEK.end, seed=1)
        ascend = make_prs(25, WEEK.start, WEEK.end, seed=2, first_number=20010)  # numbers overlap
        _themed(vllm, 6)
        _themed(ascend, 4, offset=3)
        server.repos[VLLM] = vllm
        server.repos[ASCEND] = ascend
        server.repos["vllm-project/guidellm"] = make_prs(2, WEEK.start, WEEK.end, seed=3)
        yield server


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[Store]:
    db = await Store.open("sqlite+aiosqlite:///" + str(tmp_path / "s.db"))
    yield db
    await db.close()


def _services(fake: FakeGitHub, store: Store, config: Config) -> App:
    env = Environment(
        github_token=fake.token, github_api_url=fake.api_url, github_graphql_url=fake.graphql_url
    )
    return App(config=config, env=env, store=store)


async def _org_digest(services: App, window: Window, language: str, *, sync: bool = True):
    """The configured organisation's digest, as `/vllm digest org` and the scheduler ask."""
    return await build_digest(services, DigestScope(org=True), window, language, sync=sync)


def _ops(fake: FakeGitHub, name: str) -> int:
    return sum(entry.operation == name for entry in fake.log)


async def test_org_digest_one_search_per_week_and_each_repos_own_totals(fake, store) -> None:
    services = _services(
        fake, store, _config({"platform": "slack", "channel": "C1", "org": "vllm-project"})
    )
    built = await _org_digest(services, WEEK, "en")
    org = built.digest

    # This week and last week: one search each for all three repositories.
    assert _ops(fake, "SearchMergedPullRequestsInScope") == 2
    assert _ops(fake, "SearchMergedPullRequests") == 0
    # Newcomers of all three repositories share one request (50 pairs per request).
    assert _ops(fake, "MergedBefore") == 1
    assert org.totals.new_contributors is not None
    totals = {part.repo: part.digest.totals.merged for part in org.parts}
    assert totals == {VLLM: 60, ASCEND: 25, "vllm-project/guidellm": 2}
    for part in org.parts:
        authors = {pr.author for pr in fake.repos[part.repo]}
        assert set(part.digest.contributors) == authors
    assert org.totals.merged == 87
    assert [part.repo for part in org.parts] == [VLLM, ASCEND, "vllm-project/guidellm"]

    # The DeepSeek V4 theme of both repositories is one group.
    [theme] = [t for t in org.cross_themes if "deepseek" in t.id]
    assert [repo for repo, _ in theme.members] == [VLLM, ASCEND]
    assert [len(numbers) for _, numbers in theme.members] == [6, 4]

    data = json.loads(render_digest(built, "json"))
    assert data["repo"] == "vllm-project"
    assert [r["repo"] for r in data["repos"]] == [VLLM, ASCEND, "vllm-project/guidellm"]
    assert data["repos"][1]["totals"]["merged"] == 25
    assert all("repo" in entry for entry in data["key_prs"] + data["prs"])
    assert len(data["prs"]) == 87
    # Highlights over the union: the cross-repository themes first, each theme once.
    assert len(data["highlights"][0]["repos"]) >= 2
    deepseek = [h for h in data["highlights"] if "deepseek" in h["theme_id"]]
    assert len(deepseek) == 1 and deepseek[0]["repos"] == [VLLM, ASCEND]
    for entry in data["key_prs"]:
        part = next(p for p in org.parts if p.repo == entry["repo"])
        assert entry["number"] in data["repos"][org.parts.index(part)]["key_prs"]

    markdown = render_digest(built, "markdown")
    assert "DeepSeek V4" in markdown and "6 PRs in vllm" in markdown
    assert "4 PRs in vllm-ascend" in markdown
    assert "guidellm: 2 merged" in markdown  # quiet repository: one line
    for fmt in ("html", "slack", "discord"):
        assert render_digest(built, fmt)
    assert built.document.lead_sections == 1


async def test_org_digest_in_chinese_and_offline_from_the_store(fake, store) -> None:
    target = {"platform": "slack", "channel": "C1", "repos": [VLLM, ASCEND]}
    services = _services(fake, store, _config(target))
    await _org_digest(services, WEEK, "en")
    fake.log.clear()
    built = await _org_digest(services, WEEK, "zh", sync=False)
    assert fake.log == []
    markdown = render_digest(built, "markdown")
    assert "跨仓库主题" in markdown and "2 个仓库" in markdown
    assert built.digest.repo == f"{VLLM},{ASCEND}"


async def test_an_already_synced_week_costs_nothing(fake, store) -> None:
    target = {"platform": "slack", "channel": "C1", "repos": [VLLM, ASCEND]}
    services = _services(fake, store, _config(target))
    await _org_digest(services, WEEK, "en")
    fake.log.clear()
    await _org_digest(services, WEEK, "en")
    assert _ops(fake, "SearchMergedPullRequestsInScope") == 0


async def test_no_organisation_configured_names_the_key(fake, store) -> None:
    config = Config(repos=[{"name": VLLM}])
    assert config.digest.org_target() is None
    with pytest.raises(UsageError, match="org = "):
        await _org_digest(_services(fake, store, config), WEEK, "en")


def test_target_validation() -> None:
    with pytest.raises(ValueError, match="set one of repo, repos and org"):
        DigestTarget(platform="slack", channel="C", org="vllm-project", repos=[VLLM])
    with pytest.raises(ValueError, match="exclude only applies"):
        DigestTarget(platform="slack", channel="C", repos=[VLLM], exclude=[ASCEND])
    with pytest.raises(ValueError):
        DigestTarget(platform="slack", channel="C", org="bad/org")
    target = DigestTarget(platform="slack", channel="C", org="vllm-project", exclude=[ASCEND])
    assert target.is_multi and target.scope_label == "vllm-project"


@pytest.mark.skipif(
    not (DATASETS / "vllm-ascend-2026-W22.json").exists(), reason="../shared datasets absent"
)
async def test_real_vllm_ascend_week_beside_vllm(store) -> None:
    repo, ascend = load_dataset(DATASETS / "vllm-ascend-2026-W22.json")
    week = Window(datetime(2026, 5, 25, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC), "2026-W22")
    async with FakeGitHub(
        {repo: ascend, VLLM: make_prs(120, week.start, week.end, seed=5)}
    ) as fake:
        services = _services(
            fake, store, _config({"platform": "slack", "channel": "C", "org": "vllm-project"})
        )
        built = await _org_digest(services, week, "en")
    parts = {part.repo: part.digest for part in built.digest.parts}
    assert parts[repo].totals.merged == len(ascend) == 82
    assert parts[VLLM].totals.merged == 120
    # 202 PRs: ceil(202 / 100) pages this week, one (empty) page for last week; the largest
    # PR has 63 files, so no extra file page.
    assert _ops(fake, "SearchMergedPullRequestsInScope") == 3 + 1
    assert _ops(fake, "MorePullRequestFiles") == 0


async def test_chat_payloads_one_summary_then_the_thread(fake, store) -> None:
    from bot.delivery import Sent, deliver
    from formatters.discord import render_discord
    from formatters.slack import render_slack

    target = {"platform": "slack", "channel": "C1", "org": "vllm-project"}
    built = await _org_digest(_services(fake, store, _config(target)), WEEK, "en")
    slack = render_slack(built.document)
    assert len(slack) > 1 and len(render_discord(built.document)) > 1
    first = json.dumps(slack[0])
    assert "Summary" in first and "Cross-repository themes" not in first

    calls: list[tuple[int, str | None]] = []

    async def send(index: int, payload: dict, thread: str | None) -> Sent:
        calls.append((index, thread))
        return Sent(f"m{index}", None)

    result = await deliver(
        store.deliveries,
        document_id=built.document.id,
        platform="slack",
        channel="C1",
        payloads=slack,
        send=send,
    )
    assert calls[0] == (0, None) and all(thread == "m0" for _, thread in calls[1:])
    assert result.parts == len(slack)
    assert built.document.id == "digest:org:vllm-project:2026-W23:en"


@pytest.mark.skipif(
    not (DATASETS / "vllm-ascend" / "vllm-ascend-2026-W21.json").exists(),
    reason="../shared datasets absent",
)
async def test_real_vllm_ascend_history_is_each_repositorys_own_baseline(store) -> None:
    weeks = ["W19", "W20", "W21"]
    ascend = []
    for label in weeks:
        repo, prs = load_dataset(DATASETS / "vllm-ascend" / f"vllm-ascend-2026-{label}.json")
        ascend += prs
    _, w22 = load_dataset(DATASETS / "vllm-ascend-2026-W22.json")
    week = Window(datetime(2026, 5, 25, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC), "2026-W22")
    vllm = make_prs(120, week.start, week.end, seed=5)
    async with FakeGitHub({repo: ascend + w22, VLLM: vllm}) as fake:
        target = {"platform": "slack", "channel": "C", "repos": [VLLM, repo]}
        services = _services(fake, store, _config(target, history_weeks=3))
        built = await _org_digest(services, week, "zh")
    # One search per week for both repositories: W22 holds 82 + 120 PRs (3 pages), W19-W21
    # 43, 62 and 97 (one page each); W20/W21's PRs of 100+ files add file pages only.
    assert _ops(fake, "SearchMergedPullRequestsInScope") == 3 + 1 + 1 + 1
    assert _ops(fake, "MorePullRequestFiles") >= 2
    parts = {part.repo: part.digest for part in built.digest.parts}
    assert parts[repo].history_weeks == 3
    assert parts[repo].totals.merged == 82
    for label in weeks:
        _, prs = load_dataset(DATASETS / "vllm-ascend" / f"vllm-ascend-2026-{label}.json")
        span = iso_week(2026, int(label[1:]), UTC)
        assert await store.prs.count_merged_between(repo, span.start_utc, span.end_utc) == len(prs)
    assert "跨仓库主题" in render_digest(built, "markdown")


async def test_an_org_never_searched_is_incomplete_not_empty(fake, store) -> None:
    services = _services(
        fake, store, _config({"platform": "slack", "channel": "C", "org": "vllm-project"})
    )
    built = await _org_digest(services, WEEK, "en", sync=False)
    assert built.digest.totals.merged == 0 and not built.digest.complete
    assert "⚠" in render_digest(built, "markdown")


async def test_an_unreachable_github_is_asked_once_not_once_per_history_week(
    store, caplog: pytest.LogCaptureFixture
) -> None:
    import logging
    import socket

    # A port nothing listens on: every request is refused (GitHubUnreachable).
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    target = {"platform": "slack", "channel": "C1", "repos": [VLLM, ASCEND]}
    env = Environment(
        github_token="t",
        github_api_url=f"http://127.0.0.1:{port}",
        github_graphql_url=f"http://127.0.0.1:{port}/graphql",
    )
    services = App(config=_config(target, history_weeks=8), env=env, store=store)
    from bot.core.errors import GitHubUnreachable

    with (
        caplog.at_level(logging.WARNING, logger="bot.digest.org"),
        pytest.raises(GitHubUnreachable),  # nothing stored to fall back on
    ):
        await _org_digest(services, WEEK, "en")
    unreachable = [r for r in caplog.records if "earlier weeks" in r.getMessage()]
    assert len(unreachable) <= 1
    assert not [r for r in caplog.records if "not synced" in r.getMessage()]


async def test_a_repository_with_nothing_stored_reads_unknown_not_zero(fake, store) -> None:
    # Only vllm-ascend is synced (through the fake); vllm never is.
    only = _config(
        {"platform": "slack", "channel": "C1", "repos": [ASCEND, "vllm-project/guidellm"]}
    )
    await _org_digest(_services(fake, store, only), WEEK, "en")
    config = _config({"platform": "slack", "channel": "C1", "repos": [VLLM, ASCEND]})
    services = _services(fake, store, config)
    built = await _org_digest(services, WEEK, "en", sync=False)
    markdown = render_digest(built, "markdown")
    rows = {line.split("|")[1].strip(): line for line in markdown.splitlines() if "|" in line}
    # vllm was never synced: its counts are unknown, not 0, and it is not "quiet".
    assert [cell.strip() for cell in rows["vllm"].split("|")[2:6]] == ["unknown"] * 4
    assert "unknown" not in rows["vllm-ascend"].split("|")[2]
    assert "vllm: 0 merged" not in markdown
    assert "merged, key PRs and contributors unknown" in markdown
    zh = render_digest(await _org_digest(services, WEEK, "zh", sync=False), "markdown")
    assert "合并数、重点 PR、贡献者未知" in zh
