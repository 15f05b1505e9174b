"""``devil checkpoint``, ``devil prove`` and ``devil verify --consistent``: the store's
transparency log (engine.tlog), locally or from a server (engine/web/tlog.py).  Loaded by
client.cli when named."""

from __future__ import annotations

import json

import click

from engine.errors import UsageError
from engine.tlog.note import leaves as _leaves

from .options import json_option
from .output import emit

_PATHS = {"checkpoint": "/checkpoint", "consistency": "/checkpoint/consistency",
          "inclusion": "/checkpoint/inclusion"}


def ask(obj, what: str, **params) -> dict:
    """One transparency-log question (engine.tlog.log.answer) of the local store, or with
    --server of the server (the same JSON)."""
    if obj.server:
        extra = {"format": "json"} if what == "checkpoint" else {}
        return obj.client._json("GET", _PATHS[what], params={**params, **extra})
    from engine.tlog.log import answer

    service = obj.client.service
    return answer(service.store, service.signer(), what, params)


def read_checkpoint(text: str) -> tuple[str, str | None]:
    """A checkpoint given on the command line: a file or text holding the note, or `devil
    checkpoint --json` output (then also its verifier key).  ``(note, key or None)``."""
    from .signed import _read_text

    body = _read_text(text, "the checkpoint")
    if body.lstrip().startswith("{"):
        try:
            data = json.loads(body)
            return str(data["checkpoint"]), data.get("key")
        except (ValueError, KeyError, TypeError):
            raise UsageError("the checkpoint is neither a note nor `devil checkpoint --json` "
                             "output") from None
    return body, None


@click.command()
@json_option
@click.pass_obj
def checkpoint(obj, as_json):
    """Print the store's latest signed checkpoint (its transparency log's tree head).

    Every write to every game (a creation, an import, each command) is a leaf of one
    append-only RFC 6962 Merkle tree; the checkpoint is its size and root in the C2SP
    tlog-checkpoint format, signed (C2SP signed-note, Ed25519) by the store's key under the
    log's origin.  Keep it: a later `devil verify --consistent OLD` proves the store still
    holds everything this one did, and names any game cut, edited or forked since.  With
    --json: {"checkpoint", "origin", "size", "root", "key" (the signed-note verifier key)}.

    \b
    Examples:
      devil checkpoint > seen-today.checkpoint
      devil --server http://127.0.0.1:8350 checkpoint --json > seen.json
    """
    data = ask(obj, "checkpoint")
    if as_json:
        emit(data)
        return
    click.echo(data["checkpoint"], nl=False)


@click.command()
@click.argument("receipt", metavar="R")
@click.option("--game", metavar="GAME", help="The game, when R is a sequence number among "
              "the receipts this client kept.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the proved receipt here instead of printing it.")
@json_option
@click.pass_obj
def prove(obj, receipt, game, output, as_json):
    """Add to a receipt the checkpoint that includes its record and the inclusion proof.

    A receipt is the service's signed promise that its record is a leaf of the store's
    transparency log (the leaf is written before the receipt is given: every checkpoint
    signed after it includes it).  This fetches the latest checkpoint and the proof from the
    store (or --server), so `devil verify FILE --receipt PROVED` checks inclusion offline.
    Prints the proved receipt as JSON (--json: the same).  Exit 3 if the log holds no leaf
    for it (the record was cut or changed); a seal given as R is refused (exit 2: a seal is
    checked with `devil verify FILE --seal SFILE`).

    \b
    Examples:
      devil prove receipt.json -o receipt.proved.json
      devil prove 17 --game k3f9qz > r17.json
    """
    from engine.receipts import check_signature

    from .signed import receipt_of

    parsed = check_signature(receipt_of(receipt, game), "receipt")
    proof = ask(obj, "inclusion", game=parsed["game"], seq=parsed["seq"], link=parsed["link"])
    proved = {k: v for k, v in parsed.items() if k != "tlog"}
    proved["tlog"] = proof
    text = json.dumps(proved)
    if output:
        with open(output, "w") as handle:
            handle.write(text + "\n")
        if not as_json:
            click.echo(f"proved: record {parsed['seq']} of {parsed['game']} is leaf "
                       f"{proof['index']} of the checkpoint in {output}")
            return
    click.echo(text)


def consistent(ctx, sources, key_text, as_json, witnessed=None, history_path=None) -> None:
    """`devil verify --consistent OLD [NEW]`: NEW (default: the store's checkpoint now)
    extends OLD, both signed by one key or by two keys the store's key history links (OLD's
    key rotated, at last, to NEW's: ``--history FILE`` or the local store's; issue 20.5);
    then, for a local store, every leaf is still its game's head (a game cut, edited or
    forked is named).  ``witnessed``: ``(witness keys, K)`` that NEW's cosignatures must
    satisfy (`--witness`, client.cmd_witness).  Exit 3 naming what fails."""
    from engine.keys.history import BadRotation
    from engine.tlog.log import audit, check_consistent
    from engine.tlog.note import BadNote, parse_checkpoint, split_note, verifier_key

    from .signed import _read_text

    if len(sources) not in (1, 2):
        raise UsageError("--consistent takes OLD and NEW checkpoints (NEW default: the "
                         "store's now)")
    old_note, old_key = read_checkpoint(sources[0])
    if len(sources) == 2:
        new_note, new_key = read_checkpoint(sources[1])
    else:
        now = ask(ctx.obj, "checkpoint")
        new_note, new_key = now["checkpoint"], now["key"]
    try:
        old_size = parse_checkpoint(split_note(old_note)[0]).size
        new_head = parse_checkpoint(split_note(new_note)[0])
    except BadNote as exc:
        raise UsageError(f"not a checkpoint: {exc}") from None
    given = _read_text(key_text, "the key").strip() if key_text else None
    if given:  # --key checks NEW; OLD is checked by the key kept with it, linked to --key
        key = _key_of(given, None, new_head.origin, verifier_key)
        before = old_key or key
    else:  # the key kept with OLD is the anchor; NEW's must be it or linked to it
        before = _key_of(None, old_key or new_key, new_head.origin, verifier_key)
        key = new_key or before
    lines, findings, ok = [], [], True
    from .signed import _history

    # read first: a --history file that is no key history is a usage error (exit 2), before
    # anything is asked of the store
    entries = _history(ctx.obj, history_path) if history_path is not None else None
    try:
        link = None if before == key else _linked(ctx.obj, before, key, entries)
        proof = ask(ctx.obj, "consistency", old=old_size, new=new_head.size)["proof"]
        old, new = check_consistent(old_note, new_note, proof, key, before)
        lines.append(f"consistent: the checkpoint of {_leaves(new.size)} extends the one of "
                     f"{_leaves(old.size)} ({old.origin})")
        if link is not None:
            lines.append("key: the old checkpoint is " + link)
    except BadNote as exc:
        ok = False
        lines.append(f"NOT consistent: {exc}")
    except BadRotation as exc:
        ok = False
        lines.append(f"NOT consistent: the checkpoints are signed by two keys: {exc}")
    except UsageError as exc:  # the store cannot prove it (it has fewer leaves now)
        ok = False
        lines.append(f"NOT consistent: the store cannot prove it ({exc}): its log was cut")
    if witnessed is not None:  # NEW must carry the cosignatures asked for (issue 20.4)
        from engine.tlog.witness import WitnessMissing, witnessed_line

        try:
            lines.append(witnessed_line(new_note, *witnessed))
        except WitnessMissing as exc:
            ok = False
            lines.append(f"NOT witnessed: the newer checkpoint: {exc.message}")
    if not ctx.obj.server:
        report = audit(ctx.obj.client.service.store, old_note, before)
        findings = report["findings"]
        if report["extends"] is False:
            ok = False
            lines.append("the store's log no longer starts with the old checkpoint's tree: "
                         "leaves written before it were changed or removed")
        for f in findings:
            lines.append(f"{f['game']} record {f['seq']}: {f['reason']}")
        ok = ok and not findings
        games = f"{report['games']} game{'s' if report['games'] != 1 else ''}"
        lines.append(f"{_leaves(report['leaves'])} of {games} checked against their games")
    if as_json:
        emit({"ok": ok, "checks": lines, "findings": findings})
    else:
        head, rest = lines[0], lines[1:]
        if not ok and head.startswith("consistent:"):  # the tree holds; the games do not
            head = ("the checkpoints are consistent, but the store's games no longer match "
                    f"its log ({len(findings)} finding{'s' if len(findings) != 1 else ''})")
            rest = lines
        click.echo(("OK" if ok else "FAILED") + ": " + head)
        for line in rest:
            click.echo(f"  - {line}")
    if not ok:
        ctx.exit(3)


def _linked(obj, before: str, key: str, entries: list[dict] | None) -> str:
    """How the verifier key ``before`` (an old checkpoint's) links to ``key`` (a later one's):
    a sentence (engine.keys.history.signed_by), or BadRotation.  ``entries``: the key history
    of ``--history FILE``, else (None) the server's or the local store's."""
    from engine.keys.history import BadRotation, signed_by
    from engine.tlog.note import parse_verifier_key

    from .signed import _history

    (old_name, old_public), (name, public) = parse_verifier_key(before), parse_verifier_key(key)
    if old_name != name:
        raise BadRotation(f"the checkpoints name two logs: {old_name} and {name}")
    if entries is None:
        entries = _history(obj, None)
    return str(signed_by(old_public.hex(), public.hex(), entries))


def _key_of(given: str | None, kept: str | None, origin: str, verifier_key) -> str:
    """The verifier key to check checkpoints with: --key (a verifier key, or 64 hex digits of
    the public key, named by the checkpoint's origin), else the one kept with OLD."""
    if given:
        if "+" in given:
            return given
        from engine.receipts import parse_key

        return verifier_key(origin, bytes.fromhex(parse_key(given)))
    if kept:
        return kept
    raise UsageError("give the store's key (--key: `devil key`, or the \"key\" of `devil "
                     "checkpoint --json`) or checkpoints saved with `devil checkpoint --json`")
