"""When the user asks how to do something and the assistant answers with commands in shell
blocks, the commands become one recipe, in the order given, in any ecosystem; a request that is
no how-to, a block holding more than commands, a block the answer announces or negates, a
subagent's reply, another repository and a path of one machine do not."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.asked_steps import KEY_PREFIX, asked_steps, steps
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/orchestrator"
#: A TypeScript CLI: set up, check, then two runs, one command over continuation lines.
NODE_ANSWER = (
    "From the repository root, verify the local build:\n\n"
    "```bash\npnpm install\npnpm check\n```\n\n"
    "Then run the live loop:\n\n"
    "```bash\npnpm exec node --env-file=.env --import tsx src/cli.ts -- \\\n"
    '  . "Inspect the repository" \\\n  --orchestrate\n```\n\n'
    "At the prompt, enter one of:\n\n```text\napprove\nreject\n```\n"
)
#: A Rust workspace: the integration tests of one package.
RUST_ANSWER = "Run them per package:\n\n```sh\ncargo test-sbf -p system-test\n```\n"


def _found(request: str, answer: str, *, sidechain: bool = False, origin: str = "") -> list[str]:
    session = Session(ROOT, "s1", T0)
    if origin:
        session.add("user_message", {"text": request}, origin=origin)
    else:
        session.user(request)
    session.add("assistant_response", {"text": answer}, sidechain=sidechain)
    session.user("Thanks, that works.")
    return [f.content for f in asked_steps(session.events)]


def test_a_how_to_answer_gives_its_commands_in_order() -> None:
    found = _found("Okay give me the instructions on how to test it myself live", NODE_ANSWER)
    assert found == [
        'Asked "Okay give me the instructions on how to test it myself live", the assistant\'s'
        " answer gave, in order: from the repository root, verify the local build:"
        " `pnpm install`, then `pnpm check`; then run the live loop:"
        ' `pnpm exec node --env-file=.env --import tsx src/cli.ts -- . "Inspect the repository"'
        " --orchestrate`."
    ]


def test_one_command_answers_a_how_do_i_question() -> None:
    found = _found("How do I run the program tests?", RUST_ANSWER)
    assert found == [
        'Asked "How do I run the program tests?", the assistant\'s answer gave: run them per'
        " package: `cargo test-sbf -p system-test`."
    ]


def test_the_key_names_what_was_asked() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("How do I run the program tests?")
    session.say(RUST_ANSWER)
    (found,) = asked_steps(session.events)
    assert found.key.startswith(KEY_PREFIX)
    assert found.event_ids == ("s1_0001", "s1_0002")


def test_a_request_that_asks_no_how_to_gives_nothing() -> None:
    assert _found("Please add the live loop.", NODE_ANSWER) == []
    assert _found("Why does the build fail?", RUST_ANSWER) == []
    assert _found("Check whether how to run it is documented?", RUST_ANSWER) == []


def test_a_block_without_a_short_lead_in_has_no_label() -> None:
    answer = "Sure.\n\n```bash\nmake build\n```\n\nThen, once it finished:\n\n```bash\nmake install\n```\n"
    assert steps(answer) == [("", ["make build"]), ("Then, once it finished", ["make install"])]


def test_a_block_with_anything_but_commands_is_left_out_whole() -> None:
    answer = "Do it like this:\n\n```bash\npnpm install\nDone in 3.1s\n```\n"
    assert steps(answer) == []
    assert _found("How do I set it up?", answer) == []


def test_a_block_in_another_language_is_no_step() -> None:
    assert steps("Set:\n\n```dotenv\nAPI_KEY=your_key\n```\n") == []


def test_a_block_the_answer_announces_or_negates_is_no_step() -> None:
    assert steps("Let me run:\n\n```bash\npnpm test\n```\n") == []
    assert steps("Do not run:\n\n```bash\npnpm test\n```\n") == []


def test_a_subagents_reply_and_a_relayed_request_give_nothing() -> None:
    assert _found("How do I run the program tests?", RUST_ANSWER, sidechain=True) == []
    assert _found("How do I run the program tests?", RUST_ANSWER, origin="harness") == []


def test_another_repository_or_a_path_of_one_machine_gives_nothing() -> None:
    elsewhere = "In the upstream repository run:\n\n```bash\ncargo test -p core\n```\n"
    assert _found("How do I run the tests?", elsewhere) == []
    local = "Run:\n\n```bash\n/home/dev/bin/tool build\n```\n"
    assert _found("How do I build it?", local) == []


#: A Haskell package: the steps as a numbered list, each opened by its command.
HASKELL_ANSWER = (
    "To regenerate the golden files:\n\n"
    "1. `cabal build all`\n"
    "2. `cabal test golden --test-options=--accept` — tasty-golden overwrites the files under "
    "`test/golden/`.\n"
    "3. Review the changes with `git diff test/golden/` before committing.\n"
)


def test_a_numbered_list_of_commands_is_a_procedure_its_prose_items_left_out() -> None:
    found = _found("How do I update the golden files?", HASKELL_ANSWER)
    assert found == [
        'Asked "How do I update the golden files?", the assistant\'s answer gave, in order: to'
        " regenerate the golden files: `cabal build all`, then"
        " `cabal test golden --test-options=--accept`."
    ]


def test_a_numbered_list_that_is_no_procedure_gives_no_step() -> None:
    # one command only, names that are no command, a failure named in an item
    assert steps("1. `make test`\n2. Then read the report.\n") == []
    assert steps("1. `src/main.rs` holds the entry\n2. `Cargo.toml` the manifest\n") == []
    assert steps("1. `make` fails with an error\n2. `make test`\n") == []
    # a list under a lead-in that announces the assistant's own next step
    assert steps("Let me run these:\n1. `make build`\n2. `make test`\n") == []
