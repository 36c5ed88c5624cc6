"""A transcript line decodes to what `json.loads` gives (orjson first, `json` where it refuses)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from squirrel_ingest.parsers.records import _loads, decode_record

# Integers beyond 64 bits may come as doubles (orjson reads them so): what the memory service
# reads every number as anyway (`wire.content_from_json`), so the stored event is the same.
_WIDE = range(-(2**63), 2**64)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**60, max_value=2**70)
    | st.floats()
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)


def _as_memory_reads(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if value in _WIDE else float(value)
    if isinstance(value, dict):
        return {k: _as_memory_reads(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_memory_reads(v) for v in value]
    return value


def _same(a: Any, b: Any) -> bool:
    """Equal, in the same key order, with the same types (NaN equal to NaN, -0.0 not 0.0)."""
    return repr(a) == repr(b) and json.dumps(a) == json.dumps(b)


@given(json_values, st.booleans(), st.sampled_from(["", " ", "\r", "\t \r"]))
def test_a_line_decodes_as_json_loads_decodes_it(value: Any, ascii_only: bool, pad: str) -> None:
    line = (pad + json.dumps(value, ensure_ascii=ascii_only) + pad).encode("utf-8", "surrogatepass")
    try:
        expected = json.loads(line)
    except ValueError:
        assert _loads(line) is None
        return
    assert _same(_as_memory_reads(_loads(line)), _as_memory_reads(expected))


def test_what_orjson_refuses_is_read_by_json() -> None:
    cases = {
        b'{"a": NaN, "b": -Infinity}': "{'a': nan, 'b': -inf}",
        b'{"a": "\\ud800"}': "{'a': '\\ud800'}",  # a lone surrogate
        b'\xef\xbb\xbf{"a": 1}': "{'a': 1}",  # a byte-order mark
        b'{"a": 1' + b"0" * 400 + b"}": "{'a': 1" + "0" * 400 + "}",  # beyond a double
        b'{"a": 1, "a": 2, "b": 3}': "{'a': 2, 'b': 3}",
    }
    for line, expected in cases.items():
        assert repr(_loads(line)) == expected
    for bad in (b'{"a": "x\x01y"}', b'{"a": 1}x', b"[" * 3000 + b"]" * 3000, b'{"\xff": 1}', b""):
        assert _loads(bad) is None


def test_a_line_with_bytes_that_are_not_utf8_is_read_with_them_replaced() -> None:
    skipped: Counter[str] = Counter()
    line = b'{"type": "user", "text": "caf\xc3 au lait \xff"}'
    assert decode_record(line, skipped) == {"type": "user", "text": "caf\ufffd au lait \ufffd"}
    assert skipped == Counter({"invalid_utf8_replaced": 1})
    assert decode_record(b'{"type": "user", "text": "x"', skipped) is None  # still torn
    assert skipped["malformed_json"] == 1
