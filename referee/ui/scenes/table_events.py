"""What the mouse does on the table scene: select, hover, pan, zoom, drag the ruler, click a Move's waypoints or a
Jump's landing point, and the toolbar's buttons. Each returns True when the event was used."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import table_tools
from .table_common import JUMP, MOVE, RULER, SELECT, ZOOM_STEP

if TYPE_CHECKING:
    from .table import TableScene


def button(scene: TableScene, element) -> bool:
    for key, b in scene.buttons.items():
        if b is element:
            if key in (RULER, MOVE, JUMP):
                scene.set_tool(key)
            elif key == "fit":
                scene.fit()
            elif key == "help":
                scene.open_help()
            elif key == "menu":
                scene.leave()
            return True
    return False


def motion(scene: TableScene, event) -> bool:
    pos = event.pos
    scene.mouse = pos
    if scene.panning:
        scene.pan(*event.rel)
        return True
    scene.hover = None
    scene.hover_terrain = None
    if scene.on_table(pos):
        scene.hover = scene.piece_at(pos)
        if scene.hover is None and scene.tool == SELECT:
            scene.hover_terrain = scene.terrain_at(pos)
    else:
        block = scene.panel_block_at(pos)
        if block is not None and block.key and block.key.startswith("pair:"):
            scene.hover = block.key[5:]
    if scene.tool == RULER and scene.ruler_dragging and scene.ruler_a is not None:
        scene.measure_between(scene.ruler_a, scene.ruler_end_at(pos))
    elif scene.tool in (MOVE, JUMP):
        scene._preview_cursor(pos)
    return True


def mouse_down(scene: TableScene, event) -> bool:
    pos = event.pos
    scene.mouse = pos
    if event.button in (2, 3) and scene.on_table(pos):
        scene.panning = True
        return True
    if event.button != 1:
        return False
    if scene.on_table(pos):
        if scene.tool == RULER:
            end = scene.ruler_end_at(pos)
            scene.ruler_dragging = True
            scene.measure_between(end, end)
        elif scene.tool == SELECT:
            scene.select(scene.piece_at(pos))
        return True
    block = scene.panel_block_at(pos)
    if block is not None and block.key:
        if block.key.startswith("pair:"):
            scene.toggle_expand(block.key[5:])
        elif block.key == "legend":
            scene.toggle_legend()
        return True
    return False


def mouse_up(scene: TableScene, event) -> bool:
    pos = event.pos
    if event.button in (2, 3):
        was = scene.panning
        scene.panning = False
        return was
    if event.button != 1:
        return False
    if scene.tool == RULER and scene.ruler_dragging:
        scene.ruler_dragging = False
        if scene.ruler_a is not None:
            scene.measure_between(scene.ruler_a, scene.ruler_end_at(pos))
        return True
    if not scene.on_table(pos):
        return False
    mover = scene.selected_piece
    if scene.tool == MOVE:
        frm = scene.waypoints[-1] if scene.waypoints else ((mover.x, mover.y) if mover is not None else (0.0, 0.0))
        point, touched = table_tools.snapped_point(scene, pos, frm)
        scene.add_waypoint(point)
        scene._preview_cursor(pos)
        if touched is not None and scene.move_result is not None:
            scene.set_log(scene.log_title, [f"the base ends touching {touched} at ({point[0]:.3f}, {point[1]:.3f})",
                                            *scene.log_lines])
        return True
    if scene.tool == JUMP:
        frm = (mover.x, mover.y) if mover is not None else (0.0, 0.0)
        point, touched = table_tools.snapped_point(scene, pos, frm)
        scene.set_jump_point(point)
        if touched is not None and scene.jump_result is not None:
            scene.set_log(scene.log_title, [f"the base lands touching {touched} at ({point[0]:.3f}, {point[1]:.3f})",
                                            *scene.log_lines])
        return True
    return False


def wheel(scene: TableScene, event) -> bool:
    pos = scene.mouse
    if scene.on_table(pos):
        scene.zoom(ZOOM_STEP ** event.y, pos)
        return True
    if scene.layout.panel.collidepoint(pos):
        scene.panel_scroll -= event.y * 48
        scene._clamp_panel_scroll()
        return True
    if scene.layout.log.collidepoint(pos):
        most = max(0, len(scene.log_wrapped) - scene._log_visible_lines())
        scene.log_scroll = max(0, min(most, scene.log_scroll - event.y * 2))
        return True
    return False
