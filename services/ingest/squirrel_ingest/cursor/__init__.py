"""Cursor as a source: its SQLite chat stores, read-only, each chat with its own cursor."""
