# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, sixteenth part: where an instruction file says things live, said as the
project's layout when the line plans, hedges, denies, or was taken out of the file by the
session, and a guess about the database the session took back after reading the code
(`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` patterns included, before it was run.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

_NOTES = """# ledgerly

Ledgerly is a bookkeeping API.

## Layout
- Request handlers live in `src/api/`, one module per resource.
- The new importer will live in `src/importer/`.
- Background jobs should probably go in `src/jobs/` once the queue lands.
- Fixtures are not kept in `tests/fixtures/`; each test builds its own data.
- Where do reports live in `src/reports/`? Ask before adding one.
"""

INSTRUCTION_LAYOUT_NOT_STATED = Trap(
    "instruction-layout-not-stated",
    "Python",
    "an instruction file's layout lines that plan, hedge, deny or ask, beside one that states",
    (
        Session(
            "claude",
            "/home/ana/dev/ledgerly",
            (
                Ask("Where do request handlers go?"),
                Read("CLAUDE.md", _NOTES),
                Read(
                    "src/api/accounts.py", "from fastapi import APIRouter\nrouter = APIRouter()\n"
                ),
                Run("grep -rln APIRouter src/", "src/api/accounts.py\nsrc/api/ledgers.py"),
                Say("Handlers go in `src/api/`, one module per resource, as `CLAUDE.md` says."),
            ),
        ),
    ),
    wrong=(
        (r"src/importer", "false: a plan"),
        # The file's own line, quoted with its hedge as the user's rule, says what it says.
        (r"^(?!.*\b(?:should|probably)\b).*src/jobs", "false: a hedged plan"),
        (r"(?<!not )kept in .{0,3}tests/fixtures|fixtures (?:live|are kept) in", "false: denied"),
        (r"src/reports", "false: a question"),
    ),
    may=(r"src/api",),
)

_AGENTS = "# shipyard\n\n- Jobs live in `app/jobs/`, one class per job.\n- Run `bundle exec rspec` before finishing.\n"

INSTRUCTION_LAYOUT_REWRITTEN = Trap(
    "instruction-layout-rewritten",
    "Ruby",
    "a layout line the session itself took out of the instruction file when it moved the folder",
    (
        Session(
            "codex",
            "/home/kim/src/shipyard",
            (
                Ask("Move the jobs from app/jobs to app/workers and update AGENTS.md."),
                Read("AGENTS.md", _AGENTS),
                Run("git mv app/jobs app/workers", ""),
                Write(
                    "AGENTS.md",
                    "# shipyard\n\n- Workers live in `app/workers/`, one class per job.\n- Run `bundle exec rspec` before finishing.\n",
                ),
                Run("bundle exec rspec", "Finished in 3.1 seconds\n88 examples, 0 failures"),
                Say("Moved the jobs to `app/workers/` and updated `AGENTS.md`; 88 examples pass."),
            ),
        ),
    ),
    wrong=((r"app/jobs", "false: the session moved it"),),
)

GUESSED_DATABASE_TAKEN_BACK = Trap(
    "guessed-database-taken-back",
    "C#",
    "a guessed database taken back once the entry point was read; the tests' in-memory provider",
    (
        Session(
            "claude",
            "/home/kim/src/Ledgerly",
            (
                Ask("Which database does this use?"),
                Say("Probably SQL Server, like most ASP.NET projects; let me check."),
                Read(
                    "CLAUDE.md",
                    "# Ledgerly\n\n- Endpoints go in `src/Ledgerly.Api/Endpoints/`, one static class per resource.\n- Tests: `dotnet test`.\n",
                ),
                Read(
                    "src/Ledgerly.Api/Program.cs",
                    'var builder = WebApplication.CreateBuilder(args);\nbuilder.Services.AddDbContext<LedgerDb>(o => o.UseNpgsql(builder.Configuration.GetConnectionString("Ledger")));\nvar app = builder.Build();\napp.Run();\n',
                ),
                Read(
                    "tests/Ledgerly.Tests/Ledgerly.Tests.csproj",
                    '<ItemGroup>\n  <PackageReference Include="xunit" Version="2.7.0" />\n  <PackageReference Include="Microsoft.EntityFrameworkCore.InMemory" Version="8.0.2" />\n</ItemGroup>\n',
                ),
                Run(
                    "dotnet test",
                    "Passed!  - Failed:     0, Passed:    63, Skipped:     0, Total:    63",
                ),
                Say(
                    "I was wrong about SQL Server: `Program.cs` calls `UseNpgsql`, so the database is PostgreSQL; the tests use the EF Core in-memory provider."
                ),
            ),
        ),
    ),
    wrong=(
        (r"SQL Server", "false: a guess taken back"),
        (r"(?:data layer|database)\b[^.]{0,30}in-?memory", "false: the tests' provider"),
    ),
    may=(r"PostgreSQL", r"src/Ledgerly\.Api/Endpoints"),
)

CASES = (INSTRUCTION_LAYOUT_NOT_STATED, INSTRUCTION_LAYOUT_REWRITTEN, GUESSED_DATABASE_TAKEN_BACK)
