"""Extraction that failed, parked as a dead letter and tried again: the letter itself
(`letters`: its reference, back-off and rebuilt episode) and its retries (`retry`: after the
back-off, at once when forced, or when the chosen model backend changed)."""
