"""One answer (issue 19.3): the same game played through the local client and over HTTP gives
equal answers, for every kind, desk records included (signatures, times and game ids aside).

Both games are created with the same seed, so their draws are the same; every command goes to
both with the same command id, by the seat it belongs to (locally ``--as NAME``, over HTTP the
seat's own token).  After each command the answers, and every viewer's events and view, are
compared.
"""

from __future__ import annotations

import pytest

from client.api import LocalClient
from engine.service import GameService
from engine.store import FileStore
from tests.registry import kinds
from tests.service.conftest import App

STEPS = 24


def _normal(data, ids):
    """``data`` with the two games' ids made one, and what differs by nature (the receipts'
    signatures and times, record times, the seed commitments: the salt is random) left out."""
    if isinstance(data, dict):
        return {k: _normal(v, ids) for k, v in data.items()
                if k not in ("receipt", "time", "path", "tokens", "commitment", "salt",
                                 "seed_commitment")}
    if isinstance(data, list):
        return [_normal(v, ids) for v in data]
    if isinstance(data, str):
        for game in ids:
            data = data.replace(game, "GAME")
    return data


@pytest.mark.parametrize("kind", kinds())
def test_the_local_client_and_http_answer_alike(tmp_path, kind):
    local = LocalClient(GameService(FileStore(str(tmp_path / "local"))))
    app = App(tmp_path / "served")
    try:
        options = {"players": ["Anna", "Ben", "Cleo", "Dan"]}
        made = local.create(kind, options, seed=11)
        served = app.http.post("/games", json={"kind": kind, "options": options,
                                               "seed": 11}).json()
        game, remote_game = made["game"], served["game"]
        ids = (game, remote_game)
        names = made["players"]
        assert served["players"] == names
        seats = {name: app.remote(served["tokens"][name]) for name in names}
        referee = app.remote(served["tokens"]["referee"])
        spectator = app.remote(served["tokens"]["spectator"])

        def compare_streams():
            for name in names:
                assert _normal(local.events(game, name), ids) == \
                    _normal(seats[name].events(remote_game, None), ids)
                assert _normal(local.view(game, name), ids) == \
                    _normal(seats[name].view(remote_game, None), ids)
                assert local.legal(game, name) == seats[name].legal(remote_game, None)
            assert _normal(local.public_events(game), ids) == \
                _normal(spectator.events(remote_game, None), ids)
            assert _normal(local.events(game, None), ids) == \
                _normal(referee.events(remote_game, None), ids)
            assert _normal(local.view(game, None), ids) == \
                _normal(referee.view(remote_game, None), ids)

        compare_streams()
        given, before = 0, None
        for step in range(STEPS):
            if step == STEPS // 2:  # the referee's desk: a seat disputes, the referee corrects
                seq = local.view(game, None)["version"]
                answers = [local.submit(game, {"type": "dispute", "seq": seq,
                                               "text": "that is not what I said"},
                                        names[0], f"d{step}"),
                           seats[names[0]].submit(remote_game,
                                                  {"type": "dispute", "seq": seq,
                                                   "text": "that is not what I said"},
                                                  None, f"d{step}")]
                assert _normal(answers[0], ids) == _normal(answers[1], ids)
                answers = [local.submit(game, {"type": "correct", "to": before,
                                               "reason": "replayed from before"}, None,
                                        f"c{step}"),
                           referee.submit(remote_game, {"type": "correct", "to": before,
                                                        "reason": "replayed from before"},
                                          None, f"c{step}")]
                assert _normal(answers[0], ids) == _normal(answers[1], ids)
                assert answers[0]["view"]["voided"]
                compare_streams()
                continue
            movers = [name for name in names if local.legal(game, name)]
            if not movers:
                break
            name = movers[step % len(movers)]
            legal = local.legal(game, name)
            command = legal[(step * 7) % len(legal)]
            before = local.view(game, None)["version"]  # the last command starts after it
            mine = local.submit(game, command, name, f"k{step}")
            theirs = seats[name].submit(remote_game, command, None, f"k{step}")
            assert _normal(mine, ids) == _normal(theirs, ids)
            assert set(mine) == {"game", "kind", "players", "repeated", "events", "view",
                                 "receipt"}
            given += 1
            compare_streams()
        assert given >= STEPS // 2
    finally:
        app.close()
