"""`sqrl` loads only the module of the command it runs; its table of commands stays true."""

from __future__ import annotations

import subprocess
import sys

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
