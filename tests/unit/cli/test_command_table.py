"""`sqrl` loads only the module of the command it runs; its table of commands stays true."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from squirrel_cli.main import COMMANDS, build_parser
from squirrel_cli.supervisor_state import squirrel_version


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


def test_up_detach_prepares_the_home_without_loading_the_services_libraries(
    tmp_path: Path,
) -> None:
    """`sqrl up --detach` runs before any service can start: it prepares the home (user.db)
    and starts the supervisor, and loads none of what the services or the supervisor use.
    A live supervisor of this version is recorded, so this run stops at "already running"."""
    home = tmp_path / "home"
    (home / "run").mkdir(parents=True)
    record = {"pid": os.getpid(), "started_at": 0, "services": {}, "version": squirrel_version()}
    (home / "run" / "supervisor.json").write_text(json.dumps(record))
    probe = (
        "import sys\n"
        "from squirrel_cli.main import main\n"
        "code = main(['up', '--detach'])\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "SQRL_HOME": str(home)},
    )
    assert done.returncode == 0, done.stderr
    assert "already running" in done.stdout
    assert (home / "user.db").exists()
    loaded = set(done.stdout.strip().splitlines()[-1].split())
    heavy = {"asyncio", "grpc", "google", "structlog", "rich", "numpy", "faiss", "mcp"}
    assert not loaded & heavy, sorted(loaded & heavy)
