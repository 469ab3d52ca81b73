"""The rooms of the window by name: one way to move between scenes.

A scene asks for another by its name (``app.push_scene("battle", session)``) and never imports it. Each name maps to
a class given by its dotted path, imported the first time it is asked for, so the first frame does not wait for the
modules of screens nobody has opened yet.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .scene import Scene

SCENES: dict[str, str] = {
    "menu": "referee.ui.scenes.menu:MenuScene",
    "settings": "referee.ui.scenes.settings:SettingsScene",
    "help": "referee.ui.scenes.help:HelpScene",
    # tables and battles
    "table": "referee.ui.scenes.table:TableScene",
    "setup": "referee.ui.scenes.setup:SetupScene",
    "setup-table": "referee.ui.scenes.setup_table:SetupTableScene",
    "holding-setup": "referee.ui.scenes.holding_setup:HoldingSetupScene",
    "battle": "referee.ui.scenes.battle:BattleScene",
    "battle-table": "referee.ui.scenes.table_mode:TableModeScene",
    "referee-table": "referee.ui.scenes.referee_table:RefereeTableScene",
    "phones": "referee.ui.scenes.phones:PhonesScene",
    "setup-table-public": "referee.ui.scenes.table_setup:TableSetupScene",
    "battle-remote": "referee.ui.scenes.remote_battle:RemoteBattleScene",
    "setup-remote": "referee.ui.scenes.remote_setup:RemoteSetupScene",
    "referee": "referee.ui.scenes.referee:RefereeScene",
    "capture": "referee.ui.scenes.capture:CaptureScene",
    "holding": "referee.ui.scenes.holding:HoldingScene",
    "report": "referee.ui.scenes.report:ReportScene",
    "report-remote": "referee.ui.scenes.remote_report:RemoteReportScene",
    "look-back": "referee.ui.scenes.look_back:LookBackScene",
    "replay": "referee.ui.scenes.replay:ReplayScene",
    # questions and hand-offs over another scene
    "dialog": "referee.ui.scenes.dialogs:Dialog",
    "text-dialog": "referee.ui.scenes.dialogs:TextDialog",
    "dice-dialog": "referee.ui.scenes.dialogs:DiceDialog",
    "hand-off": "referee.ui.scenes.dialogs:HandoffScreen",
    "consent": "referee.ui.scenes.dialogs:ConsentScreen",
    # editors and campaigns
    "editor-start": "referee.ui.scenes.editor_start:EditorStartScene",
    "editor": "referee.ui.scenes.editor:EditorScene",
    "faction-editor": "referee.ui.scenes.faction_editor:FactionEditorScene",
    "campaign-start": "referee.ui.scenes.campaign_start:CampaignStartScene",
    "campaign": "referee.ui.scenes.campaign:CampaignScene",
    "campaign-setup": "referee.ui.scenes.campaign:CampaignSetupScene",
    "campaign-upgrade": "referee.ui.scenes.faction_campaign:CampaignUpgradeScene",
}


def scene_class(name: str) -> type[Scene]:
    """The class of the scene called ``name`` (its module imported now if it was not yet)."""
    try:
        where = SCENES[name]
    except KeyError:
        raise KeyError(f"no scene called {name!r} (known: {', '.join(sorted(SCENES))})") from None
    module, _, attr = where.partition(":")
    cls: type[Scene] = getattr(importlib.import_module(module), attr)
    return cls


def make_scene(name: str, *args: Any, **kwargs: Any) -> Scene:
    return scene_class(name)(*args, **kwargs)


def is_scene(scene: object, name: str) -> bool:
    """Whether ``scene`` is the scene called ``name`` (or built on it), without importing a module for the question."""
    module, _, attr = SCENES[name].partition(":")
    mod = sys.modules.get(module)
    cls = getattr(mod, attr, None) if mod is not None else None
    return cls is not None and isinstance(scene, cls)
