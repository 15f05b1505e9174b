"""Auf Teufel komm raus in the CLI: the manifest client.games reads (see its docstring).

``commands``: ``new atkr``, ``bet``, ``draw``, ``stop``; ``play``: ``play atkr``;
``simulate``: ``simulate atkr``; ``render``: text for tables (``describe``: for events);
``audit``: the bank's ledger as text and CSV.
"""

COMMANDS = {name: f"{__name__}.commands:{name}" for name in ("bet", "draw", "stop")}
GROUP_COMMANDS = {"new": f"{__name__}.commands:new_atkr",
                  "play": f"{__name__}.play:play_atkr",
                  "simulate": f"{__name__}.simulate:simulate_atkr"}
AUDIT = f"{__name__}.audit"
EXAMPLES = [
    "devil new atkr --player Anna --player Ben --first Anna",
    "devil bet GAME 60 --as Anna        (GAME: the id printed by `new`, or its end)",
    "devil bet GAME 0 --as Ben",
    "devil draw GAME --as Anna",
    "devil show GAME --as Anna          (the table as Anna sees it, and what she may do)",
    "devil log GAME",
]
