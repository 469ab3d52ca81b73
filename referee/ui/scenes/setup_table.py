"""Set-up on the table: each player makes their set-up decisions in turn (p.~14-15, A55, A60).

The scene shows the table as the deciding player may see it (``player_view``) and offers the decision set-up waits
for: the roll for roles, the defender's edge, objectives and blips placed by clicking inside the zone the engine's
legal actions give (drawn on the table), the cards, the holding area. Every refusal is the engine's, with its rule
and the distance that fails; every step has a "for me" button, which leaves the choice to the engine's draw. A
hand-off screen hides the table whenever the decision passes to the other player. When the last blip is down the
battle scene takes over.
"""

from __future__ import annotations

import random

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import pygame
import pygame_gui

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action, LegalAction
from ...game.views.view_types import PlayerView
from .. import hosting, seat, theme
from ...service.session import BattleSession, Pending
from ..keys import PLAIN, Key, KeyTable
from ..table_data import table_from_view
from ..widgets import BUTTON_FONT, BUTTON_MARGIN, Block, Text, line_height, text_width, wrap
from . import setup_drawing
from .dialogs import DiceDialog, HandoffScreen
from .setup_cards import SetupCards
from .setup_drawing import BANNER_H, STEP_HELP, STEP_TITLES
from .table import TableScene
from .table_common import LOOKING, TOOLS, Layout, layout_for, layout_with_bar

if TYPE_CHECKING:
    from .battle import BattleScene

SETUP_KEYS: KeyTable = (
    ("Set-up", (Key("U", "turn the table: each player's own edge at the bottom", "turn_table_key", (pygame.K_u,),
                    PLAIN),
                Key("W", "phones and remote play: serve the battle, a QR code per seat", "phones", (pygame.K_w,),
                    PLAIN))),
    LOOKING, TOOLS)

ROW_H = 32
PAD = 12
BAR_COLUMNS, BAR_GAP = 3, 6
SQUARE_DRAW = random.SystemRandom()
COMPUTER_SETUP_PACE = 0.5    # seconds before each of the computer's set-up decisions, so the human sees each one


class SetupTableScene(TableScene):
    title = "Set-up"
    banner_h = BANNER_H
    key_table = SETUP_KEYS
    _gui_for: tuple[tuple[int, int], list[tuple[str, str]]] | None = None     # the size and choices built for

    def __init__(self, session: BattleSession) -> None:
        self.session = session
        self.cards = SetupCards(self)
        super().__init__(table_from_view(session.view()))
        self.bar = pygame.Rect(0, 0, 0, 0)
        self.bar_buttons: dict[pygame_gui.elements.UIButton, str] = {}
        self.message = ""                 # the engine's last refusal, or what just happened
        self.square = 0                   # the square the next blip stands for (the owner's choice)
        self.handing_off = False
        self._hover: tuple[tuple[float, float], str] | None = None   # a placement under the mouse, and the engine's word
        # U: side B's player sees the table turned, its edge down (drawing only), as the players last chose.
        self.own_edge_down = seat.own_edge_down()
        self.computer_wait: float | None = None     # seconds waited before the computer's next set-up decision
        self.show_log()

    # ---- what set-up waits for -------------------------------------------------------------------------------------
    def view_now(self) -> PlayerView:
        """The viewer's player view now (the service makes it once per state and viewer; it is read every frame)."""
        return self.session.view()

    def decision(self) -> Mapping[str, Any]:
        """What set-up waits for (the view's ``setup``), empty once it is complete."""
        setup = self.view_now().get("setup")
        return setup if setup is not None else {}

    def legal(self) -> list[LegalAction]:
        return self.session.legal_actions()

    def zone(self) -> dict | None:
        """The zone of the placement due, as the engine's legal actions give it."""
        for a in self.legal():
            if a.kind in (Kind.PLACE_OBJECTIVE, Kind.PLACE_BLIP):
                zone: dict = a.free["x, y"]
                return zone
        return None

    def squares_left(self) -> list[int]:
        for a in self.legal():
            if a.kind == Kind.PLACE_BLIP:
                return list(a.free["square"])
        return []

    def computer_deciding(self) -> bool:
        """The computer's set-up decision is due: the human's buttons and clicks wait for it."""
        return self.session.computer is not None and self.session.computer_to_act()

    def step_title(self, d: Mapping[str, Any]) -> str:
        """The decision due, in words: "Place your blips", or "Place its blips" while the computer decides."""
        title = STEP_TITLES[str(d.get("step"))].format(objective=d.get("objective"))
        return title.replace("your ", "its ") if self.computer_deciding() else title

    def choices(self) -> list[tuple[str, str]]:
        if self.computer_deciding():
            return []
        step = self.decision().get("step")
        if step == "roles":
            return [("roll", "Roll the dice")]
        if step == "edge":
            return [("keep", "Keep this edge"), ("turn", "Take the far edge"), ("for-me", "Choose for me")]
        if step == "objective":
            return [("for-me", "Place it for me")]
        if step == "cards":
            return [("draw", "Draw my cards")]
        if step == "choose-cards":
            return [("choose", "Choose my cards"), ("for-me", "Choose for me")]
        if step == "holding":
            return [("arrange", "Arrange the squares"), ("for-me", "Fill it for me")]
        if step == "blip":
            return [("square", "Next square"), ("for-me", "This one for me"), ("rest", "The rest for me")]
        return []

    # ---- layout ----------------------------------------------------------------------------------------------------
    def lay_out(self, size: tuple[int, int]) -> Layout:
        cols = self.bar_columns(layout_for(size).panel.w)
        self.bar, layout = layout_with_bar(size, max(1, -(-len(self.choices()) // cols)), ROW_H)
        return layout

    def bar_columns(self, width: int) -> int:
        """Up to three buttons a row, fewer when a label would not fit its button ("Arrange the squares")."""
        labels = [label for _key, label in self.choices()]
        cols = max(1, min(BAR_COLUMNS, len(labels)))
        while cols > 1 and max(text_width(t, BUTTON_FONT, True) for t in labels) + BUTTON_MARGIN > \
                self.bar_button_width(width, cols):
            cols -= 1
        return cols

    @staticmethod
    def bar_button_width(width: int, cols: int) -> int:
        return (width - 2 * PAD - BAR_GAP * (cols - 1)) // cols

    def _build_gui(self, size) -> None:
        super()._build_gui(size)
        self.bar_buttons = {}             # gone with the rest of the manager's elements
        self._build_bar(size)

    def _build_bar(self, size) -> None:
        """The bar's buttons for the choices of the decision due (those of the last decision put away)."""
        for button in self.bar_buttons:
            button.kill()
        self.bar_buttons = {}
        choices = self.choices()
        self._gui_for = (size, choices)
        gap, cols = BAR_GAP, self.bar_columns(self.bar.w)
        bw = self.bar_button_width(self.bar.w, cols)
        for i, (key, label) in enumerate(choices):
            r, c = divmod(i, cols)
            rect = pygame.Rect(self.bar.x + PAD + c * (bw + gap), self.bar.y + 6 + r * (ROW_H + 4), bw, ROW_H)
            self.bar_buttons[pygame_gui.elements.UIButton(rect, label, self.manager)] = key

    def _relayout_panel(self) -> None:
        self.panel_blocks = self.decision_blocks(self.layout.panel.w)
        self._clamp_panel_scroll()

    def decision_blocks(self, width: int) -> list[Block]:
        d = self.decision()
        items: list = []
        y = 8
        step = d.get("step")
        if step is None:
            return [Block(None, 0, 40, (Text(PAD, 8, "Set-up is complete", 15, True, theme.ACCENT),), theme.PANEL)]
        title = self.step_title(d)
        who = "The computer (side {side})" if self.computer_deciding() else "Side {side}"
        # The heading wraps in a narrow panel (800 x 560) rather than run past its edge.
        for part in wrap(f"{who.format(side=d['side'])}: {title}", width - 2 * PAD, 16, True):
            items.append(Text(PAD, y, part, 16, True, theme.SIDE_COLOURS.get(d["side"], theme.TEXT)))
            y += line_height(16)
        y += 26 - line_height(16)
        lines = [STEP_HELP[step]]
        if self.computer_deciding():
            lines = ["The computer decides from what its side may see; you see what it places, one decision at a time."]
            step = None
        if step == "blip":
            left = d.get("blips_to_place", {}).get(d["side"], 0)
            lines.append(f"{left} blip{'s' if left != 1 else ''} to place now or later.")
            square = self.current_square()
            if square:
                lines.append(f"This counter stands for square {square}: {self.square_text(square)} (only you see "
                             f"this).")
        if step == "holding":
            issued = (d.get("issued") or {}).get(d["side"]) or []
            lines.append("Your units: " + ", ".join(u["id"] for u in issued))
        y = self.note_items(items, y, width, lines)
        return [Block(None, 0, y + 10, tuple(items), theme.PANEL)]

    def note_items(self, items: list, y: int, width: int, lines: list[str]) -> int:
        """``lines`` in the panel's dim text, then the message of the last decision sent (a refusal in red); the
        height reached."""
        for line in lines:
            for part in wrap(line, width - 2 * PAD, 14):
                items.append(Text(PAD, y, part, 14, False, theme.TEXT_DIM))
                y += line_height(14)
            y += 4
        if self.message:
            for part in wrap(self.message, width - 2 * PAD, 14, True):
                items.append(Text(PAD, y, part, 14, True, theme.ERROR if "not" in self.message else theme.TEXT))
                y += line_height(14)
        return y

    def current_square(self) -> int:
        left = self.squares_left()
        if not left:
            return 0
        if self.square not in left:
            # A square drawn at random, not the lowest free one: the order the counters go down in tells the
            # opponent nothing of which square each stands for (A59).
            self.square = SQUARE_DRAW.choice(left)
        return self.square

    def square_text(self, square: int) -> str:
        view = self.view_now()
        holding = (view.get("holding") or {}).get(self.session.viewer) or {}
        contents = holding.get(str(square))
        if contents is None:
            return "not recorded"
        return ", ".join(f"{c['id']} ({c['type']})" for c in contents) or "a decoy"

    def show_log(self) -> None:
        view = self.view_now()
        lines = []
        for e in view["log"]:
            line = e["text"] + (f"  (only you: {e['note']})" if e.get("note") else "")
            lines.append(line)
        self.set_log(f"Set-up log (side {self.session.viewer})", lines or ["set-up begins"])
        self.log_scroll = max(0, len(self.log_wrapped) - self._log_visible_lines())

    def refresh(self) -> None:
        self.face_viewer(self.session.viewer)
        self.table = table_from_view(self.view_now())
        # The picture of the cloth, terrain and grid is kept: its key holds the terrain's pieces, so it is drawn
        # again only when the table was turned (not after every objective and blip).
        self._hover = None
        if self.app is None:
            self._relayout_panel()
        elif self._gui_for is None or self._gui_for[0] != self.size or self.lay_out(self.size) != self.layout:
            self.on_resize(self.size)
        else:
            # The same screen laid out the same: only the bar's buttons are built again, and only when the choices
            # changed (building every button anew after each decision cost a set-up against the computer more than
            # its decisions).
            if self._gui_for[1] != self.choices():
                self._build_bar(self.size)
            if self.fitted:
                self.fit()
            self._sync_buttons()
            self._relayout_panel()
        self.show_log()

    # ---- the players' decisions ---------------------------------------------------------------------------------------
    def begin(self, hand_off: bool = False) -> None:
        """Show the first decision, behind a hand-off when it is the other player's (always, for a battle loaded
        from a save: whoever sits at the screen, the table is shown to the player who decides)."""
        side = self.session.to_act()
        if hand_off and side is not None and self.view_now()["phase"] == "setup" and self.session.computer is None:
            self.hand_off(side)
            return
        self.next_step()

    def next_step(self) -> None:
        s = self.session
        if self.view_now()["phase"] != "setup":
            self.open_battle()
            return
        if s.computer_to_act():
            if self.app is None:
                self.computer_step()
            else:
                self.computer_wait = 0.0       # ``update`` takes its decision after a pause the human can follow
                self.refresh()
            return
        side = s.to_act()
        if side is not None and side != s.viewer and s.hotseat and s.computer is None:
            self.hand_off(side)
            return
        self.refresh()

    def computer_step(self) -> None:
        """The computer's set-up decision, from its own player view and legal actions; the human keeps the
        screen. A decision the engine refuses is left to the program's draw instead."""
        decided = self.session.computer_act()
        if decided is None:
            self.refresh()
            return
        action, _reason = decided          # its reason is kept by the service, listed once after the battle
        attempt = self.session.attempt(action)
        if attempt.pending is not None:
            self.ask_die(attempt.pending)
            return
        if attempt.outcome is None or not attempt.outcome.legal:
            if not self.for_me():
                self.message = f"the computer's set-up decision was refused: {attempt.outcome.reason if attempt.outcome else ''}"
                self.refresh()
            return
        self.next_step()

    def hand_off(self, side: str) -> None:
        if self.app is None:
            self.session.hand_to(side)
            self.refresh()
            return
        d = self.decision()
        what = STEP_TITLES.get(d.get("step") or "", "decide").format(objective=d.get("objective"))
        self.handing_off = True

        def ready(_answer) -> None:
            self.handing_off = False
            self.session.hand_to(side)
            self.refresh()

        self.app.push(HandoffScreen(side, [f"Set-up, side {side}: {what.lower()}."], ready))

    def open_battle(self) -> None:
        if self.app is None:
            return
        # The players' choice of U carries on into the battle.
        scene = cast("BattleScene", self.replace_scene("battle", self.session, own_edge_down=self.own_edge_down))
        if self.session.computer is not None:
            scene.next_step()               # no hand-off against the computer: the human keeps the screen
            return
        scene.hand_off(self.session.to_act() or self.session.viewer)

    def do(self, action: Action, given: list[float] | None = None) -> bool:
        """The engine resolves the decision; physical dice are asked for one by one; a refusal is shown with its
        rule. True when the action was taken."""
        attempt = self.session.attempt(action, given)
        if attempt.pending is not None:
            self.ask_die(attempt.pending)
            return False
        outcome = attempt.outcome
        if outcome is None or not outcome.legal:
            self.message = f"not allowed: {outcome.reason if outcome else 'no answer'}"
            self._relayout_panel()
            return False
        self.message = ""
        self.after(action)
        return True

    def ask_die(self, pending: Pending) -> None:
        if self.app is None:
            raise RuntimeError(f"a die is needed: {pending.request.describe()}")

        def answered(value) -> None:
            if value is None:
                self.message = "cancelled: no die was used, nothing changed"
                self._relayout_panel()
                return
            self.do(pending.action, pending.given + [value])

        self.app.push(DiceDialog(pending.request, answered, f"Set-up: die {len(pending.given) + 1}"))

    def after(self, action: Action) -> None:
        if action.kind in (Kind.DRAW_CARDS, Kind.CHOOSE_CARDS) and action.actor == self.session.viewer \
                and self.view_now()["phase"] == "setup" and self.decision().get("step") != "choose-cards":
            self.cards.show_cards(then=self.next_step)
            return
        self.next_step()

    def press(self, key: str) -> None:
        side = str(self.decision().get("side") or "")
        if not side or self.computer_deciding():
            return
        if key == "roll":
            self.do(Action(Kind.ROLL_ROLES))
        elif key in ("keep", "turn"):
            self.do(Action(Kind.CHOOSE_EDGE, side, {"turn": key == "turn"}))
        elif key == "draw":
            self.do(Action(Kind.DRAW_CARDS, side))
        elif key == "choose":
            self.cards.choose_cards()
        elif key == "arrange":
            self.cards.arrange_holding()
        elif key == "square":
            left = self.squares_left()
            if left:
                now = self.current_square()
                self.square = left[(left.index(now) + 1) % len(left)]
                self._relayout_panel()
        elif key == "rest":
            self.do(Action(Kind.PLACE_BLIPS, side))
        elif key == "for-me":
            self.for_me()

    def for_me(self) -> bool:
        """The decision due, left to the program (a draw, seeded and recorded)."""
        d = self.decision()
        side, step = str(d.get("side") or ""), d.get("step")
        kinds = {"roles": Kind.ROLL_ROLES, "edge": Kind.CHOOSE_EDGE, "objective": Kind.PLACE_OBJECTIVE, "cards": Kind.DRAW_CARDS,
                 "choose-cards": Kind.CHOOSE_CARDS, "holding": Kind.FILL_HOLDING, "blip": Kind.PLACE_BLIP}
        if step is None or self.computer_deciding():
            return False
        return self.do(Action(kinds[step], "" if step == "roles" else side))

    def place_at(self, x: float, y: float) -> bool:
        if self.computer_deciding():
            return False
        d = self.decision()
        side, step = str(d.get("side") or ""), d.get("step")
        if step == "objective":
            return self.do(Action(Kind.PLACE_OBJECTIVE, side, {"objective": d["objective"], "x": round(x, 2),
                                                            "y": round(y, 2)}))
        if step == "blip":
            return self.do(Action(Kind.PLACE_BLIP, side, {"x": round(x, 2), "y": round(y, 2),
                                                       "square": self.current_square()}))
        return False

    def placement_word(self, x: float, y: float) -> str:
        """The engine's word on a placement here: "" when legal, else the rule that forbids it."""
        d = self.decision()
        side, step = str(d.get("side") or ""), d.get("step")
        if step == "objective":
            action = Action(Kind.PLACE_OBJECTIVE, side, {"x": round(x, 2), "y": round(y, 2)})
        elif step == "blip":
            action = Action(Kind.PLACE_BLIP, side, {"x": round(x, 2), "y": round(y, 2), "square": self.current_square()})
        else:
            return ""
        p = self.session.preview(action)
        return "" if p.legal else p.reason

    # ---- cards and the holding area ---------------------------------------------------------------------------------

    def phones(self) -> None:
        """W: serve this battle to phones; the window becomes the shared table, set-up goes on there (``hosting``)."""
        if self.app is None:
            return
        if self.session.computer is not None:
            # The computer's set-up decisions are taken at this screen, beside the player's: served once it begins.
            self.message = ("against the computer, set-up is played at this screen: press W once the battle has "
                            "begun to serve it to phones and other computers")
            self._relayout_panel()
            return
        why = hosting.serve(self.app, self.session)
        if isinstance(why, str):
            self.message = why
            self._relayout_panel()

    def leave(self) -> None:
        """Back to the menu (every decision is autosaved; a campaign battle's own save is brought up to date)."""
        self.session.save_campaign_battle()
        super().leave()

    # ---- events ----------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.bar_buttons:
            self.press(self.bar_buttons[event.ui_element])
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.on_table(event.pos) \
                and self.decision().get("step") in ("objective", "blip") and self.tool == "select":
            self.place_at(*self.table_point(event.pos))
            return True
        return super().handle_event(event)

    def turn_table_key(self) -> None:
        self.own_edge_down = not self.own_edge_down
        seat.remember_own_edge_down(self.own_edge_down)
        self.face_viewer(self.session.viewer)

    def _motion(self, event) -> bool:
        used = super()._motion(event)
        if self.on_table(event.pos) and self.decision().get("step") in ("objective", "blip") \
                and not self.computer_deciding():
            x, y = self.table_point(event.pos)
            point = (round(x, 1), round(y, 1))
            if self._hover is None or self._hover[0] != point:
                self._hover = (point, self.placement_word(*point))
        else:
            self._hover = None
        return used

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.computer_wait is None or self.app is None or self.app.stack.top is not self:
            return
        self.computer_wait += dt
        if self.computer_wait >= COMPUTER_SETUP_PACE:
            self.computer_wait = None
            self.computer_step()

    # ---- drawing ---------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        setup_drawing.draw_over_table(self, surface)

    def _draw_tooltip(self, surface) -> None:
        if self._hover is None:                 # the placement's own word replaces the table's hover text
            super()._draw_tooltip(surface)

