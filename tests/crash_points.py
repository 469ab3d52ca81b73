"""Kills at every durable step of the saves (issue 32): a battle autosaved action by action, a take-back, the
battle resumed from its autosave, saved by hand, then a new battle (a campaign's) started over the unfinished one.

``storage.on_step`` is told of each step (a file written, renamed, linked, a journal line synced, a folder synced)
just before it; ``run(k)`` raises ``Killed`` at the k-th, standing for a kill there, and the files are then read as
the program reads them when it starts again. An action is acknowledged once ``attempt`` (or ``undo``) returned; a
battle's files must give back every action acknowledged, and no autosave may be refused.
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from referee import paths, storage
from referee.game.records.autosave import read_autosave, remove_leftovers
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.battle.intents import Action
from referee.game.players.random_play import random_action
from referee.game.records.record import read_save
from referee.game.records.sealing import Keyring
from referee.game.play.setup import SetupChoices, new_battle
from referee.rules.errors import InputError
from referee.service.session import BattleSession

from .battles import OPEN_FIELD
from referee.rules.scenario import parse_scenario

TABLE = parse_scenario(OPEN_FIELD, "open field")
_STARTS: dict[int, Game] = {}


class Killed(BaseException):
    """The program killed at a step: nothing after it runs (a BaseException, so no handler of the program's
    catches it as it would a failed write)."""


def _start(seed: int) -> Game:
    if seed not in _STARTS:
        state, _ = new_battle(TABLE, SetupChoices({"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(seed))
        _STARTS[seed] = Game(state)
    return Game(_STARTS[seed].initial.copy())


@dataclass
class Run:
    steps: list[str] = field(default_factory=list)
    acknowledged: dict[str, list[object]] = field(default_factory=dict)      # battle id -> its record, acknowledged
    pins: dict[str, dict[str, str]] = field(default_factory=dict)


def _play(session: BattleSession, run: Run, rng: random.Random, actions: int) -> None:
    done = 0
    while done < actions and session.state.phase == "action":
        action = random_action(session.state, rng)
        if action.kind in ("end-of-round", "objectives"):
            continue
        if session.attempt(action).legal:
            done += 1
            _acknowledge(session, run)


def _acknowledge(session: BattleSession, run: Run) -> None:
    keys = session.game.keys
    assert keys is not None
    run.acknowledged[keys.battle] = [e.to_data() for e in session.game.record]


def scenario(run: Run, campaign: Path) -> None:
    keys = Keyring({"A": "first-a", "B": "first-b"}, cost=2 ** 10)
    run.pins[keys.battle] = dict(keys.pins)
    game = _start(4)
    game.keys = keys
    first = BattleSession(game, SeededDice(4), hotseat=True)
    rng = random.Random(4)
    _play(first, run, rng, 30)
    try:
        first.undo(consent=True)
        _acknowledge(first, run)
    except InputError:
        pass
    # Resumed from its autosave, as the window does after a crash: both players give their PINs again.
    again = read_autosave(paths.saves_dir() / "autosave.json", Keyring(dict(keys.pins)))
    resumed = BattleSession(again.game, again.dice or SeededDice(4), hotseat=True)
    _play(resumed, run, rng, 8)
    resumed.save(paths.saves_dir() / "first.json")
    _play(resumed, run, rng, 8)
    # A campaign's battle over the unfinished one: the first is set aside, the second saved beside the campaign.
    keys2 = Keyring({"A": "second-a", "B": "second-b"}, cost=2 ** 10)
    run.pins[keys2.battle] = dict(keys2.pins)
    game2 = _start(6)
    game2.keys = keys2
    second = BattleSession(game2, SeededDice(6), hotseat=True, campaign=campaign / "campaign.toml",
                           save_path=campaign / "battle-2.json")
    _play(second, run, random.Random(6), 40)
    second.attempt(Action("end-turn"))


@dataclass
class Point:
    """The files as a kill just before one step leaves them, and what was acknowledged by then."""

    step: str
    index: int
    folders: list[Path]
    acknowledged: dict[str, list[object]]


def kill_points(folders: list[Path], copies: Path) -> tuple[Run, list[Point]]:
    """The scenario run once; before each durable step the folders are copied as a kill there would leave them
    (the step itself not done), with the actions acknowledged by then."""
    run = Run()
    points: list[Point] = []

    def step(name: str) -> None:
        n = len(run.steps)
        run.steps.append(name)
        copied = []
        for i, folder in enumerate(folders):
            target = copies / f"{n:04d}" / str(i)
            if folder.exists():
                shutil.copytree(folder, target)
            else:
                target.mkdir(parents=True)
            copied.append(target)
        points.append(Point(name, n, copied, json.loads(json.dumps(run.acknowledged))))

    storage.on_step = step
    try:
        scenario(run, folders[1])
    finally:
        storage.on_step = None
    return run, points


@dataclass
class Outcome:
    lost: int = 0                 # acknowledged actions no file gives back
    refused: list[str] = field(default_factory=list)      # autosaves that cannot be opened


_READ: dict[tuple[str, bytes, bytes], list[list[object]] | str] = {}


def _record_in(path: Path, pins: dict[str, str]) -> list[list[object]] | str:
    """The record the file (with its journal) gives back, or why it was refused; files already read are not read
    again (most files stand unchanged from one kill point to the next)."""
    journal = path.with_suffix(".journal")
    key = (path.name, path.read_bytes(), journal.read_bytes() if journal.exists() else b"")
    if key not in _READ:
        try:
            save = (read_autosave(path, Keyring(dict(pins))) if path.name.startswith("autosave")
                    else read_save(path, Keyring(dict(pins))))
            _READ[key] = [e.to_data() for e in save.game.record]
        except InputError as e:
            _READ[key] = e.message()
    return _READ[key]


def recover(point: Point, pins: dict[str, dict[str, str]]) -> Outcome:
    """Start again on the files a kill left: leftovers removed, every save read with its battle's PINs; each
    acknowledged record must be the start of one a file gives back."""
    outcome = Outcome()
    best: dict[str, list[list[object]]] = {}
    for folder in point.folders:
        remove_leftovers(folder)
        for path in sorted(folder.glob("*.json")):
            try:
                battle = str(json.loads(path.read_text()).get("battle"))
            except ValueError:
                outcome.refused.append(f"{path.name}: not JSON")
                continue
            if battle not in pins:
                continue
            record = _record_in(path, pins[battle])
            if isinstance(record, str):
                outcome.refused.append(record)
            else:
                best.setdefault(battle, []).append(record)
    for battle, acknowledged in point.acknowledged.items():
        if not any(r[:len(acknowledged)] == acknowledged for r in best.get(battle, [])):
            held = max((len(r) for r in best.get(battle, [])), default=0)
            outcome.lost += max(1, len(acknowledged) - held)
    return outcome
