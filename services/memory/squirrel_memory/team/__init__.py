"""Sharing memory with a team: a laptop's exactly-once delivery of its redacted events to the team
server (`delivery`), made from the settings and reported in the status (`laptop`), and the team
server's projects, named by team id (`registry`)."""
