"""Can a linear probe over the shipped encoder tell a user's standing preference from a task
request, on folds it did not train on?

The user's sentences of the four habits sets and of the answer key's tuning projects, labelled
by their gold (`bench/standing_sentences.py`: standing, task or unlabelled; a held-out project
is never read), are scored by L2-regularised logistic regression (`bench/linear_probe.py`) over
the shipped encoder's sentence vector (MiniLM, 384 dimensions, the memory service's own weights)
and a few structural features that mean the same in every ecosystem (`STRUCTURE`):

- `turn`: where the message sits among its session's user messages (0 first, 1 last);
- `first`: the message is the session's opening request (a plan or task, rarely a rule);
- `after_failure`: a command or tool call failed since the user's previous message (a
  correction of the assistant often follows one);
- `words`: log of the sentence's word count (rules are said in full sentences; "go ahead" not);
- `recurs`: log of 1 + the other sessions of the same project where the user says the same
  words again (what a user repeats across sessions is what the user wants every time);
- `code`: the share of its tokens that look like code or a path (a task names files and values).

Who said it is not a feature here: every sentence is the user's. Standing is the positive
class; task and unlabelled sentences are the negatives (most of what a user says is neither),
and the rows are weighted so both classes weigh the same.

**Only folds the probe did not train on count.** Each habits set in turn is held out (trained on
the other three and every tuning project), then each tuning project (trained on the four sets
and the other projects); the tables sum each kind's folds (pooled). The L2 strength (`L2S`) and
the threshold (`linear_probe.THRESHOLDS`) are chosen inside the training rows only: out-of-fold
scores over `INNER` folds of the training units, the pair with the most `hits - 2 * task hits
- unlabelled picks`. Beside the probe are the rules (`kept`: the product's offline rules keep
the sentence as a user_style candidate) and the union (rules | probe): what wiring the probe
beside the rules would keep.

Columns per classifier: picked, hit (standing), task (task hits), unl (unlabelled picks, listed
by `--details` to be read by hand), items (gold items stated by a picked sentence, of those some
sentence states).

Usage: python -m bench.standing_probe [--features all|vector|structure] [--details]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bench.embedding_cache import EmbeddingCache
from bench.linear_probe import (
    THRESHOLDS,
    Matrix,
    Standardizer,
    Vector,
    balanced,
    choose_threshold,
    fit,
    out_of_fold,
)
from bench.standing_rules import Scores, encoder, score
from bench.standing_sentences import STANDING, TASK, TUNING, Sentence, read, sources
from squirrel_core.logs import configure_logging

STRUCTURE = ("turn", "first", "after_failure", "words", "recurs", "code")
#: L2 strengths tried inside the training rows (on standardised columns).
L2S = (1.0, 10.0, 100.0)
#: Folds of the training units the setting is chosen over.
INNER = 5
#: A token that reads as code or a path: a separator, a call, a flag, an assignment or a
#: snake_case/camelCase/dotted name.
_CODE = re.compile(r"[/\\`(){}\[\]<>=$]|^--?\w|\w_\w|[a-z][A-Z]|\w\.\w")


def structure(sentence: Sentence) -> list[float]:
    """The structural features of one sentence, in `STRUCTURE` order."""
    tokens = sentence.text.split()
    code = sum(bool(_CODE.search(t)) for t in tokens) / len(tokens) if tokens else 0.0
    return [
        sentence.turn,
        float(sentence.first),
        float(sentence.after_failure),
        math.log(max(len(tokens), 1)),
        math.log1p(sentence.recurs),
        code,
    ]


def unit(sentence: Sentence) -> str:
    """What a fold holds out: a habits set, or one tuning project."""
    return f"{TUNING}:{sentence.session}" if sentence.group == TUNING else sentence.group


@dataclass(frozen=True)
class Setting:
    """What the training rows chose: the L2 strength and the threshold."""

    l2: float
    threshold: float


def gain(sentences: Sequence[Sentence], picks: Sequence[bool]) -> float:
    """Standing hits less twice the task hits, less the unlabelled picks."""
    hits = tasks = others = 0
    for sentence, picked in zip(sentences, picks, strict=True):
        if picked:
            hits += sentence.label == STANDING
            tasks += sentence.label == TASK
            others += sentence.label not in (STANDING, TASK)
    return float(hits - 2 * tasks - others)


def train_and_score(
    x: Matrix, sentences: Sequence[Sentence], train: Sequence[int], test: Sequence[int], l2: float
) -> Vector:
    """Fit on the train rows (standardised by them) and score the test rows."""
    scaler = Standardizer.learn(x[list(train)])
    labels = [sentences[i].label == STANDING for i in train]
    probe = fit(scaler.apply(x[list(train)]), labels, l2=l2, row_weights=balanced(labels))
    return probe.scores(scaler.apply(x[list(test)]))


def choose(x: Matrix, sentences: Sequence[Sentence], train: Sequence[int]) -> Setting:
    """The L2 strength and threshold with the most gain over out-of-fold training scores."""
    units = [unit(sentences[i]) for i in train]
    rows = [sentences[i] for i in train]
    best: tuple[float, float, float] | None = None
    for l2 in L2S:
        scores = out_of_fold(
            units,
            INNER,
            lambda tr, te, l2=l2: train_and_score(
                x, sentences, [train[i] for i in tr], [train[i] for i in te], l2
            ),
        )
        threshold = choose_threshold(scores, lambda picks: gain(rows, list(picks)), THRESHOLDS)
        value = gain(rows, list(scores >= threshold))
        if best is None or value >= best[0]:
            best = (value, l2, threshold)
    assert best is not None
    return Setting(best[1], best[2])


@dataclass(frozen=True)
class Fold:
    """One held-out unit: its rows and each classifier's picks."""

    name: str
    kind: str
    rows: list[int]
    setting: Setting
    rules: list[bool]
    probe: list[bool]

    @property
    def union(self) -> list[bool]:
        return [a or b for a, b in zip(self.rules, self.probe, strict=True)]


def folds(x: Matrix, sentences: Sequence[Sentence]) -> list[Fold]:
    """Every held-out unit: the habits sets, then the tuning projects."""
    units = [unit(s) for s in sentences]
    found: list[Fold] = []
    for held in sorted(set(units), key=lambda u: (u.startswith(TUNING), u)):
        test = [i for i, u in enumerate(units) if u == held]
        train = [i for i, u in enumerate(units) if u != held]
        setting = choose(x, sentences, train)
        scores = train_and_score(x, sentences, train, test, setting.l2)
        found.append(
            Fold(
                held,
                "project" if held.startswith(TUNING) else "set",
                test,
                setting,
                [sentences[i].kept for i in test],
                list(scores >= setting.threshold),
            )
        )
    return found


def pooled(parts: Sequence[Scores]) -> Scores:
    """The sum of folds' counts."""
    return Scores(
        *(sum(getattr(p, f) for p in parts) for f in Scores.__dataclass_fields__)  # type: ignore[arg-type]
    )


def features(sentences: Sequence[Sentence], vectors: Matrix, which: str) -> Matrix:
    """The probe's columns: the sentence vector, the structural features, or both."""
    shape = np.asarray([structure(s) for s in sentences], dtype=np.float64)
    if which == "vector":
        return vectors
    if which == "structure":
        return shape
    return np.hstack([vectors, shape])


def vectors_of(texts: Sequence[str]) -> Matrix:
    """The shipped encoder's unit vectors of the texts (read from the bench's cache)."""
    model, _, _ = encoder()
    with EmbeddingCache() as cache:
        embedded = cache.embed(
            model.model_id,  # type: ignore[attr-defined]
            model.dim,  # type: ignore[attr-defined]
            list(texts),
            model.embed_now,  # type: ignore[attr-defined]
        )
    v = np.asarray(embedded.vectors, dtype=np.float64)
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)


def _cell(s: Scores) -> str:
    unlabelled = s.picked - s.hit - s.task_hits
    return f"{s.picked:>3} {s.hit:>3} {s.task_hits:>3} {unlabelled:>3} {s.items:>2}/{s.items_of:<2}"


def table(sentences: Sequence[Sentence], found: Sequence[Fold]) -> list[str]:
    """Per fold and pooled per kind: rules, probe and union, each picked/hit/task/unl/items."""
    head = "picked hit task unl items"
    lines = [
        f"{'fold':<34} | std task  all | rules ({head}) | probe | union | l2 / threshold",
        "-" * 120,
    ]
    for kind in ("set", "project"):
        parts: dict[str, list[Scores]] = {"rules": [], "probe": [], "union": []}
        quiet = 0
        for fold in (f for f in found if f.kind == kind):
            test = [sentences[i] for i in fold.rows]
            scored = {
                "rules": score(test, fold.rules),
                "probe": score(test, fold.probe),
                "union": score(test, fold.union),
            }
            for name, s in scored.items():
                parts[name].append(s)
            base = scored["rules"]
            if kind == "project" and not (base.standing or base.task or any(fold.union)):
                quiet += 1
                continue
            lines.append(
                f"{fold.name:<34} | {base.standing:>3} {base.task:>4} {base.total:>4} | "
                + " | ".join(_cell(scored[n]) for n in ("rules", "probe", "union"))
                + f" | {fold.setting.l2:g} / {fold.setting.threshold:.2f}"
            )
        if quiet:
            lines.append(f"({quiet} more projects: no standing or task sentence, nothing picked)")
        total = {name: pooled(p) for name, p in parts.items()}
        base = total["rules"]
        lines.append(
            f"{'POOLED ' + kind + 's':<34} | {base.standing:>3} {base.task:>4} {base.total:>4} | "
            + " | ".join(_cell(total[n]) for n in ("rules", "probe", "union"))
            + " |"
        )
        lines.append("-" * 120)
    return lines


def details(sentences: Sequence[Sentence], found: Sequence[Fold]) -> list[str]:
    """The probe's picks and the standing sentences it missed, per fold, to be read by hand."""
    lines: list[str] = []
    for fold in found:
        picked = [
            (sentences[i], p, r) for i, p, r in zip(fold.rows, fold.probe, fold.rules, strict=True)
        ]
        shown = [(s, p, r) for s, p, r in picked if p or s.label == STANDING]
        if not shown:
            continue
        lines.append(f"\n## {fold.name}")
        for s, p, r in shown:
            mark = ("probe" if p else "missed") + ("+rules" if r else "")
            lines.append(f"- [{mark}, {s.label}] {s.session}: {s.text[:160]}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--features", default="all", help="comma-separated: all, vector, structure (one table each)"
    )
    parser.add_argument("--details", action="store_true", help="each fold's picks and misses")
    args = parser.parse_args(argv)
    configure_logging("bench", "warning")
    started = time.perf_counter()
    sentences = [s for source in sources() for s in read(source)]
    read_s = time.perf_counter() - started
    vectors = vectors_of([s.text for s in sentences])
    for which in (w.strip() for w in args.features.split(",") if w.strip()):
        if which not in ("all", "vector", "structure"):
            parser.error(f"unknown features {which!r}")
        x = features(sentences, vectors, which)
        started = time.perf_counter()
        found = folds(x, sentences)
        print(
            f"\n{len(sentences)} sentences read in {read_s:.0f}s; features {which}"
            f" ({x.shape[1]} columns); {len(found)} folds fitted in"
            f" {time.perf_counter() - started:.0f}s (1-minute load {os.getloadavg()[0]:.1f})\n"
        )
        print("\n".join(table(sentences, found)))
        if args.details:
            print("\n".join(details(sentences, found)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
