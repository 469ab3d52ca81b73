"""What each blip counter shows on the table: its square to its owner only; to the opponent its label, which stays
the same while the counter is on the table and says nothing of its square (A59)."""

from referee.game.battle.dice import SeededDice
from referee.game.play.setup import SetupChoices, new_battle
from referee.game.views.view import player_view
from referee.ui.table_data import table_from_view
from referee.rules.scenario import parse_scenario
from tests.battles import OPEN_FIELD


def test_the_opponent_reads_labels_that_stay_and_the_owner_reads_squares():
    state, _ = new_battle(parse_scenario(OPEN_FIELD, "open field"),
                          SetupChoices({"A": "council-of-zane", "B": "new-tokyo"}), SeededDice(4))
    theirs = sorted((b for b in state.blips.values() if b.side == "B"), key=lambda b: b.id)
    shown = table_from_view(player_view(state, "A")).blip_numbers
    assert {shown[b.id] for b in theirs} == {b.id.rsplit("-", 1)[-1] for b in theirs}
    assert all(shown[b.id] != str(b.square) for b in theirs)
    own = table_from_view(player_view(state, "B")).blip_numbers
    assert all(own[b.id] == str(b.square) for b in theirs)
    # A counter taken off the table changes nothing printed on the others.
    del state.blips[theirs[0].id]
    after = table_from_view(player_view(state, "A")).blip_numbers
    assert all(after[b.id] == shown[b.id] for b in theirs[1:])
