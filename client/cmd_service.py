"""The network service commands: serve, watch (issue 5).  Registered by client.cli."""


def register(cli) -> None:
    """Add this module's commands to the ``devil`` group."""
