"""The scheduled upkeep of a project's memory, apart from processing: retention (`retention`:
old processed events pruned, one-off instructions that never recurred forgotten, databases
vacuumed) and consolidation (`consolidation`: the chosen model now and then merges, rewrites or
retires memories, every change an ordinary versioned update)."""
