"""Seat entropy over HTTP (issue 13.3): a game created with ``seat_entropy`` waits for every
seat's value (each seat's own token), then plays as any other; the values revealed at the end
are the ones each client made and kept."""

from __future__ import annotations

from client.seating import kept_values, value_for
from engine.replay import verify_bytes
from engine.store import FileStore

from .conftest import auth
from .helpers import play_atkr


def test_a_seated_game_over_http_waits_for_every_seat_and_reveals_their_values(server, http):
    answer = http.post("/games", json={"kind": "atkr", "seat_entropy": True,
                                       "options": {"players": ["Anna", "Ben"]}})
    assert answer.status_code == 201
    created = answer.json()
    game, tokens = created["game"], created["tokens"]
    view = http.get(f"/games/{game}/view", headers=auth(tokens["Ben"])).json()
    assert view["phase"] == "seating" and view["waiting_for"] == ["Anna", "Ben"]
    refused = http.post(f"/games/{game}/commands", json={"type": "bet", "amount": 60},
                        headers={**auth(tokens["Anna"]), "Idempotency-Key": "b1"})
    assert refused.status_code == 409 and refused.json()["rule"] == "SEAT-1"
    anna = server.remote(tokens["Anna"]).submit(
        game, {"type": "seat_entropy", "value": value_for(game, "Anna")}, None)
    assert [e["type"] for e in anna["events"]] == ["seat_committed"]
    assert anna["receipt"]["seq"] == 2
    ben = server.remote(tokens["Ben"]).submit(
        game, {"type": "seat_entropy", "value": value_for(game, "Ben")}, None)
    assert [e["type"] for e in ben["events"]] == ["seat_committed", "game_created",
                                                 "round_started"]
    assert ben["view"]["phase"] == "bet"
    play_atkr(server, created)
    data = FileStore(server.store).log_bytes(game)
    result = verify_bytes(data)
    assert result.ok and result.finished and result.seed_checked
    records = FileStore(server.store).read(game).records
    kept = kept_values(game)
    assert records[-1].event == {"type": "seats_revealed", "values": [kept["Anna"], kept["Ben"]]}
    seal = http.get(f"/games/{game}/seal", headers=auth(tokens["spectator"])).json()
    assert seal["seq"] == records[-1].seq  # the seal covers the reveal


def test_a_server_may_give_every_digital_game_seat_entropy(tmp_path):
    """`devil serve --seat-entropy`: games without a chosen seed are seated unless the body
    says otherwise; a physical game or a chosen seed is not."""
    from .conftest import App

    app = App(tmp_path)
    app.transport._asgi.app.state.api.seat_entropy = True  # what `serve --seat-entropy` sets
    players = {"players": ["Anna", "Ben"]}
    try:
        def first_event(body):
            created = app.http.post("/games", json=body).json()
            return FileStore(app.store).read(created["game"]).records[0].event["type"]

        assert first_event({"kind": "atkr", "options": players}) == "table_opened"
        assert first_event({"kind": "castle", "options": {"players": ["A", "B", "C"]}}) \
            == "table_opened"
        assert first_event({"kind": "atkr", "options": players, "seat_entropy": False}) \
            == "game_created"
        assert first_event({"kind": "atkr", "options": players, "seed": 4}) == "game_created"
        assert first_event({"kind": "atkr", "options": {**players, "physical": True}}) \
            == "game_created"
        bad = app.http.post("/games", json={"kind": "atkr", "options": players,
                                            "seat_entropy": "yes"})
        assert bad.status_code == 400 and "seat_entropy" in bad.json()["error"]
    finally:
        app.close()


def test_a_seats_first_command_gives_its_entropy_first(server, http):
    """The CLI's submit path (client.submit.submit_command) with a seat's token: the seat's
    first command of a seated game carries its value, then is refused while others wait."""
    import click
    import pytest

    from client.cli import cli
    from client.context import Context
    from client.submit import submit_command
    from engine.errors import IllegalCommand

    created = http.post("/games", json={"kind": "atkr", "seat_entropy": True,
                                        "options": {"players": ["Anna", "Ben"]}}).json()
    game, tokens = created["game"], created["tokens"]

    def bet(name):
        obj = Context("unused", server.url, tokens[name])
        obj._client = server.remote(tokens[name])
        with click.Context(cli, obj=obj):
            submit_command(obj, game, {"type": "bet", "amount": 40}, None, None, True)

    with pytest.raises(IllegalCommand, match="SEAT-1.*waiting for Ben"):
        bet("Anna")
    records = FileStore(server.store).read(game).records
    assert [(r.actor, r.event["type"]) for r in records] == [(-1, "table_opened"),
                                                             (0, "seat_committed")]
    bet("Ben")  # Ben's value first, the table opens, then Ben's bet is taken
    types = [r.event["type"] for r in FileStore(server.store).read(game).records]
    assert types == ["table_opened", "seat_committed", "seat_committed", "game_created",
                     "round_started", "bet_placed"]


def test_devil_serve_seats_digital_games_by_default_and_the_cli_sits(tmp_path):
    """A real `devil serve` without flags (issue 13.3: chance nobody can choose is what a
    service gives): a digital game created over --server opens a table; each seat sits with
    its own token (`devil sit`); then the game is set up and bets are taken.  A chosen seed is
    not seated (it is reproducible, not secret: nothing to protect)."""
    import json

    from click.testing import CliRunner

    from client.cli import cli

    from .conftest import Server

    server = Server(tmp_path / "store", seat_entropy=True).start()
    env = {"DEVIL_CONFIG": str(tmp_path / "config")}
    try:
        def devil(*args, token=None, code=0):
            extra = ["--token", token] if token else []
            result = CliRunner().invoke(cli, ["--server", server.url, *extra, *args], env=env)
            assert result.exit_code == code, (args, result.output)
            return result

        created = json.loads(devil("new", "atkr", "--player", "Anna", "--player", "Ben",
                                   "--json").stdout)
        game, tokens = created["game"], created["tokens"]
        devil("sit", game, token=tokens["Anna"])
        assert "SEAT-1" in devil("bet", game, "40", token=tokens["Anna"], code=1).output
        devil("sit", game, token=tokens["Ben"])
        devil("bet", game, "40", token=tokens["Anna"])
        types = [r.event["type"] for r in FileStore(server.store).read(game).records]
        assert types == ["table_opened", "seat_committed", "seat_committed", "game_created",
                         "round_started", "bet_placed"]
        chosen = json.loads(devil("new", "atkr", "--player", "Anna", "--player", "Ben",
                                  "--seed", "7", "--json").stdout)["game"]
        assert FileStore(server.store).read(chosen).records[0].event["type"] == "game_created"
    finally:
        server.stop()
