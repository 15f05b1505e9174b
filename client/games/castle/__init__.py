"""Castle of the Devil (Die Kutschfahrt zur Teufelsburg) in the CLI: the manifest
client.games reads (see its docstring).

``commands``: ``new castle`` and the friendly game commands (pass, trade, accept, refuse,
attack, support, use, declare, give, choose, take, clairvoyant, arrange, diplomat,
drawn: a physical game's reported draw); ``play``: ``play castle``; ``simulate``:
``simulate castle``; ``render``: text for tables (``describe``: for events).  No audit.
"""

_FRIENDLY = {"pass": "pass_", "trade": "trade", "accept": "accept", "refuse": "refuse",
             "attack": "attack", "support": "support", "use": "use", "declare": "declare",
             "give": "give", "choose": "choose", "take": "take", "clairvoyant": "clairvoyant",
             "arrange": "arrange", "diplomat": "diplomat", "drawn": "drawn"}
COMMANDS = {name: f"{__name__}.commands:{attr}" for name, attr in _FRIENDLY.items()}
GROUP_COMMANDS = {"new": f"{__name__}.commands:new_castle",
                  "play": f"{__name__}.play:play_castle",
                  "simulate": f"{__name__}.simulate:simulate_castle"}
AUDIT = None
EXAMPLES = [
    "devil new castle --player Ann --player Ben --player Cid",
]
