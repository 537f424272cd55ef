"""Retry and rate-limit policy of GitHubClient, against the fake over real HTTP."""

from __future__ import annotations

import socket
import time

import pytest

from bot.core.errors import (
    GitHubAuthError,
    GitHubError,
    GitHubUnavailable,
    NotFoundError,
    RateLimitExhausted,
)
from bot.github.client import GitHubClient
from bot.github.graphql_source import GraphQLSource
from tests.fakes.prdata import make_prs
from tests.github.conftest import REPO, WEEK

PROBE = "query { rateLimit { remaining resetAt cost } }"


@pytest.fixture(autouse=True)
def _repo(fake):
    fake.repos[REPO] = make_prs(3, WEEK.start, WEEK.end, seed=9)


async def test_5xx_then_success_backs_off_with_jitter(fake, make_client, sleeps):
    fake.inject(status=502, times=2)
    client = make_client(backoff_base=1.0, backoff_max=60.0)
    data = await client.graphql(PROBE)
    assert data["rateLimit"]["remaining"] == client.rate.remaining
    assert [r.status for r in fake.log] == [502, 502, 200]
    assert client.requests == 3
    # Jittered exponential: random in [0, 1 * 2^n], never above the cap.
    assert len(sleeps.calls) == 2 and all(0 <= s <= 60 for s in sleeps.calls)


async def test_5xx_persisting_gives_up_after_max_retries(fake, make_client, sleeps):
    fake.inject(status=503, times=float("inf"))
    client = make_client(max_retries=2)
    with pytest.raises(GitHubUnavailable, match="after 3 attempts: GitHub answered 503"):
        await client.graphql(PROBE)
    assert len(fake.log) == 3 and len(sleeps.calls) == 2


async def test_timeout_then_success(fake, make_client, sleeps):
    fake.inject(delay=2.0, times=1)
    client = make_client(timeout=0.2)
    data = await client.graphql(PROBE)
    assert "rateLimit" in data
    assert len(fake.log) == 2 and len(sleeps.calls) == 1


async def test_timeouts_persisting_say_so(fake, make_client):
    fake.inject(delay=2.0, times=float("inf"))
    client = make_client(timeout=0.1, max_retries=1)
    with pytest.raises(GitHubUnavailable, match=r"no answer within 0\.1 s"):
        await client.graphql(PROBE)


async def test_secondary_limit_waits_retry_after(fake, make_client, sleeps):
    fake.inject(status=403, retry_after=37, message="You have exceeded a secondary rate limit")
    client = make_client()
    await client.graphql(PROBE)
    assert sleeps.calls == [37.0]
    assert [r.status for r in fake.log] == [403, 200]


async def test_429_waits_retry_after(fake, make_client, sleeps):
    fake.inject(status=429, retry_after=5, message="Too Many Requests")
    await make_client().rest(f"repos/{REPO}/pulls/{fake.repos[REPO][0].number}")
    assert sleeps.calls == [5.0]


async def test_secondary_limit_without_retry_after_waits_until_reset(fake, make_client, sleeps):
    fake.inject(status=403, remaining=12, reset_in=120, message="secondary rate limit")
    await make_client().graphql(PROBE)
    assert len(sleeps.calls) == 1 and 115 <= sleeps.calls[0] <= 121


async def test_secondary_limit_asking_too_long_a_wait_fails_clearly(fake, make_client, sleeps):
    fake.inject(status=429, retry_after=3600, message="Too Many Requests")
    with pytest.raises(RateLimitExhausted, match="asked to wait 60 min"):
        await make_client(max_wait=900).graphql(PROBE)
    assert sleeps.calls == []


async def test_exhausted_rate_limit_says_when_it_resets(fake, make_client, sleeps):
    fake.budgets["graphql"].remaining = 0
    reset = fake.budgets["graphql"].reset
    client = make_client()
    with pytest.raises(RateLimitExhausted, match=r"resets at \d\d:\d\d local time") as info:
        await client.graphql(PROBE)
    assert info.value.reset_at == reset
    # Known to be exhausted: the next call fails without bothering GitHub.
    with pytest.raises(RateLimitExhausted):
        await client.graphql(PROBE)
    assert len(fake.log) == 1 and sleeps.calls == []


async def test_exhausted_rest_limit_is_403_with_remaining_zero(fake, make_client):
    fake.budgets["anonymous"].remaining = 0
    client = make_client(token=None)
    with pytest.raises(RateLimitExhausted, match="Set GITHUB_TOKEN"):
        await client.rest(f"repos/{REPO}/pulls/1")


async def test_bad_token_is_401_with_a_hint_and_no_token_in_sight(fake, make_client):
    secret = "ghp_not_the_right_one_0123456789"
    client = make_client(token=secret)
    with pytest.raises(GitHubAuthError, match=r"401 Bad credentials.*GITHUB_TOKEN") as info:
        await client.graphql(PROBE)
    assert secret not in str(info.value) and secret not in repr(client)
    assert len(fake.log) == 1  # a 401 is not retried


async def test_graphql_errors_are_errors_not_empty_data(fake, make_client):
    fake.inject(graphql_errors=[{"message": "Something went wrong while executing your query."}])
    with pytest.raises(GitHubError, match="GitHub GraphQL error: Something went wrong"):
        await make_client().graphql(PROBE)


async def test_graphql_not_found_becomes_not_found(fake, make_client):
    source = GraphQLSource(make_client())
    with pytest.raises(NotFoundError, match="PR #1 not found"):
        await source.pull_request(REPO, 1)


async def test_invalid_document_is_rejected_by_the_fake(fake, make_client):
    with pytest.raises(GitHubError, match="Cannot query field"):
        await make_client().graphql("query { viewer { notAField } }")


async def test_connection_refused_is_unavailable_with_reason(sleeps):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    async with GitHubClient(
        token="t",
        api_url=f"http://127.0.0.1:{port}",
        graphql_url=f"http://127.0.0.1:{port}/graphql",
        max_retries=2,
        sleep=sleeps,
    ) as client:
        with pytest.raises(GitHubUnavailable, match=r"cannot reach 127\.0\.0\.1"):
            await client.graphql(PROBE)
    # Refused is answered at once: a retry seconds later meets the same refusal (issue 14).
    assert client.requests == 1 and len(sleeps.calls) == 0


async def test_rate_headers_are_read(fake, make_client):
    client = make_client()
    await client.graphql(PROBE)
    assert client.rate.remaining == 4999 and client.rate.limit == 5000
    assert abs(client.rate.reset_at - (time.time() + 3600)) < 120


# ------------------------------------------------------------ the lines in either language


async def test_a_github_error_is_worded_in_chinese_with_githubs_own_words(fake, make_client):
    fake.inject(status=422, message="Validation Failed", times=1)
    with pytest.raises(GitHubError) as caught:
        await make_client().rest(f"repos/{REPO}/pulls/1")
    assert str(caught.value) == "GitHub answered 422: Validation Failed"
    assert caught.value.message("zh") == "GitHub 返回 422：Validation Failed"


async def test_an_exhausted_limit_says_its_reset_in_chinese(fake, make_client):
    fake.budgets["graphql"].remaining = 0
    with pytest.raises(RateLimitExhausted) as caught:
        await make_client().graphql(PROBE)
    english, chinese = str(caught.value), caught.value.message("zh")
    assert english.startswith("GitHub graphql rate limit exhausted (0 of 5000 requests left)")
    assert chinese.startswith("GitHub graphql 调用额度已用完（剩余 0/5000 次）；将于本地时间 ")
    # The reset's clock time is the same in both lines.
    clock = english.split("resets at ")[1][:5]
    assert f"本地时间 {clock}（" in chinese


async def test_several_graphql_errors_are_counted_in_either_language(fake, make_client):
    errors = [{"message": "first problem"}, {"message": "second"}, {"message": "third"}]
    fake.inject(graphql_errors=errors)
    with pytest.raises(GitHubError) as caught:
        await make_client().graphql(PROBE)
    assert str(caught.value) == "GitHub GraphQL error: first problem (and 2 more)"
    assert caught.value.message("zh") == "GitHub `GraphQL` 出错：first problem（另有 2 条）"


async def test_a_missing_pr_is_named_in_either_language(fake, make_client):
    source = GraphQLSource(make_client())
    with pytest.raises(NotFoundError) as caught:
        await source.pull_request(REPO, 12345)
    assert str(caught.value) == f"PR #12345 not found in {REPO}"
    assert caught.value.message("zh") == f"{REPO} 中找不到 PR #12345"


async def test_github_down_is_worded_in_chinese_to_the_reason(fake, make_client):
    fake.inject(status=503, times=10)
    with pytest.raises(GitHubUnavailable) as caught:
        await make_client(max_retries=1).graphql(PROBE)
    assert str(caught.value) == (
        "GitHub unavailable after 2 attempts: GitHub answered 503 Service Unavailable"
    )
    assert (
        caught.value.message("zh")
        == "尝试 2 次后 GitHub 仍不可用：GitHub 返回 503 Service Unavailable"
    )
