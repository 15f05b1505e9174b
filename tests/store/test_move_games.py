"""Moving a recorded game between stores through the CLI (issue 12.2): file -> PostgreSQL ->
file, byte for byte; an import that clashes is refused; `devil db` creates and upgrades."""

from __future__ import annotations

import json
import os

from click.testing import CliRunner

from client.cli import cli
from engine.log import scan
from tests.pg import fresh_database

REPLAYS = os.path.join(os.path.dirname(__file__), "..", "..", "replays")


def devil(*args, code=0):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def test_a_recorded_game_moves_file_to_postgres_to_file_byte_identical(tmp_path):
    url = fresh_database(initialized=False)
    first = json.loads(devil("db", "init", url, "--json").stdout)
    assert first["schema"] >= 1 and first["schema_before"] in (None, 0)
    again = json.loads(devil("db", "init", url, "--json").stdout)
    assert again["schema_before"] == again["schema"] == first["schema"]  # idempotent
    source = os.path.join(REPLAYS, "castle-6p.devlog")
    original = open(source, "rb").read()
    imported = json.loads(devil("--store", url, "import", source, "--json").stdout)
    game = imported["game"]
    assert imported["bytes"] == len(original)
    clash = devil("--store", url, "import", source, code=2)
    assert "exists already" in clash.output
    shown = json.loads(devil("--store", url, "show", game, "--json").stdout)
    entries = json.loads(devil("--store", url, "log", game, "--json").stdout)
    assert shown["game"] == game
    assert shown["version"] == len(entries) == scan(original).last_seq
    out = tmp_path / "back.devlog"
    devil("--store", url, "export", game, "-o", out)
    assert out.read_bytes() == original
    # and into a folder store, and out again
    folder = tmp_path / "files"
    devil("--store", folder, "import", out)
    final = tmp_path / "final.devlog"
    devil("--store", folder, "export", game, "-o", final)
    assert final.read_bytes() == original
    assert devil("verify", final).exit_code == 0


def test_db_commands_refuse_what_is_not_a_database_url(tmp_path):
    out = devil("--store", tmp_path, "db", "upgrade", code=2)
    assert "is not a postgresql:// URL" in out.output


def test_an_unfinished_digital_game_moves_with_its_secret_and_draws_on(tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    game = devil("--store", here, "new", "atkr", "--player", "Anna", "--player", "Ben",
                 "--first", "Anna").stdout.strip()
    devil("--store", here, "bet", game, 10, "--as", "Anna")
    devil("--store", here, "bet", game, 0, "--as", "Ben")
    log, secret = tmp_path / "g.devlog", tmp_path / "g.secret"
    devil("--store", here, "export", game, "-o", log, "--secret", secret)
    assert (secret.stat().st_mode & 0o777) == 0o600
    # without the secret the game cannot draw in its new store
    devil("--store", there / "a", "import", log)
    refused = devil("--store", there / "a", "draw", game, "--as", "Anna", code=3)
    assert "secret seed" in refused.output
    # with it, it draws on, exactly the coal it would have drawn at home
    devil("--store", there / "b", "import", log, "--secret", secret)
    moved = json.loads(devil("--store", there / "b", "draw", game, "--as", "Anna",
                             "--json").stdout)
    home = json.loads(devil("--store", here, "draw", game, "--as", "Anna", "--json").stdout)
    assert moved["events"] == home["events"]
    # a secret that is not this game's is refused, and nothing is imported
    other = devil("--store", here, "new", "atkr", "--player", "A", "--player", "B").stdout.strip()
    devil("--store", here, "export", other, "-o", tmp_path / "o.devlog", "--secret",
          tmp_path / "o.secret")
    wrong = devil("--store", there / "c", "import", log, "--secret", tmp_path / "o.secret",
                  code=2)
    assert "is not the secret of" in wrong.output
    assert not (there / "c").exists() or list((there / "c").iterdir()) == []
