"""The campaign screen between battles: the battles so far with their margins, each side's campaign points and
streak against the points needed, tech points, upgrades bought, and the winner once the campaign is won.

From here the next battle starts under the campaign's rules (``CampaignSetupScene``: upgraded factions, the streak
bonus on the attacker/defender roll, A47); its result is recorded by the battle itself when it ends. Each side buys
its upgrades in the faction editor's campaign mode, and any battle with a save can be looked back on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from ...game.campaigns.campaign import STREAK_EFFECTS, TARGETS, Campaign, CampaignStatus, load_campaign
from ...game.play.setup_choices import SetupChoices
from ...service.opening import SealedBattle, look_back_sealed, read_battle
from ...game.battle.sides import SIDES, as_side
from ...rules.errors import InputError
from ...rules.stats import RATING_TITLES, RATINGS, STAT_SHORT
from .. import theme
from ...service.mail_battle import is_mail_file
from ...service.campaigns import (ByMail, Unfinished, battles_by_mail, begin_campaign_battle, continue_battle,
                                  look_back_at, next_battle, unfinished)
from ..opening import show_session
from ..widgets import draw_text, wrap
from .dialogs import Dialog
from .pages import LinesScene
from .pin import ask_pins
from .setup import SetupScene


def battle_line(n: int, b) -> str:
    if b.winner is None:
        head = f"Battle {n}: a draw"
    else:
        head = f"Battle {n}: side {b.winner} wins, {b.level}"
    if b.vp is not None:
        head += f" (margin {b.margin}; {b.vp['A']} VP to {b.vp['B']})"
    control = "the Table Contested" if b.control is None else f"the Table Controlled by side {b.control}"
    source = "recorded from the battle" if b.vp is not None else "typed result"
    return f"{head}; {control}; {source}"


class CampaignScene(LinesScene):
    title = "Campaign"

    def __init__(self, path: Path | str) -> None:
        super().__init__()
        self.path = Path(path)
        self.campaign: Campaign | None = None
        self.status: CampaignStatus | None = None
        self.problem = ""
        self.unfinished: Unfinished | None = None
        self.by_mail: list[ByMail] = []           # its battles being played by e-mail from this computer
        self.told = ""                            # what a turn at one of them ended with, to be said
        self.look_choice = ""
        self.extra: dict[str, Any] = {}
        self.load()

    def load(self) -> None:
        try:
            self.campaign, self.status = load_campaign(self.path)
            self.problem = ""
            self.unfinished = unfinished(self.path, self.campaign)
            self.by_mail = battles_by_mail(self.path)
        except InputError as e:
            self.campaign, self.status, self.problem = None, None, e.message()
        c = self.campaign
        self.heading = f"Campaign: {c.name}" if c else f"Campaign: {self.path.name}"
        self.subtitle = (f"{c.length} campaign: the first to {TARGETS[c.length]} campaign points, or a winning streak "
                         f"of 4, wins [p.31] · {self.path.name}" if c else str(self.path))

    def on_resume(self) -> None:
        self.load()
        self.look_choice = ""                 # the latest battle is offered first
        super().on_resume()

    # ---- the page --------------------------------------------------------------------------------------------
    def lines(self) -> list[tuple[str, str]]:
        if self.campaign is None or self.status is None:
            return [("bad", self.problem)]
        c, st = self.campaign, self.status
        out: list[tuple[str, str]] = []
        if st.winner:
            won = as_side(st.winner)
            player = c.players[won].name or f"side {won}"
            faction = st.sides[won].faction
            out.append(("ok", f"The campaign is won by {player} ({faction.name if faction else won}): {st.why_won}"))
        target = TARGETS[c.length]
        for side in SIDES:
            me = st.sides[side]
            if me.faction is None:
                continue
            who = c.players[as_side(side)].name or f"Side {side}"
            out.append(("h", f"{who} (side {side}), {me.faction.name}: {me.campaign_points} of {target} campaign "
                             f"points; streak {me.streak} ({STREAK_EFFECTS[min(me.streak, 3)]}); "
                             f"{me.tech_points} tech points banked"))
            bought = [f"{RATING_TITLES[u.rating]} {STAT_SHORT[u.stat]} for {u.cost}"
                      + (f" after battle {u.battle}" if u.battle else "") for u in me.faction.upgrades]
            out.append(("b", "upgrades: " + (", ".join(bought) if bought else "none yet")))
            for r in RATINGS:
                out.append(("dim", f"{RATING_TITLES[r]:9} {me.faction.stats(r).short()}"))
        out.append(("h", f"Battles ({len(c.battles)})"))
        if not c.battles:
            out.append(("dim", "none yet: start the first battle"))
        for n, b in enumerate(c.battles, start=1):
            out.append(("b", battle_line(n, b)))
        if self.unfinished is not None:
            out.append(("h", f"Battle {len(c.battles) + 1} is under way: {self.unfinished.summary}"))
        for mailed in self.by_mail:
            out.append(("h", f"Battle {mailed.number} is being played by e-mail: {mailed.file}"))
            out.append(("dim", f"Each player takes their turn at the file on their own computer (Battle "
                               f"{mailed.number} by e-mail… here, or Join a battle… in the menu); this computer "
                               f"records the battle here once it has the finished file."))
        if c.battles and not st.winner and (self.unfinished is not None or self.mailed_next() is not None):
            out.append(("dim", f"Upgrades are bought between battles: once battle {len(c.battles) + 1} is recorded "
                               f"[p.31, A45]."))
        out.append(("h", "How the totals are worked out"))
        out.extend(("dim", line) for line in st.explain)
        return out

    def looked_back(self) -> list[str]:
        """The battles with a save to look back on, as offered in the list."""
        if self.campaign is None:
            return []
        return [f"Battle {n}" for n, b in enumerate(self.campaign.battles, start=1) if b.save]

    def button_row(self) -> list[tuple[str, str, bool]]:
        c, st = self.campaign, self.status
        ok = c is not None and st is not None
        won = st is not None and bool(st.winner)
        played = c is not None and bool(c.battles)
        row = []
        mailed = self.mailed_next()
        if self.unfinished is not None and c is not None:
            row.append(("continue", f"Continue battle {len(c.battles) + 1}", True))
        elif mailed is not None:
            row.append(("mail", f"Battle {mailed.number} by e-mail…", True))
        else:
            row.append(("next", "Next battle…", ok and not won))
        # Upgrades are bought between battles: not while the next one is under way (p.31, A45).
        between = self.unfinished is None and mailed is None
        row += [("upgrade-A", "Upgrades: side A…", played and not won and between),
                ("upgrade-B", "Upgrades: side B…", played and not won and between),
                ("look", "Look back…", bool(self.looked_back())),
                ("back", "Back", True)]
        return row

    def build_extra(self, manager, size, bottom: int) -> None:
        options = self.looked_back()
        self.extra = {}
        if options:
            if self.look_choice not in options:
                self.look_choice = options[-1]
            # Beside the buttons when they fit on one row, else above the last one.
            x = 30 + len(self.button_row()) * 186
            rect = pygame.Rect(x, bottom, 150, 38) if x + 150 < size[0] - 20 else \
                pygame.Rect(size[0] - 180, bottom - 48, 150, 38)
            choices: list[str | tuple[str, str]] = [*options]
            self.extra["look"] = pygame_gui.elements.UIDropDownMenu(choices, self.look_choice, rect, manager)

    def handle_extra(self, event) -> bool:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.extra.get("look"):
            self.look_choice = event.text
            return True
        return False

    def pressed(self, key: str) -> None:
        if key == "back":
            if self.app is not None:
                self.app.pop()
        elif key == "next":
            self.next_battle()
        elif key == "continue":
            self.continue_battle()
        elif key == "mail":
            self.play_by_mail()
        elif key.startswith("upgrade-"):
            self.upgrades(key[-1])
        elif key == "look" and self.campaign is not None:
            self.look_back(int(self.look_choice.split()[-1]) if self.look_choice else len(self.campaign.battles))

    def mailed_next(self) -> ByMail | None:
        """The campaign's next battle, when it is being played by e-mail from this computer."""
        if self.campaign is None:
            return None
        return next((m for m in self.by_mail if m.number == len(self.campaign.battles) + 1), None)

    # ---- what the buttons do ------------------------------------------------------------------------------------
    def play_by_mail(self) -> None:
        """This player's turn at the campaign's battle by e-mail: which side they play, then that side's seat."""
        mailed = self.mailed_next()
        if mailed is None or self.app is None:
            return
        app = self.app

        def chosen(side: str | None) -> None:
            if side not in ("A", "B"):
                return
            # Imported when first used: the network host loads only when a battle is served here.
            from ..joining import join_by_mail

            why = join_by_mail(app, mailed.file, side, self.mail_said)
            if isinstance(why, str):
                self.say("error", why)

        app.push_scene("dialog", f"Battle {mailed.number} by e-mail",
                       [f"{mailed.file.name}: which side do you play? Your side's secrets stay on this computer."],
                       [("A", "I play side A"), ("B", "I play side B")], chosen, columns=2)

    def mail_said(self, text: str) -> None:
        """The turn at the battle by e-mail ended: what it waits for, whom to send the file to, and its record here
        (said in a dialog once this page is shown again: several lines, with the file's path)."""
        self.told = text

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.told and self.app is not None and self.app.scene is self:
            told, self.told = self.told, ""
            self.app.push(Dialog("The battle by e-mail is written", told.split("\n"), [("ok", "OK")]))

    def next_battle(self):
        try:
            scene = CampaignSetupScene(self.path)
        except InputError as e:
            self.say("error", e.message())
            return None
        if self.app is not None:
            self.app.push(scene)
        return scene

    def continue_battle(self):
        battle = self.unfinished
        if battle is None or self.app is None:
            return None
        app = self.app

        def opened(pins: dict[str, str] | None) -> None:
            try:
                session = continue_battle(self.path, battle, pins)
            except InputError as e:
                self.say("error", e.message())
                return
            show_session(app, session, notice=False)

        if battle.sealed is not None:
            ask_pins(app, battle.sealed.sides(), False, opened,
                     ["This battle's files are sealed for its players: each types their PIN."])
            return None
        try:
            session = continue_battle(self.path, battle)
        except InputError as e:
            self.say("error", e.message())
            return None
        return show_session(app, session, notice=False)

    def upgrades(self, side: str):
        try:
            return self.push_scene("campaign-upgrade", self.path, side)
        except InputError as e:
            self.say("error", e.message())
            return None

    def look_back(self, number: int):
        if self.campaign is None:
            return None
        b = self.campaign.battles[number - 1]
        if not b.save:
            self.say("error", f"battle {number} was typed in: it has no save to look back on")
            return None
        path = Path(b.save)
        if not path.is_absolute():
            path = self.path.parent / path
        try:
            sealed = None if is_mail_file(path) else read_battle(path)      # a battle by e-mail is sealed for no one
            if isinstance(sealed, SealedBattle):
                self.look_back_sealed(sealed, path)
                return None
            battle = look_back_at(path)
        except InputError as e:
            self.say("error", e.message())
            return None
        return self.push_scene("look-back", battle, path)

    def look_back_sealed(self, sealed: SealedBattle, path: Path) -> None:
        """A battle sealed for its players: looked back on once each gave their PIN."""
        def unlocked(pins: dict[str, str] | None) -> None:
            try:
                battle = look_back_sealed(sealed, pins or {})
            except InputError as e:
                self.say("error", e.message())
                return
            self.push_scene("look-back", battle, path)

        if self.app is not None:
            ask_pins(self.app, sealed.sides(), False, unlocked,
                     ["This battle's files are sealed for its players: each types their PIN."])


class CampaignSetupScene(SetupScene):
    """The set-up of a campaign's next battle: factions fixed by the campaign (with their upgrades), the streak
    bonus on the attacker/defender roll (A47); the table and the dice are the players' choice."""

    title = "Campaign battle"

    def __init__(self, path: Path | str) -> None:
        super().__init__()
        self.path = Path(path)
        c, _st = load_campaign(self.path)
        self.name = c.name
        self.campaign_choices = next_battle(self.path)
        self.number = self.campaign_choices.number
        self.choice = dict(self.campaign_choices.factions)

    def _build(self, size) -> None:
        super()._build(size)
        for side in ("A", "B"):
            menu = self.widgets.get(f"faction-{side}")
            if menu is not None:
                menu.disable()

    def setup_choices(self) -> SetupChoices:
        return SetupChoices(factions=dict(self.choice), streak=dict(self.campaign_choices.streak))

    def mail_campaign(self) -> Path | None:
        # By e-mail too the battle is the campaign's: its streak bonus, and recorded there when it ends.
        return self.path

    def open(self, session) -> None:
        begin_campaign_battle(session, self.path, self.number)
        super().open(session)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        lines = wrap(self.announcement(), surface.get_width() - 40, 14, True)
        for i, line in enumerate(lines):
            draw_text(surface, line, (20, surface.get_height() - 12 - 20 * (len(lines) - i)), 14, True, theme.ACCENT)

    def announcement(self) -> str:
        """What the streaks bring to this set-up, in the campaign screen's words (STREAK_EFFECTS)."""
        bonus = "; ".join(f"side {s}: {STREAK_EFFECTS[min(b, 3)]}" for s, b in self.campaign_choices.streak.items()
                          if b) or "no streak bonus"
        return f"{self.name}, battle {self.number}: factions as the campaign made them; {bonus} [p.31, A47]"
