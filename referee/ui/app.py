"""The window and its loop: events go to the top scene, the visible scenes are drawn, intents go to a handler."""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol, cast

import pygame

from ..about import version
from ..logs import LOGGER, failure, log_file, start_log_file
from ..storage import atomic_write_bytes
from . import registry, scale, theme
from .gui_managers import forget_spares, keep_translation_paths_distinct
from . import focus, keys
from .intents import Intent, IntentHandler
from .memory import keep_large_blocks_apart
from .scene import S, Scene, SceneStack
from .widgets import ellipsize, text_surface, text_width

if TYPE_CHECKING:
    from ..service.opening import SavedBattle, SealedBattle

DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (800, 560)
TITLE = "Seven Seconds Referee"


def use_headless_video() -> None:
    """Draw off-screen when there is no display (screenshots, tests); call before the window opens."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and os.name != "nt":
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


class FirstScreen(Protocol):
    """What the window asks of the menu (``scenes/menu.py``), its first screen, which it makes by name as it makes
    every scene: whether a table opened at the start stands over it, and opening a table, a save or a battle."""

    deferred: bool

    def on_enter(self) -> None: ...

    def open_scenario(self, path: Path | str) -> object: ...

    def _set_path_text(self, text: str) -> None: ...

    def load_battle(self, path: Path | str) -> object: ...

    def open_battle(self, save: SavedBattle | SealedBattle) -> object: ...


class App:
    """One window, one scene stack.

    ``on_intent`` receives every ``Intent`` a scene confirms (the engine plugs in here). Without one, intents are
    kept in ``intents`` and nothing on the table changes.
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, on_intent: IntentHandler | None = None,
                 resizable: bool = True, ui_scale: float = 1.0) -> None:
        keep_large_blocks_apart()      # a long battle's window stays near its first round's size
        pygame.display.init()          # no sound: the mixer is never started
        pygame.font.init()
        theme.font.cache_clear()
        text_surface.cache_clear()
        text_width.cache_clear()
        ellipsize.cache_clear()
        forget_spares()
        keep_translation_paths_distinct()
        flags = pygame.RESIZABLE if resizable else 0
        size = (max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1])))
        self.window = pygame.display.set_mode(size, flags)
        self.windowed_size = size           # the size to go back to when full screen ends (F11)
        self.ui_scale = scale.clamp(ui_scale)     # as chosen; ``scale.current()`` is what the window allows
        self.screen = self.window           # what the scenes paint: the window, or its logical picture when scaled
        self._fit_scale()
        pygame.display.set_caption(TITLE)
        pygame.key.set_repeat(300, 40)
        self.stack = SceneStack(self)
        self.clock = pygame.time.Clock()
        self.running = True
        # Work a scene wants done once the window is on the screen (``when_shown``): it does not delay the first frame.
        self.shown = False
        self._after_shown: list[Callable[[], object]] = []
        self.spent_text: str | None = None     # the text of a key that opened or closed a scene (``dispatch``)
        # Keys down now: a dialog that guards a secret ignores those held when it appeared (``Dialog.fresh_key``).
        self.held_keys: set[int] = set()
        self.spent_keys: set[int] = set()        # held keys that opened or closed a scene: their repeats are dropped
        self.intents: list[Intent] = []
        self.on_intent: IntentHandler = on_intent or self.intents.append

    # -- the scale and the full screen ------------------------------------------------------------------------
    def _fit_scale(self) -> None:
        """The logical picture the scenes paint, for the window's size and the chosen scale."""
        w, h = self.window.get_size()
        s = scale.fitted(self.ui_scale, (w, h))
        scale.set_current(s)
        if s == 1.0:
            self.screen = self.window
        else:
            logical = (max(1, round(w / s)), max(1, round(h / s)))
            if self.screen is self.window or self.screen.get_size() != logical:
                self.screen = pygame.Surface(logical, 0, self.window)

    def _resized(self) -> None:
        self._fit_scale()
        for scene in self.stack:
            scene.on_resize(self.size)

    def set_scale(self, value: float) -> None:
        """Draw at ``value`` (1.0-2.5) from now on; every scene lays itself out again."""
        self.ui_scale = scale.clamp(value)
        self._resized()

    @property
    def fullscreen(self) -> bool:
        return bool(self.window.get_flags() & pygame.FULLSCREEN)

    def toggle_fullscreen(self) -> None:
        if self.fullscreen:
            self.window = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
        else:
            self.windowed_size = self.window.get_size()
            sizes = pygame.display.get_desktop_sizes()
            self.window = pygame.display.set_mode(sizes[0] if sizes else self.windowed_size, pygame.FULLSCREEN)
        self._resized()

    def present(self) -> None:
        """Show the logical picture on the window, enlarged by the scale."""
        if self.screen is not self.window:
            pygame.transform.smoothscale(self.screen, self.window.get_size(), self.window)

    # -- the stack ------------------------------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    @property
    def scene(self) -> Scene | None:
        return self.stack.top

    def push(self, scene: S) -> S:
        return self.stack.push(scene)

    def pop(self) -> Scene | None:
        scene = self.stack.pop()
        if not len(self.stack):
            self.running = False
        return scene

    def replace(self, scene: S) -> S:
        return self.stack.replace(scene)

    def push_scene(self, name: str, *args: Any, **kwargs: Any) -> Scene:
        """Build the scene called ``name`` (``registry.SCENES``) with these arguments and put it on top."""
        return self.push(registry.make_scene(name, *args, **kwargs))

    def replace_scene(self, name: str, *args: Any, **kwargs: Any) -> Scene:
        """Build the scene called ``name`` and put it in place of the top one."""
        return self.replace(registry.make_scene(name, *args, **kwargs))

    def find_scene(self, name: str) -> Scene | None:
        """The highest scene on the stack that is the scene called ``name``."""
        for scene in reversed(self.stack.scenes):
            if registry.is_scene(scene, name):
                return scene
        return None

    def quit(self) -> None:
        self.running = False

    def send(self, intent: Intent) -> None:
        self.on_intent(intent)

    # -- opening tables -------------------------------------------------------------------------------------------
    def open_menu(self, scenario: Path | str | None = None) -> FirstScreen:
        """Start on the menu; with a scenario, open it at once (a load error stays on the menu, shown in red)."""
        scene = registry.make_scene("menu")
        menu = cast(FirstScreen, scene)
        menu.deferred = scenario is not None
        self.push(scene)
        if scenario is not None and menu.open_scenario(scenario) is None:
            # The table did not open: the menu is the first screen after all, with the reason in red.
            menu.deferred = False
            menu.on_enter()
            menu._set_path_text(str(scenario))
        return menu

    def offer_resume(self) -> None:
        """The first screen is a table, but a battle was interrupted (a crash, a closed window): offer to resume it at
        once, not only from the menu behind the table."""
        # Imported here, not at the top: reading saves needs the battle engine, which the first frame does not.
        from ..service.opening import interrupted_battle

        menu = cast("FirstScreen | None", self.find_scene("menu"))
        if menu is None or not menu.deferred:
            return              # the menu is the first screen: it offers the battle itself
        try:
            save = interrupted_battle()
        except Exception:  # noqa: BLE001 -- a broken autosave is never a reason not to start; the menu says why
            return
        if save is None:
            return

        def closed(answer: str | None) -> None:
            if answer != "resume":
                return
            while self.scene is not menu and len(self.stack) > 1:
                self.pop()          # the table under the question (the menu is built as it shows): Esc from the
                                    # battle then goes back to the menu
            menu.open_battle(save)

        self.push_scene("dialog", "Resume the interrupted battle?",
                        [f"A battle was autosaved after its last action and not finished: {save.summary()}.",
                         "Resume it now, or later from the menu (Esc)."],
                        [("resume", "Resume the battle"), ("later", "Not now")], closed, columns=2)

    # -- the loop ---------------------------------------------------------------------------------------------------
    def dispatch(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.VIDEORESIZE:
            if self.fullscreen:
                return
            w, h = max(MIN_SIZE[0], event.w), max(MIN_SIZE[1], event.h)
            surface = pygame.display.get_surface()
            if surface is None or surface.get_size() != (w, h):
                self.window = pygame.display.set_mode((w, h), pygame.RESIZABLE)
            else:
                self.window = surface
            self._resized()
            return
        event = scale.logical_event(event)
        if event.type == pygame.KEYDOWN:
            if event.key in self.spent_keys and event.key in self.held_keys:
                # The key's own repeat, held down since it opened or closed a scene (a dialog's Enter): it acts again
                # only once released and pressed again, never on the next screen by itself.
                return
            self.held_keys.add(event.key)
        elif event.type == pygame.KEYUP:
            self.held_keys.discard(event.key)
            self.spent_keys.discard(event.key)
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.held_keys.clear()          # their releases go to another window
            self.spent_keys.clear()
        top = self.stack.top
        if event.type == pygame.KEYDOWN and keys.dispatch(keys.WINDOW_KEYS, self, event):
            self._spend_held_keys(top)
            return
        if top is not None and focus.handle(top, event):
            self.spent_text = event.unicode if self.stack.top is not top and event.unicode else None
            self._spend_held_keys(top)
            return
        if event.type == pygame.TEXTINPUT and self.spent_text is not None:
            spent, self.spent_text = self.spent_text, None
            if event.text == spent:
                return
        if top is not None:
            top.handle_event(event)
        if event.type == pygame.KEYDOWN:
            # A key that opened or closed a scene (a die's face, U for Correct) has done its work: the text it sends
            # next is not typed into the box that now has the keys, nor do its repeats act there.
            self.spent_text = event.unicode if self.stack.top is not top and event.unicode else None
        self._spend_held_keys(top)

    def _spend_held_keys(self, top: Scene | None) -> None:
        """The screen changed (a dialog opened or closed, by a key or by what a key set off, such as a text box's
        Enter): the keys held down now have done their work, and their repeats do nothing on the new screen."""
        if self.stack.top is not top:
            self.spent_keys |= self.held_keys

    def focus_buttons(self, event: pygame.event.Event) -> bool:
        """Ctrl+Tab: the keyboard's way to the buttons of a screen whose Tab is its own (the table's next unit), such
        as the set-up's and the battle's panels; False when the screen has none."""
        top = self.stack.top
        step = -1 if getattr(event, "mod", 0) & pygame.KMOD_SHIFT else 1
        return top is not None and focus.move(top, step) is not None

    def render(self, surface: pygame.Surface | None = None) -> pygame.Surface:
        surface = surface or self.screen
        surface.fill(theme.BACKGROUND)
        for scene in self.stack.visible():
            scene.draw(surface)
        if surface is self.screen:
            self.present()
        return surface

    def step(self, dt: float, events: list[pygame.event.Event] | None = None) -> None:
        for event in pygame.event.get() if events is None else events:
            self.dispatch(event)
            if not self.running:
                return
        for scene in self.stack.visible():
            scene.update(dt)
        self.render()

    def when_shown(self, work: Callable[[], object]) -> None:
        """Do ``work`` once the first frame is on the screen (now, if it is already). A screenshot never shows the
        window, so it does none: what it draws is computed when drawn, as in a window that has not done it yet."""
        if self.shown:
            work()
        else:
            self._after_shown.append(work)

    def _first_frame_shown(self) -> None:
        self.shown = True
        waiting, self._after_shown = self._after_shown, []
        for work in waiting:
            work()

    def run(self, fps: int = 60) -> int:
        errors: list[int] = []           # when the last steps that failed failed (milliseconds)
        first = ""                       # the scene the first of them failed in
        try:
            while self.running and len(self.stack):
                dt = self.clock.tick(fps) / 1000.0
                try:
                    self.step(dt)
                except Exception:
                    # A fault of the program in one scene's step: the log file keeps the traceback (the window may
                    # have been started from an icon, with nobody reading standard error) and the player is told,
                    # with the battle as its autosave last kept it. Only an error that comes again at once (in
                    # drawing, say) stops the window.
                    top = self.stack.top
                    where = type(top).__name__ if top else "none"
                    now = pygame.time.get_ticks()
                    errors = [t for t in errors if now - t < REPEATED_ERROR_MS] + [now]
                    first = where if len(errors) == 1 else first
                    if len(errors) >= REPEATED_ERRORS:
                        failure(f"the window stopped on an error in the scene {first}, again and again")
                        raise
                    failure(f"an error in the scene {where}; the window goes on")
                    self.told_error(where)
                pygame.display.flip()
                if not self.shown:
                    self._first_frame_shown()
        finally:
            pygame.quit()
        return 0

    def told_error(self, where: str) -> None:
        """Tell the player that what they did met a fault of the program, and where its report is."""
        # lazy: the dialog's module is loaded with the scenes, after the window is up
        from .scenes.dialogs import Dialog

        self.push(Dialog("Something went wrong", [
            f"The program met an error of its own ({where}); what you did may not have been done. Nothing of the "
            "battle is lost: every action taken is kept in its autosave.",
            f"The error is written in {log_file()}: please send that file with a word on what you did."],
            [("ok", "Go on")]))

    def screenshot(self, path: Path | str, frames: int = 3) -> Path:
        """Run a few frames (widgets lay themselves out) and save the window as a PNG."""
        for _ in range(max(1, frames)):
            self.step(1 / 30, events=[])
        path = Path(path)
        atomic_write_bytes(path, png_bytes(self.window))
        return path


REPEATED_ERRORS = 3            # errors within ...
REPEATED_ERROR_MS = 2000       # ... this long stop the window: it cannot go on


def png_bytes(surface: pygame.Surface) -> bytes:
    """The surface as an RGB PNG. pygame's own writer compresses as hard as it can, which costs a screenshot more
    time than drawing its frames; this one compresses lightly (the file about as large: the window is mostly flat
    colour)."""
    width, height = surface.get_size()
    rgb = pygame.image.tobytes(surface, "RGB")
    stride = width * 3
    rows = b"".join(b"\0" + rgb[i:i + stride] for i in range(0, height * stride, stride))    # filter 0: none

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)      # 8 bits, RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 3))
            + chunk(b"IEND", b""))


def run_app(scenario: Path | str | None, size: tuple[int, int] = DEFAULT_SIZE,
            on_intent: IntentHandler | None = None, prepare: Callable[[App], None] | None = None) -> int:
    log = start_log_file()
    LOGGER.info("the window starts (seven-seconds %s); this log: %s", version(), log)
    app = App(size, on_intent)
    app.open_menu(scenario)
    if prepare is not None:
        prepare(app)
    return app.run()
