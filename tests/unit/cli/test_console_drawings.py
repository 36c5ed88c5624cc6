"""A deferred console (the quick reads) writes exactly what an immediate one writes on a terminal,
whether its tables and markdown are drawn elsewhere (`squirrel_core.terminal.render`, what the
gateway runs) or, when that fails, by itself."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from squirrel_cli.console import Console
from squirrel_core.terminal import Drawing, Terminal, check_drawings, render


class FakeTerminal(io.StringIO):
    """Output that says it is a terminal, in UTF-8."""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def isatty(self) -> bool:
        return True


def _print(console: Console) -> None:
    console.line("Squirrel home /tmp/x — supervisor pid 42")
    console.table(
        "Memory search: tests",
        ["score", "type", "memory", "content", "why"],
        [
            ["0.46", "project_fact", "mem_01ABCDEF", "Run the tests " + "with care " * 20, "why"],
            ["0.12", "pitfall", "mem_01ZZZ", "⚠ Never push to main", "Matches 'main'"],
        ],
        whole=("memory",),
    )
    console.markdown(
        "## Relevant memory\n\n_Remembered notes._\n\n- [recipe] Use `gh pr create` and **wait**\n"
    )
    console.line("1 of 2 shown; ~73/800 tokens")


def _immediate() -> str:
    out = FakeTerminal()
    _print(Console(out))
    return out.getvalue()


def _deferred(renderer: Callable[[list[Drawing]], list[str]] | None) -> str:
    out = FakeTerminal()
    console = Console(out, deferred=True)
    _print(console)
    assert out.getvalue() == ""  # nothing before `finish`
    assert len(console.drawings()) == 2
    console.finish(renderer)
    return out.getvalue()


@pytest.mark.parametrize("columns", ["60", "132"])
def test_drawn_elsewhere_for_the_same_terminal_the_output_is_the_same(
    columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setenv("TERM", "xterm-256color")
    immediate = _immediate()
    assert "\x1b[" in immediate and "┃" in immediate  # drawn by rich, styled

    def elsewhere(drawings: list[Drawing]) -> list[str]:
        # As the gateway gets them: through JSON, then checked.
        import json  # noqa: PLC0415

        sent = json.loads(json.dumps({"d": drawings, "t": Terminal.of(FakeTerminal()).as_json()}))
        return render(check_drawings(sent["d"]), Terminal.from_json(sent["t"]))

    assert _deferred(elsewhere) == immediate


def test_without_a_drawing_elsewhere_it_is_drawn_here() -> None:
    immediate = _immediate()

    def broken(drawings: list[Drawing]) -> list[str]:
        raise OSError("the gateway went away")

    assert _deferred(broken) == immediate
    assert _deferred(lambda drawings: ["only one"]) == immediate  # a wrong answer is not used
    assert _deferred(None) == immediate


def test_a_discarded_console_prints_nothing() -> None:
    out = FakeTerminal()
    console = Console(out, deferred=True)
    _print(console)
    console.discard()
    console.finish(None)
    assert out.getvalue() == ""


@pytest.mark.parametrize(
    "drawings",
    [
        "not a list",
        [{"table": {"title": "t", "columns": ["a"], "rows": [["1", "2"]], "whole": []}}],
        [{"markdown": 3}],
        [{"markdown": "x", "table": {}}],
        [{"script": "x"}],
    ],
)
def test_what_is_not_a_drawing_is_refused(drawings: object) -> None:
    with pytest.raises(ValueError, match=r"drawing|table|markdown"):
        check_drawings(drawings)


def test_a_terminal_description_is_checked() -> None:
    good = Terminal(80, 25, "utf-8", True, {"TERM": "xterm"}).as_json()
    assert Terminal.from_json(good).width == 80
    for bad in ({**good, "width": 0}, {**good, "env": {"PATH": "/bin"}}, {**good, "isatty": 1}):
        with pytest.raises(ValueError, match="terminal"):
            Terminal.from_json(bad)
    # no object at all (a JSON string, list or number): refused the same way, not a crash
    for bad_json in ("x", [good], 80, None, {**good, "env": "TERM=xterm"}):
        with pytest.raises(ValueError, match="terminal"):
            Terminal.from_json(bad_json)
