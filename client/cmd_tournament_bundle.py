"""``devil tournament bundle``, ``verify`` and ``simulate`` (docs/tournaments.md, "The
bundle", "Rehearsals and load"), registered on the ``tournament`` group by
client/cmd_tournament.py.  No rules here: engine.tournament.bundle writes and checks a bundle,
engine.tournament.simulate rehearses an event."""

from __future__ import annotations

import click

from engine.errors import UsageError

from .options import json_option
from .output import emit


#: `tournament verify`'s exit code when everything holds but no key was pinned (TOUR-6.13)
UNPINNED_EXIT = 6


def _pin(text: str | None) -> str | None:
    """The key ``--key`` pins (TOUR-6.12), read from a file if it names one."""
    if text is None:
        return None
    from engine.tournament.bundle_auth import parse_pin

    from .signed import _read_text

    if not text.strip():
        raise UsageError("TOUR-6.12: --key is empty: give the store's public key (`devil key`) "
                         "or a file holding it")
    return parse_pin(_read_text(text, "the key"))


def _old(obj, text: str | None) -> tuple:
    """``(old, consistency, leaves)`` for ``--checkpoint OLD`` (TOUR-6.15), or Nones."""
    if text is None:
        return None, None, None
    import os

    from engine.tournament.bundle import Reader, is_bundle
    from engine.tournament.bundle_auth import old_from_bundle

    from .cmd_tlog import read_checkpoint

    if os.path.exists(text) and is_bundle(text):
        old = old_from_bundle(Reader(text), text)
    elif not os.path.exists(text) and "\n" not in text and not text.lstrip().startswith("{"):
        raise UsageError(f"TOUR-6.15: --checkpoint {text}: no such file, bundle or checkpoint")
    else:
        old = {"note": read_checkpoint(text)[0], "label": text}
    return (old, lambda origin, m, n: _consistency(obj, origin, m, n),
            lambda origin, size: _leaves(obj, origin, size))


def _leaves(obj, origin: str, size: int) -> list[bytes] | None:
    """The first ``size`` leaf entries of the local store when it keeps the log ``origin``
    (None with --server: a server does not give its leaves)."""
    if obj.server:
        return None
    from engine.tlog.log import ORIGIN_DOCUMENT

    store = obj.client.service.store
    document = store.store_private(ORIGIN_DOCUMENT)
    if not isinstance(document, dict) or document.get("origin") != origin:
        return None
    entries = store.tlog_entries(0, size)
    return entries if len(entries) == size else None


def _consistency(obj, origin: str, old: int, new: int) -> tuple[list[str], str]:
    """The consistency proof from ``old`` to ``new`` leaves of the log ``origin``, asked of the
    store devil points at (``--store`` or ``--server``); UsageError if that store keeps
    another log (its proof would not be of this one) or cannot answer."""
    from engine.errors import DevilError

    from .cmd_tlog import ask

    where = obj.server or obj.store_dir
    try:
        if obj.server:
            theirs = ask(obj, "checkpoint").get("origin")
        else:
            from engine.tlog.log import ORIGIN_DOCUMENT

            document = obj.client.service.store.store_private(ORIGIN_DOCUMENT)
            theirs = document.get("origin") if isinstance(document, dict) else None
        if theirs != origin:
            raise UsageError(f"it keeps {'the log ' + str(theirs) if theirs else 'no log'}, not "
                             f"{origin}: name the bundle's store with --store or --server")
        proof = ask(obj, "consistency", old=old, new=new)["proof"]
    except DevilError as exc:
        raise UsageError(f"{where}: {exc.message}") from None
    return proof, where


def _report(result: dict, as_json: bool) -> None:
    """Print ``tournament verify``'s result and exit 3 (a failure), 6 (not pinned) or 0."""
    unpinned = result["ok"] and not (result["pinned"] and result["authenticated"])
    if as_json:
        emit(result)
    else:
        for line in result["checks"]:
            click.echo(f"ok: {line}")
        for line in result["problems"]:
            click.echo(f"FAILED: {line}")
        if result["ok"] and not result["pinned"] and result["key"]:
            click.echo(f"key {result['key']} found in the bundle is NOT pinned: pass --key to "
                       "check who signed it")
        if not result["ok"]:
            head = "NOT verified: "
        elif result.get("version") == 1:
            head = "verified, NOT authenticated (version 1): "
        else:
            head = "verified, NOT pinned: " if unpinned else "verified: "
        click.echo(head, nl=False)
        click.echo(str(result["tournament"]))
    if not result["ok"]:
        raise click.exceptions.Exit(3)
    if unpinned:
        raise click.exceptions.Exit(UNPINNED_EXIT)


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
    @click.option("--key", "key_text", metavar="KEY",
                  help="Pin the store's public key: 64 hex digits (`devil key`), the verifier "
                       "key name+hash+base64 of `devil checkpoint --json`, or a file holding "
                       "either.  Every seal and the checkpoint must be signed by it, or by a "
                       "key the store's key history links to it by a rotation signed by both "
                       "keys (the bundle's own history, or --history).")
    @click.option("--checkpoint", "old_text", metavar="OLD",
                  help="A checkpoint an auditor kept (`devil checkpoint`, its --json, or a "
                       "file) or an earlier bundle: the bundle's checkpoint must extend it "
                       "(the proof is fetched from the store, or --server), and every log the "
                       "earlier bundle held must still be there, record for record.")
    @click.option("--history", "history_path", type=click.Path(dir_okay=False, exists=True),
                  metavar="FILE",
                  help="The store's key history (`devil key --history --json`) to follow from "
                       "--key, instead of the one the bundle carries (a bundle written before "
                       "a rotation, checked against the key now).")
    @json_option
    @click.pass_obj
    def verify(obj, source, key_text, old_text, as_json, history_path=None):
        """Check a bundle (folder or .zip) with nothing but its files, or a tournament in the
        store: every log verifies and is finished, every result matches its log, the standings
        recomputed equal the published ones, the Merkle root matches, and every seal, the
        checkpoint and each log's inclusion proof hold (TOUR-6.10 to 6.15).

        \b
        Pinned, the store's key history is followed (the bundle carries it since a rotation;
        --history FILE gives it): a key the pinned key handed over to by a rotation it
        signed, or a key it replaced, is trusted and named; a rotation made without the old
        key's signature (`devil key rotate --lost`) links nothing, so a bundle signed after it
        fails against a key pinned before it.

        \b
        Exit codes: 0 verified and pinned (--key, or a tournament of the local store: its key);
        3 anything fails (naming the game or the manifest field); 6 verified, but the key is
        NOT pinned (no --key: whoever rewrote the bundle could have re-signed it all) or the
        bundle is version 1 (unauthenticated); 2 a bad command.  --json: the checks,
        problems, "ok", "pinned", "key", "version", "authenticated".

        \b
        Examples:
          devil tournament verify spring-cup.zip --key "$(devil key)"
          devil tournament verify spring-cup --key devil-key.json --checkpoint old-cup.zip
          devil tournament verify hjqcqt              (a tournament of the local store)
        """
        import os
        import tempfile

        from engine.tournament.bundle import is_bundle, verify as check, write

        key = _pin(key_text)
        history = None
        if history_path is not None:
            from .signed import _history

            history = _history(obj, history_path)
        if os.path.exists(source) and is_bundle(source):
            result = check(source, key, *_old(obj, old_text), history=history)
        elif source.endswith((".zip", ".json")) or os.sep in source or os.path.exists(source):
            # a path, not a tournament id: say what is wrong with it (exit 2)
            raise UsageError(f"{source}: no such file or folder" if not os.path.exists(source)
                             else f"{source}: not a bundle (a folder with manifest.json, or "
                             "the .zip `devil tournament bundle` writes)")
        else:
            organiser = _organiser(obj, local=True)
            tid = organiser.resolve(source)
            from engine.receipts import public_key

            with tempfile.TemporaryDirectory() as tmp:
                folder = os.path.join(tmp, "bundle")
                write(organiser.store, tid, folder)
                result = check(folder, key or public_key(organiser.store), *_old(obj, old_text),
                               history=history)
        _report(result, as_json)


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
