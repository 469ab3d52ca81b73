"""Reading TOML and JSON files into validated models, with every problem named by file and item."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from .errors import InputError, pydantic_problems

M = TypeVar("M", bound=BaseModel)


def read_document(path: Path | str) -> dict:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), "file not found") from None
    except IsADirectoryError:
        raise InputError(str(path), "is a folder, expected a .toml or .json file") from None
    except UnicodeDecodeError:
        raise InputError(str(path), "not a text file (expected UTF-8 TOML or JSON)") from None
    except OSError as e:
        raise InputError(str(path), f"cannot be read ({e.strerror})") from None
    suffix = path.suffix.lower()
    try:
        if suffix == ".json":
            data = json.loads(text)
        elif suffix == ".toml":
            data = tomllib.loads(text)
        else:
            raise InputError(str(path), "expected a .toml or .json file")
    except json.JSONDecodeError as e:
        raise InputError(str(path), f"line {e.lineno}, column {e.colno}: not valid JSON ({e.msg})") from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(str(path), f"not valid TOML ({e})") from None
    except RecursionError:
        raise InputError(str(path), "(top level): values nested too deeply (expected a TOML or JSON document of "
                                    "tables, lists and values)") from None
    if not isinstance(data, dict):
        raise InputError(str(path), "(top level): expected a table/object of keys")
    return data


def validate(model: type[M], data, source: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise InputError(source, pydantic_problems(e)) from None


def load(model: type[M], path: Path | str) -> M:
    return validate(model, read_document(path), str(path))
