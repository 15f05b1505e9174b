"""Replay, verify, audit, play and simulate commands (issue 3).  Registered by client.cli."""


def register(cli) -> None:
    """Add this module's commands to the ``devil`` group."""
