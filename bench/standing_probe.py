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
- c * unlabelled picks`, once per objective (`OBJECTIVES`: strict c = 1, lenient c = 0).
Beside the probe are the rules (`kept`: the product's offline rules keep the sentence as a
user_style candidate) and the union (rules | probe): what wiring the probe beside the rules
would keep. The held-out ranking (top k, AUC) pools every fold's scores; it is read, never
used to choose a setting.

Columns per classifier: picked, hit (standing), task (task hits), unl (unlabelled picks, listed
by `--details` to be read by hand), items (gold items stated by a picked sentence, of those some
sentence states).

Usage: python -m bench.standing_probe [--features all,vector,structure] [--details]
(`--features` is a comma-separated list, one table each: both kinds of columns, the vector
only, the structural features only.)
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from bench.embedding_cache import EmbeddingCache
from bench.linear_probe import (
    Matrix,
    Probe,
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
#: L2 strengths tried inside the training rows (on standardised columns), strongest first.
L2S = (100.0, 10.0, 1.0)
#: Folds of the training units the setting is chosen over.
INNER = 4
#: A fold's own AUC is printed when it holds at least this many of each class.
WITHIN_MIN = 3
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


#: How much an unlabelled pick costs in the gain a setting is chosen by: `strict` counts it as a
#: wrong pick (unlabelled sentences are the negatives the probe is trained on); `lenient` does
#: not count it (as the encoder bench chose its floor), so the unlabelled picks show what the
#: probe reaches beyond the gold's wording.
OBJECTIVES = {"strict": 1.0, "lenient": 0.0}


def gain(sentences: Sequence[Sentence], picks: Sequence[bool], unlabelled_cost: float) -> float:
    """Standing hits less twice the task hits, less the unlabelled picks times their cost."""
    hits = tasks = others = 0
    for sentence, picked in zip(sentences, picks, strict=True):
        if picked:
            hits += sentence.label == STANDING
            tasks += sentence.label == TASK
            others += sentence.label not in (STANDING, TASK)
    return hits - 2.0 * tasks - unlabelled_cost * others


@dataclass(frozen=True)
class Trained:
    """A probe with the standardisation of the rows it was fitted on."""

    scaler: Standardizer
    probe: Probe

    def scores(self, rows: Matrix) -> Vector:
        return self.probe.scores(self.scaler.apply(rows))


def train(
    x: Matrix,
    sentences: Sequence[Sentence],
    rows: Sequence[int],
    l2: float,
    start: Probe | None = None,
) -> Trained:
    """Fit on the rows (standardised by them): standing against everything else, balanced."""
    scaler = Standardizer.learn(x[list(rows)])
    labels = [sentences[i].label == STANDING for i in rows]
    probe = fit(
        scaler.apply(x[list(rows)]), labels, l2=l2, row_weights=balanced(labels), start=start
    )
    return Trained(scaler, probe)


def choose(
    x: Matrix,
    sentences: Sequence[Sentence],
    rows: Sequence[int],
    unit_of: Callable[[Sentence], str] = unit,
) -> dict[str, tuple[Setting, Trained]]:
    """Per objective, the L2 strength and threshold with the most gain over out-of-fold scores
    of the rows, and the probe fitted on all of them at that strength. Inner fits start from the
    full fit at the same strength (fewer Newton steps, the same optimum)."""
    units = [unit_of(sentences[i]) for i in rows]
    labelled = [sentences[i] for i in rows]
    best: dict[str, tuple[float, Setting, Trained]] = {}
    previous: Probe | None = None
    for l2 in L2S:
        full = train(x, sentences, rows, l2, previous)
        previous = full.probe

        def inner(tr: list[int], te: list[int], l2: float = l2, full: Trained = full) -> Vector:
            fitted = train(x, sentences, [rows[i] for i in tr], l2, full.probe)
            return fitted.scores(x[[rows[i] for i in te]])

        scores = out_of_fold(units, INNER, inner)
        for name, cost in OBJECTIVES.items():

            def objective(picks: npt.NDArray[np.bool_], cost: float = cost) -> float:
                return gain(labelled, list(picks), cost)

            threshold = choose_threshold(scores, objective)
            value = gain(labelled, list(scores >= threshold), cost)
            if name not in best or value > best[name][0]:  # ties: the stronger penalty
                best[name] = (value, Setting(l2, threshold), full)
    return {name: (setting, trained) for name, (_, setting, trained) in best.items()}


@dataclass(frozen=True)
class Fold:
    """One held-out unit: its rows, the rules' picks and, per objective, the probe's."""

    name: str
    kind: str
    rows: list[int]
    rules: list[bool]
    settings: dict[str, Setting]
    probe: dict[str, list[bool]]
    #: The probe's score of each test row (a model that never saw the row), per objective.
    scores: dict[str, list[float]]

    def union(self, objective: str) -> list[bool]:
        return [a or b for a, b in zip(self.rules, self.probe[objective], strict=True)]


def folds(
    x: Matrix, sentences: Sequence[Sentence], unit_of: Callable[[Sentence], str] = unit
) -> list[Fold]:
    """Every held-out unit (`unit_of`): the habits sets, then the tuning projects."""
    units = [unit_of(s) for s in sentences]
    found: list[Fold] = []
    for held in sorted(set(units), key=lambda u: (u.startswith(TUNING), u)):
        test = [i for i, u in enumerate(units) if u == held]
        rest = [i for i, u in enumerate(units) if u != held]
        chosen = choose(x, sentences, rest, unit_of)
        scores = {name: trained.scores(x[test]) for name, (_, trained) in chosen.items()}
        found.append(
            Fold(
                held,
                "project" if ":" in held else "set",
                test,
                [sentences[i].kept for i in test],
                {name: setting for name, (setting, _) in chosen.items()},
                {name: list(scores[name] >= chosen[name][0].threshold) for name in chosen},
                {name: [float(v) for v in scores[name]] for name in chosen},
            )
        )
    return found


def pooled(parts: Sequence[Scores]) -> Scores:
    """The sum of folds' counts."""
    return Scores(*(sum(getattr(p, f) for p in parts) for f in Scores.__dataclass_fields__))


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
    v: Matrix = np.asarray(embedded.vectors, dtype=np.float64)
    unit_rows: Matrix = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return unit_rows


def _cell(s: Scores) -> str:
    unlabelled = s.picked - s.hit - s.task_hits
    return f"{s.picked:>3} {s.hit:>3} {s.task_hits:>3} {unlabelled:>3} {s.items:>2}/{s.items_of:<2}"


COLUMNS = ("rules", "strict", "rules|strict", "lenient", "rules|lenient")


def _picks(fold: Fold, column: str) -> list[bool]:
    if column == "rules":
        return fold.rules
    if column.startswith("rules|"):
        return fold.union(column.removeprefix("rules|"))
    return fold.probe[column]


def table(sentences: Sequence[Sentence], found: Sequence[Fold]) -> list[str]:
    """Per fold and pooled per kind: the rules, and per objective the probe and the union, each
    as picked, hit, task hits, unlabelled picks, items."""
    lines = [
        "each cell: picked hit task unl items; strict/lenient: the probe whose setting counted"
        " unlabelled picks as wrong / did not; rules|x: the union",
        f"{'fold':<34} | std task  all | " + " | ".join(f"{c:<20}" for c in COLUMNS) + " | l2/t",
        "-" * 164,
    ]
    for kind in sorted({f.kind for f in found}, reverse=True):
        parts: dict[str, list[Scores]] = {c: [] for c in COLUMNS}
        quiet = 0
        for fold in (f for f in found if f.kind == kind):
            test = [sentences[i] for i in fold.rows]
            scored = {c: score(test, _picks(fold, c)) for c in COLUMNS}
            for c, s in scored.items():
                parts[c].append(s)
            base = scored["rules"]
            if kind == "project" and not (
                base.standing or base.task or any(scored[c].picked for c in COLUMNS)
            ):
                quiet += 1
                continue
            lines.append(
                f"{fold.name[-34:]:<34} | {base.standing:>3} {base.task:>4} {base.total:>4} | "
                + " | ".join(_cell(scored[c]) for c in COLUMNS)
                + " | "
                + " ".join(
                    f"{s.l2:g}/{s.threshold:.2f}" for s in (fold.settings[o] for o in OBJECTIVES)
                )
            )
        if quiet:
            lines.append(f"({quiet} more projects: no standing or task sentence, nothing picked)")
        total = {c: pooled(p) for c, p in parts.items()}
        base = total["rules"]
        lines.append(
            f"{'POOLED ' + kind + 's':<34} | {base.standing:>3} {base.task:>4} {base.total:>4} | "
            + " | ".join(_cell(total[c]) for c in COLUMNS)
            + " |"
        )
        lines.append("-" * 164)
    return lines


def ranking(sentences: Sequence[Sentence], found: Sequence[Fold], objective: str) -> list[str]:
    """How the held-out scores rank, pooled over every fold (each score from a probe that did
    not train on its sentence): the labels among the top k, and the area under the curve of
    standing against task and against everything else. Read only; no setting comes from it."""
    pairs = sorted(
        (
            (score_, sentences[i])
            for f in found
            for i, score_ in zip(f.rows, f.scores[objective], strict=True)
        ),
        key=lambda p: -p[0],
    )
    lines = [f"held-out ranking ({objective} probe's scores, all folds pooled):"]
    for k in (10, 25, 50, 100):
        top = [s for _, s in pairs[:k]]
        lines.append(
            f"  top {k:>3}: {sum(s.label == STANDING for s in top)} standing,"
            f" {sum(s.label == TASK for s in top)} task,"
            f" {sum(s.label not in (STANDING, TASK) for s in top)} unlabelled"
        )
    for other, name in ((TASK, "task"), (None, "all others")):
        lines.append(
            f"  AUC standing vs {name}, scores of all folds pooled: {_auc(pairs, other):.2f}"
        )
    # each fold's own model ranks its own rows: scores of different models are not on one scale
    for other, name in ((TASK, "task"), (None, "all others")):
        within = []
        for fold in found:
            rows = [
                (v, sentences[i]) for i, v in zip(fold.rows, fold.scores[objective], strict=True)
            ]
            positives = sum(s.label == STANDING for _, s in rows)
            negatives = sum(
                s.label != STANDING and (other is None or s.label == other) for _, s in rows
            )
            if positives >= WITHIN_MIN and negatives >= WITHIN_MIN:
                within.append((fold.name, _auc(rows, other)))
        if within:
            lines.append(
                f"  AUC standing vs {name} within each fold (folds with {WITHIN_MIN}+ of each):"
                f" median {float(np.median([a for _, a in within])):.2f} over {len(within)}; "
                + ", ".join(f"{n[-20:]} {a:.2f}" for n, a in within[:8])
            )
    return lines


def _auc(pairs: Sequence[tuple[float, Sentence]], other: str | None) -> float:
    """The chance a standing sentence scores above one of the `other` label (None: any other)."""
    pos = [v for v, s in pairs if s.label == STANDING]
    neg = [v for v, s in pairs if s.label != STANDING and (other is None or s.label == other)]
    if not pos or not neg:
        return float("nan")
    p, n = np.asarray(pos), np.asarray(neg)
    wins = (p[:, None] > n[None, :]).sum() + 0.5 * (p[:, None] == n[None, :]).sum()
    return float(wins) / (len(p) * len(n))


def details(sentences: Sequence[Sentence], found: Sequence[Fold], objective: str) -> list[str]:
    """The probe's picks and the standing sentences it missed, per fold, to be read by hand."""
    lines: list[str] = [f"\n# {objective} probe: picks and misses per fold"]
    for fold in found:
        rows = zip(
            fold.rows, fold.probe[objective], fold.rules, fold.scores[objective], strict=True
        )
        shown = [
            (sentences[i], p, r, v) for i, p, r, v in rows if p or sentences[i].label == STANDING
        ]
        if not shown:
            continue
        lines.append(f"\n## {fold.name}")
        for s, p, r, v in shown:
            mark = ("probe" if p else "missed") + ("+rules" if r else "")
            lines.append(f"- [{mark}, {s.label}, {v:.2f}] {s.session[-30:]}: {s.text[:150]}")
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
        with threadpool_limits(1):  # two shared cores: BLAS threads only fight each other
            found = folds(x, sentences)
        print(
            f"\n{len(sentences)} sentences read in {read_s:.0f}s; features {which}"
            f" ({x.shape[1]} columns); {len(found)} folds fitted in"
            f" {time.perf_counter() - started:.0f}s (1-minute load {os.getloadavg()[0]:.1f})\n"
        )
        print("\n".join(table(sentences, found)))
        for objective in OBJECTIVES:
            print("\n".join(ranking(sentences, found, objective)))
        if args.details:
            for objective in OBJECTIVES:
                print("\n".join(details(sentences, found, objective)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
