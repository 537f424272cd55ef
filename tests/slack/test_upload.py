"""The chart upload through the real slack_sdk client against the fake's two-step upload."""

from __future__ import annotations

import pytest

from bot.slack.poster import SlackPostError
from tests.fakes.slack import FakeSlack

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


async def test_the_chart_reaches_the_digest_thread_in_two_steps(
    fake_slack: FakeSlack, poster
) -> None:
    root = await poster.post_message("C1", {"text": "digest", "blocks": []})
    sent = await poster.upload_file(
        "C1",
        PNG,
        filename="trends-2026-W23.png",
        title="Trends",
        alt_text="Chart of merged PRs per week",
        thread_ts=root.message_id,
    )
    (upload,) = fake_slack.shared_files("C1")
    assert upload.file_id == sent.message_id
    assert upload.data == PNG and upload.length == len(PNG)
    assert upload.thread_ts == root.message_id
    assert upload.title == "Trends" and upload.alt_txt == "Chart of merged PRs per week"
    # getUploadURLExternal, the bytes, then completeUploadExternal: in that order.
    steps = [c for c in fake_slack.calls if c != "chat.postMessage"]
    assert steps == ["files.getUploadURLExternal", "upload", "files.completeUploadExternal"]


async def test_a_transient_failure_of_the_completion_is_retried_and_shares_once(
    fake_slack: FakeSlack, poster
) -> None:
    root = await poster.post_message("C1", {"text": "digest", "blocks": []})
    fake_slack.fail("files.completeUploadExternal", ("5xx", 503), ("429", 2))
    await poster.upload_file(
        "C1", PNG, filename="t.png", title="t", alt_text="a", thread_ts=root.message_id
    )
    assert len(fake_slack.shared_files("C1")) == 1


async def test_long_alt_text_is_cut_to_slacks_limit(fake_slack: FakeSlack, poster) -> None:
    await poster.upload_file("C1", PNG, filename="t.png", title="t", alt_text="x" * 5000)
    (upload,) = fake_slack.shared_files("C1")
    assert upload.alt_txt is not None and len(upload.alt_txt) == 1000


async def test_a_thread_that_is_not_a_parent_message_is_refused(
    fake_slack: FakeSlack, poster
) -> None:
    with pytest.raises(SlackPostError, match="thread"):
        await poster.upload_file(
            "C1", PNG, filename="t.png", title="t", alt_text="a", thread_ts="123.456"
        )
    assert fake_slack.shared_files("C1") == []


async def test_an_unknown_channel_names_the_fix(fake_slack: FakeSlack, poster) -> None:
    with pytest.raises(SlackPostError, match="channel ID"):
        await poster.upload_file("C404", PNG, filename="t.png", title="t", alt_text="a")


async def test_the_chart_is_the_last_part_of_the_ledger_and_a_rerun_finds_it(
    fake_slack: FakeSlack, poster, store
) -> None:
    from bot.delivery import Attachment

    chart = Attachment(PNG, "digest-x.png", "Trends", "Merged PRs per week: 1, 2, 3")
    payloads = [{"text": "root", "blocks": []}, {"text": "detail", "blocks": []}]

    async def post(force: bool = False):
        return await poster.post_document(
            store.deliveries,
            document_id="digest:x",
            channel="C1",
            payloads=payloads,
            attachment=chart,
            force=force,
        )

    result = await post()
    assert result.sent == [0, 1, 2] and result.complete
    root = fake_slack.channel_messages("C1")[0]
    (upload,) = fake_slack.shared_files("C1")
    assert upload.thread_ts == root.ts and upload.alt_txt == chart.alt_text
    ledger = await store.deliveries.sent("digest:x", "slack", "C1")
    assert ledger[2].message_id == upload.file_id
    # Every text part carries the metadata a takeover looks for.
    assert [m.metadata["event_payload"] for m in fake_slack.channel_messages("C1")] == [
        {"document": "digest:x", "part": 0},
        {"document": "digest:x", "part": 1},
    ]
    assert (await post()).nothing_new
    assert len(fake_slack.shared_files("C1")) == 1
    # The lookup finds the shared chart by its file name in the thread.
    found = await poster.find_part("C1", "digest:x", 2, root.ts, filename="digest-x.png")
    assert found is not None and found.message_id == upload.file_id


def test_a_chart_that_cannot_be_drawn_is_left_out_and_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import logging
    from types import SimpleNamespace

    import bot.digest.charts as charts
    from bot import posting

    def no_font(digest: object) -> object:
        raise RuntimeError("matplotlib: no usable font")

    monkeypatch.setattr(charts, "png_chart", no_font)
    digest = SimpleNamespace(history=SimpleNamespace(weeks=["2026-W22", "2026-W23"]))
    built = SimpleNamespace(digest=digest, document=SimpleNamespace(id="digest:x", title="t"))
    with caplog.at_level(logging.WARNING, logger="bot.posting"):
        assert posting._chart(built) is None  # type: ignore[arg-type]
    assert "could not be drawn" in caplog.text and "posting without it" in caplog.text
