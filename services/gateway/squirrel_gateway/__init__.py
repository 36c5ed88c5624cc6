"""Squirrel gateway: token budgets, MCP tools and the CLI-facing API."""
