"""High-entropy runs: long random-looking tokens that no specific redaction rule caught.

Every maximal run of 32 or more base64/base64url/hex-ish characters is a candidate; hashes, ids,
paths, identifiers made of words and runs without digits are kept, the rest is replaced (its
value only, after a `key=` or `--flag=`). `redaction.redact` runs it last.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from typing import Final

# High-entropy runs: long base64/base64url/hex-ish tokens that no specific rule caught.
_CANDIDATE_CHARS: Final = string.ascii_letters + string.digits + "+/_=.-"
CANDIDATE: Final = re.compile(r"[A-Za-z0-9+/_=.-]{32,}")
# Text mapped to one byte per character: "a" for a candidate character, " " otherwise.
_CANDIDATE_MAP: Final = bytes(
    ord("a") if chr(byte) in _CANDIDATE_CHARS else ord(" ") for byte in range(256)
)
_HEX_LIKE: Final = re.compile(r"[0-9a-fA-F-]+")
_SEPARATOR: Final = re.compile(r"[-_/.]")
_WORD: Final = re.compile(r"[A-Z]?[a-z]{3,}")
_ID_PREFIXES: Final = (
    "toolu_", "srvtoolu_", "msg_", "req_", "call_", "resp_", "fc_", "rs_", "chatcmpl-", "file_",
    "batch_", "run_", "thread_", "asst_", "sha256-", "sha512-", "sha1-",
)  # fmt: skip
_DATA_LABELS: Final = ("base64,", "h1:", "sha256:", "sha384:", "sha512:", "sha1:", "md5:")
"""What comes just before encoded data or a digest, never before a secret."""
MIN_ENTROPY_LEN: Final = 32
_RUN: Final = b"a" * MIN_ENTROPY_LEN
_ENTROPY_BITS: Final = 3.8
_MAX_WORD_COVERAGE: Final = 0.5
_MIN_DIGIT_SHARE: Final = 0.15
_MIN_PIECE: Final = 16
_ENTROPY_SAMPLE: Final = 4096


def shannon_entropy(text: str) -> float:
    """Bits per character of `text` (0.0 for empty text)."""
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def looks_random(token: str) -> bool:
    """True when `token` looks like a random secret rather than a hash, id, path or identifier.

    Pure hex (git SHAs, digests, UUIDs) is never flagged; neither are dotted or slashed paths made
    of short pieces, identifiers built from words, or runs without digits.
    """
    # Very long runs are judged on a prefix: a megabyte of base64 needs no full census.
    core = token[:_ENTROPY_SAMPLE].rstrip("=")
    if len(core) < MIN_ENTROPY_LEN or _HEX_LIKE.fullmatch(core):
        return False
    if core.startswith(_ID_PREFIXES) or core[0] in "/.~":
        return False
    long_pieces = [piece for piece in _SEPARATOR.split(core) if len(piece) >= _MIN_PIECE]
    if not long_pieces or all(_HEX_LIKE.fullmatch(piece) for piece in long_pieces):
        return False  # short words joined up, or hashes with a prefix (`sha256.…`, `z_<hex>_x`)
    digits = sum(ch.isdigit() for ch in core)
    if digits == 0:
        return False
    has_upper = any(ch.isupper() for ch in core)
    has_lower = any(ch.islower() for ch in core)
    if has_upper and has_lower:
        covered = sum(len(m.group()) for m in _WORD.finditer(core))
        if covered / len(core) > _MAX_WORD_COVERAGE:
            return False
    elif digits / len(core) < _MIN_DIGIT_SHARE:
        return False
    return shannon_entropy(core) >= _ENTROPY_BITS


def candidate_spans(text: str) -> list[tuple[int, int]]:
    """Where `CANDIDATE` matches in `text`: every maximal run of 32 or more of its characters.

    The text is mapped to a byte per character and the runs are found with `bytes.find`, which
    skips ahead instead of testing every character as the regex does.
    """
    # Every other character becomes one "?" (not a candidate character): indexes stay aligned.
    mapped = text.encode("ascii", "replace").translate(_CANDIDATE_MAP)
    spans: list[tuple[int, int]] = []
    start = mapped.find(_RUN)
    while start != -1:
        end = mapped.find(b" ", start + MIN_ENTROPY_LEN)
        if end == -1:
            spans.append((start, len(mapped)))
            break
        spans.append((start, end))
        start = mapped.find(_RUN, end)
    return spans


def _entropy_replacement(text: str, start: int, end: int, mark: str) -> str | None:
    """What replaces the high-entropy candidate `text[start:end]` (its value by `mark`), or
    None when it is kept."""
    token = text[start:end]
    before = text[max(0, start - 8) : start]
    if before.endswith(_DATA_LABELS):
        return None  # inline data (`data:image/png;base64,…`) or a labelled digest
    # `--flag=value` or `key=value`: judge (and replace) only the value.
    split = token.rstrip("=").rfind("=") + 1
    if not looks_random(token[split:]):
        return None
    return token[:split] + mark


def entropy_redacted(text: str, mark: str) -> tuple[str, int]:
    """`text` with its random-looking runs replaced by `mark`, and how many were."""
    pieces: list[str] = []
    position = 0
    for start, end in candidate_spans(text):
        replacement = _entropy_replacement(text, start, end, mark)
        if replacement is not None:
            pieces.append(text[position:start])
            pieces.append(replacement)
            position = end
    if not pieces:
        return text, 0
    pieces.append(text[position:])
    return "".join(pieces), len(pieces) // 2
