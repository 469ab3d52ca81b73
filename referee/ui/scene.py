"""Scenes and the scene stack: each screen of the program is a scene; menus, dialogs and the table stack up.

A scene turns events into changes of its own view state (or into intents for the engine), advances animations in
``update`` and paints in ``draw``. ``draw`` reads and never writes: not the battle, not the scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import pygame

from . import registry
from .keys import KeyTable

if TYPE_CHECKING:
    from .app import App

S = TypeVar("S", bound="Scene")
SessionT = TypeVar("SessionT")
SessionT_co = TypeVar("SessionT_co", covariant=True)


class Scene:
    """One screen. ``overlay`` scenes (help, dialogs) are drawn over the scene below them."""

    overlay = False
    title = ""
    key_table: KeyTable = ()      # the scene's keys and their help lines (``ui/keys.py``); none for most dialogs

    def __init__(self) -> None:
        self.app: App | None = None

    # -- life cycle, called by the stack ------------------------------------------------------------------------
    def on_enter(self) -> None:
        """The scene was pushed (``app`` and the window size are known from here on)."""

    def on_exit(self) -> None:
        """The scene was popped or replaced."""

    def on_resume(self) -> None:
        """The scene above this one was popped."""

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window changed size."""

    # -- the loop ---------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one event; return True when it was used."""
        return False

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the scene. Must not change any state."""

    # -- moving between scenes --------------------------------------------------------------------------------------
    def push_scene(self, name: str, *args: Any, **kwargs: Any) -> Scene:
        """Build the scene called ``name`` (``registry.SCENES``) and put it over this one; without a window (a test
        driving one scene) it is only built. Returns the new scene."""
        scene = registry.make_scene(name, *args, **kwargs)
        if self.app is not None:
            self.app.push(scene)
        return scene

    def replace_scene(self, name: str, *args: Any, **kwargs: Any) -> Scene:
        """Build the scene called ``name`` and put it in this one's place (without a window: only build it)."""
        scene = registry.make_scene(name, *args, **kwargs)
        if self.app is not None:
            self.app.replace(scene)
        return scene

    # -- helpers ----------------------------------------------------------------------------------------------------
    def on_top(self) -> bool:
        """The window shows this scene with nothing over it."""
        return self.app is not None and self.app.stack.top is self

    @property
    def size(self) -> tuple[int, int]:
        if self.app is not None:
            return self.app.size
        surface = pygame.display.get_surface()
        return surface.get_size() if surface is not None else (1280, 800)


class Window(Protocol):
    """What a scene's part asks of the window (``App``): to show a question over the scene, to close the top one, to
    open a scene by its name."""

    def push(self, scene: S) -> S: ...

    def pop(self) -> Scene | None: ...

    def push_scene(self, name: str, *args: Any, **kwargs: Any) -> Scene: ...


class HoldsSession(Protocol[SessionT_co]):
    """A scene that drives a battle session (the battle, set-up and referee scenes), as its parts see it: its window
    and its session. Each part's own protocol adds the few members of the scene it uses."""

    @property
    def app(self) -> Window | None: ...

    @property
    def session(self) -> SessionT_co: ...


class ScenePart(Generic[SessionT]):
    """One job of a scene (a tool, its questions, its corrections), held by the scene: it reaches the window and the
    battle session through the scene, so neither is kept twice. A part names what it uses of its scene as a protocol
    (``host: ...Host``), never the scene's class: the part does not import its scene's module."""

    host: HoldsSession[SessionT]

    def __init__(self, host: HoldsSession[SessionT]) -> None:
        self.host = host

    @property
    def app(self) -> Window | None:
        return self.host.app

    @property
    def session(self) -> SessionT:
        return self.host.session


class SceneStack:
    """Push, pop and replace scenes; the top one gets the events, the visible ones are drawn bottom-up."""

    def __init__(self, app: App | None = None) -> None:
        self.app = app
        self.scenes: list[Scene] = []

    def __len__(self) -> int:
        return len(self.scenes)

    def __iter__(self):
        return iter(self.scenes)

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: S) -> S:
        scene.app = self.app
        self.scenes.append(scene)
        scene.on_enter()
        return scene

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.on_exit()
        if self.scenes:
            self.scenes[-1].on_resume()
        return scene

    def replace(self, scene: S) -> S:
        if self.scenes:
            self.scenes.pop().on_exit()
        return self.push(scene)

    def find(self, kind: type) -> Scene | None:
        for scene in reversed(self.scenes):
            if isinstance(scene, kind):
                return scene
        return None

    def visible(self) -> list[Scene]:
        """The top scene and, below overlays, the scenes they are drawn over."""
        out: list[Scene] = []
        for scene in reversed(self.scenes):
            out.append(scene)
            if not scene.overlay:
                break
        return list(reversed(out))
