"""The memory browser: server-rendered pages at `/ui/` beside the MCP endpoint."""
