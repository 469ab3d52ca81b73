"""Small scenes over the table: a question with buttons, the players' dice, a file name, the hand-off screen.

Each one is modal: it takes every event until it closes, then calls back with the answer (or ``None`` when the
player backs out, which changes nothing).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Sequence

import pygame
import pygame_gui

from ...i18n import _
from .. import theme
from ..gui_managers import give_back
from ..scene import Scene
from ..widgets import draw_text, gui_manager, line_height, panel, shade, wrap

if TYPE_CHECKING:
    from ...game.battle.dice import RollRequest

BOX_W = 560
BUTTON_H = 38
# A dialog that guards a secret takes no key in its first moments on the screen: a key pressed before it appeared
# (queued while a slow action resolved) reaches it only in that time.
ARM_MS = 250


AVOID_MARGIN = 36            # pixels kept clear around a point the box must not cover (a piece and its ring)


def clear_of(box: pygame.Rect, points: Sequence[tuple[int, int]], size: tuple[int, int]) -> pygame.Rect:
    """``box`` moved to the first place that covers none of ``points`` (with a margin): the middle, then the right
    (where the panel is), the bottom and top, the left; where every place covers one, the place covering fewest."""
    w, wh = size
    pad = 10
    xs = {"mid": w // 2 - box.w // 2, "left": pad, "right": w - box.w - pad}
    ys = {"mid": wh // 2 - box.h // 2, "top": pad, "bottom": wh - box.h - pad}
    # The right first after the middle: the window's panel is there, beside the table, not on it.
    order = [("mid", "mid"), ("right", "mid"), ("right", "bottom"), ("right", "top"), ("mid", "bottom"),
             ("mid", "top"), ("left", "mid"), ("left", "bottom"), ("left", "top")]
    best: tuple[int, pygame.Rect] | None = None
    for x_at, y_at in order:
        place = pygame.Rect(xs[x_at], ys[y_at], box.w, box.h)
        covered = sum(1 for p in points if place.inflate(2 * AVOID_MARGIN, 2 * AVOID_MARGIN).collidepoint(p))
        if best is None or covered < best[0]:
            best = (covered, place)
        if covered == 0:
            break
    return best[1] if best is not None else box


class Dialog(Scene):
    """A box in the middle of the window with text lines above a row (or grid) of buttons."""

    overlay = True
    opaque = False           # the hand-off screen hides everything below it
    # A dialog that guards a secret (a hand-off, a consent, a question behind a hand-off) acts only on a key pressed
    # while it is on the screen: never on a held key's repeats, nor on a key pressed before it appeared.
    guards_keys = False

    def __init__(self, title: str, lines: Sequence[str] = (), buttons: Sequence[tuple[str, str]] = (),
                 on_close: Callable[[str | None], None] | None = None, columns: int = 0, width: int = BOX_W,
                 avoid: Callable[[], Sequence[tuple[int, int]]] | None = None) -> None:
        super().__init__()
        # Screen points the box must not cover (the pieces an instruction names), asked again at each layout.
        self.avoid = avoid
        self.heading = title
        self.lines = [str(s) for s in lines]
        self.choices = list(buttons)
        self.on_close = on_close
        self.columns = columns or min(len(self.choices), 4) or 1
        self.width = width
        self.manager: pygame_gui.UIManager | None = None
        self.buttons: dict[object, str] = {}
        self.box = pygame.Rect(0, 0, width, 200)
        self.error = ""
        self.closed = False
        self.shown_at: int | None = None         # when it was first drawn (pygame ticks)
        self.stale_keys: set[int] = set()        # keys already down when it appeared, until they are released
        self.keys_down: set[int] = set()         # keys pressed while it was shown, until they are released
        self.text_fresh = False

    # ---- layout -------------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.shown_at = None
        self.stale_keys = set(getattr(self.app, "held_keys", ()))
        self.keys_down = set()
        self._build(self.size)

    def on_resize(self, size) -> None:
        self._build(size)

    def text_lines(self) -> list[str]:
        out: list[str] = []
        for line in self.lines:
            out.extend(wrap(line, self.width - 48, 15) or [""])
        return out

    def extra_height(self) -> int:
        """Room for widgets a subclass puts between the text and the buttons."""
        return 0

    def _build(self, size) -> None:
        self.manager = gui_manager(self.manager, size)
        rows = (len(self.choices) + self.columns - 1) // self.columns
        text_h = 64 + line_height(15) * len(self.text_lines()) + 12
        h = text_h + self.extra_height() + rows * (BUTTON_H + 8) + 24
        w, wh = size
        self.box = pygame.Rect(0, 0, min(self.width, w - 20), min(h, wh - 20))
        self.box.center = (w // 2, wh // 2)
        if self.avoid is not None:
            self.box = clear_of(self.box, list(self.avoid()), (w, wh))
        self.buttons = {}
        gap = 8
        bw = (self.box.w - 48 - gap * (self.columns - 1)) // self.columns
        top = self.box.y + text_h + self.extra_height()
        for i, (key, label) in enumerate(self.choices):
            r, c = divmod(i, self.columns)
            rect = pygame.Rect(self.box.x + 24 + c * (bw + gap), top + r * (BUTTON_H + gap), bw, BUTTON_H)
            self.buttons[pygame_gui.elements.UIButton(rect, label, self.manager)] = key
        self.build_widgets(pygame.Rect(self.box.x + 24, self.box.y + text_h, self.box.w - 48, self.extra_height()))

    def build_widgets(self, area: pygame.Rect) -> None:
        """Subclasses add their own widgets in ``area``."""

    def on_exit(self) -> None:
        give_back(self.manager)          # the next dialog lays its widgets out in it
        self.manager = None

    # ---- answers ------------------------------------------------------------------------------------------------
    def close(self, answer: str | None) -> None:
        if self.closed:
            return
        self.closed = True
        if self.app is not None and self.app.scene is self:
            self.app.pop()
        if self.on_close is not None:
            self.on_close(answer)

    def choose(self, key: str) -> None:
        self.close(key)

    def fresh_key(self, event: pygame.event.Event) -> bool:
        """Is this a key the player pressed while the dialog was on the screen? A key held down when it appeared
        (and its repeats) counts only once it was released and pressed again; a key pressed in its first moments
        (``ARM_MS``) was pressed before the player could see it."""
        key: int = getattr(event, "key", -1)
        if event.type == pygame.KEYUP:
            self.stale_keys.discard(key)
            self.keys_down.discard(key)
            return False
        if event.type != pygame.KEYDOWN:
            return self.text_fresh          # the text a key types goes with that key
        self.text_fresh = False
        if not self.armed():
            self.stale_keys.add(key)
            return False
        if key in self.stale_keys or key in self.keys_down:
            return False                 # a repeat of a key held down
        self.keys_down.add(key)
        self.text_fresh = True
        return True

    def armed(self) -> bool:
        return self.shown_at is not None and pygame.time.get_ticks() - self.shown_at >= ARM_MS

    def handle_event(self, event: pygame.event.Event) -> bool:
        if (self.guards_keys and event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT)
                and not self.fresh_key(event)):
            return True
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.choose(self.buttons[event.ui_element])
            return True
        if event.type == pygame.KEYDOWN:
            return self.key(event)
        return True           # modal: nothing reaches the scenes below

    def key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.close(None)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and len(self.choices) == 1:
            self.choose(self.choices[0][0])
        return True

    # ---- the loop -----------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        if self.shown_at is None:
            self.shown_at = pygame.time.get_ticks()
        if self.opaque:
            surface.fill(theme.BACKGROUND)
        else:
            shade(surface, (10, 12, 16, 170))
        panel(surface, self.box, theme.PANEL, theme.ACCENT, 8)
        draw_text(surface, self.heading, (self.box.x + 24, self.box.y + 18), 20, True, theme.TEXT)
        y = self.box.y + 58
        for line in self.text_lines():
            draw_text(surface, line, (self.box.x + 24, y), 15, False, theme.TEXT_DIM)
            y += line_height(15)
        if self.error:
            draw_text(surface, self.error, (self.box.x + 24, self.box.bottom - 22), 14, False, theme.ERROR, "midleft")
        if self.manager is not None:
            self.manager.draw_ui(surface)


class DiceDialog(Dialog):
    """The players roll a physical die and enter its face (or, for a deviation, the bearing they measured)."""

    def __init__(self, request: RollRequest, on_close: Callable[[float | None], None], context: str = "",
                 may_roll: bool = False) -> None:
        self.request = request
        lines = [request.describe()]
        if context:
            lines.insert(0, context)
        if request.kind == "d6":
            if request.die == "red":
                lines.append(_("Roll the Red Die and click its face, or type 1 to 6. Each face has a chance of 1 in 6."))
            else:
                lines.append(_("Roll a die and click its face, or type 1 to 6. Each face has a chance of 1 in 6."))
            buttons = [(str(f), str(f)) for f in range(1, 7)]
        elif request.kind == "bearing":
            lines.append(_("Measure on the table the direction from the Red Die to the other die: degrees "
                           "counter-clockwise from +x (along side A's edge, to the right), 0 to 360. Type it and "
                           "press Enter."))
            buttons = [("ok", _("Use this bearing"))]
        else:
            lines.append(_("Choose one:"))
            buttons = [(str(i), label) for i, label in enumerate(request.options)]
        if may_roll and request.kind in ("d6", "bearing"):
            buttons.append(("roll", _("Roll for me")))      # a lost die: the program rolls this one, and says so
        buttons.append(("cancel", _("Cancel")))
        # A long label (a deviation's bearing says how to measure it) is written in full in the text below: the
        # heading keeps its first words, so it fits the box.
        heading = request.label if len(request.label) <= 44 else request.label.split(":")[0]
        super().__init__(_("Roll: {what}").format(what=heading), lines, buttons, None, columns=6 if request.kind == "d6" else 2,
                         width=620)
        self.answered = on_close
        self.entry: pygame_gui.elements.UITextEntryLine | None = None

    def extra_height(self) -> int:
        return 46 if self.request.kind == "bearing" else 0

    def build_widgets(self, area: pygame.Rect) -> None:
        if self.request.kind == "bearing":
            self.entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(area.x, area.y, 200, 36), self.manager)
            self.entry.focus()

    def choose(self, key: str) -> None:
        if key == "cancel":
            self.close(None)
            self.answered(None)
            return
        if key == "roll":
            r = random.SystemRandom()
            key = str(r.randint(1, 6)) if self.request.kind == "d6" else f"{r.uniform(0, 360):.0f}"
        raw = self.entry.get_text().strip() if key == "ok" and self.entry is not None else key
        # lazy: the dice module (its sources and requests) is for a battle's dialogs, not the table's first frame
        from ...game.battle.dice import check_face

        try:
            value = check_face(float(raw) if self.request.kind == "bearing" else int(raw), self.request)
        except (ValueError, TypeError) as e:
            self.error = str(e) if str(e) else _("expected a number (got {raw!r})").format(raw=raw)
            return
        self.close(None)
        self.answered(value)

    def key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.choose("cancel")
        elif self.request.kind == "d6" and event.unicode in "123456" and event.unicode:
            self.choose(event.unicode)
        elif self.request.kind == "d6" and event.unicode.isprintable() and event.unicode.strip():
            # A mistyped face is refused aloud, never taken as another die nor silently dropped.
            self.error = f"{event.unicode!r} is not a face of a die: type 1 to 6, or click the face"
        elif self.request.kind == "bearing" and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.choose("ok")
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.choose("ok")
            return True
        return super().handle_event(event)


class TextDialog(Dialog):
    """One line of text, e.g. a file name to save under."""

    def __init__(self, title: str, lines: Sequence[str], initial: str, on_close: Callable[[str | None], object],
                 ok: str = "OK", check: Callable[[str], str] | None = None) -> None:
        super().__init__(title, lines, [("ok", _(ok)), ("cancel", _("Cancel"))], None, columns=2)
        self.initial = initial
        self.answered = on_close
        # ``check``: why the text typed would be refused ("" when it is fine). A refused entry keeps the dialog
        # open with the reason, so the line is corrected, not typed again.
        self.check = check
        self.entry: pygame_gui.elements.UITextEntryLine | None = None

    def extra_height(self) -> int:
        return 46

    def build_widgets(self, area: pygame.Rect) -> None:
        self.entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(area.x, area.y, area.w, 36), self.manager)
        self.entry.set_text(self.initial)
        self.entry.focus()

    def choose(self, key: str) -> None:
        text = self.entry.get_text().strip() if self.entry is not None else self.initial
        if key == "ok" and text and self.check is not None:
            self.error = self.check(text)
            if self.error:
                return
        self.close(None)
        self.answered(text if key == "ok" and text else None)

    def key(self, event) -> bool:
        if event.key == pygame.K_ESCAPE:
            self.choose("cancel")
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.choose("ok")
            return True
        return super().handle_event(event)


class HandoffScreen(Dialog):
    """Hot-seat: the screen goes dark between players, so nothing of one side stays in view for the other."""

    overlay = False           # the table below is not drawn at all, not merely covered
    opaque = True
    guards_keys = True

    def __init__(self, side: str, lines: Sequence[str], on_close: Callable[[str | None], None]) -> None:
        super().__init__(_("Pass the screen to the player of side {side}").format(side=side),
                         list(lines) + [_("Player of side {side}: click the button or press Enter when the other "
                                          "player is not looking.").format(side=side)],
                         [("ready", _("I am side {side}: show my view").format(side=side))], on_close, columns=1)
        self.side = side

    def key(self, event) -> bool:
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.choose("ready")
        return True           # Escape does not uncover the table: only the next player opens it


class TurnOverScreen(HandoffScreen):
    """Hot-seat: the turn ended by itself after the player's action (the last extra blip move, the last activation's
    last action); the player reads what it did, on their own view, before the screen is hidden and passed on."""

    overlay = True            # the player's own view stays under it: what the action did is on the table
    opaque = False

    def __init__(self, side: str, lines: Sequence[str], on_close: Callable[[str | None], None]) -> None:
        super().__init__(side, lines, on_close)
        self.heading = "Your turn is over"
        self.lines = list(lines)
        self.choices = [("ready", f"Hide my view: pass the screen to side {side}")]


class ConsentScreen(Dialog):
    """Hot-seat: the other player is asked to agree to a take-back; the table stays hidden while they answer."""

    overlay = False
    opaque = True
    guards_keys = True

    def __init__(self, side: str, lines: Sequence[str], on_close: Callable[[str | None], None],
                 title: str = "", labels: tuple[str, str] | None = None) -> None:
        labels = labels or (_("Agree: take it back"), _("Refuse"))
        super().__init__(title or _("Side {side}: agree to a take-back?").format(side=side), list(lines),
                         [("allow", labels[0]), ("refuse", labels[1])], on_close, columns=2)
        self.side = side
