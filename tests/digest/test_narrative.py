"""The optional narrative model, against a local fake OpenAI-compatible endpoint."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

import pytest
from aiohttp import web

from bot.digest.document import digest_document
from bot.digest.model import Highlight
from bot.digest.narrative import (
    NarrativeConfig,
    allowed_numbers,
    check_text,
    config_from_env,
    narrative_input,
    write_narrative,
)
from bot.digest.prose import highlight_text, summary_of
from bot.digest.render import render_markdown
from tests.digest.helpers import fixture_digest

Answer = Callable[[dict], dict]


@pytest.fixture
async def fake_model() -> AsyncIterator[Callable[..., NarrativeConfig]]:
    state: dict = {"answer": None, "delay": 0.0, "requests": []}

    async def models(_: web.Request) -> web.Response:
        return web.json_response({"data": [{"id": "fake-llm"}]})

    async def chat(request: web.Request) -> web.Response:
        body = await request.json()
        state["requests"].append(body)
        await asyncio.sleep(state["delay"])
        data = json.loads(body["messages"][1]["content"])
        content = state["answer"](data)
        return web.json_response({"choices": [{"message": {"content": json.dumps(content)}}]})

    app = web.Application()
    app.router.add_get("/v1/models", models)
    app.router.add_post("/v1/chat/completions", chat)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def configure(answer: Answer, *, delay: float = 0.0, timeout: float = 5.0) -> NarrativeConfig:
        state.update(answer=answer, delay=delay)
        return NarrativeConfig(base_url=f"http://127.0.0.1:{port}/v1", timeout=timeout)

    configure.state = state  # type: ignore[attr-defined]
    yield configure
    await runner.cleanup()


def _text(highlight: Highlight, language: str = "en") -> str:
    return highlight_text(highlight, language, "week")


def _faithful(data: dict) -> dict:
    first = data["highlights"][0]
    pr = first["prs"][0]
    return {
        "summary": f"{data['totals']['merged']} PRs landed; #{pr['number']} stands out.",
        "highlights": {first["theme_id"]: f"#{pr['number']} by {pr['author']} leads."},
    }


async def test_accepted_text_is_used_and_marked(fake_model) -> None:
    digest = fixture_digest()
    result = await write_narrative(digest, fake_model(_faithful), "en")
    assert result.narrative_model == "fake-llm"
    assert summary_of(result, "en").startswith("30 PRs landed")
    assert result.highlights[0].model_written and not result.highlights[1].model_written
    assert _text(result.highlights[1]) == _text(digest.highlights[1])
    markdown = render_markdown(digest_document(result, "en"))
    assert "fake-llm" in markdown  # marked as model-written
    sent = fake_model.state["requests"][0]
    assert sent["model"] == "fake-llm"


async def test_mentioning_a_pr_outside_the_week_falls_back(fake_model) -> None:
    digest = fixture_digest()

    def invents_pr(data: dict) -> dict:
        return {"summary": "Big week, led by #99999.", "highlights": {}}

    assert await write_narrative(digest, fake_model(invents_pr), "en") is digest


async def test_inventing_a_figure_falls_back(fake_model) -> None:
    digest = fixture_digest()

    def invents_figure(data: dict) -> dict:
        return {"summary": f"本周合并 {data['totals']['merged']} 个 PR，吞吐提升 777%。"}

    assert await write_narrative(digest, fake_model(invents_figure), "zh") is digest


async def test_timeout_falls_back(fake_model) -> None:
    digest = fixture_digest()
    config = fake_model(_faithful, delay=1.0, timeout=0.2)
    assert await write_narrative(digest, config, "en") is digest


async def test_garbage_answer_and_unreachable_server_fall_back(fake_model) -> None:
    digest = fixture_digest()
    assert (
        await write_narrative(digest, fake_model(lambda data: ["not", "an", "object"]), "en")
        is digest
    )
    dead = NarrativeConfig(base_url="http://127.0.0.1:9/v1", model="m", timeout=1)
    assert await write_narrative(digest, dead, "en") is digest


def test_checks_accept_data_figures_and_reject_others() -> None:
    digest = fixture_digest()
    data = narrative_input(digest, "en")
    allowed = allowed_numbers(data)
    week = {row.number for row in digest.prs}
    check_text("ROCm grew 150% with 5 PRs; #44075 claims 2.15x throughput.", week, allowed)
    check_text("7,189 lines were added.", week, allowed)
    with pytest.raises(Exception, match="absent"):
        check_text("ROCm grew 151%.", week, allowed)
    with pytest.raises(Exception, match="not merged"):
        check_text("See PR #1.", week, allowed)


def test_config_comes_from_the_environment_only_when_set() -> None:
    assert config_from_env({}) is None
    config = config_from_env({"OPENAI_BASE_URL": "http://h/v1", "OPENAI_API_KEY": "k"})
    assert config is not None and config.api_key == "k"


async def test_each_theme_paragraph_is_checked_on_its_own(fake_model) -> None:
    digest = fixture_digest()
    first, second = digest.highlights[0], digest.highlights[1]
    foreign = second.prs[0]  # merged this week, but in another theme

    def answer(data: dict) -> dict:
        one, two = data["highlights"][0], data["highlights"][1]
        assert len(one["prs"]) == min(len(first.prs), 12)  # every member, not only key PRs
        pr = two["prs"][0]
        return {
            "summary": "A week of themes.",
            "highlights": {
                one["theme_id"]: f"#{one['prs'][0]['number']} leads; see also #{foreign}.",
                two["theme_id"]: f"#{pr['number']} by {pr['author']} leads this theme.",
            },
        }

    result = await write_narrative(digest, fake_model(answer), "en")
    assert summary_of(result, "en") == "A week of themes."
    # The first paragraph cites a PR of the second theme: only it falls back.
    assert _text(result.highlights[0]) == _text(first) and not result.highlights[0].model_written
    assert result.highlights[1].model_written
    assert _text(result.highlights[1]).startswith(f"#{second.prs[0]}")


async def test_a_figure_from_another_theme_is_rejected(fake_model) -> None:
    digest = fixture_digest()
    # A claim figure of some theme, stated in a theme that does not have it.
    source = next(h for h in digest.highlights if "2.15x" in _text(h))
    target = next(h for h in digest.highlights if "2.15" not in _text(h))

    def answer(data: dict) -> dict:
        return {"summary": "x", "highlights": {target.theme_id: "It gained 2.15x throughput."}}

    result = await write_narrative(digest, fake_model(answer), "en")
    by_id = {h.theme_id: h for h in result.highlights}
    assert not by_id[target.theme_id].model_written
    assert _text(by_id[source.theme_id]) == _text(source)


def test_model_input_carries_each_prs_change_and_purpose() -> None:
    # branch prose: the narrative gets the same facts as the rule-based highlight.
    from bot.digest.narrative import narrative_input
    from tests.digest.helpers import fixture_digest

    data = narrative_input(fixture_digest(), "en")
    prs = [p for h in data["highlights"] for p in h["prs"]]
    assert prs and all("change" in p and "purpose" in p for p in prs)
    assert any(p["change"].endswith(f"(#{p['number']})") for p in prs)
