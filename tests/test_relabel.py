"""Saves written before blips took labels name each counter by its holding-area square (``b-blip-3``); A59 keeps
the square on the counter's reverse side. Such a save opens with every counter relabelled, everywhere at once, and
still checks as unedited; the labels come from the owner's secret, so they say nothing of the squares."""

from __future__ import annotations

import json
import re
from pathlib import Path

from referee.game.records.record import read_save
from referee.game.play.seal import verify_seals
from referee.game.views.view import player_view
from referee.game.views.view_words import hover_text, log_lines

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "example-save.json"
SQUARE_NAMED = re.compile(r"\b[ab]-blip-\d+\b")


def test_an_old_save_shows_no_counter_named_by_its_square_and_still_checks_as_unedited():
    raw = json.loads(EXAMPLE.read_text())
    assert raw["version"] == 1 and SQUARE_NAMED.search(EXAMPLE.read_text())
    save = read_save(EXAMPLE)
    assert save.warnings == []
    state = save.game.state
    assert not any(SQUARE_NAMED.fullmatch(b) for b in state.blips)
    for side in "AB":
        view = player_view(state, side)
        shown = json.dumps(view) + "\n".join(log_lines(view))
        shown += "".join(hover_text(view, b["id"]) for b in view["blips"])
        assert not SQUARE_NAMED.search(shown), side
    # The squares are still on the counters' reverse sides, where the rules keep them.
    squares = {b.square for b in state.blips.values() if b.side == "B"}
    assert squares == {1, 2}
    assert all(check.matches for check in verify_seals(save.game).values())


def test_an_edited_old_save_still_warns():
    raw = json.loads(EXAMPLE.read_text())
    unit = next(iter(raw["initial"]["units"].values())) if isinstance(raw["initial"]["units"], dict) \
        else raw["initial"]["units"][0]
    unit["x"] = unit["x"] + 1
    from referee.game.records.record import save_from_document

    save = save_from_document(raw, EXAMPLE)
    assert any("differs" in w for w in save.warnings)


def test_the_labels_are_drawn_from_the_owners_secret_not_from_the_squares():
    raw = json.loads(EXAMPLE.read_text())
    from referee.game.battle.relabel import relabel_square_named

    seen = set()
    for salt in ("00", "01", "02", "03", "04", "05", "06", "07"):
        raw["initial"]["salts"]["B"] = salt
        relabelled, back = relabel_square_named(raw)
        assert back is not None and back(relabelled) == raw
        by_square = {b["square"]: b["id"] for b in relabelled["initial"]["blips"].values() if b["side"] == "B"} \
            if isinstance(relabelled["initial"]["blips"], dict) else \
            {b["square"]: b["id"] for b in relabelled["initial"]["blips"] if b["side"] == "B"}
        seen.add(tuple(sorted(by_square, key=lambda sq: by_square[sq])))
    # Both orders of the two squares occur among the labels: the alphabetical order of labels follows the salt.
    assert seen == {(1, 2), (2, 1)}
