"""``seven-seconds selfplay --table NAME`` finds a bundled table by its name, as every other command does."""

from referee.cli.main import main
from referee.game.records.record import read_save


def test_selfplay_finds_a_bundled_table_by_name(tmp_path, capsys):
    out = tmp_path / "duel.json"
    assert main(["selfplay", "--seed", "3", "--rounds", "1", "--table", "pastoral-hills", "--out", str(out)]) == 0
    assert "Pastoral Hills" in capsys.readouterr().out
    assert read_save(out).game.state.name == "Pastoral Hills"
