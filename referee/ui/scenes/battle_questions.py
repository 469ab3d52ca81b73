"""Every question the battle asks a player, asked on that player's screen: hand-offs, the end of the round, a
Withdraw and its pursuit, the facing of a trooper just revealed, the objectives, a scramble's square, a take-back and
the other player's consent, a save and leaving the battle.

In hot-seat a question that belongs to one side is asked only after the screen was handed to that side (the table
hidden), so no question for one player appears on the other's screen.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import TYPE_CHECKING, Iterable, Protocol

from ...game.battle.action_kinds import UNIT_KINDS, Kind
from ... import paths
from ...game.battle.intents import Action
from ...game.views.view_words import short_seal, view_unit
from ...rules.errors import InputError
from ...service.battle_screen import BattleScreen
from ...service.session import BattleSession
from ..scene import HoldsSession, Scene, ScenePart
from ..table_data import TableData
from ..view import ViewTransform
from .dialogs import ConsentScreen, Dialog, HandoffScreen, TextDialog, TurnOverScreen

if TYPE_CHECKING:
    from ..view import ViewTransform

# The actions after which a turn that passes on has ended by itself (its player did not end it: no action or
# activation left); End turn, End activation, a take-back, a facing or set-up end it on purpose.
TURN_OVER_BY_ITSELF = (*UNIT_KINDS, Kind.ACTIVATE, Kind.REVEAL)

# The facings offered to the owner of a trooper just revealed (A13), every 45°.
FACINGS = (0, 45, 90, 135, 180, 225, 270, 315)
EDGE_WORDS = {90: ", to B's edge", 270: ", to A's edge"}


def facing_word(view: ViewTransform, degrees: int) -> str:
    """Where a facing points on the screen as the table is drawn (turned or not): "up-left", "down"..."""
    dx, dy = view.direction(math.cos(math.radians(degrees)), math.sin(math.radians(degrees)))
    vertical = "up" if dy < -1e-9 else "down" if dy > 1e-9 else ""
    horizontal = "left" if dx < -1e-9 else "right" if dx > 1e-9 else ""
    return "-".join(w for w in (vertical, horizontal) if w) + EDGE_WORDS.get(degrees, "")


def next_round_button(ends: bool) -> tuple[str, str]:
    """The end-of-round choice that plays on; when this end of round ends the battle (the last round the viewer's own
    mission allows, or whatever is announced: ``battle_ends_this_round``), it says so instead (the opponent's limit
    is secret, A59: it ends the battle without being announced)."""
    return ("next", "End the battle" if ends else "Next round")


class QuestionsHost(HoldsSession[BattleSession], Protocol):
    """What the questions use of the battle scene besides its window and session: the screen (what the battle waits
    for), the table as drawn (a facing's words), whether the report was shown (an undo shows it again),
    and how the scene clears its tools, selects, sends an action, shows a line or the log, and goes on."""

    shown_over: bool

    @property
    def shown(self) -> BattleScreen: ...

    @property
    def view(self) -> ViewTransform: ...

    def clear_tools(self) -> None: ...

    def select(self, piece_id: str | None) -> None: ...

    def do(self, action: Action, title: str | None = None, given: list[float] | None = None) -> None: ...

    def say(self, title: str, lines: Iterable[object]) -> None: ...

    def refresh(self) -> None: ...

    def show_log(self) -> None: ...

    def next_step(self) -> None: ...


class BattleQuestions(ScenePart[BattleSession]):
    """Held by the battle scene as ``scene.questions``."""

    host: QuestionsHost

    def __init__(self, host: QuestionsHost) -> None:
        super().__init__(host)
        self.facing_kept: tuple[str, ...] = ()       # troopers left at their default facing by their owner (A13)
        self.handing_off = False                     # a hand-off screen hides the table: nothing of it may open

    def show(self, question: Scene) -> None:
        """Put a question (a dialog, a hand-off screen) over the battle; the questions are asked only in a window."""
        if self.app is not None:
            self.app.push(question)

    def show_guarded(self, question: Dialog, cover: bool = False) -> None:
        """A question that guards a secret or decides for a side: it acts only on a key pressed while it is shown
        (never a held key's repeats, nor a key pressed before it appeared). ``cover``: in hot-seat, where both
        players look at it, the table under it (the side at the screen's secret view) is not drawn."""
        question.guards_keys = True
        if cover and self.session.hotseat and self.session.computer is None:
            question.overlay = False
            question.opaque = True
        self.show(question)

    def hand_off(self, side: str) -> None:
        if self.session.computer is not None:
            # Against the computer the human keeps the screen: no hand-off, above all none to the computer's side.
            self.host.refresh()
            self.host.next_step()
            return
        if self.app is None:
            self.session.hand_to(side)
            self.host.refresh()
            return
        if self.turn_ended_by_itself(side):
            self.show_turn_over(side)
            return
        view = self.session.view(log=False)
        self.handing_off = True
        self.host.clear_tools()
        self.host.select(None)
        lines = [f"Round {view['round']}: side {side} is to act.",
                 "Seals of the holding areas and missions: "
                 + ", ".join(f"side {k} {short_seal(v)}" for k, v in sorted(view["sealed"].items()) if v)]

        def ready(_answer) -> None:
            self.handing_off = False
            self.session.hand_to(side)
            self.host.refresh()
            self.host.show_log()
            self.host.next_step()

        self.show(HandoffScreen(side, lines, ready))

    def turn_ended_by_itself(self, side: str) -> bool:
        """The viewer's own action (the third extra blip move, the last action of the last activation) passed the
        turn to ``side`` by itself: the viewer has not yet seen what it did."""
        session = self.session
        length, _ = session.moment()
        if not length or session.viewer == side or session.refereed:
            return False
        at, player = self.sent
        return (session.last_action_kind() in TURN_OVER_BY_ITSELF and at == length - 1 and player == session.viewer
                and self._shown_turn_over != length)

    _shown_turn_over = -1
    sent: tuple[int, str | None] = (-1, None)     # the record's length and the side to play when an action was sent

    def sending(self) -> None:
        """An action is about to be sent: whose turn it is now (to tell later whether it ended that turn)."""
        self.sent = self.host.shown.moment

    def show_turn_over(self, side: str) -> None:
        """What the viewer's last action did, on their own view, before the hand-off hides it."""
        self._shown_turn_over = self.session.moment()[0]
        me = self.session.viewer
        lines = [f"Side {me}: your last action ended your turn by itself (nothing left to activate) [p.16]. What it "
                 f"did, as you see it:", *self.session.log(explain=False, last=6)]

        def read(_answer) -> None:
            self.hand_off(side)

        self.show(TurnOverScreen(side, lines, read))

    def confirm_then(self, title: str, lines: list[str], action: Action) -> None:
        if self.app is None:
            self.host.do(action, title)
            return

        def closed(answer) -> None:
            if answer == "go":
                self.host.do(action, title)
            else:
                self.host.say(f"{title}: not taken", ["nothing changed"])

        self.show(Dialog(title, lines[-12:], [("go", "Do it"), ("cancel", "Cancel")], closed, columns=2,
                             width=640))

    def confirm_pass(self) -> None:
        """End turn without an activation is a pass (p.16, A22); the turn may have come to this side by itself, so
        the player says it is meant. Two passes in a row end the round."""
        side = self.session.turn_player() or self.session.viewer
        if self.app is None:
            self.host.do(Action(Kind.END_TURN), "End turn")
            return
        lines = [f"Side {side} has not activated anything this turn: ending it now is a pass [p.16, A22]."]
        if self.session.passes_in_row() >= 1:
            lines.append("The other side passed too: a second pass in a row ends the round, every activation counter "
                         "left unused [p.16, A22].")
        lines.append("Pass the turn?")

        def closed(answer) -> None:
            if answer == "pass":
                self.host.do(Action(Kind.END_TURN), f"Side {side} passes")
            else:
                self.host.say("End turn: not taken", ["nothing changed; your turn goes on"])

        self.show_guarded(Dialog(f"Side {side}: pass the turn?", lines,
                                 [("pass", "Pass the turn"), ("play", "Play on")], closed, columns=2, width=640))

    def end_of_round(self) -> None:
        if self.app is None:
            return
        if self.session.computer is not None:
            self.end_of_round_against_computer()
            return
        shown = self.host.shown
        round_ = shown.view["round"]
        # Only the viewer's own mission: the opponent's limit is secret until it ends the battle (A59).
        lines = list(shown.end_of_round)
        ends = shown.ends_this_round
        buttons = [next_round_button(shown.last_round or bool(ends)), ("A", "Side A withdraws"),
                   ("B", "Side B withdraws"), ("both", "Both withdraw"), ("stop", "Agree to stop")]
        if ends:
            buttons = buttons[:1]           # the battle ends whatever is announced: one button says so

        def closed(answer) -> None:
            if answer is None:
                self.host.say("End of round", ["press End turn (N) to decide the end of the round"])
                return
            if answer == "next":
                self.host.do(Action(Kind.END_OF_ROUND), "End of round")
            elif answer in ("A", "B"):
                self.pursuit(answer)
            elif answer == "both":
                self.host.do(Action(Kind.END_OF_ROUND, "", {"withdraw": "both"}), "Both withdraw")
            else:
                self.host.do(Action(Kind.END_OF_ROUND, "", {"stop": True}), "Agree to stop")

        self.show_guarded(Dialog(f"End of round {round_}", lines, buttons, closed, columns=3, width=640), cover=True)

    def ended(self, answer) -> None:
        """The one button of an end of round that ends the battle whatever is announced."""
        if answer == "next":
            self.host.do(Action(Kind.END_OF_ROUND), "End of round")
        else:
            self.host.say("End of round", ["press End turn (N) to decide the end of the round"])

    def end_of_round_against_computer(self) -> None:
        """The human speaks for his side only: the computer answers a Withdraw itself and agrees to stop or not,
        says when it would stop, and when it withdraws (hard may) the human allows or pursues."""
        session = self.session
        computer = session.computer
        assert computer is not None
        me, it = session.viewer, computer.side
        round_ = session.view(log=False)["round"]
        lines = session.end_of_round_lines(me)
        if session.battle_ends_this_round():
            self.show(Dialog(f"End of round {round_}", lines, [next_round_button(True)], self.ended, columns=1,
                             width=640))
            return
        word = session.computer_end_of_round()
        if word is not None and word.action.args.get("withdraw") == it:
            self.computer_withdraws(lines, word.shown())
            return
        offer = word is not None and bool(word.action.args.get("stop"))
        if offer:
            lines.append(f"The computer (side {it}) offers to stop here.")
        buttons = [next_round_button(session.last_round(me)), ("withdraw", f"Side {me} withdraws"), ("stop", "Agree to stop" if offer
                                                                                   else "Offer to stop")]

        def closed(answer) -> None:
            if answer is None:
                self.host.say("End of round", ["press End turn (N) to decide the end of the round"])
            elif answer == "withdraw":
                reply = session.computer_answers_withdraw()
                self.host.do(Action(Kind.END_OF_ROUND, "", {"withdraw": me, "answer": reply}), f"Side {me} withdraws")
            elif answer == "stop" and (offer or session.computer_agrees_to_stop()):
                self.host.do(Action(Kind.END_OF_ROUND, "", {"stop": True}), "Both agree to stop")
            elif answer == "stop":
                # The log says the offer was made and not agreed; the computer's reason stays beside it.
                session.computer_notes[session.log_length()] = "plays on: it does not agree to stop"
                self.host.do(Action(Kind.END_OF_ROUND, "", {"offered": me}), "End of round")
            else:
                self.host.do(Action(Kind.END_OF_ROUND, "", {"offered": it} if offer else {}), "End of round")

        self.show(Dialog(f"End of round {round_}", lines, buttons, closed, columns=3, width=640))

    def computer_withdraws(self, lines: list[str], reason: str) -> None:
        """The computer announces a Withdraw: the human allows it (and Controls the Table) or pursues for one more
        round, or withdraws too (the table Contested) [p.16, A43]."""
        session = self.session
        assert session.computer is not None
        me, it = session.viewer, session.computer.side
        round_ = session.view(log=False)["round"]
        lines = lines + [f"The computer (side {it}) withdraws.",
                         f"Side {me}: allow it (you Control the Table at once) or pursue for one more round? "
                         "[p.16, A43]"]
        if session.last_round(me):
            lines.append(f"Your mission (side {me}) ends the battle after this round: a pursuit has no round left "
                         "to be played in, and the table would be Contested [A43].")

        def closed(answer) -> None:
            if answer is None:
                self.host.say("End of round", ["press End turn (N) to answer the computer's Withdraw"])
            elif answer == "both":
                self.host.do(Action(Kind.END_OF_ROUND, "", {"withdraw": "both"}), "Both withdraw")
            else:
                session.computer_notes[session.log_length()] = reason
                self.host.do(Action(Kind.END_OF_ROUND, "", {"withdraw": it, "answer": answer}),
                              f"Side {it} withdraws")

        self.show(Dialog(f"End of round {round_}: the computer withdraws", lines,
                         [("allow", "Allow it"), ("pursue", "Pursue"), ("both", "Withdraw too")], closed,
                         columns=3, width=640))

    def scramble_square(self, actor: str) -> None:
        """The owner chooses the empty square the unit goes to (A23). The screen is the owner's (their turn), and the
        answer never reaches the opponent: the log names three blips in label order."""
        squares = self.session.scramble_squares(actor)
        if self.app is None or not squares:
            self.host.do(Action(Kind.SCRAMBLE, actor))
            return

        def closed(answer) -> None:
            if answer is None:
                self.host.say("Scramble: cancelled", ["nothing changed"])
            elif answer == "any":
                self.host.do(Action(Kind.SCRAMBLE, actor), f"Scramble {actor}")
            else:
                self.host.do(Action(Kind.SCRAMBLE, actor, {"square": int(answer)}), f"Scramble {actor}")

        buttons = [(str(n), f"Square {n}") for n in squares] + [("any", "Any (drawn)")]
        self.show_guarded(Dialog(f"Scramble {actor}: which square?",
                             [f"Side {self.session.viewer} only: choose the empty holding-area square {actor} goes to. "
                              "Three blips take its place; the opponent cannot tell which is real [p.22, A23, A59]."],
                             buttons, closed, columns=4, width=640))

    def pursuit(self, side: str) -> None:
        """The Withdraw is side ``side``'s; allowing or pursuing is the opponent's decision, asked on their screen."""
        other = "B" if side == "A" else "A"

        def closed(answer) -> None:
            if answer is None:
                self.end_of_round()
                return
            self.host.do(Action(Kind.END_OF_ROUND, "", {"withdraw": side, "answer": answer}), f"Side {side} withdraws")

        def ask() -> None:
            lines = [f"Side {other}: allow the Withdraw (side {other} Controls the Table) or pursue for one more "
                     "round? [p.16, A43]"]
            if self.session.last_round(other):
                # Only the asker's own mission: the withdrawing side's limit is its secret (A59).
                lines.append(f"Your mission (side {other}) ends the battle after this round: a pursuit has no round "
                             "left to be played in, and the table would be Contested [A43].")
            self.show_guarded(Dialog(f"Side {side} withdraws", lines, [("allow", "Allow it"), ("pursue", "Pursue")],
                                     closed, columns=2))

        round_ = self.session.view(log=False)["round"]
        self.for_side(other, ask, f"Side {side} announces a Withdraw at the end of round {round_}; "
                                  f"side {other} decides whether to allow it or pursue [p.16, A43].")

    def facing_owed(self) -> tuple[str, ...]:
        """Troopers just revealed that wait for a human owner's facing (the computer's keep the default)."""
        return self.host.shown.to_face

    def facing_due(self) -> bool:
        """Troopers just revealed wait for their owner's facing, and the owner has not said "keep" for them."""
        owed = self.facing_owed()
        # Refereeing a physical table too: the owner says how the miniature was faced as it stands (A13).
        return bool(owed) and owed != self.facing_kept and self.app is not None

    def facing(self, uid: str) -> None:
        """The owner faces a trooper just revealed (A13), on their own screen; "keep" leaves every one still waiting at
        the default facing (toward the enemy's edge)."""
        unit = view_unit(self.session.view(log=False), uid)
        if unit is None:
            return
        owner, facing = unit["side"], unit.get("facing", 0.0)

        def closed(answer) -> None:
            if answer is None or answer == "keep":
                self.keep_facing(uid, float(facing))
                return
            self.host.do(Action(Kind.FACE, uid, {"facing": float(answer)}), f"Face {uid}")

        def ask() -> None:
            lines = [f"Side {owner}: {uid} ({unit['type']}) has just been revealed at ({unit['x']:.1f}, "
                     f"{unit['y']:.1f}) and faces {facing:g}° for now. Choose its facing: revealed troopers take a facing chosen by "
                     f"their owner [A13]. Degrees count counter-clockwise from the table's x axis."]
            buttons = [(str(deg), f"{deg}° {facing_word(self.host.view, deg)}") for deg in FACINGS]
            buttons.append(("keep", f"Keep {facing:g}°"))
            self.show_guarded(Dialog(f"Face {uid}", lines, buttons, closed, columns=3, width=640))

        self.for_side(owner, ask, f"Side {owner}: a trooper of yours was revealed; you choose its facing [A13].")

    def keep_facing(self, uid: str, facing: float) -> None:
        """The owner keeps the default facing: every trooper still waiting keeps it here (the engine's default stands
        until another action)."""
        self.facing_kept = self.facing_owed()
        self.host.next_step()

    def for_side(self, side: str, ask, why: str = "") -> None:
        """A question that belongs to ``side``: in hot-seat the screen is handed to that player first (the table
        hidden), so no question for one side appears on the other's screen."""
        if self.app is None:
            return
        if not self.session.hotseat or self.session.viewer == side:
            ask()
            return
        self.handing_off = True
        self.host.clear_tools()
        self.host.select(None)

        def ready(_answer) -> None:
            self.handing_off = False
            self.session.hand_to(side)
            self.host.refresh()
            self.host.show_log()
            ask()

        self.show(HandoffScreen(side, [why] if why else [], ready))

    def objectives(self, chosen: dict[str, str] | None = None) -> None:
        if self.app is None:
            return
        chosen = dict(chosen or {})
        view = self.session.view(log=False)
        left = [o for o in (view["result"] or {}).get("objectives", []) if o not in chosen]
        if not left:
            self.host.do(Action(Kind.OBJECTIVES, view["attacker"] or "", chosen), "Objectives")
            return
        oid = left[0]

        def closed(answer) -> None:
            if answer is None:
                self.host.say("Objectives", ["the attacker must set every surviving objective; press End turn (N) to "
                                        "continue"])
                return
            chosen[oid] = answer
            self.objectives(chosen)

        self.show(Dialog(f"Objective {oid}", [f"Side {view['attacker']} Controls the Table: set "
                                                  f"objective {oid} [p.16, A41]"],
                             [("secured", "Secured"), ("destroyed", "Destroyed"), ("inspected", "Inspected")],
                             closed, columns=3))

    def undo(self, consent: bool = False) -> None:
        check = self.session.undo_check()
        if not check.allowed:
            self.host.say("Undo: not allowed", [check.reason])
            return
        if check.needs_consent and not consent:
            self.consent(check)
            return
        try:
            taken = self.session.undo(consent)
        except InputError as e:
            self.host.say("Undo", e.problems)
            return
        self.host.clear_tools()
        self.host.shown_over = False
        self.host.refresh()
        self.host.show_log()
        self.host.say("Undone", [f"taken back: {taken}", "the battle is as it was before it (autosaved)"])
        side = self.session.to_act()
        if self.session.needs_handoff() and side is not None:
            self.hand_off(side)

    def redo(self) -> None:
        """Play again the action last taken back, with the same dice (Ctrl+Y / Ctrl+Shift+Z); only while nothing
        else has been done since, and only if the engine allows it now."""
        try:
            action, faces = self.session.redo_action()
        except InputError as e:
            self.host.say("Redo", e.problems)
            return
        self.host.do(action, given=faces)

    def consent(self, check) -> None:
        """An action that rolled dice, revealed something or passed the turn is taken back only if the other player
        agrees, and that player answers on their own screen behind a hand-off (the table hidden), never the player
        who asked. Just after a hand-off the player at the screen may offer the other side back the turn it ended:
        then that side is asked, behind a hand-off, whether it takes it back. Both read it in the log."""
        if self.app is None:
            return
        asker = self.session.viewer
        owner = check.side or asker
        agreeing = "B" if owner == "A" else "A"
        self.host.clear_tools()
        self.host.select(None)
        if asker != owner:
            self.offer_back(check, asker, owner)
            return

        def answered(answer) -> None:
            if answer == "allow":
                self.session.hand_to(owner)
                self.undo(consent=True)
                self.hand_off(owner)
            else:
                self.hand_off(owner)
                self.host.say("Undo refused", [f"side {agreeing} did not agree to take back {check.what!r}"])

        lines = [f"Side {owner} asks to take back {check.what!r}: {check.why_consent}.",
                 "Taken back, it is logged for both players, and the same action would roll the same dice again.",
                 f"Player of side {agreeing}: do you agree?"]
        self.behind_hand_off(agreeing, lambda: self.show(ConsentScreen(agreeing, lines, answered)),
                             f"Side {owner} asks to take back its last action: side {agreeing} decides [fair Undo].")

    def offer_back(self, check, asker: str, owner: str) -> None:
        """The player at the screen (``asker``) gives the other side back the action that ended its turn: pressing
        Undo is their consent; the side that ended the turn says, on its own screen, whether it takes it back."""

        def answered(answer) -> None:
            if answer == "allow":
                self.session.hand_to(owner)
                self.undo(consent=True)
            else:
                self.hand_off(asker)
                self.host.say("Undo: not taken", [f"side {owner} keeps {check.what!r}; nothing changed"])

        lines = [f"Side {asker} agrees to give you back {check.what!r}: {check.why_consent}.",
                 "Taken back, it is logged for both players, and the same action would roll the same dice again.",
                 f"Player of side {owner}: take it back?"]
        self.behind_hand_off(owner, lambda: self.show(ConsentScreen(
            owner, lines, answered, f"Side {owner}: take back {check.what!r}?", ("Take it back", "Keep it"))),
            f"Side {asker} offers side {owner} to take back {check.what!r} [fair Undo].")

    def behind_hand_off(self, side: str, ask, why: str) -> None:
        """In hot-seat, ``ask`` once the screen was handed to ``side`` (always, even when ``side`` just had it:
        the question is for that player alone)."""
        if not self.session.hotseat or self.session.computer is not None:
            ask()
            return
        self.handing_off = True

        def ready(_answer) -> None:
            self.handing_off = False
            ask()

        self.show(HandoffScreen(side, [why], ready))

    def default_save_name(self) -> str:
        if self.session.save_path is not None:
            return str(self.session.save_path)
        name = self.session.view(log=False)["name"]
        stem = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "battle"
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M")
        return str(paths.saves_dir() / f"{stem}-{stamp}.json")

    def save(self) -> None:
        if self.app is None:
            return

        def closed(name) -> None:
            if not name:
                return
            try:
                written = self.session.save(name)
            except InputError as e:
                self.host.say("Not saved", [e.message()])
                return
            except OSError as e:
                self.host.say("Not saved", [f"{name}: {e.strerror or e}"])
                return
            self.host.say("Saved", [f"the battle is saved in {written}", "open it from the menu: Load a saved battle"])

        self.show(TextDialog("Save the battle", ["A save holds the set-up and every action with its dice; "
                                                     "loading it replays the battle exactly."],
                                 self.default_save_name(), closed, ok="Save"))

    def leave(self) -> None:
        if self.app is None:
            return

        app = self.app

        def closed(answer) -> None:
            if answer == "leave":
                self.session.save_campaign_battle()
                app.pop()

        self.show(Dialog("Leave the battle?", ["The battle is autosaved after every action: the menu offers to "
                                                   "resume it."], [("leave", "Back to the menu"), ("stay", "Stay")],
                             closed, columns=2))


class ClicksOnTheTable(Protocol):
    """What a battle tool that answers a click on the table uses of the battle scene: its session, the table as drawn
    and the mouse, and the questions part (which confirms a choice or asks the owner)."""

    @property
    def session(self) -> BattleSession: ...

    @property
    def view(self) -> ViewTransform: ...

    @property
    def mouse(self) -> tuple[int, int]: ...

    @property
    def questions(self) -> BattleQuestions: ...

    def on_table(self, pos: tuple[int, int]) -> bool: ...

    def table_point(self, pos: tuple[int, int]) -> tuple[float, float]: ...


class ChoosesForAUnit(Protocol):
    """What a battle tool that chooses for one unit uses of the battle scene: its session, the tool in hand and the
    unit it is for, the table, and how a tool is taken up."""

    @property
    def session(self) -> BattleSession: ...

    @property
    def tool(self) -> str: ...

    @property
    def picking(self) -> str | None: ...

    @property
    def table(self) -> TableData: ...

    def start_tool(self, tool: str, actor: str, hint: str) -> None: ...
