"""``devil tournament bundle``, ``verify`` and ``simulate`` (docs/tournaments.md, "The
bundle", "Rehearsals and load"), registered on the ``tournament`` group by
client/cmd_tournament.py.  No rules here: engine.tournament.bundle writes and checks a bundle,
engine.tournament.simulate rehearses an event."""

from __future__ import annotations

import click

from engine.errors import UsageError

from .options import json_option
from .output import emit


def register(tournament: click.Group, _organiser, _size, _GAMES) -> None:
    """Add the three commands to ``tournament``; ``_organiser(obj, local=False)`` gives the
    organiser (local or remote), ``_size(text)`` parses MIN-MAX, ``_GAMES`` the kinds' choice."""
    @tournament.command("bundle")
    @click.argument("tournament_id", metavar="T")
    @click.argument("out", type=click.Path(file_okay=False))
    @json_option
    @click.pass_obj
    def bundle(obj, tournament_id, out, as_json):
        """Write folder OUT and OUT.zip: the tournament's stream, every game's log and a manifest
        with each log's head and a Merkle root (RFC 6962)."""
        from engine.tournament.bundle import unpack, write

        organiser = _organiser(obj)
        tid = organiser.resolve(tournament_id)
        # remote: the service writes it; unpacked here, checked after
        if getattr(organiser, "remote", False):
            manifest = unpack(organiser.bundle_zip(tid), out)
        else:
            manifest = write(organiser.store, tid, out)
        if as_json:
            emit({"tournament": tid, "folder": out, "zip": out.rstrip("/") + ".zip",
                  "logs": len(manifest["logs"]), "root": manifest["merkle"]["root"]})
            return
        click.echo(f"{out}/ and {out.rstrip('/')}.zip: {len(manifest['logs']) - 1} games and the "
                   f"tournament stream; Merkle root {manifest['merkle']['root']}")


    @tournament.command("verify")
    @click.argument("source", metavar="T|BUNDLE")
    @json_option
    @click.pass_obj
    def verify(obj, source, as_json):
        """Check a bundle (folder or .zip) with nothing but its files, or a tournament in the
        store: every log verifies and is finished, every result matches its log, the standings
        recomputed equal the published ones, the Merkle root matches.  Exit 3 if anything fails,
        naming the game."""
        import os
        import tempfile

        from engine.tournament.bundle import is_bundle, verify as check, write

        if os.path.exists(source) and is_bundle(source):
            result = check(source)
        elif source.endswith((".zip", ".json")) or os.sep in source or os.path.exists(source):
            # a path, not a tournament id: say what is wrong with it (exit 2)
            raise UsageError(f"{source}: no such file or folder" if not os.path.exists(source)
                             else f"{source}: not a bundle (a folder with manifest.json, or "
                             "the .zip `devil tournament bundle` writes)")
        else:
            organiser = _organiser(obj, local=True)
            tid = organiser.resolve(source)
            with tempfile.TemporaryDirectory() as tmp:
                folder = os.path.join(tmp, "bundle")
                write(organiser.store, tid, folder)
                result = check(folder)
        if as_json:
            emit(result)
        else:
            for line in result["checks"]:
                click.echo(f"ok: {line}")
            for line in result["problems"]:
                click.echo(f"FAILED: {line}")
            click.echo(("verified: " if result["ok"] else "NOT verified: ")
                       + str(result["tournament"]))
        if not result["ok"]:
            raise click.exceptions.Exit(3)


    @tournament.command("simulate")
    @click.option("--game", "kind", type=_GAMES, required=True)
    @click.option("--players", type=click.IntRange(3, 5000), required=True)
    @click.option("--rounds", type=click.IntRange(1, 50), required=True)
    @click.option("--table-size", default="4-5", show_default=True, metavar="MIN-MAX")
    @click.option("--seed", type=click.IntRange(0, 2**63 - 1),
                  help="Reproducible draws, bots and games.")
    @json_option
    @click.pass_obj
    def simulate(obj, kind, players, rounds, table_size, seed, as_json):
        """Register bot players, pair every round, play every table with bots and close each
        round: a rehearsal, or load.  With --json the last line names the tournament."""
        from engine.tournament.simulate import simulate as run

        organiser = _organiser(obj, local=True)
        size = _size(table_size)
        report = run(organiser.service, kind, players, rounds, seed=seed, table_size=tuple(size),
                     progress=None if as_json else lambda line: click.echo(line, err=True))
        if as_json:
            emit(report)
            return
        click.echo(report["tournament"])
        click.echo(f"  {report['games']} games; pairing {max(report['pair_seconds']):.3f} s "
                   "at most "
                   f"a round; standings {report['standings_seconds']:.3f} s", err=True)
