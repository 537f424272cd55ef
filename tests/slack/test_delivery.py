"""`bot.delivery.deliver` on its own: the ledger logic Slack and Discord share."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.delivery import Sent, deliver
from bot.store import Store

DOC = "digest:vllm-project/vllm:2026-W23:en"


class Recorder:
    """A platform that numbers messages and can report a separate thread id (Discord-like)."""

    def __init__(self, thread_for_root: bool = False) -> None:
        self.calls: list[tuple[int, str | None]] = []
        self.thread_for_root = thread_for_root

    async def __call__(self, index: int, payload: dict[str, Any], thread: str | None) -> Sent:
        self.calls.append((index, thread))
        message_id = f"m{len(self.calls)}"
        return Sent(message_id, f"t-{message_id}" if index == 0 and self.thread_for_root else None)


def payloads(n: int) -> list[dict[str, Any]]:
    return [{"text": str(i)} for i in range(n)]


async def test_replies_go_to_the_thread_the_platform_reported(store: Store) -> None:
    send = Recorder(thread_for_root=True)
    result = await deliver(
        store, document_id=DOC, platform="discord", channel="1", payloads=payloads(3), send=send
    )
    assert send.calls == [(0, None), (1, "t-m1"), (2, "t-m1")]
    assert (result.root_id, result.thread_id) == ("m1", "t-m1")
    ledger = await store.deliveries(DOC, "discord", "1")
    assert [(d.part, d.parts, d.message_id, d.thread_id) for d in ledger.values()] == [
        (0, 3, "m1", "t-m1"),
        (1, 3, "m2", "t-m1"),
        (2, 3, "m3", "t-m1"),
    ]


async def test_delivered_document_that_now_renders_differently_posts_nothing(
    store: Store,
) -> None:
    await deliver(
        store,
        document_id=DOC,
        platform="slack",
        channel="C1",
        payloads=payloads(3),
        send=Recorder(),
    )
    send = Recorder()
    result = await deliver(
        store, document_id=DOC, platform="slack", channel="C1", payloads=payloads(4), send=send
    )
    assert send.calls == [] and result.nothing_new and result.parts == 3


async def test_concurrent_deliveries_post_each_part_once(store: Store) -> None:
    send = Recorder()
    results = await asyncio.gather(
        *(
            deliver(
                store,
                document_id=DOC,
                platform="slack",
                channel="C1",
                payloads=payloads(3),
                send=send,
            )
            for _ in range(3)
        )
    )
    assert sorted(i for i, _ in send.calls) == [0, 1, 2]
    assert sum(len(r.sent) for r in results) == 3
