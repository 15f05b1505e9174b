"""What one HTTP command costs PostgreSQL: at most three SQL statements on a warm service
(issue 21.4), counted by the database server itself (tests/pg.py's StatementLog: the
database's ``log_statement = all``, BEGIN and COMMIT included).

A warm command is one read (the game's row and the records since the service's head, one
statement) and one append (one statement: the head moved only from the version and link the
command was decided on, the records inserted, the notification), in autocommit.  The game's
existence comes from the service's cache, the command id is refused by the append's unique
constraint and looked up only then, a view's damage check is not asked of the database.  The
apps run in this process (httpx's ASGI transport) on a real cluster; two apps on one database
are two nodes.
"""

from __future__ import annotations

import contextlib

import httpx

from engine.store.postgres import PostgresStore
from engine.web import create_app
from tests import pg

from .conftest import InProcessTransport, auth
from .helpers import atkr_choice



@contextlib.contextmanager
def node(url: str):
    """An HTTP client of the app on its own PostgresStore (a node) at ``url``."""
    store = PostgresStore(url)
    transport = InProcessTransport(create_app(store))
    try:
        with httpx.Client(base_url="http://devil.test", transport=transport, timeout=30) as http:
            yield http
    finally:
        transport.close()
        store.close()


def command(http: httpx.Client, created: dict) -> tuple[str, dict]:
    """A seat that may act now and its command."""
    game = created["game"]
    for name in created["players"]:
        view = http.get(f"/games/{game}/view", params={"legal": "true"},
                        headers=auth(created["tokens"][name])).json()
        if view["legal"]:
            return name, atkr_choice(view, name, view["legal"])
    raise AssertionError("nobody may act")


def post(http, created, name, body, key):
    return http.post(f"/games/{created['game']}/commands", json=body, params={"legal": "true"},
                     headers={**auth(created["tokens"][name]), "Idempotency-Key": key})


def test_a_command_over_http_costs_postgresql_at_most_three_statements():
    url = pg.fresh_database()
    log = pg.StatementLog(url)
    with node(url) as a, node(url) as b:
        created = a.post("/games", json={"kind": "atkr", "seed": 5,
                                         "options": {"players": ["Anna", "Ben"]}}).json()
        counts, appends = [], []
        for i in range(12):
            name, body = command(a, created)
            mark = log.mark()
            answer = post(a, created, name, body, f"key-{i}")
            statements = log.since(mark)
            assert answer.status_code == 201, answer.text
            counts.append(len(statements))
            appends.append(sum(s.startswith("WITH moved AS (UPDATE games") for s in statements))
        warm = counts[2:]  # the first commands load the game and its secret (the first draw)
        assert max(warm) <= 3, counts
        assert warm.count(2) >= len(warm) - 1, counts  # the read and the append
        assert appends == [1] * 12
        assert not any(s in ("BEGIN", "COMMIT") for s in statements), statements

        # a retry with the same id: answered from the log, nothing appended, <= 3 statements
        mark = log.mark()
        again = post(a, created, name, body, "key-11")
        retried = log.since(mark)
        assert again.status_code == 200 and again.json()["repeated"] is True
        assert len(retried) <= 3, retried

        # the other node appends; this node's next command reads it in the same one statement
        name, body = command(b, created)
        assert post(b, created, name, body, "from-b").status_code == 201
        name, body = command(b, created)  # b's view: a has not read b's append yet
        mark = log.mark()
        answer = post(a, created, name, body, "after-b")
        after_b = log.since(mark)
        assert answer.status_code == 201, answer.text
        assert len(after_b) <= 3, after_b
        versions = a.get(f"/games/{created['game']}",
                         headers=auth(created["tokens"]["referee"])).json()["version"]
        assert versions == answer.json()["view"]["version"]
