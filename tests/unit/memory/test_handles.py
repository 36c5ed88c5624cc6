"""Memory handles: short, unique in the project, not taken from the id's timestamp."""

from __future__ import annotations

import itertools

from squirrel_core.handles import MIN_HANDLE, MIN_TYPED, digest, handles, matching
from squirrel_memory.storage.formats import new_id


def _burst(count: int) -> list[str]:
    """Ids made as a repository reading makes them: one after another, mostly in one millisecond."""
    return [new_id("mem") for _ in range(count)]


def test_a_burst_of_ids_gets_distinct_short_handles() -> None:
    ids = _burst(500)
    assert len({i[:20] for i in ids}) < len(ids)  # the ids themselves share long prefixes
    shown = handles(ids)
    assert set(shown) == set(ids)
    assert len(set(shown.values())) == len(ids)
    assert all(len(h) - len("mem_") <= 12 for h in shown.values())


def test_every_handle_has_the_minimum_length_and_comes_from_the_digest() -> None:
    ids = _burst(50)
    for memory_id, handle in handles(ids).items():
        assert handle.startswith("mem_")
        assert len(handle) - len("mem_") >= MIN_HANDLE
        assert digest(memory_id).startswith(handle.removeprefix("mem_"))
        assert not memory_id.startswith(handle)  # not the timestamp


def test_a_handle_grows_where_two_digests_share_a_start() -> None:
    ids = _burst(3000)
    by_digest = sorted(ids, key=digest)
    a, b = min(
        itertools.pairwise(by_digest),
        key=lambda pair: -len(_common(digest(pair[0]), digest(pair[1]))),
    )
    shared = len(_common(digest(a), digest(b)))
    shown = handles([a, b], minimum=1)
    assert len(shown[a]) == len(shown[b]) == len("mem_") + shared + 1
    assert shown[a] != shown[b]
    # with a third, unrelated id the pair keeps its length and the other stays short
    other = next(i for i in ids if not _common(digest(i), digest(a)))
    shown = handles([a, b, other], minimum=1)
    assert len(shown[other]) == len("mem_") + 1


def test_the_handle_alone_stays_at_the_minimum() -> None:
    (only,) = _burst(1)
    assert handles([only]) == {only: "mem_" + digest(only)[:MIN_HANDLE]}


def test_a_handle_or_its_prefix_matches_its_id_and_nothing_shorter_than_four() -> None:
    ids = _burst(100)
    shown = handles(ids)
    for memory_id, handle in list(shown.items())[:20]:
        assert matching(handle, ids) == [memory_id]
        assert matching(handle.removeprefix("mem_").upper(), ids) == [memory_id]
    some = next(iter(shown.values()))
    assert len(matching(some[: len("mem_") + MIN_TYPED], ids)) >= 1  # short, as git allows
    assert matching(some[: len("mem_") + MIN_TYPED - 1], ids) == []
    assert matching("mem_01JD4LUO", ids) == []  # i, l, o, u: no handle


def _common(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]
