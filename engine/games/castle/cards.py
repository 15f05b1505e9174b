"""The cards of Die Kutschfahrt zur Teufelsburg (CASTLE-1) and small helpers about them.

Items are named by instance ids (CASTLE-1.3): ``key-1``..``key-3``, ``goblet-1``..``goblet-3``
and one id per other card (``bag-key``, ``dagger``...).  The *kind* of a card is its id
without the instance number (``key-2`` -> ``key``).
"""

from __future__ import annotations

ORDER = "order"
BROTHERHOOD = "brotherhood"
SOCIETIES = (ORDER, BROTHERHOOD)
#: society -> its relic kind (CASTLE-1.1)
RELIC = {ORDER: "key", BROTHERHOOD: "goblet"}
#: bag -> the relic it turns into once the pile is empty (CASTLE-9.3)
BAG_RELIC = {"bag-key": "key", "bag-goblet": "goblet"}
BAGS = tuple(BAG_RELIC)

PROFESSIONS = (
    "bodyguard", "clairvoyant", "diplomat", "doctor", "duelist",
    "grand-master", "hypnotist", "poison-mixer", "priest", "thug",
)
#: CASTLE-6.9
ONCE_ONLY = frozenset({"clairvoyant", "diplomat", "doctor", "duelist", "poison-mixer", "priest"})
PERMANENT = frozenset({"bodyguard", "grand-master", "hypnotist", "thug"})

KEYS = ("key-1", "key-2", "key-3")
GOBLETS = ("goblet-1", "goblet-2", "goblet-3")
#: CASTLE-1.6 [house]: sealed items besides the bags
SEALED = KEYS + GOBLETS + (
    "black-pearl", "dagger", "gloves", "poison-ring", "casting-knives", "whip",
    "privilege", "monocle",
)
UNSEALED = ("tome", "coat", "sextant", "broken-mirror", "coat-of-arms")
ALL_ITEMS = BAGS + SEALED + UNSEALED  # 21 cards (CASTLE-1.3)

#: Items whose effect fires when traded away (CASTLE-4.5)
TRADE_EFFECTS = frozenset({"bag-key", "bag-goblet", "privilege", "monocle", "tome", "coat",
                           "sextant"})
#: Items shown in a fight (CASTLE-5.9 to 5.13)
FIGHT_ITEMS = ("dagger", "gloves", "poison-ring", "casting-knives", "whip")

#: Item kinds a diplomat may name (CASTLE-7.3)
ITEM_KINDS = ("key", "goblet") + tuple(c for c in ALL_ITEMS
                                       if not c.startswith(("key-", "goblet-")))


def kind(card: str) -> str:
    """The kind of an item instance id: ``key-2`` -> ``key``; other ids are their own kind."""
    if card.startswith(("key-", "goblet-")):
        return card.split("-")[0]
    return card


def relic_of(card: str, bags_turned: bool) -> str | None:
    """``"key"``/``"goblet"`` if ``card`` counts as that relic now (CASTLE-9.3), else None."""
    k = kind(card)
    if k in ("key", "goblet"):
        return k
    if bags_turned and card in BAG_RELIC:
        return BAG_RELIC[card]
    return None


def effect_name(card: str) -> str:
    """The name a trade effect is announced by (CASTLE-4.5, 5.1): bags are just ``"bag"``."""
    return "bag" if card in BAGS else kind(card)


def hand_limit(n: int) -> int:
    """CASTLE-2.7: 8 items with 3 players, 6 with 4, 5 with 5 or more."""
    return {3: 8, 4: 6}.get(n, 5)
