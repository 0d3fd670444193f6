"""Tests for hermes_cron.  Sections mirror the module's numbered banners.

Run with ``python -m pytest -q``.  Tests marked ``slow`` start real
processes (the CLI, concurrent writers, SIGKILL crash tests); they run in CI
too.  To test a vendored copy, change the one import line below.
"""

import ast
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from datetime import datetime, timedelta, timezone

import pytest

import hermes_cron as hc

UTC = timezone.utc
MODULE = os.path.abspath(hc.__file__)
HERE = os.path.dirname(MODULE)


# ---- fixtures and fakes -----------------------------------------------------------


class FakeClock:
    """A settable clock: ``clock()`` returns ``clock.now``."""

    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, **kw):
        self.now += timedelta(**kw)


@pytest.fixture
def clock():
    return FakeClock(datetime(2026, 3, 6, 12, 0, tzinfo=UTC))  # a Friday


@pytest.fixture
def env(tmp_path):
    """A clean environment: no inherited HERMES_* variables, UTC system zone."""
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("HERMES_", "TZ"))}
    base["TZ"] = "UTC"
    base["HOME"] = str(tmp_path / "user")
    return base


@pytest.fixture
def home(tmp_path, clock, env):
    (tmp_path / "scripts").mkdir()
    return hc.CronHome(tmp_path / "cron", clock=clock, environ=env, lock_timeout=2.0)


@pytest.fixture
def cli(home, capsys, monkeypatch, env):
    """Run the CLI in-process against *home*: returns (rc, stdout, stderr)."""
    monkeypatch.setattr(os, "environ", dict(env, HERMES_CRON_NOW=hc._iso(home.clock())))

    def run(*argv):
        os.environ["HERMES_CRON_NOW"] = hc._iso(home.clock())
        rc = hc.main(["--home", home.path, *argv])
        out, err = capsys.readouterr()
        return rc, out, err

    return run


def jobs_bytes(home):
    with open(os.path.join(home.path, "jobs.json"), "rb") as f:
        return f.read()


def run_cli(*argv, env=None, timeout=30):
    """Run ``python -m hermes_cron`` in a child process."""
    return subprocess.run([sys.executable, "-m", "hermes_cron", *argv], cwd=HERE, env=env,
                          capture_output=True, text=True, timeout=timeout)


# ---- 1-3. imports, constants, exceptions -----------------------------------------


def test_exceptions_derive_from_the_matching_builtins():
    assert issubclass(hc.InvalidInputError, ValueError)
    assert issubclass(hc.CronSyntaxError, hc.InvalidInputError)
    assert issubclass(hc.JobNotFoundError, LookupError)
    assert issubclass(hc.StoreLockedError, TimeoutError)
    for cls in (hc.InvalidInputError, hc.JobNotFoundError, hc.StoreLockedError,
                hc.StoreCorruptError):
        assert issubclass(cls, hc.HermesCronError)
    codes = [c.exit_code for c in (hc.HermesCronError, hc.InvalidInputError,
                                   hc.JobNotFoundError, hc.StoreLockedError,
                                   hc.StoreCorruptError)]
    assert codes == [1, 2, 3, 4, 1]


def test_error_message_is_what_value_fix():
    err = hc.InvalidInputError("workdir must be an existing absolute directory", "rel/dir",
                               "create it or pass an absolute path")
    assert str(err) == ("workdir must be an existing absolute directory: 'rel/dir': "
                        "create it or pass an absolute path")
    assert (err.what, err.value, err.fix) == (
        "workdir must be an existing absolute directory", "rel/dir",
        "create it or pass an absolute path")


# ---- 4. time, zones and files ------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ("2026-03-08", datetime(2026, 3, 8)),
    ("2026-03-08T09:30", datetime(2026, 3, 8, 9, 30)),
    ("2026-03-08 09:30:15", datetime(2026, 3, 8, 9, 30, 15)),
    ("2026-03-08T09:30:15.5", datetime(2026, 3, 8, 9, 30, 15, 500000)),
    ("2026-03-08T09:30:00Z", datetime(2026, 3, 8, 9, 30, tzinfo=UTC)),
    ("2026-03-08T09:30:00z", datetime(2026, 3, 8, 9, 30, tzinfo=UTC)),
    ("2026-03-08T09:30:00+02:00",
     datetime(2026, 3, 8, 9, 30, tzinfo=timezone(timedelta(hours=2)))),
    ("2026-03-08T09:30-0530",
     datetime(2026, 3, 8, 9, 30, tzinfo=timezone(-timedelta(hours=5, minutes=30)))),
])
def test_parse_iso_accepts_the_same_forms_on_every_python(text, expected):
    got = hc.parse_iso(text)
    assert got == expected and got.tzinfo == expected.tzinfo


@pytest.mark.parametrize("text", ["", "2026-3-8", "2026-03-08T9:30", "20260308T0930",
                                  "2026-03-08T09:30+25:00", "2026-02-30", "tomorrow", None])
def test_parse_iso_rejects_other_forms(text):
    with pytest.raises(hc.InvalidInputError):
        hc.parse_iso(text)


def test_parse_iso_error_names_value_and_fix():
    with pytest.raises(hc.InvalidInputError) as ei:
        hc.parse_iso("next tuesday")
    assert str(ei.value) == ("not an ISO 8601 time: 'next tuesday': use YYYY-MM-DDTHH:MM[:SS] "
                             "with an optional offset like +02:00 or Z")


@pytest.mark.parametrize("name,offset", [
    ("UTC", timedelta(0)), ("utc", timedelta(0)), ("Z", timedelta(0)),
    ("+02:00", timedelta(hours=2)), ("-05:30", -timedelta(hours=5, minutes=30)),
    ("UTC+3", timedelta(hours=3)), ("GMT-1", -timedelta(hours=1)),
])
def test_fixed_offset_zones_work_without_tz_database(name, offset):
    zone = hc._zone(name)
    assert zone.utcoffset(None) == offset


def test_unknown_zone_is_a_clear_error():
    with pytest.raises(hc.InvalidInputError) as ei:
        hc._zone("Mars/Olympus_Mons")
    assert str(ei.value).startswith("tz: unknown time zone: 'Mars/Olympus_Mons': use an IANA name")


def test_system_zone_follows_tz_variable():
    assert hc._system_zone({"TZ": "Europe/Berlin"}).key == "Europe/Berlin"
    assert hc._system_zone({"TZ": ":America/New_York"}).key == "America/New_York"
    assert hc._system_zone({"TZ": "UTC"}) is UTC


def test_atomic_write_replaces_file_with_mode_0600_and_leaves_no_temp(tmp_path):
    target = tmp_path / "f.json"
    target.write_text("old")
    hc._atomic_write(str(target), b"new")
    assert target.read_bytes() == b"new"
    assert oct(target.stat().st_mode & 0o777) == "0o600"
    assert os.listdir(tmp_path) == ["f.json"]


def test_file_lock_times_out_with_store_locked_error(tmp_path):
    path = str(tmp_path / ".jobs.lock")
    with hc._FileLock(path, 5):
        start = time.monotonic()
        with pytest.raises(hc.StoreLockedError) as ei:
            with hc._FileLock(path, 0.2):
                pass
        assert time.monotonic() - start < 2
    assert str(ei.value).startswith("the job store is locked by another process (waited 0.2 s)")
    with hc._FileLock(path, 0.2):  # released again
        pass


# ---- 5. cron expressions -----------------------------------------------------------

# (The table-driven engine tests, the DST tables and the randomized cross-check
# follow this block.)


@pytest.mark.parametrize("expr,message", [
    ("61 * * * *", "minute field value 61 is out of range 0-59: '61 * * * *': "
                   "the minute field takes 0-59, lists, ranges and */steps"),
    ("0 24 * * *", "hour field value 24 is out of range 0-23: '0 24 * * *': "
                   "the hour field takes 0-23, lists, ranges and */steps"),
    ("0 0 0 * *", "day-of-month field value 0 is out of range 1-31: '0 0 0 * *': "
                  "the day-of-month field takes 1-31, lists, ranges and */steps"),
    ("0 0 * 13 *", "month field value 13 is out of range 1-12: '0 0 * 13 *': "
                   "the month field takes 1-12 or jan-dec, lists, ranges and */steps"),
    ("0 0 * * 8", "day-of-week field value 8 is out of range 0-7: '0 0 * * 8': "
                  "the day-of-week field takes 0-7 or sun-sat, lists, ranges and */steps"),
    ("5-1 * * * *", "minute field range '5-1' is reversed: '5-1 * * * *': "
                    "the minute field takes 0-59, lists, ranges and */steps"),
    ("*/0 * * * *", "minute field has a zero step in '*/0': '*/0 * * * *': "
                    "the minute field takes 0-59, lists, ranges and */steps"),
    ("* * * *", "cron expression needs 5 fields (minute hour day-of-month month day-of-week), "
                "got 4: '* * * *': write five space-separated fields, e.g. '30 9 * * 1-5'"),
    ("0 0 30 2 *", "cron expression never fires: no listed day-of-month exists in the listed "
                   "months: '0 0 30 2 *': check the day-of-month against the month lengths "
                   "(February has at most 29 days)"),
    ("@reboot", "unknown cron macro: '@reboot': use @yearly, @annually, @monthly, @weekly, "
                "@daily, @midnight or @hourly"),
    ("0 0 * * mon#6", "day-of-week field needs a week number 1-5 after '#' in 'mon#6': "
                      "'0 0 * * mon#6': the day-of-week field takes 0-7 or sun-sat, lists, "
                      "ranges and */steps"),
])
def test_cron_error_messages_are_exact(expr, message):
    with pytest.raises(hc.CronSyntaxError) as ei:
        hc.CronExpr(expr)
    assert str(ei.value) == message


def test_cron_expr_equality_and_repr():
    assert hc.CronExpr("0 9 * * *") == hc.CronExpr("0 9 * * *")
    assert hc.CronExpr("0 9 * * *") != hc.CronExpr("0 10 * * *")
    assert repr(hc.CronExpr("@daily")) == "CronExpr('@daily')"
    assert hc.CronExpr("CRON_TZ=Europe/Berlin 0 9 * * *").tz == "Europe/Berlin"


def test_cron_unknown_cron_tz_zone_is_an_error():
    with pytest.raises(hc.InvalidInputError) as ei:
        hc.CronExpr("CRON_TZ=Nowhere/Land 0 9 * * *")
    assert str(ei.value).startswith("CRON_TZ: unknown time zone: 'Nowhere/Land'")


# ---- 6. schedules ------------------------------------------------------------------

NOW = datetime(2026, 3, 6, 12, 0, tzinfo=UTC)

SCHEDULE_CASES = [
    ("every monday 9am", {"kind": "cron", "expr": "0 9 * * 1", "display": "every monday 9am"}),
    ("weekdays at 9:30", {"kind": "cron", "expr": "30 9 * * 1-5",
                          "display": "weekdays at 9:30"}),
    ("every day at noon", {"kind": "cron", "expr": "0 12 * * *",
                           "display": "every day at noon"}),
    ("weekends at 10pm", {"kind": "cron", "expr": "0 22 * * 0,6",
                          "display": "weekends at 10pm"}),
    ("mon and wed 18:00", {"kind": "cron", "expr": "0 18 * * 1,3",
                           "display": "mon and wed 18:00"}),
    ("daily at midnight", {"kind": "cron", "expr": "0 0 * * *",
                           "display": "daily at midnight"}),
    ("Fridays at 12:15 PM", {"kind": "cron", "expr": "15 12 * * 5",
                             "display": "Fridays at 12:15 PM"}),
    ("every 30m", {"kind": "interval", "minutes": 30, "display": "every 30m"}),
    ("30m", {"kind": "interval", "minutes": 30, "display": "every 30m"}),
    ("2h", {"kind": "interval", "minutes": 120, "display": "every 120m"}),
    ("every 2 hours", {"kind": "interval", "minutes": 120, "display": "every 120m"}),
    ("1d", {"kind": "interval", "minutes": 1440, "display": "every 1440m"}),
    ("every hour", {"kind": "interval", "minutes": 60, "display": "every 60m"}),
    ("0 9 * * 1-5", {"kind": "cron", "expr": "0 9 * * 1-5", "display": "0 9 * * 1-5"}),
    ("0   9 *  * *", {"kind": "cron", "expr": "0 9 * * *", "display": "0 9 * * *"}),
    ("@hourly", {"kind": "cron", "expr": "@hourly", "display": "@hourly"}),
    ("CRON_TZ=Asia/Tokyo 0 9 * * *", {"kind": "cron", "expr": "CRON_TZ=Asia/Tokyo 0 9 * * *",
                                      "display": "CRON_TZ=Asia/Tokyo 0 9 * * *"}),
    ("0 0 1 1 1", {"kind": "cron", "expr": "0 0 1 1 1", "display": "0 0 1 1 1"}),
    ("2026-03-08T09:00", {"kind": "once", "run_at": "2026-03-08T09:00:00+00:00",
                          "display": "once at 2026-03-08 09:00"}),
    ("2026-03-08T09:00:00+02:00", {"kind": "once", "run_at": "2026-03-08T07:00:00+00:00",
                                   "display": "once at 2026-03-08 07:00"}),
    ("in 45m", {"kind": "once", "run_at": "2026-03-06T12:45:00+00:00",
                "display": "once in 45m"}),
    ("in 2 days", {"kind": "once", "run_at": "2026-03-08T12:00:00+00:00",
                   "display": "once in 2 days"}),
]


@pytest.mark.parametrize("text,expected", SCHEDULE_CASES, ids=[c[0] for c in SCHEDULE_CASES])
def test_parse_schedule_forms(text, expected):
    assert hc.parse_schedule(text, now=NOW) == expected


def test_parse_schedule_naive_iso_is_in_the_job_zone():
    got = hc.parse_schedule("2026-07-01 09:00", now=NOW, tz="Europe/Berlin")
    assert got["run_at"] == "2026-07-01T09:00:00+02:00"


def test_parse_schedule_in_duration_counts_real_time_across_dst():
    # New York springs forward on 2026-03-08: 24 h after 12:00 EST is 13:00 EDT.
    now = datetime(2026, 3, 7, 17, 0, tzinfo=UTC)
    got = hc.parse_schedule("in 1d", now=now, tz="America/New_York")
    assert got["run_at"] == "2026-03-08T13:00:00-04:00"


@pytest.mark.parametrize("text,message", [
    ("", "schedule is empty: '': use a cron expression"),
    ("sometimes", "unrecognised schedule: 'sometimes': use a cron expression"),
    ("every fortnight", "unrecognised schedule: 'every fortnight': use a cron expression"),
    ("0m", "schedule interval must be at least 1 minute: '0m': use a duration like 'every 5m'"),
    ("in 0m", "one-shot delay must be at least 1 minute: 'in 0m': use a duration like 'in 5m'"),
    ("every monday 25:00", "unrecognised schedule: 'every monday 25:00'"),
    ("61 * * * *", "minute field value 61 is out of range 0-59"),
    ("* * * * * *", "cron expression needs 5 fields (minute hour day-of-month month "
                    "day-of-week), got 6"),
    ("2026-02-30T10:00", "not a real date or time (day is out of range for month)"),
])
def test_parse_schedule_errors(text, message):
    with pytest.raises(hc.InvalidInputError) as ei:
        hc.parse_schedule(text, now=NOW)
    assert str(ei.value).startswith(message)


def test_parse_schedule_error_lists_the_accepted_forms():
    with pytest.raises(hc.CronSyntaxError) as ei:
        hc.parse_schedule("whenever", now=NOW)
    for example in ("'0 9 * * 1-5'", "'every 30m'", "'weekdays at 9:30'", "'in 45m'",
                    "'2026-03-01T09:00'", "CRON_TZ="):
        assert example in str(ei.value)


# ---- 7. configuration --------------------------------------------------------------


def write_config(home, data):
    os.makedirs(home.path, exist_ok=True)
    with open(os.path.join(home.path, "config.json"), "w") as f:
        f.write(data if isinstance(data, str) else json.dumps(data))


def test_config_defaults(home):
    s = home.settings
    assert (s["catch_up_missed"], s["max_parallel"], s["failure_repeat_alert_hours"],
            s["output_retention"], s["script_timeout_seconds"], s["run_timeout_seconds"],
            s["allow_agent_scheduling"], s["failure_nudge_threshold"]) == (
        True, 4, 6, 50, 3600, 600, False, 3)


def test_config_file_and_environment(home):
    write_config(home, {"max_parallel": 2, "timezone": "Europe/Berlin"})
    home.environ["HERMES_CRON_MAX_PARALLEL"] = "8"
    assert home.settings["max_parallel"] == 8
    assert home.settings["timezone"] == "Europe/Berlin"


@pytest.mark.parametrize("data,message", [
    ({"max_parallel": "4"}, "config.json key 'max_parallel' must be a whole number: '4': "
                            "set it to a whole number or remove it"),
    ({"catch_up_missed": 1}, "config.json key 'catch_up_missed' must be true or false: 1: "
                             "set it to true or false or remove it"),
    ({"max_parallel": 0}, "config.json key 'max_parallel' must be a positive whole number: 0"),
    ({"timezone": "Moon/Base"}, "config.json key 'timezone': unknown time zone: 'Moon/Base'"),
    ("[1]", "config.json must hold a JSON object"),
    ("{bad", "config.json is not valid JSON"),
])
def test_config_errors_name_the_key(home, data, message):
    write_config(home, data)
    with pytest.raises(hc.InvalidInputError) as ei:
        home.settings
    assert str(ei.value).startswith(message)


def test_config_unknown_keys_are_warnings(home):
    write_config(home, {"colour": "blue"})
    assert home.settings["max_parallel"] == 4
    assert home.config_warnings == ["config.json: unknown key 'colour' is ignored"]


def test_config_bad_environment_value(home):
    home.environ["HERMES_CRON_CATCH_UP_MISSED"] = "maybe"
    with pytest.raises(hc.InvalidInputError) as ei:
        home.settings
    assert str(ei.value) == ("environment variable HERMES_CRON_CATCH_UP_MISSED must be true or "
                             "false: 'maybe': fix or unset the variable")


# ---- 8. jobs -----------------------------------------------------------------------


def test_add_job_writes_the_upstream_record(home):
    job = home.add_job("weekdays at 9:30", "  Summarise alerts  ", name="digest",
                       tz="Europe/Berlin")
    assert len(job["id"]) == 12 and int(job["id"], 16) >= 0 and job["id"] == job["id"].lower()
    assert list(job)[:5] == ["id", "name", "prompt", "skills", "skill"]
    assert {k: job[k] for k in ("name", "prompt", "skills", "skill", "no_agent", "schedule",
                                "schedule_display", "repeat", "enabled", "state", "paused_at",
                                "paused_reason", "created_at", "next_run_at", "last_run_at",
                                "last_status", "failure_streak", "deliver", "tz",
                                "context_from")} == {
        "name": "digest", "prompt": "Summarise alerts", "skills": [], "skill": None,
        "no_agent": False,
        "schedule": {"kind": "cron", "expr": "30 9 * * 1-5", "display": "weekdays at 9:30"},
        "schedule_display": "weekdays at 9:30", "repeat": {"times": None, "completed": 0},
        "enabled": True, "state": "scheduled", "paused_at": None, "paused_reason": None,
        "created_at": "2026-03-06T13:00:00+01:00", "next_run_at": "2026-03-09T09:30:00+01:00",
        "last_run_at": None, "last_status": None, "failure_streak": 0, "deliver": "local",
        "tz": "Europe/Berlin", "context_from": None}
    on_disk = json.loads(jobs_bytes(home))
    assert on_disk["jobs"] == [job]
    assert on_disk["updated_at"] == "2026-03-06T12:00:00+00:00"


def test_add_job_default_name_and_zones(home, env):
    job = home.add_job("0 9 * * *", "x" * 80)
    assert job["name"] == "x" * 50
    assert job["next_run_at"] == "2026-03-07T09:00:00+00:00"  # system zone is UTC here
    home.environ["HERMES_TIMEZONE"] = "Asia/Tokyo"
    assert home.add_job("0 9 * * *", "p")["next_run_at"] == "2026-03-07T09:00:00+09:00"
    write_config(home, {"timezone": "America/New_York"})
    home._settings = None
    assert home.add_job("0 9 * * *", "p")["next_run_at"] == "2026-03-06T09:00:00-05:00"


def test_add_interval_and_one_shot(home):
    interval = home.add_job("every 90m", "p")
    assert interval["next_run_at"] == "2026-03-06T13:30:00+00:00"
    once = home.add_job("in 10m", "p")
    assert once["repeat"] == {"times": 1, "completed": 0}
    assert once["next_run_at"] == "2026-03-06T12:10:00+00:00"
    recent = home.add_job("2026-03-06T11:59:00Z", "p")  # inside the 120 s grace
    assert recent["next_run_at"] == "2026-03-06T11:59:00+00:00"


def test_add_paused_job(home):
    job = home.add_job("@daily", "p", paused=True, reason="awaiting review")
    assert (job["enabled"], job["state"], job["paused_at"], job["paused_reason"],
            job["next_run_at"]) == (False, "paused", "2026-03-06T12:00:00+00:00",
                                    "awaiting review", None)


def test_add_job_with_script_skills_and_context(home, tmp_path):
    (tmp_path / "scripts" / "fetch.py").write_text("print('hi')\n")
    first = home.add_job("@hourly", "", script="fetch.py", no_agent=True)
    assert first["name"] == "fetch.py" and first["no_agent"] is True
    second = home.add_job("@daily", "", skills=["digest", " digest ", "news"],
                          context_from=[first["id"], "self"])
    assert second["skills"] == ["digest", "news"] and second["skill"] == "digest"
    assert second["context_from"] == [first["id"], "self"]
    assert second["name"] == "digest"


INVALID_JOBS = [
    (dict(schedule="@daily", prompt="  "),
     "job has nothing to run: the prompt is blank and no script or skill is set: '': "
     "give a prompt, --script or --skill"),
    (dict(schedule="@daily", prompt="p", no_agent=True),
     "no_agent needs a script: add --script NAME (a file in the scripts dir) or drop "
     "--no-agent"),
    (dict(schedule="2026-03-06T11:57:00Z", prompt="p"),
     "one-shot time is more than 120 s in the past: '2026-03-06T11:57:00+00:00': give a future "
     "time, or 'in 5m'"),
    (dict(schedule="every blue moon", prompt="p"), "unrecognised schedule: 'every blue moon'"),
    (dict(schedule="@daily", prompt="p", tz="Atlantis/Capital"),
     "tz: unknown time zone: 'Atlantis/Capital'"),
    (dict(schedule="@daily", prompt="p", workdir="relative/dir"),
     "workdir must be an existing absolute directory: 'relative/dir': create it or pass an "
     "absolute path"),
    (dict(schedule="@daily", prompt="p", workdir="/no/such/dir"),
     "workdir must be an existing absolute directory: '/no/such/dir'"),
    (dict(schedule="@daily", prompt="p", base_url="https://evil.example/v1"),
     "base_url needs a provider: 'https://evil.example/v1': add --provider NAME"),
    (dict(schedule="@daily", prompt="p", provider="openai", base_url="https://evil.example/v1"),
     "base_url host 'evil.example' is not provider 'openai''s host (api.openai.com); its API "
     "key may not be sent there: 'https://evil.example/v1': drop --base-url, or use --provider "
     "custom with a key of the job's own"),
    (dict(schedule="@daily", prompt="p", provider="mystery", base_url="https://x.example"),
     "base_url host 'x.example' is not provider 'mystery''s host (unknown)"),
    (dict(schedule="@daily", prompt="p", script="../escape.sh"),
     "script resolves outside the scripts dir"),
    (dict(schedule="@daily", prompt="p", script="missing.sh"),
     "script not found in the scripts dir"),
    (dict(schedule="@daily", prompt="p", repeat="often"),
     "repeat must be a count: 'often': use a whole number like 3, 'once' or 'forever'"),
    (dict(schedule="@daily", prompt="p", deliver="telegram"),
     "deliver: unknown or incomplete target: 'telegram': use local, stdout, "
     "file:/absolute/path"),
    (dict(schedule="@daily", prompt="p", deliver="local,file:relative.txt"),
     "deliver: unknown or incomplete target: 'file:relative.txt'"),
    (dict(schedule="@daily", prompt="p", deliver="webhook:https://u:secretpw@hooks.example/x"),
     "deliver: webhook URL must not carry credentials: 'https://***@hooks.example/x'"),
    (dict(schedule="@daily", prompt="p", deliver="webhook:ftp://hooks.example/x"),
     "deliver: webhook needs an http(s) URL"),
    (dict(schedule="@daily", prompt="p", skills=["../etc"]),
     "skill must be a plain skill name: '../etc'"),
    (dict(schedule="@daily", prompt="p", context_from=["nosuchjob"]),
     "no job with that id or name: 'nosuchjob'"),
    (dict(schedule="@daily", prompt="p", reason="why"),
     "a pause reason needs --paused: 'why': add --paused or drop --reason"),
]


@pytest.mark.parametrize("kwargs,message", INVALID_JOBS, ids=[m[:40] for _, m in INVALID_JOBS])
def test_invalid_job_is_refused_and_nothing_changes(home, kwargs, message):
    home.add_job("@daily", "existing")
    before = jobs_bytes(home)
    with pytest.raises(hc.HermesCronError) as ei:
        home.add_job(**kwargs)
    assert str(ei.value).startswith(message)
    assert isinstance(ei.value, (ValueError, LookupError))
    assert jobs_bytes(home) == before


def test_credential_guard_allows_own_host_and_custom(home):
    write_config(home, {"providers": {"local": {"base_url": "http://127.0.0.1:8080/v1"}}})
    assert home.add_job("@daily", "p", provider="openai",
                        base_url="https://api.openai.com/v1/")["base_url"] == \
        "https://api.openai.com/v1"
    assert home.add_job("@daily", "p", provider="custom", base_url="https://my.example/v1")
    assert home.add_job("@daily", "p", provider="local", base_url="http://127.0.0.1:8080/v1")
    with pytest.raises(hc.InvalidInputError):
        home.add_job("@daily", "p", provider="local", base_url="http://10.0.0.1/v1")


def test_deliver_targets_split_only_before_known_prefixes(home):
    job = home.add_job("@daily", "p",
                       deliver="stdout,command:sort -k1,2 | tee /tmp/x,email:ops@example.com")
    assert hc._split_targets(job["deliver"]) == [
        "stdout", "command:sort -k1,2 | tee /tmp/x", "email:ops@example.com"]


@pytest.mark.parametrize("value,expected", [
    (None, None), ("forever", None), ("", None), (0, None), (-1, None), ("once", 1),
    ("1x", 1), (3, 3), ("7", 7),
])
def test_repeat_values(value, expected):
    assert hc._normalize_repeat(value) == expected


# ---- 9. job store ------------------------------------------------------------------


def write_jobs(home, text):
    os.makedirs(home.path, exist_ok=True)
    with open(os.path.join(home.path, "jobs.json"), "w", encoding="utf-8") as f:
        f.write(text)


def test_store_keeps_unknown_keys_and_top_level_fields(home):
    record = {"id": "abcdef012345", "name": "legacy", "prompt": "p", "origin": {"chat": 1},
              "schedule": {"kind": "interval", "minutes": 5, "display": "every 5m"},
              "enabled": True, "state": "scheduled", "next_run_at": "2026-03-06T12:05:00+00:00",
              "future_field": [1, 2]}
    write_jobs(home, json.dumps({"jobs": [record], "updated_at": "x", "schema": 7}))
    home.edit_job("legacy", prompt="new prompt")
    doc = json.loads(jobs_bytes(home))
    assert doc["schema"] == 7
    assert doc["jobs"][0]["origin"] == {"chat": 1}
    assert doc["jobs"][0]["future_field"] == [1, 2]
    assert doc["jobs"][0]["prompt"] == "new prompt"


@pytest.mark.parametrize("text", [
    '\ufeff{"jobs": [{"id": "abcdef012345", "name": "a", "prompt": "p"}]}',
    '[{"id": "abcdef012345", "name": "a", "prompt": "p"}]',
    '{"jobs": {"abcdef012345": {"name": "a", "prompt": "p"}}}',
    '{"abcdef012345": {"name": "a", "prompt": "p"}}',
    '{"jobs": [{"id": "abcdef012345", "name": "a", "prompt": "line\tbreak"}]}',
])
def test_store_tolerant_load_repairs_in_memory_only(home, text):
    write_jobs(home, text)
    before = jobs_bytes(home)
    jobs = home.jobs()
    assert [(j["id"], j["name"]) for j in jobs] == [("abcdef012345", "a")]
    assert jobs_bytes(home) == before


@pytest.mark.parametrize("text,why", [
    ('{"jobs": [', "not valid JSON: Expecting value at line 1 column 11"),
    ('"just a string"', "expected an object with a 'jobs' list, got str"),
    ('{"jobs": 5}', "'jobs' must be a list, got int"),
])
def test_store_corrupt_file_is_a_clear_error_and_never_overwritten(home, text, why):
    write_jobs(home, text)
    before = jobs_bytes(home)
    for action in (home.jobs, lambda: home.add_job("@daily", "p")):
        with pytest.raises(hc.StoreCorruptError) as ei:
            action()
        assert str(ei.value) == (
            f"jobs.json is corrupt ({why}): '{os.path.join(home.path, 'jobs.json')}': repair it "
            f"by hand or restore a backup; hermes_cron never overwrites it")
    assert jobs_bytes(home) == before


def test_store_write_is_0600_in_a_0700_home(home):
    home.add_job("@daily", "p")
    assert oct(os.stat(home.path).st_mode & 0o777) == "0o700"
    assert oct(os.stat(os.path.join(home.path, "jobs.json")).st_mode & 0o777) == "0o600"


def test_store_sweeps_stale_temp_files(home):
    home.add_job("@daily", "p")
    stale = os.path.join(home.path, ".jobs_dead.tmp")
    with open(stale, "w") as f:
        f.write("half")
    home.add_job("@daily", "q")
    assert not os.path.exists(stale)


def test_store_locked_error_and_nothing_written(home):
    home.add_job("@daily", "p")
    before = jobs_bytes(home)
    home._store.lock_timeout = 0.2
    with hc._FileLock(os.path.join(home.path, ".jobs.lock"), 1):
        with pytest.raises(hc.StoreLockedError):
            home.add_job("@daily", "q")
    assert jobs_bytes(home) == before


def test_reads_never_create_the_home(home):
    assert home.jobs() == []
    with pytest.raises(hc.JobNotFoundError):
        home.job("x")
    assert home.next_fires("@daily", 2)
    assert not os.path.exists(home.path)


# ---- 10. cron home -----------------------------------------------------------------


def test_home_path_resolution(tmp_path):
    assert hc.CronHome(environ={"HERMES_CRON_HOME": str(tmp_path / "a")}).path == \
        str(tmp_path / "a")
    assert hc.CronHome(environ={"HERMES_HOME": str(tmp_path / "h")}).path == \
        str(tmp_path / "h" / "cron")
    assert hc.CronHome(tmp_path / "b", environ={"HERMES_CRON_HOME": "/x"}).path == \
        str(tmp_path / "b")


def test_hermes_cron_now_pins_the_clock(tmp_path):
    home = hc.CronHome(tmp_path, environ={"HERMES_CRON_NOW": "2026-01-02T03:04:05+01:00"})
    assert home.now() == datetime(2026, 1, 2, 2, 4, 5, tzinfo=UTC)
    with pytest.raises(hc.InvalidInputError) as ei:
        hc.CronHome(tmp_path, environ={"HERMES_CRON_NOW": "2026-01-02T03:04:05"})
    assert str(ei.value) == ("HERMES_CRON_NOW must be an ISO 8601 time with an offset: "
                             "'2026-01-02T03:04:05': use a value like 2026-03-08T06:59:00+00:00")


def test_job_lookup_by_id_and_name(home):
    a = home.add_job("@daily", "p", name="Digest")
    b = home.add_job("@daily", "p", name="backup")
    c = home.add_job("@daily", "p", name="BACKUP")
    assert home.job(a["id"])["id"] == a["id"]
    assert home.job("digest")["id"] == a["id"]
    with pytest.raises(hc.InvalidInputError) as ei:
        home.job("Backup")
    assert str(ei.value) == (f"job name is ambiguous; it matches 2 jobs ({b['id']}, {c['id']}): "
                             f"'Backup': use the job id instead")
    with pytest.raises(hc.JobNotFoundError) as ei:
        home.job("nothing")
    assert str(ei.value) == ("no job with that id or name: 'nothing': run 'python -m hermes_cron "
                             "list --all' to see the jobs")


def test_edit_job_changes_fields_and_recomputes_next_run(home, clock):
    job = home.add_job("@daily", "p", name="j")
    clock.advance(hours=1)
    edited = home.edit_job("j", schedule="0 15 * * *", prompt="new", name="renamed",
                           deliver="stdout", tz="Asia/Tokyo")
    assert (edited["id"], edited["prompt"], edited["name"], edited["deliver"],
            edited["schedule_display"], edited["next_run_at"], edited["tz"]) == (
        job["id"], "new", "renamed", "stdout", "0 15 * * *", "2026-03-07T15:00:00+09:00",
        "Asia/Tokyo")
    assert home.edit_job("renamed", tz="")["tz"] is None


def test_edit_job_kind_change_adjusts_repeat(home):
    job = home.add_job("in 1h", "p")
    assert home.edit_job(job["id"], schedule="@daily")["repeat"]["times"] is None
    assert home.edit_job(job["id"], schedule="in 2h")["repeat"]["times"] == 1
    assert home.edit_job(job["id"], schedule="@daily", repeat=3)["repeat"]["times"] == 3


def test_edit_job_rejects_unknown_fields_and_bad_values(home):
    job = home.add_job("@daily", "p")
    before = jobs_bytes(home)
    with pytest.raises(hc.InvalidInputError) as ei:
        home.edit_job(job["id"], colour="red")
    assert str(ei.value).startswith("unknown job field: 'colour': editable fields are ")
    with pytest.raises(hc.CronSyntaxError):
        home.edit_job(job["id"], schedule="0 0 31 2 *")
    assert jobs_bytes(home) == before


def test_pause_and_resume(home, clock):
    job = home.add_job("0 * * * *", "p")
    paused = home.pause_job(job["id"], "maintenance")
    assert (paused["enabled"], paused["state"], paused["paused_reason"], paused["next_run_at"]) \
        == (False, "paused", "maintenance", "2026-03-06T13:00:00+00:00")
    clock.advance(hours=5)
    resumed = home.resume_job(job["id"])
    # The missed slot stays due: the tick's catch-up rules decide what fires.
    assert (resumed["enabled"], resumed["state"], resumed["paused_at"], resumed["next_run_at"]) \
        == (True, "scheduled", None, "2026-03-06T13:00:00+00:00")
    now = home.resume_job(job["id"], run_now=True)
    assert now["next_run_at"] == now["manual_run_at"] == "2026-03-06T17:00:00+00:00"


def test_resume_rearms_a_completed_one_shot(home):
    job = home.add_job("in 5m", "p")
    data = json.loads(jobs_bytes(home))
    data["jobs"][0].update(state="completed", enabled=False, next_run_at=None,
                           repeat={"times": 1, "completed": 1})
    write_jobs(home, json.dumps(data))
    with pytest.raises(hc.InvalidInputError) as ei:
        home.resume_job(job["id"])
    assert str(ei.value).startswith("one-shot job has already run")
    rearmed = home.resume_job(job["id"], at="2026-03-07T08:00:00Z")
    assert (rearmed["state"], rearmed["next_run_at"], rearmed["repeat"],
            rearmed["schedule"]["run_at"]) == (
        "scheduled", "2026-03-07T08:00:00+00:00", {"times": 1, "completed": 0},
        "2026-03-07T08:00:00+00:00")


def test_remove_job_deletes_record_and_output(home):
    job = home.add_job("@daily", "p")
    out = os.path.join(home.path, "output", job["id"])
    os.makedirs(out)
    home.remove_job(job["id"])
    assert home.jobs() == [] and not os.path.exists(out)


def test_next_fires_for_jobs_and_schedules(home):
    job = home.add_job("0 9 * * 1-5", "p", tz="Europe/Berlin")
    assert [hc._iso(t) for t in home.next_fires(job["id"], 3)] == [
        "2026-03-09T09:00:00+01:00", "2026-03-10T09:00:00+01:00", "2026-03-11T09:00:00+01:00"]
    assert [hc._iso(t) for t in home.next_fires("every 2h", 2)] == [
        "2026-03-06T14:00:00+00:00", "2026-03-06T16:00:00+00:00"]
    assert [hc._iso(t) for t in home.next_fires("@daily", 2, tz="Asia/Tokyo",
                                                after=datetime(2026, 1, 1))] == [
        "2026-01-02T00:00:00+09:00", "2026-01-03T00:00:00+09:00"]


def test_commands_inside_a_job_are_refused(home):
    job = home.add_job("@daily", "p")
    home.environ["HERMES_CRON_JOB_ID"] = job["id"]
    with pytest.raises(hc.InvalidInputError) as ei:
        home.add_job("@daily", "q")
    assert str(ei.value) == (f"'add' is refused inside a running job (HERMES_CRON_JOB_ID="
                             f"{job['id']}): set allow_agent_scheduling to true in config.json "
                             f"to let jobs change jobs")
    for call in (lambda: home.pause_job(job["id"]), lambda: home.remove_job(job["id"]),
                 lambda: home.edit_job(job["id"], prompt="x"),
                 lambda: home.resume_job(job["id"])):
        with pytest.raises(hc.InvalidInputError):
            call()
    write_config(home, {"allow_agent_scheduling": True})
    home._settings = None
    assert home.add_job("@daily", "q")


# ---- 11. command line --------------------------------------------------------------


def test_cli_add_list_next_pause_resume_remove(cli, home):
    rc, out, err = cli("add", "weekdays at 9:30", "Summarise alerts", "--name", "digest",
                       "--tz", "Europe/Berlin")
    assert rc == 0 and err == ""
    job_id = home.job("digest")["id"]
    assert out == (f"Created job {job_id} (digest)\n"
                   f"  schedule  weekdays at 9:30  (30 9 * * 1-5, Europe/Berlin)\n"
                   f"  next run  2026-03-09T09:30:00+01:00\n")
    rc, out, _ = cli("list")
    assert out.splitlines() == [
        "ID            NAME    SCHEDULE          STATE      NEXT RUN                   LAST",
        f"{job_id}  digest  weekdays at 9:30  scheduled  2026-03-09T09:30:00+01:00  -"]
    rc, out, _ = cli("next", "digest", "-n", "2")
    assert out == "2026-03-09T09:30:00+01:00\n2026-03-10T09:30:00+01:00\n"
    rc, out, _ = cli("pause", "DIGEST", "--reason", "holiday")
    assert rc == 0 and out.splitlines()[-1] == "  paused    holiday"
    rc, out, _ = cli("resume", job_id)
    assert rc == 0 and out.splitlines()[0] == f"Resumed job {job_id} (digest)"
    rc, out, _ = cli("rm", "digest")
    assert (rc, out) == (0, f"Removed job {job_id} (digest)\n")
    rc, out, _ = cli("list")
    assert out.startswith("No jobs.")


def test_cli_json_before_or_after_the_command(cli, home):
    cli("add", "@daily", "p", "--name", "a")
    for argv in (("--json", "list"), ("list", "--json")):
        rc, out, _ = cli(*argv)
        data = json.loads(out)
        assert rc == 0 and [j["name"] for j in data] == ["a"]
        assert data[0]["schedule"] == {"kind": "cron", "expr": "@daily", "display": "@daily"}
    rc, out, _ = cli("next", "0 0 29 2 *", "-n", "2", "--json")
    assert json.loads(out) == ["2028-02-29T00:00:00+00:00", "2032-02-29T00:00:00+00:00"]
    rc, out, _ = cli("next", "@daily", "--tz", "Asia/Kolkata", "--after",
                     "2026-06-01T00:00:00Z", "-n", "1")
    assert out == "2026-06-02T00:00:00+05:30\n"


def test_cli_list_hides_completed_unless_all(cli, home):
    cli("add", "@daily", "p", "--name", "live")
    cli("add", "in 5m", "p", "--name", "done")
    data = json.loads(jobs_bytes(home))
    data["jobs"][1].update(state="completed", enabled=False)
    write_jobs(home, json.dumps(data))
    assert [j["name"] for j in json.loads(cli("list", "--json")[1])] == ["live"]
    assert [j["name"] for j in json.loads(cli("list", "--all", "--json")[1])] == ["live", "done"]


@pytest.mark.parametrize("argv,rc,message", [
    (("add", "61 * * * *", "p"), 2, "hermes_cron: error: minute field value 61 is out of range "
                                     "0-59: '61 * * * *': the minute field takes 0-59"),
    (("add", "@daily", "p", "--workdir", "nope"), 2,
     "hermes_cron: error: workdir must be an existing absolute directory: 'nope'"),
    (("add", "@daily", "p", "--tz", "Nowhere"), 2, "hermes_cron: error: tz: unknown time zone"),
    (("add",), 2, "hermes_cron: error: the following arguments are required: SCHEDULE"),
    (("list", "--bogus"), 2, "hermes_cron: error: unrecognized arguments: --bogus"),
    (("frobnicate",), 2, "hermes_cron: error: argument COMMAND: invalid choice: 'frobnicate'"),
    (("pause", "ghost"), 3, "hermes_cron: error: no job with that id or name: 'ghost'"),
    (("next", "ghost"), 3, "hermes_cron: error: neither a job id or name nor a schedule: "
                           "'ghost'"),
    (("next", "@daily", "-n", "0"), 2, "hermes_cron: error: count must be between 1 and 1000"),
    (("next", "@daily", "-n", "x"), 2, "hermes_cron: error: argument -n: invalid int value"),
    (("edit", "ghost", "--prompt", "x"), 3, "hermes_cron: error: no job with that id or name"),
])
def test_cli_errors_are_one_line_with_exit_code_and_change_nothing(cli, home, argv, rc, message):
    cli("add", "@daily", "existing")
    before = jobs_bytes(home)
    got_rc, out, err = cli(*argv)
    assert got_rc == rc
    assert err.startswith(message) and err.count("\n") == 1, err
    assert "Traceback" not in err and out == ""
    assert jobs_bytes(home) == before


def test_cli_edit_flags(cli, home, tmp_path):
    (tmp_path / "scripts" / "s.sh").write_text("echo hi\n")
    cli("add", "@daily", "p", "--name", "j", "--skill", "a", "--skill", "b")
    rc, out, err = cli("edit", "j", "--schedule", "every 15m", "--script", "s.sh", "--no-agent",
                       "--clear-skills", "--deliver", "stdout")
    job = home.job("j")
    assert rc == 0, err
    assert (job["schedule"]["minutes"], job["script"], job["no_agent"], job["skills"],
            job["deliver"]) == (15, "s.sh", True, [], "stdout")
    rc, out, err = cli("edit", "j", "--agent", "--script", "", "--prompt", "")
    assert rc == 2 and err.startswith("hermes_cron: error: job has nothing to run")
    rc, out, err = cli("edit", "j", "--agent", "--script", "", "--prompt", "again")
    job = home.job("j")
    assert rc == 0 and (job["script"], job["no_agent"], job["prompt"]) == (None, False, "again")


def test_cli_refuses_mutations_inside_a_job(cli, home, monkeypatch):
    cli("add", "@daily", "p", "--name", "j")
    monkeypatch.setitem(os.environ, "HERMES_CRON_JOB_ID", home.job("j")["id"])
    rc, out, err = cli("add", "@daily", "q")
    assert rc == 2 and "allow_agent_scheduling" in err
    assert cli("list")[0] == 0


def test_cli_help_and_version(cli):
    rc, out, _ = cli("--version")
    assert rc == 0 and out.startswith(f"hermes_cron {hc.__version__} (Python ")
    rc, out, _ = cli("--help")
    assert rc == 0 and "exit codes: 0 ok, 1 failure, 2 invalid input, 3 not found, 4 busy" in out


@pytest.mark.slow
def test_cli_as_a_module_in_a_child_process(tmp_path, env):
    env = dict(env, HERMES_CRON_HOME=str(tmp_path / "cron"),
               HERMES_CRON_NOW="2026-03-06T12:00:00+00:00")
    r = run_cli("list", env=env)
    assert (r.returncode, r.stderr) == (0, "") and r.stdout.startswith("No jobs.")
    assert not (tmp_path / "cron").exists()
    r = run_cli("add", "0 0 30 2 *", "p", env=env)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("hermes_cron: error: cron expression never fires")
    assert not (tmp_path / "cron").exists()
    r = run_cli("add", "@hourly", "p", "--name", "h", "--json", env=env)
    assert r.returncode == 0 and json.loads(r.stdout)["next_run_at"] == \
        "2026-03-06T13:00:00+00:00"
    r = run_cli("--json", "list", env=env)
    assert [j["name"] for j in json.loads(r.stdout)] == ["h"]


@pytest.mark.slow
def test_cli_exit_4_when_the_store_is_locked(tmp_path, env):
    env = dict(env, HERMES_CRON_HOME=str(tmp_path / "cron"))
    assert run_cli("add", "@daily", "p", env=env).returncode == 0
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent("""
            import fcntl, sys, time
            f = open(sys.argv[1], "a")
            fcntl.flock(f, fcntl.LOCK_EX)
            print("locked", flush=True)
            time.sleep(30)
        """), str(tmp_path / "cron" / ".jobs.lock")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        env["HERMES_CRON_LOCK_TIMEOUT"] = "0.3"
        r = run_cli("add", "@daily", "q", env=env)
        assert r.returncode == 4
        assert r.stderr.startswith("hermes_cron: error: the job store is locked by another "
                                   "process (waited 0.3 s)")
        assert run_cli("list", env=env).returncode == 0  # reads take no lock
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.slow
def test_cli_head_closing_the_pipe_prints_no_traceback(tmp_path, env):
    env = dict(env, HERMES_CRON_HOME=str(tmp_path / "cron"))
    r = subprocess.run(f"'{sys.executable}' -m hermes_cron next '* * * * *' -n 1000 | head -1",
                       shell=True, cwd=HERE, env=env, capture_output=True, text=True, timeout=30)
    assert r.stdout.count("\n") == 1 and r.stderr == ""


# ---- crash and concurrency tests (real processes) ---------------------------------

WRITER = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import hermes_cron as hc
    home, worker = sys.argv[2], sys.argv[3]
    for i in range(25):
        rc = hc.main(["--home", home, "add", "@daily", f"job {worker}-{i}",
                      "--name", f"w{worker}-{i}"])
        assert rc == 0, rc
""")


@pytest.mark.slow
def test_concurrent_cli_writers_lose_no_job(tmp_path):
    home = str(tmp_path / "cron")
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, HERE, home, str(w)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for w in range(8)]
    bad, reads = [], 0
    path = os.path.join(home, "jobs.json")
    while any(p.poll() is None for p in procs):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            continue
        try:
            json.loads(data)
            reads += 1
        except ValueError:
            bad.append(data)
    errors = [p.stderr.read() for p in procs if p.wait() != 0]
    assert errors == [] and bad == []
    jobs = json.loads(open(path, "rb").read())["jobs"]
    assert len(jobs) == 200
    assert len({j["id"] for j in jobs}) == 200
    assert {j["name"] for j in jobs} == {f"w{w}-{i}" for w in range(8) for i in range(25)}
    assert reads > 0


CRASHER = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, sys.argv[1])
    import hermes_cron as hc
    where = sys.argv[3]
    real_replace, real_fsync = os.replace, os.fsync
    def die(*a):
        os.kill(os.getpid(), signal.SIGKILL)
    if where == "before-rename":
        os.replace = die
    elif where == "after-rename":
        def replace_then_die(*a):
            real_replace(*a)
            die()
        os.replace = replace_then_die
    elif where == "mid-write":
        os.fsync = die
    hc.main(["--home", sys.argv[2], "add", "@daily", "new job", "--name", "new"])
""")


@pytest.mark.slow
@pytest.mark.parametrize("where,expect_new", [
    ("mid-write", False), ("before-rename", False), ("after-rename", True)])
def test_sigkill_during_save_leaves_old_or_new_file(tmp_path, where, expect_new):
    home = str(tmp_path / "cron")
    assert hc.main(["--home", home, "add", "@daily", "old job", "--name", "old"]) == 0
    old = open(os.path.join(home, "jobs.json"), "rb").read()
    child = subprocess.run([sys.executable, "-c", CRASHER, HERE, home, where], timeout=30)
    assert child.returncode == -signal.SIGKILL
    data = open(os.path.join(home, "jobs.json"), "rb").read()
    names = [j["name"] for j in json.loads(data)["jobs"]]
    if expect_new:
        assert names == ["old", "new"]
    else:
        assert data == old and names == ["old"]
        assert [n for n in os.listdir(home) if n.endswith(".tmp")] != []
    # The next writer sweeps the orphaned temp file and works normally.
    assert hc.main(["--home", home, "add", "@daily", "after", "--name", "after"]) == 0
    assert [n for n in os.listdir(home) if n.endswith(".tmp")] == []
    assert [j["name"] for j in json.loads(open(os.path.join(home, "jobs.json")).read())["jobs"]
            ][-1] == "after"


# ---- meta: the file's shape --------------------------------------------------------

SOURCE = open(MODULE, encoding="utf-8").read()


def test_meta_outline_in_docstring_matches_the_banners():
    import re

    banners = re.findall(r"^# (\d+)\. (.+)$", SOURCE, re.M)
    doc = re.findall(r"(\d+)\. ([A-Z][a-z ,]+?)(?=\s{2,}|\n)", hc.__doc__)
    assert [(int(n), t.strip()) for n, t in banners] == \
        sorted((int(n), t.strip()) for n, t in doc)
    assert [int(n) for n, _ in banners] == list(range(1, len(banners) + 1))


def test_meta_public_api_is_documented_and_private_names_are_underscored():
    for name in hc.__all__:
        assert getattr(hc, name).__doc__, name
    tree = ast.parse(SOURCE)
    public = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
              and not n.name.startswith("_")}
    assert public <= set(hc.__all__)


def test_meta_syntax_stays_within_python_3_9_and_stdlib():
    ast.parse(SOURCE, feature_version=(3, 9))
    if sys.version_info >= (3, 10):
        tree = ast.parse(SOURCE)
        roots = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                 for a in n.names}
        roots |= {n.module.split(".")[0] for n in ast.walk(tree)
                  if isinstance(n, ast.ImportFrom) and n.module}
        assert roots <= set(sys.stdlib_module_names)


@pytest.mark.slow
def test_meta_import_has_no_side_effects(tmp_path, env):
    code = "import sys; before = set(sys.modules); import hermes_cron; " \
           "print(sorted(set(sys.modules) - before - {'hermes_cron'}))"
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                       text=True, env=dict(env, PYTHONPATH=HERE))
    added = set(json.loads(r.stdout.replace("'", '"')))
    assert r.returncode == 0
    assert not added & {"json", "argparse", "sqlite3", "urllib.parse", "zoneinfo", "tempfile",
                        "shutil", "re", "subprocess"}, added
    assert os.listdir(tmp_path) == []
