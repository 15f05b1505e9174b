"""``devil witness init|serve|cosign|status`` (a C2SP tlog-witness of devil stores' logs,
engine.tlog.witness) and the witness checks of ``devil verify``: ``--witness VKEY``
(``--witnesses-required K``) on a receipt, ``--consistent`` or a bare checkpoint, and
``--split-view A [B]``.  Loaded by client.cli when named."""

from __future__ import annotations

import json

import click

from engine.errors import UsageError
from engine.tlog.note import leaves as _leaves

from .options import json_option
from .output import emit

_STATE = click.option("--state", "state_dir", required=True, metavar="DIR",
                      type=click.Path(file_okay=False),
                      help="The witness's folder: its key and, per log, the last checkpoint "
                           "it cosigned.")


def _state(state_dir: str):
    from engine.tlog.witness import WitnessState

    state = WitnessState(state_dir)
    state.name  # noqa: B018 - a folder without a witness: a usage error now, not later
    return state


def _pin(state, keys) -> list[str]:
    from engine.tlog.note import BadNote

    from .signed import _read_text

    origins = []
    for key in keys:
        try:
            origins.append(state.pin(_read_text(key, "the log's key").strip()))
        except BadNote as exc:
            raise UsageError(f"--log: {exc} (give the log's verifier key: the \"key\" of "
                             "`devil checkpoint --json`)") from None
    return origins


@click.group()
def witness():
    """A witness of devil stores' transparency logs (C2SP tlog-witness, cosignature/v1).

    A witness keeps its own Ed25519 key and, per log it pins, the last checkpoint it
    cosigned.  It cosigns a checkpoint only if it extends that one (a consistency proof),
    and refuses a fork or a smaller tree, naming both roots; two checkpoints of one size with
    different roots, both signed by the log, are kept as proof of a split view.

    \b
    Examples:
      devil witness init --state ~/witness --name witness.example/w1
      devil witness serve --state ~/witness --log "$(devil checkpoint --json | jq -r .key)"
      devil witness cosign --state ~/witness --from http://127.0.0.1:8350
      devil witness status --state ~/witness --json
    """


@witness.command()
@_STATE
@click.option("--name", required=True, metavar="NAME",
              help="The witness's name (its key name), e.g. witness.example/w1: no spaces or "
                   "'+'.")
@json_option
def init(state_dir, name, as_json):
    """Make a witness: a new Ed25519 key in DIR; print its verifier key.

    The verifier key (name+keyid+base64(0x04||key), C2SP tlog-cosignature) is what
    `devil verify --witness` takes.  With --json: {"name", "key", "state"}.

    \b
    Example:
      devil witness init --state ~/witness --name witness.example/w1
    """
    from engine.tlog.note import BadNote
    from engine.tlog.witness import WitnessState

    try:
        state = WitnessState.init(state_dir, name)
    except BadNote as exc:
        raise UsageError(f"--name: {exc}") from None
    if as_json:
        emit({"name": state.name, "key": state.key(), "state": state_dir})
    else:
        click.echo(state.key())


@witness.command()
@_STATE
@click.option("--log", "logs", multiple=True, metavar="VKEY",
              help="Witness this log: its verifier key (the \"key\" of `devil checkpoint "
                   "--json`, or a file holding it), pinned in DIR.  Repeatable; logs pinned "
                   "before stay witnessed.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8360, show_default=True, type=click.IntRange(0, 65535))
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@json_option
def serve(state_dir, logs, host, port, log_level, as_json):
    """Serve the witness over HTTP (C2SP tlog-witness: POST /add-checkpoint).

    Also GET /<sha256 of the origin>/checkpoint (the last checkpoint it cosigned),
    GET /split-views and GET /key.  With --json the first line on stdout is {"url", "name",
    "key", "logs"} (for a script that starts it on --port 0).  Refusals are written to
    stderr with their reason.

    \b
    Example:
      devil witness serve --state ~/witness --log devil.store/ab12...+1f2e3d4c+AbC... --port 8360
    """
    import sys

    import uvicorn

    from engine.web.witness_app import create_witness_app

    from .cmd_service import listening_socket

    state = _state(state_dir)
    _pin(state, logs)
    if not state.logs():
        raise UsageError("the witness pins no log: give --log VKEY (the \"key\" of `devil "
                         "checkpoint --json`)")
    sock = listening_socket(host, port)
    port = sock.getsockname()[1]
    if as_json:
        click.echo(json.dumps({"url": f"http://{host}:{port}", "name": state.name,
                               "key": state.key(), "logs": sorted(state.logs())}))
        sys.stdout.flush()
    click.echo(f"devil witness: {state.name} on http://{host}:{port}, witnessing "
               f"{', '.join(sorted(state.logs()))}", err=True)
    config = uvicorn.Config(create_witness_app(state), host=host, port=port,
                            log_level=log_level, access_log=False, timeout_graceful_shutdown=3)
    uvicorn.Server(config).run(sockets=[sock])


def _fetch(url: str, path: str, params: dict | None = None) -> dict:
    import httpx

    try:
        answer = httpx.get(url.rstrip("/") + path, params=params, timeout=10)
    except httpx.HTTPError as exc:
        raise UsageError(f"cannot reach the log at {url}: {exc}") from None
    if answer.status_code != 200:
        raise UsageError(f"the log at {url} answered {answer.status_code} to {path}: "
                         f"{answer.text[:200]}")
    try:
        return answer.json()
    except ValueError:
        raise UsageError(f"the log at {url} did not answer JSON to {path}") from None


def _request_from(state, source: str) -> bytes:
    """The add-checkpoint body for ``source``: a log's URL (its checkpoint and the proof from
    the size the witness last cosigned), a file holding such a body, a checkpoint note, or
    `devil checkpoint --json` output."""
    from engine.tlog.note import BadNote, parse_checkpoint, split_note
    from engine.tlog.witness import request_body

    from .cmd_tlog import read_checkpoint
    from .signed import _read_text

    if source.startswith(("http://", "https://")):
        note = str(_fetch(source, "/checkpoint", {"format": "json"})["checkpoint"])
        proof_from = None
    else:
        text = _read_text(source, "the checkpoint")
        if text.startswith("old "):
            return text.encode()
        note, _ = read_checkpoint(text)
        proof_from = source
    try:
        head = parse_checkpoint(split_note(note)[0])
    except BadNote as exc:
        raise UsageError(f"not a checkpoint: {exc}") from None
    latest = state.latest(head.origin)
    have = 0 if latest is None else int(latest["size"])
    if have > head.size or have in (0, head.size):
        return request_body(have if have <= head.size else 0, [], note)
    if proof_from is not None:
        raise UsageError(f"{proof_from} holds no consistency proof from the {_leaves(have)} the "
                         "witness cosigned: give --from the log's URL, or a tlog-witness "
                         "request body (old N, the proof, a blank line, the checkpoint)")
    got = _fetch(source, "/checkpoint/consistency", {"old": have, "new": head.size})
    proof = [bytes.fromhex(h) for h in got["proof"]]
    return request_body(have, proof, note)


@witness.command()
@_STATE
@click.option("--from", "source", required=True, metavar="URL|FILE",
              help="The log's URL (`devil serve`: GET /checkpoint and the consistency proof), "
                   "or a file holding a checkpoint (`devil checkpoint [--json]`) or a "
                   "tlog-witness request body.")
@click.option("--log", "logs", multiple=True, metavar="VKEY",
              help="Pin this log's verifier key first (as `serve --log`).")
@json_option
@click.pass_context
def cosign(ctx, state_dir, source, logs, as_json):
    """Cosign a log's checkpoint once (for a schedule, e.g. cron), printing the cosigned note.

    The checkpoint must be signed by the log's pinned key and extend the last checkpoint
    this witness cosigned for it; else it is refused (exit 3) and why is printed, naming both
    roots.  A checkpoint of the size last cosigned with another root is a split view: both
    notes are kept in DIR and printed.  With --json: {"ok", "status", "reason", "cosigned"
    (the note with the cosignature, or null), "split" (the proof, or null)}.

    The log must be pinned: --log VKEY here or in an earlier call (VKEY: the "key" of the
    log's `devil checkpoint --json`); a log not pinned is refused (404) saying so.

    \b
    Examples:
      devil witness cosign --state ~/witness --from http://127.0.0.1:8350 \\
          --log "$(devil --server http://127.0.0.1:8350 checkpoint --json | jq -r .key)"
      */5 * * * * devil witness cosign --state ~/witness --from https://log.example
    """
    from engine.tlog.witness import Witness

    state = _state(state_dir)
    _pin(state, logs)
    answer = Witness(state).add_checkpoint(_request_from(state, source))
    ok = answer.status == 200
    if as_json:
        emit({"ok": ok, "status": answer.status, "reason": answer.reason,
              "cosigned": answer.cosigned, "split": answer.split})
    elif ok:
        click.echo(f"OK: {answer.reason}", err=True)
        click.echo(answer.cosigned, nl=False)
    else:
        click.echo(f"REFUSED ({answer.status}): {answer.reason}")
        if answer.split is not None:
            _print_split(answer.split)
    if not ok:
        ctx.exit(3)


def _print_split(split: dict) -> None:
    click.echo(f"proof of a split view of {split['origin']} ({_leaves(split['size'])}), both "
               f"signed by {split['key']}:")
    click.echo(split["first"], nl=False)
    click.echo("")
    click.echo(split["second"], nl=False)


@witness.command()
@_STATE
@json_option
def status(state_dir, as_json):
    """Show the witness: its key, each log it pins with the last checkpoint it cosigned, and
    every split-view proof it was shown.

    With --json: {"name", "key", "logs": [{"origin", "key", "size", "root"}], "splits":
    [{"origin", "size", "key", "first", "second", "seen"}]}.

    \b
    Example:
      devil witness status --state ~/witness
    """
    state = _state(state_dir)
    logs = []
    for origin, key in sorted(state.logs().items()):
        latest = state.latest(origin) or {}
        logs.append({"origin": origin, "key": key, "size": latest.get("size"),
                     "root": latest.get("root")})
    splits = state.splits()
    if as_json:
        emit({"name": state.name, "key": state.key(), "logs": logs, "splits": splits})
        return
    click.echo(f"witness {state.name}: {state.key()}")
    for log in logs:
        seen = ("nothing cosigned yet" if log["size"] is None else
                f"last cosigned {_leaves(log['size'])}, root {log['root']}")
        click.echo(f"  {log['origin']}: {seen}")
    click.echo(f"{len(splits)} split-view proof{'s' if len(splits) != 1 else ''}")
    for split in splits:
        _print_split(split)


# -- devil verify --witness / --split-view ------------------------------------------------------

def witness_keys(keys, required) -> tuple[list[str], int | None]:
    """The witness keys given to `devil verify --witness` (each the key or a file holding it)
    and K (``--witnesses-required``, default all); UsageError if malformed."""
    from engine.tlog.note import BadNote
    from engine.tlog.witness import parse_witness_key

    from .signed import _read_text

    texts, seen = [], set()
    for given in keys:
        text = _read_text(given, "the witness key").strip()
        try:
            parsed = parse_witness_key(text)
        except BadNote as exc:
            raise UsageError(f"--witness: {exc}") from None
        if parsed not in seen:  # a witness named twice counts once
            seen.add(parsed)
            texts.append(text)
    if required is not None and not texts:
        raise UsageError("--witnesses-required needs --witness VKEY")
    if required is not None and not 1 <= required <= len(texts):
        raise UsageError(f"--witnesses-required {required}: give 1 to {len(texts)} (the "
                         "witnesses named)")
    return texts, required


def check_receipts(obj, result, receipts, keys, required) -> None:
    """`devil verify GAME --receipt PROVED --witness VKEY`: each proved receipt's checkpoint
    carries the cosignatures asked for; ``result`` (engine.replay.Verification) marked failed
    naming the witnesses missing otherwise."""
    from engine.tlog.witness import WitnessMissing, witnessed_line

    from .signed import receipt_of

    if not result.ok:
        return
    for text in receipts:
        receipt = receipt_of(text, result.game)
        tlog = receipt.get("tlog")
        if not isinstance(tlog, dict) or "checkpoint" not in tlog:
            raise UsageError(f"--witness: receipt {receipt.get('seq')} carries no checkpoint: "
                             "prove it first (`devil --server URL prove R`)")
        try:
            result.checks.append(witnessed_line(str(tlog["checkpoint"]), keys, required))
        except WitnessMissing as exc:
            result.ok = False
            result.first_bad_seq = receipt.get("seq")
            result.reason = f"the receipt's checkpoint is not witnessed: {exc.message}"
            result.checks.append("witnessed: " + exc.message)
            return


def is_checkpoint_file(source: str) -> bool:
    """Whether ``source`` is a file holding a checkpoint note or `devil checkpoint --json`
    (not a .devlog): what `devil verify --witness CHECKPOINT` checks."""
    import os

    from engine.tlog.note import BadNote, parse_checkpoint, split_note

    from .cmd_tlog import read_checkpoint

    if not os.path.isfile(source):
        return False
    try:
        with open(source, encoding="utf-8") as handle:
            text = handle.read(1 << 20)
        note, _ = read_checkpoint(text)
        parse_checkpoint(split_note(note)[0])
    except (OSError, UnicodeDecodeError, UsageError, BadNote):
        return False
    return True


def verify_checkpoint(ctx, source: str, key_text, keys, required, as_json) -> None:
    """`devil verify CHECKPOINT --witness VKEY`: the checkpoint's log signature (with --key or
    the key of `devil checkpoint --json` output) and its cosignatures.  Exit 3 if either
    fails."""
    from engine.tlog.note import BadNote, open_checkpoint, parse_checkpoint, split_note
    from engine.tlog.witness import WitnessMissing, witnessed_line

    from .cmd_tlog import _key_of, read_checkpoint
    from .signed import _read_text

    note, kept = read_checkpoint(_read_text(source, "the checkpoint"))
    head = parse_checkpoint(split_note(note)[0])
    checks, ok, missing = [], True, []
    key = None
    if key_text or kept:
        from engine.tlog.note import parse_verifier_key, verifier_key

        key = _key_of(_read_text(key_text, "the key").strip() if key_text else None, kept,
                      head.origin, verifier_key)
        try:
            name, public = parse_verifier_key(key)
            open_checkpoint(note, public, name)
            checks.append(f"signed by the log's key {key}")
        except BadNote as exc:
            ok = False
            checks.append(f"NOT signed by the log: {exc}")
    else:
        checks.append("the log's signature not checked (give --key: the log's verifier key)")
    try:
        checks.append(witnessed_line(note, keys, required))
    except WitnessMissing as exc:
        ok, missing = False, exc.missing
        checks.append(f"NOT witnessed: {exc.message}")
    if as_json:
        emit({"ok": ok, "origin": head.origin, "size": head.size, "checks": checks,
              "missing": missing})
    else:
        click.echo(f"{'OK' if ok else 'FAILED'}: checkpoint of {_leaves(head.size)} of "
                   f"{head.origin}")
        for line in checks:
            click.echo(f"  - {line}")
    if not ok:
        ctx.exit(3)


def split_view(ctx, sources, key_text, as_json) -> None:
    """`devil verify --split-view A B` (or one split-view proof kept by a witness): both
    checkpoints signed by the log's key, one size; two roots prove a split view (printed,
    exit 3); one root: OK (exit 0).  Exit 2 for checkpoints of two sizes."""
    from engine.tlog.note import BadNote, parse_checkpoint, split_note, verifier_key
    from engine.tlog.witness import check_split_view

    from .cmd_tlog import _key_of, read_checkpoint
    from .signed import _load_json, _read_text

    kept = None
    if len(sources) == 1:  # a proof as the witness keeps it (`devil witness status --json`)
        data = _load_json(_read_text(sources[0], "the split-view proof"), "the proof")
        if isinstance(data, dict) and isinstance(data.get("splits"), list) and data["splits"]:
            data = data["splits"][0]
        if not isinstance(data, dict) or not {"first", "second"} <= set(data):
            raise UsageError("--split-view takes two checkpoints A B, or a witness's split-view "
                             "proof ({\"first\", \"second\", \"key\"})")
        first, second, kept = str(data["first"]), str(data["second"]), data.get("key")
    elif len(sources) == 2:
        first, kept_a = read_checkpoint(_read_text(sources[0], "checkpoint A"))
        second, kept_b = read_checkpoint(_read_text(sources[1], "checkpoint B"))
        kept = kept_a or kept_b
    else:
        raise UsageError("--split-view takes two checkpoints A B (or one proof file)")
    try:
        origin = parse_checkpoint(split_note(first)[0]).origin
    except BadNote as exc:
        raise UsageError(f"not a checkpoint: {exc}") from None
    key = _key_of(_read_text(key_text, "the key").strip() if key_text else None, kept, origin,
                  verifier_key)
    try:
        found = check_split_view(first, second, key)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except BadNote as exc:
        if as_json:
            emit({"ok": False, "split": False, "reason": exc.message})
        else:
            click.echo(f"FAILED: not a proof of a split view: {exc.message}")
        ctx.exit(3)
        return
    if as_json:
        emit({"ok": not found["split"], **found, "key": key,
              "checkpoints": [first, second] if found["split"] else []})
    elif found["split"]:
        click.echo(f"SPLIT VIEW: {found['origin']} signed two checkpoints of "
                   f"{_leaves(found['size'])} with different roots ({found['roots'][0]} and "
                   f"{found['roots'][1]}), both by {key}; the proof:")
        _print_split({"origin": found["origin"], "size": found["size"], "key": key,
                      "first": first, "second": second})
    else:
        click.echo(f"OK: the same tree ({_leaves(found['size'])} of {found['origin']}, root "
                   f"{found['roots'][0]}), both signed by {key}: no split view")
    if found["split"]:
        ctx.exit(3)
