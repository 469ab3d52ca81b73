"""The table scene's tools: the ruler, the Move and Jump previews under the cursor, and a confirmed preview sent to
the engine as an ``Intent``. Every number is the rules functions' own (``rules/questions.py``)."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

from ...game.battle.action_kinds import Kind
from ...rules.battlefield import Piece
from ..intents import Intent, IntentHandler
from ...rules.questions import RulerEnd, RulerResult, preview_jump, preview_move, ruler
from ..scene import Window
from ..table_data import TableData
from .table_common import JUMP, MOVE

if TYPE_CHECKING:
    from ...rules.movement import MoveResult     # the movement rules load with the first move previewed


class SendingWindow(Window, Protocol):
    """The window as the Move and Jump tools use it: besides a dialog, it takes the intent a scene without its own
    handler sends."""

    def send(self, intent: Intent) -> None: ...


class PointsHost(Protocol):
    """What a click's point needs of the table scene: the table, the piece selected, and what is under the mouse."""

    @property
    def table(self) -> TableData: ...

    @property
    def selected_piece(self) -> Piece | None: ...

    def table_point(self, pos: tuple[int, int]) -> tuple[float, float]: ...

    def piece_at(self, pos: tuple[int, int]) -> str | None: ...


class ToolsHost(PointsHost, Protocol):
    """What the ruler and the Move and Jump previews use of the table scene: the previews and the ruler they keep
    there (the scene draws them), the table, the tool in hand and the piece selected, the window, the log, and where
    an intent goes."""

    waypoints: list[tuple[float, float]]
    move_result: MoveResult | None
    cursor: tuple[float, float] | None
    cursor_result: MoveResult | None
    jump_point: tuple[float, float] | None
    jump_result: MoveResult | None
    ruler_a: RulerEnd | None
    ruler_b: RulerEnd | None
    ruler_result: RulerResult | None

    @property
    def app(self) -> SendingWindow | None: ...

    @property
    def tool(self) -> str: ...

    @property
    def on_intent(self) -> IntentHandler | None: ...

    @property
    def sent(self) -> list[Intent]: ...

    @property
    def log_title(self) -> str: ...

    @property
    def log_lines(self) -> Sequence[str]: ...

    def on_table(self, pos: tuple[int, int]) -> bool: ...

    def add_waypoint(self, point: tuple[float, float]) -> MoveResult | None: ...

    def set_jump_point(self, point: tuple[float, float]) -> MoveResult | None: ...

    def set_log(self, title: str, lines: Iterable[object]) -> None: ...

    def _clear_move(self) -> None: ...


def contact_point(mover: Piece, other: Piece, frm: tuple[float, float]) -> tuple[float, float]:
    """The spot where ``mover``'s base touches ``other``'s, on the side facing ``frm``: exact, so that the engine's
    contact (a Repair, a Kamikaze's contact roll) holds and no overlap is refused. Not rounded: a rounded spot
    lands a hair inside the other base or short of it."""
    dx, dy = frm[0] - other.x, frm[1] - other.y
    d = math.hypot(dx, dy)
    if d < 1e-9:
        dx, dy, d = 0.0, -1.0, 1.0
    reach = other.radius + mover.radius
    return other.x + dx / d * reach, other.y + dy / d * reach


def contact_spots(mover: Piece, other: Piece, frm: tuple[float, float], step: int = 15) -> list[tuple[float, float]]:
    """Every spot touching ``other`` (each ``step``°), the one facing ``frm`` first, then nearest ``frm`` first."""
    reach = other.radius + mover.radius
    spots = [contact_point(mover, other, frm)]
    ring = [(other.x + reach * math.cos(math.radians(a)), other.y + reach * math.sin(math.radians(a)))
            for a in range(0, 360, step)]
    spots += sorted(ring, key=lambda q: math.hypot(q[0] - frm[0], q[1] - frm[1]))
    return spots


def snapped_point(scene: PointsHost, pos, frm: tuple[float, float]) -> tuple[tuple[float, float], str | None]:
    """Where a click of a Move or Jump goes: on another piece, to the spot touching it (base contact, as a Repair
    or a charge needs); elsewhere, the point clicked. Returns the point and the piece touched, if any."""
    mover = scene.selected_piece
    other = scene.piece_at(pos)
    if mover is None or other is None or other == mover.id or other not in scene.table.bf.pieces:
        return snap(scene.table_point(pos)), None
    return contact_point(mover, scene.table.bf.pieces[other], frm), other


SNAP = 0.1        # inches: a clicked point goes to the nearest tenth, so the spot previewed is the spot sent


def snap(point: tuple[float, float]) -> tuple[float, float]:
    return round(round(point[0] / SNAP) * SNAP, 3), round(round(point[1] / SNAP) * SNAP, 3)


def parse_point(text: str) -> tuple[float, float]:
    """Two numbers, x and y in inches ("12.5 8", "12.5, 8"); ValueError with what was expected otherwise."""
    parts = text.replace(",", " ").split()
    try:
        x, y = (float(v) for v in parts)
    except ValueError:
        raise ValueError(f"type two numbers, x and y in inches, for example \"12.5 8\" (got {text!r})") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"x and y must be numbers of inches (got {text!r})")
    return x, y


def typed_destination(scene: ToolsHost) -> bool:
    """D: the Move's next waypoint or the Jump's landing point, typed as x and y. The dialog checks it with the
    same rules as the preview and stays open with the reason when they refuse it; accepted, it is previewed, and
    Enter sends exactly that point."""
    p = scene.selected_piece
    if scene.tool not in (MOVE, JUMP) or p is None or scene.app is None:
        return False
    moving = scene.tool == MOVE

    def result_for(text: str) -> MoveResult:
        point = parse_point(text)
        return preview_move(scene.table.bf, p, scene.waypoints + [point]) if moving else \
            preview_jump(scene.table.bf, p, point)

    def check(text: str) -> str:
        try:
            result = result_for(text)
        except ValueError as e:
            return str(e)
        return "" if result.legal else f"not allowed: {result.reason}"

    def typed(text: str | None) -> None:
        if text is None:
            return
        point = parse_point(text)
        if moving:
            scene.add_waypoint(point)
        else:
            scene.set_jump_point(point)
        scene.set_log(scene.log_title, [f"typed: ({point[0]:g}, {point[1]:g}); Enter sends it", *scene.log_lines])

    start = scene.waypoints[-1] if moving and scene.waypoints else (p.x, p.y)
    what = "the Move's next waypoint" if moving else "the Jump's landing point"
    scene.app.push_scene("text-dialog", f"{p.id}: type {what}", [
        "x and y of the base's centre in inches (x along side A's edge, y toward side B's), as measured on the "
        "table. The rules check it before the dialog closes."], f"{start[0]:g} {start[1]:g}", typed,
        ok="Preview it", check=check)
    return True


def measure_between(scene: ToolsHost, a: RulerEnd, b: RulerEnd) -> RulerResult:
    scene.ruler_a, scene.ruler_b = a, b
    scene.ruler_result = ruler(scene.table.bf, a, b)
    name_a = a.piece or f"({a.x:.1f}, {a.y:.1f})"
    name_b = b.piece or f"({b.x:.1f}, {b.y:.1f})"
    scene.set_log(f"Ruler: {name_a} to {name_b}", scene.ruler_result.explain)
    return scene.ruler_result


def set_move_path(scene: ToolsHost, path) -> MoveResult | None:
    p = scene.selected_piece
    if p is None:
        return None
    scene.waypoints = [(float(q[0]), float(q[1])) for q in path]
    scene.move_result = preview_move(scene.table.bf, p, scene.waypoints) if scene.waypoints else None
    if scene.move_result is not None:
        scene.set_log(f"Move preview: {p.id}", [*reveal_warning(scene, p, scene.move_result),
                                                *scene.move_result.explain])
    return scene.move_result


def reveal_warning(scene: ToolsHost, p: Piece, result: MoveResult) -> list[str]:
    """A blip that would end its Move or Jump within 6" of an enemy is revealed first (p.18, A15): the preview says
    so before it is sent, with the engine's own test (``enemies_in_passive_range``)."""
    if not p.is_blip or not result.legal:
        return []
    moved = dataclasses.replace(p, x=result.end[0], y=result.end[1])
    # lazy: the sensors' rules (and the sight rules they ask) load with the first move checked, not with the first frame
    from ...rules.sensors import enemies_in_passive_range

    near = enemies_in_passive_range(scene.table.bf, moved)
    if not near:
        return []
    return [f"WARNING: {p.id} would end within 6\" of {', '.join(q.id for q in near)}: it is revealed there "
            f"[p.18, A15]"]


def set_jump_point(scene: ToolsHost, point) -> MoveResult | None:
    p = scene.selected_piece
    if p is None:
        return None
    landing = (float(point[0]), float(point[1]))
    scene.jump_point = landing
    scene.jump_result = preview_jump(scene.table.bf, p, landing)
    scene.set_log(f"Jump preview: {p.id}", [*reveal_warning(scene, p, scene.jump_result), *scene.jump_result.explain])
    return scene.jump_result


def preview_cursor(scene: ToolsHost, pos) -> None:
    p = scene.selected_piece
    if p is None or not scene.on_table(pos):
        scene.cursor = scene.cursor_result = None
        return
    scene.cursor = scene.table_point(pos)
    if scene.tool == MOVE:
        scene.cursor_result = preview_move(scene.table.bf, p, scene.waypoints + [scene.cursor])
    elif scene.tool == JUMP and scene.jump_point is None:
        scene.cursor_result = preview_jump(scene.table.bf, p, scene.cursor)


def confirm(scene: ToolsHost) -> Intent | None:
    """Send the previewed move or jump to the engine as an intent (only when the rules allow it)."""
    p = scene.selected_piece
    if p is None:
        return None
    if scene.tool == MOVE and scene.move_result is not None:
        result, intent = scene.move_result, Intent("move", p.id, tuple(scene.waypoints))
    elif scene.tool == JUMP and scene.jump_result is not None and scene.jump_point is not None:
        result, intent = scene.jump_result, Intent("jump", p.id, (scene.jump_point,))
    else:
        return None
    if not result.legal:
        # The refused path stays, drawn as refused, so that it can be mended: say how.
        mend = ("Backspace removes the last waypoint; Esc clears the path." if intent.kind == Kind.MOVE
                else "Click another landing point; Esc clears it.")
        scene.set_log(f"{intent.kind.title()} not sent", [f"not allowed: {result.reason}", mend]
                      + [str(s) for s in result.explain])
        return None
    handler = scene.on_intent or (scene.app.send if scene.app is not None else None)
    scene.sent.append(intent)
    end = result.end
    scene.set_log(f"Sent to the engine: {intent.kind} {p.id} to ({end[0]:.2f}, {end[1]:.2f})",
                 [str(s) for s in result.explain])
    scene._clear_move()
    if handler is not None:
        handler(intent)         # last: what the engine answers is what the log shows
    return intent
