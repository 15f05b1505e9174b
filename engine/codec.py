"""Events and commands <-> tagged maps (for msgpack and JSON), strictly.

Every event and command is an attrs frozen class with a class variable ``TYPE`` (its tag,
e.g. ``"coal_drawn"``).  Its map form is ``{"type": TYPE, <field>: <value>, ...}``.  One cattrs
converter does the work; decoding is strict: an unknown ``type`` or field, a missing field or a
value of the wrong type raises :class:`engine.errors.CodecError` naming it.  Nothing is ever
dropped silently.

A :class:`Registry` holds the tags of one game kind (its events, or its commands); the tags of
two games may overlap because a log's header names its kind.
"""

from __future__ import annotations

from typing import Any, Iterable

import cattrs
from cattrs.preconf.msgpack import make_converter

from .errors import CodecError

#: The one converter.  ``forbid_extra_keys`` makes unknown fields an error.
converter = make_converter(forbid_extra_keys=True)


class Registry:
    """The tagged classes of one game kind.

    ``name`` is used in messages ("atkr event", "castle command").  ``classes`` are attrs
    classes each with a unique ``TYPE`` class variable.
    """

    def __init__(self, name: str, classes: Iterable[type]):
        self.name = name
        self.by_type: dict[str, type] = {}
        self._structure: dict[str, Any] = {}
        for cls in classes:
            tag = cls.TYPE
            if tag in self.by_type:
                raise ValueError(f"{name}: two classes share the tag {tag!r}")
            self.by_type[tag] = cls
            self._structure[tag] = converter.get_structure_hook(cls)

    def types(self) -> list[str]:
        """The tags, sorted."""
        return sorted(self.by_type)

    def to_map(self, obj: Any) -> dict[str, Any]:
        """``obj`` as ``{"type": TYPE, **fields}``; raises :class:`CodecError` for a foreign class."""
        tag = getattr(type(obj), "TYPE", None)
        if self.by_type.get(tag) is not type(obj):
            raise CodecError(f"{type(obj).__name__} is not a {self.name}")
        body = converter.unstructure(obj)
        return {"type": tag, **body}

    def from_map(self, data: Any) -> Any:
        """The object a tagged map stands for.

        Raises :class:`CodecError` when ``data`` is not a map, has no known ``type``, or its
        fields do not fit that type (the message names the type and the field).
        """
        if not isinstance(data, dict):
            raise CodecError(f"a {self.name} must be a map with a 'type', not {type(data).__name__}")
        tag = data.get("type")
        hook = self._structure.get(tag) if isinstance(tag, str) else None
        if hook is None:
            known = ", ".join(self.types())
            raise CodecError(f"unknown {self.name} type {tag!r} (known: {known})")
        cls = self.by_type[tag]
        body = {k: v for k, v in data.items() if k != "type"}
        try:
            return hook(body, cls)
        except cattrs.errors.ClassValidationError as exc:
            details = "; ".join(cattrs.transform_error(exc, path=tag))
            raise CodecError(f"bad {self.name} {tag!r}: {details}") from None
        except (TypeError, ValueError) as exc:  # pragma: no cover - cattrs wraps these
            raise CodecError(f"bad {self.name} {tag!r}: {exc}") from None
