"""The statistics of batches and surveys (castle.surveys.stats), computed by hand."""

from __future__ import annotations

import pytest
from castle.surveys.stats import distribution, percentile, wilson_interval, winnability


def test_wilson_interval_hand_computed() -> None:
    # 8 of 10, z = 1.96: centre (0.8 + 0.19208) / 1.38415 = 0.71674,
    # half 1.95996 * sqrt(0.016 + 0.0096036) / 1.38415 = 0.22658.
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.49016, abs=1e-5)
    assert high == pytest.approx(0.94331, abs=1e-5)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson_interval(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    assert wilson_interval(1, 1) == pytest.approx((0.20654, 1.0), abs=1e-5)
    with pytest.raises(ValueError):
        wilson_interval(0, 0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(100, 0, -1)]
    assert percentile(values, 99) == 99.0
    assert percentile(values, 50) == 50.0
    assert percentile([7.0], 99) == 7.0
    assert percentile([1.0, 2.0, 3.0], 99) == 3.0


def test_distribution_median_and_nearest_rank_percentiles() -> None:
    values = [float(v) for v in range(1, 101)]
    assert distribution(values) == (50.5, 90.0, 99.0, 100.0)  # median, p90, p99, max
    assert distribution([3.0]) == (3.0, 3.0, 3.0, 3.0)
    assert distribution([]) is None
    assert winnability(8, 2) == (8, 10, 0.8, *wilson_interval(8, 10))
    assert winnability(0, 0) is None
