"""The kinds' words for the replay page (engine.web.pages): each kind's event sentence and text
table from its client renderer (client.games.<kind>.render), and its page words
(client.games.<kind>.page, optional: ``setup`` and ``party``), given to the page builder by
``devil serve`` and ``devil replay --html`` (the engine never imports the client)."""

from __future__ import annotations

import importlib
import json

from .output import renderer_for


def texts(kind: str):
    """``(describe(event, names) -> str, table(view, you) -> str, party(event_map) -> str |
    None, setup(event_map, names) -> [[label, text]] | None)`` of ``kind``: its renderer's
    sentence and table, the party of a fact a command caused on its own (e.g. "bank"; None:
    the page says "service"), and the first event's facts (the kind's ``game_created``, or the
    seating stage's ``table_opened``: :func:`table_opened_facts`).  None for a kind without a
    renderer.  UsageError for an unknown kind."""
    render = renderer_for(kind)
    describe = getattr(render, "describe", None)
    table = getattr(render, "table", None)
    if describe is None or table is None:
        return None
    name = f"client.games.{kind}.page"
    try:
        words = importlib.import_module(name)
    except ModuleNotFoundError as error:  # a kind or stream without page words
        if error.name not in (name, f"client.games.{kind}"):
            raise
        words = None
    party = getattr(words, "party", None)
    kind_setup = getattr(words, "setup", None)

    def setup(event_map: dict, names: list[str]):
        if event_map.get("type") == "table_opened":
            return table_opened_facts(event_map)
        return kind_setup(event_map, names) if kind_setup is not None else None

    return describe, table, party, setup


def table_opened_facts(event_map: dict) -> list[list[str]]:
    """The seating stage's first event (engine.entropy, any kind) as ``[[label, text], ...]``:
    the players, each new-game option the table was opened with (its canonical JSON text
    read back, one line each) and the server's seed commitment in full."""
    players = list(event_map.get("players") or [])
    facts = [["players", f"{len(players)}: {', '.join(players)} (seat order)"]]
    try:
        options = json.loads(event_map.get("options") or "{}")
    except ValueError:
        options = {}
    if not isinstance(options, dict):
        options = {}
    for key, value in options.items():
        if key == "players":
            continue
        facts.append([key.replace("_", " "), _option_text(value)])
    facts.append(["seed", "the server's seed mixed with every seat's entropy (seat entropy)"])
    facts.append(["seed commitment", str(event_map.get("commitment"))])
    return facts


def _option_text(value) -> str:
    if value is None:
        return "default"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_option_text(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')}: {_option_text(v)}" for k, v in value.items())
    return str(value)
