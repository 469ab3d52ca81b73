"""The table scene during a battle: the side at the screen plays its turn through the engine.

Everything the table scene offers (selection report, ruler, Move and Jump previews) stays; on top of it an action
bar offers the Action Table. A button is enabled only when the engine would take that action now; choosing a target
shows the engine's numbers and odds in a confirmation before anything is rolled. Dice come from the program or are
typed in from physical dice. After every action the table is rebuilt from the player view of the side at the
screen; in hot-seat a hand-off screen hides the table whenever the other side is to act.
"""

from __future__ import annotations

import datetime as _dt
import math

import pygame
import pygame_gui

from ... import paths
from ...game.actions import Action
from ...game.legal import legal_actions
from ...game.seal import short_seal
from ...game.victory import end_of_round_lines
from ...game.view import player_view
from ...rules import odds
from ...rules.errors import InputError
from .. import drawing, keys, panels, theme
from ..battle import Attempt, BattleSession, Pending
from ..intents import Intent
from ..keys import DIGITS, MINUS, KeyTable
from ..memory import give_back_free_memory
from ..table_data import table_from_view
from ..widgets import draw_text
from .battle_keys import BATTLE_KEYS
from .dialogs import ConsentScreen, Dialog, DiceDialog, HandoffScreen, TextDialog
from .table import JUMP, MOVE, SELECT, TOOL_TITLES, Layout, TableScene, layout_with_bar

PICK, TARGET, FLAME, KAMIKAZE = "pick", "target", "flame", "kamikaze"
TOOL_TITLES.update({PICK: "Choose a target", TARGET: "Target: place counters", FLAME: "Flamer: place the smoke",
                    KAMIKAZE: "Kamikaze: where to"})
ACTION_COLUMNS = 5
COMPUTER_PACE = 0.9         # seconds between the computer's actions, so a human can follow each on the table
ROW_H = 30
BANNER_H = 26

# (key, label, tooltip); the order is the bar's, row by row.
ACTIONS = (
    ("activate", "Activate", "A: start the selected unit's or blip's activation [p.16]"),
    ("extra", "Extra blip", "X: one of the turn's 3 extra blip activations, Move only [p.16, A21]"),
    ("reveal", "Reveal", "V: reveal the activated blip [p.17, A19]"),
    ("target", "Target", "T: roll sensor dice and place Target counters [p.19]"),
    ("rifle", "Rifle", "G: fire the rifle at a unit with Target counters [p.20]"),
    ("missile", "Missile", "I: fire a missile at a unit or objective with Target counters [p.21]"),
    ("flamer", "Flamer", "L: place the 5\" smoke within 6\" in the arc [p.22, A36]"),
    ("kamikaze", "Kamikaze", "K: move or jump and explode [p.34, A34, A35]"),
    ("command", "Command", "C: give a friendly unit a new activation counter [p.22]"),
    ("repair", "Repair", "P: remove Damaged from a touching friendly trooper [p.22]"),
    ("scramble", "Scramble", "back to the holding area; 3 blips take its place [p.22, A23]"),
    ("jammer", "Jammer", "switch the 3\" jamming field on or off [p.34, A37]"),
    ("end-activation", "End activ.", "Q: give up the rest of this activation [p.16]"),
    ("end-turn", "End turn", "N: end the turn (without an activation: a pass) [p.16, A22]"),
    ("holding", "Holding", "O: your holding area, mission and seals"),
    ("log", "Log: all", "Shift+L: the log of every unit, or of the selected unit only"),
    ("undo", "Undo", "Ctrl+Z: take back the last action"),
    ("save", "Save", "Ctrl+S: save the battle to a file"),
)
# The facings offered to the owner of a trooper just revealed (A13), every 45°.
FACINGS = (0, 45, 90, 135, 180, 225, 270, 315)
EDGE_WORDS = {90: ", to B's edge", 270: ", to A's edge"}


def facing_word(view, degrees: int) -> str:
    """Where a facing points on the screen as the table is drawn (turned or not): "up-left", "down"..."""
    dx, dy = view.direction(math.cos(math.radians(degrees)), math.sin(math.radians(degrees)))
    vertical = "up" if dy < -1e-9 else "down" if dy > 1e-9 else ""
    horizontal = "left" if dx < -1e-9 else "right" if dx > 1e-9 else ""
    return "-".join(w for w in (vertical, horizontal) if w) + EDGE_WORDS.get(degrees, "")
PICKED = ("rifle", "missile", "command", "repair")


class BattleScene(TableScene):
    title = "Battle"
    actions: tuple[tuple[str, str, str], ...] = ACTIONS     # the action bar, row by row (the referee mode has its own)
    key_table: KeyTable = BATTLE_KEYS
    banner_h = BANNER_H

    def __init__(self, session: BattleSession, own_edge_down: bool = False) -> None:
        self.session = session
        self._log_kept: dict[tuple, tuple] = {}      # each viewer's log as last written out (``_log_text``)
        super().__init__(table_from_view(session.view(log=False)), on_intent=self.send_intent)
        self.action_bar = pygame.Rect(0, 0, 0, 0)
        self.action_buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.picking: str | None = None              # the unit whose action waits for its target
        self.pick_kind = ""                           # that action: rifle, missile, command or repair
        self.pool: Attempt | None = None              # a Target action's rolled sensor dice
        self.pool_dice = 1
        self.assign: dict[str, int] = {}
        self.flame_point: tuple[float, float] | None = None
        self._smoke = None
        self.log_unit_only = False
        self.handing_off = False
        self.shown_over = False
        self.computer_wait = 0.0            # seconds since the computer's last action (it acts at a human's pace)
        self.facing_kept: tuple[str, ...] = ()       # troopers left at their default facing by their owner (A13)
        self.empty_pool_warned = False                # Enter once warned that no target is in sight
        self.own_edge_down = own_edge_down            # U: side B's player sees the table turned, its edge down
        self.show_log()

    # ---- layout: the action bar sits between the tools and the side panel -------------------------------------
    def lay_out(self, size: tuple[int, int]) -> Layout:
        self.action_bar, layout = layout_with_bar(size, math.ceil(len(self.actions) / ACTION_COLUMNS), ROW_H)
        return layout

    def _build_gui(self, size) -> None:
        super()._build_gui(size)
        self.action_buttons = {}
        per_row = ACTION_COLUMNS
        bar = self.action_bar
        gap = 4
        bw = (bar.w - 2 * panels.PAD - gap * (per_row - 1)) // per_row
        for i, (key, label, tip) in enumerate(self.actions):
            r, c = divmod(i, per_row)
            rect = pygame.Rect(bar.x + panels.PAD + c * (bw + gap), bar.y + 4 + r * (ROW_H + 4), bw, ROW_H)
            self.action_buttons[key] = pygame_gui.elements.UIButton(rect, label, self.manager, tool_tip_text=tip)
        self._sync_actions()

    # ---- what may be done now ------------------------------------------------------------------------------
    def offered(self, key: str) -> bool:
        """Is the button for ``key`` enabled: the engine's own checks for the selected unit, no dice rolled."""
        s = self.session
        if key in ("holding", "log", "save"):
            return True
        if key == "undo":
            return bool(s.game.record)
        if s.to_act() != s.viewer or s.state.phase != "action":
            return False
        if key in ("end-activation", "end-turn"):
            return s.can(key, "").legal
        actor = self.actor_for(key)
        return actor is not None and s.can(key, actor).legal

    def actor_for(self, key: str) -> str | None:
        """Who would act: the selected piece to activate, else the unit being activated (or next to act)."""
        t = self.session.state.turn
        if key in ("activate", "extra"):
            return self.selected
        if t is None:
            return None
        if self.selected and (self.selected == t.active or self.selected in t.queue):
            return self.selected
        return t.active or (t.queue[0] if t.queue else None)

    def _sync_actions(self) -> None:
        for key, button in self.action_buttons.items():
            if self.offered(key):
                button.enable()
            else:
                button.disable()
        log = self.action_buttons.get("log")
        if log is not None:
            log.set_text("Log: unit" if self.log_unit_only else "Log: all")

    # ---- the battle log ---------------------------------------------------------------------------------------
    def show_log(self) -> None:
        unit = self.selected if self.log_unit_only else None
        lines = self._log_text(unit)
        if self.session.over and self.session.computer_reasons and unit is None:
            lines.append("The computer's reasons, every decision it took:")
            lines.extend(f"    {r}" for r in self.session.computer_reasons)
        title = f"Battle log ({self.log_who()})" + (f": {unit} only" if unit else "")
        self.set_log(title, lines or ["nothing yet"], plain=True)
        self.log_scroll = max(0, len(self.log_wrapped) - self._log_visible_lines())

    def _log_text(self, unit: str | None) -> list[str]:
        """The battle log's lines for the side at the screen (``unit``: its entries only). The log only grows while
        the battle goes on, so the entries shown last time are kept and only the new ones are written out; a
        take-back, another viewer or another filter writes it all again."""
        s = self.session.state
        key = (self.session.viewer, self.session.over, unit, len(self.session.computer_notes))
        kept = self._log_kept.get(key)
        start, lines = 0, []
        if kept is not None and kept[0] <= len(s.log) and (kept[0] == 0 or s.log[kept[0] - 1] is kept[1]):
            start, lines = kept[0], kept[2]
        for i, e in enumerate(self.session.log_since(start), start=start):
            if unit is not None and unit not in e["units"]:
                continue
            line = f"[round {e['round']}] {e['text']}"
            if e.get("note"):
                line += f"  (only you: {e['note']})"
            lines.append(line)
            lines.extend(f"    {x}" for x in e["explain"][1:] if x)
            note = self.session.computer_notes.get(i + 1)
            if note:
                lines.append(f"    the computer: {note}")
        # Each side's log is kept (hot-seat players take turns), and one unit's only while it is being read.
        self._log_kept = {k: v for k, v in self._log_kept.items() if k[2] is None and k[:2] != key[:2]}
        self._log_kept[key] = (len(s.log), s.log[-1] if s.log else None, lines)
        return list(lines)

    def log_who(self) -> str:
        return "whole truth" if self.session.over else f"as side {self.session.viewer} sees it"

    def say(self, title: str, lines) -> None:
        self.set_log(title, [str(s) for s in lines])

    # ---- after the battle changed --------------------------------------------------------------------------
    def turn_table(self) -> None:
        """U: each player sees the table from their own edge (side B's turned half round), or both from side A's.
        Only the drawing turns: the table's coordinates, and every rule, stay as they are."""
        self.own_edge_down = not self.own_edge_down
        self.apply_turn()
        self.say("Table turned" if self.view.turned else "Table as side A sees it",
                 ["Each player now sees the table from their own edge (U turns it back)." if self.own_edge_down
                  else "Side A's edge is at the bottom for both players (U: each player's own edge at the bottom)."])

    def apply_turn(self) -> None:
        turned = self.own_edge_down and self.session.viewer == "B"
        if turned != self.view.turned:
            self.view.turn(turned)
            self._static = None

    def refresh(self) -> None:
        """Rebuild what the screen shows from the player view of the side at the screen."""
        self.apply_turn()
        self.table = table_from_view(self.session.view(log=False))
        self._static = None
        if self.selected is not None and self.selected not in self.table.bf.pieces:
            self.selected = None
        keep = self.selected
        self.selected = None
        self.select(keep)
        self._sync_actions()

    def select(self, piece_id: str | None) -> None:
        super().select(piece_id)
        self._sync_actions()
        if self.log_unit_only:
            self.show_log()

    def after_action(self, attempt: Attempt, title: str) -> None:
        outcome = attempt.outcome
        if outcome is None:
            return
        if not outcome.legal:
            self.say(f"{title}: not allowed", [f"not allowed: {outcome.reason}", "nothing changed"])
            self._sync_actions()
            return
        self.clear_tools()
        self.refresh()
        self.show_log()
        give_back_free_memory()             # a long battle's window stays near its first round's size
        if self.session.messages:           # after the log, so a failed autosave is what the player reads
            self.say("Autosave", self.session.messages)
            self.session.messages.clear()
        self.next_step()

    def next_step(self) -> None:
        """Whatever the battle waits for next: the facing of troopers just revealed (their owner's), the other player,
        the end of the round, objectives, the report."""
        s = self.session
        if self.facing_due():
            self.ask_facing(self.facing_owed()[0])
            return
        if s.computer_to_act():
            self.computer_wait = 0.0        # ``update`` plays its next action after a pause
            return
        if s.needs_handoff():
            self.hand_off(s.to_act())
            return
        if s.state.phase == "end-of-round":
            self.ask_end_of_round()
        elif s.state.phase == "over" and (s.state.result or {}).get("pending") == "objectives":
            self.ask_objectives()
        elif s.over and not self.shown_over:
            self.shown_over = True
            self.open_report()

    # ---- the computer's turns --------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        super().update(dt)
        if self.app is None or self.app.stack.top is not self or not self.session.computer_to_act():
            return
        self.computer_wait += dt
        if self.computer_wait >= COMPUTER_PACE:
            self.computer_step()

    def computer_step(self) -> None:
        """The computer's next action, one at a time: decided from its own view, shown, then the next after a
        pause so the human can follow it on the table."""
        self.computer_wait = 0.0
        decided = self.session.computer_act()
        if decided is None:
            return
        action, reason = decided
        title = f"The computer (side {self.session.computer.side if self.session.computer else ''})"
        attempt = self.session.attempt(action)
        if attempt.pending is not None:
            # The players roll physical dice: the human rolls the computer's too and types them in.
            self.ask_die(attempt.pending, lambda value, p=attempt.pending: self.computer_answered(p, value, reason),
                         f"{title}: {action.text()}")
            return
        if attempt.legal:
            self.session.note_computer(action, reason)
        self.after_action(attempt, title)

    def computer_answered(self, pending: Pending, value: float | None, reason: str) -> None:
        if value is None:
            self.say("The computer's action: waiting", ["the computer's action needs the dice rolled for it"])
            return
        attempt = self.session.answer(pending, value)
        if attempt.pending is not None:
            self.ask_die(attempt.pending, lambda v, p=attempt.pending: self.computer_answered(p, v, reason),
                         f"The computer: {pending.action.text()}")
            return
        if attempt.legal:
            self.session.note_computer(pending.action, reason)
        self.after_action(attempt, "The computer")

    def hand_off(self, side: str) -> None:
        if self.app is None:
            self.session.hand_to(side)
            self.refresh()
            return
        s = self.session.state
        self.handing_off = True
        self.clear_tools()
        self.select(None)
        lines = [f"Round {s.round}: side {side} is to act.",
                 "Seals of the holding areas and missions: "
                 + ", ".join(f"side {k} {short_seal(v)}" for k, v in sorted(s.sealed.items()))]

        def ready(_answer) -> None:
            self.handing_off = False
            self.session.hand_to(side)
            self.refresh()
            self.show_log()
            self.next_step()

        self.app.push(HandoffScreen(side, lines, ready))

    # ---- doing things ---------------------------------------------------------------------------------------
    def do(self, action: Action, title: str | None = None, given: list[float] | None = None) -> None:
        """Send an action to the engine; ask for physical dice one by one when the players roll."""
        title = title or action.text()
        attempt = self.session.attempt(action, given)
        if attempt.pending is not None:
            self.ask_die(attempt.pending, lambda value, p=attempt.pending: self.answered(p, value, title), title)
            return
        self.after_action(attempt, title)

    def answered(self, pending: Pending, value: float | None, title: str) -> None:
        if value is None:
            self.say(f"{title}: cancelled", ["no die was used; nothing changed"])
            return
        self.do(pending.action, title, pending.given + [value])

    def ask_die(self, pending: Pending, then, context: str = "") -> None:
        if self.app is None:
            raise RuntimeError(f"a die is needed: {pending.request.describe()}")
        given = len(pending.given)
        note = f"{context}: die {given + 1}" if context else ""
        self.app.push(DiceDialog(pending.request, then, note))

    def send_intent(self, intent: Intent) -> None:
        """A confirmed Move or Jump preview from the table tools."""
        data = intent.action_data()
        self.do(Action(data["kind"], data["actor"], data["args"]))

    def press(self, key: str) -> None:
        if key not in {k for k, _, _ in self.actions}:
            return
        if key == "holding":
            self.open_holding()
            return
        if key == "log":
            self.log_unit_only = not self.log_unit_only
            self.show_log()
            self._sync_actions()
            return
        if key == "undo":
            self.undo()
            return
        if key == "save":
            self.ask_save()
            return
        if not self.offered(key):
            actor = self.actor_for(key)
            if key in ("end-activation", "end-turn"):
                why = self.session.check(Action(key)).reason
            elif actor is None:
                why = "select the unit first (or activate one)"
            else:
                why = self.session.can(key, actor).reason
            self.say(f"{key.replace('-', ' ').title()}: not now", [why or "not your turn"])
            return
        actor = self.actor_for(key)
        if key == "activate":
            self.do(Action("activate", actor))
        elif key == "extra":
            self.do(Action("activate", actor, {"extra": True}))
        elif key in ("end-activation", "end-turn"):
            self.do(Action(key))
        elif key == "scramble":
            self.ask_scramble_square(actor)
        elif key in ("reveal", "jammer"):
            self.do(Action(key, actor))
        elif key in PICKED:
            self.start_pick(key, actor)
        elif key == "target":
            self.start_target(actor)
        elif key == "flamer":
            self.start_tool(FLAME, actor, "Click the centre of the 5\" smoke: within 6\" of the base, inside the "
                                          "arc [p.22, A36]. Esc cancels.")
        elif key == "kamikaze":
            self.start_tool(KAMIKAZE, actor, "Click where the drone goes; click on an enemy unit or objective to "
                                             "strike it (contact roll). Shift+click jumps there. Esc cancels.")

    def start_tool(self, tool: str, actor: str, hint: str) -> None:
        self.clear_tools()
        if actor != self.selected:
            TableScene.select(self, actor)
        self.tool = tool
        self.picking = actor
        self.say(TOOL_TITLES[tool], [hint])

    def start_pick(self, kind: str, actor: str) -> None:
        self.start_tool(PICK, actor, f"Click the {'friendly unit' if kind in ('command', 'repair') else 'target'} "
                                     f"for {kind}. The engine's numbers and odds are shown before anything is rolled. "
                                     f"Esc cancels.")
        self.pick_kind = kind

    def clear_tools(self) -> None:
        self.tool = SELECT
        self.picking = None
        self.pool = None
        self.assign = {}
        self.flame_point = None
        self._clear_move()
        self._sync_buttons()

    # ---- targets and previews --------------------------------------------------------------------------------
    def preview_lines(self, kind: str, actor: str, target: str) -> list[str]:
        """The numbers and odds of ``kind`` at ``target``: the engine's preview of that very action."""
        f = self.session.figures(Action(kind, actor, {"target": target}))
        lines = [str(x) for x in f.get("explain", ())]
        if kind == "rifle" and f.get("allowed"):
            lines.append(f"= {f['dice']} dice: kill {panels.percent(f['p_kill'])}, graze {panels.percent(f['p_graze'])}")
        elif kind == "missile" and f.get("allowed"):
            cms = ", ".join(c["unit"] + ("" if c["cm"] is None else f" (CM {c['cm']}: {panels.percent(c['p_shoot_down'])})")
                            for c in f["countermeasures"])
            b = f["blast"]
            lines.append(f"a direct hit's blast ({b['radius']:g}\", {b['dice']} dice) catches: "
                         f"{', '.join(b['catches']) or 'nobody else'} [p.21, A30]; each, if the missile hits:")
            lines += [panels.outcome_line(u, b["odds"].get(u), "blast") for u in b["catches"]]
            lines.append(f"= direct hit {panels.percent(f['p_direct_hit'])}; countermeasures: {cms or 'none'}")
        elif not lines:
            lines.append(f"{kind} {actor} -> {target}")
        return lines

    def pick(self, target: str) -> None:
        kind, actor = self.pick_kind, self.picking
        action = Action(kind, actor, {"target": target})
        check = self.session.check(action)
        if not check.legal:
            self.say(f"{kind.title()} at {target}: not allowed", [check.reason, "choose another, or Esc"])
            return
        lines = self.preview_lines(kind, actor, target)
        if self.session.state.units.get(actor) is not None and self.session.state.units[actor].damaged:
            lines.append(f"{actor} is Damaged: {panels.percent(odds.damaged_action_fails().p)} that the action "
                         f"fails and does nothing [p.25, A25]")
        self.confirm_then(f"{kind.title()}: {actor} at {target}", lines, action)

    def confirm_then(self, title: str, lines: list[str], action: Action) -> None:
        if self.app is None:
            self.do(action, title)
            return

        def closed(answer) -> None:
            if answer == "go":
                self.do(action, title)
            else:
                self.say(f"{title}: not taken", ["nothing changed"])

        self.app.push(Dialog(title, lines[-12:], [("go", "Do it"), ("cancel", "Cancel")], closed, columns=2,
                             width=640))

    # ---- Target: roll the pool, then place the counters ---------------------------------------------------------
    def target_offer(self) -> dict:
        """The engine's legal Target action for the Targeter: its dice range and the price on each piece."""
        offers = self.session.legal_for("target", self.picking)
        return offers[0].free if offers else {"dice": [1, 1], "assign": {}}

    def start_target(self, actor: str) -> None:
        self.start_tool(TARGET, actor, "")
        self.empty_pool_warned = False
        self.pool_dice = self.target_limit()
        self.target_hint()

    def target_limit(self) -> int:
        return self.target_offer()["dice"][1]

    def target_hint(self) -> None:
        if self.pool is None:
            self.say(TOOL_TITLES[TARGET], self.pool_lines())
            return
        faces = [r.value for r in self.pool.outcome.rolls][-self.pool_dice:]
        total = int(sum(faces))
        spent = self.assigned_cost()
        lines = [f"sensor pool {' + '.join(str(int(f)) for f in faces)} = {total}; spent {spent}, left {total - spent}",
                 "Left click a unit, blip or objective: one more counter; right click: one less. Enter places them "
                 "(unspent points are lost [p.19]). The dice are rolled: the action is taken."]
        lines += [f"  {tid}: {n} counter{'s' if n != 1 else ''}" for tid, n in self.assign.items() if n]
        self.say("Target: place counters", lines)

    def pool_lines(self) -> list[str]:
        """Before the roll: the pool's odds for the dice chosen, and for every dice count the counters the whole pool
        would place on each piece the engine lets the Targeter price (``rules/odds.py``, p.19, p.26)."""
        actor, limit, n = self.picking, self.target_limit(), self.pool_dice
        pool = odds.pool_distribution(n)
        offer = self.target_offer()["assign"]
        lines = [f"{actor} rolls {n} of at most {limit} sensor dice (keys 1-{limit} or +/-); it gains a Target "
                 f"counter per die [p.19]",
                 f"pool of {n} dice: mean {float(pool.mean):.1f}; "
                 + ", ".join(f"{k} or more {panels.percent(pool.p_at_least(k))}" for k in (4, 7, 10, 14) if k <= 6 * n)]
        if not offer:
            lines.append(f"WARNING: no target in sight of {actor}: the dice would place no counter anywhere; "
                         f"{actor} would still gain {n} counter{'s' if n != 1 else ''} [p.19]. Enter twice rolls "
                         f"anyway.")
        else:
            lines.append("Counters the whole pool would place on one piece, by dice count: expected (chance of at "
                         "least one) [p.19, p.26]")
            for tid, price in offer.items():
                head = f"  {tid} ({price['price']} pt" + (f", {price['eaten']} eaten" if price["eaten"] else "") + "):"
                cells = []
                for k in range(1, limit + 1):
                    c = odds.target_counters_distribution(k, price["price"], price["eaten"],
                                                          eaten_price=price.get("eaten_price", price["price"]))
                    mark = "*" if k == n else ""
                    cells.append(f"{mark}{k}d {float(c.expected):.2f} ({panels.percent(1 - c.p_none)})")
                lines.append(head + " " + "  ".join(cells))
        lines.append("Enter rolls the dice; Esc cancels (nothing is rolled).")
        return lines

    def affordable(self) -> bool:
        """Could the rolled pool pay for one counter on some piece? (the engine's cost of each, p.19)"""
        if self.pool is None:
            return False
        total = sum(r.value for r in self.pool.outcome.rolls[-self.pool_dice:])
        return any(self.assigned_cost({tid: 1}) <= total for tid in self.target_offer()["assign"])

    def assigned_cost(self, assign: dict[str, int] | None = None) -> int:
        """What the engine charges for the counters placed so far (p.19, A50)."""
        assign = {t: n for t, n in (self.assign if assign is None else assign).items() if n}
        if not assign:
            return 0
        p = self.session.preview(Action("target", self.picking, {"dice": self.pool_dice, "assign": assign}))
        return int(p.figures.get("cost", 0))

    def roll_target(self, given: list[float] | None = None) -> None:
        actor = self.picking
        attempt = self.session.roll_pool(actor, self.pool_dice, given)
        if attempt.pending is not None:
            p = attempt.pending
            self.ask_die(p, lambda v, p=p: self.roll_target(p.given + [v]) if v is not None else self.target_hint(),
                         f"Target by {actor}")
            return
        outcome = attempt.outcome
        if not outcome.legal:
            self.say("Target: not allowed", [outcome.reason])
            return
        if outcome.failed:
            # A Damaged suit failed (A25): the action is spent with the same die; nothing to place.
            self.commit_target()
            return
        self.pool = attempt
        self.target_hint()

    def add_counter(self, target: str, step: int) -> None:
        if target not in self.target_offer()["assign"]:
            p = self.session.preview(Action("target", self.picking, {"dice": self.pool_dice, "assign": {target: 1}}))
            self.say("Target: not allowed", [p.reason or f"{target} cannot be Targeted by {self.picking}"])
            return
        n = max(0, self.assign.get(target, 0) + step)
        wanted = {**self.assign, target: n}
        faces = [r.value for r in self.pool.outcome.rolls][-self.pool_dice:]
        cost = self.assigned_cost(wanted)
        if cost > sum(faces):
            self.say("Target: not enough points", [f"one more counter on {target} brings the cost to {cost}, more "
                                                    f"than the pool of {int(sum(faces))} [p.19]"])
            return
        self.assign = wanted
        self.target_hint()

    def commit_target(self) -> None:
        rolls = [r.value for r in self.pool.outcome.rolls] if self.pool is not None else []
        action = Action("target", self.picking, {"dice": self.pool_dice,
                                                 "assign": {t: n for t, n in self.assign.items() if n}})
        self.do(action, f"Target by {self.picking}", rolls)

    # ---- end of round, objectives, report, holding area, saves ---------------------------------------------------
    def ask_end_of_round(self) -> None:
        if self.app is None:
            return
        if self.session.computer is not None:
            self.ask_end_of_round_against_computer()
            return
        s = self.session.state
        # Only the viewer's own mission: the opponent's limit is secret until it ends the battle (A59).
        lines = end_of_round_lines(s, self.session.viewer)
        buttons = [("next", "Next round"), ("A", "Side A withdraws"), ("B", "Side B withdraws"),
                   ("both", "Both withdraw"), ("stop", "Agree to stop")]

        def closed(answer) -> None:
            if answer is None:
                self.say("End of round", ["press End turn (N) to decide the end of the round"])
                return
            if answer == "next":
                self.do(Action("end-of-round"), "End of round")
            elif answer in ("A", "B"):
                self.ask_pursuit(answer)
            elif answer == "both":
                self.do(Action("end-of-round", "", {"withdraw": "both"}), "Both withdraw")
            else:
                self.do(Action("end-of-round", "", {"stop": True}), "Agree to stop")

        self.app.push(Dialog(f"End of round {s.round}", lines, buttons, closed, columns=3, width=640))

    def ask_end_of_round_against_computer(self) -> None:
        """The human speaks for his side only: the computer answers a Withdraw itself and agrees to stop or not;
        it never withdraws, and says when it would stop."""
        session = self.session
        computer = session.computer
        assert computer is not None
        me, it = session.viewer, computer.side
        s = session.state
        lines = end_of_round_lines(s, me)
        legal = legal_actions(s, it)
        offer = bool(legal) and bool(computer.decide(player_view(s, it), legal).action.args.get("stop"))
        if offer:
            lines.append(f"The computer (side {it}) offers to stop here.")
        buttons = [("next", "Next round"), ("withdraw", f"Side {me} withdraws"), ("stop", "Agree to stop" if offer
                                                                                   else "Offer to stop")]

        def closed(answer) -> None:
            if answer is None:
                self.say("End of round", ["press End turn (N) to decide the end of the round"])
            elif answer == "withdraw":
                reply = computer.answer_withdraw(player_view(s, it))
                self.do(Action("end-of-round", "", {"withdraw": me, "answer": reply}), f"Side {me} withdraws")
            elif answer == "stop" and (offer or computer.agree_to_stop(player_view(s, it))):
                self.do(Action("end-of-round", "", {"stop": True}), "Both agree to stop")
            else:
                if answer == "stop":
                    session.computer_notes[len(s.log)] = "plays on: it does not agree to stop"
                self.do(Action("end-of-round"), "End of round")

        self.app.push(Dialog(f"End of round {s.round}", lines, buttons, closed, columns=3, width=640))

    def ask_scramble_square(self, actor: str) -> None:
        """The owner chooses the empty square the unit goes to (A23). The screen is the owner's (their turn), and the
        answer never reaches the opponent: the log names three blips in label order."""
        squares = self.session.scramble_squares(actor)
        if self.app is None or not squares:
            self.do(Action("scramble", actor))
            return

        def closed(answer) -> None:
            if answer is None:
                self.say("Scramble: cancelled", ["nothing changed"])
            elif answer == "any":
                self.do(Action("scramble", actor), f"Scramble {actor}")
            else:
                self.do(Action("scramble", actor, {"square": int(answer)}), f"Scramble {actor}")

        buttons = [(str(n), f"Square {n}") for n in squares] + [("any", "Any (drawn)")]
        self.app.push(Dialog(f"Scramble {actor}: which square?",
                             [f"Side {self.session.viewer} only: choose the empty holding-area square {actor} goes to. "
                              "Three blips take its place; the opponent cannot tell which is real [p.22, A23, A59]."],
                             buttons, closed, columns=4, width=640))

    def ask_pursuit(self, side: str) -> None:
        """The Withdraw is side ``side``'s; allowing or pursuing is the opponent's decision, asked on their screen."""
        other = "B" if side == "A" else "A"

        def closed(answer) -> None:
            if answer is None:
                self.ask_end_of_round()
                return
            self.do(Action("end-of-round", "", {"withdraw": side, "answer": answer}), f"Side {side} withdraws")

        def ask() -> None:
            self.app.push(Dialog(f"Side {side} withdraws", [f"Side {other}: allow the Withdraw (side {other} Controls "
                                                           f"the Table) or pursue for one more round? [p.16, A43]"],
                                 [("allow", "Allow it"), ("pursue", "Pursue")], closed, columns=2))

        self.ask_side(other, ask, f"Side {side} announces a Withdraw at the end of round {self.session.state.round}; "
                                  f"side {other} decides whether to allow it or pursue [p.16, A43].")

    def facing_owed(self) -> tuple[str, ...]:
        """Troopers just revealed that wait for a human owner's facing (the computer's keep the default)."""
        state = self.session.state
        computer = self.session.computer.side if self.session.computer is not None else None
        return tuple(u for u in state.to_face if u in state.units and state.units[u].side != computer)

    def facing_due(self) -> bool:
        """Troopers just revealed wait for their owner's facing, and the owner has not said "keep" for them."""
        owed = self.facing_owed()
        # Refereeing a physical table, the miniature stands as its owner put it: a correction sets its facing.
        refereed = getattr(self.session.game, "refereed", False)
        return bool(owed) and owed != self.facing_kept and self.app is not None and not refereed

    def ask_facing(self, uid: str) -> None:
        """The owner faces a trooper just revealed (A13), on their own screen; "keep" leaves every one still waiting at
        the default facing (toward the enemy's edge)."""
        state = self.session.state
        unit = state.units[uid]
        owner = unit.side

        def closed(answer) -> None:
            if answer is None or answer == "keep":
                self.facing_kept = self.facing_owed()
                self.next_step()
                return
            self.do(Action("face", uid, {"facing": float(answer)}), f"Face {uid}")

        def ask() -> None:
            lines = [f"Side {owner}: {uid} ({unit.type}) has just been revealed at ({unit.x:.1f}, {unit.y:.1f}) and "
                     f"faces {unit.facing:g}° for now. Choose its facing: revealed troopers take a facing chosen by "
                     f"their owner [A13]. Degrees count counter-clockwise from the table's x axis."]
            buttons = [(str(deg), f"{deg}° {facing_word(self.view, deg)}") for deg in FACINGS]
            buttons.append(("keep", f"Keep {unit.facing:g}°"))
            self.app.push(Dialog(f"Face {uid}", lines, buttons, closed, columns=3, width=640))

        self.ask_side(owner, ask, f"Side {owner}: a trooper of yours was revealed; you choose its facing [A13].")

    def ask_side(self, side: str, ask, why: str = "") -> None:
        """A question that belongs to ``side``: in hot-seat the screen is handed to that player first (the table
        hidden), so no question for one side appears on the other's screen."""
        if self.app is None:
            return
        if not self.session.hotseat or self.session.viewer == side:
            ask()
            return
        self.handing_off = True
        self.clear_tools()
        self.select(None)

        def ready(_answer) -> None:
            self.handing_off = False
            self.session.hand_to(side)
            self.refresh()
            self.show_log()
            ask()

        self.app.push(HandoffScreen(side, [why] if why else [], ready))

    def ask_objectives(self, chosen: dict[str, str] | None = None) -> None:
        if self.app is None:
            return
        chosen = dict(chosen or {})
        left = [o for o in self.session.state.result.get("objectives", []) if o not in chosen]
        if not left:
            self.do(Action("objectives", self.session.state.attacker or "", chosen), "Objectives")
            return
        oid = left[0]

        def closed(answer) -> None:
            if answer is None:
                self.say("Objectives", ["the attacker must set every surviving objective; press End turn (N) to "
                                        "continue"])
                return
            chosen[oid] = answer
            self.ask_objectives(chosen)

        self.app.push(Dialog(f"Objective {oid}", [f"Side {self.session.state.attacker} Controls the Table: set "
                                                  f"objective {oid} [p.16, A41]"],
                             [("secured", "Secured"), ("destroyed", "Destroyed"), ("inspected", "Inspected")],
                             closed, columns=3))

    def open_report(self) -> None:
        self.push_scene("report", self.session, on_save=self.ask_save)

    def open_holding(self) -> None:
        if not self.handing_off:
            self.push_scene("holding", self.session.view(), self.session.viewer)

    def undo(self, consent: bool = False) -> None:
        check = self.session.undo_check()
        if not check.allowed:
            self.say("Undo: not allowed", [check.reason])
            return
        if check.needs_consent and not consent:
            self.ask_consent(check)
            return
        try:
            taken = self.session.undo(consent)
        except InputError as e:
            self.say("Undo", e.problems)
            return
        self.clear_tools()
        self.shown_over = False
        self.refresh()
        self.show_log()
        self.say("Undone", [f"taken back: {taken}", "the battle is as it was before it (autosaved)"])
        if self.session.needs_handoff():
            self.hand_off(self.session.to_act())

    def ask_consent(self, check) -> None:
        """An action that rolled dice, revealed something or passed the turn is taken back only if the other player
        agrees: the screen goes to them (the table hidden), then back to the player who asked. Just after a hand-off
        the player who must agree already holds the screen."""
        side = check.side or self.session.viewer
        opponent = "B" if side == "A" else "A"
        if self.app is None:
            return
        self.clear_tools()
        self.select(None)

        at_screen = self.session.viewer

        def answered(answer) -> None:
            if answer == "allow":
                self.session.hand_to(side)
                self.undo(consent=True)
                self.hand_off(side)
            else:
                if at_screen != opponent:
                    self.hand_off(at_screen)
                self.say("Undo refused", [f"side {opponent} did not agree to take back {check.what!r}"])

        lines = [f"Side {side} asks to take back {check.what!r}: {check.why_consent}.",
                 "Taken back, it is logged for both players, and the same action would roll the same dice again.",
                 f"Player of side {opponent}: do you agree?"]
        self.app.push(ConsentScreen(opponent, lines, answered))

    def default_save_name(self) -> str:
        if self.session.save_path is not None:
            return str(self.session.save_path)
        stem = "".join(c if c.isalnum() else "-" for c in self.session.state.name.lower()).strip("-") or "battle"
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M")
        return str(paths.saves_dir() / f"{stem}-{stamp}.json")

    def ask_save(self) -> None:
        if self.app is None:
            return

        def closed(name) -> None:
            if not name:
                return
            try:
                written = self.session.save(name)
            except InputError as e:
                self.say("Not saved", [e.message()])
                return
            except OSError as e:
                self.say("Not saved", [f"{name}: {e.strerror or e}"])
                return
            self.say("Saved", [f"the battle is saved in {written}", "open it from the menu: Load a saved battle"])

        self.app.push(TextDialog("Save the battle", ["A save holds the set-up and every action with its dice; "
                                                     "loading it replays the battle exactly."],
                                 self.default_save_name(), closed, ok="Save"))

    def leave(self) -> None:
        if self.app is None:
            return

        def closed(answer) -> None:
            if answer == "leave":
                self.session.save_campaign_battle()
                self.app.pop()

        self.app.push(Dialog("Leave the battle?", ["The battle is autosaved after every action: the menu offers to "
                                                   "resume it."], [("leave", "Back to the menu"), ("stay", "Stay")],
                             closed, columns=2))

    # ---- events ---------------------------------------------------------------------------------------------
    def _button(self, element) -> bool:
        for key, b in self.action_buttons.items():
            if b is element:
                self.press(key)
                return True
        return super()._button(element)

    def _mouse_down(self, event) -> bool:
        pos = event.pos
        self.mouse = pos
        if self.tool in (PICK, TARGET, FLAME, KAMIKAZE) and self.on_table(pos) and event.button in (1, 3):
            if event.button == 3 and self.tool != TARGET:
                return super()._mouse_down(event)
            piece = self.piece_at(pos)
            if self.tool == PICK:
                if piece is not None:
                    self.pick(piece)
            elif self.tool == TARGET:
                if self.pool is None:
                    self.say("Target", ["roll the sensor dice first: Enter"])
                elif piece is not None:
                    self.add_counter(piece, 1 if event.button == 1 else -1)
            elif self.tool == FLAME:
                self.place_smoke(self.table_point(pos))
            else:
                self.kamikaze_to(self.table_point(pos), piece, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
            return True
        return super()._mouse_down(event)

    def place_smoke(self, point: tuple[float, float]) -> None:
        actor = self.picking
        x, y = round(point[0], 2), round(point[1], 2)
        p = self.session.preview(Action("flamer", actor, {"x": x, "y": y}))
        if not p.legal:
            self.say("Flamer: not allowed here", [p.reason])
            return
        f = p.figures
        lines = [f"smoke {2 * f['radius']:g}\" across centred at ({x}, {y}) [p.22, A36, A56]",
                 "under the smoke: " + (", ".join(f["under"]) or "nobody"),
                 "each trooper under it rolls the Red Die, then a normal die, for a graze; a drone is destroyed "
                 "[p.20, p.22]"]
        lines += [panels.outcome_line(u, f["odds"].get(u), "graze") for u in f["under"]]
        self.confirm_then(f"Flamer: {actor}", lines, p.action)

    def kamikaze_to(self, point, piece: str | None, jump: bool) -> None:
        actor = self.picking
        args = {"x": round(point[0], 2), "y": round(point[1], 2)}
        bf = self.table.bf
        if piece is not None and piece != actor and bf.pieces[piece].side != bf.pieces[actor].side:
            args["target"] = piece
        if jump:
            args["jump"] = True
        p = self.session.preview(Action("kamikaze", actor, args))
        if not p.legal:
            self.say("Kamikaze: not allowed", [p.reason])
            return
        f = p.figures
        lines = [f"{actor} {'jumps' if jump else 'moves'} to ({args['x']}, {args['y']}) and explodes [p.34, A35]"]
        if "contact" in f:
            c = f["contact"]
            lines.append(f"contact roll against {c['target']}: {c['effective_counters']} effective counters, "
                         f"{panels.percent(c['p_destroy'])} to destroy it [A34]")
        elif "target" in args:
            lines.append(f"{args['target']} is not touched there: no contact roll [A34]")
        if "blast" in f:
            b = f["blast"]
            lines.append(f"blast {b['radius']:g}\" with {b['dice']} dice catches: {', '.join(b['catches']) or 'nobody'} "
                         f"[p.21, A30, A35]" + ("; a target destroyed by the contact is not blasted" if "contact" in f
                                                else ""))
            lines += [panels.outcome_line(u, b["odds"].get(u), "blast") for u in b["catches"]]
        self.confirm_then(f"Kamikaze: {actor}", lines, p.action)

    # ---- what the keys do (``BATTLE_KEYS``) -------------------------------------------------------------------
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
        if self.tool not in (PICK, FLAME, KAMIKAZE):
            return False
        self.clear_tools()
        self.show_log()
        return True

    def target_dice(self, event) -> bool:
        n = DIGITS[event.key]
        if self.tool != TARGET or self.pool is not None or not 1 <= n <= self.target_limit():
            return False
        self.pool_dice = n
        self.target_hint()
        return True

    def target_more_fewer(self, event) -> bool:
        if self.tool != TARGET or self.pool is not None:
            return False
        step = -1 if event.key in MINUS else 1
        self.pool_dice = min(self.target_limit(), max(1, self.pool_dice + step))
        self.target_hint()
        return True

    def target_place_none(self) -> bool:
        if self.tool != TARGET or self.pool is None:
            return False
        self.commit_target()
        return True

    def target_enter(self) -> bool:
        if self.tool != TARGET:
            return False
        if self.pool is not None:
            if any(self.assign.values()) or not self.affordable():
                self.commit_target()
            else:
                self.say("Target: no counters placed yet", [
                    "Click the units, blips or objectives to place the counters first (right click takes one "
                    "back), then Enter.",
                    "Shift+Enter places none: the points are lost and the dice stay rolled [p.19]."])
            return True
        if not self.target_offer()["assign"] and not self.empty_pool_warned:
            # A Targeter with nothing in sight (a recce drone far forward) is warned before it rolls.
            self.empty_pool_warned = True
            self.say("Target: no target in sight", [
                f"No piece can be Targeted by {self.picking} from here: the pool would place no counter, "
                f"and {self.picking} would still gain a counter per die [p.19].",
                "Enter again rolls anyway; Esc cancels (nothing is rolled)."])
            return True
        self.roll_target()
        return True

    def target_escape(self) -> bool:
        if self.tool != TARGET:
            return False
        if self.pool is not None:
            self.target_hint()
        else:
            self.clear_tools()
            self.show_log()
        return True

    def target_holds_keys(self) -> bool:
        """While the counters are placed no other key acts: the rolled dice wait for them."""
        return self.tool == TARGET and self.pool is not None

    def open_help(self) -> None:
        self.push_scene("help", keys.help_groups(self.key_table))

    # ---- drawing --------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        L = self.layout
        pygame.draw.rect(surface, theme.HEADER, self.action_bar)
        if self.manager is not None:
            self.manager.draw_ui(surface)
        old = surface.get_clip()
        surface.set_clip(L.table)
        if self.tool == FLAME and self.on_table(self.mouse):
            x, y = self.table_point(self.mouse)
            centre = self.view.to_screen(x, y)
            p = self.smoke_preview((round(x, 1), round(y, 1)))
            colour = theme.MOVE_LEGAL if p.legal else theme.MOVE_ILLEGAL
            radius = p.figures.get("radius") or self.flame_offer().get("radius", 0.0)
            pygame.draw.circle(surface, colour, centre, max(2, radius * self.view.scale), 2)
        if self.tool == TARGET:
            for tid, n in self.assign.items():
                p = self.table.bf.pieces.get(tid)
                if p is not None and n:
                    drawing.draw_ring(surface, self.view, p, theme.SELECTION, gap=8, width=2)
        surface.set_clip(old)
        self._draw_banner(surface)

    def banner_who(self) -> tuple[str, str]:
        mine = f"You are side {self.session.viewer}" if not self.session.over else "Whole truth"
        return mine, "program dice" if self.session.dice is not None else "your dice"

    def flame_offer(self) -> dict:
        offers = self.session.legal_for("flamer", self.picking)
        return offers[0].free if offers else {}

    def smoke_preview(self, point: tuple[float, float]):
        """The engine's preview of the smoke under the cursor, asked once per point (not once per frame)."""
        if self.flame_point != point or self._smoke is None:
            self.flame_point = point
            self._smoke = self.session.preview(Action("flamer", self.picking, {"x": point[0], "y": point[1]}))
        return self._smoke

    def _draw_banner(self, surface) -> None:
        """Whose turn, who is active and how many actions are left: always in sight under the status bar."""
        s = self.session.state
        L = self.layout
        t = s.turn
        if s.phase == "over":
            text = "The battle is over" + ("" if self.session.over else ": the attacker sets the objectives")
        elif s.phase == "end-of-round":
            text = f"End of round {s.round}: Next round, Withdraw or stop"
        elif t is not None:
            text = f"Side {t.player} to play"
            c = self.session.computer
            if c is not None and t.player == c.side:
                text = f"The computer ({c.level.name}, side {t.player}) is playing"
            if t.active:
                text += f": {t.active} active, {t.actions_left} action{'s' if t.actions_left != 1 else ''} left"
            elif t.queue:
                text += f": revealed units to act: {', '.join(t.queue)}"
            else:
                text += f": activation {t.primary_used + 1} of {t.primary_allowed}" if t.primary_used < t.primary_allowed \
                    else f": extra blip activations {t.extra_blips_used} of 3"
        else:
            text = s.phase
        mine, dice = self.banner_who()
        box = pygame.Rect(L.table.x + 8, L.table.y + 4, L.table.w - 16, BANNER_H - 4)
        pygame.draw.rect(surface, (24, 27, 32), box, border_radius=4)
        draw_text(surface, f"{mine} · {text} · {dice}", (box.x + 10, box.centery), 14, True, theme.ACCENT, "midleft")
