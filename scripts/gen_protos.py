"""Regenerates the Python stubs beside the protos: `python scripts/gen_protos.py [--check]`."""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "protos"
PACKAGE_DIR = PROTO_ROOT / "squirrel" / "v1"


def generate(out_dir: Path) -> list[Path]:
    """Runs protoc for every proto into `out_dir`; returns the generated files (relative)."""
    protos = sorted(PACKAGE_DIR.glob("*.proto"))
    # The mypy plugins live beside this interpreter (the venv's bin/).
    bindir = str(Path(sys.executable).parent)
    os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
    include = Path(protoc.__file__).resolve().parent / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        f"--mypy_out={out_dir}",
        f"--mypy_grpc_out={out_dir}",
        *[str(p.relative_to(PROTO_ROOT)) for p in protos],
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    generated = out_dir / "squirrel" / "v1"
    return sorted(p.relative_to(out_dir) for p in generated.iterdir() if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if committed stubs are stale")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = generate(Path(tmp))
        stale = [
            str(f)
            for f in files
            if not (PROTO_ROOT / f).exists()
            or not filecmp.cmp(Path(tmp) / f, PROTO_ROOT / f, False)
        ]
        if args.check:
            if stale:
                sys.stderr.write("stale generated stubs: " + ", ".join(stale) + "\n")
                sys.stderr.write("run: python scripts/gen_protos.py\n")
                return 1
            return 0
        for f in files:
            shutil.copyfile(Path(tmp) / f, PROTO_ROOT / f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
