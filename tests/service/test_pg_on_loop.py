"""PostgreSQL on the event loop (issue 21.2): a command or a view of a game the node holds reads
the game's new records with the store's asynchronous read and appends with its asynchronous
append, on the loop, without a worker thread; only a cold load or the first draw (the secret)
is moved to a worker thread, before anything is written (engine.store.loopguard.NeedsThread),
and no blocking store call is ever made on the loop after a write (loopguard.BLOCKED).

The apps run in this process (httpx's ASGI transport) on a real cluster; the store counts its
blocking reads and appends (the real PostgresStore, each call passed on to it).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

import httpx

from client.seating import value_for
from engine.replay import verify_bytes
from engine.service import GameService, snapshots
from engine.store import loopguard
from engine.store.postgres import PostgresStore
from engine.web import create_app
from engine.web.hub import holds_news
from tests import pg

from .conftest import InProcessTransport, auth
from .helpers import atkr_choice


class CountingStore(PostgresStore):
    """The PostgreSQL store, counting its blocking reads and appends (the asynchronous ones
    are not counted)."""

    def __init__(self, url: str):
        super().__init__(url)
        self.blocking = 0

    def read(self, game, after=0):
        self.blocking += 1
        return super().read(game, after)

    def append(self, *args, **kwargs):
        self.blocking += 1
        return super().append(*args, **kwargs)


async def _running_loop():
    return asyncio.get_running_loop()


@contextlib.contextmanager
def node(store: PostgresStore, woken: bool = False, **options):
    """An HTTP client of the app on ``store`` (a node; ``options`` for create_app).  With
    ``woken``, the store's notifications wake the app's watchers, as `devil serve`'s start-up
    wires them (Api.start)."""
    app = create_app(store, **options)
    transport = InProcessTransport(app)
    if woken:
        app.state.api.start(transport._portal.call(_running_loop))
    try:
        with httpx.Client(base_url="http://devil.test", transport=transport, timeout=30) as http:
            yield http
    finally:
        transport.close()


def acting(http: httpx.Client, created: dict) -> tuple[str, dict, dict] | None:
    """``(name, headers, view with its legal commands)`` of the first seat that may act, as
    ``http``'s node sees the game; None when nobody may."""
    game = created["game"]
    for name in created["players"]:
        headers = auth(created["tokens"][name])
        view = http.get(f"/games/{game}/view", params={"legal": "true"}, headers=headers).json()
        if view["legal"]:
            return name, headers, view
    return None


def act(https: list, created: dict, key: str) -> int:
    """One command of whichever seat may act, through ``https[seat % len(https)]``; the
    status of its answer, or 0 if nobody may act."""
    game = created["game"]
    for seat, name in enumerate(created["players"]):
        http = https[seat % len(https)]
        headers = auth(created["tokens"][name])
        view = http.get(f"/games/{game}/view", params={"legal": "true"}, headers=headers).json()
        if view["legal"]:
            answer = http.post(f"/games/{game}/commands", json=atkr_choice(view, name,
                                                                           view["legal"]),
                               params={"legal": "true"},
                               headers={**headers, "Idempotency-Key": key})
            assert answer.status_code in (200, 201), answer.text
            return answer.status_code
    return 0


def play(https: list, created: dict, store: CountingStore) -> list[int]:
    """Play ``created`` to its end; the store's blocking calls counted before each command."""
    counts = []
    for i in range(2000):
        counts.append(store.blocking)
        if not act(https, created, f"key-{i}"):
            return counts
    raise AssertionError("the game did not end")


def test_a_held_game_is_played_on_the_loop_with_no_blocking_call():
    url = pg.fresh_database()
    store = CountingStore(url)
    needed, blocked = loopguard.NEEDED, loopguard.BLOCKED
    try:
        with node(store) as http:
            created = http.post("/games", json={"kind": "atkr", "seed": 5, "options": {
                "players": ["Anna", "Ben", "Cleo"]}}).json()
            counts = play([http], created, store)
            game = created["game"]
            seal = http.get(f"/games/{game}/seal", headers=auth(created["tokens"]["spectator"]))
            assert seal.status_code == 200
    finally:
        store.close()
    # the first view loads the game, the first draw reads the secret and is decided again in a
    # worker thread (one read, one append there): nothing blocking after that, to the seal
    steady = [b - a for a, b in zip(counts[6:], counts[7:])]
    assert len(steady) > 40 and set(steady) == {0}, counts
    assert loopguard.NEEDED - needed <= 2  # the cold view's load is in a thread from the start
    assert loopguard.BLOCKED == blocked
    with PostgresStore(url) as fresh:
        data, head = fresh.log_bytes(game), fresh.head(game)
    result = verify_bytes(data)
    assert result.ok and result.finished
    assert seal.json()["seq"] == head.seq and seal.json()["link"] == head.link.hex()


def test_two_nodes_read_each_others_appends_on_the_loop():
    url = pg.fresh_database()
    a, b = CountingStore(url), CountingStore(url)
    try:
        with node(a) as http_a, node(b) as http_b:
            created = http_a.post("/games", json={"kind": "atkr", "seed": 11, "options": {
                "players": ["Anna", "Ben"]}}).json()
            for i in range(30):  # Anna on node a, Ben on node b: each command follows the other's
                if not act([http_a, http_b], created, f"key-{i}"):
                    break
            warm = (a.blocking, b.blocking)
            for i in range(30, 40):
                if not act([http_a, http_b], created, f"key-{i}"):
                    break
            assert (a.blocking, b.blocking) == warm
    finally:
        a.close()
        b.close()
    with PostgresStore(url) as fresh:
        assert verify_bytes(fresh.log_bytes(created["game"])).ok


def test_a_retried_command_id_is_answered_on_the_loop():
    url = pg.fresh_database()
    store = CountingStore(url)
    try:
        with node(store) as http:
            created = http.post("/games", json={"kind": "atkr", "seed": 5, "options": {
                "players": ["Anna", "Ben"]}}).json()
            game, token = created["game"], created["tokens"]["Anna"]
            headers = {**auth(token), "Idempotency-Key": "bet-1"}
            first = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 60},
                              headers=headers)
            assert first.status_code == 201
            warm = store.blocking  # the first command loaded the game (in a worker thread)
            again = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 60},
                              headers=headers)  # refused by the rules (bet made): a retry
            assert again.status_code == 200 and again.json()["repeated"] is True
            assert again.json()["events"] == first.json()["events"]
            other = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 80},
                              headers=headers)  # the same id for another command: refused
            assert other.status_code == 400
            assert "already used for a different command" in other.json()["error"]
            assert store.blocking == warm  # the retries of a held game's command: none blocking
            assert store.head(game).seq == first.json()["receipt"]["seq"]  # nothing appended
    finally:
        store.close()


def test_a_seated_game_on_postgresql_reveals_its_values_with_no_blocking_call_on_the_loop():
    url = pg.fresh_database()
    store = CountingStore(url)
    blocked = loopguard.BLOCKED
    try:
        with node(store) as http:
            created = http.post("/games", json={"kind": "atkr", "seat_entropy": True, "options": {
                "players": ["Anna", "Ben"]}}).json()
            game, tokens = created["game"], created["tokens"]
            for i, name in enumerate(["Anna", "Ben"]):
                answer = http.post(f"/games/{game}/commands",
                                   json={"type": "seat_entropy", "value": value_for(game, name)},
                                   headers={**auth(tokens[name]), "Idempotency-Key": f"s{i}"})
                assert answer.status_code == 201, answer.text
            assert answer.json()["view"]["phase"] == "bet"
            play([http], created, store)
    finally:
        store.close()
    assert loopguard.BLOCKED == blocked
    with PostgresStore(url) as fresh:
        records, data = fresh.read(game).records, fresh.log_bytes(game)
    assert records[-1].event["type"] == "seats_revealed"
    assert records[-1].event["values"] == [value_for(game, "Anna"), value_for(game, "Ben")]
    assert verify_bytes(data).seed_checked


def test_a_view_or_a_read_of_the_events_of_a_held_game_is_one_statement():
    url = pg.fresh_database()
    log = pg.StatementLog(url)
    store = CountingStore(url)
    try:
        with node(store) as http:
            created = http.post("/games", json={"kind": "atkr", "seed": 5, "options": {
                "players": ["Anna", "Ben"]}}).json()
            game, headers = created["game"], auth(created["tokens"]["Ben"])
            for i in range(3):
                act([http], created, f"key-{i}")  # held, its secret read
            counts = []
            for path, params in ((f"/games/{game}/view", {"legal": "true"}),
                                 (f"/games/{game}/events", {"after": 0}),
                                 (f"/games/{game}/legal", {})):
                mark = log.mark()
                assert http.get(path, params=params, headers=headers).status_code == 200
                counts.append(len(log.since(mark)))
    finally:
        store.close()
    # the game's new records (none): one read each; the players come from the held game
    assert counts == [1, 1, 1]


class DeafStore(CountingStore):
    """A node whose notifications never tell it of the other node's appends (the worst case
    of a notification still on its way): it always trusts the game as held for a command's
    first decision."""

    def told(self, game):
        return (0, 0)


def test_a_command_on_a_listening_node_costs_one_statement_when_nobody_else_appended():
    url = pg.fresh_database()
    log = pg.StatementLog(url)
    store = CountingStore(url)
    store.subscribe(lambda game: None)  # listening, as `devil serve` does at start-up
    try:
        with node(store) as http:
            created = http.post("/games", json={"kind": "atkr", "seed": 5, "options": {
                "players": ["Anna", "Ben"]}}).json()
            counts = []
            game = created["game"]
            for i in range(12):
                found = acting(http, created)
                assert found is not None
                name, headers, view = found
                mark = log.mark()
                answer = http.post(f"/games/{game}/commands",
                                   json=atkr_choice(view, name, view["legal"]),
                                   headers={**headers, "Idempotency-Key": f"key-{i}"})
                assert answer.status_code == 201, answer.text
                counts.append(len(log.since(mark)))
            refused = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 7},
                                headers={**headers, "Idempotency-Key": "odd"})
    finally:
        store.close()
    # the first commands read the game (after the views) and its secret; then the append alone
    assert counts[4:] == [1] * 8, counts
    assert refused.status_code in (400, 409) and refused.json()["rule"]


def test_a_node_deciding_on_a_game_another_node_moved_on_decides_again_and_loses_nothing():
    url = pg.fresh_database()
    deaf, other = DeafStore(url), CountingStore(url)
    keys = []
    try:
        with node(deaf) as http_a, node(other) as http_b:
            created = http_a.post("/games", json={"kind": "atkr", "seed": 3, "options": {
                "players": ["Anna", "Ben"]}}).json()
            game = created["game"]
            for i in range(400):
                # every view is read on the other node, Anna's commands are sent to the deaf
                # one: each is decided first on the game as the deaf node last saw it, before
                # Ben's moves since
                found = acting(http_b, created)
                if found is None:  # nobody may act: the game's view as the referee sees it
                    view = http_b.get(f"/games/{game}/view",
                                      headers=auth(created["tokens"]["referee"])).json()
                    break
                name, headers, view = found
                http = http_a if name == "Anna" else http_b
                answer = http.post(f"/games/{game}/commands",
                                   json=atkr_choice(view, name, view["legal"]),
                                   headers={**headers, "Idempotency-Key": f"key-{i}"})
                assert answer.status_code == 201, answer.text
                keys.append(f"key-{i}")
            else:
                raise AssertionError("the game did not end")
            assert view["phase"] == "over"
    finally:
        deaf.close()
        other.close()
    with PostgresStore(url) as fresh:
        data, records = fresh.log_bytes(game), fresh.read(game).records
    assert verify_bytes(data).ok
    recorded = [r.cmd for r in records if r.cmd is not None and r.left == 0]
    assert recorded == keys  # every acknowledged command once, in the order acknowledged


PHYSICAL = {"players": ["Anna", "Ben"], "first": "Anna", "physical": True}


def snapshotted(creator: PostgresStore, other: PostgresStore) -> tuple[str, dict, GameService]:
    """A physical game made through ``creator``'s node, Anna's bet through ``other`` (another
    node, or the CLI) with SNAPSHOT_EVERY at 3: ``(game, the referee's headers, the service
    on other)``, its snapshot at record 3."""
    with node(creator) as http:
        created = http.post("/games", json={"kind": "atkr", "options": PHYSICAL}).json()
    game, referee = created["game"], auth(created["tokens"]["referee"])
    elsewhere = GameService(other)
    elsewhere.submit(game, {"type": "bet", "player": "Anna", "amount": 60})
    assert other.snapshot(game)
    return game, referee, elsewhere


def test_a_correction_read_into_a_game_held_from_its_snapshot_is_folded_once(monkeypatch):
    """DESK-1's correction refolds from the earlier events; on a game held from its snapshot
    those are read blocking, in the middle of the fold (NeedsThread on the loop): the game is
    let go and loaded again in a worker thread, never folded twice (found in review: the desk
    voided the record twice and the next correction was recorded with a wrong epoch)."""
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 3)
    url = pg.fresh_database()
    creator, other, held = PostgresStore(url), PostgresStore(url), PostgresStore(url)
    try:
        game, referee, elsewhere = snapshotted(creator, other)
        with node(held) as http:
            assert http.get(f"/games/{game}/view", headers=referee).status_code == 200
            elsewhere.submit(game, {"type": "correct", "to": 2, "reason": "she meant 70"})
            view = http.get(f"/games/{game}/view", headers=referee).json()
            bet = http.post(f"/games/{game}/commands",
                            json={"type": "bet", "player": "Anna", "amount": 70},
                            headers={**referee, "Idempotency-Key": "k1"})
            again = http.post(f"/games/{game}/commands",
                              json={"type": "correct", "to": 4, "reason": "and again"},
                              headers={**referee, "Idempotency-Key": "k2"})
    finally:
        for store in (creator, other, held):
            store.close()
    # hand-worked: at head 3 (created, round, Anna's bet) "to 2" voids record 3, by record 4,
    # the log's first correction (epoch 1, docs/log-format.md): once
    assert [(v["from"], v["to"], v["by"], v["epoch"]) for v in view["voided"]] == [(3, 3, 4, 1)]
    assert bet.status_code == 201 and again.status_code == 201
    with PostgresStore(url) as fresh:
        result = verify_bytes(fresh.log_bytes(game))
        epochs = [r.event["epoch"] for r in fresh.read(game).records
                  if r.event["type"] == "corrected"]
    assert result.ok, result
    assert epochs == [1, 2]


def test_a_correction_answered_on_the_loop_reads_the_tournaments_in_a_worker_thread():
    url = pg.fresh_database()
    store = CountingStore(url)
    try:
        with node(store) as http:
            created = http.post("/games", json={"kind": "atkr", "options": PHYSICAL}).json()
            game, referee = created["game"], auth(created["tokens"]["referee"])
            bet = http.post(f"/games/{game}/commands",
                            json={"type": "bet", "player": "Anna", "amount": 60},
                            headers={**referee, "Idempotency-Key": "k1"})
            assert bet.status_code == 201, bet.text
            blocked = loopguard.BLOCKED
            fixed = http.post(f"/games/{game}/commands",
                              json={"type": "correct", "to": 2, "reason": "70"},
                              headers={**referee, "Idempotency-Key": "k2"})
            assert fixed.status_code == 201, fixed.text
            assert "warnings" not in fixed.json()  # in no tournament
    finally:
        store.close()
    assert loopguard.BLOCKED == blocked


def test_a_snapshot_due_on_the_loop_is_written_afterwards_in_a_worker_thread(monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 4)
    url = pg.fresh_database()
    store = CountingStore(url)
    try:
        with node(store) as http:
            created = http.post("/games", json={"kind": "atkr", "options": PHYSICAL}).json()
            game, referee = created["game"], auth(created["tokens"]["referee"])
            http.get(f"/games/{game}/view", headers=referee)  # held
            blocked = loopguard.BLOCKED
            for i, (who, amount) in enumerate((("Anna", 60), ("Ben", 40))):
                answer = http.post(f"/games/{game}/commands",
                                   json={"type": "bet", "player": who, "amount": amount},
                                   headers={**referee, "Idempotency-Key": f"k{i}"})
                assert answer.status_code == 201, answer.text
            deadline = time.monotonic() + 10
            while store.snapshot(game) is None and time.monotonic() < deadline:
                time.sleep(0.02)
            head = store.head(game)
    finally:
        store.close()
    assert loopguard.BLOCKED == blocked  # the bets' answers wrote nothing blocking
    with PostgresStore(url) as fresh:
        found = snapshots.read(fresh, fresh.snapshot(game), game)
    assert found is not None and found[0] >= 4 and found[0] <= head.seq


def test_a_seat_value_is_never_decided_on_trust_so_a_refused_one_keeps_the_first(tmp_path):
    """SEAT-2: one value per seat.  A seat's value is kept before its commitment is appended,
    so it is decided only on a fresh read: a second value sent to a node not yet told of the
    first is refused and the first stays kept (found in review: the second overwrote it and
    the table could never open)."""
    from client.seating import value_for

    from engine import entropy

    url = pg.fresh_database()
    deaf, other = DeafStore(url), CountingStore(url)
    try:
        with node(deaf) as http_a, node(other) as http_b:
            created = http_a.post("/games", json={"kind": "atkr", "seat_entropy": True,
                                                  "options": {"players": ["Anna", "Ben"]}}).json()
            game, tokens = created["game"], created["tokens"]
            anna, ben = auth(tokens["Anna"]), auth(tokens["Ben"])
            assert http_a.get(f"/games/{game}/view", headers=anna).status_code == 200  # held
            first_value, second_value = value_for(game, "Anna"), "ab" * 32
            first = http_b.post(f"/games/{game}/commands",
                                json={"type": "seat_entropy", "value": first_value},
                                headers={**anna, "Idempotency-Key": "a1"})
            assert first.status_code == 201, first.text
            second = http_a.post(f"/games/{game}/commands",
                                 json={"type": "seat_entropy", "value": second_value},
                                 headers={**anna, "Idempotency-Key": "a2"})
            last = http_b.post(f"/games/{game}/commands",
                               json={"type": "seat_entropy", "value": value_for(game, "Ben")},
                               headers={**ben, "Idempotency-Key": "b1"})
    finally:
        deaf.close()
        other.close()
    assert second.status_code == 409 and second.json()["rule"] == "SEAT-2"
    assert last.status_code == 201, last.text  # every seat in: the table opens
    assert last.json()["view"]["phase"] == "bet"
    with PostgresStore(url) as fresh:
        assert fresh.private(game, entropy.private_name(0))["value"] == first_value


def test_a_decision_refused_by_its_append_can_still_move_to_a_worker_thread(monkeypatch):
    """An append refused by its version check wrote nothing: the path may still start again
    in a worker thread when its next read must block (here: a correction appended elsewhere to
    a game held from its snapshot), rather than block the loop (found in review)."""
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 3)
    url = pg.fresh_database()
    creator, other, held = PostgresStore(url), PostgresStore(url), DeafStore(url)
    try:
        game, referee, elsewhere = snapshotted(creator, other)
        app = create_app(held)
        app.state.api.service.signing.signer()  # the key read before, as at start-up
        transport = InProcessTransport(app)
        try:
            with httpx.Client(base_url="http://devil.test", transport=transport) as http:
                assert http.get(f"/games/{game}/view", headers=referee).status_code == 200
                assert http.get(f"/games/{game}/view", headers=referee).status_code == 200
                elsewhere.submit(game, {"type": "correct", "to": 2, "reason": "she meant 70"})
                blocked = loopguard.BLOCKED
                bet = http.post(f"/games/{game}/commands",
                                json={"type": "bet", "player": "Ben", "amount": 40},
                                headers={**referee, "Idempotency-Key": "k1"})
        finally:
            transport.close()
    finally:
        for store in (creator, other, held):
            store.close()
    assert bet.status_code == 201, bet.text
    assert loopguard.BLOCKED == blocked
    # hand-worked: created 1, round 2, Anna's bet 3 (voided by the correction 4), Ben's bet 5
    assert bet.json()["receipt"]["seq"] == 5


def long_poll(http: httpx.Client, game: str, headers: dict, after: int, seen: list,
              wait: float = 5.0) -> threading.Thread:
    """A watcher's long polls of ``game``'s events from ``after`` until the game is over,
    each entry appended to ``seen`` (in a thread, started)."""
    def watch() -> None:
        version = after
        while True:
            answer = http.get(f"/games/{game}/events", params={"after": version, "wait": wait},
                              headers=headers).json()
            seen.extend(answer["events"])
            version = answer["version"]
            if answer["over"]:
                return

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_a_long_poll_woken_by_its_own_nodes_append_reads_nothing():
    """Issue 21.4: a long poll's first look, and its wake-up by an append made on its own
    node, when the notifications tell of nobody else's since the node last read the game, are
    answered from the game as held: the append is the only statement."""
    url = pg.fresh_database()
    log = pg.StatementLog(url)
    store = CountingStore(url)
    store.subscribe(lambda game: None)  # listening, as `devil serve` does at start-up
    try:
        with node(store, poll_interval=30.0) as http:  # no look at the head meanwhile
            created = http.post("/games", json={"kind": "atkr", "seed": 5, "options": {
                "players": ["Anna", "Ben"]}}).json()
            game, referee = created["game"], auth(created["tokens"]["referee"])
            for i in range(4):
                act([http], created, f"key-{i}")  # held, its secret read
            found = acting(http, created)
            assert found is not None
            name, headers, view = found
            version = view["version"]
            mark = log.mark()
            answers: list = []  # one long poll, in a thread, waiting before the command
            thread = threading.Thread(target=lambda: answers.append(http.get(
                f"/games/{game}/events", params={"after": version, "wait": 10},
                headers=referee).json()), daemon=True)
            thread.start()
            time.sleep(0.5)  # the poll has looked and waits
            answer = http.post(f"/games/{game}/commands",
                               json=atkr_choice(view, name, view["legal"]),
                               headers={**headers, "Idempotency-Key": "the-command"})
            thread.join(10)
            statements = log.since(mark)
            seen = answers[0]["events"]
    finally:
        store.close()
    assert answer.status_code == 201, answer.text
    # the command's events, every one, and no read for them: the append alone
    assert [e["seq"] for e in seen] == [e["seq"] for e in answer.json()["events"]]
    assert seen and seen[0]["seq"] == version + 1
    assert len(statements) == 1, statements


def test_a_watcher_on_a_node_told_nothing_sees_every_event_once_in_order():
    """Issue 21.1 with the watcher's trust at its worst: node A's ``told`` never tells of node
    B's appends (DeafStore), though their notifications wake A's watchers, and Anna's and
    Ben's commands go to different nodes.  The referee's long polls on A see every event
    exactly once, in order, and at once: woken by B's append, A holds nothing past what the
    watcher has seen, so it reads (it does not wait for its look at the head, 30 s here)."""
    url = pg.fresh_database()
    deaf, other = DeafStore(url), CountingStore(url)
    seen: list = []
    began = time.monotonic()
    try:
        with node(deaf, woken=True, poll_interval=30.0) as http_a, node(other) as http_b:
            created = http_a.post("/games", json={"kind": "atkr", "seed": 7, "options": {
                "players": ["Anna", "Ben"]}}).json()
            game, referee = created["game"], auth(created["tokens"]["referee"])
            watcher = long_poll(http_a, game, referee, 0, seen)
            for i in range(400):
                found = acting(http_b, created)
                if found is None:
                    break
                name, headers, view = found
                http = http_a if name == "Anna" else http_b
                answer = http.post(f"/games/{game}/commands",
                                   json=atkr_choice(view, name, view["legal"]),
                                   headers={**headers, "Idempotency-Key": f"key-{i}"})
                assert answer.status_code == 201, answer.text
                last = answer.json()["events"][-1]["seq"]
                until = time.monotonic() + 5  # the watcher on A has it before the next command
                while (not seen or seen[-1]["seq"] < last) and time.monotonic() < until:
                    time.sleep(0.002)
                assert seen and seen[-1]["seq"] >= last, (name, last)
            else:
                raise AssertionError("the game did not end")
            watcher.join(20)
            assert not watcher.is_alive()
            took = time.monotonic() - began
            everything = http_b.get(f"/games/{game}/events", params={"after": 0},
                                    headers=referee).json()
    finally:
        deaf.close()
        other.close()
    assert everything["over"] and len(everything["events"]) > 40
    assert seen == everything["events"]  # each once, in order, as a fresh read has them
    assert took < 15  # no wake-up waited for the look at the head


def test_a_woken_watcher_trusts_the_held_game_only_when_itholds_news():
    """The decision of Api.woken, by hand: ``(held, seen, woken by)``."""
    assert holds_news(7, 5, None)  # records 6 and 7 held: served without a read
    assert holds_news(7, 5, 7)
    assert holds_news(7, 7, 7)  # woken again by an append already served: nothing to read
    assert holds_news(8, 7, 7)
    assert not holds_news(7, 7, None)  # woken by another node's append: read it
    assert not holds_news(6, 6, 7)  # this node's append not held (yet): read
