"""Short handles for memories, as git shortens commit hashes.

Memory ids are monotonic ULIDs (`mem_01JD4…`): memories written in one burst differ only in
their last characters, so no short prefix of an id tells them apart. A memory's handle is instead
drawn from a hash of its full id — `mem_` and at least `MIN_HANDLE` characters of the digest,
more only where two memories of the project would otherwise share one. A user may type the
handle, any unique prefix of it (`mem_` may be left out), or the full id.

Only the standard library is imported here: the CLI's fast path prints handles too.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable
from typing import Final

ID_PREFIX: Final = "mem_"
#: A handle shows at least this many digest characters after `mem_`.
MIN_HANDLE: Final = 8
#: As with git, a handle may be shortened to this many characters when typed, if still unique.
MIN_TYPED: Final = 4
#: Crockford's base32 in lower case: no i, l, o or u, so a handle is easy to read and type.
_ALPHABET: Final = "0123456789abcdefghjkmnpqrstvwxyz"


def digest(memory_id: str) -> str:
    """The characters a handle of `memory_id` is taken from: sha256 of the id in base32 (52)."""
    number = int.from_bytes(hashlib.sha256(memory_id.encode()).digest(), "big")
    out = []
    for _ in range(52):  # 52 * 5 = 260 bits >= 256
        number, rest = divmod(number, 32)
        out.append(_ALPHABET[rest])
    return "".join(out)


def handles(memory_ids: Iterable[str], *, minimum: int = MIN_HANDLE) -> dict[str, str]:
    """Each id's handle: `mem_` and the shortest digest prefix (at least `minimum` characters)
    that no other id of `memory_ids` shares."""
    digests = {memory_id: digest(memory_id) for memory_id in set(memory_ids)}
    ordered = sorted(digests.items(), key=lambda pair: pair[1])
    lengths = dict.fromkeys(digests, minimum)
    # In sorted order an id's nearest digests are its neighbours: it needs one character more than
    # it shares with either of them.
    for (left_id, left), (right_id, right) in itertools.pairwise(ordered):
        shared = _common(left, right)
        lengths[left_id] = max(lengths[left_id], shared + 1)
        lengths[right_id] = max(lengths[right_id], shared + 1)
    return {
        memory_id: ID_PREFIX + text[: lengths[memory_id]] for memory_id, text in digests.items()
    }


def matching(text: str, memory_ids: Iterable[str]) -> list[str]:
    """The ids whose handle starts with `text` (`mem_` optional, any case), sorted; none for
    text shorter than `MIN_TYPED` digest characters, or text that is no handle at all."""
    wanted = text.lower().removeprefix(ID_PREFIX)
    if len(wanted) < MIN_TYPED or any(c not in _ALPHABET for c in wanted):
        return []
    return sorted(m for m in memory_ids if digest(m).startswith(wanted))


def _common(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


__all__ = ["ID_PREFIX", "MIN_HANDLE", "MIN_TYPED", "digest", "handles", "matching"]
