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
  each voting `PROTOTYPE_WEIGHT` times.

Columns: standing/task/all are the test group's labelled and total sentences; picked: sentences
called standing; hit: picked standing sentences; task hits: picked task sentences (must_not);
precision = hit / (hit + task hits) (the labelled picks; unlabelled picks are listed apart,
`unl.`); recall = hit / standing; items: gold habits with at least one picked sentence. The
encoder's cost (load, sentences per second, per session) is printed with the 1-minute load.

Usage: python -m bench.standing_rules [--k 1,3,5,9] [--details]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
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
) -> list[bool]:
    """Standing where the standing votes of the k nearest outweigh all others' votes."""
    if len(test) == 0:
        return []
    sims = test @ train.T
    top = np.argpartition(-sims, min(k, sims.shape[1] - 1), axis=1)[:, :k]
    is_standing = np.array([label == STANDING for label in labels])
    weight = np.asarray(weights, dtype=np.float32)
    picked: list[bool] = []
    for row, near in enumerate(top):
        votes = np.maximum(sims[row, near], 0.0) * weight[near]
        standing = float(votes[is_standing[near]].sum())
        picked.append(standing > float(votes.sum()) - standing)
    return picked


def _encoder() -> tuple[object, float, int]:
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

    model, load_s, load_rss = _encoder()
    texts = [s.text for s in sentences] + [p for p, _ in PROTOTYPES]
    started = time.perf_counter()
    with EmbeddingCache() as cache:
        embedded = cache.embed(
            model.model_id,  # type: ignore[attr-defined]
            model.dim,  # type: ignore[attr-defined]
            texts,
            model.embed_now,  # type: ignore[attr-defined]
        )
    embed_s = time.perf_counter() - started
    vectors = embedded.vectors
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sentence_vectors, proto_vectors = vectors[: len(sentences)], vectors[len(sentences) :]
    print(_cost(len(listed), len(sentences), load_s, load_rss, embed_s, embedded.embedded))

    trained = (*HABIT_SETS[:3], TUNING)
    folds = [(TEST_SET, list(trained))] + [
        (held, [g for g in trained if g != held]) for held in HABIT_SETS[:3]
    ]
    print(_header())
    details: list[str] = []
    for test_group, train_groups in folds:
        test_rows = [i for i, s in enumerate(sentences) if s.group == test_group]
        train_rows = [i for i, s in enumerate(sentences) if s.group in train_groups]
        test = [sentences[i] for i in test_rows]
        rules = [s.kept for s in test]
        print(_row(test_group, "rules", score(test, rules)))
        train_labels = [sentences[i].label for i in train_rows]
        for k in ks:
            picked = knn(
                sentence_vectors[train_rows],
                train_labels,
                [1.0] * len(train_rows),
                sentence_vectors[test_rows],
                k,
            )
            print(_row(test_group, f"knn k={k}", score(test, picked)))
            both = np.vstack([sentence_vectors[train_rows], proto_vectors])
            labels = train_labels + [label for _, label in PROTOTYPES]
            weights = [1.0] * len(train_rows) + [PROTOTYPE_WEIGHT] * len(PROTOTYPES)
            proto = knn(both, labels, weights, sentence_vectors[test_rows], k)
            print(_row(test_group, f"knn+proto k={k}", score(test, proto)))
            if args.details and test_group == TEST_SET:
                details.extend(_details(f"knn k={k}", test, picked))
        if args.details and test_group == TEST_SET:
            details.extend(_details("rules", test, rules))
    print(
        "\ngroups trained on: the fourth set's row on first+second+third+tuning; each of the"
        " first three on the other two and tuning."
    )
    print("\n".join(details))
    return 0


def _cost(
    sessions: int, count: int, load_s: float, load_rss: int, embed_s: float, embedded: int
) -> str:
    rate = embedded / embed_s if embed_s and embedded else float("nan")
    per_session = embed_s / sessions if embedded else float("nan")
    return (
        f"encoder: load {load_s:.2f}s, +{load_rss / 2**20:.0f} MiB RSS; embedded {embedded} new"
        f" of {count} sentences in {embed_s:.1f}s ({rate:.0f}/s, {per_session:.2f}s per"
        f" session/project) (load {_load()})"
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
