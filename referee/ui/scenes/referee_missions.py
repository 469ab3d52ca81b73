"""Missions in the referee mode: a player may enter their mission card (and their troop and drone cards) so the
program scores the battle; it stays secret until the end, and the log says only that it was entered."""

from __future__ import annotations

from typing import Iterable, Protocol

from ...game.battle.cards import playing_deck
from ...rules.errors import InputError
from ..faction_choices import card_problem_lines
from ...service.session import Attempt
from ...service.referee import RefereeSession
from ..scene import HoldsSession, ScenePart
from .dialogs import Dialog


class MissionsHost(HoldsSession[RefereeSession], Protocol):
    """What the mission entry uses of the referee scene besides its window and session: how it shows a line and the
    outcome of an entry."""

    def after_action(self, attempt: Attempt, title: str) -> None: ...

    def say(self, title: str, lines: Iterable[object]) -> None: ...


class MissionEntry(ScenePart[RefereeSession]):
    """Held by the referee scene as ``scene.missions``."""

    host: MissionsHost

    def ask_side(self) -> None:
        sides = [side for side in ("A", "B") if not self.session.mission_entered(side)]
        if self.app is None or self.session.view(log=False)["phase"] == "over" or not sides:
            self.host.say("Missions", ["both missions are entered" if not sides else "the battle is over"])
            return
        self.app.push(Dialog("Enter a mission card?", [
            "A player may enter their mission card (and, if they wish, their troop and drone cards) so the program "
            "can score the battle. It stays secret until the end of the battle; the log says only that it was "
            "entered. Without it, the report says the mission was kept on the mat.",
            "Which side enters its mission? The other player looks away while it is chosen."],
            [(side, f"Side {side}") for side in sides] + [("cancel", "Cancel")],
            lambda side: self.ask_card(side) if side in sides else None, columns=len(sides) + 1))

    def choices(self, side: str) -> list[tuple[str, str]]:
        """The deck's mission cards for ``side``'s role on this table (all of them if none fits)."""
        attacker = self.session.view(log=False)["attacker"]
        role = "chance-encounter" if attacker is None else ("offence" if side == attacker else "defence")
        cards = playing_deck().mission_cards
        fitting = [m for m in cards if m.kind == role] or list(cards)
        return [(m.id, m.title) for m in fitting]

    def _deck_failed(self, e: InputError) -> None:
        # the deck cannot be read at all: say why and leave the battle as it was, the window open
        self.host.say("Missions: the cards cannot be read", [*e.problems[:4], "nothing changed"])

    def ask_card(self, side: str) -> None:
        if self.app is None:
            return
        try:
            choices = self.choices(side)
        except InputError as e:
            self._deck_failed(e)
            return
        self.app.push(Dialog(f"Side {side} only: your mission card", [
            f"Side {side}, choose the mission card on your mat. The other player looks away.",
            *[f"left out: {line}" for line in card_problem_lines()]],
            choices + [("cancel", "Cancel")],
            lambda mission: self.ask_extra_card(side, mission, "troop", {}) if mission in dict(choices) else None,
            columns=3))

    def ask_extra_card(self, side: str, mission: str, kind: str, chosen: dict[str, str]) -> None:
        """Then, if the player wishes, the troop card and the drone card (or none)."""
        if self.app is None:
            return
        try:
            deck = playing_deck()
        except InputError as e:
            self._deck_failed(e)
            return
        cards = [(c.id, c.title) for c in (deck.troop_cards if kind == "troop" else deck.drone_cards)]

        def closed(answer) -> None:
            if answer == "cancel" or answer is None:
                self.host.say("Missions", [f"side {side}'s mission was not entered; nothing changed"])
                return
            picked = dict(chosen) | ({kind: answer} if answer != "none" else {})
            if kind == "troop":
                self.ask_extra_card(side, mission, "drone", picked)
            else:
                self.enter(side, mission, picked)

        self.app.push(Dialog(f"Side {side} only: your {kind} card?", [
            f"Side {side}, enter your {kind} card too if you wish (it is shown in the report at the end), or none."],
            cards + [("none", f"No {kind} card"), ("cancel", "Cancel")], closed, columns=3))

    def enter(self, side: str, mission: str, cards: dict[str, str]) -> Attempt:
        attempt = self.session.enter_mission(side, mission, cards.get("troop"), cards.get("drone"))
        self.host.after_action(attempt, f"Side {side}'s mission")
        if attempt.legal:
            self.host.say(f"Side {side}'s mission is entered", [
                "It stays secret until the end of the battle, when the program scores it [p.~14, p.16]."])
        return attempt
