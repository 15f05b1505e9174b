"""Events and commands <-> tagged maps (for msgpack and JSON), strictly.

Every event and command is an attrs frozen class with a class variable ``TYPE`` (its tag,
e.g. ``"coal_drawn"``).  Its map form is ``{"type": TYPE, <field>: <value>, ...}``.  One cattrs
converter does the work; decoding is strict: an unknown ``type`` or field, a missing field or a
value of the wrong type raises :class:`engine.errors.CodecError` naming it.  Nothing is ever
dropped silently.

A :class:`Registry` holds the tags of one game kind (its events, or its commands); the tags of
two games may overlap because a log's header names its kind.

A class may name trailing optional fields in ``OMIT_NONE`` (a class variable, a tuple of field
names): those are left out of its map while they are None, and a map without them decodes to
None.  A field added to an event that most records leave empty (a physical draw's
``reporter``) so keeps every other record's bytes as they were.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Callable, Iterable, TypeVar

import attrs

from .errors import CodecError

_converter = None
_Class = TypeVar("_Class")


@typing.dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
def tagged(cls: type[_Class]) -> type[_Class]:
    """``attrs.frozen`` for an event or command class: slotted, frozen, compared and hashed by
    value (its class and its fields in order, as attrs does) and shown as attrs shows it
    (``Name(field=value, ...)``), with those three methods shared by every such class instead
    of generated for each: building generated methods is start-up time every command pays,
    and a kind has dozens of these classes."""
    import operator

    made = attrs.frozen(repr=False, eq=False)(cls)
    names = tuple(field.name for field in attrs.fields(made))  # type: ignore[arg-type]  # made is an attrs class
    getter = operator.attrgetter(*names) if names else None
    values: Callable[[Any], tuple]
    if len(names) > 1:
        assert getter is not None
        values = getter
    elif names:
        def values(obj):
            return (getter(obj),)
    else:
        def values(obj):
            return ()

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) == values(other)

    def __ne__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) != values(other)

    def __hash__(self):
        return hash((self.__class__, values(self)))

    def __repr__(self):
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, values(self)))
        return f"{self.__class__.__name__}({shown})"

    made.__eq__, made.__ne__, made.__hash__, made.__repr__ = __eq__, __ne__, __hash__, __repr__  # type: ignore[method-assign, assignment]  # the shared methods
    return made


def get_converter():
    """The one cattrs converter (msgpack preconf, ``forbid_extra_keys``: unknown fields are an
    error; exact scalar types; strict lists), built on first use: importing cattrs and
    generating its hooks is slow, and maps in the canonical form never need it (see
    :class:`Registry`)."""
    global _converter
    if _converter is None:
        from cattrs.preconf.msgpack import make_converter

        converter = make_converter(forbid_extra_keys=True)
        for kind in (int, str, bool, float):
            converter.register_structure_hook(kind, _exactly(kind))
        converter.register_structure_hook_factory(
            lambda tp: tp is list or typing.get_origin(tp) is list, _strict_list)
        _converter = converter
    return _converter


def __getattr__(name: str):
    if name == "converter":  # the converter as a module attribute, as before
        return get_converter()
    raise AttributeError(name)


def _exactly(kind: type):
    """A structure hook that accepts only values of exactly ``kind`` (no coercion: 60.7, "70"
    and True are not ints; 5 is not a str)."""
    def hook(value, _type):
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        return value
    return hook


def _strict_list(list_type):
    """A structure hook for ``list[X]`` that accepts only a list (a string is not a list of
    characters, a map is not a list of keys), then structures each item as ``X``."""
    (item_type,) = typing.get_args(list_type) or (Any,)

    def hook(value, _type):
        if type(value) is not list:
            raise TypeError(f"expected a list, got {type(value).__name__} {value!r}")
        structure = get_converter().structure
        return [structure(item, item_type) for item in value]
    return hook


class Registry:
    """The tagged classes of one game kind.

    ``name`` is used in messages ("KIND event", "KIND command", KIND the game's kind).
    ``classes`` are attrs classes each with a unique ``TYPE`` class variable.
    """

    def __init__(self, name: str, classes: Iterable[type]):
        self.name = name
        self.by_type: dict[str, type] = {}
        self._structure: dict[str, Any] = {}
        #: tag -> generated decoder (map -> object, or None when the map is not canonical),
        #: generated on first use (compiling them all was a good part of importing a game)
        self._fast: dict[str, Any] = {}
        #: class -> generated encoder (object -> field map, or None when a value is unusual)
        self._fast_out: dict[type, Any] = {}
        for cls in classes:
            tag = cls.TYPE  # type: ignore[attr-defined]  # each class declares TYPE (the doc)
            if tag in self.by_type:
                raise ValueError(f"{name}: two classes share the tag {tag!r}")
            self.by_type[tag] = cls

    def _plan(self, tag):
        """The decoder of ``tag`` (generated now, with the class's encoder), or None for an
        unknown tag; a class without a fast plan gets decoders that always say None."""
        cls = self.by_type.get(tag)
        if cls is None:
            return None
        fast = _fast_plan(cls) or (_not_fast, _not_fast)
        encode = fast[1]
        omitted = getattr(cls, "OMIT_NONE", ())
        if omitted:  # trailing optional fields left out while None (the bytes stay as before)
            def encode(obj, _inner=fast[1], _omitted=omitted):
                body = _inner(obj)
                if body is None:
                    body = get_converter().unstructure(obj)
                for key in _omitted:
                    if key in body and body[key] is None:
                        del body[key]
                return body
        self._fast_out[cls] = encode
        self._fast[tag] = fast[0]
        return fast[0]

    def types(self) -> list[str]:
        """The tags, sorted."""
        return sorted(self.by_type)

    def to_map(self, obj: Any) -> dict[str, Any]:
        """``obj`` as ``{"type": TYPE, **fields}``; raises :class:`CodecError` for a foreign
        class."""
        tag = getattr(type(obj), "TYPE", None)
        if self.by_type.get(tag) is not type(obj):  # type: ignore[arg-type]  # any TYPE: a miss
            raise CodecError(f"{type(obj).__name__} is not a {self.name}")
        encode = self._fast_out.get(type(obj))
        if encode is None:
            self._plan(tag)
            encode = self._fast_out[type(obj)]
        body = encode(obj)
        if body is None:
            body = get_converter().unstructure(obj)
        return {"type": tag, **body}

    def from_map(self, data: Any) -> Any:
        """The object a tagged map stands for.

        Raises :class:`CodecError` when ``data`` is not a map, has no known ``type``, or its
        fields do not fit that type (the message names the type and the field).
        """
        # fast path (folds are hot): a map written by ``to_map`` has exactly the fields (in
        # canonical order; a client's command may have them in another) and plain values of
        # the declared types; anything else takes the full cattrs path below, which accepts
        # and refuses exactly as before
        try:
            obj = self._fast[data["type"]](data)
        except KeyError:  # a tag not decoded yet, or a map without a (known) type
            try:
                decode = self._plan(data["type"])
                obj = None if decode is None else decode(data)
            except (KeyError, TypeError, IndexError):
                obj = None
        except (TypeError, IndexError):
            obj = None
        if obj is not None:
            return obj
        return self._from_map_checked(data)

    def _from_map_checked(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise CodecError(f"a {self.name} must be a map with a 'type', "
                             f"not {type(data).__name__}")
        tag = data.get("type")
        cls = self.by_type.get(tag) if isinstance(tag, str) else None
        if cls is None:
            known = ", ".join(self.types())
            raise CodecError(f"unknown {self.name} type {tag!r} (known: {known})")
        assert isinstance(tag, str)  # cls was found for it
        hook = self._structure.get(tag)
        if hook is None:  # built on first use: cattrs code generation is slow at import
            hook = self._structure[tag] = get_converter().get_structure_hook(cls)
        from cattrs import transform_error
        from cattrs.errors import ClassValidationError

        body = {k: v for k, v in data.items() if k != "type"}
        odd = _odd_key(body)
        if odd is not None:  # cattrs' error report sorts and joins the field names: str only
            raise CodecError(f"bad {self.name} {tag!r}: a field name must be text, not "
                             f"{type(odd[0]).__name__} {odd[0]!r}"[:300])
        try:
            return hook(body, cls)
        except ClassValidationError as exc:
            try:
                details = "; ".join(transform_error(exc, path=tag))
            except Exception:  # a report cattrs cannot write: say what failed, not how
                details = f"{type(exc).__name__}: {exc}"[:300]
            raise CodecError(f"bad {self.name} {tag!r}: {details}") from None
        except (TypeError, ValueError) as exc:  # pragma: no cover - cattrs wraps these
            raise CodecError(f"bad {self.name} {tag!r}: {exc}") from None


_SCALARS = {int: "int", str: "str", bool: "bool", type(None): None}


def _not_fast(_value) -> None:
    """The fast decoder and encoder of a class without a fast plan: always the slow path."""
    return None


def _odd_key(value, depth: int = 0) -> "tuple[Any] | None":
    """``(key,)``: the first map key in ``value`` (maps and lists, nested) that is not a
    string; None when every key is one."""
    if depth > 64:
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return (key,)
            found = _odd_key(item, depth + 1)
            if found is not None:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _odd_key(item, depth + 1)
            if found is not None:
                return found
    return None


def _value_plan(var: str, hint, depth: int) -> "tuple[str, str] | None":
    """``(check, copy)`` for a value ``var`` of type ``hint``: an expression that is True exactly
    when the value is of that type (no coercion), and one that copies it as cattrs' unstructure
    does (lists and maps new, scalars as they are); None for a type the fast path does not
    take (an attrs class, a float...).  ``hint``: a scalar (``int``, ``str``, ``bool``), an
    optional one, ``list[T]``, ``dict[str, T]`` or ``T | None`` of those, nested."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) or \
        typing.get_origin(hint) is typing.Union else (hint,)
    if not options:
        return None
    tests: list[str] = []
    copies: list[str | None] = []
    item = f"x{depth}"
    for option in options:
        origin = typing.get_origin(option)
        if option in _SCALARS:
            tests.append(f"{var} is None" if _SCALARS[option] is None
                         else f"type({var}) is {_SCALARS[option]}")
            copies.append(None)
        elif origin is list and len(typing.get_args(option)) == 1:
            inner = _value_plan(item, typing.get_args(option)[0], depth + 1)
            if inner is None:
                return None
            tests.append(f"(type({var}) is list and all({inner[0]} for {item} in {var}))")
            copies.append(f"list({var})" if inner[1] == item
                          else f"[{inner[1]} for {item} in {var}]")
        elif origin is dict and typing.get_args(option)[:1] == (str,):
            inner = _value_plan(item, typing.get_args(option)[1], depth + 1)
            if inner is None:
                return None
            key = f"k{depth}"
            tests.append(f"(type({var}) is dict and all(type({key}) is str and {inner[0]} "
                         f"for {key}, {item} in {var}.items()))")
            copies.append(f"dict({var})" if inner[1] == item
                          else f"{{{key}: {inner[1]} for {key}, {item} in {var}.items()}}")
        else:
            return None
    check = "(" + " or ".join(tests) + ")"
    made = [c for c in copies if c is not None]
    if not made:
        return check, var
    if len(made) == 1 and len(copies) == 2:  # T | None, T a list or a map
        return check, f"(None if {var} is None else {made[0]})"
    if len(copies) == 1:
        return check, made[0]
    return None  # a union of two kinds of container: not taken


def _fast_plan(cls: type):
    """``(decoder, encoder)`` generated for a class whose fields are all ``int``, ``str``,
    ``bool``, lists and string-keyed maps of those, or optional ones (``_value_plan``), without
    converters, validators or post-init: it returns the object for a map with exactly the
    fields (in canonical order, or in any other: the same object), of exactly those types, and
    None for anything else.  The encoder gives the field map (what cattrs' unstructure gives:
    fields in order, lists and maps copied) for an object whose values are of exactly those
    types, and None for anything else.  None when the class does not qualify."""
    try:
        fields = attrs.fields(cls)
        hints = typing.get_type_hints(cls)
    except Exception:  # pragma: no cover - not an attrs class with resolvable hints
        return None
    if hasattr(cls, "__attrs_post_init__") or "__slots__" not in cls.__dict__:
        return None
    checks, names, copies = [], [], []
    env: dict[str, Any] = {"cls": cls, "new": object.__new__}
    for index, field in enumerate(fields):
        if field.converter is not None or field.validator is not None or not field.init:
            return None
        var = f"v{index}"
        plan = _value_plan(var, hints.get(field.name), 0)
        if plan is None:
            return None
        check, copy = plan
        checks.append(check)
        copies.append(copy)
        names.append(field.name)
        env[f"set{index}"] = cls.__dict__[field.name].__set__
    # trailing fields with a plain default may be missing from a map recorded before they
    # were added (engine.replay reads such a map as the same event): fill in the default
    optional = 0
    for field in reversed(fields):
        if (field.default is attrs.NOTHING
                or isinstance(field.default, attrs.Factory)  # type: ignore[arg-type]  # stubs: Factory is a class
                or type(field.default) not in _SCALARS):
            break
        optional += 1
    env["keys"] = ("type", *names)
    env["accepted"] = {("type", *names[:len(names) - k]) for k in range(optional + 1)}
    # the same fields in another order (a command map a client wrote, the seat's ``player``
    # added last) are the same object, as cattrs decodes them: checked second, as sets
    env["unordered"] = {frozenset(keys) for keys in env["accepted"]}
    for index in range(len(names) - optional, len(names)):
        env[f"d{index}"] = fields[index].default
    lines = ["def decode(d):", "    k = tuple(d)",
             "    if k in accepted or frozenset(k) in unordered:"]
    lines += [f"        v{i} = d[{name!r}]" if i < len(names) - optional
              else f"        v{i} = d.get({name!r}, d{i})" for i, name in enumerate(names)]
    lines.append(f"        if {' and '.join(checks) or 'True'}:")
    lines.append("            o = new(cls)")
    lines += [f"            set{i}(o, v{i})" for i in range(len(names))]
    lines.append("            return o")
    lines.append("    return None")
    lines.append("def encode(o):")
    lines += [f"    v{i} = o.{name}" for i, name in enumerate(names)]
    lines.append(f"    if {' and '.join(checks) or 'True'}:")
    body = ", ".join(f"{name!r}: {copies[i]}" for i, name in enumerate(names))
    lines.append(f"        return {{{body}}}")
    lines.append("    return None")
    exec("\n".join(lines), env)  # noqa: S102 - code built from the class's own field names
    return env["decode"], env["encode"]
