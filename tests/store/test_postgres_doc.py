"""docs/postgres.md describes the schema the package ships (issue 19): its "The schema
(version N)" is the last migration's number (engine/store/migrations, package_version), and
its table of tables names every table the migrations create (schema_version, which init
creates itself, is described above the table).  No database needed: a migration added
without its doc fails here."""

from __future__ import annotations

import pathlib
import re

from engine.store.postgres.schema import migrations, package_version

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "postgres.md"


def test_the_documented_schema_is_the_shipped_one():
    text = DOC.read_text(encoding="utf-8")
    (version,) = re.findall(r"^## The schema \(version (\d+)\)$", text, re.M)
    shipped = migrations()
    assert int(version) == package_version() == shipped[-1][0] == len(shipped)
    table = text.split(f"## The schema (version {version})", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    created = {name for _, _, sql in shipped
               for name in re.findall(r"^CREATE TABLE (\w+)", sql, re.M)}
    assert documented == created
    # the upgrade and newer-schema messages the doc quotes name the package's version
    assert f"this devil needs {package_version()}" in text
    assert f"newer than this devil knows ({package_version()})" in text
