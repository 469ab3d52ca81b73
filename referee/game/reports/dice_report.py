"""The dice report of a battle: every roll's exact chance beside what happened, and how lucky each side was.

The record is replayed action by action, driving the engine's own resolution with the recorded dice; at each roll
the state is the one the engine rolls against, so the chance is computed from it with the same odds functions the
previews show (``rules/odds.py``): a rifle shot's kill and graze chances, a graze's, a blast's, a countermeasure's,
a missile's hit die, a Sensor Pool, a stun recovery, a Damaged check, a jamming field, a Kamikaze contact.

Each scored roll (a *test*) is good or bad for one side: the firer for a shot or a pool, the unit's owner for a
graze, a blast, a countermeasure, a recovery. A test scores 2 when it went that side's way, 0 when it did not, and
a rifle graze (half a kill) or a Sensor Pool exactly on its average scores 1. A side's luck is the percentile of
its total among every way the same tests could have fallen: P(lower total) + half P(the same total), exactly, from
the product of the tests' distributions. 50 % is average luck; 90 % means only one battle in ten with the same
rolls would have gone better.

Rolls that favour nobody in particular (deviation, bearings, Initiative) are listed but not scored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable, Mapping, Sequence

from ...rules.catalogue import COVER_BANDS, weapons
from ...rules.missile import missile_shot
from ...rules.odds import (
    blast_odds,
    damaged_action_fails,
    graze_effects,
    jammer_test,
    kamikaze_contact,
    missile_odds,
    percent,
    pool_distribution,
    rifle_odds,
    stun_recovery,
)
from ...rules.rifle import rifle_shot
from ...rules.sight import cover_of
from ..battle.intents import Action
from ..battle.dice import Roll, replay_source
from ..play.effects import Ctx, Refused, armour_of
from ..play.engine import Game, resolution
from ..battle.state import SIDES, GameState

ZERO, ONE = Fraction(0), Fraction(1)

KIND_TITLES = {
    "rifle": "rifle shot", "graze": "graze", "blast": "blast roll", "cm": "countermeasures",
    "cm-pre-roll": "Damaged countermeasures pre-roll", "missile-hit": "missile hit die", "pool": "Sensor Pool",
    "recovery": "stun recovery", "damaged-check": "Damaged check", "jammer": "jamming field",
    "contact": "Kamikaze contact",
}


@dataclass(frozen=True)
class Test:
    """One scored roll (or the dice rolled together for one result): its chances and what happened.

    ``chances`` lists each possible outcome with its exact chance; ``outcome`` is the one that happened and
    ``score`` its score for ``side`` (2 its way, 0 not, 1 half); ``distribution`` maps each score to its chance.
    """

    action: int                       # 1-based, the action of the record that rolled it
    round: int
    side: str
    kind: str
    what: str
    faces: tuple[int, ...]
    chances: tuple[tuple[str, Fraction], ...]
    outcome: str
    score: int
    distribution: Mapping[int, Fraction]
    explain: tuple[str, ...]
    p_kill: Fraction = ZERO           # the chance this roll destroys an enemy unit (rifle, missile, contact)
    killed: bool = False

    @property
    def percentile(self) -> Fraction:
        return _percentile(self.distribution, self.score)

    def chance_of(self, outcome: str) -> Fraction:
        return dict(self.chances).get(outcome, ZERO)

    def line(self) -> str:
        odds = ", ".join(f"{name} {percent(p)}" for name, p in self.chances if p)
        faces = " ".join(map(str, self.faces))
        return f"action {self.action} (round {self.round}), {self.what}: rolled {faces} -> {self.outcome} ({odds})"


@dataclass(frozen=True)
class Unscored:
    action: int
    round: int
    label: str
    value: float


@dataclass
class SideLuck:
    """One side's dice: expected against actual for what matters, and its overall luck as a percentile."""

    side: str
    tests: list[Test] = field(default_factory=list)
    expected_kills: Fraction = ZERO
    kills: int = 0
    expected_grazes: Fraction = ZERO
    grazes: int = 0
    expected_pool: Fraction = ZERO
    pool: int = 0
    expected_countermeasures: Fraction = ZERO
    countermeasures: int = 0
    countermeasure_rolls: int = 0
    luck: Fraction = Fraction(1, 2)

    @property
    def score(self) -> int:
        return sum(t.score for t in self.tests)

    def lines(self) -> list[str]:
        out = [f"side {self.side}: luck {percent(self.luck)} (percentile of {len(self.tests)} scored rolls; "
               f"50% is average)",
               f"  kills {self.kills}, expected {float(self.expected_kills):.2f}",
               f"  grazes {self.grazes}, expected {float(self.expected_grazes):.2f}",
               f"  Sensor Pool points {self.pool}, expected {float(self.expected_pool):.1f}",
               f"  countermeasures that shot a missile down {self.countermeasures} of {self.countermeasure_rolls}, "
               f"expected {float(self.expected_countermeasures):.2f}"]
        return out


@dataclass
class DiceReport:
    sides: dict[str, SideLuck]
    tests: list[Test]
    unscored: list[Unscored]

    def lines(self, side: str | None = None) -> list[str]:
        out: list[str] = []
        for s in (side,) if side else SIDES:
            out.extend(self.sides[s].lines())
        out.append("")
        for t in self.tests:
            if side is None or t.side == side:
                out.append(f"[{t.side}] {t.line()}")
        return out


def _percentile(dist: Mapping[int, Fraction], total: int) -> Fraction:
    below = sum((p for s, p in dist.items() if s < total), ZERO)
    return below + dist.get(total, ZERO) / 2


def convolve(distributions: Iterable[Mapping[int, Fraction]]) -> dict[int, Fraction]:
    """The exact distribution of the sum of independent scores."""
    out = {0: ONE}
    for d in distributions:
        nxt: dict[int, Fraction] = {}
        for a, pa in out.items():
            for b, pb in d.items():
                if pb:
                    nxt[a + b] = nxt.get(a + b, ZERO) + pa * pb
        out = nxt
    return out


def luck(tests: list[Test]) -> Fraction:
    """Percentile of the actual total score among every way the same tests could have fallen."""
    return _percentile(convolve(t.distribution for t in tests), sum(t.score for t in tests))


def _binary(p_good: Fraction, good: bool) -> tuple[int, dict[int, Fraction]]:
    return (2 if good else 0), {2: p_good, 0: ONE - p_good}


# ---- reading the rolls of one action ------------------------------------------------------------------------

_SENSOR = re.compile(r"^sensor die (\d+) of (\d+) for (.+)$")
_BLAST = re.compile(r"^blast die (\d+) of (\d+) for (.+) \((damage|stun|destruction)\)$")
_RIFLE = re.compile(r"^(.+) die (\d+) of (\d+) at (.+)$")
_RED = re.compile(r"^Red Die for (.+)'s graze$")
_NORMAL = re.compile(r"^normal die for (.+)'s graze$")
_CM_PRE = re.compile(r"^Damaged pre-roll for (.+)'s countermeasures$")
_CM = re.compile(r"^CM die for (.+)$")
_HIT = re.compile(r"^missile hit die against (.+)$")
_RECOVERY = re.compile(r"^stun recovery for (.+)$")
_DAMAGED = re.compile(r"^Damaged check for (.+) before its (.+)$")
_JAMMER = re.compile(r"^jammer test for (.+)$")
_CONTACT = re.compile(r"^Kamikaze contact roll against (.+)$")


@dataclass
class _Group:
    """Dice rolled together for one result: the test is made once the last one is in."""

    kind: str
    need: int
    make: Callable[[list[int]], None]     # makes the test once every face is in
    faces: list[int] = field(default_factory=list)


class _Reader:
    def __init__(self, number: int, action: Action, out: list[Test], unscored: list[Unscored]):
        self.number = number
        self.action = action
        self.out = out
        self.unscored = unscored
        self.group: _Group | None = None
        self.red: tuple[str, int, int, bool, bool] | None = None     # unit, Red face, armour, damaged, stunned

    def test(self, state: GameState, side: str, kind: str, what: str, faces: Iterable[float],
             chances: Iterable[tuple[str, Fraction]], outcome: str, score: int, dist: dict[int, Fraction],
             explain: Iterable[object], p_kill: Fraction = ZERO, killed: bool = False) -> None:
        self.out.append(Test(self.number, state.round, side, kind, what, tuple(int(f) for f in faces),
                             tuple(chances), outcome, score, dist, tuple(str(e) for e in explain), p_kill, killed))

    def roll(self, state: GameState, label: str, kind: str, value: float) -> None:
        if self.group is not None:
            self.group.faces.append(int(value))
            if len(self.group.faces) == self.group.need:
                group, self.group = self.group, None
                group.make(group.faces)
            return
        if kind != "d6":
            self.unscored.append(Unscored(self.number, state.round, label, value))
            return
        face = int(value)
        for pattern, handler in ((_SENSOR, self._pool), (_BLAST, self._blast), (_RED, self._red),
                                 (_NORMAL, self._normal), (_CM_PRE, self._cm_pre), (_CM, self._cm),
                                 (_HIT, self._hit), (_RECOVERY, self._recovery), (_DAMAGED, self._damaged),
                                 (_JAMMER, self._jammer), (_CONTACT, self._contact), (_RIFLE, self._rifle)):
            m = pattern.match(label)
            if m and handler(state, m, face):
                return
        self.unscored.append(Unscored(self.number, state.round, label, value))

    def _start(self, kind: str, need: int, make: Callable[[list[int]], None], face: int) -> bool:
        self.group = _Group(kind, need, make, [face])
        if need == 1:
            group, self.group = self.group, None
            group.make(group.faces)
        return True

    # -- the kinds of roll ------------------------------------------------------------------------------------

    def _pool(self, state: GameState, m: re.Match[str], face: int) -> bool:
        k, who = int(m.group(2)), m.group(3)
        side = state.units[who].side
        odds = pool_distribution(k)

        def make(faces: list[int]) -> None:
            total = sum(faces)
            dist = {2: sum((p for s, p in odds.distribution.items() if s > odds.mean), ZERO),
                    1: odds.distribution.get(int(odds.mean), ZERO) if odds.mean.denominator == 1 else ZERO,
                    0: sum((p for s, p in odds.distribution.items() if s < odds.mean), ZERO)}
            score = 2 if total > odds.mean else 1 if total == odds.mean else 0
            at_least = odds.p_at_least(total)
            self.test(state, side, "pool", f"{who}'s Sensor Pool of {k} {'die' if k == 1 else 'dice'}", faces,
                      [(f"{total} or more", at_least), ("above the average", dist[2])],
                      f"pool {total} (average {float(odds.mean):g})", score, dist, odds.explain)
        return self._start("pool", k, make, face)

    def _rifle(self, state: GameState, m: re.Match[str], face: int) -> bool:
        n, tid = int(m.group(3)), m.group(4)
        actor = self.action.actor
        if actor not in state.units or tid not in state.units:
            return False
        bf = state.battlefield()
        shot = rifle_shot(bf, bf.piece(actor), bf.piece(tid))
        if not shot.allowed or shot.dice != n or shot.weapon is None:
            return False
        target = state.units[tid]
        odds = rifle_odds(shot.weapon, n, target.is_drone)
        w = weapons()[shot.weapon]
        side = state.units[actor].side

        def make(faces: list[int]) -> None:
            if any(f in w.kill_faces for f in faces) and odds.p_kill:
                outcome, score = "kill", 2
            elif w.graze_face is not None and min(faces) == w.graze_face and (odds.p_graze or odds.p_kill):
                outcome, score = ("kill", 2) if target.is_drone else ("graze", 1)
            else:
                outcome, score = "no effect", 0
            self.test(state, side, "rifle", f"{actor}'s {w.name.lower()} at {tid}, {n} {'die' if n == 1 else 'dice'}", faces,
                      [("kill", odds.p_kill), ("graze", odds.p_graze), ("no effect", odds.p_miss)],
                      outcome, score, {2: odds.p_kill, 1: odds.p_graze, 0: odds.p_miss}, odds.explain,
                      odds.p_kill, outcome == "kill")
        return self._start("rifle", n, make, face)

    def _red(self, state: GameState, m: re.Match[str], face: int) -> bool:
        uid = m.group(1)
        u = state.units.get(uid)
        if u is None:
            return False
        self.red = (uid, face, armour_of(state, u), u.damaged, u.stunned)
        return True

    def _normal(self, state: GameState, m: re.Match[str], face: int) -> bool:
        if self.red is None or self.red[0] != m.group(1):
            return False
        uid, red, arm, damaged, stunned = self.red
        self.red = None
        odds = graze_effects(arm, damaged, stunned)
        unharmed = face <= arm and (red <= arm or stunned)
        if unharmed:
            outcome = "unharmed"
        elif face > arm and damaged:
            outcome = "destroyed"
        else:
            outcome = " and ".join(w for w, hit in (("stunned", red > arm and not stunned), ("damaged", face > arm))
                                   if hit)
        score, dist = _binary(odds.p_unharmed, unharmed)
        self.test(state, state.units[uid].side, "graze", f"{uid} grazed (Red, normal against Armour {arm})",
                  (red, face), [("unharmed", odds.p_unharmed)], outcome, score, dist, odds.explain)
        return True

    def _blast(self, state: GameState, m: re.Match[str], face: int) -> bool:
        n, uid, stage = int(m.group(2)), m.group(3), m.group(4)
        u = state.units.get(uid)
        if u is None:
            return False
        arm = armour_of(state, u)
        odds = blast_odds(n, arm, False)

        def make(faces: list[int]) -> None:
            good = not any(f > arm for f in faces)
            score, dist = _binary(odds.p_unharmed, good)
            self.test(state, u.side, "blast", f"{uid}'s blast {stage} roll, {n} dice against Armour {arm}", faces,
                      [("no die above Armour", odds.p_unharmed)], "no effect" if good else stage, score, dist,
                      odds.explain[:1])
        return self._start("blast", n, make, face)

    def _cm_pre(self, state: GameState, m: re.Match[str], face: int) -> bool:
        uid = m.group(1)
        if uid not in state.units:
            return False
        odds = damaged_action_fails()
        score, dist = _binary(odds.p_not, face <= 4)
        self.test(state, state.units[uid].side, "cm-pre-roll", f"{uid}'s Damaged countermeasures", (face,),
                  [("1-4, the CM fires", odds.p_not)], "fires" if face <= 4 else "fails to respond", score, dist,
                  ("a Damaged trooper's countermeasures need a pre-roll of 1-4 [p.37, A24]",))
        return True

    def _cm(self, state: GameState, m: re.Match[str], face: int) -> bool:
        uid = m.group(1)
        if uid not in state.units:
            return False
        cm = state.battlefield().piece(uid).stat("countermeasures")
        odds = missile_odds([(cm, False)], 1, names=[uid])
        p = odds.p_each_cm_shoots_down[0]
        score, dist = _binary(p, face <= cm)
        self.test(state, state.units[uid].side, "cm", f"{uid}'s countermeasures (CM {cm})", (face,),
                  [("shoots it down", p)], "shoots the missile down" if face <= cm else "misses", score, dist,
                  odds.explain[:1])
        return True

    def _hit(self, state: GameState, m: re.Match[str], face: int) -> bool:
        tid = m.group(1)
        actor = self.action.actor
        if actor not in state.units:
            return False
        bf = state.battlefield()
        if tid not in bf.pieces:
            return False
        shot = missile_shot(bf, bf.piece(actor), bf.piece(tid))
        eff = shot.effective_counters
        odds = missile_odds([], eff)
        p = odds.p_hit_die
        good = face <= eff
        score, dist = _binary(p, good)
        unit = tid in state.units
        self.test(state, state.units[actor].side, "missile-hit", f"{actor}'s missile at {tid} ({eff} effective "
                  f"counters)", (face,), [("direct hit", p)], "direct hit" if good else "deviates", score, dist,
                  odds.explain[-1:], p if unit else ZERO, good and unit)
        return True

    def _recovery(self, state: GameState, m: re.Match[str], face: int) -> bool:
        uid = m.group(1)
        if uid not in state.units:
            return False
        odds = stun_recovery()
        score, dist = _binary(odds.p, face <= 2)
        self.test(state, state.units[uid].side, "recovery", f"{uid} tries to stand", (face,),
                  [("stands", odds.p)], "stands" if face <= 2 else "stays down", score, dist, odds.explain[:1])
        return True

    def _damaged(self, state: GameState, m: re.Match[str], face: int) -> bool:
        uid = m.group(1)
        if uid not in state.units:
            return False
        odds = damaged_action_fails()
        score, dist = _binary(odds.p_not, face <= 4)
        self.test(state, state.units[uid].side, "damaged-check", f"{uid}'s Damaged suit before its {m.group(2)}",
                  (face,), [("acts", odds.p_not)], "acts" if face <= 4 else "fails", score, dist, odds.explain[:1])
        return True

    def _jammer(self, state: GameState, m: re.Match[str], face: int) -> bool:
        uid = m.group(1)
        u = state.units.get(uid)
        if u is None:
            return False
        arm = armour_of(state, u)
        odds = jammer_test(arm, u.damaged)
        score, dist = _binary(odds.p_unharmed, face <= arm)
        self.test(state, u.side, "jammer", f"{uid} in a jamming field (Armour {arm})", (face,),
                  [("passes", odds.p_unharmed)], "passes" if face <= arm else "fails", score, dist, odds.explain)
        return True

    def _contact(self, state: GameState, m: re.Match[str], face: int) -> bool:
        tid = m.group(1)
        actor = self.action.actor
        bf = state.battlefield()
        if actor not in state.units or tid not in bf.pieces:
            return False
        t = bf.piece(tid)
        cov, _ = cover_of(bf, t)
        eff = t.target_counters - COVER_BANDS[cov]
        strict = state.rulings_in_force().reads("A34", "A")
        if eff < 1:
            p = ZERO
            explain: tuple[str, ...] = (f"{eff} effective counters: no face destroys [p.22]",)
        else:
            odds = kamikaze_contact(eff, strict)
            p, explain = odds.p, odds.explain
        good = face < eff if strict else face <= eff
        score, dist = _binary(p, good)
        unit = tid in state.units
        self.test(state, state.units[actor].side, "contact", f"{actor}'s contact roll against {tid}", (face,),
                  [("destroys", p)], "destroys" if good else "fails", score, dist, explain, p if unit else ZERO,
                  good and unit)
        return True


# ---- the report -----------------------------------------------------------------------------------------------


def _drive(state: GameState, action: Action, rolls: Sequence[Roll], reader: _Reader) -> GameState:
    """The engine's own resolution of one recorded action, reading each roll against the state it is rolled in."""
    work = state.copy()
    ctx = Ctx(work)
    source = replay_source(rolls)
    gen = resolution(ctx, action)          # corrections of a refereed game replay too
    try:
        req = next(gen)
        while True:
            value = source.answer(req)
            reader.roll(ctx.state, req.label, req.kind, value)
            req = gen.send(value)
    except StopIteration:
        pass
    except Refused as r:
        raise ValueError(f"action {reader.number} ({action.text()}) no longer replays: {r.reason}") from None
    return work


def dice_report(game: Game) -> DiceReport:
    tests: list[Test] = []
    unscored: list[Unscored] = []
    state = game.initial
    for n, entry in enumerate(game.record, start=1):
        state = _drive(state, entry.action, entry.rolls, _Reader(n, entry.action, tests, unscored))
    sides = {s: SideLuck(s) for s in SIDES}
    for t in tests:
        me = sides[t.side]
        me.tests.append(t)
        me.expected_kills += t.p_kill
        me.kills += t.killed
        if t.kind == "rifle":               # not an action kind: the kind of a scored roll
            me.expected_grazes += t.chance_of("graze")
            me.grazes += t.outcome == "graze"
        if t.kind == "pool":
            k = len(t.faces)
            me.expected_pool += Fraction(7 * k, 2)
            me.pool += sum(t.faces)
        if t.kind == "cm":
            me.expected_countermeasures += t.chance_of("shoots it down")
            me.countermeasures += t.score == 2
            me.countermeasure_rolls += 1
    for me in sides.values():
        me.luck = luck(me.tests)
    return DiceReport(sides, tests, unscored)
