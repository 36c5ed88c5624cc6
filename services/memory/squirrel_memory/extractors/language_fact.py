"""The project's languages, as the session shows them: the manifests read at its root (with the
language version each asks for), else the root manifests a listing shows beside comparable code
of their language, else the code it touched, listed or searched. A root
`package.json` names no language of its own: the code files shown say JavaScript or TypeScript,
and where none is shown the statement says both are open."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import PurePosixPath

from squirrel_memory.extractors.dotnet_solution import solution_projects
from squirrel_memory.extractors.manifest_versions import ManifestVersion
from squirrel_memory.extractors.manifests import (
    built_language,
    code_language,
    manifest_language,
    may_list_tools_only,
)
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.stack_evidence import family, sample_folder
from squirrel_memory.extractors.touched_languages import (
    COMPARABLE_SHARE,
    DRAWN_PREFIX,
    LISTED_PREFIX,
    SEARCHED_PREFIX,
    SUMMARISED_PREFIX,
    TESTED_PREFIX,
    TOUCHED_TAG,
    is_touched_statement,
    touched_code,
    touched_language_text,
)
from squirrel_memory.repository.languages import is_excluded, without_unshown

#: What a `package.json` alone says of the language: one or the other.
_EITHER = "JavaScript or TypeScript"


def _listed_manifests(
    shown: list[tuple[str, str]],
) -> tuple[dict[str, str], dict[str, set[str]], set[str]] | None:
    """(language → root manifest, language → own code files, event ids) of what listings of
    the project showed: a root manifest counts when the listings also show the project's own
    code of its language family (a `package.json` beside `.ts` files, a `CMakeLists.txt`
    beside `.c` files), and only when that code is comparable in number to the most listed
    language's (`COMPARABLE_SHARE`): a `pyproject.toml` that packages a C library's bindings
    beside its thirty C files does not make it a Python project. Languages with fewer files
    than that are left out of the files too. None when no manifest holds."""
    kept = without_unshown(shown)
    nested = {
        str(PurePosixPath(path).parent)
        for path, _ in kept
        if "/" in path and manifest_language(PurePosixPath(path).name)
    }
    code = touched_code(kept, {}, nested)
    own = {
        lang: found
        for lang, paths in code.files.items()
        if (found := {f for f in paths if not sample_folder(f) and not is_excluded(f)})
    }
    if not own:
        return None
    top = max(len(found) for found in own.values())
    own = {lang: found for lang, found in own.items() if len(found) >= top * COMPARABLE_SHARE}
    manifests: dict[str, str] = {}
    ids: set[str] = set()
    for path, event_id in kept:
        language = None if "/" in path else manifest_language(path)
        if language is None or not any(family(lang) == family(language) for lang in own):
            continue
        manifests.setdefault(language, path)
        ids.add(event_id)
    if not manifests:
        return None
    return manifests, own, ids | code.event_ids


def _listed_beside(
    manifests: dict[str, str], own: dict[str, set[str]], shown: list[tuple[str, str]]
) -> set[str]:
    """Adds to `manifests` each root manifest a listing showed (not read) whose language family
    the project's own code touched shows and no manifest read does: a `pyproject.toml` read
    for a crate's Python bindings beside a listed `Cargo.toml` and the `.rs` code worked on
    is not the project's only manifest, and `_with_code` then keeps the one the code shows.
    Returns the ids of the listings that showed them."""
    ids: set[str] = set()
    for path, event_id in without_unshown(shown):
        language = None if "/" in path else manifest_language(path)
        if language is None or any(family(m) == family(language) for m in manifests):
            continue
        if any(family(lang) == family(language) for lang in own):
            manifests.setdefault(language, path)
            ids.add(event_id)
    return ids


#: A tool's configuration written in JavaScript (`jest.config.js`, `.eslintrc.cjs`,
#: `gulpfile.js`): any `package.json` project has them, TypeScript ones too.
_TOOL_CONFIG = re.compile(r"(?:\.config|^\.\w+rc|^(?:gulp|grunt)file)\.[cm]?js$", re.IGNORECASE)


def _scripted(javascript: set[str], typescript: int) -> set[str]:
    """The JavaScript files shown beside a root `package.json` that say its code is
    JavaScript: not a tool's configuration, and, beside `typescript` TypeScript files, as
    many as `COMPARABLE_SHARE` of them at least (a few `.js` files beside many `.ts` ones are
    scripts, configuration or build output of a TypeScript project)."""
    code = {path for path in javascript if not _TOOL_CONFIG.search(PurePosixPath(path).name)}
    return code if len(code) >= typescript * COMPARABLE_SHARE else set()


#: Code files of other languages, none of the one root manifest's, that set it aside.
MIN_OTHER_CODE = 2
#: Scripts that glue any project together: they never outweigh a manifest.
_GLUE = frozenset({"Shell", "PowerShell"})


def _with_code(manifests: dict[str, str], own: dict[str, set[str]]) -> dict[str, str]:
    """Of two root manifests of different languages or more, those whose language family the
    project's own code the session touched shows, when that code shows one at least and not
    every one: a `Gemfile` of release tools or a `package.json` of commit hooks beside the
    `Package.swift` of the Swift code worked on names no second language. Without code touched
    besides the manifests themselves (a `Package.swift` is Swift), the manifests stand as they
    are: nothing weighs them. A lone root manifest that may list tools alone
    (`may_list_tools_only`: a `package.json`, a `Gemfile`) whose language none of
    `MIN_OTHER_CODE` touched code files or more (shell scripts, glue in any project, not
    counted) shows is set aside (none is returned): the statement is then a count of the code
    worked on; a lone manifest that builds code (a `Cargo.toml`) stands."""
    code = {lang: files - set(manifests.values()) for lang, files in own.items()}
    code = {lang: files for lang, files in code.items() if files}
    if not manifests or not code:
        return manifests
    coded = {
        lang: path
        for lang, path in manifests.items()
        if any(family(lang) == family(found) for found in code)
    }
    if coded or len(manifests) > 1:
        return coded or manifests
    # One root manifest that may list tools alone, and code of other languages only: the code
    # worked on is what is said.
    (path,) = manifests.values()
    other = sum(len(files) for lang, files in code.items() if lang not in _GLUE)
    return {} if may_list_tools_only(path) and other >= MIN_OTHER_CODE else manifests


def language_fact(
    paths: list[tuple[str, str]],
    ran: dict[str, str | None],
    listed: list[tuple[str, str]] | None = None,
    searched: list[tuple[str, str]] | None = None,
    versions: dict[str, ManifestVersion] | None = None,
    *,
    drawn: list[tuple[str, str]] | None = None,
    tested: list[tuple[str, str]] | None = None,
    summarised: list[tuple[str, str]] | None = None,
    typescript_manifest: bool = False,
    declared: tuple[str, ...] = (),
    solution: bool = False,
) -> Fact | None:
    """The project's languages: manifests at the root first (with the languages of the code
    files touched twice at least, and the language version each manifest read asks for:
    `versions`, see `manifest_versions`); without one, what the code the session touched shows
    (`touched_languages`), leaving out sub-packages (folders of a nested manifest), and when
    that says nothing, what the files git listed show (`listed`, see `git_listed`), then what
    the files a search or listing printed show (`searched`, see `searched_files`), then the
    files a test runner printed as it ran them (`tested`, see `tested_files`), then the
    files a continued conversation's summary lists (`summarised`, see `summary_files`), then
    the files a root README or instruction file draws (`drawn`, see `drawn_files`); `ran` are
    the scripts the session wrote and ran with their interpreter, with the language it tells
    of a suffix two languages share; `typescript_manifest` says the root `package.json`'s own
    text names TypeScript (`package_language`); `declared` are the languages the root
    `CMakeLists.txt` read declares (`cmake_languages`), said in place of its "C/C++";
    `solution` says the root is a .NET solution's, whose project files below it then say the
    language (`dotnet_solution`)."""
    manifests: dict[str, str] = {}
    packages: set[str] = set()
    files: dict[str, set[str]] = {}
    ids: set[str] = set()
    for path, event_id in paths:
        pure = PurePosixPath(path)
        language = manifest_language(pure.name)
        if language and len(pure.parts) == 1:
            # Of two root manifests of one language (`tithe.cabal`, `cabal.project`), the one
            # that asks for a language version says more.
            known = manifests.get(language)
            if known is None or (versions and path in versions and known not in versions):
                manifests[language] = path
            ids.add(event_id)
        elif language:
            packages.add(str(pure.parent))
        ext_language = code_language(path)
        if ext_language:
            files.setdefault(ext_language, set()).add(path)
            ids.add(event_id)
    for language, path in list(manifests.items()):
        built = built_language(path, [lang for lang, found in files.items() if found - {path}])
        if built is not None and built != language:
            del manifests[language]
            manifests.setdefault(built, path)
    listed_root = None if manifests else _listed_manifests([*(listed or []), *(searched or [])])
    if listed_root is not None:
        # No root manifest read, but a listing of the root shows one beside the code of its
        # language: the files listed stand in for the files read.
        manifests, files, listed_ids = listed_root
        ids.update(listed_ids)
    # Code of a docs site, an example, a script or tool folder is not the project's language
    # (a workspace's packages are: in a monorepo they hold the code), nor is vendored,
    # generated or build output code (`gen/python/…_pb2.py` beside a Go service).
    own = {
        lang: kept
        for lang, found in files.items()
        if (kept := {f for f in found if not sample_folder(f) and not is_excluded(f)})
    }
    if manifests and (listed or searched):
        ids.update(_listed_beside(manifests, own, [*(listed or []), *(searched or [])]))
    manifests = _with_code(manifests, own)
    if not manifests and solution:
        # `src/Ledger.Api/Ledger.Api.csproj` beside a root `Ledger.sln`: the solution's language.
        manifests, project_ids = solution_projects([*paths, *(listed or []), *(searched or [])])
        ids.update(project_ids)
    if not manifests:
        touched = touched_code(paths, ran, packages)
        stated = touched_language_text(touched)
        # A listing names files nobody opened: a `.ts` there may be a video segment.
        if stated is None and listed:
            touched = touched_code(without_unshown(listed), {}, packages)
            stated = touched_language_text(touched, LISTED_PREFIX)
        if stated is None and searched:
            touched = touched_code(without_unshown(searched), {}, packages)
            stated = touched_language_text(touched, SEARCHED_PREFIX)
        if stated is None and tested:
            touched = touched_code(tested, {}, packages)
            stated = touched_language_text(touched, TESTED_PREFIX)
        if stated is None and summarised:
            touched = touched_code(summarised, {}, packages)
            stated = touched_language_text(touched, SUMMARISED_PREFIX)
        if stated is None and drawn:
            touched = touched_code(drawn, {}, packages)
            stated = touched_language_text(touched, DRAWN_PREFIX)
        if stated is None:
            return None
        text, languages = stated
        tags = ("language", TOUCHED_TAG, *(lang.lower() for lang in languages))
        return Fact("language", text, tags, 0.6, tuple(sorted(touched.event_ids)))
    if "TypeScript" in manifests or "TypeScript" in own:
        # TypeScript code built from a `package.json`: the manifest is the TypeScript one's.
        if "JavaScript" in manifests:
            manifests.setdefault("TypeScript", manifests.pop("JavaScript"))
        own.pop("JavaScript", None)
    node = manifests.get("JavaScript")
    if node and PurePosixPath(node).name == "package.json" and "JavaScript" not in own:
        # A `package.json` alone names no language: the code files shown say which, and
        # where none is shown, both stay open. Beside a `package.json` a listed `.ts` is code.
        shown = [*(listed or []), *(searched or []), *(tested or []), *(drawn or [])]
        seen = touched_code(shown, {}, packages).files
        written = _scripted(seen.get("JavaScript", set()), len(seen.get("TypeScript", ())))
        if not written and ("TypeScript" in seen or typescript_manifest):
            manifests.setdefault("TypeScript", manifests.pop("JavaScript"))
        elif not written:
            manifests[_EITHER] = manifests.pop("JavaScript")
        elif "TypeScript" in seen:
            manifests.setdefault("TypeScript", node)
    c_family = [lang for lang in own if family(lang) == "C/C++"]
    if "C/C++" in manifests and declared:
        # `project(rivet LANGUAGES C)`: the build says which, not "C/C++".
        cmake = manifests.pop("C/C++")
        for lang in declared:
            manifests.setdefault(lang, cmake)
    elif "C/C++" in manifests and len(c_family) == 1:
        # A CMake build of C++ code is a C++ project, not "C/C++ and C++".
        manifests.setdefault(c_family[0], manifests.pop("C/C++"))
    counts = Counter({lang: len(found) for lang, found in own.items()})
    found_languages = list(manifests) + [
        lang for lang, n in counts.most_common() if n >= 2 and lang not in manifests
    ]
    evidence = sorted(set(manifests.values()))
    asked = {path: versions[path] for path in evidence if versions and path in versions}
    ids.update(v.event_id for v in asked.values())
    said = ("; " if asked else ", ").join(
        f"{path}: {v.said}" if (v := asked.get(path)) else path for path in evidence
    )
    if _EITHER in found_languages[:3]:
        said += "; no code file seen says which"
    text = " and ".join(found_languages[:3]) + f" project ({said})."
    named = [part for lang in found_languages[:3] for part in lang.split(" or ")]
    tags = ("language", *(lang.lower() for lang in named))
    return Fact("language", text, tags, 0.6, tuple(sorted(ids)))


#: How the framework fact of `stack_facts` states the frameworks the project's code is built with.
_BUILT_WITH = "Built with "


def with_framework(language: Fact, framework: Fact | None) -> Fact:
    """A root manifest's language statement with the frameworks the project's own code uses
    ("Rust project (Cargo.toml: edition 2021), built with Axum."): what the project is written
    in and on, in one statement. A statement counted from touched or listed files, or a
    framework fact of a sub-folder (`framework@web`), is left as it is: a count of files says
    where code was seen, not what the whole project is built on."""
    if (
        framework is None
        or framework.key != "framework"
        or not framework.content.startswith(_BUILT_WITH)
        or is_touched_statement(language.content)
    ):
        return language
    names = framework.content.removeprefix(_BUILT_WITH).rstrip(".")
    return replace(
        language,
        content=f"{language.content.rstrip('.')}, built with {names}.",
        tags=tuple(dict.fromkeys((*language.tags, *framework.tags[1:]))),
        event_ids=tuple(sorted({*language.event_ids, *framework.event_ids})),
    )
