"""The battle session: legal actions listed for the side to act, and the command line that prints them."""

import json
from pathlib import Path

from referee.cli.main import main
from referee.game.battle.intents import Action
from referee.game.battle.dice import ScriptedDice
from referee.game.play.engine import Game, begin_battle
from referee.game.play.legal import legal_actions
from referee.game.records.record import read_save
from referee.game.play.session import Session
from referee.game.battle.state import state_from_scenario
from referee.rules.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "example-save.json"
TABLE = ROOT / "tests" / "ui" / "table.toml"


def test_replay_lists_the_legal_actions_as_save_actions_the_engine_accepts(capsys):
    assert main(["replay", str(EXAMPLE), "--as", "B", "--legal", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    state = read_save(EXAMPLE).game.state
    b_blips = sorted(b.id for b in state.blips.values() if b.side == "B")     # labelled when read (format 1)
    assert [(a["kind"], a["actor"]) for a in listed] == [
        ("activate", "b-tac"), *(("activate", b) for b in b_blips), ("end-turn", "")]
    for a in listed:
        outcome = Session(Game(state)).apply(Action.from_data(a), ScriptedDice([3] * 10))
        assert outcome.legal, (a, outcome.reason)


def test_the_side_not_to_act_has_no_legal_action(capsys):
    assert main(["replay", str(EXAMPLE), "--as", "A", "--legal", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_an_activated_unit_is_offered_each_target_the_engine_accepts_and_no_other():
    state = begin_battle(state_from_scenario(load_scenario(TABLE)), first="A")
    session = Session(Game(state))
    assert session.apply(Action("activate", "a-asl"), ScriptedDice([])).legal
    offered = legal_actions(session.state)
    kinds = {a.kind for a in offered}
    assert {"move", "target", "end-activation"} <= kinds and "kamikaze" not in kinds
    rifle_targets = {a.args["target"] for a in offered if a.kind == "rifle"}
    assert rifle_targets
    for tid in session.state.units:
        p = session.preview(Action("rifle", "a-asl", {"target": tid}))
        assert p.legal == (tid in rifle_targets), (tid, p.reason)


def test_selfplay_plays_a_whole_battle_whose_save_replays(tmp_path, capsys):
    out = tmp_path / "selfplay.json"
    assert main(["selfplay", "--seed", "5", "--rounds", "1", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    save = read_save(out)
    assert save.game.state.phase == "over" and save.game.state.round == 1
    assert f"{len(save.game.record)} actions in 1 round" in said
    kinds = {e.action.kind for e in save.game.record}
    assert {"activate", "end-of-round"} <= kinds and kinds & {"move", "target", "rifle", "missile"}
    assert main(["replay", str(out), "--json"]) == 0


def test_selfplay_refuses_an_unknown_player_kind(tmp_path, capsys):
    assert main(["selfplay", "--players", "random,clever", "--out", str(tmp_path / "x.json")]) == 2
    assert "a player is one of random, computer, computer:easy, computer:normal, computer:hard (got 'clever')" \
        in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


def test_a_button_is_offered_exactly_when_the_legal_actions_list_its_kind_and_actor():
    """``legal.offers`` stops at the first target accepted and prices no Target; it must say what the full list says,
    for every kind and piece, in every state of a random battle (activations, reveals, ends of round)."""
    import random

    from benchmarks.window_battle import _battle
    from referee.game.play.legal import offers, reading
    from referee.game.players.random_play import random_action

    state, dice = _battle(5)
    session, rng = Session(Game(state)), random.Random(11)
    kinds = ("move", "jump", "target", "rifle", "missile", "flamer", "kamikaze", "command", "repair", "scramble",
             "jammer", "reveal", "face", "activate", "extra", "end-activation", "end-turn", "end-of-round")
    checked = 0
    for _ in range(100):
        s = session.state
        listed = {(("extra" if a.args.get("extra") else a.kind), a.actor) for a in legal_actions(s)}
        shared = reading(s)                   # as the window asks: one battlefield for every question on a state
        for kind in kinds:
            for actor in ("", *s.units, *s.blips):
                assert offers(s, kind, actor, shared) == ((kind, actor) in listed), (kind, actor, s.round, s.phase)
                checked += (kind, actor) in listed
        session.apply(random_action(s, rng), dice)
    assert checked > 150
