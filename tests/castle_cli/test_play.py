"""`devil play castle`: a person at the keyboard among bots, and `simulate castle`."""

import json
import pathlib

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
    assert "--- Ann, your move (what you type is hidden) ---" in result.output
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


# -- one terminal, several people (issue 10.5); the pseudo-terminal tests are in
# tests/tools/test_one_terminal.py -------------------------------------------------------------

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIVE = ["--player", "Ann", "--player", "Ben", "--bot", "Cid=sensible", "--bot", "Dora=sensible",
        "--bot", "Eve=sensible"]


def devil(store, *args, input=None, code=0):
    result = CliRunner().invoke(cli, ["--store", str(store), *map(str, args)], input=input)
    assert result.exit_code == code, (args, result.output[-3000:])
    return result


def events(store, game, *extra):
    return json.loads(devil(store, "log", game, "--json", *extra).stdout)


def test_a_pass_that_is_the_only_legal_answer_is_taken_and_announced(tmp_path):
    """The guide's deal (Ann priest, Ben thug, Cid doctor): Ann attacks Ben.  The priest
    window (CASTLE-6.2) asks Ben and Cid, who hold no priest: a pass is all they may do, so
    it is taken for them and announced.  Then the duel window (CASTLE-6.5, castle-2006-r2)
    asks the attacker and the defender, Ann and Ben, neither of whom holds the duelist: passes
    again.  The terminal goes to Cid only for the support round (CASTLE-6.3)."""
    deal = ROOT / "docs" / "examples" / "castle-three.json"
    store = tmp_path / "a"
    game = devil(store, "new", "castle", "--deal", deal, "--first", "Ann").stdout.strip()
    devil(store, "attack", game, "Ben", "--as", "Ann")
    out = devil(store, "play", "--resume", game, input="\n", code=130).output
    assert ("(Ben may only pass here: passed automatically)\n  Ben passes (priest window)\n"
            "  (Cid may only pass here: passed automatically)\n  Cid passes (priest window)\n"
            ) in out
    assert "Pass the terminal to Cid, then press Enter." in out
    assert "Pass the terminal to Ben" not in out
    assert "1  support side=attacker" in out
    passed = [e["event"] for e in events(store, game) if e["event"]["type"] == "window_passed"]
    assert [(e["player"], e["window"]) for e in passed] == [(1, "priest"), (2, "priest"),
                                                            (0, "duel"), (1, "duel")]
    # --ask-always hands the terminal over even then: Ben is asked, his only line is pass
    store = tmp_path / "b"
    game = devil(store, "new", "castle", "--deal", deal, "--first", "Ann").stdout.strip()
    devil(store, "attack", game, "Ben", "--as", "Ann")
    asked = devil(store, "play", "castle", "--resume", game, "--ask-always",
                  input="\n", code=130).output
    assert "passed automatically" not in asked
    assert "Pass the terminal to Ben, then press Enter." in asked
    assert "--- Ben, your move (what you type is hidden) ---\n    1  pass\nBen, your choice" \
        in asked


def test_two_people_get_a_cleared_screen_between_them(tmp_path):
    out = devil(tmp_path, "play", "castle", *FIVE, "--seed", 1, "--max-rounds", 1,
                input="\n1\n" * 300).output
    # output that is not a terminal gets a marker line where a terminal is cleared
    screens = out.split("screen cleared")
    asked = [{who for who in ("Ann", "Ben") if f"{who}, your choice" in screen}
             for screen in screens]
    assert all(len(who) <= 1 for who in asked)
    assert {"Ann"} in asked and {"Ben"} in asked
    assert "Pass the terminal to Ben, then press Enter." in out


def test_an_interrupted_game_is_resumed_with_its_people_and_bots(tmp_path):
    # the input runs out at Ben's first prompt: aborted (130), the game kept
    first = devil(tmp_path, "play", "castle", *FIVE, "--seed", 9, "--max-rounds", 3,
                  input="\n1\n\n", code=130)
    assert "devil play --resume" in first.stderr
    (log,) = tmp_path.glob("castle-*.devlog")
    game = log.stem
    before = len(events(tmp_path, game))
    assert not verify_path(str(log)).finished
    again = devil(tmp_path, "play", "castle", "--resume", game, "--max-rounds", 3,
                  input="\n1\n" * 400)
    assert f"Resuming {game}" in again.output and f"after {before} events" in again.output
    # the same seats: Ann and Ben are asked, the bots Cid, Dora and Eve are not
    assert "Ann, your choice" in again.output and "Ben, your choice" in again.output
    for bot in ("Cid", "Dora", "Eve"):
        assert f"{bot}, your choice" not in again.output
    # each person's first screen recaps what happened, as they saw it
    assert "Ann, since your last move (as you saw it):" in again.output \
        or "Ann, since the start (as you saw it):" in again.output
    assert list(tmp_path.glob("castle-*.devlog")) == [log]
    assert len(events(tmp_path, game)) > before
    assert verify_path(str(log)).ok
    # `devil play --resume GAME` finds the kind by itself
    third = devil(tmp_path, "play", "--resume", game, input="\n1\n" * 40, code=130)
    assert f"Resuming {game}" in third.output


def test_declare_by_typing_names_in_a_game_made_by_new(tmp_path):
    """The guide's deal (Ann order with key-1 and bag-key, Ben and Cid brotherhood, the order
    card set aside): Ann alone holds one key and her drink (CASTLE-9.4), two relics of the
    three the order needs (CASTLE-9.1), so declaring now is wrong and the brotherhood, Ben and
    Cid, wins (CASTLE-9.2)."""
    deal = ROOT / "docs" / "examples" / "castle-three.json"
    game = devil(tmp_path, "new", "castle", "--deal", deal, "--first", "Ann").stdout.strip()
    # menu line 4 is the declaration; a wrong name is refused and asked again; "-" goes
    # back; naming Cid is not confirmed; then nobody named, confirmed
    out = devil(tmp_path, "play", "--resume", game, "--bot", "Ben=sensible", "--bot",
                "Cid=sensible", input="4\nZed\n-\n4\ncid\nn\n4\n\ny\n").output
    assert "4  declare victory for your society (type your allies' names)" in out
    assert "not a player to name: Zed (players: Ben, Cid)" in out
    assert "-> declare kind=society allies=Cid" in out
    declared = [e["event"] for e in events(tmp_path, game) if e["event"]["type"] == "declared"]
    assert len(declared) == 1
    assert declared[0]["player"] == 0 and declared[0]["allies"] == [] and not declared[0]["right"]
    assert "Game over. Winners: Ben, Cid" in out


def test_a_declaration_the_engine_refuses_is_shown_with_its_reason(tmp_path):
    """A prophecy names at least one opponent (CASTLE-10.2): one naming nobody is refused
    with the rule, and Ann is asked again (then passes)."""
    deal = ROOT / "docs" / "examples" / "castle-three.json"
    game = devil(tmp_path, "new", "castle", "--deal", deal, "--first", "Ann", "--variant",
                 "prophecy").stdout.strip()
    out = devil(tmp_path, "play", "--resume", game, "--bot", "Ben=sensible", "--bot",
                "Cid=sensible", input="5\n\ny\n1\n", code=130).output
    assert "5  prophesy the other society's victory (type its members' names)" in out
    assert "Ann, name the other society's members (Ben, Cid;" in out
    assert "refused: CASTLE-10.2: " in out
    assert "Ann passes (CASTLE-8.1)" in out
    assert not [e for e in events(tmp_path, game) if e["event"]["type"] == "declared"]


def test_resume_refuses_a_finished_game_and_new_options(tmp_path):
    deal = ROOT / "docs" / "examples" / "castle-three.json"
    game = devil(tmp_path, "new", "castle", "--deal", deal, "--first", "Ann").stdout.strip()
    devil(tmp_path, "declare", game, "--as", "Ann")
    over = devil(tmp_path, "play", "--resume", game, code=2)
    assert "is over already" in over.stderr
    other = devil(tmp_path, "new", "castle", "--deal", deal).stdout.strip()
    mixed = devil(tmp_path, "play", "castle", "--resume", other, "--seed", 3, code=2)
    assert "give only --bot" in mixed.stderr
    unknown = devil(tmp_path, "play", "--resume", other, "--bot", "Zed=random", code=2)
    assert "no player called 'Zed'" in unknown.stderr


def test_atkr_resumes_too(tmp_path):
    first = devil(tmp_path, "play", "atkr", "--player", "Anna", "--player", "Ben", "--bot",
                  "Rex=cautious", "--seed", 3, "--first", "Anna", input="\n10\n", code=130)
    assert "devil play --resume" in first.stderr
    (log,) = tmp_path.glob("atkr-*.devlog")
    out = devil(tmp_path, "play", "--resume", log.stem, "--bot", "Ben=cautious",
                input="\n10\ns\n" * 200).output
    assert "Ben, your secret bet" not in out and "Anna, your secret bet" in out
    assert verify_path(str(log)).ok
