# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, eleventh part: an explanation of a failure that did not hold — a guess the
next try showed wrong, a cause a later reply took back (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

_PUSH = "TypeError: Cannot read properties of undefined (reading 'push')\n ❯ src/queue.ts:14:17"

GUESS_SHOWN_WRONG = Trap(
    "guess-shown-wrong",
    "Node",
    "a hedged guess of the cause, the same failure after acting on it, then the real cause",
    (
        Session(
            "claude",
            "/home/ana/dev/mailq",
            (
                Ask("npm test fails since this morning"),
                Run(
                    "npm test",
                    f"> mailq@1.0.0 test\n> vitest run\n FAIL  src/queue.test.ts > enqueue > stores the job\n{_PUSH}\n Test Files  1 failed (3)",
                    1,
                ),
                Say("This might be because the vitest cache is stale after the upgrade."),
                Run(
                    "rm -rf node_modules/.vite && npm test",
                    f" FAIL  src/queue.test.ts > enqueue > stores the job\n{_PUSH}\n Test Files  1 failed (3)",
                    1,
                ),
                Read(
                    "src/queue.ts",
                    "export class Queue {\n  jobs!: Job[];\n  enqueue(j: Job) {\n    this.jobs.push(j);\n  }\n}\n",
                ),
                Say(
                    "The cache was not the problem. The error comes from `Queue.jobs` being declared with `!` but never initialised, so `this.jobs` is undefined on the first `enqueue`."
                ),
                Write(
                    "src/queue.ts",
                    "export class Queue {\n  jobs: Job[] = [];\n  enqueue(j: Job) {\n    this.jobs.push(j);\n  }\n}\n",
                ),
                Run("npm test", " Test Files  3 passed (3)\n      Tests  12 passed (12)"),
                Say("Initialised `jobs`; all tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"cache (is|was)? ?stale|stale.{0,20}cache",
            "the stale-cache guess was hedged and the same failure came after clearing it",
        ),
    ),
    may=(r"never initiali[sz]ed",),
)

CAUSE_TAKEN_BACK = Trap(
    "cause-taken-back",
    "Ruby",
    "a stated cause a later reply takes back, a service check between, then the real cause",
    (
        Session(
            "claude",
            "/home/ola/apps/notifier",
            (
                Ask("bundle exec rspec fails in spec/jobs, fix please"),
                Run(
                    "bundle exec rspec spec/jobs",
                    "Failures:\n  1) DigestJob sends the digest\n     Failure/Error: Redis.current.lpush(:digests, id)\n     Redis::CannotConnectError:\n       Error connecting to Redis on localhost:6379 (Errno::ECONNREFUSED)\n# ./app/jobs/digest_job.rb:9\n1 example, 1 failure",
                    1,
                ),
                Say("The failure is caused by the Redis server not running on this machine."),
                Run("redis-cli ping", "PONG"),
                Read(
                    "config/initializers/redis.rb",
                    "Redis.current = Redis.new(url: ENV.fetch('REDIS_URL', 'redis://localhost:6379/0'))\n",
                ),
                Read(".env.test", "REDIS_URL=redis://localhost:6380/0\n"),
                Say(
                    "Actually, Redis is running. The real cause is that `.env.test` sets `REDIS_URL` to port 6380, but the local Redis listens on 6379."
                ),
                Write(".env.test", "REDIS_URL=redis://localhost:6379/0\n"),
                Run("bundle exec rspec spec/jobs", "1 example, 0 failures"),
                Say("Pointed `.env.test` at 6379; the job spec passes."),
            ),
        ),
    ),
    wrong=(
        (
            r"(server )?not running",
            "the assistant took this cause back: Redis was running",
        ),
        (
            r"redis-cli ping.{0,40}(fixed|worked)|(fixed|worked).{0,60}redis-cli ping",
            "a look at the service changed nothing: the edit of `.env.test` fixed it",
        ),
    ),
    may=(r"6380",),
)

CASES = (GUESS_SHOWN_WRONG, CAUSE_TAKEN_BACK)
