"""Joining a battle hosted on another computer: the seat's link opened as this window's battle (``remote.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TYPE_CHECKING, TypeAlias, cast

from ..rules.errors import InputError
from .remote import RemoteBattle

if TYPE_CHECKING:
    from .app import App
    from .scenes.remote_battle import RemoteBattleScene
    from .scenes.remote_setup import RemoteSetupScene
    from ..net.keeper import Keeper

Joined: TypeAlias = "RemoteBattleScene | RemoteSetupScene"


def join(app: App, link: str, pins: Mapping[str, str] | None = None, keeper: Keeper | None = None,
         host: Any = None) -> Joined | str:
    """Open the battle at ``link`` (a side's link, ``{url}/join/{token}``) in this window, playing that side; or why
    it cannot be joined. A battle still in set-up opens at its set-up, which goes on to the battle once complete.
    ``pins``: the players' PINs by side; a side that keeps its secrets on this computer seals them with its own.
    ``keeper``: that side's secrets already opened on this computer (a battle by e-mail's turn); ``host``: what
    serves the battle on this computer for this window (stopped when its scene ends), given to the scene before its
    first step (a finished battle's report opens at once)."""
    # Imported here, when a battle is first joined: the WebSocket client is not loaded by a window that never joins.
    from ..net.client import Refused, RemoteSeat

    try:
        seat = RemoteSeat(link.strip(), pins=pins, keeper=keeper)
    except (ValueError, Refused) as e:
        return f"the link opens no seat: {e}"
    except (OSError, TimeoutError) as e:
        return f"the host could not be reached at {link.strip()}: {e}"
    try:
        battle = RemoteBattle(seat)
    except InputError as e:
        seat.close()
        return e.message()
    name = "setup-remote" if battle.view(log=False)["phase"] == "setup" else "battle-remote"
    scene = cast("Joined", app.push_scene(name, battle))
    if host is not None:
        scene.host = host
    scene.next_step()
    return scene


def join_by_mail(app: App, path: Path, side: str, said: Callable[[str], None]) -> Joined | str:
    """``side``'s turn at the battle by e-mail in ``path`` (``net/mail.py``): the battle checked and served on this
    computer only, and that side's seat opened in this window; when the window leaves it, the file is written and
    ``said`` is told what the battle waits for. Or why it cannot be opened."""
    # Imported here: the network host loads only when a battle by e-mail is opened.
    from ..net.mail import MailTurn

    try:
        turn = MailTurn(path, side, on_stop=said)
    except (InputError, OSError) as e:
        return e.message() if isinstance(e, InputError) else str(e)
    scene = join(app, turn.link, keeper=turn.keeper, host=turn)
    if isinstance(scene, str):
        turn.close()
    return scene
