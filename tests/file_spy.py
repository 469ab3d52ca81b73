"""A spy with read access to every file the program wrote (issue 32): it plays side A, knows A's PIN, and reads the
saves folder, the campaign folder and any temporary file left there, looking for side B's secrets.

Battles are played through the battle service as the window plays them (set-up decisions and actions by random
legal play, each autosaved), one after another in one saves folder, so earlier battles stand beside later ones as
kept copies (``autosave-<time>.json``). The spy opens what A's PIN opens and reads every JSON object in the files,
and in their journals line by line, for B's secrets by their structure: B's entry of ``missions``, ``cards``,
``holding`` or ``salts``; a blip of B's with its ``square``; B's set-up decisions and Scrambles (the squares,
cards and drones they name); the dice's seed and secret salt. Each secret it reads counts once per battle.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import storage
from referee.game.players.legal_play import choose
from referee.game.records.sealing import Keyring, is_sealed, public_battle, unseal
from referee.rules.errors import InputError
from referee.game.play.session import Session
from referee.game.play.engine import Game
from referee.game.play.setup import new_game
from referee.game.play.setup_steps import decision
from referee.game.battle.dice import SeededDice
from referee.rules.scenario import parse_scenario
from referee.service.session import BattleSession

from .battles import OPEN_FIELD

TABLE = parse_scenario(OPEN_FIELD, "open field")
B_SECRET_ACTIONS = ("fill-holding", "choose-cards", "draw-cards", "place-blip", "scramble")


def play_battle(seed: int, actions: int, cost: int = 2 ** 10, sealed: bool = True, journalled: int = 6) -> BattleSession:
    """A battle with both players' PINs (``sealed``; else none, as battles were written before), played through
    the service for ``actions`` legal actions (set-up included); the autosave starts ``journalled`` actions before
    the end (a snapshot of all before, then one journal line each: the files are those of any battle, with fewer
    waits for the disk)."""
    start = table_set()
    game = Game(start.initial, list(start.record), start.state.copy())
    if sealed:
        game.keys = Keyring({"A": f"pin-a-{seed}", "B": f"pin-b-{seed}"}, cost=cost)
    session = BattleSession(game, SeededDice(seed), hotseat=True, autosaving=False)
    rng = random.Random(seed)
    engine = Session(game)
    done = tries = 0
    while done < actions and tries < 4 * actions and session.state.phase != "over":
        tries += 1
        session.autosaving = done >= actions - journalled
        action = choose(engine, rng)
        if action is None:
            break
        done += session.attempt(action).legal
    return session


TABLE_SET: list[Game] = []


def table_set() -> Game:
    """A battle's set-up up to its objectives placed (the slow part of set-up to play at random, and no side's
    secret), played once; each battle goes on from it with dice and choices of its own."""
    if not TABLE_SET:
        game = new_game(TABLE, {"A": "council-of-zane", "B": "new-tokyo"})
        dice, rng, engine = SeededDice(0), random.Random(0), Session(game)
        while (decision(game.state) or {}).get("step") in ("roles", "edge", "objective"):
            action = choose(engine, rng)
            assert action is not None
            game.play(action, dice)
        TABLE_SET.append(game)
    return TABLE_SET[0]


def killed_while_writing(session: BattleSession, path: Path) -> None:
    """Save ``session`` to ``path`` in a child process killed just before the rename: its temporary file stays in
    the folder, as a real kill leaves it (``os._exit``: no handler of the program's runs)."""
    pid = os.fork()
    if pid == 0:                                  # the child: killed at the rename
        storage.on_step = lambda name: os._exit(0) if name == "rename" else None
        try:
            session.save(path)
        finally:
            os._exit(1)
    os.waitpid(pid, 0)


@dataclass
class Found:
    secrets: dict[str, int] = field(default_factory=dict)      # what kind of B's secret -> how many read
    files: int = 0
    bytes: int = 0

    @property
    def total(self) -> int:
        return sum(self.secrets.values())


def _objects(data: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _b_secrets(data: Any) -> set[str]:
    """Side B's secrets readable in ``data`` (parsed JSON), each named so it counts once."""
    seen: set[str] = set()
    for obj in _objects(data):
        for name in ("missions", "cards", "holding", "salts"):
            value = obj.get(name)
            if isinstance(value, dict) and value.get("B"):
                seen.add(name)
        if obj.get("side") == "B" and isinstance(obj.get("square"), int) and obj.get("square") and "x" in obj:
            seen.add(f"square of {obj.get('id')}")
        action = obj.get("action")
        if isinstance(action, dict) and action.get("kind") in B_SECRET_ACTIONS:
            actor = str(action.get("actor", ""))
            if (actor == "B" or actor.startswith("b-")) and action.get("args"):
                seen.add(f"{action['kind']} {json.dumps(action.get('args'), sort_keys=True)}")
        if isinstance(obj.get("seed"), int) and "moment" in obj:
            seen.add("dice seed")
        if obj.get("secret_salt"):
            seen.add("dice secret salt")
        if obj.get("kind") == "computer" and isinstance(obj.get("seed"), int):
            seen.add("computer's seed")
    return seen


def _readable(path: Path, pins: dict[str, str]) -> list[Any]:
    """Everything the spy can read in one file: its JSON (or each line of a journal), and the part A's PIN opens."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    docs: list[Any] = []
    try:
        docs.append(json.loads(text))
    except ValueError:
        for line in text.splitlines():
            try:
                docs.append(json.loads(line))
            except ValueError:
                docs.append(line)
    for doc in list(docs):
        if isinstance(doc, dict) and is_sealed(doc):
            battle = str(doc.get("battle"))
            keys = Keyring({"A": pins[battle]} if battle in pins else {})
            try:
                docs.append(public_battle(doc, keys, str(path)).state)
                keys.adopt(doc, str(path))
                if "A" in keys.pins:
                    docs.append(unseal(keys, "A", doc["public"]["actions"], doc["sides"]["A"], str(path), "A"))
            except InputError:         # a part A's PIN does not open stays closed to the spy
                pass
    return docs


def spy_on(folders: list[Path], pins: dict[str, str]) -> Found:
    """Read every file under ``folders`` (``pins``: A's PIN by battle id) and count B's secrets found."""
    found = Found()
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            found.files += 1
            found.bytes += path.stat().st_size
            for name in set().union(*(_b_secrets(d) for d in _readable(path, pins))):
                kind = name.split(" ")[0] if not name.startswith("square of") else "blip squares"
                found.secrets[kind] = found.secrets.get(kind, 0) + 1
    return found
