"""The computer player: given its player view and the legal actions, one legal action and a one-line reason.

Its entry point, ``Computer.decide(view, legal)``, takes the view (``game/views/view.py``) and the list of legal actions
(``game/play/legal.py``) and nothing else: it never receives the battle's state, so it cannot read the opponent's blips,
holding area, mission or cards. To look ahead it imagines whole states consistent with the view
(``determinize.py``), runs the engine's own resolution of each candidate action on them with dice rolled in its
head, and scores what comes out (``evaluate.py``) against its own mission card. The reason it gives uses the figures
the engine reports (odds of a shot, Target counters) and the exposure map of its view (how many enemies could see a
place).

The same view, legal actions and seed always give the same decision: its random choices are seeded from the seed
and the view's public and own data (``seen.fingerprint``).
"""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
from dataclasses import dataclass

from ...battle.action_kinds import Kind
from ....collector import cycle_collection_held
from ....rules.fast_sight import ExposureTiles
from ....rules.table_sight import ExposureMap
from ...battle.intents import Action
from ...play.actions import ActionOutcome
from ...views.battlefield import battlefield_from_view
from ...play.engine import play
from ...battle.intents import LegalAction
from ...play.legal import legal_actions
from ...play.session import preview
from ...play.setup_steps import SETUP_KINDS
from ...battle.scoring import score_mission
from ...battle.state import Data, GameState, other
from ...play.turns import EXTRA_BLIPS
from ...play.victory import OBJECTIVE_CHOICES
from .belief import Belief, belief
from .blind import blind_view, hidden_own_blip, stand_in
from .candidates import Candidate, exposure_at, expand, own_decoy, reach, target_candidates
from .determinize import sample_state
from .evaluate import Aims, evaluate, mission_margin, outcome_now, weights, worst_margin
from .levels import Level, level
from .reply import blast_loss
from .search import deepen, short
from .seen import Seen, fingerprint
from .setup import setup_decision
from .weighing import DeviatedDice, FixedDice, HeadDice, MissileDice, _Scored, deviations
from .candidates import goals_for, point_candidates

EXPOSURE_STEP = 1.0
EXPOSURE_COST = 0.15        # VP per enemy that could see a trooper where it ends a Move (it may be Targeted there)
REVEAL_COST = 0.6          # VP a blip's secret is worth while no enemy is near enough to make its units count
REVEAL_REACH = 14.0
REVEAL_HASTE = 2.0          # on the clock, a reveal is worth this many of the blip's best Move (below)
PURSUIT_HOPE = 4.0          # VP a round more of fighting may bring, about one enemy trooper destroyed (p.16)
STOP_FROM_ROUND = 2         # it offers to stop from the end of this round on, when ahead
WITHDRAW_LEAD = 1.0         # a Withdraw wins against a mission the opponent may hold by at least this, whatever it answers
WITHDRAW_ODDS = 0.6         # hard withdraws when it so wins against this share of them: a line C force holding Break
                            # Contact beats four of the six chance-encounter cards in round 1, and lost by playing on
EXTRA_BLIP_GAIN = 0.05      # an extra blip activation is taken only when it gains at least this much
GRIDS_KEPT = 16
INSPECT_LOOK = 18.0         # an objective to Inspect this near a unit makes a Target worth weighing for its activation
SIGHT_KEYS = ("id", "type", "faction", "rating", "x", "y", "facing", "base")     # what an enemy's sight depends on

# Exposure maps already made, by what they are made from: the table, its terrain and the known enemies. Most
# decisions in a row see the same enemies standing where they stood, and the map was a tenth of a battle's time.
# The key is those parts pickled: the same bytes are the same data (a view written in another order only misses),
# at a tenth of the cost of writing them out as sorted JSON, which every decision paid for its table's terrain.
# A map is worked out a tile at a time, as its points are read (``ExposureTiles``): a decision reads the points its
# units could reach, and the rest of the table was most of the map's cost.
_grids: dict[bytes, ExposureMap | None] = {}


def exposure_map(view: Data, side: str) -> ExposureMap | None:
    key = pickle.dumps([side, view["table"], view.get("scale", 1.0), view.get("terrain"), view.get("rulings"),
                        [[u.get(k) for k in SIGHT_KEYS] for u in view["units"] if u["side"] != side]],
                       pickle.HIGHEST_PROTOCOL)
    if key not in _grids:
        if len(_grids) >= GRIDS_KEPT:
            del _grids[next(iter(_grids))]
        _grids[key] = ExposureTiles(battlefield_from_view(view), side, EXPOSURE_STEP)
    return _grids[key]


def on_the_clock(seen: Seen) -> bool:
    """Whether the battle may end at a round limit before the computer's side has done what it must: its own
    mission sets one (Eyes On), or it attacks and the defender's card, unseen, may set one (Delaying Action wins
    a stalemate at round 6) [A43]. Then speed counts more than secrecy."""
    mine = seen.my_mission
    if mine is not None and mine.round_limit:
        return True
    return seen.view.get("attacker") == seen.me and any(m.round_limit for m in seen.their_missions)


@dataclass(frozen=True)
class Decision:
    action: Action
    reason: str
    public: str = ""        # the reason as the opponent may read it: nothing drawn from the computer's own secrets

    def shown(self) -> str:
        return self.public or self.reason


class _Think:
    """One decision's working: the view read, the belief, the imagined worlds and the exposure map."""

    def __init__(self, view: Data, side: str, lv: Level, seed: int):
        self.seen = Seen(view, side)
        self.level = lv
        self.seed = seed
        self._blind: _Think | None = None
        self.rng = random.Random(f"{seed}|{side}|{lv.name}|{fingerprint(view)}")
        self.belief: Belief = belief(self.seen)
        self.aims = Aims.of(self.seen.my_mission)
        # The objectives its mission Inspects and the counters each still needs (a counter beyond pays nothing).
        self.inspect = self.aims.wanted_counters({oid: int(o.get("target_counters", 0))
                                                  for oid, o in self.seen.objectives.items()})
        self.worlds: list[GameState] = [sample_state(self.seen, self.belief, self.rng) for _ in range(lv.worlds)]
        self._grid: ExposureMap | None = None
        self._grid_done = False
        self.searched = 0       # candidates hard's look-ahead has weighed for this decision (``Level.search_budget``)
        self.haste = on_the_clock(self.seen)
        if self.haste and self.seen.view.get("attacker") == side and not self.aims.inspect:
            # The defender's card may win a stalemate at the round limit (Delaying Action): only kills and the
            # Control of the Table they bring deny it. With the usual pull the attacker's Moves gained less than
            # the danger they ran, and it spent activations standing still until round 6.
            self.aims = dataclasses.replace(self.aims, hunt=weights().clock_hunt)

    @property
    def grid(self) -> ExposureMap | None:
        if not self._grid_done:
            self._grid_done = True
            self._grid = exposure_map(self.seen.view, self.seen.me)
        return self._grid

    def blind(self) -> _Think:
        """The same decision weighed as if each of its blips held the stand-in and none would be revealed
        (``blind.py``): a blip's activation and Move read nothing of what any blip holds."""
        if self._blind is None:
            self._blind = _Think(blind_view(self.seen.view, self.seen.me), self.seen.me, self.level, self.seed)
        return self._blind

    def dice(self) -> HeadDice:
        return HeadDice(self.rng)

    def fixed_dice(self, face: int) -> FixedDice:
        return FixedDice(face, self.rng)

    def value(self, state: GameState) -> float:
        s = self.seen
        v = evaluate(state, s.me, s.my_mission, s.their_missions, self.aims, self.belief, self.level.heeds_danger)
        if self.level.blasts:
            v -= blast_loss(state, s.me, self.aims)
        return v

    def simulate(self, world: GameState, action: Action, samples: int) -> tuple[float | None, ActionOutcome | None]:
        """The action's average value in one imagined world, over ``samples`` rolls of the dice (one if none).
        A rifle shot is weighed exactly instead: kill, graze and miss, each at the preview's odds [p.20]."""
        if action.kind == Kind.RIFLE:
            return self._rifle(world, action)
        if action.kind == Kind.MISSILE:
            return self._missile(world, action)
        total, n, first = 0.0, 0, None
        for _ in range(max(1, samples)):
            out = play(world, action, HeadDice(self.rng))
            if not out.legal:
                return None, out
            first = first or out
            total += self.value(out.state) + self._shaping(action, out)
            n += 1
            if not out.rolls:
                break
        return total / n, first

    def _rifle(self, world: GameState, action: Action) -> tuple[float | None, ActionOutcome | None]:
        p = preview(world, action)
        if not p.legal or "p_kill" not in p.figures:
            out = play(world, action, HeadDice(self.rng))
            return (self.value(out.state), out) if out.legal else (None, out)
        kill, graze = float(p.figures["p_kill"]), float(p.figures.get("p_graze", 0.0))
        total, first = 0.0, None
        # Every die a 1 kills, every die a 2 grazes (or kills a drone), every die a 6 does nothing [p.20, A57].
        for face, weight in ((1, kill), (2, graze), (6, max(0.0, 1.0 - kill - graze))):
            if weight <= 0 and first is not None:
                continue
            out = play(world, action, FixedDice(face, self.rng))
            if not out.legal:
                return None, out
            first = first or out
            total += weight * self.value(out.state)
        return total, first

    def _missile(self, world: GameState, action: Action) -> tuple[float | None, ActionOutcome | None]:
        """A missile weighed by its three outcomes at the preview's odds (shot down, direct hit, deviation) [p.21]:
        a few rolls of its hit die in the head made a 1-in-9 shot look like a kill one time in three. A deviation
        whose blast may catch anything (the preview's ``deviated`` catches) is weighed over eight deviations that
        sweep the circle it may land in (``weighing.deviations``): one deviation rolled in the head mostly landed
        clear, and a missile at an objective beside three of its own troopers was fired and took all three."""
        p = preview(world, action)
        if not p.legal or "p_direct_hit" not in p.figures:
            out = play(world, action, HeadDice(self.rng))
            return (self.value(out.state), out) if out.legal else (None, out)
        hit, down = float(p.figures["p_direct_hit"]), float(p.figures.get("p_shot_down") or 0.0)
        swept = bool((p.figures.get("deviated") or {}).get("catches"))
        total, first = 0.0, None
        for outcome, weight in (("hit", hit), ("down", down), ("miss", max(0.0, 1.0 - hit - down))):
            if weight <= 1e-9:
                continue
            ways: list[tuple[HeadDice, float]] = [(MissileDice(outcome, self.rng), weight)]
            if outcome == "miss" and swept:
                spread = deviations(self.rng)
                ways = [(DeviatedDice(sum_, bearing, self.rng), weight / len(spread)) for sum_, bearing in spread]
            for dice, share in ways:
                out = play(world, action, dice)
                if not out.legal:
                    return None, out
                first = first or out
                total += share * self.value(out.state)
        return total, first

    def _shaping(self, action: Action, out: ActionOutcome) -> float:
        if action.kind == Kind.REVEAL:
            if self.haste:
                return 0.0          # the secret is worth less than the time (``hasten``)
            return -REVEAL_COST if self._far_from_enemy(action.actor) else 0.0
        if action.kind not in (Kind.MOVE, Kind.JUMP) or "x" not in action.args:
            return 0.0
        u = out.state.units.get(action.actor)
        if u is None:
            # A blip that ends its Move within 6" of an enemy is revealed there (p.18): each trooper it shows stands
            # in the sight of the enemies that see that ground, as a trooper that moved there would. Weighed blind
            # (``blind.py``), every blip shows the same stand-in, so this reads nothing of what the blip holds.
            shown = [out.state.units[i] for i in out.revealed.get(action.actor, ()) if i in out.state.units]
            return -sum(self.ground_price(v.x, v.y) for v in shown if not v.is_drone)
        if u.is_drone:
            return 0.0
        return -self.exposure_price(action)

    def exposure_price(self, action: Action) -> float:
        """What a trooper's Move or Jump costs for the enemies that could see it where it ends."""
        return self.ground_price(float(action.args["x"]), float(action.args["y"]))

    def ground_price(self, x: float, y: float) -> float:
        """What a trooper standing at (x, y) costs for the enemies that could see it there and Target it, at a level
        that heeds the danger its units stand in (``Level.heeds_danger``); nothing at one that does not."""
        if not self.level.heeds_danger:
            return 0.0
        return EXPOSURE_COST * exposure_at(self.grid, x, y)

    def _far_from_enemy(self, ident: str) -> bool:
        """No enemy, revealed or blip, within rifle reach: a blip revealed there only gives its secret away."""
        me = self.seen.piece(ident)
        if me is None:
            return False
        marks = self.seen.enemies() + self.seen.enemy_blips()
        return all(math.hypot(m["x"] - me["x"], m["y"] - me["y"]) > REVEAL_REACH for m in marks)

    def score(self, cands: list[Candidate], samples: int | None = None) -> list[_Scored]:
        out = []
        samples = self.level.dice_samples if samples is None else samples
        for c in cands:
            vals, first = [], None
            for w in self.worlds:
                v, o = self.simulate(w, c.action, samples)
                if v is None:
                    break
                vals.append(v)
                first = first or o
            if len(vals) == len(self.worlds):
                out.append(_Scored(c, sum(vals) / len(vals), first))
        return out

    def hasten(self, scored: list[_Scored]) -> list[_Scored]:
        """On the clock, a blip's reveal weighed with what its units do next: revealed before acting, each trooper
        gets 2 actions where the blip had 1 (p.18), so it goes as far as two of the blip's Moves. Scored alone,
        the reveal gained nothing and the blip moved: an attacker under Eyes On crept forward one Move a round."""
        if not self.haste:
            return scored
        reveal = [x for x in scored if x.cand.action.kind == Kind.REVEAL]
        moves = [x.value for x in scored if x.cand.action.kind == Kind.MOVE]
        if not reveal or not moves:
            return scored
        out = []
        for x in scored:
            if x.cand.action.kind == Kind.REVEAL:
                x = _Scored(x.cand, x.value + REVEAL_HASTE * max(0.0, max(moves) - x.value), x.outcome)
            out.append(x)
        return out

    def pick(self, scored: list[_Scored]) -> _Scored:
        best = max(s.value for s in scored)
        if self.level.slack > 0:
            fair = [s for s in scored if s.value >= best - self.level.slack]
            return self.rng.choice(fair)
        top = [s for s in scored if s.value >= best - 1e-9]
        return top[0]


def _reveal_over(think: _Think, reveal: list[LegalAction], avoid: frozenset[str],
                 move: _Scored | None) -> tuple[_Scored, list[_Scored]] | None:
    """A blip's reveal weighed in ``think``'s worlds against its best blind Move (``move``, if any): the reveal and
    everything weighed, when the reveal comes out best. A reveal's candidates read no exposure map."""
    cands = [c for c in expand(reveal, think.seen, (), (), None, 0, 0.0) if c.action.text() not in avoid]
    if not cands:
        return None
    weighed = think.hasten(think.score(cands + ([move.cand] if move is not None else [])))
    if not weighed:
        return None
    top = think.pick(weighed)
    return (top, weighed) if top.cand.action.kind == Kind.REVEAL else None


class Computer:
    """A computer player for one side, at a named level (``levels.LEVELS``)."""

    def __init__(self, side: str, level_name: str = "normal", seed: int = 0):
        self.side = side
        self.level = level(level_name)
        self.seed = seed

    def decide(self, view: Data, legal: list[LegalAction], avoid: frozenset[str] = frozenset()) -> Decision:
        """One of ``legal`` (its free parameters chosen), from ``view`` alone, with a one-line reason. ``avoid``
        names actions (``Action.text``) the engine just refused here (a Target whose pool fell short): another is
        chosen, so that the same refusal is not met again."""
        with cycle_collection_held():
            return self._decide(view, legal, avoid)

    def _decide(self, view: Data, legal: list[LegalAction], avoid: frozenset[str]) -> Decision:
        if not legal:
            raise ValueError("the computer was asked to act with no legal action")
        if view.get("viewer") != self.side:
            raise ValueError(f"the computer of side {self.side} was given side {view.get('viewer')}'s view")
        kinds = {la.kind for la in legal}
        if kinds & set(SETUP_KINDS):
            rng = random.Random(f"{self.seed}|{self.side}|set-up|{fingerprint(view)}")
            seen = Seen(view, self.side)
            action, reason = setup_decision(seen, legal, rng)
            return Decision(action, reason)
        if kinds == {Kind.END_OF_ROUND}:
            return self._end_of_round(view, legal[0])
        if kinds == {Kind.OBJECTIVES}:
            return self._objectives(view, legal[0])
        if kinds == {Kind.END_ACTIVATION}:
            active = (view.get("turn") or {}).get("active")
            whose = f"{active}'s activation" if active else "the activation"
            return Decision(legal[0].action(), f"ends {whose}: it has no action left")
        think = _Think(view, self.side, self.level, self.seed)
        turn = kinds - {"face"}
        if Kind.ACTIVATE in turn and turn <= {Kind.ACTIVATE, Kind.END_TURN, Kind.END_ACTIVATION}:
            # Units a blip's Move revealed may be turned (A13) before the next activation: which unit to activate
            # is chosen as any other time, and the units keep their facing.
            return self._activation(think, [la for la in legal if la.kind != Kind.FACE])
        return self._unit_action(think, legal, avoid)

    # ---- the unit being activated ------------------------------------------------------------------------
    def _unit_action(self, think: _Think, legal: list[LegalAction], avoid: frozenset[str] = frozenset()) -> Decision:
        actor = next((la.actor for la in legal if la.actor), None)
        if hidden_own_blip(think.seen.view, think.seen.me, actor):
            return self._blip_action(think, legal, avoid, str(actor))
        scored = self._weigh(think, legal, avoid)
        if not scored:
            return self._no_action(legal)
        return self._decision(think, think.pick(scored), scored)

    def _weigh(self, think: _Think, legal: list[LegalAction], avoid: frozenset[str]) -> list[_Scored]:
        cands = expand(legal, think.seen, think.aims.hold, think.aims.destroy, think.grid, think.level.move_points,
                       think.rng.uniform(0, math.pi), think.belief.p_real, think.inspect)
        cands = [c for c in cands if c.action.text() not in avoid]
        scored = think.hasten(think.score(cands))
        if scored and think.level.look_ahead:
            scored = deepen(think, scored)
        return scored

    def _blip_action(self, think: _Think, legal: list[LegalAction], avoid: frozenset[str], blip: str) -> Decision:
        """One of its hidden blips acts: its Move is chosen as if it held the stand-in (``blind.py``), decoy or
        not; only then, for a blip of units, is revealing it weighed against that Move on what it really holds."""
        blind = think.blind()
        scored = self._weigh(blind, [la for la in legal if la.kind != Kind.REVEAL], avoid)
        best = blind.pick(scored) if scored else None
        reveal = [la for la in legal if la.kind == Kind.REVEAL]
        if reveal and not own_decoy(think.seen, blip):
            found = _reveal_over(think, reveal, avoid, best)
            if found is not None:
                return self._decision(think, *found)
        elif reveal and best is not None:
            shown = self._decoy_shown(think, reveal, avoid, blip, best)
            if shown is not None:
                return shown
        if best is None:
            return self._no_action(legal)
        return self._decision(blind, best, scored)

    def _decoy_shown(self, think: _Think, reveal: list[LegalAction], avoid: frozenset[str], blip: str,
                     move: _Scored) -> Decision | None:
        """A decoy in its own activation shows itself where a blip holding the stand-in would be revealed: weighed
        on the blind view with this one blip holding the stand-in, against the same blind Move. A blip of units
        taking a turn's activation is often revealed in it, a decoy never was, so the blips still hidden after one
        were likelier decoys: the opponent could count them out (docs/computer.md, "No tells in its blips")."""
        view = think.blind().seen.view
        held = stand_in(think.seen.view, think.seen.me)
        if not held:
            return None
        shown = _Think({**view, "blips": [{**b, "contents": held} if b["id"] == blip else b for b in view["blips"]]},
                       think.seen.me, think.level, self.seed)
        found = _reveal_over(shown, reveal, avoid, move)
        if found is None:
            return None
        top, weighed = found
        over = top.value - max((x.value for x in weighed if x is not top), default=top.value)
        reason = (f"reveals its decoy {blip}: a blip of units standing here would be revealed ({over:+.2f} VP over "
                  f"its best Move, weighed on the stand-in), and decoys that never show themselves would mark the "
                  f"blips that stay hidden")
        return Decision(top.cand.action, reason, f"reveals {blip}")

    def _no_action(self, legal: list[LegalAction]) -> Decision:
        end = next((la for la in legal if la.kind == Kind.END_ACTIVATION), legal[-1])
        return Decision(end.action(), "ends the activation: no action it tried is allowed here")

    def _decision(self, think: _Think, best: _Scored, scored: list[_Scored]) -> Decision:
        reason = self._reason(think, best, scored)
        public = reason
        if best.cand.aim.startswith("objective "):
            # Which objectives it heads for comes from its mission card: the opponent reads only the exposure.
            public = reason.replace(f" toward {best.cand.aim}", "")
        a = best.cand.action
        if a.kind == Kind.TARGET and a.args.get("up_to") and set(a.args["assign"]) & set(think.seen.objectives):
            # The counters it names on an objective are those its mission still needs: the opponent reads only
            # the counters the roll places, in the log.
            public = f"Targets {' and '.join(a.args['assign'])} with {a.args['dice']} dice"
        if a.kind in (Kind.SCRAMBLE, Kind.MOVE, Kind.JUMP, Kind.KAMIKAZE) and " VP over " in public:
            public = public.rsplit("; ", 1)[0]      # the values it weighs read its own secrets
        return Decision(best.cand.action, reason, public)

    # ---- which unit to activate -------------------------------------------------------------------------
    def _activation(self, think: _Think, legal: list[LegalAction]) -> Decision:
        best: tuple[float, LegalAction, str, float] | None = None
        offered = [la for la in legal if la.kind == Kind.ACTIVATE]
        ranked = sorted(offered, key=lambda la: (-self._promise(think, la), la.actor, bool(la.args.get("extra"))))
        self._read_reach(think, ranked[: think.level.activations])
        passed: list[float] = []        # the gains of the extra blip activations it weighed and let go
        for la in ranked[: think.level.activations]:
            gain, why = self._gain(think, la)
            extra = bool(la.args.get("extra"))
            if extra and gain < EXTRA_BLIP_GAIN:
                passed.append(gain)
                continue
            key = gain + (0.0 if extra else 0.01)
            if best is None or key > best[0]:
                best = (key, la, why, gain)
        if best is None:
            return self._turn_end(think, legal, passed)
        _, la, why, gain = best
        kind = "an extra blip activation" if la.args.get("extra") else "its activation"
        weighed = min(len(ranked), think.level.activations)
        if gain <= 0.0 and not la.args.get("extra"):
            why = (f"nothing it weighed gains by acting (best {gain:+.2f} VP); it spends the activation rather than "
                   "pass")
        elif weighed > 1:
            # The first look tries a few actions; the unit's own decision then weighs every one it may take, so
            # the action named here is why this unit, not a promise of what it does.
            look = f" ({why})" if why else ""
            why = f"the most to gain of the {weighed} it weighed, {gain:+.2f} VP at a first look{look}"
        return Decision(la.action(), f"activates {la.actor} ({kind}): {why}")

    def _turn_end(self, think: _Think, legal: list[LegalAction], passed: list[float]) -> Decision:
        """Ends the turn, saying how much of it was used and why no extra blip activation is taken."""
        end = next((la for la in legal if la.kind == Kind.END_TURN), None) or next(
            la for la in legal if la.kind == Kind.END_ACTIVATION)
        t = think.seen.view.get("turn") or {}
        used, allowed, extra = int(t.get("primary_used", 0)), int(t.get("primary_allowed", 1)), int(
            t.get("extra_blips_used", 0))
        said = (f"ends its turn after {used} of {allowed} activation{'s' if allowed != 1 else ''} and {extra} of "
                f"{EXTRA_BLIPS} extra blip activations")
        if passed:
            which = f"the best of the {len(passed)} blip Moves" if len(passed) > 1 else "the one blip Move"
            why = f": {which} it weighed gains {max(passed):+.2f} VP, under the {EXTRA_BLIP_GAIN:.2f} it asks of one"
        elif extra < EXTRA_BLIPS and used >= allowed:
            why = ": no blip of its own holds an activation counter"
        else:
            why = ""
        return Decision(end.action(), said + why, said)

    def _promise(self, think: _Think, la: LegalAction) -> float:
        """A quick guess at how much activating this unit matters, to choose which to weigh in full: a revealed
        unit that can shoot or must get its Target counters off, then a blip holding units near the enemy or an
        objective it wants, then decoys."""
        seen = think.seen
        u = seen.units.get(la.actor)
        marks = [(e["x"], e["y"]) for e in seen.enemies()] + [(b["x"], b["y"]) for b in seen.enemy_blips()]
        marks += [(o["x"], o["y"]) for oid, o in seen.objectives.items() if oid in think.aims.hold + think.aims.destroy]
        if u is not None:
            shots = sum(1 for e in seen.enemies() if e.get("target_counters", 0) > 0
                        and math.hypot(e["x"] - u["x"], e["y"] - u["y"]) <= 18.0)
            return 3.0 + shots + 0.3 * float(u.get("target_counters", 0)) - (2.0 if u.get("stunned") else 0.0)
        b = seen.blips.get(la.actor) or {}
        near = min((math.hypot(x - b.get("x", 0.0), y - b.get("y", 0.0)) for x, y in marks), default=30.0)
        # Decoy or not, a blip of its own is ranked as one holding units would be: which blips it activates must
        # not tell the opponent which hold nothing (``blind.py``). On the clock a blip of units comes first, to be
        # revealed and act at once (``hasten``): the reveal shows what it holds anyway.
        hurry = 1.5 if think.haste and b.get("contents") else 0.0
        return 1.5 + 6.0 / (6.0 + near) + hurry + 0.3 * think.rng.random()

    def _read_reach(self, think: _Think, offered: list[LegalAction]) -> None:
        """The exposure of the ground in each weighed unit's Move reach (``_potential``), worked out together: one
        call for every unit, where each unit's own cost about as much again."""
        grid = think.grid
        if grid is None:
            return
        r = 6.0 * float(think.seen.view.get("scale", 1.0))
        regions = [reach(grid, float(me["x"]), float(me["y"]), r)
                   for me in (think.seen.piece(la.actor) for la in offered) if me is not None]
        grid.fetch_regions(regions)

    def _gain(self, think: _Think, la: LegalAction) -> tuple[float, str]:
        """What activating this unit could gain: a few first actions tried (``_potential``). A hidden blip of its
        own is weighed as if it held the stand-in (``blind.py``); a blip of units may gain more by its reveal, which
        shows what it holds anyway. Playing each unit's whole activation out here (as hard does for its first
        actions, ``search.py``) won no more battles and made it reveal and Target where hidden enemy missiles
        answered (docs/computer-measurements.md, "Hard's parts, each taken out")."""
        if hidden_own_blip(think.seen.view, think.seen.me, la.actor):
            gain, why = self._potential(think.blind(), la)
            if la.args.get("extra") or own_decoy(think.seen, la.actor):
                return gain, why
            shown = self._reveal_gain(think, la, gain)
            return (shown, "its units could act") if shown > gain else (gain, why)
        return self._potential(think, la)

    def _reveal_gain(self, think: _Think, la: LegalAction, move_gain: float) -> float:
        """What revealing a blip of units in its activation gains, on what it holds; on the clock its units' next
        actions count with it (``_Think.hasten``)."""
        total, n = 0.0, 0
        for world in think.worlds:
            act = play(world, la.action(), HeadDice(think.rng))
            if not act.legal:
                continue
            v, out = think.simulate(act.state, Action(Kind.REVEAL, la.actor, {}), 1)
            if v is None or out is None:
                continue
            total += v - think.value(act.state)
            n += 1
        if n == 0:
            return -math.inf
        gain = total / n
        return gain + REVEAL_HASTE * max(0.0, move_gain - gain) if think.haste else gain

    def _potential(self, think: _Think, la: LegalAction) -> tuple[float, str]:
        """What activating this unit could gain: its best first action in the first imagined world, a few tried."""
        world = think.worlds[0]
        act = play(world, la.action(), HeadDice(think.rng))
        if not act.legal:
            return -1.0, ""
        now = think.value(act.state)
        seen = think.seen
        me = seen.piece(la.actor)
        if me is None:
            return 0.0, ""
        cands: list[Candidate] = []
        r = 6.0 * float(seen.view.get("scale", 1.0))
        disc = LegalAction(Kind.MOVE, la.actor, {}, {"x, y": {"within": {"centre": [me["x"], me["y"]], "radius": r}}})

        cands += point_candidates(disc, seen, me, max(3, think.level.move_points // 4),
                                  goals_for(seen, me, think.aims.hold, think.aims.destroy, think.belief.p_real,
                                            think.inspect), think.grid,
                                  think.rng.uniform(0, math.pi))
        if la.actor in seen.units:
            marked = sorted((u for u in seen.enemies() if u.get("target_counters", 0) > 0),
                            key=lambda u: (-u["target_counters"], u["id"]))
            for u in marked:
                cands.append(Candidate(Action(Kind.RIFLE, la.actor, {"target": u["id"]}), u["id"]))
            if seen.units[la.actor]["type"] not in ("commander",) and not seen.units[la.actor]["type"].endswith("-drone"):
                # A missile reaches any enemy with counters (p.21, A28): the unit with the best one goes first.
                cands += [Candidate(Action(Kind.MISSILE, la.actor, {"target": u["id"]}), u["id"]) for u in marked[:2]]
            cands += self._inspections(think, act.state, me)
        best, why = 0.0, "nothing better than holding still"
        tried: list[_Scored] = []
        for c in cands:
            v, _ = think.simulate(act.state, c.action, 1)
            if v is None:
                continue
            if c.action.kind in (Kind.MOVE, Kind.JUMP) and not (la.actor in seen.units and seen.units[la.actor]["type"].endswith("-drone")):
                v -= think.exposure_price(c.action)
            tried.append(_Scored(c, v, None))
        for x in think.hasten(tried):
            if x.value - now > best:
                best = x.value - now
                why = _short(x.cand)
        if la.actor in seen.units:
            u = seen.units[la.actor]
            if u.get("target_counters", 0) > 0:
                best += 0.05 * u["target_counters"]
        return best, why

    def _inspections(self, think: _Think, world: GameState, me: Data) -> list[Candidate]:
        """A Target on the objectives its mission still Inspects, when one is near enough to pay for counters:
        weighing only Moves and shots, it left a trooper beside an objective unactivated."""
        near = [oid for oid in think.inspect if oid in think.seen.objectives and math.hypot(
            think.seen.objectives[oid]["x"] - me["x"], think.seen.objectives[oid]["y"] - me["y"]) <= INSPECT_LOOK]
        if not near:
            return []
        wanted = {oid: think.inspect[oid] for oid in near}
        return [c for la in legal_actions(world, self.side) if la.kind == Kind.TARGET and la.actor == me["id"]
                for c in target_candidates(la, think.seen, wanted) if c.aim in wanted]

    # ---- end of the round and end of the battle -------------------------------------------------------
    def _end_of_round(self, view: Data, la: LegalAction) -> Decision:
        """Offers to stop when its mission stands ahead as the table is of whatever mission the opponent may hold:
        stopping leaves it Contested, and the missions are scored on it (p.16, A43). Against the average mission it
        stopped ahead and lost to the one that pays for a stalemate (Delaying Action: the Contested table and every
        survivor).

        Easy and normal never withdraw. Hard withdraws when the battle so ended wins whatever the opponent answers
        (``_withdraw_odds``): in a Chance Encounter against most of the missions the opponent may hold (Break
        Contact and Scavengers pay for survivors, and a weak line's troopers were worn down by playing on), in an
        attack or a defence against every one. There an attacker allowed the Withdraw sets every objective for its
        own margin (p.16), and a defender that withdrew against two cards in three lost three battles it had
        been winning to the third (Eyes On, Sabotage)."""
        think = _Think(view, self.side, self.level, self.seed)
        if self.level.withdraws:
            odds = self._withdraw_odds(think)
            if odds >= (WITHDRAW_ODDS if view.get("attacker") is None else 1.0):
                return Decision(la.action(withdraw=self.side),
                                f"withdraws: allowed or pursued, its mission wins against {odds:.0%} of the missions "
                                "the opponent may hold [p.16, A43]", "withdraws at the end of the round [p.16, A43]")
        margin = self._stop_margin(think)
        if view.get("round", 1) >= STOP_FROM_ROUND and margin >= 1.0:
            return Decision(la.action(stop=True), f"offers to stop: its mission stands {margin:+.1f} VP ahead of any "
                                                  "the opponent may hold, as the table is", "offers to stop")
        return Decision(la.action(), f"plays on: its mission stands {margin:+.1f} VP against the best the "
                                                  "opponent may hold, as the table is", "plays on")

    def _stop_margin(self, think: _Think) -> float:
        """Its mission's VP less the most the opponent's mission could score (of the kind it holds) if the battle
        stopped now, averaged over the imagined worlds."""
        s = think.seen
        return sum(worst_margin(w, s.me, s.my_mission, s.their_missions) for w in think.worlds) / len(think.worlds)

    def _withdraw_odds(self, think: _Think) -> float:
        """The share of the missions the opponent may hold (of the Troop lines its troopers shown could come from,
        ``Seen.their_missions``) and of the imagined worlds against which a Withdraw now wins by ``WITHDRAW_LEAD`` whatever
        the opponent answers (p.16, A43): allowed, the opponent Controls the Table at once (and as attacker sets
        each objective for its own margin); pursued, one more round is played, counted as the table
        Contested now less the loss of one trooper in that round (its own card's price and the most any enemy card
        pays), or, with no round left under a card's limit, the table Contested at once."""
        s = think.seen
        them = other(s.me)
        theirs = s.their_missions
        if not theirs:
            return 0.0
        risk = think.aims.lose + max((r.vp for m in theirs for r in m.vp_rules
                                      if r.condition == "enemy-trooper-destroyed"), default=0)
        wins = 0
        for world in think.worlds:
            allowed = self._ends(think, world, {"withdraw": s.me, "answer": "allow"}, them)
            pursued_now = play(world, Action(Kind.END_OF_ROUND, "", {"withdraw": s.me, "answer": "pursue"}),
                               HeadDice(think.rng))
            if pursued_now.legal and pursued_now.state.result is not None and not pursued_now.state.pursuit:
                pursued, pursuit_risk = [pursued_now.state], 0.0
            else:
                pursued, pursuit_risk = self._ends(think, world, {"stop": True}, them), risk
            if not allowed or not pursued:
                return 0.0
            for m in theirs:
                least = math.inf
                for ends, lost in ((allowed, 0.0), (pursued, pursuit_risk)):
                    # Where the opponent chooses the objectives, it sets them for its own margin, the missions
                    # shown by then: a Sweep and Clear attacker, paid nothing for an objective, destroys every one
                    # a Last Stand defender is paid for intact. Counted as paying its own card most, the ties went
                    # this side's way, and a defender withdrew from a battle the objectives then lost it.
                    for outcome in map(outcome_now, ends):
                        mine = score_mission(s.my_mission, s.me, outcome).vp if s.my_mission is not None else 0
                        least = min(least, mine - score_mission(m, them, outcome).vp - lost)
                wins += least >= WITHDRAW_LEAD
        return wins / (len(theirs) * len(think.worlds))

    def _ends(self, think: _Think, world: GameState, args: dict[str, object], chooser: str) -> list[GameState]:
        """The states an end-of-round action can end the battle in: one, or one for each uniform setting of the
        objectives by the side in Control of the Table (``chooser``, when it attacks)."""
        out = play(world, Action(Kind.END_OF_ROUND, "", dict(args)), HeadDice(think.rng))
        if not out.legal:
            return []
        pending = [la for la in legal_actions(out.state, chooser) if la.kind == Kind.OBJECTIVES]
        if not pending:
            return [out.state]
        la = pending[0]
        return [o.state for choice in OBJECTIVE_CHOICES
                if (o := play(out.state, la.action(**{oid: choice for oid in la.free}), HeadDice(think.rng))).legal]

    def answer_withdraw(self, view: Data) -> str:
        """The opponent withdraws: allowing gives this side Control of the Table at once, pursuing plays one more
        round, after which the table is Contested unless one side has no troopers left (p.16, A43). It allows when
        the table in hand wins against the mission the opponent may hold, on average, and no less than the table
        Contested would, or when a round more could not make up what allowing gives; else it pursues. Always allowing threw battles away: under Attrition or Head
        Hunters, a Withdraw in round 1 or 2 allowed ended the battle 0-0, or lost to Scavengers' or Break Contact's
        surviving troopers, where a round more of fighting was its chance to win."""
        return self.withdraw_answer(view)[0]

    def withdraw_answer(self, view: Data) -> tuple[str, str]:
        """``answer_withdraw``'s answer and its reason, with the two margins it weighed."""
        think = _Think(view, self.side, self.level, self.seed)
        s = think.seen
        them = "B" if s.me == "A" else "A"
        allow = pursue = 0.0
        for w in think.worlds:
            allow += self._allowed(think, w, them)
            pursue += mission_margin(w, s.me, s.my_mission, s.their_missions)
        allow, pursue = allow / len(think.worlds), pursue / len(think.worlds)
        if allow >= pursue + PURSUIT_HOPE or (allow > 0.0 and allow >= pursue):
            return "allow", (f"allows the Withdraw: the table in hand stands {allow:+.1f} VP against the opponent's "
                             f"average mission, {pursue:+.1f} as the table is Contested [p.16, A43]")
        return "pursue", (f"pursues: the table in hand stands {allow:+.1f} VP against the opponent's average "
                          f"mission, {pursue:+.1f} as the table is Contested, and a round more may add to it "
                          f"[p.16, A43]")

    def _allowed(self, think: _Think, world: GameState, them: str) -> float:
        """The margin if the Withdraw is allowed in ``world``: this side Controls the Table, and as the attacker sets
        every surviving objective to the one state that pays it most (p.16, A41)."""
        s = think.seen
        ends = self._ends(think, world, {"withdraw": them, "answer": "allow"}, s.me)
        if not ends:
            return mission_margin(world, s.me, s.my_mission, s.their_missions)
        return max(mission_margin(e, s.me, s.my_mission, s.their_missions) for e in ends)

    def agree_to_stop(self, view: Data) -> bool:
        return self._stop_margin(_Think(view, self.side, self.level, self.seed)) > 0.0

    def _objectives(self, view: Data, la: LegalAction) -> Decision:
        """Controlling the table as attacker: each objective set to what its own mission pays most for."""
        think = _Think(view, self.side, self.level, self.seed)
        choice: dict[str, str] = {}
        for oid, options in la.free.items():
            choice[oid] = options[0] if options else "secured"
        for oid, options in la.free.items():
            best = None
            for opt in options:
                out = play(think.worlds[0], la.action(**{**choice, oid: opt}), HeadDice(think.rng))
                if out.legal:
                    v = think.value(out.state)
                    if best is None or v > best[0]:
                        best = (v, opt)
            if best is not None:
                choice[oid] = best[1]
        text = ", ".join(f"{o} {c}" for o, c in choice.items())
        return Decision(la.action(**choice), f"sets the objectives as its mission pays best: {text}")

    # ---- reasons ----------------------------------------------------------------------------------------
    def _reason(self, think: _Think, best: _Scored, scored: list[_Scored]) -> str:
        a = best.cand.action
        seen = think.seen
        if a.kind in (Kind.MOVE, Kind.JUMP):
            me = seen.piece(a.actor) or {}
            here = exposure_at(think.grid, float(a.args["x"]), float(a.args["y"]))
            there = exposure_at(think.grid, me.get("x", 0.0), me.get("y", 0.0))
            aim = f" toward {best.cand.aim}" if best.cand.aim and best.cand.aim != "cover" else (
                " into cover" if best.cand.aim == "cover" else "")
            word = "jumps" if a.kind == Kind.JUMP else "moves"
            # What it risks, in the game's words: a known enemy that sees it may Target it there (p.19).
            risk = (f"it ends in sight of {here} known enem{'y' if here == 1 else 'ies'}, who could Target it there"
                    if here else "it ends out of sight of every known enemy")
            said = f"{word} to ({a.args['x']:.2f}, {a.args['y']:.2f}){aim}: {risk} ({there} saw it where it stood)"
            # What it gains: the value over the best thing it could have done instead (its own weighing, which
            # reads its secrets: the opponent reads the move and its risk only, ``_decision``).
            return said + _over_the_rest(best, [x for x in scored if x.cand.action != a])
        if a.kind in (Kind.RIFLE, Kind.MISSILE):
            p = preview(think.worlds[0], a)
            f = p.figures
            if a.kind == Kind.RIFLE and "p_kill" in f:
                return (f"fires its {f.get('weapon', 'rifle')} at {a.args['target']}: {f.get('dice', '?')} dice, "
                        f"{f['p_kill']:.0%} to kill, {f.get('p_graze', 0):.0%} to graze")
            if "p_direct_hit" in f:
                return (f"fires a missile at {a.args['target']}: {f['p_direct_hit']:.0%} direct hit, "
                        f"{f.get('p_shot_down', 0):.0%} shot down")
            return f"fires at {a.args['target']}"
        if a.kind == Kind.TARGET:
            p = preview(think.worlds[0], a)
            odds = p.figures.get("p_enough", {})
            chance = odds.get(str(a.args["dice"])) if isinstance(odds, dict) else None
            up = "up to " if a.args.get("up_to") else ""
            tail = (f", {chance:.0%} to roll {'all of them' if up else 'enough'}" if isinstance(chance, float)
                    else "")
            if len(a.args["assign"]) > 1:
                each = ", then ".join(f"{n} on {tid}" for tid, n in a.args["assign"].items())
                return f"Targets with {a.args['dice']} dice for {up}{each}{tail}"
            (tid, n), = a.args["assign"].items()
            what = "an enemy blip (a counter reveals it)" if tid in seen.blips else tid
            return f"Targets {what} with {a.args['dice']} dice for {up}{n} counter{'s' if n != 1 else ''}{tail}"
        if a.kind == Kind.END_ACTIVATION:
            return "ends the activation: nothing it tried does better than standing as it is"
        if a.kind == Kind.REVEAL:
            if (seen.blips.get(a.actor) or {}).get("contents") == []:
                return "reveals a decoy: it leaves the table"       # the reveal shows everyone it was one
            return "reveals: its units can act this activation"
        if a.kind == Kind.ACTIVATE:
            return f"activates {a.actor} ({'an extra blip activation' if a.args.get('extra') else 'its activation'})"
        if a.kind == Kind.SCRAMBLE:
            me = seen.piece(a.actor) or {}
            there = exposure_at(think.grid, me.get("x", 0.0), me.get("y", 0.0))
            said = (f"Scrambles {a.actor}: it leaves the table and three blips take its place, two of them decoys "
                    f"[p.22, A23]; {there} known enem{'y' if there == 1 else 'ies'} could see it where it stood")
            others = [s for s in scored if s.cand.action.kind != Kind.SCRAMBLE]
            return said + (_over_the_rest(best, others) if others else ", and it had no other action")
        if a.kind == Kind.FLAMER:
            return f"fires its flamer at {best.cand.aim}"
        if a.kind == Kind.KAMIKAZE:
            tid = str(a.args.get("target", best.cand.aim))
            me, them = seen.piece(a.actor) or {}, seen.piece(tid) or {}
            gap = math.hypot(float(a.args["x"]) - me.get("x", 0.0), float(a.args["y"]) - me.get("y", 0.0))
            n = int(them.get("target_counters", 0))
            said = (f"{'jumps' if a.args.get('jump') else 'moves'} {gap:.1f}\" and explodes against {tid}: a die "
                    f"under its {n} Target counter{'s' if n != 1 else ''}, less its cover, destroys it, and the "
                    f"blast reaches what stands round it [p.22, A35]")
            return said + _over_the_rest(best, [x for x in scored if x.cand.action != a])
        return f"{a.kind} {a.args.get('target', '')}".strip()


def _over_the_rest(best: _Scored, others: list[_Scored]) -> str:
    """What the chosen action gains over the best of ``others``, for its reason ("" when there is no other)."""
    if not others:
        return ""
    alt = max(others, key=lambda x: x.value)
    return f"; {best.value - alt.value:+.2f} VP over its best other action, {_short(alt.cand)}"


def _short(c: Candidate) -> str:
    a = c.action
    if a.kind in (Kind.MOVE, Kind.JUMP):
        # The point as the log writes it, to the hundredth of an inch.
        aim = f" toward {c.aim}" if c.aim and c.aim != "cover" else (" into cover" if c.aim == "cover" else "")
        return f"{a.kind} to ({float(a.args['x']):.2f}, {float(a.args['y']):.2f}){aim}"
    if a.kind == Kind.END_ACTIVATION:
        return "ending the activation"
    return short(c)
