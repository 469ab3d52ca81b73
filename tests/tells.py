"""A cheating player's look at the computer's blips: can the way they are moved tell its decoys from its real blips?

Seeded battles of the computer against random legal play are watched through the opponent's player view alone,
after every action: where each of the computer's blips stands, and what the public log says of it. For every blip
of the computer's, from the moment it is placed until it leaves the table (a reveal) or the battle ends, the watcher
collects what a player across the table could note down:

* where it was placed at set-up (cover about it, depth from its edge) and its place in the order of placing;
* how often it was activated as a turn's primary activation and as a free extra blip activation, and in which turn
  and place of a turn it was first activated;
* how far it moved in all and per activation, how much nearer it came to the nearest enemy piece (the watcher's own
  units and blips) and to the nearest objective;
* whether it ever moved at all.

The truth (which blips held units) is read from the battle's state after set-up and is only used to score. A rule is
learned on half of the battles (each feature alone, its better direction, and a logistic rule over all of them) and
scored on the other half by the area under its ROC curve: 0.5 is a coin, 1.0 always right. The question is asked
at the start of every round, of the blips still hidden that have been activated at least once (a blip never
activated has shown nothing): a blip revealed early has had fewer activations than one still hidden, which says
nothing about the blips still on the table.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

from referee.game.battle.state import GameState, other
from referee.game.views.view import player_view
from tests.spy import auc

_ACTIVATES = re.compile(r"^(\S+) activates \((extra blip )?activation")
_TURN = re.compile(r"^side [AB]'s turn")

FEATURES = ("placed", "placed_even", "start_cover", "start_depth", "primary", "extra", "activations", "share_primary", "first_round", "first_place", "moved_total",
            "moved_per_activation", "toward_enemy", "toward_enemy_per_move", "toward_objective",
            "toward_objective_per_move", "still")


@dataclass
class BlipTrack:
    real: bool
    x: float
    y: float
    primary: int = 0
    extra: int = 0
    moves: int = 0
    moved: float = 0.0
    toward_enemy: float = 0.0
    toward_objective: float = 0.0
    first_round: int = 0
    first_place: int = 0         # the place in its turn of its first activation (1: the turn's first)
    placed: int = 0              # its place in the order the blips went down in at set-up
    start_cover: int = 0         # cover pieces about where it was placed (as the set-up counts them)
    start_depth: float = 0.0     # how far from its side's table edge it was placed

    def features(self) -> dict[str, float]:
        acts = self.primary + self.extra
        per_move = max(1, self.moves)
        return {
            "placed": self.placed, "placed_even": float(self.placed % 2 == 0), "start_cover": self.start_cover,
            "start_depth": self.start_depth, "primary": self.primary, "extra": self.extra, "activations": acts,
            "share_primary": self.primary / acts if acts else 0.0,
            "first_round": self.first_round or 99, "first_place": self.first_place or 99,
            "moved_total": self.moved, "moved_per_activation": self.moved / acts if acts else 0.0,
            "toward_enemy": self.toward_enemy, "toward_enemy_per_move": self.toward_enemy / per_move,
            "toward_objective": self.toward_objective, "toward_objective_per_move": self.toward_objective / per_move,
            "still": 1.0 if acts and not self.moves else 0.0,
        }


@dataclass
class Watched:
    samples: list[tuple[dict[str, float], bool]] = field(default_factory=list)    # (features, real) per checkpoint


def _nearest(x: float, y: float, marks: list[tuple[float, float]]) -> float:
    return min((math.hypot(mx - x, my - y) for mx, my in marks), default=0.0)


class Watcher:
    """What ``watcher`` (the computer's opponent) sees of side ``side``'s blips over one battle."""

    def __init__(self, side: str):
        self.side = side
        self.watcher = other(side)
        self.tracks: dict[str, BlipTrack] = {}
        self.done: list[BlipTrack] = []
        self.log_seen = 0
        self.place = 0
        self.round = 0
        self.order: list[str] = []           # the computer's blips in the order they appeared at set-up
        self.samples: list[tuple[dict[str, float], bool]] = []

    def placing(self, state: GameState) -> None:
        """During set-up: the order the computer's blips appear in the watcher's view."""
        for b in player_view(state, self.watcher)["blips"]:
            if b["side"] == self.side and b["id"] not in self.order:
                self.order.append(b["id"])

    def start(self, state: GameState) -> None:
        from referee.game.players.computer.seen import Seen
        from referee.game.players.computer.setup import _cover_near, _cover_pieces

        v = player_view(state, self.watcher)
        cover = _cover_pieces(Seen(v, self.watcher))
        height = float(v["table"]["height"])
        for b in state.blips.values():
            if b.side == self.side:
                t = BlipTrack(bool(state.blip_contents(b)), b.x, b.y)
                t.placed = self.order.index(b.id) if b.id in self.order else len(self.order)
                t.start_cover = _cover_near(cover, b.x, b.y)
                t.start_depth = b.y if self.side == "A" else height - b.y
                self.tracks[b.id] = t

    def look(self, state: GameState) -> None:
        v = player_view(state, self.watcher)
        log = v["log"]
        for e in log[self.log_seen:]:
            text = e.get("text", "")
            if _TURN.match(text):
                self.place = 0
                continue
            m = _ACTIVATES.match(text)
            if m is None:
                continue
            self.place += 1
            t = self.tracks.get(m.group(1))
            if t is None:
                continue
            if m.group(2):
                t.extra += 1
            else:
                t.primary += 1
            if not t.first_round:
                t.first_round, t.first_place = int(v.get("round") or 0), self.place
        self.log_seen = len(log)
        enemies = [(u["x"], u["y"]) for u in v["units"] if u["side"] == self.watcher]
        enemies += [(b["x"], b["y"]) for b in v["blips"] if b["side"] == self.watcher]
        objectives = [(o["x"], o["y"]) for o in v["objectives"] if not o.get("destroyed")]
        on_table = {b["id"]: b for b in v["blips"] if b["side"] == self.side}
        for ident in list(self.tracks):
            t = self.tracks[ident]
            b = on_table.get(ident)
            if b is None:
                self.done.append(self.tracks.pop(ident))
                continue
            step = math.hypot(b["x"] - t.x, b["y"] - t.y)
            if step > 1e-6:
                t.moves += 1
                t.moved += step
                t.toward_enemy += _nearest(t.x, t.y, enemies) - _nearest(b["x"], b["y"], enemies)
                t.toward_objective += _nearest(t.x, t.y, objectives) - _nearest(b["x"], b["y"], objectives)
                t.x, t.y = b["x"], b["y"]
        if int(v.get("round") or 0) > self.round:
            self.round = int(v.get("round") or 0)
            self.checkpoint()

    def checkpoint(self) -> None:
        """The question a player asks at the start of each round: of the blips still on the table, which hold
        units? (A blip already revealed is no secret; its track stops counting there.)"""
        self.samples.extend((t.features(), t.real) for t in self.tracks.values() if t.primary + t.extra)

    def finish(self) -> Watched:
        self.checkpoint()
        return Watched(self.samples)


def watch_battle(seed: int, table_name: str, computer: str = "computer:normal", side: str = "A",
                 rounds: int = 6) -> Watched:
    """One seeded battle, ``computer`` playing ``side`` against random legal play (set-up included), watched from
    the other side's view after every action."""
    from referee import paths
    from referee.game.players.seated import make_player
    from referee.game.records.record import new_seeded_dice
    from referee.game.players.selfplay import play_battle
    from referee.game.play.setup import new_game
    from referee.rules.factions import faction_files
    from referee.rules.scenario import load_scenario

    table = load_scenario(paths.table_file(table_name))
    rng = random.Random(seed)
    known = sorted(faction_files())
    factions = {"A": rng.choice(known), "B": rng.choice(known)}
    game = new_game(table, factions)
    kinds = {side: computer, other(side): "random"}
    players = {s: make_player(kinds[s], s, seed, rng) for s in "AB"}
    watcher = Watcher(side)
    inner = game.play

    def play(action, dice):  # type: ignore[no-untyped-def]
        out = inner(action, dice)
        if out.legal and game.state.phase == "setup":
            watcher.placing(game.state)
        elif out.legal:
            if not watcher.tracks and not watcher.done:
                watcher.start(game.state)
            watcher.look(game.state)
        return out

    game.play = play            # type: ignore[method-assign]
    play_battle(game, new_seeded_dice(seed), rng, rounds, 20000, players)
    return watcher.finish()


def _logistic(train: list[tuple[list[float], bool]], steps: int = 400, rate: float = 0.3):
    """A logistic rule over the features, standardised on the training set (plain gradient descent)."""
    n = len(train[0][0])
    mean = [sum(x[i] for x, _ in train) / len(train) for i in range(n)]
    sd = [max(1e-9, math.sqrt(sum((x[i] - mean[i]) ** 2 for x, _ in train) / len(train))) for i in range(n)]
    rows = [([(x[i] - mean[i]) / sd[i] for i in range(n)], 1.0 if y else 0.0) for x, y in train]
    w, b = [0.0] * n, 0.0
    for _ in range(steps):
        gw, gb = [0.0] * n, 0.0
        for x, y in rows:
            z = b + sum(wi * xi for wi, xi in zip(w, x))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            for i in range(n):
                gw[i] += (p - y) * x[i]
            gb += p - y
        w = [wi - rate * (g / len(rows) + 0.01 * wi) for wi, g in zip(w, gw)]
        b -= rate * gb / len(rows)

    def score(x: list[float]) -> float:
        return b + sum(wi * (xi - m) / s for wi, xi, m, s in zip(w, x, mean, sd))

    return score


@dataclass(frozen=True)
class TellScore:
    blips: int          # blips scored, counted once per round they were asked about
    real: int
    per_feature: dict[str, float]       # the AUC of each feature alone, its direction learned on the training half
    combined: float                     # the AUC of the logistic rule over all features

    @property
    def worst(self) -> float:
        return max([self.combined, *self.per_feature.values()])


def tells(battles: list[Watched]) -> TellScore:
    """Learn on the first half of the battles, score on the second."""
    half = len(battles) // 2
    train = [s for w in battles[:half] for s in w.samples]
    test = [s for w in battles[half:] for s in w.samples]
    per: dict[str, float] = {}
    for f in FEATURES:
        sign = 1.0 if auc([(x[f], y) for x, y in train]) >= 0.5 else -1.0
        per[f] = auc([(sign * x[f], y) for x, y in test])
    rule = _logistic([([x[f] for f in FEATURES], y) for x, y in train])
    combined = auc([(rule([x[f] for f in FEATURES]), y) for x, y in test])
    return TellScore(len(test), sum(1 for _, y in test if y), per, combined)
