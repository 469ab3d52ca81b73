"""A battle session put on the screen, the same way from the menu, a save, an autosave and the campaign screen.

A battle saved during set-up reopens in set-up; any other opens on the battle table. Either way a hand-off screen
comes first, to the side whose decision or turn it is, so the table is never shown to the wrong player. Against the
computer there is none: the screen stays with the human's side, and the computer plays on when it is to act.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from .app import App
    from ..service.session import BattleSession
    from .scenes.battle import BattleScene
    from .scenes.setup_table import SetupTableScene


def campaign_notice(campaign: Path) -> list[str]:
    """What a resumed campaign battle tells the players about its campaign file."""
    if campaign.is_file():
        return [f"This battle belongs to the campaign in {campaign}: its result is recorded there when it ends [p.31]."]
    return [f"This battle belongs to the campaign in {campaign}, which is not there (moved or deleted?). The battle "
            "goes on and is saved when it ends; its result can then be recorded with: seven-seconds campaign battle "
            "CAMPAIGN-FILE --save SAVE."]


def show_session(app: App, session: BattleSession, warnings: tuple[str, ...] | list[str] = (),
                 notice: bool = True) -> BattleScene | SetupTableScene:
    """Push the scene for ``session``: set-up behind a hand-off to the side to decide, or the battle behind a hand-off
    to the side to act (``warnings`` from loading the save are shown in its log, and a campaign battle says so when
    ``notice``)."""
    if session.view(log=False)["phase"] == "setup":
        setup = cast("SetupTableScene", app.push_scene("setup-table", session))
        setup.begin(hand_off=True)
        return setup
    scene = cast("BattleScene", app.push_scene("battle", session))
    for warning in warnings:
        scene.say("Loaded with a warning", [warning])
    if notice and session.campaign is not None:
        scene.say("A campaign battle", campaign_notice(session.campaign))
    if session.computer is not None:
        scene.next_step()
        return scene
    scene.hand_off(session.to_act() or session.viewer)
    return scene
