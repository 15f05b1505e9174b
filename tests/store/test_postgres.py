"""What only the PostgreSQL store has to show: many nodes on one database, notifications between
them, the columns beside the bytes, and versioned schema migrations (engine/store/postgres/).

The contract every store keeps is tested in test_contract.py (which runs on PostgreSQL too).
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import threading
import time

import msgpack
import psycopg
import pytest

from engine.errors import ConcurrencyConflict, UsageError
from engine.log import scan
from engine.store import DuplicateCommand, FileStore, open_store
from engine.store import postgres
from engine.store.postgres import connections, schema
from tests import pg
from tests.store.conftest import open_pg

GAME = "atkr-pgnodes1"

@pytest.fixture
def url():
    return pg.fresh_database()


def _new(store, game=GAME):
    return store.create("atkr", game, -1, [{"type": "setup"}], {"seed": 7, "salt": "ab"},
                        created=1_700_000_000_000)


def test_two_nodes_appending_at_once_lose_and_duplicate_nothing(url):
    node_a, node_b = open_pg(url, pool_size=4), open_pg(url, pool_size=4)
    _new(node_a)
    errors = []

    def write(node, name: str):
        try:
            for i in range(40):
                while True:
                    try:
                        node.append(GAME, node.head(GAME).seq, 0, f"{name}-{i}",
                                    [{"type": "x", "by": name, "i": i, "k": k} for k in range(3)])
                        break
                    except ConcurrencyConflict:
                        continue
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(node, f"{label}{t}"))
               for label, node in (("a", node_a), ("b", node_b)) for t in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    records = node_b.read(GAME).records
    assert [r.seq for r in records] == list(range(1, 1 + 1 + 6 * 40 * 3))
    assert sorted((r.event["by"], r.event["i"], r.event["k"]) for r in records[1:]) == sorted(
        (f"{label}{t}", i, k) for label in "ab" for t in range(3) for i in range(40)
        for k in range(3))
    # the chain the two nodes wrote together is one .devlog that checks from end to end
    data = node_a.log_bytes(GAME)
    assert scan(data).records == records


def test_one_command_id_sent_to_two_nodes_at_once_is_written_once(url):
    node_a, node_b = open_pg(url), open_pg(url)
    _new(node_a)
    for attempt in range(20):
        head = node_a.head(GAME).seq
        outcomes = []
        barrier = threading.Barrier(2)

        def send(node):
            barrier.wait()
            try:
                node.append(GAME, head, 1, f"retry-{attempt}", [{"type": "bet"}])
                outcomes.append("ok")
            except DuplicateCommand:
                outcomes.append("duplicate")
            except ConcurrencyConflict:
                outcomes.append("conflict")
        threads = [threading.Thread(target=send, args=(node,)) for node in (node_a, node_b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes)[-1] == "ok" and outcomes.count("ok") == 1
        assert len(node_b.command(GAME, f"retry-{attempt}")) == 1
    with pytest.raises(DuplicateCommand):  # the same id at the right version: still refused
        node_b.append(GAME, node_b.head(GAME).seq, 1, "retry-0", [{"type": "bet"}])


def test_a_waiter_on_one_node_wakes_within_200_ms_of_an_append_on_another(url):
    node_a, node_b = open_pg(url), open_pg(url)
    _new(node_a)
    woke = []

    def waiter(node, after):
        head = node.wait(GAME, after, timeout=20)
        woke.append((time.monotonic(), head))
    for round_ in range(3):
        woke.clear()
        thread = threading.Thread(target=waiter, args=(node_a, 1 + round_))
        thread.start()
        time.sleep(0.3)  # the waiter is waiting (not polling its way there)
        node_b.append(GAME, 1 + round_, 0, f"c{round_}", [{"type": "x"}])
        appended = time.monotonic()
        thread.join(5)
        assert woke, "the waiter did not wake"
        assert woke[0][1].seq == 2 + round_
        assert woke[0][0] - appended < 0.2, f"woke {woke[0][0] - appended:.3f} s after"
        node_a, node_b = node_b, node_a  # and the other way round


def test_a_subscriber_hears_of_each_append_once_its_own_stores_at_the_append(url):
    node_a, node_b = open_pg(url), open_pg(url)
    _new(node_a)
    heard: list = []
    node_a.subscribe(heard.append)  # listening once this returns
    heard.clear()  # the (re)connection's None
    node_a.append(GAME, 1, 0, "a1", [{"type": "x"}])
    assert heard == [GAME]  # told as the append returned, in this thread
    time.sleep(0.5)  # the database's notification of it comes back: not told again
    assert heard == [GAME]
    node_b.append(GAME, 2, 1, "b1", [{"type": "x"}])
    deadline = time.monotonic() + 5
    while len(heard) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert heard == [GAME, GAME]  # another store's append: told by its notification


def test_a_subscriber_with_versions_hears_its_own_stores_appends_with_their_version(url):
    """The HTTP service's subscriber (Api.start): its own store's append is told with the
    game's version after it (a watcher already served that far reads nothing more), another
    store's with None (the watcher reads)."""
    node_a, node_b = open_pg(url), open_pg(url)
    _new(node_a)
    heard: list = []
    node_a.subscribe(lambda game, version: heard.append((game, version)), versions=True)
    heard.clear()  # the (re)connection's (None, None)
    node_a.append(GAME, 1, 0, "a1", [{"type": "x"}, {"type": "y"}])
    assert heard == [(GAME, 3)]  # records 2 and 3: the game is at version 3
    node_b.append(GAME, 3, 1, "b1", [{"type": "x"}])
    deadline = time.monotonic() + 5
    while len(heard) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert heard == [(GAME, 3), (GAME, None)]


def test_a_waiter_still_wakes_when_its_notification_connection_is_cut(url):
    node_a, node_b = open_pg(url), open_pg(url)
    _new(node_a)
    assert node_a.wait(GAME, 1, timeout=0.1).seq == 1  # starts node A's listener
    with psycopg.connect(url, autocommit=True) as conn:
        cut = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE query ILIKE 'LISTEN%%' AND datname = current_database()"
                           ).fetchall()
    assert cut  # the listener was there, and is gone
    result = []
    thread = threading.Thread(target=lambda: result.append(node_a.wait(GAME, 1, timeout=10)))
    thread.start()
    time.sleep(0.2)
    node_b.append(GAME, 1, 0, "c1", [{"type": "x"}])
    appended = time.monotonic()
    thread.join(10)
    assert result and result[0].seq == 2
    assert time.monotonic() - appended < 2


def test_records_keep_their_devlog_bytes_and_their_fields_in_columns(url, tmp_path):
    store = open_pg(url)
    _new(store)
    store.append(GAME, 1, 2, "c1", [{"type": "a"}, {"type": "b"}], ts=99)
    with psycopg.connect(url) as conn:
        rows = conn.execute('SELECT seq, actor, cmd, ts, "left", link, bytes FROM records '
                            "WHERE game = %s ORDER BY seq", (GAME,)).fetchall()
        header = conn.execute("SELECT header FROM games WHERE id = %s", (GAME,)).fetchone()[0]
        secret = conn.execute("SELECT document FROM secrets WHERE game = %s", (GAME,)).fetchone()
    assert [row[:5] for row in rows] == [(1, -1, None, 0, 0), (2, 2, "c1", 99, 1),
                                         (3, 2, "c1", 99, 0)]
    for seq, actor, cmd, ts, left, link, data in rows:
        assert msgpack.unpackb(data)[:4] == [seq, actor, cmd, ts]
        assert data[-8:] == link and data[-10:-8] == b"\xc4\x08"
    assert header + b"".join(row[6] for row in rows) == store.log_bytes(GAME)
    assert secret == ({"seed": 7, "salt": "ab"},)
    # and a file store given the same commands writes the same file
    files = FileStore(str(tmp_path))
    _new(files)
    files.append(GAME, 1, 2, "c1", [{"type": "a"}, {"type": "b"}], ts=99)
    assert files.log_bytes(GAME) == store.log_bytes(GAME)


def test_a_game_moves_between_stores_byte_for_byte(url, tmp_path):
    files = FileStore(str(tmp_path))
    _new(files)
    files.append(GAME, 1, 0, "c1", [{"type": "a"}])
    store = open_pg(url)
    assert store.import_log(files.log_bytes(GAME), files.secret(GAME)) == GAME
    store.append(GAME, 2, 1, "c2", [{"type": "b"}], ts=5)
    back = FileStore(str(tmp_path / "back"))
    back.import_log(store.log_bytes(GAME), store.secret(GAME))
    assert back.log_bytes(GAME) == store.log_bytes(GAME)
    assert back.read(GAME).records == store.read(GAME).records


def test_open_store_picks_postgres_for_a_database_url(url):
    for location in (url, url.replace("postgresql://", "postgres://", 1)):
        store = open_store(location)
        try:
            assert isinstance(store, postgres.PostgresStore)
            assert store.games() == []
        finally:
            store.close()
    assert isinstance(open_store("some/folder"), FileStore)


def test_importing_the_store_package_does_not_import_psycopg():
    code = "import sys, engine.store; print('psycopg' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def test_a_database_without_the_schema_is_refused_until_init_and_init_is_idempotent():
    url = pg.fresh_database(initialized=False)
    with pytest.raises(schema.SchemaMismatch, match="devil db init"):
        postgres.PostgresStore(url)
    with pytest.raises(schema.SchemaMismatch, match="devil db init") as info:
        schema.upgrade(url)
    # the test cluster's URL holds `&` (?host=...&port=...): quoted, it pastes as one word
    assert "&" in url and f"`devil db init {shlex.quote(url)}`" in info.value.message
    target = schema.package_version()
    assert target >= 1
    assert schema.init(url) == (0, target)
    store = open_pg(url)
    _new(store)
    before = store.log_bytes(GAME)
    assert schema.init(url) == (target, target)  # again: nothing changes, nothing is lost
    assert schema.upgrade(url) == (target, target)
    assert store.log_bytes(GAME) == before


def test_an_older_schema_is_refused_naming_the_upgrade_then_upgrade_brings_it_up(url,
                                                                                  monkeypatch):
    store = open_pg(url)
    _new(store)
    shipped = schema.migrations()
    later = shipped[-1][0] + 1
    monkeypatch.setattr(schema, "migrations", lambda: shipped + [
        (later, "add_a_note", "ALTER TABLE games ADD COLUMN note text")])
    with pytest.raises(schema.SchemaMismatch) as info:
        postgres.PostgresStore(url)
    assert f"devil db upgrade {shlex.quote(url)}" in info.value.message
    assert f"version {later - 1}" in info.value.message
    assert schema.upgrade(url) == (later - 1, later)
    assert schema.upgrade(url) == (later, later)  # idempotent
    assert schema.init(url) == (later, later)
    upgraded = open_pg(url)
    assert upgraded.read(GAME).records == store.read(GAME).records
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT note FROM games").fetchall() == [(None,)]


def test_a_newer_schema_is_refused(url):
    with psycopg.connect(url) as conn:
        conn.execute("INSERT INTO schema_version (version, name) VALUES (999, 'future')")
    with pytest.raises(schema.SchemaMismatch, match="newer than this devil"):
        postgres.PostgresStore(url)
    with pytest.raises(schema.SchemaMismatch, match="newer than this devil"):
        schema.upgrade(url)


def test_migrations_ship_in_the_package():
    shipped = schema.migrations()
    assert [version for version, _, _ in shipped] == list(range(1, len(shipped) + 1))
    assert "CREATE TABLE records" in shipped[0][2]


def test_an_unreachable_database_is_a_clear_error_without_the_password(tmp_path):
    url = f"postgresql://someone:hunter2@/nothing?host={tmp_path}&port=1"
    with pytest.raises(UsageError, match="cannot connect") as info:
        postgres.PostgresStore(url)
    assert "hunter2" not in info.value.message
    assert connections.safe_url("postgresql://u:pw@h:5/db?password=x&sslmode=require") == \
        "postgresql://u@h:5/db?password=***&sslmode=require"
