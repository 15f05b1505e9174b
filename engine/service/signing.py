"""Receipts and seals (engine.receipts): what the service signs with the store's key.

Every accepted command's answer carries a signed receipt of its last record; a finished game
is sealed (its signed final head, kept as the game's private document ``"seal"``).
"""

from __future__ import annotations

from ..log import Header, Record, iso_time
from .steps import Call, Steps


class Signing:
    """The store's signing key and what the service signs with it.

    ``enabled``: whether answers carry receipts and finished games are sealed (a simulation in
    memory signs nothing; engine.simulate seals the finished log in the real store).
    """

    def __init__(self, store, enabled: bool = True):
        self.store, self.enabled = store, enabled
        self._signer = None

    def signer(self):
        """The store's signing key (:class:`engine.receipts.Signer`), loaded once."""
        if self._signer is None:
            from ..receipts import Signer

            self._signer = Signer.of(self.store)
        return self._signer

    def ready(self) -> None:
        """Load the key before anything is written, when signing is on: a store whose key
        cannot be read raises :class:`engine.receipts.SigningKeyDamaged` and records nothing,
        rather than append a command it cannot answer with a receipt."""
        if self.enabled:
            self.signer()

    def receipt(self, game: str, record: Record, header: Header) -> dict:
        """The signed receipt of ``record`` of ``game``: its seq, link and time."""
        return self.signer().receipt(game, record.seq, record.link,
                                     iso_time(header.created, record.ts))

    def command(self, loaded, records: list[Record], seal) -> Steps:
        """A new command's receipt (None when nothing was appended or signing is off); when
        the command ended the game, ``seal(game)`` (steps) keeps its seal too."""
        if not records or not self.enabled:
            return None
        receipt = self.receipt(loaded.game, records[-1], loaded.header)
        if loaded.rules.is_over(loaded.state):
            yield from seal(loaded.game)
        return receipt

    def seal(self, loaded) -> Steps:
        """The seal of the finished game ``loaded`` at its head: the kept one if it seals this
        head, else a new one, kept (steps: engine.service.steps)."""
        game, head = loaded.game, loaded.head
        kept = yield Call(self.store.private, (game, "seal"))  # a read, made as a step
        if kept is not None and kept.get("seq") == head.seq and kept.get("link") == head.link.hex():
            return kept
        last = loaded.records[-1]
        seal = self.signer().seal(game, head.seq, head.link,
                                  iso_time(loaded.header.created, last.ts),
                                  sorted(loaded.desk.voided) if loaded.desk else [])  # 20.6
        yield Call(_keep_seal, (self.store, game, seal))
        return seal


def _keep_seal(store, game: str, seal: dict) -> None:
    store.put_private(game, "seal", seal, replace=True)
