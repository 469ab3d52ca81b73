"""How good a battle state is for the computer's side: its mission's Victory Points now, and what is coming.

The score is the computer's own mission card totalled on the state as it stands (``scoring.mission_vp``, as
``scoring.score_mission`` counts them), less the opponent's, averaged over the missions it may hold
(``Seen.their_missions``), plus smaller terms for what the next turns are likely to bring: the chance that each unit
with Target counters is shot by an enemy in range, the objectives its mission wants held, destroyed or inspected and
how close its units are to them, and Damaged or Stunned units. Enemy blips count as shooters only as likely as the
belief makes them (``belief.py``).
"""

from __future__ import annotations

import copy
import functools
import math
from dataclasses import dataclass

from ....rules.battlefield import piece_from_unit
from ....rules.catalogue import is_drone_type, weapons
from ....rules.odds import missile_odds, rifle_odds
from ...battle.cards import MissionCard, objective_ids
from ...battle.scoring import BattleOutcome, mission_vp
from ...battle.state import SIDES, GameState, UnitState, other
from ...play.turns import actions_per_activation
from ...play.victory import battle_outcome, destroyed_and_surviving
from .belief import Belief

DRONE_VALUE = 0.8
RIFLE_BAND = weapons()["gauss"].band   # the gauss rifle's band, from the rules' weapons table [p.20]
LATER_SHOT = 0.5            # the share of a next shot's odds counted when something must come first: an enemy blip
                            # must be revealed before it shoots, and a missile's firer chooses among its targets while
                            # the target may move off or shed its counters
CLOSE_BLIP = 0.15           # a trooper within a flamer's reach of an enemy blip risks what it may hold
CLOSE_RANGE = 6.0
SECURE_RANGE = 6.0
LOST_OBJECTIVE = 4.0        # an objective its mission wants held or inspected, destroyed
INSPECT_SHARE = 0.7         # a Target counter on an objective to Inspect: this share of the VP it pays, per counter
INSPECT_REACH = 5.0         # the pull toward an objective to Inspect stops at this distance (the first Target band,
                            # where a counter costs 1 point)
DECOY_DETOUR = 12.0         # inches an enemy blip counts farther when it is surely a decoy
CLOCK_WEIGHT = 4.0           # an opponent's card that ends the battle this round counts as this many of the others


@dataclass(frozen=True)
class Weights:
    """The weights of the evaluation that decide how hard it presses an attack, in one table: those
    ``benchmarks/fit.py`` fits by play against the stranger opponents (``docs/computer-measurements.md``, "The fit")."""

    # Fitted by ``python -m benchmarks.fit --jobs 2 --strangers greedy,rusher,holder,hider --seeds 20 --params
    # threat,attrition,hunt,clock_hunt,objective_pull`` (160 battles a candidate): each at half or twice its value won
    # fewer battles or one more (clock_hunt 1.5, which won the same 130 of 160 on the benchmark's own seeds), threat
    # at twice 29 fewer (docs/computer-measurements.md, "The fit at 160 battles a candidate"). So these stand.
    threat: float = 0.6          # a shot expected next turn counts at this share of the loss it may cause
    attrition: float = 1.5       # VP per trooper destroyed, besides the mission's own count
    hunt: float = 0.03           # VP per inch a trooper closes on the enemy, when its mission holds no objective
    clock_hunt: float = 3.0      # an attacker on the clock, whose card pays for no Inspection, hunts this many times harder
    objective_pull: float = 0.04    # VP per inch nearer to an objective the mission wants held
    inspect_pull: float = 0.012     # VP per inch and per VP an objective pays when Inspected, for its nearest trooper


WEIGHTS = Weights()


def weights() -> Weights:
    """The weights in use (``benchmarks/fit.py`` sets ``WEIGHTS`` to each candidate it tries)."""
    return WEIGHTS


@dataclass(frozen=True)
class Aims:
    """What the computer's mission pays for, read from its card."""

    hold: tuple[str, ...] = ()          # objectives to secure
    destroy: tuple[str, ...] = ()       # objectives to destroy (missile direct hit, kamikaze contact)
    inspect: tuple[str, ...] = ()       # objectives to put Target counters on
    kill: float = 2.0                   # VP per enemy trooper destroyed (at least a little: it ends battles)
    lose: float = 3.0                   # VP lost per own trooper destroyed
    commander: float = 0.0
    offence: bool = False               # an attacker's card: the defender wins a stalemate, so it must close in
    drones: tuple[tuple[str, float], ...] = ()    # VP per enemy drone destroyed, by unit type ("" for any)
    inspect_vp: float = 0.0             # VP per objective Inspected
    inspect_at: int = 10                # Target counters that make an objective Inspected (the card's, A41)
    round_limit: int | None = None      # its own card ends the battle after this round (A43)
    hunt: float = 1.0                   # times the usual pull toward the enemy (``Weights.clock_hunt`` on the clock)
    destroy_vp: float = 0.0             # VP per objective destroyed (the most its card pays for one)

    @staticmethod
    def of(mission: MissionCard | None) -> "Aims":
        if mission is None:
            return Aims()
        hold: list[str] = []
        destroy: list[str] = []
        inspect: list[str] = []
        kill, lose, commander, inspect_vp, destroy_vp = 0.0, 0.0, 0.0, 0.0, 0.0
        drones: list[tuple[str, float]] = []
        for r in mission.vp_rules:
            if r.condition == "enemy-drone-destroyed" and r.vp > 0:
                drones.append((r.unit_type or "", float(r.vp)))
            if r.condition == "objective-inspected" and r.vp > 0:
                inspect_vp = max(inspect_vp, float(r.vp))
            if r.condition == "objective-secured" and r.vp > 0:
                hold.extend(objective_ids(r.objective))
            elif r.condition == "objective-destroyed" and r.vp > 0:
                destroy.extend(objective_ids(r.objective))
                destroy_vp = max(destroy_vp, float(r.vp))
            elif r.condition == "objective-inspected" and r.vp > 0:
                inspect.extend(objective_ids(r.objective))
            elif r.condition in ("objective-intact", "objective-uninspected") and r.vp > 0:
                hold.extend(objective_ids(r.objective))
            elif r.condition == "enemy-trooper-destroyed":
                kill += r.vp
            elif r.condition == "enemy-commander-destroyed":
                commander += r.vp
            elif r.condition in ("own-trooper-destroyed",):
                lose -= r.vp
            elif r.condition in ("own-trooper-survives", "no-own-losses"):
                lose += abs(r.vp)
            elif r.condition == "control-table":
                kill += r.vp / 6
        return Aims(tuple(dict.fromkeys(hold)), tuple(dict.fromkeys(destroy)), tuple(dict.fromkeys(inspect)),
                    max(kill, 1.0), max(lose, 1.0), commander, mission.kind == "offence", tuple(drones),
                    inspect_vp, mission.inspected_counters, mission.round_limit, destroy_vp=destroy_vp)

    def wanted_counters(self, objectives: dict[str, int]) -> dict[str, int]:
        """Target counters each objective it inspects still needs, from the counters it carries: a counter beyond
        the card's threshold pays nothing (A41)."""
        return {oid: self.inspect_at - n for oid, n in objectives.items()
                if oid in self.inspect and n < self.inspect_at}


def _troopers(state: GameState, side: str) -> bool:
    """Has ``side`` a trooper left, on the table or in its holding area (``GameState.troopers_left`` above 0)?
    Answered at the first one found: it is asked of every state the computer imagines."""
    if any(u.side == side and not u.is_drone for u in state.units.values()):
        return True
    return any(not is_drone_type(c.type) for contents in state.holding[side].squares.values() for c in contents or [])


def outcome_now(state: GameState) -> BattleOutcome:
    """The battle's outcome if it ended as it stands: a side with no troopers left loses the table (p.16)."""
    s = state
    if s.control is None:
        left = {side: _troopers(s, side) for side in SIDES}
        if left["A"] and not left["B"]:
            s = _with_control(s, "A")
        elif left["B"] and not left["A"]:
            s = _with_control(s, "B")
    return battle_outcome(s)


def _with_control(s: GameState, side: str) -> GameState:

    c = copy.copy(s)
    c.control = side
    return c


def clock_weight(mission: MissionCard, round_: int) -> float:
    """How much one of the opponent's possible missions counts in the average: a card with a round limit
    (Delaying Action, Eyes On) ends the battle at that limit, so the nearer it comes, the more the table as it
    stands is the table that card is scored on, where under the others the battle goes on (A43). From 1 in round 1
    to ``CLOCK_WEIGHT`` in the limit's round: an attacker that weighed Delaying Action as one card in six fired its
    last round's missiles at objectives only the other cards pay for, while the defender's troopers survived."""
    limit = mission.round_limit
    if not limit or limit <= 1:
        return 1.0
    return 1.0 + (CLOCK_WEIGHT - 1.0) * min(1.0, max(0, round_ - 1) / (limit - 1))


VPS_KEPT = 20000             # missions' VP on outcomes that may come again (all are let go when full)
_VPS: dict[tuple[object, ...], tuple[MissionCard, int]] = {}


def _state_outcome_key(state: GameState) -> tuple[object, ...]:
    """All a mission's count reads of the battle ended as ``state`` stands (``outcome_now``, ``scoring._count_rule``),
    as one value read straight off the state: every objective's control, whether destroyed and its counters; the
    table's control as ``outcome_now`` settles it; the attacker; each side's enemies destroyed and its own troopers
    alive, in the same order. The outcome itself is built only for a count not yet made (``_mission_vp``)."""
    control = state.control
    if control is None:
        a, b = _troopers(state, "A"), _troopers(state, "B")
        if a and not b:
            control = "A"
        elif b and not a:
            control = "B"
    destroyed, surviving = destroyed_and_surviving(state)
    return (tuple((o.id, o.control, o.destroyed, o.target_counters) for o in state.objectives.values()), control,
            state.attacker, tuple((side, tuple(destroyed[side])) for side in SIDES),
            tuple((side, tuple(surviving[side])) for side in SIDES))


def _mission_vp(mission: MissionCard, side: str, state: GameState, key: tuple[object, ...],
                outcome: list[BattleOutcome]) -> int:
    """``scoring.mission_vp`` of the battle ended as ``state`` stands (``outcome_now``), counted once for a card, a
    side and an outcome (``key``, ``_state_outcome_key``): the imagined states of one decision end in few different
    outcomes, and every state weighs every card the opponent may hold. The card is kept with its count: the key
    names it by identity. ``outcome`` holds the state's outcome once one count has built it."""
    k = (id(mission), side, key)
    held = _VPS.get(k)
    if held is not None and held[0] is mission:
        return held[1]
    if not outcome:
        outcome.append(outcome_now(state))
    vp = mission_vp(mission, side, outcome[0])
    if len(_VPS) >= VPS_KEPT:
        _VPS.clear()
    _VPS[k] = (mission, vp)
    return vp


def mission_margin(state: GameState, me: str, mine: MissionCard | None, theirs: tuple[MissionCard, ...]) -> float:
    key = _state_outcome_key(state)
    outcome: list[BattleOutcome] = []
    my_vp = _mission_vp(mine, me, state, key, outcome) if mine is not None else 0
    if not theirs:
        return float(my_vp)
    weights = [clock_weight(m, state.round) for m in theirs]
    their = sum(w * _mission_vp(m, other(me), state, key, outcome) for m, w in zip(theirs, weights))
    return my_vp - their / sum(weights)


def worst_margin(state: GameState, me: str, mine: MissionCard | None, theirs: tuple[MissionCard, ...]) -> float:
    """Its mission's VP less the most the opponent's could score on the same table: the margin a stop is judged on,
    since the opponent holds one card of the kind, maybe the one that pays it most (p.16)."""
    outcome = outcome_now(state)
    my_vp = mission_vp(mine, me, outcome) if mine is not None else 0
    their = [mission_vp(m, other(me), outcome) for m in theirs]
    return my_vp - (max(their) if their else 0.0)


def attrition(state: GameState, me: str) -> float:
    """Troopers destroyed on each side, beyond what the missions pay: the side that runs out of troopers loses the
    table (p.16), which settles the objectives and most missions, so every kill is a step toward it."""
    score = 0.0
    for d in state.destroyed:
        if d.get("type", "").endswith("-drone"):
            continue
        score += WEIGHTS.attrition if d.get("side") != me else -WEIGHTS.attrition
    return score


def _rifle_kill(counters: int, distance: float, band: float) -> float:
    """A gauss rifle's chance to kill at ``distance`` with every counter spent: a die for each band's worth of
    counters (p.20), the odds of the rules' own table (``rules.odds.rifle_odds``)."""
    if counters <= 0:
        return 0.0
    dice = counters // (int(distance // band) + 1)
    return _gauss_kill(dice) if dice > 0 else 0.0


@functools.lru_cache(maxsize=64)
def _gauss_kill(dice: int) -> float:
    """A gauss rifle's chance to kill with ``dice`` dice, read once for each count (asked for every unit pair of
    every state the computer imagines)."""
    return float(rifle_odds("gauss", dice, False).p_kill)


def _value(type_: str, aims: Aims, mine: bool) -> float:
    if type_.endswith("-drone"):
        # A drone its mission pays for (Counter-Intelligence: 4 VP a Recce drone) is a target worth its VP.
        return DRONE_VALUE + (0.0 if mine else sum(vp for kind, vp in aims.drones if kind in ("", type_)))
    base = aims.lose if mine else aims.kill
    if type_ == "commander" and not mine:
        base += aims.commander
    return max(base, 1.0) + WEIGHTS.attrition + (0.0 if mine else 0.5)


@functools.lru_cache(maxsize=512)
def _missile_and_cm(faction: str, rating: str, type_: str) -> tuple[bool, int]:
    """Whether a unit of this kind carries missiles (a trooper other than the Commander, p.21, A5), and its
    countermeasures stat."""
    probe = UnitState(id="probe", side="A", faction=faction, rating=rating, type=type_, x=0.0, y=0.0)
    piece = piece_from_unit(probe)
    missile = piece.is_trooper and piece.trooper_type().missile
    return missile, piece.stat("countermeasures")


@functools.lru_cache(maxsize=512)
def _missile_hit(counters: int, cm: int) -> float:
    """A missile's chance of a direct hit on a unit with ``counters`` Target counters, its own countermeasures
    rolled (``rules.odds.missile_odds``, p.21). Cover and other units in the flight path are left out: the
    evaluation runs on every imagined state and cannot afford the battlefield's geometry."""
    return float(missile_odds([(max(0, cm), False)], max(0, counters)).p_direct_hit)


def missiles_next(state: GameState, side: str) -> float:
    """How many missiles ``side`` may fire before a unit of the other side acts again: each of its revealed troopers
    that carries them, one a trooper's action (two in an activation, p.16); one that has used its activation, and
    is not acting now, fires in the next round, by when the target may have moved (``LATER_SHOT``). A blip's units
    are left out (they must be revealed first): counted as carriers, as likely as the belief made each blip real,
    they won fewer battles against the strangers (docs/computer-measurements.md, "Target counters priced by the
    enemy's missiles")."""
    total = 0.0
    for u in state.units.values():
        if u.side != side or u.stunned or not _missile_and_cm(u.faction, u.rating, u.type)[0]:
            continue
        total += actions_per_activation(state, u.id) * (1.0 if _shoots_this_round(state, u) else LATER_SHOT)
    return total


def _shoots_this_round(state: GameState, u: UnitState) -> bool:
    """Can ``u`` still shoot before the round ends: it holds its activation, or is acting now with an action
    left, or is a revealed unit still to act in the activation in progress."""
    if u.activation:
        return True
    t = state.turn
    return t is not None and ((t.active == u.id and t.actions_left > 0) or u.id in t.queue)


def _acts_next(state: GameState) -> str | None:
    """The side whose unit acts next: the side whose turn goes on (an action, a revealed unit or a primary
    activation left), else the other."""
    t = state.turn
    if t is None:
        return None
    if t.actions_left > 0 or t.queue or t.primary_used < t.primary_allowed:
        return t.player
    return other(t.player)


def _carries_missiles(state: GameState, me: str) -> bool:
    """Has ``me`` a trooper that carries missiles, on the table or in a blip (its own blips' contents it knows)?"""
    for u in state.units.values():
        if u.side == me and _missile_and_cm(u.faction, u.rating, u.type)[0]:
            return True
    for b in state.blips.values():
        if b.side == me and any(_missile_and_cm(c.faction, c.rating, c.type)[0] for c in state.blip_contents(b) or []):
            return True
    return False


def threat(state: GameState, me: str, aims: Aims, belief: Belief, careful: bool = True) -> float:
    """Expected VP swing from the shots both sides could take next: positive when ours are the better ones. A
    rifle needs range (dice fall with the bands), and a rifleman that has used its activation this round fires only
    in the next, by when the target may have moved (``LATER_SHOT``, as for missiles): counted at full odds, the
    shots its own spent troopers could not take made a Target on an enemy look better than it was, and a trooper
    Targeted twice and stood in the open with the counters that cost it, in reach of an enemy that had yet to act.
    A missile needs no line of sight and no range, only Target counters on its target (p.21, A28), so every unit
    with counters is within reach of every enemy missile: the missiles a side may fire next (``missiles_next``) go
    at the other side's units in proportion to the odds of a direct hit on each (the likeliest kills draw the
    most). Counted as two missiles at half their odds whatever the
    enemy carried, the counters a trooper took by firing cost little, and against a player that fires every missile
    at the best odds its troopers fired at objectives with one counter and stood there to be hit. A marked unit that
    still holds its activation, on the side that acts next, may move off before either kind of shot: its risk is
    counted at ``LATER_SHOT``. Where the enemy acts first, it shoots before the unit can move: full odds. Not
    ``careful`` (easy): only our own shots count."""
    total = 0.0
    units = list(state.units.values())
    hits: dict[str, float] = {}
    odds_sum = {side: 0.0 for side in SIDES}
    for target in units:
        if target.target_counters <= 0:
            continue
        _, cm = _missile_and_cm(target.faction, target.rating, target.type)
        p = _missile_hit(target.target_counters, cm)
        hits[target.id] = p
        odds_sum[target.side] += p
    if not hits:
        return 0.0
    missiles = {side: missiles_next(state, side) for side in SIDES}
    # A rifleman's share of its odds, once for each unit rather than for each pair of units.
    later = {u.id: 1.0 if _shoots_this_round(state, u) else LATER_SHOT for u in units}
    first = _acts_next(state)
    for target in units:
        if target.target_counters <= 0:
            continue
        mine = target.side == me
        if mine and not careful:
            continue
        p_safe = 1.0
        moves_off = LATER_SHOT if target.activation and target.side == first else 1.0
        for shooter in units:
            if shooter.side == target.side or shooter.stunned:
                continue
            if shooter.is_drone and not target.is_drone:
                continue
            d = math.hypot(shooter.x - target.x, shooter.y - target.y)
            band = 2 * RIFLE_BAND if shooter.type == "tactical" else RIFLE_BAND
            p_safe *= 1.0 - moves_off * later[shooter.id] * _rifle_kill(target.target_counters, d, band)
        p_hit = hits[target.id]
        if p_hit > 0:
            aimed = missiles[other(target.side)] * p_hit / odds_sum[target.side]
            p_safe *= (1.0 - p_hit * moves_off) ** aimed
        for b in state.blips.values():
            if b.side == target.side:
                continue
            p = 1.0 if b.side == me and state.blip_contents(b) else (belief.real(b.id) if b.side != me else 0.0)
            if p <= 0:
                continue
            d = math.hypot(b.x - target.x, b.y - target.y)
            p_safe *= 1.0 - LATER_SHOT * p * _rifle_kill(target.target_counters, d, RIFLE_BAND)
        loss = (1.0 - p_safe) * _value(target.type, aims, mine)
        total += -loss if mine else loss
    return WEIGHTS.threat * total


def position(state: GameState, me: str, aims: Aims, belief: Belief, careful: bool = True) -> float:
    score = 0.0
    enemy_blips = [b for b in state.blips.values() if b.side != me]
    for u in state.units.values():
        sign = 1.0 if u.side == me else -0.5
        if u.damaged:
            score -= 0.8 * sign
        if u.stunned:
            score -= 0.4 * sign
        if u.side == me and careful:
            if not u.is_drone:
                score -= CLOSE_BLIP * sum(belief.real(b.id) for b in enemy_blips
                                          if math.hypot(b.x - u.x, b.y - u.y) <= CLOSE_RANGE)
    mine = [(u.x, u.y) for u in state.units.values() if u.side == me and not u.is_drone]
    mine += [(b.x, b.y) for b in state.blips.values() if b.side == me and state.blip_contents(b)]
    for oid in aims.hold:
        o = state.objectives.get(oid)
        if o is None or o.destroyed or not mine:
            continue
        d = min(math.hypot(x - o.x, y - o.y) for x, y in mine)
        score -= WEIGHTS.objective_pull * max(0.0, d - SECURE_RANGE + 1.0)
    for oid in set(aims.hold + aims.inspect) - set(aims.destroy):
        o = state.objectives.get(oid)
        if o is not None and o.destroyed:
            score -= LOST_OBJECTIVE           # its mission can no longer pay for it
    # Its Target counters on an objective to destroy are the odds of its next missile's direct hit (a die at most
    # the counters, p.21; an objective has no countermeasures), a shot still to come (``LATER_SHOT``), while it has
    # a missile to fire: a fixed price a counter had it fire at one counter (a hit in 6) rather than Target first.
    strike = LATER_SHOT * aims.destroy_vp if aims.destroy and _carries_missiles(state, me) else 0.0
    for oid in aims.destroy:
        o = state.objectives.get(oid)
        if o is None or o.destroyed or oid in aims.inspect:
            continue
        score += strike * _missile_hit(o.target_counters, 0)
        if mine:
            d = min(math.hypot(x - o.x, y - o.y) for x, y in mine)
            score -= 0.5 * WEIGHTS.objective_pull * max(0.0, d - 12.0)
    score += inspection(state, aims, mine)
    if mine and (aims.offence or not aims.hold):
        pull = aims.hunt * (WEIGHTS.hunt if not aims.hold else WEIGHTS.hunt / 2)  # one holding objectives hunts less far
        score -= pull * hunt_distance(state, me, belief, mine)
    # A kamikaze drone is a weapon carried to the enemy: worth more the nearer it stands to one, the whole
    # table's width and length at most, so that spending it in an explosion must gain more than it was worth.
    # One still in a blip counts where the blip stands, so that its reveal is weighed on what the drone can do then.
    kamikaze = [(u.x, u.y) for u in state.units.values() if u.side == me and u.type == "kamikaze-drone"]
    kamikaze += [(b.x, b.y) for b in state.blips.values() if b.side == me
                 for c in state.blip_contents(b) or [] if c.type == "kamikaze-drone"]
    if kamikaze:
        span = state.width + state.height
        score += WEIGHTS.hunt * sum(max(0.0, span - hunt_distance(state, me, belief, [k])) for k in kamikaze)
    return score


def inspection(state: GameState, aims: Aims, mine: list[tuple[float, float]]) -> float:
    """Progress toward the objectives its mission pays for Inspecting: each counter a share of the objective's VP,
    up to the card's threshold and no further (A41: a counter beyond it pays nothing), and a pull on the nearest of
    its troopers (or blips holding units) toward each objective still short, until it stands in the first Target
    band. A mission with a round limit (Eyes On) is lost by counters not placed in time: an attacker hanging back
    inspected nothing in 6 rounds."""
    if not aims.inspect:
        return 0.0
    score = 0.0
    time_left = rounds_left(state, aims)
    # Counters short of the threshold pay only if the rest come in time: in the last round, nothing (the card pays
    # only Inspected objectives), the round before, half.
    later = 1.0 if time_left is None else min(1.0, (time_left - 1) / 2)
    per_counter = later * INSPECT_SHARE * aims.inspect_vp / max(1, aims.inspect_at)
    pull = max(0.5, later) * WEIGHTS.inspect_pull * aims.inspect_vp
    for oid in aims.inspect:
        o = state.objectives.get(oid)
        if o is None or o.destroyed:
            continue
        score += per_counter * min(o.target_counters, aims.inspect_at)
        if mine and o.target_counters < aims.inspect_at:
            d = min(math.hypot(x - o.x, y - o.y) for x, y in mine)
            score -= pull * max(0.0, d - INSPECT_REACH)
    return score


def rounds_left(state: GameState, aims: Aims) -> int | None:
    """Rounds its own card leaves, this one counted (None: no limit)."""
    return None if aims.round_limit is None else max(1, aims.round_limit - state.round + 1)


def hunt_distance(state: GameState, me: str, belief: Belief, mine: list[tuple[float, float]]) -> float:
    """How far its troopers stand from the enemy, summed: to the nearest revealed enemy, or enemy blip counted
    farther the likelier it is a decoy. A mission that pays for kills is won by closing in (a side left without
    troopers loses the table, p.16); with no pull a side that sees no enemy waits out the battle on its own edge."""
    marks = [(u.x, u.y, 0.0) for u in state.units.values() if u.side != me and not u.is_drone]
    marks += [(b.x, b.y, DECOY_DETOUR * (1.0 - belief.real(b.id))) for b in state.blips.values() if b.side != me]
    if not marks:
        return 0.0
    # Plain loops for the least distances (the same as ``min`` over a generator, at half the cost: it is asked of
    # every state the computer imagines), added up by ``sum`` as before. Each place's least distance is kept for the
    # marks it was measured to: the states of one decision differ by a piece or two, and the enemy stands still.
    key = tuple(marks)
    known = _NEAREST.get(key)
    if known is None:
        if len(_NEAREST) >= NEAREST_KEPT:
            _NEAREST.clear()
        known = _NEAREST[key] = {}
    nearest = []
    hypot = math.hypot
    for x, y in mine:
        best = known.get((x, y))
        if best is None:
            best = math.inf
            for ex, ey, extra in marks:
                d = hypot(x - ex, y - ey) + extra
                if d < best:
                    best = d
            if len(known) >= PLACES_KEPT:
                known.clear()
            known[(x, y)] = best
        nearest.append(best)
    return sum(nearest)


NEAREST_KEPT = 256          # sets of marks whose places' least distances are kept (all are let go when full)
PLACES_KEPT = 4096          # places kept for one set of marks (all are let go when full)
_NEAREST: dict[tuple[tuple[float, float, float], ...], dict[tuple[float, float], float]] = {}


def evaluate(state: GameState, me: str, mine: MissionCard | None, theirs: tuple[MissionCard, ...], aims: Aims,
             belief: Belief, careful: bool = True) -> float:
    """The state's worth to ``me``. Not ``careful`` (easy): the danger its own units stand in is left out."""
    return (mission_margin(state, me, mine, theirs) + attrition(state, me) + threat(state, me, aims, belief, careful)
            + position(state, me, aims, belief, careful))
