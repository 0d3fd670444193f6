#!/usr/bin/env python3
"""hermes_cron's busy tick beside APScheduler 3.11.3 and a stdlib floor, in one interleaved run.

Run from the repo root:

    python benchmarks/vs_apscheduler.py              # 10,000 jobs, 1,000 due (a few minutes)
    python benchmarks/vs_apscheduler.py --quick      # 1,000 jobs, 100 due
    python benchmarks/vs_apscheduler.py --venv DIR   # reuse (or create) the venv in DIR
    python benchmarks/vs_apscheduler.py --wal        # hermes_cron's stores in WAL

Issue 24's comparison.  This script is stdlib only; it makes a throwaway
venv (under the temp dir unless --venv) with this interpreter and
pip-installs APScheduler==3.11.3 and SQLAlchemy into it (exit 2 if that
fails, e.g. the package index is unreachable).  Every timed process runs on
the venv's python, which is this interpreter, with bytecode caching on
(PYTHONDONTWRITEBYTECODE and HERMES_CRON_* removed from its environment).
The three contestants, each with the same JOBS jobs of which DUE are due at
once and the same parallelism P (default DUE):

hermes_cron  a home of JOBS script jobs (`--no-agent --script noop.sh`): DUE
             `* * * * *` due at the pinned now, the rest `0 9 * * *`;
             config.json {"max_parallel": P}; one `python -m hermes_cron
             --home H tick` with HERMES_CRON_NOW pinned.  Checked: exit 0,
             exactly DUE completed ledger rows, one per due job.
APScheduler  a BackgroundScheduler with a SQLAlchemyJobStore on a SQLite
             file (the store built beforehand, not timed) holding JOBS jobs
             (`0 9 * * *` cron triggers; DUE of them with a next_run_time
             in the past, coalesce on, no misfire grace limit, so each
             fires once and next at 09:00), a ThreadPoolExecutor of P
             workers, each job `subprocess.run([noop.sh])` with its output
             captured; the process exits when all DUE have run.  Checked:
             every due job ran once, exit 0 each.
floor        a stdlib ThreadPoolExecutor of P threads running the same DUE
             `subprocess.run([noop.sh])` children, nothing else.

noop.sh is `#!/bin/sh` + `echo ok`, executable: all three exec it directly.
Each measured run gets a fresh copy of its home or job store (not timed);
the homes are deleted at the end, not between runs, and --settle S rests S
seconds before each run: ext4 without a journal (this project's machine)
remembers deleted inodes for 30 s and every file created meanwhile scans past
them, so 2,000 files deleted just before a run slow its file creations.
After one unmeasured warm-up of each, the three alternate (the order
rotates every round) and medians are reported: wall time (fork to reap),
CPU (user + sys of the process and its waited-for children, from
os.wait4) and peak RSS (the process's ru_maxrss: its children are /bin/sh,
smaller).  Children are started from a small `python -S -I` helper so that
their ru_maxrss is theirs, not this script's (it survives exec on Linux).

Goals (issue 24): hermes_cron's wall <= APScheduler's, CPU <= 1.5x
APScheduler's, peak RSS <= 2x APScheduler's, wall <= 3x the floor.
Exit 0 when every goal is met and every check held, 1 otherwise, 2 when
the venv cannot be made or APScheduler cannot be installed.
"""

import argparse
import json
import marshal
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

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(BENCH_DIR)

APS_REQUIREMENTS = ("APScheduler==3.11.3", "SQLAlchemy")
CREATE_NOW = "2026-03-06T12:00:30+00:00"  # hermes jobs are created here
BUSY_NOW = "2026-03-06T12:01:00+00:00"    # the slot the `* * * * *` jobs are due at
SIZES = {False: (10_000, 1000, 5), True: (1000, 100, 3)}  # quick -> (jobs, due, runs)
GOAL_WALL, GOAL_CPU, GOAL_RSS, GOAL_FLOOR = 1.0, 1.5, 2.0, 3.0
KINDS = ("hermes_cron", "apscheduler", "floor")


class BenchError(Exception):
    pass


def log(msg):
    print(f"[vs_apscheduler {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --wal: the hermes_cron processes run with HERMES_CRON_SQLITE_WAL=1 (WAL on a
# SQLite that has the WAL-reset bug, as 3.51.3 and later use by default).
HERMES_ENV = {}


def child_env(now=None, hermes=False):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_CRON_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if now is not None:
        env["HERMES_CRON_NOW"] = now
    if hermes:
        env.update(HERMES_ENV)
    return env


# -- timed processes -----------------------------------------------------------

# Forks, execs, reaps with os.wait4: (wall ms, exit code, user+sys s, maxrss KiB).
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
    _, status, ru = os.wait4(pid, 0)
    ms = (time.perf_counter() - t0) * 1e3
    reply = marshal.dumps((ms, os.waitstatus_to_exitcode(status), ru.ru_utime + ru.ru_stime,
                           ru.ru_maxrss))
    os.write(1, b"%8d" % len(reply) + reply)
"""


class Spawner:
    def __init__(self, scratch):
        self.scratch = scratch
        self.proc = subprocess.Popen([sys.executable, "-S", "-I", "-c", _SPAWNER],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={},
                                     cwd="/")

    def run(self, argv, env, cwd):
        """Run *argv*; return a dict of ms, rc, cpu_s, rss_mib, out, err."""
        out, err = (os.path.join(self.scratch, n) for n in ("out", "err"))
        payload = marshal.dumps((list(argv), dict(env), cwd, out, err))
        self.proc.stdin.write(b"%8d" % len(payload) + payload)
        self.proc.stdin.flush()
        size = self.proc.stdout.read(8)
        if len(size) != 8:
            raise BenchError(f"the spawner died (exit {self.proc.wait()})")
        ms, rc, cpu, rss = marshal.loads(self.proc.stdout.read(int(size)))
        texts = []
        for path in (out, err):
            with open(path, "rb") as f:
                texts.append(f.read().decode("utf-8", "replace"))
        return {"ms": ms, "rc": rc, "cpu_s": cpu, "rss_mib": rss / 1024,
                "out": texts[0], "err": texts[1]}

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def tail(text, cap=600):
    text = " ".join(str(text).split())
    return text if len(text) <= cap else "..." + text[-cap:]


# -- the venv ------------------------------------------------------------------------

def venv_python(venv):
    return os.path.join(venv, "bin", "python")


def venv_versions(py):
    r = subprocess.run([py, "-c", "import sys, apscheduler, sqlalchemy; "
                        "print(sys.version); print(apscheduler.__version__); "
                        "print(sqlalchemy.__version__)"],
                       capture_output=True, text=True)
    lines = r.stdout.splitlines()
    return lines if r.returncode == 0 and len(lines) == 3 else None


def ensure_venv(venv):
    """Make *venv* with this interpreter and install APScheduler; return its python or exit 2."""
    py = venv_python(venv)
    found = venv_versions(py) if os.path.exists(py) else None
    if found and found[1] == APS_REQUIREMENTS[0].split("==")[1]:
        log(f"reusing {venv}: APScheduler {found[1]}, SQLAlchemy {found[2]}")
    else:
        if not os.path.exists(py):
            log(f"creating a venv in {venv}")
            r = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True,
                               text=True)
            if r.returncode:
                sys.exit(f"vs_apscheduler: could not create a venv in {venv}: "
                         f"{tail(r.stderr or r.stdout)}")
        log(f"pip install {' '.join(APS_REQUIREMENTS)}")
        r = subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check",
                            "--quiet", *APS_REQUIREMENTS], capture_output=True, text=True)
        found = venv_versions(py)
        if r.returncode or not found:
            print(f"vs_apscheduler: could not install {' and '.join(APS_REQUIREMENTS)} into "
                  f"{venv} (is the package index reachable?): pip exit {r.returncode}: "
                  f"{tail(r.stderr or r.stdout)}", file=sys.stderr)
            sys.exit(2)
    if found[0] != sys.version:
        print(f"vs_apscheduler: {venv} runs Python {found[0].split()[0]}, not this "
              f"interpreter's {sys.version.split()[0]}; give another --venv", file=sys.stderr)
        sys.exit(2)
    return py, found[1], found[2]


# -- contestants --------------------------------------------------------------------------

def write_noop(parent):
    scripts = os.path.join(parent, "scripts")
    os.makedirs(scripts, exist_ok=True)
    path = os.path.join(scripts, "noop.sh")
    with open(path, "w") as f:
        f.write("#!/bin/sh\necho ok\n")
    os.chmod(path, 0o755)
    return path


def order(n_jobs, n_due, seed):
    """Which of *n_jobs* positions are due: *n_due* of them, spread at random."""
    return set(random.Random(seed).sample(range(n_jobs), n_due))


def build_hermes(parent, n_jobs, n_due, parallel):
    """A template home of *n_jobs* script jobs, *n_due* due at BUSY_NOW; return the due ids."""
    home = os.path.join(parent, "home")
    write_noop(parent)
    os.makedirs(home, mode=0o700)
    with open(os.path.join(home, "config.json"), "w") as f:
        json.dump({"max_parallel": parallel}, f)
    env = child_env(CREATE_NOW, hermes=True)
    for schedule, name in (("* * * * *", "due0"), ("0 9 * * *", "idle0")):
        r = subprocess.run([sys.executable, "-m", "hermes_cron", "--home", home, "add", schedule,
                            "--no-agent", "--script", "noop.sh", "--name", name],
                           cwd=REPO_ROOT, env=env, capture_output=True, text=True)
        if r.returncode:
            raise BenchError(f"hermes_cron add: exit {r.returncode}: {tail(r.stderr)}")
    path = os.path.join(home, "jobs.json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text)
    due_tpl, idle_tpl = doc["jobs"]
    rng = random.Random(n_jobs)
    ids, jobs, due_ids = set(), [], set()
    due_at = order(n_jobs, n_due, n_jobs)
    for i in range(n_jobs):
        job_id = due_tpl["id"]
        while job_id in ids or job_id in (due_tpl["id"], idle_tpl["id"]):
            job_id = f"{rng.getrandbits(48):012x}"
        ids.add(job_id)
        tpl = due_tpl if i in due_at else idle_tpl
        jobs.append(dict(tpl, id=job_id, name=f"j{i}"))
        if i in due_at:
            due_ids.add(job_id)
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
    # A tick before the slot: nothing due; the module sees the hand-made store
    # and creates its ledger, as in a home that ticks every minute.
    r = subprocess.run([sys.executable, "-m", "hermes_cron", "--home", home, "tick"],
                       cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    if r.returncode:
        raise BenchError(f"hermes_cron pre-tick: exit {r.returncode}: {tail(r.stderr)}")
    if os.path.exists(os.path.join(home, "executions.db")) and ledger(home)[0]:
        raise BenchError("the pre-tick fired something")
    return due_ids


def ledger(home):
    conn = sqlite3.connect(os.path.join(home, "executions.db"), timeout=30)
    try:
        rows = conn.execute("SELECT job_id, status FROM executions").fetchall()
    finally:
        conn.close()
    return len(rows), rows


def check_hermes(home, due_ids, r):
    problems = []
    if r["rc"] != 0:
        problems.append(f"tick exit {r['rc']}: {tail(r['err'], 300)}")
    if "locked" in (r["out"] + r["err"]).lower():
        problems.append("'locked' in the tick's output")
    n, rows = ledger(home)
    done = [job for job, status in rows if status == "completed"]
    if n != len(due_ids) or len(done) != n or set(done) != due_ids:
        problems.append(f"{len(done)} completed of {n} ledger rows over {len(set(done))} jobs, "
                        f"want {len(due_ids)}, one per due job")
    return problems


# Run with the venv's python, cwd the work dir (so `aps_task` imports).
#   setup DB SCRIPT JOBS DUE   build the job store (not timed)
#   run DB PARALLEL DUE        the timed process
APS_TASK = '''\
import subprocess


def fire(script):
    return subprocess.run([script], stdin=subprocess.DEVNULL, capture_output=True).returncode
'''

APS_BENCH = '''\
import os
import random
import sys
import threading
from datetime import datetime, timedelta, timezone


def store(db):
    from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore

    return SQLAlchemyJobStore(url=f"sqlite:///{db}")


def setup(db, script, n_jobs, n_due):
    from apscheduler.schedulers.background import BackgroundScheduler
    from apscheduler.triggers.cron import CronTrigger
    from aps_task import fire

    sched = BackgroundScheduler(jobstores={"default": store(db)}, timezone=timezone.utc)
    sched.start(paused=True)
    past = datetime.now(timezone.utc) - timedelta(minutes=5)
    due_at = set(random.Random(n_jobs).sample(range(n_jobs), n_due))
    for i in range(n_jobs):
        sched.add_job(fire, CronTrigger.from_crontab("0 9 * * *", timezone=timezone.utc),
                      args=[script], id=f"j{i}", name=f"j{i}", coalesce=True,
                      misfire_grace_time=None, **({"next_run_time": past} if i in due_at else {}))
    # No shutdown: it would wake the paused scheduler, which processes the due
    # jobs.  Every add_job has committed; the scheduler thread is a daemon.
    print(" ".join(f"j{i}" for i in sorted(due_at)), flush=True)
    os._exit(0)


def run(db, parallel, n_due):
    from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED
    from apscheduler.executors.pool import ThreadPoolExecutor
    from apscheduler.schedulers.background import BackgroundScheduler

    lock, done, ran, failed = threading.Lock(), threading.Event(), [], []

    def listener(event):
        with lock:
            ran.append(event.job_id)
            if event.exception is not None or event.retval != 0:
                failed.append(event.job_id)
            if len(ran) >= n_due:
                done.set()

    sched = BackgroundScheduler(jobstores={"default": store(db)},
                                executors={"default": ThreadPoolExecutor(parallel)},
                                timezone=timezone.utc)
    sched.add_listener(listener, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
    sched.start()
    if not done.wait(600):
        print("timed out", file=sys.stderr)
    sched.shutdown(wait=True)
    print(" ".join(ran))
    return 1 if failed or len(ran) != n_due else 0


if __name__ == "__main__":
    if sys.argv[1] == "setup":
        setup(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit(run(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
'''

FLOOR = '''\
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def fire(script):
    return subprocess.run([script], stdin=subprocess.DEVNULL, capture_output=True,
                          start_new_session=True).returncode


script, parallel, n_due = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with ThreadPoolExecutor(max_workers=parallel) as pool:
    rcs = list(pool.map(fire, [script] * n_due))
print(sum(rc == 0 for rc in rcs))
sys.exit(0 if all(rc == 0 for rc in rcs) else 1)
'''


def build_aps(parent, py, n_jobs, n_due):
    """The APScheduler work dir and template job store; return the due job ids."""
    script = write_noop(parent)
    for name, text in (("aps_task.py", APS_TASK), ("aps_bench.py", APS_BENCH)):
        with open(os.path.join(parent, name), "w") as f:
            f.write(text)
    r = subprocess.run([py, "aps_bench.py", "setup", "template.db", script, str(n_jobs),
                        str(n_due)], cwd=parent, env=child_env(), capture_output=True,
                       text=True)
    if r.returncode:
        raise BenchError(f"APScheduler setup: exit {r.returncode}: {tail(r.stderr)}")
    return set(r.stdout.split())


def check_aps(due_ids, r):
    problems = []
    ran = r["out"].split()
    if r["rc"] != 0:
        problems.append(f"exit {r['rc']}: {tail(r['err'], 300)}")
    if len(ran) != len(due_ids) or set(ran) != due_ids:
        problems.append(f"{len(ran)} runs over {len(set(ran))} jobs, want {len(due_ids)}, "
                        f"one per due job")
    return problems


# -- the run ------------------------------------------------------------------------------

def machine(py_venv, aps_version, sa_version):
    try:
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")),
                         platform.processor())
    except OSError:
        model = platform.processor()
    return {"cpus": os.cpu_count(), "cpu_model": model, "python": platform.python_version(),
            "implementation": platform.python_implementation(), "executable": sys.executable,
            "sqlite": sqlite3.sqlite_version, "os": platform.platform(),
            "load_avg_at_start": os.getloadavg(), "apscheduler": aps_version,
            "sqlalchemy": sa_version, "venv_python": py_venv}


def measure(root, py, n_jobs, n_due, parallel, runs, settle=0.0):
    spawner = Spawner(root)
    try:
        log(f"building a hermes_cron home of {n_jobs:,} jobs, {n_due:,} due")
        h_tpl = os.path.join(root, "hermes_tpl")
        h_due = build_hermes(h_tpl, n_jobs, n_due, parallel)
        log(f"building an APScheduler job store of {n_jobs:,} jobs, {n_due:,} due")
        a_dir = os.path.join(root, "aps")
        a_due = build_aps(a_dir, py, n_jobs, n_due)
        f_dir = os.path.join(root, "floor")
        f_script = write_noop(f_dir)
        with open(os.path.join(f_dir, "floor.py"), "w") as f:
            f.write(FLOOR)

        seq = iter(range(10**6))
        problems = {k: [] for k in KINDS}

        def one(kind):
            if settle:
                time.sleep(settle)
            if kind == "hermes_cron":
                d = os.path.join(root, f"hermes_run{next(seq)}")
                shutil.copytree(h_tpl, d)
                home = os.path.join(d, "home")
                r = spawner.run([py, "-m", "hermes_cron", "--home", home, "tick"],
                                child_env(BUSY_NOW, hermes=True), REPO_ROOT)
                p = check_hermes(home, h_due, r)
                # Kept until the end: deleting its 2,000 files here would make
                # the next runs' file creations pay for them (see --settle).
            elif kind == "apscheduler":
                shutil.copyfile(os.path.join(a_dir, "template.db"), os.path.join(a_dir, "run.db"))
                r = spawner.run([py, "aps_bench.py", "run", "run.db", str(parallel), str(n_due)],
                                child_env(), a_dir)
                p = check_aps(a_due, r)
            else:
                r = spawner.run([py, "floor.py", f_script, str(parallel), str(n_due)],
                                child_env(), f_dir)
                p = [] if r["rc"] == 0 and r["out"].strip() == str(n_due) else [
                    f"exit {r['rc']}, stdout {r['out'].strip()!r}: {tail(r['err'], 300)}"]
            problems[kind].extend(p)
            log(f"  {kind}: {r['ms'] / 1e3:.2f} s wall, {r['cpu_s']:.2f} s CPU, "
                f"{r['rss_mib']:.1f} MiB" + (f"  PROBLEM: {'; '.join(p)}" if p else ""))
            return r

        log("warm-up of each (not measured)")
        for kind in KINDS:
            one(kind)
        samples = {k: [] for k in KINDS}
        for i in range(runs):
            log(f"round {i + 1} of {runs}")
            for kind in KINDS[i % 3:] + KINDS[:i % 3]:
                samples[kind].append(one(kind))
    finally:
        spawner.close()
    out = {}
    for kind in KINDS:
        s = samples[kind]
        out[kind] = {"wall_s": statistics.median(r["ms"] for r in s) / 1e3,
                     "cpu_s": statistics.median(r["cpu_s"] for r in s),
                     "rss_mib": statistics.median(r["rss_mib"] for r in s),
                     "wall_s_all": [round(r["ms"] / 1e3, 3) for r in s],
                     "problems": sorted(set(problems[kind]))}
    return out


def goals(res):
    h, a, f = res["hermes_cron"], res["apscheduler"], res["floor"]
    checks_ok = not (h["problems"] or a["problems"] or f["problems"])
    rows = [("wall, hermes_cron / APScheduler", h["wall_s"] / a["wall_s"], GOAL_WALL),
            ("CPU, hermes_cron / APScheduler", h["cpu_s"] / a["cpu_s"], GOAL_CPU),
            ("peak RSS, hermes_cron / APScheduler", h["rss_mib"] / a["rss_mib"], GOAL_RSS),
            ("wall, hermes_cron / floor", h["wall_s"] / f["wall_s"], GOAL_FLOOR)]
    return [{"goal": g, "ratio": x, "limit": lim, "ok": x <= lim and checks_ok}
            for g, x, lim in rows]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1,000 jobs, 100 due, 3 runs")
    ap.add_argument("--jobs", type=int, help="jobs in each store (default 10,000)")
    ap.add_argument("--due", type=int, help="jobs due at once (default 1,000)")
    ap.add_argument("--parallel", type=int, help="max_parallel and pool size (default: --due)")
    ap.add_argument("--runs", type=int, help="measured runs of each (default 5)")
    ap.add_argument("--venv", help="the venv to use, created if missing (default: a temp one)")
    ap.add_argument("--dir", help="where to create the temp dir")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir (path on stderr)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--settle", type=float, default=0.0, metavar="S",
                    help="sleep S seconds before each run (31: past ext4's 30 s memory of "
                         "recently deleted inodes, which a file system without a journal "
                         "scans past at every file it creates)")
    ap.add_argument("--wal", action="store_true",
                    help="hermes_cron's stores in WAL (HERMES_CRON_SQLITE_WAL=1), as on a "
                         "SQLite of 3.51.3 or later; the default is what this SQLite gets")
    args = ap.parse_args(argv)
    if args.wal:
        HERMES_ENV["HERMES_CRON_SQLITE_WAL"] = "1"
    n_jobs, n_due, runs = SIZES[args.quick]
    n_jobs, n_due, runs = args.jobs or n_jobs, args.due or n_due, args.runs or runs
    parallel = args.parallel or n_due
    if not 0 < n_due <= n_jobs:
        ap.error("need 0 < --due <= --jobs")

    root = tempfile.mkdtemp(prefix="vs_apscheduler_", dir=args.dir)
    started = time.perf_counter()
    try:
        py, aps_version, sa_version = ensure_venv(os.path.abspath(args.venv) if args.venv
                                                  else os.path.join(root, "venv"))
        result = {"machine": machine(py, aps_version, sa_version), "jobs": n_jobs, "due": n_due,
                  "parallel": parallel, "runs": runs}
        result["settle_s"], result["hermes_env"] = args.settle, dict(HERMES_ENV)
        result.update(measure(root, py, n_jobs, n_due, parallel, runs, args.settle))
    except BenchError as exc:
        print(f"vs_apscheduler: {exc}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            log(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    result["machine"]["load_avg_at_end"] = os.getloadavg()
    result["elapsed_s"] = time.perf_counter() - started
    result["goals"] = goals(result)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        report(result)
    return 0 if all(g["ok"] for g in result["goals"]) else 1


def report(res):
    m = res["machine"]
    print(f"{m['cpus']} CPUs ({m['cpu_model']}), {m['implementation']} {m['python']}, "
          f"SQLite {m['sqlite']}, {m['os']}; APScheduler {m['apscheduler']}, "
          f"SQLAlchemy {m['sqlalchemy']}; load {m['load_avg_at_start'][0]:.2f} -> "
          f"{m['load_avg_at_end'][0]:.2f}")
    print(f"{res['jobs']:,} jobs, {res['due']:,} due at once, parallelism {res['parallel']:,}; "
          f"medians of {res['runs']} interleaved runs each"
          + (f", {res['settle_s']:g} s of rest before each" if res.get("settle_s") else "")
          + "".join(f"; hermes_cron with {k}={v}" for k, v in res.get("hermes_env", {}).items())
          + f"; {res['elapsed_s']:.0f} s in all")
    print()
    print(f"{'':<12} {'wall':>9} {'CPU':>9} {'peak RSS':>10}")
    for kind in KINDS:
        r = res[kind]
        print(f"{kind:<12} {r['wall_s']:>7.2f} s {r['cpu_s']:>7.2f} s {r['rss_mib']:>6.1f} MiB"
              f"   runs: {', '.join(f'{w:.2f}' for w in r['wall_s_all'])} s")
        for p in r["problems"]:
            print(f"    problem: {p}")
    print()
    for g in res["goals"]:
        print(f"{g['goal']:<38} {g['ratio']:>6.2f}x  goal <= {g['limit']:g}x  "
              f"{'PASS' if g['ok'] else 'FAIL'}")


if __name__ == "__main__":
    sys.exit(main())
