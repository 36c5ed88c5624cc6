"""Rewrites what `sqrl mcp` answers before the gateway serves:
`python scripts/gen_mcp_manifest.py [--check]` (after changing a tool or the instructions)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from squirrel_gateway.mcp_manifest import manifest

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "cli" / "squirrel_cli" / "mcp_manifest.json"


def render() -> str:
    return json.dumps(asyncio.run(manifest()), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if the file is not current")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not MANIFEST.exists() or MANIFEST.read_text(encoding="utf-8") != text:
            sys.stderr.write(f"{MANIFEST} is stale: run python scripts/gen_mcp_manifest.py\n")
            return 1
        return 0
    MANIFEST.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {MANIFEST}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
