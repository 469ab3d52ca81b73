"""A47 in a campaign: the campaign screen announces what a winning streak brings, and the next battle's set-up does
exactly that. At streak 2 the side draws an extra Troop card and chooses; at 3 also an extra Mission card. The
streaks pass from the campaign into set-up through the campaign's set-up scene."""


import pygame
import pytest

from referee.cli.main import main
from referee.game.battle.dice import SeededDice
from referee.game.play.setup import setup_game
from referee.rules.scenario import parse_scenario
from referee.ui.scenes.campaign import CampaignScene, CampaignSetupScene
from tests.battles import OPEN_FIELD


def campaign_with_a_streak(tmp_path, wins: int):
    """A long campaign in which side A has won the last ``wins`` battles (marginal wins: far from the points)."""
    f = tmp_path / "war.toml"
    assert main(["campaign", "new", str(f), "--a", "new-tokyo", "--b", "council-of-zane", "--name", "Border War",
                 "--length", "long"]) == 0
    for _ in range(wins):
        assert main(["campaign", "battle", str(f), "--winner", "A", "--level", "marginal", "--control", "A"]) == 0
    return f


def announced(scene: CampaignScene, side: str) -> str:
    return next(text for _, text in scene.lines() if f"(side {side})" in text)


def set_up(scene: CampaignSetupScene, seed: int = 3):
    """The battle's set-up as the campaign's set-up scene passes it on, driven by the engine's set-up actions."""
    return setup_game(parse_scenario(OPEN_FIELD, "open field"), scene.setup_choices(), SeededDice(seed))


@pytest.mark.parametrize("wins, troops, missions", [(1, 1, 1), (2, 2, 1), (3, 2, 2)])
def test_the_streak_announced_is_the_streak_played(app, tmp_path, wins, troops, missions):
    f = campaign_with_a_streak(tmp_path, wins)
    screen = CampaignScene(f)
    effects = {1: "+1 on the attacker/defender roll",
               2: "+2 on the attacker/defender roll; draw an extra Troop card and choose",
               3: "+3 on the attacker/defender roll; draw an extra Mission card and an extra Troop card and choose"}
    assert f"streak {wins} ({effects[wins]})" in announced(screen, "A")
    assert "streak 0 (no bonus)" in announced(screen, "B")

    setup = CampaignSetupScene(f)
    assert setup.setup_choices().streak == {"A": wins, "B": 0}
    assert setup.announcement() == (f"Border War, battle {wins + 1}: factions as the campaign made them; side A: "
                                    f"{effects[wins]} [p.31, A47]")
    game = set_up(setup)
    kinds = [(e.action.kind, e.action.actor) for e in game.record]
    # the roles roll carries the bonus
    assert any(e.text.startswith("A rolls ") and f" + {wins} for its winning streak = " in e.text for e in game.state.log)
    chose = [e.action for e in game.record if e.action.kind == "choose-cards"]
    if wins < 2:
        assert not chose and ("choose-cards", "A") not in kinds
        return
    # the extra cards appear, drawn secretly for side A alone, and side A chooses among them
    assert [a.actor for a in chose] == ["A"]
    drew = next(e for e in game.state.log if e.text.startswith("side A draws its cards and, for its winning streak"))
    assert drew.text.endswith("an extra Troop and Mission card (secret)" if wins >= 3 else "an extra Troop card (secret)")
    offered = drew.private["A"]
    assert offered.count("troop card '") == troops and offered.count("mission '") == missions
    assert game.state.missions["A"] and game.state.cards["A"].troop
    assert not any(e.text.startswith("side B draws its cards and, for its winning streak") for e in game.state.log)


@pytest.mark.parametrize("wins, troops, missions", [(2, 2, 1), (3, 2, 2)])
def test_the_window_set_up_of_a_campaign_battle_offers_the_streaks_cards(app, tmp_path, wins, troops, missions):
    """From the campaign screen's Next battle to the window's set-up: side A is asked to choose among its cards."""
    import pygame_gui

    from referee.ui.scenes.dialogs import HandoffScreen
    from referee.ui.scenes.setup_table import SetupTableScene

    f = campaign_with_a_streak(tmp_path, wins)
    while len(app.stack):
        app.stack.pop()
    campaign = app.push(CampaignScene(f))
    app.step(1 / 30, events=[])

    def click(scene, key):
        widgets = getattr(scene, "widgets", {})
        element = widgets.get(key) or next(b for b, k in getattr(scene, "buttons", {}).items() if k == key)
        app.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))
        app.step(1 / 30, events=[])

    click(campaign, "next")
    setup = app.scene
    assert isinstance(setup, CampaignSetupScene)
    setup.widgets["seed"].set_text("5")
    click(setup, "start")
    table = app.stack.find(SetupTableScene)
    assert table is not None and table.session.state.setup.streak == {"A": wins, "B": 0}
    for _ in range(200):
        while isinstance(app.scene, HandoffScreen):
            app.scene.choose("ready")
        if table.decision().get("step") == "choose-cards":
            break
        assert table.for_me(), table.message
    else:
        raise AssertionError("set-up never asked side A to choose its cards")
    assert table.decision()["side"] == "A"
    offered = table.decision()["offered"]["A"]
    assert (len(offered["troop"]), len(offered["mission"])) == (troops, missions)
    while isinstance(app.scene, HandoffScreen):
        app.scene.choose("ready")
    table.press("choose")
    assert len(app.scene.choices) == troops * missions       # one mission and one troop card, any pair drawn
