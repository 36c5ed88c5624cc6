"""The stack the root README's own description names, when the code the session touched agrees.

A README often says what the project is built with in its opening paragraphs ("The
application is a cross-platform desktop app built with Electron and Vue."), and
a session that reads it may touch too few code files, and no manifest, for the language rule
to speak. Prose alone is never enough: a framework or language named after "built with",
"written in", "powered by" … in the README's introduction (before its first section heading)
is stated only when a root manifest the session read, or a code file of the project's own it
read or edited, is of the same language family (Electron and Vue with a `.ts` file, Rails
with a `Gemfile`); a name the code does not agree with is left out. The same rule in every
ecosystem, with the frameworks and languages of `stack.toml`.

It never fires on a README in a sub-folder or outside the project (a dependency's), on an
introduction that says the project is a fork, template or port of another (its stack may be
the other project's), on a sentence about a past, another project or a question ("unlike",
"instead of", "originally", "?"), nor when the code touched is of another family.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.extractors.manifests import manifest_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.readme_intro import stated_stack
from squirrel_memory.extractors.stack_evidence import family
from squirrel_memory.extractors.touched_languages import touched_code
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.stack import is_language_name, language_name, named_stack

__all__ = ["README_STACK_KEY", "readme_stack", "stated_stack"]

README_STACK_KEY = "readme_stack"
#: Code files named as the evidence that agrees.
NAMED_FILES = 2


def _is_root_readme(path: str) -> bool:
    return "/" not in path and instruction_kind(path) == "readme"


def _families(name: str) -> set[str]:
    return {family(language_name(eco)) for eco in named_stack().get(name, ())} | {family(name)}


def readme_stack(
    events: list[StoredEvent], paths: list[tuple[str, str]], *, frameworks_only: bool = False
) -> Fact | None:
    """The fact of the stack the root README's introduction names, where a root manifest read or
    an own code file touched agrees (`paths`: project-relative path, event id), else None; with
    `frameworks_only` (the language is stated already), only when it names a framework."""
    readme: tuple[str, str, str] | None = None
    for event in events:
        read = root_file_read(event, _is_root_readme)
        if read is not None:
            readme = (read[0], read[1], event.id)
    if readme is None:
        return None
    path, text, readme_id = readme
    named = stated_stack(text)
    if not named:
        return None
    evidence: dict[str, tuple[str, set[str], set[str]]] = {}
    for rel, event_id in paths:
        language = manifest_language(rel) if "/" not in rel else None
        if language:
            kind = "manifest"
        else:
            touched = touched_code([(rel, event_id)], {}).files
            if not touched:
                continue
            language, kind = next(iter(touched)), "code"
        fam = family(language)
        _, files, ids = evidence.setdefault(fam, (language, set(), set()))
        files.add(rel if kind == "code" else f"{rel} (manifest)")
        ids.add(event_id)
    agreed = [name for name in named if _families(name) & set(evidence)]
    if not agreed or (frameworks_only and all(is_language_name(n) for n in agreed)):
        return None
    families = {fam for name in agreed for fam in _families(name) if fam in evidence}
    parts = []
    ids = {readme_id}
    for fam in sorted(families):
        language, files, event_ids = evidence[fam]
        shown = ", ".join(f"`{f}`" for f in sorted(files)[:NAMED_FILES])
        more = len(files) - NAMED_FILES
        parts.append(f"{language}: {shown}" + (f" and {more} more" if more > 0 else ""))
        ids |= event_ids
    listed = (
        " and ".join(agreed) if len(agreed) < 3 else ", ".join(agreed[:-1]) + f" and {agreed[-1]}"
    )
    text_out = (
        f"{path} says the project is built with {listed}; the files worked on agree "
        f"({'; '.join(parts)})."
    )
    tags = ("stack", "framework", "readme", *(name.lower() for name in agreed))
    name = PurePosixPath(path).name
    return Fact(README_STACK_KEY, text_out, tags, 0.6, tuple(sorted(ids)), (name,))
