"""devil replay: stepping, --to, --step, and --as never showing a sealed bet."""

from __future__ import annotations

import json

import pytest

from engine.game import REFEREE
from engine.replay import open_log, steps

from ..scale import SCALE
from .helpers import bot_game, run, service

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    svc = service(tmp_path_factory.mktemp("replay"))
    return [svc.store.path(bot_game(svc, 4, seed=20 + i)) for i in range(SCALE)]


def sealed_bets(path):
    """For every seq: {seat: amount} of bets placed but not yet revealed (from the full log)."""
    log = open_log(path)
    sealed, out = {}, {}
    for record, event in zip(log.records, log.events):
        if event.TYPE == "bet_placed":
            sealed[event.seat] = event.amount
        elif event.TYPE == "bets_revealed":
            sealed = {}
        out[record.seq] = dict(sealed)
    return out


def test_as_a_seat_never_shows_an_unrevealed_bet_of_another(games):
    for path in games:
        sealed = sealed_bets(path)
        for seat, name in enumerate(NAMES):
            out = run("replay", path, "--as", name, "--json")
            assert out.exit_code == 0
            for step in json.loads(out.output)["steps"]:
                hidden = {s: a for s, a in sealed[step["seq"]].items() if s != seat}
                event = step["event"]
                if event["type"] == "bet_placed" and event["seat"] != seat:
                    assert event["amount"] is None
                for other, player in enumerate(step["view"]["players"]):
                    if other in hidden:
                        assert player["bet"] is None
                        assert player["money"] is None  # 200 - bet would give it away
            # and the text: no line says another player's bet before the reveal
            text = run("replay", path, "--as", name).output
            revealed = False
            for line in text.splitlines():
                if "Bets revealed" in line:
                    revealed = True
                elif "Round " in line and "begins" in line:
                    revealed = False
                for other in NAMES:
                    if other != name and not revealed:
                        assert f"{other} bets " not in line


def test_referee_replay_matches_the_log_and_to_stops(games):
    path = games[0]
    log = open_log(path)
    assert [s.record.seq for s in steps(log, REFEREE)] == [r.seq for r in log.records]
    out = run("replay", path, "--to", "12", "--json")
    seqs = [s["seq"] for s in json.loads(out.output)["steps"]]
    assert seqs == list(range(1, 13))
    text = run("replay", path, "--to", "12").output
    assert text.count("\n#") + 1 == 12 or text.startswith("#1 ")
    assert "#12 " in text and "#13 " not in text


def test_step_waits_for_a_key_and_q_quits(games):
    out = run("replay", games[0], "--step", "--events-only", input="  q")
    assert out.exit_code == 0
    assert "#3 " in out.output and "#4 " not in out.output


def test_replay_by_game_id_in_the_store(tmp_path):
    svc = service(tmp_path)
    game = bot_game(svc, 2, seed=3)
    out = run("--store", svc.store.root, "replay", game[-6:], "--to", "3", "--events-only")
    assert out.exit_code == 0 and "#3 " in out.output
    assert run("--store", svc.store.root, "verify", game).exit_code == 0


def test_unknown_seat(games):
    out = run("replay", games[0], "--as", "Zed")
    assert out.exit_code == 2


@pytest.mark.parametrize("count", [1, 2])
def test_a_folder_is_refused_replay_takes_one_game(tmp_path, count):
    """Issue 19.2: `devil replay FOLDER` ended in exit 70 (a folder of several games) or
    replayed whichever game a folder of one held; it is a usage error (exit 2) naming the
    folder's games, and nothing is written."""
    svc = service(tmp_path)
    games = sorted(svc.store.path(bot_game(svc, 2, seed=30 + i)) for i in range(count))
    folder = svc.store.root
    out = run("replay", folder)
    assert out.exit_code == 2, out.output
    assert out.output == (f"error: replay takes one game, and {folder} is a folder of {count} "
                          f"game(s) ({', '.join(games)}): name one file or game id; `devil "
                          f"verify {folder}` checks them all\n")
    out = run("replay", folder, "--html", str(tmp_path / "page.html"))
    assert out.exit_code == 2 and not (tmp_path / "page.html").exists()
    assert run("replay", games[0], "--events-only").exit_code == 0  # one file still replays
