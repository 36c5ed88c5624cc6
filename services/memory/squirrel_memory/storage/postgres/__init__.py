"""The shared backend: every project of a team in one Postgres database (pgvector for vectors).

`store.PostgresStore` composes the parts (`events`, `memories` and `manual_batch` writing,
`reads`, `search`, `upkeep`) over one `database.PostgresDatabase` (a psycopg 3 async connection
pool); `schema` holds the database's versioned migrations; `vectors.PgVectorIndex` keeps memory
embeddings beside the memories.
Import it only when the `team` extra is installed (`psycopg`, `psycopg-pool`, `pgvector`).
"""
