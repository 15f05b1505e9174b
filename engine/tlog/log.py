"""The store side of the transparency log: a store's origin, its signed checkpoint, inclusion
and consistency proofs, and the audit that names a game cut, edited or forked.

Works on any store with the transparency-log methods of engine.store.protocol
(``tlog_size``, ``tlog_entries``, ``tlog_hashes``: every store).  Checkpoints
are made when asked for (``devil checkpoint``, ``GET /checkpoint``): the tree is the leaves
every durable write added, and Ed25519 is deterministic, so two calls at one tree size give
the same note byte for byte.  Every leaf is added before the write is acknowledged, so a
receipt's record is a leaf of every checkpoint signed after the receipt.
"""

from __future__ import annotations

import secrets
import threading
import weakref

from ..errors import DevilError, UsageError
from . import merkle
from .leaves import Leaf, entry, parse
from .note import BadNote, Checkpoint, open_checkpoint, parse_verifier_key, verifier_key
from .note import leaves as _leaves

#: the store-wide private document naming the log (``{"origin": ...}``)
ORIGIN_DOCUMENT = "transparency"


class LogRewritten(DevilError):
    """A store's log that does not hold what an earlier checkpoint or receipt showed (exit 3):
    ``findings`` lists ``{"game", "seq", "reason"}`` for each game named."""

    exit_code = 3

    def __init__(self, message: str, findings: list[dict] | None = None):
        super().__init__(message)
        self.findings = findings or []


_TREES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_TREES_LOCK = threading.Lock()


def tree(store) -> merkle.Tree:
    """``store``'s log as a :class:`~engine.tlog.merkle.Tree`, kept per store object and
    extended with the leaves added since (built again if the leaves no longer end the same)."""
    _need(store)
    hashes = store.tlog_hashes()
    with _TREES_LOCK:
        kept = _TREES.get(store)
        n = 0 if kept is None else len(kept)
        if kept is None or n > len(hashes) or (n and kept.levels[0][n - 1] != hashes[n - 1]):
            kept = merkle.Tree(hashes)
        else:
            kept.extend(hashes[n:])
        _TREES[store] = kept
        return kept


def has_tlog(store) -> bool:
    """Whether ``store`` keeps a transparency log (the file, memory and PostgreSQL stores do)."""
    return hasattr(store, "tlog_hashes")


def _need(store) -> None:
    if not has_tlog(store):
        raise UsageError(f"the store at {store.location()} keeps no transparency log")


def origin(store) -> str:
    """The log's origin line: ``devil.store/<16 hex digits>``, made once per store and kept as
    the store-wide private document ``"transparency"`` (so it survives a move of the folder)."""
    document = store.store_private(ORIGIN_DOCUMENT)
    if document is None:
        document = store.put_store_private(
            ORIGIN_DOCUMENT, {"origin": f"devil.store/{secrets.token_hex(8)}"})
    return str(document["origin"])


def checkpoint(store, signer, size: int | None = None) -> dict:
    """The signed checkpoint of ``store``'s log at ``size`` leaves (default: all):
    ``{"checkpoint": note text, "origin", "size", "root": hex, "key": verifier key}``, signed
    by ``signer`` (engine.receipts.Signer) under the key name ``origin``."""
    kept = tree(store)
    size = len(kept) if size is None else size
    if not 0 <= size <= len(kept):
        raise UsageError(f"the log has {_leaves(len(kept))}, not {size}")
    name = origin(store)
    head = Checkpoint(name, size, merkle.tree_root(kept, size))
    return {"checkpoint": signer.note(head.body(), name), "origin": name, "size": size,
            "root": head.root.hex(),
            "key": verifier_key(name, bytes.fromhex(signer.public))}


def find_leaf(store, game: str, seq: int, link: bytes) -> int | None:
    """The index of the leaf ``(game, seq, link)`` (newest first), or None."""
    want = entry(game, seq, link)
    entries = store.tlog_entries()
    for index in range(len(entries) - 1, -1, -1):
        if entries[index] == want:
            return index
    return None


def prove_receipt(store, signer, receipt: dict) -> dict:
    """``receipt`` with ``"tlog": {"checkpoint", "index", "proof"}``: the latest checkpoint and
    the inclusion proof of the receipt's leaf under it (hex hashes).  LogRewritten if the log
    holds no such leaf (the store broke the receipt's promise, or the record is older than the
    store's log)."""
    _need(store)
    game, seq, link = receipt["game"], receipt["seq"], bytes.fromhex(receipt["link"])
    index = find_leaf(store, game, seq, link)
    if index is None:
        raise LogRewritten(f"the store's transparency log holds no leaf for record {seq} of "
                           f"{game} with link {link.hex()}: the record was cut or changed, or "
                           "it was written before this store kept a log",
                           [{"game": game, "seq": seq, "reason": "no leaf"}])
    signed = checkpoint(store, signer)
    proof = merkle.inclusion_proof(tree(store), index, signed["size"])
    return {**receipt, "tlog": {"checkpoint": signed["checkpoint"], "index": index,
                                "proof": [p.hex() for p in proof]}}


def check_inclusion(receipt: dict, public: bytes) -> str:
    """Check a proved receipt's ``"tlog"`` offline: its checkpoint is signed by ``public``
    (32 bytes) and the receipt's leaf is leaf ``index`` of it.  A sentence, or BadNote."""
    tlog = receipt.get("tlog")
    if not isinstance(tlog, dict):
        raise BadNote("the receipt carries no inclusion proof: fetch it with `devil prove R`")
    try:
        note, index = str(tlog["checkpoint"]), tlog["index"]
        proof = [bytes.fromhex(p) for p in tlog["proof"]]
        leaf = Leaf(receipt["game"], receipt["seq"], bytes.fromhex(receipt["link"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise BadNote(f"the receipt's inclusion proof is malformed ({exc})") from None
    head = open_checkpoint(note, public)
    if type(index) is not int or not merkle.verify_inclusion(leaf.hash(), index, head.size,
                                                             proof, head.root):
        raise BadNote(f"the inclusion proof does not hold: record {leaf.seq} of {leaf.game} is "
                      f"not leaf {index} of the checkpoint of {_leaves(head.size)}")
    return (f"transparency log: record {leaf.seq} is leaf {index} of {head.origin}'s "
            f"checkpoint of {_leaves(head.size)} (signature and inclusion proof checked)")


def prove_consistency(store, old: int, new: int | None = None) -> list[str]:
    """The consistency proof (hex hashes) from the tree of ``old`` leaves to ``new``."""
    kept = tree(store)
    new = len(kept) if new is None else new
    try:
        return [p.hex() for p in merkle.consistency_proof(kept, old, new)]
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def check_consistent(old_note: str, new_note: str, proof: list[str],
                     key: str, old_key: str | None = None) -> tuple[Checkpoint, Checkpoint]:
    """Check that the checkpoint ``new_note`` extends ``old_note``: both signed by the
    verifier key ``key`` (``name+hash+base64``; ``old_note`` by ``old_key`` when given: a key
    the store rotated from, which the caller has linked to ``key``, engine.keys), one origin,
    and ``proof`` (hex) is a consistency proof between them.  Returns both; BadNote naming
    what fails."""
    name, public = parse_verifier_key(key)
    old_name, old_public = parse_verifier_key(old_key or key)
    old = open_checkpoint(old_note, old_public, old_name)
    new = open_checkpoint(new_note, public, name)
    if old.origin != new.origin:
        raise BadNote(f"the checkpoints are of two logs: {old.origin} and {new.origin}")
    if new.size < old.size:
        raise BadNote(f"the later checkpoint has {_leaves(new.size)}, fewer than the earlier's "
                      f"{old.size}: the log was cut")
    try:
        hashes = [bytes.fromhex(p) for p in proof]
    except (TypeError, ValueError):
        raise BadNote("the consistency proof is not a list of hex hashes") from None
    if not merkle.verify_consistency(old.size, new.size, old.root, new.root, hashes):
        raise BadNote(f"the checkpoint of {_leaves(new.size)} does not extend the one of "
                      f"{_leaves(old.size)}: the log was rewritten (a leaf before "
                      f"{old.size} changed or went)")
    return old, new


def audit(store, old_note: str | None = None, key: str | None = None) -> dict:
    """Check ``store`` against its own log and, given, an earlier checkpoint.

    Every leaf must still be its game's head at its seq (else the game was cut, edited or
    forked there: named); with ``old_note`` (signed by the verifier key ``key``) the store's
    first ``size`` leaves must have that checkpoint's root.  Returns ``{"leaves", "games",
    "findings": [{"game", "seq", "reason"}], "extends": bool | None}``; findings are sorted
    by game and seq, one (the first) per game."""
    _need(store)
    entries = store.tlog_entries()
    findings: dict[str, dict] = {}
    records: dict[str, list] = {}
    good: dict[str, int] = {}  # the last seq at which a game still has its leaf's link
    for index, data in enumerate(entries):
        try:
            leaf = parse(data)
        except ValueError:
            findings[f"?{index}"] = {"game": None, "seq": None,
                                     "reason": f"leaf {index} is not a devil leaf"}
            continue
        if leaf.game in findings:
            continue
        if leaf.game not in records:
            try:
                records[leaf.game] = store.read(leaf.game).records
            except DevilError as exc:
                findings[leaf.game] = {"game": leaf.game, "seq": leaf.seq,
                                       "reason": f"the game cannot be read ({exc})"}
                continue
        got, after = records[leaf.game], good.get(leaf.game, 0)
        if len(got) < leaf.seq:
            findings[leaf.game] = {"game": leaf.game, "seq": len(got) + 1,
                                   "reason": f"cut: leaf {index} shows record {leaf.seq}, the "
                                             f"game ends at record {len(got)}"}
        elif got[leaf.seq - 1].link != leaf.link:
            findings[leaf.game] = {"game": leaf.game, "seq": after + 1,
                                   "reason": f"changed or forked after record {after}: leaf "
                                             f"{index} shows record {leaf.seq} with link "
                                             f"{leaf.link.hex()}, the game has "
                                             f"{got[leaf.seq - 1].link.hex()}"}
        else:
            good[leaf.game] = leaf.seq
    extends = None
    if old_note is not None:
        if key is None:
            raise UsageError("checking against an earlier checkpoint needs the store's key")
        name, public = parse_verifier_key(key)
        old = open_checkpoint(old_note, public, name)
        kept = tree(store)
        extends = old.size <= len(kept) and merkle.tree_root(kept, old.size) == old.root
    last = {game: seq for game, seq in good.items()}
    late = [g for g, got in records.items() if g not in findings and len(got) > last.get(g, 0)]
    if late:  # written while we read? a write's leaf follows its records: read the log again
        for data in store.tlog_entries(len(entries)):
            leaf = parse(data)
            if leaf.game in last and len(records[leaf.game]) >= leaf.seq \
                    and records[leaf.game][leaf.seq - 1].link == leaf.link:
                last[leaf.game] = leaf.seq
    for game in late:
        if len(records[game]) > last.get(game, 0):
            findings[game] = {"game": game, "seq": last.get(game, 0) + 1,
                              "reason": f"records {last.get(game, 0) + 1} to "
                                        f"{len(records[game])} have no leaf: written behind "
                                        "the store's back (or a crash lost their leaf)"}
    for game in store.games():
        if game not in records and game not in findings:
            findings[game] = {"game": game, "seq": 1,
                              "reason": "no leaf names it: written before the store kept a "
                                        "log, or put in the store behind its back"}
    ordered = sorted(findings.values(), key=lambda f: (str(f["game"]), f["seq"] or 0))
    return {"leaves": len(entries), "games": len(records), "findings": ordered,
            "extends": extends}



def answer(store, signer, what: str, params: dict) -> dict:
    """One transparency-log question, answered as JSON-able data (what ``GET /checkpoint``,
    ``/checkpoint/consistency`` and ``/checkpoint/inclusion`` and the local CLI give):

    * ``"checkpoint"``: :func:`checkpoint`;
    * ``"consistency"`` (``old``, optional ``new``): ``{"old", "new", "proof"}``;
    * ``"inclusion"`` (``game``, ``seq``, ``link``): ``{"checkpoint", "index", "proof"}``.

    UsageError for a bad parameter."""
    def number(name: str, default: int | None = None) -> int:
        value = params.get(name)
        if value is None and default is not None:
            return default
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
            return int(value)
        raise UsageError(f"{name} must be a tree size or sequence number (0 or more)")
    if what == "checkpoint":
        return checkpoint(store, signer)
    if what == "consistency":
        size = store.tlog_size()
        old, new = number("old"), number("new", size)
        return {"old": old, "new": new, "proof": prove_consistency(store, old, new)}
    if what == "inclusion":
        try:
            link = bytes.fromhex(str(params.get("link")))
        except ValueError:
            link = b""
        if len(link) != 8:
            raise UsageError("link must be 16 hex digits (a record's chain link)")
        receipt = {"game": str(params.get("game")), "seq": number("seq"), "link": link.hex()}
        return prove_receipt(store, signer, receipt)["tlog"]
    raise UsageError(f"no transparency-log question {what!r}")
