"""Helpers of the desk tests: the CLI on a store folder, and finding records."""

from __future__ import annotations

import json

from click.testing import CliRunner

from client.cli import cli


def devil(store, *args, input=None):
    """``devil --store STORE ARGS...`` in process: the click Result."""
    return CliRunner().invoke(cli, ["--store", str(store), *map(str, args)], input=input,
                              catch_exceptions=False)


def ok(store, *args) -> str:
    """The output of a command that must succeed."""
    result = devil(store, *args)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def log_json(store, game, *extra) -> list[dict]:
    return json.loads(ok(store, "log", game, "--json", *extra))


def seq_of(entries, **fields) -> int:
    """The sequence number of the last entry whose event has ``fields``."""
    found = [e["seq"] for e in entries
             if all(e["event"].get(k) == v for k, v in fields.items())]
    assert found, fields
    return found[-1]
