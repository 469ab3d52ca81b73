"""``seven-seconds cards list|validate`` through ``main([...])``: the deck games use, a folder checked, the user's own
cards (the official ones typed in) used instead of the sample deck."""

import shutil

from referee import paths
from referee.cli.main import main
from referee.game.battle.cards import bundled_folder


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def test_validate_the_sample_deck_says_it_is_the_sample(capsys):
    status, out, err = run(capsys, "cards", "validate")
    assert status == 0 and err == ""
    assert f"{bundled_folder()}: valid deck: 18 missions" in out
    assert f"unofficial sample deck; games use it until {paths.user_cards_dir()} holds card files" in out


def test_own_cards_are_validated_listed_and_used_instead_of_the_sample(capsys):
    mine = paths.user_cards_dir()
    shutil.copytree(bundled_folder(), mine)
    text = (mine / "offence.toml").read_text(encoding="utf-8")
    assert 'title = "Deep Strike"' in text
    (mine / "offence.toml").write_text(text.replace('title = "Deep Strike"', 'title = "Typed In Strike"'),
                                                 encoding="utf-8")
    status, out, _ = run(capsys, "cards", "validate")
    assert status == 0 and f"{mine}: valid deck" in out
    assert "These are your own cards: games use them instead of the sample deck." in out
    status, out, _ = run(capsys, "cards", "list")
    assert status == 0 and "Typed In Strike" in out and "Deep Strike" not in out.replace("Typed In Strike", "")


def test_validate_a_folder_lists_every_problem(tmp_path, capsys):
    folder = tmp_path / "typed"
    shutil.copytree(bundled_folder(), folder)
    prices = next(p for p in folder.iterdir() if "price" in p.name)
    prices.unlink()
    (folder / "extra.toml").write_text('[[mission]]\nid = "x"\n', encoding="utf-8")
    status, out, err = run(capsys, "cards", "validate", str(folder))
    assert status == 2 and out == ""
    assert "extra.toml: mission[0] 'x'" in err
    assert "the deck has no drone price list" in err


def test_validate_another_folder_says_where_to_put_it(tmp_path, capsys):
    folder = tmp_path / "typed"
    shutil.copytree(bundled_folder(), folder)
    status, out, _ = run(capsys, "cards", "validate", str(folder))
    assert status == 0 and f"To play with these cards, copy the files to {paths.user_cards_dir()}" in out
