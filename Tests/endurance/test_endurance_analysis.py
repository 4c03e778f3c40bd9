#!/usr/bin/env python3
"""Unit tests of endurance_analysis.py (the endurance run's fit, verdict and frame quantiles) on
synthetic series. Run: python3 -m unittest discover -s Tests/endurance -p 'test_*.py'
(Tests/ReliabilityTests/EnduranceAnalysisTests.swift runs them in `swift test`)."""
import math
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from endurance_analysis import (fit, frame_buckets, histogram_quantile, judge, parse_prometheus,  # noqa: E402
                                t_quantile, threshold_factor, verdict, SHORT_FACTOR)

RSS_THRESHOLD = 512.0


def minutes(hours, every=1):
    return [m / 60 for m in range(0, int(hours * 60) + 1, every)]


class FitTests(unittest.TestCase):
    def test_exact_line(self):
        slope, se, intercept = fit([0, 1, 2, 3], [5, 7, 9, 11])
        self.assertAlmostEqual(slope, 2)
        self.assertAlmostEqual(intercept, 5)
        self.assertAlmostEqual(se, 0)

    def test_needs_three_points_at_different_times(self):
        with self.assertRaises(ValueError):
            fit([1, 2], [1, 2])
        with self.assertRaises(ValueError):
            fit([1, 1, 1], [1, 2, 3])

    def test_t_quantile_is_close_to_the_tables(self):
        for df, table in [(3, 2.353), (5, 2.015), (10, 1.812), (30, 1.697), (1000, 1.646)]:
            self.assertAlmostEqual(t_quantile(df, 1.6448536), table, delta=0.01 * table)
        for df, table in [(6, 5.208), (10, 4.144), (20, 3.552), (100, 3.174)]:
            self.assertAlmostEqual(t_quantile(df), table, delta=0.05 * table)


class JudgeTests(unittest.TestCase):
    def test_flat_with_noise_passes(self):
        # 4 hours sampled every minute, and the CI form (10 minutes, every 20 s), 200 seeds each.
        for hours, every in [(4, 1), (10 / 60, 1 / 3)]:
            xs = [i * every / 60 for i in range(int(hours * 60 / every) + 1)]
            for seed in range(200):
                rng = random.Random(seed)
                ys = [80_000 + rng.gauss(0, 300) for _ in xs]
                r = judge('rss_kib', xs, ys, RSS_THRESHOLD, warmup_hours=min(0.5, hours * 0.3))
                self.assertIn(r['status'], ('pass', 'step'), (hours, seed, r))
                self.assertNotEqual(r['status'], 'fail')

    def test_a_gross_leak_fails_even_the_ten_minute_form(self):
        rng = random.Random(6)
        xs = [i / 180 for i in range(31)]                          # 10 min, every 20 s
        ys = [80_000 + 60_000 * h + rng.gauss(0, 300) for h in xs]  # 1 MiB a minute
        self.assertEqual(judge('rss_kib', xs, ys, RSS_THRESHOLD, warmup_hours=0.05)['status'], 'fail')

    def test_a_slow_leak_fails_and_says_how_much(self):
        rng = random.Random(2)
        xs = minutes(4)
        ys = [80_000 + 1024 * h + rng.gauss(0, 300) for h in xs]       # 1 MiB an hour
        r = judge('rss_kib', xs, ys, RSS_THRESHOLD, warmup_hours=0.5)
        self.assertEqual(r['status'], 'fail', r)
        self.assertAlmostEqual(r['slope_per_hour'], 1024, delta=60)
        self.assertAlmostEqual(r['projected_30_days'], 1024 * 720, delta=60 * 720)
        self.assertIn('grows', r['text'])

    def test_a_leak_in_descriptors_fails(self):
        xs = minutes(4)
        ys = [40 + int(h * 7.5) for h in xs]        # one descriptor per USB import, every 8 min
        r = judge('fds', xs, ys, 1.0, warmup_hours=0.5)
        self.assertEqual(r['status'], 'fail', r)

    def test_a_leak_below_the_threshold_passes(self):
        rng = random.Random(3)
        xs = minutes(4)
        ys = [80_000 + 100 * h + rng.gauss(0, 300) for h in xs]
        self.assertEqual(judge('rss_kib', xs, ys, RSS_THRESHOLD, warmup_hours=0.5)['status'], 'pass')

    def test_a_step_after_the_warm_up_is_a_step_not_growth(self):
        rng = random.Random(4)
        xs = minutes(4)
        ys = [80_000 + (4096 if h > 1.5 else 0) + rng.gauss(0, 100) for h in xs]   # 4 MiB once, at 1.5 h
        r = judge('rss_kib', xs, ys, RSS_THRESHOLD, warmup_hours=0.5)
        self.assertEqual(r['status'], 'step', r)
        self.assertGreater(r['slope_per_hour'], RSS_THRESHOLD, 'the line over the window does tilt')
        self.assertIn('a step', r['text'])

    def test_a_step_and_then_growth_fails(self):
        xs = minutes(4)
        ys = [80_000 + (4096 if h > 1.5 else 0) + (2048 * (h - 2) if h > 2 else 0) for h in xs]
        self.assertEqual(judge('rss_kib', xs, ys, RSS_THRESHOLD, warmup_hours=0.5)['status'], 'fail')

    def test_the_warm_up_is_left_out(self):
        xs = minutes(4)
        ys = [60_000 + 20_000 * min(h, 0.4) / 0.4 for h in xs]       # fills for 24 min, then flat
        self.assertEqual(judge('rss_kib', xs, ys, RSS_THRESHOLD, warmup_hours=0.5)['status'], 'pass')
        self.assertEqual(judge('rss_kib', xs, ys, RSS_THRESHOLD, warmup_hours=0)['status'], 'step')

    def test_too_few_samples_and_missing_values(self):
        r = judge('frame_ms_p99', [0.1 * i for i in range(10)], [None, 1, 2, None] + [None] * 6, 1.0, warmup_hours=0)
        self.assertEqual(r['status'], 'few')
        self.assertEqual(r['points'], 2)


class VerdictTests(unittest.TestCase):
    def samples(self, leak_kib_per_hour=0, pid_change_at=None, heap_leak_kib_per_hour=None, file_kib_per_hour=0):
        heap_leak = leak_kib_per_hour if heap_leak_kib_per_hour is None else heap_leak_kib_per_hour
        rng = random.Random(5)
        out = []
        for i in range(0, 241):
            out.append({'elapsed_s': i * 60, 'pid': 100 if pid_change_at is None or i < pid_change_at else 200,
                        'nrestarts': 0 if pid_change_at is None or i < pid_change_at else 1, 'active': 'active',
                        'rss_anon_kib': 30_000 + leak_kib_per_hour * i / 60 + rng.gauss(0, 200),
                        'rss_file_kib': 50_000 + file_kib_per_hour * i / 60,
                        'fds': 42, 'threads': 9,
                        'heap_kib': 30_000 + heap_leak * i / 60 + rng.gauss(0, 100),
                        'heap_free_kib': 4_000 + rng.gauss(0, 300),
                        'frame_ms_median': 8 + rng.gauss(0, 0.3), 'frame_ms_p99': 20 + rng.gauss(0, 2),
                        'flips_missed_per_min': 0, 'card_cache_kib': 12_000 if i % 7 else None})
        for row in out:
            row['rss_kib'] = row['rss_anon_kib'] + row['rss_file_kib']
        return out

    def test_a_healthy_run_passes(self):
        passed, results, problems = verdict(self.samples(), warmup_minutes=30)
        self.assertTrue(passed, problems)
        self.assertEqual({r['status'] for r in results}, {'pass', 'info'})
        self.assertEqual({r['series'] for r in results if r['status'] == 'info'}, {'rss_kib', 'rss_file_kib', 'heap_free_kib'})

    def test_a_leak_fails_naming_the_series(self):
        passed, _, problems = verdict(self.samples(leak_kib_per_hour=2048), warmup_minutes=30)
        self.assertFalse(passed)
        self.assertEqual(len(problems), 2, problems)
        self.assertIn('resident memory, anonymous', problems[0])
        self.assertIn('malloc heap in use', problems[1])

    def test_file_pages_read_in_are_recorded_not_judged(self):
        # The binary's pages come in as new code runs (and go under pressure): not a leak.
        passed, results, problems = verdict(self.samples(file_kib_per_hour=4096), warmup_minutes=30)
        self.assertTrue(passed, problems)
        by = {r['series']: r for r in results}
        self.assertEqual(by['rss_file_kib']['status'], 'info')
        self.assertEqual(by['rss_kib']['status'], 'info')
        self.assertGreater(by['rss_kib']['slope_per_hour'], 3000)

    def test_anonymous_growth_with_a_flat_heap_still_fails(self):
        # Pages the arenas keep (fragmentation) cost a board as much as a leak does.
        passed, _, problems = verdict(self.samples(leak_kib_per_hour=2048, heap_leak_kib_per_hour=0), warmup_minutes=30)
        self.assertFalse(passed)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn('resident memory', problems[0])

    def test_a_run_without_the_heap_gauge_is_too_few(self):
        samples = self.samples()
        for s in samples:
            del s['heap_kib']
        passed, _, problems = verdict(samples, warmup_minutes=30)
        self.assertFalse(passed)
        self.assertTrue(any('malloc heap in use' in p for p in problems), problems)

    def test_reloading_is_active_and_failed_is_not(self):
        samples = self.samples()
        samples[50]['active'] = 'reloading'
        self.assertTrue(verdict(samples, warmup_minutes=30)[0])
        samples[60]['active'] = 'failed'
        passed, _, problems = verdict(samples, warmup_minutes=30)
        self.assertFalse(passed)
        self.assertIn('not active at 1 samples (first at 3600 s)', problems[0])

    def test_a_restart_fails(self):
        passed, _, problems = verdict(self.samples(pid_change_at=100), warmup_minutes=30)
        self.assertFalse(passed)
        self.assertIn('restarted', problems[0])

    def test_the_ci_form_judges_against_gross_thresholds(self):
        rng = random.Random(7)

        def ten_minutes(leak_kib_per_minute):
            return [{'elapsed_s': i * 20, 'pid': 1, 'nrestarts': 0, 'active': 'active',
                     'rss_anon_kib': 80_000 + leak_kib_per_minute * i / 3 + rng.gauss(0, 300), 'fds': 32, 'threads': 7,
                     'heap_kib': 30_000 + leak_kib_per_minute * i / 3 + rng.gauss(0, 100)}
                    for i in range(31)]
        self.assertEqual(threshold_factor(ten_minutes(0), 5), SHORT_FACTOR)
        self.assertEqual(threshold_factor(self.samples(), 30), 1)
        passed, _, problems = verdict(ten_minutes(1024 / 60), warmup_minutes=5)    # 1 MiB/h: fails a long run only
        self.assertTrue(passed, problems)
        passed, _, problems = verdict(ten_minutes(2048), warmup_minutes=5)         # 2 MiB a minute
        self.assertFalse(passed)
        self.assertIn('resident memory', problems[0])

    def test_no_samples_after_the_warm_up_fails(self):
        passed, _, problems = verdict(self.samples()[:20], warmup_minutes=30)
        self.assertFalse(passed)
        self.assertTrue(any('too few' in p for p in problems), problems)


class MetricsTests(unittest.TestCase):
    TEXT = '''# HELP kiosk_carousel_frame_duration_seconds Seconds each presented frame took.
# TYPE kiosk_carousel_frame_duration_seconds histogram
kiosk_carousel_frame_duration_seconds_bucket{le="0.005"} 10
kiosk_carousel_frame_duration_seconds_bucket{le="0.01"} 90
kiosk_carousel_frame_duration_seconds_bucket{le="0.02"} 99
kiosk_carousel_frame_duration_seconds_bucket{le="+Inf"} 100
kiosk_carousel_frame_duration_seconds_sum 0.8
kiosk_carousel_frame_duration_seconds_count 100
kiosk_carousel_card_cache_bytes 12582912
'''

    def test_parse_and_buckets(self):
        m = parse_prometheus(self.TEXT)
        self.assertEqual(m['kiosk_carousel_card_cache_bytes'], 12582912)
        self.assertEqual(frame_buckets(m), [(0.005, 10), (0.01, 90), (0.02, 99), (math.inf, 100)])

    def test_quantiles_interpolate_inside_the_bucket(self):
        after = frame_buckets(parse_prometheus(self.TEXT))
        self.assertAlmostEqual(histogram_quantile(0.5, [], after), 0.005 + 0.005 * (50 - 10) / 80)
        self.assertAlmostEqual(histogram_quantile(0.99, [], after), 0.02)
        self.assertEqual(histogram_quantile(1.0, [], after), 0.02, '+Inf: the last finite bound')

    def test_quantiles_of_the_frames_between_two_samples(self):
        before = [(0.005, 10), (0.01, 90), (0.02, 99), (math.inf, 100)]
        after = [(0.005, 10), (0.01, 90), (0.02, 199), (math.inf, 200)]     # 100 new frames, 10-20 ms
        self.assertAlmostEqual(histogram_quantile(0.5, before, after), 0.01 + 0.01 * 50 / 100)
        self.assertIsNone(histogram_quantile(0.5, after, after), 'no frames in between')


if __name__ == '__main__':
    unittest.main()
