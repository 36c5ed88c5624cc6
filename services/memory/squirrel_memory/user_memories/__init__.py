"""The user's own memories: what `remember` does with a statement (`manual`) and its batch written
in one transaction (`manual_writes`), writes run once per idempotency key (`keyed_writes`), the
memory a user names by id, handle or prefix (`lookup`, `handle_book`), what a user does to a
memory through the engine (`memory_actions`), the flagged memories the user confirmed
(`confirmations`), the global user store of style memories (`userstore`) and whose memories a
caller may see (`privacy`)."""
