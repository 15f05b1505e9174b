"""The kinds' words for the replay page (engine.web.pages): each kind's event sentence and text
table from its client renderer (client.games.<kind>.render), given to the page builder by
``devil serve`` and ``devil replay --html`` (the engine never imports the client)."""

from __future__ import annotations

from .output import renderer_for


def texts(kind: str):
    """``(describe(event, names) -> str, table(view, you) -> str)`` of ``kind``'s renderer;
    None for a kind without one.  UsageError for an unknown kind."""
    render = renderer_for(kind)
    describe = getattr(render, "describe", None)
    table = getattr(render, "table", None)
    if describe is None or table is None:
        return None
    return describe, table
