"""Naming a player on the command line: one matcher (engine.seats.seat_named) everywhere; a
name in any case when that is unambiguous, otherwise the players' names and a suggestion;
a player whose name holds `=` can be given a bot."""

import json

import pytest
from click.testing import CliRunner

from client.cli import cli
from engine.errors import UnknownPlayer, UsageError
from engine.seats import seat_named


@pytest.fixture
def devil(tmp_path):
    runner = CliRunner()

    def run(*args, code=0, input=None):
        result = runner.invoke(cli, ["--store", str(tmp_path), *map(str, args)], input=input)
        assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    run.store = tmp_path
    return run


def test_seat_named_exact_then_any_case_then_a_suggestion():
    names = ["Anna", "Ben", "Cleo"]
    assert seat_named(names, "Ben") == 1
    assert seat_named(names, "cLEO") == 2
    with pytest.raises(UnknownPlayer) as info:
        seat_named(names, "Ana", "ATKR-9.2")
    assert info.value.message == ("ATKR-9.2: there is no player called 'Ana' in this game "
                                  "(players: Anna, Ben, Cleo); did you mean 'Anna'?")
    # the rules' own check of a command is exact (a recorded command spells its player)
    with pytest.raises(UnknownPlayer, match="did you mean 'Anna'"):
        seat_named(names, "anna", "ATKR-9.2", fold_case=False)
    # two names the same but for case: the folded one is ambiguous, both are suggested
    with pytest.raises(UsageError) as info:
        seat_named(["Anna", "ANNA"], "anna")
    assert info.value.message.endswith("did you mean 'Anna' or 'ANNA'?")
    with pytest.raises(UsageError) as info:
        seat_named(names, "Zed")
    assert "did you mean" not in info.value.message


def test_as_a_name_in_another_case_acts_and_reads_as_that_player(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--seed", 5).stdout.strip()
    assert "Anna bets 60" in devil("bet", game, 60, "--as", "anna").stdout
    view = json.loads(devil("show", game, "--as", "ANNA", "--json").stdout)
    # Anna's own view: 200 - 60 = 140 money, her bet of 60 on the table (ATKR-3.5)
    anna = view["players"][0]
    assert anna["name"] == "Anna" and anna["money"] == 140 and anna["bet"] == 60
    devil("log", game, "--as", "ben")
    # an unknown name: exit 2, the players named and the nearest suggested; the rules' refusal
    # still cites its rule (ATKR-9.2) and nothing is recorded
    before = devil("log", game, "--json").stdout
    shown = devil("show", game, "--as", "Bne", code=2).stderr
    assert "there is no player called 'Bne'" in shown and "players: Anna, Ben" in shown
    assert "did you mean 'Ben'?" in shown
    refused = devil("bet", game, 40, "--as", "Bem", code=2).stderr
    assert "ATKR-9.2: there is no player called 'Bem'" in refused
    assert "did you mean 'Ben'?" in refused
    assert devil("log", game, "--json").stdout == before


def test_replay_and_resume_take_a_name_in_any_case(devil):
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--seed", 5).stdout.strip()
    path = devil.store / f"{game}.devlog"
    assert "Anna" in devil("replay", path, "--as", "anna").stdout
    assert "did you mean 'Anna'?" in devil("replay", path, "--as", "Anne", code=2).stderr
    out = devil("play", "atkr", "--resume", game, "--bot", "anna=cautious",
                "--bot", "BEN=random", "--max-rounds", 1, "--json")
    assert json.loads(out.stdout.strip().splitlines()[-1])["game"] == game
    wrong = devil("play", "--resume", game, "--bot", "Bem=random", code=2).stderr
    assert "no player called 'Bem'" in wrong and "did you mean 'Ben'?" in wrong


def test_a_player_whose_name_has_an_equals_sign_can_be_a_bot(devil):
    out = devil("play", "atkr", "--bot", "A=B=cautious", "--bot", "Rex=random", "--seed", 2,
                "--max-rounds", 1, "--json")
    game = json.loads(out.stdout.strip().splitlines()[-1])["game"]
    assert json.loads(devil("show", game, "--json").stdout)["players"][0]["name"] == "A=B"
    # NAME=KIND with no kind, or no name, is still malformed
    assert "NAME=KIND" in devil("play", "atkr", "--bot", "Rex=", code=2).stderr


def test_a_name_in_another_case_is_shown_as_the_game_spells_it(devil):
    """`devil show --as cleo` marks Cleo as the one looking (*) and says what Cleo may do, as
    `--as Cleo` does; the replay's table likewise."""
    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--player", "Cleo",
                 "--first", "Anna", "--seed", 5).stdout.strip()
    exact = devil("show", game, "--as", "Cleo").stdout
    folded = devil("show", game, "--as", "cleo").stdout
    assert folded == exact
    assert "Cleo may:" in folded and "cleo" not in folded
    assert any(line.lstrip().startswith("*") and "Cleo" in line for line in folded.splitlines())
    path = devil.store / f"{game}.devlog"
    assert devil("replay", path, "--as", "CLEO").stdout == devil("replay", path, "--as",
                                                                  "Cleo").stdout


def test_two_players_whose_names_differ_only_in_case_are_refused(devil):
    refused = devil("new", "atkr", "--player", "Anna", "--player", "anna", code=2).stderr
    assert "unique name" in refused


def test_a_game_recorded_with_names_that_differ_in_case_still_verifies(tmp_path):
    """The rule against two names the same but for case is a new game's (the service's):
    a game recorded before it (its setup re-run by verify) is not damage."""
    from engine.game import rules_for
    from engine.log import REFEREE_ACTOR
    from engine.replay import verify_path
    from engine.store import FileStore

    rules = rules_for("atkr")
    events = rules.setup({"players": ["Anna", "anna"], "first": "Anna", "physical": True},
                         None)
    store = FileStore(str(tmp_path))
    store.create("atkr", "atkr-old001", REFEREE_ACTOR, [rules.events.to_map(e) for e in events])
    result = verify_path(store.path("atkr-old001"))
    assert result.ok, result.reason
