"""Each computer level says what it does where the opponent is chosen (issue 37: levels a player can feel)."""

from referee.game.players.computer.levels import LEVEL_WORDS, LEVELS
from referee.ui.scenes import setup as new_battle_form
from referee.ui.scenes.setup import SetupScene


def test_every_level_has_its_words_and_the_new_battle_form_shows_the_chosen_ones(fresh, monkeypatch):
    assert set(LEVEL_WORDS) == set(LEVELS)
    scene = fresh.push(SetupScene())
    fresh.step(1 / 30, events=[])
    drawn: list[str] = []
    real = new_battle_form.draw_text
    monkeypatch.setattr(new_battle_form, "draw_text", lambda surface, text, *a, **k: (drawn.append(text),
                                                                                   real(surface, text, *a, **k))[1])
    fresh.step(1 / 30, events=[])
    assert not any("Hard is the strongest" in t for t in drawn)        # two players: no level to describe
    scene.opponent_label = "The computer plays side B, hard"
    drawn.clear()
    fresh.step(1 / 30, events=[])
    assert "Hard is the strongest" in " ".join(drawn) and "withdraws when that wins" in " ".join(drawn)
