"""A battle played by e-mail (``net/mail.py``, ``seven-seconds mail``): one file goes back and forth between two
computers, each side's secrets stay in its own folder, a die costs one trip of the file, and a file changed on the
way is refused with the reason."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest

from referee import paths
from referee.cli.main import main
from referee.game.battle.action_kinds import Kind
from referee.game.battle.sides import other
from referee.net.client import RemoteSeat
from referee.net.keeper import Keeper
from referee.game.battle.intents import Action
from referee.game.battle.state import state_from_scenario
from referee.game.play.engine import Game, begin_battle
from referee.net.desk import Desk
from referee.net.mail import OWED, MailTurn, arrive, new_mail_battle, read_seen, seen_path, waits_for
from referee.service.mail_battle import OPENINGS, acting_side
from referee.service.session import BattleSession
from referee.rules.errors import InputError
from referee.rules.scenario import load_scenario
from referee.ui.remote import RemoteBattle

from .fixed_draws import DICE_DRAWS, seeded_os_draws
from .net_support import next_action
from .test_net_kept import FACTIONS, SMALL, fresh, setup_action

MOVES = ("its move", "its word at the end of the round", OWED)


def settle(turn: MailTurn, side: str) -> dict[str, str]:
    """What the battle waits for once this side's computer has answered every ask of it (its keeper answers by
    itself, on the seat's own thread)."""
    for _ in range(2000):
        waits = dict(turn.waits_for())
        if waits.get(side) in (None, *MOVES):
            return waits
        time.sleep(0.0025)
    raise AssertionError(f"side {side}'s computer did not answer: {turn.waits_for()}")


Words = Callable[[dict[str, Any]], dict[str, Any]]


def both_stop(screen: dict[str, Any]) -> dict[str, Any]:
    return {"stop": True}


def play_on(screen: dict[str, Any]) -> dict[str, Any]:
    return {}


def chosen(screen: dict[str, Any], phase: str, revealed: set[str], words: Words = both_stop) -> dict[str, Any] | None:
    """The player's next action: set-up left to the program; in the battle a blip activated is revealed (its square
    opened by its own computer), else the plain next action; at the end of a round, the side's word (``words``: both
    offer to stop at the end of round 1, unless told otherwise); the attacker in Control at the end sets each
    objective Inspected."""
    if phase == "setup":
        return setup_action(screen)
    if phase == "end-of-round":
        return {"kind": Kind.END_OF_ROUND, "actor": "", "args": words(screen)}
    objectives = next((a for a in screen["legal"] if a["kind"] == Kind.OBJECTIVES), None)
    if objectives is not None:
        return {"kind": Kind.OBJECTIVES, "actor": "", "args": {o: "inspected" for o in objectives["free"]}}
    reveal = next((a for a in screen["legal"] if a["kind"] == Kind.REVEAL and a["actor"] not in revealed), None)
    if reveal is not None and len(revealed) < 4:
        revealed.add(reveal["actor"])
        return {"kind": Kind.REVEAL, "actor": reveal["actor"], "args": {}}
    return next_action(screen)


def one_turn(path: Path, side: str, disks: dict[str, Path], revealed: set[str],
             words: Words = both_stop) -> tuple[int, list[tuple[str, str]]]:
    """``side`` opens the file on its own computer, plays until the battle waits for the other side, and closes:
    the actions it took and what the battle waits for then (``words``: as ``chosen``)."""
    turn = MailTurn(path, side, folder=disks[side])
    seat = RemoteSeat(turn.link, kept_folder=disks[side], keeper=turn.keeper)     # as the window's join takes it
    acted = 0
    try:
        for _ in range(300):
            if settle(turn, side).get(side) not in MOVES:
                break
            with turn.host.lock:
                phase = turn.session.state.phase
            action = chosen(fresh(seat), phase, revealed, words)
            assert action is not None
            reply = seat.send({"kind": "action", "action": action})
            assert reply["ok"], reply
            acted += 1
        assert not seat.refusals and not seat.keeper.problems
    finally:
        seat.close()
        turn.close()
    assert turn.unsaved is None
    return acted, turn.waits


def play_by_mail(path: Path, disks: dict[str, Path], trips: int = 60, each: Any = lambda trip, side: None,
                 words: Words = both_stop) -> list[tuple[str, int, int, list[tuple[str, str]]]]:
    """The file sent back and forth until the battle waits for nobody: of each trip, the side, the actions it took,
    the record's length after it and what the battle waited for then. ``each`` is called before each side opens
    the file; ``words``: as ``chosen``."""
    revealed: set[str] = set()
    side, done = "A", []
    for trip in range(trips):
        each(trip, side)
        acted, waits = one_turn(path, side, disks, revealed, words)
        done.append((side, acted, len(json.loads(path.read_text(encoding="utf-8"))["battle"]["record"]), waits))
        if not waits:
            return done
        assert len({s for s, _ in waits}) == 1 or trip == 0, waits
        side = waits[0][0]
    raise AssertionError(f"the battle did not end in {trips} trips")


def unopened_secrets_in(files: list[str], disks: dict[str, Path], side: str) -> tuple[int, list[str]]:
    """``side``'s secrets kept on its computer (its dice contribution and salt, its cards' salt, each square's salt),
    and those of them found in any of ``files`` (the battle file's texts) before that file's record opened them."""
    battle_id = json.loads(files[0])["battle"]["initial"]["dice_commitments"]["seed"]
    kept = Keeper(side, battle_id, folder=disks[side])
    assert kept.dice is not None and kept.cards is not None
    secrets = {kept.dice[0], kept.dice[1], str(kept.cards["salt"])} | {salt for _, salt in kept.squares.values()}
    leaked = []
    for text in files:
        opened = [json.dumps(e["action"]["args"]) for e in json.loads(text)["battle"]["record"]
                  if e["action"]["kind"] in OPENINGS]
        leaked += [s for s in secrets if s in text and not any(s in args for args in opened)]
    return len(secrets), leaked


MAIL_SEED = 4242


def new_battle(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    path = tmp_path / "battle.json"
    new_mail_battle(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS, path)
    return path, {"A": tmp_path / "a-computer", "B": tmp_path / "b-computer"}


@pytest.fixture
def battle(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    return new_battle(tmp_path)


@pytest.fixture
def same_battle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, Path]]:
    """``battle`` with every draw of both computers made from a seed (``tests/fixed_draws.py``): their dice
    contributions, the seed, the table's fresh entropy, the cards and squares drawn for them and the salts of their
    commitments. The same battle on every run, for a test that needs the battle to come to a given place (the
    unforeseeable dice once took A through five rounds without a trooper free to Target)."""
    monkeypatch.setattr(DICE_DRAWS, seeded_os_draws(MAIL_SEED))
    drawn = random.Random(MAIL_SEED + 1)
    monkeypatch.setattr("referee.net.keeper.secrets", SimpleNamespace(SystemRandom=lambda: drawn))
    monkeypatch.setattr("referee.game.battle.commit.secrets",
                        SimpleNamespace(token_hex=lambda n: drawn.randbytes(n).hex()))
    return new_battle(tmp_path)


def stop_then_withdraw(screen: dict[str, Any]) -> dict[str, Any]:
    """At the end of round 1 the side that speaks first offers to stop; the other Withdraws, which sets the offer
    aside, and the first allows the Withdraw (p.16)."""
    words = screen.get("round_words") or {}
    if words.get("withdraw_asked"):
        return {"answer": "allow"}
    return {"withdraw": screen["seat"]} if words.get("theirs_spoken") else {"stop": True}


def test_a_battle_by_mail_is_played_to_its_score_one_trip_a_die_and_the_file_holds_no_secret(battle):
    path, disks = battle
    files: list[str] = []
    done = play_by_mail(path, disks, each=lambda trip, side: files.append(path.read_text(encoding="utf-8")),
                        words=stop_then_withdraw)
    files.append(path.read_text(encoding="utf-8"))
    final = json.loads(files[-1])["battle"]
    record = final["record"]
    # The words at the end of round 1 went across two trips of the file; the Withdraw allowed ended the battle.
    closing_args = next(e["action"]["args"] for e in record if e["action"]["kind"] == Kind.END_OF_ROUND)
    assert closing_args["answer"] == "allow" and closing_args["withdraw"] in ("A", "B")
    # Scored: both sides opened their squares, cards and dice on their own computers; no breach.
    assert record[-1]["action"]["kind"] in (Kind.CARDS_OPENED, Kind.DICE_OPENED, Kind.CONTENTS, Kind.OBJECTIVES)
    opened = [e["action"]["kind"] for e in record if e["action"]["kind"] in (Kind.DICE_OPENED, Kind.CARDS_OPENED)]
    assert sorted(opened) == sorted([Kind.DICE_OPENED, Kind.DICE_OPENED, Kind.CARDS_OPENED, Kind.CARDS_OPENED])
    turn_a = arrive(path, "", None, {})          # as a spectator would take the file
    state = turn_a.session.state
    assert state.phase == "over" and state.result is not None and state.result.winner in ("A", "B", None)
    assert state.breaches == []
    # Every action with public numbers holds both sides' shares; the blips revealed were opened by their owners'
    # computers, with no trip.
    public = [e for e in record if e.get("shares")]
    assert len(public) >= 5 and all(set(e["shares"]) == {"A", "B"} for e in public)
    assert any(r[1] == "d6" for e in public for r in e["rolls"])
    assert sum(e["action"]["kind"] == Kind.REVEAL for e in record) >= 2
    # A die costs one trip: the file went to the other side for shares once per such action, never twice for one.
    for_shares = [length for _side, _acted, length, waits in done if waits and waits[0][1] == "its part of a roll"]
    assert for_shares and len(for_shares) == len(set(for_shares)) and len(for_shares) <= len(public)
    # Moves that roll nothing go on with no trip: a side's turn of several actions is one trip.
    assert max(acted for _side, acted, _length, _waits in done) >= 5
    # Nothing of either side's secrets was in any file before that file's own record opened it (its contribution,
    # its cards' salt, each square's salt), though the file was in the other player's hands every trip.
    for side in ("A", "B"):
        secrets, leaked = unopened_secrets_in(files, disks, side)
        assert secrets >= 7 and leaked == [], side
    assert any(e["action"]["kind"] == Kind.DICE_OPENED for e in record)      # at the end each side opens them all


def on_then_defender_withdraws(screen: dict[str, Any]) -> dict[str, Any]:
    """Both play on at the end of round 1; at the end of round 2 the defender Withdraws and the attacker allows it
    (p.16), whichever speaks first."""
    if screen["view"]["round"] < 2:
        return {}
    if (screen.get("round_words") or {}).get("withdraw_asked"):
        return {"answer": "allow"}
    return {} if screen["seat"] == screen["view"]["attacker"] else {"withdraw": screen["seat"]}


def test_a_file_changed_on_the_way_is_refused_and_the_right_one_still_opens(battle, tmp_path):
    path, disks = battle
    # Played until A has taken an action that waits for B's shares of a die (one of set-up's rolls), a few
    # actions in.
    revealed: set[str] = set()
    side, waits = "A", []
    for _ in range(20):
        _acted, waits = one_turn(path, side, disks, revealed)
        if waits == [("B", "its part of a roll")] and side == "A" and \
                len(json.loads(path.read_text(encoding="utf-8"))["battle"]["record"]) >= 3:
            break
        side = waits[0][0]
    assert waits == [("B", "its part of a roll")]
    sent = path.read_text(encoding="utf-8")
    good = json.loads(sent)
    assert good["waiting"]["seat"] == "A"
    # A's window, opened on the file again, says where the file goes; opening it changed nothing.
    turn = MailTurn(path, "A", folder=disks["A"])
    seat = RemoteSeat(turn.link, kept_folder=disks["A"])
    window = RemoteBattle(seat)
    try:
        # A's own part of the roll is never taken from a file: A's computer sends it again, then the die waits for B.
        seat.wait_for(lambda screen: (screen.get("dice_asked") or {}).get("side") == "B")
        assert window.mail_word() == ("The dice wait for side B's part by e-mail: close this window and send "
                                      "battle.json to side B")
    finally:
        window.close()
        turn.close()
    again = json.loads(path.read_text(encoding="utf-8"))
    assert again["battle"]["record"] == good["battle"]["record"] and again["waiting"] == good["waiting"]
    seen_a = read_seen(seen_path(disks["A"], good["battle"]["initial"]["dice_commitments"]["seed"], "A"))
    # B's computer resolves A's action, then B sends the file back; A's computer checks it.
    one_turn(path, "B", disks, revealed)
    back = json.loads(path.read_text(encoding="utf-8"))
    at = len(good["battle"]["record"])
    assert len(back["battle"]["record"]) >= at + 1
    rolled = back["battle"]["record"][at]
    assert rolled["action"]["kind"] == good["waiting"]["action"]["kind"] and set(rolled["shares"]) == {"A", "B"}

    def changed_back(change) -> Path:
        doc = json.loads(json.dumps(back))
        change(doc)
        out = tmp_path / "back.json"
        out.write_text(json.dumps(doc), encoding="utf-8")
        return out

    def a_die_changed(doc):
        # Another face, or another of a draw's options: a draw that gave its first option gets the second (writing
        # the first over it changed nothing, and the file was taken as sent whenever the draw gave that).
        roll = doc["battle"]["record"][at]["rolls"][0]
        roll[2] = roll[2] % 6 + 1 if roll[1] == "d6" else (1 if roll[2] == 0 else 0)

    def as_shares_changed(doc):
        doc["battle"]["record"][at]["shares"]["A"][0] = "0" * 16

    def another_action(doc):
        doc["battle"]["record"] = doc["battle"]["record"][:at]
        doc["waiting"] = None

    def the_seed_changed(doc):
        doc["battle"]["dice"]["seed"] += 1

    def a_past_action_changed(doc):
        doc["battle"]["record"][0]["rolls"][0][2] = doc["battle"]["record"][0]["rolls"][0][2] % 6 + 1

    keeper = Keeper("A", good["battle"]["initial"]["dice_commitments"]["seed"], folder=disks["A"])
    assert keeper.dice is not None
    value = keeper.dice[0]
    for change, words in ((a_die_changed, "do not follow"), (as_shares_changed, "side A's dice shares"),
                          (another_action, "left waiting"), (a_past_action_changed, "differs from the one"),
                          (the_seed_changed, "seed is not the one committed")):
        with pytest.raises(InputError) as refused:
            arrive(changed_back(change), "A", value, seen_a)
        assert words in refused.value.message(), (change.__name__, refused.value.message())
    # An older file than A last wrote (A's own file before its last action) is refused too.
    older = json.loads(sent)
    older["battle"]["record"] = older["battle"]["record"][:-1]
    older["waiting"] = None
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps(older), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        arrive(stale, "A", value, seen_a)
    assert "older file" in refused.value.message() or "left waiting" in refused.value.message()
    # The file B really sent opens, and plays on.
    assert arrive(path, "A", value, seen_a).session.actions_taken() == len(back["battle"]["record"])
    # Opened on B's computer as side A, it is refused: A's contribution is not there.
    with pytest.raises(InputError) as refused:
        MailTurn(path, "A", folder=disks["B"])
    assert "not on this computer" in refused.value.message()


def test_mail_new_and_status_say_whom_the_file_goes_to(tmp_path, capsys):
    out = tmp_path / "battle.json"
    assert main(["mail", "new", "pastoral-hills", "--factions", "council-of-zane,new-tokyo", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"Wrote {out}" in said and "seven-seconds mail play" in said
    # Both sides' computers commit to their dice first: either may open the file first.
    assert "waits for side A: its sealed part of the dice" in said
    assert "waits for side B: its sealed part of the dice" in said
    assert main(["mail", "new", "pastoral-hills", "--factions", "council-of-zane,new-tokyo", "--out", str(out)]) == 2
    assert "exists" in capsys.readouterr().err
    # A faction this computer does not have: it is asked of the player who has it (the file carries both on).
    assert main(["mail", "new", "pastoral-hills", "--factions", "council-of-zane,their-own", "--out",
                 str(tmp_path / "other.json")]) == 2
    assert "a faction only the other player has: ask them for its file" in capsys.readouterr().err
    assert main(["mail", "status", str(out)]) == 0
    assert "waits for side A" in capsys.readouterr().out
    # Given to the commands that read saves and tables, the file is named for what it is, and checked by validate.
    for command in (["replay", str(out)], ["query", str(out), "sightlines"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "this is a battle played by e-mail" in err and "seven-seconds mail play FILE --side A" in err, err
    assert main(["validate", str(out)]) == 0
    assert f"{out}: valid battle by e-mail" in capsys.readouterr().out
    # Hostile parts of a file are refused, naming the file and the part.
    good = out.read_text(encoding="utf-8")
    for part, value, words in (("shares", {"A": {"x": ["zz"]}}, "shares: expected"),
                               ("waiting", {"seat": "C"}, "waiting: expected"),
                               # An action the engine refuses, left "waiting" (it was dropped without a word).
                               ("waiting", {"seat": "A", "action": {"kind": "end-turn", "actor": "", "args": {}},
                                            "given": []}, "waiting: the action side A's computer left waiting "
                                                          "(end-turn) is refused here"),
                               ("words", {"A": "never"}, "words: expected"),
                               ("factions", {"council-of-zane": "strong"}, "factions: expected")):
        doc = json.loads(good)
        doc[part] = value
        if part == "shares":
            doc["waiting"] = {"seat": "B", "action": {"kind": "roll-roles", "actor": "", "args": {}}, "given": []}
        out.write_text(json.dumps(doc), encoding="utf-8")
        assert main(["mail", "status", str(out)]) == 2
        err = capsys.readouterr().err
        assert str(out) in err and words in err, err
    out.write_text(good, encoding="utf-8")
    # A battle save of the window is not a battle by e-mail: refused, naming the file and what was expected.
    doc = json.loads(out.read_text(encoding="utf-8"))
    out.write_text(json.dumps(doc["battle"]), encoding="utf-8")
    assert main(["mail", "status", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(out) in err and "expected a battle played by e-mail" in err


def test_an_action_made_for_a_side_on_the_other_sides_computer_is_refused_and_a_stop_mid_write_is_not(battle):
    path, disks = battle
    revealed: set[str] = set()
    side, waits = "A", [("A", "its move")]
    for _ in range(40):                      # on to round 1, when A has moves to make that roll no die
        if side == "A" and waits == [("A", "its move")] and arrive(path, "", None, {}).session.state.phase == "action":
            break
        _acted, waits = one_turn(path, side, disks, revealed)
        side = waits[0][0]
    assert side == "A" and waits == [("A", "its move")]
    battle_id = json.loads(path.read_text(encoding="utf-8"))["battle"]["initial"]["dice_commitments"]["seed"]
    honest = path.read_text(encoding="utf-8")
    seen_before = seen_path(disks["A"], battle_id, "A").read_text(encoding="utf-8")
    # B, at its own computer, opens A's seat on the host it serves and makes a move for A.
    turn = MailTurn(path, "B", folder=disks["B"])
    forger = RemoteSeat(turn.link.replace(turn.host.credentials.tokens["B"], turn.host.credentials.tokens["A"]),
                        kept_folder=disks["B"] / "as-a")
    try:
        forged = next_action(fresh(forger))
        assert forged is not None and forger.send({"kind": "action", "action": forged})["ok"]
    finally:
        forger.close()
        turn.close()
    with pytest.raises(InputError) as refused:
        MailTurn(path, "A", folder=disks["A"])
    assert "an action of side A that side A's computer never sent" in refused.value.message()
    # B's computer writes into the file an action of A's waiting for dice, or a word of A's at the end of the round.
    honest_doc = json.loads(honest)
    for forged_part, words in ((lambda doc: doc.update(waiting={"seat": "A", "action": forged, "given": []}),
                                "waiting: an action of side A that side A's computer never sent"),
                               (lambda doc: doc.update(words={"A": "stop"}), "words: side A's word")):
        doc = json.loads(honest)
        forged_part(doc)
        path.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(InputError) as refused:
            MailTurn(path, "A", folder=disks["A"])
        assert words in refused.value.message()
    # The honest file plays on: A takes its turn.
    assert honest_doc["waiting"] is None and "words" not in honest_doc
    path.write_text(honest, encoding="utf-8")
    _acted, waits = one_turn(path, "A", disks, revealed)
    assert waits and waits[0][0] == "B"
    after = seen_path(disks["A"], battle_id, "A").read_text(encoding="utf-8")
    # A stop between A's writes: the note of what it was writing is there, the note that it wrote it is not. The file
    # is A's own and opens; with neither note, the same file would be refused.
    seen_path(disks["A"], battle_id, "A").write_text(json.dumps({**json.loads(seen_before), "next": json.loads(after)}),
                                                     encoding="utf-8")
    MailTurn(path, "A", folder=disks["A"]).close()
    seen_path(disks["A"], battle_id, "A").write_text(seen_before, encoding="utf-8")
    with pytest.raises(InputError) as refused:
        MailTurn(path, "A", folder=disks["A"])
    assert "never sent" in refused.value.message()


def to_a_move_in_round_1(path: Path, disks: dict[str, Path], revealed: set[str]) -> None:
    """The file sent back and forth until round 1 waits for A's move."""
    side, waits = "A", [("A", "its move")]
    for _ in range(40):
        if side == "A" and waits == [("A", "its move")] and arrive(path, "", None, {}).session.state.phase == "action":
            return
        _acted, waits = one_turn(path, side, disks, revealed)
        side = waits[0][0]
    raise AssertionError("round 1 never waited for A's move")


def a_turn(path: Path, disks: dict[str, Path], play: Any) -> tuple[Any, list[tuple[str, str]]]:
    """A opens the file on its own computer and ``play(turn, seat, window)`` plays; what it gives, and what the
    battle waits for once A's window is closed."""
    turn = MailTurn(path, "A", folder=disks["A"])
    seat = RemoteSeat(turn.link, kept_folder=disks["A"], keeper=turn.keeper)
    window = RemoteBattle(seat)
    try:
        out = play(turn, seat, window)
        assert seat.keeper is not None and not seat.keeper.problems
    finally:
        window.close()
        turn.close()
    return out, turn.waits


def ask(turn: MailTurn, seat: RemoteSeat, window: RemoteBattle) -> tuple[str, int]:
    """A asks to take back its last action: the ask waits for B (the window says to send the file); its words and
    the record's length."""
    reply = seat.send({"kind": "undo"})
    assert reply["ok"] and reply["result"]["asked"] == "B", reply
    what = reply["result"]["what"]
    seat.wait_for(lambda screen: screen.get("take_back") is not None)
    assert window.mail_word() == (f"Your take-back of {what} waits for side B's consent by e-mail: close this window "
                                  f"and send battle.json to side B")
    assert turn.waits_for() == [("B", f"its word on side A's take-back of {what}")]
    with turn.host.lock:
        return what, turn.session.actions_taken()


def reveal_and_ask_back(path: Path, disks: dict[str, Path]) -> tuple[str, str, int]:
    """A reveals a blip (activated first, unless it is already) and asks to take the reveal back: the blip, the
    take-back's words and the record's length; the ask waits in the file for B."""
    def play(turn: MailTurn, seat: RemoteSeat, window: RemoteBattle) -> tuple[str, str, int]:
        legal = fresh(seat)["legal"]
        blip = next((a["actor"] for a in legal if a["kind"] == Kind.REVEAL), None)
        if blip is None:
            blip = next(a["actor"] for a in legal if a["kind"] == Kind.ACTIVATE and "blip" in a["actor"])
            assert seat.act(Kind.ACTIVATE, blip)["ok"]
        assert seat.act(Kind.REVEAL, blip)["ok"]
        settle(turn, "A")
        return (blip, *ask(turn, seat, window))

    (blip, what, at), _waits = a_turn(path, disks, play)
    assert what == f"reveal {blip}"
    asked = json.loads(path.read_text(encoding="utf-8"))["take_back"]
    assert asked["asker"] == "A" and asked["what"] == what and asked["at"] == at and "revealed" in asked["why"]
    return blip, what, at


def a_targets(path: Path, disks: dict[str, Path], dice: int, aim: list[str],
              revealed: set[str]) -> tuple[bool, list[tuple[str, str]]]:
    """A plays its turn as ``one_turn`` does until a trooper of its may Target: it puts Target counters with ``dice``
    dice on the ground it stands on (kept in ``aim`` for the next time). Whether it did (else its turn ended first),
    and what the battle waits for then (a roll waits for B's part of it)."""
    def play(turn: MailTurn, seat: RemoteSeat, window: RemoteBattle) -> bool:
        for _ in range(300):
            if settle(turn, "A").get("A") not in MOVES:
                return False
            screen = fresh(seat)
            target = next((a for a in screen["legal"] if a["kind"] == Kind.TARGET), None)
            if target is not None:
                # The ground the trooper stands on (A54): no blip there to reveal, whose owner's opening would
                # follow; as many counters as the roll pays for (up to one), so the roll never refuses the action.
                unit = next(u for u in screen["view"]["units"] if u["id"] == target["actor"])
                if not aim:
                    aim.append(f"{unit['x']:g},{unit['y']:g}")
                action = {"kind": Kind.TARGET, "actor": target["actor"],
                          "args": {"dice": dice, "assign": {aim[0]: 1}, "up_to": True}}
            else:
                # A trooper on the table is activated first, and an activated blip revealed; else the turn goes on
                # as ``one_turn`` plays it.
                trooper = next((a for a in screen["legal"] if (a["kind"] == Kind.ACTIVATE and "blip" not in a["actor"]
                                                               and "drone" not in a["actor"])
                                or a["kind"] == Kind.REVEAL), None)
                with turn.host.lock:
                    phase = turn.session.state.phase
                action = ({"kind": trooper["kind"], "actor": trooper["actor"], "args": dict(trooper["args"])}
                          if trooper is not None else chosen(screen, phase, revealed, play_on))
            assert action is not None
            reply = seat.send({"kind": "action", "action": action})
            assert reply["ok"], reply
            if target is not None:
                settle(turn, "A")
                return True
        raise AssertionError("A's turn did not end")

    return a_turn(path, disks, play)


def b_resolves(path: Path, disks: dict[str, Path]) -> list[tuple[str, str]]:
    """B opens the file: its computer adds its part of the roll waiting there, and the action is resolved."""
    turn = MailTurn(path, "B", folder=disks["B"])
    seat = RemoteSeat(turn.link, kept_folder=disks["B"], keeper=turn.keeper)
    try:
        settle(turn, "B")
        assert seat.keeper is not None and not seat.keeper.problems, seat.keeper.problems if seat.keeper else None
    finally:
        seat.close()
        turn.close()
    return turn.waits


def answer_take_back(path: Path, disks: dict[str, Path], allow: bool, what: str) -> list[tuple[str, str]]:
    """B opens the file, is asked on its own screen to agree to A's take-back, and answers."""
    turn = MailTurn(path, "B", folder=disks["B"])
    seat = RemoteSeat(turn.link, kept_folder=disks["B"], keeper=turn.keeper)
    try:
        asked = seat.wait_for(lambda screen: screen.get("consent") is not None)["consent"]
        assert asked["from"] == "A" and asked["what"] == what
        reply = seat.send({"kind": "consent", "allow": allow})
        assert reply["ok"], reply
        assert seat.keeper is not None and not seat.keeper.problems
    finally:
        seat.close()
        turn.close()
    return turn.waits


def test_a_take_back_by_mail_goes_in_the_file_to_the_other_side_which_agrees_or_not(battle, tmp_path):
    path, disks = battle
    revealed: set[str] = set()
    to_a_move_in_round_1(path, disks, revealed)
    battle_id = json.loads(path.read_text(encoding="utf-8"))["battle"]["initial"]["dice_commitments"]["seed"]
    blip, what, at = reveal_and_ask_back(path, disks)
    asked_file = path.read_text(encoding="utf-8")
    seen_a = read_seen(seen_path(disks["A"], battle_id, "A"))
    assert seen_a["take_back"]["at"] == at
    # A opens its file again before sending it: the ask still waits for B, and the file is written as it was.
    turn = MailTurn(path, "A", folder=disks["A"])
    try:
        assert turn.waits_for() == [("B", f"its word on side A's take-back of {what}")]
    finally:
        turn.close()
    assert json.loads(path.read_text(encoding="utf-8"))["take_back"] == json.loads(asked_file)["take_back"]
    # An ask of B's, written into the file on its way, is refused by B's computer: B never asked it.
    forged = json.loads(asked_file)
    forged["take_back"] = {**forged["take_back"], "asker": "B"}
    path.write_text(json.dumps(forged), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        MailTurn(path, "B", folder=disks["B"])
    assert "a take-back side B's computer never asked for" in refused.value.message()
    path.write_text(asked_file, encoding="utf-8")
    seen_b = read_seen(seen_path(disks["B"], battle_id, "B"))
    # B agrees: its computer takes the reveal back; the record keeps a note of it in the reveal's place.
    assert answer_take_back(path, disks, True, what) == [("A", "its move")]
    agreed = json.loads(path.read_text(encoding="utf-8"))
    note = agreed["battle"]["record"][at - 1]["action"]
    assert len(agreed["battle"]["record"]) == at and "take_back" not in agreed
    assert note["kind"] == Kind.TAKEN_BACK and note["args"]["side"] == "A" and note["args"]["consent"] == "B"
    # A's computer takes the file: its own reveal is out of the record, the blip stands unrevealed again, A plays on.
    taken = arrive(path, "A", Keeper("A", battle_id, folder=disks["A"]).dice[0], seen_a)
    assert blip in taken.session.state.blips and taken.session.to_act() == "A"
    # Without A's ask remembered, the same file is refused: A's reveal is not where A's computer wrote it.
    with pytest.raises(InputError) as refused:
        arrive(path, "A", None, {**seen_a, "take_back": None})
    assert "differs from the one this computer last wrote" in refused.value.message()
    # A's computer writing B's consent itself (the note in the reveal's place, no ask): B's computer refuses it.
    forged = json.loads(asked_file)
    forged["battle"]["record"][at - 1] = agreed["battle"]["record"][at - 1]
    del forged["take_back"]
    out = tmp_path / "forged.json"
    out.write_text(json.dumps(forged), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        arrive(out, "B", Keeper("B", battle_id, folder=disks["B"]).dice[0], seen_b)
    assert "a take-back side B's computer never asked for or agreed to" in refused.value.message()
    # A reveals again and asks again; B does not agree this time: the reveal stands and A is told.
    blip, what, at = reveal_and_ask_back(path, disks)
    assert answer_take_back(path, disks, False, what) == [("A", "its move")]
    refused_file = json.loads(path.read_text(encoding="utf-8"))
    assert len(refused_file["battle"]["record"]) == at and refused_file["take_back_refused"]["what"] == what
    turn = MailTurn(path, "A", folder=disks["A"])
    seat = RemoteSeat(turn.link, kept_folder=disks["A"], keeper=turn.keeper)
    try:
        screen = fresh(seat)
        assert screen["said"] == f"side B did not agree to take back {what}"
        assert screen["acting"] and turn.waits_for() == [("A", "its move")]
        with turn.host.lock:
            assert blip not in turn.session.state.blips and turn.session.actions_taken() == at
    finally:
        seat.close()
        turn.close()


def test_a_roll_taken_back_by_mail_is_rolled_again_and_an_attacker_in_control_sets_the_objectives(same_battle):
    """Both sides play on at the end of round 1 (its roll made on one computer, with the other's part of it). In round
    2, A's Target rolls with two dice; the roll waits for B's part of it and B's computer resolves it. A asks to take
    the roll back, B agrees, and A Targets with one die instead: both computers give their parts of the dice at that
    place again, for the other action (each kept agreeing to the take-back), and nothing is refused. Then the battle
    ends on the defender's Withdraw."""
    path, disks = same_battle
    revealed: set[str] = set()
    aim: list[str] = []
    side, waits = "A", [("A", "its move")]
    for _trip in range(60):
        state = arrive(path, "", None, {}).session.state
        if side == "A" and waits == [("A", "its move")] and state.phase == "action" and state.round >= 2:
            targeted, waits = a_targets(path, disks, 2, aim, revealed)
            if targeted:
                break
        else:
            _acted, waits = one_turn(path, side, disks, revealed, play_on)
        assert waits, "the battle ended before A could Target"
        side = waits[0][0]
    state = arrive(path, "", None, {}).session.state
    assert waits == [("B", "its part of a roll")], (waits, state.round, state.phase)
    assert b_resolves(path, disks) == [("A", "its move")]
    rolled = json.loads(path.read_text(encoding="utf-8"))["battle"]["record"]
    assert rolled[-1]["action"]["kind"] == Kind.TARGET and set(rolled[-1]["shares"]) == {"A", "B"}
    (what, at), _waits = a_turn(path, disks, ask)
    assert what.startswith("target") and at == len(rolled)
    assert "rolled 2 dice" in json.loads(path.read_text(encoding="utf-8"))["take_back"]["why"]
    assert answer_take_back(path, disks, True, what) == [("A", "its move")]
    assert a_targets(path, disks, 1, aim, revealed) == (True, [("B", "its part of a roll")])
    assert b_resolves(path, disks) == [("A", "its move")]
    record = json.loads(path.read_text(encoding="utf-8"))["battle"]["record"]
    assert record[at - 1]["action"]["kind"] == Kind.TAKEN_BACK and record[at]["action"]["args"]["dice"] == 1
    assert set(record[at]["shares"]) == {"A", "B"} and record[at]["shares"] != rolled[-1]["shares"]
    # At the end of this round the defender Withdraws and the attacker allows it: in Control, the attacker's computer
    # opens its squares and cards (its mission says from how many counters an objective is Inspected, A41) before it
    # sets the objectives, and the battle is scored.
    side = "A"
    for _trip in range(60):
        _acted, waits = one_turn(path, side, disks, revealed, on_then_defender_withdraws)
        if not waits:
            break
        side = waits[0][0]
    record = json.loads(path.read_text(encoding="utf-8"))["battle"]["record"]
    state = arrive(path, "", None, {}).session.state
    assert state.phase == "over" and state.result is not None and state.result.pending is None
    assert state.result.level != "no result" and state.breaches == []
    closing_args = [e["action"]["args"] for e in record if e["action"]["kind"] == Kind.END_OF_ROUND][-1]
    kinds = [(e["action"]["kind"], e["action"]["actor"]) for e in record]
    if state.attacker is not None:
        assert closing_args == {"withdraw": other(state.attacker), "answer": "allow"}
        # The defender's cards, its mission among them, stay shut until the objectives are set.
        chosen_at = kinds.index((Kind.OBJECTIVES, ""))
        assert kinds.index((Kind.CARDS_OPENED, state.attacker)) < chosen_at
        assert kinds.index((Kind.CARDS_OPENED, other(state.attacker))) > chosen_at
    else:
        # A tie of the attacker/defender roll (1 in 6): a Chance Encounter, no attacker; the side that spoke first
        # withdrew, the other allowed it, and there is no objective to set.
        assert closing_args["answer"] == "allow" and (Kind.OBJECTIVES, "") not in kinds


def test_a_unit_revealed_in_the_other_sides_turn_waits_for_its_owner_whose_facing_is_its_own_action():
    """B's Target (or passive sensors) reveals A's trooper in B's turn: its facing and spot are A's to choose (A13,
    A66). The file waits for A alone, B's own actions are refused until A has chosen, and B's computer takes A's
    facing as A's action, made in B's turn (it refused the file as "an action of side B that side B's computer never
    sent", and the battle could not go on)."""
    state = begin_battle(state_from_scenario(load_scenario(SMALL)))
    state.turn.player = "B"
    state.to_face = ["a-tactical-1"]
    session = BattleSession(Game(state), None, hotseat=False, autosaving=False)
    desk = Desk(session)
    before = session.state.to_data()
    refused = desk.apply("B", {"kind": "action", "action": {"kind": Kind.ACTIVATE, "actor": "b-tactical-1"}})
    assert not refused.ok and refused.reason == ("side A first faces and places its units just revealed "
                                                 "(a-tactical-1): their owner chooses [A13, A66]")
    assert session.state.to_data() == before
    assert waits_for(desk) == [("A", OWED)]
    face = Action(Kind.FACE, "a-tactical-1", {"facing": 90.0})
    assert session.to_act() == "B" and acting_side(session, face) == "A"
    assert desk.apply("A", {"kind": "action", "action": face.to_data()}).ok
    assert session.state.units["a-tactical-1"].facing == 90.0 and session.state.to_face == []
    assert waits_for(desk) == [("B", "its move")]
    assert desk.apply("B", {"kind": "action", "action": {"kind": Kind.ACTIVATE, "actor": "b-tactical-1"}}).ok
