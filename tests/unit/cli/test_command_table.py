"""`sqrl` loads only the module of the command it runs; its table of commands stays true."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from squirrel_cli.main import COMMANDS, build_parser


def _subcommands(parser: object) -> dict[str, str]:
    action = next(a for a in parser._subparsers._group_actions)  # type: ignore[attr-defined]
    return {c.dest: c.help for c in action._choices_actions}


def test_the_table_lists_every_command_with_its_modules_own_help() -> None:
    everything = _subcommands(build_parser("*"))
    assert everything == {name: text for name, (_, text) in COMMANDS.items()}


@pytest.mark.parametrize(
    ("argv", "absent"),
    [
        (["--help"], ("grpc", "rich", "mcp", "squirrel_gateway", "squirrel_memory", "structlog")),
        (["config", "list"], ("grpc", "mcp", "squirrel_gateway", "faiss", "structlog")),
        (["status", "--help"], ("mcp", "squirrel_gateway", "faiss", "numpy")),
        (["search", "--help"], ("mcp", "squirrel_memory", "faiss", "numpy", "structlog")),
        (["context", "--help"], ("mcp", "squirrel_memory", "faiss", "numpy", "structlog")),
    ],
)
def test_a_command_imports_only_what_it_uses(argv: list[str], absent: tuple[str, ...]) -> None:
    probe = (
        "import sys\n"
        "from squirrel_cli.main import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(done.stdout.split()[-1:] and done.stdout.strip().splitlines()[-1].split())
    assert not loaded & set(absent), sorted(loaded & set(absent))


ACTIONS = {
    "init",
    "up",
    "down",
    "mcp",
    "hook",
    "hooks install",
    "hooks remove",
    "serve",
    "team join",
    "team leave",
}
ROOT = Path(__file__).resolve().parents[3]


def _leaves(parser: object, prefix: str = "") -> dict[str, object]:
    found: dict[str, object] = {}
    subparsers = getattr(parser, "_subparsers", None)
    if subparsers is None:
        return {prefix.strip(): parser}
    for action in subparsers._group_actions:
        for name, child in action.choices.items():
            found.update(_leaves(child, f"{prefix} {name}"))
    return found


def test_every_command_that_prints_data_takes_json_and_is_documented() -> None:
    doc = (ROOT / "docs" / "cli.md").read_text()
    for name, parser in _leaves(build_parser("*")).items():
        options = {o for a in parser._actions for o in a.option_strings}  # type: ignore[attr-defined]
        assert f"`sqrl {name.split()[0]}" in doc, f"sqrl {name} is not in docs/cli.md"
        if name in ACTIONS:
            continue
        assert "--json" in options, f"sqrl {name} prints data but takes no --json"
