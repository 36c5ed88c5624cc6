"""What became of the memories a session was served, and what ranking learns from it: each served
memory's outcome read from what the session did (`verdict`: used, missed, contradicted, unused),
what the session's MCP answers showed (`mcp_served`), the judging of processed sessions
(`judge`) and each memory's standing from its outcomes (`book`)."""
