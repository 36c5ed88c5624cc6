"""The encoder's ONNX graphs built in a child process, so the memory service keeps serving.

Building a graph copies the model's ~90 MB of weights into protobuf messages and serialises
them: long C calls that hold the interpreter lock. Done on the loading thread, they stopped the
service's event loop for seconds at a time right after start (12 s in all with the machine
busy), so the first session-start hook after `sqrl up` missed its deadline even though lexical
search answers before the model is loaded. The child writes both graphs (float, and int8 for
queries) into a private folder and exits; the service then only opens sessions on the files.

Usage (by `build_graphs`): python -m squirrel_memory.embedding.onnx_build MODEL_DIR OUT_DIR
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Final

FLOAT_FILE: Final = "encoder.onnx"
INT8_FILE: Final = "encoder-int8.onnx"
BUILD_TIMEOUT_SECONDS: Final = 600.0


def graph_path(folder: Path, *, quantized: bool) -> Path:
    """Where the child writes the float or the int8 graph in `folder`."""
    return folder / (INT8_FILE if quantized else FLOAT_FILE)


def build_graphs(model_dir: Path, folder: Path) -> bool:
    """Both graphs of the model in `model_dir` written into `folder` by a child process;
    False (and nothing to use) when the child failed. Waiting on it holds no lock."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", __name__, str(model_dir), str(folder)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=BUILD_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and all(
        graph_path(folder, quantized=q).is_file() for q in (False, True)
    )


def main(argv: list[str]) -> int:
    from squirrel_memory.embedding.bert import BertEncoder  # noqa: PLC0415
    from squirrel_memory.embedding.bert_onnx import build_model  # noqa: PLC0415

    model_dir, folder = Path(argv[0]), Path(argv[1])
    weights = BertEncoder.from_directory(model_dir)
    for quantized in (False, True):
        graph_path(folder, quantized=quantized).write_bytes(
            build_model(weights, quantized=quantized)
        )
    return 0


if __name__ == "__main__":  # pragma: no cover - run as the child
    sys.exit(main(sys.argv[1:]))
