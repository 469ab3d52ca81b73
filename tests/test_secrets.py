"""Secrets that hold against a player who tries (issue 11): the dice streams, the log, the digest of a save.

Each test here is one of the audit's findings, tried as a player who wants to cheat would.
"""

from __future__ import annotations

import json
import random

from referee.game.battle.dice import RollRequest, SeededDice, new_seed
from referee.game.play.engine import Game, begin_battle
from referee.game.players.random_play import play_random
from referee.game.records.record import new_seeded_dice, read_save, save_game
from referee.game.play.setup import SetupChoices, new_battle
from referee.game.play.victory import own_round_limit
from referee.game.views.view import player_view
from referee.game.views.view_words import log_lines
from referee.rules.scenario import parse_scenario

from .tables import rect

FACTIONS = {"A": "council-of-zane", "B": "new-tokyo"}
TABLE = parse_scenario({"name": "open field", "table": {"width": 36, "height": 36},
                        "terrain": [rect("w1", "woods", 14, 14, 20, 20)]}, "open field")


class Split:
    """Public draws from one generator, every secret draw from another: what each stream gave is kept."""

    def __init__(self, public: SeededDice, secret: SeededDice) -> None:
        self.public, self.secret = public, secret
        self.seen: list[tuple[str, float]] = []

    def answer(self, request: RollRequest) -> float:
        value = (self.secret if request.secret else self.public).answer(request)
        if not request.secret:
            self.seen.append((request.label, value))
        return value


# ---- finding 1: the dice seed could be recovered -------------------------------------------------------------


def test_program_dice_take_a_128_bit_seed_from_the_operating_system():
    seeds = [new_seeded_dice().seed for _ in range(8)]
    assert len(set(seeds)) == 8
    assert max(s.bit_length() for s in seeds) > 120          # 2^31 seeds could be searched; 2^128 cannot
    assert all(0 <= s < 2**128 for s in seeds)
    assert new_seed() != new_seed()


def test_the_public_draws_say_nothing_of_a_sides_secret_draws():
    """Whatever the secret streams drew (missions, cards, holding squares), the public draws are the same: what a
    player sees on the table cannot narrow what the other side drew."""
    one = Split(SeededDice(99), SeededDice(1))
    two = Split(SeededDice(99), SeededDice(2))
    first, _ = new_battle(TABLE, SetupChoices(FACTIONS), one)
    second, _ = new_battle(TABLE, SetupChoices(FACTIONS), two)
    assert one.seen == two.seen and len(one.seen) > 20
    # ... while the secrets themselves differ.
    assert (first.missions, first.cards, first.holding) != (second.missions, second.cards, second.holding)


def test_the_secret_draws_of_set_up_are_marked_with_their_side():
    asked: list[RollRequest] = []
    dice = SeededDice(5)

    class Spy:
        def answer(self, request):
            asked.append(request)
            return dice.answer(request)

    new_battle(TABLE, SetupChoices(FACTIONS), Spy())
    secret = {(r.secret, r.label.split(" ")[-2] if "card" in r.label else r.label) for r in asked if r.secret}
    labels = [r.label for r in asked if r.secret]
    for side in "AB":
        assert any(f"side {side} draws a" in x and "mission" in x for x in labels)
        assert any(f"side {side} chooses a holding square" in x for x in labels)
    assert all(r.secret == r.label.split(" ")[1] for r in asked if r.secret)
    assert not any(r.secret for r in asked if "objective" in r.label or "places blip" in r.label or r.kind == "d6")
    assert all(r.secret for r in asked if "labels a blip" in r.label)
    assert secret


def test_one_stream_does_not_follow_from_another():
    dice = SeededDice(7)
    public = [dice.below(1000, "public") for _ in range(50)]
    secret = [dice.below(1000, "secret-B") for _ in range(50)]
    assert public != secret
    again = SeededDice(7)
    assert [again.below(1000, "secret-B") for _ in range(50)] == secret     # streams do not share a position


def test_the_same_action_at_the_same_moment_gets_the_same_dice():
    dice = SeededDice(new_seed())
    d6 = RollRequest("rifle die", "p.20")
    dice.begin("action 12|rifle a-tac b-tac")
    first = [dice.answer(d6) for _ in range(12)]
    dice.begin("action 12|rifle a-tac b-cmd")
    other = [dice.answer(d6) for _ in range(12)]
    dice.begin("action 12|rifle a-tac b-tac")
    assert [dice.answer(d6) for _ in range(12)] == first
    assert other != first


# ---- finding 4: the public log gave each side's force size ---------------------------------------------------


def test_the_opponents_log_says_a_holding_area_was_filled_not_with_what():
    state, _ = new_battle(TABLE, SetupChoices(FACTIONS), SeededDice(11))
    for viewer, opponent in (("A", "B"), ("B", "A")):
        view = player_view(state, viewer)
        lines = [line for line in log_lines(view) if f"side {opponent} fills" in line]
        assert lines == [f"[round 1] side {opponent} fills its holding area (secret)"]
        own = [line for line in log_lines(view) if f"side {viewer} fills" in line]
        assert len(own) == 1 and "squares hold units" in own[0] and "decoys" in own[0]
        text = json.dumps(view)
        assert "decoys" not in text.replace(own[0].split("(only you: ")[1].rstrip(")"), "")


# ---- finding 5: the end-of-round dialog named the opponent's mission ----------------------------------------


def test_a_player_is_told_only_their_own_missions_round_limit():
    state, _ = new_battle(TABLE, SetupChoices(FACTIONS), SeededDice(11))
    state.missions = {"A": "hold-the-line", "B": "eyes-on"}             # eyes-on ends the battle after round 6
    assert own_round_limit(state, "B") == 6
    assert own_round_limit(state, "A") is None


# ---- finding 8: a fresh save warned that it differed ----------------------------------------------------------


def _played(seed: int, steps: int, whole_x: bool = False) -> Game:
    state, _ = new_battle(TABLE, SetupChoices(FACTIONS), SeededDice(seed))
    if whole_x:
        # A whole number where a save holds a decimal (x = 1 comes back from the file as 1.0).
        blip = next(iter(state.blips.values()))
        blip.x = int(blip.x) if blip.x == int(blip.x) else 1
    game = Game(state)
    play_random(game, random.Random(seed), steps, SeededDice(seed))
    return game


def test_a_save_read_straight_back_never_warns(tmp_path):
    game = _played(4, 40, whole_x=True)
    assert any(type(b.x) is int for b in game.initial.blips.values())
    path = save_game(game, tmp_path / "whole.json")
    assert read_save(path).warnings == []
    for seed in range(6):
        path = save_game(_played(seed, 30 + 10 * seed), tmp_path / f"{seed}.json")
        assert read_save(path).warnings == [], seed


def test_an_edited_save_warns_that_it_was_edited(tmp_path):
    path = save_game(_played(2, 40), tmp_path / "battle.json")
    doc = json.loads(path.read_text())
    doc["state_digest"] = "0" * 64
    path.write_text(json.dumps(doc))
    warnings = read_save(path).warnings
    assert len(warnings) == 1 and "edited" in warnings[0]


def test_a_loaded_battle_rolls_on_from_where_its_dice_stood(tmp_path):
    game = _played(3, 30)
    dice = SeededDice(new_seed())
    dice.begin("action 31|x")
    dice.answer(RollRequest("d", "p.1"))
    path = save_game(game, tmp_path / "b.json", dice)
    loaded = read_save(path).dice
    assert (loaded.seed, loaded.moment, loaded.counts) == (dice.seed, dice.moment, dice.counts)
    d6 = RollRequest("d", "p.1")
    assert [loaded.answer(d6) for _ in range(10)] == [dice.answer(d6) for _ in range(10)]


def test_an_earlier_versions_dice_roll_on_from_a_new_seed(tmp_path):
    path = save_game(_played(3, 10), tmp_path / "old.json", SeededDice(5))
    doc = json.loads(path.read_text())
    doc["dice"] = {"seed": 5, "state": "3:AAAA"}
    path.write_text(json.dumps(doc))
    dice = read_save(path).dice
    assert dice is not None and dice.seed != 5 and dice.seed.bit_length() > 64




# ---- finding 2: blip ids gave away their holding-area square -------------------------------------------------


def test_a_blips_label_says_nothing_of_its_square():
    hits = total = 0
    for seed in range(8):
        state, _ = new_battle(TABLE, SetupChoices(FACTIONS), SeededDice(seed))
        for viewer, opponent in (("A", "B"), ("B", "A")):
            view = player_view(state, viewer)
            theirs = [b for b in view["blips"] if b["side"] == opponent]
            assert len(theirs) == 16 and all("square" not in b and "contents" not in b for b in theirs)
            assert [b["id"] for b in theirs] == sorted(b["id"] for b in theirs)      # listed by label, not by square
            for rank, b in enumerate(theirs):
                square = state.blips[b["id"]].square
                assert not b["id"].endswith(f"-{square}")
                hits += rank + 1 == square
                total += 1
    # Were labels in square order, every one would hit; labels at random hit about one in 16.
    assert hits <= total // 6, (hits, total)


# ---- finding 3: Scramble showed which of the three new blips is real ------------------------------------------


def test_after_a_scramble_nothing_the_opponent_sees_picks_out_the_real_blip():
    from referee.game.battle.intents import Action
    from referee.game.battle.dice import ScriptedDice

    from .tables import game_state, unit

    first_in_log = first_by_label = lowest = on_spot = 0
    corners = set()
    runs = 30
    for seed in range(runs):
        s = game_state(units=[unit("a-tac", "A", 12, 6, facing=90), unit("b-tac", "B", 12, 30, facing=270)],
                       attacker="A")
        game = Game(begin_battle(s))
        assert game.play(Action("activate", "a-tac"), ScriptedDice()).legal
        assert game.play(Action("scramble", "a-tac", {"square": 9}), SeededDice(seed)).legal
        state = game.state
        view = player_view(state, "B")
        real = next(b.id for b in state.blips.values() if state.blip_contents(b))
        shown = [b for b in view["blips"] if b["side"] == "A"]
        entry = next(e for e in view["log"] if "Scrambles" in e["text"])
        logged = entry["units"][1:]
        assert "note" not in entry and "square" not in entry["text"] and len(logged) == 3
        first_in_log += logged[0] == real
        first_by_label += shown[0]["id"] == real
        lowest += state.blips[real].square == min(state.blips[b["id"]].square for b in shown)
        b = state.blips[real]
        on_spot += (b.x, b.y) == (12, 6)
        corners.add(sorted((round(x["x"], 3), round(x["y"], 3)) for x in shown).index((b.x, b.y)))
    assert on_spot == 0
    assert corners == {0, 1, 2}                                   # the real one stands at any corner
    for count in (first_in_log, first_by_label):
        assert 2 <= count <= runs - 10, count                     # about a third, never always
    assert lowest < runs                                          # the owner's square, not the lowest free one


# ---- finding 7: the seals did not cover everything secret ---------------------------------------------------


def _saved_battle(tmp_path, name: str = "sealed"):
    game = _played(6, 30)
    path = save_game(game, tmp_path / f"{name}.json")
    return game, path, json.loads(path.read_text())


def _report_after_edit(tmp_path, doc) -> dict:
    from referee.game.play.seal import verify_seals

    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc))
    return verify_seals(read_save(edited).game)


def test_swapping_the_squares_of_two_blips_in_a_save_breaks_the_seal(tmp_path):
    game, _, doc = _saved_battle(tmp_path)
    blips = [b for b in doc["initial"]["blips"] if b["side"] == "B"]
    full = [b for b in blips if doc["initial"]["holding"]["B"][str(b["square"])]]
    empty = [b for b in blips if not doc["initial"]["holding"]["B"][str(b["square"])]]
    full[0]["square"], empty[0]["square"] = empty[0]["square"], full[0]["square"]
    checks = _report_after_edit(tmp_path, doc)
    assert checks["A"].matches and not checks["B"].matches
    assert "does NOT match" in checks["B"].text() and "changed" in checks["B"].text()


def test_changing_a_troop_or_drone_card_in_a_save_breaks_the_seal(tmp_path):
    for card in ("troop", "drone"):
        game, _, doc = _saved_battle(tmp_path, card)
        doc["initial"]["cards"]["A"][card] = doc["initial"]["cards"]["A"][card] + "-x"
        assert not _report_after_edit(tmp_path, doc)["A"].matches, card


def test_a_save_edited_and_sealed_again_shows_another_fingerprint_than_at_set_up(tmp_path):
    """The salt is in the save, so whoever edits it can seal it again; the fingerprint players noted at set-up (and
    the set-up log) still tells them: the report puts the recomputed one beside it."""
    from referee.game.play.seal import seal_side, short_seal, verify_seals
    from referee.game.battle.state import GameState as State

    game, _, doc = _saved_battle(tmp_path)
    noted = short_seal(game.initial.sealed["B"])
    assert any(noted in e.text for e in game.initial.log)             # shown to both at set-up
    initial = State.from_data(doc["initial"])
    squares = initial.holding["B"].squares
    full = next(n for n, v in squares.items() if v)
    empty = next(n for n, v in squares.items() if v == [])
    squares[full], squares[empty] = squares[empty], squares[full]
    seal_side(initial, "B", initial.salts["B"])
    doc["initial"] = initial.to_data()
    edited = tmp_path / "resealed.json"
    edited.write_text(json.dumps(doc))
    check = verify_seals(read_save(edited).game)["B"]
    assert check.matches and short_seal(check.recomputed) != noted
    assert f"recomputed now {short_seal(check.recomputed)}" in check.text() and "compare" in check.text()


def test_the_fingerprint_is_64_bits_in_four_groups():
    from referee.game.play.seal import short_seal

    state, _ = new_battle(TABLE, SetupChoices(FACTIONS), SeededDice(3))
    for side in "AB":
        print_ = short_seal(state.sealed[side])
        assert print_.split(" ") == [state.sealed[side][i:i + 4] for i in (0, 4, 8, 12)]


# ---- finding 10: bad input -------------------------------------------------------------------------------------


def _cli(capsys, *args) -> tuple[int, str]:
    from referee.cli.main import main

    code = main([str(a) for a in args])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.err


def test_a_lone_surrogate_in_a_save_faction_or_card_file_is_a_message_not_a_traceback(tmp_path, capsys):
    import tomllib

    from referee import paths

    save = save_game(_played(2, 10), tmp_path / "s.json")
    doc = json.loads(save.read_text())
    doc["program"] = "0.1\ud800"
    save.write_text(json.dumps(doc))                       # json.dumps writes the escape \\ud800
    code, err = _cli(capsys, "replay", save)
    assert code == 2 and "program" in err and "surrogate" in err

    faction = tomllib.loads((paths.DATA_DIR / "factions" / "new-tokyo.toml").read_text())
    faction["name"] = "New \ud800 Tokyo"
    (tmp_path / "f.json").write_text(json.dumps(faction))
    code, err = _cli(capsys, "faction", "show", tmp_path / "f.json")
    assert code == 2 and "name" in err and "surrogate" in err

    deck = tmp_path / "deck"
    deck.mkdir()
    for f in (paths.DATA_DIR / "cards").iterdir():
        if f.name != "offence.toml":
            (deck / f.name).write_bytes(f.read_bytes())
    cards = tomllib.loads((paths.DATA_DIR / "cards" / "offence.toml").read_text())
    cards["mission"][0]["title"] = "Eyes \ud800"
    (deck / "offence.json").write_text(json.dumps(cards))
    code, err = _cli(capsys, "cards", "list", deck)
    assert code == 2 and "mission[0].title" in err and "surrogate" in err


def _scenario(tmp_path, **unit_fields):
    from referee.rules.scenario import parse_scenario  # noqa: F401  (the format the file is written in)

    data = {"name": "t", "table": {"width": 36, "height": 36},
            "units": [{"id": "a", "side": "A", "faction": "new-tokyo", "rating": "veteran", "type": "tactical",
                       "x": 10, "y": 10, "facing": 90},
                      {"id": "b", "side": "B", "faction": "new-tokyo", "rating": "veteran", "type": "tactical",
                       "x": 10, "y": 20, "facing": 270, **unit_fields}]}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    return path


def test_numbers_beyond_any_table_are_refused_with_their_bound(tmp_path, capsys):
    for value, words in ((100, "99"), (100000, "99"), (1e20, "")):
        code, err = _cli(capsys, "query", _scenario(tmp_path, target_counters=value), "rifle", "a", "b")
        assert code == 2 and "target_counters" in err and words in err, err
    code, err = _cli(capsys, "query", _scenario(tmp_path, facing=1e308), "range", "a", "b")
    assert code == 2 and "facing" in err


def test_a_polygon_or_a_table_too_big_for_any_real_table_is_refused(tmp_path, capsys):
    import math

    ring = [[18 + 5 * math.cos(2 * math.pi * k / 5000), 18 + 5 * math.sin(2 * math.pi * k / 5000)] for k in range(5000)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"name": "t", "table": {"width": 36, "height": 36},
                                "terrain": [{"id": "w", "type": "woods", "polygon": ring}]}))
    code, err = _cli(capsys, "validate", path)
    assert code == 2 and "polygon" in err and "1000" in err
    units = [{"id": f"u{i}", "side": "A", "faction": "new-tokyo", "rating": "veteran", "type": "tactical",
              "x": 1 + (i % 30), "y": 1 + (i // 30) % 30} for i in range(501)]
    path.write_text(json.dumps({"name": "t", "table": {"width": 36, "height": 36}, "units": units}))
    code, err = _cli(capsys, "validate", path)
    assert code == 2 and "units" in err and "500" in err


def test_validate_names_the_broken_rulings_file_not_the_scenario(tmp_path, capsys, monkeypatch):
    import shutil

    from referee import paths
    from referee.rules import rulings

    data = tmp_path / "data"
    shutil.copytree(paths.DATA_DIR, data)
    (data / "rulings.toml").write_text("[A23]\ndefault = 'Z'\noptions = ['A', 'B']\n")
    monkeypatch.setattr(paths, "DATA_DIR", data)
    rulings.catalogue.cache_clear()
    try:
        scenario = _scenario(tmp_path)
        code, err = _cli(capsys, "validate", scenario)
    finally:
        rulings.catalogue.cache_clear()
    assert code == 2
    assert f"{data / 'rulings.toml'} is broken (not t.json)" in err
