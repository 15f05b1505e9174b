"""Auf Teufel komm raus's words for the replay page (engine.web.pages, through client.page): the
first event as labelled facts a newcomer reads (players, options, the seed's commitment), and the
party of the facts the rules pay out on their own (the bank).  Wording only: no rules here."""

from __future__ import annotations

#: the facts the bank itself settles after a command (ATKR-5.3 to ATKR-5.6): the page names the
#: bank as their actor, not the seat whose command ended the round
BANK_FACTS = frozenset({"bet_won", "bet_lost", "prize_paid"})


def party(event_map: dict) -> str | None:
    """Who a fact a command caused on its own is by: ``"bank"`` for a payout the bank settles
    (ATKR-5.3 to ATKR-5.6), None for the rest (the page says "service")."""
    return "bank" if event_map.get("type") in BANK_FACTS else None


def setup(event_map: dict, names: list[str]) -> list[list[str]] | None:
    """``game_created`` as ``[[label, text], ...]`` (players, start player, how chance is
    drawn, the house rules' ring and track, the start money and goal in money units, the rules
    text, the seed's commitment in full); None for any other event."""
    if event_map.get("type") != "game_created":
        return None
    players = list(event_map.get("players") or names)
    first = event_map.get("first")
    start = players[first] if isinstance(first, int) and 0 <= first < len(players) else "?"
    facts = [["players", f"{len(players)}: {', '.join(players)} (seat order)"],
             ["start player", start + (" (drawn at random, ATKR-1.7)"
                                       if event_map.get("first_drawn") else " (chosen)")]]
    if event_map.get("physical"):
        facts.append(["table", "physical: played with the box, the referee reports every coal"])
    elif event_map.get("duplicate"):
        facts.append(["table", "digital, duplicate draws: the round's shared furnace order "
                               "(TOUR-11)"])
    else:
        facts.append(["table", "digital: the service draws every coal from the seed"])
    track = ", ".join([f"0-{event_map.get('track_low')}", *map(str, event_map.get("track", []))])
    facts += [["furnace ring", f"{event_map.get('ring')} coals (ATKR-7.2)"],
              ["money track", f"{track} (ATKR-6.1)"],
              ["start money", f"{event_map.get('start_money')} each (ATKR-1.3)"],
              ["goal", f"{event_map.get('goal')} ends the game (ATKR-8.1)"],
              ["rules text", str(event_map.get("rules"))]]
    commitment = event_map.get("commitment")
    if commitment:
        chosen = event_map.get("seed_chosen")
        facts.append(["seed", "chosen by the game's creator: reproducible, not secret"
                      if chosen else "secret until the game ends, then revealed"])
        facts.append(["seed commitment", str(commitment)])
    else:
        facts.append(["seed", "none: the box's coals are the chance (ATKR-9.3)"])
    return facts
