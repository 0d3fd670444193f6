#!/usr/bin/env python3
"""Fault-injection campaign for hermes_cron (issue 17): kills, races and faults, then invariants.

Run from the repo root:

    python benchmarks/campaign.py                  # full run (about 3-5 min on 2 cores)
    python benchmarks/campaign.py --quick          # about 1 min
    python benchmarks/campaign.py --trials 60      # more SIGKILL trials (others scale with it)
    python benchmarks/campaign.py --seed 7 --json  # one JSON object on stdout
    python benchmarks/campaign.py --seed 7 --only tick-kill:3 --keep -v   # one trial again
    python benchmarks/campaign.py --self-test      # the checker sees every injected violation
    python benchmarks/campaign.py --model 1000 --seed 7   # the suite's model-based campaign
    python benchmarks/campaign.py --model 1000 --seed 7 --only 12,31   # replay two trials

--model N runs the randomized, model-based campaign of the test suite
(test_hermes_cron.py, test_randomized_campaign_keeps_every_invariant: random
stores, a clock stepping forward and back, kills at the kill points of its
CAMPAIGN_KILL_POINTS table, delivery owners frozen with SIGSTOP across a clock
step) for N trials and prints its figures as a block for the README's
reliability section.  It imports the test module, so it needs pytest
(benchmarks may depend on the test file; the test file never imports from here).

Every step is a real child process (`python -m hermes_cron --home H ...`,
cwd and PYTHONPATH the repo root, bytecode caching on: PYTHONDONTWRITEBYTECODE
and every inherited HERMES_* variable removed, TZ=UTC, no proxy) with
HERMES_CRON_NOW pinned for that child; the campaign's clock advances a
minute between steps.  Nothing is imported from hermes_cron in this process.
Kill points are injected by a small wrapper child (`python -c ...`) that
imports the module, makes the Nth call of one function SIGKILL its own
process (before or after the call) and then runs `hermes_cron.main(argv)`.

Each trial gets a fresh home (a copy of a template built once through the
CLI), a random umask, and its own random stream derived from (seed,
scenario, trial), so `--only SCENARIO:TRIAL` replays its decisions (timed
kills land where the machine puts them).  Jobs run bash scripts from
<trial>/scripts that append "job_id execution_id pid" to <trial>/ran.log
when they start: fast (echo), slow (sleeps 0.2-1 s), failing (exit 3),
a webhook job (POSTs to a local server on 127.0.0.1 that counts receipts
per execution id and answers after 0-0.25 s), and a paused @daily job.

Scenarios
  SIGKILL
    tick-kill     `tick` killed after a random delay or at an injected kill
                  point (ledger claim/start/finish, job-batch apply, delivery
                  claim/finish, os.replace, os.fsync); its orphaned scripts
                  are left to finish or killed; a tick in the same minute
                  (the slot must not fire again) and a clean tick follow.
    run-kill      `run JOB --occurrence auto|ISO` killed the same ways; then
                  a tick in the same minute (must not fire that slot) and a
                  clean tick.
    writer-kill   `add`, `edit`, `pause`, `resume`, `remove`, `notepad set`
                  killed after 0-0.2 s or at a kill point (os.fsync,
                  os.replace before/after, SQLite open/transaction); the job
                  set must be the old or the new one; then a clean tick.
  Concurrency
    tickers-8     8 `tick` processes at the same pinned minute, two minutes.
    writers-8     8 writers, each alternating `add wW-I` and
                  `edit eW --prompt wW-I`: every add present once, every
                  writer's last edit kept (no lost update).
    tick-vs-run   3 ticks, 3 `run J --occurrence auto` and 1 `run J
                  --occurrence <slot>` racing for one slot.
  Faults
    jobs-lock     HERMES_CRON_LOCK_TIMEOUT=1 and a process holding
                  `.jobs.lock` (flock) for 2-2.5 s: writers and ticks
                  started while it is held, or held while runs finish (a
                  `--repeat 2` job must run at most twice).
    db-lock       an exclusive SQLite lock on executions.db held for 6 s
                  while a tick (and a `run --occurrence auto`) start.
    clock-step    a run blocks; ticks at +301 s..+3 days and then back
                  (-2..-60 min) run while it is live; the run must end
                  `completed` (never `unknown`), its slot must not run twice,
                  and jobs fire again once the clock is back.
    fsize         RLIMIT_FSIZE (0 B-64 KiB) on a `tick`, `add`, `edit`,
                  `pause`, `run`, `notepad set`: a clean exit, the store as
                  it was (or with the whole change), then a clean tick.

Invariants checked after every trial (a violation names the check):
  (a) no (job_id, scheduled_instant) with more than one ledger row; no slot
      whose script started twice; no execution id whose script started twice
  (b) no row `claimed`/`running` after a clean tick with no process alive
  (c) jobs.json parses; no job lost or duplicated (the job set is exactly
      the expected one); every *.db passes PRAGMA integrity_check
  (d) no webhook receipt twice for one execution id
  (e) no *.tmp left in the home after a clean tick
  (f) no job paused/errored/blocked_config unless an operator paused it
  (g) files in the home are mode 0600, directories 0700 (any umask)
  (h) no Python traceback from a child that was not SIGKILLed
  plus per-scenario checks: the writers' adds/edits all kept (writers-8),
  a --repeat 2 job runs at most twice (jobs-lock), a live run ends
  completed and jobs fire after a clock excursion (clock-step), a refused
  add leaves no job behind (fsize, jobs-lock).

Prints a table (scenario, trials, kills, children, violations) and the
violations with a replay command and the trial's steps; exit 1 if any.
Stdlib only.  Temp dirs are removed at the end unless --keep.
"""

import argparse
import collections
import http.server
import json
import os
import random
import shlex
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(BENCH_DIR)
PY = sys.executable

T0 = datetime(2026, 3, 6, 12, 0, tzinfo=timezone.utc)  # a Friday; jobs are created at 12:00:30
DEFAULT_TRIALS, QUICK_TRIALS = 25, 8

# name, group, trials per SIGKILL trial (--trials N), minimum
SCENARIOS = [
    ("tick-kill", "SIGKILL", 1.0, 1),
    ("run-kill", "SIGKILL", 1.0, 1),
    ("writer-kill", "SIGKILL", 1.2, 1),
    ("tickers-8", "concurrency", 0.16, 2),
    ("writers-8", "concurrency", 0.12, 1),
    ("tick-vs-run", "concurrency", 0.24, 2),
    ("jobs-lock", "faults", 0.2, 2),
    ("db-lock", "faults", 0.08, 1),
    ("clock-step", "faults", 0.16, 2),
    ("fsize", "faults", 0.32, 3),
]

TICK_POINTS = ["before:hc:_Ledger.claim", "before:hc:_Ledger.start", "before:hc:_Ledger.finish",
               "after:hc:_Ledger.finish", "before:hc:_apply_batch", "after:hc:_apply_batch",
               "before:hc:_Deliveries.claim", "before:hc:_Deliveries.finish",
               "before:os:replace", "after:os:replace", "before:os:fsync"]
RUN_POINTS = ["before:hc:_Ledger.claim_occurrence", "after:hc:_Ledger.claim_occurrence",
              "before:hc:_Ledger.start", "before:hc:_Ledger.finish", "after:hc:_Ledger.finish",
              "before:hc:_Deliveries.claim", "before:hc:_Deliveries.finish",
              "before:os:replace", "after:os:replace"]
WRITER_POINTS = ["before:os:fsync", "before:os:replace", "after:os:replace",
                 "before:hc:_transaction", "before:hc:_open_rw"]

# Makes the Nth call of one function SIGKILL this process, then runs the CLI.
KILLER = r"""
import os, signal, sys
sys.path.insert(0, sys.argv[1])
import hermes_cron as hc
spec, nth, argv = sys.argv[2], int(sys.argv[3]), sys.argv[4:]
when, modname, attr = spec.split(":", 2)
owner = hc if modname == "hc" else os
*path, name = attr.split(".")
for part in path:
    owner = getattr(owner, part, None)
real = getattr(owner, name, None)
if real is None:
    sys.stderr.write("campaign: kill point %s does not exist\n" % spec)
    sys.exit(97)
calls = [0]
def hook(*a, **k):
    calls[0] += 1
    n = calls[0]
    if n == nth and when == "before":
        os.kill(os.getpid(), signal.SIGKILL)
    result = real(*a, **k)
    if n == nth:
        os.kill(os.getpid(), signal.SIGKILL)
    return result
setattr(owner, name, hook)
sys.exit(hc.main(argv))
"""

# Sets RLIMIT_FSIZE, then execs the rest of argv with this interpreter.
LIMITER = r"""
import os, resource, sys
n = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
os.execv(sys.executable, [sys.executable] + sys.argv[2:])
"""

# Holds .jobs.lock (flock) or an exclusive SQLite lock for a while.
HOLDER = r"""
import fcntl, os, sqlite3, sys, time
kind, path, seconds, ready = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
if kind == "flock":
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
else:
    conn = sqlite3.connect("file:" + path + "?mode=rw", uri=True, timeout=30,
                           isolation_level=None)  # never creates the file
    conn.execute("BEGIN EXCLUSIVE")
open(ready, "w").close()
time.sleep(seconds)
if kind != "flock":
    conn.execute("ROLLBACK")
"""

LOG_LINE = 'echo "$HERMES_CRON_JOB_ID $HERMES_CRON_EXECUTION_ID $$" >> "$HERMES_CRON_HOME/../ran.log"\n'
SCRIPTS = {
    "fast.sh": LOG_LINE + "echo fast-ok\n",
    "slow.sh": LOG_LINE + 'sleep "$(cat "$HERMES_CRON_HOME/../slow.delay" 2>/dev/null || echo 0.5)"\n'
                          "echo slow-ok\n",
    "fail.sh": LOG_LINE + "echo boom >&2\nexit 3\n",
    "gate.sh": LOG_LINE + (
        'd="$HERMES_CRON_HOME/.."\n'
        'if [ -e "$d/gate" ] && [ ! -e "$d/gate.marker" ]; then\n'
        '  echo "$HERMES_CRON_EXECUTION_ID" > "$d/gate.marker.tmp" && '
        'mv "$d/gate.marker.tmp" "$d/gate.marker"\n'
        '  i=0; while [ -e "$d/gate" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done\n'
        'fi\necho gate-ok\n'),
}


def iso(dt):
    return dt.astimezone(timezone.utc).isoformat()


def norm_instant(text):
    try:
        return iso(datetime.fromisoformat(text))
    except (TypeError, ValueError):
        return text


def log(msg):
    print(f"[campaign {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def db_query(path, sql):
    """Rows of *sql* on the SQLite file *path*, never changing it.

    Read-only; a hot journal (a writer failed or died mid-transaction) needs a
    rollback a read-only connection cannot do, so the file and its journal are
    copied aside and the copy is opened read-write (SQLite rolls it back there).
    """
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "readonly" not in str(exc) or not os.path.exists(path + "-journal"):
            raise
    with tempfile.TemporaryDirectory(prefix="campaign-db-") as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        shutil.copyfile(path, copy)
        shutil.copyfile(path + "-journal", copy + "-journal")
        conn = sqlite3.connect(copy, timeout=30)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()


class HarnessError(Exception):
    """The campaign itself could not do a step (not a finding about hermes_cron)."""


# -- the webhook target -------------------------------------------------------

class WebhookServer:
    """POSTs on 127.0.0.1, counted per execution id; answers after 0-0.25 s."""

    def __init__(self, seed):
        self.lock = threading.Lock()
        self.counts = collections.Counter()
        self.bad = []
        self.rng = random.Random(f"{seed}/webhook")
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                try:
                    eid = json.loads(body)["execution_id"]
                except (ValueError, KeyError, TypeError):
                    eid = None
                with server.lock:
                    if eid is None:
                        server.bad.append(body[:200])
                    else:
                        server.counts[eid] += 1
                    delay = server.rng.uniform(0, 0.25)
                time.sleep(delay)
                try:
                    self.send_response(200)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")
                except OSError:
                    pass  # the sender was killed

            def log_message(self, *a):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def count(self, eid):
        with self.lock:
            return self.counts.get(eid, 0)

    def total(self):
        with self.lock:
            return sum(self.counts.values()), len(self.counts)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


# -- processes ----------------------------------------------------------------

def base_env():
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HERMES_", "TZ")) and k.lower() not in (
               "http_proxy", "https_proxy", "all_proxy", "no_proxy")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["TZ"] = "UTC"
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["PYTHONPATH"] = REPO_ROOT
    return env


def proc_alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False
    except OSError:
        return True


def procs_tagged(markers):
    """Pids (not this process) whose environment holds one of *markers* (bytes)."""
    found = []
    me = os.getpid()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            continue
        items = environ.split(b"\0")
        if any(m in items for m in markers) and proc_alive(int(name)):
            found.append(int(name))
    return found


class Child:
    def __init__(self, trial, label, argv, now, proc, out, err):
        self.trial, self.label, self.argv, self.now = trial, label, argv, now
        self.proc, self.out_path, self.err_path = proc, out, err
        self.rc = None
        self.killed_by_us = False

    def wait(self, timeout=120):
        try:
            self.rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.rc = self.proc.wait()
            self.trial.note(f"{self.label}: did not finish in {timeout} s, killed")
        self.trial.finished(self)
        return self.rc

    def kill_after(self, delay):
        """SIGKILL the child after *delay* s unless it ended; True if it was killed."""
        try:
            self.proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.killed_by_us = True
        self.wait()
        return self.rc == -signal.SIGKILL

    @property
    def stdout(self):
        with open(self.out_path, errors="replace") as f:
            return f.read()

    @property
    def stderr(self):
        with open(self.err_path, errors="replace") as f:
            return f.read()


# -- one trial ----------------------------------------------------------------

class Trial:
    def __init__(self, camp, scenario, index):
        self.camp, self.scenario, self.index = camp, scenario, index
        self.rng = random.Random(f"{camp.seed}/{scenario}/{index}")
        self.dir = os.path.join(camp.root, f"{scenario}-{index:03d}")
        self.home = os.path.join(self.dir, "cron")
        self.umask = self.rng.choice((0o022, 0o077, 0o000, 0o002, 0o027))
        self.minute = 1
        self.extra_env = {}
        self.steps = []
        self.notes = []
        self.violations = []
        self.kills = 0
        self.children = 0
        self.seq = 0
        self.lock = threading.Lock()
        self.allowed_paused = set()  # job names an operator paused (or may have)
        self.expect_names = None     # the exact job-name set, once known

    # clock and steps
    def now(self, seconds=0.0):
        return iso(T0 + timedelta(minutes=self.minute, seconds=seconds))

    def step(self, text):
        with self.lock:
            self.steps.append(text)
        if self.camp.verbose:
            log(f"{self.scenario}#{self.index}: {text}")

    def note(self, text):
        with self.lock:
            self.notes.append(text)

    def violate(self, check, detail):
        with self.lock:
            self.violations.append((check, detail))

    def env(self, now):
        env = dict(self.camp.env, HERMES_CRON_NOW=now, CAMPAIGN_TAG=self.dir,
                   HOME=os.path.join(self.dir, "user"))
        env.update(self.extra_env)
        return env

    def popen(self, now, args, point=None, fsize=None, label=None):
        argv = ["-m", "hermes_cron", "--home", self.home, *args]
        desc = "python -m hermes_cron --home $H " + " ".join(shlex.quote(a) for a in args)
        if point is not None:
            spec, nth = point
            argv = ["-c", KILLER, REPO_ROOT, spec, str(nth), "--home", self.home, *args]
            desc += f"   [kill point: {spec} call #{nth}]"
        if fsize is not None:
            argv = ["-c", LIMITER, str(fsize), *argv]
            desc += f"   [RLIMIT_FSIZE={fsize}]"
        with self.lock:
            self.seq += 1
            seq = self.seq
            self.children += 1
        logs = os.path.join(self.dir, "logs")
        os.makedirs(logs, exist_ok=True)
        out, err = os.path.join(logs, f"{seq:03d}.out"), os.path.join(logs, f"{seq:03d}.err")
        extra = " ".join(f"{k}={v}" for k, v in sorted(self.extra_env.items()))
        self.step(f"[{seq}] HERMES_CRON_NOW={now} {extra + ' ' if extra else ''}{desc}")
        with open(out, "wb") as fo, open(err, "wb") as fe:
            proc = subprocess.Popen([PY, *argv], cwd=REPO_ROOT, env=self.env(now),
                                    stdin=subprocess.DEVNULL, stdout=fo, stderr=fe,
                                    umask=self.umask)
        return Child(self, label or f"[{seq}] {args[0]}", args, now, proc, out, err)

    def finished(self, child):
        rc = child.rc
        if rc == -signal.SIGKILL:
            with self.lock:
                self.kills += 1
        err = child.stderr
        self.step(f"    {child.label} -> exit {rc}" + (f" (stderr: {err.strip()[-160:]!r})"
                                                      if err.strip() and rc != 0 else ""))
        if rc == 97 and "campaign: kill point" in err:
            raise HarnessError(err.strip())
        if rc != -signal.SIGKILL and "Traceback (most recent call last)" in err:
            self.violate("h", f"{child.label} (HERMES_CRON_NOW={child.now}) exit {rc} with a "
                              f"traceback: ...{err.strip()[-400:]!r}")

    def cli(self, now, *args, **kw):
        child = self.popen(now, list(args), **kw)
        child.wait()
        return child

    def kill_step(self, now, args, points, delay=(0.05, 1.2)):
        """Run *args* and SIGKILL it: after a random delay or at an injected kill point."""
        if self.rng.random() < 0.5:
            d = round(self.rng.uniform(*delay), 3)
            child = self.popen(now, args)
            self.step(f"    SIGKILL at {d} s if still running")
            child.kill_after(d)
        else:
            point = (self.rng.choice(points), self.rng.choice((1, 1, 2, 3)))
            child = self.popen(now, args, point=point)
            child.wait()
        return child

    def settle(self, wait=None):
        """Leave no process of this trial alive: let orphans finish (up to 5 s) or kill them."""
        markers = [f"CAMPAIGN_TAG={self.dir}".encode(),
                   f"HERMES_CRON_HOME={self.home}".encode(),
                   f"HERMES_CRON_HOME={os.path.realpath(self.home)}".encode()]
        pids = procs_tagged(markers)
        if not pids:
            return
        if wait is None:
            wait = self.rng.random() < 0.5
        deadline = time.monotonic() + (5.0 if wait else 0.0)
        while pids and time.monotonic() < deadline:
            time.sleep(0.05)
            pids = procs_tagged(markers)
        if pids:
            self.step(f"    SIGKILL {len(pids)} orphaned process(es) of the trial")
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            deadline = time.monotonic() + 10
            while procs_tagged(markers):
                if time.monotonic() > deadline:
                    raise HarnessError("orphaned processes would not die")
                time.sleep(0.05)
        else:
            self.step("    orphaned scripts finished")

    def holder(self, kind, path, seconds):
        ready = os.path.join(self.dir, f"holder-{self.seq}.ready")
        self.step(f"    hold {kind} on {os.path.basename(path)} for {seconds} s")
        proc = subprocess.Popen([PY, "-c", HOLDER, kind, path, str(seconds), ready],
                                env=dict(self.camp.env, CAMPAIGN_TAG=self.dir + "/holder"),
                                stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while not os.path.exists(ready):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise HarnessError(f"the {kind} holder did not take its lock")
            time.sleep(0.01)
        return proc

    # setup
    def from_template(self, name):
        src = self.camp.template(name)
        shutil.copytree(src, self.dir, symlinks=True)
        os.makedirs(os.path.join(self.dir, "user"), exist_ok=True)
        with open(os.path.join(self.dir, "slow.delay"), "w") as f:
            f.write(f"{self.rng.uniform(0.2, 1.0):.2f}\n")
        self.expect_names = set(self.camp.template_names[name])
        self.allowed_paused = {"idle"}
        self.step(f"home: copy of template {name!r} (jobs {sorted(self.expect_names)}), "
                  f"umask {self.umask:03o}")

    # reading the home
    def jobs(self):
        with open(os.path.join(self.home, "jobs.json"), "rb") as f:
            return json.loads(f.read())["jobs"]

    def names(self):
        return {j.get("name") for j in self.jobs()}

    def job_id(self, name):
        return next((j["id"] for j in self.jobs() if j.get("name") == name), None)

    def rows(self):
        path = os.path.join(self.home, "executions.db")
        if not os.path.exists(path):
            return []
        return db_query(path, "SELECT id, job_id, status, scheduled_instant, source, error "
                              "FROM executions ORDER BY claimed_at, rowid")

    def ran(self):
        """[(job_id, execution_id)] of every script start."""
        try:
            with open(os.path.join(self.dir, "ran.log")) as f:
                return [tuple(line.split()[:2]) for line in f if len(line.split()) >= 2]
        except FileNotFoundError:
            return []

    # the invariants
    def check(self, clean=True):
        home = self.home
        jobs = None
        try:
            jobs = self.jobs()
        except Exception as exc:  # noqa: BLE001 - any failure to parse is the finding
            self.violate("c", f"jobs.json does not parse: {exc!r}")
        if jobs is not None:
            ids = collections.Counter(j.get("id") for j in jobs)
            names = collections.Counter(j.get("name") for j in jobs)
            for key, n in list(ids.items()) + list(names.items()):
                if n > 1:
                    self.violate("c", f"jobs.json holds {key!r} {n} times")
            if self.expect_names is not None and set(names) != self.expect_names:
                self.violate("c", f"job set {sorted(map(str, names))} != expected "
                                  f"{sorted(self.expect_names)} (lost: "
                                  f"{sorted(self.expect_names - set(names))}, extra: "
                                  f"{sorted(set(map(str, names)) - self.expect_names)})")
            for j in jobs:
                bad = (j.get("last_status") == "blocked_config"
                       or j.get("state") == "error"
                       or (j.get("state") == "paused" and j.get("name") not in self.allowed_paused))
                if bad:
                    self.violate("f", f"job {j.get('name')} ({j.get('id')}) is "
                                      f"state={j.get('state')} last_status={j.get('last_status')}"
                                      f" paused_reason={j.get('paused_reason')!r} "
                                      f"last_error={str(j.get('last_error'))[:200]!r}")
        for root, _, files in os.walk(home):
            for fn in files:
                if fn.endswith(".db"):
                    path = os.path.join(root, fn)
                    try:
                        result = db_query(path, "PRAGMA integrity_check")
                    except sqlite3.Error as exc:
                        result = [(f"cannot check: {exc}",)]
                    if result != [("ok",)]:
                        self.violate("c", f"{os.path.relpath(path, home)} integrity_check: "
                                          f"{result[:3]}")
        try:
            rows = self.rows()
        except sqlite3.Error as exc:
            self.violate("c", f"executions.db cannot be read: {exc}")
            rows = []
        by_id = {r[0]: r for r in rows}
        slots = collections.defaultdict(list)
        for eid, job_id, status, instant, source, _ in rows:
            if instant:
                slots[(job_id, norm_instant(instant))].append(f"{eid[:8]}:{source}:{status}")
        for (job_id, instant), found in slots.items():
            if len(found) > 1:
                self.violate("a", f"job {job_id} slot {instant} has {len(found)} rows: {found}")
        ran = self.ran()
        per_eid = collections.Counter(eid for _, eid in ran)
        per_slot = collections.defaultdict(list)
        for eid, n in per_eid.items():
            if n > 1:
                self.violate("a", f"execution {eid} started its script {n} times")
            row = by_id.get(eid)
            if row is not None and row[3]:
                per_slot[(row[1], norm_instant(row[3]))].append(eid[:8])
        for (job_id, instant), eids in per_slot.items():
            if len(eids) > 1:
                self.violate("a", f"job {job_id} slot {instant}: its script ran {len(eids)} "
                                  f"times (executions {eids})")
        if clean:
            for eid, job_id, status, instant, source, _ in rows:
                if status in ("claimed", "running"):
                    self.violate("b", f"execution {eid} ({source}, job {job_id}, slot {instant}) "
                                      f"is still {status!r} after a clean tick")
        for eid in by_id:
            n = self.camp.webhook.count(eid)
            if n > 1:
                self.violate("d", f"webhook received execution {eid} {n} times")
                self.camp.webhook_reported.add(eid)
        if clean:
            for root, _, files in os.walk(home):
                for fn in files:
                    if fn.endswith(".tmp"):
                        self.violate("e", f"{os.path.relpath(os.path.join(root, fn), home)} "
                                          "left after a clean tick")
        for root, dirs, files in os.walk(home):
            for name, want in [(d, 0o700) for d in dirs] + [(f, 0o600) for f in files] + (
                    [("", 0o700)] if root == home else []):
                path = os.path.join(root, name)
                try:
                    st = os.lstat(path)
                except FileNotFoundError:
                    continue
                if stat.S_ISLNK(st.st_mode):
                    continue
                mode = stat.S_IMODE(st.st_mode)
                if (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)) and mode != want:
                    self.violate("g", f"{os.path.relpath(path, home) or '.'} is mode {mode:04o}, "
                                      f"not {want:04o} (umask {self.umask:03o})")


# -- scenarios ----------------------------------------------------------------

def sc_tick_kill(t):
    t.from_template("basic")
    if t.rng.random() < 0.3:
        t.cli(t.now(), "tick")
        t.minute += 1
    for _ in range(t.rng.randint(1, 2)):
        t.kill_step(t.now(), ["tick"], TICK_POINTS)
        t.settle()
        if t.rng.random() < 0.7:  # same minute: the slot is still due but must not run again
            t.cli(t.now(25), "tick")
        t.minute += 1
    t.cli(t.now(), "tick")
    t.check()


def sc_run_kill(t):
    t.from_template("basic")
    if t.rng.random() < 0.3:
        t.cli(t.now(), "tick")
        t.minute += 1
    for _ in range(t.rng.randint(1, 2)):
        job = t.rng.choice(["fast", "slow", "fail", "hook"])
        occ = "auto" if t.rng.random() < 0.7 else t.now()
        t.kill_step(t.now(10), ["run", job, "--occurrence", occ], RUN_POINTS)
        t.settle()
        t.cli(t.now(25), "tick")  # the slot has a row: the tick must not fire it
        t.minute += 1
    t.cli(t.now(), "tick")
    t.check()


def sc_writer_kill(t):
    t.from_template("basic")
    for k in range(t.rng.randint(1, 3)):
        before = t.names()
        op = t.rng.choice(["add", "edit", "pause", "resume", "remove", "notepad"])
        others = sorted(n for n in before if n != "idle") or sorted(before)
        accept = [set(before)]
        if op == "add":
            name = f"new{k}"
            args = ["add", t.rng.choice(["* * * * *", "@daily", "*/2 * * * *"]), "--script",
                    "fast.sh", "--no-agent", "--name", name]
            accept.append(before | {name})
        elif op == "edit":
            target = t.rng.choice(sorted(before))
            args = ["edit", target] + t.rng.choice([["--prompt", f"edited {k}"],
                                                   ["--schedule", "*/3 * * * *"],
                                                   ["--deliver", "local"]])
        elif op == "pause":
            target = t.rng.choice(others)
            args = ["pause", target]
            t.allowed_paused.add(target)
        elif op == "resume":
            target = t.rng.choice(sorted(t.allowed_paused & before) or others)
            args = ["resume", target]
        elif op == "remove":
            target = t.rng.choice(sorted(before))
            args = ["remove", target]
            accept.append(before - {target})
        else:
            target = t.rng.choice(sorted(before))
            args = ["notepad", target, "set", f"k{k}", f"v{k}"]
        t.kill_step(t.now(5 + k), args, WRITER_POINTS, delay=(0.0, 0.2))
        try:
            after = t.names()
        except Exception as exc:  # noqa: BLE001
            t.violate("c", f"after killed {' '.join(args)!r}: jobs.json does not parse: {exc!r}")
            return
        if after not in accept:
            t.violate("c", f"after killed {' '.join(args)!r}: job set {sorted(after)} is neither "
                           f"{' nor '.join(str(sorted(a)) for a in accept)}")
        t.expect_names = after
    t.settle()
    t.cli(t.now(30), "tick")
    t.check()


def sc_tickers_8(t):
    t.from_template("basic")
    for _ in range(2):
        kids = [t.popen(t.now(), ["tick"]) for _ in range(8)]
        for c in kids:
            c.wait()
        t.minute += 1
    t.cli(t.now(), "tick")
    t.check()


def sc_writers_8(t):
    t.from_template("writers")
    ops = t.camp.writer_ops
    results = {}

    def writer(w):
        done_adds, last_edit = [], None
        for i in range(ops):
            if i % 2 == 0:
                c = t.cli(t.now(i), "add", "@daily", f"prompt w{w}-{i}", "--name", f"w{w}-{i}")
                if c.rc == 0:
                    done_adds.append(f"w{w}-{i}")
            else:
                c = t.cli(t.now(i), "edit", f"e{w}", "--prompt", f"w{w}-{i}")
                if c.rc == 0:
                    last_edit = f"w{w}-{i}"
            if c.rc != 0:
                t.note(f"writer {w} op {i} exit {c.rc}: {c.stderr.strip()[-200:]}")
        results[w] = (done_adds, last_edit)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for w, (adds, _) in results.items():
        t.expect_names |= set(adds)
    jobs = t.jobs()
    prompts = {j.get("name"): j.get("prompt") for j in jobs}
    edits = 0
    for w, (adds, last_edit) in results.items():
        if last_edit is not None:
            edits += 1
            if prompts.get(f"e{w}") != last_edit:
                t.violate("c", f"lost update: e{w} has prompt {prompts.get(f'e{w}')!r}, the "
                               f"writer's last successful edit set {last_edit!r}")
    t.camp.count("edits", sum(ops // 2 for _ in results))
    t.camp.count("adds", sum(len(a) for a, _ in results.values()))
    t.check(clean=False)
    t.cli(t.now(90), "tick")
    t.check()


def sc_tick_vs_run(t):
    t.from_template("basic")
    if t.rng.random() < 0.5:
        t.cli(t.now(), "tick")
        t.minute += 1
    job = t.rng.choice(["fast", "slow", "hook", "fail"])
    specs = ([("tick", t.rng.uniform(0, 20)) for _ in range(3)]
             + [("auto", t.rng.uniform(0, 50)) for _ in range(3)] + [("slot", 30)])
    t.rng.shuffle(specs)
    kids = []
    for what, offset in specs:
        now = t.now(round(offset, 1))
        if what == "tick":
            kids.append(t.popen(now, ["tick"]))
        else:
            kids.append(t.popen(now, ["run", job, "--occurrence",
                                      "auto" if what == "auto" else t.now()]))
    for c in kids:
        c.wait()
    jid = t.job_id(job)
    n = sum(1 for r in t.rows() if r[1] == jid and norm_instant(r[3]) == t.now())
    if n != 1:
        t.violate("a", f"job {job} slot {t.now()} has {n} rows after the race (want 1)")
    t.minute += 1
    t.cli(t.now(), "tick")
    t.check()


def sc_jobs_lock(t):
    t.from_template("lock")
    t.extra_env["HERMES_CRON_LOCK_TIMEOUT"] = "1"
    lock = os.path.join(t.home, ".jobs.lock")
    if t.rng.random() < 0.5:  # writers and a tick start while the lock is held
        hold = t.holder("flock", lock, 2.5)
        kids = [t.popen(t.now(5), ["add", "@daily", "x", "--name", "locked-add"]),
                t.popen(t.now(5), ["edit", "fast", "--prompt", "under lock"]),
                t.popen(t.now(5), ["pause", "slow"]),
                t.popen(t.now(5), ["notepad", "fail", "set", "k", "v"]),
                t.popen(t.now(5), ["tick"])]
        t.allowed_paused.add("slow")
        for c in kids:
            c.wait()
        hold.wait()
        if kids[0].rc == 0:
            t.expect_names.add("locked-add")
        elif "locked-add" in t.names():
            t.violate("c", f"add exited {kids[0].rc} under a held lock but its job is stored")
        for c in kids:
            if c.rc not in (0, 1, 4):
                t.violate("h", f"{c.label} exit {c.rc} under a held .jobs.lock: {c.stderr[-200:]!r}")
        t.minute += 1
    else:  # runs finish while the lock is held
        for _ in range(3):
            tick = t.popen(t.now(), ["tick"])
            time.sleep(t.rng.uniform(0.1, 0.5))
            hold = t.holder("flock", lock, 2.0)
            tick.wait()
            hold.wait()
            t.minute += 1
    t.settle()
    t.cli(t.now(), "tick")
    t.minute += 1
    t.cli(t.now(), "tick")
    rep = t.job_id("rep")
    runs = sum(1 for j, _ in t.ran() if j == rep)
    if runs > 2:
        t.violate("a", f"job rep (--repeat 2) ran {runs} times")
    t.check()


def sc_db_lock(t):
    t.from_template("basic")
    t.cli(t.now(), "tick")  # executions.db exists (the holder locks it, never creates it)
    t.minute += 1
    hold = t.holder("sqlite", os.path.join(t.home, "executions.db"), 6.0)
    kids = [t.popen(t.now(), ["tick"]),
            t.popen(t.now(15), ["run", t.rng.choice(["fast", "hook"]), "--occurrence", "auto"])]
    for c in kids:
        c.wait()
    hold.wait()
    t.settle()
    t.cli(t.now(30), "tick")
    t.minute += 1
    t.cli(t.now(), "tick")
    t.check()


def sc_clock_step(t):
    t.from_template("clock")
    gate = os.path.join(t.dir, "gate")
    open(gate, "w").close()
    slot = t.now()
    first = t.popen(slot, ["tick"])
    marker = os.path.join(t.dir, "gate.marker")
    deadline = time.monotonic() + 20
    while not os.path.exists(marker):
        if first.proc.poll() is not None or time.monotonic() > deadline:
            os.unlink(gate)
            first.wait()
            raise HarnessError("the gated run never started")
        time.sleep(0.02)
    with open(marker) as f:
        live = f.read().strip()
    forward = t.rng.choice([301, 420, 900, 3600, 3 * 86400])
    back = t.rng.choice([-120, -600, -3600])
    t.step(f"    run {live} is live; the clock steps +{forward} s, then {back} s")
    t.cli(t.now(forward), "tick")
    if t.rng.random() < 0.5:
        t.cli(t.now(forward + 30), "run", "long", "--occurrence", slot)
    t.cli(t.now(back), "tick")
    os.unlink(gate)
    first.wait()
    t.settle()
    status = next((r[2] for r in t.rows() if r[0] == live), None)
    if status != "completed":
        t.violate("b", f"the live run {live} of slot {slot} ended {status!r} after clock steps "
                       f"+{forward} s / {back} s (want 'completed')")
    t.minute += 1
    t.cli(t.now(20), "tick")
    t.minute += 1
    t.cli(t.now(), "tick")
    fast = t.job_id("fast")
    if not any(r[1] == fast and norm_instant(r[3]) == t.now() for r in t.rows()):
        t.violate("a", f"after the clock came back (+{forward} s / {back} s), job fast did not "
                       f"fire its {t.now()} slot: {[r[2:4] for r in t.rows() if r[1] == fast]}")
    t.check()


def sc_fsize(t):
    t.from_template("basic")
    if t.rng.random() < 0.7:
        t.cli(t.now(), "tick")
        t.minute += 1
    limit = t.rng.choice([0, 512, 4096, 16384, 32768, 65536])
    op = t.rng.choice(["tick", "tick", "add", "edit", "pause", "run", "notepad"])
    args = {"tick": ["tick"],
            "add": ["add", "@daily", "--script", "fast.sh", "--no-agent", "--name", "big"],
            "edit": ["edit", "fast", "--prompt", "x" * 2000],
            "pause": ["pause", "slow"],
            "run": ["run", "fast", "--occurrence", "auto"],
            "notepad": ["notepad", "fast", "set", "k", "v" * 3000]}[op]
    if op == "pause":
        t.allowed_paused.add("slow")
    c = t.cli(t.now(5), *args, fsize=limit)
    if c.rc not in (0, 1, 4):
        t.violate("h", f"{' '.join(args)[:60]!r} under RLIMIT_FSIZE={limit} exit {c.rc}: "
                       f"{c.stderr.strip()[-300:]!r}")
    elif c.rc == 1 and (len(c.stderr.strip().splitlines()) != 1
                        or not c.stderr.startswith("hermes_cron: error:")):
        t.violate("h", f"{' '.join(args)[:60]!r} under RLIMIT_FSIZE={limit}: not a one-line "
                       f"error: {c.stderr.strip()[-300:]!r}")
    if op == "add":
        if c.rc == 0:
            t.expect_names.add("big")
        elif "big" in t.names():
            t.violate("c", f"add exited {c.rc} under RLIMIT_FSIZE={limit} but its job is stored")
    t.settle()
    t.check(clean=False)
    t.minute += 1
    t.cli(t.now(), "tick")
    t.check()


RUNNERS = {"tick-kill": sc_tick_kill, "run-kill": sc_run_kill, "writer-kill": sc_writer_kill,
           "tickers-8": sc_tickers_8, "writers-8": sc_writers_8, "tick-vs-run": sc_tick_vs_run,
           "jobs-lock": sc_jobs_lock, "db-lock": sc_db_lock, "clock-step": sc_clock_step,
           "fsize": sc_fsize}


# -- the campaign -------------------------------------------------------------

class Campaign:
    def __init__(self, args):
        self.seed, self.verbose = args.seed, args.verbose
        self.root = tempfile.mkdtemp(prefix="hermes-campaign-")
        self.env = base_env()
        self.webhook = WebhookServer(args.seed)
        self.webhook_reported = set()
        self.templates, self.template_names = {}, {}
        self.writer_ops = 6 if args.quick else 12
        self.counters = collections.Counter()

    def count(self, key, n):
        self.counters[key] += n

    def template(self, name):
        if name in self.templates:
            return self.templates[name]
        tdir = os.path.join(self.root, f"template-{name}")
        scripts = os.path.join(tdir, "scripts")
        os.makedirs(scripts)
        for fn, body in SCRIPTS.items():
            with open(os.path.join(scripts, fn), "w") as f:
                f.write(body)
        home = os.path.join(tdir, "cron")
        env = dict(self.env, HERMES_CRON_NOW=iso(T0 + timedelta(seconds=30)),
                   HOME=os.path.join(tdir, "user"))
        adds = []
        if name in ("basic", "lock", "clock"):
            adds += [("fast", ["* * * * *", "--script", "fast.sh", "--no-agent"]),
                     ("slow", ["* * * * *", "--script", "slow.sh", "--no-agent"]),
                     ("fail", ["* * * * *", "--script", "fail.sh", "--no-agent"])]
        if name == "basic":
            adds += [("hook", ["* * * * *", "--script", "fast.sh", "--no-agent",
                               "--deliver", f"webhook:{self.webhook.url}"]),
                     ("idle", ["@daily", "idle job", "--paused"])]
        if name == "lock":
            adds += [("rep", ["* * * * *", "--script", "slow.sh", "--no-agent", "--repeat", "2"])]
        if name == "clock":
            adds += [("long", ["* * * * *", "--script", "gate.sh", "--no-agent"])]
        if name == "writers":
            adds += [(f"e{w}", ["@daily", f"edit target {w}"]) for w in range(8)]
        for job, argv in adds:
            r = subprocess.run([PY, "-m", "hermes_cron", "--home", home, "add", *argv,
                                "--name", job], cwd=REPO_ROOT, env=env, capture_output=True,
                               text=True, umask=0, timeout=60)
            if r.returncode != 0:
                raise HarnessError(f"template {name}: add {job} failed: {r.stderr.strip()}")
        self.templates[name] = tdir
        self.template_names[name] = [j for j, _ in adds]
        return tdir

    def run_trial(self, scenario, index, keep):
        t = Trial(self, scenario, index)
        try:
            RUNNERS[scenario](t)
        except HarnessError as exc:
            t.note(f"harness: {exc}")
            t.harness_error = str(exc)
        finally:
            try:
                t.settle(wait=False)
            except HarnessError as exc:
                t.note(f"harness: {exc}")
            if not keep and not t.violations:
                shutil.rmtree(t.dir, ignore_errors=True)
        return t

    def cleanup(self, keep):
        pids = procs_tagged([b"CAMPAIGN_TAG=" + self.root.encode()])  # exact matches only
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/environ", "rb") as f:
                        env = f.read()
                except OSError:
                    continue
                if (b"CAMPAIGN_TAG=" + self.root.encode() + b"/") in env or (
                        b"HERMES_CRON_HOME=" + self.root.encode() + b"/") in env:
                    pids.append(int(name))
        for pid in set(pids):
            if pid != os.getpid():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        self.webhook.close()
        if not keep:
            shutil.rmtree(self.root, ignore_errors=True)


def self_test(camp):
    """Inject each violation into a healthy home and require the checker to name it."""
    import urllib.request

    def post(eid):
        req = urllib.request.Request(camp.webhook.url, method="POST",
                                     data=json.dumps({"execution_id": eid}).encode())
        urllib.request.build_opener(urllib.request.ProxyHandler({})).open(req, timeout=10).read()

    def edit_jobs(t, change):
        with open(os.path.join(t.home, "jobs.json"), "rb") as f:
            doc = json.loads(f.read())
        change(doc["jobs"])
        with open(os.path.join(t.home, "jobs.json"), "w") as f:
            json.dump(doc, f)

    def sql(t, statement):
        conn = sqlite3.connect(os.path.join(t.home, "executions.db"))
        with conn:
            conn.execute(statement)
        conn.close()

    def traceback_child(t):
        child = t.popen(t.now(), ["--version"])
        child.wait()
        with open(child.err_path, "w") as f:
            f.write("Traceback (most recent call last):\n  ...\nValueError: x\n")
        t.finished(child)

    injections = {
        "a": lambda t: sql(t, "INSERT INTO executions(id, job_id, source, process_id, pid, status, "
                              "claimed_at, scheduled_instant) SELECT 'x' || id, job_id, source, "
                              "process_id, pid, 'failed', claimed_at, scheduled_instant "
                              "FROM executions LIMIT 1"),
        "a ": lambda t: open(os.path.join(t.dir, "ran.log"), "a").write(
            " ".join(t.ran()[0]) + " 1\n"),
        "b": lambda t: sql(t, "UPDATE executions SET status='running' WHERE rowid=1"),
        "c": lambda t: edit_jobs(t, lambda jobs: jobs.pop()),
        "c ": lambda t: open(os.path.join(t.home, "jobs.json"), "a").write("{"),
        "d": lambda t: (post(t.rows()[0][0]), post(t.rows()[0][0])),
        "e": lambda t: os.close(os.open(os.path.join(t.home, "output", "x.tmp"),
                                        os.O_CREAT | os.O_WRONLY, 0o600)),
        "f": lambda t: edit_jobs(t, lambda jobs: jobs[0].update(state="paused", enabled=False)),
        "g": lambda t: os.chmod(os.path.join(t.home, "jobs.json"), 0o644),
        "h": traceback_child,
    }
    failures = []
    for i, (letter, inject) in enumerate(injections.items(), 1):
        t = Trial(camp, "self-test", i)
        t.from_template("basic")
        t.cli(t.now(), "tick")
        t.check()
        if t.violations:
            failures.append(f"healthy home flagged: {t.violations}")
        t.violations = []
        inject(t)
        t.check()
        found = sorted({c for c, _ in t.violations})
        ok = found == [letter.strip()]
        print(f"self-test ({letter.strip()}): {'ok' if ok else 'FAILED'}  {t.violations[:2]}")
        if not ok:
            failures.append(f"({letter.strip()}) injected, checker found {found}")
        shutil.rmtree(t.dir, ignore_errors=True)
    return failures


def plan(args):
    n = args.trials if args.trials is not None else (QUICK_TRIALS if args.quick else DEFAULT_TRIALS)
    out = []
    only = {}
    for item in (args.only.split(",") if args.only else []):
        name, _, idx = item.partition(":")
        if name not in RUNNERS:
            raise SystemExit(f"campaign: unknown scenario {name!r} (one of {', '.join(RUNNERS)})")
        only.setdefault(name, set())
        if idx:
            only[name].add(int(idx))
    for name, group, factor, minimum in SCENARIOS:
        if only and name not in only:
            continue
        count = max(minimum, round(n * factor))
        indexes = sorted(only[name]) if only.get(name) else list(range(1, count + 1))
        out.append((name, group, indexes))
    return out


def model_campaign(args):
    """The suite's randomized campaign (test_hermes_cron.run_model_campaign), its figures
    printed as a block for the README."""
    sys.path.insert(0, REPO_ROOT)
    import test_hermes_cron as suite

    only = {int(x) for x in args.only.split(",")} if args.only else None
    root = tempfile.mkdtemp(prefix="hermes-model-campaign-")

    def progress(fig):
        if args.verbose or fig["trials"] % 100 == 0:
            log(f"{fig['trials']} trials, {len(fig['violations'])} violations")

    try:
        fig = suite.run_model_campaign(args.seed, args.model, root, workers=args.workers,
                                       only=only, keep=args.keep, progress=progress)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    checks = collections.Counter(v["check"] for v in fig["violations"])
    if args.json:
        print(json.dumps({k: v for k, v in fig.items() if k != "violations"} | {
            "violations": len(fig["violations"]), "violations_by_check": dict(checks),
            "python": sys.version.split()[0]}, indent=1, default=str))
        return 1 if fig["violations"] else 0
    kills, stops = fig["kills"], fig["stops"]
    per_trial = fig["seconds"] / max(fig["trials"], 1)
    print(f"hermes_cron model campaign (test_randomized_campaign_keeps_every_invariant): "
          f"seed {fig['seed']}, python {sys.version.split()[0]}, {args.workers} workers, "
          f"{fig['seconds']} s ({per_trial:.2f} s a trial)\n")
    print("| figure | count |\n|---|---:|")
    print(f"| trials | {fig['trials']} |")
    print(f"| child processes | {fig['children']} |")
    print(f"| SIGKILLs | {sum(kills.values())} |")
    for label, _ in suite.CAMPAIGN_KILL_POINTS:
        print(f"| - at {label} | {kills.get(label, 0)} |")
    if kills.get("?"):
        print(f"| - elsewhere | {kills['?']} |")
    print(f"| clock steps forward / back | {fig['clock_forward']} / {fig['clock_back']} |")
    print(f"| SIGSTOPs of a delivering owner | {sum(stops.values())} |")
    for label, _ in suite.CAMPAIGN_STOP_POINTS:
        print(f"| - {label} | {stops.get(label, 0)} |")
    print(f"| violations | {len(fig['violations'])} |")
    for check, n in sorted(checks.items()):
        print(f"| - ({check}) | {n} |")
    if fig["violations"]:
        print()
        print(suite.campaign_report(fig, limit=1))
    for index, steps in sorted(fig.get("logs", {}).items()):
        print("\n".join(steps))
    return 1 if fig["violations"] else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, help=f"trials per SIGKILL scenario (default "
                    f"{DEFAULT_TRIALS}, --quick {QUICK_TRIALS}); the others scale with it")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="about a minute")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    ap.add_argument("--only", help="SCENARIO[:TRIAL],... (replay a trial with the same --seed)")
    ap.add_argument("--keep", action="store_true", help="keep the temp dirs")
    ap.add_argument("-v", "--verbose", action="store_true", help="log every step")
    ap.add_argument("--self-test", action="store_true",
                    help="inject each violation into a healthy home; the checker must see it")
    ap.add_argument("--model", type=int, metavar="N",
                    help="run the test suite's model-based campaign for N trials instead")
    ap.add_argument("--workers", type=int, default=2, help="--model: trials run side by side")
    args = ap.parse_args(argv)
    if args.model is not None:
        return model_campaign(args)

    camp = Campaign(args)
    if args.self_test:
        try:
            failures = self_test(camp)
        finally:
            camp.cleanup(args.keep)
        for f in failures:
            print(f"SELF-TEST FAILURE: {f}")
        return 1 if failures else 0
    started = time.monotonic()
    results = []
    try:
        for name, group, indexes in plan(args):
            t0 = time.monotonic()
            row = {"scenario": name, "group": group, "trials": 0, "kills": 0, "children": 0,
                   "violations": [], "harness_errors": [], "notes": []}
            for index in indexes:
                t = camp.run_trial(name, index, args.keep)
                row["trials"] += 1
                row["kills"] += t.kills
                row["children"] += t.children
                row["notes"] += [f"#{index}: {n}" for n in t.notes if not n.startswith("harness")]
                if getattr(t, "harness_error", None):
                    row["harness_errors"].append(f"#{index}: {t.harness_error}")
                for check, detail in t.violations:
                    row["violations"].append({
                        "check": check, "detail": detail, "seed": args.seed, "trial": index,
                        "replay": f"python benchmarks/campaign.py --seed {args.seed} "
                                  f"--only {name}:{index} --keep -v",
                        "dir": t.dir if args.keep or t.violations else None,
                        "steps": t.steps})
            row["seconds"] = round(time.monotonic() - t0, 1)
            results.append(row)
            log(f"{name}: {row['trials']} trials, {row['kills']} kills, "
                f"{len(row['violations'])} violations ({row['seconds']} s)")
        # A duplicate receipt no trial's ledger explained (its rows pruned, say).
        with camp.webhook.lock:
            dups = {e: n for e, n in camp.webhook.counts.items()
                    if n > 1 and e not in camp.webhook_reported}
            bad = list(camp.webhook.bad)
        extra = [{"check": "d", "detail": f"webhook received execution {e} {n} times",
                  "seed": args.seed, "trial": None, "replay": None, "dir": None, "steps": []}
                 for e, n in dups.items()]
        extra += [{"check": "d", "detail": f"webhook POST without an execution id: {b!r}",
                   "seed": args.seed, "trial": None, "replay": None, "dir": None, "steps": []}
                  for b in bad]
        if extra:
            results.append({"scenario": "(webhook, global)", "group": "concurrency",
                            "trials": 0, "kills": 0, "children": 0, "violations": extra,
                            "harness_errors": [], "notes": [], "seconds": 0})
        receipts, executions = camp.webhook.total()
    finally:
        keep = args.keep or any(r["violations"] for r in results)
        camp.cleanup(keep)
    elapsed = round(time.monotonic() - started, 1)
    totals = {k: sum(r[k] for r in results) for k in ("trials", "kills", "children")}
    totals["violations"] = sum(len(r["violations"]) for r in results)
    totals["harness_errors"] = sum(len(r["harness_errors"]) for r in results)
    summary = {"seed": args.seed, "python": sys.version.split()[0], "elapsed_seconds": elapsed,
               "webhook_receipts": receipts, "webhook_executions": executions,
               "writers_8": dict(camp.counters), "scenarios": results, "totals": totals,
               "kept": camp.root if keep else None}
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"hermes_cron fault campaign: seed {args.seed}, {elapsed} s, python "
              f"{summary['python']}\n")
        print(f"{'scenario':<18}{'group':<13}{'trials':>7}{'kills':>7}{'children':>10}"
              f"{'violations':>12}{'seconds':>9}")
        for r in results:
            print(f"{r['scenario']:<18}{r['group']:<13}{r['trials']:>7}{r['kills']:>7}"
                  f"{r['children']:>10}{len(r['violations']):>12}{r['seconds']:>9}")
        print(f"{'total':<31}{totals['trials']:>7}{totals['kills']:>7}{totals['children']:>10}"
              f"{totals['violations']:>12}{elapsed:>9}")
        print(f"\nwebhook: {receipts} receipts for {executions} execution ids; writers-8: "
              f"{camp.counters.get('adds', 0)} adds and {camp.counters.get('edits', 0)} edits "
              f"attempted concurrently")
        for r in results:
            for e in r["harness_errors"]:
                print(f"harness error (not a finding) in {r['scenario']} {e}")
        for r in results:
            for v in r["violations"]:
                print(f"\nVIOLATION ({v['check']}) {r['scenario']} seed {v['seed']} trial "
                      f"{v['trial']}: {v['detail']}")
                if v["replay"]:
                    print(f"  replay: {v['replay']}")
                if v["dir"]:
                    print(f"  home kept: {v['dir']}")
                for s in v["steps"]:
                    print(f"    {s}")
        if keep:
            print(f"\ntemp dirs kept in {camp.root}")
    return 1 if totals["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
