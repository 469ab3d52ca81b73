"""The cards and the holding area during set-up: asked on their owner's screen only, after the hand-off to them."""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action
from ...game.battle.cards import playing_deck
from ...game.views.view_words import card_lines
from ...rules.errors import InputError
from ..faction_choices import card_problem_lines
from ...service.session import BattleSession
from ..scene import HoldsSession, ScenePart
from .dialogs import Dialog


class CardsHost(HoldsSession[BattleSession], Protocol):
    """What the cards use of the set-up table scene besides its window and session: the decision set-up waits for
    (the cards offered, the holding area issued) and how the scene sends the choice."""

    def decision(self) -> Mapping[str, Any]: ...

    def do(self, action: Action) -> object: ...


class SetupCards(ScenePart[BattleSession]):
    """Held by the set-up table scene as ``scene.cards``."""

    host: CardsHost

    def card_lines(self) -> list[str]:
        """The viewer's own cards, from its player view (the texts are the deck's, which anyone may read)."""
        return card_lines(self.session.view(), self.session.viewer) or ["no cards yet"]

    def show_cards(self, then) -> None:
        if self.app is None:
            then()
            return
        side = self.session.viewer
        self.app.push(Dialog(f"Side {side}: your cards (only you see them)", self.card_lines(), [("ok", "Done")],
                             lambda _answer: then(), columns=1))

    def choose_cards(self) -> None:
        offered = ((self.host.decision().get("offered") or {}).get(self.session.viewer)) or {}
        if not offered or self.app is None:
            return
        combos = [(m, t) for m in offered["mission"] for t in offered["troop"]]
        try:
            deck = playing_deck()
            buttons = [(f"{m}|{t}", f"{deck.mission(m).title} + {deck.troop(t).title}") for m, t in combos]
            lines = ["Your winning streak drew extra cards [p.31, A47]. Play one mission and one troop card:"]
            lines += [f"Mission {deck.mission(m).title}: troop line {deck.mission(m).troop_line}"
                      for m in offered["mission"]]
            lines += [f"Troop card {deck.troop(t).title}" for t in offered["troop"]]
        except InputError as e:
            # a card drawn from a file that has since broken: its id still chooses it; the window stays open
            buttons = [(f"{m}|{t}", f"{m} + {t}") for m, t in combos]
            lines = ["Your winning streak drew extra cards [p.31, A47]. Play one mission and one troop card.",
                     *[f"cards: {p}" for p in e.problems[:3]]]
        lines += [f"left out: {line}" for line in card_problem_lines()]
        side = self.session.viewer

        def chosen(answer) -> None:
            if answer:
                mission, troop = answer.split("|")
                self.host.do(Action(Kind.CHOOSE_CARDS, side, {"mission": mission, "troop": troop}))

        self.app.push(Dialog(f"Side {side}: choose your cards", lines, buttons, chosen, columns=1))

    def arrange_holding(self) -> None:
        if self.app is None:
            return
        side = self.session.viewer
        issued = ((self.host.decision().get("issued") or {}).get(side)) or []

        def done(squares) -> None:
            if squares is not None:
                self.host.do(Action(Kind.FILL_HOLDING, side, {"squares": squares}))

        self.app.push_scene("holding-setup", self.session, side, issued, done)
