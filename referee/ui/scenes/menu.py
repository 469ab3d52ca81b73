"""The menu: open the default table, a bundled one or any scenario file (path box or file dialog), or quit.

A scenario that fails to load leaves the program on this scene with the error shown, file and item named.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, cast

import pygame
import pygame_gui

from ...i18n import _
from ... import paths
from ...rules.errors import InputError
from ...rules.files import read_document
from .. import hosting, keys, theme
from ..keys import CTRL, Key
from ..opening import show_session
from ..gui_managers import new_manager
from ..scene import Scene
from ..table_data import load_table
from ..widgets import draw_text, ellipsize, line_height, panel, wrap
from .dialogs import Dialog
from ...logs import failure

if TYPE_CHECKING:
    from ...service.opening import SavedBattle, SealedBattle
    from .referee import RefereeScene
    from .table import TableScene

COLUMN_W = 640
MAX_BUNDLED = 8
COMPACT_H = 560         # a shorter window (large text on a small screen): the title on one line, less air


def menu_top(height: int) -> int:
    return 46 if height < COMPACT_H else max(150, height // 2 - 230)


def bundled_scenarios() -> list[Path]:
    if not paths.SCENARIO_DIR.is_dir():
        return []
    return sorted(p for p in paths.SCENARIO_DIR.iterdir() if p.suffix in (".toml", ".json"))


# Each table file's title, by the file's path, modification time and size: the menu and the set-up screen are built
# again whenever they are shown, and reading a whole table (its terrain's outlines) for its name each time was most
# of their cost. A file changed since is read again.
_titles: dict[tuple[Path, int, int], str] = {}


def title_of(path: Path) -> str:
    """The scenario's own name when the file can be read, else its file name made readable."""
    try:
        stat = path.stat()
    except OSError:                     # a missing file still gets a button; opening it shows the problem
        return _file_title(path)
    version = (path, stat.st_mtime_ns, stat.st_size)
    title = _titles.get(version)
    if title is None:
        title = _titles[version] = _read_title(path)
    return title


def _read_title(path: Path) -> str:
    try:
        name = read_document(path).get("name")
        if isinstance(name, str) and name.strip():
            return name.strip()
    except (InputError, OSError):       # a broken file still gets a button; opening it shows the problem
        pass
    return _file_title(path)


def _file_title(path: Path) -> str:
    return path.stem.replace("-", " ").replace("_", " ").title()


def load_error_text(error: Exception) -> str:
    if isinstance(error, InputError):
        return error.message()
    if isinstance(error, OSError):
        return f"{error.filename or ''}: {error.strerror or error}".lstrip(": ")
    return f"{type(error).__name__}: {error}"


# What the file dialog opens: a saved battle, or a table (a scenario).
OPENED = {"battle": (".json",), "scenario": (".toml", ".json")}


class MenuScene(Scene):
    title = "Menu"
    # Tab / Shift+Tab and Enter move through the buttons and press them (``ui/focus.py``).
    key_table = (("Menu", (
        Key("Ctrl+O", "load a saved battle", "open_dialog", (pygame.K_o,), CTRL, (True,)),
    )),)

    def __init__(self) -> None:
        super().__init__()
        self.manager: pygame_gui.UIManager | None = None
        # pygame_gui elements of several kinds (entries, buttons, drop-downs), looked up by name.
        self.widgets: dict[str, Any] = {}
        # A menu opened with a scenario is not built (widgets, autosave check) until it is shown: the first frame
        # is the table's.
        self.deferred = False
        self.bundled: dict[object, Path] = {}
        self.error_title = ""
        self.error = ""
        # The box under the buttons says what happened, not what went wrong, while it shows this title.
        self.notice_title = ""
        self.dialog: pygame_gui.windows.UIFileDialog | None = None
        self.dialog_kind = "scenario"
        self.last_path: str = ""
        # An autosaved battle that is not over, offered for resuming (sealed: opened once its players give their PINs).
        self.interrupted: SavedBattle | SealedBattle | None = None
        self.error_top = 0

    # ---- opening ------------------------------------------------------------------------------------------------
    def open_scenario(self, path: Path | str) -> TableScene | None:
        """Load ``path`` and push its table scene; on failure stay here and show why. Returns the scene or None."""
        self.last_path = str(path)
        try:
            table = load_table(path)
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: the window must survive any bad file
            if not isinstance(e, (InputError, OSError)):
                failure(f"opening the table {path} failed")
            self.error_title = _("Could not open {path}").format(path=path)
            self.error = load_error_text(e)
            self._set_path_text(str(path))
            return None
        self.error_title = self.error = ""
        if self.app is None:
            return None
        return cast("TableScene", self.app.push_scene("table", table))

    def referee_scenario(self, path: Path | str) -> RefereeScene | None:
        """Referee a physical game on ``path`` (a scenario file); on failure stay here and show why."""
        # Imported when first used: the engine behind a session is not needed for the menu's first frame.
        from ...rules.scenario import load_scenario
        # lazy: the menu's first frame loads no battle service; this choice needs it
        from ...service.referee import RefereeSession

        self.last_path = str(path)
        try:
            session = RefereeSession.from_scenario(load_scenario(path))
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: the window must survive any bad file
            if not isinstance(e, (InputError, OSError)):
                failure(f"refereeing the table {path} failed")
            self.error_title = _("Could not referee a battle on {path}").format(path=path)
            self.error = load_error_text(e)
            self._set_path_text(str(path))
            return None
        self.error_title = self.error = ""
        if self.app is None:
            return None
        return cast("RefereeScene", self.app.push_scene("referee", session))

    def _set_path_text(self, text: str) -> None:
        entry = self.widgets.get("path")
        if entry is not None:
            entry.set_text(text)

    # ---- life cycle -------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        if self.deferred:
            return          # opened under a table: built when that table is closed (``on_resume``)
        self.find_interrupted()
        self._build(self.size)

    def find_interrupted(self) -> None:
        # Imported when first used, as every save and session below: the menu's first frame does not wait for them.
        from ...service.opening import autosave_file, damaged_autosave, interrupted_battle

        try:
            self.interrupted = interrupted_battle()
            damaged = None if self.interrupted is not None else damaged_autosave()
        except Exception:  # noqa: BLE001 -- printed and shown, not hidden: a broken autosave is never a reason not to start
            failure("looking for an interrupted battle failed")
            self.interrupted, damaged = None, None
        if damaged and not self.error:
            self.error_title = _("The autosaved battle cannot be resumed ({file})").format(file=autosave_file())
            self.error = damaged

    def on_resume(self) -> None:
        self.deferred = False
        self.find_interrupted()
        self._build(self.size)

    def on_resize(self, size) -> None:
        if not self.deferred:
            self._build(size)

    def _build(self, size) -> None:
        if self.manager is None:
            self.manager = new_manager(size)
        else:
            self.manager.set_window_resolution(size)
            self.manager.clear_and_reset()
        self.dialog = None
        m = self.manager
        w, h = size
        x = (w - COLUMN_W) // 2
        y = menu_top(h)
        compact = h < COMPACT_H
        self.widgets = {}
        self.bundled = {}
        default = paths.DEFAULT_SCENARIO
        label = _("Open the default table: {title}").format(title=title_of(default))
        if not default.is_file():
            label = _("The default table ({name}) is not installed").format(name=default.name)
        b = pygame_gui.elements.UIButton(pygame.Rect(x, y, COLUMN_W, 46), label, m,
                                         tool_tip_text=str(default.name))
        if not default.is_file():
            b.disable()
        self.widgets["default"] = b
        y += 56
        # A battle: new (two players, or one against the computer), resumed from the autosave, or loaded from a save file.
        half = (COLUMN_W - 10) // 2
        self.widgets["new_battle"] = pygame_gui.elements.UIButton(
            pygame.Rect(x, y, half, 42), _("New battle (hot-seat or computer)…"), m,
            tool_tip_text=_("set up a battle for two players on this screen, or against the computer"))
        self.widgets["load_battle"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + half + 10, y, half - 130, 42), _("Load a saved battle…"), m,
            tool_tip_text=_("continue a battle from a save file"))
        self.widgets["settings"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + COLUMN_W - 120, y, 120, 42), _("Settings…"), m,
            tool_tip_text=_("the rulings your group plays by in new battles"))
        y += 50
        # Phones and another computer: the battle served on the local network, or one served elsewhere joined.
        self.widgets["phones"] = pygame_gui.elements.UIButton(
            pygame.Rect(x, y, half, 42), _("Phones and remote play…"), m,
            tool_tip_text=_("serve the interrupted battle, or a new one, to phones and other computers: the window "
                            "becomes the shared table"))
        self.widgets["join"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + half + 10, y, half, 42), _("Join a battle…"), m,
            tool_tip_text=_("play one side of a battle hosted on another computer, from its link"))
        y += 50
        if self.interrupted is not None:
            # The summary can be long: the button shows what fits (in the buttons' bold 15 px font), the tool tip
            # all of it.
            text = _("Resume the interrupted battle: {battle}").format(battle=self.interrupted.summary())
            self.widgets["resume"] = pygame_gui.elements.UIButton(
                pygame.Rect(x, y, COLUMN_W, 42), ellipsize(text, COLUMN_W - 28, 15, True), m,
                tool_tip_text=_("{battle} (autosaved after its last action)").format(battle=text))
            y += 50
        y += 12
        others = [p for p in bundled_scenarios() if p != default][:MAX_BUNDLED]
        if others:
            if not compact:
                self.widgets["bundled_label"] = pygame_gui.elements.UILabel(
                    pygame.Rect(x, y, COLUMN_W, 24), _("Bundled tables"), m)
                y += 28
            per_row = 3 if compact else 2          # large text on a small window: one row fewer, no heading
            cell = (COLUMN_W - 10 * (per_row - 1)) // per_row
            for i, p in enumerate(others):
                r = pygame.Rect(x + (i % per_row) * (cell + 10), y + (i // per_row) * 44, cell, 38)
                btn = pygame_gui.elements.UIButton(r, ellipsize(title_of(p), cell - 14, 15, True), m,
                                                   tool_tip_text=f"{title_of(p)} ({p.name})")
                self.bundled[btn] = p
            y += ((len(others) + per_row - 1) // per_row) * 44 + 12
        self.widgets["path_label"] = pygame_gui.elements.UILabel(
            pygame.Rect(x, y, COLUMN_W, 24), _("Scenario file (.toml or .json)"), m)
        y += 28
        entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(x, y, COLUMN_W - 320, 38), m)
        entry.set_text(self.last_path)
        self.widgets["path"] = entry
        self.widgets["open"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + COLUMN_W - 310, y, 100, 38), _("Open"), m, tool_tip_text=_("open the file named in the box"))
        self.widgets["referee"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + COLUMN_W - 205, y, 100, 38), _("Referee"), m,
            tool_tip_text=_("referee a physical game on the table named in the box: you type the dice you roll"))
        self.widgets["browse"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + COLUMN_W - 100, y, 100, 38), _("Browse…"), m, tool_tip_text=_("choose a file"))
        y += 56
        self.widgets["quit"] = pygame_gui.elements.UIButton(pygame.Rect(x, y, 110, 40), _("Quit"), m)
        self.widgets["factions"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + 120, y, 130, 40), _("Factions…"), m,
            tool_tip_text=_("make a faction, or buy its campaign upgrades (p.30-31)"))
        self.widgets["campaign"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + 260, y, 130, 40), _("Campaign…"), m,
            tool_tip_text=_("start or continue a campaign: battles, points, streaks, upgrades (p.31)"))
        self.widgets["mirror"] = pygame_gui.elements.UIButton(
            pygame.Rect(x + COLUMN_W - 240, y, 240, 40), _("Mirror a physical table…"), m,
            tool_tip_text=_("copy a real table (terrain, units, counters) into a scenario and ask about it"))
        self.error_top = y + 58

    # ---- battles ------------------------------------------------------------------------------------------------
    def new_battle(self) -> Scene | None:
        if self.app is not None:
            return self.app.push_scene("setup")
        return None

    def load_battle(self, path: Path | str):
        """Open a save; a file that will not load keeps the program here with the reason, and is left as it is."""
        # lazy: the menu's first frame loads no battle service; this choice needs it
        from ...service.opening import read_battle

        try:
            # An autosave (the file dialog lists it with the saves) is read with its journal (``read_battle``).
            save = read_battle(path)
        except Exception as e:  # noqa: BLE001 -- printed and shown, not hidden: the window must survive any bad file
            if not isinstance(e, (InputError, OSError)):
                failure(f"opening the save {path} failed")
            self.error_title = _("Could not load {path}").format(path=path)
            self.error = load_error_text(e)
            return None
        return self.open_battle(save)

    def open_battle(self, save: SavedBattle | SealedBattle) -> Scene | None:
        self.error_title = self.error = ""
        if self.app is None:
            return None
        if not hasattr(save, "open"):
            self.ask_pins(save)              # a SealedBattle: nothing of it is read before its PINs
            return None
        try:
            session = cast("SavedBattle", save).open()
        except InputError as e:           # a side keeps its secrets on its own computer: served, never opened here
            self.error_title, self.error = _("Could not open the battle"), e.message()
            return None
        if save.refereed:
            referee = cast("RefereeScene", self.app.push_scene("referee", session))
            for warning in save.warnings:
                referee.say(_("Loaded with a warning"), [warning])
            return referee
        return show_session(self.app, session, list(save.warnings))

    def serve_to_phones(self) -> None:
        """Serve the interrupted battle to phones (the window becomes the shared table); a battle being played is
        served from its own screen (W)."""
        if self.app is None:
            return
        if self.interrupted is None:
            # No battle to serve: a new one, served once its players have set it up to start (W does the same
            # from any battle under way).
            self.app.push_scene("setup", None, True)
            return
        app = self.app

        def serve(save: SavedBattle) -> None:
            try:
                why = hosting.serve(app, save.open(), replacing=False)
            except InputError as e:
                why = e.message()
            if isinstance(why, str):
                self.error_title, self.error = _("Phones and remote play"), why

        if not hasattr(self.interrupted, "open"):
            self.ask_pins(self.interrupted, then=serve)   # sealed: its PINs first
            return
        serve(cast("SavedBattle", self.interrupted))

    def ask_join(self) -> None:
        if self.app is None:
            return
        app = self.app

        def closed(link: str | None) -> None:
            if not link:
                return
            given = Path(link.strip()).expanduser()
            if not link.strip().lower().startswith(("http://", "https://")) and (
                    given.suffix.lower() == ".json" or given.is_file()):
                self.ask_mail_side(given)          # a battle by e-mail's file, not a link
                return
            # Imported when first used, as the saves and sessions are: the menu's first frame does not wait for it.
            from ..joining import join

            why = join(app, link)
            if isinstance(why, str):
                self.error_title, self.error = _("Could not join the battle"), why

        app.push_scene("text-dialog", _("Join a battle"),
                       [_("The link of your side, from the host's window (Phones and remote play) or from "
                          "seven-seconds host: http://HOST:PORT/join/..."),
                        _("Or the file of a battle played by e-mail (seven-seconds mail), as the other player sent "
                          "it.")], "", closed, ok=_("Join"))

    def ask_mail_side(self, path: Path) -> None:
        """A battle by e-mail's file: which side this player plays, then that side's turn at it in this window."""
        if self.app is None:
            return
        app = self.app

        def chosen(side: str | None) -> None:
            if side not in ("A", "B"):
                return
            # Imported when first used: the network host loads only when a battle is served here.
            from ..joining import join_by_mail

            why = join_by_mail(app, path, side, self.mail_said)
            if isinstance(why, str):
                self.error_title, self.error = _("Could not open {path}").format(path=path), why

        app.push_scene("dialog", _("A battle by e-mail"),
                       [_("{file}: which side do you play? Your side's secrets stay on this computer.").format(
                           file=path.name)],
                       [("A", _("I play side A")), ("B", _("I play side B"))], chosen, columns=2)

    def mail_said(self, text: str) -> None:
        """The turn at a battle by e-mail ended: what the battle waits for now, and whom to send the file to."""
        self.error_title, self.error = _("The battle by e-mail is written"), text
        self.notice_title = self.error_title

    def ask_pins(self, sealed: SealedBattle, then: Callable[[SavedBattle], object] | None = None) -> None:
        """A battle sealed for its players opens once each gives their PIN, on their own screen."""
        # Lazy: the sealing loads with the first sealed battle opened, not with the menu's first frame.
        from ...service.keys import WrongKey
        # Lazy: the PIN dialogs load with the first sealed battle opened, not with the menu's first frame.
        from .pin import ask_pins

        def unlocked(pins: dict[str, str] | None) -> None:
            try:
                opened = sealed.unlock(pins or {})
            except WrongKey as e:
                if e.part in sealed.sides() and self.app is not None:
                    # That player alone types theirs again, behind their own hand-off; the others' stand.
                    side = e.part
                    ask_pins(self.app, [side], False, lambda again: unlocked({**(pins or {}), **(again or {})}),
                             [_("Side {side}'s PIN did not open its part of the battle: type it again.").format(
                                 side=side)], handoff=len(sealed.sides()) > 1)
                    return
                self.error_title = _("Could not open {path}").format(path=sealed.path)
                self.error = e.message()
                return
            except InputError as e:
                self.error_title = _("Could not open {path}").format(path=sealed.path)
                self.error = e.message() + "\n" + _(
                    "A player who forgot their PIN can still see the public battle, and the side whose PIN is "
                    "given: seven-seconds replay FILE --ask-pin A (or B).")
                return
            if then is not None:
                then(opened)
            else:
                self.open_battle(opened)

        if self.app is not None:
            ask_pins(self.app, sealed.sides(), False, unlocked,
                     [_("This battle's files are sealed for its players: each types their PIN.")])

    def open_dialog(self, battle: bool = False) -> None:
        self.dialog_kind = "battle" if battle else "scenario"
        start = paths.browse_tables_from()
        if battle:
            start = paths.saves_dir() if paths.saves_dir().is_dir() else Path.cwd()
        w, h = self.size
        rect = pygame.Rect(0, 0, min(620, w - 40), min(480, h - 40))
        rect.center = (w // 2, h // 2)
        self.dialog = pygame_gui.windows.UIFileDialog(
            rect, self.manager, window_title="Load a saved battle" if battle else "Open a scenario",
            initial_file_path=str(start), allowed_suffixes=set(OPENED[self.dialog_kind]),
            allow_existing_files_only=True)

    def typed_in_dialog(self, event: pygame.event.Event) -> bool:
        """Enter in the file dialog's path box, on a file it would open: opened, as its OK would (the dialog itself
        only lists that file's folder)."""
        dialog = self.dialog
        if (event.type != pygame_gui.UI_TEXT_ENTRY_FINISHED or dialog is None
                or event.ui_element is not getattr(dialog, "file_path_text_line", None)):
            return False
        typed = Path(dialog.file_path_text_line.get_text().strip()).expanduser()
        battle = self.dialog_kind == "battle"
        if not typed.is_file() or typed.suffix.lower() not in OPENED[self.dialog_kind]:
            return False
        self.dialog = None
        dialog.kill()
        if battle:
            self.load_battle(str(typed))
        else:
            self.open_scenario(str(typed))
        return True

    # ---- events -------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.typed_in_dialog(event):
            return True
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame.KEYDOWN and self.dialog is None and keys.dispatch(self.key_table, self, event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el is self.widgets.get("default"):
                self.open_scenario(paths.DEFAULT_SCENARIO)
            elif el in self.bundled:
                self.open_scenario(self.bundled[el])
            elif el is self.widgets.get("open"):
                self._open_typed()
            elif el is self.widgets.get("referee"):
                text = self.widgets["path"].get_text().strip()
                self.referee_scenario(Path(text).expanduser() if text else paths.DEFAULT_SCENARIO)
            elif el is self.widgets.get("browse"):
                self.open_dialog()
            elif el is self.widgets.get("new_battle"):
                self.new_battle()
            elif el is self.widgets.get("load_battle"):
                self.open_dialog(battle=True)
            elif el is self.widgets.get("settings"):
                if self.app is not None:
                    self.app.push_scene("settings")
            elif el is self.widgets.get("phones"):
                self.serve_to_phones()
            elif el is self.widgets.get("join"):
                self.ask_join()
            elif el is self.widgets.get("resume") and self.interrupted is not None:
                self.open_battle(self.interrupted)
            elif el is self.widgets.get("mirror"):
                if self.app is not None:
                    self.app.push_scene("editor-start")
            elif el is self.widgets.get("campaign"):
                if self.app is not None:
                    self.app.push_scene("campaign-start")
            elif el is self.widgets.get("factions"):
                if self.app is not None:
                    self.app.push_scene("faction-editor")
            elif el is self.widgets.get("quit"):
                if self.app is not None:
                    self.app.quit()
            return True
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.widgets.get("path"):
            self._open_typed()
            return True
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            if self.dialog_kind == "battle":
                self.load_battle(event.text)
            else:
                self.open_scenario(event.text)
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
            self.dialog = None
            return True
        return False

    def _open_typed(self) -> None:
        text = self.widgets["path"].get_text().strip()
        if text:
            self.open_scenario(Path(text).expanduser())

    # ---- the loop -----------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)
        if self.error and self.app is not None and self.app.scene is self and not self._error_fits():
            # A short window (large text) leaves no room under the buttons: the error is a box to read and close.
            title, text = self.error_title, self.error
            self.error_title = self.error = ""
            self.app.push(Dialog(title, text.splitlines(), [("ok", _("OK"))]))

    def _error_lines(self) -> list[str]:
        lines: list[str] = []
        for raw in self.error.splitlines():
            lines.extend(wrap(raw, COLUMN_W - 28, 14, False, 4))
        return lines

    def _error_fits(self) -> bool:
        return self.error_top + 40 + line_height(14) * len(self._error_lines()) + 8 <= self.size[1] - 8

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(theme.BACKGROUND)
        x = (w - COLUMN_W) // 2
        top = menu_top(h)
        if h < COMPACT_H:
            draw_text(surface, _("Seven Seconds Referee"), (x, 8), 22, True, theme.TEXT)
        else:
            draw_text(surface, _("Seven Seconds Referee"), (x, top - 110), 34, True, theme.TEXT)
            draw_text(surface, _("Referee assistant for 7 Seconds, playtest rules v0.81: look at a table and ask "
                                 "questions"), (x, top - 58), 15, False, theme.TEXT_DIM)
        if self.error:
            self._draw_error(surface, x, self.error_top)
        if self.manager is not None:
            self.manager.draw_ui(surface)

    def _draw_error(self, surface, x: int, y: int) -> None:
        size = 14
        lh = line_height(size)
        lines = self._error_lines()
        h_avail = surface.get_height() - y - 16
        shown = lines[: max(1, (h_avail - 44) // lh)]
        box = pygame.Rect(x, y, COLUMN_W, 40 + lh * len(shown) + 8)
        # A notice (the battle by e-mail written) in the panel's own colours; a failure in red.
        notice = self.error_title == self.notice_title
        edge = theme.ACCENT if notice else theme.ERROR
        panel(surface, box, theme.PANEL if notice else (58, 30, 32), edge, 6)
        draw_text(surface, self.error_title, (x + 14, y + 10), 15, True, edge)
        for i, line in enumerate(shown):
            draw_text(surface, line, (x + 14, y + 38 + i * lh), size, False, theme.TEXT)
