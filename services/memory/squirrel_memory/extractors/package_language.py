"""Whether the root `package.json` a session read says its code is TypeScript.

A `package.json` is the manifest of JavaScript and TypeScript alike. Where the session shows
no code file, the manifest's own text may still say which: a `typescript` dependency, `tsc` run
by a script, or a `.ts` / `.tsx` / `.mts` / `.cts` file it names (an entry point, a script's
argument). A declaration file (`.d.ts`) does not count: a JavaScript package may ship typings
written by hand. The same text read in a sub-folder or a dependency (`node_modules/x/…`) is not
the project's.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.about import last_root_reads
from squirrel_memory.extractors.printed_manifests import printed_package_json
from squirrel_memory.models import StoredEvent

#: What in a `package.json` says the code is TypeScript.
_TYPESCRIPT = re.compile(
    r'"typescript"\s*:|\btsc\b|[\w/.-](?<!\.d)\.(?:ts|tsx|mts|cts)(?=["\s])',
)


def names_typescript(text: str) -> bool:
    """Whether a `package.json` text names TypeScript (module docstring)."""
    return bool(_TYPESCRIPT.search(text))


def package_json_typescript(events: list[StoredEvent]) -> bool:
    """Whether the last root `package.json` the session read, or printed among other output
    (`printed_manifests`), says its code is TypeScript."""
    read = last_root_reads(events, lambda path: path == "package.json").get("package.json")
    if read is not None:
        return names_typescript(read[1])
    printed = printed_package_json(events)
    return bool(printed) and names_typescript(printed[-1][2])
