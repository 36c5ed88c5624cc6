"""The language and ecosystem a code file's extension names (`.kt` → Kotlin, jvm).

One table for what a repository's tracked files are written in (`repository.languages`) and for
the ecosystem a session's edited files vote for (`extractors.evidence.attempts`).
"""

from __future__ import annotations

import posixpath
from typing import Final

#: Extension → (language, ecosystem in the command table's names, or "" for markup and styles).
EXTENSIONS: Final[dict[str, tuple[str, str]]] = {
    ".py": ("Python", "python"),
    ".pyi": ("Python", "python"),
    ".js": ("JavaScript", "javascript"),
    ".jsx": ("JavaScript", "javascript"),
    ".mjs": ("JavaScript", "javascript"),
    ".cjs": ("JavaScript", "javascript"),
    ".ts": ("TypeScript", "javascript"),
    ".tsx": ("TypeScript", "javascript"),
    ".mts": ("TypeScript", "javascript"),
    ".vue": ("Vue", "javascript"),
    ".svelte": ("Svelte", "javascript"),
    ".go": ("Go", "go"),
    ".rs": ("Rust", "rust"),
    ".ex": ("Elixir", "elixir"),
    ".exs": ("Elixir", "elixir"),
    ".heex": ("HEEx", "elixir"),
    ".leex": ("HEEx", "elixir"),
    ".erl": ("Erlang", "erlang"),
    ".hrl": ("Erlang", "erlang"),
    ".gleam": ("Gleam", "gleam"),
    ".clj": ("Clojure", "clojure"),
    ".cljs": ("Clojure", "clojure"),
    ".cljc": ("Clojure", "clojure"),
    ".rb": ("Ruby", "ruby"),
    ".rake": ("Ruby", "ruby"),
    ".erb": ("ERB", "ruby"),
    ".php": ("PHP", "php"),
    ".java": ("Java", "jvm"),
    ".kt": ("Kotlin", "jvm"),
    ".kts": ("Kotlin", "jvm"),
    ".scala": ("Scala", "jvm"),
    ".sc": ("Scala", "jvm"),
    ".groovy": ("Groovy", "jvm"),
    ".cs": ("C#", "dotnet"),
    ".fs": ("F#", "dotnet"),
    ".fsx": ("F#", "dotnet"),
    ".vb": ("Visual Basic", "dotnet"),
    ".swift": ("Swift", "swift"),
    ".c": ("C", "c"),
    ".h": ("C", "c"),
    ".cc": ("C++", "c"),
    ".cpp": ("C++", "c"),
    ".cxx": ("C++", "c"),
    ".hpp": ("C++", "c"),
    ".hh": ("C++", "c"),
    ".dart": ("Dart", "dart"),
    ".zig": ("Zig", "zig"),
    ".lua": ("Lua", "lua"),
    ".hs": ("Haskell", "haskell"),
    ".lhs": ("Haskell", "haskell"),
    ".ml": ("OCaml", "ocaml"),
    ".mli": ("OCaml", "ocaml"),
    ".r": ("R", "r"),
    ".jl": ("Julia", "julia"),
    ".pl": ("Perl", "perl"),
    ".pm": ("Perl", "perl"),
    ".cr": ("Crystal", "crystal"),
    ".nim": ("Nim", "nim"),
    ".elm": ("Elm", "elm"),
    ".tf": ("HCL", "terraform"),
    ".nix": ("Nix", "nix"),
    ".sh": ("Shell", ""),
    ".bash": ("Shell", ""),
    ".sql": ("SQL", ""),
    ".css": ("CSS", ""),
    ".scss": ("SCSS", ""),
    ".sass": ("SCSS", ""),
    ".less": ("Less", ""),
    ".html": ("HTML", ""),
}


#: Suffixes two languages of different ecosystems share (Perl or Prolog, Objective-C or MATLAB,
#: Verilog or Coq): a file's suffix alone names no ecosystem for them.
TWO_ECOSYSTEM_SUFFIXES: Final = frozenset({".pl", ".m", ".v"})


def language_of(path: str) -> tuple[str, str] | None:
    """(language, ecosystem) of a file by its extension, or None for non-code files."""
    return EXTENSIONS.get(posixpath.splitext(path)[1].lower())


def path_ecosystem(path: str) -> str | None:
    """The ecosystem a code file's extension belongs to (`.kt` → jvm), or None (markup too, and a
    suffix two ecosystems share)."""
    if posixpath.splitext(path)[1].lower() in TWO_ECOSYSTEM_SUFFIXES:
        return None
    found = language_of(path)
    if found is None or not found[1]:
        return None
    return found[1]
