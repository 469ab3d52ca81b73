"""The battle window of a joined battle: one side played from another computer, its screen sent by the host.

It is the battle scene itself over ``ui/remote.RemoteBattle`` (the seat's screen and intents), with the questions a
side answers on its own screen: its word at the end of a round (Next round, its Withdraw, an offer to stop, or its
answer to the other side's Withdraw, said as the host takes them from two seats), its consent to the other side's
take-back, its own troopers' facings. The other side plays at the host's window or on its own computer.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from ...game.battle.action_kinds import Kind
from ...game.battle.intents import Action
from ...game.battle.sides import other
from ...game.views.view_words import view_unit
from ...rules.errors import InputError
from ...service.session import BattleSession
from ..remote import RemoteBattle
from .battle import BattleScene
from .battle_placing import OwnPlacing
from .battle_questions import BattleQuestions, QuestionsHost, next_round_button
from .dialogs import ConsentScreen, Dialog


class RemoteQuestionsHost(QuestionsHost, Protocol):
    """What a joined window's questions use of its scene besides a battle's: the remote battle (the seat's screen and
    intents), what the window waits for, and what it does once the battle changed."""

    waiting: str | None

    @property
    def battle(self) -> RemoteBattle: ...

    def changed(self) -> None: ...


class RemoteQuestions(BattleQuestions):
    """The questions of a joined window: only its own side's (see the module note)."""

    host: RemoteQuestionsHost

    @property
    def battle(self) -> RemoteBattle:
        return self.host.battle

    def end_of_round(self) -> None:
        if self.app is None:
            return
        words = self.battle.data.get("round_words") or {}
        me = self.battle.viewer
        round_ = self.battle.view(log=False)["round"]
        asked = words.get("withdraw_asked")
        if asked:
            self._answer_withdraw(asked)
            return
        if words.get("mine"):
            self.host.waiting = "the other side's word at the end of the round"
            return
        buttons = [next_round_button(self.battle.last_round()), ("withdraw", f"Side {me} withdraws"),
                   ("stop", "Offer to stop")]

        def closed(answer: str | None) -> None:
            if answer is None:
                self.host.say("End of round", ["press End turn (N) to say your word at the end of the round"])
            elif answer == "next":
                self.host.do(Action(Kind.END_OF_ROUND), "End of round")
            elif answer == "withdraw":
                self.host.do(Action(Kind.END_OF_ROUND, "", {"withdraw": me}), f"Side {me} withdraws")
            else:
                self.host.do(Action(Kind.END_OF_ROUND, "", {"stop": True}), "Offer to stop")

        self.show_guarded(Dialog(f"End of round {round_}: side {me}'s word", self.battle.end_of_round_lines(),
                                 buttons, closed, columns=3, width=640))

    def _answer_withdraw(self, side: str) -> None:
        me = self.battle.viewer

        def closed(answer: str | None) -> None:
            if answer is None:
                self.host.say("End of round", ["press End turn (N) to answer the Withdraw"])
                return
            self.host.do(Action(Kind.END_OF_ROUND, "", {"answer": answer}), f"Side {side} withdraws")

        lines = [f"Side {side} withdraws. Side {me}: allow it (you Control the Table) or pursue for one more round? "
                 "[p.16, A43]"]
        if self.battle.last_round():
            lines.append(f"Your mission (side {me}) ends the battle after this round: a pursuit has no round left "
                         "to be played in, and the table would be Contested [A43].")
        self.show_guarded(Dialog(f"Side {side} withdraws", lines, [("allow", "Allow it"), ("pursue", "Pursue")],
                                 closed, columns=2))

    def keep_facing(self, uid: str, facing: float) -> None:
        """At a seat of its own the host waits for this side's word before the other side plays on: keeping the
        default facing is said to it, as the facing it is."""
        self.host.do(Action(Kind.FACE, uid, {"facing": facing}), f"Face {uid}")

    def facing_owed(self) -> tuple[str, ...]:
        """Only this side's troopers: the other side faces its own."""
        view = self.battle.view(log=False)
        return tuple(uid for uid in view["to_face"]
                     if (unit := view_unit(view, uid)) is not None and unit["side"] == self.battle.viewer)

    def consent(self, check: Any) -> None:
        """A take-back that needs the other side's word: asked of that side's seat by the host."""
        try:
            said = self.battle.undo()
        except InputError as e:
            self.host.say("Undo", e.problems)
            return
        by_mail = self.battle.data.get("by_mail")
        answers = (f"the other side answers when it opens the file: close this window and send "
                   f"{by_mail.get('file')} to side {other(self.battle.viewer)}" if isinstance(by_mail, dict)
                   else "the other side answers on its own screen")
        self.host.say("Undo: asked", [said, answers])

    def ask_consent(self, asked: dict[str, Any]) -> None:
        """The other side asks to take back its last action: this side agrees or not, on its own screen."""
        lines = [f"Side {asked.get('from')} asks to take back {asked.get('what')!r}: {asked.get('why')}.",
                 "Taken back, it is logged for both players, and the same action would roll the same dice again."]

        def answered(answer: str | None) -> None:
            reply = self.battle.consent(answer == "allow")
            if not reply.get("ok"):
                self.host.say("Undo", [str(reply.get("reason"))])
            self.host.changed()

        self.show(ConsentScreen(self.battle.viewer, lines, answered))

    def save(self) -> None:
        """The finished battle is kept in this player's saves folder; while it is running the host keeps it, and
        its reason is said here (the record holds the other side's secrets)."""
        if not self.battle.over:
            try:
                self.battle.record()
            except InputError as e:
                self.host.say("Not saved", [*e.problems, "every action is in the host's autosave; this window "
                                             "saves the battle once it is over (Save, or the report's Save)"])
                return
        super().save()

    def hand_off(self, side: str) -> None:
        self.host.refresh()
        self.host.show_log()

    def for_side(self, side: str, ask: Any, why: str = "") -> None:
        if side == self.battle.viewer:
            ask()

    def behind_hand_off(self, side: str, ask: Any, why: str) -> None:
        if side == self.battle.viewer:
            ask()


class RemoteBattleScene(BattleScene):
    """One side's battle from a remote host (see the module note)."""

    title = "Battle: joined"

    def __init__(self, battle: RemoteBattle) -> None:
        self.battle = battle
        self.waiting: str | None = None
        # The remote battle answers the battle scene's questions from its seat's screen (``remote.BattleSeat``).
        super().__init__(cast(BattleSession, battle))
        self.own_questions = RemoteQuestions(self)
        self.questions = self.own_questions
        self.placing = OwnPlacing(self)
        self.seen = battle.version
        self.said = ""             # the host's last word for this seat shown (``next_step``), said once

    host: Any = None                # the host this window serves the battle with, when it plays a side of it

    def on_exit(self) -> None:
        super().on_exit()
        self.battle.close()
        if self.host is not None:
            self.host.stop()

    def update(self, dt: float) -> None:
        """A new screen from the host (the other side played, or answered): shown, and the battle goes on."""
        super().update(dt)
        if self.battle.version != self.seen and self.app is not None and self.app.scene is self:
            self.changed()

    def changed(self) -> None:
        self.seen = self.battle.version
        self.clear_tools()
        self.refresh()
        self.show_log()
        self.next_step()

    def after_action(self, attempt: Any, title: str) -> None:
        super().after_action(attempt, title)
        self.seen = self.battle.version

    def next_step(self) -> None:
        self.waiting = None
        said = str(self.battle.data.get("said") or "")
        if said and said != self.said:
            # A word for this seat (the other side refused its take-back, an action that waited was refused): the host
            # keeps it on the seat's screen until this side acts, and it is said once.
            self.say("Said to your side", [said[:1].upper() + said[1:]])
        self.said = said
        asked = self.battle.data.get("consent")
        if asked:
            self.own_questions.ask_consent(asked)
            return
        waits = self.battle.data.get("waits_for_computer")
        if isinstance(waits, dict):
            # A side that keeps its secrets on its own device (its phone or computer) must open a square, or send its
            # share of the dice, before the battle goes on.
            away = " (it is away)" if waits.get("away") else ""
            what = "send its share of the dice" if self.battle.data.get("dice_asked") else "open its square"
            self.waiting = f"side {waits.get('side')}'s device to {what}{away}"
            claim = self.battle.data.get("may_claim_forfeit")
            if claim:
                self.claim(str(claim))
            return
        if self.battle.view(log=False)["phase"] == "end-of-round":
            self.questions.end_of_round()
            return
        if self.battle.view(log=False)["phase"] == "over" and not self.battle.over \
                and not self.battle.data.get("acting"):
            self.waiting = "the attacker's objectives"
            return
        super().next_step()

    def claim(self, side: str) -> None:
        """Side ``side``'s device has been away too long while the battle waits for its square: this side may claim
        the battle (``side`` forfeits), or keep waiting; its secrets are never decided for it."""
        lines = [f"The battle waits for side {side}'s device to open a square, and it has been away too long.",
                 f"Claim the battle: side {side} forfeits (logged, and said in the report). Or keep waiting: the "
                 f"battle goes on when it joins again."]

        def closed(answer: str | None) -> None:
            if answer != "claim":
                return
            why = self.battle.claim_forfeit()
            if why:
                self.say("The claim was refused", [why])

        self.questions.show_guarded(Dialog(f"Side {side}'s device is away", lines,
                                 [("claim", f"Claim the battle (side {side} forfeits)"), ("wait", "Keep waiting")],
                                 closed, columns=2, width=640))

    def phones(self) -> None:
        """W: a joined battle is served by the host's computer, which shows its codes."""
        self.say("Phones and remote play", ["this battle is served by the computer that hosts it: its window (W) "
                                            "shows the seats' codes"])

    def open_report(self) -> None:
        """The end-of-battle report the host gives this seat, in the report scene the host's window shows."""
        try:
            self.battle.report()
        except InputError as e:
            self.say("The battle is over", [*e.problems, "the log now holds the whole truth"])
            return
        # A campaign's battle by e-mail served for this turn (``net/mail.py: MailTurn``): this side may ask for its
        # upgrades in the file.
        asker = getattr(self.host, "upgrade_asker", None)
        self.push_scene("report-remote", self.battle, on_save=self.questions.save,
                        ask_upgrade=asker() if callable(asker) else None)

    def banner_who(self) -> tuple[str, str]:
        return f"You are side {self.battle.viewer} (joined)", \
            "program dice" if self.battle.dice is not None else "your dice"

    def banner_text(self) -> str:
        mail = self.battle.mail_word()
        if mail:
            return mail
        if self.waiting:
            return f"Waiting for {self.waiting}"
        return super().banner_text()
