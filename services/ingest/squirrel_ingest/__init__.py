"""Squirrel ingest service: watchers, parsers, redaction, batching and delivery."""
