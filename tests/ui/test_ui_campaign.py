"""A campaign played as two players would in the window (headless): started from the menu, three battles set up
under the campaign's rules and played through the battle controller, each result recorded by the battle itself
(the same campaign file as ``campaign battle FILE --save SAVE``), an upgrade bought between battles in the faction
editor's campaign mode and used in the next, the campaign won; then a battle looked back on: summary, dice report,
replay."""

import random
import shutil

import pygame
import pygame_gui

from referee.cli.main import main
from referee.game.battle.dice import SeededDice
from referee.game.battle.intents import Action
from referee.game.campaigns.campaign import load_campaign
from referee.game.players.random_play import random_action
from referee.rules.factions import get_faction
from referee.ui.scenes.battle import BattleScene
from referee.ui.scenes.campaign import CampaignScene, CampaignSetupScene
from referee.ui.scenes.campaign_start import CampaignStartScene
from referee.ui.scenes.dialogs import Dialog, DiceDialog, HandoffScreen
from referee.ui.scenes.faction_campaign import CampaignUpgradeScene
from referee.ui.scenes.look_back import LookBackScene
from referee.ui.scenes.menu import MenuScene
from referee.ui.scenes.replay import ReplayScene
from referee.ui.scenes.report import ReportScene
from tests.ui.setup_helpers import DRAWN, type_pins


def click(app, scene, key: str) -> None:
    """Press the scene's button ``key`` with a pygame_gui event, as a click does."""
    widgets = getattr(scene, "widgets", {})
    element = widgets.get(key) or next((b for b, k in getattr(scene, "buttons", {}).items() if k == key), None)
    assert element is not None and element.is_enabled, f"no enabled button {key!r} on {type(scene).__name__}"
    app.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))
    app.step(1 / 30, events=[])


def settle(app, scene, stop_after: int, loser: str | None) -> None:
    """Answer what the window asks between actions: hand-offs, the end of a round (next round, or at the end of
    round ``stop_after`` a Withdraw by ``loser``, allowed), the attacker's objectives."""
    for _ in range(20):
        top = app.scene
        if isinstance(top, HandoffScreen):
            top.choose("ready")
        elif isinstance(top, DiceDialog):
            top.choose("4")
        elif isinstance(top, Dialog) and any(k == "next" for k, _ in top.choices):
            if scene.session.state.round < stop_after:
                top.choose("next")
            else:
                app.pop()
                assert scene.session.attempt(Action("end-of-round", "", {"withdraw": loser, "answer": "allow"})).legal
                scene.refresh()
                scene.next_step()
        elif isinstance(top, Dialog) and any(k == "secured" for k, _ in top.choices):
            top.choose("secured")
        elif isinstance(top, Dialog) and any(k == "allow" for k, _ in top.choices):
            top.choose("allow")
        elif isinstance(top, Dialog) and any(k == "keep" for k, _ in top.choices):
            top.choose("keep")            # a revealed trooper keeps its default facing (A13)
        else:
            return


def play_battle(app, scene: BattleScene, seed: int, stop_after: int, loser: str) -> None:
    """Random turns through the battle controller (``scene.do``) until the end-of-battle report."""
    session = scene.session
    rng = random.Random(seed)
    settle(app, scene, stop_after, loser)
    for _ in range(3000):
        if isinstance(app.scene, ReportScene):
            return
        action = random_action(session.state, rng)
        if action.kind not in ("end-of-round", "objectives"):
            if action.kind == "target":
                action = Action("target", action.actor, {"dice": action.args["dice"], "assign": {}})
            scene.do(action)
        settle(app, scene, stop_after, loser)
        if session.state.phase == "end-of-round" and not isinstance(app.scene, Dialog):
            scene.questions.end_of_round()
            settle(app, scene, stop_after, loser)
    raise AssertionError(f"the battle did not end (phase {session.state.phase})")


def start_battle(app, campaign: CampaignScene, seed: int) -> BattleScene:
    click(app, campaign, "next")
    setup = app.scene
    assert isinstance(setup, CampaignSetupScene)
    setup.widgets["seed"].set_text(str(seed))
    click(app, setup, "start")
    from tests.ui.setup_helpers import finish_setup

    finish_setup(app)
    battle = app.stack.find(BattleScene)
    assert battle is not None and battle.session.campaign == campaign.path
    return battle


def test_a_short_campaign_of_three_battles_in_the_window(app, tmp_path, monkeypatch):
    # The window salts a typed seed's secret draws from the operating system (``new_seeded_dice``); unsalted here,
    # each battle deals the cards its seed names, so the campaign ends the same way every run.
    monkeypatch.setattr("referee.game.records.record.new_seed", lambda: 0)
    # Likewise the table's dice: keyed by the sides' contributions and fresh entropy at the window (``dice.py``),
    # here by the typed seed alone, as the command line's ``--seed`` rolls them, so each battle plays as it did.
    monkeypatch.setattr("referee.game.records.record.keyed_dice", lambda seed, salt: SeededDice(seed))
    while len(app.stack):
        app.stack.pop()
    app.running = True
    menu = app.push(MenuScene())
    app.step(1 / 30, events=[])
    click(app, menu, "campaign")
    start = app.scene
    assert isinstance(start, CampaignStartScene)
    start.set_value("name", "Border War")
    start.set_value("faction-A", "New Tokyo (new-tokyo)")
    start.set_value("faction-B", "Council of Zane (council-of-zane)")
    click(app, start, "start")
    campaign = app.scene
    assert isinstance(campaign, CampaignScene) and campaign.campaign.name == "Border War"
    # A copy kept by hand beside it, to record the same battle from its save on the command line.
    by_hand = campaign.path.with_name("border-war-by-hand.toml")
    shutil.copyfile(campaign.path, by_hand)

    # Battle 1: side B withdraws at the end of round 1 and side A allows it: A Controls the Table.
    battle = start_battle(app, campaign, seed=11)
    play_battle(app, battle, seed=11, stop_after=1, loser="B")
    report = app.scene
    assert any("recorded in the campaign Border War" in text for _, text in report.lines)
    click(app, report, "menu")
    assert app.scene is campaign
    c, st = load_campaign(campaign.path)
    first = c.battles[0]
    assert first.vp is not None and first.control == "A" and first.save == "border-war-battle-1.json"
    assert (st.sides["A"].tech_points, st.sides["B"].tech_points) == (2, 1)
    # `campaign battle FILE --save SAVE` on the battle's save gives the same campaign file as the window (the save is
    # sealed for its players: with their PINs).
    monkeypatch.setenv("SEVEN_SECONDS_PIN_A", DRAWN["A"])
    monkeypatch.setenv("SEVEN_SECONDS_PIN_B", DRAWN["B"])
    assert main(["campaign", "battle", str(by_hand), "--save", str(campaign.path.with_name(first.save))]) == 0
    assert by_hand.read_bytes() == campaign.path.read_bytes()

    # Between battles: side A buys Reserve Armour in the faction editor's campaign mode and records it.
    before = st.sides["A"].faction.stats("reserve").armour
    click(app, campaign, "upgrade-A")
    shop = app.scene
    assert isinstance(shop, CampaignUpgradeScene)
    assert shop.tech_points() == (2, "")
    plus = shop.stat_buttons[("reserve", "armour", 1)]
    app.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=plus))
    assert shop.message[0] == "ok", shop.message
    click(app, shop, "save")
    assert shop.message[0] == "ok" and "Recorded in Border War" in shop.message[1], shop.message
    click(app, shop, "back")
    assert app.scene is campaign
    c, st = load_campaign(campaign.path)
    assert [(p.side, p.rating, p.stat, p.after_battle) for p in c.purchases] == [("A", "reserve", "armour", 1)]
    assert st.sides["A"].faction.stats("reserve").armour == before + 1

    # Battle 2 is fought with the upgrade: side A's units belong to the upgraded copy of its faction.
    battle = start_battle(app, campaign, seed=14)
    state = battle.session.state
    a_factions = {u.faction for u in state.units.values() if u.side == "A"}
    a_factions |= {c_.faction for sq in state.holding["A"].squares.values() for c_ in sq or []}
    assert a_factions == {"new-tokyo-border-war-a2"}
    assert get_faction("new-tokyo-border-war-a2").stats("reserve").armour == before + 1
    play_battle(app, battle, seed=14, stop_after=1, loser="B")
    click(app, app.scene, "menu")

    # Battle 3, and the campaign is won.
    battle = start_battle(app, campaign, seed=22)
    play_battle(app, battle, seed=22, stop_after=1, loser="B")
    click(app, app.scene, "menu")
    c, st = load_campaign(campaign.path)
    assert len(c.battles) == 3 and all(b.vp is not None for b in c.battles)
    assert st.winner is not None
    assert any("The campaign is won" in text for _, text in campaign.lines())
    assert not next(b for b, k in campaign.buttons.items() if k == "next").is_enabled

    # Looking back on battle 3: the summary, each side's dice, a replay from side B's view.
    assert campaign.look_back(3) is None                   # sealed for its players: each types their PIN first
    type_pins(app, DRAWN)
    look = app.scene
    assert isinstance(look, LookBackScene) and look.page == "summary"
    assert any("Turning points" in text for _, text in look.lines())
    click(app, look, "dice-B")
    assert "luck" in look.lines()[0][1]
    click(app, look, "replay-B")
    replay = app.scene
    assert isinstance(replay, ReplayScene) and replay.viewer == "B"
    replay.go(10)
    assert replay.table.bf.pieces.keys() == {u["id"] for u in replay.replay.view_at(10, "B")["units"]} | \
        {b["id"] for b in replay.replay.view_at(10, "B")["blips"]} | \
        {o["id"] for o in replay.replay.view_at(10, "B")["objectives"] if not o.get("destroyed")}
