"""A throwaway PostgreSQL cluster for tests: nothing to set up by hand.

:func:`cluster` starts one cluster per test session, on first use: ``initdb`` in a fresh
temporary folder, then ``pg_ctl start`` with the server listening on a Unix socket in that folder
only (``listen_addresses=''``: no TCP port is taken, so parallel sessions never collide), trust
authentication, and durability switched off (``fsync=off``; a test cluster is thrown away).  It
is stopped and its folder removed when the test process exits.

Binaries: ``$DEVIL_PG_BIN`` if set, else ``initdb`` on ``PATH``, else the newest
``/usr/lib/postgresql/*/bin`` (Debian/Ubuntu), ``/usr/pgsql-*/bin`` (RHEL) or
``/usr/local/pgsql/bin``.

As root (CI runs as root) ``initdb`` refuses to run, so the cluster's files are owned by, and the
server runs as, an unprivileged user: ``$DEVIL_PG_USER``, else ``postgres`` (the Debian package
creates it; .ci/run creates it where it is missing).  Commands run as that user through
``runuser -u USER --`` (or ``su USER -s /bin/sh -c`` where there is no runuser).  The tests
still connect as the cluster's superuser ``devil`` over the socket, whoever runs them.

If the binaries are missing (or hidden: ``DEVIL_TEST_NO_POSTGRES=1``, or ``DEVIL_PG_BIN`` naming
a folder without them) the tests that need the cluster are skipped, named in one line of the
summary (tests/needs.py); under CI (``CI=true``) they fail instead, with how to install them.

Reusable from any test folder::

    from tests.pg import fresh_database
    url = fresh_database()          # an empty database with devil's schema, its URL
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import pwd
import re
import shlex
import shutil
import subprocess
import tempfile
import threading

import pytest

from tests.needs import POSTGRES

NO_POSTGRES = os.environ.get("DEVIL_TEST_NO_POSTGRES") == "1"
HIDDEN = "DEVIL_TEST_NO_POSTGRES=1 hides PostgreSQL's server programs"
INSTALL_HINT = ("PostgreSQL's server binaries (initdb, pg_ctl) were not found (on PATH, in "
                "DEVIL_PG_BIN, in /usr/lib/postgresql/*/bin). Install them (Debian/Ubuntu: "
                "`apt-get install -y postgresql`; Fedora/RHEL: `dnf install -y "
                "postgresql-server`; macOS: `brew install postgresql`), or point DEVIL_PG_BIN at "
                "their folder")
SUPERUSER = "devil"
TEMPLATE = "devil_template"


def find_bin() -> str | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or None."""
    given = os.environ.get("DEVIL_PG_BIN")
    if given:
        return given if os.path.exists(os.path.join(given, "initdb")) else None
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return os.path.dirname(os.path.realpath(on_path))
    candidates = (glob.glob("/usr/lib/postgresql/*/bin") + glob.glob("/usr/pgsql-*/bin")
                  + glob.glob("/usr/local/pgsql/bin"))

    def version(path: str) -> tuple:
        digits = "".join(c if c.isdigit() else " " for c in path).split()
        return tuple(int(d) for d in digits)
    for folder in sorted(candidates, key=version, reverse=True):
        if os.path.exists(os.path.join(folder, "initdb")) \
                and os.path.exists(os.path.join(folder, "pg_ctl")):
            return folder
    return None


def available() -> bool:
    """Whether the cluster can be started here: PostgreSQL's binaries are found and not
    hidden by DEVIL_TEST_NO_POSTGRES=1."""
    return not NO_POSTGRES and find_bin() is not None


class Cluster:
    """A running throwaway cluster: ``folder`` (data in ``folder/data``, socket in
    ``folder/socket``), ``port`` (names the socket), :meth:`url` of a database in it."""

    def __init__(self, bindir: str):
        self.bindir = bindir
        self.folder = tempfile.mkdtemp(prefix="devil-pg-")
        self.data = os.path.join(self.folder, "data")
        self.socket = os.path.join(self.folder, "socket")
        self.log = os.path.join(self.folder, "server.log")
        self.port = 5432  # only names the socket file: the server opens no TCP port
        self.user = None  # the OS user the server runs as, when we are root
        self.version = 0  # the server's version number (server_version_num), once started
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._owner_pid = os.getpid()
        if os.geteuid() == 0:
            self.user = os.environ.get("DEVIL_PG_USER", "postgres")
            try:
                entry = pwd.getpwnam(self.user)
            except KeyError:
                shutil.rmtree(self.folder, ignore_errors=True)
                pytest.fail(f"the tests run as root and initdb refuses to: they run the test "
                            f"cluster as the user {self.user!r}, which does not exist. Create it "
                            f"(`useradd --system --create-home {self.user}`, as .ci/run does) "
                            "or name another with DEVIL_PG_USER", pytrace=False)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        os.makedirs(self.socket, exist_ok=True)
        if self.user:
            os.chown(self.socket, pwd.getpwnam(self.user).pw_uid, pwd.getpwnam(self.user).pw_gid)

    # -- running the server's tools -----------------------------------------------------------
    def _run(self, *argv: str) -> None:
        command = [os.path.join(self.bindir, argv[0]), *argv[1:]]
        if self.user:
            if shutil.which("runuser"):
                command = ["runuser", "-u", self.user, "--", *command]
            else:
                command = ["su", self.user, "-s", "/bin/sh", "-c", shlex.join(command)]
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, cwd=self.folder)
        if done.returncode != 0:
            log = ""
            if os.path.exists(self.log):
                with open(self.log, errors="replace") as handle:
                    log = handle.read()[-3000:]
            raise RuntimeError(f"{shlex.join(command)} failed ({done.returncode}):\n"
                               f"{done.stdout}\n{log}")

    def start(self) -> None:
        self._run("initdb", "-D", self.data, "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
                  "--locale=C", "--no-sync")
        settings = {
            "listen_addresses": "''", "unix_socket_directories": f"'{self.socket}'",
            "port": str(self.port), "fsync": "off", "synchronous_commit": "off",
            "full_page_writes": "off", "max_connections": "400", "shared_buffers": "32MB",
            "wal_level": "minimal", "max_wal_senders": "0", "log_min_messages": "warning",
        }
        with open(os.path.join(self.data, "postgresql.conf"), "a") as handle:
            handle.write("\n# devil tests\n")
            handle.writelines(f"{key} = {value}\n" for key, value in settings.items())
        self._run("pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "60", "start")
        atexit.register(self.stop)
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            self.version = conn.info.server_version  # e.g. 150004
        self.execute(f"CREATE DATABASE {TEMPLATE}")
        from engine.store.postgres.schema import init

        init(self.url(TEMPLATE))

    def stop(self) -> None:
        """Stop the server and remove its folder (only in the process that started it)."""
        if os.getpid() != self._owner_pid or not os.path.exists(self.folder):
            return
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        except RuntimeError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- databases ----------------------------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        """A libpq URL of ``database`` in this cluster, over its Unix socket."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket}&port={self.port}"

    def execute(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql)

    def database(self, initialized: bool = True) -> str:
        """The URL of a new, empty database: with devil's schema (a copy of the migrated
        template) or, without ``initialized``, with nothing in it."""
        with self._lock:
            name = f"t{os.getpid()}_{next(self._counter)}"
        template = TEMPLATE if initialized else "template0"
        # PostgreSQL 15+ copies a template through the WAL by default; the file copy is about
        # twice as fast here (fsync is off: its checkpoints cost little) and makes the same
        # database
        strategy = " STRATEGY FILE_COPY" if self.version >= 150000 else ""
        self.execute(f"CREATE DATABASE {name} TEMPLATE {template}{strategy}")
        return self.url(name)


_cluster: Cluster | None = None
_cluster_lock = threading.Lock()


def cluster() -> Cluster:
    """The session's cluster, started on first use.  Without PostgreSQL's binaries (or with
    them hidden by DEVIL_TEST_NO_POSTGRES=1) the test is skipped, or under CI fails with how
    to install them (tests/needs.py)."""
    global _cluster
    if NO_POSTGRES:
        POSTGRES.missing(HIDDEN)
    with _cluster_lock:
        if _cluster is None:
            bindir = find_bin()
            if bindir is None:
                POSTGRES.missing(INSTALL_HINT)
            started = Cluster(bindir)
            try:
                started.start()
            except BaseException:
                started.stop()
                raise
            _cluster = started
        return _cluster


def fresh_database(initialized: bool = True) -> str:
    """The URL of a new database in the session's cluster (see :meth:`Cluster.database`)."""
    return cluster().database(initialized)


class StatementLog:
    """Every SQL statement the server runs for one database, as the server itself logs it:
    ``log_statement = all`` set on that database (its sessions opened from now on), read back
    from the cluster's log.  ``BEGIN`` and ``COMMIT`` count like any other statement; no
    client-side wrapper is involved, so what is counted is what reached the server.  Only one
    database of the cluster should be logged at a time (the log's lines do not name it).

        log = StatementLog(url)      # before the store opens its connections
        mark = log.mark()
        ...                          # requests
        statements = log.since(mark)  # their SQL texts, in order
    """

    _LINE = re.compile(r"LOG:  (?:statement|execute [^:]*): (.*)$")

    def __init__(self, url: str):
        self.cluster = cluster()
        self.database = url.split("?")[0].rsplit("/", 1)[1]
        self.cluster.execute(f"ALTER DATABASE {self.database} SET log_statement = 'all'")

    def mark(self) -> int:
        """A position in the log: :meth:`since` reads the statements logged after it."""
        return os.path.getsize(self.cluster.log)

    def since(self, mark: int) -> list[str]:
        """The statements logged since ``mark``, in order."""
        with open(self.cluster.log, "rb") as handle:
            handle.seek(mark)
            text = handle.read().decode("utf-8", "replace")
        return [found.group(1) for found in map(self._LINE.search, text.splitlines()) if found]
