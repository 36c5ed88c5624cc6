"""A NumPy forward pass of a BERT sentence encoder (mean pooling, L2-normalised output)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from safetensors.numpy import load_file

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]

_MASKED = np.float32(-1e9)

# Abramowitz & Stegun 7.1.26: |error| < 1.5e-7, far below float32 noise in this network.
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


class ModelFilesError(Exception):
    """The model directory is missing a file or holds weights of an unexpected shape."""


@dataclass(frozen=True, slots=True)
class BertConfig:
    """The few numbers of `config.json` the forward pass needs."""

    hidden_size: int
    num_layers: int
    num_heads: int
    intermediate_size: int
    max_positions: int
    layer_norm_eps: float

    @classmethod
    def from_file(cls, path: Path) -> BertConfig:
        """Read a Hugging Face BERT `config.json`."""
        raw: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        if raw.get("hidden_act", "gelu") != "gelu":
            raise ModelFilesError("only the exact-gelu BERT variant is supported")
        return cls(
            hidden_size=int(raw["hidden_size"]),
            num_layers=int(raw["num_hidden_layers"]),
            num_heads=int(raw["num_attention_heads"]),
            intermediate_size=int(raw["intermediate_size"]),
            max_positions=int(raw["max_position_embeddings"]),
            layer_norm_eps=float(raw.get("layer_norm_eps", 1e-12)),
        )


@dataclass(frozen=True, slots=True)
class Layer:
    qkv_w: FloatArray  # (hidden, 3*hidden), already transposed for x @ w
    qkv_b: FloatArray
    out_w: FloatArray
    out_b: FloatArray
    ln1_g: FloatArray
    ln1_b: FloatArray
    up_w: FloatArray
    up_b: FloatArray
    down_w: FloatArray
    down_b: FloatArray
    ln2_g: FloatArray
    ln2_b: FloatArray


def _gelu(x: FloatArray) -> FloatArray:
    """Exact GELU, x * Phi(x), with erf from A&S 7.1.26; computed in place on few buffers."""
    z = x * np.float32(1.0 / math.sqrt(2.0))
    a = np.abs(z)
    t = a * np.float32(_ERF_P)
    t += 1.0
    np.reciprocal(t, out=t)
    a1, a2, a3, a4, a5 = (np.float32(c) for c in _ERF_A)
    poly: FloatArray = t * a5
    for coefficient in (a4, a3, a2, a1):
        poly += coefficient
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(np.float32(1.0), poly, out=poly)  # erf(|z|)
    np.copysign(poly, z, out=poly)  # erf(z)
    poly += 1.0
    poly *= x
    poly *= np.float32(0.5)
    return poly


def _layer_norm(x: FloatArray, gamma: FloatArray, beta: FloatArray, eps: float) -> FloatArray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    result: FloatArray = centred / np.sqrt(var + np.float32(eps)) * gamma + beta
    return result


class BertEncoder:
    """Encodes token id batches into mean-pooled, L2-normalised sentence vectors."""

    def __init__(self, config: BertConfig, weights: dict[str, npt.NDArray[Any]]) -> None:
        self.config = config
        self._word = self._take(weights, "embeddings.word_embeddings.weight")
        self._position = self._take(weights, "embeddings.position_embeddings.weight")
        self._token_type = self._take(weights, "embeddings.token_type_embeddings.weight")
        self._emb_ln_g = self._take(weights, "embeddings.LayerNorm.weight")
        self._emb_ln_b = self._take(weights, "embeddings.LayerNorm.bias")
        hidden = config.hidden_size
        if self._word.ndim != 2 or self._word.shape[1] != hidden:
            raise ModelFilesError("word embeddings do not match hidden_size")
        self._layers = [self._load_layer(weights, i) for i in range(config.num_layers)]
        self.vocab_size = int(self._word.shape[0])

    @classmethod
    def from_directory(cls, model_dir: Path) -> BertEncoder:
        """Load `config.json` and `model.safetensors` from a sentence-transformers model folder."""
        config_path = model_dir / "config.json"
        weights_path = model_dir / "model.safetensors"
        for path in (config_path, weights_path):
            if not path.is_file():
                raise ModelFilesError(f"model file missing: {path.name}")
        return cls(BertConfig.from_file(config_path), load_file(str(weights_path)))

    @staticmethod
    def _take(weights: dict[str, npt.NDArray[Any]], name: str) -> FloatArray:
        for key in (name, f"bert.{name}"):
            if key in weights:
                return np.ascontiguousarray(weights[key], dtype=np.float32)
        raise ModelFilesError(f"weight missing: {name}")

    def _load_layer(self, weights: dict[str, npt.NDArray[Any]], i: int) -> Layer:
        p = f"encoder.layer.{i}."

        def t(name: str) -> FloatArray:
            return np.ascontiguousarray(self._take(weights, p + name).T)

        def v(name: str) -> FloatArray:
            return self._take(weights, p + name)

        att = "attention.self."
        return Layer(
            qkv_w=np.ascontiguousarray(
                np.concatenate(
                    [t(att + "query.weight"), t(att + "key.weight"), t(att + "value.weight")],
                    axis=1,
                )
            ),
            qkv_b=np.concatenate(
                [v(att + "query.bias"), v(att + "key.bias"), v(att + "value.bias")]
            ),
            out_w=t("attention.output.dense.weight"),
            out_b=v("attention.output.dense.bias"),
            ln1_g=v("attention.output.LayerNorm.weight"),
            ln1_b=v("attention.output.LayerNorm.bias"),
            up_w=t("intermediate.dense.weight"),
            up_b=v("intermediate.dense.bias"),
            down_w=t("output.dense.weight"),
            down_b=v("output.dense.bias"),
            ln2_g=v("output.LayerNorm.weight"),
            ln2_b=v("output.LayerNorm.bias"),
        )

    def weights(self) -> dict[str, FloatArray]:
        """The embedding tables and their LayerNorm (`word`, `position`, `token_type`,
        `emb_ln_g`, `emb_ln_b`), for another runtime to build the same network from."""
        return {
            "word": self._word,
            "position": self._position,
            "token_type": self._token_type,
            "emb_ln_g": self._emb_ln_g,
            "emb_ln_b": self._emb_ln_b,
        }

    def layers(self) -> list[Layer]:
        """The encoder layers' weights, linear weights transposed for `x @ w`."""
        return list(self._layers)

    def encode(self, ids: IntArray, mask: IntArray) -> FloatArray:
        """Return one unit vector per row of `ids` (batch, seq); `mask` is 1 for real tokens."""
        batch, seq = ids.shape
        cfg = self.config
        if seq > cfg.max_positions:
            raise ValueError("sequence longer than the model's position table")
        if batch == 0:
            return np.zeros((0, cfg.hidden_size), dtype=np.float32)
        heads = cfg.num_heads
        head_dim = cfg.hidden_size // heads
        eps = cfg.layer_norm_eps
        hidden = cfg.hidden_size
        embedded = self._word[ids] + self._position[:seq][None, :, :] + self._token_type[0]
        # Linear layers run on a (batch*seq, hidden) matrix: one large GEMM each.
        x = _layer_norm(embedded.reshape(batch * seq, hidden), self._emb_ln_g, self._emb_ln_b, eps)
        bias = np.where(mask[:, None, None, :] > 0, np.float32(0.0), _MASKED).astype(np.float32)
        scale = np.float32(1.0 / math.sqrt(head_dim))
        for layer in self._layers:
            qkv = (x @ layer.qkv_w + layer.qkv_b).reshape(batch, seq, 3, heads, head_dim)
            # Contiguous (batch, heads, seq, head_dim) blocks keep the batched matmuls on BLAS.
            q = np.ascontiguousarray(qkv[:, :, 0].transpose(0, 2, 1, 3)) * scale
            k_t = np.ascontiguousarray(qkv[:, :, 1].transpose(0, 2, 3, 1))
            v = np.ascontiguousarray(qkv[:, :, 2].transpose(0, 2, 1, 3))
            scores = q @ k_t + bias
            scores -= scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(batch * seq, hidden)
            x = _layer_norm(x + (ctx @ layer.out_w + layer.out_b), layer.ln1_g, layer.ln1_b, eps)
            up = _gelu(x @ layer.up_w + layer.up_b)
            x = _layer_norm(x + (up @ layer.down_w + layer.down_b), layer.ln2_g, layer.ln2_b, eps)
        x = x.reshape(batch, seq, hidden)
        weights = mask.astype(np.float32)[:, :, None]
        pooled = (x * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), np.float32(1e-9))
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: FloatArray = (pooled / np.maximum(norms, np.float32(1e-12))).astype(np.float32)
        return result
