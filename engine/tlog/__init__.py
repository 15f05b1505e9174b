"""The store's transparency log (issue 20): one append-only RFC 6962 Merkle tree of every write
of every stream, and signed checkpoints of it in the C2SP tlog-checkpoint / signed-note format.

* :mod:`engine.tlog.merkle`: RFC 6962 / RFC 9162 hashing, tree heads, inclusion and
  consistency proofs (making and checking them); no I/O.
* :mod:`engine.tlog.note`: C2SP signed notes (Ed25519) and checkpoint bodies; no I/O.
* :mod:`engine.tlog.leaves`: what a leaf is (a stream's head after one write) and the two
  leaf lists the stores keep (in memory, and the file store's ``.devil-tlog`` file).
* :mod:`engine.tlog.log`: the store-side part: a store's checkpoint, proofs and audit.
* :mod:`engine.tlog.witness`: witnesses (issue 20.4): C2SP cosignature/v1, the witness side of
  tlog-witness add-checkpoint, and the witness's folder (its only I/O).
"""
