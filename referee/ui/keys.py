"""Key bindings as tables: each kind of scene has one, from which both its key handling and its help overlay come.

A binding names its keys, the modifiers it needs, the words the help shows and the scene method it calls, so a key
cannot work without a help line, nor a help line describe a key that does nothing. Mouse gestures are rows of the
same table (``Gesture``): the help shows them, the scene's mouse handlers do them.

A handler returns ``False`` when its key does not apply now (a tool's key outside that tool); the next binding of
the same key is then tried, so a tool's own Enter or Esc comes first and the scene's general one after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Union

import pygame

# Which modifiers a binding needs.
ANY = "any"              # whatever is held (the handler may read Shift itself, as Tab / Shift+Tab)
PLAIN = "plain"          # neither Ctrl nor Shift
CTRL = "ctrl"            # Ctrl (or Cmd) held
SHIFT = "shift"          # Shift held, Ctrl not
NO_CTRL = "no-ctrl"      # Ctrl not held, Shift may be

EVENT = object()         # in a binding's ``args``: the key event itself

ENTER = (pygame.K_RETURN, pygame.K_KP_ENTER)
PLUS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
MINUS = (pygame.K_MINUS, pygame.K_KP_MINUS)
DIGITS = {**{getattr(pygame, f"K_{n}"): n for n in range(1, 10)},
          **{getattr(pygame, f"K_KP{n}"): n for n in range(1, 10)}}


@dataclass(frozen=True)
class Key:
    label: str                  # the keys as the help names them: "Ctrl+Z", "Tab / Shift+Tab"
    does: str                   # what they do, in the help's words
    handler: str                # the scene's method, or its part's ("target.enter")
    keys: tuple[int, ...]       # pygame key codes; none: any key (a tool that holds the keyboard)
    mods: str = ANY
    args: tuple[Any, ...] = ()  # passed to the handler (``EVENT``: the key event)
    each: tuple[tuple[Any, ...], ...] = ()  # or each key's own arguments, in the order of ``keys`` ("G / I": two)

    def __post_init__(self) -> None:
        if self.each and len(self.each) != len(self.keys):
            raise ValueError(f"key binding {self.label!r}: {len(self.keys)} keys but {len(self.each)} argument lists")

    @property
    def name(self) -> str:
        """What the settings file calls this binding (``[keys]``): its handler, and its first word argument
        (``set_tool:ruler``)."""
        words = [a for a in (self.each[0] if self.each else self.args) if isinstance(a, str)]
        return self.handler.rsplit(".", 1)[-1] + (f":{words[0]}" if words else "")

    @property
    def shown(self) -> str:
        """The keys as the help shows them: the player's own keys when the settings file moved this binding."""
        own = REMAPPED.get(self.name)
        return " / ".join(text for _code, _mods, text in own) + " (your keys)" if own else self.label

    def arguments(self, event: pygame.event.Event) -> tuple[Any, ...]:
        if self.each:
            args = self.each[self.keys.index(event.key)] if event.key in self.keys else self.each[0]
        else:
            args = self.args
        return tuple(event if a is EVENT else a for a in args)

    def matches(self, event: pygame.event.Event) -> bool:
        own = REMAPPED.get(self.name) if self.keys else None
        if own is not None:
            return any(event.key == code and _mods_match(mods, event) for code, mods, _text in own)
        if self.keys and event.key not in self.keys:
            return False
        return _mods_match(self.mods, event)


def _mods_match(mods: str, event: pygame.event.Event) -> bool:
    mod = getattr(event, "mod", 0)
    ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
    shift = bool(mod & pygame.KMOD_SHIFT)
    if mods == PLAIN:
        return not ctrl and not shift
    if mods == CTRL:
        return ctrl
    if mods == "ctrl-shift":
        return ctrl and shift
    if mods == CTRL_SHIFT_Z:
        return ctrl and (shift or event.key != pygame.K_z)
    if mods == SHIFT:
        return shift and not ctrl
    if mods == NO_CTRL:
        return not ctrl
    return True


CTRL_SHIFT = "ctrl-shift"   # Ctrl and Shift held (Ctrl+Shift+Z)
CTRL_SHIFT_Z = "redo"       # redo's keys: Ctrl with any key of the binding, and Shift too when that key is Z

# Bindings the settings file moved to other keys: name -> (key code, modifiers, the keys' text).
REMAPPED: dict[str, tuple[tuple[int, str, str], ...]] = {}


def parse_key(text: str) -> tuple[int, str]:
    """``"E"``, ``"F4"``, ``"Ctrl+Y"``, ``"Ctrl+Shift+Z"``, ``"Shift+Tab"``: the key code and the modifiers; a
    ValueError names what was not understood."""
    *mods, name = [part.strip() for part in text.split("+")] if text.strip() != "+" else ["+"]
    lowered = {m.lower() for m in mods}
    if not name or lowered - {"ctrl", "shift", "cmd"}:
        raise ValueError(f"expected a key such as E, F4, Ctrl+Y or Ctrl+Shift+Z (got {text!r})")
    try:
        code = pygame.key.key_code(name.lower() if len(name) == 1 else name)
    except ValueError:
        raise ValueError(f"no key called {name!r} (in {text!r})") from None
    ctrl = bool(lowered & {"ctrl", "cmd"})
    shift = "shift" in lowered
    return code, (CTRL_SHIFT if ctrl and shift else CTRL if ctrl else SHIFT if shift else PLAIN)


def remap(wanted: dict[str, tuple[str, ...]], tables: Sequence[KeyTable] = ()) -> list[str]:
    """Move the bindings the settings file names to its keys; the problems (unknown names, unknown keys) come back
    as sentences and those bindings keep their keys. ``tables``: the bindings that exist, to check the names."""
    REMAPPED.clear()
    known = {k.name for table in tables for k in bindings(table)}
    problems = []
    for name, texts in wanted.items():
        if known and name not in known:
            problems.append(f"keys.{name}: no binding of that name (the help lists them)")
            continue
        try:
            parsed = [(*parse_key(t), t) for t in texts]
        except ValueError as e:
            problems.append(f"keys.{name}: {e}")
            continue
        REMAPPED[name] = tuple(parsed)
    return problems


class Gesture(NamedTuple):
    """A mouse gesture the help explains; the scene's mouse handlers carry it out. A named tuple: a plain value,
    cheaper than a dataclass for the window's start to make."""

    label: str
    does: str


Row = Union[Key, Gesture]
Group = tuple[str, tuple[Row, ...]]
KeyTable = tuple[Group, ...]


def dispatch(table: KeyTable, scene: object, event: pygame.event.Event) -> bool:
    """Call the first binding of ``table`` that takes ``event`` (a KEYDOWN); True when one did."""
    for _title, rows in table:
        for row in rows:
            if isinstance(row, Key) and row.matches(event):
                if handler(scene, row.handler)(*row.arguments(event)) is not False:
                    return True
    return False


def handler(scene: object, name: str) -> Any:
    """The method ``name`` of the scene, or of one of its parts (``"target.enter"``: ``scene.target.enter``)."""
    owner = scene
    *parts, method = name.split(".")
    for part in parts:
        owner = getattr(owner, part)
    return getattr(owner, method)


def help_groups(table: KeyTable) -> list[tuple[str, list[tuple[str, str]]]]:
    """The help overlay's groups of (keys, what they do) rows, in the table's order (a binding the settings file
    moved shows its new keys)."""
    return [(title, [(row.shown if isinstance(row, Key) else row.label, row.does) for row in rows])
            for title, rows in table]


def bindings(table: KeyTable) -> list[Key]:
    return [row for _title, rows in table for row in rows if isinstance(row, Key)]


def without(table: KeyTable, labels: Sequence[str]) -> KeyTable:
    """The table less the rows shown as ``labels`` (a scene that does not offer them)."""
    return tuple((title, tuple(r for r in rows if r.label not in labels)) for title, rows in table)


# Keys of the window itself, whatever the scene: the help lists them after the scene's own.
WINDOW_KEYS: KeyTable = (("Window", (
    Key("F11", "full screen on or off", "toggle_fullscreen", (pygame.K_F11,)),
    Key("Ctrl+Tab / Ctrl+Shift+Tab", "move through the screen's buttons where Tab is the screen's own (the table's "
        "next unit); Enter or Space presses the one in yellow", "focus_buttons", (pygame.K_TAB,), CTRL, (EVENT,)),
    Key("Ctrl+Q", "quit (a battle is autosaved after every action)", "quit", (pygame.K_q,), CTRL),
)),)
