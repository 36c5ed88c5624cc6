"""Each project's count of live memories holding each word, kept as memories change.

BM25 weighs a searched word by how many of the project's live memories hold it (its document
frequency). Counting them from the full-text index at search time read every memory holding the
word (a common word over 250,000 memories: most of a search's time), so they were kept in the
server's memory for minutes and could be that old. `memory_search_words` holds the counts
instead, one row per project and word (the stemmed lexeme, as `search` holds it), moved by
statement-level triggers on `memory_items` in the writing transaction, as `search_totals` moves
the totals: a row inserted, updated (forgotten, superseded, corrected, re-indexed, brought back)
or deleted adds or takes one for each distinct word of its `search` while it is live. An update
moves only the rows whose project, id, `deleted` or `search` changed, so a write that touches
other columns reads no word. Before moving a word the trigger locks the project's totals row, so
concurrent writers of one project take their turns in one order and cannot deadlock on words.
A word no live memory holds any more is removed. `pg_dump` carries the table; `pg_restore`
loads it before it makes the triggers. The migration counts the memories already there in
batches while servers keep writing (`online`).

A search reads its words' counts and the project's totals in one statement (`read_statistics`),
so they are exact at every search, inside the caller's transaction when it has one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from psycopg import AsyncConnection

from squirrel_memory.storage.postgres.online import OnlineCount

_ROWS = "SELECT project_id, id, deleted, search FROM {rows}{where}"
_WORDS = (
    "SELECT r.project_id, lexeme, {sign} AS docs FROM ({rows}) r, "
    "unnest(tsvector_to_array(r.search)) AS lexeme WHERE NOT r.deleted"
)
# While the migration counts the memories in batches (`online`), a trigger counts a change only
# to the rows counted so far: those at or below the watermark `mark`, every row once `counted`.
_COUNTED_SO_FAR = " WHERE counted OR id <= mark"
BACKFILL = "memory_search_words_backfill"
_BACKFILL_LOCK = 0x5371_726D  # taken shared by the triggers, exclusively by each batch


def _words(rows: str, sign: str) -> str:
    return _WORDS.format(rows=rows, sign=sign)


def _moved(*parts: tuple[str, str]) -> str:
    """Add to the counts the words of the live rows of each `(rows, sign)`, the projects'
    totals rows locked first (in one order)."""
    words = " UNION ALL ".join(_words(rows, sign) for rows, sign in parts)
    return (
        "WITH moved AS (SELECT project_id, lexeme, sum(docs) AS docs "  # noqa: S608
        f"FROM ({words}) m GROUP BY project_id, lexeme HAVING sum(docs) <> 0), "
        "held AS (SELECT project_id FROM memory_search_totals "
        "WHERE project_id IN (SELECT project_id FROM moved) ORDER BY project_id FOR UPDATE) "
        "INSERT INTO memory_search_words AS w (project_id, lexeme, docs) "
        "SELECT project_id, lexeme, docs FROM moved WHERE (SELECT count(*) FROM held) >= 0 "
        "ORDER BY project_id, lexeme "
        "ON CONFLICT (project_id, lexeme) DO UPDATE SET docs = w.docs + excluded.docs"
    )


def _emptied(rows: str) -> str:
    """Remove the counts that fell to 0 among the words of `rows`."""
    return (
        "DELETE FROM memory_search_words w USING "  # noqa: S608
        f"(SELECT DISTINCT project_id, lexeme FROM ({_words(rows, '1')}) m) o "
        "WHERE w.project_id = o.project_id AND w.lexeme = o.lexeme AND w.docs = 0"
    )


def _body(where: str) -> str:
    """The trigger's statements for each operation, on the rows `where` selects."""
    new = _ROWS.format(rows="new_rows", where=where)
    old = _ROWS.format(rows="old_rows", where=where)
    # An update's rows whose project, id, `deleted` or `search` changed, as they were and became.
    added, taken = f"{new} EXCEPT ALL {old}", f"{old} EXCEPT ALL {new}"
    return f"""IF TG_OP = 'INSERT' THEN
    {_moved((new, "1"))};
  ELSIF TG_OP = 'DELETE' THEN
    {_moved((old, "-1"))};
    {_emptied(old)};
  ELSE
    {_moved((added, "1"), (taken, "-1"))};
    {_emptied(taken)};
  END IF;"""


#: The trigger function that moves the counts, once every memory is counted.
FUNCTION = f"""CREATE OR REPLACE FUNCTION memory_search_words_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  {_body("")}
  RETURN NULL;
END
$$"""

_COUNTING_FUNCTION = f"""CREATE FUNCTION memory_search_words_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  mark text := '';
  counted boolean := true;
BEGIN
  PERFORM pg_advisory_xact_lock_shared({_BACKFILL_LOCK});
  BEGIN
    SELECT b.counted_to, b.done INTO mark, counted FROM {BACKFILL} b;
  EXCEPTION WHEN undefined_table THEN
    counted := true;  -- dropped by the count's last step, every row counted
  END;
  {_body(_COUNTED_SO_FAR)}
  RETURN NULL;
END
$$"""  # noqa: S608

#: The words' counts table.
TABLE = """CREATE TABLE memory_search_words (
  project_id text NOT NULL,
  lexeme text NOT NULL,
  docs bigint NOT NULL,
  PRIMARY KEY (project_id, lexeme)
)"""

#: The statement-level triggers on `memory_items` that run the function.
TRIGGERS = (
    "CREATE TRIGGER memory_search_words_insert AFTER INSERT ON memory_items "
    "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION memory_search_words_moved()",
    "CREATE TRIGGER memory_search_words_update AFTER UPDATE ON memory_items "
    "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION memory_search_words_moved()",
    "CREATE TRIGGER memory_search_words_delete AFTER DELETE ON memory_items "
    "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION memory_search_words_moved()",
)

SEARCH_WORDS_ONLINE = OnlineCount(
    progress=BACKFILL,
    lock_key=_BACKFILL_LOCK,
    prepare=(
        TABLE,
        f"CREATE TABLE {BACKFILL} (counted_to text NOT NULL, done boolean NOT NULL)",
        _COUNTING_FUNCTION,
        *TRIGGERS,
    ),
    batch=(
        "INSERT INTO memory_search_words AS w (project_id, lexeme, docs) "
        "SELECT project_id, lexeme, count(*) FROM memory_items, "
        "unnest(tsvector_to_array(search)) AS lexeme WHERE NOT deleted AND id > %(after)s "
        "AND (%(upto)s::text IS NULL OR id <= %(upto)s::text) GROUP BY project_id, lexeme "
        "ORDER BY project_id, lexeme "
        "ON CONFLICT (project_id, lexeme) DO UPDATE SET docs = w.docs + excluded.docs"
    ),
    finish=(FUNCTION,),
)


# The project's totals, and beside them each term as Postgres stems it (its `plainto_tsquery`,
# '' for a stop word) with its count of live memories: from the table when the term is one
# lexeme, NULL when it is more (counted from the index then). One row with no term for none.
_READ = """SELECT t.term, t.query, t.docs, s.live,
  CASE WHEN s.searched > 0 THEN s.length_sum::numeric / s.searched ELSE 1 END
FROM (VALUES (1)) AS one (x)
LEFT JOIN memory_search_totals s ON s.project_id = %(project)s
LEFT JOIN LATERAL (
  SELECT t.term, p.q::text AS query,
    CASE WHEN numnode(p.q) = 0 THEN 0
         WHEN numnode(p.q) = 1 AND cardinality(tsvector_to_array(p.v)) = 1
         THEN COALESCE(w.docs, 0)
    END AS docs
  FROM unnest(%(terms)s::text[]) AS t (term)
  CROSS JOIN LATERAL (SELECT plainto_tsquery(%(config)s::regconfig, t.term) AS q,
    to_tsvector(%(config)s::regconfig, t.term) AS v) p
  LEFT JOIN memory_search_words w
    ON w.project_id = %(project)s AND w.lexeme = (tsvector_to_array(p.v))[1]
) t ON true"""


@dataclass(frozen=True, slots=True)
class WordCount:
    """A searched term: its tsquery as Postgres stemmed it, and how many live memories hold it
    (None: the term is several lexemes and must be counted from the index)."""

    query: str
    docs: int | None


async def read_statistics(
    conn: AsyncConnection, project_id: str, terms: Sequence[str], config: str
) -> tuple[int, float, dict[str, WordCount]]:
    """The project's live memories, their average indexed length (1 when none has one) and
    each term's count, in one statement: the same numbers as counting every live memory."""
    cursor = await conn.execute(
        _READ, {"terms": list(terms), "config": config, "project": project_id}
    )
    rows = await cursor.fetchall()
    total = int(rows[0][3]) if rows and rows[0][3] is not None else 0
    average = float(rows[0][4]) if rows and rows[0][4] is not None else 1.0
    counts = {str(r[0]): WordCount(str(r[1]), None if r[2] is None else int(r[2])) for r in rows}
    return total, average, counts
