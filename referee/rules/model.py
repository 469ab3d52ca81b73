"""The rules' values: plain frozen objects for the engine, checked by pydantic only where data become one.

Every start reads the rules' tables, the factions and a table, and the engine then reads, compares and copies their
values; loading pydantic and making a model class for each of them cost a one-shot query more than its answer. So a
value class here is a plain class, declared as a pydantic model is (fields with their types and defaults, ``Field``
constraints, ``field_validator`` and ``model_validator``), with the model methods the program uses
(``model_validate``, ``model_construct``, ``model_copy``, ``model_dump``, ``model_fields``, ``model_json_schema``).
Its *twin*, a pydantic model of the same name, fields and checks on ``file_model.StrictModel``, is made the first
time a value is checked or written out: ``Value(**data)`` and ``Value.model_validate(data)`` check the data exactly
as that model does (the same errors) and give the plain value; ``model_dump`` writes the value as that model would.
A pydantic model may hold values (a battle's record holds units): they are checked and written through their twins.
Values read back from the cache of checked files (``checked.py``) need neither pydantic nor a twin.
"""

from __future__ import annotations

import copy
import functools
import typing
from types import UnionType
from typing import Any, Callable, ClassVar, Iterator, Mapping, Self, cast, dataclass_transform, get_args, get_origin


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()      # a field with no default


class FieldSpec:
    """What ``Field(...)`` says of a field: its default and the pydantic ``Field`` options, given to the twin."""

    __slots__ = ("default", "options")

    def __init__(self, default: Any, options: dict[str, Any]) -> None:
        self.default = default
        self.options = options

    def for_pydantic(self) -> Any:
        # lazy: pydantic is loaded only when a value is checked or written out
        from pydantic import Field as PydanticField

        if self.default is REQUIRED:
            return PydanticField(**self.options)
        return PydanticField(self.default, **self.options)


def Field(default: Any = REQUIRED, **options: Any) -> Any:  # noqa: N802 (pydantic's name, as the fields read)
    """A field's default and constraints, as pydantic's ``Field`` takes them."""
    return FieldSpec(default, options)


class _Check:
    """A ``field_validator`` or ``model_validator`` of a value class, made a validator of its twin."""

    __slots__ = ("kind", "fields", "options", "function")

    def __init__(self, kind: str, fields: tuple[str, ...], options: dict[str, Any], function: Any) -> None:
        self.kind, self.fields, self.options, self.function = kind, fields, options, function


def field_validator(*fields: str, **options: Any) -> Callable[[Any], Any]:
    """pydantic's ``field_validator``, for the twin."""
    return lambda function: _Check("field", fields, options, function)


def model_validator(**options: Any) -> Callable[[Any], Any]:
    """pydantic's ``model_validator``, for the twin."""
    return lambda function: _Check("model", (), options, function)


class _ValueClass(type):
    @property
    def model_fields(cls) -> dict[str, Any]:
        """The twin's fields (pydantic ``FieldInfo``), as a model's ``model_fields`` are."""
        fields: dict[str, Any] = twin(cast("type[Strict]", cls)).model_fields
        return fields


def _fresh(default: Any) -> Any:
    # a list or table given as a default is each value's own, as pydantic copies it
    return copy.deepcopy(default) if isinstance(default, (list, dict, set)) else default


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(Field,))
class Strict(metaclass=_ValueClass):
    """A frozen value whose fields are declared as a pydantic model's are (see the module's docstring)."""

    __slots__ = ("_fields_set", "__dict__")

    _fields: ClassVar[tuple[str, ...]] = ()          # every field, in the model's order
    _own: ClassVar[tuple[str, ...]] = ()             # the fields this class declares
    _declared: ClassVar[dict[str, Any]] = {}         # this class's own defaults, as written (``Field(...)`` or a value)
    _defaults: ClassVar[dict[str, Any]] = {}         # every field's default
    _checks: ClassVar[dict[str, _Check]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        annotations = cls.__dict__.get("__annotations__", {})
        own = tuple(name for name, kind in annotations.items()
                    if not name.startswith("_") and not str(kind).startswith(("ClassVar", "typing.ClassVar")))
        fields = list(cls._fields)
        defaults = dict(cls._defaults)
        declared = {}
        for name in own:
            if name not in fields:
                fields.append(name)
            written = cls.__dict__.get(name, REQUIRED)
            default = written.default if isinstance(written, FieldSpec) else written
            if default is REQUIRED:
                defaults.pop(name, None)
            else:
                defaults[name] = default
            if name in cls.__dict__:
                declared[name] = written
                delattr(cls, name)
        checks = {name: v for name, v in cls.__dict__.items() if isinstance(v, _Check)}
        for name in checks:
            delattr(cls, name)
        cls._own, cls._fields, cls._defaults, cls._declared, cls._checks = own, tuple(fields), defaults, declared, checks

    def __init__(self, **data: Any) -> None:
        checked = twin(type(self)).model_validate(data)
        self.__dict__.update(checked.__dict__)
        object.__setattr__(self, "_fields_set", set(checked.model_fields_set))

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        """The data checked as the twin checks them (pydantic's ``ValidationError`` when they are wrong)."""
        if isinstance(obj, cls):
            return obj
        value: Self = _value_of(twin(cls).model_validate(obj, **options))
        return value

    @classmethod
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Self:
        """A value of trusted data, made as it is (no check), defaults filled in."""
        value = object.__new__(cls)
        d = value.__dict__
        for name in cls._fields:
            if name in values:
                d[name] = values[name]
            elif name in cls._defaults:
                d[name] = _fresh(cls._defaults[name])
        given = {name for name in values if name in cls._fields} if _fields_set is None else set(_fields_set)
        object.__setattr__(value, "_fields_set", given)
        return value

    @classmethod
    def field_defaults(cls) -> dict[str, Any]:
        """Each field that has a default, with it (the fields of ``model_fields`` that are not required)."""
        return dict(cls._defaults)

    @classmethod
    def model_json_schema(cls, **options: Any) -> dict[str, Any]:
        schema: dict[str, Any] = twin(cls).model_json_schema(**options)
        return schema

    @property
    def model_fields_set(self) -> set[str]:
        return _given(self)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update``'s fields replaced, unchecked (as pydantic's ``model_copy``)."""
        new = copy.deepcopy(self) if deep else self.__copy__()
        if update:
            new.__dict__.update(update)
            object.__setattr__(new, "_fields_set", _given(new) | set(update))
        return new

    def model_dump(self, **options: Any) -> dict[str, Any]:
        """The value as its twin writes it (``mode``, ``by_alias``, ``exclude_none``, ``include``...)."""
        key = _flat_key(self, options)
        if key is not None:
            return dict(_flat_dump(*key))
        data: dict[str, Any] = _twin_of(self).model_dump(**options)
        return data

    def model_dump_json(self, **options: Any) -> str:
        text: str = _twin_of(self).model_dump_json(**options)
        return text

    def __copy__(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        object.__setattr__(new, "_fields_set", set(_given(self)))
        return new

    def __getstate__(self) -> tuple[dict[str, Any], set[str]]:
        return self.__dict__, _given(self)

    def __setstate__(self, state: tuple[dict[str, Any], set[str]]) -> None:
        self.__dict__.update(state[0])
        object.__setattr__(self, "_fields_set", set(state[1]))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name} cannot be set (use model_copy)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name} cannot be deleted")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Strict):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self), tuple(self.__dict__.values())))

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        yield from self.__dict__.items()

    def __repr_args(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.__repr_args()})"

    def __str__(self) -> str:
        return " ".join(f"{k}={v!r}" for k, v in self.__dict__.items())

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """Held in a pydantic model: checked as the twin, kept as the value, written as the twin."""
        # lazy: only a pydantic model that holds values asks, and it has loaded pydantic
        from pydantic_core import core_schema

        inner = handler.generate_schema(twin(cls))
        return core_schema.no_info_before_validator_function(
            _as_twin, core_schema.no_info_after_validator_function(_value_of, inner),
            serialization=core_schema.wrap_serializer_function_ser_schema(_write, schema=inner))


_VALUES: dict[type, type[Strict]] = {}       # twin -> value class


def twin(cls: type[Strict]) -> Any:
    """The pydantic model of the value class ``cls``: made the first time it is asked for."""
    made = cls.__dict__.get("_twin")
    if made is not None:
        return made
    # lazy: pydantic is loaded only when a value is checked or written out
    from pydantic import field_validator as pydantic_field_validator
    from pydantic import model_validator as pydantic_model_validator

    # lazy: the base of the twins imports pydantic
    from .file_model import StrictModel

    base = cls.__bases__[0]
    parent = StrictModel if base is Strict else twin(base)
    hints = typing.get_type_hints(cls, include_extras=True)
    namespace: dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__,
                                 "__doc__": cls.__doc__, "__annotations__": {}}
    for name in cls._own:
        namespace["__annotations__"][name] = _for_pydantic(hints[name])
        if name in cls._declared:
            written = cls._declared[name]
            namespace[name] = written.for_pydantic() if isinstance(written, FieldSpec) else written
    for name, check in cls._checks.items():
        if check.kind == "field":
            namespace[name] = cast(Any, pydantic_field_validator)(*check.fields, **check.options)(check.function)
        else:
            namespace[name] = cast(Any, pydantic_model_validator)(**check.options)(check.function)
    made = cast(Any, type(parent))(cls.__name__, (parent,), namespace)
    _VALUES[made] = cls
    type.__setattr__(cls, "_twin", made)
    return made


def _for_pydantic(kind: Any) -> Any:
    """A field's type with each ``Field(...)`` in it made pydantic's."""
    origin = get_origin(kind)
    if origin is typing.Annotated:
        inner, *extras = get_args(kind)
        extras = [e.for_pydantic() if isinstance(e, FieldSpec) else e for e in extras]
        return typing.Annotated[(_for_pydantic(inner), *extras)]
    args = get_args(kind)
    if origin is None or origin is typing.Literal or not args:
        return kind
    inner_kinds = tuple(_for_pydantic(a) for a in args)
    if origin is UnionType or origin is typing.Union:
        return typing.Union[inner_kinds]
    return origin[inner_kinds]


def _value_of(checked: Any) -> Any:
    """The value of a twin's instance (its fields are values already)."""
    cls = _VALUES.get(type(checked))
    if cls is None:
        return checked
    value = object.__new__(cls)
    value.__dict__.update(checked.__dict__)
    object.__setattr__(value, "_fields_set", set(checked.model_fields_set))
    return value


def _given(value: Strict) -> set[str]:
    """The fields given when the value was made (not left to their defaults): pydantic's ``model_fields_set``."""
    return cast("set[str]", object.__getattribute__(value, "_fields_set"))


def _twin_of(value: Strict) -> Any:
    return twin(type(value)).model_construct(_fields_set=set(_given(value)), **value.__dict__)


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _flat_key(value: Strict, options: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """What a value of plain words, numbers and flags is written from: its class, fields, their types, the fields
    given and the options; None for a value holding anything else. Floats are keyed by their exact bits as well
    (0.0 and -0.0 are equal but are written differently)."""
    values = value.__dict__
    kinds = tuple(map(type, values.values()))
    if not _PLAIN.issuperset(kinds):
        return None
    bits = tuple(v.hex() for v in values.values() if type(v) is float) if float in kinds else ()
    try:
        written = tuple(options.items())
        hash(written)
    except TypeError:
        return None
    return type(value), tuple(values.items()), kinds, bits, frozenset(_given(value)), written


@functools.lru_cache(maxsize=4096)
def _flat_dump(cls: type[Strict], fields: tuple[tuple[str, Any], ...], kinds: tuple[type, ...],
               bits: tuple[str, ...], given: frozenset[str], options: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """A flat value as its twin writes it. The views write each unit waiting in a holding area, and the dealt cards,
    for every screen: tens of thousands of times a battle, and making a twin to write each cost more than the rest of
    the view. The same value is written once; the caller gets a copy (its fields are plain, so a shallow one)."""
    data: dict[str, Any] = twin(cls).model_construct(_fields_set=set(given), **dict(fields)) \
        .model_dump(**dict(options))
    return data


def _as_twin(given: Any) -> Any:
    # a value given where its data are expected (a record made from the engine's values) is taken as it is
    return _twin_of(given) if isinstance(given, Strict) else given


def _write(value: Any, write: Callable[[Any], Any]) -> Any:
    return write(_twin_of(value) if isinstance(value, Strict) else value)
