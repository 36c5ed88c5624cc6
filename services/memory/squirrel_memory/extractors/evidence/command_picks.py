"""What a command's words pick: only a look at the program (its help or version), some tests
(a file, a folder, a test by name or marker) rather than the whole run, one file, or one
package of a workspace; and the one command several runs share with the file or package they
picked left open (`php -l <file>`, `cargo test -p <package>`)."""

from __future__ import annotations

import re

from squirrel_memory.extractors.evidence.attempts import Attempt

#: Options that make a formatter only check (or list) what it would change.
FORMAT_CHECK = re.compile(
    r"\s(?:--?check\S*|--diff|-l|--list\S*|--dry-run|--test|--verify-no-changes)(?:\s|=|$)"
)


#: Options that only show what a program is (`cargo run -- --help`): a look, never a run.
_LOOKS = frozenset({"-h", "--help", "-help", "--version", "-V", "--usage"})


def looks_only(command: str) -> bool:
    """Whether a command only asks a program for its help or version."""
    return bool(_LOOKS.intersection(command.split()[1:]))


#: Options that pick some tests by name, in the runners of many ecosystems (Maven's Surefire
#: and Failsafe take theirs as system properties: `-Dtest=InvoiceTest`, `-Dit.test=…`).
TEST_PICKERS = frozenset(
    {"-t", "-k", "-run", "--run", "--grep", "-g", "--filter", "--testNamePattern", "--tests"}
    | {"-Dtest", "-Dit.test"}
    # Options that leave tests out by tag, name or namespace (`mix test --exclude external`,
    # `pytest --deselect …`, `clojure -X:test :nses '[a-test]'`): a part of the suite ran.
    | {"--exclude", "--only", "--skip", "--deselect", "--exclude-tag", "--exclude-tags"}
    | {"--testPathPattern", "--testPathIgnorePatterns", ":nses", ":only", ":exclude"}
)


#: Test tasks that run the tests their arguments name (sbt's `testOnly *ParserSpec`).
TEST_TASKS_BY_NAME = frozenset({"testOnly", "testQuick", "test-only", "test-quick"})


MARKER_PICK = re.compile(r"\s-m[\s=]+\S")


def whole_run(attempt: Attempt) -> bool:
    """Whether a run ran its command whole: no file, folder or test picked, no marker set. A
    head that keeps the packages it ran over (`go test ./internal/store/...`, `go test
    ./internal/zone`) picked a folder; `go test ./...` ran them all."""
    return (
        not picks_packages_below_root(attempt.base)
        and not picks_tests(attempt.text, attempt.base)
        and not MARKER_PICK.search(attempt.text.removeprefix(attempt.base))
    )


def picks_packages_below_root(base: str) -> bool:
    """Whether a command's head keeps a package below the project's root, recursive
    (`./internal/store/...`) or one (`go test ./internal/zone`: `attempts.folder_packages`),
    not the whole tree (`./...`, `...`)."""
    words = base.split()
    go = bool(words) and words[0].rsplit("/", 1)[-1] == "go"
    return any(
        word != "./..." and (word.endswith("/...") or (go and word.startswith(("./", "../"))))
        for word in words[1:]
    )


def picks_tests(command: str, base: str) -> bool:
    """Whether a test command runs only some tests: after its `base`, a file, a folder, a
    `file::test` or a by-name option (`-k`, `-t`, `-run`, `--filter` …). The project's test
    command is the one without them; such a run is an example. A configuration file in the
    project's root given to an option (`-p tsconfig.json`, `-c phpunit.xml`, `--config-file
    mypy.ini`, `--manifest-path=Cargo.toml`) says how the whole project is checked, and picks
    nothing."""
    if _names_tests_by_word(command, base):
        return True
    after_option = False
    for token in command.removeprefix(base).split():
        word, equals, value = token.partition("=")
        if word in TEST_PICKERS or "::" in token or word.strip("'\"") in TEST_TASKS_BY_NAME:
            return True
        if token.startswith("-"):
            after_option = not equals
            if equals and "/" in value and not _CONFIG_FILE.fullmatch(value):
                return True
            continue
        if after_option and _CONFIG_FILE.fullmatch(token):
            after_option = False
            continue
        after_option = False
        if token in ("./...", "..."):
            continue  # every package of the module: the whole project
        if "/" in token or re.search(r"\.\w{1,5}$", token):
            return True
    return False


#: Test commands whose plain word (neither an option nor an option's value) is a filter on the
#: tests' names: `cargo test parse_` runs the tests whose names hold `parse_`.
_NAME_FILTER_HEADS = frozenset({("cargo", "test"), ("cargo", "bench")})
#: cargo's options that take the next word as their value (`-p zone-core`, `--features x`).
_CARGO_VALUE_OPTIONS = frozenset(
    str.split(
        "-p --package --exclude -F --features -j --jobs --target --target-dir --manifest-path "
        "--bin --example --test --bench --profile --color --config -Z --message-format"
        # and the test binary's, after `--` (`cargo test -- --test-threads 1`)
        " --test-threads --format --logfile --skip --shuffle-seed"
    )
)


def _names_tests_by_word(command: str, base: str) -> bool:
    """Whether a test command whose plain words filter the tests by name (`cargo test -p core
    parse_`, `cargo test -- --exact parse_origin`) was given one."""
    words = command.split()
    if tuple(base.split()[:2]) not in _NAME_FILTER_HEADS or words[:2] != base.split()[:2]:
        return False
    value_next = False
    for word in words[2:]:
        if value_next:
            value_next = False
        elif word.startswith("-"):
            value_next = word in _CARGO_VALUE_OPTIONS
        elif word != "--":
            return True
    return False


#: A configuration file of the project's root, by the formats configuration is written in.
_CONFIG_FILE = re.compile(
    r"[\w.-]+\.(?:json|jsonc|json5|toml|ya?ml|ini|cfg|conf|xml|xml\.dist|props|properties)",
    re.IGNORECASE,
)


#: Options that only change how much a check prints (`-q`, `--tb=short`, `--output-on-failure`).
OUTPUT_ONLY = re.compile(
    r"^(?:-v+|-q+|-s|--verbose|--quiet|--tb=\S+|--colou?r(?:=\S+)?|--no-colou?r|"
    r"--output-on-failure|--durations=\S+|--no-header|-r[a-zA-Z]+|--reporter=\S+|--progress\S*)$"
)


#: A word that names one file: a path or a name with an extension.
_FILE_WORD = re.compile(r"^[\w./-]*\w\.\w{1,5}$")


def after_base(command: str, base: str) -> str | None:
    """The words of `command` beyond its stable head `base`: what follows it, or, for a head
    that gathered words from further on (`go test -tags integration ./...` under `go test
    ./...`: `attempts.folder_packages`), the other words in their order; None when `command`
    does not hold every word of `base`."""
    if command.startswith(base):
        return command.removeprefix(base)
    rest = command.split()
    for word in base.split():
        if word not in rest:
            return None
        rest.remove(word)
    return " " + " ".join(rest) if rest else ""


def whole_with_options(command: str, base: str) -> bool:
    """Whether a test command runs every test with options of its own that are not only about
    its output (`go test -tags integration ./...`, not `pytest -q`)."""
    extra = after_base(command, base)
    return (
        extra is not None
        and not picks_tests(command, base)
        and any(w.startswith("-") and not OUTPUT_ONLY.match(w) for w in extra.split())
    )


def _one_word_differs(commands: list[str]) -> tuple[list[list[str]], int] | None:
    """The words of at least two different `commands` of as many words, and the one place
    (never the program) where they differ; else `None`."""
    split = [c.split() for c in dict.fromkeys(commands)]
    if len(split) < 2 or len({len(words) for words in split}) != 1:
        return None
    differing = [i for i in range(len(split[0])) if len({words[i] for words in split}) > 1]
    if len(differing) != 1 or differing[0] == 0:
        return None
    return split, differing[0]


def file_template(commands: list[str]) -> str | None:
    """The one command `commands` share with the file they name left open (`php -l <file>`),
    when they differ only in that one word and each names a file there; else `None`."""
    differ = _one_word_differs(commands)
    if differ is None:
        return None
    split, at = differ
    if not all(_FILE_WORD.match(words[at]) for words in split):
        return None
    return " ".join([*split[0][:at], "<file>", *split[0][at + 1 :]])


#: Options that pick the package (workspace member) a command runs on, in many ecosystems'
#: tools (`-p`, `--package`, `--filter`, `-w`, `--workspace`).
_PACKAGE_OPTIONS = frozenset(
    {"-p", "--package", "--filter", "-F", "-w", "--workspace", "-pl", "--projects"}
)
#: Purposes whose package option picks a workspace member.
PACKAGE_PURPOSES = frozenset({"test", "lint", "format", "typecheck", "build"})
#: A package's name: no plugin switch (`no:cacheprovider`), no count (`go test -p 4`), no
#: configuration file.
_PACKAGE_NAME = re.compile(r"^[@\w][\w@./-]*$")


def _package_name(word: str) -> bool:
    return (
        bool(_PACKAGE_NAME.match(word)) and not word.isdigit() and not _CONFIG_FILE.fullmatch(word)
    )


def package_template(commands: list[str]) -> str | None:
    """The one command `commands` share with the package they pick left open (`cargo test -p
    <package>`), when they differ only in the value of one package option (`-p a`, `-p b`;
    `--package=a`, `--package=b`) and there are at least two; else `None`."""
    differ = _one_word_differs(commands)
    if differ is None:
        return None
    split, at = differ
    option, equals, _value = split[0][at].partition("=")
    if equals:
        values = [words[at].partition("=") for words in split]
        if option in _PACKAGE_OPTIONS and all(
            o == option and _package_name(v) for o, _e, v in values
        ):
            return " ".join([*split[0][:at], f"{option}=<package>", *split[0][at + 1 :]])
        return None
    if split[0][at - 1] not in _PACKAGE_OPTIONS:
        return None
    if not all(_package_name(words[at]) for words in split):
        return None
    return " ".join([*split[0][:at], "<package>", *split[0][at + 1 :]])


#: Programs whose `-p` picks a package (elsewhere it loads a plugin, sets a count or a port).
_P_IS_PACKAGE = frozenset({"cargo", "cross"})


def picks_package(command: str) -> bool:
    """Whether a command picks one package of a workspace (`-p core`, `--filter=web`), not all
    of them (cargo's `--workspace` takes no value), nor a plugin or a count (`-p 4`)."""
    program = command.split(maxsplit=1)[0].rsplit("/", 1)[-1] if command.split() else ""
    words = command.split()[1:]
    for n, word in enumerate(words):
        option, equals, value = word.partition("=")
        if option not in _PACKAGE_OPTIONS or (option == "-p" and program not in _P_IS_PACKAGE):
            continue
        given = value if equals else (words[n + 1] if n + 1 < len(words) else "")
        if given and _package_name(given):
            return True
    return False
