"""How every record of the vocabulary is declared: one decorator, and the constrained scalar types they share.

A record is a frozen pydantic dataclass with ``__slots__`` (no per-instance ``__dict__``: a class of 1,000
students holds ~100,000 case results), its scalars strict (a number is never read from a string, a boolean never
from ``"true"``: :data:`Text`, :data:`Flag`, :data:`Whole`, :data:`Number`), while a list is read as a tuple and a
table as a record (so parsed JSON and TOML load as they are); keyword-only so fields with and without defaults
can sit in document order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar, overload

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    TypeAdapter,
    WithJsonSchema,
)
from pydantic.dataclasses import dataclass
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError
from typing_extensions import dataclass_transform

T = TypeVar("T")

STRICT = ConfigDict(extra="ignore")
"""Unknown keys are ignored on reading (a results.json also holds what is derived, such as ``score``)."""
CONFIG = ConfigDict(extra="forbid", regex_engine="python-re")
"""A file a TA writes (``assignment.toml``): an unknown key is a mistake to name, not to skip."""

def _text(value: Any) -> str:
    # pydantic's own str check refuses a lone surrogate, which is how Python spells a file name that is not
    # UTF-8 (a student's folder): the text is kept as it is, and escaped by each writer.
    if not isinstance(value, str):
        raise PydanticCustomError("string_type", "Input should be a valid string")
    return value


def _nonempty(value: Any) -> str:
    if not _text(value):
        raise PydanticCustomError("string_too_short", "String should have at least 1 character", {"min_length": 1})
    return str(value)


Text = Annotated[str, PlainValidator(_text), WithJsonSchema({"type": "string"})]
NonEmptyText = Annotated[str, PlainValidator(_nonempty), WithJsonSchema({"type": "string", "minLength": 1})]
Str = Annotated[str, Strict()]
"""A string a TA writes (a config key): pydantic's own check, so ``pattern`` and ``min_length`` apply."""
Flag = Annotated[bool, Strict()]
Whole = Annotated[int, Strict()]
Number = Annotated[float, Strict()]
"""A float field takes an int too (JSON and TOML write ``10`` for ten seconds), never a string or a boolean."""
Positive = Annotated[float, Strict(), Field(gt=0)]
NonNegative = Annotated[float, Strict(), Field(ge=0)]
Count = Annotated[int, Strict(), Field(ge=0)]


class Record:
    """What every record can do: ``to_json()``, its JSON document (JSON types only, as results.json writes it)."""

    __slots__ = ()

    def to_json(self) -> Any:
        adapter = _ADAPTERS.get(type(self))
        if adapter is None:
            adapter = _ADAPTERS[type(self)] = TypeAdapter(type(self))
        return adapter.dump_python(self, mode="json")


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, kw_only: bool = True, config: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(Field, FieldInfo))
def record(cls: type[T] | None = None, /, *, kw_only: bool = True, config: bool = False) -> Any:
    """``@record``: a frozen, slotted, strictly validated pydantic dataclass (keyword-only unless told otherwise;
    unknown keys refused with ``config``). Type checkers see it as a dataclass (PEP 681)."""
    def wrap(klass: type[T]) -> type[T]:
        made: Any = dataclass(frozen=True, slots=True, kw_only=kw_only, config=CONFIG if config else STRICT)
        return made(klass)
    return wrap(cls) if cls is not None else wrap


def config_error(text: str, at: str | int | None = None) -> PydanticCustomError:
    """A problem a validator found, worded for the TA (:mod:`grader.model.loading` prints it as it is); ``at``
    names the key of the record it concerns, when a check of the whole record found it."""
    return PydanticCustomError("config", "{text}", {"text": text, **({"at": at} if at is not None else {})})


def _unique(items: tuple[Any, ...]) -> tuple[Any, ...]:
    seen: set[Any] = set()
    for item in items:
        if item in seen:
            raise config_error(f"{item!r} is listed twice")
        seen.add(item)
    return items


Unique = AfterValidator(_unique)
"""On a tuple field: no item twice (``uniqueItems`` in the schema: add ``Field(json_schema_extra=UNIQUE)``)."""
UNIQUE = {"uniqueItems": True}
