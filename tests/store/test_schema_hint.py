"""The "run `devil db init URL`" and "run `devil db upgrade URL`" hints of the PostgreSQL store
(issue 19) quote the URL for the shell: a libpq URL with query parameters
(`?host=/run/postgresql&port=5433`) holds `&`, which would cut the pasted command in two.
The hint, split as a shell splits it, is exactly the command with the URL (its password
hidden) as one argument.  No database needed: the connection is a stand-in that answers the
two queries ``check_schema`` asks."""

from __future__ import annotations

import re
import shlex

import pytest

from engine.store import postgres
from engine.store.postgres import schema

URL = "postgresql://devil:secret@/games?host=/run/postgresql&port=5433"
SAFE = postgres.safe_url(URL)


class Connection:
    """Answers ``schema_version``'s queries: whether the table exists, and its version."""

    def __init__(self, version: int | None):
        self.version = version

    def execute(self, sql, *args):
        answer = (self.version is not None) if "to_regclass" in sql else self.version
        return type("Cursor", (), {"fetchone": lambda self: (answer,)})()


def hinted(message: str) -> list[str]:
    """The words of the hint's command as a POSIX shell reads them (``&``, ``;``, ``|`` ...
    outside quotes are words of their own: operators that end the command)."""
    (command,) = re.findall(r"run `([^`]+)`", message)
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


@pytest.mark.parametrize("version, command", [(None, "init"), (0, "upgrade")])
def test_the_hint_is_a_command_the_shell_runs_as_written(version, command):
    with pytest.raises(schema.SchemaMismatch) as info:
        schema.check_schema(Connection(version), URL)
    assert "&" in SAFE and "secret" not in SAFE
    assert hinted(info.value.message) == ["devil", "db", command, SAFE]
