"""A battle served from the window: the host started for the session on the screen, the window turned into the shared
table, the seats' codes shown. The host stops with the table scene (``TableModeScene.on_exit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from ..service.session import BattleSession
    from .app import App
    from .scenes.table_mode import TableModeScene


def serve(app: App, session: BattleSession, replacing: bool = True, bind: str | None = None) -> TableModeScene | str:
    """Serve ``session`` on the local network (``bind``: another address, as ``Host.start`` takes it) and show it as
    the shared table (in place of the battle scene on top when ``replacing``), the phones' codes over it; or why it
    cannot be served."""
    if session.view(log=False)["phase"] == "setup":
        return "set-up is played on this screen: serve the battle to phones once its first round has begun (W)"
    if session.refereed:
        return "a refereed physical game is entered on this screen; it is not served to phones"
    # Imported here, when a battle is first served: the web stack (Starlette, uvicorn, websockets) is not loaded
    # by a window that never serves one.
    from ..net.host import Host

    try:
        host = Host.start(session, bind=bind)
    except OSError as e:
        return f"the battle could not be served: {e}"
    session.hotseat = False
    name, args = "battle-table", (session, host)
    table = cast("TableModeScene", app.replace_scene(name, *args) if replacing else app.push_scene(name, *args))
    table.show_phones()
    return table
