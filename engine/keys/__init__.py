"""The store's signing keys as identities (issue 20.5): the key history, its checks, rotation.

``history``: the rotation records, which document holds the key now, the chain check and
which key of the chain signed an old receipt (no signing; imported by engine.receipts);
``rotate``: a rotation made and kept (signed by the old key, or plainly marked as made
without it).  docs/trust.md, "Keys are identities".
"""
