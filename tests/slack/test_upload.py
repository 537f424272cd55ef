"""The chart upload through the real slack_sdk client against the fake's two-step upload."""

from __future__ import annotations

import pytest

from bot.slack.poster import SlackPostError
from tests.fakes.slack import FakeSlack

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


async def test_the_chart_reaches_the_digest_thread_in_two_steps(
    fake_slack: FakeSlack, poster
) -> None:
    root = await poster.post("C1", {"text": "digest", "blocks": []})
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
    root = await poster.post("C1", {"text": "digest", "blocks": []})
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
