"""What a module is: a unit of the project's own code, named by its language's layout.

Never a dependency, vendored, build, generated, configuration, asset or home folder, nor a
path outside the project (absolute, `~`, another worktree): `deps/`, `node_modules/`,
`vendor/`, `_build/`, `target/`, `.venv/`, `priv/`, `config/`, `assets/`, `public/` … are
left out wherever they appear in a path.

The name comes from the layout conventions: `lib/<app>/…` (Elixir, Ruby, Dart),
`src/<pkg>/…` and `<pkg>/…` (Python, JS/TS), `internal/<pkg>`, `pkg/<pkg>`, `cmd/<bin>` (Go),
`src/<mod>.rs` (Rust), `apps/<app>` and `packages/<pkg>` (umbrellas and workspaces), and
`src/main/java/…` (JVM).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

#: Folders that are never the project's own code, wherever they appear in a path.
NOT_CODE_DIRS = frozenset(
    {
        # dependencies and vendored code
        "deps",
        "node_modules",
        "vendor",
        "third_party",
        "third-party",
        "external",
        "bower_components",
        "jspm_packages",
        "site-packages",
        "Pods",
        "Carthage",
        "packages.lock",
        # environments and caches
        ".venv",
        "venv",
        "env",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        "__pycache__",
        ".cache",
        ".gradle",
        ".dart_tool",
        ".elixir_ls",
        # build output and generated code
        "_build",
        "build",
        "dist",
        "out",
        "target",
        "bin",
        "obj",
        "coverage",
        "htmlcov",
        ".next",
        ".nuxt",
        ".svelte-kit",
        ".turbo",
        "generated",
        "gen",
        "__generated__",
        # configuration, assets, data and documentation
        "config",
        "configs",
        ".config",
        "priv",
        "assets",
        "public",
        "static",
        "resources",
        "migrations",
        "fixtures",
        "testdata",
        "test_data",
        "tmp",
        "log",
        "logs",
        "docs",
        "doc",
        "examples",
        "scripts",
        "tools",
        # tests are the project's code, but not a module of it
        "test",
        "tests",
        "testing",
        "spec",
        "specs",
        "__tests__",
        "e2e",
    }
)
#: Layout folders whose child names the module (`src/auth/x.py` is `auth`).
_UNWRAP_DIRS = frozenset(
    {"src", "lib", "internal", "pkg", "cmd", "apps", "packages", "crates", "app", "source"}
)
#: Folders named for a kind of file rather than a part of the code (`app/js`, `src/css`).
_FILE_KIND_DIRS = frozenset(
    {"js", "ts", "jsx", "tsx", "mjs", "javascript", "javascripts", "typescript", "coffee"}
    | {"css", "scss", "sass", "less", "styles", "stylesheets", "html"}
)
#: JVM source roots: `src/main/java/com/acme/billing/X.java` is `billing`.
_JVM_ROOTS = (("src", "main"), ("src", "test"))
#: Code files (a module is made of these; markdown, JSON or images are not code).
CODE_SUFFIXES = frozenset(
    {
        ".py",
        ".pyi",
        ".ts",
        ".tsx",
        ".js",
        ".jsx",
        ".mjs",
        ".cjs",
        ".vue",
        ".svelte",
        ".go",
        ".rs",
        ".rb",
        ".java",
        ".kt",
        ".scala",
        ".cs",
        ".fs",
        ".php",
        ".ex",
        ".exs",
        ".heex",
        ".erl",
        ".swift",
        ".c",
        ".cc",
        ".cpp",
        ".h",
        ".hpp",
        ".m",
        ".dart",
        ".zig",
        ".lua",
        ".hs",
        ".ml",
        ".clj",
    }
)
#: File stems that are entry points or package markers, not modules.
_NOT_MODULE_STEMS = frozenset(
    {"__init__", "__main__", "main", "lib", "mod", "index", "app", "application", "setup"}
)


def is_own_code(path: str) -> bool:
    """Whether a project-relative path is the project's own code (not deps, build, config …)."""
    if not path or path.startswith(("/", "~")) or "\\" in path:
        return False
    parts = PurePosixPath(path).parts
    if any(part.startswith(".") or part in NOT_CODE_DIRS for part in parts[:-1]):
        return False
    return PurePosixPath(path).suffix.lower() in CODE_SUFFIXES


def module_name(path: str, project_id: str) -> str | None:
    """The module a project-relative code path belongs to, or None when it is not one."""
    if not is_own_code(path):
        return None
    parts = list(PurePosixPath(path).parts)
    if tuple(parts[:2]) in _JVM_ROOTS:
        # src/main/<lang>/<reverse-domain…>/<module>/File: the deepest package folder.
        return parts[-2] if len(parts) > 5 else None
    package = _package_name(project_id)
    unwrapped: list[str] = []
    while len(parts) > 1 and (parts[0] in _UNWRAP_DIRS or _same_name(parts[0], package)):
        if len(parts) == 2 and parts[0] in _UNWRAP_DIRS | {package}:
            break
        unwrapped.append(parts[0])
        parts = parts[1:]
    if len(parts) == 1:
        return None
    if len(parts) == 2 and (parts[0] in _UNWRAP_DIRS or _same_name(parts[0], package)):
        stem = PurePosixPath(parts[1]).stem.split(".")[0]
        return None if stem in _NOT_MODULE_STEMS or stem.startswith("_") else stem
    if parts[0].lower() in _FILE_KIND_DIRS and unwrapped:
        # `app/js` and a top-level `js/` are different code: a folder named for a kind of
        # file says nothing alone, so it keeps the folder it sits in.
        return f"{unwrapped[-1]}/{parts[0]}"
    return parts[0]


def _package_name(project_id: str) -> str:
    name = PurePosixPath(project_id.rstrip("/")).name.lower()
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def _same_name(folder: str, package: str) -> bool:
    return bool(package) and folder.lower().replace("-", "_") == package


#: Longest module description kept (characters); the first sentences up to it.
MAX_DESCRIPTION_CHARS = 240
MIN_DESCRIPTION_CHARS = 15
#: Files whose doc speaks for the folder they sit in (a package's marker or entry file).
_PACKAGE_FILES = frozenset(
    {"__init__.py", "mod.rs", "lib.rs", "doc.go", "index.ts", "index.js", "package-info.java"}
)
#: Blank and comment lines, then the docstring: each line read once (`[ \t\r]`, not `\s`,
#: which would let one blank line be read as part of many).
_PY_DOCSTRING = re.compile(
    r"""\A(?:[ \t\r]*#[^\n]*\n|[ \t\r]*\n)*[ \t\r]*[rRuU]?(\"\"\"|''')(.*?)\1""", re.DOTALL
)
_EX_MODULEDOC = re.compile(r"""@moduledoc\s+(?:~[sS])?(\"\"\"|")(.*?)\1""", re.DOTALL)
_BLOCK_DOC = re.compile(
    r"\A(?:\s*(?://[^\n]*|#![^\n]*|'use strict';?)\n)*\s*/\*\*(.*?)\*/", re.DOTALL
)
_NOT_A_DESCRIPTION = re.compile(
    r"copyright|license|licence|spdx|@flow|eslint|prettier|generated|do not edit|"
    r"frozen_string_literal|auto-?generated|coding[:=]|^!",
    re.IGNORECASE,
)


#: A paragraph that ends by leading on to what follows (a list, an example): cut short alone.
_LEADS_ON = re.compile(
    r"(?:\b(?:including|includes|such as|like|namely|e\.g\.|i\.e\.|as follows|the following|"
    r"and|or|with|for|of|to|the|an?)\s*[:,;–—-]?|:)\s*$",
    re.IGNORECASE,
)


_LIST_ITEM = re.compile(r"(?:[-+•]|\d{1,2}[.)])\s")
#: The label some authors start each line of a file's opening comment with ("ABOUTME: …").
_ABOUT_LABEL = re.compile(r"^ABOUT ?ME:\s*")


def _paragraphs(text: str) -> list[str]:
    """The prose paragraphs of a doc comment, each as one line (stops at tags and examples)."""
    paragraphs: list[list[str]] = [[]]
    for line in text.strip().splitlines():
        stripped = line.strip().lstrip("*").strip()
        if labelled := _ABOUT_LABEL.match(stripped):
            # "ABOUTME: …" lines each say one thing about the file: each is a sentence.
            stripped = stripped[labelled.end() :].strip()
            if stripped and stripped[-1] not in ".!?:;":
                stripped += "."
        if not stripped:
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        if stripped.startswith(("@", ":param", ":return", "Args:", "Returns:", "```", "#")):
            break
        if _LIST_ITEM.match(stripped) and paragraphs[-1]:
            paragraphs.append([])  # a list is not the prose before it
        paragraphs[-1].append(stripped)
    return [" ".join(" ".join(p).split()) for p in paragraphs if p]


def _first_sentences(text: str, limit: int = MAX_DESCRIPTION_CHARS) -> str | None:
    """The first paragraph of a doc comment as one sentence or a few, within `limit`; a short
    title line ("Session Orchestrator") is joined with the paragraph that explains it."""
    paragraphs = _paragraphs(text)
    if not paragraphs:
        return None
    flat = paragraphs[0]
    if _LEADS_ON.search(flat):
        # "… operations including:" introduces a list the sentence needs: kept only when the
        # list names each of its points in code ("A `Stage` is one of: - `Map` …, - `Filter` …").
        return _named_list(flat, paragraphs[1:], limit)
    title = len(flat.split()) <= 5 and flat[-1] not in ".!?:"
    if title and len(paragraphs) > 1:
        flat = f"{flat}: {paragraphs[1][:1].lower()}{paragraphs[1][1:]}"
    if len(flat) < MIN_DESCRIPTION_CHARS or _NOT_A_DESCRIPTION.search(flat):
        return None
    if len(flat) > limit:
        cut = max(flat.rfind(end, 0, limit) for end in (". ", "! ", "? ", ": ", "; "))
        if cut < MIN_DESCRIPTION_CHARS:
            return None
        flat = flat[: cut + 1]
    elif _LEADS_ON.search(flat):
        return None
    flat = flat.rstrip(":;,- ")
    if flat.endswith(("...", "…")) or flat.count("`") % 2:
        return None
    if flat[-1] not in ".!?":
        flat += "."
    return flat[:1].upper() + flat[1:]


#: A list item that opens with a name in code: "- [`Stage::Map`] holds …", "* `parse`: …".
_NAMED_ITEM = re.compile(r"^(?:[-+•*]|\d{1,2}[.)])\s+\[?`(?P<name>[\w.:/<>-]{1,60})`\]?")
_LAST_SENTENCE = re.compile(r"(?:^|(?<=[.!?])\s+)(?P<last>[A-Z`\[][^.!?]*:)$")
#: Points of a list named in a description, at least and at most.
MIN_NAMED, MAX_NAMED = 2, 8


def _named_list(lead_in: str, rest: list[str], limit: int) -> str | None:
    """The sentence that leads into a list, with the list's points named, when every point of
    the list that follows it opens with a name in code; else None."""
    names: list[str] = []
    for paragraph in rest:
        if not _LIST_ITEM.match(paragraph):
            break
        named = _NAMED_ITEM.match(paragraph)
        if named is None:
            return None
        names.append(re.split(r"::|\.", named["name"].rstrip("()"))[-1])
    last = _LAST_SENTENCE.search(lead_in)
    if not MIN_NAMED <= len(names) <= MAX_NAMED or last is None or len(last["last"].split()) < 3:
        return None
    spans = [f"`{name}`" for name in names]
    said = f"{last['last'].rstrip(':')}: {', '.join(spans[:-1])} and {spans[-1]}."
    said = re.sub(r"\[(`[^`]+`)\]", r"\1", said)
    return said if MIN_DESCRIPTION_CHARS <= len(said) <= limit else None


def _line_doc(text: str, marker: str, package: str | None, limit: int) -> str | None:
    """Leading line comments (`//!` in Rust, `// Package x …` in Go, `#` in Ruby)."""
    lines: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(marker) and not stripped.startswith(marker + "/"):
            lines.append(stripped[len(marker) :].strip())
        elif lines or (stripped and not stripped.startswith(("#!", "// +build", "//go:build"))):
            break
    if package is not None and not (lines and lines[0].startswith(f"Package {package} ")):
        return None
    return _first_sentences("\n".join(lines), limit) if lines else None


def file_description(path: str, text: str, limit: int = MAX_DESCRIPTION_CHARS) -> str | None:
    """What a code file says it is: its module docstring, `@moduledoc`, leading `/** … */`,
    `//!` or Go package comment — the first paragraph, or None when it says nothing."""
    suffix = PurePosixPath(path).suffix.lower()
    found: str | None = None
    if suffix in (".py", ".pyi"):
        match = _PY_DOCSTRING.match(text)
        found = match.group(2) if match else None
    elif suffix in (".ex", ".exs"):
        match = _EX_MODULEDOC.search(text)
        found = match.group(2) if match else None
    elif suffix == ".rs":
        return _line_doc(text, "//!", None, limit)
    elif suffix == ".go":
        package = re.search(r"^package\s+(\w+)", text, re.MULTILINE)
        return _line_doc(text, "//", package.group(1), limit) if package else None
    elif suffix == ".rb":
        return _line_doc(text, "#", None, limit)
    else:
        match = _BLOCK_DOC.match(text)
        found = match.group(1) if match else None
    return _first_sentences(found, limit) if found else None


def speaks_for_module(path: str, module: str) -> bool:
    """Whether a file's doc describes its whole module: the package's marker or entry file
    (`__init__.py`, `mod.rs`, `doc.go`, `index.ts`) in the module's folder, a Go file of the
    package, or the file that is the module itself (`src/auth.rs`, `lib/app/accounts.ex`)."""
    pure = PurePosixPath(path)
    folder = pure.parent.name
    stem = pure.stem.split(".")[0]
    if stem == module.rsplit("/", 1)[-1]:
        return True
    if folder == module.rsplit("/", 1)[-1]:
        return pure.name in _PACKAGE_FILES or pure.suffix == ".go"
    return False


#: Words that name what kind of thing a module is, not what it does.
_KIND_WORD_TEXT = (
    "a an the of for and this module modules package packages file files code main init"
    " utilities utility utils helpers helper functions library lib core common misc"
)
_KIND_WORDS = frozenset(_KIND_WORD_TEXT.split())


def says_more_than(name: str, description: str) -> bool:
    """Whether a description says more than the module's name ("Deep manifest module." for
    `deep_manifest` says nothing)."""
    named = set(re.findall(r"[a-z0-9]+", name.lower()))
    words = set(re.findall(r"[a-z0-9]+", description.lower()))
    return bool(words - named - _KIND_WORDS)
