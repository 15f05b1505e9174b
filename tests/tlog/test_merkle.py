"""RFC 6962 hashing and proofs against the Certificate Transparency reference vectors (the
leaves, tree heads and proofs of the CT implementations' tests: transparency-dev/merkle
testonly/constants.go and certificate-transparency-go merkletree tests), not our own output."""

import itertools

from engine.tlog import merkle

LEAVES = [bytes.fromhex(h) for h in (
    "", "00", "10", "2021", "3031", "40414243", "5051525354555657",
    "606162636465666768696a6b6c6d6e6f")]
ROOTS = [bytes.fromhex(h) for h in (
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328")]
HASHES = [merkle.leaf_hash(leaf) for leaf in LEAVES]


def h(*texts):
    return [bytes.fromhex(t) for t in texts]


INCLUSION = {  # (index, size): PATH
    (0, 8): h("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
              "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
              "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"),
    (5, 8): h("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
              "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
              "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
}
CONSISTENCY = {  # (old, new): PROOF
    (2, 8): h("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
              "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"),
    (6, 8): h("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
              "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
              "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"),
    (2, 5): h("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
              "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"),
}


def test_tree_heads_are_the_reference_roots():
    for n in range(9):
        assert merkle.root(HASHES[:n]) == ROOTS[n], n


def test_inclusion_proofs_are_the_reference_paths_and_verify():
    for (index, size), path in INCLUSION.items():
        assert merkle.inclusion_proof(HASHES, index, size) == path
        assert merkle.verify_inclusion(HASHES[index], index, size, path, ROOTS[size])
        assert not merkle.verify_inclusion(HASHES[index], index + 1, size, path, ROOTS[size])
        assert not merkle.verify_inclusion(HASHES[index], index, size, path[:-1], ROOTS[size])


def test_consistency_proofs_are_the_reference_proofs_and_verify():
    for (old, new), proof in CONSISTENCY.items():
        assert merkle.consistency_proof(HASHES, old, new) == proof
        assert merkle.verify_consistency(old, new, ROOTS[old], ROOTS[new], proof)
        assert not merkle.verify_consistency(old, new, ROOTS[old - 1], ROOTS[new], proof)
        assert not merkle.verify_consistency(old, new, ROOTS[old], ROOTS[new], proof[:-1])


def test_every_proof_of_every_small_tree_verifies_and_a_changed_one_does_not():
    hashes = [merkle.leaf_hash(bytes([i])) for i in range(17)]
    heads = [merkle.root(hashes[:n]) for n in range(18)]
    for n in range(1, 18):
        for i in range(n):
            path = merkle.inclusion_proof(hashes, i, n)
            assert merkle.verify_inclusion(hashes[i], i, n, path, heads[n])
            assert not merkle.verify_inclusion(hashes[(i + 1) % 17], i, n, path, heads[n])
    for old, new in itertools.combinations_with_replacement(range(18), 2):
        proof = merkle.consistency_proof(hashes, old, new)
        assert merkle.verify_consistency(old, new, heads[old], heads[new], proof), (old, new)
        if 0 < old < new:
            other = [merkle.leaf_hash(b"x")] + hashes[1:]
            assert not merkle.verify_consistency(old, new, merkle.root(other[:old]),
                                                 heads[new], proof), (old, new)


def test_the_empty_and_equal_cases_take_only_an_empty_proof():
    assert merkle.verify_consistency(0, 8, ROOTS[0], ROOTS[8], [])
    assert not merkle.verify_consistency(0, 8, ROOTS[1], ROOTS[8], [])
    assert merkle.verify_consistency(4, 4, ROOTS[4], ROOTS[4], [])
    assert not merkle.verify_consistency(4, 4, ROOTS[4], ROOTS[5], [])
    assert not merkle.verify_consistency(8, 6, ROOTS[8], ROOTS[6], CONSISTENCY[(6, 8)])


def test_a_kept_tree_gives_the_same_heads_and_proofs_as_the_list():
    hashes = [merkle.leaf_hash(bytes([i, 1])) for i in range(13)]
    tree = merkle.Tree(hashes[:5])
    tree.extend(hashes[5:])
    assert merkle.Tree(HASHES[:8]).subtree(0, 8) == ROOTS[8]
    for n in range(14):
        assert merkle.tree_root(tree, n) == merkle.root(hashes[:n])
        for i in range(n):
            assert merkle.inclusion_proof(tree, i, n) == merkle.inclusion_proof(hashes, i, n)
        for m in range(n + 1):
            assert merkle.consistency_proof(tree, m, n) == merkle.consistency_proof(hashes, m, n)
