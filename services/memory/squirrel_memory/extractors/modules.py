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
