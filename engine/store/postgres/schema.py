"""The PostgreSQL store's schema versions (docs/postgres.md): the migrations shipped in the
package (engine/store/migrations/NNNN_name.sql), :func:`init` and :func:`upgrade` (``devil db
init/upgrade URL``: idempotent, one transaction, serialized between nodes by an advisory lock)
and :func:`check_schema`, which a store runs when it opens: it refuses
(:class:`SchemaMismatch`) a database whose schema is missing, older (``run `devil db upgrade
URL` ``) or newer than the package's.
"""

from __future__ import annotations

import importlib.resources
import re
import shlex

import psycopg

from ...errors import UsageError
from .connections import connect, safe_url

_MIGRATION = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
#: serializes migrations: two nodes running `devil db upgrade` at once apply each one once
_MIGRATION_LOCK = 0x64657669  # "devi"


class SchemaMismatch(UsageError):
    """The database's schema is not the one this package needs: missing (``devil db init``),
    older (``devil db upgrade``) or newer (upgrade devil)."""


def migrations() -> list[tuple[int, str, str]]:
    """The schema migrations shipped in the package, in order: ``(version, name, sql)`` from
    ``engine/store/migrations/NNNN_name.sql``."""
    found = []
    for entry in importlib.resources.files("engine.store.migrations").iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append((int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    found.sort()
    return found


def package_version() -> int:
    """The schema version this package needs (its last migration's number)."""
    shipped = migrations()
    return shipped[-1][0] if shipped else 0


def schema_version(conn: psycopg.Connection) -> int | None:
    """The schema version of the database ``conn`` is connected to (in its current schema), or
    None where devil's schema was never initialized."""
    row = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    assert row is not None  # a SELECT of one value returns one row
    if not row[0]:
        return None
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    assert row is not None  # an aggregate returns one row
    return row[0]


def init(url: str) -> tuple[int, int]:
    """Create devil's schema in the database at ``url`` (``devil db init URL``), or bring it up
    to date if it is there already: idempotent.  Returns ``(version before, version now)``
    (0 before for a new schema).  SchemaMismatch if the database is newer than the package."""
    return _migrate(url, create=True)


def upgrade(url: str) -> tuple[int, int]:
    """Apply the package's migrations the database at ``url`` lacks (``devil db upgrade URL``),
    all in one transaction; idempotent.  Returns ``(version before, version now)``.
    SchemaMismatch if the database has no devil schema (run init) or a newer one."""
    return _migrate(url, create=False)


def _migrate(url: str, create: bool) -> tuple[int, int]:
    shipped = migrations()
    target = shipped[-1][0] if shipped else 0
    where = safe_url(url)
    with connect(url) as conn:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            before = schema_version(conn)
            if before is None:
                if not create:
                    raise SchemaMismatch(f"{where} has no devil schema: run "
                                         f"{_run('init', where)} first")
                conn.execute("CREATE TABLE schema_version (version integer PRIMARY KEY, "
                             "name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())")
                before = 0
            if before > target:
                raise SchemaMismatch(_newer(where, before, target))
            for version, name, text in shipped:
                if version > before:
                    conn.execute(text)  # type: ignore[arg-type]  # our own, trusted SQL
                    conn.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)",
                                 (version, name))
    return before, target


def _run(command: str, where: str) -> str:
    """The hint `devil db COMMAND URL`, with the URL quoted for the shell (a libpq URL's
    query holds ``&``), so the command pastes as written."""
    return f"`devil db {command} {shlex.quote(where)}`"


def _newer(where: str, found: int, target: int) -> str:
    return (f"{where} has devil schema version {found}, newer than this devil knows "
            f"({target}): upgrade devil")


def check_schema(conn: psycopg.Connection, url: str) -> None:
    """Refuse (SchemaMismatch) a database whose schema is not the package's version."""
    where = safe_url(url)
    found = schema_version(conn)
    target = package_version()
    if found is None:
        raise SchemaMismatch(f"{where} has no devil schema: run {_run('init', where)} first")
    if found < target:
        raise SchemaMismatch(f"{where} has devil schema version {found}, this devil needs "
                             f"{target}: run {_run('upgrade', where)}")
    if found > target:
        raise SchemaMismatch(_newer(where, found, target))
