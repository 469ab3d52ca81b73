"""The referee mode and the command line give the same numbers for the same action on the same state.

Random tables (positions, facings, Target counters, Damaged) and random actions (Target, rifle, missile) with
random typed dice. Before any die, the referee session's ``session.preview(action)`` (what the referee mode shows:
the window's previews are drawn from it) gives the numbers ``query TABLE rifle|missile|target ... --json`` prints for
the same table. Then the referee session resolves the action in its turn (after the actor's activation), and
``query TABLE do ... --json`` resolves it on the same table with the same dice. Both must agree on legality, on
every line of the working, on the dice used and on the table that results.
"""

import json
import random
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.game.battle.intents import Action
from referee.game.battle.state import state_to_scenario_data
from referee.rules.scenario import Scenario, load_scenario
from referee.service.referee import RefereeSession

SMALL = Path(__file__).parent / "ui" / "small_table.toml"
PIECES = ("a-tactical-1", "a-assault-1", "b-tactical-1", "b-tactical-2")


def random_table(rng: random.Random) -> Scenario:
    """The small table with its units moved, turned and marked at random (bases never overlap)."""
    base = load_scenario(SMALL)
    data = base.model_dump(mode="json", exclude_none=True)
    data["blips"] = []                                  # what a blip holds is not the question here
    taken = [(o["x"], o["y"]) for o in data["objectives"]]
    for u in data["units"]:
        while True:
            x, y = round(rng.uniform(2, 34), 1), round(rng.uniform(2, 34), 1)
            inside = 13 <= x <= 21 and 13 <= y <= 20 or 23 <= x <= 31 and 21 <= y <= 28      # the terrain
            if not inside and all((x - a) ** 2 + (y - b) ** 2 > 2.5 ** 2 for a, b in taken):
                break
        taken.append((x, y))
        u.update(x=x, y=y, facing=float(rng.randrange(0, 360, 15)), target_counters=rng.choice((0, 1, 2, 4, 7) if u["side"] == "A" else (1, 2, 4, 7, 9)),
                 damaged=rng.random() < 0.2)
    return Scenario.model_validate(data)


def query(capsys, path: Path, kind: str, actor: str, target: str) -> dict:
    code = main(["query", str(path), kind, actor, target, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def preview_agrees_with_query(preview, asked: dict, kind: str, target: str) -> None:
    """The session's preview before any die and ``query``'s answer: the same numbers and the same working."""
    f = preview.figures
    if kind == "target":
        assert preview.legal == asked["allowed"]
        if preview.legal:
            assert f["prices"][target] == {"price": asked["price"], "eaten": asked["eaten"]}
        else:
            assert preview.reason == asked["reason"], (preview.reason, asked)
        return
    assert f["allowed"] == asked["allowed"] and f["explain"] == asked["explain"]
    if kind == "rifle":
        assert (f["dice"], f["p_kill"], f["p_graze"]) == (asked["dice"], asked["p_kill"], asked["p_graze"])
    elif asked["allowed"]:
        assert (f["p_direct_hit"], f["effective_counters"]) == (asked["p_direct_hit"], asked["effective_counters"])
        assert [c["unit"] for c in f["countermeasures"]] == asked["countermeasures"]


def cli(capsys, path: Path, kind: str, actor: str, target: str, dice: list[int], bearings: list[float],
        assign: int) -> dict:
    args = ["query", str(path), "do", kind, actor]
    if kind == "target":
        args += ["--assign", f"{target}={assign}"]
    else:
        args.append(target)
    for b in bearings:
        args += ["--bearing", str(b)]
    code = main(args + ["--dice", ",".join(map(str, dice)), "--json"])
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert code == (0 if answer["legal"] else 3), err     # a refused do has its own exit status (docs/query.md)
    return answer


@pytest.mark.parametrize("seed", range(60))
def test_referee_mode_and_query_do_agree(seed, tmp_path, capsys, monkeypatch):
    rng = random.Random(seed)
    scenario = random_table(rng)
    actor = rng.choice(PIECES[:2])
    target = rng.choice(PIECES[2:])
    kind = rng.choice(("target", "rifle", "missile"))
    n_dice, assign = rng.randint(1, 3), rng.randint(1, 3)

    session = RefereeSession.from_scenario(scenario, "A")
    session.autosaving = False
    assert session.attempt(Action("activate", actor)).legal
    path = tmp_path / "table.json"
    path.write_text(json.dumps(state_to_scenario_data(session.state)))

    args = {"target": target} if kind != "target" else {"dice": n_dice, "assign": {target: assign}}
    preview = session.preview(Action(kind, actor, args))
    preview_agrees_with_query(preview, query(capsys, path, kind, actor, target), kind, target)
    # the players type each die the referee mode asks for, one at a time, as at the table
    given: list[float] = []
    dice: list[int] = []
    bearings: list[float] = []
    while True:
        mode = session.attempt(Action(kind, actor, args), given)
        if mode.pending is None:
            break
        if mode.pending.request.kind == "bearing":
            bearings.append(float(rng.randrange(0, 360)))
            given.append(bearings[-1])
        else:
            dice.append(rng.randint(1, 6))
            given.append(dice[-1])
    line = cli(capsys, path, kind, actor, target, dice, bearings, assign)

    out = mode.outcome
    assert out.legal == line["legal"]
    if kind != "target" and preview.figures["allowed"]:
        assert out.legal, out.reason              # what the preview allowed, the dice then resolved
    if kind == "rifle" and out.legal and "dice" in out.applied:
        assert out.applied["dice"] == preview.figures["dice"]       # the shot rolled the dice the preview said
    if not out.legal:
        assert out.reason == line["reason"]
        return
    assert sum(1 for r in out.rolls if r.kind == "d6") == line["dice_used"]
    # the command line's working, line for line, inside the referee's (which adds the turn's own lines)
    rest = iter(out.explain)
    for text in line["explain"]:
        assert any(text == mine for mine in rest), f"{text!r} is not in the referee mode's working"
    table = state_to_scenario_data(out.state)
    for key in ("units", "objectives", "terrain"):
        ours = {e["id"]: {k: v for k, v in e.items() if k != "activation"} for e in table[key]}
        theirs = {e["id"]: {k: v for k, v in e.items() if k != "activation"} for e in line["state"][key]}
        assert ours == theirs, key
