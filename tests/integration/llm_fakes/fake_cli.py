"""A stand-in for the `claude`, `codex` and `gemini` CLIs in headless mode, for tests.

Installed into a temporary bin folder under each CLI's name; what it does comes from the
environment: FAKE_LLM_MODE or the file FAKE_LLM_MODE_FILE names (ok, fenced, malformed, prose,
exit1, timeout, ratelimit, huge, logged_out, crash, flaky), FAKE_LLM_LOG (a JSONL file each call appends to), FAKE_LLM_TRANSCRIPTS (a Claude
projects root: the fake writes its own session transcript there, as the real CLIs do).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

ANSWER = {
    "memories": [
        {
            "type": "recipe",
            "key": "recipe:test",
            "content": "Run the tests with `make check` before every commit.",
            "importance": 0.8,
            "tags": ["testing"],
            "source_event_ids": ["e1"],
        }
    ]
}


def prompt_of(cli: str, argv: list[str]) -> tuple[str, str]:
    """The prompt as each real CLI would take it, and the stdin it read."""
    stdin = sys.stdin.read()
    if cli == "codex" and argv and argv[-1] != "-":
        return argv[-1], stdin  # an older caller: the prompt as the last argument
    if cli == "gemini" and "-p" in argv:
        return stdin + argv[argv.index("-p") + 1], stdin
    return stdin, stdin


def write_own_transcript(root: str, prompt: str) -> None:
    cwd = str(Path.cwd())
    folder = Path(root) / ("-" + cwd.strip("/").replace("/", "-"))
    folder.mkdir(parents=True, exist_ok=True)
    record = {
        "type": "user",
        "sessionId": f"internal-{os.getpid()}",
        "cwd": cwd,
        "uuid": f"u-{os.getpid()}",
        "timestamp": "2026-11-20T10:00:00.000Z",
        "message": {"role": "user", "content": "Always use tabs for indentation. " + prompt[:200]},
    }
    with (folder / f"internal-{os.getpid()}.jsonl").open("a") as fh:
        fh.write(json.dumps(record) + "\n")


def answer_text(mode: str) -> str:
    if mode == "malformed":
        return "I could not finish {not json at all"
    if mode == "prose":
        return "I read the session carefully; nothing in it seems worth remembering."
    if mode == "fenced":
        return "Here are the memories:\n```json\n" + json.dumps(ANSWER) + "\n```\nDone."
    return json.dumps(ANSWER)


def flaky_fails() -> bool:
    """The first call fails: its marker sits beside the test's own log (FAKE_LLM_LOG, which
    flaky needs), never at a fixed path that tests running at once would share."""
    marker = Path(os.environ["FAKE_LLM_LOG"] + ".flaky")
    if marker.exists():
        return False
    marker.write_text("failed once")
    return True


def main() -> int:
    cli = Path(sys.argv[0]).name
    argv = sys.argv[1:]
    mode = os.environ.get("FAKE_LLM_MODE", "ok")
    if (mode_file := os.environ.get("FAKE_LLM_MODE_FILE")) and Path(mode_file).exists():
        mode = Path(mode_file).read_text().strip() or mode
    prompt, stdin = prompt_of(cli, argv)
    if log := os.environ.get("FAKE_LLM_LOG"):
        with Path(log).open("a") as fh:
            entry = {
                "cli": cli,
                "argv": argv,
                "cwd": str(Path.cwd()),
                "internal": os.environ.get("SQRL_INTERNAL_CALL"),
                "env": dict(os.environ),
                "stdin": stdin,
                "prompt_chars": len(prompt),
            }
            fh.write(json.dumps(entry) + "\n")
    if root := os.environ.get("FAKE_LLM_TRANSCRIPTS"):
        write_own_transcript(root, prompt)
    if mode == "flaky":
        mode = "ratelimit" if flaky_fails() else "ok"
    if mode == "timeout":
        time.sleep(120)
    if mode == "exit1":
        print("Error: an unexpected error occurred", file=sys.stderr)
        return 1
    if mode == "ratelimit":
        print("Error: 429 rate limit exceeded, try again later", file=sys.stderr)
        return 1
    if mode == "logged_out":
        if cli == "claude":
            print(
                json.dumps(
                    {
                        "type": "result",
                        "is_error": True,
                        "result": "Invalid API key · Please run /login",
                    }
                )
            )
        else:
            print("Not logged in: run the CLI once to log in", file=sys.stderr)
        return 1
    if mode == "huge":
        sys.stdout.write("x" * (6 * 1024 * 1024))
        return 0
    if mode == "crash":
        sys.stdout.write('{"type": "result", "res')
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    text = answer_text(mode)
    if cli == "claude":
        print(
            json.dumps(
                {
                    "type": "result",
                    "subtype": "success",
                    "is_error": False,
                    "result": text,
                    "usage": {"input_tokens": 120, "output_tokens": 40},
                }
            )
        )
    elif cli == "codex":
        target = argv[argv.index("--output-last-message") + 1]
        Path(target).write_text(text)
        print("[codex] working…")
    else:
        print(json.dumps({"response": text, "stats": {"models": {}}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
