"""The Castle setups the every-kind suites (tests/games/) play besides the plain game: the
variants of CASTLE-10, which change what a seat may see (10.1 a silent effect, 10.4 three
society cards) and how a game ends (10.2, 10.3).  The player counts are asked of the rules
(advanced-3p: 3 only)."""

SETUPS = {
    "advanced-3p": {"variants": ["advanced-3p"]},
    "every-variant": {"variants": ["smuggling", "prophecy", "scoring", "advanced-3p"]},
    "smuggling-prophecy-scoring": {"variants": ["smuggling", "prophecy", "scoring"]},
}
