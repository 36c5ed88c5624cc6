"""Keyed writes run once per project and key, on a real SQLite store: concurrent retries in
one process share the first call's reply, a caller that gives up does not stop the write, a
retry on another server while the first runs is told to come back, a failure keeps nothing."""

from __future__ import annotations

import asyncio

import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.errors import InvalidArgumentError, NotFoundError, UnavailableError
from squirrel_memory.storage import Store
from squirrel_memory.user_memories.keyed_writes import KeyedWrites, fingerprint


class Write:
    """A write that waits for `go`, counts its runs and answers its run number."""

    def __init__(self, *, fail: bool = False) -> None:
        self.go = asyncio.Event()
        self.started = asyncio.Event()
        self.runs = 0
        self.fail = fail

    async def __call__(self) -> pb.ForgetResponse:
        self.runs += 1
        self.started.set()
        await self.go.wait()
        if self.fail:
            raise NotFoundError("no memory mem_x")
        return pb.ForgetResponse(memory=memory_pb2.MemoryItem(memory_id=f"run-{self.runs}"))


def _writes(store: Store) -> KeyedWrites:
    async def store_of(project_id: str) -> Store:
        assert project_id == store.project_id
        return store

    return KeyedWrites(store_of)


async def _run(keyed: KeyedWrites, store: Store, key: str, write: Write) -> pb.ForgetResponse:
    request = pb.ForgetRequest(project_id=store.project_id, memory_id="m", idempotency_key=key)
    return await keyed.run(
        store.project_id,
        key,
        method="Forget",
        user="alice",
        request=request,
        reply_type=pb.ForgetResponse,
        write=write,
    )


async def test_a_retry_while_the_first_call_runs_here_gets_its_reply(store: Store) -> None:
    keyed, write = _writes(store), Write()
    first = asyncio.create_task(_run(keyed, store, "k", write))
    await write.started.wait()
    second = asyncio.create_task(_run(keyed, store, "k", write))
    write.go.set()
    replies = await asyncio.gather(first, second)
    assert [r.memory.memory_id for r in replies] == ["run-1", "run-1"]
    assert write.runs == 1


async def test_a_caller_that_gives_up_does_not_stop_the_write(store: Store) -> None:
    keyed, write = _writes(store), Write()
    first = asyncio.create_task(_run(keyed, store, "k", write))
    await write.started.wait()
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    write.go.set()
    again = await _run(keyed, store, "k", write)
    assert again.memory.memory_id == "run-1" and write.runs == 1


async def test_another_server_is_told_to_retry_while_the_first_call_runs(store: Store) -> None:
    here, elsewhere, write = _writes(store), _writes(store), Write()
    first = asyncio.create_task(_run(here, store, "k", write))
    await write.started.wait()
    with pytest.raises(UnavailableError):
        await _run(elsewhere, store, "k", Write())
    write.go.set()
    await first
    assert (await _run(elsewhere, store, "k", Write())).memory.memory_id == "run-1"


async def test_a_failed_write_keeps_nothing_and_runs_again(store: Store) -> None:
    keyed, failing = _writes(store), Write(fail=True)
    failing.go.set()
    with pytest.raises(NotFoundError):
        await _run(keyed, store, "k", failing)
    working = Write()
    working.go.set()
    assert (await _run(keyed, store, "k", working)).memory.memory_id == "run-1"


async def test_without_a_key_every_call_writes(store: Store) -> None:
    keyed, write = _writes(store), Write()
    write.go.set()
    replies = [await _run(keyed, store, "", write) for _ in range(2)]
    assert [r.memory.memory_id for r in replies] == ["run-1", "run-2"]


async def test_the_same_key_from_another_user_is_refused(store: Store) -> None:
    keyed, write = _writes(store), Write()
    write.go.set()
    await _run(keyed, store, "k", write)
    request = pb.ForgetRequest(project_id=store.project_id, memory_id="m", idempotency_key="k")
    with pytest.raises(InvalidArgumentError):
        await keyed.run(
            store.project_id,
            "k",
            method="Forget",
            user="mallory",
            request=request,
            reply_type=pb.ForgetResponse,
            write=write,
        )
    assert write.runs == 1


def test_a_fingerprint_tells_methods_users_and_requests_apart() -> None:
    request = pb.ForgetRequest(project_id="p", memory_id="m", idempotency_key="k")
    other = pb.ForgetRequest(project_id="p", memory_id="n", idempotency_key="k")
    base = fingerprint("Forget", "alice", request)
    assert base == fingerprint(
        "Forget", "alice", pb.ForgetRequest.FromString(request.SerializeToString())
    )
    assert (
        len(
            {
                base,
                fingerprint("Remember", "alice", request),
                fingerprint("Forget", "bob", request),
                fingerprint("Forget", "alice", other),
            }
        )
        == 4
    )
