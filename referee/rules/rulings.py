"""The named rulings (RULINGS.md): the recommended reading by default, switchable per scenario or group."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Mapping, TypeGuard

from .. import paths
from .errors import InputError
from .checked import remembered_file
from .files import model_kind, read_document, validate
from .model import Field, Strict


class Ruling(Strict):
    title: str
    options: dict[str, str]
    default: str
    crater_diameter: float | None = Field(default=None, gt=0)
    inspected_counters: int | None = Field(default=None, ge=1)


PARAMETERS = {"crater_diameter": "A33", "inspected_counters": "A41"}
# Options of data/rulings.toml this program does not implement. Choosing one is refused when the rulings are read,
# never accepted and silently played by the recommended reading.
NOT_HONOURED = {"A18": ("B",), "A19": ("B",), "A29": ("B",), "A37": ("B",), "A38": ("B",), "A41": ("B",),
                "A43": ("B",), "A44": ("B",), "A45": ("B",), "A48": ("B",)}


def honoured(rid: str, option: str) -> bool:
    """Does the program play ``option`` of ruling ``rid``?"""
    return option not in NOT_HONOURED.get(rid, ())
PARAMETER_MAX = {"crater_diameter": 100.0}          # inches: a crater wider than that is a typo
# Every ruling the program reads by id (tests/fuzz/test_fuzz_loaders.py checks the list against the code).
REQUIRED = ("A1", "A2", "A3", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A13", "A14", "A15", "A17", "A20", "A21",
            "A23", "A24", "A25", "A27", "A29", "A30", "A31", "A32", "A33", "A34", "A35", "A36", "A38", "A39", "A41",
            "A50", "A57")


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Ruling]:
    path = paths.DATA_DIR / "rulings.toml"
    out: dict[str, Ruling] = remembered_file(path, f"rulings.toml as {model_kind(Ruling)}", lambda: {
        rid: validate(Ruling, body, f"{path} [{rid}]") for rid, body in read_document(path).items()})
    for rid, ruling in out.items():
        if ruling.default not in ruling.options:
            raise InputError(str(path), f"{rid}.default: expected one of {sorted(ruling.options)}")
    # A ruling the program reads but the file lacks would otherwise fail in the middle of a battle.
    missing = [f"[{rid}]: required ruling is missing (the program reads it)" for rid in REQUIRED if rid not in out]
    missing += [f"[{rid}].{name}: required key is missing" for name, rid in PARAMETERS.items()
                if rid in out and getattr(out[rid], name) is None]
    if missing:
        raise InputError(str(path), missing)
    return out


def _positive_number(value: object, whole: bool) -> TypeGuard[int | float]:
    """A finite number above 0 (a whole one when ``whole``); true is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        v = float(value)
    except OverflowError:
        return False
    return math.isfinite(v) and v > 0 and (not whole or v == int(v))


class Rulings:
    """The rulings in force for one game: each id maps to the chosen option letter."""

    def __init__(self, overrides: Mapping[str, object] | None = None, source: str = "rulings"):
        cat = catalogue()
        self.choices = {rid: r.default for rid, r in cat.items()}
        self.params: dict[str, float] = {
            name: getattr(cat[rid], name) for name, rid in PARAMETERS.items()
        }
        problems = []
        for key, value in (overrides or {}).items():
            if key in PARAMETERS:
                whole = key == "inspected_counters"
                most = PARAMETER_MAX.get(key)
                if not _positive_number(value, whole) or (most is not None and value > most):
                    what = "a whole number of 1 or more" if whole else f"a positive number up to {most:g}"
                    problems.append(f"rulings.{key}: expected {what} (got {value!r})")
                else:
                    self.params[key] = value
            elif key not in cat:
                problems.append(
                    f"rulings.{key}: unknown ruling (expected one of {', '.join(cat)} or {', '.join(PARAMETERS)})"
                )
            elif not isinstance(value, str) or value not in cat[key].options:
                problems.append(
                    f"rulings.{key}: expected one of {', '.join(repr(o) for o in cat[key].options)} (got {value!r})"
                )
            elif not honoured(key, value):
                problems.append(
                    f"rulings.{key}: option {value!r} ({cat[key].options[value]}) is not implemented by this program; "
                    f"expected {cat[key].default!r} ({cat[key].options[cat[key].default]})"
                )
            else:
                self.choices[key] = value
        if problems:
            raise InputError(source, problems)
        self.overrides = {k: v for k, v in (overrides or {}).items()}

    def __getitem__(self, rid: str) -> str:
        return self.choices[rid]

    def reads(self, rid: str, option: str) -> bool:
        return self.choices[rid] == option

    def label(self, rid: str) -> str:
        """How an explanation cites a ruling: the id, with the option when it is not the default."""
        if self.choices[rid] != catalogue()[rid].default:
            return f"{rid} option {self.choices[rid]}"
        return rid

    @property
    def crater_diameter(self) -> float:
        return float(self.params["crater_diameter"])

    @property
    def inspected_counters(self) -> int:
        return int(self.params["inspected_counters"])


DEFAULT = None


def default_rulings() -> Rulings:
    global DEFAULT
    if DEFAULT is None:
        DEFAULT = Rulings()
    return DEFAULT


# One Rulings a set of choices: the pieces and features made under rulings are kept by the rulings' identity
# (``battlefield._unit_piece``), so a table rebuilt for every action and every player view must not bring new ones.
RULINGS_KEPT = 64
_SHARED: dict[tuple[tuple[str, Any], ...], Rulings] = {}


def rulings_for(choices: Mapping[str, object]) -> Rulings:
    """The rulings of these choices, made once and shared: a Rulings is never changed once made. The choices are
    checked as ``Rulings`` checks them (an ``InputError`` for a wrong one, and nothing kept)."""
    try:
        key = tuple(sorted(choices.items()))
        held = _SHARED.get(key)
    except TypeError:                   # an unhashable value: checked (and refused) by Rulings itself, not kept
        return Rulings(choices)
    if held is None:
        held = Rulings(dict(choices))
        if len(_SHARED) >= RULINGS_KEPT:
            _SHARED.pop(next(iter(_SHARED)))
        _SHARED[key] = held
    return held
