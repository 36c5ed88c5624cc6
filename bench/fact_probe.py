"""Can a linear probe over the shipped encoder tell an assistant sentence that states a durable
project fact (what the project is, how it is built, a diagnosis after a failure) from the rest of
what the assistant says, on projects it did not train on?

The assistant's sentences of the learned study's sessions and of the answer key's tuning
projects (`bench/stated_facts.py`: a sentence is a fact when a gold project_fact or pitfall item
of its source states it, wrong when a `wrong` entry does; a held-out project is never read) are
scored as `bench/standing_probe.py` scores the user's: L2-regularised logistic regression over
the sentence vector and the structural features (`turn`: the reply's place among the session's
replies, `first`: the session's first reply, `after_failure`: a command or tool call failed since
the previous reply, `words`, `recurs`: the other sessions of the project where the assistant says
the same sentence again, `code`: its share of code-like tokens), leave-one-project-out (each
learned session is its own project), the L2 strength and the threshold chosen inside the
training projects only, per objective (`strict`: an unlabelled pick counts as wrong; `lenient`:
it does not). Beside it: the rules (a project_fact or pitfall candidate of the offline rules
cites the reply and says most of the sentence) and the union. In the table, `std` counts the
fact sentences, `task` the wrong ones.

An unlabelled sentence is kept when its place in its project's order is a multiple of
`NEGATIVE_STRIDE`; every fact and wrong sentence is kept. The folds train and test on the kept
sentences only (so unlabelled picks count one in `NEGATIVE_STRIDE` of what the probe would pick):
the assistant says far more than any gold states, and the fits stay within a shared machine's
means.

Usage: python -m bench.fact_probe [--details]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace

from threadpoolctl import threadpool_limits

from bench.standing_probe import OBJECTIVES, details, features, folds, ranking, table, vectors_of
from bench.standing_sentences import STANDING, TASK, Sentence
from bench.stated_facts import read, sources
from squirrel_core.logs import configure_logging

#: One unlabelled sentence in this many is kept (to train and to test).
NEGATIVE_STRIDE = 2
#: The label a training row the stride leaves out carries: no fold trains on it.
UNUSED = "unused"


def project(sentence: Sentence) -> str:
    """What a fold holds out: one project (a learned session is its own)."""
    return f"{sentence.group}:{sentence.session}"


def thinned(sentences: Sequence[Sentence]) -> list[Sentence]:
    """The sentences with every unlabelled one off the stride marked unused."""
    kept: list[Sentence] = []
    seen: dict[str, int] = {}
    for s in sentences:
        if s.label in (STANDING, TASK):
            kept.append(s)
            continue
        at = seen.get(project(s), 0)
        seen[project(s)] = at + 1
        kept.append(s if at % NEGATIVE_STRIDE == 0 else replace(s, label=UNUSED))
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", action="store_true", help="each fold's picks and misses")
    args = parser.parse_args(argv)
    configure_logging("bench", "warning")
    started = time.perf_counter()
    sentences = [s for source in sources() for s in read(source)]
    read_s = time.perf_counter() - started
    vectors = vectors_of([s.text for s in sentences])
    training = thinned(sentences)
    keep = [i for i, s in enumerate(training) if s.label != UNUSED]
    x = features(sentences, vectors, "all")
    started = time.perf_counter()
    with threadpool_limits(1):
        found = folds(x[keep], [training[i] for i in keep], project)
    print(
        f"{len(sentences)} assistant sentences read in {read_s:.0f}s, {len(keep)} kept for"
        f" training and test (every fact and wrong one, 1 in {NEGATIVE_STRIDE} of the rest);"
        f" {len(found)} folds fitted in {time.perf_counter() - started:.0f}s"
        f" (1-minute load {os.getloadavg()[0]:.1f})\n"
    )
    kept = [sentences[i] for i in keep]
    print("\n".join(table(kept, found)))
    for objective in OBJECTIVES:
        print("\n".join(ranking(kept, found, objective)))
    if args.details:
        for objective in OBJECTIVES:
            print("\n".join(details(kept, found, objective)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
