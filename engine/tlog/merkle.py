"""RFC 6962 Merkle trees (RFC 9162 section 2.1): hashing, tree heads, proofs.  No I/O.

Hashes are 32-byte SHA-256 digests.  ``leaf_hash(d) = SHA-256(0x00 || d)``, an interior node
``SHA-256(0x01 || left || right)``; the tree of ``n > 1`` leaves splits at ``k``, the largest
power of two below ``n``; the empty tree's head is ``SHA-256("")``.  Proofs are lists of
hashes in the order of RFC 9162 sections 2.1.3.1 (inclusion, ``PATH``) and 2.1.4.1
(consistency, ``PROOF`` / ``SUBPROOF``); the checks are the algorithms of sections 2.1.3.2 and
2.1.4.2.  Checked against the RFC 6962 reference vectors of the Certificate Transparency
implementations (tests/tlog/test_merkle.py).
"""

from __future__ import annotations

import hashlib

_sha = hashlib.sha256

#: the head of the empty tree: SHA-256 of the empty string
EMPTY_ROOT = _sha(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    """RFC 6962 leaf hash of the entry ``data``: SHA-256(0x00 || data)."""
    return _sha(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 6962 interior node: SHA-256(0x01 || left || right)."""
    return _sha(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n >= 2``)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(hashes: list[bytes], start: int = 0, end: int | None = None) -> bytes:
    """MTH of the leaves whose leaf hashes are ``hashes[start:end]`` (EMPTY_ROOT for none).

    Computed bottom-up over complete subtrees: about ``n`` node hashes, no recursion depth."""
    end = len(hashes) if end is None else end
    if end <= start:
        return EMPTY_ROOT
    # the frontier of complete subtrees (RFC 9162's compact range), merged as leaves arrive
    stack: list[tuple[int, bytes]] = []  # (size, hash), sizes strictly decreasing
    for i in range(start, end):
        size, value = 1, hashes[i]
        while stack and stack[-1][0] == size:
            left = stack.pop()[1]
            value = node_hash(left, value)
            size *= 2
        stack.append((size, value))
    value = stack.pop()[1]
    while stack:
        value = node_hash(stack.pop()[1], value)
    return value


class Tree:
    """The leaf hashes and every complete subtree's hash (level ``k`` holds the hashes of the
    aligned subtrees of ``2**k`` leaves), kept as leaves are added: a tree head or a proof
    then costs O(log^2 n) hashes instead of O(n).  Memory: about two hashes a leaf."""

    def __init__(self, hashes: list[bytes] | None = None):
        self.levels: list[list[bytes]] = [[]]
        self.extend(hashes or [])

    def __len__(self) -> int:
        return len(self.levels[0])

    def extend(self, hashes: list[bytes]) -> None:
        """Add leaf hashes at the end."""
        levels = self.levels
        for value in hashes:
            levels[0].append(value)
            k = 0
            while len(levels[k]) % 2 == 0:
                if len(levels) == k + 1:
                    levels.append([])
                levels[k + 1].append(node_hash(levels[k][-2], levels[k][-1]))
                k += 1

    def subtree(self, start: int, end: int) -> bytes:
        """MTH of leaves ``start`` to ``end`` (``start`` a multiple of the largest power of two
        not above ``end - start``, as every subtree of RFC 6962's recursion is)."""
        n = end - start
        if n <= 0:
            return EMPTY_ROOT
        if n & (n - 1) == 0 and start % n == 0:
            k = n.bit_length() - 1
            return self.levels[k][start >> k]
        k = _split(n)
        return node_hash(self.subtree(start, start + k), self.subtree(start + k, end))


def _sub(hashes: "list[bytes] | Tree"):
    if isinstance(hashes, Tree):
        return hashes.subtree
    return lambda start, end: root(hashes, start, end)


def tree_root(hashes: "list[bytes] | Tree", size: int | None = None) -> bytes:
    """MTH of the first ``size`` leaves (default all) of a list of leaf hashes or a Tree."""
    size = len(hashes) if size is None else size
    return _sub(hashes)(0, size)


def inclusion_proof(hashes: "list[bytes] | Tree", index: int,
                    size: int | None = None) -> list[bytes]:
    """PATH(index, D[size]) over the leaf hashes ``hashes`` (a list or a :class:`Tree`; RFC
    9162 2.1.3.1).  Raises ValueError unless ``0 <= index < size <= len(hashes)``."""
    size = len(hashes) if size is None else size
    if not 0 <= index < size <= len(hashes):
        raise ValueError(f"no leaf {index} in a tree of {size} (of {len(hashes)} leaves)")
    sub = _sub(hashes)
    proof: list[bytes] = []
    start, end = 0, size
    while end - start > 1:  # walk down from the top, then reverse (leaf first)
        k = _split(end - start)
        if index - start < k:
            proof.append(sub(start + k, end))
            end = start + k
        else:
            proof.append(sub(start, start + k))
            start += k
    proof.reverse()
    return proof


def consistency_proof(hashes: "list[bytes] | Tree", old: int,
                      new: int | None = None) -> list[bytes]:
    """PROOF(old, D[new]) over the leaf hashes ``hashes`` (a list or a :class:`Tree`; RFC 9162
    2.1.4.1): empty when
    ``old`` is 0 or equals ``new``.  Raises ValueError unless ``0 <= old <= new <=
    len(hashes)``."""
    new = len(hashes) if new is None else new
    if not 0 <= old <= new <= len(hashes):
        raise ValueError(f"no consistency proof from {old} to {new} (of {len(hashes)} leaves)")
    if old == 0 or old == new:
        return []
    return _subproof(_sub(hashes), old, 0, new, True)


def _subproof(sub, m: int, start: int, end: int, whole: bool) -> list[bytes]:
    n = end - start
    if m == n:
        return [] if whole else [sub(start, end)]
    k = _split(n)
    if m <= k:
        return _subproof(sub, m, start, start + k, whole) + [sub(start + k, end)]
    return _subproof(sub, m - k, start + k, end, False) + [sub(start, start + k)]


def root_from_inclusion(leaf: bytes, index: int, size: int, proof: list[bytes]) -> bytes | None:
    """The head that ``proof`` proves ``leaf`` (a leaf hash) is leaf ``index`` of a tree of
    ``size`` under, or None for a proof of the wrong shape (RFC 9162 2.1.3.2)."""
    if not 0 <= index < size or any(len(h) != 32 for h in proof) or len(leaf) != 32:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def verify_inclusion(leaf: bytes, index: int, size: int, proof: list[bytes], head: bytes) -> bool:
    """Whether ``proof`` shows the leaf hash ``leaf`` is leaf ``index`` of the tree of
    ``size`` leaves with head ``head``."""
    return root_from_inclusion(leaf, index, size, proof) == head


def verify_consistency(old: int, new: int, old_head: bytes, new_head: bytes,
                       proof: list[bytes]) -> bool:
    """Whether ``proof`` shows the tree of ``new`` leaves with head ``new_head`` extends the
    tree of ``old`` leaves with head ``old_head`` (RFC 9162 2.1.4.2; ``old == 0`` and
    ``old == new`` need an empty proof)."""
    if not 0 <= old <= new or any(len(h) != 32 for h in proof):
        return False
    if old == 0:
        return not proof and old_head == EMPTY_ROOT
    if old == new:
        return not proof and old_head == new_head
    if not proof:
        return False
    path = list(proof)
    if old & (old - 1) == 0:  # a power of two: the old head is the first node
        path.insert(0, old_head)
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == old_head and sr == new_head
