"""Finding a player by the name someone typed: the one place that says "there is no player
called ..." (every kind's rules, the service, the HTTP app, the CLI).

A name matches exactly or, when ``fold_case`` and exactly one player's name is the same but for
case, case-insensitively (``--as anna`` for Anna).  A name that matches nobody is refused with
the players' names and a suggestion (difflib: "did you mean 'Anna'?").

The rules' own checks of a command (``decide``, re-run by ``devil verify``) match exactly
(``fold_case=False``): a recorded command names its player as the game spells it, and the
command line spells it so (:func:`player_named` before building the command).
"""

from __future__ import annotations

from .errors import UnknownPlayer, UsageError


def _matches(names: list, text: str) -> list[int]:
    """The seats whose name is ``text`` but for case."""
    folded = text.casefold()
    return [seat for seat, name in enumerate(names) if str(name).casefold() == folded]


def _suggestion(names: list, text: str) -> str:
    """``"; did you mean 'Anna'?"`` (or two names differing only in case), or ``""``."""
    import difflib  # only on a refusal: not paid by every command's start-up

    same = [str(names[seat]) for seat in _matches(names, text)]
    if not same:
        folded = {str(name).casefold(): str(name) for name in names}
        close = difflib.get_close_matches(text.casefold(), list(folded), n=1, cutoff=0.6)
        same = [folded[close[0]]] if close else []
    if not same:
        return ""
    return "; did you mean " + " or ".join(repr(name) for name in same) + "?"


def seat_named(names: list, text: str, rule: str | None = None, *, where: str = "this game",
               listing: str | None = None, fold_case: bool = True) -> int:
    """The seat (index into ``names``) of the player ``text`` names: the exact name or, with
    ``fold_case``, the one name equal to it but for case.

    Otherwise raises :class:`UnknownPlayer` citing ``rule`` (a :class:`UsageError` when
    ``rule`` is None; exit 2 either way, nothing recorded): "there is no player called 'x' in
    ``where`` (players: ...); did you mean 'X'?".  ``listing`` replaces the players' list in
    the parentheses (a tournament of many players)."""
    if text in names:
        return names.index(text)
    if fold_case and isinstance(text, str):
        same = _matches(names, text)
        if len(same) == 1:
            return same[0]
    known = listing if listing is not None else f"players: {', '.join(map(str, names))}"
    message = (f"there is no player called {text!r} in {where} ({known})"
               f"{_suggestion(names, text) if isinstance(text, str) else ''}")
    if rule is not None:
        raise UnknownPlayer(rule, message)
    raise UsageError(message)


def player_named(names: list, text: str) -> str:
    """The name of the player ``text`` names (as :func:`seat_named` with ``fold_case``), or
    ``text`` itself when it names nobody, left for the rules to refuse with their rule id."""
    try:
        return names[seat_named(names, text)]
    except UsageError:
        return text
