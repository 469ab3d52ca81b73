"""The adversarial leak audit (issue 11): a spy that sees only side A's outputs scores at chance on B's blips, and a
planted leak makes it score high, which shows the audit bites. ``benchmarks/spy_audit.py`` runs it on 200 battles."""

from __future__ import annotations

from referee.game.views.view import player_view

from .spy import observe, planted_leak, spy

BATTLES = 24


def test_the_spy_cannot_tell_real_blips_from_decoys_but_finds_a_planted_leak():
    pairs = [observe(seed, 30, (player_view, planted_leak)) for seed in range(BATTLES)]
    clean = spy([p[0] for p in pairs])
    leaky = spy([p[1] for p in pairs])
    print(f"\nspy on {BATTLES} battles: clean {clean}; planted leak {leaky}")
    # About 190 of B's blips are scored: a spy at chance stays near 0.5.
    assert 0.3 < clean.blips < 0.7, clean
    # The same battles, with the real blips listed first and B's force size in the log: the spy sees both ...
    assert leaky.blips > 0.85, leaky
    assert leaky.force > 0.85, leaky
    # ... and B's mission card named in A's log.
    assert leaky.mission > 0.85, leaky


def test_the_spy_learns_nothing_from_set_up_made_by_the_players():
    # Every set-up decision made by the players (A60): B's blips placed one by one, its holding area arranged, its
    # streak cards drawn and chosen; the spy also reads A's legal actions after each decision.
    pairs = [observe(seed, 10, (player_view, planted_leak), setup=True) for seed in range(BATTLES)]
    clean = spy([p[0] for p in pairs])
    leaky = spy([p[1] for p in pairs])
    print(f"\nspy on {BATTLES} battles set up by the players: clean {clean}; planted leak {leaky}")
    assert 0.3 < clean.blips < 0.7, clean
    assert 0.25 < clean.force < 0.75, clean
    assert leaky.blips > 0.85, leaky
    assert leaky.force > 0.75, leaky
    assert leaky.mission > 0.85, leaky
