"""The session-start probe: its committed transcripts are the set's, and its judge reads a start
text as the bench documents (a line must say it runs the tests; a command never seen to pass
only with a word saying so; a gate stated as the tests is wrong; a repeated preference must
open the style section)."""

from __future__ import annotations

from pathlib import Path

from bench.start_probe import SET, judge
from bench.start_probe_set import PROBES, transcripts
from bench.start_probe_types import Probe
from squirrel_core.events import EventType, SourcePosition
from squirrel_ingest.parsers import line_parser_of, source_of_first_line

FRAME = "Squirrel memory: notes.\n\n"


def _probe(**changes: object) -> Probe:
    base = {
        "name": "p",
        "ecosystem": "x",
        "shape": "",
        "folder": "/p",
        "sessions": (),
        "test": r"`make test`",
        "preference": r"malloc",
    }
    return Probe(**{**base, **changes})  # type: ignore[arg-type]


def _text(commands: list[str], styles: list[str]) -> str:
    parts = [FRAME, "### How things are run here\n", *(f"- {c}\n" for c in commands)]
    parts += ["\n### Your coding style\n", *(f"- {s}\n" for s in styles)]
    return "".join(parts)


def test_the_committed_transcripts_are_the_sets() -> None:
    for probe in PROBES:
        for n, text in enumerate(transcripts(probe), start=1):
            assert (SET / probe.name / f"session-{n}.jsonl").read_text() == text, probe.name


def test_each_transcript_parses_into_its_commands_and_messages() -> None:
    probe = PROBES[0]
    text = transcripts(probe)[0]
    first = text.splitlines()[0].encode()
    source = source_of_first_line(first)
    assert source is not None
    parser = line_parser_of(source, str(Path("/tmp/x.jsonl")))
    assert parser is not None
    events = [
        e
        for n, line in enumerate(text.encode().splitlines(keepends=True))
        for e in parser.feed(line, SourcePosition("x", 0, n))
    ]
    commands = [e.content.get("command") for e in events if e.content.get("command")]
    assert "go test ./..." in commands
    said = [e for e in events if e.event_type == EventType.USER_MESSAGE]
    assert any("table-driven" in str(e.content) for e in said)


def test_a_line_naming_the_command_must_say_it_runs_the_tests() -> None:
    probe = _probe()
    named = judge(probe, _text(["To run the tests: `make test`."], ["Never call malloc."]))
    assert (named.test, named.preference) == ("yes", "yes")
    only_gate = judge(probe, _text(["Before finishing a change: `make test`."], []))
    assert only_gate.test == "no"
    assert only_gate.preference == "no" and "style: (none)" in only_gate.instead


def test_a_command_never_seen_to_pass_needs_a_caveat() -> None:
    probe = _probe(test_caveat=True)
    assert judge(probe, _text(["To build: `make`."], [])).test == "ok (absent)"
    assert judge(probe, _text(["To run the tests: `make test`."], [])).test == "PLAIN"
    caveated = "To run the tests: `make test` (it failed every time so far)."
    assert judge(probe, _text([caveated], [])).test == "yes"


def test_a_gate_stated_as_the_tests_is_wrong() -> None:
    probe = _probe(not_test=r"make check")
    wrong = judge(probe, _text(["To run the tests: `make check`."], []))
    assert wrong.test == "WRONG"
    assert judge(probe, _text(["To run the checks: `make check`."], [])).test == "no"
    none = _probe(test="", not_test=r"`make`")
    assert judge(none, _text(["To build: `make`."], [])).test == "ok (none)"
    assert judge(none, _text(["To run the tests: `make`."], [])).test == "WRONG"


def test_a_repeated_preference_must_lead_unmarked() -> None:
    probe = _probe(repeated=True)
    lead = judge(probe, _text([], ["Never call malloc in the parser.", "Use tabs."]))
    assert lead.preference == "yes"
    second = judge(probe, _text([], ["Use tabs.", "Never call malloc in the parser."]))
    assert second.preference == "yes, not first"
    once = judge(probe, _text([], ["Noted once so far: Never call malloc."]))
    assert once.preference == "yes, as said once"
    assert judge(probe, "").instead == "(empty start)"


def test_a_task_stated_as_a_preference_is_wrong() -> None:
    probe = _probe(not_pref=r"varint decoder")
    text = _text([], ["Add a varint decoder.", "Never call malloc in the parser."])
    assert judge(probe, text).preference == "WRONG"
    assert judge(probe, _text([], ["Never call malloc in the parser."])).preference == "yes"
