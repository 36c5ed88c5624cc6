"""The session-start study: its projects are well formed (several ecosystems, rare items needed
and not needed later, every need of a rare item among the project's rare items), and its
scoring reads a start text and a prompt's context as the bench documents (a need is met by one
line matching all its patterns; a line giving no need is a line nobody needed; a rare item not
needed but shown is counted apart)."""

from __future__ import annotations

from bench.start_study import PROJECTS, Outcome, gives
from bench.start_study_runs import Hooked, lines_of, tokens_of
from bench.start_study_types import Need, Project
from bench.trap_transcripts import Ask, Session

FRAME = "Squirrel memory: notes.\n\n"
RELEASE = Need("release", (r"release", r"git tag v"))
TEST = Need("test", (r"`make test`",))


def _project(needs: tuple[Need, ...], never: tuple[tuple[str, str], ...] = ()) -> Project:
    return Project(
        "p",
        "x",
        "",
        (Session("claude", "/p", (Ask("hi"),)),),
        (RELEASE,),
        "go",
        needs,
        never,
    )


def _start(*lines: str) -> str:
    body = "".join(f"- {line}\n" for line in lines)
    return f"{FRAME}### How things are run here\n{body}\n📏 ~120 tokens"


def test_the_projects_are_well_formed() -> None:
    assert len({p.name for p in PROJECTS}) == len(PROJECTS)
    assert len({p.ecosystem.split(" ")[0] for p in PROJECTS}) >= 10
    assert any(p.rare_needed for p in PROJECTS)
    assert any(p.rare_spare for p in PROJECTS)
    for p in PROJECTS:
        rare = {r.id: r for r in p.rare}
        assert p.earlier and p.prompt and p.needs
        assert any(n.id == "test" for n in p.needs)
        for need in p.needs:
            assert need.patterns
            if need.id in rare:
                assert need == rare[need.id]


def test_a_need_is_met_by_one_line_matching_every_pattern() -> None:
    assert gives(RELEASE, "To release, as `v0.4.0` was: … → `git tag v0.4.0`.")
    assert not gives(RELEASE, "To release: ask the user.")
    outcome = Outcome(
        _project((TEST, RELEASE)),
        Hooked(_start("To run the tests: `make test`.", "To release: bump it."), ""),
    )
    assert [n.id for n in outcome.met_at_start()] == ["test"]
    assert outcome.unneeded() == ["To release: bump it."]


def test_the_prompt_meets_what_the_start_left() -> None:
    prompt = "## Relevant memory\n- [recipe] To release: `git tag v1.2.0`. — why: a recipe.\n"
    outcome = Outcome(
        _project((TEST, RELEASE)), Hooked(_start("To run the tests: `make test`."), prompt)
    )
    assert [n.id for n in outcome.met_at_start()] == ["test"]
    assert [n.id for n in outcome.met_with_prompt()] == ["test", "release"]
    assert outcome.rare_needed_at_start() == []


def test_a_rare_item_not_needed_is_counted_when_shown() -> None:
    shown = Outcome(
        _project((TEST,)),
        Hooked(_start("To run the tests: `make test`.", "To release: `git tag v1.0.0`."), ""),
    )
    assert shown.project.rare_spare == (RELEASE,)
    assert shown.rare_spare_at_start() == [RELEASE]
    assert shown.unneeded() == ["To release: `git tag v1.0.0`."]
    assert shown.tokens == 120
    quiet = Outcome(_project((TEST,)), Hooked(_start("To run the tests: `make test`."), ""))
    assert quiet.rare_spare_at_start() == []
    assert quiet.unneeded() == []


def test_a_rare_line_not_needed_is_unneeded_though_it_quotes_a_need() -> None:
    line = "To release, as `v1.0.0` was: `make test` → `git tag v1.0.0`."
    outcome = Outcome(_project((TEST,)), Hooked(_start(line), ""))
    assert [n.id for n in outcome.met_at_start()] == ["test"]
    assert outcome.unneeded() == [line]


def test_wrong_lines_match_a_never_pattern() -> None:
    outcome = Outcome(
        _project((TEST,), never=((r"gradle", "no Gradle here"),)),
        Hooked(_start("To run the tests: `make test`."), "- Run `gradle test`.\n"),
    )
    assert outcome.wrong() == ["Run `gradle test`. (no Gradle here)"]


def test_lines_and_tokens_of_a_hook_text() -> None:
    assert lines_of(_start("a", "b")) == ["a", "b"]
    assert tokens_of(_start("a")) == 120
    assert lines_of("") == [] and tokens_of("") == 0
