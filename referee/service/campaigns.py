"""A campaign told of a finished battle from its save (``campaign battle FILE --save SAVE``): the result is read from
the battle itself, as the window records it when the battle ends (``BattleSession``)."""

from __future__ import annotations

from pathlib import Path

from ..game.campaign import Campaign, CampaignStatus
from ..game.campaign_battle import played_streak, record_battle
from ..game.record import read_save
from ..game.sealing import Keyring


def record_saved_battle(campaign_path: Path | str, save_path: Path | str,
                        keys: Keyring | None = None) -> tuple[Campaign, CampaignStatus]:
    """Add the battle the save at ``save_path`` holds to the campaign file at once (atomically); the campaign as it
    now stands. A battle not over, or a campaign already won, raises ``InputError``. A sealed save needs its
    players' PINs (``keys``)."""
    game = read_save(save_path, keys).game
    return record_battle(campaign_path, game.state, save_path, setup_streak=played_streak(game))
