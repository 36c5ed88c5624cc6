"""Language-model backends behind one interface: a forced, schema-checked tool call."""
