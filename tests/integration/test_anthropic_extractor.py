"""The Anthropic extractor and LLM update decider against a local fake Messages API."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import anthropic
import pytest
from fake_anthropic import (
    CannedReply,
    FakeAnthropicServer,
    error_reply,
    text_reply,
    tool_use_reply,
)

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.anthropic import AnthropicExtractor
from squirrel_memory.extractors.base import (
    PermanentExtractionError,
    RetryableExtractionError,
)
from squirrel_memory.extractors.prompts import EXTRACTION_TOOL_NAME, UPDATE_TOOL_NAME
from squirrel_memory.llm.anthropic_caller import AnthropicCaller
from squirrel_memory.llm.spending import BudgetExceededError, LlmBudget
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    StoredEvent,
    UpdateAction,
)
from squirrel_memory.updates.llm import LlmUpdateDecider

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PROJECT = "/home/dev/shop"


def _event(n: int, kind: str, content: dict[str, Any], paths: tuple[str, ...] = ()) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n:03d}",
        project_id=PROJECT,
        user_id="dev",
        source_tool="claude_code",
        session_id="s1",
        timestamp=T0 + timedelta(seconds=30 * n),
        event_type=kind,
        content=content,
        file_paths=paths,
        hash=f"h{n}",
    )


def _episode_events() -> tuple[Episode, list[StoredEvent]]:
    events = [
        _event(1, "user_message", {"text": "Add a delete endpoint. Always use async handlers."}),
        _event(2, "tool_call", {"tool": "Edit", "tool_use_id": "t1", "input": {}}, ("app/api.py",)),
        _event(3, "code_change", {"tool": "Edit", "tool_use_id": "t1", "path": "app/api.py"}),
        _event(
            4,
            "test_run",
            {"command": "uv run pytest", "tool_use_id": "t2", "exit_code": 0, "output": "ok"},
        ),
    ]
    (episode,) = segment_episodes(events, now=T0)
    return episode, events


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    fake = FakeAnthropicServer()
    fake.start()
    yield fake
    fake.stop()


@pytest.fixture
async def client(server: FakeAnthropicServer) -> AsyncIterator[anthropic.AsyncAnthropic]:
    sdk = anthropic.AsyncAnthropic(api_key="test-key", base_url=server.base_url, max_retries=0)
    yield sdk
    await sdk.close()


def _budget(calls: int = 100, tokens: int = 1_000_000) -> LlmBudget:
    return LlmBudget(calls_per_hour=calls, tokens_per_day=tokens, clock=lambda: 1000.0)


def _extractor(client: anthropic.AsyncAnthropic, budget: LlmBudget) -> AnthropicExtractor:
    return AnthropicExtractor(client, model="claude-test", max_tokens=777, budget=budget)


MEMORY = {
    "type": "user_style",
    "key": "pref:async",
    "content": "Prefers async handlers for I/O.",
    "tags": ["Python", "async"],
    "importance": 0.9,
    "scope": "user",
    "source_event_ids": ["e1"],
}


async def test_extract_sends_the_forced_tool_request_and_maps_refs_to_event_ids(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    episode, events = _episode_events()
    server.queue(tool_use_reply(EXTRACTION_TOOL_NAME, {"memories": [MEMORY]}))

    candidates = await _extractor(client, _budget()).extract(episode, events)

    assert candidates == [
        MemoryCandidate(
            type=MemoryType.USER_STYLE,
            key="pref:async",
            content="Prefers async handlers for I/O.",
            tags=("python", "async"),
            importance=0.9,
            source_episode_id=episode.id,
            source_event_ids=("evt_001",),
            scope=Scope.USER,
            written_by="anthropic:claude-test",
        )
    ]
    (request,) = server.requests
    body = request["body"]
    assert request["path"] == "/v1/messages"
    assert body["model"] == "claude-test"
    assert body["max_tokens"] == 777
    assert body["tool_choice"] == {"type": "tool", "name": EXTRACTION_TOOL_NAME}
    assert body["tools"][0]["name"] == EXTRACTION_TOOL_NAME
    assert "user_style" in body["system"]
    user_turn = body["messages"][0]["content"]
    assert "[e1] user (typed): Add a delete endpoint" in user_turn
    assert "uv run pytest" in user_turn
    sent = server.headers[0]
    assert "test-key" in sent.get("x-api-key", "") + sent.get("authorization", "")


async def test_unusable_memories_are_dropped_and_unknown_refs_credit_the_whole_episode(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    episode, events = _episode_events()
    memories = [
        {**MEMORY, "type": "gossip"},
        {**MEMORY, "content": "   "},
        {**MEMORY, "key": 42},
        "not an object",
        {**MEMORY, "importance": 7, "source_event_ids": ["e99", "evt_nope"], "tags": "x"},
    ]
    server.queue(tool_use_reply(EXTRACTION_TOOL_NAME, {"memories": memories}))

    (candidate,) = await _extractor(client, _budget()).extract(episode, events)

    assert candidate.importance == 1.0
    assert candidate.tags == ()
    assert set(candidate.source_event_ids) <= set(episode.event_ids)
    assert candidate.source_event_ids


async def test_reply_without_the_tool_call_is_a_permanent_error(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    episode, events = _episode_events()
    server.queue(text_reply("Here are some memories…"))

    with pytest.raises(PermanentExtractionError):
        await _extractor(client, _budget()).extract(episode, events)


async def test_tool_input_without_a_memories_list_is_a_permanent_error(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    episode, events = _episode_events()
    server.queue(tool_use_reply(EXTRACTION_TOOL_NAME, {"memories": "none"}))

    with pytest.raises(PermanentExtractionError):
        await _extractor(client, _budget()).extract(episode, events)


@pytest.mark.parametrize(
    ("reply", "retryable"),
    [
        (error_reply(429, "rate_limit_error", {"retry-after": "17"}), True),
        (error_reply(500, "api_error"), True),
        (error_reply(529, "overloaded_error"), True),
        (error_reply(400, "invalid_request_error"), False),
        (error_reply(401, "authentication_error"), False),
        (error_reply(403, "permission_error"), False),
    ],
)
async def test_api_errors_map_to_retryable_or_permanent(
    server: FakeAnthropicServer,
    client: anthropic.AsyncAnthropic,
    reply: CannedReply,
    retryable: bool,
) -> None:
    episode, events = _episode_events()
    server.queue(reply)
    expected = RetryableExtractionError if retryable else PermanentExtractionError

    with pytest.raises(expected) as caught:
        await _extractor(client, _budget()).extract(episode, events)

    assert caught.value.retryable is retryable
    if reply.status == 429:
        assert caught.value.retry_after == 17.0


async def test_unreachable_api_is_retryable() -> None:
    fake = FakeAnthropicServer()
    fake.start()
    base_url = fake.base_url
    fake.stop()
    episode, events = _episode_events()
    sdk = anthropic.AsyncAnthropic(api_key="k", base_url=base_url, max_retries=0, timeout=5)
    try:
        with pytest.raises(RetryableExtractionError):
            await _extractor(sdk, _budget()).extract(episode, events)
    finally:
        await sdk.close()


async def test_hourly_call_cap_stops_calls_before_they_reach_the_api(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    episode, events = _episode_events()
    server.queue(tool_use_reply(EXTRACTION_TOOL_NAME, {"memories": []}))
    extractor = _extractor(client, _budget(calls=1))
    assert await extractor.extract(episode, events) == []

    with pytest.raises(BudgetExceededError) as caught:
        await extractor.extract(episode, events)

    assert caught.value.retryable
    assert len(server.requests) == 1


async def test_daily_token_cap_counts_the_tokens_the_api_reports(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    episode, events = _episode_events()
    budget = _budget(tokens=20_000)
    server.queue(
        tool_use_reply(
            EXTRACTION_TOOL_NAME, {"memories": []}, input_tokens=15_000, output_tokens=4_000
        )
    )
    extractor = _extractor(client, budget)
    await extractor.extract(episode, events)
    assert budget.tokens_in_last_day() == 19_000

    with pytest.raises(BudgetExceededError):
        await extractor.extract(episode, events)
    assert len(server.requests) == 1


def _item(item_id: str, content: str, source: MemorySource = MemorySource.RULES) -> MemoryItem:
    return MemoryItem(
        id=item_id,
        project_id=PROJECT,
        user_id="dev",
        scope=Scope.USER,
        type=MemoryType.USER_STYLE,
        key="pref:testing",
        content=content,
        tags=("testing",),
        importance=0.6,
        created_at=T0,
        updated_at=T0,
        source=source,
    )


CANDIDATE = MemoryCandidate(
    type=MemoryType.USER_STYLE,
    key="pref:testing",
    content="Uses pytest with fixtures.",
    tags=("testing",),
    importance=0.7,
)


async def test_llm_update_decision_names_the_target_by_ref(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    server.queue(
        tool_use_reply(
            UPDATE_TOOL_NAME,
            {
                "action": "UPDATE_EXISTING",
                "target_id": "m2",
                "merged_content": "Uses pytest, with fixtures for setup.",
                "reason": "refines",
            },
        )
    )
    decider = LlmUpdateDecider(AnthropicCaller(client, model="claude-test", budget=_budget()))
    existing = [_item("mem_a", "Writes docstrings."), _item("mem_b", "Uses pytest.")]

    decision = await decider.decide(CANDIDATE, existing)

    assert decision.action == UpdateAction.UPDATE_EXISTING
    assert decision.target_id == "mem_b"
    assert decision.merged_content == "Uses pytest, with fixtures for setup."
    assert decision.extra["decided_by"] == "llm"
    body = server.requests[0]["body"]
    assert body["tool_choice"] == {"type": "tool", "name": UPDATE_TOOL_NAME}
    assert "[m2]" in body["messages"][0]["content"]


async def test_llm_update_falls_back_to_rules_when_the_api_fails(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    server.queue(error_reply(503, "api_error"))
    decider = LlmUpdateDecider(AnthropicCaller(client, model="claude-test", budget=_budget()))

    decision = await decider.decide(CANDIDATE, [_item("mem_b", "Uses pytest with fixtures.")])

    assert decision.action == UpdateAction.NOOP
    assert decision.extra["fallback"] == "RetryableExtractionError"


async def test_llm_update_may_not_delete_a_manual_memory(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    server.queue(
        tool_use_reply(
            UPDATE_TOOL_NAME, {"action": "DELETE_AND_ADD", "target_id": "m1", "reason": "new"}
        )
    )
    decider = LlmUpdateDecider(AnthropicCaller(client, model="claude-test", budget=_budget()))
    manual = _item("mem_m", "Uses unittest.", MemorySource.MANUAL)

    decision = await decider.decide(CANDIDATE, [manual])

    assert decision.action in (UpdateAction.NOOP, UpdateAction.ADD_NEW)
    assert decision.extra["fallback"] == "invalid_decision"


async def test_llm_update_without_existing_memories_adds_without_calling(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    decider = LlmUpdateDecider(AnthropicCaller(client, model="claude-test", budget=_budget()))

    decision = await decider.decide(CANDIDATE, [])

    assert decision.action == UpdateAction.ADD_NEW
    assert server.requests == []


async def test_huge_episodes_are_sent_within_the_context_cap(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    events = [
        _event(n, "user_message" if n % 2 else "assistant_response", {"text": "x" * 1_000_000})
        for n in range(1, 400)
    ]
    (episode,) = segment_episodes(events, now=T0)
    server.queue(tool_use_reply(EXTRACTION_TOOL_NAME, {"memories": []}))
    extractor = AnthropicExtractor(
        client, model="claude-test", budget=_budget(), max_context_chars=5_000
    )

    await extractor.extract(episode, events)

    user_turn = server.requests[0]["body"]["messages"][0]["content"]
    assert len(user_turn) < 5_000 + 1_000
    assert "[e1] user (typed): xxx" in user_turn
    assert "assistant:" not in user_turn


async def test_episode_with_nothing_to_show_makes_no_call(
    server: FakeAnthropicServer, client: anthropic.AsyncAnthropic
) -> None:
    events = [_event(n, "tool_result", {"output": "ok", "is_error": False}) for n in range(1, 4)]
    (episode,) = segment_episodes(events, now=T0)

    assert await _extractor(client, _budget()).extract(episode, events) == []
    assert server.requests == []
