"""Sharing memory with a team: a laptop's exactly-once delivery of its redacted events to the team
server (`delivery`) and the team server's projects, named by team id (`registry`)."""
