"""The `sqrl` commands, one module per family (each has `add_commands`).

`squirrel_cli.main.COMMANDS` names the module of every command, and running a command imports
only its module; so this package imports nothing itself.
"""
