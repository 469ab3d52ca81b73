"""Exact entry in the table editor: a selected item's numbers, id, type and a blip's contents, typed in one line.

``x=12.5 y=6 facing=75 id=a-sarge type=commander`` for a unit, ``x=30 y=31 contents=veteran tactical, reserve
scout`` for a blip (``contents=decoy``, or ``contents=unknown`` to leave it to the players), ``x=18 y=28`` for an
objective, ``x=17 y=16.5 id=woods-north type=woods rotate=30 corners=8,8 14,8 14,12`` for a terrain piece (x, y:
its centre; rotate: degrees counter-clockwise about it; corners: the outline, last on the line). A line the table
refuses keeps its dialog open with the reason. The whole line is one
edit, checked by the scenario loader like every other, and one undo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.catalogue import is_drone_type
from ...rules.errors import InputError
from ..editing import Edit, TableEditor
from .editor_base import EditorBase

if TYPE_CHECKING:
    from ..scene import Scene

NUMBERS = ("x", "y", "facing", "rotate")


def exact_text(editor: TableEditor, ident: str) -> str:
    """The item as it stands, in the words the line takes."""
    kind, e = editor.kind_of(ident), editor.entry(ident)
    if kind == "terrain":
        cx, cy = editor.terrain_centre(ident)
        text = f"x={cx:g} y={cy:g} id={ident} type={e.type}"
        if e.polygon is not None:
            text += " corners=" + " ".join(f"{x:g},{y:g}" for x, y in e.polygon)
        return text
    text = f"x={e.x:g} y={e.y:g}"
    if kind == "unit":
        if not is_drone_type(e.type):
            text += f" facing={e.facing:g}"
        return text + f" id={ident} type={e.type}"
    if kind == "blip":
        if e.contents is None:
            held = "unknown"
        else:
            held = ", ".join(f"{c.rating} {c.type}" for c in e.contents) or "decoy"
        return text + f" id={ident} contents={held}"
    return text


def parse_exact(text: str, side: str | None, faction: str) -> dict:
    """The typed line -> ``TableEditor.set_exact`` changes. ``contents=`` takes the rest of the line."""
    # lazy: the referee's session loads only when a blip's contents are typed
    from ...service.referee import parse_contents

    out: dict = {}
    text, has_corners, corners = text.partition("corners=")
    if has_corners:
        # The rest of the line: "x,y x,y x,y" (a terrain piece's outline, in order round it).
        rest = corners.split("contents=")[0]
        points = []
        for pair in rest.split():
            try:
                x, y = (float(v) for v in pair.split(","))
            except ValueError:
                raise InputError("exact entry", f"corners: {pair!r} is not a corner x,y (as in 8,8 14,8 14,12)") \
                    from None
            points.append((x, y))
        out["corners"] = points
    head, sep, held = text.partition("contents=")
    for word in head.split():
        key, eq, value = word.partition("=")
        key = key.lower()
        if not eq or key not in ("x", "y", "facing", "id", "type", "rotate"):
            raise InputError("exact entry", f"{word!r}: expected key=value with a key among x, y, facing, id, type, "
                                            "rotate, corners, contents")
        if key in NUMBERS:
            try:
                out[key] = float(value)
            except ValueError:
                raise InputError("exact entry", f"{word!r}: expected a number") from None
        else:
            out[key] = value
    if sep:
        held = held.strip()
        if held.lower() in ("unknown", "?"):
            out["contents"] = None
        else:
            if side is None:
                raise InputError("exact entry", "contents: only a blip holds units")
            out["contents"] = [{k: v for k, v in c.items() if k != "side"}
                               for c in parse_contents(held, side, faction)]
    return out


class ExactEntry(EditorBase):
    """Mixed into ``EditorScene``: the dialog for a selected item's exact values."""

    def open_exact(self, ident: str) -> Scene | None:
        """A line to type the item's exact values (``editor_exact``); returns the dialog."""
        kind = self.editor.kind_of(ident)
        if kind is None:
            return None             # gone (an undo took it away): nothing to type
        hint = {"unit": "x and y in inches, facing in degrees counter-clockwise from +x (90: towards side B), id, "
                        "type (tactical, scout, basic-drone...)",
                "blip": "x and y in inches, id, and contents= what it holds: 'veteran tactical, reserve scout', "
                        "'decoy' or 'unknown' (the players keep it secret)",
                "objective": "x and y in inches",
                "terrain": "x and y of its centre in inches, id, type (woods, hills, smoke...), rotate= degrees "
                           "counter-clockwise about its centre, corners= x,y of each corner in order (last)"}[kind]

        def check(text: str) -> str:
            # Applied as typed; refused, the dialog stays open with the reason, the line as it was typed.
            edit = self.set_exact(ident, text)
            return "" if edit is None or edit.ok else edit.message

        return self.push_scene("text-dialog", f"{ident} exactly", [hint, "One line, one edit: Ctrl+Z undoes it."],
                               exact_text(self.editor, ident), lambda text: None, ok="Set", check=check)

    def set_exact(self, ident: str, text: str | None) -> Edit | None:
        if not text:
            return None
        e = self.editor.entry(ident)
        side = e.side if self.editor.kind_of(ident) == "blip" else None
        try:
            changes = parse_exact(text, side, self.faction.get(side or "A", ""))
        except (InputError, ValueError) as err:
            return self.report(Edit(False, err.message() if isinstance(err, InputError) else str(err), ident))
        if not changes:
            return None
        return self.report(self.editor.set_exact(ident, changes))

    # -- saving and asking --
