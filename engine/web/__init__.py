"""The HTTP layer (``devil serve``; docs/service.md): a Starlette app around
:class:`engine.service.GameService`.

* :mod:`engine.web.app`: the core every route shares (``Api``: tokens, the game a path names,
  the viewer a request reads as, bodies and query parameters, the per-game locks and change
  notifications) and :func:`create_app`;
* :mod:`engine.web.tournament`: the organiser's tournament routes;
* :mod:`engine.web.pages`: the replay and audit pages (data, assets, routes);
* :mod:`engine.web.openapi`: the OpenAPI document; :mod:`engine.web.auth`: the tokens.

``create_app`` is loaded when first asked for, so importing :mod:`engine.web.pages` (``devil
replay --html``) does not load Starlette or the service.
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str):
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
