"""The page tokens of a list of memories: what the memory service issues reads back, and what
it never issued is refused (by the service and, before asking it, by `sqrl memories`)."""

from __future__ import annotations

import base64

import pytest

from squirrel_core.list_pages import list_page_offset, list_page_token


@pytest.mark.parametrize("offset", [0, 1, 50, 10**9])
def test_an_issued_token_reads_back_its_offset(offset: int) -> None:
    assert list_page_offset(list_page_token(offset)) == offset


def test_no_token_is_the_first_page() -> None:
    assert list_page_offset("") == 0


@pytest.mark.parametrize("inner", [b"o:-1", b"o:x", b"o:", b"o: 5", b"o:5_0", b"p:5", b"\xff"])
def test_a_token_no_service_issued_is_refused(inner: bytes) -> None:
    with pytest.raises(ValueError):
        list_page_offset(base64.urlsafe_b64encode(inner).decode())


@pytest.mark.parametrize("token", ["garbage", "abc==", "\u00e9t\u00e9"])
def test_text_that_is_no_token_is_refused(token: str) -> None:
    with pytest.raises(ValueError):
        list_page_offset(token)
