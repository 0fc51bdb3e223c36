"""An alert's life over a history uploaded version by version, without a database (the transitions the
portal applies to its rows)."""

from portal.analysis import alert_life
from portal.analysis.alert_life import Known
from portal.analysis.changepoints import changes
from tests.changepoints import Incremental


def _history(levels, runs=(1.0, 1.03, 0.97)):
    return [[1000 * level * run for run in runs] for level in levels]


def test_two_regressions_are_two_alerts_each_at_the_version_it_starts_at_confirmed_in_turn():
    # -10 % at version 3 (three versions before it), a further -16 % at version 6; 3 % noise.
    history = _history([1, 1, 1, 0.9, 0.9, 0.9, 0.756, 0.756, 0.756])
    run = Incremental()
    for end in range(2, len(history) + 1):
        run.judge(history[:end])
    assert [(after, state, index) for after, state, _kind, index in run.notified] == [
        # Found once the step's version is stored: t = 100 / (30 x sqrt(1/9 + 1/3)) = 5.0 on the runs' 8 degrees
        # of freedom alone (p = 0.00105, twice that for the two places a step could start), t = 5.59 on 10 with
        # the versions' scatter (none) pooled in: p = 0.00023, 0.00046 for the two places.
        (3, "new", 3),
        (5, "confirmed", 3),
        (6, "new", 6),
        (8, "confirmed", 6),
    ]
    assert [(a.index, round(a.change_pct, 1), a.state) for a in run.alerts] == [
        (3, -10.0, "confirmed"),
        (6, -16.0, "confirmed"),
    ]


def test_an_alert_no_change_supports_any_more_is_withdrawn_and_one_found_again_moves_with_its_version():
    step = changes(_history([1, 1, 1, 0.8, 0.8]))[0]
    assert step.index == 3
    # Stored at version 4 when first found; found now at version 3: the same alert, moved and told again.
    moved = alert_life.transitions([Known(7, "step", 4, -20.0, alert_life.NEW, True)], [step])
    assert [(t.key, t.state) for t in moved] == [(7, alert_life.UPDATED)]
    # An open improvement nothing supports any more is withdrawn; the step is a new alert.
    other = alert_life.transitions([Known(8, "step", 2, +15.0, alert_life.NEW, True)], [step])
    assert [(t.key, t.state) for t in other] == [(None, alert_life.NEW), (8, alert_life.WITHDRAWN)]
    # A small refresh of the same alert's figures is not told again.
    kept = alert_life.transitions([Known(9, "step", 3, -19.5, alert_life.NEW, True)], [step])
    assert [(t.key, t.state) for t in kept] == [(9, alert_life.KEPT)]
