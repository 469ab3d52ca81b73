"""Opponents the computer was never tuned on: scripted players of the styles a club player meets (issue 37).

Each plays one side through the same legal actions as any player (``session.legal_actions``), reads only its own
side's player view (``view.player_view``) and asks the engine's preview for a shot's odds, as a player may ask the
referee. None of them looks inside an enemy blip, at the opponent's holding area or at its mission.

* ``greedy``: the club player of the issue. It reveals a blip with an enemy within 18", takes the shot with the
  best odds of a kill, else Targets the cheapest revealed enemy with every die, else advances on the nearest
  objective (then the nearest enemy); it never withdraws and never agrees to stop.
* ``holder``: a cautious objective-holder. Its units go to the objectives and stay within 2" of them, shoot only at
  odds of one in three or better, Target only an enemy within 12", reveal a blip only with an enemy within 10";
  it agrees to stop once it stands ahead on the table.
* ``rusher``: its blips run to the objectives farthest forward at full reach and are revealed only there; then it
  plays as ``greedy``.
* ``hider``: ends every turn at once until round 4 (nothing revealed, nothing moved), then plays as ``greedy``.

Set-up is the engine's own placement (the set-up actions with nothing chosen, A60), a face or an objective's state
the random legal player's.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from referee.game.battle.intents import Action, LegalAction
from referee.game.players.legal_play import fill
from referee.game.play.session import Session
from referee.game.play.setup_steps import SETUP_KINDS
from referee.game.views.view import player_view
from referee.game.views.view_types import as_data

STYLES = ("greedy", "holder", "rusher", "hider")
REVEAL_REACH = {"greedy": 18.0, "holder": 10.0, "rusher": 18.0, "hider": 18.0}   # an enemy this near: reveal
SHOT_ODDS = {"greedy": 0.08, "holder": 0.33, "rusher": 0.08, "hider": 0.08}      # the least kill odds it fires at
TARGET_REACH = {"greedy": 99.0, "holder": 12.0, "rusher": 99.0, "hider": 99.0}
HOLD_RADIUS = 2.0           # the holder's units stay this near an objective
HIDE_UNTIL = 4              # the hider acts from this round on


def _dist(a: dict[str, Any], b: dict[str, Any]) -> float:
    return math.hypot(float(a["x"]) - float(b["x"]), float(a["y"]) - float(b["y"]))


@dataclass
class Stranger:
    """A scripted player of one ``style``; ``rng`` only breaks a refused Move's retries and fills free choices."""

    style: str
    rng: random.Random
    retries: bool = True
    _avoid: tuple[int, frozenset[str]] = (-1, frozenset())

    @property
    def name(self) -> str:
        return f"stranger:{self.style}"

    # ---- the Player protocol ---------------------------------------------------------------------------------

    def act(self, session: Session, side: str) -> Action | None:
        offered = session.legal_actions(side)
        if not offered:
            return None
        view = as_data(player_view(session.state, side, log=False))
        at, avoid = self._avoid
        avoid = avoid if at == len(session.game.record) else frozenset()
        choice = self._choose(session, side, view, offered)
        if choice is None or choice.text() in avoid:
            return self._fallback(session, offered, avoid)
        return choice

    def refused(self, session: Session, action: Action) -> None:
        at, avoid = self._avoid
        now = len(session.game.record)
        self._avoid = (now, (avoid if at == now else frozenset()) | {action.text()})

    def end_of_round(self, session: Session, side: str) -> tuple[bool, bool]:
        return False, self.style == "holder" and self._ahead(session, side)

    def answer_withdraw(self, session: Session, side: str) -> str:
        return "pursue"

    def agree_to_stop(self, session: Session, side: str) -> bool:
        return self.style == "holder" and self._ahead(session, side)

    # ---- choices ---------------------------------------------------------------------------------------------

    def _ahead(self, session: Session, side: str) -> bool:
        """More objectives held near its units than the enemy's: what a holder reads off the table."""
        view = as_data(player_view(session.state, side, log=False))
        mine = [u for u in view["units"] if u["side"] == side]
        theirs = [u for u in view["units"] if u["side"] != side]
        near = sum(1 for o in view["objectives"] if any(_dist(o, u) <= HOLD_RADIUS + 1 for u in mine))
        return near >= 2 and len(mine) >= len(theirs)

    def _fallback(self, session: Session, offered: list[LegalAction], avoid: frozenset[str]) -> Action | None:
        """Ending the activation or the turn, or failing that any action the preview accepts."""
        for kind in ("end-activation", "end-turn"):
            for la in offered:
                if la.kind == kind and la.action().text() not in avoid:
                    return la.action()
        for _ in range(6):
            a = fill(self.rng.choice(offered), self.rng)
            if a.text() not in avoid and session.preview(a).legal:
                return a
        return offered[0].action() if not offered[0].free else None

    def _choose(self, session: Session, side: str, view: dict[str, Any],
                offered: list[LegalAction]) -> Action | None:
        kinds = {la.kind for la in offered}
        if kinds & set(SETUP_KINDS):
            return next(la for la in offered if la.kind in SETUP_KINDS).action()
        if "face" in kinds or "objectives" in kinds or "end-of-round" in kinds:
            return fill(offered[0], self.rng)
        style = self.style
        if style == "hider" and int(view.get("round") or 0) < HIDE_UNTIL:
            return self._fallback(session, offered, frozenset())
        activations = [la for la in offered if la.kind == "activate"]
        if activations:
            return self._activate(view, side, activations, offered)
        actor = next((la.actor for la in offered if la.actor), "")
        return self._unit_action(session, side, view, actor, offered)

    def _enemies(self, view: dict[str, Any], side: str) -> list[dict[str, Any]]:
        return [u for u in view["units"] if u["side"] != side] + [b for b in view["blips"] if b["side"] != side]

    def _piece(self, view: dict[str, Any], ident: str) -> dict[str, Any] | None:
        return next((p for p in [*view["units"], *view["blips"]] if p["id"] == ident), None)

    def _activate(self, view: dict[str, Any], side: str, activations: list[LegalAction],
                  offered: list[LegalAction]) -> Action | None:
        """Revealed units first (the nearest to an enemy), then blips the nearest to the enemy (the rusher: the
        nearest to its goal); one extra blip activation a turn at most, the one that gains ground."""
        enemies = self._enemies(view, side)
        primaries = [la for la in activations if not la.args.get("extra")]
        pool = primaries or [la for la in activations if la.args.get("extra")]
        if not pool:
            return None
        if not primaries and self.style == "holder":
            # The cautious player takes no extra blip activations: its blips stay where they are.
            return next((la.action() for la in offered if la.kind == "end-turn"), None)

        def rank(la: LegalAction) -> tuple[int, float]:
            p = self._piece(view, la.actor)
            if p is None:
                return (2, 0.0)
            revealed = la.actor.split("-")[1] != "blip"
            if self.style == "rusher" and not revealed:
                goal = self._goal(view, side, p)
                return (0, _dist(p, goal) if goal else 99.0)
            near = min((_dist(p, e) for e in enemies), default=99.0)
            return (0 if revealed else 1, near)

        return min(pool, key=lambda la: (rank(la), la.actor)).action()

    def _goal(self, view: dict[str, Any], side: str, p: dict[str, Any]) -> dict[str, Any] | None:
        objectives = view["objectives"]
        if not objectives:
            return None
        if self.style == "rusher":
            # The objective farthest from its own edge's pieces: deepest forward, as measured from where it stands.
            mine = [u for u in [*view["units"], *view["blips"]] if u["side"] == side]
            home_y = sum(float(u["y"]) for u in mine) / max(1, len(mine))
            return max(objectives, key=lambda o: (abs(float(o["y"]) - home_y) - 0.3 * _dist(o, p), o["id"]))
        return min(objectives, key=lambda o: (_dist(o, p), o["id"]))

    def _unit_action(self, session: Session, side: str, view: dict[str, Any], actor: str,
                     offered: list[LegalAction]) -> Action | None:
        me = self._piece(view, actor)
        mine = [la for la in offered if la.actor == actor]
        by_kind: dict[str, list[LegalAction]] = {}
        for la in mine:
            by_kind.setdefault(la.kind, []).append(la)
        end = next((la.action() for la in offered if la.kind == "end-activation"), None)
        if me is None:
            return end
        enemies = self._enemies(view, side)
        near = min((_dist(me, e) for e in enemies), default=99.0)
        if "reveal" in by_kind:
            goal = self._goal(view, side, me)
            at_goal = goal is not None and _dist(me, goal) <= HOLD_RADIUS + 1
            if (self.style == "rusher" and at_goal) or near <= REVEAL_REACH[self.style]:
                return by_kind["reveal"][0].action()
        shot = self._best_shot(session, by_kind)
        if shot is not None:
            return shot
        if "kamikaze" in by_kind:
            kam = self._kamikaze(session, by_kind["kamikaze"][0], enemies, me)
            if kam is not None:
                return kam
        if "target" in by_kind and near <= TARGET_REACH[self.style]:
            t = self._target(view, side, by_kind["target"][0])
            if t is not None:
                return t
        if "move" in by_kind:
            mv = self._move(session, view, side, me, by_kind["move"][0], enemies)
            if mv is not None:
                return mv
        return end

    def _best_shot(self, session: Session, by_kind: dict[str, list[LegalAction]]) -> Action | None:
        best: tuple[float, Action] | None = None
        for kind, figure in (("rifle", "p_kill"), ("missile", "p_direct_hit")):
            for la in by_kind.get(kind, []):
                a = la.action()
                if not str(a.args.get("target", "")) or "-" not in str(a.args.get("target", "")):
                    continue
                p = session.preview(a)
                odds = float(p.figures.get(figure, 0.0) or 0.0) if p.legal else 0.0
                if odds >= SHOT_ODDS[self.style] and (best is None or odds > best[0]):
                    best = (odds, a)
        return best[1] if best else None

    def _kamikaze(self, session: Session, la: LegalAction, enemies: list[dict[str, Any]],
                  me: dict[str, Any]) -> Action | None:
        targets = [t for t in la.free.get("target") or [] if any(e["id"] == t for e in enemies)]
        for t in sorted(targets, key=lambda t: _dist(me, next(e for e in enemies if e["id"] == t))):
            e = next(e for e in enemies if e["id"] == t)
            a = la.action(x=round(float(e["x"]), 3), y=round(float(e["y"]), 3), target=t)
            if session.preview(a).legal:
                return a
        return None

    def _target(self, view: dict[str, Any], side: str, la: LegalAction) -> Action | None:
        """Every die on the cheapest revealed enemy, as many counters as the best roll buys."""
        revealed = {u["id"] for u in view["units"] if u["side"] != side}
        prices = {t: p for t, p in la.free.get("assign", {}).items() if t in revealed}
        if not prices:
            return None
        tid = min(prices, key=lambda t: (prices[t]["price"], t))
        dice = int(la.free["dice"][1])
        n = int(6 * dice // max(1, prices[tid]["price"])) - int(prices[tid]["eaten"])
        if n < 1:
            return None
        return la.action(dice=dice, assign={tid: n}, up_to=True)

    def _move(self, session: Session, view: dict[str, Any], side: str, me: dict[str, Any], la: LegalAction,
              enemies: list[dict[str, Any]]) -> Action | None:
        goal = self._goal(view, side, me)
        if goal is not None and _dist(me, goal) <= HOLD_RADIUS:
            if self.style == "holder":
                return None             # it holds
            goal = min(enemies, key=lambda e: (_dist(me, e), e["id"])) if enemies else None
        if goal is None:
            return None
        disc = la.free["x, y"]["within"]
        (cx, cy), reach = disc["centre"], float(disc["radius"])
        d = _dist(me, goal)
        if d < 0.5:
            return None
        stop = 1.2 if goal.get("id") in {e["id"] for e in enemies} else 0.0
        for share in (1.0, 0.8, 0.6, 0.4):
            step = min(reach * 0.98 * share, max(0.0, d - stop))
            for turn in (0.0, 20.0, -20.0, 45.0, -45.0):
                bearing = math.atan2(float(goal["y"]) - cy, float(goal["x"]) - cx) + math.radians(turn)
                a = la.action(x=round(cx + step * math.cos(bearing), 3), y=round(cy + step * math.sin(bearing), 3))
                if step >= 0.5 and session.preview(a).legal:
                    return a
        return None


def make_stranger(kind: str, seed: int) -> Stranger:
    """``stranger:STYLE`` for one of ``STYLES``."""
    style = kind.split(":", 1)[1]
    if style not in STYLES:
        raise ValueError(f"a stranger is one of {', '.join(STYLES)} (got {style!r})")
    return Stranger(style, random.Random(seed * 31 + len(style)))
