"""A tournament's bundle and its offline check (docs/tournaments.md, TOUR-6).

``write(store, tournament, out)`` writes the folder ``out`` (and ``out.zip``)::

    manifest.json                 what the bundle holds (below)
    <tournament>.devlog           the tournament stream
    games/<game>.devlog           every attached game's log

The manifest (``"format": "devil-tournament-bundle"``, ``"version": 2``) lists each log with
its role (``tournament`` or ``game``, with round and table), file, size, SHA-256, head (last
``seq`` and ``link``) and its ``seal`` (the finished game's signed final record,
engine.receipts, made when the bundle is written if the store never sealed it; null only
for a game not finished), the store's public ``key`` that
checks the seals, ``files`` (further files by name -> SHA-256; empty for now), the published
``standings``, and ``merkle``: the root of an RFC 6962 Merkle tree whose leaves are the logs'
bytes in the order listed (leaf = SHA-256(0x00 || bytes), node = SHA-256(0x01 || left ||
right), split at the largest power of two below the count).  Version 2 (engine.tournament.
bundle_auth, TOUR-6.10) also seals the stream and holds the store's checkpoint and each log
head's inclusion proof; version 1 bundles are still read, reported unauthenticated.

``verify(path, key)`` needs nothing but the bundle (a folder or the .zip) and the pinned key:
every log verifies strictly and is finished, each file is the one listed, every result in the
stream matches its game's log, the standings recomputed equal the published ones, the root
matches, and the seals, the checkpoint and the inclusion proofs hold.  A removed, altered,
swapped or cut-off game is named.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import zipfile
import zlib

from ..errors import LogDamaged, UsageError
from . import KIND

FORMAT = "devil-tournament-bundle"
VERSION = 2  # 2: the stream sealed, the checkpoint and inclusion proofs (bundle_auth)
#: the largest file a bundle's reader takes (bytes): a game's log is far smaller
MAX_FILE = 256 * 1024 * 1024


def leaf_hash(data: bytes) -> bytes:
    """RFC 6962 leaf hash: SHA-256(0x00 || data)."""
    return hashlib.sha256(b"\x00" + data).digest()


def merkle_root(leaves: list[bytes]) -> bytes:
    """RFC 6962 Merkle tree hash of ``leaves`` (entries' bytes); the hash of the empty string
    for no leaves."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    level = [leaf_hash(x) for x in leaves]
    return _mth(level)


def _mth(hashes: list[bytes]) -> bytes:
    if len(hashes) == 1:
        return hashes[0]
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return hashlib.sha256(b"\x01" + _mth(hashes[:k]) + _mth(hashes[k:])).digest()


def _head(data: bytes) -> dict:
    from ..log import scan

    scanned = scan(data)
    last = scanned.records[-1] if scanned.records else None
    return {"seq": last.seq if last else 0,
            "link": (last.link if last else scanned.header.link).hex()}


def _public_key(store) -> str:
    """The store's public key (engine.receipts): it checks the games' seals."""
    from ..receipts import public_key

    return public_key(store)


def _check_seal(entry: dict, data: bytes, finished: bool, key) -> str | None:
    """A problem with a game's seal in the manifest (engine.receipts), or None."""
    from ..log import scan
    from ..receipts import BadSignature, check_seal_of, check_signature

    seal = entry.get("seal")
    if seal is None and not (finished and isinstance(key, str)):
        return None  # a bundle written before seals (no key), or a game still running
    try:
        if seal is not None:
            check_signature(seal, "seal", key if isinstance(key, str) else None)
        check_seal_of(scan(data).records, entry.get("game"), finished, seal)
    except BadSignature as exc:
        return exc.message
    return None


def _seal(store, game: str, data: bytes) -> dict | None:
    """The seal of ``game`` at its head: the one the store keeps, or, for a finished game the
    store never sealed (a log attached from a file), one made now; None while it runs.  Every
    finished game of a bundle is sealed, so ``verify`` can refuse a seal dropped from it."""
    from ..receipts import seal_of, seal_stream
    from ..replay import fold_bytes

    kept = seal_of(store, game)
    if kept is not None:
        return kept
    from ..game import rules_for

    header, state, _ = fold_bytes(data, game)
    over = rules_for(header.kind).is_over(state) or _adjudicated(data)
    return seal_stream(store, game) if over else None


def _adjudicated(data: bytes) -> bool:
    """Whether a game's log was ended at time by the referee (DESK-8): finished, to be sealed."""
    from ..replay import load_bytes

    desk = load_bytes(data).desk
    return desk is not None and desk.ended is not None


def _fold_stream(loaded, path: str | None = None):
    """The fold of a loaded tournament stream (engine.replay.LoadedLog).  LogDamaged (exit 3)
    when it holds no ``tournament_created`` record: only its header (an unfinished creation,
    or a stream cut back to it), or records of another kind of stream first."""
    state = loaded.rules.fold(loaded.events)
    if state.created is None:
        what = ("holds only its header" if not loaded.events
                else f"begins with {loaded.events[0].TYPE}")
        raise LogDamaged(1, f"the tournament stream {what}: no tournament_created record "
                            "(an unfinished creation, or a stream cut back)", path)
    return state


def _check_out(out: str) -> None:
    """UsageError if ``out`` exists (other than as an empty folder) or ``out.zip`` exists:
    a bundle never overwrites a file."""
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        raise UsageError(f"{out} exists: give a new folder for the bundle")
    zipped = out.rstrip("/") + ".zip"
    if os.path.exists(zipped):
        raise UsageError(f"{zipped} exists: give a new folder for the bundle (it is written "
                         "beside the folder)")


def write(store, tournament: str, out: str) -> dict:
    """Write the bundle of ``tournament`` (from ``store``) to folder ``out`` and ``out.zip``.
    Returns the manifest.  UsageError if ``out`` exists and is not an empty folder, or if
    ``out.zip`` exists."""
    from ..replay import load_bytes
    from .organiser import Organiser, attached_games
    from .standings import rows

    _check_out(out)
    stream = store.log_bytes(tournament)
    loaded = load_bytes(stream)
    state = _fold_stream(loaded, f"{tournament}.devlog")
    logs = [{"role": KIND, "game": tournament, "file": f"{tournament}.devlog", "data": stream}]
    for round_, table, game in attached_games(state):
        logs.append({"role": "game", "game": game, "round": round_, "table": table,
                     "file": f"games/{game}.devlog", "data": store.log_bytes(game)})
    measure = Organiser.measure(state)
    manifest = {"format": FORMAT, "version": VERSION, "tournament": tournament,
                "name": state.created.name, "game": state.created.game,
                "finished": state.finished, "logs": [], "files": {},
                "key": _public_key(store),
                "standings": rows(state, measure)}
    from .amend import history
    if state.amendments:  # the results replaced, and why (a reader ignores keys it lacks)
        manifest["amendments"] = history(state)
    from ..keys.history import history as key_history
    rotations = key_history(store)
    if rotations:  # the store's key rotations: a reader pinned to an earlier key follows them
        manifest["key_history"] = rotations
    for entry in logs:
        data = entry.pop("data")
        entry.update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest(), **_head(data))
        if entry["role"] == "game":  # its signed final record (sealed now if never sealed)
            entry["seal"] = _seal(store, entry["game"], data)
        manifest["logs"].append(entry)
        entry["_data"] = data
    from .bundle_auth import authenticate  # TOUR-6.10: the stream's seal, the checkpoint
    authenticate(store, manifest, [e["_data"] for e in manifest["logs"]])
    manifest["merkle"] = {"algorithm": "RFC 6962, SHA-256; leaves: each log's bytes, in the "
                                       "order of logs",
                          "root": merkle_root([e["_data"] for e in manifest["logs"]]).hex()}
    os.makedirs(os.path.join(out, "games"), exist_ok=True)
    files = {}
    for entry in manifest["logs"]:
        files[entry["file"]] = entry.pop("_data")
    text = json.dumps(manifest, indent=1, sort_keys=False).encode("utf-8") + b"\n"
    files["manifest.json"] = text
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(data)
    with zipfile.ZipFile(out.rstrip("/") + ".zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    return manifest


def unpack(data: bytes, out: str) -> dict:
    """Write a bundle's .zip bytes to ``out.zip`` and unpack them into folder ``out``; returns
    the manifest.  UsageError if ``out`` exists or the .zip is not a bundle (nothing written)."""
    _check_out(out)
    import io

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = archive.namelist()
        large = [i.filename for i in archive.infolist() if i.file_size > MAX_FILE]
        if large:
            raise ValueError(f"{large[0]} is larger than {MAX_FILE} bytes")
        with archive.open("manifest.json") as handle:
            manifest = json.loads(read_bounded(handle, MAX_FILE))
    except (zipfile.BadZipFile, KeyError, ValueError, EOFError, zlib.error) as exc:
        raise UsageError(f"the bundle received is not a bundle .zip ({exc})") from None
    if any(n.startswith("/") or ".." in n.split("/") for n in names):
        raise UsageError("the bundle .zip names a file outside its folder")
    os.makedirs(out, exist_ok=True)
    archive.extractall(out)
    with open(out.rstrip("/") + ".zip", "wb") as handle:
        handle.write(data)
    return manifest


#: how much of a bundle's file is read at a time
CHUNK = 64 * 1024


def read_bounded(handle, limit: int, chunk: int = CHUNK) -> bytes:
    """All of ``handle`` (a binary file object), read ``chunk`` bytes at a time; ValueError
    as soon as more than ``limit`` bytes came, whatever the file claims its size is (so a
    member that inflates without end is never held: at most ``limit`` plus one chunk)."""
    parts: list[bytes] = []
    total = 0
    while True:
        part = handle.read(min(chunk, limit + 1 - total))
        if not part:
            return b"".join(parts)
        total += len(part)
        if total > limit:
            raise ValueError(f"more than {limit} bytes")
        parts.append(part)


def _kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"


class Reader:
    """The files of a bundle, a folder or a .zip: ``read(name) -> bytes | None``."""

    def __init__(self, path: str):
        self.path = path
        if os.path.isdir(path):
            self.zip = None
        elif zipfile.is_zipfile(path):
            self.zip = zipfile.ZipFile(path)
        else:
            raise UsageError(f"{path} is neither a bundle folder nor a bundle .zip")

    def _too_large(self, name: str) -> UsageError:
        return UsageError(f"{self.path}: {name} is larger than {MAX_FILE} bytes: not a file "
                          "of a tournament bundle")

    def read(self, name: str) -> bytes | None:
        """The file ``name`` of the bundle, None if it has none.  UsageError for anything but
        a regular file (a FIFO would block the reader for ever, a device never end) and for
        a file larger than :data:`MAX_FILE`: refused by its stated size before reading, and
        read in chunks that stop as soon as the limit is passed (a .zip's member may inflate
        to gigabytes whatever its header says)."""
        if ".." in name.split("/") or name.startswith("/"):
            return None
        try:
            if self.zip is not None:
                info = self.zip.getinfo(name)
                if info.is_dir():
                    return None
                if info.file_size > MAX_FILE:
                    raise self._too_large(name)
                with self.zip.open(info) as handle:
                    return read_bounded(handle, MAX_FILE)
            return self._read_file(name)
        except (KeyError, FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return None
        except ValueError:  # read_bounded: the limit passed
            raise self._too_large(name) from None
        except OSError as exc:
            raise UsageError(f"{self.path}: {name} cannot be read "
                             f"({exc.strerror or exc})") from None
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error) as exc:
            raise UsageError(f"{self.path}: {name} cannot be read from the .zip ({exc})") from None

    def _read_file(self, name: str) -> bytes:
        """A file of a bundle folder: opened without blocking (a FIFO's open waits for a
        writer), refused unless it is a regular file, then read bounded."""
        fd = os.open(os.path.join(self.path, name), os.O_RDONLY | os.O_NONBLOCK)
        try:
            mode = os.fstat(fd)
            if not stat.S_ISREG(mode.st_mode):
                if stat.S_ISDIR(mode.st_mode):
                    raise IsADirectoryError(name)
                raise UsageError(f"{self.path}: {name} is not a regular file "
                                 f"({_kind_of(mode.st_mode)}): a bundle holds only regular files")
            if mode.st_size > MAX_FILE:
                raise self._too_large(name)
            os.set_blocking(fd, True)
            handle = os.fdopen(fd, "rb", buffering=0)
        except BaseException:
            os.close(fd)
            raise
        with handle:
            return read_bounded(handle, MAX_FILE)

    def names(self) -> list[str]:
        if self.zip is not None:
            return self.zip.namelist()
        out = []
        for root, _dirs, files in os.walk(self.path):
            for f in files:
                out.append(os.path.relpath(os.path.join(root, f), self.path).replace(os.sep, "/"))
        return out


def is_bundle(path: str) -> bool:
    """Whether ``path`` looks like a bundle (a folder with manifest.json, or a .zip)."""
    return (os.path.isdir(path) and os.path.isfile(os.path.join(path, "manifest.json"))) or \
        (os.path.isfile(path) and zipfile.is_zipfile(path))


def _check_shape(manifest: dict, path: str) -> None:
    """UsageError unless ``manifest``'s ``logs`` is a list of maps whose ``game``, ``file`` and
    ``role`` are strings and ``seal`` a map or null, and ``merkle`` is a map (what verify
    reads; a reader ignores keys it does not know)."""
    logs = manifest.get("logs")
    merkle = manifest.get("merkle")
    bad = None
    if logs is not None and not isinstance(logs, list):
        bad = "logs is not a list"
    elif merkle is not None and not isinstance(merkle, dict):
        bad = "merkle is not a map"
    else:
        for number, entry in enumerate(logs or [], 1):
            if not isinstance(entry, dict):
                bad = f"entry {number} of logs is not a map"
            elif not all(isinstance(entry.get(k), str) for k in ("game", "file", "role")):
                bad = f"entry {number} of logs lacks a game, file or role (strings)"
            elif not isinstance(entry.get("seal"), (dict, type(None))):
                bad = f"entry {number} of logs has a seal that is not a map"
            if bad:
                break
    if bad:
        raise UsageError(f"{path}: manifest.json is not a {FORMAT} manifest ({bad})")


def verify(path: str, key: str | None = None, old: dict | None = None,
           consistency=None, leaves=None, history: list[dict] | None = None) -> dict:
    """Check a bundle with nothing but its files (see the module doc), authenticated by the
    pinned ``key`` (64 hex digits; None: by the manifest's own, unpinned; TOUR-6.11 to 6.14)
    and, given ``old``, ``consistency`` and ``leaves``, against what an auditor kept (TOUR-6.15:
    engine.tournament.bundle_auth.check_old).  Returns ``{"ok", "tournament", "problems":
    [sentences naming the game], "checks": [what holds], "games": count, "root", "pinned",
    "key", "version", "authenticated"}``.  UsageError when ``path`` is not a bundle at all."""
    from .bundle_auth import check, check_old

    found: dict = {}
    result = _integrity(path, key, found)
    manifest, seen = found.get("manifest"), found.get("seen", [])
    auth: dict = (check(manifest, seen, key, not result["problems"], history)
                  if manifest is not None else
                  {"problems": [], "checks": [], "key": key, "keys": [key], "version": None,
                   "checkpoint": None, "authenticated": False})
    result["problems"] += auth["problems"]
    result["checks"] += auth["checks"]
    if old is not None and auth["checkpoint"] is not None:
        later = check_old(auth["checkpoint"], auth["keys"], old, seen, consistency, leaves)
        result["problems"] += later["problems"]
        result["checks"] += later["checks"]
    elif old is not None:
        result["problems"].append("TOUR-6.15: the kept checkpoint was not compared: the bundle "
                                  "holds no checkpoint signed by the key")
    result["ok"] = not result["problems"]
    result.update(pinned=key is not None, key=auth["key"], version=auth["version"],
                  authenticated=auth["authenticated"] and result["ok"])
    return result


def _integrity(path: str, key: str | None, found: dict) -> dict:
    """:func:`verify`'s check of the files (every log, result, the standings, the root);
    ``found`` gets the ``manifest`` (once it is one) and ``seen`` (the logs that verified)."""
    from ..jsonsafe import loads
    from ..replay import load_bytes, verify_bytes
    from .adjudicate import placed_of
    from .amend import check_history
    from .organiser import Organiser, attached_games
    from .standings import rows

    reader = Reader(path)
    raw = reader.read("manifest.json")
    if raw is None:
        raise UsageError(f"{path} has no manifest.json: not a tournament bundle")
    try:
        manifest = loads(raw, "manifest.json")
    except Exception as exc:
        return {"ok": False, "tournament": None, "problems": [f"manifest.json is not JSON: {exc}"],
                "checks": [], "games": 0, "root": None}
    problems: list[str] = []
    checks: list[str] = []
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise UsageError(f"{path}: manifest.json is not a {FORMAT} manifest")
    _check_shape(manifest, path)
    found["manifest"] = manifest
    tournament = manifest.get("tournament")
    logs = manifest.get("logs") or []
    leaves = []
    by_game: dict[str, dict] = {}
    stream_bytes = None
    stream_ok = False
    seen: list[dict] = found.setdefault("seen", [])  # the logs that verified (bundle_auth)
    for entry in logs:
        game, name, role = entry.get("game"), entry.get("file"), entry.get("role")
        label = (f"game {game} (round {entry.get('round')}, table {entry.get('table')})"
                 if role == "game" else f"the tournament stream {game}")
        data = reader.read(name) if isinstance(name, str) else None
        if data is None:
            problems.append(f"{label} is missing: no file {name}")
            leaves.append(b"")
            continue
        leaves.append(data)
        # only a game's entry or the one stream of the manifest's tournament is taken: an
        # entry of another role would skip the checks a game's log must pass
        if role not in ("game", KIND) or (role == KIND and (game != tournament
                                                             or stream_bytes is not None)):
            problems.append(f"the manifest lists {name} as {role!r} for {game}: a bundle holds "
                            f"one tournament stream ({tournament}) and games")
            continue
        by_game[game] = {"entry": entry, "data": data, "label": label}
        if role == KIND:
            stream_bytes = data
        if (hashlib.sha256(data).hexdigest() != entry.get("sha256")
                or len(data) != entry.get("bytes")):
            size = ("its SHA-256 is not the manifest's" if len(data) == entry.get("bytes")
                    else f"{len(data)} bytes, the manifest lists {entry.get('bytes')}")
            problems.append(f"{label} was altered: {name} is not the file the manifest lists "
                            f"({size})")
        check = verify_bytes(data, name)
        if entry.get("role") == KIND:
            stream_ok = check.ok
        if not check.ok:
            problems.append(f"{label} does not verify: record {check.first_bad_seq} is bad: "
                            f"{check.reason}")
            continue
        if check.game != game:
            problems.append(f"{label} was swapped: {name} holds {check.game}")
            continue
        if entry.get("role") == "game" and not check.finished:
            problems.append(f"{label} is not finished (cut off?)")
        seen.append({"entry": entry, "data": data, "finished": check.finished or (
            entry.get("role") == "game" and _adjudicated(data))})
        if entry.get("role") == "game" and manifest.get("version") == 1:  # v2: bundle_auth
            problem = _check_seal(entry, data, check.finished, key or manifest.get("key"))
            if problem is not None:
                problems.append(f"{label}: its seal does not hold: {problem}")
        head = _head(data)
        if head["seq"] != entry.get("seq") or head["link"] != entry.get("link"):
            problems.append(f"{label} ends at record {head['seq']} (link {head['link']}); the "
                            f"manifest lists record {entry.get('seq')} (link {entry.get('link')}): "
                            "cut off or extended")
    root = merkle_root(leaves).hex()
    if root != (manifest.get("merkle") or {}).get("root"):
        problems.append(f"the Merkle root of the logs is {root}; the manifest says "
                        f"{(manifest.get('merkle') or {}).get('root')}")
    else:
        checks.append(f"Merkle root {root} (RFC 6962) over {len(leaves)} logs matches")
    if stream_bytes is None:
        problems.append("the bundle has no tournament stream")
        return {"ok": False, "tournament": tournament, "problems": problems, "checks": checks,
                "games": len(logs) - 1, "root": root}
    try:
        log = load_bytes(stream_bytes)
        if log.header.kind != KIND:
            raise UsageError(f"it is a {log.header.kind} game's log")
        state = _fold_stream(log)
    except Exception as exc:
        problems.append(f"the tournament stream cannot be read: {getattr(exc, 'message', exc)}")
        return {"ok": False, "tournament": tournament, "problems": problems, "checks": checks,
                "games": len(logs) - 1, "root": root}
    if stream_ok:
        checks.append("the tournament stream verifies: every command re-decided, pairings "
                      "recomputed")
    listed = {g for g in by_game}
    from .duplicate import round_seats
    mixed: dict = {}  # duplicate round -> (every table's seat values or None, problem)
    rederived = 0
    for round_, table, game in attached_games(state):
        label = f"game {game} (round {round_}, table {table})"
        if game not in listed:
            if not any(e.get("game") == game for e in logs):
                problems.append(f"{label} was removed from the bundle")
            continue
        result = state.results.get((round_, table))
        if result is None:
            continue
        found = by_game[game]
        try:
            glog = load_bytes(found["data"])
        except Exception:
            continue  # already named above
        seated = state.tables[round_][table - 1].players
        if glog.names != list(seated):
            problems.append(f"{label} seats {', '.join(glog.names)}, not the table's "
                            f"{', '.join(seated)}")
            continue
        final = glog.rules.fold(glog.effective().events)  # voids applied, no desk records
        ended = glog.desk is not None and glog.desk.ended is not None  # adjudicated (DESK-8)
        if not (glog.rules.is_over(final) or ended):
            continue
        from .duplicate import bundle_problem  # TOUR-11.2: a duplicate round's seed
        if state.furnaces.get(round_):
            if round_ not in mixed:  # TOUR-11.6: every table's seat values, in order
                mixed[round_] = round_seats(state, round_, {g: e["data"]
                                                            for g, e in by_game.items()})
                if mixed[round_][1] is not None:
                    problems.append(str(mixed[round_][1]))
            seats, unreadable = mixed[round_]
            if unreadable is None and (problem := bundle_problem(
                    state, round_, found["data"], label, seats)) is not None:
                problems.append(problem)
            elif unreadable is None and round_ in state.revealed:
                rederived += 1
        placed = placed_of(glog, final)
        last = glog.records[-1]
        winners = [glog.names[s] for s in placed["winners"]]
        # the result names the head the log had when it was taken; only desk records (a
        # dispute after the end, its ruling) may follow it
        taken = glog.records[result.seq - 1] if 0 < result.seq <= len(glog.records) else None
        after = glog.desk.desk_seqs if glog.desk is not None else set()
        head_ok = (taken is not None and taken.seq == result.seq
                   and taken.link.hex() == result.link
                   and all(r.seq in after for r in glog.records[result.seq:]))
        from .botseats import seat_fields  # TOUR-13.3: the bot-played seats, as the log has them
        seats = seat_fields(glog)
        if (seats["bots"], seats["returned"]) != (getattr(result, "bots", None),
                                                  getattr(result, "returned", None)):
            problems.append(f"{label}: the recorded result names bot-played seats "
                            f"{result.bots or []} (given back: {result.returned or []}), its log "
                            f"{seats['bots'] or []} (given back: {seats['returned'] or []})")
        if (list(placed["places"]) != list(result.places)
                or list(placed["values"]) != list(result.values)
                or winners != list(result.winners) or not head_ok):
            problems.append(f"{label}: the recorded result (places {result.places}, "
                            f"{result.measure} {result.values}, head {result.seq}) does not "
                            f"match its log (places {placed['places']}, {placed['values']}, "
                            f"head {last.seq})")
    amended_problems, amended_checks = check_history(
        state, {g: found["data"] for g, found in by_game.items()})
    problems.extend(amended_problems)
    checks.extend(amended_checks)
    extra = listed - {g for _r, _t, g in attached_games(state)} - {tournament}
    for game in sorted(extra):
        problems.append(f"game {game} is in the bundle but attached to no table")
    measure = Organiser.measure(state)
    if rows(state, measure) != manifest.get("standings"):
        problems.append("the standings recomputed from the stream differ from the published ones")
    else:
        checks.append(f"standings recomputed: {len(state.players)} players, equal to the "
                      "published ones")
    if not state.finished:
        checks.append(f"the tournament is not finished (round {state.round} of "
                      f"{state.created.rounds})")
    games = len(attached_games(state))
    if not problems:
        checks.append(f"{games} games: every log verifies, is finished, and its result matches")
    if rederived and not problems:
        seated = any(v[0] for v in mixed.values())
        checks.append(f"{rederived} games of duplicate rounds: every draw re-derived from the "
                      "furnace seed their round revealed when it closed"
                      + (", mixed with every seat's value of every table of the round "
                         "(TOUR-11.6)" if seated else " (TOUR-11.3)"))
    return {"ok": not problems, "tournament": tournament, "problems": problems,
            "checks": checks, "games": games, "root": root}
