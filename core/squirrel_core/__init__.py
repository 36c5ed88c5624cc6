"""Squirrel common code: settings, logging, errors, auth, tokens, redaction, rpc."""

import os as _os

# gRPC's fork handlers run gRPC code in the child of every fork (its pollers restarted between
# fork and exec): a child of a process holding gRPC channels, such as `git` or a model's CLI,
# could die of it before its own program started. Squirrel only forks to exec, so the handlers
# are off unless the environment says otherwise. gRPC reads this once, when it is imported.
_os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
