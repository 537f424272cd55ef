"""PR cards, alerts and the plain-text card."""

from __future__ import annotations

from bot.cards import alert_card, batched_alert, pr_card, pr_text
from bot.core.document import Facts
from bot.digest.render import render_markdown
from tests.digest.fixtures import MODULE_NAMES, this_week


def _pr(number: int):
    return next(a for a in this_week() if a.pr.number == number)


def test_card_has_every_part() -> None:
    apr = _pr(44075)
    doc = pr_card(apr.pr, apr.analysis, "en", MODULE_NAMES)
    assert doc.id == "pr:vllm-project/vllm:44075" and doc.url == apr.pr.url
    assert [s.id for s in doc.sections] == ["card", "flags", "score", "files", "claims"]
    markdown = render_markdown(doc)
    for part in ("merged", "JartX", "ROCm", "Performance", "9.4", "Large change", "2.15x"):
        assert part in markdown
    assert "csrc/rocm/moe\\_wna16.cu" in markdown or "csrc/rocm/moe_wna16.cu" in markdown


def test_card_accepts_localised_names_and_chinese() -> None:
    apr = _pr(42187)
    names = {k: v[1] for k, v in MODULE_NAMES.items()}
    doc = pr_card(apr.pr, apr.analysis, "zh", names)
    facts = doc.sections[0].blocks[0]
    assert isinstance(facts, Facts)
    labels = [label for label, _ in facts.items]
    assert labels[:3] == ["状态", "作者", "创建时间"]
    assert "核心路径变更" in render_markdown(doc)
    assert "模型执行器" in render_markdown(doc)


def test_top_five_files_by_lines() -> None:
    apr = _pr(42187)
    apr.pr.files += [type(apr.pr.files[0])(f"vllm/x{i}.py", i, 0) for i in range(1, 6)]
    text = pr_text(apr.pr, apr.analysis, "en", MODULE_NAMES)
    files_part = text.split("Most-changed files")[1]
    assert "vllm/worker" not in files_part  # only paths of this PR
    assert files_part.index("model_runner.py") < files_part.index("scheduler.py")
    assert "3 more files" in text


def test_alert_and_batch() -> None:
    apr = _pr(43241)
    alert = alert_card(apr.pr, apr.analysis, "en", MODULE_NAMES)
    assert "319% speedup" in render_markdown(alert)
    batch = batched_alert(this_week()[:6], "zh", MODULE_NAMES)
    markdown = render_markdown(batch)
    assert "6 个新 PR" in batch.title
    order = [
        markdown.index(f"#{a.pr.number}")
        for a in sorted(this_week()[:6], key=lambda a: (-a.analysis.score, a.pr.number))
    ]
    assert order == sorted(order)


def test_text_card_is_plain() -> None:
    apr = _pr(44699)
    text = pr_text(apr.pr, apr.analysis, "en", MODULE_NAMES)
    assert text.startswith("#44699 [DSV4]")
    assert "**" not in text and "](" not in text
    assert "Breaking change: removes a public API" in text
