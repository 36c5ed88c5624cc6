"""gRPC's C core kept from writing its own lines on the user's terminal, in `sqrl` only.

The C core writes log lines of its own to descriptor 2: a TLS handshake a team server refused
printed "I1201 15:31:22.79 … ssl_transport_security.cc:2563] Handshake failed with error
SSL_ERROR_SSL …" above `sqrl team join`'s own one-line error. The C core reads
`GRPC_VERBOSITY` once, as grpc is imported; so when grpc is first imported in this process the
variable is `NONE` for that import and removed again at once: nothing `sqrl` starts (the
services, whose C-core lines become JSON events in their logs; pip; an assistant's CLI) inherits
it, and a `GRPC_VERBOSITY` the user set is left as it is. grpc stays imported only where a
command needs it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Final

VARIABLE: Final = "GRPC_VERBOSITY"


class _QuietLoader(Loader):
    """grpc's own loader, run with the variable set."""

    def __init__(self, inner: Loader) -> None:
        self._inner = inner

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        os.environ[VARIABLE] = "NONE"
        try:
            self._inner.exec_module(module)
        finally:
            os.environ.pop(VARIABLE, None)


class _QuietFinder(MetaPathFinder):
    """Finds grpc once (then leaves `sys.meta_path`), giving it the quiet loader."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != "grpc":
            return None
        remove_finder()
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or VARIABLE in os.environ:
            return spec
        spec.loader = _QuietLoader(spec.loader)
        return spec


_FINDER: Final = _QuietFinder()


def quiet_grpc() -> None:
    """In this process, import grpc (whenever a command first does) with the C core's own lines
    off; nothing when grpc is already imported or the user set `GRPC_VERBOSITY`."""
    if "grpc" in sys.modules or VARIABLE in os.environ or _FINDER in sys.meta_path:
        return
    sys.meta_path.insert(0, _FINDER)


def remove_finder() -> None:
    """Stop watching for grpc's import (it happened, or the process no longer wants it)."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
