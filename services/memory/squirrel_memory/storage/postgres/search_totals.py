"""Each project's live memories and their total indexed length, kept as memories change.

BM25 needs a project's count of live memories and their average length. Counting them meant
reading every live memory of the project (a full scan over a million rows, every 30 s
of searching); `memory_search_totals` holds the sums instead, one row per project, moved by
statement-level triggers on `memory_items` as rows are inserted, updated (forgotten, superseded,
corrected, re-indexed) or deleted, in the writing transaction: a committed write and its totals
are one, and nothing the store or a bulk load writes can miss them. A statement that changes
no live memory's count or length leaves the row alone (and unlocked). `pg_dump` carries the
table; `pg_restore` loads the data before it makes the triggers, so the restored totals are
those dumped. The migration fills the table from the rows already there. A search reads the
row with its words' counts (`search_words.read_statistics`).
"""

from __future__ import annotations

_LIVE = (
    "SELECT project_id, {sign} AS live, {sign} * (search IS NOT NULL)::int AS searched, "
    "{sign} * COALESCE(length(search), 0) AS length_sum FROM {rows} WHERE NOT deleted"
)


def _moved(*parts: tuple[str, str]) -> str:
    """Add to the totals what the live rows of each `(transition table, sign)` make up."""
    rows = " UNION ALL ".join(_LIVE.format(rows=rows, sign=sign) for rows, sign in parts)
    return (
        "INSERT INTO memory_search_totals AS t (project_id, live, searched, length_sum) "  # noqa: S608
        "SELECT project_id, sum(live), sum(searched), sum(length_sum) "
        f"FROM ({rows}) moved GROUP BY project_id "
        "HAVING sum(live) <> 0 OR sum(searched) <> 0 OR sum(length_sum) <> 0 "
        # In one order, so two statements touching the same projects do not deadlock.
        "ORDER BY project_id "
        "ON CONFLICT (project_id) DO UPDATE SET live = t.live + excluded.live, "
        "searched = t.searched + excluded.searched, length_sum = t.length_sum + excluded.length_sum"
    )


SEARCH_TOTALS = (
    """CREATE TABLE memory_search_totals (
  project_id text PRIMARY KEY,
  live bigint NOT NULL,
  searched bigint NOT NULL,
  length_sum bigint NOT NULL
)""",
    f"""CREATE FUNCTION memory_search_totals_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    {_moved(("new_rows", "1"))};
  ELSIF TG_OP = 'DELETE' THEN
    {_moved(("old_rows", "-1"))};
  ELSE
    {_moved(("new_rows", "1"), ("old_rows", "-1"))};
  END IF;
  RETURN NULL;
END
$$""",
    "CREATE TRIGGER memory_search_totals_insert AFTER INSERT ON memory_items "
    "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION memory_search_totals_moved()",
    "CREATE TRIGGER memory_search_totals_update AFTER UPDATE ON memory_items "
    "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION memory_search_totals_moved()",
    "CREATE TRIGGER memory_search_totals_delete AFTER DELETE ON memory_items "
    "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION memory_search_totals_moved()",
    "INSERT INTO memory_search_totals (project_id, live, searched, length_sum) "
    "SELECT project_id, count(*), count(search), COALESCE(sum(length(search)), 0) "
    "FROM memory_items WHERE NOT deleted GROUP BY project_id",
)
"""The statements of the schema version that adds the totals."""
