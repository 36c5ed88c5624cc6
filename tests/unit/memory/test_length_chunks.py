"""How a batch of texts is cut into forward passes: similar lengths together, padding bounded."""

from __future__ import annotations

from squirrel_memory.embedding.minilm import BATCH_SIZE, CHUNK_TOKENS, length_chunks


def test_short_texts_share_a_pass_and_long_ones_go_alone() -> None:
    lengths = [4, 6, 5, 256, 200, 40]
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    chunks = length_chunks(order, lengths)
    assert [row for chunk in chunks for row in chunk] == order
    assert chunks[0] == [0, 2, 1, 5]
    assert chunks[-2:] == [[4], [3]]
    for chunk in chunks:
        assert len(chunk) == 1 or len(chunk) * max(lengths[r] for r in chunk) <= CHUNK_TOKENS


def test_a_chunk_never_exceeds_the_batch_size() -> None:
    lengths = [1] * (BATCH_SIZE * 2 + 3)
    chunks = length_chunks(list(range(len(lengths))), lengths)
    assert [len(c) for c in chunks] == [BATCH_SIZE, BATCH_SIZE, 3]
    assert length_chunks([], []) == []
