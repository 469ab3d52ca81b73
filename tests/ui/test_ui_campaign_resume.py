"""A campaign battle resumed through the menu's Resume (its autosave, as after a crash) records its result in the
campaign file when it ends, exactly as one started from the campaign screen: the same file as
``campaign battle FILE --save SAVE``. A campaign file that was moved away gets a clear message, and nothing is lost:
the battle is saved, and its result recorded from that save once the file is back."""

import random
import shutil


from tests.battles import OPEN_FIELD, ThroughSession as Through, finish, play_rounds
from referee.cli.main import main
from referee.game.campaigns.campaign import load_campaign
from referee.game.campaigns.campaign_battle import battle_choices, battle_save_path
from referee.game.battle.dice import SeededDice
from referee.game.play.engine import Game
from referee.game.records.autosave import find_interrupted
from referee.game.play.setup import new_battle
from referee.rules.scenario import parse_scenario
from referee.service.session import BattleSession
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.menu import MenuScene
from tests.ui.setup_helpers import reopened


def interrupted_campaign_battle(tmp_path, seed: int):
    """A campaign, its first battle started as the campaign screen starts it, one round played, then the program
    killed: only the autosave and the battle's own save are left."""
    campaign = tmp_path / "war.toml"
    assert main(["campaign", "new", str(campaign), "--a", "new-tokyo", "--b", "council-of-zane",
                 "--name", "Border War"]) == 0
    c, st = load_campaign(campaign)
    dice = SeededDice(seed)
    state, _ = new_battle(parse_scenario(OPEN_FIELD, "open field"), battle_choices(campaign, c, st), dice)
    session = BattleSession(Game(state), dice, hotseat=True, campaign=campaign,
                            save_path=battle_save_path(campaign, 1))
    session.save()
    play_rounds(Through(session), dice, random.Random(seed), 1)
    assert session.state.phase == "end-of-round" and not load_campaign(campaign)[0].battles
    return campaign


def resume_from_the_menu(app) -> BattleScene:
    while len(app.stack):
        app.stack.pop()
    menu = app.push(MenuScene())
    app.step(1 / 30, events=[])
    assert find_interrupted() is not None and menu.interrupted is not None
    scene = reopened(app, menu.open_battle(menu.interrupted))
    assert isinstance(scene, BattleScene)
    return scene


def test_a_campaign_battle_resumed_from_the_menu_records_its_result(app, tmp_path):
    campaign = interrupted_campaign_battle(tmp_path, seed=11)
    by_hand = campaign.with_name("war-by-hand.toml")
    shutil.copyfile(campaign, by_hand)

    scene = resume_from_the_menu(app)
    session = scene.session
    assert session.campaign is not None and session.campaign.resolve() == campaign.resolve()
    assert "its result is recorded there when it ends" in " ".join(scene.log_lines)
    play_rounds(Through(session), None, random.Random(12), 2)
    finish(Through(session), None, "B")
    assert session.campaign_recorded and "recorded in the campaign Border War" in session.campaign_recorded[0]

    c, st = load_campaign(campaign)
    assert len(c.battles) == 1 and c.battles[0].save == "war-battle-1.json" and c.battles[0].control == "A"
    # the command line, from the battle's save alone, writes the very same campaign file
    assert main(["campaign", "battle", str(by_hand), "--save", str(campaign.with_name("war-battle-1.json"))]) == 0
    assert by_hand.read_bytes() == campaign.read_bytes()


def test_a_moved_campaign_file_is_named_and_nothing_is_lost(app, tmp_path, capsys):
    campaign = interrupted_campaign_battle(tmp_path, seed=11)
    moved = tmp_path / "elsewhere.toml"
    campaign.rename(moved)

    scene = resume_from_the_menu(app)
    assert "which is not there (moved or deleted?)" in " ".join(scene.log_lines)
    session = scene.session
    play_rounds(Through(session), None, random.Random(12), 2)
    finish(Through(session), None, "B")
    assert not session.campaign_recorded
    said = " ".join(session.messages)
    assert f"the campaign file {campaign} is not there" in said and "the result is not recorded" in said
    kept = session.save_path
    assert kept is not None and kept.is_file() and kept.name == "war-battle-unrecorded-1.json"
    # the campaign file is back: the result is recorded from the kept save
    moved.rename(campaign)
    assert main(["campaign", "battle", str(campaign), "--save", str(kept)]) == 0
    c, _ = load_campaign(campaign)
    assert len(c.battles) == 1 and c.battles[0].control == "A"


def test_a_campaign_battle_rewrites_its_own_save_when_the_turn_passes_not_after_every_action(tmp_path):
    """The battle's save beside the campaign file is current at every hand-off; within a turn each action goes only
    to the autosave's journal, so a long battle does not write its whole record after every action."""
    from referee.game.battle.intents import Action
    from referee.game.records.record import read_save

    campaign = tmp_path / "war.toml"
    assert main(["campaign", "new", str(campaign), "--a", "new-tokyo", "--b", "council-of-zane"]) == 0
    c, st = load_campaign(campaign)
    dice = SeededDice(8)
    state, _ = new_battle(parse_scenario(OPEN_FIELD, "open field"), battle_choices(campaign, c, st), dice)
    save = battle_save_path(campaign, 1)
    session = BattleSession(Game(state), dice, hotseat=True, campaign=campaign, save_path=save)
    side = session.state.turn.player
    ready = sorted(b for b, blip in session.state.blips.items() if blip.side == side)
    assert session.attempt(Action("activate", ready[0])).legal
    written = read_save(save).game.record
    assert [e.action.kind for e in written] == ["activate"]
    blip = session.state.blips[ready[0]]
    assert session.attempt(Action("move", ready[0], {"x": blip.x + 1, "y": blip.y})).legal
    assert session.state.turn.player == side
    assert len(read_save(save).game.record) == 1               # the same turn: not written again
    session.save_campaign_battle()                              # the players leave the battle: written at once
    assert len(read_save(save).game.record) == 2
    while session.state.phase == "action" and session.state.turn.player == side:
        if not session.attempt(Action("end-activation")).legal:
            assert session.attempt(Action("end-turn")).legal
    assert len(read_save(save).game.record) == len(session.game.record)    # the turn passed: written
