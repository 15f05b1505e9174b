"""Castle of the Devil commands: `devil new castle` and the friendly subcommands (issue 4)."""


def register(cli) -> None:
    """Add this module's commands to the ``devil`` group (and ``new castle`` to ``new``)."""
