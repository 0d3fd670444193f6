#!/usr/bin/env python3
"""Benchmark hermes_cron at scale: issue 11's outcomes, each against a floor of the same run.

Run from the repo root:

    python benchmarks/bench_scale.py                 # full run (5-15 min), prints a table
    python benchmarks/bench_scale.py --quick         # smaller sizes, fewer runs (1-3 min)
    python benchmarks/bench_scale.py --json          # one JSON object on stdout
    python benchmarks/bench_scale.py --only empty,reads   # some figures only

Every figure runs child processes (`python -m hermes_cron --home H ...`,
cwd the repo root; the floors on the same interpreter, sys.executable)
with bytecode caching on (PYTHONDONTWRITEBYTECODE and every HERMES_CRON_*
variable but HERMES_CRON_SQLITE_WAL removed from the child's environment) and HERMES_CRON_NOW pinned.  A command and its floor
alternate in one loop (the order rotates every round) after an unmeasured
warm-up of each, and medians are compared: the machine is noisy.  Stores
are built the way bench_tick.py builds them: one job through the real CLI,
cloned in jobs.json with fresh 12-hex ids and unique names (so the first
tick sees a hand-edited store; that tick is always a warm-up).  Ledgers are
created by the module (`hermes_cron._Ledger(home).connect()`, so its
journal mode and auto_vacuum apply) and then seeded with sqlite3 directly:
terminal `completed` rows spread over the store's job ids, one a day per
job going back in time (claimed/finished UTC ISO stamps in the past).

1. busy     N script jobs (`* * * * *`, `--no-agent --script noop.sh`, the
            script in <home>/../scripts) all due at the pinned now,
            config.json {"max_parallel": N}; N = 1, 100, 1,000 (quick: 1,
            300).  Each measured run gets a fresh copy of a template home
            (the copy is not timed).  Timed: `tick`.  Checked after every
            run: exit 0, no "locked" in its output, executions.db holds
            exactly N completed rows and no (job_id, scheduled_instant)
            twice, and a second tick at the same instant fires nothing.
            Floor: benchmarks/floor_busy_tick.py (flock, json load, 3 SQLite
            commits per fire in the journal mode the module used for this
            home's executions.db, read back after its warm-up tick, with
            synchronous=FULL, noop.sh exec'd directly per fire, as the
            tick runs an executable `#!` script, on up to N threads, one
            atomic jobs.json write).  Target: <= 1.5x.
2. fairness 60 every-minute script jobs, max_parallel 3, 20 ticks a minute
            apart.  Reported: distinct jobs that ran (target: all 60), runs,
            duplicate occurrences (must be 0) and `cron_skips` rows with
            reason `max_parallel` (target: > 0, every hold-back recorded).
3. empty    `tick` with nothing due on homes of 1k / 10k / 100k jobs (quick:
            1k / 10k / 20k) and ledgers of 0 / 20k / 1M terminal rows
            (quick: 0 / 20k / 200k).  The first tick after seeding is a
            warm-up (it may prune, build caches or indexes): rows before and
            after it are reported.  Measured rounds tick a minute apart
            (HERMES_CRON_NOW steps by 60 s; the jobs are due tomorrow).  Time and peak RSS (os.wait4) of each
            tick.  Targets: tick at 20k rows <= 1.2x the tick at 0 rows
            (every store size; the largest ledger is shown for information);
            at the largest store, tick <= 1.5x (issue 24.2) and RSS <= 1.3x
            the stdlib lower bound benchmarks/floor_empty_tick.py (python
            start, flock .tick.lock, stat jobs.json, read a few-hundred-byte
            summary, heartbeat via temp + rename), run as a script and, as
            the tick is started, with `python -m`.  The homes have a
            config.json, aged 2 s before the measured rounds (a tick trusts
            its stamp, .config.seen, only then).  Checked: no measured tick fires
            anything, and after the loop a same-size hand edit of jobs.json
            that makes one job due is noticed by the next tick (untimed).
4. prune    10 live script jobs (one due), 30,000 ledger rows of 1,500 job
            ids that are not in the store (20 each).  One tick (timed,
            reported) fires the due job.  Target: rows after <= 1,000 + 20
            per live job, and the file (plus -wal) at most half its size
            before (free pages reclaimed).
5. writes   `add` and `edit JOB --name x` (a job in the middle of the
            store) with 100 vs 10,000 jobs stored, whole CLI process,
            alternated.  Target: 10k <= 5x 100.
6. reads    `runs --limit 20`, `runs JOB`, `status`, `incidents`, `metrics`,
            `list` on a home of 1,000 jobs with a 1M-row ledger (quick: 200k)
            that no tick has pruned, the same home with an empty ledger and
            with one page of rows (20, all of JOB: the page `runs` prints at
            1M rows too), alternated with `python -c "import hermes_cron"`.
            Figures: median CLI time minus median import time (target <= 50
            ms at the large ledger) and the whole CLI at the large ledger
            against one page (issue 24.3: <= 1.2x; against 0 rows printed
            too, where `runs` prints one line and reads no job names).
7. ledger   bench_tick.py's part (b): claim -> start -> finish through
            hermes_cron._Ledger vs the same three raw commits, in the journal
            mode (and auto_vacuum) the module chose for its file.  Target:
            >= 80% of raw.
8. store    (issue 24.4) `list` on a home of 100k jobs (quick: 20k) beside
            `floor_store.py load` (a json.load of the same jobs.json), and
            `edit JOB --name x` at 10,000 jobs beside `floor_store.py write`
            (flock, load, set the name, encode one job per line, temp +
            fsync + rename + fsync dir, due summary).  Whole processes,
            alternated.  Targets: list <= 1.5x, edit <= 1.2x.

Stdlib only.  Temp dirs (several GB on a full run) are removed at the end
unless --keep.
"""

import argparse
import collections
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(BENCH_DIR)
sys.path.insert(0, REPO_ROOT)

FLOOR_BUSY = os.path.join(BENCH_DIR, "floor_busy_tick.py")
FLOOR_EMPTY = os.path.join(BENCH_DIR, "floor_empty_tick.py")
FLOOR_STORE = os.path.join(BENCH_DIR, "floor_store.py")
PY = sys.executable

CREATE_NOW = "2026-03-06T12:00:30+00:00"  # jobs are created here
BUSY_NOW = "2026-03-06T12:01:00+00:00"    # the slot every `* * * * *` job is due at
EMPTY_NOW = "2026-03-06T12:00:40+00:00"   # `0 9 * * *` jobs: next run tomorrow
SEED_BASE = datetime(2026, 3, 6, 9, 0, tzinfo=timezone.utc)  # rows: the days before

FIGURES = ("busy", "fairness", "empty", "prune", "writes", "reads", "ledger", "store")
TARGET_BUSY = 1.5
TARGET_EMPTY_LEDGER = 1.2
TARGET_EMPTY_FLOOR = 1.5  # issue 24.2 (issue 11 asked 1.1x of an interpreter with .pth files)
TARGET_EMPTY_RSS = 1.3
TARGET_PRUNE_KEEP, TARGET_PRUNE_PER_JOB = 1000, 20
TARGET_WRITES = 5.0
TARGET_LIST_FLOOR, TARGET_WRITE_FLOOR = 1.5, 1.2  # issue 24.4
TARGET_READ_MS = 50.0
TARGET_READ_FLAT = 1.2  # issue 24.3: the large ledger against one page of rows
PAGE_ROWS = 20
FAST_READS = ("runs --limit 20", "runs JOB", "status", "incidents")
TARGET_LEDGER = 0.80

SIZES = {  # (full, quick)
    "busy_due": ((1, 100, 1000), (1, 300)),
    "busy_runs": ({1: 7, 100: 5, 1000: 5}, {1: 5, 300: 5}),
    "empty_jobs": ((1000, 10_000, 100_000), (1000, 10_000, 20_000)),
    "empty_rows": ((0, 20_000, 1_000_000), (0, 20_000, 200_000)),
    "empty_runs": ({1000: 9, 10_000: 7, 100_000: 5}, {1000: 5, 10_000: 5, 20_000: 5}),
    "writes_runs": (11, 5),
    "reads_rows": (1_000_000, 200_000),
    "reads_runs": (9, 5),
    "ledger_fires": (300, 60),
    "store_list_jobs": (100_000, 20_000),
    "store_runs": (7, 5),
}
FAIR_JOBS, FAIR_PARALLEL, FAIR_TICKS = 60, 3, 20
PRUNE_LIVE, PRUNE_ROWS, PRUNE_GHOSTS = 10, 30_000, 1500
WRITES_SMALL, WRITES_BIG = 100, 10_000
READS_JOBS = 1000


class BenchError(Exception):
    pass


def log(msg):
    print(f"[bench_scale {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# -- processes ---------------------------------------------------------------

Run = collections.namedtuple("Run", "ms rc out err rss_kib")


def child_env(now=None):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("HERMES_CRON_") or k == "HERMES_CRON_SQLITE_WAL"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if now is not None:
        env["HERMES_CRON_NOW"] = now
    return env


# Children are started by a small helper process (`python -S -I`, ~8.5 MiB),
# not by this one: on Linux a child's ru_maxrss includes the RSS of the
# process it was forked from (the high-water mark survives exec), so a child
# of this benchmark (tens of MiB after seeding) would report our RSS, not its
# own.  The spawner forks, execs, waits with os.wait4 and times fork -> reap.
# Protocol on its stdin/stdout: an 8-byte length, then a marshal payload.
_SPAWNER = r"""
import marshal, os, sys, time
def read(n):
    buf = b""
    while len(buf) < n:
        chunk = os.read(0, n - len(buf))
        if not chunk:
            sys.exit(0)
        buf += chunk
    return buf
while True:
    argv, env, cwd, out, err = marshal.loads(read(int(read(8))))
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.chdir(cwd)
            nul = os.open(os.devnull, os.O_RDONLY)
            fo = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            fe = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(nul, 0); os.dup2(fo, 1); os.dup2(fe, 2)
            os.closerange(3, 65536)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    ms = (time.perf_counter() - t0) * 1e3
    reply = marshal.dumps((ms, os.waitstatus_to_exitcode(status), usage.ru_maxrss))
    os.write(1, b"%8d" % len(reply) + reply)
"""


class _Spawner:
    def __init__(self):
        self.proc = None
        self.scratch = None

    def run(self, cmd, env, cwd):
        import marshal

        if self.proc is None:
            self.scratch = tempfile.mkdtemp(prefix="bench_scale_io_")
            self.proc = subprocess.Popen([PY, "-S", "-I", "-c", _SPAWNER], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, env={}, cwd="/")
        out, err = (os.path.join(self.scratch, n) for n in ("out", "err"))
        argv = [shutil.which(cmd[0]) or cmd[0]] + list(cmd[1:])
        payload = marshal.dumps((argv, dict(env), cwd, out, err))
        self.proc.stdin.write(b"%8d" % len(payload) + payload)
        self.proc.stdin.flush()
        size = self.proc.stdout.read(8)
        if len(size) != 8:
            raise BenchError(f"the spawner died (exit {self.proc.wait()})")
        ms, rc, rss = marshal.loads(self.proc.stdout.read(int(size)))
        with open(out, "rb") as f:
            text_out = f.read().decode("utf-8", "replace")
        with open(err, "rb") as f:
            text_err = f.read().decode("utf-8", "replace")
        return Run(ms, rc, text_out, text_err, rss)

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None


_SPAWN = _Spawner()


def run(cmd, env, cwd=REPO_ROOT):
    """Run *cmd*; return its wall time (ms), exit code, output and peak RSS (KiB)."""
    return _SPAWN.run(cmd, env, cwd)


def hermes(home, *args):
    return [PY, "-m", "hermes_cron", "--home", home, *args]


def must(result, what, rcs=(0,)):
    if result.rc not in rcs or "Traceback (most recent call last)" in result.err:
        raise BenchError(f"{what}: exit {result.rc}\nstdout: {result.out[-2000:]}\n"
                         f"stderr: {result.err[-2000:]}")
    return result


def one_line(text, cap=300):
    """The last *cap* characters of *text* on one line (tracebacks, stderr)."""
    text = " ".join(str(text).split())
    return text if len(text) <= cap else "..." + text[-cap:]


def med(values):
    return statistics.median(values) if values else float("nan")


# -- homes, stores and ledgers -------------------------------------------------

def write_noop(parent):
    scripts = os.path.join(parent, "scripts")
    os.makedirs(scripts, exist_ok=True)
    path = os.path.join(scripts, "noop.sh")
    with open(path, "w") as f:
        f.write("#!/bin/sh\necho ok\n")
    os.chmod(path, 0o755)


def make_home(home, config=None):
    os.makedirs(home, mode=0o700, exist_ok=True)
    if config is not None:
        with open(os.path.join(home, "config.json"), "w") as f:
            json.dump(config, f)


def build_store(home, n_jobs, schedule, *, script=None, seed=0):
    """One job through the CLI, cloned to *n_jobs*; return (ids, next_run_at)."""
    args = ["add", schedule] + (["--no-agent", "--script", script] if script else ["prompt"])
    must(run(hermes(home, *args, "--name", "j0"), child_env(CREATE_NOW)), "add j0")
    path = os.path.join(home, "jobs.json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text)
    template = doc["jobs"][0]
    rng = random.Random(seed or n_jobs)
    ids, jobs = {template["id"]}, [template]
    for i in range(1, n_jobs):
        job_id = template["id"]
        while job_id in ids:
            job_id = f"{rng.getrandbits(48):012x}"
        ids.add(job_id)
        jobs.append(dict(template, id=job_id, name=f"j{i}"))
    doc["jobs"] = jobs
    if text.startswith('{\n  "'):  # the module's layout: indent=2
        data = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    else:  # compact layout: one job per line
        rest = {k: v for k, v in doc.items() if k != "jobs"}
        data = ('{"jobs": [\n' + ",\n".join(json.dumps(j, ensure_ascii=False) for j in jobs)
                + "\n]" + "".join(f", {json.dumps(k)}: {json.dumps(v)}" for k, v in rest.items())
                + "}\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(data)
    return [j["id"] for j in jobs], template.get("next_run_at")


def create_ledger(home):
    """Create executions.db the way the module does (journal mode, auto_vacuum, schema)."""
    import hermes_cron as hc

    try:
        led = hc._Ledger(home, child_env())
    except TypeError:
        led = hc._Ledger(home)
    led.connect()
    led.close()


def db_path(home):
    return os.path.join(home, "executions.db")


def db_query(home, sql, params=()):
    conn = sqlite3.connect(db_path(home), timeout=30)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def db_bytes(home):
    return sum(os.path.getsize(p) for p in (db_path(home), db_path(home) + "-wal")
               if os.path.exists(p))


def seed_rows(home, job_ids, n_rows, *, base=SEED_BASE):
    """Insert *n_rows* completed rows spread over *job_ids*, oldest first.

    Job j's k-th newest row is its run of day base - k days (claimed j % 60 s
    after 09:00, finished 2 s later).  Indexes are dropped and rebuilt from
    their own SQL around the insert (one transaction), which is faster.
    """
    if n_rows <= 0:
        return
    n_jobs = len(job_ids)
    per_job = -(-n_rows // n_jobs)
    conn = sqlite3.connect(db_path(home), isolation_level=None, timeout=30)
    try:
        cols = {r[1] for r in conn.execute("PRAGMA table_info(executions)")}
        names = ["id", "job_id", "source", "process_id", "pid", "process_started_at", "status",
                 "claimed_at", "started_at", "finished_at", "error", "handoff_pending",
                 "delivery_outcome", "scheduled_instant"]
        missing = [c for c in names if c not in cols]
        if missing:
            raise BenchError(f"executions has no column(s) {missing}: update seed_rows")
        sql = (f"INSERT INTO executions ({', '.join(names)}) "
               f"VALUES ({', '.join('?' * len(names))})")

        def rows():
            made = 0
            for back in range(per_job, 0, -1):
                day = base - timedelta(days=back)
                slot = day.isoformat()
                process_id = f"{back:032x}"
                for j, job_id in enumerate(job_ids):
                    if made == n_rows:
                        return
                    claimed = day + timedelta(seconds=j % 60)
                    yield (os.urandom(16).hex(), job_id, "builtin", process_id, 4242, None,
                           "completed", claimed.isoformat(), claimed.isoformat(),
                           (claimed + timedelta(seconds=2)).isoformat(), None, 0,
                           "not_configured", slot)
                    made += 1

        indexes = conn.execute("SELECT name, sql FROM sqlite_master WHERE type='index' AND "
                               "tbl_name='executions' AND sql IS NOT NULL").fetchall()
        conn.execute("BEGIN IMMEDIATE")
        for name, _ in indexes:
            conn.execute(f'DROP INDEX "{name}"')
        conn.executemany(sql, rows())
        for _, ddl in indexes:
            conn.execute(ddl)
        conn.execute("COMMIT")
    finally:
        conn.close()


def row_count(home):
    if not os.path.exists(db_path(home)):
        return 0
    return db_query(home, "SELECT count(*) FROM executions")[0][0]


class Cache:
    """Pristine homes, built once and copied: stores by size, seeded ledgers by (size, rows)."""

    def __init__(self, root):
        self.root = os.path.join(root, "pristine")
        self.stores = {}
        self.ledgers = {}

    def store(self, n_jobs):
        if n_jobs not in self.stores:
            home = os.path.join(self.root, f"store_{n_jobs}", "home")
            log(f"building a store of {n_jobs:,} jobs")
            make_home(home, {"max_parallel": 4})  # a home has a config, as users' do
            ids, next_run_at = build_store(home, n_jobs, "0 9 * * *")
            self.stores[n_jobs] = (home, ids, next_run_at)
        return self.stores[n_jobs]

    def ledger(self, n_jobs, n_rows):
        key = (n_jobs, n_rows)
        if key not in self.ledgers:
            src, ids, next_run_at = self.store(n_jobs)
            home = os.path.join(self.root, f"ledger_{n_jobs}_{n_rows}", "home")
            shutil.copytree(src, home)
            create_ledger(home)
            log(f"seeding {n_rows:,} rows over {n_jobs:,} jobs")
            seed_rows(home, ids, n_rows)
            self.ledgers[key] = home
        return self.ledgers[key], self.stores[n_jobs][1], self.stores[n_jobs][2]


def copy_home(src_home, dest_parent):
    """Copy *src_home*'s parent dir (home + scripts) to *dest_parent*; return the new home."""
    shutil.copytree(os.path.dirname(src_home), dest_parent)
    return os.path.join(dest_parent, os.path.basename(src_home))


def rotate(items, i):
    i %= len(items)
    return items[i:] + items[:i]


# -- 1. busy tick ----------------------------------------------------------------

def verify_busy(home, n, result, env):
    problems = []
    if result.rc != 0:
        problems.append(f"tick exit {result.rc}: {one_line(result.err)}")
    text = (result.out + result.err).lower()
    if "locked" in text:
        problems.append(f"'locked' in the tick's output ({text.count('locked')} times)")
    if not os.path.exists(db_path(home)):
        return problems + ["no executions.db"], None
    total, completed, dups = db_query(
        home, "SELECT count(*), sum(status='completed'), (SELECT count(*) FROM (SELECT 1 FROM "
        "executions GROUP BY job_id, scheduled_instant HAVING count(*) > 1)) FROM executions")[0]
    completed = completed or 0
    if completed != n or total != n:
        problems.append(f"{completed} completed of {total} rows, want {n}")
    if dups:
        problems.append(f"{dups} occurrences claimed twice")
    mode = db_query(home, "PRAGMA journal_mode")[0][0].lower()
    again = run(hermes(home, "tick"), env)
    after = row_count(home)
    if again.rc != 0 or after != total:
        problems.append(f"a second tick at the same instant: exit {again.rc}, rows {total} -> "
                        f"{after}: {one_line(again.err, 200)}")
    return problems, mode


def verify_floor(home, n, result):
    problems = []
    if result.rc != 0 or result.out.strip() != str(n):
        problems.append(f"floor exit {result.rc}, stdout {result.out.strip()!r}, "
                        f"stderr {one_line(result.err)!r}")
    completed = db_query(home, "SELECT count(*) FROM executions WHERE status='completed'")[0][0]
    if completed != n:
        problems.append(f"floor: {completed} completed rows, want {n}")
    return problems


def bench_busy(root, due_sizes, runs_by_size):
    out = []
    env = child_env(BUSY_NOW)
    for n in due_sizes:
        base = os.path.join(root, f"busy_{n}")
        tpl = os.path.join(base, "tpl")
        home = os.path.join(tpl, "home")
        write_noop(tpl)
        make_home(home, {"max_parallel": n})
        log(f"busy: building {n} due script jobs")
        build_store(home, n, "* * * * *", script="noop.sh")
        # A tick before the slot: nothing due; lets the module see the hand-made
        # store and create its ledger, as a home that ticks every minute has.
        must(run(hermes(home, "tick"), child_env(CREATE_NOW)), "busy pre-tick")
        if not os.path.exists(db_path(home)):
            create_ledger(home)
        if row_count(home):
            raise BenchError("busy: the pre-tick fired something")
        counter = iter(range(10**6))
        # Replaced by the mode read back after the warm-up tick (the module may
        # switch modes on its first write); this is the mode of the new file.
        problems, mode = [], db_query(home, "PRAGMA journal_mode")[0][0].lower()

        def one(kind):
            nonlocal mode
            d = os.path.join(base, f"run{next(counter)}")
            h = copy_home(home, d)
            try:
                if kind == "tick":
                    r = run(hermes(h, "tick"), env)
                    p, m = verify_busy(h, n, r, env)
                    if m and kind_is_warmup[0]:
                        mode = m
                else:
                    r = run([PY, FLOOR_BUSY, h, "--journal-mode", mode], env)
                    p = verify_floor(h, n, r)
                problems.extend(f"{kind}: {x}" for x in p)
                return r.ms
            finally:
                shutil.rmtree(d, ignore_errors=True)

        runs = runs_by_size.get(n, 3)
        log(f"busy: {n} due, warm-up + {runs} runs each")
        kind_is_warmup = [True]
        one("tick")  # warm-up; also reads back the journal mode the module used
        kind_is_warmup[0] = False
        one("floor")
        times = {"tick": [], "floor": []}
        for i in range(runs):
            for kind in rotate(["tick", "floor"], i):
                times[kind].append(one(kind))
        row = {"due": n, "runs": runs, "journal_mode": mode,
               "tick_median_ms": med(times["tick"]), "floor_median_ms": med(times["floor"]),
               "tick_min_ms": min(times["tick"]), "floor_min_ms": min(times["floor"]),
               "problems": sorted(set(problems))}
        row["ratio"] = row["tick_median_ms"] / row["floor_median_ms"]
        row["ok"] = row["ratio"] <= TARGET_BUSY and not row["problems"]
        out.append(row)
        shutil.rmtree(base, ignore_errors=True)
    return out


# -- 2. fairness ---------------------------------------------------------------------

def bench_fairness(root):
    base = os.path.join(root, "fairness")
    home = os.path.join(base, "home")
    write_noop(base)
    make_home(home, {"max_parallel": FAIR_PARALLEL})
    ids, _ = build_store(home, FAIR_JOBS, "* * * * *", script="noop.sh")
    start = datetime.fromisoformat(BUSY_NOW)
    problems, ms = [], []
    log(f"fairness: {FAIR_TICKS} ticks of {FAIR_JOBS} jobs at max_parallel {FAIR_PARALLEL}")
    for t in range(FAIR_TICKS):
        now = (start + timedelta(seconds=60 * t)).isoformat()
        r = run(hermes(home, "tick"), child_env(now))
        ms.append(r.ms)
        if r.rc != 0:
            problems.append(f"tick at {now}: exit {r.rc}: {one_line(r.err, 200)}")
    ran = db_query(home, "SELECT count(DISTINCT job_id), count(*), sum(status='completed') "
                         "FROM executions")[0]
    dups = db_query(home, "SELECT count(*) FROM (SELECT 1 FROM executions WHERE "
                          "scheduled_instant IS NOT NULL GROUP BY job_id, scheduled_instant "
                          "HAVING count(*) > 1)")[0][0]
    skips = db_query(home, "SELECT count(*), count(DISTINCT job_id) FROM cron_skips "
                           "WHERE reason='max_parallel'")[0]
    if dups:
        problems.append(f"{dups} occurrences ran twice")
    res = {"jobs": FAIR_JOBS, "max_parallel": FAIR_PARALLEL, "ticks": FAIR_TICKS,
           "distinct_jobs_ran": ran[0], "runs": ran[1], "completed": ran[2] or 0,
           "duplicate_occurrences": dups, "max_parallel_skips": skips[0],
           "max_parallel_skipped_jobs": skips[1], "tick_median_ms": med(ms),
           "problems": problems}
    res["ok"] = ran[0] == FAIR_JOBS and skips[0] > 0 and not problems
    shutil.rmtree(base, ignore_errors=True)
    return res


# -- 3. empty tick ---------------------------------------------------------------

def write_floor_summary(home, next_run_at):
    st = os.stat(os.path.join(home, "jobs.json"))
    epoch = int(datetime.fromisoformat(next_run_at).timestamp())
    text = (f"jobs_json_size={st.st_size}\njobs_json_mtime_ns={st.st_mtime_ns}\n"
            f"next_due={epoch}\n")
    text += "pad=" + "." * max(0, 300 - len(text) - 5) + "\n"  # a few hundred bytes
    with open(os.path.join(home, ".floor_summary"), "w") as f:
        f.write(text)


def hand_edit_due(home, job_id, when):
    """Set *job_id*'s next_run_at to *when* in jobs.json in place (same size), as a person would."""
    import re

    path = os.path.join(home, "jobs.json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    at = re.search(r'"id"\s*:\s*"%s"' % re.escape(job_id), text)
    value = re.compile(r'"next_run_at"\s*:\s*"([^"]*)"').search(text, at.end()) if at else None
    new = when.astimezone(timezone.utc).isoformat()
    if value is None or len(value.group(1)) != len(new):
        raise BenchError(f"cannot hand-edit next_run_at of {job_id} in {path}")
    text = text[:value.start(1)] + new + text[value.end(1):]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return job_id


def bench_empty(root, cache, job_sizes, row_levels, runs_by_size):
    out = []
    env = child_env(EMPTY_NOW)
    for n_jobs in job_sizes:
        base = os.path.join(root, f"empty_{n_jobs}")
        homes, rows_before, rows_after = {}, {}, {}
        for n_rows in row_levels:
            src, _, next_run_at = cache.ledger(n_jobs, n_rows)
            homes[n_rows] = copy_home(src, os.path.join(base, f"rows_{n_rows}"))
            rows_before[n_rows] = row_count(homes[n_rows])
        runs = runs_by_size.get(n_jobs, 3)
        log(f"empty: {n_jobs:,} jobs, rows {list(row_levels)}, warm-up + {runs} runs each")
        for n_rows, h in homes.items():  # warm-up: the first tick after seeding
            must(run(hermes(h, "tick"), env), f"empty warm-up tick ({n_jobs} jobs, {n_rows} rows)")
            rows_after[n_rows] = row_count(h)
        floor_home = homes[row_levels[0]]
        # The floor twice: as a script, and started as the tick is (`python -m`,
        # which imports runpy and importlib.util before the module runs).
        cases = [("floor", [PY, FLOOR_EMPTY, floor_home], REPO_ROOT),
                 ("floor_m", [PY, "-m", "floor_empty_tick", floor_home], BENCH_DIR)]
        cases += [(f"tick_{r}", hermes(h, "tick"), REPO_ROOT) for r, h in homes.items()]
        write_floor_summary(floor_home, next_run_at)
        for name, cmd, cwd in cases[:2]:
            must(run(cmd, env, cwd), f"{name} warm-up")
        # The copies' config.json has a new ctime, and a tick trusts a config's
        # stamp only once it is 2 s old (see .config.seen): let it age, as a
        # real home's config has, then give each home the tick that keeps it.
        time.sleep(2.5)
        for n_rows, h in homes.items():
            must(run(hermes(h, "tick"), env), f"empty config tick ({n_jobs} jobs, {n_rows} rows)")
        times = {name: [] for name, _, _ in cases}
        rss = {name: [] for name, _, _ in cases}
        for i in range(runs):
            # Round i ticks a minute after round i-1 (as a ticker does; every 5th
            # minute may reap), all cases of a round at the same instant.
            env_i = child_env((datetime.fromisoformat(EMPTY_NOW)
                               + timedelta(seconds=60 * (i + 1))).isoformat())
            for name, cmd, cwd in rotate(cases, i):
                if name.startswith("floor"):
                    write_floor_summary(floor_home, next_run_at)
                r = must(run(cmd, env_i, cwd), f"empty {name} ({n_jobs} jobs)")
                times[name].append(r.ms)
                rss[name].append(r.rss_kib / 1024)
        problems = [f"{r:,} rows: a tick fired something ({rows_after[r]} -> {row_count(h)} rows)"
                    for r, h in homes.items() if row_count(h) != rows_after[r]]
        # Not timed: a same-size hand edit that makes one job due must be noticed.
        edit_now = (datetime.fromisoformat(EMPTY_NOW) + timedelta(seconds=60 * (runs + 1)))
        job_id = hand_edit_due(floor_home, cache.store(n_jobs)[1][n_jobs // 2],
                               datetime.fromisoformat(EMPTY_NOW).replace(second=0))
        r = run(hermes(floor_home, "tick"), child_env(edit_now.isoformat()))
        if r.rc != 0 or job_id not in r.out:
            problems.append(f"a hand edit making job {job_id} due was not noticed "
                            f"(tick exit {r.rc}: {one_line(r.out + r.err, 200)})")
        row = {"jobs": n_jobs, "runs": runs, "problems": problems,
               "jobs_json_bytes": os.path.getsize(os.path.join(floor_home, "jobs.json")),
               "floor_median_ms": med(times["floor"]), "floor_rss_mib": max(rss["floor"]),
               "floor_m_median_ms": med(times["floor_m"]), "ledgers": []}
        zero = med(times[f"tick_{row_levels[0]}"])
        for n_rows in row_levels:
            t = med(times[f"tick_{n_rows}"])
            row["ledgers"].append({
                "rows_seeded": n_rows, "rows_before_warmup": rows_before[n_rows],
                "rows_after_warmup": rows_after[n_rows], "tick_median_ms": t,
                "tick_min_ms": min(times[f"tick_{n_rows}"]), "tick_rss_mib": max(rss[f"tick_{n_rows}"]),
                "ratio_vs_zero_rows": t / zero, "ratio_vs_floor": t / row["floor_median_ms"],
                "ratio_vs_floor_m": t / row["floor_m_median_ms"],
                "rss_ratio_vs_floor": max(rss[f"tick_{n_rows}"]) / row["floor_rss_mib"]})
        out.append(row)
        shutil.rmtree(base, ignore_errors=True)
    return out


# -- 4. prune ----------------------------------------------------------------------

def bench_prune(root):
    base = os.path.join(root, "prune")
    home = os.path.join(base, "home")
    write_noop(base)
    make_home(home)
    log(f"prune: {PRUNE_LIVE} live jobs, {PRUNE_ROWS:,} rows of {PRUNE_GHOSTS:,} removed jobs")
    env = child_env(CREATE_NOW)
    must(run(hermes(home, "add", "* * * * *", "--no-agent", "--script", "noop.sh",
                    "--name", "due"), env), "prune add")
    for i in range(1, PRUNE_LIVE):
        must(run(hermes(home, "add", "0 9 * * *", "--no-agent", "--script", "noop.sh",
                        "--name", f"live{i}"), env), "prune add")
    create_ledger(home)
    rng = random.Random(7)
    ghosts = [f"{rng.getrandbits(48):012x}" for _ in range(PRUNE_GHOSTS)]
    seed_rows(home, ghosts, PRUNE_ROWS)
    rows_before, bytes_before = row_count(home), db_bytes(home)
    r = run(hermes(home, "tick"), child_env(BUSY_NOW))
    problems = [] if r.rc == 0 else [f"tick exit {r.rc}: {one_line(r.err)}"]
    fired = db_query(home, "SELECT count(*) FROM executions WHERE status='completed' AND "
                           "claimed_at >= ?", (BUSY_NOW,))[0][0]
    if fired != 1:
        problems.append(f"the tick completed {fired} runs, want 1")
    page_size, pages, free = (db_query(home, f"PRAGMA {p}")[0][0]
                              for p in ("page_size", "page_count", "freelist_count"))
    res = {"live_jobs": PRUNE_LIVE, "rows_seeded": PRUNE_ROWS, "rows_before": rows_before,
           "rows_after": row_count(home), "bytes_before": bytes_before,
           "bytes_after": db_bytes(home), "free_pages_after": free, "pages_after": pages,
           "page_size": page_size, "tick_ms": r.ms, "problems": problems,
           "rows_limit": TARGET_PRUNE_KEEP + TARGET_PRUNE_PER_JOB * PRUNE_LIVE}
    res["ok"] = (res["rows_after"] <= res["rows_limit"]
                 and res["bytes_after"] <= 0.5 * res["bytes_before"] and not problems)
    shutil.rmtree(base, ignore_errors=True)
    return res


# -- 5. writes ------------------------------------------------------------------------

def bench_writes(root, cache, runs):
    base = os.path.join(root, "writes")
    cases, homes = [], {}
    for n in (WRITES_SMALL, WRITES_BIG):
        src, ids, _ = cache.store(n)
        homes[n] = copy_home(src, os.path.join(base, f"jobs_{n}"))
        cases.append((f"add_{n}", n, "add"))
        cases.append((f"edit_{n}", n, "edit"))
        homes[n] = (homes[n], ids[n // 2])
    env = child_env(EMPTY_NOW)
    seq = iter(range(10**6))

    def cmd(n, what):
        home, job_id = homes[n]
        i = next(seq)
        if what == "add":
            return hermes(home, "add", "0 9 * * *", "prompt", "--name", f"a{i}")
        return hermes(home, "edit", job_id, "--name", f"e{i}")

    log(f"writes: add/edit at {WRITES_SMALL} and {WRITES_BIG:,} jobs, warm-up + {runs} runs")
    for name, n, what in cases:
        must(run(cmd(n, what), env), f"writes warm-up {name}")
    times = {name: [] for name, _, _ in cases}
    for i in range(runs):
        for name, n, what in rotate(cases, i):
            times[name].append(must(run(cmd(n, what), env), f"writes {name}").ms)
    res = {"runs": runs}
    for name, ts in times.items():
        res[f"{name}_median_ms"] = med(ts)
        res[f"{name}_min_ms"] = min(ts)
    for what in ("add", "edit"):
        res[f"{what}_ratio"] = (res[f"{what}_{WRITES_BIG}_median_ms"]
                                / res[f"{what}_{WRITES_SMALL}_median_ms"])
        res[f"{what}_ok"] = res[f"{what}_ratio"] <= TARGET_WRITES
    shutil.rmtree(base, ignore_errors=True)
    return res


# -- 5b. the store beside its floors (issue 24.4) ----------------------------------------

def bench_store(root, cache, n_list, runs):
    """`list` at *n_list* jobs beside a json.load; `edit --name` at 10k jobs beside a
    load + encode + fsync + rename + due-summary floor (benchmarks/floor_store.py)."""
    base = os.path.join(root, "store")
    list_src, _, _ = cache.store(n_list)
    write_src, ids, _ = cache.store(WRITES_BIG)
    list_home = copy_home(list_src, os.path.join(base, "list"))
    write_home = copy_home(write_src, os.path.join(base, "write"))
    floor_home = copy_home(write_src, os.path.join(base, "write_floor"))
    job_id = ids[WRITES_BIG // 2]
    env = child_env(EMPTY_NOW)
    seq = iter(range(10**6))
    cases = {
        "list": lambda: hermes(list_home, "list"),
        "list_floor": lambda: [PY, FLOOR_STORE, "load", list_home],
        "edit": lambda: hermes(write_home, "edit", job_id, "--name", f"e{next(seq)}"),
        "edit_floor": lambda: [PY, FLOOR_STORE, "write", floor_home, job_id, f"e{next(seq)}"],
    }
    log(f"store: list at {n_list:,} jobs, edit at {WRITES_BIG:,}, warm-up + {runs} runs")
    for name, cmd in cases.items():
        must(run(cmd(), env), f"store warm-up {name}")
    times = {name: [] for name in cases}
    for i in range(runs):
        for name in rotate(list(cases), i):
            times[name].append(must(run(cases[name](), env), f"store {name}").ms)
    lines = run(hermes(list_home, "list"), env).out.count("\n")
    res = {"list_jobs": n_list, "write_jobs": WRITES_BIG, "runs": runs, "list_lines": lines}
    for name, ts in times.items():
        res[f"{name}_median_ms"] = med(ts)
    res["list_ratio"] = res["list_median_ms"] / res["list_floor_median_ms"]
    res["edit_ratio"] = res["edit_median_ms"] / res["edit_floor_median_ms"]
    res["problems"] = [] if lines == n_list + 1 else [f"list printed {lines} lines"]
    shutil.rmtree(base, ignore_errors=True)
    return res


# -- 6. reads ----------------------------------------------------------------------------

def bench_reads(root, cache, n_rows, runs):
    base = os.path.join(root, "reads")
    src_big, ids, _ = cache.ledger(READS_JOBS, n_rows)
    src_zero, _, _ = cache.ledger(READS_JOBS, 0)
    big = copy_home(src_big, os.path.join(base, "big"))
    zero = copy_home(src_zero, os.path.join(base, "zero"))
    page = copy_home(src_zero, os.path.join(base, "page"))
    job_id = ids[0]
    seed_rows(page, [job_id], PAGE_ROWS)
    commands = {"runs --limit 20": ["runs", "--limit", "20"], "runs JOB": ["runs", job_id],
                "status": ["status"], "incidents": ["incidents"], "metrics": ["metrics"],
                "list": ["list"]}
    homes = {"big": big, "page": page, "0": zero}
    cases = [("import", [PY, "-c", "import hermes_cron"])]
    for label, args in commands.items():
        cases += [(f"{label} @{key}", hermes(h, *args)) for key, h in homes.items()]
    env = child_env(EMPTY_NOW)
    log(f"reads: {len(commands)} commands at 0, {PAGE_ROWS} and {n_rows:,} rows, "
        f"warm-up + {runs} runs")
    rcs = {}
    for name, cmd in cases:  # warm-up; status may exit 1 (no ticker) - noted, not fatal
        rcs[name] = must(run(cmd, env), f"reads warm-up {name}", rcs=(0, 1)).rc
    times = {name: [] for name, _ in cases}
    for i in range(runs):
        for name, cmd in rotate(cases, i):
            times[name].append(must(run(cmd, env), f"reads {name}", rcs=(0, 1)).ms)
    imp = med(times["import"])
    rows_after = row_count(big)
    res = {"rows": n_rows, "page_rows": PAGE_ROWS, "rows_after": rows_after,
           "jobs": READS_JOBS, "runs": runs, "import_median_ms": imp, "commands": []}
    for label in commands:
        b, p, z = (med(times[f"{label} @{key}"]) for key in homes)
        res["commands"].append({
            "command": label, "exit": rcs[f"{label} @big"], "cli_big_median_ms": b,
            "cli_page_median_ms": p, "cli_zero_median_ms": z,
            "query_big_ms": b - imp, "query_zero_ms": z - imp,
            "ratio_vs_page": b / p, "ratio_vs_zero": b / z,
            # The 50 ms bound is the four ledger reads' (metrics and list
            # format every job, so their cost follows the store).
            "ok": b - imp <= TARGET_READ_MS if label in FAST_READS else None,
            "flat_ok": b / p <= TARGET_READ_FLAT})
    shutil.rmtree(base, ignore_errors=True)
    return res


# -- 7. ledger rate -------------------------------------------------------------------------

def bench_ledger_rate(root, fires):
    import bench_tick  # benchmarks/ is sys.path[0] when this file runs as a script

    log(f"ledger: {fires} fires alternated with raw SQLite")
    res = bench_tick.bench_ledger(root, fires)
    res["ok"] = res["ratio"] >= TARGET_LEDGER
    return res


# -- main -----------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes, fewer runs")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--only", default=None,
                    help=f"comma-separated figures to run, of: {', '.join(FIGURES)}")
    ap.add_argument("--dir", default=None, help="where to create the temp dir")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir (path on stderr)")
    args = ap.parse_args(argv)
    only = FIGURES if not args.only else tuple(x.strip() for x in args.only.split(","))
    unknown = [x for x in only if x not in FIGURES]
    if unknown:
        ap.error(f"unknown figure(s) {unknown}; choose from {', '.join(FIGURES)}")
    q = 1 if args.quick else 0
    size = {k: v[q] for k, v in SIZES.items()}

    result = {"python": platform.python_version(),
              "implementation": platform.python_implementation(),
              "platform": platform.platform(), "sqlite_version": sqlite3.sqlite_version,
              "quick": args.quick, "figures": list(only)}
    try:
        import hermes_cron

        result["hermes_cron_version"] = getattr(hermes_cron, "__version__", None)
    except Exception as exc:  # the module may be mid-rewrite; the CLI figures still say so
        result["hermes_cron_version"] = f"import failed: {exc}"
    started = time.perf_counter()
    root = tempfile.mkdtemp(prefix="bench_scale_", dir=args.dir)
    cache = Cache(root)
    try:
        if "busy" in only:
            result["busy"] = bench_busy(root, size["busy_due"], size["busy_runs"])
        if "fairness" in only:
            result["fairness"] = bench_fairness(root)
        if "empty" in only:
            result["empty"] = bench_empty(root, cache, size["empty_jobs"], size["empty_rows"],
                                          size["empty_runs"])
        if "prune" in only:
            result["prune"] = bench_prune(root)
        if "writes" in only:
            result["writes"] = bench_writes(root, cache, size["writes_runs"])
        if "reads" in only:
            result["reads"] = bench_reads(root, cache, size["reads_rows"], size["reads_runs"])
        if "ledger" in only:
            result["ledger"] = bench_ledger_rate(root, size["ledger_fires"])
        if "store" in only:
            result["store"] = bench_store(root, cache, size["store_list_jobs"],
                                          size["store_runs"])
    except BenchError as exc:
        print(f"bench_scale: {exc}", file=sys.stderr)
        return 1
    finally:
        _SPAWN.close()
        if args.keep:
            log(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    result["elapsed_s"] = time.perf_counter() - started
    result["table"] = table_rows(result)
    result["all_ok"] = all(r["ok"] for r in result["table"] if r["ok"] is not None)
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print_table(result)
    return 0


def _ms(v):
    return f"{v / 1000:.2f} s" if v >= 1000 else f"{v:.1f} ms"


def _x(v):
    """A ratio with enough digits to see which side of a target it falls."""
    return f"{v:.3f}x" if v < 10 else f"{v:.1f}x"


def _n(v):
    if v >= 1_000_000 and v % 1_000_000 == 0:
        return f"{v // 1_000_000}M"
    if v >= 1000 and v % 1000 == 0:
        return f"{v // 1000}k"
    return f"{v:,}"


def table_rows(res):
    rows = []

    def add(figure, hermes_cell, floor_cell, ratio, target, ok, note=""):
        rows.append({"figure": figure, "hermes_cron": hermes_cell, "floor": floor_cell,
                     "ratio": ratio, "target": target, "ok": ok, "note": note})

    for r in res.get("busy", ()):
        add(f"1 busy tick, {r['due']:,} due (max_parallel {r['due']:,})", _ms(r["tick_median_ms"]),
            f"floor_busy_tick {_ms(r['floor_median_ms'])} ({r['journal_mode']})",
            _x(r['ratio']), f"<= {TARGET_BUSY:g}x, exactly once, no lock errors",
            r["ok"], "; ".join(r["problems"]))
    f = res.get("fairness")
    if f:
        add(f"2 fairness, {f['jobs']} jobs, max_parallel {f['max_parallel']}, {f['ticks']} ticks",
            f"{f['distinct_jobs_ran']}/{f['jobs']} jobs ran ({f['runs']} runs), "
            f"{f['max_parallel_skips']} max_parallel skips", "-", "-",
            f"all {f['jobs']} run, skips recorded", f["ok"], "; ".join(f["problems"]))
    emp = res.get("empty", [])
    for r in emp:
        levels = r["ledgers"]
        for lv in levels[1:]:
            shrunk = (f" (warm-up tick left {_n(lv['rows_after_warmup'])})"
                      if lv["rows_after_warmup"] != lv["rows_before_warmup"] else "")
            is_target = lv is levels[1]
            add(f"3 empty tick, {_n(r['jobs'])} jobs, {_n(lv['rows_seeded'])} vs 0 rows{shrunk}",
                _ms(lv["tick_median_ms"]), f"0 rows {_ms(levels[0]['tick_median_ms'])}",
                _x(lv['ratio_vs_zero_rows']),
                f"<= {TARGET_EMPTY_LEDGER:g}x" if is_target else "(info)",
                (lv["ratio_vs_zero_rows"] <= TARGET_EMPTY_LEDGER and not r["problems"])
                if is_target else None, "; ".join(r["problems"]) if is_target else "")
    if emp:
        big = emp[-1]
        for lv in big["ledgers"]:
            add(f"3 empty tick, {_n(big['jobs'])} jobs, {_n(lv['rows_seeded'])} rows: time",
                _ms(lv["tick_median_ms"]), f"floor_empty_tick {_ms(big['floor_median_ms'])}",
                _x(lv['ratio_vs_floor']), f"<= {TARGET_EMPTY_FLOOR:g}x, notices a hand edit",
                lv["ratio_vs_floor"] <= TARGET_EMPTY_FLOOR and not big["problems"])
            add(f"3 empty tick, {_n(big['jobs'])} jobs, {_n(lv['rows_seeded'])} rows: time, "
                f"floor started with python -m", _ms(lv["tick_median_ms"]),
                f"-m floor_empty_tick {_ms(big['floor_m_median_ms'])}",
                _x(lv['ratio_vs_floor_m']), f"<= {TARGET_EMPTY_FLOOR:g}x",
                lv["ratio_vs_floor_m"] <= TARGET_EMPTY_FLOOR and not big["problems"])
            add(f"3 empty tick, {_n(big['jobs'])} jobs, {_n(lv['rows_seeded'])} rows: peak RSS",
                f"{lv['tick_rss_mib']:.1f} MiB", f"{big['floor_rss_mib']:.1f} MiB",
                _x(lv['rss_ratio_vs_floor']), f"<= {TARGET_EMPTY_RSS:g}x",
                lv["rss_ratio_vs_floor"] <= TARGET_EMPTY_RSS)
    p = res.get("prune")
    if p:
        add(f"4 prune, {_n(p['rows_seeded'])} rows of removed jobs, {p['live_jobs']} live jobs",
            f"{p['rows_after']:,} rows, {p['bytes_after'] / 2**20:.1f} MiB",
            f"before: {p['rows_before']:,} rows, {p['bytes_before'] / 2**20:.1f} MiB",
            f"{p['bytes_after'] / p['bytes_before']:.2f}x size",
            f"<= {p['rows_limit']:,} rows, <= 0.5x size", p["ok"],
            "; ".join(p["problems"] + [f"tick {_ms(p['tick_ms'])}, "
                                       f"{p['free_pages_after']} free pages after"]))
    w = res.get("writes")
    if w:
        for what in ("add", "edit"):
            add(f"5 {what}, {_n(WRITES_BIG)} vs {WRITES_SMALL} jobs",
                _ms(w[f"{what}_{WRITES_BIG}_median_ms"]),
                f"{WRITES_SMALL} jobs {_ms(w[f'{what}_{WRITES_SMALL}_median_ms'])}",
                _x(w[f'{what}_ratio']), f"<= {TARGET_WRITES:g}x", w[f"{what}_ok"])
    st = res.get("store")
    if st:
        add(f"5b list, {_n(st['list_jobs'])} jobs", _ms(st["list_median_ms"]),
            f"json.load {_ms(st['list_floor_median_ms'])}", _x(st["list_ratio"]),
            f"<= {TARGET_LIST_FLOOR:g}x", st["list_ratio"] <= TARGET_LIST_FLOOR
            and not st["problems"], "; ".join(st["problems"]))
        add(f"5b edit --name, {_n(st['write_jobs'])} jobs", _ms(st["edit_median_ms"]),
            f"load+encode+fsync+rename+due {_ms(st['edit_floor_median_ms'])}",
            _x(st["edit_ratio"]), f"<= {TARGET_WRITE_FLOOR:g}x",
            st["edit_ratio"] <= TARGET_WRITE_FLOOR)
    rd = res.get("reads")
    if rd:
        for c in rd["commands"]:
            add(f"6 {c['command']}, {_n(rd['rows'])} rows, minus import",
                _ms(c["query_big_ms"]), f"0 rows: {_ms(c['query_zero_ms'])}",
                f"{c['query_big_ms'] / max(c['query_zero_ms'], 0.1):.1f}x",
                f"<= {TARGET_READ_MS:g} ms" if c["ok"] is not None else "", c["ok"],
                f"CLI {_ms(c['cli_big_median_ms'])}, import {_ms(rd['import_median_ms'])}"
                + (f", exit {c['exit']}" if c["exit"] else ""))
        for c in rd["commands"]:
            add(f"6 {c['command']}, whole CLI, {_n(rd['rows'])} rows vs one page "
                f"({rd['page_rows']} rows)", _ms(c["cli_big_median_ms"]),
                _ms(c["cli_page_median_ms"]), f"{c['ratio_vs_page']:.2f}x",
                f"<= {TARGET_READ_FLAT:g}x", c["flat_ok"],
                f"0 rows: {_ms(c['cli_zero_median_ms'])}, {c['ratio_vs_zero']:.2f}x")
    led = res.get("ledger")
    if led:
        add(f"7 ledger fires ({led['journal_mode'].upper()}, synchronous=FULL)",
            f"{led['ledger_fires_per_s']:.0f} fires/s", f"raw {led['raw_fires_per_s']:.0f}/s",
            f"{led['ratio'] * 100:.0f}%", f">= {TARGET_LEDGER * 100:g}%", led["ok"])
    return rows


def print_table(res):
    print(f"hermes_cron {res['hermes_cron_version']} on {res['implementation']} "
          f"{res['python']}, SQLite {res['sqlite_version']} ({res['platform']})"
          + (" [quick]" if res["quick"] else "") + f", {res['elapsed_s']:.0f} s")
    print()
    rows = res["table"]
    head = ("figure", "hermes_cron", "floor", "ratio", "target", "")
    cells = [(r["figure"], r["hermes_cron"], r["floor"], r["ratio"], r["target"],
              "-" if r["ok"] is None else ("PASS" if r["ok"] else "FAIL")) for r in rows]
    widths = [max(len(str(c[i])) for c in cells + [head]) for i in range(len(head))]
    fmt = "  ".join(f"{{:{'<' if i in (0, 2, 4) else '>'}{w}}}" for i, w in enumerate(widths))
    print(fmt.format(*head))
    print("-" * (sum(widths) + 2 * (len(widths) - 1)))
    for r, c in zip(rows, cells):
        print(fmt.format(*c))
        if r["note"]:
            print(f"    {r['note']}")


if __name__ == "__main__":
    sys.exit(main())
