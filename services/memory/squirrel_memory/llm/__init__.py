"""Language-model backends behind one interface (a forced, schema-checked tool call), the
spending caps they share (`spending`), and Claude as the writer of the read side's text
(`read_writer`, asking what `read_prompts` says)."""
