"""devil's engine: rules as deciders, the .devlog event log, stores and the game service.

Layers (see docs/architecture.md):

* ``engine.games.<kind>``: one folder per game, each exposing a :class:`engine.game.GameRules`
  object (decide / evolve / view / redact / legal_commands). No I/O.
* ``engine.codec``: attrs events and commands <-> tagged msgpack / JSON maps (cattrs).
* ``engine.log``: the .devlog file format (framing, hash chain, torn-tail recovery).
* ``engine.store``: where logs live (a folder of .devlog files by default).
* ``engine.service``: :class:`engine.service.GameService`, the one entry point the CLI and
  the HTTP app use.

``engine`` never imports ``client``.
"""

__version__ = "0.1.0"
