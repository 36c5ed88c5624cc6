"""The embedded backend: one SQLite file per project (`<store>/data.db`), one writer thread.

`store.SqliteStore` composes the parts (`events`, `memories` and `manual_batch` writing,
`reads`, `search` with its in-memory BM25 copy in `lexical` and `postings`, `upkeep`) over one
`database.SqliteDatabase`; `schema` holds the file's versioned migrations, which `migrator`
checks and applies.
"""
