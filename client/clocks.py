"""The clocks in text (engine.clock, CLOCK-1 to CLOCK-9): ``devil new``'s ``--clock``,
``--move-time`` and ``--on-timeout``, the clock events' sentences and the line ``show``,
``watch`` and ``replay`` print under a table.
"""

from __future__ import annotations

import click

CLOCK_HELP = ("Per-seat time control, Fischer: BASE+INCREMENT, e.g. 20m+10s (CLOCK-1, CLOCK-3); "
              "measured by the service and recorded.")
MOVE_HELP = "At most this long for any one move, e.g. 2m (CLOCK-4)."
TIMEOUT_HELP = ("When a seat's time runs out: 'act' plays the game's timeout action (its "
                "house rule, docs/house-rules.md; CLOCK-5), 'flag' flags the seat for the "
                "referee (CLOCK-6).")


def clock_options(f):
    """``--clock``, ``--move-time`` and ``--on-timeout`` on a kind's ``new`` command: they set
    the client's ``clock`` map (``{"clock", "move_time", "on_timeout"}``), which its
    ``create`` sends with the game (engine.clock.control checks it)."""
    from .context import Context

    def callback(ctx, param, value):
        obj = ctx.find_object(Context)
        if obj is not None and value is not None:
            current = dict(getattr(obj.client, "clock", None) or {})
            current[param.name] = value
            obj.client.clock = current

    f = click.option("--on-timeout", "on_timeout", type=click.Choice(["act", "flag"]),
                     expose_value=False, callback=callback, help=TIMEOUT_HELP)(f)
    f = click.option("--move-time", "move_time", metavar="TIME", expose_value=False,
                     callback=callback, help=MOVE_HELP)(f)
    return click.option("--clock", "clock", metavar="BASE+INC", expose_value=False,
                        callback=callback, help=CLOCK_HELP)(f)


def describe_clock(data: dict, names: list[str]) -> str:
    """One sentence for a ``clock_set`` or ``clock_expired`` event (a tagged map)."""
    from engine.clock import ClockSet, control_text, duration_text

    if data.get("type") == "clock_set":
        made = ClockSet(data.get("base"), data.get("increment", 0), data.get("move"),
                        data.get("on_timeout", "act"), data.get("deadline"))
        return f"Clocks set: {control_text(made)} (CLOCK-1)"
    if data.get("limit") == "round":  # CLOCK-10: the tournament round's time
        return (f"The round's time ran out at {duration_text(data.get('due'))} into the game: "
                "the game is adjudicated at time (CLOCK-10, TOUR-8.5)")
    seat = data.get("seat", -1)
    name = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
    what = "time" if data.get("limit") == "clock" else "move time"
    if data.get("action") == "flag":
        return (f"{name}'s {what} ran out at {duration_text(data.get('due'))} into the game: "
                "flagged for the referee (CLOCK-6)")
    return (f"{name}'s {what} ran out at {duration_text(data.get('due'))} into the game: the "
            "timeout action follows (CLOCK-5)")


def clock_line(clocks: dict | None) -> str | None:
    """``CLOCKS (20m+10s, on timeout: act): >Anna 19:58.4  Ben 20:00.0  Cleo 0:00.0 flagged``
    from a view's ``clocks`` (engine.clock.readings_text); None without clocks."""
    from engine.clock import readings_text

    return readings_text(clocks)
