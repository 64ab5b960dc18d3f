import numpy as np
import pytest

from vision.pips import LAYOUTS, fit_layout, grid_of


def _rot(deg: float) -> np.ndarray:
    a = np.deg2rad(deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


@pytest.mark.parametrize("n", range(3, 7))
@pytest.mark.parametrize("angle", [0, 17, 45, 80])
def test_every_layout_fits_itself_rotated_and_foreshortened(n, angle):
    pts = LAYOUTS[n] @ _rot(angle).T * 12 * np.array([1.0, 0.8]) + [40, 50]
    resid, step, aniso = fit_layout(pts[::-1], n)
    assert resid < 1e-3
    assert step > 5
    assert aniso > 0.6


def test_a_six_missing_a_pip_is_not_a_five():
    pts = LAYOUTS[6][:5] * 10.0
    resid, _, _ = fit_layout(pts, 5)
    assert resid > 0.3


def test_three_not_in_a_line_is_not_a_three():
    pts = LAYOUTS[4][:3] * 10.0
    resid, _, _ = fit_layout(pts, 3)
    assert resid > 0.3


def test_grid_of_a_four_has_the_four_corners():
    pts = LAYOUTS[4] * 10.0 + 50
    grid = grid_of(pts, 4, 10.0)
    assert grid.shape == (9, 2)
    assert np.allclose(grid[4], [50, 50])
    assert {tuple(np.round(g).astype(int)) for g in grid[[0, 2, 6, 8]]} == {
        tuple(np.round(p).astype(int)) for p in pts
    }
