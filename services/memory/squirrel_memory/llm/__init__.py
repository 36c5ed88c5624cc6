"""Language-model backends behind one interface (a forced, schema-checked tool call), and the
spending caps they share (`spending`)."""
