"""Reading TOML and JSON files into validated models, with every problem named by file and item."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar

from .checked import remembered_file
from .errors import InputError, pydantic_problems


class Checkable(Protocol):
    """A pydantic model, or a value class of the rules (``model.py``)."""

    @classmethod
    def model_validate(cls, obj: Any) -> Self: ...


M = TypeVar("M", bound=Checkable)


def unencodable_item(data: object, where: str = "") -> str | None:
    """The item (``units[2].id``) of the first text in ``data`` that is not Unicode a file or a screen can hold: a
    lone surrogate such as ``"\\ud800"`` in JSON. ``None`` when every key and text is sound."""
    try:
        # One pass in C over a sound document (a save's record holds thousands of texts); the walk below runs only
        # to name the item of one that is not.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
        return None
    except (TypeError, ValueError, RecursionError):
        pass                             # not all JSON values, or a text that is not sound: walked item by item
    stack: list[tuple[object, str]] = [(data, where)]
    while stack:
        value, item = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return item or "(top level)"
        elif isinstance(value, dict):
            for k, v in value.items():
                key_item = f"{item}.{k}" if item else str(k)
                if isinstance(k, str):
                    try:
                        k.encode("utf-8")
                    except UnicodeEncodeError:
                        return (item + "." if item else "") + repr(k)
                stack.append((v, key_item))
        elif isinstance(value, list):
            stack.extend((v, f"{item}[{i}]") for i, v in enumerate(value))
    return None


def check_text(data: object, source: str) -> None:
    """Refuse a document holding text that is not Unicode (see ``unencodable_item``), naming the item."""
    bad = unencodable_item(data)
    if bad is not None:
        raise InputError(source, f"{bad}: expected text (it holds an unpaired surrogate such as \\ud800, which is "
                                 f"not a character)")


MAX_DOCUMENT_BYTES = 16 * 1024 * 1024     # a scenario, faction or card file: far beyond any real one


def read_text_file(path: Path, most_bytes: int, too_large: str, expected: str, text_kind: str) -> str:
    """The UTF-8 text of ``path``, or an InputError naming the file and what is wrong: missing, a folder (``expected``
    says what was), over ``most_bytes`` (``too_large`` says what it is not), not text (``text_kind`` says what was
    expected), unreadable."""
    try:
        if path.is_file() and path.stat().st_size > most_bytes:
            raise InputError(str(path), f"larger than {most_bytes // (1024 * 1024)} MB: {too_large}")
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), "file not found") from None
    except IsADirectoryError:
        raise InputError(str(path), f"is a folder, expected {expected}") from None
    except UnicodeDecodeError:
        raise InputError(str(path), f"not a text file (expected {text_kind})") from None
    except OSError as e:
        raise InputError(str(path), f"cannot be read ({e.strerror or e})") from None


def read_document(path: Path | str) -> dict[str, Any]:
    path = Path(path)
    text = read_text_file(path, MAX_DOCUMENT_BYTES, "not a table, faction or card file", "a .toml or .json file",
                          "UTF-8 TOML or JSON")
    suffix = path.suffix.lower()
    try:
        if suffix == ".json":
            data = json.loads(text)
        elif suffix == ".toml":
            # lazy: a start whose files were checked before reads their values back and parses no TOML
            # (rules/checked.py)
            import tomllib

            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as e:
                raise InputError(str(path), f"not valid TOML ({e})") from None
        else:
            raise InputError(str(path), "expected a .toml or .json file")
    except json.JSONDecodeError as e:
        raise InputError(str(path), f"line {e.lineno}, column {e.colno}: not valid JSON ({e.msg})") from None
    except RecursionError:
        raise InputError(str(path), "(top level): values nested too deeply (expected a TOML or JSON document of "
                                    "tables, lists and values)") from None
    if not isinstance(data, dict):
        raise InputError(str(path), "(top level): expected a table/object of keys")
    check_text(data, str(path))
    return data


SAVE_FORMAT = "seven-seconds-save"
MAIL_FORMAT = "seven-seconds-mail"         # a battle played by e-mail (``service/mail_battle.py``)
SCENARIO_KEYS = frozenset({"table", "terrain", "units", "blips", "objectives", "scale", "attacker"})
CARD_KEYS = frozenset({"mission", "troop", "drone", "drone_prices"})
KIND_NAMES = {"empty": "an empty file", "save": "a battle save", "faction": "a faction file",
              "card": "a card file", "scenario": "a scenario (a table)", "mail": "a battle played by e-mail"}
OPEN_AS = {"save": "open it with `seven-seconds play FILE` or Load a saved battle in the menu",
           "mail": "open it with `seven-seconds mail play FILE --side A` (or B) on that side's computer, or Join a "
                   "battle in the menu; `seven-seconds mail status FILE` says what it waits for",
           "faction": "put it in your factions folder, or check it with `seven-seconds validate FILE`",
           "card": "put it in your cards folder, or check it with `seven-seconds validate FILE`",
           "empty": "expected the keys of its kind, such as name, table and terrain for a scenario"}


def document_kind(data: dict[str, Any]) -> str:
    """What a document is, by its keys: ``empty``, ``save``, ``mail``, ``faction``, ``scenario`` or ``card``."""
    if not data:
        return "empty"
    if data.get("format") == SAVE_FORMAT:
        return "save"
    if data.get("format") == MAIL_FORMAT:
        return "mail"
    if "created" in data:
        return "faction"
    if SCENARIO_KEYS & set(data):
        return "scenario"
    if CARD_KEYS & set(data):
        return "card"
    return "scenario" if "name" in data else "card"


def expect_kind(data: dict[str, Any], kind: str, source: str) -> None:
    """Refuse a document of another kind by naming what it is (a save is a save, an empty file is empty)."""
    found = document_kind(data)
    if found == kind:
        return
    raise InputError(source, f"(top level): this is {KIND_NAMES[found]}, not {KIND_NAMES[kind]}; "
                             f"{OPEN_AS.get(found, 'check it with `seven-seconds validate FILE`')}")


def validate(model: type[M], data: object, source: str) -> M:
    # lazy: pydantic is loaded only when a file's data are checked (see model.py)
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise InputError(source, pydantic_problems(e)) from None


def model_kind(model: type) -> str:
    return f"{model.__module__}.{model.__qualname__}"


def load(model: type[M], path: Path | str) -> M:
    return validate(model, read_document(path), str(path))


def load_kept(model: type[M], path: Path | str) -> M:
    """``load``, or the value a file of these very bytes gave when checked before (``checked.py``)."""
    return remembered_file(Path(path), model_kind(model), lambda: load(model, path))
