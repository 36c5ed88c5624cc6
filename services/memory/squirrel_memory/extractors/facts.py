"""Project facts evident in one episode: what the project is, its languages and stack, the
commands that run the app, its licence (`licence`); where things are (`layout_facts`), what its
modules say they do (`module_facts`), and stack facts weighed in `stack_facts`."""

from __future__ import annotations

from squirrel_core.events import EventType
from squirrel_memory.extractors.about import ABOUT_KEY, is_instruction_file, session_about
from squirrel_memory.extractors.about_stack import with_language
from squirrel_memory.extractors.activity import (
    CommandRun,
    core_tokens,
    relative_path,
    split_segments,
)
from squirrel_memory.extractors.build_files import build_fact
from squirrel_memory.extractors.build_products import build_products
from squirrel_memory.extractors.cli_reference import cli_reference
from squirrel_memory.extractors.cmake_languages import cmake_languages
from squirrel_memory.extractors.commit_hooks import commit_hooks
from squirrel_memory.extractors.contradicted_about import known_stack_named, without_contradicted
from squirrel_memory.extractors.dotnet_solution import solution_root
from squirrel_memory.extractors.drawn_files import drawn_paths
from squirrel_memory.extractors.folder_listings import ls_listed_paths, tree_listed_paths
from squirrel_memory.extractors.folder_summary import folder_summary
from squirrel_memory.extractors.git_listed import listed_paths
from squirrel_memory.extractors.help_about import help_about
from squirrel_memory.extractors.language_fact import language_fact, with_framework
from squirrel_memory.extractors.language_parts import language_parts, stated_languages, with_parts
from squirrel_memory.extractors.layout_facts import layout_facts, tests_fact
from squirrel_memory.extractors.licence import licence_facts
from squirrel_memory.extractors.manifest_versions import manifest_versions
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.extractors.mcp_servers import mcp_servers
from squirrel_memory.extractors.mentioned_files import mentioned_paths
from squirrel_memory.extractors.module_facts import module_docs, module_facts
from squirrel_memory.extractors.named_stack import named_stack
from squirrel_memory.extractors.named_summary import named_summary
from squirrel_memory.extractors.package_language import package_json_typescript
from squirrel_memory.extractors.pasted_brief import pasted_brief
from squirrel_memory.extractors.path_described import path_described
from squirrel_memory.extractors.printed_manifests import printed_manifest_paths
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.public_headers import public_headers
from squirrel_memory.extractors.readme_database import readme_database
from squirrel_memory.extractors.readme_stack import readme_stack
from squirrel_memory.extractors.script_runs import ran_scripts, script_runs
from squirrel_memory.extractors.searched_files import searched_paths, tool_listed_paths
from squirrel_memory.extractors.session_tasks import started_by_task, starts_app
from squirrel_memory.extractors.shell_reads import shell_read_files
from squirrel_memory.extractors.site_pages import IMPORTANCE as SITE_IMPORTANCE
from squirrel_memory.extractors.site_pages import KEY as SITE_KEY
from squirrel_memory.extractors.site_pages import site_pages
from squirrel_memory.extractors.stack_facts import stack_facts, stack_seen
from squirrel_memory.extractors.stack_section import stack_section
from squirrel_memory.extractors.summaries import IMPORTANCE as SUMMARY_IMPORTANCE
from squirrel_memory.extractors.summaries import SUMMARY_TAG, project_summary
from squirrel_memory.extractors.summary_files import summarised_paths
from squirrel_memory.extractors.tested_files import runner_printed_paths
from squirrel_memory.extractors.toolchain import classify
from squirrel_memory.extractors.untracked_root import untracked_root_language
from squirrel_memory.extractors.user_about import user_about
from squirrel_memory.extractors.wrapper_scripts import wrapper_scripts
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository import primary_ecosystems

_NOT_ENTRY_MODULES = {
    "pytest",
    "pip",
    "venv",
    "mypy",
    "json.tool",
    "http.server",
    "unittest",
    "build",
    "twine",
    "pyright",
    "ruff",
    "black",
    "isort",
    "coverage",
    "pdb",
    "timeit",
    "cProfile",
}


def _edited(events: list[StoredEvent]) -> set[str]:
    """The project's files the session wrote or edited."""
    return {
        rel
        for event in events
        if event.event_type == EventType.CODE_CHANGE
        for raw in event.file_paths
        if in_project(rel := relative_path(raw, event.project_id))
    }


def _entry_point(run: CommandRun) -> str | None:
    for segment in split_segments(run.command):
        tokens = core_tokens(segment)
        use = classify(tokens)
        if use and use.category == "server":
            target = next((t for t in tokens[1:] if ":" in t and not t.startswith("-")), None)
            if target:
                return f"`{target}` served with {use.tool}"
        raw = segment.split()
        if len(raw) >= 3 and raw[0] in {"python", "python3"} and raw[1] == "-m":
            module = raw[2]
            if module not in _NOT_ENTRY_MODULES and classify(raw[2:]) is None:
                return f"`python -m {module}`"
        if len(tokens) >= 3 and tokens[0] == "flask" and "run" in tokens:
            app = next((tokens[i + 1] for i, t in enumerate(tokens[:-1]) if t == "--app"), None)
            return f"`{app}` served with flask" if app else "`flask run`"
    return None


def project_facts(
    events: list[StoredEvent], runs: list[CommandRun], *, repository: bool | None = None
) -> list[Fact]:
    """Every project fact evident in one episode's events and commands; `repository` says
    whether the project's repository is read (looked up when not given)."""
    if not events:
        return []
    project_id = events[0].project_id
    paths = [
        (rel, event.id)
        for event in events
        for raw in event.file_paths
        if raw and in_project(rel := relative_path(raw, event.project_id))
    ]
    facts: list[Fact] = []
    # A repository with commits answers "what language" from its own files (`repo:` facts);
    # the files one session touched (an `assets/package.json`) must not contradict it.
    if repository is None:
        repository = bool(primary_ecosystems(project_id))
    scripts = ran_scripts(runs, _edited(events), project_id)
    ran = {script.path: script.language for script in scripts}
    listed = listed_paths(runs, project_id)
    searched = (
        searched_paths(runs, project_id)
        + tool_listed_paths(events)
        + tree_listed_paths(events)
        + ls_listed_paths(runs, project_id)
    )
    versions = None if repository else manifest_versions(events)
    drawn = drawn_paths(events)
    # Files read through the shell (`cat src/a.hpp`) are read as surely as with a file tool.
    # And a root manifest printed among other output (a compound or failed command), and the
    # files the user pointed at with an `@` mention.
    read = (
        paths + shell_read_files(events) + printed_manifest_paths(events) + mentioned_paths(events)
    )
    language = (
        None
        if repository
        else language_fact(
            read,
            ran,
            listed,
            searched,
            versions,
            drawn=drawn,
            tested=runner_printed_paths(runs, project_id),
            summarised=summarised_paths(events),
            typescript_manifest=package_json_typescript(events),
            declared=cmake_languages(events),
            solution=solution_root([p for p, _ in [*read, *listed, *searched]], runs, project_id),
        )
    )
    if language is None and not repository:
        # Nothing else says it: a manifest `git status` showed untracked beside the project's
        # untracked folders.
        language = untracked_root_language(runs, project_id, events)
    if language:
        facts.append(language)
    build = None if repository else build_fact(searched + listed, events, runs)
    if build:
        facts.append(build)
    made = build_products(runs)
    if made:
        facts.append(made)
    about = None if repository else session_about(events)
    text = ""
    if about:
        text, source, event_ids = about
        # A README behind the code: its sentences whose stack claim the evidence contradicts
        # are left out (`contradicted_about`), and the statement when none is left.
        if known_stack_named(text):
            text = without_contradicted(text, stack_seen(events, runs, paths, project_id)) or ""
    if text:
        # An instruction file's overview gives way to the README or manifest, as a summary does.
        tags = ("overview", "about", *((SUMMARY_TAG,) if is_instruction_file(source) else ()))
        facts.append(Fact(ABOUT_KEY, text, tags, 0.7, event_ids, (source,)))
    elif (
        about is None
        and not repository
        and (
            said := help_about(runs, project_id)
            or user_about(events)
            or pasted_brief(events)
            or project_summary(events)
            or named_summary(events)
            or path_described(events)
            or folder_summary(events)
            or cli_reference(events)
        )
    ):
        # No README or manifest read: the help its own program printed, the user's own words,
        # the brief they pasted and called the task, else the assistant's summary (of "this
        # project", else of the project by its name, else beside its path), else the
        # command-line reference its own generator wrote.
        tags = ("overview", "about", SUMMARY_TAG)
        facts.append(Fact(ABOUT_KEY, said.content, tags, SUMMARY_IMPORTANCE, said.event_ids))
    site = site_pages(events)
    if site:
        # The site whose page the user gave by its address is files of this repository.
        tags = ("overview", "site", "pages")
        facts.append(
            Fact(SITE_KEY, site.content, tags, SITE_IMPORTANCE, site.event_ids, site.file_paths)
        )
    described = any(fact.key == ABOUT_KEY for fact in facts)
    facts.extend(layout_facts(paths))
    library = public_headers(project_id, read + listed + searched)
    if library:
        facts.append(library)
    tests = None if repository else tests_fact(paths)
    if tests:
        facts.append(tests)

    stack = stack_facts(events, runs, paths, project_id)
    if not repository and not any(fact.key == "database" for fact in stack):
        # No data-access configuration read: the README and the manifest, when they agree.
        agreed = readme_database(events)
        stack = [*stack, agreed] if agreed else stack
    facts.extend(stack)
    listed_stack = (
        None if repository else stack_section(events, stack_seen(events, runs, paths, project_id))
    )
    if listed_stack:
        facts.append(listed_stack)
    if language:
        # What the project is written in and the framework its code is built on, in one.
        built_on = next((fact for fact in stack if fact.key == "framework"), None)
        parts = language_parts(read, listed + searched, stated_languages(language))
        roots = [path for path, _ in read if "/" not in path]
        at = facts.index(language)
        language = facts[at] = with_parts(with_framework(language, built_on), parts)
        # What the project is, with what a root manifest shows it is written in.
        facts = [
            stated
            for fact in facts
            if (stated := with_language(fact, language) if fact.key == ABOUT_KEY else fact)
        ]
        # Nothing described the project: its name and what it is written in, at least.
        overview = (
            None
            if described or about is not None
            else named_stack(
                project_id, language, roots, [path for path, _ in read + listed + searched]
            )
        )
        if overview:
            tags = ("overview", "about", SUMMARY_TAG)
            facts.append(Fact(ABOUT_KEY, overview, tags, SUMMARY_IMPORTANCE, language.event_ids))
    if not repository and not any(fact.key == "framework" for fact in stack):
        # No framework seen in the code: the one the app's own start task starts, else the one
        # the README's introduction names where the code agrees.
        started = started_by_task(events)
        named = None if started else readme_stack(events, paths, frameworks_only=bool(language))
        if started and started.started:
            framework, task, step = started.started
            # A step that only prepares the app (`bin/rails db:prepare`) is said as run by it.
            does = "starts it with" if starts_app(step) else "runs"
            text = f"Built with {framework}: `{task}` ({started.path}) {does} `{step}`."
            tags = ("framework", framework.lower(), "tasks")
            facts.append(Fact("framework", text, tags, 0.7, started.event_ids, (started.path,)))
        elif named:
            facts.append(named)

    entry = next(
        ((run, ep) for run in runs if run.ok is not False and (ep := _entry_point(run))), None
    )
    if entry:
        facts.append(
            Fact(
                "entry_point",
                f"The app starts with {entry[1]}.",
                ("entry_point", "run"),
                0.6,
                (entry[0].event_id,),
            )
        )

    facts.extend(script_runs(scripts))
    facts.extend(wrapper_scripts(events, runs))
    facts.extend(commit_hooks(events, runs))
    facts.extend(mcp_servers(events))
    facts.extend(licence_facts(events, runs))
    facts.extend(module_facts(paths, project_id, module_docs(events, project_id)))
    return facts
