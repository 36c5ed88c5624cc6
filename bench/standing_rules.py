"""Can the shipped sentence encoder tell a standing preference from a task instruction better
than the word rules, on sessions no rule was written from?

The user's sentences of the four habits sets and of the answer key's tuning projects, labelled
by their gold (`bench/standing_sentences.py`: standing, task or unlabelled), are classified
three ways, each trained only on the first three sets and the tuning projects and tested on the
fourth set (the one collected after the last rules were written), then leave-one-set-out over
the first three (trained on the other two and the tuning projects):

- **rules**: the product's decision today: the offline rules keep the sentence as a
  user_style candidate (no training);
- **knn k=K**: the K nearest training sentences by cosine with the shipped encoder (MiniLM,
  384 dimensions, the memory service's own weights, loaded in process), each voting its label
  with its similarity; standing when the standing votes outweigh the rest. Unlabelled training
  sentences vote `unlabelled` (most of what a user says is neither);
- **knn+proto k=K**: the same with the `PROTOTYPES` below added to the training sentences,
  each voting `PROTOTYPE_WEIGHT` times;
- **lab k=K f=F** (and **lab+proto**): only the labelled exemplars (standing and task) vote,
  and a sentence whose nearest exemplar is less than F similar is left alone; F is chosen per
  k from `FLOORS` on the first three sets' rows (most hits less twice the task hits), never
  on the fourth's;
- **rules|lab**: what wiring `lab` beside the rules would keep: either one's picks.

Columns: standing/task/all are the test group's labelled and total sentences; picked: sentences
called standing; hit: picked standing sentences; task hits: picked task sentences (must_not);
precision = hit / (hit + task hits) (the labelled picks; unlabelled picks are listed apart,
`unl.`); recall = hit / standing; items: gold habits with at least one picked sentence. The
encoder's cost (load, sentences per second, per session) is printed with the 1-minute load.

Usage: python -m bench.standing_rules [--k 1,3,5,9] [--details] [--no-cache]
(`--no-cache` embeds every sentence again, to time the encoder; vectors are otherwise read from
`bench.embedding_cache`.)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import psutil

from bench.embedding_cache import EmbeddingCache
from bench.standing_sentences import (
    HABIT_SETS,
    STANDING,
    TASK,
    TUNING,
    Sentence,
    read,
    sources,
)
from squirrel_core.logs import configure_logging

Vectors = npt.NDArray[np.float32]

#: Written by hand before any classifier ran, about no session: one standing rule about how
#: work is done and one about how to talk, against two requests about the task at hand.
PROTOTYPES = (
    ("From now on, always do it this way whenever you work on this project.", STANDING),
    ("I prefer short answers, and never do that without asking me first.", STANDING),
    ("Fix the bug in this file now.", TASK),
    ("Change that value to five and run it again.", TASK),
)
PROTOTYPE_WEIGHT = 3.0
TEST_SET = "fourth"
#: Similarities the nearest labelled exemplar must reach (one is chosen per k off the fourth set).
FLOORS = (0.0, 0.4, 0.5, 0.6, 0.7)


@dataclass(frozen=True)
class Scores:
    """One classifier on one test group: the counts the table prints."""

    standing: int
    task: int
    total: int
    picked: int
    hit: int
    task_hits: int
    items: int
    items_of: int

    @property
    def precision(self) -> float:
        labelled = self.hit + self.task_hits
        return self.hit / labelled if labelled else 0.0

    @property
    def recall(self) -> float:
        return self.hit / self.standing if self.standing else 0.0


def score(test: Sequence[Sentence], picked: Sequence[bool]) -> Scores:
    """The counts of a classifier's picks over the test sentences."""
    chosen = [s for s, p in zip(test, picked, strict=True) if p]
    items = {(s.session, i) for s in test for i in s.items}
    found = {(s.session, i) for s in chosen for i in s.items}
    return Scores(
        standing=sum(s.label == STANDING for s in test),
        task=sum(s.label == TASK for s in test),
        total=len(test),
        picked=len(chosen),
        hit=sum(s.label == STANDING for s in chosen),
        task_hits=sum(s.label == TASK for s in chosen),
        items=len(found),
        items_of=len(items),
    )


def knn(
    train: Vectors,
    labels: Sequence[str],
    weights: Sequence[float],
    test: Vectors,
    k: int,
    *,
    labelled: bool = False,
    floor: float = 0.0,
) -> list[bool]:
    """Standing where the standing votes of the k nearest outweigh all others' votes; with
    `labelled`, only standing and task exemplars vote, and the nearest must be `floor` similar."""
    if len(test) == 0:
        return []
    if labelled:
        keep = [i for i, label in enumerate(labels) if label in (STANDING, TASK)]
        train = train[keep]
        labels = [labels[i] for i in keep]
        weights = [weights[i] for i in keep]
    sims = test @ train.T
    k = min(k, sims.shape[1])
    top = np.argsort(-sims, axis=1)[:, :k]
    is_standing = np.array([label == STANDING for label in labels])
    weight = np.asarray(weights, dtype=np.float32)
    picked: list[bool] = []
    for row, near in enumerate(top):
        votes = np.maximum(sims[row, near], 0.0) * weight[near]
        standing = float(votes[is_standing[near]].sum())
        close = float(sims[row, near[0]]) >= floor
        picked.append(close and standing > float(votes.sum()) - standing)
    return picked


def encoder() -> tuple[object, float, int]:
    """The shipped encoder, loaded in process, with its load time and the RSS it added."""
    from squirrel_memory.embedding.minilm import MiniLmEmbedder  # noqa: PLC0415

    rss = psutil.Process().memory_info().rss
    started = time.perf_counter()
    model = MiniLmEmbedder(batch_threads=1)
    model.load_now()
    if not model.ready:
        raise SystemExit(f"the encoder failed to load: {model.load_error!r}")
    return model, time.perf_counter() - started, psutil.Process().memory_info().rss - rss


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", default="1,3,5,9", help="neighbour counts, comma-separated")
    parser.add_argument("--details", action="store_true", help="each picked test sentence")
    parser.add_argument(
        "--no-cache", action="store_true", help="embed every sentence (to time the encoder)"
    )
    args = parser.parse_args(argv)
    ks = [int(k) for k in args.k.split(",") if k.strip()]
    configure_logging("bench", "warning")

    started = time.perf_counter()
    listed = sources()
    sentences: list[Sentence] = []
    for source in listed:
        sentences.extend(read(source))
    read_s = time.perf_counter() - started
    print(
        f"read {len(listed)} sessions/projects, {len(sentences)} sentences in {read_s:.1f}s"
        f" (load {_load()})"
    )

    model, load_s, load_rss = encoder()
    texts = [s.text for s in sentences] + [p for p, _ in PROTOTYPES]
    started = time.perf_counter()
    if args.no_cache:
        vectors = np.asarray(model.embed_now(texts), dtype=np.float32)  # type: ignore[attr-defined]
        fresh = len(texts)
    else:
        with EmbeddingCache() as cache:
            embedded = cache.embed(
                model.model_id,  # type: ignore[attr-defined]
                model.dim,  # type: ignore[attr-defined]
                texts,
                model.embed_now,  # type: ignore[attr-defined]
            )
        vectors, fresh = embedded.vectors, embedded.embedded
    embed_s = time.perf_counter() - started
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sentence_vectors, proto_vectors = vectors[: len(sentences)], vectors[len(sentences) :]
    per_source = Counter(s.session for s in sentences)
    print(_cost(sorted(per_source.values()), load_s, load_rss, embed_s, fresh))

    trained = (*HABIT_SETS[:3], TUNING)
    folds = [(TEST_SET, list(trained))] + [
        (held, [g for g in trained if g != held]) for held in HABIT_SETS[:3]
    ]
    results: dict[tuple[str, str], Scores] = {}
    picks: dict[str, list[bool]] = {}
    for test_group, train_groups in folds:
        test_rows = [i for i, s in enumerate(sentences) if s.group == test_group]
        train_rows = [i for i, s in enumerate(sentences) if s.group in train_groups]
        test = [sentences[i] for i in test_rows]
        for name, picked in _classified(
            sentences, sentence_vectors, proto_vectors, train_rows, test_rows, ks
        ).items():
            results[(test_group, name)] = score(test, picked)
            if test_group == TEST_SET:
                picks[name] = picked
    floors = _chosen_floors(results, ks)
    print(_header())
    for test_group, _ in folds:
        for name in _shown(ks, floors):
            print(_row(test_group, name, results[(test_group, name)]))
    print(
        "\ngroups trained on: the fourth set's row on first+second+third+tuning; each of the"
        " first three on the other two and tuning. lab: labelled exemplars only, standing when"
        " their standing votes outweigh the task votes and the nearest is at least `floor`"
        " similar; each k's floor is the one of "
        + ", ".join(f"{f:.2f}" for f in FLOORS)
        + " with the most hits less twice the task hits over the first three sets' rows"
        " (never the fourth's)."
    )
    if args.details:
        test = [s for s in sentences if s.group == TEST_SET]
        for name in ("rules", *_shown(ks, floors)[1:]):
            print("\n".join(_details(name, test, picks[name])))
    return 0


def _classified(
    sentences: Sequence[Sentence],
    vectors: Vectors,
    proto_vectors: Vectors,
    train_rows: Sequence[int],
    test_rows: Sequence[int],
    ks: Sequence[int],
) -> dict[str, list[bool]]:
    """Every classifier's picks over the test rows, trained on the train rows."""
    test = vectors[test_rows]
    labels = [sentences[i].label for i in train_rows]
    ones = [1.0] * len(train_rows)
    both = np.vstack([vectors[train_rows], proto_vectors])
    both_labels = labels + [label for _, label in PROTOTYPES]
    both_weights = ones + [PROTOTYPE_WEIGHT] * len(PROTOTYPES)
    found: dict[str, list[bool]] = {"rules": [sentences[i].kept for i in test_rows]}
    for k in ks:
        found[f"knn k={k}"] = knn(vectors[train_rows], labels, ones, test, k)
        found[f"knn+proto k={k}"] = knn(both, both_labels, both_weights, test, k)
        for floor in FLOORS:
            found[f"lab k={k} f={floor:.2f}"] = knn(
                vectors[train_rows], labels, ones, test, k, labelled=True, floor=floor
            )
            found[f"lab+proto k={k} f={floor:.2f}"] = knn(
                both, both_labels, both_weights, test, k, labelled=True, floor=floor
            )
            found[f"rules|lab k={k} f={floor:.2f}"] = [
                a or b
                for a, b in zip(found["rules"], found[f"lab k={k} f={floor:.2f}"], strict=True)
            ]
    return found


def _chosen_floors(results: dict[tuple[str, str], Scores], ks: Sequence[int]) -> dict[int, float]:
    """Per k, the floor whose labelled-only rows do best over the first three sets."""
    chosen: dict[int, float] = {}
    for k in ks:

        def gain(floor: float, k: int = k) -> tuple[int, float]:
            rows = [results[(g, f"lab k={k} f={floor:.2f}")] for g in HABIT_SETS[:3]]
            return sum(r.hit - 2 * r.task_hits for r in rows), floor

        chosen[k] = max(FLOORS, key=gain)
    return chosen


def _shown(ks: Sequence[int], floors: dict[int, float]) -> list[str]:
    names = ["rules"]
    for k in ks:
        names += [f"knn k={k}", f"knn+proto k={k}"]
        names += [f"lab k={k} f={floors[k]:.2f}", f"lab+proto k={k} f={floors[k]:.2f}"]
        names.append(f"rules|lab k={k} f={floors[k]:.2f}")
    return names


def _cost(counts: Sequence[int], load_s: float, load_rss: int, embed_s: float, fresh: int) -> str:
    """The encoder's cost: its load, and per session the sentences and the time to embed them
    (each session's count times the run's seconds per sentence)."""
    line = f"encoder: load {load_s:.2f}s, +{load_rss / 2**20:.0f} MiB RSS"
    if not fresh:
        return line + f"; every sentence from the cache (load {_load()})"
    per = embed_s / fresh
    p50, p95 = counts[len(counts) // 2], counts[min(len(counts) - 1, int(0.95 * len(counts)))]
    return (
        f"{line}; embedded {fresh} sentences in {embed_s:.1f}s ({fresh / embed_s:.0f}/s);"
        f" sentences per session/project median {p50}, p95 {p95}, max {counts[-1]}: about"
        f" {p50 * per * 1000:.0f} ms, {p95 * per * 1000:.0f} ms, {counts[-1] * per:.1f} s of"
        f" one core (load {_load()})"
    )


def _header() -> str:
    cols = "test     | classifier        | standing | task | all  | picked | hit | task hits |"
    return f"\n{cols} unl. | precision | recall | items\n" + "-" * (len(cols) + 34)


def _row(group: str, name: str, s: Scores) -> str:
    unlabelled = s.picked - s.hit - s.task_hits
    return (
        f"{group:<8} | {name:<17} | {s.standing:>8} | {s.task:>4} | {s.total:>4} | {s.picked:>6}"
        f" | {s.hit:>3} | {s.task_hits:>9} | {unlabelled:>4} | {s.precision:>9.2f} |"
        f" {s.recall:>6.2f} | {s.items}/{s.items_of}"
    )


def _details(name: str, test: Sequence[Sentence], picked: Sequence[bool]) -> list[str]:
    lines = [f"\n## {name}: picked on {TEST_SET}"]
    for sentence, chosen in zip(test, picked, strict=True):
        if chosen or sentence.label == STANDING:
            mark = "picked" if chosen else "MISSED"
            lines.append(f"- [{mark}, {sentence.label}] {sentence.session}: {sentence.text}")
    return lines


if __name__ == "__main__":
    sys.exit(main())
