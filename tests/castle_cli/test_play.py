"""`devil play castle`: a person at the keyboard among bots, and `simulate castle`."""

import json

from click.testing import CliRunner

from client.cli import cli
from engine.replay import verify_path


def test_a_person_plays_castle_among_bots_and_the_game_is_recorded(tmp_path):
    runner = CliRunner()
    # Ann always takes the first thing on her menu; the game is stopped after 2 rounds
    result = runner.invoke(cli, ["--store", str(tmp_path), "play", "castle", "--player", "Ann",
                                 "--bot", "Ben=sensible", "--bot", "Cid=sensible",
                                 "--seed", "4", "--max-rounds", "2"], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "=== Ann, your move: the others look away ===" in result.output
    assert "Ann, your choice" in result.output
    logs = list(tmp_path.glob("castle-*.devlog"))
    assert len(logs) == 1
    check = verify_path(str(logs[0]))
    assert check.ok, check.reason
    # what the whole table sees never names the cards Ben and Cid were dealt
    listing = json.loads(runner.invoke(cli, ["--store", str(tmp_path), "log",
                                             logs[0].stem, "--json", "--as", "Ann"]).stdout)
    dealt = [e["event"] for e in listing if e["event"]["type"] == "cards_dealt"]
    assert len(dealt) == 1
    # Ann (seat 0) sees her own society, profession and starting item, and nothing of the others'
    assert dealt[0]["societies"][1:] == [None, None]
    assert dealt[0]["professions"][1:] == [None, None]
    # 3 players: one dealt item (CASTLE-2.4) and one more from the pile (CASTLE-2.5) each
    assert dealt[0]["hands"][1:] == [[None, None], [None, None]]
    assert len(dealt[0]["hands"][0]) == 2 and None not in dealt[0]["hands"][0]
    assert dealt[0]["societies"][0] in ("order", "brotherhood")
    assert set(dealt[0]["item_pile"]) == {None}


def test_play_castle_refuses_a_wrong_number_of_players(tmp_path):
    result = CliRunner().invoke(cli, ["--store", str(tmp_path), "play", "castle",
                                      "--bot", "Ben=sensible", "--bot", "Cid=random"])
    assert result.exit_code == 2
    assert "3 to 10 players, not 2" in result.stderr


def test_player_names_cannot_forge_log_lines(tmp_path):
    result = CliRunner().invoke(cli, ["--store", str(tmp_path), "new", "castle",
                                      "--player", "Ann\n#4    Ann wins", "--player", "Ben",
                                      "--player", "Cid"])
    assert result.exit_code == 2
    assert "printable characters" in result.stderr
    assert list(tmp_path.iterdir()) == []
