"""Shell lines as words: a line split into its simple commands, and words joined back.

`simple_commands(line)` splits a shell line (up to `MAX_LINE_CHARS`) into the words of each
simple command, dropping what a pipe feeds into and every redirection with its target; the body
of a here-document (`cat > notes.md <<'EOF'`, a commit message given with `-F - <<EOF`) is text
the command reads, not commands, and goes with its delimiter line; quoted or backslash-escaped
text is data, whatever it looks like (`grep -c "<<<" x`, `echo "a && b"`, the escaped `;`
ending `find -exec`); a line the shell could not parse (an unclosed quote) is split on its
operators all the same.
`join_words(words, typed=line)` is the inverse a reader wants: the words as a line that pastes
and runs, quoted only where needed, a word keeping the quotes the user typed around it.
"""

from __future__ import annotations

import re
import shlex

#: Longest shell line read; longer input is cut (commands are capped upstream anyway).
MAX_LINE_CHARS = 8_000
_PUNCTUATION = frozenset(";&|<>()\n")
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
#: A here-document's operator and delimiter (`<<EOF`, `<<-'END'`, `<< "MSG"`), not a
#: here-string (`<<<`).
_HEREDOC = re.compile(r"(?<!<)<<(-?)[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")


#: Operator characters quoted or escaped in a line stand in as these (private-use) characters
#: while it is split, so that no quoted `&&` or `<<<` reads as an operator.
_MASK = {char: chr(0xE000 + i) for i, char in enumerate(sorted(_PUNCTUATION))}
#: A `#` inside a word (`nix build .#default`, `url#anchor`) starts no comment: it stands in
#: as this character while the line is split.
_WORD_HASH = chr(0xE000 + len(_MASK))
_UNMASK = str.maketrans({**{mask: char for char, mask in _MASK.items()}, _WORD_HASH: "#"})
_WORD_BREAK = frozenset(" \t\r") | _PUNCTUATION


def _masked(line: str) -> str:
    """`line` with the operator characters inside quotes or after a backslash masked; as it
    is when it already holds a mask character."""
    if any(mask in line for mask in (*_MASK.values(), _WORD_HASH)):
        return line
    out: list[str] = []
    single = double = escaped = False
    for char in line:
        if escaped:
            escaped = False
            out.append(char if char == "\n" else _MASK.get(char, char))
            continue
        if char == "\\" and not single:
            escaped = True
        elif char == "'" and not double:
            single = not single
        elif char == '"' and not single:
            double = not double
        elif single or double:
            out.append(_MASK.get(char, char))
            continue
        elif char == "#" and out and out[-1] not in _WORD_BREAK:
            out.append(_WORD_HASH)
            continue
        out.append(char)
    return "".join(out)


def _words(line: str) -> list[tuple[str, bool]]:
    """The line's tokens, each with whether it is an operator (not quoted or escaped text)."""
    lexer = shlex.shlex(_masked(line), posix=True, punctuation_chars=";&|<>()\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    try:
        return [(token.translate(_UNMASK), _is_operator(token)) for token in lexer]
    except ValueError:
        spaced = re.sub(r"(&&|\|\||[;|\n]|\d?>>?&?\d?|<)", r" \1 ", line)
        tokens = [t for t in spaced.replace("\n", " \n ").split(" ") if t]
        return [(token, _is_operator(token)) for token in tokens]


def _is_operator(token: str) -> bool:
    return bool(token) and set(token) <= _PUNCTUATION


def shell_tokens(line: str) -> list[str]:
    """The line's words and operators, quotes taken off."""
    return [token for token, _ in _words(line)]


def without_heredocs(line: str) -> str:
    """`line` without the bodies of its here-documents (each body up to its delimiter line,
    that line included). An operator inside quotes (`-m "$(cat <<'EOF' …)"`) is part of a
    quoted word, whose text stays as it is; a body without its delimiter runs to the end."""
    if "<<" not in line:
        return line
    lines = line.split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        current = lines[i]
        kept.append(current)
        i += 1
        for match in _HEREDOC.finditer(current):
            if _quoted_at(current, match.start()):
                continue
            strip_tabs, delimiter = match.group(1) == "-", match.group(3)
            while i < len(lines):
                body = lines[i]
                i += 1
                if (body.lstrip("\t") if strip_tabs else body).rstrip() == delimiter:
                    break
    return "\n".join(kept)


def _quoted_at(line: str, end: int) -> bool:
    """Whether position `end` of `line` is inside single or double quotes."""
    single = double = False
    escaped = False
    for char in line[:end]:
        if escaped:
            escaped = False
        elif char == "\\" and not single:
            escaped = True
        elif char == "'" and not double:
            single = not single
        elif char == '"' and not single:
            double = not double
    return single or double


#: Reserved words that open a compound command's part whose rest is a command of its own.
_LEADING_KEYWORDS = frozenset({"do", "then", "else", "elif", "if", "while", "until", "!", "{"})
#: Reserved words that close a compound command (nothing runs).
_CLOSING_KEYWORDS = frozenset({"done", "fi", "esac", "}"})
#: Headers whose words are a list to iterate over or match, not a command.
_HEADER_KEYWORDS = frozenset({"for", "select", "case"})


def _without_keywords(words: list[str]) -> list[str]:
    """A simple command's words without the reserved words of the compound command around it
    (`do`, `then`, `if`), empty for a loop's header or a closing word."""
    while words:
        if words[0] in _HEADER_KEYWORDS or words[0] in _CLOSING_KEYWORDS:
            return []
        if words[0] not in _LEADING_KEYWORDS:
            break
        words = words[1:]
    return words


def simple_commands(line: str) -> list[list[str]]:
    """Split a shell line into simple commands; pipes' right-hand sides and redirections go,
    and so do the reserved words of loops and conditionals."""
    return [words for words, _ in joined_commands(line)]


def joined_commands(line: str) -> list[tuple[list[str], str]]:
    """`simple_commands`, each with the operator that joined it to the one before (`&&`, `||`,
    `;`, a newline, `&`; "" for the first): what decides whether it ran after a failure."""
    return [
        (words, joined)
        for tokens, joined in _simple_commands(line)
        if (words := _without_keywords(tokens))
    ]


def _simple_commands(line: str) -> list[tuple[list[str], str]]:
    found: list[tuple[list[str], str]] = []
    current: list[str] = []
    joined = ""
    piped = False
    skip_next = False
    for token, operator in _words(without_heredocs(line[:MAX_LINE_CHARS])):
        if skip_next:
            skip_next = False
            continue
        punct = token.strip("()") if operator else None
        if punct == "":
            continue
        if punct is None:
            if not piped:
                current.append(token)
            continue
        if "<" in punct or ">" in punct:
            if current and current[-1].isdigit():
                current.pop()
            skip_next = True
        elif "|" in punct and punct != "||":
            piped = True
        else:
            if current:
                found.append((current, joined))
                joined = ""
            # (the first operator after a command joins it to the next: `a && \n b` is `&&`)
            joined = joined or punct
            current, piped = [], False
    if current:
        found.append((current, joined))
    return found


def join_words(words: list[str], *, typed: str = "") -> str:
    """Words back into a shell line, quoted only where needed, preferring the usual quotes; a
    word quoted in the `typed` line it came from keeps the quotes it had there."""
    shown: list[str] = []
    for word in words:
        shown.append(_as_typed(word, typed) or _quoted(word))
    return " ".join(shown)


#: A word of plain characters and variables (`$PWD:/src`, `${HOME}/.cache`): an unquoted
#: word the shell expanded, not a quoted program text (`{print $1}`).
_EXPANDED_WORD = re.compile(r"^(?:[\w@%+=:,./-]|\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\}))+$")


def _quoted(word: str) -> str:
    quoted = shlex.quote(word)
    plain = word.replace("#", "_")
    if quoted != word and not word.startswith("#") and shlex.quote(plain) == plain:
        return word  # a `#` inside a word starts no comment (`nix build .#default`)
    if quoted != word and _EXPANDED_WORD.match(word):
        # A variable the shell expands (`-v $PWD:/src`): single quotes would keep it literal.
        return f'"{word}"'
    if quoted != word and "'" in word:
        escaped = word.replace("\\", "\\\\").replace('"', '\\"')
        quoted = f'"{escaped}"'
    return quoted


def _as_typed(word: str, typed: str) -> str | None:
    """`word` as the user quoted it in `typed` (`'platform=macOS'`, `"a b"`, `FLAGS="-x -y"`),
    when the quotes there hold it as it is."""
    if not typed or not word:
        return None
    name, equals, value = word.partition("=")
    heads = [("", word)]
    if equals and ENV_ASSIGNMENT.match(word):
        heads.append((f"{name}=", value))
    for head, inner in heads:
        if "'" not in inner and f"{head}'{inner}'" in typed:
            return f"{head}'{inner}'"
        if not any(c in inner for c in '"\\$`') and f'{head}"{inner}"' in typed:
            return f'{head}"{inner}"'
    if _GLOB_WORD.match(word) and re.search(rf"(?<![^\s]){re.escape(word)}(?![^\s;&|)])", typed):
        return word  # a pattern typed unquoted (`src/*.cpp`): the shell expands it
    return None


#: A word of plain path characters with a glob in it (`src/*.cpp`, `test_?.py`).
_GLOB_WORD = re.compile(r"^[\w./@+-]*[*?][\w./@*?+-]*$")


__all__ = [
    "ENV_ASSIGNMENT",
    "MAX_LINE_CHARS",
    "join_words",
    "shell_tokens",
    "simple_commands",
    "without_heredocs",
]
