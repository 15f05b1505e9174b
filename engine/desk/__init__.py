"""The referee's desk: corrections, disputes and rulings as events of any game (issue 13.1).

The log is immutable, so a mistake is put right by a new event, never by an edit:

* ``corrected`` (the referee): the game returns to its state after record ``to``; the game's
  records after ``to`` and before the correction are **voided**: they stay in the log, are
  shown struck through with the reason, and no fold applies them any more.
* ``dispute_raised`` (a seat): a complaint about one record; ``ruling_given`` (the referee)
  upholds or rejects it, and may carry a correction (then a ``corrected`` record follows in
  the same command).

These events belong to no game kind: every kind's event registry holds them
(:func:`engine.desk.events.register`), every viewer sees them whole, and the games' own
``evolve`` never sees them.  The desk's state (:class:`engine.desk.state.Desk`: the voids, the
disputes, the correction count) is built from the desk's records alone, so a seat computes the
same voids from its own stream as the referee does.

Folding with voids (:mod:`engine.fold`; which records stand: :mod:`engine.desk.voids`): the
game's state after record k is the fold of the game events up to k that no correction up to k
voided.  A digital game's chance never rewinds: after the n-th correction every chance label
is prefixed with ``("epoch", n)`` (:class:`engine.desk.chance.Continued`), so a correction can
never replay a voided draw.

* ``seat_replaced`` (the referee): a bot plays a seat from then on (DESK-7; the service plays
  it, engine.service.autoplay).
* ``adjudicated`` (the referee): the game ends at time, placed by its kind's ``adjudicated``
  hook (DESK-8).
* ``amended`` (the referee): one recorded command replaced and every later one still legal
  re-applied as new records in the same command, the rest voided and listed (DESK-9,
  :mod:`engine.desk.amend`); a ruling names its remedy and a correction or amendment may cite
  the dispute it answers (DESK-10).

* ``seat_returned`` (the referee): the seat is its player's again, the bot stops (DESK-11).
* ``takeback_asked``, ``takeback_answered``, ``takeback_ruled``, ``takeback_granted``: a
  seat takes back its last command with the other seats' consent or the referee's leave; the
  grant voids the command's records (DESK-12, :mod:`engine.desk.takeback`).

The rules of the desk (DESK-1 to DESK-12) are in docs/house-rules.md.
"""

from .events import CORRECTED, DESK_CLASSES, DESK_TYPES, Corrected, DisputeRaised, RulingGiven

__all__ = ["CORRECTED", "DESK_CLASSES", "DESK_TYPES", "Corrected", "DisputeRaised",
           "RulingGiven"]
