"""The hook service: project check, switches, activity kept, session ends passed on once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from squirrel_core.errors import UnavailableError
from squirrel_core.hook_activity import read_activity
from squirrel_gateway.hook_hosts import HookInput
from squirrel_gateway.hook_service import HookService, HookSettings
from tests.conftest import PATIENCE_SECONDS
from tests.gitrepos import git, make_repo
from tests.unit.gateway.fakes import FakeBackend, selected


class RecordingEnder:
    def __init__(self) -> None:
        self.ended: list[tuple[str, str, str]] = []
        self.done = asyncio.Event()

    async def end_session(self, hook: HookInput, project_id: str) -> None:
        self.ended.append((hook.session_id, hook.transcript_path, project_id))
        self.done.set()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    return root


def service(
    repo: Path, tmp_path: Path, ender: RecordingEnder | None = None, **options: object
) -> tuple[HookService, FakeBackend]:
    backend = FakeBackend(roots=[str(repo)], key_facts=["A Go service (go.mod)."])
    run = tmp_path / "run"
    run.mkdir(exist_ok=True)
    return HookService(backend, HookSettings(**options), run, ender), backend  # type: ignore[arg-type]


async def test_session_start_answers_and_activity_is_recorded(repo: Path, tmp_path: Path) -> None:
    hooks, _ = service(repo, tmp_path)
    out = await hooks.answer("claude", "SessionStart", {"cwd": str(repo), "source": "compact"})
    assert "A Go service" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    activity = read_activity(tmp_path / "run")["claude"]
    assert activity["injections"] == 1 and activity["tokens_injected"] > 0


async def test_unregistered_folders_get_nothing(repo: Path, tmp_path: Path) -> None:
    hooks, _ = service(repo, tmp_path)
    assert await hooks.answer("claude", "SessionStart", {"cwd": str(tmp_path)}) == ""
    assert await hooks.answer("claude", "SessionStart", {}) == ""


async def test_switched_off_hooks_inject_nothing(repo: Path, tmp_path: Path) -> None:
    hooks, _ = service(repo, tmp_path, session_start=False, prompt=False)
    assert await hooks.answer("codex", "SessionStart", {"cwd": str(repo)}) == ""
    assert await hooks.answer("codex", "UserPromptSubmit", {"cwd": str(repo), "prompt": "x"}) == ""


async def test_backend_failures_fail_open_and_are_counted(repo: Path, tmp_path: Path) -> None:
    hooks, backend = service(repo, tmp_path)
    backend.fail_with = UnavailableError("memory is down")
    assert await hooks.answer("gemini", "SessionStart", {"cwd": str(repo)}) == ""
    assert read_activity(tmp_path / "run")["gemini"]["failures"] == 1


async def test_a_slow_backend_is_cut_off_at_the_deadline(repo: Path, tmp_path: Path) -> None:
    hooks, backend = service(repo, tmp_path, deadline_ms=100)

    async def slow(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(PATIENCE_SECONDS)
        raise AssertionError("not reached")

    backend.get_project_brief_view = slow  # type: ignore[method-assign]
    assert await hooks.answer("claude", "SessionStart", {"cwd": str(repo)}) == ""


async def test_session_end_is_passed_to_ingest(repo: Path, tmp_path: Path) -> None:
    ender = RecordingEnder()
    hooks, _ = service(repo, tmp_path, ender)
    payload = {"cwd": str(repo), "session_id": "s1", "transcript_path": "/t/s1.jsonl"}
    assert await hooks.answer("claude", "SessionEnd", payload) == ""
    await asyncio.wait_for(ender.done.wait(), PATIENCE_SECONDS)
    assert ender.ended == [("s1", "/t/s1.jsonl", str(repo))]
    await hooks.close()


async def test_a_stop_only_host_ends_the_session_after_it_stays_idle(
    repo: Path, tmp_path: Path
) -> None:
    ender = RecordingEnder()
    hooks, _ = service(repo, tmp_path, ender, idle_end_seconds=60.0)
    # The loop's clock is moved on by hand, so how long each call takes on a loaded machine
    # cannot end the session between the stop and the next prompt, or fail to end it after.
    loop = asyncio.get_running_loop()
    clock = loop.time
    skipped = 0.0

    def moved_on() -> float:
        return clock() + skipped

    loop.time = moved_on  # type: ignore[method-assign]
    try:
        payload = {"cwd": str(repo), "session_id": "s2"}
        await hooks.answer("codex", "Stop", payload)
        await hooks.answer("codex", "UserPromptSubmit", {**payload, "prompt": "next"})  # going on
        skipped += 61.0
        await asyncio.sleep(0.01)  # a turn of the loop past the idle time
        assert ender.ended == []
        await hooks.answer("codex", "Stop", payload)
        skipped += 61.0
        await asyncio.wait_for(ender.done.wait(), PATIENCE_SECONDS)
        assert [e[0] for e in ender.ended] == ["s2"]
    finally:
        del loop.time
    await hooks.close()


async def test_a_linked_worktree_of_a_registered_repository_gets_its_context(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "app-worktrees" / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(worktree))
    (worktree / "src").mkdir()
    hooks, _ = service(repo, tmp_path)
    out = await hooks.answer("claude", "SessionStart", {"cwd": str(worktree / "src")})
    assert "A Go service" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    outside = make_repo(tmp_path / "other")
    assert await hooks.answer("claude", "SessionStart", {"cwd": str(outside)}) == ""


async def test_an_observer_sees_each_injection_with_its_items(repo: Path, tmp_path: Path) -> None:
    seen: list[tuple[str, str, str, int]] = []
    backend = FakeBackend(roots=[str(repo)], key_facts=["A Go service (go.mod)."])
    hooks = HookService(
        backend,
        HookSettings(),
        tmp_path / "run",
        observer=lambda hook, project, injection: seen.append(
            (hook.session_id, project, hook.moment.value, len(injection.served))
        ),
    )
    payload = {"cwd": str(repo), "session_id": "s9"}
    assert await hooks.answer("claude", "SessionStart", payload)
    await hooks.answer("claude", "Stop", payload)  # a turn's end injects nothing: not observed
    outside = make_repo(tmp_path / "other")  # no project: nothing to observe
    await hooks.answer("claude", "SessionStart", {"cwd": str(outside), "session_id": "s9"})
    assert seen == [("s9", str(repo), "session_start", 1)]


@pytest.mark.parametrize(
    ("host", "event", "files"),
    [
        ("claude", "SessionStart", ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md")),
        ("codex", "SessionStart", ("AGENTS.md", "AGENTS.override.md")),
        ("gemini", "SessionStart", ("GEMINI.md",)),
        ("claude", "UserPromptSubmit", ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md")),
        ("gemini", "BeforeAgent", ("GEMINI.md",)),
    ],
)
async def test_each_host_is_spared_the_instruction_files_it_loads_itself(
    repo: Path, tmp_path: Path, host: str, event: str, files: tuple[str, ...]
) -> None:
    hooks, backend = service(repo, tmp_path)

    await hooks.answer(host, event, {"cwd": str(repo), "prompt": "fix the inventory export"})

    methods = (
        ("get_project_brief_view", "get_user_style_view")
        if event == "SessionStart"
        else ("get_task_context",)
    )
    for method in methods:
        call = next(c for c in backend.calls if c.method == method)
        assert call.args["omit_sources_in"] == files


@pytest.mark.parametrize(
    ("host", "spared"),
    [("claude", True), ("gemini", True), ("codex", False)],
)
async def test_a_file_the_hosts_instruction_file_imports_is_spared_too(
    repo: Path, tmp_path: Path, host: str, spared: bool
) -> None:
    (repo / "docs").mkdir()
    (repo / "CLAUDE.md").write_text("@docs/rules.md\n")
    (repo / "GEMINI.md").write_text("@docs/rules.md\n")
    (repo / "AGENTS.md").write_text("@docs/rules.md\n")
    (repo / "docs" / "rules.md").write_text("Run the tests with `make test`.\n")
    hooks, backend = service(repo, tmp_path)

    await hooks.answer(host, "SessionStart", {"cwd": str(repo)})

    for method in ("get_project_brief_view", "get_user_style_view"):
        call = next(c for c in backend.calls if c.method == method)
        assert ("docs/rules.md" in call.args["omit_sources_in"]) is spared


@pytest.mark.parametrize(
    ("own_words", "spared"),
    [("", True), ("Run the tests with `make test`.\n", False)],
)
@pytest.mark.parametrize("host", ["codex", "gemini"])
async def test_an_instruction_file_of_imports_alone_is_spared_for_every_host(
    repo: Path, tmp_path: Path, host: str, own_words: str, spared: bool
) -> None:
    """A CLAUDE.md that only imports AGENTS.md says nothing of its own to a host that does not
    load it: what was read only from it is left out; one with words of its own is kept."""
    (repo / "CLAUDE.md").write_text("@AGENTS.md\n" + own_words)
    (repo / "AGENTS.md").write_text("Run the tests with `make test`.\n")
    hooks, backend = service(repo, tmp_path)

    await hooks.answer(host, "SessionStart", {"cwd": str(repo)})

    for method in ("get_project_brief_view", "get_user_style_view"):
        call = next(c for c in backend.calls if c.method == method)
        assert ("CLAUDE.md" in call.args["omit_sources_in"]) is spared


def _context(out: str) -> str:
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


async def test_a_prompt_is_not_served_again_what_its_session_already_has(
    repo: Path, tmp_path: Path
) -> None:
    hooks, backend = service(repo, tmp_path)
    backend.selected = [selected(1), selected(2)]
    s1 = {"cwd": str(repo), "session_id": "s1"}
    await hooks.answer("claude", "SessionStart", s1)
    first = _context(await hooks.answer("claude", "UserPromptSubmit", {**s1, "prompt": "go on"}))
    assert "(1)" in first and "(2)" in first
    # The same memories again: the session has them, so nothing is printed (0 tokens) ...
    assert await hooks.answer("claude", "UserPromptSubmit", {**s1, "prompt": "and on"}) == ""
    # ... and a new one comes alone, its repeats left out.
    backend.selected = [selected(2), selected(3)]
    third = _context(await hooks.answer("claude", "UserPromptSubmit", {**s1, "prompt": "more"}))
    assert "(3)" in third and "(2)" not in third
    # Another session has none of them; a restarted one (/clear) has only its start's.
    s2 = {"cwd": str(repo), "session_id": "s2"}
    assert "(2)" in _context(
        await hooks.answer("claude", "UserPromptSubmit", {**s2, "prompt": "x"})
    )
    await hooks.answer("claude", "SessionStart", {**s1, "source": "clear"})
    assert "(2)" in _context(
        await hooks.answer("claude", "UserPromptSubmit", {**s1, "prompt": "y"})
    )


async def test_a_fact_the_session_start_showed_under_a_label_is_not_served_again(
    repo: Path, tmp_path: Path
) -> None:
    hooks, backend = service(repo, tmp_path)
    backend.selected = [selected(1, content="A Go service (go.mod)."), selected(2)]
    backend.key_facts = ["Framework: A Go service (go.mod). (1)"]  # the brief's label, no id
    s1 = {"cwd": str(repo), "session_id": "s1"}
    assert "A Go service" in _context(await hooks.answer("claude", "SessionStart", s1))
    out = _context(await hooks.answer("claude", "UserPromptSubmit", {**s1, "prompt": "go on"}))
    assert "(2)" in out and "A Go service" not in out


@pytest.mark.parametrize("host", ["claude", "codex", "gemini"])
async def test_a_symlink_in_the_repository_to_a_folder_outside_it_gets_nothing(
    tmp_path: Path, host: str
) -> None:
    """A session working in a folder reached through a link inside the repository works in the
    folder the link points at (as git sees it): the project's memory is not about it."""
    repo = make_repo(tmp_path / "app")
    outside = tmp_path / "elsewhere"
    (outside / "src").mkdir(parents=True)
    (repo / "vendor-link").symlink_to(outside)
    hooks, _ = service(repo, tmp_path)

    for cwd in (repo / "vendor-link", repo / "vendor-link" / "src"):
        assert await hooks.answer(host, "SessionStart", {"cwd": str(cwd)}) == ""


async def test_a_symlink_to_a_linked_worktree_or_inside_the_repository_still_gets_context(
    tmp_path: Path,
) -> None:
    """Must not fire: a link whose target is the repository's own worktree or folder."""
    repo = make_repo(tmp_path / "app")
    worktree = tmp_path / "app-worktrees" / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(worktree))
    (tmp_path / "feature-link").symlink_to(worktree)
    (repo / "src").mkdir()
    (repo / "src-link").symlink_to(repo / "src")
    hooks, _ = service(repo, tmp_path)

    for cwd in (tmp_path / "feature-link", repo / "src-link"):
        out = await hooks.answer("claude", "SessionStart", {"cwd": str(cwd)})
        assert "A Go service" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
