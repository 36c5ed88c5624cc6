"""A generator whose output a commit of the session took (run, or named by the assistant as the
fix) becomes a recipe; a generator that failed, a commit that failed or took only edited files,
a command in another checkout, a plan with no commit and a negated command say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.generated_commits import generated_commits
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 2, 14, 0, tzinfo=UTC)
WEB = "/home/dev/storefront"
GO = "/home/dev/relay"
RUST = "/home/dev/keyring"

DRIFT_REPLY = (
    "The check fails because the generated docs drifted: after the bump, `task docs:render`"
    " changes `docs/cli/index.md` and `docs/cli/usage.md`.\n\n"
    "Fix: run `task docs:render` on the branch and commit the resulting files."
)


def _contents(session: Session) -> list[str]:
    return [g.content for g in generated_commits(session.events)]


def test_a_typescript_generator_run_then_committed_is_a_recipe() -> None:
    session = Session(WEB, "s1", T0)
    session.user("the api schema changed, update the client")
    session.edit_lines("api/schema.yaml", "v1", "v2")
    session.run("npm run generate:client", 0, "wrote src/client/types.ts")
    session.run(
        "git add api/schema.yaml src/client/types.ts && git commit -m 'client: v2 schema'", 0
    )
    assert _contents(session) == [
        "Run `npm run generate:client` and commit what it regenerates (here `src/client/types.ts`)."
    ]


def test_a_go_generator_then_a_commit_is_a_recipe_in_the_extractor_too() -> None:
    session = Session(GO, "s1", T0)
    session.user("regenerate the mocks")
    session.run("go generate ./...", 0, "")
    session.run("git add internal/mocks/store.go", 0)
    session.run("git commit -m 'mocks: regenerate'", 0, "[main 1a2b3c4] mocks: regenerate")
    kept = [c for c in session.extracted() if c.key.startswith("recipe:generated:")]
    assert [c.type for c in kept] == [MemoryType.RECIPE]
    assert kept[0].content == (
        "Run `go generate ./...` and commit what it regenerates (here `internal/mocks/store.go`)."
    )


def test_a_generator_the_reply_names_as_the_fix_then_committed_is_a_recipe() -> None:
    session = Session(RUST, "s1", T0)
    session.user("why is CI failing on the release PR?")
    session.say(DRIFT_REPLY)
    session.user("fix it directly")
    session.run(
        "git add docs/cli/index.md docs/cli/usage.md && git commit -m 'docs: regenerate'",
        0,
        cwd="/tmp/keyring-pr12.x1y2",  # a scratch worktree of the same repository
    )
    assert _contents(session) == [
        "Run `task docs:render` and commit what it regenerates"
        " (here `docs/cli/index.md`, `docs/cli/usage.md`)."
    ]


def test_a_generator_that_failed_or_a_failed_commit_gives_nothing() -> None:
    failed = Session(WEB, "s1", T0)
    failed.run("npm run generate:client", 1, "Error: schema not found")
    failed.run("git add src/client/types.ts && git commit -m wip", 0)
    assert _contents(failed) == []
    refused = Session(GO, "s1", T0)
    refused.run("go generate ./...", 0, "")
    refused.run("git add internal/mocks/store.go && git commit -m mocks", 1, "hook failed")
    assert _contents(refused) == []


def test_a_commit_of_edited_files_only_or_a_one_off_command_gives_nothing() -> None:
    edited = Session(WEB, "s1", T0)
    edited.run("npm run generate:client", 0, "")
    edited.edit_lines("src/app.ts", "a", "b")
    edited.run("git add src/app.ts && git commit -m app", 0)
    assert _contents(edited) == []  # the generator wrote nothing that was committed
    exploring = Session(GO, "s1", T0)
    exploring.run("ls internal/mocks", 0, "store.go")
    exploring.run("git add internal/mocks/store.go && git commit -m mocks", 0)
    assert _contents(exploring) == []  # no generator ran


def test_a_generator_in_another_checkout_gives_nothing() -> None:
    session = Session(GO, "s1", T0)
    session.run("cd ../gateway && go generate ./...", 0, "")
    session.run("git add internal/mocks/store.go && git commit -m mocks", 0)
    assert _contents(session) == []
    moved = Session(GO, "s1", T0)
    moved.run("go generate ./...", 0, "", cwd="/home/dev/gateway")
    moved.run("git add internal/mocks/store.go && git commit -m mocks", 0)
    assert _contents(moved) == []


def test_a_named_fix_without_a_commit_of_its_files_or_negated_gives_nothing() -> None:
    planned = Session(RUST, "s1", T0)
    planned.say(DRIFT_REPLY)
    assert _contents(planned) == []  # never carried out
    other = Session(RUST, "s1", T0)
    other.say(DRIFT_REPLY)
    other.run("git add src/main.rs && git commit -m fix", 0)
    assert _contents(other) == []  # the commit took none of the files the reply named
    negated = Session(RUST, "s1", T0)
    negated.say(
        "The docs in `docs/cli/index.md` drifted. Do not run `task docs:render` and commit"
        " the result: the release job does it."
    )
    negated.run("git add docs/cli/index.md && git commit -m docs", 0)
    assert _contents(negated) == []
    elsewhere = Session(RUST, "s1", T0)
    elsewhere.say(DRIFT_REPLY)
    elsewhere.run(
        "git add docs/cli/index.md && git commit -m docs", 0, cwd="/home/dev/other-checkout"
    )
    assert _contents(elsewhere) == []


def test_a_check_that_names_a_generator_only_in_its_options_is_no_generator() -> None:
    session = Session(RUST, "s1", T0)
    session.run("cargo test --features codegen", 0, "test result: ok. 12 passed")
    session.run("git add src/lib.rs && git commit -m 'lib: tidy'", 0)
    assert _contents(session) == []
    checked = Session(WEB, "s1", T0)
    checked.run("npm run test:render", 0, "12 passed")
    checked.run("git add src/view.tsx && git commit -m view", 0)
    assert _contents(checked) == []  # a test run, whatever its task's name says
