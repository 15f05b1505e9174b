"""Recorded games without a store: open a .devlog, step through it, verify it strictly.

* :func:`open_log` reads a .devlog file (hash chain checked by :func:`engine.log.scan`) and
  decodes every event with its kind's registry.
* :func:`steps` walks a game event by event as one viewer saw it (the referee, or a seat:
  then every event is redacted for that seat and the state is the fold of that seat's redacted
  stream, exactly as the service computes a seat's view).
* :func:`verify_bytes` / :func:`verify_path`: the format version, the hash chain, the seed
  commitment against the revealed seed, and a **strict refold**: the records are grouped into
  commands (a command's records end with ``left == 0``); the first batch is re-run through the
  kind's ``setup`` (options from its first event), and every later batch is rebuilt into the
  command it came from (the kind's ``command_for`` hook) and re-decided: ``decide`` must give
  exactly the recorded events.  With the seed revealed (a finished digital game) this re-derives
  every draw from the seed and every payout from the rules; while the seed is still secret the
  recorded draws are fed back as the chance answers, so each is checked to have been *possible*
  (that coal was still in the furnace) but not re-derived: the result says so.

The parts: :mod:`engine.replay.load` (the walk: load, fold, steps), :mod:`engine.replay.verify`
(the strict checks) and :mod:`engine.replay.scripted` (recorded draws answered back).
"""

from __future__ import annotations

from ..fold import copy_state
from .load import (LoadedLog, Step, decode_all, fold_bytes, fold_path, load_bytes, open_log,
                   steps, view_at)
from .scripted import ChanceMismatch, ScriptedChance
from .verify import SEED_CHOSEN_NOTE, Verification, batches, command_hook, verify_bytes, verify_path

__all__ = ["ChanceMismatch", "LoadedLog", "SEED_CHOSEN_NOTE", "ScriptedChance", "Step",
           "Verification", "batches", "command_hook", "copy_state", "decode_all", "fold_bytes",
           "fold_path", "load_bytes", "open_log", "steps", "verify_bytes", "verify_path",
           "view_at"]
