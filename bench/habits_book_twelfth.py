"""The twelfth habits phrasebook: the user doubting the size of the work in question form. "Are
we over-engineering this?", "isn't this overkill?", "can you check we're not overdoing it?" ask
nothing the assistant could answer with a fact: they push back on the work at hand and say how
the user wants work sized, though said once they are no rule yet (at most a tentative habit,
"noted once so far"). Beside them, questions that only ask: about a tool's fit ("Is Redis
overkill for …, or is it the usual choice?"), about old code, about a word, about someone else's
doubt in the past, or a title to write. Both in several voices (lower case, a lead-in, a
message of its own, one sentence after a remark). Written from general knowledge of how people
talk to a coding assistant, before any rule was read or run on them. Read by
`bench.habits_phrasebook`, which for this book counts a question kept even tentatively as
wrong, and a doubt read tentatively as found (said once, it is no standing rule).
"""

from __future__ import annotations

#: Doubts about the size of the work at hand, said as questions.
HABITS_TWELFTH: tuple[str, ...] = (
    "Are we over-engineering this?",
    "hold on, aren't we overengineering the config loader?",
    "Can you double-check we're not over-engineering the retry logic?",
    "isn't this overkill for a CLI with three commands?",
    "could you think about whether some of this is overdoing it?",
    "are we overcomplicating the migration script?",
    "Step back and check whether we're over-engineering the plugin system.",
    "Before you go on: are we over-engineering the caching layer for an app with ten users?",
    "Honestly, isn't a whole event bus overkill here?",
    "is this getting over-engineered? we only need the one endpoint",
)

#: Questions that only ask, in the same voices.
ONE_OFFS_TWELFTH: tuple[str, ...] = (
    "Is Redis overkill for caching a hundred rows, or is it the usual choice?",
    "Was the old parser over-engineered, or did it need all those states?",
    "How do I avoid over-engineering a design like this?",
    'Write a section titled "Are we over-engineering our microservices?" for the blog post.',
    "The reviewer asked whether we were over-engineering the cache. Summarise the thread for me.",
    "Do you think Kubernetes is overkill for this side project?",
    "Is the retry logic over-engineered? I didn't write it, why does it have three layers?",
    "What does YAGNI stand for?",
    "Add a lint rule that flags over-engineered factory classes.",
    "Is a message queue overkill for one email a day? I want the trade-offs before we decide.",
)
