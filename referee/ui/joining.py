"""Joining a battle hosted on another computer: the seat's link opened as this window's battle (``remote.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..rules.errors import InputError
from .remote import RemoteBattle

if TYPE_CHECKING:
    from .app import App
    from .scenes.remote_battle import RemoteBattleScene


def join(app: App, link: str) -> RemoteBattleScene | str:
    """Open the battle at ``link`` (a side's link, ``{url}/join/{token}``) in this window, playing that side; or why
    it cannot be joined."""
    # Imported here, when a battle is first joined: the WebSocket client is not loaded by a window that never joins.
    from ..net.client import Refused, RemoteSeat

    try:
        seat = RemoteSeat(link.strip())
    except (ValueError, Refused) as e:
        return f"the link opens no seat: {e}"
    except (OSError, TimeoutError) as e:
        return f"the host could not be reached at {link.strip()}: {e}"
    try:
        battle = RemoteBattle(seat)
    except InputError as e:
        seat.close()
        return e.message()
    scene = cast("RemoteBattleScene", app.push_scene("battle-remote", battle))
    scene.next_step()
    return scene
