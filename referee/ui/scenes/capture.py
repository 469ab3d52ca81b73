"""Read the table from a photo: the referee mode's photo of the physical table, compared with the last known table.

Opened over the referee scene (``W``, or the Photo button): the players give a photo file, or ``camera`` for a frame
from a webcam OpenCV can open. The photo is shown with every marker read outlined and every piece not found ringed
where it should stand; beside it, each difference from the battle's table is listed as the active unit's Move or a
correction, ticked when the engine accepts it, with the rule when it does not. Nothing changes until the players
press Accept; the ticked ones are then played through the referee scene (``session.attempt`` for the Move, with its
dice asked as any other; ``session.correct`` and ``correct_terrain`` for the rest), corrections first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from ...capture.differences import Difference
from ...capture.tables import Comparison
from ...service.capture import compare_photo
from ...rules.errors import InputError
from .. import theme
from ..keys import DIGITS, ENTER, EVENT, PLAIN, Gesture, Key, KeyTable, dispatch
from ..scene import Scene
from ..widgets import draw_text, ellipsize, gui_manager, line_height, panel, wrap
from .dialogs import TextDialog

if TYPE_CHECKING:
    import numpy as np

    from .referee import RefereeScene

PANEL_W = 470
ROW_GAP = 6
CAPTURE_KEYS: KeyTable = (("Read the table from a photo", (
    Key("1 to 9", "tick or untick that difference", "toggle_key", tuple(DIGITS), PLAIN, (EVENT,)),
    Gesture("Click a difference", "tick or untick it"),
    Key("Enter", "accept the ticked differences", "accept", ENTER, PLAIN),
    Key("Esc", "reject them all: nothing changes", "reject", (pygame.K_ESCAPE,)),
)),)


def photo_source_lines() -> list[str]:
    return ["Type the photo's file name (a JPEG or PNG of the whole table with its printed markers: "
            "seven-seconds markers prints them), or camera for a frame from the webcam.",
            "Nothing changes until you accept what the photo shows."]


class CaptureScene(Scene):
    title = "Read the table from a photo"
    key_table = CAPTURE_KEYS

    def __init__(self, referee: RefereeScene, image: np.ndarray | None = None, source: str = "") -> None:
        super().__init__()
        self.referee = referee
        self.image = image
        self.source = source
        self.comparison: Comparison | None = None
        self.ticked: set[int] = set()
        self.picture: pygame.Surface | None = None
        self.photo_rect = pygame.Rect(0, 0, 0, 0)
        self.scale = 1.0
        self.rows: list[tuple[pygame.Rect, int]] = []
        self.manager: pygame_gui.UIManager | None = None
        self.buttons: dict[object, str] = {}
        if image is not None:
            self.read(image, source)

    @property
    def session(self):
        return self.referee.session

    # ---- the photo ------------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self._build(self.size)
        if self.image is None and self.app is not None:
            self.app.push(TextDialog("Read the table from a photo", photo_source_lines(), "",
                                     self.from_source, ok="Read it"))

    def from_source(self, text: str | None) -> None:
        """The file name (or ``camera``) the players typed; a bad one is refused aloud, and nothing changes."""
        if text is None:
            self.close("Photo: nothing read", ["nothing changed"])
            return
        # lazy: OpenCV and the webcam load only when a photo is read
        from ...capture.photo import load_photo, webcam_frame

        try:
            words = text.split()
            if words and words[0].lower() == "camera":
                device = int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
                image = webcam_frame(device)
            else:
                image = load_photo(text)
        except InputError as e:
            self.close("Photo: not read", [e.message(), "nothing changed"])
            return
        self.read(image, text)
        self._build(self.size)

    def read(self, image: np.ndarray, source: str) -> None:
        # lazy: OpenCV loads only when a photo is read
        import cv2

        self.image, self.source = image, source
        self.comparison = compare_photo(self.session, image)
        self.ticked = {i for i, d in enumerate(self.comparison.differences) if d.legal}
        rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB) if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
        self.picture = pygame.image.frombuffer(rgb.tobytes(), (rgb.shape[1], rgb.shape[0]), "RGB").copy()

    def close(self, title: str, lines: list[str]) -> None:
        if self.app is not None and self.app.scene is self:
            self.app.pop()
        self.referee.say(title, lines)

    # ---- layout -----------------------------------------------------------------------------------------------------
    def on_resize(self, size) -> None:
        self._build(size)

    def on_exit(self) -> None:
        # lazy: OpenCV and the webcam load only when a photo is read
        from ..gui_managers import give_back

        give_back(self.manager)
        self.manager = None

    def _build(self, size: tuple[int, int]) -> None:
        w, h = size
        area = pygame.Rect(12, 12, w - PANEL_W - 36, h - 24)
        if self.picture is not None:
            pw, ph = self.picture.get_size()
            self.scale = min(area.w / pw, area.h / ph)
            self.photo_rect = pygame.Rect(area.x, area.y, int(pw * self.scale), int(ph * self.scale))
        self.manager = gui_manager(self.manager, size)
        self.buttons = {}
        x = w - PANEL_W - 12
        for i, (key, label) in enumerate((("accept", "Accept ticked (Enter)"), ("reject", "Reject all (Esc)"))):
            rect = pygame.Rect(x + 12 + i * (PANEL_W // 2 - 6), h - 58, PANEL_W // 2 - 18, 40)
            self.buttons[pygame_gui.elements.UIButton(rect, label, self.manager)] = key

    # ---- choosing -----------------------------------------------------------------------------------------------------
    def differences(self) -> list[Difference]:
        return self.comparison.differences if self.comparison is not None else []

    def toggle(self, index: int) -> None:
        found = self.differences()
        if not 0 <= index < len(found):
            return
        if not found[index].legal:
            self.referee.say("Refused by the engine", [f"{found[index].text}: {found[index].reason}"])
            return
        self.ticked ^= {index}

    def toggle_key(self, event) -> bool:
        self.toggle(DIGITS[event.key] - 1)
        return True

    def accept(self) -> bool:
        """Play the ticked differences: the corrections first, then the active unit's Move (which may ask dice)."""
        chosen = [d for i, d in enumerate(self.differences()) if i in self.ticked]
        if self.app is not None and self.app.scene is self:
            self.app.pop()
        if not chosen:
            self.referee.say("Photo: nothing accepted", ["nothing changed"])
            return True
        referee, session = self.referee, self.session
        for d in sorted(chosen, key=lambda d: d.as_move):
            if d.as_move:
                referee.do(d.action, f"Move of {d.piece} (read from the photo)")
            elif d.kind == "terrain":
                referee.after_action(session.correct_terrain(d.piece, polygon=d.action.args["polygon"]),
                                     f"Correction of {d.piece} (read from the photo)")
            else:
                referee.after_action(session.correct(d.piece, **d.action.args),
                                     f"Correction of {d.piece} (read from the photo)")
        return True

    def reject(self) -> bool:
        self.close("Photo: every difference rejected", ["nothing changed"])
        return True

    # ---- the loop -----------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            return self.accept() if self.buttons[event.ui_element] == "accept" else self.reject()
        if event.type == pygame.KEYDOWN:
            dispatch(self.key_table, self, event)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, index in self.rows:
                if rect.collidepoint(event.pos):
                    self.toggle(index)
            return True
        return True

    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        return (round(self.photo_rect.x + x * self.scale), round(self.photo_rect.y + y * self.scale))

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BACKGROUND)
        c = self.comparison
        if self.picture is not None and c is not None:
            surface.blit(pygame.transform.smoothscale(self.picture, self.photo_rect.size), self.photo_rect)
            for quad in c.reading.seen.values():
                pygame.draw.polygon(surface, (70, 220, 110), [self.to_screen(*p) for p in quad], 2)
            self.draw_moves(surface, c)
            for p in c.problems:
                if p.at is not None:
                    centre = self.to_screen(*p.at)
                    colour = theme.ERROR if p.kind == "not-found" else theme.ACCENT
                    pygame.draw.circle(surface, colour, centre, 16, 3)
                    draw_text(surface, p.piece, (centre[0] + 18, centre[1] - 8), 14, True, colour)
        self.draw_panel(surface)
        if self.manager is not None:
            self.manager.draw_ui(surface)

    def draw_moves(self, surface: pygame.Surface, c: Comparison) -> None:
        """Each difference on the photo: a line from where the battle has the piece to where the photo reads it."""
        for i, d in enumerate(c.differences):
            read = c.reading.pieces.get(d.piece)
            if d.was is None or read is None:
                continue
            then, now = c.reading.in_photo(*d.was), c.reading.in_photo(read.x, read.y)
            if then is None or now is None:
                continue
            colour = theme.ACCENT if d.legal else theme.ERROR
            pygame.draw.line(surface, colour, self.to_screen(*then), self.to_screen(*now), 2)
            pygame.draw.circle(surface, colour, self.to_screen(*now), 12, 2)
            draw_text(surface, str(i + 1), (self.to_screen(*now)[0] + 14, self.to_screen(*now)[1] - 8), 14, True,
                      colour)

    def draw_panel(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        box = pygame.Rect(w - PANEL_W - 12, 12, PANEL_W, h - 24)
        panel(surface, box, theme.PANEL, theme.PANEL_EDGE, 8)
        x, y = box.x + 14, box.y + 14
        draw_text(surface, "Read the table from a photo", (x, y), 19, True, theme.TEXT)
        y += 30
        c = self.comparison
        if c is None:
            draw_text(surface, "No photo yet.", (x, y), 15, False, theme.TEXT_DIM)
            return
        name = self.source.replace("\\", "/").rsplit("/", 1)[-1]
        head = ellipsize(f"{name}: {len(c.reading.pieces)} pieces read", PANEL_W - 30, 14)
        draw_text(surface, head, (x, y), 14, False, theme.TEXT_DIM)
        y += line_height(14) + 6
        for p in c.problems[:8]:
            for line in wrap("! " + p.text, PANEL_W - 30, 14):
                draw_text(surface, line, (x, y), 14, False, theme.ERROR)
                y += line_height(14)
        if len(c.problems) > 8:
            draw_text(surface, f"... and {len(c.problems) - 8} more", (x, y), 14, False, theme.ERROR)
            y += line_height(14)
        y += 8
        found = c.differences
        draw_text(surface, "Differences from the battle's table" if found else
                  ("The photo shows the table as the battle has it." if c.reading.usable else
                   "Nothing can be read from this photo."), (x, y), 16, True, theme.TEXT)
        y += line_height(16) + 4
        self.rows = []
        for i, d in enumerate(found):
            mark = "[x]" if i in self.ticked else ("[ ]" if d.legal else " - ")
            how = "Move" if d.as_move else "correction"
            words = f"{i + 1}. {mark} {d.text} - {how}" if d.legal else f"{i + 1}. {mark} {d.text} - refused: {d.reason}"
            lines = wrap(words, PANEL_W - 30, 14)
            top = y
            colour = theme.TEXT if d.legal else theme.ERROR
            for line in lines:
                draw_text(surface, line, (x, y), 14, False, colour)
                y += line_height(14)
            self.rows.append((pygame.Rect(x, top, PANEL_W - 28, y - top), i))
            y += ROW_GAP
            if y > box.bottom - 90:
                break
