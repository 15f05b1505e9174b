"""Every rule id of every registered game is cited by a test.

The rules are read from the repository's own docs/rules/<kind>.md (the texts the error messages
and payout reasons cite); a missing or empty file fails.  A rule counts as cited when a test
file names its full id (``ATKR-4.3``, not followed by another digit), or when a test function
in the kind's own test folders (tests/<kind>/, tests/<kind>_*/) carries its numbers in its name
(``test_4_3_and_4_4_...``, ``test_castle_5_10_...``).
"""

from __future__ import annotations

import pathlib
import re

import pytest

from ..registry import kinds

TESTS = pathlib.Path(__file__).resolve().parents[1]
RULES_DIR = TESTS.parent / "docs" / "rules"


def rule_ids(path: pathlib.Path) -> list[str]:
    """The rule ids of a rules text: ``n.m`` at the start of a line in section ``## PREFIX-n``.

    Raises FileNotFoundError if the file is missing and ValueError if it holds no rule id."""
    ids, section, prefix = [], None, None
    for line in pathlib.Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            heading = re.match(r"##\s+([A-Z]+)-(\d+)\b", line)
            section, prefix = (heading.group(2), heading.group(1)) if heading else (None, None)
            continue
        rule = re.match(r"(\d+)\.(\d+)\s", line)
        if rule and rule.group(1) == section:
            ids.append(f"{prefix}-{rule.group(1)}.{rule.group(2)}")
    if not ids:
        raise ValueError(f"{path} holds no rule id")
    return ids


def uncited(ids: list[str], text: str, names: list[str]) -> list[str]:
    """The ids that ``text`` does not name and no test function name in ``names`` carries."""
    missing = []
    for rule in ids:
        numbers = rule.split("-", 1)[1].replace(".", "_")
        if re.search(re.escape(rule) + r"(?!\d)", text):
            continue
        if any(re.search(rf"_{numbers}(?:_|$)", name) for name in names):
            continue
        missing.append(rule)
    return missing


def citations(kind: str) -> tuple[str, list[str]]:
    """Every test file's text (but this one's), and the test names in the kind's folders."""
    here = pathlib.Path(__file__).resolve()
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(TESTS.rglob("*.py"))
                     if p.resolve() != here)
    names = []
    for folder in [TESTS / kind, *TESTS.glob(f"{kind}_*")]:
        for path in sorted(folder.glob("test_*.py")):
            names += re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    return text, names


@pytest.mark.parametrize("kind", kinds())
def test_every_rule_id_is_cited_by_a_test(kind):
    ids = rule_ids(RULES_DIR / f"{kind}.md")
    assert all(rule.startswith(kind.upper() + "-") for rule in ids), ids
    assert len(ids) == len(set(ids)), "a rule id appears twice"
    text, names = citations(kind)
    assert names, f"no tests in tests/{kind}/"
    assert uncited(ids, text, names) == []


# -- the checker itself ----------------------------------------------------------------------------

def test_a_missing_rules_file_fails(tmp_path):
    with pytest.raises(FileNotFoundError):
        rule_ids(tmp_path / "missing.md")
    (tmp_path / "empty.md").write_text("# Rules\n\nNothing numbered here.\n")
    with pytest.raises(ValueError):
        rule_ids(tmp_path / "empty.md")


def test_rule_ids_are_read_per_section(tmp_path):
    text = ("# X\n\n## GAME-1 Setup\n\n1.1 One.\n1.2 Two,\n    3.4 not at a line start.\n"
            "2.1 Another section's number.\n\n## GAME-2 Play\n\n2.1 Play.\n2.10 Ten.\n\n"
            "## An example\n\n2.2 Not a rule: outside any rule section.\n")
    (tmp_path / "game.md").write_text(text)
    assert rule_ids(tmp_path / "game.md") == ["GAME-1.1", "GAME-1.2", "GAME-2.1", "GAME-2.10"]


def test_an_uncited_rule_is_reported():
    ids = ["GAME-1.1", "GAME-2.1", "GAME-2.10", "GAME-3.1"]
    # GAME-2.10 does not cite GAME-2.1; a test name carries 3.1; 1.1 is never named
    assert uncited(ids, "refused('GAME-2.10')", ["test_3_1_and_more"]) == ["GAME-1.1", "GAME-2.1"]
    assert uncited(ids, "GAME-1.1, GAME-2.1 and GAME-2.10", ["test_x_3_1"]) == []


def test_the_repository_holds_the_rules_of_every_game():
    assert sorted(p.stem for p in RULES_DIR.glob("*.md")) == kinds()
