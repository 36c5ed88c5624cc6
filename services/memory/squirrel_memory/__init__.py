"""Squirrel memory engine: store, episodes, extraction, updates, retrieval and views."""
