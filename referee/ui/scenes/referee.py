"""The referee mode: a physical game fought on a real table, followed in the window.

It is the battle scene (same action bar, previews, odds and explanations) driven by a ``RefereeSession``: every die
is typed in from the players' own dice (or rolled by the program when asked), there is no hand-off screen, and
the screen follows the side to act. Blips are anonymous counters; when the engine reveals one, its owner types what
it holds. When the table drifts, **Correct** (U) sets the selected piece as it now stands (position, facing,
counters, Damaged, Stunned), removes it, or adds a piece the program never saw; each correction is logged.
Terrain drifts too: click a terrain piece to choose it, drag it to where it stands, Correct (U) moves or turns it by
typed amounts, Delete lifts it off; "+ Smoke" and "+ Crater" put a new piece at a click.
"""

from __future__ import annotations

import pygame

from ...rules.errors import InputError
from ...rules.rulings import Rulings
from .. import drawing, theme
from ...service.session import Attempt
from ..editing import faction_ids
from ..keys import PLAIN, Gesture, Key, KeyTable, without
from ...service.referee import NeedsContents, RefereeSession, parse_contents, parse_terrain_correction
from .battle import ACTIONS, BattleScene
from .battle_keys import BATTLE_KEYS
from .bearing import dice_dialog
from .dialogs import Dialog, TextDialog
from .referee_corrections import PieceCorrections
from .referee_computer import TableComputerTurns
from .referee_missions import MissionEntry
from .table_common import JUMP, MOVE, SELECT

DRAG_PIXELS = 5            # a press and release further apart than this is a drag, not a click

SMOKE_AT, CRATER_AT = "smoke-at", "crater-at"
SMOKE_ACROSS = 5.0         # inches, as a flamer lays it [p.22]
CRATER_ACROSS = 3.0        # inches, A33 A's default when the rulings give no size
SIZE_NOTE = {"smoke": "a flamer lays 5 inches [p.22]", "crater": "a crater is 3 inches unless the rulings say "
                                                                  "otherwise [A33]"}

REFEREE_ACTIONS = tuple(a for a in ACTIONS if a[0] != "holding") + (
    ("correct", "Correct", "U: the table drifted: set the selected piece or terrain as it stands, remove it, or add "
                           "a piece"),
    ("add-smoke", "+ Smoke", "add smoke on the table the program did not lay: click its centre"),
    ("add-crater", "+ Crater", "add a crater on the table the program did not blow: click its centre"),
    ("photo", "Photo", "W: read the table from a photo (a file or the webcam) and accept what changed as the active "
                       "unit's Move or as corrections"),
    ("mission", "Missions", "a player enters their mission card (and troop and drone cards) so the program scores "
                            "the battle; it stays secret until the end"),
    ("phones", "Phones", "serve this physical game to phones: each side enters its mission card and what its blips "
                         "hold on its own hand, and this window becomes the shared table"),
)
REFEREE = ("Referee mode", (
    Key("U", "correct the selected piece (nothing selected: add a unit)", "correct_key", (pygame.K_u,), PLAIN),
    Key("W", "read the table from a photo...", "photo_key", (pygame.K_w,), PLAIN),
    Gesture("Drag a piece", "knocked: set where dropped"),
    Gesture("Click terrain", "choose it: drag it, U, or Delete"),
    Key("Delete / Backspace", "lift the chosen terrain off", "remove_chosen_terrain",
        (pygame.K_DELETE, pygame.K_BACKSPACE)),
    Key("Esc", "drop the chosen terrain, or the + Smoke / + Crater click", "referee_escape", (pygame.K_ESCAPE,)),
    Gesture("+ Smoke / + Crater", "then click its centre"),
    Gesture("Dice", "type each face; or 'Roll for me'"),
    Gesture("Reveal", "the owner types what it holds"),
    Gesture("Missions", "enter yours to have it scored"),
))
# The battle's keys but U (Correct here) and O (the holding areas stay on the mats), after the referee's own.
REFEREE_KEYS: KeyTable = (REFEREE, *without(BATTLE_KEYS, ("U", "O", "W")))


class RefereeScene(BattleScene):
    title = "Referee"
    actions = REFEREE_ACTIONS
    key_table = REFEREE_KEYS
    tool_titles = {**BattleScene.tool_titles, SMOKE_AT: "Add smoke: click its centre",
                   CRATER_AT: "Add a crater: click its centre"}
    session: RefereeSession
    computer: TableComputerTurns

    def __init__(self, session: RefereeSession, own_edge_down: bool | None = None) -> None:
        super().__init__(session, own_edge_down)
        self.drift: tuple[str, tuple[int, int]] | None = None     # a piece pressed on, and where
        self.chosen_terrain: str | None = None                       # the terrain piece clicked on, if any
        self.terrain_drift: tuple[str, tuple[int, int]] | None = None
        self.corrections = PieceCorrections(self)
        self.missions = MissionEntry(self)
        self.computer = TableComputerTurns(self)
        view = session.view(log=False)
        self.say("Referee mode", [
            f"{view['name']}: round {view['round']}, side {view['initiative']} holds the "
            "Initiative. Select a unit, choose the action, click the target: the numbers and their working come "
            "first, then you type the dice you rolled.",
            "The table drifted? Select the piece, or click the terrain piece, and press Correct (U), or drag it "
            "where it stands.",
            "Missions stay on your mats; press Missions to enter yours if the program should score the battle.",
        ] + ([f"The computer runs side {session.computer.side} ({session.computer.level.name}): on its turns it "
              "tells you what to do with its miniatures; do it, press I've done it, and type the dice you roll "
              "for it. What its blips hold stays hidden from you until they are revealed."]
             if session.computer is not None else []))

    def banner_who(self) -> tuple[str, str]:
        return "Referee", "your dice"

    def log_who(self) -> str:
        # Against the computer the log is the human's side's: the computer's secrets stay out of it.
        return f"side {self.session.viewer}'s view" if self.session.computer is not None else "referee's view"

    # ---- every action: the owner may have to say what a blip holds -------------------------------------------
    def handle(self, attempt, title: str) -> None:
        needs = getattr(attempt, "needs", None)
        if needs is not None:
            self.ask_contents(needs, lambda: self.do(needs.action, title, needs.given))
            return
        super().handle(attempt, title)

    def do(self, action, title: str | None = None, given: list[float] | None = None) -> None:
        self.computer.watch()
        super().do(action, title, given)

    def after_action(self, attempt: Attempt, title: str) -> None:
        self.computer.followed(attempt)
        super().after_action(attempt, title)
        self.computer.tell_changes()

    def ask_die(self, pending, then, context: str = "") -> None:
        if self.app is None:
            raise RuntimeError(f"a die is needed: {pending.request.describe()}")
        note = f"{context}: die {len(pending.given) + 1}" if context else ""
        self.app.push(dice_dialog(pending.request, then, note, may_roll=True, turned=self.view.turned))

    def side_faction(self, side: str) -> str:
        for u in self.session.view(log=False)["units"]:
            if u["side"] == side:
                return u["faction"]
        ids = faction_ids()
        return ids[0] if ids else ""

    def ask_contents(self, needs: NeedsContents, then) -> None:
        faction = self.side_faction(needs.side)
        if self.app is None:
            raise RuntimeError(f"side {needs.side} must say what {needs.blip} holds")

        def closed(text) -> None:
            if text is None:
                self.say(f"{needs.blip}: not revealed", ["nothing changed"])
                return
            self.tell(needs.blip, needs.side, text, then)

        self.app.push(TextDialog(
            f"Side {needs.side}: what does {needs.blip} hold?",
            [f"{needs.blip} is revealed [p.17]. Side {needs.side}, look at its square of your holding area and type "
             "what it holds: up to 2 units as 'rating type' (ratings: reserve, veteran, spec-ops), separated by a "
             f"comma, or 'decoy'. The faction is {faction} unless you add another."],
            "", closed, ok="That is what it holds"))       # empty: the owner types it, nothing is guessed

    def tell(self, blip: str, side: str, text: str, then=None) -> Attempt | None:
        """The owner's typed contents for ``blip``; then the action that needed them goes on."""
        try:
            contents = parse_contents(text, side, self.side_faction(side))
        except (InputError, ValueError) as e:
            self.say(f"{blip}: not understood", [e.message() if isinstance(e, InputError) else str(e),
                                                 "nothing changed; try the action again"])
            return None
        attempt = self.session.tell(blip, contents)
        if not attempt.legal:
            self.after_action(attempt, f"What {blip} holds")
            return attempt
        if then is not None:
            then()
        return attempt

    # ---- the referee's buttons: corrections (``referee_corrections``), missions (``referee_missions``), terrain ----
    def press(self, key: str) -> None:
        if key == "correct":
            if self.chosen_terrain is not None and self.selected is None:
                self.ask_terrain_correction(self.chosen_terrain)
            else:
                self.corrections.ask(self.selected)
            return
        if key == "mission":
            self.missions.ask_side()
            return
        if key == "photo":
            self.push_scene("capture", self)
            return
        if key == "phones":
            self.phones()
            return
        if key in ("add-smoke", "add-crater"):
            kind = "smoke" if key == "add-smoke" else "crater"
            self.clear_tools()
            self.tool = SMOKE_AT if kind == "smoke" else CRATER_AT
            self.say(self.tool_titles[self.tool], [f"Click the centre of the {kind} as it lies on the table; its size "
                                                   "is asked next. Esc cancels."])
            return
        super().press(key)

    def offered(self, key: str) -> bool:
        if key in ("correct", "add-smoke", "add-crater"):
            return True
        if key == "photo":
            return not self.session.over
        if key == "phones":
            return not self.session.over and self.session.computer is None
        if key == "mission":
            return (self.session.view(log=False)["phase"] != "over"
                    and any(not self.session.mission_entered(side) for side in ("A", "B")))
        return super().offered(key)

    # ---- terrain: chosen, dragged, moved or turned by typed amounts, removed, added --------------------------------
    def select(self, piece_id: str | None) -> None:
        if piece_id is not None:
            self.chosen_terrain = None
        super().select(piece_id)

    def take(self, screen) -> None:
        super().take(screen)
        if self.chosen_terrain is not None and self.terrain_feature(self.chosen_terrain) is None:
            self.chosen_terrain = None

    def terrain_feature(self, ident: str):
        return next((f for f in self.table.bf.terrain if f.id == ident), None)

    def choose_terrain(self, ident: str | None) -> None:
        self.chosen_terrain = ident
        if ident is None:
            return
        if self.selected is not None:
            super().select(None)
        f = self.terrain_feature(ident)
        self.say(f"{ident} ({f.ttype.name if f is not None else 'terrain'})", [
            "Drag it to where it stands on the table, press Correct (U) to move or turn it by typed amounts, or "
            "Delete to remove it. Each is a logged correction."])

    def ask_terrain_correction(self, ident: str) -> None:
        if self.app is None:
            return
        self.app.push(TextDialog(
            f"Correct {ident} as it stands on the table",
            ["Type how it drifted: move=DX,DY (inches across and up the table) and/or turn=DEGREES (counter-clockwise "
             "about its centre), or remove. The correction is logged."],
            "move=0,0 turn=0", lambda text: text and self.correct_terrain_from_text(ident, text), ok="Correct"))

    def correct_terrain_from_text(self, ident: str, text: str) -> Attempt | None:
        try:
            changes = parse_terrain_correction(text)
        except InputError as e:
            self.say("Correction not understood", [e.message(), "nothing changed"])
            return None
        if changes.get("remove"):
            attempt = self.session.remove(ident)
        else:
            # "move=0,0" left as offered means no move; only what was typed as a change is sent
            changes = {k: v for k, v in changes.items() if v not in ([0.0, 0.0], 0.0)}
            if not changes:
                self.say(f"Correction of {ident}", ["it neither moved nor turned: nothing changed"])
                return None
            attempt = self.session.correct_terrain(ident, **changes)
        self.after_action(attempt, f"Correction of {ident}")
        return attempt

    def confirm_remove_terrain(self, ident: str) -> None:
        def closed(answer) -> None:
            if answer == "go":
                self.after_action(self.session.remove(ident), f"Correction of {ident}")
            else:
                self.say(f"{ident}: kept", ["nothing changed"])

        if self.app is None:
            closed("go")
            return
        self.app.push(Dialog(f"Remove {ident}?", [
            f"Is {ident} gone from the table (smoke cleared, a piece lifted off)? The correction is logged."],
            [("go", "Remove it"), ("cancel", "Cancel")], closed, columns=2))

    def confirm_terrain_drift(self, ident: str, dx: float, dy: float) -> None:
        def closed(answer) -> None:
            if answer == "go":
                self.after_action(self.session.correct_terrain(ident, move=(dx, dy)), f"Correction of {ident}")
            else:
                self.say(f"{ident}: not moved", ["nothing changed"])

        if self.app is None:
            closed("go")
            return
        self.app.push(Dialog(f"Correct {ident}?", [
            f"Did {ident} shift {dx:+g}\" across and {dy:+g}\" up the table? The correction is logged."],
            [("go", "Correct it"), ("cancel", "Cancel")], closed, columns=2))

    def ask_new_terrain(self, kind: str, x: float, y: float) -> None:
        view = self.session.view(log=False)
        rules, scale = Rulings(dict(view["rulings"])), view["scale"]
        across = SMOKE_ACROSS if kind == "smoke" else (rules.params.get("crater_diameter") or CRATER_ACROSS)
        self.clear_tools()

        def closed(text) -> None:
            if not text:
                self.say(f"No {kind} added", ["nothing changed"])
                return
            try:
                size = float(text.strip().rstrip('"'))
            except ValueError:
                self.say(f"No {kind} added", [f"{text!r}: expected its size across in inches", "nothing changed"])
                return
            self.add_terrain_at(kind, x, y, size)

        if self.app is None:
            closed(f"{across * scale:g}")
            return
        self.app.push(TextDialog(
            f"Add {kind} at ({x:g}, {y:g})",
            [f"How many inches across is it on the table? ({SIZE_NOTE[kind]}"
             f"{', times the scale ' + format(scale, 'g') + ' [A56]' if scale != 1 else ''}.) "
             "The correction is logged."],
            f"{across * scale:g}", closed, ok=f"Add the {kind}"))

    def add_terrain_at(self, kind: str, x: float, y: float, across: float) -> Attempt:
        attempt = self.session.add_terrain(kind, circle={"x": x, "y": y, "r": across / 2})
        self.after_action(attempt, f"Add {kind}")
        return attempt

    # ---- what the keys do (``REFEREE_KEYS``) ------------------------------------------------------------------
    def correct_key(self) -> bool:
        """U is Correct here (the referee's key), not the hot-seat turn of the table: both players sit at it."""
        if self.tool not in (SELECT, MOVE, JUMP):
            return False
        self.press("correct")
        return True

    def photo_key(self) -> bool:
        """W: read the table from a photo (``scenes/capture.py``)."""
        if self.tool != SELECT or not self.offered("photo"):
            return False
        self.press("photo")
        return True

    def remove_chosen_terrain(self) -> bool:
        if self.chosen_terrain is None or self.tool != SELECT:
            return False
        self.confirm_remove_terrain(self.chosen_terrain)
        return True

    def referee_escape(self) -> bool:
        if self.tool in (SMOKE_AT, CRATER_AT):
            self.clear_tools()
            self.show_log()
            return True
        if self.chosen_terrain is not None and self.tool == SELECT:
            self.chosen_terrain = None
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        f = self.terrain_feature(self.chosen_terrain) if self.chosen_terrain else None
        if f is not None:
            old = surface.get_clip()
            surface.set_clip(self.layout.table)
            points = drawing.feature_points(self.view, f)
            if len(points) >= 3:
                pygame.draw.polygon(surface, theme.SELECTION, points, 3)
            surface.set_clip(old)

    # ---- a knocked piece (or terrain) dragged to where it stands now -----------------------------------------------
    def _mouse_down(self, event) -> bool:
        if event.button == 1 and self.tool in (SMOKE_AT, CRATER_AT) and self.on_table(event.pos):
            x, y = self.table_point(event.pos)
            self.ask_new_terrain("smoke" if self.tool == SMOKE_AT else "crater", round(x, 1), round(y, 1))
            return True
        handled = super()._mouse_down(event)
        self.drift = self.terrain_drift = None
        if event.button == 1 and self.tool == SELECT and self.on_table(event.pos):
            piece = self.piece_at(event.pos)
            if piece is not None:
                self.drift = (piece, event.pos)
            else:
                terrain = self.terrain_at(event.pos)
                self.choose_terrain(terrain)
                if terrain is not None:
                    self.terrain_drift = (terrain, event.pos)
        return handled

    def _mouse_up(self, event) -> bool:
        terrain_drift, self.terrain_drift = self.terrain_drift, None
        if terrain_drift is not None and event.button == 1 and self.tool == SELECT and self.on_table(event.pos):
            ident, start = terrain_drift
            if abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1]) > DRAG_PIXELS:
                (x0, y0), (x1, y1) = self.table_point(start), self.table_point(event.pos)
                self.confirm_terrain_drift(ident, round(x1 - x0, 1), round(y1 - y0, 1))
                return True
        drift, self.drift = self.drift, None
        if drift is not None and event.button == 1 and self.tool == SELECT and self.on_table(event.pos):
            piece, start = drift
            if abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1]) > DRAG_PIXELS:
                x, y = self.table_point(event.pos)
                p = self.table.bf.pieces[piece]
                self.corrections.confirm_drift(piece, (p.x, p.y), round(x, 1), round(y, 1))
                return True
        return super()._mouse_up(event)

