"""The end-of-battle report: who controls the table, the missions scored, the margin, and every secret revealed.

The rules reveal everything when the battle is over, so this scene reads the whole truth (``referee_view``) and
checks both seals made at set-up against the holding areas and missions it reveals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pygame
import pygame_gui

from ...i18n import _
from ...game.views.view_words import card_lines
from .. import theme
from ...service.session import BattleSession
from ..scene import Scene
from ..widgets import draw_text, gui_manager, line_height, panel, wrap
from .holding import square_lines
from ...paths import saves_dir
from ...rules.errors import InputError


def report_lines(session: BattleSession) -> list[tuple[str, str]]:
    """(style, text) lines: "h" heading, "b" body, "ok"/"bad" seal checks."""
    view = session.revealed()
    result = view.get("result") or {}
    out: list[tuple[str, str]] = []
    if session.campaign_recorded:
        out.append(("h", "Campaign"))
        out.extend(("ok", line) for line in session.campaign_recorded)
    control = "Contested" if view["control"] is None else f"Controlled by side {view['control']}"
    out.append(("h", f"The table is {control}"))
    if result.get("missions_unknown"):
        out.append(("h", str(result.get("headline") or "a mission was not entered: no result")))
    elif result.get("winner"):
        out.append(("h", f"Side {result['winner']} wins, {result['vp']['A']} VP to {result['vp']['B']}: "
                         f"a {result['level']} victory (margin {result['margin']})"))
    elif result.get("vp"):
        out.append(("h", f"A draw, {result['vp']['A']} VP each"))
    for line in result.get("explain", []):
        out.append(("b", str(line)))
    out.append(("h", "Seals made at set-up"))
    out.extend(("bad", line) for line in session.tampered())
    checks = session.seal_checks()
    for check in checks.values():
        if check.sealed is None and session.refereed:
            # A battle refereed at a physical table starts from the table, not from the program's set-up: no seal.
            out.append(("b", f"side {check.side} was not sealed: a battle refereed at a physical table has no "
                             "set-up in the program to seal"))
        else:
            out.append(("ok" if check.matches else "bad", check.text()))
    # The sealed documents themselves: anyone at the table can hash them and compare with the seals shown all battle.
    if any(check.sealed for check in checks.values()):
        out.append(("b", "To check the referee yourself: the SHA-256 of each sealed document below is its seal."))
    for line in session.sealed_documents():
        if line.startswith("  "):
            out.append(("b", line.strip()))
    for side in ("A", "B"):
        out.append(("h", f"Side {side}: mission {view['missions'].get(side) or 'none'}"))
        out.extend(("b", line) for line in card_lines(view, side) or [])
        holding = view["holding"].get(side) or {}
        filled = [f"square {n}: {', '.join(square_lines(c))}" for n, c in holding.items() if c != []]
        out.append(("b", "holding area: " + ("; ".join(filled) if filled else "empty")))
        lost = [d for d in view["destroyed"] if d["side"] == side]
        if lost:
            out.append(("b", "destroyed: " + ", ".join(f"{d['id']} ({d['type']})" for d in lost)))
    for o in view["objectives"]:
        state_text = "destroyed" if o.get("destroyed") else (
            "contested" if o["control"] == "contested" else f"secured by side {o['control']}")
        out.append(("b", f"objective {o['id']}: {state_text}, {o['target_counters']} Target counters"))
    return out + computer_lines(session)


def computer_lines(session: BattleSession) -> list[tuple[str, str]]:
    """Against the computer: its one-line reason for every decision it took, its secrets' included (the battle is
    over)."""
    computer = session.computer
    if computer is None:
        return []
    out = [("h", f"The computer (side {computer.side}, {computer.level.name}): its reason for each decision")]
    if session.computer_reopened:
        out.append(("b", "Only its decisions since the battle was reopened: a save in clear never holds its "
                         "reasons, as the opponent may read it."))
    out.extend(("b", reason) for reason in session.computer_reasons)
    if not session.computer_reasons:
        out.append(("b", "none in this window"))
    return out


def drawn_height(style: str) -> int:
    """The height one wrapped line takes in the report: a heading is larger, with a gap above."""
    return line_height(16 if style == "h" else 14) + 2 + (6 if style == "h" else 0)


def last_page(wrapped: list[tuple[str, str]], height: int) -> int:
    """The first line of the last page: the furthest the report scrolls, its last line at the bottom."""
    used, first = 0, len(wrapped)
    while first > 0 and used + drawn_height(wrapped[first - 1][0]) <= height:
        first -= 1
        used += drawn_height(wrapped[first][0])
    return first


class ReportScene(Scene):
    title = "End of battle"

    def __init__(self, session: BattleSession, on_save: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.session = session
        self.on_save = on_save
        self.lines = report_lines(session)
        self.scroll = 0
        self.manager: pygame_gui.UIManager | None = None
        self.buttons: dict[object, str] = {}
        self.printed = ""                 # what the last "Print (PDF)" wrote, or why it could not

    def on_enter(self) -> None:
        self._build(self.size)

    def on_resume(self) -> None:
        self._build(self.size)

    def on_resize(self, size) -> None:
        self._build(size)

    def _build(self, size) -> None:
        self.manager = gui_manager(self.manager, size)
        w, h = size
        self.buttons = {}
        labels = self.button_labels()
        # Buttons of 186 px where they fit; narrower in a small window (800 x 560), so none is cut.
        n = len(labels)
        margin, gap = (40, 14) if w >= n * 200 + 40 else (16, 8)
        bw = min(186, (w - 2 * margin - (n - 1) * gap) // n)
        for i, (key, label) in enumerate(labels):
            rect = pygame.Rect(margin + i * (bw + gap), h - 60, bw, 40)
            self.buttons[pygame_gui.elements.UIButton(rect, label, self.manager)] = key

    def button_labels(self) -> list[tuple[str, str]]:
        """The buttons along the bottom: (key, label)."""
        back = _("Back to the campaign") if self.session.campaign is not None else _("Back to the menu")
        return [("table", _("Look at the table")), ("save", _("Save the battle")), ("look", _("Look back…")),
                ("print", _("Print (PDF)")), ("menu", back)]

    def pressed(self, key: str) -> None:
        """A button of ``button_labels`` that this scene adds (the base scene's own are handled in ``handle_event``)."""

    def back_to_menu(self) -> None:
        """Back to the menu (or the campaign), whatever opened the battle: a battle played from the table editor
        goes back past the editor too, as the button says."""
        app = self.app
        if app is None:
            return
        target = app.find_scene("campaign" if self.session.campaign is not None else "menu")
        app.pop()                    # the report
        app.pop()                    # the battle
        while target is not None and target in app.stack.scenes and app.scene is not target and len(app.stack) > 1:
            app.pop()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            key = self.buttons[event.ui_element]
            if key == "table" and self.app is not None:
                self.app.pop()
            elif key == "save" and self.on_save is not None:
                self.on_save()
            elif key == "look":
                self.look_back()
            elif key == "print":
                self.print_report()
            elif key == "menu" and self.app is not None:
                self.back_to_menu()
            else:
                self.pressed(key)
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - event.y * 3)
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.app is not None:
            self.app.pop()
            return True
        return True

    def report_path(self) -> Path:
        """Beside the battle's save (``battle.json`` -> ``battle-report.pdf``), else in the saves folder."""

        save = self.session.save_path
        if save is not None:
            return Path(save).with_name(Path(save).stem + "-report.pdf")
        battle = self.session.view(log=False)["name"]
        name = "".join(c if c.isalnum() else "-" for c in battle.lower()).strip("-") or "battle"
        return saves_dir() / f"{name}-report.pdf"

    def print_report(self) -> Path | None:
        """The end-of-battle report as a PDF (``printing/battle_report.py``); says where, or why not."""
        # lazy: the PDF report's modules load only when it is printed
        from ...service.reports import battle_report_pdf

        try:
            written = battle_report_pdf(self.session, self.report_path())
        except InputError as e:
            self.printed = _("Not printed: {reason}").format(reason=e.message())
            return None
        self.printed = _("The report is printed to {file}").format(file=written)
        return written

    def look_back(self):
        """The summary, each side's dice report and the replay of this battle."""
        return self.push_scene("look-back", self.session.look_back(), self.session.save_path)

    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(theme.BACKGROUND)
        draw_text(surface, _("End of battle: {name}").format(name=self.session.view(log=False)["name"]), (40, 24), 26,
                  True, theme.TEXT)
        draw_text(surface, _("Every secret is revealed now; the seals shown at set-up are checked against them."),
                  (40, 62), 14, False, theme.TEXT_DIM)
        box = pygame.Rect(30, 92, w - 60, h - 170)
        panel(surface, box, theme.PANEL, theme.PANEL_EDGE, 6)
        wrapped: list[tuple[str, str]] = []
        for style, text in self.lines:
            size = 16 if style == "h" else 14
            text = theme.SIGNS.get(style, "") + text       # the sign says whether a seal matched, not the colour alone
            for part in wrap(text, box.w - 40, size, style == "h", 16) or [""]:
                wrapped.append((style, part))
        # The wheel scrolls no further than the last page: the report's end stays on the screen.
        self.scroll = min(self.scroll, last_page(wrapped, box.h - 18))
        y = box.y + 12
        for style, text in wrapped[self.scroll:]:
            size = 16 if style == "h" else 14
            if y + line_height(size) > box.bottom - 6:
                break
            colour = {"h": theme.ACCENT, "ok": theme.GOOD_TEXT, "bad": theme.ERROR}.get(style, theme.TEXT)
            if style == "h":
                y += 6
            draw_text(surface, text, (box.x + 20, y), size, style == "h", colour)
            y += line_height(size) + 2
        if self.printed:
            draw_text(surface, self.printed, (40, h - 84), 14, False, theme.TEXT_DIM)
        if self.manager is not None:
            self.manager.draw_ui(surface)
