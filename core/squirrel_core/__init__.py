"""Squirrel common code: settings, logging, errors, auth, tokens, redaction, rpc."""
