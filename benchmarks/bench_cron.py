#!/usr/bin/env python3
"""Benchmark hermes_cron's cron engine (and croniter, when installed).

Run from the repo root:

    python benchmarks/bench_cron.py            # full run, prints a table
    python benchmarks/bench_cron.py --quick    # fewer repeats
    python benchmarks/bench_cron.py --json     # one JSON object on stdout

Measures, for each expression below:
  chained      CronExpr(expr).next_after(dt) called 1,000 times in UTC, each
               result feeding the next call; best of N repeats, us per call.
  parse+first  CronExpr(expr).next_after(start); best of N repeats, us per call.
the same two figures with the zone passed as next_after(dt, tz=...) for the
zones in ZONES (the string "UTC", ZoneInfo("UTC"), a fixed +05:30 offset and
America/New_York, where daylight saving time applies; the start is the same
instant, 2026-01-01T00:00Z), croniter side by side in UTC and New York (it is
given the start in the zone), the bisect floor in every zone (the same 1,000
fires precomputed as epoch seconds: a call is one bisect_right and one
datetime.fromtimestamp in the tzinfo the engine's answers carry, checked equal
to them; issue 24 asks for chained <= 3x it in every zone), and the import cost of hermes_cron (child
`python -c "import hermes_cron"` against `python -c pass`, medians).  Stdlib
only; croniter is optional and only used for the side-by-side comparison.
"""

import argparse
import bisect
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import hermes_cron  # noqa: E402

try:
    from croniter import croniter  # type: ignore
except ImportError:  # pragma: no cover - optional
    croniter = None

EXPRESSIONS = [
    "* * * * *",
    "*/5 * * * *",
    "0 9 * * 1-5",
    "30 2 * * *",
    "0 0 1 * *",
    "0 0 29 2 *",
    "0 0 1,15 * 1",
    "15 14 1 * *",
    "0 22 * * 1-5",
    "23 0-20/2 * * *",
    "5 4 * * sun",
    "0 0 31 * *",
]

START = datetime(2026, 1, 1, tzinfo=timezone.utc)
CHAIN = 1000
TARGET_CHAINED_US = 5.0
TARGET_PARSE_US = 30.0
TARGET_IMPORT_RATIO = 1.5
NEW_YORK = "America/New_York"
ZONEINFO_UTC = "ZoneInfo('UTC')"
TARGET_ZONE_SPEEDUP = 20.0  # chained, hermes_cron vs croniter, UTC and New York
TARGET_ZONE_PARSE_US = 30.0  # parse+first geomean in New York
TARGET_ZONEINFO_UTC_RATIO = 1.15  # ZoneInfo("UTC") chained against the string "UTC"
TARGET_FLOOR_RATIO = 3.0  # chained geomean against the bisect floor's, in every zone


def _zones():
    """Return (label, tz passed to next_after, tzinfo croniter starts in or None)."""
    from zoneinfo import ZoneInfo

    return [
        ("UTC", "UTC", timezone.utc),
        (ZONEINFO_UTC, ZoneInfo("UTC"), None),
        ("+05:30", timezone(timedelta(hours=5, minutes=30)), None),
        (NEW_YORK, NEW_YORK, ZoneInfo(NEW_YORK)),
    ]


def _best(fn, repeats):
    """Best wall time in seconds of fn() over *repeats* runs, gc disabled."""
    best = float("inf")
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
    finally:
        if gc_was_enabled:
            gc.enable()
    return best


def _geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


# -- hermes_cron ------------------------------------------------------------

def hermes_chain(expr):
    cron = hermes_cron.CronExpr(expr)
    dt = START
    out = []
    for _ in range(CHAIN):
        dt = cron.next_after(dt)
        out.append(dt)
    return out


def bench_hermes_chained(expr, repeats):
    # A fresh CronExpr per repeat (built outside the timed region), so any
    # per-object caches are filled inside the 1,000 timed calls.
    objs = [hermes_cron.CronExpr(expr) for _ in range(repeats)]
    best = float("inf")
    for cron in objs:
        def run(cron=cron):
            dt = START
            nxt = cron.next_after
            for _ in range(CHAIN):
                dt = nxt(dt)
        best = min(best, _best(run, 1))
    return best / CHAIN * 1e6


def bench_hermes_parse(expr, iterations, repeats):
    cls = hermes_cron.CronExpr
    start = START

    def run():
        for _ in range(iterations):
            cls(expr).next_after(start)
    return _best(run, repeats) / iterations * 1e6


def hermes_zone_chain(expr, tz):
    cron = hermes_cron.CronExpr(expr)
    dt, out = START, []
    for _ in range(CHAIN):
        dt = cron.next_after(dt, tz)
        out.append(dt)
    return out


def bench_hermes_zone_chained(expr, tz, repeats):
    objs = [hermes_cron.CronExpr(expr) for _ in range(repeats)]
    best = float("inf")
    for cron in objs:
        def run(cron=cron):
            dt = START
            nxt = cron.next_after
            for _ in range(CHAIN):
                dt = nxt(dt, tz)
        best = min(best, _best(run, 1))
    return best / CHAIN * 1e6


def bench_hermes_zone_parse(expr, tz, iterations, repeats):
    cls = hermes_cron.CronExpr
    start = START

    def run():
        for _ in range(iterations):
            cls(expr).next_after(start, tz)
    return _best(run, repeats) / iterations * 1e6


# -- the bisect floor ---------------------------------------------------------

def bench_floor_chained(expr, tz, repeats):
    """The chain answered from a precomputed table: what a lookup alone costs.

    The engine's own 1,000 fires, as epoch seconds, are the table (built
    outside the timed region); each call is one bisect_right on the previous
    answer's timestamp and one datetime.fromtimestamp in the tzinfo the
    engine's answers carry, so both sides return equal aware datetimes.
    """
    fires = hermes_zone_chain(expr, tz)
    tzinfo = fires[0].tzinfo
    table = [f.timestamp() for f in fires]
    dt, got = START, []
    for _ in range(CHAIN):
        dt = datetime.fromtimestamp(table[bisect.bisect_right(table, dt.timestamp())], tzinfo)
        got.append(dt)
    if got != fires or [str(g) for g in got] != [str(f) for f in fires]:
        raise AssertionError(f"the floor's chain differs from the engine's for {expr!r}")

    def run():
        dt = START
        right, fts = bisect.bisect_right, datetime.fromtimestamp
        for _ in range(CHAIN):
            dt = fts(table[right(table, dt.timestamp())], tzinfo)
    return _best(run, repeats) / CHAIN * 1e6


# -- croniter ---------------------------------------------------------------

def croniter_chain(expr):
    it = croniter(expr, START)
    return [it.get_next(datetime) for _ in range(CHAIN)]


def bench_croniter_chained(expr, repeats):
    objs = [croniter(expr, START) for _ in range(repeats)]
    best = float("inf")
    for it in objs:
        def run(it=it):
            nxt = it.get_next
            for _ in range(CHAIN):
                nxt(datetime)
        best = min(best, _best(run, 1))
    return best / CHAIN * 1e6


def bench_croniter_parse(expr, iterations, repeats, start=START):
    def run():
        for _ in range(iterations):
            croniter(expr, start).get_next(datetime)
    return _best(run, repeats) / iterations * 1e6


def bench_croniter_zone_chained(expr, start, repeats):
    objs = [croniter(expr, start) for _ in range(repeats)]
    best = float("inf")
    for it in objs:
        def run(it=it):
            nxt = it.get_next
            for _ in range(CHAIN):
                nxt(datetime)
        best = min(best, _best(run, 1))
    return best / CHAIN * 1e6


def croniter_zone_chain(expr, start):
    it = croniter(expr, start)
    return [it.get_next(datetime) for _ in range(CHAIN)]


# -- zones ------------------------------------------------------------------

def bench_zones(chain_repeats, parse_iters, parse_repeats):
    """Measure every expression in every zone; croniter where it has a start zone."""
    # croniter is slower per call, so fewer calls give the same timing resolution.
    ci_iters = max(100, parse_iters // 5)
    zones = []
    for label, tz, ci_zone in _zones():
        rows, differ = [], []
        for expr in EXPRESSIONS:
            row = {"expr": expr,
                   "chained_us": bench_hermes_zone_chained(expr, tz, chain_repeats),
                   "floor_chained_us": bench_floor_chained(expr, tz, chain_repeats),
                   "parse_first_us": bench_hermes_zone_parse(
                       expr, tz, parse_iters, parse_repeats),
                   "croniter_chained_us": None, "croniter_parse_first_us": None}
            row["vs_floor"] = _ratio(row["chained_us"], row["floor_chained_us"])
            if croniter is not None and ci_zone is not None:
                start = START.astimezone(ci_zone)
                try:
                    if croniter_zone_chain(expr, start) != hermes_zone_chain(expr, tz):
                        differ.append(expr)
                    row["croniter_chained_us"] = bench_croniter_zone_chained(
                        expr, start, chain_repeats)
                    row["croniter_parse_first_us"] = bench_croniter_parse(
                        expr, ci_iters, parse_repeats, start)
                except Exception as exc:  # croniter may reject an expression
                    row["croniter_error"] = f"{type(exc).__name__}: {exc}"
            rows.append(row)
        zone = {"zone": label, "rows": rows,
                "croniter_differs": differ if croniter is not None and ci_zone else None}
        for key in ("chained_us", "floor_chained_us", "parse_first_us",
                    "croniter_chained_us", "croniter_parse_first_us"):
            zone["geomean_" + key] = _geomean([r[key] for r in rows])
        zone["vs_floor"] = _ratio(zone["geomean_chained_us"],
                                  zone["geomean_floor_chained_us"])
        zone["worst_vs_floor"] = max(rows, key=lambda r: r["vs_floor"])["expr"]
        zone["chained_speedup"] = _ratio(zone["geomean_croniter_chained_us"],
                                         zone["geomean_chained_us"])
        zone["parse_first_speedup"] = _ratio(zone["geomean_croniter_parse_first_us"],
                                             zone["geomean_parse_first_us"])
        zones.append(zone)
    base = zones[0]
    for zone in zones:
        zone["chained_vs_utc"] = _ratio(zone["geomean_chained_us"], base["geomean_chained_us"])
        zone["parse_first_vs_utc"] = _ratio(zone["geomean_parse_first_us"],
                                            base["geomean_parse_first_us"])
    return zones


# -- import cost ------------------------------------------------------------

def bench_import(runs):
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    base = [sys.executable, "-c", "pass"]
    imp = [sys.executable, "-c", "import hermes_cron"]

    def once(cmd):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=REPO_ROOT, env=env, check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        return time.perf_counter() - t0

    once(base)
    once(imp)  # warm-up: writes __pycache__ so later runs load bytecode
    t_base, t_imp = [], []
    for _ in range(runs):
        t_base.append(once(base))
        t_imp.append(once(imp))
    med_base = statistics.median(t_base) * 1e3
    med_imp = statistics.median(t_imp) * 1e3
    return {"runs": runs, "python_pass_ms": med_base,
            "import_hermes_cron_ms": med_imp, "ratio": med_imp / med_base}


# -- main -------------------------------------------------------------------

def _fmt(v, width=9, digits=2):
    return f"{v:{width}.{digits}f}" if v is not None else f"{'-':>{width}}"


def _ratio(a, b):
    return a / b if a is not None and b else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    ap.add_argument("--json", action="store_true",
                    help="print the figures as one JSON object")
    args = ap.parse_args(argv)

    chain_repeats = 2 if args.quick else 5
    parse_iters = 500 if args.quick else 3000
    parse_repeats = 2 if args.quick else 5
    import_runs = 10 if args.quick else 30

    rows = []
    mismatches = []
    for expr in EXPRESSIONS:
        row = {"expr": expr,
               "chained_us": bench_hermes_chained(expr, chain_repeats),
               "parse_first_us": bench_hermes_parse(expr, parse_iters, parse_repeats),
               "croniter_chained_us": None, "croniter_parse_first_us": None}
        if croniter is not None:
            try:
                if croniter_chain(expr) != hermes_chain(expr):
                    mismatches.append(expr)
                row["croniter_chained_us"] = bench_croniter_chained(expr, chain_repeats)
                row["croniter_parse_first_us"] = bench_croniter_parse(
                    expr, parse_iters, parse_repeats)
            except Exception as exc:  # croniter may reject an expression
                row["croniter_error"] = f"{type(exc).__name__}: {exc}"
        row["chained_speedup"] = _ratio(row["croniter_chained_us"], row["chained_us"])
        row["parse_first_speedup"] = _ratio(row["croniter_parse_first_us"],
                                            row["parse_first_us"])
        rows.append(row)

    summary = {
        "geomean_chained_us": _geomean([r["chained_us"] for r in rows]),
        "geomean_parse_first_us": _geomean([r["parse_first_us"] for r in rows]),
        "geomean_croniter_chained_us": _geomean([r["croniter_chained_us"] for r in rows]),
        "geomean_croniter_parse_first_us": _geomean(
            [r["croniter_parse_first_us"] for r in rows]),
    }
    summary["geomean_chained_speedup"] = _ratio(
        summary["geomean_croniter_chained_us"], summary["geomean_chained_us"])
    summary["geomean_parse_first_speedup"] = _ratio(
        summary["geomean_croniter_parse_first_us"], summary["geomean_parse_first_us"])
    zones = bench_zones(chain_repeats, parse_iters, parse_repeats)
    by_zone = {z["zone"]: z for z in zones}
    imp = bench_import(import_runs)

    targets = {
        "chained_geomean_us_max": TARGET_CHAINED_US,
        "parse_first_geomean_us_max": TARGET_PARSE_US,
        "import_ratio_max": TARGET_IMPORT_RATIO,
        "chained_ok": summary["geomean_chained_us"] <= TARGET_CHAINED_US,
        "parse_first_ok": summary["geomean_parse_first_us"] <= TARGET_PARSE_US,
        "import_ok": imp["ratio"] <= TARGET_IMPORT_RATIO,
        "zone_chained_speedup_min": TARGET_ZONE_SPEEDUP,
        "zone_parse_first_us_max": TARGET_ZONE_PARSE_US,
        "zoneinfo_utc_ratio_max": TARGET_ZONEINFO_UTC_RATIO,
        "utc_chained_speedup_ok": _at_least(by_zone["UTC"]["chained_speedup"],
                                            TARGET_ZONE_SPEEDUP),
        "new_york_chained_speedup_ok": _at_least(by_zone[NEW_YORK]["chained_speedup"],
                                                 TARGET_ZONE_SPEEDUP),
        "new_york_parse_first_ok":
            by_zone[NEW_YORK]["geomean_parse_first_us"] <= TARGET_ZONE_PARSE_US,
        "zoneinfo_utc_ok":
            by_zone[ZONEINFO_UTC]["chained_vs_utc"] <= TARGET_ZONEINFO_UTC_RATIO,
        "floor_ratio_max": TARGET_FLOOR_RATIO,
        "floor_ok": all(z["vs_floor"] <= TARGET_FLOOR_RATIO for z in zones),
    }
    result = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "hermes_cron_version": getattr(hermes_cron, "__version__", None),
        "croniter_version": _croniter_version(),
        "quick": args.quick,
        "chain_length": CHAIN,
        "chain_repeats": chain_repeats,
        "parse_iterations": parse_iters,
        "parse_repeats": parse_repeats,
        "rows": rows,
        "summary": summary,
        "croniter_mismatches": mismatches if croniter is not None else None,
        "zones": zones,
        "import": imp,
        "targets": targets,
    }
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
        return 0
    _print_table(result)
    return 0


def _at_least(value, floor):
    """True when *value* reaches *floor*; None when it was not measured."""
    return None if value is None else value >= floor


def _croniter_version():
    if croniter is None:
        return None
    try:
        from importlib.metadata import version
        return version("croniter")
    except Exception:
        return "unknown"


def _print_table(res):
    have_ci = croniter is not None
    print(f"hermes_cron {res['hermes_cron_version']} on {res['implementation']} "
          f"{res['python']} ({res['platform']})"
          + (" [quick]" if res["quick"] else ""))
    print(f"chained: next_after x{res['chain_length']} in UTC, best of "
          f"{res['chain_repeats']}; parse+first: CronExpr(expr).next_after(start) "
          f"x{res['parse_iterations']}, best of {res['parse_repeats']}; all in us/call")
    if have_ci:
        print(f"croniter {res['croniter_version']} side by side "
              "(x = croniter time / hermes_cron time)")
    else:
        print("croniter not installed (pip install croniter to compare)")
    print()
    head = f"{'expression':<17} {'chained':>9} {'parse+1st':>9}"
    if have_ci:
        head += f" | {'ci chain':>9} {'x':>6} {'ci c+1st':>9} {'x':>6}"
    print(head)
    print("-" * len(head))
    for r in res["rows"]:
        line = f"{r['expr']:<17} {_fmt(r['chained_us'])} {_fmt(r['parse_first_us'])}"
        if have_ci:
            if "croniter_error" in r:
                line += f" | croniter error: {r['croniter_error']}"
            else:
                line += (f" | {_fmt(r['croniter_chained_us'])} "
                         f"{_fmt(r['chained_speedup'], 6, 1)} "
                         f"{_fmt(r['croniter_parse_first_us'])} "
                         f"{_fmt(r['parse_first_speedup'], 6, 1)}")
        print(line)
    s = res["summary"]
    print("-" * len(head))
    line = (f"{'geometric mean':<17} {_fmt(s['geomean_chained_us'])} "
            f"{_fmt(s['geomean_parse_first_us'])}")
    if have_ci:
        line += (f" | {_fmt(s['geomean_croniter_chained_us'])} "
                 f"{_fmt(s['geomean_chained_speedup'], 6, 1)} "
                 f"{_fmt(s['geomean_croniter_parse_first_us'])} "
                 f"{_fmt(s['geomean_parse_first_speedup'], 6, 1)}")
    print(line)
    if have_ci:
        mm = res["croniter_mismatches"]
        print("croniter agreement on the 1,000 chained fires: "
              + ("all expressions agree" if not mm else "DIFFERS for " + ", ".join(mm)))
    _print_zones(res, have_ci)
    imp, t = res["import"], res["targets"]
    print()
    print(f"import cost (median of {imp['runs']}): python -c pass "
          f"{imp['python_pass_ms']:.1f} ms, python -c 'import hermes_cron' "
          f"{imp['import_hermes_cron_ms']:.1f} ms, ratio {imp['ratio']:.2f}x")
    print()

    def ok(flag):
        return "OK" if flag else "MISSED"
    print("targets:")
    print(f"  chained geomean      <= {t['chained_geomean_us_max']:g} us : "
          f"{s['geomean_chained_us']:.2f} us  {ok(t['chained_ok'])}")
    print(f"  parse+first geomean  <= {t['parse_first_geomean_us_max']:g} us: "
          f"{s['geomean_parse_first_us']:.2f} us  {ok(t['parse_first_ok'])}")
    print(f"  import ratio         <= {t['import_ratio_max']:g}x  : "
          f"{imp['ratio']:.2f}x  {ok(t['import_ok'])}")
    zones = {z["zone"]: z for z in res["zones"]}
    for label, key in (("UTC", "utc_chained_speedup_ok"),
                       (NEW_YORK, "new_york_chained_speedup_ok")):
        if t[key] is not None:
            print(f"  chained vs croniter  >= {t['zone_chained_speedup_min']:g}x  : "
                  f"{zones[label]['chained_speedup']:.1f}x in {label}  {ok(t[key])}")
    print(f"  parse+first in NY    <= {t['zone_parse_first_us_max']:g} us: "
          f"{zones[NEW_YORK]['geomean_parse_first_us']:.2f} us  "
          f"{ok(t['new_york_parse_first_ok'])}")
    print(f"  ZoneInfo('UTC')/'UTC' <= {t['zoneinfo_utc_ratio_max']:g}x: "
          f"{zones[ZONEINFO_UTC]['chained_vs_utc']:.2f}x "
          f"chained  {ok(t['zoneinfo_utc_ok'])}")
    print(f"  chained / bisect floor <= {t['floor_ratio_max']:g}x in every zone: "
          + ", ".join(f"{z}: {zones[z]['vs_floor']:.2f}x" for z in zones)
          + f"  {ok(t['floor_ok'])}")


def _print_zones(res, have_ci):
    """Print the per-zone tables: New York per expression, then every zone's geomeans."""
    zones = res["zones"]
    ny = next(z for z in zones if z["zone"] == NEW_YORK)
    print()
    print(f"{NEW_YORK}: next_after(dt, tz={NEW_YORK!r}), same start instant; croniter "
          "starts from that instant in the zone")
    head = f"{'expression':<17} {'chained':>9} {'parse+1st':>9}"
    if have_ci:
        head += f" | {'ci chain':>9} {'x':>6} {'ci p+1st':>9} {'x':>6}"
    print(head)
    print("-" * len(head))
    for r in ny["rows"]:
        line = f"{r['expr']:<17} {_fmt(r['chained_us'])} {_fmt(r['parse_first_us'])}"
        if have_ci:
            if "croniter_error" in r:
                line += f" | croniter error: {r['croniter_error']}"
            else:
                line += (f" | {_fmt(r['croniter_chained_us'])} "
                         f"{_fmt(_ratio(r['croniter_chained_us'], r['chained_us']), 6, 1)} "
                         f"{_fmt(r['croniter_parse_first_us'])} "
                         f"{_fmt(_ratio(r['croniter_parse_first_us'], r['parse_first_us']), 6, 1)}")
        print(line)
    print()
    print("by zone (geometric means over the expressions; 'vs UTC' = this zone's time / "
          "the time with tz='UTC'; floor = the bisect floor, the first x = chained / floor; "
          "later x = croniter time / hermes_cron time)")
    head = (f"{'zone':<17} {'chained':>9} {'vs UTC':>6} {'floor':>6} {'x':>5} "
            f"{'parse+1st':>9} {'vs UTC':>6}")
    if have_ci:
        head += f" | {'ci chain':>9} {'x':>6} {'ci p+1st':>9} {'x':>6}"
    print(head)
    print("-" * len(head))
    for z in zones:
        line = (f"{z['zone']:<17} {_fmt(z['geomean_chained_us'])} "
                f"{_fmt(z['chained_vs_utc'], 6, 2)} {_fmt(z['geomean_floor_chained_us'], 6)} "
                f"{_fmt(z['vs_floor'], 5, 1)} {_fmt(z['geomean_parse_first_us'])} "
                f"{_fmt(z['parse_first_vs_utc'], 6, 2)}")
        if have_ci:
            line += (f" | {_fmt(z['geomean_croniter_chained_us'])} "
                     f"{_fmt(z['chained_speedup'], 6, 1)} "
                     f"{_fmt(z['geomean_croniter_parse_first_us'])} "
                     f"{_fmt(z['parse_first_speedup'], 6, 1)}")
        print(line)
    print("worst expression against the floor: " + "; ".join(
        f"{z['zone']} {z['worst_vs_floor']!r} "
        f"{max(r['vs_floor'] for r in z['rows']):.1f}x" for z in zones))
    if have_ci:
        for z in zones:
            if z["croniter_differs"]:
                print(f"croniter differs in {z['zone']} for {', '.join(z['croniter_differs'])}"
                      " (daylight saving rules: hermes_cron follows cronie)")


if __name__ == "__main__":
    sys.exit(main())
