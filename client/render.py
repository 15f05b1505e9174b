"""Which renderer draws which game kind.  A renderer module has ``describe(event, names)``,
``table(view, you)`` and ``summarize_legal(commands)``."""

from __future__ import annotations

import importlib
from types import ModuleType

RENDERERS = {"atkr": "client.render_atkr", "castle": "client.render_castle"}


def renderer_for(kind: str) -> ModuleType:
    """The renderer module of game ``kind``."""
    return importlib.import_module(RENDERERS[kind])
