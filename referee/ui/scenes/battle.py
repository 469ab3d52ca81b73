"""The table scene during a battle: the side at the screen plays its turn through the engine.

Everything the table scene offers (selection report, ruler, Move and Jump previews) stays; on top of it an action
bar offers the Action Table. A button is enabled only when the engine would take that action now; choosing a target
shows the engine's numbers and odds in a confirmation before anything is rolled. Dice come from the program or are
typed in from physical dice. After every action the table is rebuilt from the player view of the side at the
screen; in hot-seat a hand-off screen hides the table whenever the other side is to act.

The scene composes its parts, each in its own module: the action bar (``battle_bar``), the Target tool
(``battle_target``), the choosing tools with their previews (``battle_choices``), every question asked a player and
the hand-offs (``battle_questions``), the computer's turns (``battle_computer``) and the keys (``battle_keys``).
"""

from __future__ import annotations

import math

import pygame

from ...game.battle.action_kinds import AT_A_TARGET, Kind
from ...game.battle.intents import Action
from .. import drawing, hosting, keys, seat, theme
from ..action_words import action_words
from ...service.battle_screen import WINDOW_KEYS, Ask, BattleScreen
from ...service.session import Attempt, BattleSession, Pending
from ..battle_log import BattleLog, ScreenLog
from ..intents import Intent
from ..keys import KeyTable
from ..memory import AfterActions
from ..table_data import table_from_view
from ..widgets import draw_text, ellipsize, text_width
from .battle_bar import ACTIONS, ActionBar, Actions
from .battle_choices import FLAME, KAMIKAZE, PICK, TITLES, ChoiceTools
from .battle_computer import ComputerTurns
from .battle_keys import BATTLE_KEYS
from .battle_placing import PLACE, RevealPlacing
from .battle_placing import TITLE as PLACE_TITLE
from .battle_questions import BattleQuestions
from .battle_target import TARGET, TargetTool
from .battle_target import TITLE as TARGET_TITLE
from .bearing import dice_dialog
from .table import TableScene
from .table_common import JUMP, MOVE, SELECT, TOOL_TITLES, Layout

BANNER_H = 26
PICKED = AT_A_TARGET      # the actions whose target is clicked on the table
CHOOSING = (PICK, TARGET, FLAME, KAMIKAZE)              # the tools of an action under way


class BattleScene(TableScene):
    title = "Battle"
    actions: Actions = ACTIONS        # the action bar, row by row (the referee mode has its own)
    key_table: KeyTable = BATTLE_KEYS
    tool_titles = {**TOOL_TITLES, **TITLES, TARGET: TARGET_TITLE, PLACE: PLACE_TITLE}
    banner_h = BANNER_H

    def __init__(self, session: BattleSession, own_edge_down: bool | None = None) -> None:
        self.session = session
        self._logs: dict[tuple[str | None, str | None], BattleLog] = {}     # by reader and unit (``show_log``)
        self.log_shown: BattleLog | None = None        # the battle log in the panel, unless a message replaced it
        self.memory = AfterActions()
        self.bar = ActionBar(self, self.actions)
        self.target = TargetTool(self)
        self.choices = ChoiceTools(self)
        self.questions = BattleQuestions(self)
        self.placing = RevealPlacing(self)
        self.computer = ComputerTurns(self)
        self.picking: str | None = None              # the unit whose action waits for its target, smoke or point
        self.log_unit_only = False
        self.shown_over = False
        # U: side B's player sees the table turned, its edge down; as the players last chose, after a resume too.
        self.own_edge_down = seat.own_edge_down() if own_edge_down is None else own_edge_down
        # The screen the window draws until the next change: the service's one answer to each change.
        self.shown: BattleScreen = session.battle_screen(Ask(None, self.bar_keys()))
        shown = self.shown
        super().__init__(table_from_view(shown.view, shown.table, shown.titles, shown.faction_names, shown.wrecks),
                         on_intent=self.send_intent)
        self.show_log()
        self.target.resume()            # a sensor pool rolled before the battle was left: its Target goes on

    # ---- layout: the action bar sits between the tools and the side panel -------------------------------------
    def lay_out(self, size: tuple[int, int]) -> Layout:
        return self.bar.lay_out(size)

    def _build_gui(self, size) -> None:
        super()._build_gui(size)
        if self.manager is not None:
            self.bar.build(self.manager)

    def on_resume(self) -> None:
        """Back from a dialog (a hand-off, the end of a round, a die): the buttons stay where they are unless the
        window changed meanwhile, since making them again cost more than the action the dialog was about; only
        what they offer and what the side panel shows are brought up to date."""
        if self.manager is None or self._laid_out_for != self.size or self.lay_out(self.size) != self.layout:
            super().on_resume()
            return
        self._sync_buttons()
        self.bar.sync()
        self._relayout_panel()

    # ---- what may be done now: the screen says ---------------------------------------------------------------
    def bar_keys(self) -> tuple[str, ...]:
        return tuple(key for key, _label, _tip in self.actions)

    def asking(self) -> Ask:
        """What this window's screen is to carry: the selected piece's report, the bar's buttons, whose log."""
        return Ask(self.selected, self.bar_keys(), self.log_unit_only)

    def offered(self, key: str) -> bool:
        """Is the button for ``key`` enabled: the engine's own checks for the selected unit, no dice rolled (the
        screen carries them)."""
        if key in WINDOW_KEYS:
            return True
        button = self.shown.buttons.get(key)
        return button is not None and button.enabled

    def actor_for(self, key: str) -> str | None:
        """Who would act: the selected piece to activate, else the unit being activated (or next to act)."""
        button = self.shown.buttons.get(key)
        return button.actor if button is not None else None

    def refused(self, key: str) -> str:
        """Why the button for ``key`` is refused now, in the engine's words."""
        button = self.shown.buttons.get(key)
        if button is None:
            return "not your turn"
        return button.reason or self.session.refusal(key, button.actor)

    # ---- the battle log ---------------------------------------------------------------------------------------
    def show_log(self) -> None:
        """The battle log in the panel, as the side at the screen reads it (the whole truth once the battle is over;
        one unit's entries when the log button says so). Only what the log gained since it was last shown is read."""
        shown = self.shown
        unit = self.selected if self.log_unit_only else None
        log = self._battle_log(None if shown.over else shown.viewer, unit)
        tail = []
        if shown.over and shown.computer_reasons and unit is None:
            tail = ["The computer's reasons, every decision it took:", *(f"    {r}" for r in shown.computer_reasons)]
        read = ScreenLog(shown.log_tail, shown.log)
        notes = dict(shown.computer_notes)
        log.sync(read, notes, self.log_width(), tail)
        if not log.entries and not tail:
            log.sync(read, notes, self.log_width(), ["nothing yet"])
        self.log_title = f"Battle log ({self.log_who()})" + (f": {unit} only" if unit else "")
        self.log_lines, self.log_wrapped = log.lines, log.wrapped
        self.log_shown = log
        self.log_scroll = max(0, len(self.log_wrapped) - self._log_visible_lines())

    def _battle_log(self, reader: str | None, unit: str | None) -> BattleLog:
        """The log kept for ``reader`` (each player's in hot-seat, and the whole truth), and one unit's while it is
        being read."""
        key = (reader, unit)
        log = self._logs.get(key)
        if log is None:
            if unit is not None:
                self._logs = {k: v for k, v in self._logs.items() if k[1] is None}
            log = self._logs[key] = BattleLog(reader, unit)
        return log

    def set_log(self, title: str, lines) -> None:
        self.log_shown = None
        super().set_log(title, lines)

    def _rewrap_log(self) -> None:
        if self.log_shown is None:
            super()._rewrap_log()
        else:
            self.show_log()                 # at the panel's new width

    def log_who(self) -> str:
        return "whole truth" if self.shown.over else f"as side {self.shown.viewer} sees it"

    def say(self, title: str, lines) -> None:
        self.set_log(title, [str(s) for s in lines])

    # ---- after the battle changed --------------------------------------------------------------------------
    def turn_table(self) -> None:
        """U: each player sees the table from their own edge (side B's turned half round), or both from side A's.
        Only the drawing turns: the table's coordinates, and every rule, stay as they are."""
        self.own_edge_down = not self.own_edge_down
        seat.remember_own_edge_down(self.own_edge_down)
        self.face_viewer(self.shown.viewer)
        self.say("Table turned" if self.view.turned else "Table as side A sees it",
                 ["Each player now sees the table from their own edge (U turns it back)." if self.own_edge_down
                  else "Side A's edge is at the bottom for both players (U: each player's own edge at the bottom)."])

    def refresh(self) -> None:
        """Rebuild what the screen shows from the seat's new screen (one question to the service)."""
        self.take(self.session.battle_screen(self.asking()))

    def take(self, screen: BattleScreen) -> None:
        """Show ``screen``: the table from its view, the selection's report, the buttons it enables."""
        self.shown = screen
        self.face_viewer(screen.viewer)
        self.table = table_from_view(screen.view, screen.table, screen.titles, screen.faction_names, screen.wrecks)
        keep = screen.selected
        self.selected = None
        self.select(keep)               # which syncs the action bar with the new screen

    def select(self, piece_id: str | None) -> None:
        if piece_id != self.shown.selected and (piece_id is None or piece_id in self.table.bf.pieces):
            self.shown = self.session.battle_screen(Ask(piece_id, self.bar_keys(), self.log_unit_only))
        super().select(piece_id)
        self.bar.sync()
        if self.log_unit_only:
            self.show_log()

    def report_for(self, piece_id: str):
        """The side panel's report on ``piece_id``: the service's, on the screen (with why it failed, if it did)."""
        return self.shown.panel, self.shown.panel_error

    def after_action(self, attempt: Attempt, title: str) -> None:
        outcome = attempt.outcome
        if outcome is None:
            return
        if not outcome.legal:
            self.say(f"{title}: not allowed", [f"not allowed: {outcome.reason}", "nothing changed"])
            self.bar.sync()
            return
        self.clear_tools()
        self.take(attempt.screen or self.session.battle_screen(self.asking()))
        self.show_log()
        self.memory.after_action()          # a long battle's window stays near its first round's size
        if self.shown.messages:             # after the log, so a failed autosave is what the player reads
            self.say("Autosave", self.shown.messages)
            self.session.messages.clear()
        self.next_step()

    def next_step(self) -> None:
        """Whatever the battle waits for next: the facing of troopers just revealed (their owner's), the other player,
        the end of the round, objectives, the report."""
        shown, ask = self.shown, self.questions
        if self.placing.due():
            self.placing.ask(self.placing.owed()[0])
            return
        if ask.facing_due():
            ask.facing(ask.facing_owed()[0])
            return
        if shown.computer_to_act:
            self.computer.wait = 0.0        # ``update`` plays its next action after a pause
            return
        side = shown.to_act
        if shown.needs_handoff and side is not None:
            ask.hand_off(side)
            return
        if shown.phase == "end-of-round":
            ask.end_of_round()
        elif shown.phase == "over" and shown.objectives_pending:
            ask.objectives()
        elif shown.over and not self.shown_over:
            self.shown_over = True
            self.open_report()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.computer.update(dt)

    def hand_off(self, side: str) -> None:
        """The screen goes to ``side`` behind a hand-off screen (``questions.hand_off``)."""
        self.questions.hand_off(side)

    # ---- doing things ---------------------------------------------------------------------------------------
    def do(self, action: Action, title: str | None = None, given: list[float] | None = None) -> None:
        """Send an action to the engine; ask for physical dice one by one when the players roll."""
        title = title or action_words(action)
        self.questions.sending()
        self.handle(self.session.send(action, self.asking(), given), title)

    def handle(self, attempt: Attempt, title: str) -> None:
        """The engine's answer: the next die to ask the players for, or the outcome to show."""
        if attempt.pending is not None:
            self.ask_die(attempt.pending, lambda value, p=attempt.pending: self.answered(p, value, title), title)
            return
        self.after_action(attempt, title)

    def answered(self, pending: Pending, value: float | None, title: str) -> None:
        if value is None:
            self.say(f"{title}: cancelled", ["no die was used; nothing changed"])
            return
        # The resolution waiting for this die goes on from it (it is not resolved again from its start).
        self.handle(self.session.send_die(pending, value, self.asking()), title)

    def ask_die(self, pending: Pending, then, context: str = "") -> None:
        if self.app is None:
            raise RuntimeError(f"a die is needed: {pending.request.describe()}")
        given = len(pending.given)
        note = f"{context}: die {given + 1}" if context else ""
        self.app.push(dice_dialog(pending.request, then, note, turned=self.view.turned))

    def send_intent(self, intent: Intent) -> None:
        """A confirmed Move or Jump preview from the table tools."""
        data = intent.action_data()
        self.do(Action(data["kind"], data["actor"], data["args"]))

    def press(self, key: str) -> None:
        """An action bar button, or its key."""
        if key not in self.bar.keys():
            return
        if key == "holding":
            self.open_holding()
            return
        if key == "log":
            self.log_unit_only = not self.log_unit_only
            self.show_log()
            self.bar.sync()
            return
        if key == "undo":
            self.questions.undo()
            return
        if key == "save":
            self.questions.save()
            return
        actor = self.actor_for(key)
        if key in (Kind.ACTIVATE, "extra") and not self.offered(key) and self.finish_spent_activation():
            self.press(key)              # the spent activation is over: the one asked for now starts
            return
        if not self.offered(key):
            self.say(f"{key.replace('-', ' ').title()}: not now", [self.refused(key)])
            return
        if key == Kind.ACTIVATE:
            self.do(Action(Kind.ACTIVATE, actor or ""))
        elif key == "extra":
            self.do(Action(Kind.ACTIVATE, actor or "", {"extra": True}))
        elif key == Kind.END_TURN and self.would_pass():
            self.questions.confirm_pass()
        elif key in (Kind.END_ACTIVATION, Kind.END_TURN):
            self.do(Action(key))
        elif key == Kind.SCRAMBLE:
            self.questions.scramble_square(actor or "")
        elif key in (Kind.REVEAL, Kind.JAMMER):
            self.do(Action(key, actor or ""))
        elif key in PICKED:
            self.choices.start_pick(key, actor or "")
        elif key == "target":
            self.target.start(actor or "")
        elif key == "flamer":
            self.start_tool(FLAME, actor or "", "Click the centre of the 5\" smoke: within 6\" of the base, inside "
                                                "the arc [p.22, A36]. Esc cancels.")
        elif key == "kamikaze":
            self.start_tool(KAMIKAZE, actor or "", "Click where the drone goes; click on an enemy unit or objective "
                                                   "to strike it (contact roll). Shift+click jumps there. Esc cancels.")

    def finish_spent_activation(self) -> bool:
        """Activate (A) or Extra blip (X) while the unit being activated has no action left: its activation is
        ended first (Q), as nothing of it is lost, instead of refusing the next one until Q is pressed [p.16]."""
        spent = self.shown.spent_activation
        if spent is None or self.shown.to_act != self.shown.viewer or not self.offered(Kind.END_ACTIVATION):
            return False
        self.do(Action(Kind.END_ACTIVATION), f"End of {spent}'s activation")
        shown = self.shown
        return shown.spent_activation is None and shown.to_act == shown.viewer and not self.questions.handing_off

    def would_pass(self) -> bool:
        """End turn now is a pass: the side has activated nothing this turn (p.16, A22). Its turn may have come by
        itself (the other side's last activation ended it), so an End turn pressed out of habit is asked first."""
        return self.shown.would_pass

    def start_tool(self, tool: str, actor: str, hint: str) -> None:
        self.clear_tools()
        if actor != self.selected:
            TableScene.select(self, actor)
        self.tool = tool
        self.picking = actor
        self.say(self.tool_titles[tool], [hint])

    def clear_tools(self) -> None:
        self.tool = SELECT
        self.picking = None
        self.target.reset()
        self.choices.reset()
        self._clear_move()
        self._sync_buttons()

    def open_report(self) -> None:
        self.push_scene("report", self.session, on_save=self.questions.save)

    def open_holding(self) -> None:
        if not self.questions.handing_off:
            self.push_scene("holding", self.session.view(), self.session.viewer)

    def leave(self) -> None:
        self.questions.leave()

    def phones(self) -> None:
        """W: serve this battle to phones and other computers; the window becomes the shared table (``hosting``)."""
        if self.app is not None:
            why = hosting.serve(self.app, self.session)
            if isinstance(why, str):
                self.say("Phones and remote play", [why])

    # ---- events ---------------------------------------------------------------------------------------------
    def _button(self, element) -> bool:
        key = self.bar.pressed(element)
        if key is not None:
            self.press(key)
            return True
        return super()._button(element)

    def _mouse_down(self, event) -> bool:
        pos = event.pos
        self.mouse = pos
        if self.tool == PLACE and self.on_table(pos) and event.button == 1:
            self.placing.click(self.table_point(pos))
            return True
        if self.tool in CHOOSING and self.on_table(pos) and event.button in (1, 3):
            if event.button == 3 and self.tool != TARGET:
                return super()._mouse_down(event)
            piece = self.piece_at(pos) or self.ground_at(pos)
            if self.tool == TARGET:
                self.target.click(piece or self.ground_point(pos), event.button)
            else:
                self.choices.click(piece, self.table_point(pos))
            return True
        return super()._mouse_down(event)

    def ground_at(self, pos) -> str | None:
        """The patch of ground holding Target counters under the screen point, if any (p.19, A54)."""
        x, y = self.table_point(pos)
        slop = max(0.4, 8 / self.view.scale)
        near = [(math.hypot(g.x - x, g.y - y), g.id) for g in self.table.bf.ground.values()]
        near = [n for n in near if n[0] <= slop]
        return min(near)[1] if near else None

    def ground_point(self, pos) -> str:
        """A click on open ground as the point the engine reads, ``x,y`` to a tenth of an inch (A54)."""
        x, y = self.table_point(pos)
        return f"{round(x, 1):g},{round(y, 1):g}"

    # ---- what the keys do (``BATTLE_KEYS``; the Target tool's are ``target``'s) --------------------------------
    def action_key(self, name: str) -> bool:
        """An action's letter: its button, when no action's choice (a target, the smoke, the counters) is under way."""
        if self.tool not in (SELECT, MOVE, JUMP):
            return False
        self.press(name)
        return True

    def turn_table_key(self) -> bool:
        if self.tool not in (SELECT, MOVE, JUMP):
            return False
        self.turn_table()
        return True

    def cancel_choice(self) -> bool:
        if self.placing.cancel():
            return True
        if self.tool not in (PICK, FLAME, KAMIKAZE):
            return False
        self.clear_tools()
        self.show_log()
        return True

    def open_help(self) -> None:
        self.push_scene("help", keys.help_groups(self.key_table))

    # ---- drawing --------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        pygame.draw.rect(surface, theme.HEADER, self.bar.rect)
        if self.manager is not None:
            self.manager.draw_ui(surface)
        old = surface.get_clip()
        surface.set_clip(self.layout.table)
        self.choices.draw(surface)
        self.placing.draw(surface)
        if self.tool == TARGET:
            for tid, n in self.target.assign.items():
                p = self.table.bf.pieces.get(tid)
                if p is not None and n:
                    drawing.draw_ring(surface, self.view, p, theme.SELECTION, gap=8, width=2)
        surface.set_clip(old)
        self._draw_banner(surface)

    def banner_who(self) -> tuple[str, str]:
        mine = f"You are side {self.shown.viewer}" if not self.shown.over else "Whole truth"
        return mine, "program dice" if self.shown.program_dice else "your dice"

    def banner_text(self) -> str:
        """Whose turn, who is active and how many actions are left."""
        shown = self.shown
        v = shown.view
        t = v["turn"]
        if v["phase"] == "over":
            return "The battle is over" + ("" if shown.over else ": the attacker sets the objectives")
        if v["phase"] == "end-of-round":
            if shown.last_round:
                return f"End of round {v['round']}: the last round of your mission, the battle ends"
            return f"End of round {v['round']}: Next round, Withdraw or stop"
        if t is None:
            return v["phase"]
        text = f"Side {t['player']} to play"
        if shown.computer is not None and t["player"] == shown.computer:
            text = f"The computer ({shown.computer_level}, side {t['player']}) is playing"
        if t["active"]:
            left = t["actions_left"]
            return text + f": {t['active']} active, {left} action{'s' if left != 1 else ''} left"
        if t["queue"]:
            return text + f": revealed units to act: {', '.join(t['queue'])}"
        if t["primary_used"] < t["primary_allowed"]:
            return text + f": activation {t['primary_used'] + 1} of {t['primary_allowed']}"
        return text + f": extra blip activations {t['extra_blips_used']} of 3"

    def _draw_banner(self, surface) -> None:
        """The banner: always in sight under the status bar."""
        L = self.layout
        mine, dice = self.banner_who()
        box = pygame.Rect(L.table.x + 8, L.table.y + 4, L.table.w - 16, BANNER_H - 4)
        pygame.draw.rect(surface, (24, 27, 32), box, border_radius=4)
        # A narrow window: a smaller letter before the end is cut, so whose turn it is stays whole.
        text = f"{mine} · {self.banner_text()} · {dice}"
        size = 14 if text_width(text, 14, True) <= box.w - 20 else 12
        draw_text(surface, ellipsize(text, box.w - 20, size, True), (box.x + 10, box.centery), size, True,
                  theme.ACCENT, "midleft")
