"""The sqrl command line and its service supervisor."""
