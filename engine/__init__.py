"""devil's engine: rules as deciders, the .devlog event log, stores and the game service.

Layers (see docs/architecture.md):

* ``engine.games.<kind>``: one folder per game, each exposing a :class:`engine.game.GameRules`
  object (decide / evolve / view / redact / legal_commands). No I/O.
* ``engine.game``: the ``GameRules`` contract, with ``visible``, the one rule for what a
  viewer sees of an event.
* ``engine.codec``: attrs events and commands <-> tagged msgpack / JSON maps (generated
  decoders; cattrs for anything else).
* ``engine.log``: the .devlog file format (framing, hash chain, torn-tail recovery).
* ``engine.fold``: the one fold (the only caller of a kind's ``evolve``), voids and seating
  applied.
* ``engine.store``: where logs live (a folder of .devlog files by default, or PostgreSQL).
* ``engine.service``: :class:`engine.service.GameService`, the one entry point the CLI and
  the HTTP app use; ``engine.answers``: the JSON both give their clients.
* ``engine.replay``: recorded games without a store (load, steps, verify);
  ``engine.web``: the HTTP app; ``engine.desk``: the referee's desk;
  ``engine.tournament``: tournaments.

``engine`` never imports ``client``.
"""

__version__ = "0.1.0"
