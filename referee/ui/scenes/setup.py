"""A new battle: the table, each side's faction, who rolls the dice; then the players' set-up decisions.

Starting opens the set-up scene (``setup_table.py``), where the players make every set-up decision of p.~14-15 in
turn (A60): the roll for roles, the edge, the objectives, the cards, the holding areas and the blips. Dice come from
the program or from the players' physical dice (asked one by one); card draws and "for me" placements are made by
the program, which holds the deck.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pygame
import pygame_gui

from ... import paths
from ...i18n import _
from ...game.play.setup_choices import SetupChoices
from ...rules.errors import InputError
from ...rules.factions import available_factions
from ...rules.scenario import load_scenario
from .. import hosting, theme
from ...service.new_battle import LEVEL_WORDS, LEVELS, new_draw_seed, start_battle
from ...service.session import BY_HAND, PROGRAM, BattleSession
from ..faction_choices import card_problem_lines, left_out_lines
from ..scene import Scene
from ..widgets import draw_text, ellipsize, gui_manager, line_height, panel, wrap
from .menu import MenuScene, bundled_scenarios, title_of
from .pages import LinesScene
from .dialogs import Dialog
from .pin import ask_pins
from .settings import group_rulings

if TYPE_CHECKING:
    from .setup_table import SetupTableScene

COLUMN_W = 680
COMPACT_H = 560         # a shorter window (large text on a small screen): no introduction, a narrower label column


def column(size: tuple[int, int]) -> tuple[int, int, int, bool]:
    """The form's left edge, its width, its labels' width, and whether it is the large-text (compact) form."""
    w, h = size
    compact = h < COMPACT_H or w < COLUMN_W + 40
    col_w = min(COLUMN_W, w - 24)
    return (w - col_w) // 2, col_w, 150 if compact else 230, compact
DICE_CHOICES = {"The program rolls (seeded, saved with the battle)": PROGRAM,
                "We roll physical dice and type them in": BY_HAND}
HOTSEAT = "Two players at this screen"
# Opponent choices: None is hot-seat; otherwise (the computer's side, its level).
OPPONENTS: dict[str, tuple[str, str] | None] = {HOTSEAT: None, **{
    f"The computer plays side {side}, {level}": (side, level) for side in ("B", "A") for level in LEVELS}}
# A battle by e-mail (``net/mail.py``): the side this player plays; the other plays on their own computer.
BY_MAIL: dict[str, str] = {f"By e-mail: I play side {side}, the other player side {other}": side
                           for side, other in (("A", "B"), ("B", "A"))}
MAIL_WORDS = ("One battle file goes back and forth by e-mail; each side's secrets stay on its own computer, and "
              "each roll costs a trip of the file. The file is written in your saves folder.")
# A new battle for phones: where each player's secrets are kept. On their phones, the host (this window) holds only
# what they are committed to (``net/static/kept.js``), and each die waits for both phones' shares of it.
ON_PHONES = "On each player's phone (this computer holds none)"
SECRETS: dict[str, bool] = {ON_PHONES: True, "On this computer, sealed with each player's PIN": False}
PHONES_WORDS = ("Each player's holding area, cards and dice contribution stay on their own phone: this computer "
                "holds only what they are committed to, and checks them at every reveal and at the end. Every die "
                "waits for both phones' shares of it: keep the page open (a phone asleep makes the dice wait).")
PHONES_BY_HAND = ("With your own dice the secrets stay on this computer, sealed with each player's PIN: a phone keeps "
                  "its side's secrets only with the program's dice, whose every die it has a share of.")


def own_tables_dir() -> Path:
    """Where the table editor saves a mirrored table unless told otherwise."""
    return paths.user_data_dir() / "tables"


def battle_tables(extra: Path | None = None) -> list[Path]:
    """The tables a battle may be fought on: the bundled ones, the ones mirrored in the table editor, and ``extra``."""
    folder = own_tables_dir()
    own = sorted(p for p in folder.iterdir() if p.suffix in (".toml", ".json")) if folder.is_dir() else []
    out = bundled_scenarios() + own
    if extra is not None and extra not in out:
        out.append(extra)
    return out


def table_label(path: Path) -> str:
    return title_of(path) + ("" if path.parent == paths.SCENARIO_DIR else f" ({path.name}, your table)")


INTRO_TOP = 80
INTRO = ("Set-up follows p.~14-15, and every decision is yours: the roll for roles, the edge, the objectives, your "
         "cards, your holding area and your blips (each with a \"for me\" button). Two players hand the screen over "
         "between decisions and turns; against the computer you keep it, and it sees only what its side may see.")


class SetupScene(Scene):
    title = "New battle"

    def __init__(self, table: Path | None = None, to_phones: bool = False) -> None:
        super().__init__()
        # Started from the menu's "Phones and remote play" with no battle to serve: the new battle is served once
        # its players have set their PINs, and this window becomes the shared table.
        self.to_phones = to_phones
        self.manager: pygame_gui.UIManager | None = None
        # pygame_gui elements of several kinds (entries, buttons, drop-downs), looked up by name.
        self.widgets: dict[str, Any] = {}
        self.tables = battle_tables(table)
        self.table = table if table is not None else paths.DEFAULT_SCENARIO
        self.factions: dict[str, str] = {}         # name shown -> id
        self.left_out: list[str] = []               # faction files that cannot be used, with the reason
        self.cards_left_out: list[str] = []         # the user's card files left out, with the reason
        self.choice = {"A": "", "B": ""}
        self.dice_label = next(iter(DICE_CHOICES))
        self.opponent_label = HOTSEAT
        self.secrets_label = ON_PHONES
        self.error = ""
        self.draw_seed = new_draw_seed()

    # ---- layout -----------------------------------------------------------------------------------------------
    def on_enter(self) -> None:
        self._build(self.size)

    def on_resume(self) -> None:
        self._build(self.size)

    def on_resize(self, size) -> None:
        self._build(size)

    def _build(self, size) -> None:
        self.manager = gui_manager(self.manager, size)
        m = self.manager
        w, h = size
        x, col_w, label_w, compact = column(size)
        # The choices start below the introduction, however many lines it wraps to (none in the compact form).
        y = 56 if compact else max(120, INTRO_TOP + len(wrap(INTRO, COLUMN_W, 14)) * line_height(14) + 16)
        step = 42 if compact else 48
        self.widgets = {}
        # Read fresh every time: a faction saved in the editor a moment ago is offered at once.
        self.factions = {f"{f.name} ({f.id})": f.id for f in available_factions()}
        self.left_out = left_out_lines()
        self.cards_left_out = card_problem_lines()
        names = list(self.factions) or ["no faction found"]
        for i, side in enumerate(("A", "B")):
            if self.choice[side] not in self.factions.values():
                self.choice[side] = self.factions[names[min(i, len(names) - 1)]] if self.factions else ""
        table_names = {table_label(p): p for p in self.tables}
        self.table_paths = table_names
        current = next((n for n, p in table_names.items() if p == self.table), None)
        if current is None and table_names:
            current = next(iter(table_names))
            self.table = table_names[current]
        label = lambda text, yy: pygame_gui.elements.UILabel(pygame.Rect(x, yy, label_w - 10, 34), text, m)  # noqa: E731
        label("Table", y)
        self.widgets["table"] = pygame_gui.elements.UIDropDownMenu(
            list(table_names) or ["no table found"], current or "no table found",
            pygame.Rect(x + label_w, y, col_w - label_w, 34), m)
        y += step
        for side in ("A", "B"):
            label(f"Side {side} faction", y)
            shown = next((n for n, i in self.factions.items() if i == self.choice[side]), names[0])
            options: list[str | tuple[str, str]] = [*names]
            self.widgets[f"faction-{side}"] = pygame_gui.elements.UIDropDownMenu(
                options, shown, pygame.Rect(x + label_w, y, col_w - label_w, 34), m)
            y += step
        label("Dice", y)
        self.widgets["dice"] = pygame_gui.elements.UIDropDownMenu(
            list(DICE_CHOICES), self.dice_label, pygame.Rect(x + label_w, y, col_w - label_w, 34), m)
        y += step
        label("Opponent", y)
        self.widgets["opponent"] = pygame_gui.elements.UIDropDownMenu(
            [*OPPONENTS, *(() if self.to_phones else BY_MAIL)], self.opponent_label,
            pygame.Rect(x + label_w, y, col_w - label_w, 34), m)
        y += step
        if self.to_phones:
            label("Secrets", y)
            self.widgets["secrets"] = pygame_gui.elements.UIDropDownMenu(
                list(SECRETS), self.secrets_label, pygame.Rect(x + label_w, y, col_w - label_w, 34), m)
            y += step
        label("Seed (optional)", y)
        self.widgets["seed"] = pygame_gui.elements.UITextEntryLine(pygame.Rect(x + label_w, y, 200, 34), m)
        y += step + 8
        self.widgets["start"] = pygame_gui.elements.UIButton(
            pygame.Rect(x, y, 260, 44), "Start and serve to phones" if self.to_phones else "Start the battle", m)
        self.widgets["back"] = pygame_gui.elements.UIButton(pygame.Rect(x + 276, y, 140, 44), "Back", m)
        self.error_top = y + (52 if compact else 64)

    # ---- events -------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.manager is not None and self.manager.process_events(event):
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            el = event.ui_element
            if el is self.widgets.get("table"):
                self.table = self.table_paths.get(event.text, self.table)
            elif el is self.widgets.get("dice"):
                self.dice_label = event.text
            elif el is self.widgets.get("opponent"):
                self.opponent_label = event.text
            elif el is self.widgets.get("secrets"):
                self.secrets_label = event.text
            for side in ("A", "B"):
                if el is self.widgets.get(f"faction-{side}") and event.text in self.factions:
                    self.choice[side] = self.factions[event.text]
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.widgets.get("start"):
                self.start()
            elif event.ui_element is self.widgets.get("back") and self.app is not None:
                self.app.pop()
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.app is not None:
            self.app.pop()
            return True
        return False

    # ---- starting -----------------------------------------------------------------------------------------------
    def seed(self) -> int | None:
        entry = self.widgets.get("seed")
        text = entry.get_text().strip() if entry is not None else ""
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            raise InputError("seed", f"expected a whole number or nothing (got {text!r})") from None

    def start(self) -> BattleSession | None:
        """A new battle at its first set-up decision; the set-up scene then takes the players through each one."""
        if self.opponent_label in BY_MAIL:
            self.start_by_mail(BY_MAIL[self.opponent_label])
            return None
        mode = DICE_CHOICES.get(self.dice_label, PROGRAM)
        try:
            if not all(self.choice.values()):
                raise InputError("factions", "choose a faction for each side")
            seed = self.seed()
            table = load_scenario(self.table)
            # The group's readings (Settings) apply to the new battle; the scenario's own rulings win over them.
            table = table.model_copy(update={"rulings": {**group_rulings(), **table.rulings}})
            choices = self.setup_choices()
            session = start_battle(table, choices.factions, choices.streak, mode, seed, OPPONENTS.get(self.opponent_label),
                                   self.draw_seed)
        except InputError as e:
            self.error = e.message()
            return None
        self.error = ""
        self.open(session)
        if self.app is not None:
            computer = session.computer
            humans = [side for side in ("A", "B") if computer is None or side != computer.side]
            kept = self.kept_on_phones(session, humans)
            if kept and computer is None:
                # Nothing of either side's is held here to seal: each phone keeps its own.
                self.serve(session, kept)
                return session
            # Over the set-up table, before its first decision: each player seals their secrets with a PIN.
            # Against the computer the battle is sealed even when the player sets no PIN (its secrets are sealed).
            def sealed(pins: dict[str, str] | None) -> None:
                if pins or computer is not None:
                    session.seal_with(pins or {})
                if self.to_phones:
                    self.serve(session, kept)

            ask_pins(self.app, [side for side in humans if side not in kept], True, sealed,
                     [_("Each player sets a PIN that seals their secrets in the battle's files.")])
        return session

    def kept_on_phones(self, session: BattleSession, humans: list[str]) -> tuple[str, ...]:
        """The sides whose secrets their phones keep: every player's, when the battle is served to phones with the
        program's dice and "on each player's phone" chosen (the computer's stay with it)."""
        if not self.to_phones or not SECRETS.get(self.secrets_label, False) or session.dice is None:
            return ()
        return tuple(humans)

    def serve(self, session: BattleSession, kept: tuple[str, ...]) -> None:
        """The new battle served to phones, this window the shared table."""
        assert self.app is not None
        served = hosting.serve(self.app, session, kept_by=kept)
        if isinstance(served, str):
            self.app.push(Dialog(_("Phones and remote play"), [served], [("ok", _("OK"))]))

    def start_by_mail(self, side: str) -> None:
        """A new battle by e-mail: its file written in the saves folder, and this player's side opened on it (the
        menu says on leaving it where the file is and whom it goes to)."""
        # Imported here: the network host loads only when a battle by e-mail is started.
        from ...net.mail import new_mail_battle
        from ..joining import join_by_mail  # lazy: with the line above, for the same reason

        try:
            if not all(self.choice.values()):
                raise InputError("factions", "choose a faction for each side")
            if DICE_CHOICES.get(self.dice_label, PROGRAM) != PROGRAM:
                raise InputError("dice", "a battle by e-mail rolls the program's dice, from parts of both sides")
            table = load_scenario(self.table)
            table = table.model_copy(update={"rulings": {**group_rulings(), **table.rulings}})
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            path = paths.saves_dir() / f"by-mail-{self.table.stem}-{stamp}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            new_mail_battle(table, dict(self.choice), path, campaign=self.mail_campaign())
        except (InputError, OSError) as e:
            self.error = e.message() if isinstance(e, InputError) else str(e)
            return
        self.error = ""
        app = self.app
        if app is None:
            return
        app.pop()
        # The page the form was opened from (the menu, or the campaign whose battle it is) is told when the turn ends
        # what the battle waits for and whom to send the file to.
        below = app.scene
        said = getattr(below, "mail_said", None)
        joined = join_by_mail(app, path, side, said if callable(said) else lambda text: None)
        if isinstance(joined, str):
            if isinstance(below, MenuScene):
                below.error_title, below.error = _("Could not open {path}").format(path=path), joined
            elif isinstance(below, LinesScene):             # the campaign's page
                below.say("error", joined)

    def setup_choices(self) -> SetupChoices:
        return SetupChoices(factions=dict(self.choice))

    def mail_campaign(self) -> Path | None:
        """The campaign a battle by e-mail started here is the next battle of (its file), or None."""
        return None

    def open(self, session: BattleSession) -> None:
        if self.app is None:
            return
        scene = cast("SetupTableScene", self.app.replace_scene("setup-table", session))
        scene.begin()

    # ---- the loop ---------------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        if self.manager is not None:
            self.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill(theme.BACKGROUND)
        x, col_w, _label_w, compact = column((w, h))
        draw_text(surface, "New battle for phones" if self.to_phones else "New battle", (x, 10 if compact else 40), 28,
                  True, theme.TEXT)
        for i, line in enumerate(() if compact else wrap(INTRO, COLUMN_W, 14)):
            draw_text(surface, line, (x, INTRO_TOP + i * line_height(14)), 14, False, theme.TEXT_DIM)
        top = self.error_top
        opponent = OPPONENTS.get(self.opponent_label)
        # What the chosen level does, so a player can pick the opponent they want; or what a battle by e-mail is.
        words = LEVEL_WORDS[opponent[1]] if opponent is not None else \
            MAIL_WORDS if self.opponent_label in BY_MAIL else ""
        if self.to_phones and SECRETS.get(self.secrets_label, False):
            by_hand = DICE_CHOICES.get(self.dice_label, PROGRAM) != PROGRAM
            words = f"{words} {PHONES_BY_HAND if by_hand else PHONES_WORDS}".strip()
        if words:
            for i, line in enumerate(wrap(words, col_w, 14)):
                draw_text(surface, line, (x, top + i * line_height(14)), 14, False, theme.TEXT_DIM)
            top += line_height(14) * len(wrap(words, col_w, 14)) + 10
        if self.error:
            lines: list[str] = []
            for raw in self.error.splitlines():
                lines.extend(wrap(raw, col_w - 28, 14, False, 4))
            box = pygame.Rect(x, top, col_w, 24 + line_height(14) * len(lines))
            panel(surface, box, (58, 30, 32), theme.ERROR, 6)
            for i, line in enumerate(lines):
                draw_text(surface, line, (x + 14, box.y + 12 + i * line_height(14)), 14, False, theme.TEXT)
            top = box.bottom + 12
        if self.left_out:
            draw_text(surface, "Faction files left out (fix them with Factions… or `seven-seconds faction validate`):",
                      (x, top), 14, True, theme.ERROR)
            for i, line in enumerate(self.left_out[:6]):
                draw_text(surface, ellipsize(line, col_w - 14, 13), (x + 14, top + 22 + i * line_height(13)), 13,
                          False, theme.TEXT_DIM)
            top += 22 + line_height(13) * len(self.left_out[:6]) + 8
        if self.cards_left_out:
            draw_text(surface, "Card files left out (fix them, then `seven-seconds cards validate`):", (x, top), 14,
                      True, theme.ERROR)
            for i, line in enumerate(self.cards_left_out[:4]):
                draw_text(surface, ellipsize(line, COLUMN_W - 14, 13), (x + 14, top + 22 + i * line_height(13)), 13,
                          False, theme.TEXT_DIM)
        if self.manager is not None:
            self.manager.draw_ui(surface)
