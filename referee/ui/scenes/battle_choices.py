"""The battle scene's choosing tools: the target of a rifle, a missile, a Command or a Repair, the flamer's smoke and
the kamikaze drone's point. Each choice shows the engine's own preview of that very action (its numbers, odds and
working) in a confirmation before anything is rolled.
"""

from __future__ import annotations

from typing import Iterable, Protocol

import pygame

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action, Preview
from ...game.views.view_words import view_unit
from ...rules import odds
from .. import panels, theme
from ..widgets import dashed_circle, sight_glyph
from .battle_questions import ChoosesForAUnit, ClicksOnTheTable
from .table_tools import contact_spots

PICK, FLAME, KAMIKAZE = "pick", "flame", "kamikaze"
TITLES = {PICK: "Choose a target", FLAME: "Flamer: place the smoke", KAMIKAZE: "Kamikaze: where to"}


class ChoicesHost(ClicksOnTheTable, ChoosesForAUnit, Protocol):
    """What the choosing tools use of the battle scene: a click on the table, choosing for a unit, and the log."""

    def say(self, title: str, lines: Iterable[object]) -> None: ...


class ChoiceTools:
    """Held by the battle scene as ``scene.choices``."""

    def __init__(self, host: ChoicesHost) -> None:
        self.host = host
        self.pick_kind = ""                           # the action waiting for its target: rifle, missile, command...
        self.flame_point: tuple[float, float] | None = None
        self._smoke: Preview | None = None
        self.pointed: str | None = None               # the target Tab chose: Enter takes it, as a click would

    def reset(self) -> None:
        self.flame_point = None
        self.pointed = None

    @property
    def actor(self) -> str:
        """The unit whose action waits for its choice (the tools are only used while one does)."""
        if self.host.picking is None:
            raise RuntimeError("a choosing tool is used with no action waiting for it")
        return self.host.picking

    def start_pick(self, kind: str, actor: str) -> None:
        whom = "friendly unit" if kind in (Kind.COMMAND, Kind.REPAIR) else "target"
        self.host.start_tool(PICK, actor, f"Click the {whom} for {kind} (or Tab through those the rules allow, and "
                                           f"Enter). The engine's numbers and odds are shown before anything is "
                                           f"rolled. Esc cancels.")
        self.pick_kind = kind
        self.pointed = None

    def allowed_picks(self) -> list[str]:
        """The pieces the engine lets the action waiting for its target take, by id."""
        kind, actor = self.pick_kind, self.actor
        return [ident for ident in sorted(self.host.table.bf.pieces) if ident != actor
                and self.host.session.check(Action(kind, actor, {"target": ident})).legal]

    def next_pick(self, event: pygame.event.Event) -> bool:
        """Tab / Shift+Tab while a target is chosen: the next / previous one the rules allow, its numbers shown."""
        if self.host.tool != PICK:
            return False
        picks = self.allowed_picks()
        kind, actor = self.pick_kind, self.actor
        if not picks:
            self.host.say(f"{kind.title()}: no target", [f"nothing {actor} may take as the target of a {kind} now: "
                                                         "Esc cancels"])
            return True
        step = -1 if getattr(event, "mod", 0) & pygame.KMOD_SHIFT else 1
        at = picks.index(self.pointed) if self.pointed in picks else (-1 if step > 0 else 0)
        self.pointed = picks[(at + step) % len(picks)]
        self.host.say(f"{kind.title()}: {actor} at {self.pointed}? Enter takes it, Tab the next",
                      self.preview_lines(kind, actor, self.pointed))
        return True

    def take_pointed(self) -> bool:
        """Enter while a target is chosen by Tab: taken, as a click on it would."""
        if self.host.tool != PICK or self.pointed is None:
            return False
        self.pick(self.pointed)
        return True

    def preview_lines(self, kind: str, actor: str, target: str) -> list[str]:
        """The numbers and odds of ``kind`` at ``target``: the engine's preview of that very action."""
        f = self.host.session.figures(Action(kind, actor, {"target": target}))
        lines = [str(x) for x in f.get("explain", ())]
        if kind == Kind.RIFLE and f.get("allowed"):
            lines.append(f"= {f['dice']} dice: kill {panels.percent(f['p_kill'])}, graze {panels.percent(f['p_graze'])}")
        elif kind == Kind.MISSILE and f.get("allowed"):
            cms = ", ".join(c["unit"] + ("" if c["cm"] is None else f" (CM {c['cm']}: {panels.percent(c['p_shoot_down'])})")
                            for c in f["countermeasures"])
            b = f["blast"]
            lines.append(f"a direct hit's blast ({b['radius']:g}\", {b['dice']} dice) catches: "
                         f"{', '.join(b['catches']) or 'nobody else'} [p.21, A30]; each, if the missile hits:")
            lines += [panels.outcome_line(u, b["odds"].get(u), "blast") for u in b["catches"]]
            lines += self.deviated_lines(f.get("deviated"))
            lines.append(f"= direct hit {panels.percent(f['p_direct_hit'])}; countermeasures: {cms or 'none'}")
        elif not lines:
            lines.append(f"{kind} {actor} -> {target}")
        return lines

    @staticmethod
    def deviated_lines(d: dict | None) -> list[str]:
        """A miss's blast, from the engine's figures: who it may catch, with what chance, and then what it does."""
        if not d:
            return []
        p = d["p_deviates"]
        catches = d["catches"]
        lines = [f"if it misses ({panels.percent(p)}), it deviates and its blast ({d['radius']:g}\", {d['dice']} "
                 f"dice) catches: " + (", ".join(f"{u} {panels.percent(c)}" for u, c in catches.items())
                                       or "nobody") + " [p.21, A29]; each, if caught:"]
        lines += [panels.outcome_line(u, d["odds"].get(u), "blast") for u in catches]
        return lines

    def pick(self, target: str) -> None:
        kind, actor = self.pick_kind, self.actor
        action = Action(kind, actor, {"target": target})
        check = self.host.session.check(action)
        if not check.legal:
            self.host.say(f"{kind.title()} at {target}: not allowed", [check.reason, "choose another, or Esc"])
            return
        lines = self.preview_lines(kind, actor, target)
        unit = view_unit(self.host.session.view(log=False), actor)
        if unit is not None and unit["damaged"]:
            lines.append(f"{actor} is Damaged: {panels.percent(odds.damaged_action_fails().p)} that the action "
                         f"fails and does nothing [p.25, A25]")
        self.host.questions.confirm_then(f"{kind.title()}: {actor} at {target}", lines, action)

    def place_smoke(self, point: tuple[float, float]) -> None:
        actor = self.actor
        x, y = round(point[0], 2), round(point[1], 2)
        p = self.host.session.preview(Action(Kind.FLAMER, actor, {"x": x, "y": y}))
        if not p.legal:
            self.host.say("Flamer: not allowed here", [p.reason])
            return
        f = p.figures
        lines = [f"smoke {2 * f['radius']:g}\" across centred at ({x}, {y}) [p.22, A36, A56]",
                 "under the smoke: " + (", ".join(f["under"]) or "nobody"),
                 "each trooper under it rolls the Red Die, then a normal die, for a graze; a drone is destroyed "
                 "[p.20, p.22]"]
        lines += [panels.outcome_line(u, f["odds"].get(u), "graze") for u in f["under"]]
        self.host.questions.confirm_then(f"Flamer: {actor}", lines, p.action)

    def kamikaze_spot(self, piece: str, jump: bool) -> tuple[dict, Preview]:
        """A click on the unit or objective to strike: the drone goes to a spot touching it, so that the contact
        roll is made (A34): the spot facing the drone, or else the nearest touching spot the engine accepts."""
        actor = self.actor
        bf = self.host.table.bf
        drone, target = bf.pieces[actor], bf.pieces[piece]
        first: tuple[dict, Preview] | None = None
        for x, y in contact_spots(drone, target, (drone.x, drone.y)):
            args: dict = {"x": x, "y": y, "target": piece, **({"jump": True} if jump else {})}
            p = self.host.session.preview(Action(Kind.KAMIKAZE, actor, args))
            if p.legal:
                return args, p
            first = first or (args, p)
        assert first is not None
        return first

    def kamikaze_to(self, point, piece: str | None, jump: bool) -> None:
        actor = self.actor
        args = {"x": round(point[0], 2), "y": round(point[1], 2)}
        bf = self.host.table.bf
        if piece is not None and piece != actor and bf.pieces[piece].side != bf.pieces[actor].side:
            args, p = self.kamikaze_spot(piece, jump)
        else:
            if jump:
                args["jump"] = True
            p = self.host.session.preview(Action(Kind.KAMIKAZE, actor, args))
        if not p.legal:
            self.host.say("Kamikaze: not allowed", [p.reason])
            return
        f = p.figures
        lines = [f"{actor} {'jumps' if jump else 'moves'} to ({args['x']:.2f}, {args['y']:.2f}) and explodes "
                 f"[p.34, A35]" + (f", touching {args['target']}" if "target" in args and "contact" in f else "")]
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
        self.host.questions.confirm_then(f"Kamikaze: {actor}", lines, p.action)

    def flame_offer(self) -> dict:
        offers = self.host.session.legal_for("flamer", self.actor)
        return offers[0].free if offers else {}

    def smoke_preview(self, point: tuple[float, float]):
        """The engine's preview of the smoke under the cursor, asked once per point (not once per frame)."""
        if self.flame_point != point or self._smoke is None:
            self.flame_point = point
            self._smoke = self.host.session.preview(Action(Kind.FLAMER, self.actor, {"x": point[0], "y": point[1]}))
        return self._smoke

    # ---- clicks and drawing ------------------------------------------------------------------------------------
    def click(self, piece: str | None, point: tuple[float, float]) -> None:
        """A left click on the table while a choice is under way."""
        tool = self.host.tool
        if tool == PICK:
            if piece is not None:
                self.pick(piece)
        elif tool == FLAME:
            self.place_smoke(point)
        elif tool == KAMIKAZE:
            self.kamikaze_to(point, piece, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))

    def draw(self, surface: pygame.Surface) -> None:
        """The smoke under the cursor, legal or not, as the engine would lay it."""
        host = self.host
        if host.tool != FLAME or not host.on_table(host.mouse):
            return
        x, y = host.table_point(host.mouse)
        centre = host.view.to_screen(x, y)
        p = self.smoke_preview((round(x, 1), round(y, 1)))
        colour = theme.MOVE_LEGAL if p.legal else theme.MOVE_ILLEGAL
        radius = p.figures.get("radius") or self.flame_offer().get("radius", 0.0)
        if p.legal:
            pygame.draw.circle(surface, colour, centre, max(2, radius * host.view.scale), 2)
        else:           # dashed and crossed: not allowed here, whatever the colour looks like
            dashed_circle(surface, colour, centre, max(2, radius * host.view.scale), 3, 6, 5)
            sight_glyph(surface, centre, 6, "blocked", colour, (255, 255, 255))
