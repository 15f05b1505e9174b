"""`--store` after the subcommand (`devil show GAME --store DIR`) works as devil's own
`--store` before it, for every command."""

import json

import click
from click.testing import CliRunner

from client.cli import cli


def test_every_command_takes_store_after_its_name():
    def walk(group, ctx, path):
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                yield from walk(command, click.Context(command, parent=ctx), path + [name])
            else:
                yield path + [name], command

    missing = [" ".join(path) for path, command in walk(cli, click.Context(cli), [])
               if not any("--store" in getattr(p, "opts", ()) for p in command.params)]
    assert missing == []


def test_store_after_the_subcommand_is_the_store_used(tmp_path):
    store, default = tmp_path / "games", tmp_path / "default"
    runner = CliRunner(env={"DEVIL_STORE": str(default), "DEVIL_SERVER": None})

    def devil(*args, code=0):
        result = runner.invoke(cli, [*map(str, args)])
        assert result.exit_code == code, (args, result.output, result.stderr)
        return result

    game = devil("new", "atkr", "--player", "Anna", "--player", "Ben", "--first", "Anna",
                 "--seed", 7, "--store", store).stdout.strip()
    assert (store / f"{game}.devlog").is_file()
    assert "Anna bets 60" in devil("bet", game, 60, "--as", "Anna", "--store", store).stdout
    view = json.loads(devil("show", game, "--json", "--store", store).stdout)
    assert view["players"][0]["bet"] == 60  # the referee's view: Anna's 60 (ATKR-3.2)
    # the game's creation, round 1's start (ATKR-2) and Anna's bet
    logged = json.loads(devil("log", game, "--json", "--store", store).stdout)
    assert [entry["event"]["type"] for entry in logged] == ["game_created", "round_started",
                                                            "bet_placed"]
    assert game in devil("games", "--store", store).stdout
    devil("verify", game, "--store", store)
    devil("replay", game, "--to", 3, "--store", store)
    out = devil("play", "--resume", game, "--store", store, "--bot", "Anna=cautious",
                "--bot", "Ben=random")
    assert f"Recorded in {store}" in out.stdout
    # the default store was never touched, and a game id it lacks is an unknown game there
    assert not default.exists() or not any(default.glob("*.devlog"))
    assert "no game" in devil("show", game, code=2).stderr
    # after the subcommand it overrides the one before it
    devil("--store", default, "show", game, "--store", store)


def test_store_after_a_group_option_that_opened_the_store_is_refused(tmp_path):
    runner = CliRunner(env={"DEVIL_STORE": str(tmp_path / "default"), "DEVIL_SERVER": None})
    result = runner.invoke(cli, ["new", "--seat-entropy", "atkr", "--player", "Anna",
                                 "--player", "Ben", "--store", str(tmp_path / "games")])
    assert result.exit_code == 2, result.output
    assert "--store" in result.stderr and "give it first" in result.stderr
    assert not (tmp_path / "games").exists()
    assert not any((tmp_path / "default").glob("*.devlog"))
