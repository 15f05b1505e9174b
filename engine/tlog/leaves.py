"""What a leaf of a store's transparency log is.  No I/O.

Every write to a stream (its creation, an import, each appended command) adds one leaf: the
stream's head after the write, as the ASCII entry ::

    devil-leaf|1|<game id>|<seq>|<link, 16 lowercase hex digits>

(``seq`` in decimal without leading zeros: the last sequence number of the write; ``link`` its
record's chain link, engine.log).  The leaf hash is RFC 6962's SHA-256(0x00 || entry).  Since
a link commits to the whole stream before it (the hash chain), the leaf commits to every record
of the game up to ``seq``: a game cut, edited or forked at or before ``seq`` no longer has that
head, and the leaf names it.
"""

from __future__ import annotations

import re

import attrs

from .merkle import leaf_hash

PREFIX = b"devil-leaf|1|"
_ENTRY = re.compile(rb"^devil-leaf\|1\|([a-z]+-[a-z0-9]{4,32})\|(0|[1-9][0-9]*)\|([0-9a-f]{16})$")


@attrs.frozen
class Leaf:
    """One leaf: ``game``'s head after a write was record ``seq`` with ``link`` (8 bytes)."""

    game: str
    seq: int
    link: bytes

    def entry(self) -> bytes:
        """The leaf's entry bytes (see the module)."""
        return entry(self.game, self.seq, self.link)

    def hash(self) -> bytes:
        """The RFC 6962 leaf hash of :meth:`entry`."""
        return leaf_hash(self.entry())


def entry(game: str, seq: int, link: bytes) -> bytes:
    """The entry of the leaf ``game`` at ``seq`` with ``link``."""
    return PREFIX + f"{game}|{seq}|{link.hex()}".encode()


def parse(data: bytes) -> Leaf:
    """The :class:`Leaf` of an entry; ValueError if it is not one."""
    match = _ENTRY.match(data)
    if match is None:
        raise ValueError(f"not a devil leaf: {data[:80]!r}")
    game, seq, link = (group.decode() for group in match.groups())
    return Leaf(game, int(seq), bytes.fromhex(link))
