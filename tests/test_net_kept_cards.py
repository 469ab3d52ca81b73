"""A side that keeps its secrets on its own computer draws its cards there (``game/battle/kept_cards.py``,
``net/keeper.py``): each number of the draw is the host's part exclusive-or the side's own share, the host holds only
the commitment to the cards (no mission, card or issued unit of that side), and at the end the side opens them with its
dice contribution: the host draws them again, checks the commitment and every holding square opened against the force
they issue, and only then scores the side's mission. A false opening is a breach."""

from __future__ import annotations

import json
from contextlib import nullcontext
import uuid
from types import SimpleNamespace
from typing import Any

import pytest

from referee import paths
from referee.game.battle.action_kinds import Kind
from referee.game.battle.cards import playing_deck
from referee.game.battle.commit import cards_commitment
from referee.game.battle.dice import Contribution, SeededDice, seed_commitment
from referee.game.battle.kept_cards import (KEPT_PARTS, cards_moment, draw_problems, hand_of, offer_of)
from referee.game.battle.missions import inspection_notes, mission_of
from referee.game.battle.scoring import score_mission
from referee.game.battle.state import state_from_scenario
from referee.game.play.corrections import round_limit_breaches
from referee.game.play.engine import Game, begin_battle
from referee.game.play.setup_steps import decision
from referee.game.play.victory import battle_outcome
from referee.game.records.autosave import read_autosave
from referee.net import keeper as keeper_module
from referee.net.client import RemoteSeat
from referee.net.host import Host
from referee.net.keeper import Keeper
from referee.rules.errors import InputError
from referee.rules.scenario import load_scenario
from referee.service.battles import new_session
from referee.service.session import BattleSession

from .test_net_kept import (FACTIONS, PIN, SMALL, fresh, host_files, host_memory, set_up, setup_action, to_the_end,
                            typed_target)
from .test_net_kept import kept as kept  # noqa: F401 (the fixture: a battle served with side B kept)

BATTLES = 40


def result_scored(screen: dict) -> bool:
    """The seat's screen shows the battle's result, scored (not waiting for a side's computer)."""
    return screen["view"]["result"] is not None and screen["view"]["result"]["level"] != "no result"


def host_dice(seed: int = 4711) -> SeededDice:
    """The host's dice of one battle, the same in every run: side A's contribution here, side B's kept elsewhere."""
    contributions = {side: Contribution(side, side.lower() * 64, side.lower() * 32) for side in ("A", "B")}
    commitments = {side: c.commitment for side, c in contributions.items()}
    commitments["seed"] = seed_commitment(seed, seed + 1)
    dice = SeededDice(seed, secret_salt=seed + 1, contributions=contributions, commitments=commitments)
    assert dice.keep("B")
    return dice


def a_draw(dice: SeededDice, streak: int = 0, kind: str = "offence") -> dict[str, Any]:
    """The public part of B's card draw as the host sends it (``setup_steps.kept_draw``)."""
    deck = playing_deck()
    return {"moment": cards_moment("B"), "parts": dice.host_parts("B", cards_moment("B"), KEPT_PARTS),
            "streak": streak, "kind": kind, "missions": [c.id for c in deck.missions(kind)],
            "troops": [c.id for c in deck.troop_cards], "drones": [c.id for c in deck.drone_cards]}


def contribution(n: int) -> str:
    return f"{n:064x}"


# ---- the draw: neither computer steers it ----------------------------------------------------------------------


def test_the_kept_sides_cards_depend_on_its_contribution_and_on_the_hosts_part():
    draw = a_draw(host_dice())
    assert draw_problems(draw) == []
    # The host's parts are fixed by what it committed to: the same battle gives the same parts, another seed others.
    assert a_draw(host_dice())["parts"] == draw["parts"]
    offers = [offer_of(draw, "B", contribution(n)) for n in range(BATTLES)]
    pairs = list(zip(offers, offers[1:]))
    differ = sum(1 for x, y in pairs if x != y)
    assert differ >= 30, f"two contributions, the same host: {differ} of {len(pairs)} draws differ"
    # The same contribution with another host's parts (another battle's seed): other cards in most battles.
    others = [offer_of(a_draw(host_dice(5000 + n)), "B", contribution(7)) for n in range(BATTLES)]
    same = offer_of(draw, "B", contribution(7))
    assert sum(1 for o in others if o != same) >= 30
    # Every card of the deck comes up: the draw reaches the whole deck.
    assert {o.missions[0] for o in offers + others} == set(draw["missions"])


def test_a_streaks_choice_and_a_purchase_are_the_sides_own_and_checked_against_the_draw(tmp_path):
    draw = a_draw(host_dice(), streak=3)
    value = contribution(3)
    offer = offer_of(draw, "B", value)
    assert len(offer.missions) == 2 and len(offer.troops) == 2, offer      # A47: an extra Troop and Mission card
    keeper = Keeper("B", "c" * 64, pin=PIN, folder=tmp_path)
    keeper.dice = (value, "d" * 32)
    args = keeper.draw_cards({"draw_cards_asked": draw}, {"mission": offer.missions[1], "troop": offer.troops[0]})
    assert args["draw"] == draw and keeper.cards is not None
    cards = keeper.cards
    assert (cards["mission"], cards["troop"], cards["drone"]) == (offer.missions[1], offer.troops[0], offer.drone)
    assert args["committed"] == cards_commitment("c" * 64, "B", cards["mission"], cards["troop"], cards["drone"],
                                                 cards["drone_line"], None, cards["salt"])
    # The host's check at the end: the cards chosen among those drawn are accepted; any other card is not.
    deck = playing_deck()
    assert hand_of(deck, "B", offer, offer.missions[0], offer.troops[1], None, chance_encounter=False).issued
    other_mission = next(m for m in draw["missions"] if m not in offer.missions)
    with pytest.raises(ValueError, match="not a mission card the draw gave"):
        hand_of(deck, "B", offer, other_mission, offer.troops[0], None, chance_encounter=False)
    with pytest.raises(InputError, match="not a troop card the draw gave"):
        keeper.draw_cards({"draw_cards_asked": draw}, {"troop": next(t for t in draw["troops"]
                                                                      if t not in offer.troops)})
    # A host that leaves cards out of the draw (to choose B's mission among the rest) is refused by B's computer, as
    # is a draw of another kind of mission or streak than the battle's.
    for narrowed in ({**draw, "missions": draw["missions"][:1]}, {**draw, "drones": draw["drones"][::-1]}):
        with pytest.raises(InputError, match="other cards than this computer's deck"):
            keeper.draw_cards({"draw_cards_asked": narrowed}, {})
    view = {"mode": "attack-defence", "attacker": "A", "setup": {"streak": {"B": 3}}}
    with pytest.raises(InputError, match="this battle gives side B defence missions at streak 3"):
        keeper.draw_cards({"draw_cards_asked": draw, "view": view}, {})
    # A Chance Encounter's purchase is B's too, and its commitment covers it.
    encounter = a_draw(host_dice(), kind="chance-encounter")
    bought = keeper.draw_cards({"draw_cards_asked": encounter}, {"purchase": {}})
    assert keeper.cards["purchase"] == {} and keeper.cards["issued"]
    assert bought["committed"] != cards_commitment("c" * 64, "B", keeper.cards["mission"], keeper.cards["troop"],
                                                   keeper.cards["drone"], keeper.cards["drone_line"], None,
                                                   keeper.cards["salt"])
    # Kept in B's sealed file: read back with its PIN, no card in clear.
    again = Keeper("B", "c" * 64, pin=PIN, folder=tmp_path)
    assert again.cards == keeper.cards
    text = "\n".join(p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file())
    assert keeper.cards["salt"] not in text and keeper.cards["mission"] not in text


# ---- over the real host ------------------------------------------------------------------------------------------


def own_secrets(keeper: Keeper) -> list[str]:
    """What of B's cards the host must never hold before they are opened: their salt and the units they issue."""
    cards = keeper.cards
    assert cards is not None
    return [cards["salt"], json.dumps(cards["issued"], sort_keys=True)] + [u["id"] for u in cards["issued"]]


def test_the_host_holds_none_of_the_kept_sides_cards_and_its_own_screen_shows_them(kept):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), answers=False, pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    keeper = b.keeper
    assert keeper is not None and keeper.cards is not None and keeper.dice is not None
    cards = keeper.cards
    with host.lock:
        state, initial = session.state, session.game.initial
        assert "B" not in state.missions and "B" not in state.cards and "A" in state.missions
        assert state.issued_kept["B"] == []                  # the host knows no unit B's cards issued
        kept_cards = state.card_commitments["B"]
        assert kept_cards["committed"] == cards_commitment(keeper.battle, "B", cards["mission"], cards["troop"],
                                                           cards["drone"], cards["drone_line"], cards["purchase"],
                                                           cards["salt"])
        draws = [e.action for e in session.game.record if e.action.kind == Kind.DRAW_CARDS and e.action.actor == "B"]
        assert len(draws) == 1 and sorted(draws[0].args) == ["committed", "draw"]
        assert not any(e.action.kind == Kind.CHOOSE_CARDS for e in session.game.record)
        private_b = [note for e in state.log for side, note in e.private.items() if side == "B"]
        memory = host_memory(session, host) + repr(initial)
    # The cards B's computer drew are the ones the draw gives from its contribution and the host's parts.
    offer = offer_of(kept_cards["draw"], "B", keeper.dice[0])
    assert (cards["mission"], cards["troop"], cards["drone"]) == (offer.missions[0], offer.troops[0], offer.drone)
    deck = playing_deck()
    titles = [deck.mission(cards["mission"]).title, deck.troop(cards["troop"]).title]
    assert not [t for t in titles for note in private_b if t in note]
    # Neither the host's memory nor any file it wrote holds B's cards' salt or a unit they issued.
    # (The battle's own files: the autosave, its journal, the intents ledger, the seats. A unit's id names no battle:
    # the program's caches of other battles hold the same ids.)
    disk = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in host_files()
                     if b_disk not in p.parents and p.suffix in (".json", ".journal", ".intents", ".seats", ""))
    assert not [s for s in own_secrets(keeper) if s in memory or s in disk]
    loaded = read_autosave(next(p for p in host_files() if p.name == "autosave.json"))
    assert "B" not in loaded.game.state.missions and "B" not in loaded.game.state.cards
    # B's own screen shows its cards, drawn on its computer (the host's screen has none of them).
    screen = b.wait_for(lambda s: (s["view"].get("missions") or {}).get("B") is not None)
    shown = screen["view"]
    assert shown["missions"]["B"] == cards["mission"] and shown["cards"]["B"]["troop"] == cards["troop"]
    assert screen["cards_text"][cards["mission"]]["title"] == titles[0]       # its words, round limit with them
    assert seats["B"].ask("screen")["result"]["screen"]["view"]["missions"].get("B") is None


def test_a_whole_kept_battle_scores_the_kept_sides_mission_from_its_opened_cards(kept):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    b.wait_for(lambda s: result_scored(s) and "open_dice" not in s and "open_cards" not in s)
    cards = b.keeper.cards
    with host.lock:
        state = session.state
        result = state.result
        opened = [e.action for e in session.game.record if e.action.kind == Kind.CARDS_OPENED]
        # B's mission as B's computer drew it, scored on the battle's outcome as any mission is.
        mission = mission_of(state, "B")
        want = score_mission(mission, "B", battle_outcome(state)).vp
    assert len(opened) == 1 and opened[0].args["mission"] == cards["mission"]
    assert state.missions["B"] == cards["mission"] and state.cards["B"].troop == cards["troop"]
    assert state.cards["B"].drone_line == cards["drone_line"] and state.card_commitments["B"]["checked"]
    assert sorted(u["id"] for u in state.card_commitments["B"]["opened"]) == sorted(
        u["id"] for u in cards["issued"])
    assert result.vp["B"] == want and not state.breaches and not b.refusals, (state.breaches, b.refusals)
    assert not any(line.startswith("BREACH") for line in result.explain)
    loaded = read_autosave(next(p for p in host_files() if p.name == "autosave.json"))
    with host.lock:
        assert loaded.game.state.to_data() == session.state.to_data()


def scored_battle(session: BattleSession, host: Host, seats: dict[str, RemoteSeat], b_disk) -> RemoteSeat:
    """B joined from its computer, set up from both seats and played to the end of round 1, then scored: B's seat."""
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    b.wait_for(result_scored)
    return b


def another(ids: list[str], but: str) -> str:
    return next(i for i in ids if i != but)


LIES = {
    "another mission": lambda answer, draw: {**answer, "mission": another(draw["missions"], answer["mission"])},
    "another troop card": lambda answer, draw: {**answer, "troop": another(draw["troops"], answer["troop"])},
    "another salt": lambda answer, draw: {**answer, "salt": "e" * 64},
}


@pytest.mark.parametrize("lie", sorted(LIES))
def test_a_false_opening_of_the_kept_sides_cards_is_a_breach_and_its_mission_is_not_scored(kept, monkeypatch, lie):
    session, host, seats, b_disk = kept
    true_answer = keeper_module.Keeper.cards_answer

    def false_answer(self, screen):
        answer = true_answer(self, screen)
        return None if answer is None else LIES[lie](answer, screen["view"]["card_commitments"]["B"]["draw"])

    monkeypatch.setattr(keeper_module.Keeper, "cards_answer", false_answer)
    scored_battle(session, host, seats, b_disk)
    with host.lock:
        state = session.state
        breaches, explain, vp = list(state.breaches), list(state.result.explain), dict(state.result.vp)
    assert len(breaches) == 1 and breaches[0].startswith("BREACH: side B's computer opened cards"), breaches
    assert breaches[0] in explain and vp["B"] == 0 and "B" not in state.missions
    assert breaches[0] in json.dumps(seats["A"].ask("report")["result"]["report"])
    loaded = read_autosave(next(p for p in host_files() if p.name == "autosave.json"))
    assert loaded.game.state.breaches == breaches


def test_a_holding_square_that_does_not_match_the_force_is_a_breach_when_the_cards_are_opened(kept, monkeypatch):
    session, host, seats, b_disk = kept
    real = keeper_module.Keeper.draw_cards
    changed: dict[str, str] = {}

    def draw_cards(self, screen, args):
        # A client that commits its cards truly but puts a unit of another rating into its holding area: the host
        # cannot tell at a reveal (a known rating), only once the cards are opened.
        sent = real(self, screen, args)
        unit = self.cards["issued"][0]
        changed.update(id=unit["id"], rating=unit["rating"])
        unit["rating"] = "spec-ops" if unit["rating"] != "spec-ops" else "reserve"
        return sent

    monkeypatch.setattr(keeper_module.Keeper, "draw_cards", draw_cards)
    b = scored_battle(session, host, seats, b_disk)
    with host.lock:
        breaches = list(session.state.breaches)
        scored = session.state.missions.get("B")
    # Two breaches: the unit as opened is not one the cards issued, and the unit they issued is in no square.
    assert len(breaches) == 2 and f"held {changed['id']} (" in breaches[0], breaches
    assert f"held no square for {changed['id']}" in breaches[1]
    assert scored == b.keeper.cards["mission"]              # the cards are true: the mission is scored


def test_the_kept_sides_computer_says_its_own_round_limit_and_a_false_word_is_a_breach(kept):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    # A client that says its mission ends the battle after round 1: no mission of the deck does (A43).
    b.keeper.cards["round_limit"] = 1
    to_the_end(session, host, seats)
    b.wait_for(result_scored)
    with host.lock:
        ends = [e.action.args for e in session.game.record if e.action.kind == Kind.END_OF_ROUND]
        breaches = list(session.state.breaches)
        scored = session.state.missions.get("B")
    assert ends and ends[-1].get("limit") == "B", ends
    assert [line for line in breaches if "round limit was reached after round 1" in line] == breaches, breaches
    assert len(breaches) == 1 and scored == b.keeper.cards["mission"]


def test_a_round_limit_not_said_is_a_breach_once_the_battle_went_past_it():
    past, on_time = SimpleNamespace(round=7), SimpleNamespace(round=6)
    assert round_limit_breaches(past, "B", {}, 6) == [
        "BREACH: side B's computer did not say its mission's round limit of 6 was reached: the battle went on to "
        "round 7 [A43]"]
    assert round_limit_breaches(on_time, "B", {}, 6) == []
    assert round_limit_breaches(on_time, "B", {"limit_said": 6}, 6) == []
    assert round_limit_breaches(on_time, "B", {"limit_said": 3}, None)[0].endswith(
        "its mission has no round limit: the battle was ended early [A43]")


def test_the_host_refuses_the_kept_sides_cards_sent_plainly_or_drawn_from_other_parts(kept):
    session, host, seats, b_disk = kept
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    for _ in range(200):
        with host.lock:
            d = decision(session.state)
            side = session.to_act()
        if d is not None and (d["step"], d["side"]) == ("cards", "B"):
            break
        assert side is not None
        assert seats[side].send({"kind": "action", "action": setup_action(fresh(seats[side]))})["ok"]
    asked = fresh(b)["draw_cards_asked"]
    assert "draw_cards_asked" not in fresh(seats["A"])        # B's seat alone is sent the host's parts

    def raw(args: dict[str, Any]) -> dict[str, Any]:
        # Past B's keeper, as a client that does not keep its side's cards would send them.
        intent = {"kind": "action", "action": {"kind": Kind.DRAW_CARDS, "actor": "B", "args": args}}
        return b._request({"type": "intent", "id": uuid.uuid4().hex, "intent": intent}, 10.0)

    plain = raw({})
    assert not plain["ok"] and "draws its cards there" in plain["reason"]
    other = raw({"committed": "a" * 64, "draw": {**asked, "parts": ["0" * 16] * KEPT_PARTS}})
    assert not other["ok"] and "not the one the host asked" in other["reason"]
    with host.lock:
        assert "B" not in session.state.card_commitments and decision(session.state)["side"] == "B"
    assert b.send({"kind": "action", "action": {"kind": Kind.DRAW_CARDS, "actor": "B", "args": {}}})["ok"]
    with host.lock:
        assert session.state.card_commitments["B"]["draw"] == asked and "B" not in session.state.missions


def test_a_campaign_streaks_extra_cards_are_drawn_and_chosen_on_the_kept_sides_computer(tmp_path):
    session = new_session(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS, {"B": 3})
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",), rate=1000.0, burst=1000.0)
    seats = {"A": RemoteSeat(host.link("A")),
             "B": RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=tmp_path / "b-computer")}
    try:
        set_up(session, host, seats)
        keeper = seats["B"].keeper
        with host.lock:
            draw = session.state.card_commitments["B"]["draw"]
            assert not any(e.action.kind == Kind.CHOOSE_CARDS for e in session.game.record)
        offer = offer_of(draw, "B", keeper.dice[0])
        assert draw["streak"] == 3 and len(offer.missions) == 2 and len(offer.troops) == 2     # A47
        assert keeper.cards["mission"] in offer.missions and keeper.cards["troop"] in offer.troops
        to_the_end(session, host, seats)
        seats["B"].wait_for(lambda s: result_scored(s) and "open_cards" not in s)
        with host.lock:
            assert session.state.missions["B"] == keeper.cards["mission"] and not session.state.breaches
            assert session.state.cards["B"].troop == keeper.cards["troop"]
    finally:
        for seat in seats.values():
            seat.close()
        host.stop()


def test_a_kept_side_whose_computer_goes_away_without_opening_its_cards_may_be_claimed(kept, monkeypatch):
    session, host, seats, b_disk = kept
    # B's client opens its squares but never its cards: the result waits for them, and for B's computer.
    monkeypatch.setattr(keeper_module.Keeper, "cards_answer", lambda self, screen: None)
    seats["B"] = b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    a = seats["A"]
    screen = a.wait_for(lambda s: s.get("cards_unopened") == ["B"] and not (s.get("squares_hidden") or {}).get("B"))
    assert screen["waits_for_computer"] == {"side": "B", "away": False} and "open_cards" not in screen
    assert "open_cards" in fresh(b)
    with host.lock:
        assert session.state.result.level == "no result" and "cards still kept" in session.state.result.headline
        assert session.scored_when_opened()
    b.close()
    a.wait_for(lambda s: (s.get("waits_for_computer") or {}).get("away") is True)
    with host.lock:
        host.desk.away_limit = 0.0           # as though B had been away long enough
    done = a.send({"kind": Kind.FORFEIT})
    assert done["ok"], done
    with host.lock:
        result = session.state.result
        assert not session.scored_when_opened() and session.cards_to_open(every=True) == []
        assert "B" not in session.state.missions          # nothing of B's cards was decided for it
    assert result.level == "forfeited" and result.winner == "A"


# ---- its own mission's word on an objective's Target counters (A41), said on its own computer -----------------


def kept_mission(keeper: Keeper, mission: str) -> None:
    """B's cards drawn on its computer as at set-up, from the first contribution whose draw gives ``mission``."""
    draw = a_draw(host_dice(), kind="defence")
    value = next(contribution(n) for n in range(400) if offer_of(draw, "B", contribution(n)).missions == (mission,))
    keeper.dice = (value, "d" * 32)
    keeper.draw_cards({"draw_cards_asked": draw}, {})
    assert keeper.cards is not None and keeper.cards["mission"] == mission


def small_kept_battle(a_mission: str | None = None) -> BattleSession:
    """The small table in round 1, side B kept, physical dice typed on the seat that rolls: objective delta has 7
    Target counters, 3 short of the 10 Counter-Intelligence counts it Inspected from (8 for Eyes On)."""
    state = begin_battle(state_from_scenario(load_scenario(SMALL)))
    state.dice_commitments = {"seed": seed_commitment(4711, 4712)}
    state.objectives["delta"].target_counters = 7
    if a_mission is not None:
        state.missions["A"] = a_mission
    return BattleSession(Game(state), None, hotseat=False, autosaving=False)


def target_delta(a: RemoteSeat) -> None:
    """A's a-tactical-1 puts 3 Target counters on delta (its sensor dice typed: three 6s, pool 18)."""
    reply = typed_target(a, "a-tactical-1", "delta")
    assert reply["ok"] and "3 Target counters on delta at 4 each: 12 points" in reply["result"]["events"], reply


def the_hosts_words(mission: str, side: str) -> str:
    """What the host says to ``side`` when it holds ``mission`` and delta goes from 7 to 10 counters."""
    state = state_from_scenario(load_scenario(SMALL))
    state.missions[side] = mission
    return inspection_notes(state, "delta", 7, 10)[side]


def notes_of(screen: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["text"], e["note"]) for e in screen["view"]["log"] if e.get("note")]


def test_the_kept_sides_computer_says_its_mission_counts_an_objective_inspected_and_the_host_learns_nothing(
        tmp_path, monkeypatch):
    session = small_kept_battle()
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",))
    a = RemoteSeat(host.link("A"))
    b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=tmp_path / "b-computer")
    watchers = {seat: RemoteSeat(host.link(seat)) for seat in ("spectator", "referee")}
    sent: list[str | bytes] = []
    try:
        keeper = b.kept()
        assert keeper is not None
        kept_mission(keeper, "counter-intelligence")
        send_raw = b.send_raw
        monkeypatch.setattr(b, "send_raw", lambda text: (sent.append(text), send_raw(text))[1])
        target_delta(a)
        words = the_hosts_words("counter-intelligence", "B")
        assert "Counter-Intelligence" in words and "from 10" in words
        # B's own log: the host's words for a side whose mission it knows, on the entry that put the counters on.
        shown = b.wait_for(lambda s: bool(notes_of(s)))
        assert notes_of(shown) == [("3 Target counters on delta at 4 each: 12 points", words)]
        b.wait_version(host.version)
        assert notes_of(b.screen) == [("3 Target counters on delta at 4 each: 12 points", words)]
        # Nothing went to the host: B's computer sent no message at all while A targeted and it made its word.
        assert sent == []
        # The host's state, record and desk, and every screen it serves (B's own too, before B's computer adds to
        # it), hold nothing of it: no note for B, neither the words nor B's mission.
        with host.lock:
            assert not [e for e in session.state.log if "B" in e.private]
            memory = host_memory(session, host)
        # (Every seat's screen as the host serves it, B's own before its computer adds to it, and as A and the
        # table hold it.)
        screens = [fresh(seat) for seat in (a, b, *watchers.values())] + [a.screen, watchers["spectator"].screen]
        for text in [memory] + [json.dumps(s) for s in screens]:
            assert words not in text and "Counter-Intelligence" not in text and "counter-intelligence" not in text
        assert not [n for s in screens for n in notes_of(s)]
        # Kept in B's sealed file with the entry it goes with: B's computer joining again says it again, once, from
        # the first screen the host sends it.
        assert words not in "\n".join(p.read_text(encoding="utf-8") for p in (tmp_path / "b-computer").rglob("*"))
        b.close()
        b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=tmp_path / "b-computer")
        assert b.screen is not None and notes_of(b.screen) == notes_of(shown)
    finally:
        for seat in (a, b, *watchers.values()):
            seat.close()
        host.stop()


def test_the_other_side_reads_only_its_own_missions_word_on_the_objective_never_the_kept_sides(tmp_path):
    session = small_kept_battle(a_mission="eyes-on")
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",))
    a = RemoteSeat(host.link("A"))
    b = RemoteSeat(host.link("B"), pins={"B": PIN}, kept_folder=tmp_path / "b-computer")
    try:
        keeper = b.kept()
        assert keeper is not None
        kept_mission(keeper, "counter-intelligence")
        target_delta(a)
        entry = "3 Target counters on delta at 4 each: 12 points"
        mine, theirs = the_hosts_words("counter-intelligence", "B"), the_hosts_words("eyes-on", "A")
        # Each side reads its own mission's word on the same entry: A's from the host, B's from its own computer.
        assert notes_of(b.wait_for(lambda s: bool(notes_of(s)))) == [(entry, mine)]
        a.wait_version(host.version)
        for screen in (a.screen, fresh(a)):
            assert notes_of(screen) == [(entry, theirs)]
            assert mine not in json.dumps(screen) and "Counter-Intelligence" not in json.dumps(screen)
        assert theirs not in json.dumps(b.screen)
    finally:
        a.close()
        b.close()
        host.stop()


def view_of(counters: int, log: list[str], phase: str = "battle") -> dict[str, Any]:
    """B's screen as the host serves it, for the keeper alone: delta's Target counters and the log's entries."""
    return {"seat": "B", "view": {"phase": phase, "objectives": [{"id": "delta", "target_counters": counters}],
                                  "log": [{"round": 1, "text": t, "explain": [], "units": ["delta"] if "delta" in t
                                           else []} for t in log]}}


def test_the_kept_sides_word_follows_the_counters_shown_a_take_back_and_the_end_of_the_battle(tmp_path):
    keeper = Keeper("B", "c" * 64, pin=PIN, folder=tmp_path)
    kept_mission(keeper, "counter-intelligence")
    words = the_hosts_words("counter-intelligence", "B")
    log = ["round 1", "7 counters on delta", "a-tactical-1 activates"]
    assert notes_of(keeper.shown(view_of(9, log))) == []              # the first screen shown: nothing reached
    log.append("1 counter on delta")
    assert notes_of(keeper.shown(view_of(10, log))) == [("1 counter on delta", words)]
    assert notes_of(keeper.shown(view_of(10, log + ["end-turn"]))) == [("1 counter on delta", words)]
    # A take-back takes the entry away, and the word with it; the counters reached again say it again.
    assert notes_of(keeper.shown(view_of(9, log[:-1]))) == []
    assert notes_of(keeper.shown(view_of(11, log[:-1] + ["2 counters on delta"]))) == [
        ("2 counters on delta", words.replace("now has 10", "now has 11"))]
    # Counters already past the number say nothing more; nor do the objectives set at the end of the battle.
    assert notes_of(keeper.shown(view_of(12, log[:-1] + ["2 counters on delta", "1 counter on delta"]))) == [
        ("2 counters on delta", words.replace("now has 10", "now has 11"))]
    ended = Keeper("B", "d" * 64, pin=PIN, folder=tmp_path)
    kept_mission(ended, "counter-intelligence")
    ended.shown(view_of(3, log))
    assert notes_of(ended.shown(view_of(10, log + ["objective delta: inspected"], phase="over"))) == []
    # A mission that counts no objective Inspected says nothing.
    other = Keeper("B", "e" * 64, pin=PIN, folder=tmp_path)
    kept_mission(other, "hold-the-line")
    other.shown(view_of(9, log))
    assert notes_of(other.shown(view_of(10, log + ["1 counter on delta"]))) == []


def test_drones_bought_by_a_kept_side_outside_a_chance_encounter_are_a_breach(kept, monkeypatch):
    """A client changed to buy its drones (A42) in a battle that is no Chance Encounter, committing to the purchase
    truly: its own keeper refuses that, so the client goes around it; the host's check at the end finds the purchase
    and it is one BREACH, B's mission not scored. (Should the roll for roles make a Chance Encounter, the purchase is
    B's right and there is no breach.)"""
    session, host, seats, b_disk = kept
    real = keeper_module.Keeper.draw_cards

    def draw_cards(self, screen, args):
        with pytest.raises(InputError, match="only in a Chance Encounter") if (
                screen["draw_cards_asked"]["kind"] != "chance-encounter") else nullcontext():
            real(self, screen, {**args, "purchase": {}})
        sent = real(self, screen, args)
        c = self.cards
        offer = offer_of(screen["draw_cards_asked"], "B", self.dice[0])
        # The changed client's own hand, bought whatever the battle: troopers only, no drone.
        hand = hand_of(playing_deck(), "B", offer, c["mission"], c["troop"], {}, chance_encounter=True)
        c.update(purchase={}, issued=[dict(u) for u in hand.issued])
        return {**sent, "committed": cards_commitment(self.battle, "B", c["mission"], c["troop"], c["drone"],
                                                      c["drone_line"], {}, c["salt"])}

    monkeypatch.setattr(keeper_module.Keeper, "draw_cards", draw_cards)
    b = scored_battle(session, host, seats, b_disk)
    with host.lock:
        state = session.state
        breaches, vp, encounter = list(state.breaches), dict(state.result.vp), state.mode == "chance-encounter"
    if encounter:
        assert breaches == [] and state.missions["B"] == b.keeper.cards["mission"]
    else:
        assert len(breaches) == 1 and "a drone purchase in a battle that is no Chance Encounter" in breaches[0]
        assert vp["B"] == 0 and "B" not in state.missions
