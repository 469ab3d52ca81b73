"""A battle served from the window: the host started for the session on the screen, the window turned into the shared
table, the seats' codes shown. The host stops with the table scene (``TableModeScene.on_exit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from ..service.session import BattleSession
    from .app import App
    from .joining import Joined
    from .scenes.table_mode import TableModeScene
    from .scenes.table_setup import TableSetupScene


def serve(app: App, session: BattleSession, replacing: bool = True, bind: str | None = None,
          kept_by: tuple[str, ...] = ()) -> TableModeScene | TableSetupScene | str:
    """Serve ``session`` on the local network (``bind``: another address, as ``Host.start`` takes it) and show it as
    the shared table (a refereed physical game: the referee's table, ``scenes/referee_table.py``) (in place of the
    battle scene on top when ``replacing``), the phones' codes over it; or why it cannot be served. ``kept_by``: the
    sides whose secrets stay on their own phone (a new battle only, before its first action)."""
    if session.refereed and session.computer is not None:
        return ("a physical game against the computer is played at this screen, the computer's secrets with it; it "
                "is not served to phones")
    # Imported here, when a battle is first served: the web stack (Starlette, uvicorn, websockets) is not loaded
    # by a window that never serves one.
    from ..net.host import Host

    try:
        # The port the autosaved battle was served on before, when free: the same links, and the same address a phone
        # keeps its side's secrets under.
        host, moved = Host.start_again(session, bind=bind, kept_by=kept_by)
    except OSError as e:
        return f"the battle could not be served: {e}"
    if moved:
        session.messages.append(moved)
    session.hotseat = False
    if session.refereed:
        name = "referee-table"              # the referee's tools on the shared table, the secrets on the hands
    elif session.view(log=False)["phase"] == "setup":
        name = "setup-table-public"
    else:
        name = "battle-table"
    table = cast("TableModeScene | TableSetupScene", app.replace_scene(name, session, host) if replacing
                 else app.push_scene(name, session, host))
    if name == "setup-table-public":
        table.next_step()
    table.phones()
    return table


def play_side(app: App, table: TableModeScene, side: str) -> Joined | str:
    """This window plays ``side`` of the battle it serves, as a seat of its own host (the other side plays from its
    phone or another computer): the shared table gives way to that side's screen, which takes its decisions through
    the host like any seat's. The host then stops with that screen."""
    # Imported here, as in ``serve``: the WebSocket client loads only when a side is played through the host.
    from .joining import join

    host = table.public.host
    link = host.link(side) if hasattr(host, "link") else ""
    table.keeps_host = False                 # the host outlives the table: the side's screen stops it
    while app.scene is not None and app.scene is not table:
        app.pop()
    if app.scene is table:
        app.pop()
    scene = join(app, link)
    if isinstance(scene, str):
        host.stop()
        return scene
    scene.host = host
    return scene
