"""Page tokens and query fingerprints are the same strings as their JSON spelled by `json.dumps`
(a token an older service gave still reads), for any text a query, project or path can hold."""

from __future__ import annotations

import base64
import hashlib
import json
import random

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.models import MemoryType
from squirrel_memory.retrieval.page_tokens import (
    PAGE_TOKEN_VERSION,
    decode_page_token,
    encode_page_token,
    query_fingerprint,
)

ALPHABET = "ab Z09\"\\/\n\t\x00\x1f\x7fé中😀\ud800\udfff<>&'{}[],:"


def spelled_fingerprint(
    project_id: str, query: str, types: list[MemoryType] | None, scopes: list[str]
) -> str:
    """The fingerprint as it was first written: a digest of `json.dumps`."""
    material = json.dumps(
        [project_id, query, [str(t) for t in types or []], sorted(scopes)], ensure_ascii=True
    )
    return hashlib.sha256(material.encode("ascii")).hexdigest()[:24]


def spelled_token(offset: int, fingerprint: str) -> str:
    check = hashlib.sha256(f"{PAGE_TOKEN_VERSION}:{offset}:{fingerprint}".encode()).hexdigest()
    payload = {"v": PAGE_TOKEN_VERSION, "o": offset, "f": fingerprint, "c": check[:16]}
    raw = json.dumps(payload, separators=(",", ":")).encode("ascii")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 12)))


def test_fingerprints_are_the_digest_of_the_json_of_the_search() -> None:
    rng = random.Random(32)
    kinds = list(MemoryType)
    for _ in range(3000):
        types = rng.choice([None, [], rng.sample(kinds, rng.randrange(1, len(kinds) + 1))])
        scopes = [text(rng) for _ in range(rng.randrange(0, 4))]
        project, query = text(rng), text(rng)
        expected = spelled_fingerprint(project, query, types, scopes)
        assert query_fingerprint(project, query, types, scopes) == expected


@pytest.mark.parametrize("offset", [1, 2, 9, 10, 50, 99, 100])
def test_tokens_are_the_json_payload_as_before(offset: int) -> None:
    rng = random.Random(offset)
    for _ in range(200):
        fingerprint = query_fingerprint(text(rng), text(rng), None, [])
        token = encode_page_token(offset, fingerprint)
        assert token == spelled_token(offset, fingerprint)
        if offset <= 50:
            assert decode_page_token(token, fingerprint) == offset
    # a fingerprint that is not hex still gets its JSON (the general spelling)
    assert encode_page_token(5, 'x"é') == spelled_token(5, 'x"é')


def test_a_token_of_another_search_is_refused() -> None:
    token = encode_page_token(10, query_fingerprint("/p", "deploy", None, []))
    with pytest.raises(InvalidArgumentError):
        decode_page_token(token, query_fingerprint("/p", "deploy!", None, []))
