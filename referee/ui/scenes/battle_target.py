"""The battle scene's Target tool: the sensor pool rolled first, then the counters placed on the pieces clicked.

The tool asks the engine for everything: the dice range and each piece's price (the legal Target action), the cost
of the counters placed so far (its preview) and the roll itself; it only remembers the player's choices. The pool
is recorded the moment it is rolled (``game/play/pool.py``): a battle resumed with a pool waiting opens this tool on it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Protocol

import pygame

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action
from ...rules.battlefield import ground_point
from ...service.session import Pending
from ..keys import DIGITS, MINUS
from .battle_questions import ChoosesForAUnit

TARGET = "target"
TITLE = "Target: place counters"


class TargetHost(ChoosesForAUnit, Protocol):
    """What the Target tool uses of the battle scene: besides choosing for a unit (the table: its patches of ground),
    how the scene shows a line, asks for a die, sends an action and comes back."""

    def clear_tools(self) -> None: ...

    def say(self, title: str, lines: Iterable[object]) -> None: ...

    def ask_die(self, pending: Pending, then: Callable[..., object], context: str = "") -> None: ...

    def do(self, action: Action, title: str | None = None, given: list[float] | None = None) -> None: ...

    def refresh(self) -> None: ...

    def show_log(self) -> None: ...


class TargetTool:
    """Held by the battle scene as ``scene.target``; its keys are the battle key table's "target." handlers."""

    def __init__(self, host: TargetHost) -> None:
        self.host = host
        self.dice = 1                                 # how many sensor dice the player chose
        self.assign: dict[str, int] = {}              # counters placed so far, by piece
        self.pointed: str | None = None               # the piece Tab chose after the roll: + / - place on it
        self.warned = False                           # Enter once warned that no target is in sight

    @property
    def on(self) -> bool:
        return self.host.tool == TARGET

    @property
    def actor(self) -> str:
        """The Targeter (the tool is only used while its action is under way)."""
        if self.host.picking is None:
            raise RuntimeError("the Target tool is used with no Targeter")
        return self.host.picking

    @property
    def pool(self) -> dict[str, Any] | None:
        """The Targeter's rolled sensor pool, as the battle recorded it (None before the roll)."""
        pool = self.host.session.pool()
        return pool if pool is not None and pool["actor"] == self.host.picking else None

    def rolls(self) -> list[float]:
        """Every die the rolled pool holds (a Damaged suit's test first, A25), none before the roll."""
        pool = self.pool
        return [float(r[2]) for r in pool["rolls"]] if pool is not None else []

    def reset(self) -> None:
        self.assign = {}
        self.pointed = None

    def resume(self) -> None:
        """A pool rolled before the battle was left (or before the screen changed hands): its Target goes on."""
        pool = self.host.session.pool()
        if pool is not None and self.host.session.to_act() == self.host.session.viewer:
            self.start(str(pool["actor"]))

    # ---- the engine's offer --------------------------------------------------------------------------------------
    def offer(self) -> dict[str, Any]:
        """The engine's legal Target action for the Targeter: its dice range and the price on each piece."""
        return self.host.session.target_offer(self.actor)

    def limit(self) -> int:
        return int(self.offer()["dice"][1])

    def start(self, actor: str) -> None:
        self.host.start_tool(TARGET, actor, "")
        self.warned = False
        pool = self.pool
        self.dice = int(pool["dice"]) if pool is not None else self.limit()
        self.hint()

    # ---- what the log shows ------------------------------------------------------------------------------------
    def faces(self) -> list[float]:
        return self.rolls()[-self.dice:] if self.pool is not None else []

    def hint(self) -> None:
        if self.pool is None:
            self.host.say(TITLE, self.pool_lines())
            return
        faces = self.faces()
        total = int(sum(faces))
        spent = self.cost()
        lines = [f"sensor pool {' + '.join(str(int(f)) for f in faces)} = {total}; spent {spent}, left {total - spent}",
                 "Left click a unit, blip, objective or open ground (A54): one more counter; right click: one less "
                 "(or Tab to a piece and + / -). Enter places them (unspent points are lost [p.19]). The dice are "
                 "rolled: the action is taken."]
        if self.pointed is not None:
            lines.append(f"Tab chose {self.pointed}: + one more counter on it, - one less")
        lines += [f"  {tid}: {n} counter{'s' if n != 1 else ''}" for tid, n in self.assign.items() if n]
        self.host.say(TITLE, lines)

    def pool_lines(self) -> list[str]:
        """Before the roll: the pool's odds for the dice chosen, and for every dice count the counters the whole pool
        would place on each piece the engine lets the Targeter price, as the service works them out."""
        return list(self.host.session.target_hint(self.actor, self.dice).lines)

    # ---- the roll and the counters -----------------------------------------------------------------------------
    def affordable(self) -> bool:
        """Could the rolled pool pay for one counter on some piece? (the engine's cost of each, p.19)"""
        if self.pool is None:
            return False
        total = sum(self.faces())
        return any(self.cost({tid: 1}) <= total for tid in self.offer()["assign"])

    def cost(self, assign: dict[str, int] | None = None) -> int:
        """What the engine charges for the counters placed so far (p.19, A50)."""
        assign = {t: n for t, n in (self.assign if assign is None else assign).items() if n}
        if not assign:
            return 0
        p = self.host.session.preview(Action(Kind.TARGET, self.actor, {"dice": self.dice, "assign": assign}))
        return int(p.figures.get("cost", 0))

    def roll(self, given: list[float] | None = None) -> None:
        actor = self.actor
        attempt = self.host.session.roll_pool(actor, self.dice, given)
        if attempt.pending is not None:
            p = attempt.pending
            self.host.ask_die(p, lambda v, p=p: self.roll(p.given + [v]) if v is not None else self.hint(),
                               f"Target by {actor}")
            return
        outcome = attempt.outcome
        if outcome is None or not outcome.legal:
            self.host.say("Target: not allowed", [outcome.reason if outcome is not None else "no roll"])
            return
        self.host.refresh()                 # the pool is in the log, and the autosave holds it
        if outcome.failed:
            # A Damaged suit failed (A25): the action is spent with the same die; nothing to place.
            self.commit()
            return
        self.hint()

    def add_counter(self, target: str, step: int) -> None:
        if target not in self.offer()["assign"]:
            # not among the pieces offered: a point of ground (A54) is checked by the engine itself
            p = self.host.session.preview(Action(Kind.TARGET, self.actor, {"dice": self.dice, "assign": {target: 1}}))
            if not p.legal or ground_point(target) is None and target not in self.host.table.bf.ground:
                self.host.say("Target: not allowed", [p.reason or f"{target} cannot be Targeted by {self.actor}"])
                return
        n = max(0, self.assign.get(target, 0) + step)
        wanted = {**self.assign, target: n}
        faces = self.faces()
        cost = self.cost(wanted)
        if cost > sum(faces):
            self.host.say("Target: not enough points", [f"one more counter on {target} brings the cost to {cost}, "
                                                          f"more than the pool of {int(sum(faces))} [p.19]"])
            return
        self.assign = wanted
        self.hint()

    def commit(self) -> None:
        # The Target spends the recorded pool's dice (``game/play/pool.py``): no die is given or rolled here.
        action = Action(Kind.TARGET, self.actor, {"dice": self.dice,
                                               "assign": {t: n for t, n in self.assign.items() if n}})
        self.host.do(action, f"Target by {self.actor}")

    def click(self, piece: str | None, button: int) -> None:
        if self.pool is None:
            self.host.say("Target", ["roll the sensor dice first: Enter"])
        elif piece is not None:
            self.add_counter(piece, 1 if button == 1 else -1)

    # ---- its keys (``battle_keys.TARGET``): each declines outside the tool ------------------------------------
    def dice_key(self, event: pygame.event.Event) -> bool:
        n = DIGITS[event.key]
        if not self.on or self.pool is not None or not 1 <= n <= self.limit():
            return False
        self.dice = n
        self.hint()
        return True

    def more_fewer(self, event: pygame.event.Event) -> bool:
        if not self.on:
            return False
        step = -1 if event.key in MINUS else 1
        if self.pool is not None:
            # After the roll: a counter more or less on the piece Tab chose (the keyboard's click).
            if self.pointed is None:
                self.host.say(TITLE, ["Tab chooses the piece first: then + places a counter on it, - takes one off"])
            else:
                self.add_counter(self.pointed, step)
            return True
        self.dice = min(self.limit(), max(1, self.dice + step))
        self.hint()
        return True

    def next_piece(self, event: pygame.event.Event) -> bool:
        """After the roll, Tab / Shift+Tab: the next / previous piece the engine lets the Targeter price."""
        if not self.on or self.pool is None:
            return False
        pieces = sorted(self.offer()["assign"])
        if not pieces:
            self.host.say(TITLE, ["no piece the Targeter may put counters on: Shift+Enter places none"])
            return True
        step = -1 if getattr(event, "mod", 0) & pygame.KMOD_SHIFT else 1
        at = pieces.index(self.pointed) if self.pointed in pieces else (-1 if step > 0 else 0)
        self.pointed = pieces[(at + step) % len(pieces)]
        self.hint()
        return True

    def place_none(self) -> bool:
        if not self.on or self.pool is None:
            return False
        self.commit()
        return True

    def enter(self) -> bool:
        if not self.on:
            return False
        if self.pool is not None:
            if any(self.assign.values()) or not self.affordable():
                self.commit()
            else:
                self.host.say("Target: no counters placed yet", [
                    "Click the units, blips or objectives to place the counters first (right click takes one "
                    "back), then Enter.",
                    "Shift+Enter places none: the points are lost and the dice stay rolled [p.19]."])
            return True
        if not self.offer()["assign"] and not self.warned:
            # A Targeter with nothing in sight (a recce drone far forward) is warned before it rolls.
            self.warned = True
            self.host.say("Target: no target in sight", [
                f"No piece can be Targeted by {self.actor} from here: the pool would place no counter, "
                f"and {self.actor} would still gain a counter per die [p.19].",
                "Enter again rolls anyway; Esc cancels (nothing is rolled)."])
            return True
        self.roll()
        return True

    def escape(self) -> bool:
        if not self.on:
            return False
        if self.pool is not None:
            self.hint()
        else:
            self.host.clear_tools()
            self.host.show_log()
        return True

    def holds_keys(self) -> bool:
        """While the counters are placed no other key acts: the rolled dice wait for them."""
        return self.on and self.pool is not None
