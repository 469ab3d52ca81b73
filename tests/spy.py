"""An adversarial leak audit: a "spy" that sees only side A's outputs tries to learn side B's secrets.

Seeded battles are set up and played by the random player. After set-up and then every few actions the spy collects
everything the program shows side A: the player view (table, blips, log with A's own notes), the hover text of every
blip, the end-of-round dialog, and the engine's refusals of A's actions. From these it learns, on half of the battles,
to tell B's real blips from decoys, whether B's force is larger than usual, and which half of its missions B drew;
it is scored on the other half by the area under its ROC curve (0.5: no better than a coin; 1.0: it always knows).

The spy is a naive Bayes classifier over tokens: words of the texts (ids of B's blips replaced by one word, so that
it learns what is said of a blip rather than its name), every key=value the view holds of a blip, the blip's place
in the view's list, and the characters of its label; only the dozen tokens that best tell the classes apart in
training are kept, so that a leak is not drowned by the many tokens that mean nothing. A leak that any of these carries is found; a planted one must
be (``planted_leak``), to show the audit bites.
"""

from __future__ import annotations

import functools
import json
import math
import hashlib
import itertools
import random
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock
from dataclasses import dataclass, field

from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.play.legal import legal_actions, to_act
from referee.game.players.legal_play import choose
from referee.game.players.random_play import random_action
from referee.game.play.session import Session
from referee.game.play.setup import SetupChoices, new_battle, new_game
from referee.game.battle.state import GameState
from referee.game.play.victory import end_of_round_lines
from referee.game.views.view_words import card_lines, hover_text, log_lines
from referee.rules.scenario import parse_scenario

TABLE = parse_scenario({"name": "spy field", "table": {"width": 36, "height": 36},
                        "terrain": [{"id": "w1", "type": "woods", "polygon": [[14, 14], [20, 14], [20, 20], [14, 20]]}]},
                       "spy field")
FACTIONS = {"A": "council-of-zane", "B": "new-tokyo"}
BLIP = re.compile(r"\bb-blip-[A-Za-z0-9-]+")


@dataclass
class Battle:
    blips: list[tuple[list[str], bool]] = field(default_factory=list)    # (tokens, real) for each of B's blips
    tokens: list[str] = field(default_factory=list)                      # everything A was shown
    force: int = 0                                                       # squares of B's that hold units
    mission: bool = False          # B's mission card is in the first half (by id) of the missions it was drawn from
    own_mission: str = ""          # side A's own mission card, which A may read


@functools.lru_cache(maxsize=1 << 16)
def _words(text: str) -> tuple[str, ...]:
    """Words, pairs of words (so "round 6" differs from "6 squares"), and for a small number n every "n>=k": a
    count said in any words is learned as a count. The spy reads the whole log at every look, so the same texts come
    again and again: each is split once."""
    words = re.findall(r"[a-z]+|\d+", BLIP.sub("BLIP", text.lower()))
    out = list(words) + [f"{a}_{b}" for a, b in zip(words, words[1:])]
    for a, b in zip(words, words[1:]):
        if a.isdigit() and int(a) <= 40:
            out.extend(f"{b}>={k}" for k in range(int(a) + 1))
    return tuple(out)


@contextmanager
def _salts_from(seed: int) -> Iterator[None]:
    """The seals' salts drawn from the battle's seed instead of the operating system: they show in every view (the
    fingerprints, the blips' labels), so with fresh ones each run the spy read different noise, and its scores on a
    few battles moved from run to run. Drawn from the seed, the same battles score the same every time."""
    drawn = itertools.count()

    def salt() -> str:
        return hashlib.sha256(f"spy salt|{seed}|{next(drawn)}".encode()).hexdigest()[:32]

    with mock.patch("referee.game.play.setup.new_salt", salt), mock.patch("referee.game.play.seal.new_salt", salt):
        yield


def observe(seed: int, steps: int = 30, views: tuple = (), setup: bool = False) -> list[Battle]:
    """One seeded battle as side A sees it, once through each of ``views`` (functions like ``player_view``; the
    default is ``player_view`` itself): a planted leak is watched in the very same battle.

    ``setup``: both players make every set-up decision themselves, at random through the legal actions (A60), and
    the spy watches A's view and A's legal actions after each one: the order B's blips went down in, what the log
    says of each, how B's cards were drawn and chosen."""
    with _salts_from(seed):
        return _observe(seed, steps, views, setup)


def _observe(seed: int, steps: int, views: tuple, setup: bool) -> list[Battle]:
    from referee.game.views.view import player_view

    if setup:
        game, dice, rng = new_game(TABLE, FACTIONS, {"A": 0, "B": seed % 4}), SeededDice(seed), random.Random(seed)
        pending: list = []
        session = Session(game)
        while game.state.phase == "setup":
            side = to_act(game.state)
            action = choose(session, rng, side)
            assert action is not None and game.play(action, dice).legal
            pending.append((game.state, [json.dumps(a.to_data()) for a in legal_actions(game.state, "A")]))
        state = game.state
    else:
        state, _ = new_battle(TABLE, SetupChoices(FACTIONS), SeededDice(seed))
        game, dice, rng = Game(state), SeededDice(seed), random.Random(seed)
        pending = []
    truth = {b.id: bool(state.blip_contents(b)) for b in state.blips.values() if b.side == "B"}
    watchers = [_Watcher(view, truth) for view in (views or (player_view,))]
    for seen, legal in pending:
        for w in watchers:
            w.look(seen)
            w.shown.extend(t for line in legal for t in _words(line))
    for w in watchers:
        w.look(game.state)
    for step in range(steps):
        if game.state.phase == "over":
            break
        action = random_action(game.state, rng)
        if action.kind in ("end-of-round", "objectives"):
            action = type(action)("end-of-round")
        out = game.play(action, dice)
        if not out.legal and game.state.turn is not None and game.state.turn.player == "A":
            for w in watchers:
                w.shown.extend(_words(out.reason))
        if step % 10 == 9:
            for w in watchers:
                w.look(game.state)
    force = sum(1 for v in state.holding["B"].squares.values() if v)
    mission = _first_half(state.missions["B"])
    out_battles = []
    for w in watchers:
        w.look(game.state)
        # A blip revealed in the battle is no secret any more (the log says "decoy removed" for all to read): only
        # the counters still on the table at the end are scored.
        out_battles.append(Battle([(w.seen[i], truth[i]) for i in truth if i in game.state.blips], w.shown, force,
                                  mission, state.missions["A"]))
    return out_battles


def _named(mission_id: str) -> str:
    """The token that names a mission in what is shown: its one word, or its first two words as a pair."""
    words = re.findall(r"[a-z]+|\d+", mission_id.lower())
    return words[0] if len(words) == 1 else f"{words[0]}_{words[1]}"


def mission_mentions(battle: Battle) -> float:
    """The spy's reading of the deck, which is public: every mission other than A's own that what A was shown names
    counts for its half (+1 first half, -1 second half). A's own card is left out: A may read its own mission."""
    from referee.game.battle.cards import playing_deck

    shown = set(battle.tokens)
    score = 0.0
    for kind in ("offence", "defence", "chance-encounter"):
        for c in playing_deck().missions(kind):
            if c.id != battle.own_mission and _named(c.id) in shown:
                score += 1.0 if _first_half(c.id) else -1.0
    return score


def _first_half(mission_id: str) -> bool:
    from referee.game.battle.cards import playing_deck

    deck = playing_deck()
    for kind in ("offence", "defence", "chance-encounter"):
        ids = sorted(c.id for c in deck.missions(kind))
        if mission_id in ids:
            return ids.index(mission_id) < len(ids) // 2
    return False


class _Watcher:
    """What one view of side A's showed over a battle."""

    def __init__(self, view, truth: dict[str, bool]) -> None:
        self.view = view
        self.seen: dict[str, list[str]] = {ident: [] for ident in truth}
        self.shown: list[str] = []

    def look(self, s: GameState) -> None:
        seen, shown, view = self.seen, self.shown, self.view
        v = view(s, "A")
        theirs = [b for b in v["blips"] if b["side"] == "B"]
        for rank, b in enumerate(theirs):
            if b["id"] not in seen:
                continue
            tokens = seen[b["id"]]
            tokens.append(f"rank={rank}")
            tokens.extend(f"label={ch}" for ch in b["id"].split("-")[-1])
            tokens.extend(f"{k}={json.dumps(val)}" for k, val in sorted(b.items()) if k not in ("id", "x", "y"))
            hover = hover_text(v, b["id"])
            tokens.extend(_words(hover.split(" at (")[0] + hover.split(")")[-1]))
        for e in v["log"]:
            for i, ident in enumerate(e.get("units", [])):
                if ident in seen:
                    seen[ident].append(f"named={i}")
                    seen[ident].extend(f"log:{w}" for w in _words(e["text"] + " " + e.get("note", "")))
        for line in log_lines(v):
            # A line about side B is read apart from one about side A (each says its own counts).
            side = "b:" if "side b" in line.lower() else "a:" if "side a" in line.lower() else ""
            shown.extend(side + w for w in _words(line))
        shown.extend(_words(json.dumps({k: v[k] for k in ("holding", "missions", "cards", "result", "to_face")})))
        # The card texts a player reads on the Holding screen: the opponent's only once the battle is over.
        shown.extend(_words(" ".join(card_lines(v, "B") or [])))
        if s.phase in ("action", "end-of-round"):
            shown.extend(_words(" ".join(end_of_round_lines(s, "A"))))


def _train(samples: list[tuple[list[str], bool]], keep: int = 12):
    """Naive Bayes over the ``keep`` tokens that best tell the classes apart in training (the rest is noise)."""
    counts: dict[bool, Counter] = {True: Counter(), False: Counter()}
    docs: Counter = Counter()
    for tokens, label in samples:
        counts[label].update(set(tokens))
        docs[label] += 1

    def weight(t: str) -> float:
        p1 = (counts[True][t] + 1) / (docs[True] + 2)
        p0 = (counts[False][t] + 1) / (docs[False] + 2)
        return abs(p1 - p0)

    vocab = set(sorted(set(counts[True]) | set(counts[False]), key=lambda t: (-weight(t), t))[:keep])

    def score(tokens: list[str]) -> float:
        total = math.log((docs[True] + 1) / (docs[False] + 1))
        for t in set(tokens) & vocab:
            p1 = (counts[True][t] + 1) / (docs[True] + 2)
            p0 = (counts[False][t] + 1) / (docs[False] + 2)
            total += math.log(p1 / p0)
        return total

    return score


def auc(scored: list[tuple[float, bool]]) -> float:
    """Area under the ROC curve: the chance that a random positive scores above a random negative (ties: half)."""
    pos = [s for s, y in scored if y]
    neg = [s for s, y in scored if not y]
    if not pos or not neg:
        return 0.5
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


@dataclass(frozen=True)
class SpyScore:
    battles: int
    blips: float          # AUC telling B's real blips from decoys
    force: float          # AUC telling a larger than median B force
    mission: float        # AUC telling which half of its missions B's mission card is from


def spy(battles: list[Battle]) -> SpyScore:
    """Train on the first half of the battles, score the second half."""
    half = len(battles) // 2
    train, test = battles[:half], battles[half:]
    blip = _train([s for b in train for s in b.blips])
    blips = auc([(blip(t), y) for b in test for t, y in b.blips])
    median = sorted(b.force for b in train)[len(train) // 2]
    force = _train([(b.tokens, b.force > median) for b in train])
    forces = auc([(force(b.tokens), b.force > median) for b in test])
    mission = _train([(b.tokens, b.mission) for b in train])
    learned = auc([(mission(b.tokens), b.mission) for b in test])
    # A card is seen a handful of times in a hundred battles, too few for the learner to single out a card's name
    # among thousands of words; the spy also reads the public deck and looks for any mission named.
    named = auc([(mission_mentions(b), b.mission) for b in test])
    return SpyScore(len(battles), blips, forces, max(learned, named))


def planted_leak(state: GameState, side: str) -> dict:
    """The player view with three leaks planted: the opponent's blips listed real ones first, the opponent's force
    size in the holding-area log line, and the opponent's mission card named in the log."""
    from referee.game.views.view import player_view

    v = player_view(state, side)
    opponent = "B" if side == "A" else "A"
    by_square = {b.id: b.square for b in state.blips.values()}
    real = {b.id for b in state.blips.values() if state.blip_contents(b)}
    v["blips"].sort(key=lambda b: (b["side"], b["id"] not in real, by_square.get(b["id"], 0)))
    filled = sum(1 for c in state.holding[opponent].squares.values() if c)
    for e in v["log"]:
        if f"side {opponent} fills" in e["text"]:
            e["text"] += f": {filled} squares hold units"
    v["log"].append({"round": state.round, "text": f"the battle goes on ({state.missions.get(opponent)})",
                     "explain": [], "units": []})
    return v
