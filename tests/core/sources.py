"""The syntax trees of the project's own modules, parsed once per test process.

Several structure checks (tests/core/test_one_fold.py, test_class_names.py) walk every module
of engine/ and client/; parsing and walking some 300 modules took each of them 1 to 1.6 s.
:func:`nodes` keeps each module's walked nodes, keyed by its path and the file's size and
modification time, so a module changed while the tests run is parsed again."""

from __future__ import annotations

import ast
import functools
import os
import pathlib


def nodes(path: pathlib.Path) -> tuple[ast.AST, ...]:
    """Every node of the module at ``path``, in ``ast.walk`` order (SyntaxError if it does not
    parse)."""
    stat = os.stat(path)
    return _nodes(str(path), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _nodes(path: str, size: int, mtime: int) -> tuple[ast.AST, ...]:
    with open(path, encoding="utf-8") as handle:
        return tuple(ast.walk(ast.parse(handle.read(), path)))
