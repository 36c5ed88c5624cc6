# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z3`: what the project is, said from the wrong thing: the assistant's
answer to a question about one part of the repository ("what does the repo's CI do?"), a hedged
answer to "what's in this repo?", a README whose stack a rewrite left behind beside the root
manifest of the code, a README naming a kindred language (JavaScript in a TypeScript project),
an instruction file's labelled list whose "Purpose" item is a rule for the assistant, and a
member crate's `[workspace.package]` table read in a sub-folder (`bench/wrong_traps.py` runs
them).

Every trap was written, its `wrong` and `may` patterns included, before it first ran, with the
rules it tests already in (`extractors/about_stack.py`, the answer to "what's in this repo?"
in `extractors/summaries.py`, the labelled-list overview in `extractors/about.py`, a Cargo
workspace root's description in `repository/manifests.py`); two were then written for Gemini
CLI and Codex instead of Claude Code, and two given a command each, as every trap has. The
first run read 0 wrong and
showed one thing to mend: the kindred-language trap said "…, written in JavaScript. It is a
TypeScript project (package.json)." (not wrong by its pattern, but two languages for one);
a statement naming a kindred language is now left as it is. With its guard taken out, the
question about a part (any "what does the repo… ?") makes "a pipeline" what the project is,
and the stale README keeps "written in Python with Scrapy"; the hedged answer's "It's probably
a …" never opens as "It's a …", so it reads 0 wrong either way (the unit tests hold the hedge
inside the sentence).
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

PART_QUESTION = Trap(
    "answer-about-a-part",
    "Node (GitHub Actions)",
    "the user asks what the repository's CI does; the answer describes the workflow, not the "
    "project",
    one_session(
        "/home/ava/src/quillpad",
        Ask("what does the repo's CI do?"),
        Run("ls .github/workflows", "ci.yml\n"),
        Read(
            ".github/workflows/ci.yml",
            "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm ci\n      - run: npm test\n",
        ),
        Say(
            "It's a pipeline that installs the dependencies with `npm ci` and runs `npm test` on every push."
        ),
    ),
    wrong=((r"What this project[^\n]*pipeline", "the answer is about the CI workflow"),),
)

HEDGED_ANSWER = Trap(
    "hedged-answer-what-is-in-repo",
    "C (Make)",
    "asked what is in the repository, the assistant guesses with a hedge",
    one_session(
        "/home/ned/src/sprite",
        Ask("what's in this repo?"),
        Run("ls", "Makefile\nsrc\nassets\n"),
        Read("src/main.c", "int main(void) {\n    return run();\n}\n"),
        Say(
            "It's probably a small game engine, going by `assets/`, though there is no README to confirm it."
        ),
        host="gemini",
    ),
    wrong=((r"What this project[^\n]*game engine", "the assistant only guessed"),),
)

STALE_README_STACK = Trap(
    "readme-stack-left-behind",
    "Go (rewritten from Python)",
    "the README still says the tool is written in Python; `go.mod` and the Go code say Go",
    one_session(
        "/home/ines/src/sitemapper",
        Ask("The crawler follows links to other hosts. Keep it on the start host."),
        Read(
            "README.md",
            "# sitemapper\n\nsitemapper crawls a website and writes its sitemap.xml. It is written in Python with Scrapy.\n\n## Usage\n",
        ),
        Read("go.mod", "module github.com/ines/sitemapper\n\ngo 1.22\n"),
        Read(
            "crawl/crawl.go",
            "package crawl\n\nfunc (c *Crawler) follow(u *url.URL) bool {\n\treturn true\n}\n",
        ),
        Edit(
            "crawl/crawl.go",
            "\treturn true",
            "\treturn u.Host == c.start.Host",
        ),
        Run("go test ./...", "ok  \tgithub.com/ines/sitemapper/crawl\t0.12s\n"),
    ),
    wrong=(
        (
            r"What this project[^\n]*(?:\bPython\b|Scrapy)",
            "the README's stack fell behind a rewrite",
        ),
    ),
    may=(r"What this project[^\n]*sitemap[^\n]*\bGo project",),
)

KINDRED_LANGUAGE = Trap(
    "readme-kindred-language",
    "TypeScript (npm)",
    "the README says JavaScript; the root package.json and the code are TypeScript: the clause "
    "stays and no second language is claimed",
    one_session(
        "/home/ole/src/tinyqueue-ui",
        Ask("Sort the job list by enqueue time."),
        Read(
            "README.md",
            "# tinyqueue-ui\n\ntinyqueue-ui is a dashboard for Redis job queues, written in JavaScript.\n",
        ),
        Read(
            "package.json",
            '{\n  "name": "tinyqueue-ui",\n  "scripts": {"build": "tsc", "test": "vitest run"},\n  "devDependencies": {"typescript": "^5.5.0", "vitest": "^2.0.0"}\n}\n',
        ),
        Read("src/jobs.ts", "export function sorted(jobs: Job[]) {\n  return jobs;\n}\n"),
        Edit(
            "src/jobs.ts",
            "  return jobs;",
            "  return [...jobs].sort((a, b) => a.enqueuedAt - b.enqueuedAt);",
        ),
        Run("npm test", " ✓ src/jobs.test.ts (2 tests)\n"),
        host="codex",
    ),
    wrong=(
        (r"JavaScript and TypeScript project|TypeScript and JavaScript project", "one language"),
    ),
    may=(r"What this project[^\n]*dashboard",),
)

LISTED_RULE = Trap(
    "listed-overview-rule",
    "Python (uv)",
    "an instruction file's labelled list whose 'Purpose' item asks something of the assistant",
    one_session(
        "/home/kai/src/mailsort",
        Ask("Read CLAUDE.md and then add a --dry-run flag."),
        Read(
            "CLAUDE.md",
            "# CLAUDE.md\n\n## Overview\n\n- **Purpose**: you must never commit generated files\n- **Stack**: Python 3.12, uv\n",
        ),
        Read("mailsort/cli.py", "def main(argv=None):\n    args = parse(argv)\n"),
        Edit(
            "mailsort/cli.py",
            "    args = parse(argv)\n",
            "    args = parse(argv)\n    dry = args.dry_run\n",
        ),
        Run("uv run pytest -q", "...\n3 passed in 0.04s\n"),
    ),
    wrong=((r"What this project[^\n]*never commit generated", "a rule is no description"),),
)

MEMBER_WORKSPACE_TABLE = Trap(
    "member-crate-workspace-table",
    "Rust (Cargo workspace)",
    "a member crate's manifest read in its folder carries a `[workspace.package]`-like "
    "description of its own; the project's root manifest is never read",
    one_session(
        "/home/ray/src/gridline",
        Ask("The tile cache evicts too early. Raise its capacity to 4096."),
        Read(
            "crates/tiles/Cargo.toml",
            '[package]\nname = "gridline-tiles"\nversion = "0.3.0"\nedition = "2021"\n\n[workspace.package]\ndescription = "Tile cache shared by the map renderers"\n',
        ),
        Read("crates/tiles/src/cache.rs", "pub const CAPACITY: usize = 512;\n"),
        Edit("crates/tiles/src/cache.rs", "512", "4096"),
        Run("cargo test -p gridline-tiles", "test result: ok. 8 passed; 0 failed\n"),
    ),
    wrong=(
        (
            r"What this project[^\n]*Tile cache shared",
            "a member crate's manifest describes that crate, not the project",
        ),
    ),
)

CASES = (
    PART_QUESTION,
    HEDGED_ANSWER,
    STALE_README_STACK,
    KINDRED_LANGUAGE,
    LISTED_RULE,
    MEMBER_WORKSPACE_TABLE,
)
