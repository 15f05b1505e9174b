"""Castle of the Devil's words for the replay page (engine.web.pages, through client.page): the
first event as labelled facts a newcomer reads (players, options and house rules, the seed's
commitment).  Castle has no bank: a fact a command causes on its own is the service's.
Wording only: no rules here."""

from __future__ import annotations


def setup(event_map: dict, names: list[str]) -> list[list[str]] | None:
    """``game_created`` as ``[[label, text], ...]`` (players, start player, the table, the hand
    limit, the rules text, beginner game and variants, each house rule on or off
    (docs/castle-rules.md), the seed's commitment in full); None for any other event."""
    if event_map.get("type") != "game_created":
        return None
    players = list(event_map.get("players") or names)
    first = event_map.get("first")
    start = players[first] if isinstance(first, int) and 0 <= first < len(players) else "?"
    facts = [["players", f"{len(players)}: {', '.join(players)} (seat order)"],
             ["start player", start + (" (drawn at random, CASTLE-2.8)"
                                       if event_map.get("first_drawn") else " (chosen)")],
             ["table", "physical: dealt with the box, the referee reports what is drawn"
              if event_map.get("physical") else "digital: the service deals from the seed"]]
    if event_map.get("position"):
        facts.append(["start", "from a position: a game already under way"])
    elif event_map.get("deal_given"):
        facts.append(["deal", "given at creation (not shuffled by the service)"])
    facts += [["hand limit", f"{event_map.get('hand_limit')} items (CASTLE-2.7)"],
              ["rules text", str(event_map.get("rules"))],
              ["beginner game", "yes" if event_map.get("beginner") else "no"],
              ["variants", ", ".join(event_map.get("variants") or []) or "none"]]
    house = event_map.get("house") or {}
    if house:
        facts.append(["house rules", "; ".join(f"{key.replace('_', ' ')}: "
                                                f"{'on' if value else 'off'}"
                                                for key, value in house.items())])
    commitment = event_map.get("commitment")
    if commitment:
        facts.append(["seed", "chosen by the game's creator: reproducible, not secret"
                      if event_map.get("seed_chosen")
                      else "secret until the game ends, then revealed"])
        facts.append(["seed commitment", str(commitment)])
    else:
        facts.append(["seed", "none: the box's cards are the chance"])
    return facts
