# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The hermes_cron developers
"""Cron jobs for AI agents and scripts, in one stdlib-only file.

hermes_cron keeps a schedule of jobs in ``jobs.json`` inside a *cron home*
directory, and fires them from ``tick()``: the one code path that cron(8)
calls every minute (``python -m hermes_cron tick``), the ``daemon`` loops
on, and tests call with a fake clock.  Every fire is a durable row in
``executions.db`` (claimed, running, completed, failed, or unknown when its
process died), bound to its scheduled slot so no occurrence fires twice; a
job's result goes through a crash-safe queue (``deliveries.db``) to its
targets (a run's answer first passes the job's ``verify`` checks: its URLs
answer, its files and commits exist); failures become deduplicated
incidents.  It holds at scale: a tick
with nothing due reads a small summary (``.jobs.due``), not the store;
finished runs reach ``jobs.json`` in batches, ledger row first, and the
ledger's own writes share group commits; capacity is
shared oldest-due first; the ledger is bounded and indexed.  Copy this one
file into a project (it imports nothing outside the standard library), or
install it and use the ``hermes-cron`` command.

Quick start::

    import hermes_cron as hc

    home = hc.CronHome("/tmp/cron-demo", runner=lambda prompt, job: "All quiet.")
    job = home.add_job("weekdays at 9:30", "Summarise yesterday's alerts",
                       name="digest", tz="Europe/Berlin")
    print(job["id"], job["next_run_at"])
    print(home.run_job("digest")["status"])          # fire it now: 'completed'
    report = home.tick()                              # fire whatever is due
    print(hc.CronExpr("0 9 * * 1-5").next_after(
        hc.parse_iso("2026-03-06T12:00:00+00:00"), tz="Europe/Berlin"))

Command line: ``python -m hermes_cron --help``.  Exit codes: 0 ok, 1 failure
or corrupt store, 2 invalid input or usage, 3 not found, 4 busy or locked.
Errors are one line on stderr: ``hermes_cron: error: <what>: <value>: <fix>``.
Human output shows every time on one clock, ``--tz ZONE`` or ``--utc``, else
``$TZ``, else the home's zone (``2026-03-06 09:30:00 CET``); JSON keeps the
stored instants.

The home is ``--home DIR``, else ``$HERMES_CRON_HOME``, else
``$HERMES_HOME/cron``, else ``~/.hermes/cron``.  It is created with mode 0700
on the first write, never by a command that only reads; a ``--home`` that
does not exist is refused (exit 3) but by ``add`` and ``apply``.

Layout (``grep -n '^# [0-9]*\\. ' hermes_cron.py`` prints this outline).  The
core comes first (1-19: time, cron, schedules, jobs, stores, running, the
tick), the extras after it (20-28), and no section calls one below it:

     1. Imports                               15. Agents and deliveries
     2. Constants                             16. One run
     3. Exceptions                            17. The plan
     4. Time, zones and files                 18. Claims and runs
     5. Cron expressions                      19. Tick
     6. Schedules                             20. Observability
     7. Configuration                         21. Reports
     8. Jobs                                  22. Export
     9. Job store                             23. Changing jobs
    10. Redaction rules                       24. Status site pages
    11. Redaction                             25. Cron home
    12. The ledger                            26. Command line
    13. Incidents, notepad and deliveries     27. Commands that fire and read
    14. Running a job                         28. Files, serve and main
"""


# =============================================================================
# 1. Imports
#    Standard library only; heavy or rarely used modules are imported lazily.
# =============================================================================

import _thread
import os
import sys
import time
from datetime import date, datetime, timedelta, timezone, tzinfo

# The public API is annotated for type checkers (mypy, CI); at run time the
# annotations are strings and this block is skipped: importing typing would
# cost every tick a few milliseconds.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from typing import Any, Callable, Mapping, Sequence, Union

    _Record = dict[str, Any]  # a job, run, incident, ...: see "Records" in CronHome
    _Zone = Union[str, tzinfo]  # an IANA name, "UTC", "+05:30", or a tzinfo
    _Labels = Union[str, Mapping[str, str]]  # "team=ops,tier!=web" or {key: value}
    _Fields = tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int],
                    frozenset[int], bool]  # CronExpr.fields

__version__ = "0.1.0"

__all__ = [
    "BusyError",
    "CRON_HINT",
    "ClusterError",
    "ClusterUnavailableError",
    "CronExpr",
    "CronHome",
    "CronSyntaxError",
    "HermesCronError",
    "InvalidInputError",
    "JobNotFoundError",
    "StorageError",
    "StoreCorruptError",
    "StoreLockedError",
    "classify_failure",
    "incident_id",
    "is_silent",
    "main",
    "parse_iso",
    "parse_schedule",
    "redact",
]


# =============================================================================
# 2. Constants
#    Every name, limit and default the rest of the file relies on.
# =============================================================================

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_NOT_FOUND, EXIT_BUSY = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C

_PROG = "hermes_cron"
_ENV_PREFIX = "HERMES_CRON_"
_JOBS_FILE = "jobs.json"
_JOBS_LOCK = ".jobs.lock"
_DUE_FILE = ".jobs.due"
_CONFIG_FILE = "config.json"
_CONFIG_SEEN_FILE = ".config.seen"
_TEMP_PREFIX = ".jobs_"
_TEMP_SUFFIX = ".tmp"
_LOCK_TIMEOUT = 30.0
_ONESHOT_GRACE = 120
_UTC = timezone.utc
_DEFAULT_PAUSE_REASON = "paused by operator"

# Keys a job record is written with, in upstream Hermes' order; keys a store
# already has that are not listed here are kept as they are.
_JOB_KEYS = (
    "id", "name", "prompt", "skills", "skill", "model", "provider", "base_url",
    "script", "no_agent", "context_from", "schedule", "schedule_display", "repeat",
    "enabled", "state", "paused_at", "paused_reason", "created_at", "next_run_at",
    "last_run_at", "last_status", "last_error", "last_delivery_error",
    "failure_streak", "deliver", "workdir", "tz",
)
_JOB_STATES = ("scheduled", "paused", "completed", "error")

# OpenAI-compatible endpoints of well-known providers (their keys come from
# <NAME>_API_KEY).  The credential guard sends a provider's key only to its
# own endpoint's origin.
_PROVIDER_URLS = {
    "anthropic": "https://api.anthropic.com/v1",
    "deepseek": "https://api.deepseek.com/v1",
    "fireworks": "https://api.fireworks.ai/inference/v1",
    "gemini": "https://generativelanguage.googleapis.com/v1beta/openai",
    "groq": "https://api.groq.com/openai/v1",
    "mistral": "https://api.mistral.ai/v1",
    "openai": "https://api.openai.com/v1",
    "openrouter": "https://openrouter.ai/api/v1",
    "together": "https://api.together.xyz/v1",
    "xai": "https://api.x.ai/v1",
}

# The variables every script gets from the ticker's environment.
_SCRIPT_ENV = ("PATH", "HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ",
               "TMPDIR", "USER", "LOGNAME", "SHELL", "TERM", "PYTHONPATH", "VIRTUAL_ENV")

_DELIVER_PREFIXES = ("file:", "webhook:", "command:", "email:", "ping:")
_DELIVER_WORDS = ("local", "stdout")

# name: (type, default).  ``None`` as a type means "a JSON object".
_CONFIG_KEYS = {
    "timezone": (str, None),
    "catch_up_missed": (bool, True),
    "max_parallel": (int, 4),
    "failure_repeat_alert_hours": (int, 6),
    "output_retention": (int, 50),
    "script_timeout_seconds": (int, 3600),
    "run_timeout_seconds": (int, 600),
    "scripts_dir": (str, None),
    "skills_dir": (str, None),
    "agent": (dict, None),
    "providers": (dict, None),
    "fallback_providers": (list, None),
    "webhook_secret_env": (str, None),
    "smtp": (dict, None),
    "allow_agent_scheduling": (bool, False),
    "failure_deliver": (str, None),
    "wrap_response": (bool, False),
    "failure_nudge_threshold": (int, 3),
    "script_env_passthrough": (list, None),
    "metrics_textfile": (str, None),
    "verify_allow_networks": (list, None),
    "cluster": (dict, None),
}
# The keys read inside the object-valued settings ("providers" holds one such
# object per provider); any other is reported, as a top-level one is.
_CONFIG_SUBKEYS = {
    "agent": ("command", "provider", "model"),
    "providers": ("base_url", "api_key_env", "api_key_envs", "model"),
    "smtp": ("host", "port", "starttls", "user", "password_env", "from"),
    "cluster": ("etcd", "prefix", "lease_seconds", "node", "ca_file", "cert_file", "key_file",
                "user_env", "password_env"),
}


# =============================================================================
# 3. Exceptions
#    One base class; each subclass also derives from the matching builtin and
#    knows the command-line exit code it maps to.
# =============================================================================

def _error_text(what, value, fix):
    """``<what>: <value>: <how to fix>``, the parts that are set."""
    parts = [what]
    if value is not None:
        parts.append(_show(value))
    if fix:
        parts.append(fix)
    return ": ".join(parts)


class HermesCronError(Exception):
    """Base class of every error hermes_cron raises on purpose.

    The message has the form ``<what>: <value>: <how to fix>``; the parts are
    kept as the attributes ``what``, ``value`` and ``fix``.  ``fix`` speaks
    the API's terms; ``cli``, when set, is the same advice as a command, which
    the command line prints in its place.
    """

    exit_code = EXIT_FAILURE

    def __init__(self, what: str, value: object = None, fix: "str | None" = None, *,
                 cli: "str | None" = None) -> None:
        self.what, self.value, self.fix, self.cli = what, value, fix, cli
        super().__init__(_error_text(what, value, fix))


class InvalidInputError(HermesCronError, ValueError):
    """Invalid input: a bad argument, field, schedule or setting (exit 2)."""

    exit_code = EXIT_USAGE


class CronSyntaxError(InvalidInputError):
    """A cron expression or schedule that cannot be parsed or never fires."""


class JobNotFoundError(HermesCronError, LookupError):
    """No job (or other record) matches the reference given (exit 3)."""

    exit_code = EXIT_NOT_FOUND


class BusyError(HermesCronError, TimeoutError):
    """Something is busy: a lock was not free in time, or the job is running (exit 4)."""

    exit_code = EXIT_BUSY


class StoreLockedError(BusyError):
    """The job store's lock could not be taken in time."""


class StoreCorruptError(HermesCronError):
    """A store file exists but cannot be read; it is left untouched (exit 1)."""


class StorageError(HermesCronError, OSError):
    """A store file cannot be written: disk full, read-only, denied, too large (exit 1).

    Also an ``OSError`` (with the cause's ``errno`` when there is one), so
    code that treats any file-system error as a storage error keeps doing so.
    """


class ClusterError(HermesCronError, ConnectionError):
    """The fleet's etcd refused a request: a bad key, a lost lease, denied (exit 1)."""


class ClusterUnavailableError(ClusterError):
    """No etcd member answered in time; a ticker fires nothing it cannot claim."""


def _one_line(text, width=200):
    """*text* with whitespace folded, cut to *width* characters with "..."."""
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 3] + "..."


# The "script exited with code N:" style head a runner puts before a child's
# stderr: kept in a summary, which then shows the stderr's last lines.
_EXIT_PREFIX = r"([^\n:]{0,60}\bexited with code -?\d+)(?::[ \t]*(?=\S)|\n)"
# A line that reads as the failure itself, not as the noise printed after it.
_ERROR_WORDS = r"(?i)error|exception|fatal|fail|panic|critical|denied|refused|abort"


def _error_summary(text, width=200):
    """One line for an error text: its last meaningful line(s), cut to *width*.

    A child's stderr puts the cause last (a traceback's ``ValueError: ...``,
    a script's ``FATAL ...``), so a multi-line error is summed up by its last
    line with letters or digits in it, starting earlier when one of the last
    few lines reads as an error and the lines after it do not.  A leading
    ``script exited with code N:`` is kept.  A one-line error reads as
    :func:`_one_line` gives it.
    """
    import re  # re caches the compiled patterns

    text = str(text)
    match = re.match(_EXIT_PREFIX, text)
    head, body = (match.group(1) + ": ", text[match.end():]) if match else ("", text)
    if match and body.startswith(("stderr:\n", "stdout:\n")):
        # Upstream's "stderr:\n...\nstdout:\n...": the cause is in stderr.
        body = body[8:].partition("\nstdout:\n")[0]
    lines = [line.rstrip() for line in body.splitlines() if any(c.isalnum() for c in line)]
    if len(lines) > 1:
        start = len(lines) - 1
        if not re.search(_ERROR_WORDS, lines[start]):
            # Indented lines are a traceback's frames: where it failed, not why.
            start = next((i for i in range(start - 1, max(start - 5, -1), -1)
                          if not lines[i][:1].isspace() and re.search(_ERROR_WORDS, lines[i])),
                         start)
        text = head + " | ".join(line.strip() for line in lines[start:])
    elif match:
        text = head + (lines[0] if lines else "")
    return _one_line(text, width)


def _keep_tail(text, cap):
    """*text* cut to *cap* characters keeping its head and its tail.

    Where an error ends in what caused it, a plain ``[:cap]`` would keep the
    noise and drop the cause; the head still says what failed.
    """
    if len(text) <= cap:
        return text
    head = min(150, cap // 3)
    return text[:head] + " ... " + text[len(text) - (cap - head - 5):]


def _show(value):
    """Render an offending value for an error message."""
    if isinstance(value, str):
        text = value if len(value) <= 120 else value[:117] + "..."
        return repr(text)
    return str(value)


# Characters that can drive a terminal (C0 and C1 controls, DEL) or reorder
# what it shows (bidi embeddings, overrides and isolates), mapped to the escape
# repr() spells them with, so they read like the values _show quotes.  Tab is
# harmless and kept.  Lone surrogates need no entry: main() prints with
# errors="backslashreplace", which spells them as repr() does.
_TERMINAL_ESCAPES = {c: repr(chr(c))[1:-1] for c in (
    *range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A))
    if c != 0x09}


def _printable(text, newlines=False):
    """*text* safe to print to a terminal: control characters become escapes.

    A newline is escaped too unless *newlines* is true (a multi-line document),
    so a value cannot forge a line of a one-line record either.  Only human
    output needs this; JSON output escapes by itself and stays exact.
    """
    text = str(text)
    if text.isprintable():  # the common case, tested in C: nothing to escape
        return text
    if newlines:
        return "\n".join(line.translate(_TERMINAL_ESCAPES) for line in text.split("\n"))
    return text.translate(_TERMINAL_ESCAPES)


# =============================================================================
# 4. Time, zones and files
#    The only places that read the clock, resolve zones or write files.
# =============================================================================

def _system_clock():
    """Return the current instant as an aware UTC datetime."""
    return datetime.fromtimestamp(time.time(), _UTC)


def _env_clock(environ):
    """Return a clock honouring ``HERMES_CRON_NOW`` in *environ*, if set."""
    pinned = environ.get(_ENV_PREFIX + "NOW")
    if not pinned:
        return _system_clock
    try:
        now = parse_iso(pinned)
    except InvalidInputError:
        now = None
    if now is None or now.tzinfo is None:
        raise InvalidInputError(
            "HERMES_CRON_NOW must be an ISO 8601 time with an offset", pinned,
            "use a value like 2026-03-08T06:59:00+00:00")
    now = now.astimezone(_UTC)
    return lambda: now


def _iso_match(text):
    import re  # only the slow paths that parse text need re

    global _ISO_RE
    if _ISO_RE is None:
        _ISO_RE = re.compile(
            r"(\d{4})-(\d{2})-(\d{2})"
            r"(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?"
            r"\s*([Zz]|[+-]\d{2}:?\d{2})?")
    return _ISO_RE.fullmatch(text.strip())


_ISO_RE = None


def parse_iso(text: str) -> datetime:
    """Parse an ISO 8601 date or time the same way on every Python version.

    Accepts ``YYYY-MM-DD``, optionally followed by ``T`` (or a space),
    ``HH:MM[:SS[.ffffff]]`` and an offset ``Z``, ``+HH:MM`` or ``+HHMM``.
    Returns a naive datetime when no offset is given.  Raises
    ``InvalidInputError`` for anything else.
    """
    if type(text) is str and len(text) in (20, 25):
        fast = _iso_canonical(text)
        if fast is not None:
            return fast
    m = _iso_match(text) if isinstance(text, str) else None
    if m is None:
        raise InvalidInputError(
            "not an ISO 8601 time", text,
            "use YYYY-MM-DDTHH:MM[:SS] with an optional offset like +02:00 or Z")
    y, mo, d, h, mi, s, frac, off = m.groups()
    tzinfo = None
    if off:
        if off in "Zz":
            tzinfo = _UTC
        else:
            sign = -1 if off[0] == "-" else 1
            digits = off[1:].replace(":", "")
            oh, om = int(digits[:2]), int(digits[2:])
            if oh > 23 or om > 59:
                raise InvalidInputError(
                    "ISO 8601 offset out of range", text, "offsets run from -23:59 to +23:59")
            tzinfo = timezone(sign * timedelta(hours=oh, minutes=om))
    try:
        return datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0),
                        int((frac or "0").ljust(6, "0")), tzinfo)
    except ValueError as exc:
        raise InvalidInputError(
            f"not a real date or time ({exc})", text, "check the day, month and hour") from None


def _iso_canonical(text):
    """Parse ``YYYY-MM-DDTHH:MM:SS`` plus ``Z`` or ``+HH:MM`` without ``re``, or return None.

    The shape this module stores and ``HERMES_CRON_NOW`` usually holds: a
    tick with nothing due then never imports ``re``, and stored times that
    reach ``parse_iso`` parse at string-slicing speed.  Anything else (and
    every error) is left to the regular expression, so the answers are the same.
    """
    if text[4] != "-" or text[7] != "-" or text[10] not in "Tt " or text[13] != ":" \
            or text[16] != ":":
        return None
    fields = (text[:4], text[5:7], text[8:10], text[11:13], text[14:16], text[17:19])
    if not "".join(fields).isdecimal():
        return None
    if len(text) == 20:
        if text[19] not in "Zz":
            return None
        zone = _UTC
    else:
        hours, minutes = text[20:22], text[23:25]
        if text[19] not in "+-" or text[22] != ":" or not (hours + minutes).isdecimal() \
                or int(hours) > 23 or int(minutes) > 59:
            return None
        sign = -1 if text[19] == "-" else 1
        zone = timezone(sign * timedelta(hours=int(hours), minutes=int(minutes)))
    try:
        return datetime(*map(int, fields), 0, zone)
    except ValueError:
        return None


def _iso(dt):
    """Format an aware datetime as ISO 8601 with its offset and no fraction."""
    return dt.replace(microsecond=0).isoformat()


def _iso_exact(dt):
    """Format a slot as ISO 8601 with its offset, at the precision it has.

    A slot keeps its microseconds (upstream stores them): cut on one side
    and not on the other, one slot would read as two.
    """
    return dt.isoformat()


def _parse_stored(value):
    """Parse a stored ISO time quickly; None if it is not an aware ISO time."""
    if not isinstance(value, str):
        return None
    try:
        dt = datetime.fromisoformat(value)
    except ValueError:
        try:
            dt = parse_iso(value)
        except InvalidInputError:
            return None
    return dt if dt.tzinfo is not None else None


def _parse_offset_zone(name):
    """Return a fixed-offset zone for ``+HH:MM``, ``UTC+H`` style names, else None."""
    text = name.strip()
    upper = text.upper()
    if upper in ("UTC", "Z", "GMT", "ETC/UTC", "ETC/GMT"):
        return _UTC
    if upper.startswith(("UTC", "GMT")):
        text = text[3:]
    if text[:1] not in ("+", "-") or len(text) < 2:
        return None
    body = text[1:]
    hours, _, minutes = body.partition(":")
    if not hours.isdigit() or (minutes and not minutes.isdigit()) or len(hours) > 2:
        return None
    oh, om = int(hours), int(minutes or 0)
    if oh > 23 or om > 59:
        return None
    sign = -1 if text[0] == "-" else 1
    return timezone(sign * timedelta(hours=oh, minutes=om))


_ZONES: "dict[str, tzinfo]" = {}


def _zone(name, field="tz"):
    """Return the tzinfo for a zone *name* (IANA, ``UTC`` or a fixed offset).

    Raises ``InvalidInputError`` naming *field* when the zone is unknown.
    """
    if not isinstance(name, str):
        if isinstance(name, tzinfo):
            return name if type(name) in _PLAIN_TZ_TYPES else _tzinfo_zone(name, field)
        raise InvalidInputError(f"{field}: a time zone must be a name", name,
                                "use an IANA name such as Europe/Berlin, UTC or +HH:MM")
    zone = _ZONES.get(name)
    if zone is not None:
        return zone
    zone = _parse_offset_zone(name) if name else None
    if zone is None:
        zone = _load_zoneinfo(name, field)
    if len(_ZONES) > 256:
        _ZONES.clear()
    _ZONES[name] = zone
    return zone


# tzinfo classes used as they are: their utcoffset() honours fold and their
# astimezone() is exact (a ZoneInfo class is added when one is first seen).
_PLAIN_TZ_TYPES: "set[type]" = {timezone}


def _tzinfo_zone(tz, field="tz"):
    """The tzinfo to compute with for a caller's *tz*: its zoneinfo twin.

    A tzinfo with one offset for every date (``utcoffset(None)`` answers:
    ``timezone``, pytz's and dateutil's UTC and fixed offsets) is used as
    it is.  A pytz zone (its ``.zone`` names it) and a dateutil file zone
    (its file name) become the ``ZoneInfo`` of that name: pytz's offsets
    are right only after ``localize()``, which datetime arithmetic never
    calls.  Any other tzinfo (dateutil's ``tzstr``, a zone of one's own) is
    read through its ``fromutc`` by a ``_FoldZone``.
    """
    zoneinfo = sys.modules.get("zoneinfo")
    if zoneinfo is not None and isinstance(tz, zoneinfo.ZoneInfo):
        _PLAIN_TZ_TYPES.add(type(tz))
        return tz
    try:
        if tz.utcoffset(None) is not None:
            return tz
    except Exception:  # a tzinfo that needs a datetime has offsets that vary
        pass
    name = getattr(tz, "zone", None)  # pytz
    if not (isinstance(name, str) and callable(getattr(tz, "localize", None))):
        name = getattr(tz, "_filename", None)  # dateutil's tz.gettz() and tzfile
        if isinstance(name, str) and name.startswith("/"):
            name = name.split("/zoneinfo/", 1)[1] if "/zoneinfo/" in name else None
    if isinstance(name, str) and name:
        return _zone(name, field)
    known = _FOLD_ZONES.get(id(tz))  # by identity: dateutil's zones are unhashable
    if known is None or known[0] is not tz:
        if len(_FOLD_ZONES) > 64:
            _FOLD_ZONES.clear()
        known = _FOLD_ZONES[id(tz)] = (tz, _FoldZone(tz))
    return known[1]


class _FoldZone(tzinfo):
    """Another tzinfo read as a ``ZoneInfo`` reads wall times (PEP 495).

    Only the inner zone's ``fromutc`` (an instant to its wall time) is
    trusted.  A wall time reached from two instants (a repeated hour) has
    the earlier one's offset at ``fold=0`` and the later one's at ``fold=1``;
    a wall time no instant reaches (a spring gap) has the offset before the
    change at ``fold=0`` and the one after it at ``fold=1``.  (dateutil's
    rule zones give a gap time the summer offset at both folds.)
    """

    def __init__(self, inner):
        self.inner = inner

    def __repr__(self):
        return f"_FoldZone({self.inner!r})"

    def __str__(self):
        return str(self.inner)

    def _local(self, instant):
        """(wall, offset) of the naive-UTC *instant* in the inner zone."""
        local = self.inner.fromutc(instant.replace(tzinfo=self.inner))
        return local.replace(tzinfo=None, fold=0), local.utcoffset()

    def _offset(self, dt):
        wall = dt.replace(tzinfo=None, fold=0)
        before = self._local(wall - _DST_REACH)[1]
        after = self._local(wall + _DST_REACH)[1]
        hits = sorted({wall - o for o in (before, after) if self._local(wall - o)[0] == wall})
        if not hits:  # in a gap
            return after if dt.fold else before
        return wall - hits[-1 if dt.fold else 0]

    def utcoffset(self, dt):
        return self.inner.utcoffset(None) if dt is None else self._offset(dt)

    def dst(self, dt):
        if dt is None:
            return self.inner.dst(None)
        instant = dt.replace(tzinfo=None) - self._offset(dt)
        return self.inner.fromutc(instant.replace(tzinfo=self.inner)).dst()

    def tzname(self, dt):
        if dt is None:
            return self.inner.tzname(None)
        instant = dt.replace(tzinfo=None) - self._offset(dt)
        return self.inner.fromutc(instant.replace(tzinfo=self.inner)).tzname()

    def fromutc(self, dt):
        wall, offset = self._local(dt.replace(tzinfo=None))
        local = wall.replace(tzinfo=self)
        if local.utcoffset() != offset:  # the second pass of a repeated hour
            local = local.replace(fold=1)
        return local


_FOLD_ZONES: "dict[int, Any]" = {}  # id(tzinfo) -> (that tzinfo, its _FoldZone)
_DST_REACH = timedelta(hours=26)  # an offset change is never this close to another
_PLAIN_TZ_TYPES.add(_FoldZone)


def _in_twin(dt):
    """*dt* with its tzinfo replaced by that tzinfo's zoneinfo twin (see ``_tzinfo_zone``).

    The wall clock stays; the fold is the one that keeps *dt*'s own offset,
    so a ``localize()``-d pytz time is the same instant.  An offset the twin
    never has at that wall time (a pytz zone attached without ``localize()``
    reads as local mean time) yields the wall time as the twin reads it.
    """
    own = dt.tzinfo
    if own is None or type(own) in _PLAIN_TZ_TYPES:
        return dt
    zone = _zone(own)
    if zone is own:
        return dt
    offset = dt.utcoffset()
    wall = dt.replace(tzinfo=zone, fold=0)
    if wall.utcoffset() != offset:
        other = wall.replace(fold=1)
        if other.utcoffset() == offset:
            return other
    return wall


def _load_zoneinfo(name, field):
    try:
        import zoneinfo

        zone = zoneinfo.ZoneInfo(name)
        _PLAIN_TZ_TYPES.add(type(zone))
        return zone
    except ImportError:  # pragma: no cover - zoneinfo is in every supported Python
        fix = "named zones need Python 3.9+ with zoneinfo; use UTC or +HH:MM"
    except Exception:
        fix = ("use an IANA name such as Europe/Berlin, UTC or +HH:MM "
               "(named zones need the tz database: install tzdata if it is missing)")
    raise InvalidInputError(f"{field}: unknown time zone", name, fix)


def _system_zone(environ):
    """Return the machine's zone: ``$TZ``, else ``/etc/localtime``, else UTC."""
    tz = environ.get("TZ", "").lstrip(":")
    if tz:
        if tz.startswith("/"):
            return _zone_from_file(tz)
        return _zone(tz, "TZ")
    return _zone_from_file("/etc/localtime")


def _zone_from_file(path):
    try:
        target = os.path.realpath(path)
    except OSError:
        return _UTC
    marker = "/zoneinfo/"
    if marker in target:
        try:
            return _zone(target.split(marker, 1)[1])
        except InvalidInputError:
            pass
    try:
        import zoneinfo

        with open(path, "rb") as f:
            return zoneinfo.ZoneInfo.from_file(f, key=path)
    except Exception:
        return _UTC


def _zone_name(zone):
    """Return a short, stable name for a tzinfo, for display."""
    key = getattr(zone, "key", None)
    return key if key else str(zone)


# SQLite's messages for a write its file system refused, and how to fix each.
_SQLITE_STORAGE_FIXES = {
    "database or disk is full": "free space on its file system",
    "disk I/O error": "check its file system: free space, the file-size limit (ulimit -f), "
                      "a read-only mount",
    "attempt to write a readonly database": "make it and its directory writable",
    "unable to open database file": "make its directory writable and check its file system",
}


def _open_own(path, flags, mode=0o600):
    """``os.open`` a file of the home, never through a final symlink.

    A link in the home could make a lock or a store of this home a file
    anywhere else (created, locked, written there): it is refused, naming it.
    """
    try:
        return os.open(path, flags | os.O_NOFOLLOW, mode)
    except OSError as exc:
        import errno

        if exc.errno == errno.ELOOP:
            _refuse_link(path)
        raise


def _refuse_link(path):
    raise StorageError(f"{os.path.basename(path)} is a symbolic link; the files of a home "
                       f"are opened only as themselves", path,
                       "remove the link (move the real file into the home if it is one)")


def _as_storage_error(exc, path):
    """*exc* (an ``OSError`` or SQLite error) as a ``StorageError`` naming *path*.

    Returns None for an SQLite error that is not the storage's fault (a busy
    lock, a damaged file): those keep their own type and handling.
    """
    import errno

    if isinstance(exc, OSError):
        cause = exc.strerror or str(exc)
        fix = {errno.ENOSPC: "free space on its file system",
               errno.EDQUOT: "free space or raise the disk quota",
               errno.EFBIG: "raise the file-size limit (ulimit -f)",
               errno.EROFS: "remount its file system read-write"}.get(
                   exc.errno, "make it and its directory writable")
    elif str(exc) in _SQLITE_STORAGE_FIXES:
        cause, fix = str(exc), _SQLITE_STORAGE_FIXES[str(exc)]
    else:
        return None
    error = StorageError(f"cannot write {os.path.basename(path) or path} ({cause})", path, fix)
    error.errno = getattr(exc, "errno", None)
    return error


def _synced_temp(directory, prefix, suffix, data, name=None):
    """Return a new temp file in *directory* holding *data* (bytes, or a list of
    bytes): mode 0600, written, fsynced.

    Named at random, or *name* (``FileExistsError`` if it is taken).  If the
    write fails the file is removed and the error raised: nothing is left behind.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    if name is not None:
        tmp = os.path.join(directory, name)
        fd = os.open(tmp, flags, 0o600)
    else:
        # What tempfile.mkstemp does, without importing tempfile (and shutil,
        # random, weakref: 5 ms of every write command).
        for attempt in range(100):
            tmp = os.path.join(directory, f"{prefix}{os.urandom(6).hex()}{suffix}")
            try:
                fd = os.open(tmp, flags, 0o600)
                break
            except FileExistsError:
                if attempt == 99:
                    raise
    try:
        try:
            os.fchmod(fd, 0o600)
            for part in [data] if isinstance(data, bytes) else data:
                view = memoryview(part)
                while view:
                    view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return tmp


def _atomic_write(path, data):
    """Write *data* (bytes, or a list of bytes) to *path* atomically with mode 0600.

    The bytes go to a temp file in the same directory, which is flushed,
    fsynced and renamed over *path*; then the directory is fsynced, so a crash
    at any point leaves either the old or the new file.  A write the file
    system refuses removes the temp file and raises ``StorageError``.
    """
    directory = os.path.dirname(path)
    try:
        tmp = _synced_temp(directory, _TEMP_PREFIX, _TEMP_SUFFIX, data)
    except OSError as exc:
        raise _as_storage_error(exc, path) from None
    try:
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _as_storage_error(exc, path) from None
        raise
    _fsync_dir(directory)


def _replace_small(path, text, mode=0o600):
    """Replace a small advisory file by rename, without fsyncs (mode 0600).

    The temp file names this process (``<path>.<pid>.tmp``), so a sweep can
    tell a dead writer's leftover; on failure it is removed (a full disk
    must not collect one temp file per tick) and the error raised.
    """
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _fsync_dir(directory):
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class _FileLock:
    """An exclusive ``flock`` on a sidecar file, waited for until a deadline.

    A waiter blocks in the kernel (in a helper thread, so the wait can time
    out) instead of polling: it gets the lock the moment it is released,
    not up to a poll interval later, and loses no race to a faster poller.
    """

    def __init__(self, path, timeout):
        self.path, self.timeout, self._fd = path, timeout, None

    def __enter__(self):
        import fcntl

        fd = _open_own(self.path, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not _wait_for_flock(fd, self.timeout):  # the descriptor is not ours now
                raise StoreLockedError(
                    f"the job store is locked by another process "
                    f"(waited {self.timeout:g} s)", self.path,
                    "retry later; if no hermes_cron process is running, "
                    "check what holds the lock with 'fuser'") from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def __exit__(self, *exc):
        os.close(self._fd)  # closing the descriptor releases the flock
        self._fd = None


def _wait_for_flock(fd, timeout):
    """Block for an exclusive flock on *fd* up to *timeout* s; True once it is held.

    Unless it returns True, *fd* is no longer the caller's: it is closed, or
    (after a time-out, or an exception such as Ctrl-C in the caller) it
    belongs to the waiting thread, which closes it (releasing the lock at
    once) if the lock ever comes.  A few such waiters at most wait on one
    file: past that a caller polls instead, so a holder that never lets go
    (a stopped process) cannot pile up threads and descriptors.
    """
    import fcntl
    import threading

    key = os.fstat(fd).st_ino
    with _WAITERS_LOCK:
        crowded = _ABANDONED.get(key, 0) >= _MAX_ABANDONED
    if crowded:
        return _poll_flock(fd, timeout)
    got, guard, state = threading.Event(), threading.Lock(), {"abandoned": False}

    def wait():
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            state["error"] = exc
        with guard:
            if state["abandoned"]:
                os.close(fd)
                with _WAITERS_LOCK:
                    _ABANDONED[key] -= 1
            else:
                got.set()

    started = False
    try:
        try:
            threading.Thread(target=wait, daemon=True, name="hermes-cron-lock").start()
            started = True  # (a Ctrl-C inside start() leaves a thread that runs anyway)
        except RuntimeError:  # no thread to be had
            pass
        if started:
            got.wait(max(timeout, 0))
    finally:
        with guard:
            if not got.is_set() and (started or sys.exc_info()[0] is not None):
                state["abandoned"] = True
                with _WAITERS_LOCK:
                    _ABANDONED[key] = _ABANDONED.get(key, 0) + 1
    if not started:
        return _poll_flock(fd, timeout)  # wait by polling instead
    if state["abandoned"]:
        return False
    if "error" in state:
        os.close(fd)
        raise state["error"]
    return True


def _poll_flock(fd, timeout):
    """Poll for the lock with backoff; on a time-out close *fd* and return False."""
    import fcntl

    deadline, pause = time.monotonic() + timeout, 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)  # as a timed-out waiter would: the caller's fd is gone
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


_WAITERS_LOCK = _thread.allocate_lock()
# inode of a lock file -> waiters that timed out and still wait on it
_ABANDONED: "dict[int, Any]" = {}
_MAX_ABANDONED = 4


# =============================================================================
# 5. Cron expressions
#    Pure functions of (expression, instant, zone): no I/O and no clock reads.
# =============================================================================

_FIELDS = (  # name, low, high
    ("minute", 0, 59),
    ("hour", 0, 23),
    ("day-of-month", 1, 31),
    ("month", 1, 12),
    ("day-of-week", 0, 7),
)
_MONTH_NAMES = {m: i for i, m in enumerate(
    "jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_DOW_NAMES = {d: i for i, d in enumerate("sun mon tue wed thu fri sat".split())}
_MACROS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}
_MONTH_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
# Every calendar pattern repeats after 400 Gregorian years, so a search that
# finds nothing in that span never will.
_CALENDAR_CYCLE = 400
_DAY = timedelta(days=1)
_ZERO = timedelta(0)


class CronExpr:
    """A parsed five-field cron expression.

    ``CronExpr(expr)`` validates on construction and raises
    ``CronSyntaxError`` for bad syntax, out-of-range values and expressions
    that can never fire.  The grammar is cronie's plus ``L``, ``W`` and
    ``#``; an optional ``CRON_TZ=Zone`` prefix fixes the zone.

    Attributes: ``expr`` (the text given), ``tz`` (the ``CRON_TZ`` zone name
    or None) and ``wildcard`` (True when the minute or hour field starts with
    ``*``; such jobs fire on both passes of a repeated DST hour); ``fields``
    (the values each field allows).
    """

    __slots__ = ("expr", "tz", "wildcard", "_minutes", "_hours", "_months",
                 "_dom", "_dow", "_day_and", "_all_days", "_min_next", "_hour_next",
                 "_month_next", "_days_cache", "_month_days", "_zone")

    @property
    def fields(self) -> "_Fields":
        """``(minutes, hours, days, months, weekdays, both_days)``: the allowed values.

        Days and weekdays (0 = Sunday) leave out their ``L``, ``W`` and ``#``
        terms; *both_days* is True when a day must match both day fields
        (one of them starts with ``*``), False when either one is enough.
        """
        return (frozenset(self._minutes), frozenset(self._hours), frozenset(self._dom[0]),
                frozenset(self._months), frozenset(self._dow[0]), self._day_and)

    def __init__(self, expr: str) -> None:
        if not isinstance(expr, str):
            raise CronSyntaxError("cron expression must be text", expr,
                                  "pass a string such as '0 9 * * 1-5'")
        self.expr = expr
        text = expr.strip(" \t\r\n")
        odd = next((c for c in text if c.isspace() and c not in " \t"), None)
        if odd is not None:  # a no-break space pasted from a web page, say
            raise CronSyntaxError(
                f"cron fields are separated by ASCII spaces and tabs only, not U+{ord(odd):04X}",
                expr, "retype the spaces between the fields")
        self.tz = None
        self._zone = None
        if text[:8].upper() == "CRON_TZ=":
            name, _, text = text[8:].partition(" ")
            self._zone = _zone(name, "CRON_TZ")
            self.tz = name
            text = text.strip()
        fields = _MACROS.get(text.lower(), text).split()
        if text.startswith("@") and text.lower() not in _MACROS:
            raise CronSyntaxError(
                "unknown cron macro", expr,
                "use @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly")
        if len(fields) != 5:
            raise CronSyntaxError(
                f"cron expression needs 5 fields (minute hour day-of-month month "
                f"day-of-week), got {len(fields)}", expr,
                "write five space-separated fields, e.g. '30 9 * * 1-5'")
        minute, hour, dom, month, dow = fields
        self.wildcard = minute[0] == "*" or hour[0] == "*"
        self._minutes = _cron_field(minute, 0, expr)
        self._hours = _cron_field(hour, 1, expr)
        self._months = _cron_field(month, 3, expr)
        dom_star, dow_star = dom[0] in "*?", dow[0] in "*?"
        self._dom = _cron_day_items(dom, 2, expr)
        self._dow = _cron_day_items(dow, 4, expr)
        # cronie: a day field that starts with '*' ANDs with the other one;
        # two restricted day fields match a day if EITHER matches.
        self._day_and = dom_star or dow_star
        self._all_days = dom in ("*", "?") and dow in ("*", "?")
        self._min_next = _next_table(self._minutes, 59)
        self._hour_next = _next_table(self._hours, 23)
        self._month_next = _next_table(self._months, 12)
        self._days_cache: "dict[Any, Any]" = {}
        self._month_days: "dict[Any, Any]" = {}
        if not dom_star and dow_star and not self._dom[1] and not any(
                d <= (29 if m == 2 else _MONTH_DAYS[m]) for m in self._months for d in self._dom[0]):
            raise CronSyntaxError(
                "cron expression never fires: no listed day-of-month exists in the "
                "listed months", expr,
                "check the day-of-month against the month lengths (February has at most 29 days)")
        # Plain day fields need no search: every date falls on every weekday
        # somewhere in the calendar cycle, so a day that exists in a listed
        # month (checked above; a '*' day field always lists the 1st) meets
        # any weekday list.  L, W and # can fail in combination (31W in
        # April, the 1st AND the second Monday): one search over the 400-year
        # calendar cycle settles those.
        if (self._dom[1] or self._dow[1]) and self._next_wall(2000, 1, 1, 0, 0) is None:
            raise CronSyntaxError(
                "cron expression never fires: no date matches its day-of-month, month "
                "and day-of-week fields together", expr,
                "check the W, L and # rules against the months and the other day field")

    def __repr__(self):
        return f"CronExpr({self.expr!r})"

    def __eq__(self, other):
        return isinstance(other, CronExpr) and other.expr == self.expr

    def __hash__(self):
        return hash(self.expr)

    def matches(self, dt: datetime, tz: "_Zone | None" = None) -> bool:
        """Return True if the wall-clock minute of *dt* matches every field.

        *dt* and *tz* are read as in ``next_after``; seconds are ignored.
        """
        try:
            wall = self._wall(dt, tz)
        except (OverflowError, AttributeError, TypeError):
            raise InvalidInputError("matches needs a datetime inside the calendar", dt,
                                    "pass a datetime between the years 2 and 9998") from None
        return (wall.month in self._months and wall.hour in self._hours
                and wall.minute in self._minutes
                and self._days(wall.year, wall.month)[wall.day] == wall.day)

    def next_after(self, dt: datetime, tz: "_Zone | None" = None) -> datetime:
        """Return the first fire strictly after *dt*, as an aware datetime.

        *tz* is a zone name, a tzinfo or None; a ``CRON_TZ`` prefix wins over
        it.  An aware *dt* is an instant, evaluated on the wall clock of *tz*
        (of its own zone when *tz* is None); a naive *dt* is a wall time in
        *tz* (UTC when *tz* is None).  The result is in that zone, seconds 0.
        Any tzinfo gives the instants of its zoneinfo twin (pytz and dateutil
        zones included: see ``_tzinfo_zone``); the result keeps the tzinfo given.
        Daylight saving follows cronie: fixed-time slots skipped by a spring
        gap fire once at the end of the gap, fixed-time slots in a repeated
        hour fire once, wildcard jobs fire on both passes.
        """
        try:
            return self._next(dt, tz)
        except (OverflowError, AttributeError, TypeError):
            if not isinstance(dt, datetime):
                raise InvalidInputError("next_after needs a datetime", dt,
                                        "pass a datetime.datetime") from None
            raise InvalidInputError("time is too close to the end of the calendar", dt,
                                    "use a time between the years 2 and 9998") from None

    def _next(self, dt, tz):
        given = tz if tz is not None else dt.tzinfo
        dt = _in_twin(dt)
        zone = self._zone or (_zone(tz) if tz is not None else (dt.tzinfo or _UTC))
        found = self._next_in(dt, zone)
        if self._zone is None and isinstance(given, tzinfo) and given is not zone:
            return found.astimezone(given)  # the caller's own tzinfo, as the instant it gives
        return found

    def _next_in(self, dt, zone):
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=zone)
        local = dt if dt.tzinfo is zone else dt.astimezone(zone)
        found = self._next_wall(local.year, local.month, local.day,
                                local.hour, local.minute + 1)
        if zone is _UTC or type(zone) is timezone or _fixed_offset(zone):
            # Fixed offsets have no DST: the wall-clock search is the answer.
            if found is None:
                raise self._exhausted(dt)
            return datetime(*found, 0, 0, zone)
        if found is not None:
            # The wall-clock answer stands when dt, and both readings of the
            # candidate's wall time, share one offset.  The offsets come from
            # the zone directly: a datetime.replace(fold=1) copy per call
            # would cost more than the search itself.
            y, mo, d, h, mi = found
            cand = datetime(y, mo, d, h, mi, 0, 0, zone)
            offset = zone.utcoffset(cand)
            if offset == zone.utcoffset(datetime(y, mo, d, h, mi, 0, 0, zone, fold=1)):
                if offset == zone.utcoffset(local):
                    return cand
                # An offset change lies between them (a monthly job across
                # March, say).  When neither wall time is in a gap or a
                # repeated hour, every such change lies wholly between the
                # two, where no wall time matches, so wall order is time
                # order and the wall-clock answer still stands.
                if zone.utcoffset(local.replace(fold=1 - local.fold)) == \
                        zone.utcoffset(local):
                    return cand
        return self._next_across_dst(dt, local, zone)

    # -- helpers --------------------------------------------------------------

    def _wall(self, dt, tz):
        dt = _in_twin(dt)
        zone = self._zone or (_zone(tz) if tz is not None else None)
        if dt.tzinfo is not None and zone is not None:
            return dt.astimezone(zone)
        return dt

    def _exhausted(self, dt):
        return CronSyntaxError(
            f"cron expression has no fire after {dt.isoformat()} before the year 9999",
            self.expr, "choose a schedule that fires within the calendar")

    def _days(self, year, month):
        """Return the next-matching-day table of *year*-*month* (see _compute_days)."""
        key = year * 16 + month
        days = self._month_days.get(key)
        if days is not None:
            return days
        if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
            ndays = 29
        else:
            ndays = _MONTH_DAYS[month]
        first = (date(year, month, 1).weekday() + 1) % 7  # cron numbering: Sunday = 0
        # A month's matching days depend only on its length and first weekday.
        shape = ndays * 7 + first
        days = self._days_cache.get(shape)
        if days is None:
            days = self._days_cache[shape] = self._compute_days(ndays, first)
        if len(self._month_days) >= 4096:
            self._month_days.clear()
        self._month_days[key] = days
        return days

    def _compute_days(self, ndays, first):
        """Map day 0..32 of a month (*ndays* long, 1st on weekday *first*) to the
        first matching day at or after it, or -1."""
        if self._all_days:
            return _MONTH_TABLES[ndays]
        # A plain '*' day field (parsed to the shared full set) matches every
        # day, so when the fields AND only the other one needs computing.
        if self._day_and and self._dow[0] is _ALL_WEEKDAYS:
            days = _cron_dom_days(self._dom, ndays, first)
        elif self._day_and and self._dom[0] is _FULL_SETS[2]:
            days = _cron_dow_days(self._dow, ndays, first)
        else:
            dom = _cron_dom_days(self._dom, ndays, first)
            dow = _cron_dow_days(self._dow, ndays, first)
            days = dom & dow if self._day_and else dom | dow
        return _next_table(days, 31)

    def _next_wall(self, y, mo, d, h, mi):
        """Return the first matching wall time at or after the given fields.

        Fields may overflow by one (minute 60, hour 24, a day past the month's
        end); they are carried.  Jumps by field, never minute by minute.
        Returns a (year, month, day, hour, minute) tuple or None when nothing
        matches before the search horizon.
        """
        min_next, hour_next, month_next = self._min_next, self._hour_next, self._month_next
        limit = y + _CALENDAR_CYCLE
        while True:
            m = month_next[mo]
            if m < 0:
                y, mo, d, h, mi = y + 1, 1, 1, 0, 0
                if y > limit or y > 9999:
                    return None
                continue
            if m != mo:
                mo, d, h, mi = m, 1, 0, 0
            dd = self._days(y, mo)[d]
            if dd < 0:
                if mo == 12:
                    y, mo, d, h, mi = y + 1, 1, 1, 0, 0
                    if y > limit or y > 9999:
                        return None
                else:
                    mo, d, h, mi = mo + 1, 1, 0, 0
                continue
            if dd != d:
                d, h, mi = dd, 0, 0
            hh = hour_next[h]
            if hh < 0:
                d, h, mi = d + 1, 0, 0
                continue
            if hh != h:
                h, mi = hh, 0
            mm = min_next[mi]
            if mm < 0:
                h, mi = h + 1, 0
                continue
            return y, mo, d, h, mm

    def _next_across_dst(self, dt, local, zone):
        """Search near a UTC-offset change, where wall order is not time order.

        Every matching wall time from a few hours before *dt* is mapped to the
        instants it fires at (none, one, or two on a repeated hour); the
        earliest instant after *dt* wins.  The scan stops once no later wall
        time can map to an earlier instant.
        """
        t0 = dt.astimezone(_UTC).replace(tzinfo=None)
        offset, later = local.utcoffset(), (dt + _DAY).astimezone(zone).utcoffset()
        # Wall times up to the fall-back amount before dt may still fire after
        # it (the second pass); none later than dt + the largest offset can win.
        start = local.replace(tzinfo=None) - max(offset - later, _ZERO)
        slack = max(offset, later)
        found = self._next_wall(start.year, start.month, start.day, start.hour, start.minute)
        best = None
        while found is not None:
            wall = datetime(*found)
            if best is not None and wall - slack > best:
                break
            for instant in self._instants(wall, zone):
                if instant > t0 and (best is None or instant < best):
                    best = instant
            found = self._next_wall(found[0], found[1], found[2], found[3], found[4] + 1)
        if best is None:
            raise self._exhausted(dt)
        return best.replace(tzinfo=_UTC).astimezone(zone)

    def _instants(self, wall, zone):
        """Return the naive-UTC instants at which wall time *wall* (fold 0) fires."""
        first = zone.utcoffset(wall)
        # A fresh datetime is cheaper than wall.replace(fold=1).
        second = zone.utcoffset(datetime(wall.year, wall.month, wall.day, wall.hour,
                                         wall.minute, fold=1))
        if first == second:
            return (wall - first,)
        if first > second:  # a repeated hour: fold 0 is the first pass
            return (wall - first, wall - second) if self.wildcard else (wall - first,)
        if self.wildcard:  # skipped by a spring gap
            return ()
        return (_gap_end(wall - second, wall - first, zone, second),)


def _gap_end(lo, hi, zone, after):
    """Return the naive-UTC instant in (lo, hi] where *zone*'s offset becomes *after*."""
    while hi - lo > timedelta(seconds=1):
        mid = lo + (hi - lo) // 2
        if mid.replace(tzinfo=_UTC).astimezone(zone).utcoffset() == after:
            hi = mid
        else:
            lo = mid
    return hi.replace(microsecond=0)


def _next_table(values, high):
    """Map each value 0..high+1 to the smallest allowed value >= it, or -1."""
    if len(values) == high + 1 - (high == 12 or high == 31):
        return _FULL_TABLES[high]
    if len(values) * 4 > high:
        # Dense sets (weekdays, every other hour): one backward pass is
        # cheaper than a run of list extensions per value.
        table = [-1] * (high + 2)
        nxt = -1
        for v in range(high, -1, -1):
            if v in values:
                nxt = v
            table[v] = nxt
        return table
    table = []
    for v in sorted(values):
        table.extend([v] * (v + 1 - len(table)))
    table.extend([-1] * (high + 2 - len(table)))
    return table


_FULL_SETS = tuple(frozenset(range(low, high + 1)) for _, low, high in _FIELDS)
_ALL_WEEKDAYS = frozenset(range(7))
# Tables of the fields when every value is allowed, shared by all expressions.
_FULL_TABLES = {high: [max(v, low) for v in range(high + 1)] + [-1]
                for _, low, high in _FIELDS[:4]}
# Day tables of a month of each length when every day matches.
_MONTH_TABLES = {n: [1] + list(range(1, n + 1)) + [-1] * (32 - n)
                 for n in (28, 29, 30, 31)}
_FIXED_ZONES: "dict[Any, Any]" = {}


def _fixed_offset(zone):
    """Return True if the tzinfo *zone* keeps one UTC offset at every instant.

    A tzinfo that answers ``utcoffset(None)`` declares one offset for every
    date (the convention ``datetime.time.utcoffset`` relies on):
    ``ZoneInfo("UTC")``, ``ZoneInfo("Etc/GMT-5")`` and pytz's UTC do, zones
    with DST or a history of offset changes answer None.  The answer is kept
    per zone object; a tzinfo that cannot answer counts as changing.
    """
    try:
        return _FIXED_ZONES[zone]
    except KeyError:
        pass
    except TypeError:  # an unhashable tzinfo: ask it every time
        return _asks_fixed(zone)
    if len(_FIXED_ZONES) > 256:
        _FIXED_ZONES.clear()
    fixed = _FIXED_ZONES[zone] = _asks_fixed(zone)
    return fixed


def _asks_fixed(zone):
    try:
        return zone.utcoffset(None) is not None
    except Exception:  # a tzinfo that needs a datetime has offsets that vary
        return False


def _cron_error(index, token, expr, problem):
    name, low, high = _FIELDS[index]
    if index == 4:
        rng = "0-7 or sun-sat"
    elif index == 3:
        rng = "1-12 or jan-dec"
    else:
        rng = f"{low}-{high}"
    return CronSyntaxError(f"{name} field {problem}", expr,
                           f"the {name} field takes {rng}, lists, ranges and */steps")


def _cron_number(text, index, token, expr):
    """Parse one value of field *index* (a number or, where allowed, a name)."""
    name, low, high = _FIELDS[index]
    if text.isdigit() and text.isascii():
        value = int(text)
    else:
        names = _MONTH_NAMES if index == 3 else _DOW_NAMES if index == 4 else None
        value = names.get(text.lower()) if names else None
        if value is None:
            raise _cron_error(index, token, expr, f"has an invalid value {text!r}")
    if not low <= value <= high:
        raise _cron_error(index, token, expr, f"value {value} is out of range {low}-{high}")
    return value


def _cron_range(part, index, expr):
    """Expand one list item (``*``, ``a``, ``a-b``, with optional ``/step``)."""
    name, low, high = _FIELDS[index]
    body, slash, step_text = part.partition("/")
    if slash:
        if not (step_text.isdigit() and step_text.isascii()):
            raise _cron_error(index, part, expr, f"has an invalid step {step_text!r}")
        step = int(step_text)
        if step == 0:
            raise _cron_error(index, part, expr, f"has a zero step in {part!r}")
        # A step past the field's range matches the range's first value only
        # (cronie warns and goes on, as croniter and upstream do): see
        # _cron_wide_steps, which the preflight reports.
    else:
        step = 1
    if body in ("*", "?") and (body == "*" or index in (2, 4)):
        first, last = low, high
    elif "-" in body:
        a, _, b = body.partition("-")
        first = _cron_number(a, index, part, expr)
        last = _cron_number(b, index, part, expr)
        if index == 4 and last == 0 and first > 0:
            last = 7  # a day-of-week range ending in Sunday reads it as 7: fri-sun
        if first > last:
            raise _cron_error(index, part, expr, f"range {part!r} is reversed")
    else:
        first = _cron_number(body, index, part, expr)
        last = high if slash else first
    if index == 4 and body in ("*", "?"):
        last = 6  # 7 is only another name for Sunday
    return set(range(first, last + 1, step))


def _cron_field(text, index, expr):
    """Parse a minute, hour or month field into a set of values."""
    if text == "*":
        return _FULL_SETS[index]
    values = set()
    for part in text.split(","):
        if not part:
            raise _cron_error(index, text, expr, "has an empty list item")
        values |= _cron_range(part, index, expr)
    return values


def _cron_day_items(text, index, expr):
    """Parse a day field into (plain day set, special items).

    Special items are ('L',), ('LW',), ('W', n) for day-of-month and
    ('L', weekday), ('#', weekday, nth) for day-of-week.
    """
    if text in ("*", "?"):
        return _FULL_SETS[index] if index == 2 else _ALL_WEEKDAYS, ()
    plain, special = set(), []
    for part in text.split(","):
        if not part:
            raise _cron_error(index, text, expr, "has an empty list item")
        upper = part.upper()
        if index == 2 and upper in ("L", "LW"):
            special.append((upper,))
        elif index == 2 and upper.endswith("W") and "/" not in upper and "-" not in upper:
            special.append(("W", _cron_number(part[:-1], 2, part, expr)))
        elif index == 4 and upper.endswith("L") and len(upper) > 1 and "/" not in upper \
                and "-" not in upper:
            special.append(("L", _cron_number(part[:-1], 4, part, expr) % 7))
        elif index == 4 and upper == "L":
            # Quartz reads it as Saturday, Spring as Sunday, others as the
            # month's last day: no reading is safe to guess.
            raise CronSyntaxError(
                "day-of-week field takes L only after a weekday", expr,
                "write 5L for the month's last Friday, L in the day-of-month field for its "
                "last day, or 6 (sat) for every Saturday")
        elif index == 4 and "#" in part:
            wd, _, nth = part.partition("#")
            n = int(nth) if nth.isdigit() and nth.isascii() else 0
            if not 1 <= n <= 5:
                raise _cron_error(index, part, expr, f"needs a week number 1-5 after '#' in {part!r}")
            special.append(("#", _cron_number(wd, 4, part, expr) % 7, n))
        else:
            values = _cron_range(part, index, expr)
            if index == 4:
                values = {v % 7 for v in values}
            plain |= values
    return plain, tuple(special)


def _cron_dom_days(items, ndays, first):
    plain, special = items
    days = {d for d in plain if d <= ndays}
    for item in special:
        if item[0] == "L":
            days.add(ndays)
        elif item[0] == "LW":
            days.add(_nearest_weekday(ndays, ndays, first))
        elif item[1] <= ndays:
            days.add(_nearest_weekday(item[1], ndays, first))
    return days


def _nearest_weekday(day, ndays, first):
    """Return the Monday-Friday day nearest *day*, staying inside the month."""
    wd = (first + day - 1) % 7
    if wd == 6:  # Saturday: Friday before, or Monday after when that is the 1st
        return day - 1 if day > 1 else day + 2
    if wd == 0:  # Sunday: Monday after, or Friday before at the month's end
        return day + 1 if day < ndays else day - 2
    return day


def _cron_dow_days(items, ndays, first):
    plain, special = items
    days = set()
    for wd in plain:  # day d falls on weekday (first + d - 1) % 7
        days.update(range((wd - first) % 7 + 1, ndays + 1, 7))
    for item in special:
        offset = (item[1] - first) % 7  # days from the 1st to the first such weekday
        if item[0] == "L":
            days.add(offset + 1 + 7 * ((ndays - offset - 1) // 7))
        else:
            day = offset + 1 + 7 * (item[2] - 1)
            if day <= ndays:
                days.add(day)
    return days


def _cron_wide_steps(expr):
    """The steps of a valid expression that are larger than their field's range.

    Returns ``[(field name, item, step, the one value it matches)]``: ``*/100``
    in the minute field matches minute 0 only (cronie warns about these and
    goes on; croniter and upstream accept them silently).
    """
    text = expr.strip(" \t\r\n")
    if text[:8].upper() == "CRON_TZ=":
        text = text[8:].partition(" ")[2].strip()
    found = []
    for index, field in enumerate(_MACROS.get(text.lower(), text).split()[:5]):
        name, low, high = _FIELDS[index]
        for item in field.split(","):
            body, slash, step = item.partition("/")
            if slash and step.isdigit() and int(step) > high - low + 1:
                first = body.partition("-")[0]
                value = low if first in ("*", "?") else _cron_number(first, index, item, expr)
                found.append((name, item, int(step), value))
    return found


# How upstream Hermes 0.22 reads an expression: croniter 6.0 (the version it
# pins) on the zone's naive wall clock, each answer tried at fold 0, then 1,
# the first instant after the base winning (cron/jobs.py compute_next_run).
# Facts carried over (the code is this module's own):
#   * a day field is unrestricted only when an item is a bare '*' (or it
#     lists every value and the other day field has a '*' in it); two
#     restricted day fields match a day if EITHER does, so '*/2' and '*/1'
#     count as restricted (cron(5): any field starting with '*' is ANDed);
#   * 'a-a' (ends equal after names and 7 -> 0) is the whole field, with its
#     step: '1-1' in the month field is every month, 'sun-sun' every day;
#   * 'a/s' runs to the field's end, and the day-of-week field ends at 6,
#     so '1/2' is 1,3,5 (cron(5) runs to 7, Sunday); 'a/s' with a at the end
#     ('59/5', '6/2') is 'a-a/s', the whole field;
#   * a wall time in a spring gap fires at fold 0, the offset before the
#     change ('30 2' in New York on 2026-03-08 fires 03:30 EDT); the next
#     base is that instant, so the repeated hour of a fall-back fires once.
_CRONITER_RANGES = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 6))
_CRONITER_NAMES = {3: _MONTH_NAMES, 4: _DOW_NAMES}
_UPSTREAM_FIELD_CHARS = frozenset("0123456789*,-/abcdefghijklmnopqrstuvwxyz")
_CRONITER_READINGS: "dict[Any, Any]" = {}
_CRONITER_DIFFS: "dict[Any, Any]" = {}
_OFFSET_CHANGES: "dict[Any, Any]" = {}
_PARITY_DAYS = 731  # the horizon of a comparison: two years from now
_MINUTE = timedelta(minutes=1)


def _croniter_value(text, index):
    """One value as croniter reads it (a name, or 7 for Sunday); None if refused."""
    if text.isdigit() and text.isascii():
        value = int(text)
    else:
        value = _CRONITER_NAMES.get(index, {}).get(text)
        if value is None:
            return None
    return 0 if index == 4 and value == 7 else value


def _croniter_field(text, index):
    """croniter's reading of one field: (values, has a bare '*', 'L' listed); None if refused."""
    low, high = _CRONITER_RANGES[index]
    values, star, last = set(), False, False
    for item in text.split(","):
        if item == "*":
            star = True
            continue
        if index == 2 and item == "l":
            last = True
            continue
        body, slash, step = item.partition("/")
        if slash and not (step.isdigit() and step.isascii() and int(step)):
            return None
        step = int(step) if slash else 1
        if body == "*" and slash:
            a, b = low, high
        elif "-" in body:
            a, _, b = body.partition("-")
            a, b = _croniter_value(a, index), _croniter_value(b, index)
        else:
            a = b = _croniter_value(body, index)
            if slash and a is not None:
                b = high
        if a is None or b is None or max(a, b) > high or (a == b and not slash and "-" not in
                                                           body and a < low):
            return None
        if a == b and (slash or "-" in body):
            values.update(range(low, high + 1, step))  # 'a-a': the whole field
        elif a > b:  # a range past the field's end wraps (dow 'fri-sun': 5-0)
            head = list(range(a, high + 1, step))
            skip = step - (high - head[-1]) if head and head[-1] + step > high + 1 else 0
            values.update(head, range(low + skip, b + 1, step))
        else:
            values.update(range(a, b + 1, step))
    return values, star, last


class _CroniterReading:
    """An expression as upstream Hermes 0.22 fires it (see the facts above).

    ``of(expr)`` is None for an expression upstream refuses (``?``, ``W``,
    ``5L``, ``#``, ``CRON_TZ=``, nicknames): ``_upstream_gaps`` names those.
    """

    __slots__ = ("minutes", "hours", "months", "dom", "dow", "last", "dom_any", "dow_any",
                 "either")

    @classmethod
    def of(cls, expr):
        if expr in _CRONITER_READINGS:
            return _CRONITER_READINGS[expr]
        fields = expr.lower().split()
        reading = None
        if len(fields) == 5 and all(set(f) <= _UPSTREAM_FIELD_CHARS for f in fields):
            parsed = [_croniter_field(f, i) for i, f in enumerate(fields)]
            if None not in parsed:
                reading = cls(parsed, fields)
        if len(_CRONITER_READINGS) > 1024:
            _CRONITER_READINGS.clear()
        _CRONITER_READINGS[expr] = reading
        return reading

    def __init__(self, parsed, fields):
        full = [set(range(lo, hi + 1)) for lo, hi in _CRONITER_RANGES]
        sets = [full[i] if star else values for i, (values, star, _) in enumerate(parsed)]
        self.minutes, self.hours, self.dom, self.months, self.dow = \
            (sorted(s) for s in sets)
        self.last = parsed[2][2]
        # A day field listing every value counts as '*' only when the other
        # day field has a '*' somewhere in it.
        self.dom_any = parsed[2][1] or (sets[2] == full[2] and not self.last
                                        and "*" in fields[4])
        self.dow_any = parsed[4][1] or (sets[4] == full[4] and "*" in fields[2])
        self.either = not self.dom_any and not self.dow_any

    def day_matches(self, day):
        """True if croniter fires on the date *day* (a ``date``)."""
        if day.month not in self.months:
            return False
        dom = self.dom_any or day.day in self.dom or (
            self.last and (day + _DAY).month != day.month)
        dow = self.dow_any or (day.weekday() + 1) % 7 in self.dow
        return (dom or dow) if self.either else (dom and dow)

    def next_wall(self, wall):
        """The first matching naive wall minute strictly after *wall*, or None."""
        import bisect

        t = wall.replace(second=0, microsecond=0) + _MINUTE
        day, hour, minute = t.date(), t.hour, t.minute
        for _ in range(366 * 9):  # a Feb 29 is never 8 years from the next one
            if self.day_matches(day):
                for h in self.hours[bisect.bisect_left(self.hours, hour):]:
                    m0 = minute if h == hour else 0
                    i = bisect.bisect_left(self.minutes, m0)
                    if i < len(self.minutes):
                        return datetime(day.year, day.month, day.day, h, self.minutes[i])
            day, hour, minute = day + _DAY, 0, 0
        return None

    def next_after(self, after, zone):
        """The next fire after the aware *after* in *zone*, as upstream computes it."""
        base = after.astimezone(_UTC)
        wall = self.next_wall(after.astimezone(zone).replace(tzinfo=None))
        for _ in range(2):
            if wall is None:
                return None
            for fold in (0, 1):
                instant = wall.replace(tzinfo=zone, fold=fold).astimezone(_UTC)
                if instant > base:
                    return instant.astimezone(zone)
            wall = self.next_wall(wall)
        if wall is None:
            return None
        return wall.replace(tzinfo=zone).astimezone(_UTC).astimezone(zone)  # fold 0, unchecked


def _may_differ_from_croniter(expr, zone):
    """A quick screen: can croniter's reading of *expr* fire apart from cron(5)'s in *zone*?

    Only these constructs read differently: a range ('1-1', 'sun-sun'), a
    step ('1/2' in the day-of-week field, '59/5'), a '*' inside a day field
    that is not the whole field ('*/2', '*/1', '5,*'), and any time near a
    change of the zone's UTC offset.
    """
    fields = expr.split()
    if len(fields) != 5:
        return False
    if "-" in expr or "/" in expr or any("*" in f and f != "*" for f in fields[2::2]):
        return True
    return not (zone is _UTC or type(zone) is timezone or _fixed_offset(zone))


def _croniter_difference(expr, zone, after):
    """How upstream Hermes 0.22 (croniter) and hermes_cron (cron(5)) fire *expr* apart.

    Compares the fires of both over the next two years in *zone* from the
    aware *after*: the day, hour and minute each allows (every date), and
    every fire near each change of the zone's UTC offset.  Returns None when
    they fire alike (or upstream refuses *expr*), else one line naming the
    cause and both answers from where they part.  Cached per (expression,
    zone, minute).
    """
    try:
        key = (expr, zone, after.astimezone(_UTC).replace(second=0, microsecond=0))
        hash(key)
    except TypeError:
        key = None
    if key is not None and key in _CRONITER_DIFFS:
        return _CRONITER_DIFFS[key]
    result = None
    if _may_differ_from_croniter(expr, zone):
        reading = _CroniterReading.of(expr)
        if reading is not None:
            cron = CronExpr(expr)
            result = _wall_difference(cron, reading, zone, after) or \
                _dst_difference(cron, reading, zone, after)
    if key is not None:
        if len(_CRONITER_DIFFS) > 1024:
            _CRONITER_DIFFS.clear()
        _CRONITER_DIFFS[key] = result
    return result


def _wall_difference(cron, reading, zone, after):
    """The first wall minute (over two years) that one reading fires and the other does not."""
    minutes, hours, dom, months, dow, _ = cron.fields
    fields = cron.expr.split()
    causes = [f"the {_FIELDS[i][0]} field {fields[i]!r}" for i, (ours, theirs) in enumerate(
        ((minutes, reading.minutes), (hours, reading.hours), (dom, reading.dom),
         (months, reading.months), (dow, reading.dow))) if set(ours) != set(theirs)]
    if cron.fields[5] == reading.either:
        causes.append(f"the day fields {fields[2]!r} and {fields[4]!r}: croniter fires on days "
                      f"that match {'EITHER' if reading.either else 'BOTH'}, cron(5) "
                      f"{'EITHER' if not reading.either else 'BOTH'}")
    if not causes:
        return None
    h0, m0 = min(hours), min(minutes)
    start = after.astimezone(zone).replace(tzinfo=None, fold=0)
    day = start.date()
    for _ in range(_PARITY_DAYS):
        ours_day = cron.matches(datetime(day.year, day.month, day.day, h0, m0))
        theirs_day = reading.day_matches(day)
        for h in range(24) if ours_day or theirs_day else ():
            for m in range(60):
                ours = ours_day and h in hours and m in minutes
                if ours == (theirs_day and h in reading.hours and m in reading.minutes):
                    continue
                wall = datetime(day.year, day.month, day.day, h, m)
                if wall <= start:
                    continue
                # The answers start at the first minute one fires and the other does not.
                begin = wall.replace(tzinfo=zone).astimezone(_UTC) - _MINUTE
                return _both_answers(cron, reading, zone, begin, 0, "; ".join(causes))
        day += _DAY
    return None


def _parting(cron, reading, zone, begin, end):
    """How many fires after *begin* both readings share before they part.

    None when they fire alike past *end* (or for 4000 fires).
    """
    theirs = ours = begin
    for i in range(4000):  # '* * * * *' takes 125 steps for a 1-hour change
        theirs, ours = reading.next_after(theirs, zone), cron.next_after(ours, tz=zone)
        if theirs is None or theirs.astimezone(_UTC) != ours.astimezone(_UTC):
            return i  # (as instants: one zone's datetimes compare by wall clock)
        if theirs > end:
            return None
    return None


def _offset_changes(zone, start, days):
    """The instants (aware UTC) in the *days* after *start* at which *zone*'s offset changes."""
    key = (zone, start.date(), days)
    if key in _OFFSET_CHANGES:
        return _OFFSET_CHANGES[key]
    changes, t = [], start.replace(hour=0, minute=0, second=0, microsecond=0)
    offset = t.astimezone(zone).utcoffset()
    for _ in range(days):
        later = t + _DAY
        if later.astimezone(zone).utcoffset() != offset:
            lo, hi = t, later
            while hi - lo > timedelta(seconds=1):
                mid = lo + (hi - lo) // 2
                if mid.astimezone(zone).utcoffset() == offset:
                    lo = mid
                else:
                    hi = mid
            changes.append(hi.replace(microsecond=0))
            offset = later.astimezone(zone).utcoffset()
        t = later
    if len(_OFFSET_CHANGES) > 64:
        _OFFSET_CHANGES.clear()
    _OFFSET_CHANGES[key] = changes
    return changes


def _dst_difference(cron, reading, zone, after):
    """The first fire near a change of *zone*'s UTC offset where the readings part."""
    if zone is _UTC or type(zone) is timezone or _fixed_offset(zone):
        return None
    start = after.astimezone(_UTC)
    for change in _offset_changes(zone, start, _PARITY_DAYS):
        shift = abs(change.astimezone(zone).utcoffset() -
                    (change - _MINUTE).astimezone(zone).utcoffset())
        begin = max(change - shift - 2 * _MINUTE, start)
        parted = _parting(cron, reading, zone, begin, change + shift + 2 * _MINUTE)
        if parted is not None:
            cause = (f"the change of UTC offset in {_zone_name(zone)} on "
                     f"{change.astimezone(zone).date().isoformat()}")
            return _both_answers(cron, reading, zone, begin, max(parted - 1, 0), cause)
    return None


def _both_answers(cron, reading, zone, begin, skip, cause):
    """The message: three fires of each reading from *begin*, after the first *skip*."""
    theirs, ours = [begin], [begin]
    for _ in range(skip + 3):
        if theirs[-1] is not None:
            theirs.append(reading.next_after(theirs[-1], zone))
        ours.append(cron.next_after(ours[-1], tz=zone))
    theirs, ours = [t for t in theirs[1 + skip:] if t is not None], ours[1 + skip:]
    offsets = len({f.utcoffset() for f in theirs + ours}) > 1
    return (f"upstream Hermes 0.22 (croniter) reads {cron.expr!r} differently ({cause}): "
            f"croniter fires {_brief_fires(theirs, offsets) or 'never'}; hermes_cron (cron(5)) "
            f"fires {_brief_fires(ours, offsets)}")


def _brief_fires(fires, offsets):
    """``2026-06-01 16:00, 06-03 16:00``: the year and the date only where they change.

    With *offsets* each fire shows its UTC offset (``01:00-05:00``).
    """
    out, before = [], None
    for fire in fires:
        if before is None or before.year != fire.year:
            text = fire.strftime("%Y-%m-%d %H:%M")
        elif before.date() != fire.date():
            text = fire.strftime("%m-%d %H:%M")
        else:
            text = fire.strftime("%H:%M")
        if offsets:
            text += fire.replace(microsecond=0).isoformat()[19:]
        out.append(text)
        before = fire
    return ", ".join(out)


# =============================================================================
# 6. Schedules
#    Text -> the schedule dicts stored in jobs.json, and the fire times of one.
# =============================================================================

_MAX_MINUTES = 3650 * 1440
_DURATION_UNITS = {
    "m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1,
    "h": 60, "hr": 60, "hrs": 60, "hour": 60, "hours": 60,
    "d": 1440, "day": 1440, "days": 1440,
}
_PHRASE_DAYS = {"day": "*", "daily": "*", "everyday": "*", "weekday": "1-5", "weekdays": "1-5",
                "weekend": "0,6", "weekends": "0,6"}
_WEEKDAY_WORDS = {
    "sunday": 0, "sun": 0, "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2,
    "wednesday": 3, "wed": 3, "weds": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
    "friday": 5, "fri": 5, "saturday": 6, "sat": 6,
}
_SCHEDULE_FORMS = (
    "use a cron expression ('0 9 * * 1-5', '@daily', 'CRON_TZ=Europe/Berlin 0 9 * * *'), "
    "'every 30m' or '2h' (recurring), 'weekdays at 9:30' or 'every monday 9am', "
    "'in 45m' (once) or an ISO time ('2026-03-01T09:00')")


def _parse_duration(text):
    """Return the minutes of a duration like ``30m``, ``2 hours`` or ``day``, else None."""
    text = text.strip().lower()
    i = 0
    while i < len(text) and text[i].isdigit() and text[i].isascii():
        i += 1
    unit = _DURATION_UNITS.get(text[i:].strip())
    if unit is None:
        return None
    minutes = (int(text[:i]) if i else 1) * unit if i < 12 else _MAX_MINUTES + 1
    if minutes > _MAX_MINUTES:
        raise CronSyntaxError("duration is longer than 10 years", text,
                              "use at most 3650d, or a one-shot ISO time")
    return minutes


def _parse_clock(tokens):
    """Parse ``9``, ``9:30``, ``9am``, ``9:30 pm``, ``noon``, ``midnight`` -> (h, m)."""
    text = "".join(tokens)
    if text in ("noon", "midday"):
        return 12, 0
    if text == "midnight":
        return 0, 0
    suffix = text[-2:] if text[-2:] in ("am", "pm") else ""
    body = text[: len(text) - len(suffix)]
    hours, _, minutes = body.partition(":")
    if not (hours.isdigit() and hours.isascii() and len(hours) <= 2):
        return None
    if minutes and not (minutes.isdigit() and minutes.isascii() and len(minutes) == 2):
        return None
    h, m = int(hours), int(minutes or 0)
    if m > 59:
        return None
    if suffix:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if suffix == "pm" else 0)
    elif h > 23:
        return None
    return h, m


def _parse_phrase(text):
    """Turn ``weekdays at 9:30`` style phrases into a cron expression, else None."""
    tokens = text.lower().replace(",", " ").split()
    if tokens and tokens[0] == "every":
        tokens = tokens[1:]
    if not tokens:
        return None
    if tokens[0] in _PHRASE_DAYS:
        dow, rest = _PHRASE_DAYS[tokens[0]], tokens[1:]
    else:
        days, i = [], 0
        while i < len(tokens):
            word = tokens[i]
            if word == "and":
                i += 1
                continue
            day = _WEEKDAY_WORDS.get(word, _WEEKDAY_WORDS.get(word[:-1]) if word.endswith("s")
                                     else None)
            if day is None:
                break
            if day not in days:
                days.append(day)
            i += 1
        if not days:
            return None
        dow, rest = ",".join(str(d) for d in sorted(days)), tokens[i:]
    if rest and rest[0] == "at":
        rest = rest[1:]
    clock = _parse_clock(rest) if rest else None
    if clock is None:
        _check_clock(text, "".join(rest))
        return None
    return f"{clock[1]} {clock[0]} * * {dow}"


def _check_clock(text, clock):
    """Name the field of a phrase's time of day that is out of range (``25:00``, ``9:75``,
    ``13pm``) rather than listing every schedule form; other words pass."""
    body = clock[:-2] if clock[-2:] in ("am", "pm") else clock
    hours, colon, minutes = body.partition(":")
    if not (hours.isdigit() and hours.isascii() and len(hours) <= 2) or colon and not (
            minutes.isdigit() and minutes.isascii() and len(minutes) == 2):
        return
    if colon and int(minutes) > 59:
        raise CronSyntaxError(f"minute {minutes} is out of range in {text!r}", clock,
                              "use minutes 00-59, e.g. 'every monday at 9:30'")
    top = "1-12 with am/pm" if body != clock else "0-23"
    raise CronSyntaxError(f"hour {hours} is out of range in {text!r}", clock,
                          f"use an hour {top}, e.g. 'every monday at 9:30' or '9am'")


def _looks_like_cron(text):
    if text.startswith("@") or text[:8].upper() == "CRON_TZ=":
        return True
    tokens = text.split()
    return (4 <= len(tokens) <= 7 and any(c.isdigit() or c in "*?" for c in text)
            and all(set(t.lower()) <= _CRON_CHARS for t in tokens))


_CRON_CHARS = frozenset("0123456789*/,-?#abcdefghijklmnopqrstuvwxyz")


def _wall_to_aware(naive, zone):
    """Attach *zone* to a naive wall time; a time in a spring gap moves past it."""
    return _in_zone(naive.replace(tzinfo=zone), zone, via_utc=True)


def _in_zone(aware, zone, via_utc=False):
    """``aware.astimezone(zone)``, as a clear error at the ends of the calendar."""
    try:
        return (aware.astimezone(_UTC) if via_utc else aware).astimezone(zone)
    except OverflowError:
        raise InvalidInputError("time is too close to the end of the calendar",
                                aware.replace(tzinfo=None).isoformat(),
                                "use a time between the years 2 and 9998") from None


def parse_schedule(text: str, *, now: "datetime | None" = None,
                   tz: "_Zone | None" = None) -> "_Record":
    """Parse a schedule as written by a user into an upstream schedule dict.

    Forms, tried in order: natural phrases (``every monday 9am``,
    ``weekdays at 9:30``, ``every day at noon``) -> cron; ``every 30m`` or a
    bare ``30m``/``2h``/``1d`` -> recurring interval; a cron expression,
    optionally prefixed ``CRON_TZ=Zone``; an ISO 8601 time -> one-shot (a
    naive time is in *tz*); ``in 45m`` -> one-shot at *now* plus the duration.
    *now* is an aware datetime (default: the system clock) and *tz* a zone
    name or tzinfo for one-shots (default UTC).  Returns
    ``{"kind": "cron", "expr", "display"}``, ``{"kind": "interval",
    "minutes", "display"}`` or ``{"kind": "once", "run_at", "display"}``.
    Raises ``CronSyntaxError`` naming the accepted forms.
    """
    if not isinstance(text, str) or not text.strip():
        raise CronSyntaxError("schedule is empty", text if isinstance(text, str) else None,
                              _SCHEDULE_FORMS)
    raw, text = text.strip(), " ".join(text.split())
    lower = text.lower()
    expr = _parse_phrase(text)
    if expr is not None:
        return {"kind": "cron", "expr": expr, "display": text}
    minutes = _parse_duration(lower[6:] if lower.startswith("every ") else lower)
    if minutes is not None:
        if minutes < 1:
            raise CronSyntaxError("schedule interval must be at least 1 minute", text,
                                  "use a duration like 'every 5m'")
        return {"kind": "interval", "minutes": minutes, "display": f"every {minutes}m"}
    if _looks_like_cron(text):
        CronExpr(raw)  # as written: only ASCII spaces and tabs separate fields (cronie's rule)
        return {"kind": "cron", "expr": text, "display": text}
    zone = _zone(tz) if tz is not None else _UTC
    if text[:4].isdigit() and text[4:5] == "-":
        when = parse_iso(text)
        when = _wall_to_aware(when, zone) if when.tzinfo is None else _in_zone(when, zone)
        return {"kind": "once", "run_at": _iso(when),
                "display": f"once at {when.strftime('%Y-%m-%d %H:%M')}"}
    if lower.startswith("in "):
        minutes = _parse_duration(lower[3:])
        if minutes is not None:
            if minutes < 1:
                raise CronSyntaxError("one-shot delay must be at least 1 minute", text,
                                      "use a duration like 'in 5m'")
            base = now if isinstance(now, datetime) else _system_clock()
            try:
                when = (base.astimezone(_UTC) + timedelta(minutes=minutes)).astimezone(zone)
            except OverflowError:
                raise InvalidInputError("time is too close to the end of the calendar", text,
                                        "use a shorter delay") from None
            return {"kind": "once", "run_at": _iso(when), "display": f"once in {text[3:]}"}
    raise CronSyntaxError("unrecognised schedule", text, _SCHEDULE_FORMS)


def _schedule_fires(schedule, zone, after, count):
    """Return up to *count* fire instants of a stored schedule after *after*."""
    try:
        return _fires(schedule, zone, after, count)
    except OverflowError:
        raise InvalidInputError("the fire times run past the end of the calendar",
                                after.isoformat(), "use an earlier start or fewer fires") \
            from None


def _job_fires(job, schedule, zone, after, count):
    """The next *count* fires of a job after *after*, as the tick will fire them.

    An interval job's slots are anchored on its stored ``next_run_at``
    (what ``list`` shows), not counted from *after*.
    """
    anchor = _parse_stored(job.get("next_run_at")) if schedule.get("kind") == "interval" \
        else None
    if anchor is None:
        return _schedule_fires(schedule, zone, after, count)
    step = timedelta(minutes=schedule["minutes"])
    if anchor <= after:
        anchor += step * ((after - anchor) // step + 1)
    return [(anchor + step * k).astimezone(zone) for k in range(count)]


def _fires(schedule, zone, after, count):
    kind = schedule.get("kind")
    if kind == "cron":
        cron, fires, t = CronExpr(schedule["expr"]), [], after
        for _ in range(count):
            t = cron.next_after(t, tz=zone)
            fires.append(t)
        return fires
    if kind == "interval":
        step = timedelta(minutes=schedule["minutes"])
        return [(after.astimezone(_UTC) + step * k).astimezone(zone) for k in range(1, count + 1)]
    run_at = parse_iso(schedule["run_at"])
    if run_at.tzinfo is None:
        run_at = _wall_to_aware(run_at, zone)
    return [run_at.astimezone(zone)] if run_at > after else []


# =============================================================================
# 7. Configuration
#    config.json and HERMES_CRON_* variables, validated into one dict.
# =============================================================================

_TYPE_NAMES = {str: "a string", bool: "true or false", int: "a whole number",
               dict: "a JSON object", list: "a JSON list"}


def _load_config(home, environ, tolerant=False):
    """Return (settings, warnings, bad) from ``<home>/config.json`` and the environment.

    Environment variables ``HERMES_CRON_<KEY>`` win over the file.  Raises
    ``InvalidInputError`` naming the key for a wrong type or value, unless
    *tolerant*: then a bad key gets its default and ``bad`` maps it to the
    error (a file that is not a JSON object makes every key bad).
    """
    path = os.path.join(home, _CONFIG_FILE)
    raw, bad = {}, {}
    try:
        with open(path, "rb") as f:
            data = f.read()
    except (FileNotFoundError, NotADirectoryError):
        data = None
    except OSError as exc:
        data, error = None, InvalidInputError(f"cannot read config.json ({exc.strerror})", path,
                                              "fix the file's permissions")
        bad = dict.fromkeys(_CONFIG_KEYS, error)
    if data is not None:
        import json

        error = None
        try:
            raw = json.loads(data.decode("utf-8-sig"))
        except (ValueError, UnicodeDecodeError) as exc:
            error = InvalidInputError(f"config.json is not valid JSON ({exc})", path,
                                      "fix the file; see the README's configuration section")
        if error is None and not isinstance(raw, dict):
            error = InvalidInputError("config.json must hold a JSON object", path,
                                      'write settings as {"key": value}')
        if error is not None:
            raw, bad = {}, dict.fromkeys(_CONFIG_KEYS, error)
    warnings = [f"config.json: unknown key {key!r} is ignored" for key in raw
                if key not in _CONFIG_KEYS]
    warnings += _nested_config_warnings(raw)
    settings = {}
    for key, (kind, default) in _CONFIG_KEYS.items():
        value = raw.get(key)
        if value is None:  # null is unset: the default, not a None the code must test for
            value = default
        env = environ.get(_ENV_PREFIX + key.upper())
        source = f"config.json key {key!r}"
        try:
            if env is not None and kind in (str, bool, int):
                value, source = _config_from_env(key, kind, env), _ENV_PREFIX + key.upper()
            if value is not None:
                _check_config_value(key, kind, value, source)
            if key == "timezone" and value is not None:
                _zone(value, f"{source}")
        except InvalidInputError as exc:
            bad.setdefault(key, exc)
            value = default
        settings[key] = value
    if settings["timezone"] is None and "timezone" not in bad:
        # Upstream keeps the zone in the config.yaml beside the cron directory.
        yaml_path = os.path.join(os.path.dirname(home), "config.yaml")
        try:
            name = _yaml_timezone(yaml_path)
        except InvalidInputError as exc:  # reported, and its zone not guessed
            name = None
            warnings.append(f"config.yaml: {exc}")
        try:
            if name is not None:
                _zone(name, f"{yaml_path}: timezone")
                settings["timezone"] = name
        except InvalidInputError as exc:
            bad["timezone"] = exc
    if bad and not tolerant:
        raise next(iter(bad.values()))
    return settings, warnings, {k: str(v) for k, v in bad.items()}


def _config_stamp(home, environ):
    """One line naming the config files as they are now, or None when it cannot say.

    Size, mtime, ctime and inode of ``config.json`` and of the upstream
    ``config.yaml`` beside the home (``-`` for a missing one).  A tick keeps
    the line of a config that loaded clean (``.config.seen``); while the line
    still matches, a tick with nothing due does not read the config again
    (see ``_Scheduler.reload_settings``).  ``HERMES_CRON_<KEY>`` variables
    are not on disk, so with any of them set there is no stamp.
    """
    if any(name in environ for name in _CONFIG_ENV_NAMES):
        return None
    parts = []
    for path in (os.path.join(home, _CONFIG_FILE),
                 os.path.join(os.path.dirname(home), "config.yaml")):
        try:
            st = os.stat(path)
        except FileNotFoundError:
            parts.append("-")
            continue
        except OSError:
            return None
        # A file changed within the file system's timestamp granularity of
        # now could change again with the same stamp ("racy git"): not
        # trusted until it has settled.  File times are the real clock's.
        if max(st.st_mtime_ns, st.st_ctime_ns) > time.time_ns() - _RACY_NS:
            return None
        parts.append(f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}")
    return " ".join(parts) + "\n"


_CONFIG_ENV_NAMES = tuple(_ENV_PREFIX + key.upper() for key in _CONFIG_KEYS)
_RACY_NS = 2_000_000_000


def _nested_config_warnings(raw):
    """Warnings for unknown keys inside ``agent``, each provider and ``smtp``.

    A misspelt nested key (``agent.comand``) would otherwise be ignored in
    silence and the job fail at its first run.
    """
    found = []
    for key, known in _CONFIG_SUBKEYS.items():
        value = raw.get(key)
        if not isinstance(value, dict):
            continue  # a wrong type is an error reported with the key itself
        entries = [(f"{key}.{name}", entry) for name, entry in value.items()] \
            if key == "providers" else [(key, value)]
        for where, entry in entries:
            for sub in entry if isinstance(entry, dict) else ():
                if sub not in known:
                    import difflib  # only for a misspelt key: not on every tick

                    close = difflib.get_close_matches(sub, known, 1)
                    found.append(f"config.json: unknown key {where + '.' + sub!r} is ignored"
                                 + (f" (did you mean {close[0]!r}?)" if close else
                                    f" (known: {', '.join(known)})"))
    return found


def _yaml_timezone(path):
    """Return the top-level ``timezone:`` scalar of a YAML file, or None.

    A deliberately small reader for one key: a plain, single- or
    double-quoted scalar on the key's line, with an optional comment.
    Anything else it cannot be sure of (a block or flow value, an alias, a
    tag, escapes, the key twice) raises ``InvalidInputError`` rather than
    guess.  A missing file, a missing key and ``null``/``~`` are None.
    """
    import re

    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8-sig")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError("cannot read the file", path,
                                f"fix it ({getattr(exc, 'strerror', None) or exc})") from None
    lines = text.splitlines()
    found = [i for i, line in enumerate(lines) if re.match(r"timezone[ \t]*:(?:[ \t]|$)", line)]
    first = next((line for line in lines if line.strip() and not line.startswith(("#", "%",
                                                                                   "---"))), "")
    if first.startswith(("{", "[")):
        raise InvalidInputError("a flow-style document is not read", path,
                                "write the zone as a line 'timezone: Europe/Berlin'")
    if not found:
        return None
    if len(found) > 1:
        raise InvalidInputError("the key 'timezone' appears twice", path, "keep one")
    value = lines[found[0]].partition(":")[2].strip()
    rest = lines[found[0] + 1] if found[0] + 1 < len(lines) else ""
    fix = "write the zone on the key's line, e.g. 'timezone: Europe/Berlin'"
    match = re.fullmatch(r"'((?:[^']|'')*)'|\"([^\"\\]*)\"|([^#'\"]*?)", value.split(" #")[0]
                         if not value.startswith(("'", '"')) else re.sub(r"\s+#.*$", "", value))
    if match is None or value[:1] in ("|", ">", "&", "*", "!", "{", "[", "%", "@", "`") or (
            not value and rest[:1] in (" ", "\t", "-")):
        raise InvalidInputError("the timezone value is not a plain scalar", value or rest.strip(),
                                fix)
    single, double, plain = match.groups()
    value = single.replace("''", "'") if single is not None else double if double is not None \
        else plain.strip()
    if plain is not None and value in ("", "~", "null", "Null", "NULL"):
        return None
    return value


def _config_from_env(key, kind, text):
    if kind is str:
        return text
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
    elif text.strip().isdigit():
        return int(text)
    raise InvalidInputError(f"environment variable {_ENV_PREFIX + key.upper()} must be "
                            f"{_TYPE_NAMES[kind]}", text, "fix or unset the variable")


def _check_config_value(key, kind, value, source):
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if ok and kind is int:
        ok = value >= (1 if key == "max_parallel" or key.endswith("_seconds") else 0)
        if not ok:
            raise InvalidInputError(f"{source} must be a positive whole number", value,
                                    "use a number like 4")
    if not ok:
        raise InvalidInputError(f"{source} must be {_TYPE_NAMES[kind]}", value,
                                f"set it to {_TYPE_NAMES[kind]} or remove it")
    if key == "verify_allow_networks":
        import ipaddress

        for entry in value:
            try:
                ipaddress.ip_network(entry, strict=False)
            except (TypeError, ValueError):
                raise InvalidInputError(f"{source}: not a network", entry,
                                        'list networks such as "127.0.0.0/8" or "10.1.2.3"') \
                    from None
    if key == "cluster":
        _check_cluster(value, source)
    if key == "providers":
        for name, entry in value.items():
            if not isinstance(entry, dict) or not isinstance(entry.get("base_url", ""), str):
                raise InvalidInputError(f"{source}: provider {name!r} must be an object with a "
                                        "string base_url", entry,
                                        'write {"base_url": "https://...", "api_key_env": "VAR"}')


_CLUSTER_PREFIX = "/hermes-cron"
_FLEET_KEEP = 20  # claims kept per job in etcd, as the ledger keeps 20 rows a job
_CLUSTER_LEASE = 15


def _check_cluster(cluster, source):
    """Refuse a ``cluster`` setting a fleet could not run on."""
    urls = cluster.get("etcd")
    if not isinstance(urls, list) or not urls or not all(
            isinstance(url, str) and url.startswith(("http://", "https://")) for url in urls):
        raise InvalidInputError(f"{source}: etcd must be a list of member URLs", urls,
                                'write "etcd": ["http://etcd-0.etcd:2379", ...]')
    prefix = cluster.get("prefix", _CLUSTER_PREFIX)
    if not isinstance(prefix, str) or not prefix.startswith("/") or len(prefix) < 2 or \
            prefix.endswith("/"):
        raise InvalidInputError(f"{source}: prefix must be a key path such as "
                                f"{_CLUSTER_PREFIX!r}", prefix, "one prefix per fleet")
    lease = cluster.get("lease_seconds", _CLUSTER_LEASE)
    if not isinstance(lease, int) or isinstance(lease, bool) or not 5 <= lease <= 3600:
        raise InvalidInputError(f"{source}: lease_seconds must be a whole number from 5 to "
                                "3600", lease, f"use e.g. {_CLUSTER_LEASE}")
    for name in ("node", "ca_file", "cert_file", "key_file", "user_env", "password_env"):
        if cluster.get(name) is not None and (not isinstance(cluster[name], str) or
                                              not cluster[name]):
            raise InvalidInputError(f"{source}: {name} must be a non-empty string",
                                    cluster[name], f"set {name} or remove it")
    if cluster.get("node") is not None and "/" in cluster["node"]:
        raise InvalidInputError(f"{source}: node must not contain '/'", cluster["node"],
                                "name the node as its host is named")


def _env_seconds(environ, name, default):
    text = environ.get(_ENV_PREFIX + name)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 86400:
        raise InvalidInputError(f"{_ENV_PREFIX + name} must be a number of seconds", text,
                                "use e.g. 30")
    return value


# =============================================================================
# 8. Jobs
#    Validation and construction of job records; no I/O beyond stat checks.
# =============================================================================

def _job_zone(job, settings, environ):
    """Return the zone a job's schedule runs in: job tz > config > environment > system."""
    name = job.get("tz") if isinstance(job, dict) else None
    if name:
        return _zone(name)
    if settings.get("timezone"):
        return _zone(settings["timezone"])
    if environ.get("HERMES_TIMEZONE"):
        return _zone(environ["HERMES_TIMEZONE"], "HERMES_TIMEZONE")
    return _system_zone(environ)


def _next_run(schedule, zone, now, completed=False):
    """Return the ISO ``next_run_at`` of a schedule seen at *now*, or None."""
    if schedule["kind"] == "once":
        if completed:
            return None
        run_at = _schedule_fires(schedule, zone, now - timedelta(seconds=_ONESHOT_GRACE), 1)
        return _iso(run_at[0]) if run_at else None
    return _iso(_schedule_fires(schedule, zone, now, 1)[0])


def _normalize_repeat(value):
    """Map a repeat value to a count or None (forever), as upstream does, except that
    a count below 0 is refused (upstream stores it as forever; 0 stays forever, as
    upstream's clients send it)."""
    if value is None:
        return None
    count = None
    if isinstance(value, int) and not isinstance(value, bool):
        count = value
    elif isinstance(value, str):
        text = value.strip().lower()
        if text in ("", "forever", "infinite", "inf", "none"):
            return None
        if text in ("once", "one", "1x"):
            return 1
        if text.lstrip("-").isdigit() and text.isascii():
            count = int(text)
    if count is not None and count > 0:
        return count
    if count == 0:
        return None  # upstream's forever, which its clients send (hermes-jobctl's specs)
    if count is not None:  # upstream reads these as forever too: too easy a slip
        raise InvalidInputError("repeat must be at least 1", value,
                                "use a count like 3, 'once', or 'forever' to run forever")
    raise InvalidInputError("repeat must be a count", value,
                            "use a whole number like 3, 'once' or 'forever'")


def _split_targets(text):
    """Split a ``deliver`` value on commas that start a known target."""
    parts, current = [], ""
    for piece in text.split(","):
        head = piece.strip().lower()
        if current and not (head in _DELIVER_WORDS or head.startswith(_DELIVER_PREFIXES)):
            current += "," + piece
        else:
            if current:
                parts.append(current.strip())
            current = piece
    parts.append(current.strip())
    return parts


def _check_deliver(text):
    """Validate a ``deliver`` value and return it normalized (``local`` if empty)."""
    if text is None or not str(text).strip():
        return "local"
    if not isinstance(text, str):
        raise InvalidInputError("deliver must be text", text, "use e.g. 'local' or 'file:/abs/path'")
    for target in _split_targets(text):
        low = target.lower()
        kind, _, rest = target.partition(":")
        kind = kind.lower()
        if low in _DELIVER_WORDS:
            continue
        if kind == "file" and rest.startswith("/"):
            continue
        if kind == "command" and rest.strip():
            continue
        if kind == "email" and "@" in rest and " " not in rest.strip():
            continue
        if kind == "webhook":
            _check_webhook(target, rest)
            continue
        if kind == "ping":
            _check_ping(target, rest)
            continue
        raise InvalidInputError(
            "deliver: unknown or incomplete target", target,
            "use local, stdout, file:/absolute/path, webhook:https://host/path, "
            "command:SHELL, email:user@example.com or ping:https://host/uuid (comma-separated)")
    return text.strip()


# A query key that names a credential: token, api_key, sig, X-Amz-Signature...
_QUERY_CREDENTIAL_KEY = (r"(?i)((?:^|[?&;])(?:[\w.-]*[_.-])?(?:token|key|apikey|secret|password|"
                         r"passwd|pwd|pass|sig|signature|auth|credential|access_token|code)")


def _has_query_credential(query):
    """True if a key of the URL *query* names a credential."""
    import re

    return re.search(_QUERY_CREDENTIAL_KEY + r")=", query) is not None


def _check_webhook(target, url):
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise InvalidInputError("deliver: webhook needs an http(s) URL", target,
                                "use webhook:https://host/path")
    if parts.username or parts.password:
        raise InvalidInputError(
            "deliver: webhook URL must not carry credentials", _redact_url(url),
            "drop user:password from the URL; sign requests with config webhook_secret_env")
    if _has_query_credential(parts.query):
        raise InvalidInputError(
            "deliver: webhook URL must not carry credentials in its query", _redact_url(url),
            "drop ?token=... from the URL; sign requests with config webhook_secret_env")


def _url_tokens(url):
    """The parts of *url*'s path and query that look like tokens.

    A webhook's or a ping's URL often is its own credential (Slack's
    ``/services/T…/B…/<secret>``, healthchecks.io's ``/<uuid>``): a part of
    16 characters or more with a digit in it counts.
    """
    scheme, sep, rest = url.partition("://")
    rest = rest.partition("#")[0]
    path = rest.partition("/")[2] if sep else rest
    parts = path.replace("?", "/").replace("&", "/").replace("=", "/").replace(";", "/")
    return [p for p in parts.split("/") if len(p) >= 16 and any(c.isdigit() for c in p)]


def _redact_url(url):
    """*url* with its userinfo, the values of credential-like query keys and the
    parts of its path that look like tokens masked."""
    import re

    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    url = f"{scheme}{sep}***@{host}" if at else url
    for token in sorted(set(_url_tokens(url)), key=len, reverse=True):
        url = url.replace(token, "***")
    return re.sub(_QUERY_CREDENTIAL_KEY + r"=)[^&#\s]*", r"\1***", url)


def _check_base_url(job, settings):
    """Apply the credential guard: a provider's key only goes to its own endpoint.

    Raises ``InvalidInputError`` for a ``base_url`` without a ``provider``,
    or one whose origin (scheme, host and port) is not the named provider's
    (unless the provider is ``custom``), and for a job's own ``api_key_env``
    naming a variable the configuration holds for something else.
    """
    base_url, provider = job.get("base_url"), job.get("provider")
    own = job.get("api_key_env")
    if own is not None and provider != "custom":
        raise InvalidInputError(
            "api_key_env is the key variable of a --provider custom job", own,
            "drop it (a named provider's key variable is set in config.json providers), or "
            "use --provider custom --base-url URL")
    if own is not None and not (isinstance(own, str) and own.isascii() and own.isidentifier()):
        raise InvalidInputError("api_key_env must be an environment variable name", own,
                                "use letters, digits and _ (e.g. MYJOB_API_KEY)")
    use = _key_env_use(own, settings) if own is not None else None
    if use is not None:
        raise InvalidInputError(
            f"api_key_env names {use}, which must not be sent to the job's base_url", own,
            "give the job a key variable of its own (e.g. MYJOB_API_KEY); a provider's own "
            "key is used by --provider NAME without --base-url")
    if not base_url:
        return
    if not provider:
        raise InvalidInputError(
            "base_url needs a provider", base_url,
            "add --provider NAME (a provider from config.json, or 'custom' for a key of its own)")
    origin = _origin(base_url)
    if origin is None:
        raise InvalidInputError("base_url must be an http(s) URL", base_url,
                                "use e.g. https://api.example.com/v1")
    if provider == "custom":
        return
    entry = (settings.get("providers") or {}).get(provider)
    if isinstance(entry, dict):
        expected = _origin(entry.get("base_url") or "")
    else:
        expected = _origin(_PROVIDER_URLS.get(provider, ""))
    if origin != expected:
        shown = f"{expected[0]}://{expected[1]}:{expected[2]}" if expected else "unknown"
        raise InvalidInputError(
            f"base_url {origin[0]}://{origin[1]}:{origin[2]} is not provider {provider!r}'s "
            f"endpoint ({shown}); its API key may not be sent there", base_url,
            "drop --base-url, or use --provider custom with a key of the job's own")


def _key_env_use(name, settings):
    """What the configuration holds variable *name* for (a phrase), or None.

    Every provider's key variables (config entries and the built-ins'
    ``<NAME>_API_KEY``), the SMTP password, the webhook secret and the
    variables passed through to scripts.
    """
    uses = {}
    for provider in _PROVIDER_URLS:
        uses[f"{provider.upper()}_API_KEY"] = f"the API key of provider {provider!r}"
    for provider, entry in sorted((settings.get("providers") or {}).items()):
        if isinstance(entry, dict):
            for env in [entry.get("api_key_env")] + list(entry.get("api_key_envs") or ()):
                if isinstance(env, str):
                    uses[env] = f"the API key of provider {provider!r}"
    for env in settings.get("script_env_passthrough") or ():
        uses.setdefault(env, "passed through to scripts (script_env_passthrough)")
    uses[(settings.get("smtp") or {}).get("password_env")] = "the SMTP password (smtp.password_env)"
    uses[settings.get("webhook_secret_env")] = "the webhook signing secret (webhook_secret_env)"
    return uses.get(name)


def _origin(url):
    """(scheme, host, port) of an http(s) URL, or None."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def _check_job(job, settings, scripts_dir, now, zone):
    """Validate a job record as create and edit see it; raise InvalidInputError."""
    prompt = job.get("prompt") or ""
    if not isinstance(prompt, str):
        raise InvalidInputError("prompt must be text", prompt, "pass the prompt as a string")
    if job.get("watch"):
        payload = [k for k in ("prompt", "script", "skills", "no_agent", "monitor_script",
                               "monitor_url") if job.get(k) and (k != "prompt" or prompt.strip())]
        if payload:
            raise InvalidInputError("a watchdog (watch) runs no agent or script of its own",
                                    payload[0], f"drop {payload[0]}, or make a second job for it")
        if not job.get("verify"):
            raise InvalidInputError("a watchdog (watch) needs the checks it runs", None,
                                    "add --verify CHECK (e.g. --verify url)")
    elif not prompt.strip() and not job.get("script") and not job.get("skills"):
        raise InvalidInputError("job has nothing to run: the prompt is blank and no script or "
                                "skill is set", prompt, "give a prompt, --script or --skill")
    if job.get("no_agent") and not job.get("script"):
        raise InvalidInputError("no_agent needs a script", job.get("script"),
                                "add --script NAME (a file in the scripts dir) or drop --no-agent")
    if job.get("script"):
        _check_script(job["script"], scripts_dir)
    workdir = job.get("workdir")
    if workdir is not None and not (isinstance(workdir, str) and os.path.isabs(workdir)
                                    and os.path.isdir(workdir)):
        raise InvalidInputError("workdir must be an existing absolute directory", workdir,
                                "create it or pass an absolute path")
    _check_base_url(job, settings)
    if job.get("monitor_script") and job.get("monitor_url"):
        raise InvalidInputError("monitor_script and monitor_url exclude each other",
                                job["monitor_url"], "keep one: clear the other with ''")
    if job.get("no_agent") and (job.get("monitor_script") or job.get("monitor_url")):
        raise InvalidInputError("a monitor needs an agent to wake, and no_agent runs none",
                                job.get("monitor_script") or job.get("monitor_url"),
                                "drop --no-agent or the monitor")
    schedule = job["schedule"]
    if schedule["kind"] == "once" and not job.get("repeat", {}).get("completed"):
        run_at = parse_iso(schedule["run_at"])
        if run_at.tzinfo is None:
            run_at = _wall_to_aware(run_at, zone)
        if run_at < now - timedelta(seconds=_ONESHOT_GRACE):
            raise InvalidInputError(
                f"one-shot time is more than {_ONESHOT_GRACE} s in the past",
                schedule["run_at"], "give a future time, or 'in 5m'")


# Upstream Hermes' optional job fields, each written only when set, as
# upstream writes them; '' clears one.  The monitor pair gates the agent here
# too (section 16); the others this runner stores and does not act on: what a
# run here does instead, for 'show' and doctor's upstream_field_ignored.
_UPSTREAM_OPTIONS = ("reasoning_effort", "monitor_script", "monitor_url", "interpreter")
_STORED_ONLY = {
    "reasoning_effort": "the agent runs at its own default effort",
    "interpreter": "a .py script runs as its #! line says, else under hermes_cron's Python",
}
_REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max", "ultra")


def _stored_only_fields(fields, scripts_dir):
    """Validate and normalize the ``_UPSTREAM_OPTIONS`` fields in *fields*, as upstream does.

    Returns ``{field: value}``, where None (from ``None`` or ``""``) means
    unset.  ``reasoning_effort`` is one of upstream's levels, lowercased
    (``false`` and ``disabled`` mean ``none``); ``monitor_script`` is a file
    in *scripts_dir*; ``monitor_url`` an http(s) URL; ``interpreter`` an
    absolute or ``~`` path, checked at run time upstream, so not here.
    """
    out = {}
    for key, value in fields.items():
        if value is not None and not isinstance(value, str):
            raise InvalidInputError(f"{key} must be text", value, f"pass {key} as a string")
        value = (value or "").strip() or None
        if value is None:
            pass
        elif key == "reasoning_effort":
            value = value.lower()
            value = "none" if value in ("false", "disabled") else value
            if value not in _REASONING_EFFORTS:
                raise InvalidInputError("unknown reasoning_effort", fields[key],
                                        f"use {', '.join(_REASONING_EFFORTS)} ('' clears it)")
        elif key == "monitor_script":
            try:
                _check_script(value, scripts_dir)
            except InvalidInputError as exc:
                raise InvalidInputError(f"monitor_script: {exc.what}", exc.value,
                                        exc.fix) from None
        elif key == "monitor_url":
            from urllib.parse import urlsplit

            try:
                parts = urlsplit(value)
                ok = parts.scheme in ("http", "https") and bool(parts.hostname)
            except ValueError:
                ok = False
            if not ok:
                raise InvalidInputError("monitor_url must be an http(s) URL", value,
                                        "use e.g. https://example.com/status")
        elif key == "interpreter" and not value.startswith(("/", "~")):
            raise InvalidInputError("interpreter must be an absolute or ~ path", value,
                                    "use e.g. ~/venvs/report/bin/python")
        out[key] = value
    return out


def _check_script(script, scripts_dir):
    """Check that *script*'s file resolves inside *scripts_dir* (no escape); return its path."""
    return _script_command(script, scripts_dir)[0]


def _script_command(script, scripts_dir, real_root=None):
    """Split a job's ``script`` into (the file's path, its arguments).

    ``report.sh --full`` is split as a shell would (``shlex``) but never run
    through one; a name that is itself a file (spaces and all) has no
    arguments.  The file must resolve inside *scripts_dir* (*real_root*: its
    real path, when the caller resolved it already).
    """
    import shlex
    import stat

    if not isinstance(script, str) or not script.strip() or "\0" in script:
        raise InvalidInputError("script must be a file name", script,
                                f"put the script in {scripts_dir} and pass its name")
    root = real_root or os.path.realpath(scripts_dir)
    name = script.strip()
    if "/" not in name and not name.startswith((".", "~")):
        # A plain name of a regular file (no symlink) in a real directory is
        # its own real path: one lstat, not a walk of every component.
        try:
            if stat.S_ISREG(os.lstat(os.path.join(root, name)).st_mode):
                return os.path.join(root, name), []
        except OSError:
            pass
    whole = os.path.realpath(os.path.join(root, os.path.expanduser(name)))
    if os.path.commonpath([root, whole]) == root and os.path.isfile(whole):
        return whole, []
    try:
        words = shlex.split(script)
    except ValueError as exc:
        raise InvalidInputError(f"script command line cannot be split ({exc})", script,
                                "balance the quotes around its arguments") from None
    return _script_file(words[0], root), words[1:]


def _script_file(script, root):
    path = os.path.realpath(os.path.join(root, os.path.expanduser(script)))
    if os.path.commonpath([root, path]) != root:
        raise InvalidInputError(f"script resolves outside the scripts dir {root}", script,
                                f"move the script into {root} and pass its name")
    if not os.path.isfile(path):
        raise InvalidInputError(f"script not found in the scripts dir {root}", script,
                                f"create {os.path.join(root, script)} or fix the name")
    return path


# --- Checks a run's answer must pass (``verify``) ----------------------------
# Each check is stored as a JSON object named by its "check"; the command
# line's short forms stand for the common ones.

_VERIFY_KINDS = ("url", "path", "git", "regex", "script")
_VERIFY_KEYS = {
    "url": {"pattern": str, "deadline": int, "required": bool},
    "path": {"path": str, "pattern": str, "newer": bool, "required": bool},
    "git": {"repo": str, "branch": str, "pattern": str, "required": bool},
    "regex": {"pattern": str, "match": bool},
    "script": {"script": str},
}
_VERIFY_DEADLINE = 20  # seconds a url check may take in all, redirects included
_GIT_HASH = r"\b[0-9a-f]{7,40}\b"
_VERIFY_SHORT = (("url", "url", None), ("path", "path", "path"),
                 ("path-new", "path", "path"), ("git", "git", "repo"),
                 ("match", "regex", "pattern"), ("no-match", "regex", "pattern"),
                 ("script", "script", "script"))
_VERIFY_FORMS = ("url, url:REGEX, path:FILE, path-new:FILE, git:REPO[@BRANCH], match:REGEX, "
                 "no-match:REGEX, script:NAME, or a JSON object")
_ON_UNVERIFIED = ("withhold", "mark")


def _verify_spec(text):
    """Read one command-line check: a short form (``url:REGEX``) or a JSON object."""
    if not isinstance(text, str):
        return text
    text = text.strip()
    if text.startswith("{"):
        import json

        try:
            return json.loads(text)
        except ValueError as exc:
            raise InvalidInputError(f"verify: not valid JSON ({exc})", text,
                                    f"write one of {_VERIFY_FORMS}") from None
    word, colon, arg = text.partition(":")
    for short, kind, key in _VERIFY_SHORT:
        if word != short:
            continue
        if key is None:
            return {"check": kind, **({"pattern": arg} if colon else {})}
        if not arg:
            break
        check = {"check": kind, key: arg}
        if short == "path-new":
            check["newer"] = True
        elif short == "no-match":
            check["match"] = False
        elif kind == "git" and "@" in arg:
            check["repo"], check["branch"] = arg.rsplit("@", 1)
        return check
    raise InvalidInputError("verify: unknown check", text, f"write one of {_VERIFY_FORMS}")


def _check_verify(checks, scripts_dir, workdir):
    """Validate a job's ``verify`` list (short forms read); return it normalised."""
    import re

    if checks is None:
        return []
    if not isinstance(checks, (list, tuple)):
        checks = [checks]
    out = []
    for index, raw in enumerate(checks, 1):
        check = _verify_spec(raw)
        where = f"verify check {index}"
        if not isinstance(check, dict) or check.get("check") not in _VERIFY_KINDS:
            raise InvalidInputError(f"{where} must name its kind", raw,
                                    f"use one of {', '.join(_VERIFY_KINDS)}: {_VERIFY_FORMS}")
        kind, keys = check["check"], _VERIFY_KEYS[check["check"]]
        for key, value in check.items():
            if key == "check":
                continue
            if key not in keys:
                raise InvalidInputError(f"{where} ({kind}): unknown key {key!r}", raw,
                                        f"{kind} checks take {', '.join(keys)}")
            if not isinstance(value, keys[key]) or (keys[key] is int and (
                    isinstance(value, bool) or not 0 < value <= 600)):
                wanted = "seconds from 1 to 600" if keys[key] is int else _TYPE_NAMES[keys[key]]
                raise InvalidInputError(f"{where} ({kind}): {key} must be {wanted}", value,
                                        f"fix {key} or leave it out")
        if "pattern" in check:
            try:
                re.compile(check["pattern"])
            except re.error as exc:
                raise InvalidInputError(f"{where} ({kind}): pattern is not a valid regular "
                                        f"expression ({exc})", check["pattern"],
                                        "fix the pattern (Python re syntax)") from None
        if kind == "regex" and "pattern" not in check:
            raise InvalidInputError(f"{where} (regex) needs a pattern", raw,
                                    "write match:REGEX or no-match:REGEX")
        if kind == "path":
            if ("path" in check) == ("pattern" in check):
                raise InvalidInputError(f"{where} (path) needs a path or a pattern (one)", raw,
                                        "write path:FILE, or {\"check\": \"path\", \"pattern\": "
                                        "REGEX} for the paths the answer names")
            if not os.path.isabs(os.path.expanduser(check.get("path") or "/")) and not workdir:
                raise InvalidInputError(f"{where} (path): a relative path needs the job's "
                                        f"workdir", check["path"],
                                        "set --workdir, or give an absolute path")
        if kind == "git":
            if not check.get("repo") or not os.path.isabs(os.path.expanduser(check["repo"])):
                raise InvalidInputError(f"{where} (git) needs the repository's absolute path",
                                        check.get("repo"), "write git:/path/to/repo[@branch]")
        if kind == "script":
            try:
                _check_script(check.get("script"), scripts_dir)
            except InvalidInputError as exc:
                raise InvalidInputError(f"{where} (script): {exc.what}", exc.value,
                                        exc.fix) from None
        out.append({"check": kind, **{k: check[k] for k in keys if k in check}})
    return out


def _verify_text(check):
    """A stored check as its short form where it has one, else as JSON."""
    kind, rest = check.get("check"), {k: v for k, v in check.items() if k != "check"}
    if kind == "url" and set(rest) <= {"pattern"}:
        return "url" + (f":{rest['pattern']}" if "pattern" in rest else "")
    if kind == "path" and set(rest) <= {"path", "newer"} and "path" in rest:
        return ("path-new:" if rest.get("newer") else "path:") + rest["path"]
    if kind == "git" and set(rest) <= {"repo", "branch"}:
        return f"git:{rest.get('repo')}" + (f"@{rest['branch']}" if rest.get("branch") else "")
    if kind == "regex" and set(rest) <= {"pattern", "match"}:
        return ("match:" if rest.get("match", True) else "no-match:") + rest.get("pattern", "")
    if kind == "script" and set(rest) == {"script"}:
        return f"script:{rest['script']}"
    import json

    return json.dumps(check, sort_keys=True, ensure_ascii=False)


def _check_on_unverified(value):
    if value is None or value == "":
        return None
    if value not in _ON_UNVERIFIED:
        raise InvalidInputError("on_unverified must be withhold or mark", value,
                                "use withhold (the default: the answer is not delivered) or "
                                "mark (delivered after a warning line)")
    return value


# --- Job policies: timeout, retries, jitter, concurrency, env, labels --------
# Each is stored only when set, under the name add_job takes it by; "" (or
# None through edit) leaves or clears it, and the config's rule applies.

_POLICY_FIELDS = ("timeout_seconds", "retries", "retry_backoff_seconds", "jitter_seconds",
                  "concurrency", "env", "labels", "misfire_grace_seconds", "catch_up",
                  "history_limit")
_CONCURRENCY = ("forbid", "allow", "replace")
_MAX_RETRIES = 10
_RETRY_BACKOFF = 60  # seconds before the first retry, doubled for each after it
_RETRY_BACKOFF_CAP = 3600
_MAX_POLICY_SECONDS = 7 * 86400
_MAX_HISTORY = 1000  # the ledger's own bound on terminal rows
_TICK_PERIOD = 60  # seconds between the ticks cron(8), a timer or the daemon runs
_SECOND_UNITS = {"": 1, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1}
_SECOND_UNITS.update((unit, minutes * 60) for unit, minutes in _DURATION_UNITS.items())
_LABEL_PART = r"[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?"


def _policy_seconds(key, value, low=1):
    """Seconds from an int or a duration text (``90``, ``90s``, ``5m``, ``2h``, ``1d``)."""
    seconds = value
    if isinstance(value, str):
        text = value.strip().lower()
        digits = len(text) - len(text.lstrip("0123456789"))
        unit = _SECOND_UNITS.get(text[digits:].strip())
        seconds = int(text[:digits]) * unit if digits and unit and digits < 12 else None
    if not isinstance(seconds, int) or isinstance(seconds, bool) or \
            not low <= seconds <= _MAX_POLICY_SECONDS:
        raise InvalidInputError(f"{key} must be a duration from {low} s to 7 days", value,
                                "use seconds or a duration such as 90s, 5m or 2h")
    return seconds


def _pairs(key, value):
    """``{name: value}`` from a dict or from ``NAME=value`` / ``NAME`` texts (a value of None)."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise InvalidInputError(f"{key} must be NAME=value texts or an object", value,
                                f"e.g. --{key.rstrip('s')} team=ops")
    out = {}
    for item in value:
        name, eq, text = item.partition("=")
        out[name.strip()] = text if eq else None
    return out


def _check_env(value):
    """The job's ``env``: NAME -> a plain value, or None to pass the ticker's NAME through."""
    env = _pairs("env", value)
    for name, text in env.items():
        if not (name.isascii() and name.isidentifier()) or name.startswith(_ENV_PREFIX):
            raise InvalidInputError("env names a variable by a plain name, not one of "
                                    "hermes_cron's own", name, "use e.g. --env REPORT_DIR=/srv/r")
        if text is not None and (not isinstance(text, str) or "\0" in text):
            raise InvalidInputError(f"env {name} must be text", text,
                                    f"use --env {name}=value, or --env {name} to pass it through")
    return env


def _label_metric_name(key):
    """A job label's key as a Prometheus label name: ``label_`` and [a-zA-Z0-9_] only."""
    return "label_" + "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_"
                              for c in key)


def _check_labels(value):
    """The job's ``labels``, as Kubernetes allows them (``team=ops``, ``app.io/tier=web``)."""
    import re

    labels = _pairs("labels", value)
    for key, text in labels.items():
        prefix, slash, name = key.rpartition("/")
        if not re.fullmatch(_LABEL_PART, name) or slash and not re.fullmatch(
                r"[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?", prefix):
            raise InvalidInputError("label key must be a name of letters, digits, '-', '_' "
                                    "and '.' (63 at most, an optional DNS prefix/)", key,
                                    "use e.g. --label team=ops")
        if text is None or not isinstance(text, str) or text and not re.fullmatch(
                _LABEL_PART, text):
            raise InvalidInputError(f"label {key} needs a value of letters, digits, '-', '_' "
                                    f"and '.' (63 at most)", text, f"use e.g. --label {key}=ops")
    seen = {}
    for key in sorted(labels):
        name = _label_metric_name(key)
        other = seen.setdefault(name, key)
        if other != key:  # one series cannot carry one label name twice
            raise InvalidInputError(f"labels {other} and {key} would both be the metrics label "
                                    f"{name}", key,
                                    "rename one: hermes_cron_job_labels spells each key with "
                                    "[a-zA-Z0-9_] only")
    return labels


def _check_policy(key, value, kind):
    """Validate policy field *key* for a schedule of *kind*; None (or "") unsets it."""
    if value is None or value == "" or value == {} or value == []:
        return None
    if key in ("catch_up", "misfire_grace_seconds") and kind == "once":
        raise InvalidInputError(f"{key} is only supported for recurring jobs", value,
                                "drop it: a one-shot has its own 120 s grace")
    if key == "catch_up":
        words = {"true": True, "yes": True, "on": True, "false": False, "no": False,
                 "off": False}
        flag = words.get(value.strip().lower()) if isinstance(value, str) else value
        if not isinstance(flag, bool):
            raise InvalidInputError("catch_up must be true or false", value,
                                    "use true (run a missed slot once) or false (skip it)")
        return flag
    if key == "concurrency":
        word = value.strip().lower() if isinstance(value, str) else value
        if word not in _CONCURRENCY:
            raise InvalidInputError("concurrency must be forbid, allow or replace", value,
                                    "use forbid (the default: a slot due while the job runs is "
                                    "skipped), allow or replace")
        return None if word == "forbid" else word
    if key == "env":
        return _check_env(value) or None
    if key == "labels":
        return _check_labels(value) or None
    if key in ("retries", "history_limit"):
        top = _MAX_RETRIES if key == "retries" else _MAX_HISTORY
        number = int(value) if isinstance(value, str) and value.strip().isdigit() else value
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= top:
            raise InvalidInputError(f"{key} must be a whole number from 0 to {top}", value,
                                    f"use e.g. {3 if key == 'retries' else 50}")
        if key == "history_limit" and number == 0:
            raise InvalidInputError("history_limit must keep at least 1 run", value,
                                    "use e.g. 50")
        return number or None
    return _policy_seconds(key, value, 0 if key == "jitter_seconds" else 1) or None


def _policy(job, key, default=None):
    """A policy field of a stored job, or *default* when unset or not of its kind."""
    value = job.get(key)
    if key in ("env", "labels"):
        return value if isinstance(value, dict) else (default or {})
    if key == "concurrency":
        return value if value in _CONCURRENCY else "forbid"
    if key == "catch_up":
        return value if isinstance(value, bool) else default
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return default


def _retry_delay(job, attempt):
    """Seconds before retry *attempt* (2 is the first retry): doubled each time, capped."""
    base = _policy(job, "retry_backoff_seconds", _RETRY_BACKOFF)
    return min(base * 2 ** max(attempt - 2, 0), max(_RETRY_BACKOFF_CAP, base))


def _jitter(job, slot):
    """Seconds one slot (an aware datetime) waits: a hash of the job id and the slot's
    UTC instant, like systemd's ``FixedRandomDelay``, so every process and tick agree."""
    import hashlib

    spread = _policy(job, "jitter_seconds", 0)
    if not spread or slot is None:
        return 0
    instant = slot.astimezone(_UTC).isoformat()
    digest = hashlib.sha256(f"{job.get('id')}|{instant}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (spread + 1)


def _selector(text):
    """Read a label selector as kubectl's ``-l``: ``team=ops,tier!=web,env,!legacy``.

    Returns a list of (key, op, value), op one of ``=``, ``!=``, ``has``, ``not``.
    """
    if isinstance(text, dict):
        return [(k, "=", v) for k, v in text.items()]
    out = []
    for part in str(text or "").split(","):
        part = part.strip()
        if not part:
            continue
        key, op, value = part, "has", None
        for sign, name in (("!=", "!="), ("==", "="), ("=", "=")):
            if sign in part:
                key, _, value = part.partition(sign)
                op = name
                break
        if op == "has" and key.startswith("!"):
            key, op = key[1:], "not"
        if not key.strip():
            raise InvalidInputError("a label selector needs a key in each part", text,
                                    "use e.g. -l team=ops or -l 'team=ops,tier!=web'")
        out.append((key.strip(), op, None if value is None else value.strip()))
    if not out:
        raise InvalidInputError("the label selector is empty", text, "use e.g. -l team=ops")
    return out


def _selects(job, requirements):
    """True if *job*'s labels meet every requirement of a ``_selector``."""
    labels = _policy(job, "labels")
    for key, op, value in requirements:
        have = labels.get(key)
        if op == "=" and have != value or op == "!=" and have == value \
                or op == "has" and key not in labels or op == "not" and key in labels:
            return False
    return True


def _policy_rows(job):
    """The ``show`` lines of a job's policies (none for a job that sets none)."""
    words = []
    if _policy(job, "timeout_seconds"):
        words.append(f"timeout {job['timeout_seconds']} s")
    if _policy(job, "retries"):
        base = _policy(job, "retry_backoff_seconds", _RETRY_BACKOFF)
        words.append(f"retries {job['retries']} (after {base} s, doubling, at most "
                     f"{max(_RETRY_BACKOFF_CAP, base)} s)")
    if _policy(job, "jitter_seconds"):
        words.append(f"jitter up to {job['jitter_seconds']} s (fixed per slot)")
    if _policy(job, "concurrency") != "forbid":
        words.append(f"concurrency {job['concurrency']}")
    if _policy(job, "misfire_grace_seconds"):
        words.append(f"grace {job['misfire_grace_seconds']} s")
    if _policy(job, "catch_up") is not None:
        words.append(f"catch-up {'true' if job['catch_up'] else 'false'}")
    if _policy(job, "history_limit"):
        words.append(f"history {job['history_limit']} runs")
    rows = [("policies", "; ".join(words))] if words else []
    if _policy(job, "env"):
        rows.append(("env", ", ".join(name if value is None else f"{name}={value}"
                                      for name, value in job["env"].items())
                     + (" (NAME alone: passed through)" if None in job["env"].values()
                        else "")))
    if _policy(job, "labels"):
        rows.append(("labels", ", ".join(f"{k}={v}" for k, v in job["labels"].items())))
    retry = job.get("retry")
    if isinstance(retry, dict):
        rows.append(("retry", f"attempt {retry.get('attempt')} of slot "
                              f"{retry.get('scheduled_at')} at {retry.get('at')}"))
    return rows


def _check_skills(skills):
    names = []
    for skill in skills or ():
        name = skill.strip() if isinstance(skill, str) else ""
        if not name or "/" in name or name.startswith(".") or "\0" in name:
            raise InvalidInputError("skill must be a plain skill name", skill,
                                    "use the folder name of the skill, e.g. 'daily-digest'")
        if name not in names:
            names.append(name)
    return names


def _job_label(job):
    name = job.get("name")
    return f"{job.get('id')} ({name})" if name else str(job.get("id"))


_MIN_ID_PREFIX = 4  # git's shortest abbreviation: fewer characters match too much


def _by_prefix(ref, ids, what):
    """Return the id in *ids* equal to *ref* or, failing that, the one it is a prefix of.

    A prefix needs at least ``_MIN_ID_PREFIX`` characters (case does not
    matter: ids are lowercase hex).  Returns None when nothing matches;
    raises ``InvalidInputError`` naming the candidates when several do.
    """
    ids = [i for i in ids if isinstance(i, str)]
    prefix = ref.strip().lower() if isinstance(ref, str) else ""
    if prefix in ids:
        return prefix
    if len(prefix) < _MIN_ID_PREFIX:
        return None
    found = sorted({i for i in ids if i.lower().startswith(prefix)})
    if len(found) > 1:
        shown = ", ".join(found[:5]) + (", ..." if len(found) > 5 else "")
        raise InvalidInputError(f"{what} prefix is ambiguous; it matches {len(found)} "
                                f"({shown})", ref, f"type more characters of the {what}")
    return found[0] if found else None


def _find_job(jobs, ref):
    """Return the job whose id is *ref*, else the one whose name matches it, else the
    one whose id starts with it (4+ characters, as git abbreviates).

    Raises ``JobNotFoundError`` when none does, ``InvalidInputError`` when
    several names or ids match.
    """
    if not isinstance(ref, str) or not ref.strip():
        raise InvalidInputError("job reference is empty", ref, "pass a job id or name")
    records = [j for j in jobs if isinstance(j, dict)]
    for job in records:
        if job.get("id") == ref:
            return job
    folded = ref.strip().casefold()
    named = [j for j in records if isinstance(j.get("name"), str)
             and j["name"].strip().casefold() == folded]
    if len(named) == 1:
        return named[0]
    if named:
        ids = ", ".join(str(j.get("id")) for j in named)
        raise InvalidInputError(f"job name is ambiguous; it matches {len(named)} jobs ({ids})",
                                ref, "use the job id instead")
    job_id = _by_prefix(ref, [j.get("id") for j in records], "job id")
    if job_id is not None:
        return next(j for j in records if j.get("id") == job_id)
    raise JobNotFoundError("no job with that id or name", ref,
                           "CronHome.jobs() lists the jobs' ids and names",
                           cli="run 'python -m hermes_cron list --all' to see the jobs")


def _job_is_runnable(job):
    return job.get("enabled", True) is not False and job.get("state") not in (
        "paused", "completed", "error") and not job.get("paused_at")


def _job_state(job):
    """Return the state a job is in, derived as upstream does."""
    state = job.get("state")
    if state in ("completed", "error"):
        return state
    if job.get("enabled", True) is False or state == "paused" or job.get("paused_at"):
        return "paused"
    return "scheduled"


def _ordered(job):
    """Return *job* with the known keys in upstream order, unknown keys after."""
    out = {k: job[k] for k in _JOB_KEYS if k in job}
    out.update((k, v) for k, v in job.items() if k not in out)
    return out


def _safe_component(text):
    """True for a job id that is one plain path component (letters, digits, _ and -)."""
    return isinstance(text, str) and 0 < len(text) <= 64 and text[0].isalnum() and \
        text.isascii() and all(c.isalnum() or c in "_-" for c in text)


def _checked_schedule(schedule, job):
    """Return a stored schedule dict if it is usable, else raise naming the job."""
    ok = isinstance(schedule, dict) and (
        (schedule.get("kind") == "cron" and isinstance(schedule.get("expr"), str))
        or (schedule.get("kind") == "interval" and isinstance(schedule.get("minutes"), int)
            and not isinstance(schedule.get("minutes"), bool) and schedule["minutes"] >= 1)
        or (schedule.get("kind") == "once" and _parses_iso(schedule.get("run_at"))))
    if not ok:
        who = job.get("id") if isinstance(job, dict) else None
        raise InvalidInputError(f"job {who} has an unusable stored schedule", schedule,
                                "set a new one with 'edit JOB --schedule ...'")
    return schedule


def _shown(value, zone, seconds=True):
    """An instant for a person: ``2026-03-06 13:00:05 CET`` on *zone*'s clock with
    its abbreviation (or offset, ``+0530``, where the zone has no letters); without
    *seconds*, to the minute.  A stored text that is not an aware ISO time is
    returned as it is ("-" for none)."""
    when = value if isinstance(value, datetime) else _parse_stored(value)
    if when is None:
        return value if isinstance(value, str) and value else "-"
    try:
        when = _in_zone(when, zone)
    except InvalidInputError:
        pass  # the ends of the calendar: in its own offset
    return when.strftime("%Y-%m-%d %H:%M:%S %Z" if seconds else "%Y-%m-%d %H:%M %Z").rstrip()


# An ISO 8601 instant with its offset, as this module writes them into messages.
_ISO_IN_TEXT = r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)"


def _shown_in_text(text, zone):
    """*text*, a message of this module's own, with each ISO instant in it
    :func:`_shown` on *zone*'s clock (``doctor``'s and ``why``'s words)."""
    import re

    return re.sub(_ISO_IN_TEXT, lambda m: _shown(m.group(0), zone), text)


def _friendly_schedule(job, zone):
    """A job's schedule in words for ``list``: ``every 1h`` for upstream's stored
    ``every 60m``, a one-shot's time on *zone*'s clock; else the stored display."""
    schedule = job.get("schedule") if isinstance(job.get("schedule"), dict) else {}
    minutes = schedule.get("minutes")
    if schedule.get("kind") == "interval" and type(minutes) is int and minutes > 0:
        for unit, size in (("d", 1440), ("h", 60), ("m", 1)):
            if minutes % size == 0:
                return f"every {minutes // size}{unit}"
    if schedule.get("kind") == "once" and _parse_stored(schedule.get("run_at")):
        return f"once at {_shown(schedule['run_at'], zone, seconds=False)}"
    return job.get("schedule_display") or schedule.get("display") or "-"


def _upstream_gaps(job, home_path):
    """Why an upstream Hermes ticker could not run *job* as hermes_cron does.

    Returns a list of short reasons, so a user who moves back to
    hermes-agent knows which jobs it will skip or shift; empty for a home
    that is not inside a Hermes home (no ``config.yaml`` beside it), where
    no upstream ticker will read it.
    """
    import re

    if not os.path.isfile(os.path.join(os.path.dirname(home_path), "config.yaml")):
        return []
    gaps = []
    script = job.get("script")
    if isinstance(script, str) and script.strip():
        try:  # upstream's scripts dir: <HERMES_HOME>/scripts
            path, args = _script_command(script, os.path.join(os.path.dirname(home_path),
                                                              "scripts"))
        except InvalidInputError:
            path, args = None, []
        if args:
            gaps.append(f"script arguments (upstream looks for a file named {script!r})")
        if path and not path.endswith((".sh", ".bash")):
            with open(path, "rb") as f:
                line = f.readline(512)
            if line.startswith(b"#!") and b"python" not in line:
                gaps.append(f"the script's #! line (upstream runs {os.path.basename(path)!r} "
                            f"under Python)")
    if job.get("tz"):
        gaps.append(f"its own zone tz={job['tz']!r} (upstream runs every job in the "
                    f"home's zone)")
    schedule = job.get("schedule")
    if not isinstance(schedule, dict) or schedule.get("kind") != "cron" or \
            not isinstance(schedule.get("expr"), str):
        return gaps
    fields = schedule["expr"].split()
    if fields and fields[0][:8].upper() == "CRON_TZ=":
        gaps.append(f"the {fields[0]} prefix (upstream skips the job as malformed on every "
                    f"tick)")
        fields = fields[1:]
    if fields and fields[0].startswith("@"):
        gaps.append(f"the nickname {fields[0]} (upstream's parser rejects it: write the five "
                    f"fields)")
    elif len(fields) == 5:
        # Month and weekday names hold no L or W where these checks look; a
        # bare L (the month's last day) upstream's croniter reads as we do.
        for token in re.findall(r"(?i)\b(?:\d+W|LW)\b", fields[2]) + \
                re.findall(r"(?i)\b\d+#\d+|\b\d*L\b", fields[4]):
            gaps.append(f"the cron token {token!r} (upstream's parser rejects it)")
    return gaps


def _parses_iso(value):
    try:
        return isinstance(value, str) and parse_iso(value) is not None
    except InvalidInputError:
        return False


def _check_names(jobs, job, unique=True):
    """Refuse a name that is another job's id (references to it would resolve to
    that job) and, with *unique*, a name another job has (case-insensitively, as
    references and ``apply`` match names); stores that already hold such twins
    still load.  One pass over *jobs*; a record with *job*'s id is *job* itself."""
    name, own = job.get("name"), job.get("id")
    folded = name.strip().casefold() if isinstance(name, str) else None
    twin = None
    for other in jobs:
        if not isinstance(other, dict) or other is job:
            continue
        other_id = other.get("id")
        if other_id == own:
            continue
        if other_id == name:
            raise InvalidInputError("name is another job's id", name,
                                    "pick a name that is not a job id")
        if unique and twin is None:
            other_name = other.get("name")
            if isinstance(other_name, str) and other_name.strip().casefold() == folded:
                twin = other
    if twin is not None:
        raise InvalidInputError(f"name is already used by job {twin.get('id')}", name,
                                "pick another name or edit that job")


def _job_name(name, job):
    if name is not None and not isinstance(name, str):
        raise InvalidInputError("name must be text", name, "pass the name as a string")
    if name and name.strip():
        return name.strip()
    prompt = (job.get("prompt") or "").strip()
    if prompt:
        return prompt[:50].strip()
    if job.get("skills"):
        return job["skills"][0]
    if job.get("script"):
        return job["script"]
    return "cron job"


def _resolve_context(jobs, refs, own_id):
    """Return the job ids that *refs* (ids, names or ``self``) name."""
    if refs is None:
        return None
    if isinstance(refs, str):
        refs = [refs]
    ids = []
    for ref in refs:
        if ref == "self":
            job_id = "self"
        else:
            job_id = _find_job(jobs, ref).get("id")
            if job_id == own_id:
                job_id = "self"
        if job_id not in ids:
            ids.append(job_id)
    return ids or None


def _resolve_watch(jobs, refs, own_id):
    """Return the ids of the jobs a watchdog checks (*refs*: ids or names; not itself)."""
    if refs is None:
        return None
    ids = []
    for ref in [refs] if isinstance(refs, str) else refs:
        job_id = _find_job(jobs, ref).get("id")
        if job_id == own_id:
            raise InvalidInputError("watch: a watchdog cannot watch itself", ref,
                                    "name the jobs whose runs it checks")
        if job_id not in ids:
            ids.append(job_id)
    return ids or None


def _check_ping(target, url):
    """Validate a dead man's switch URL: http(s), a host, no credentials."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise InvalidInputError("deliver: ping needs an http(s) URL", target,
                                "use ping:https://hc-ping.com/<uuid>")
    if parts.username or parts.password:
        # The URL is kept in jobs.json and shown by 'list' and 'show'.
        raise InvalidInputError("deliver: ping URL must not carry credentials",
                                _redact_url(url), "drop user:password from the URL")


def _ping_urls(job):
    """The dead man's switch URLs of a job's ``ping:`` targets (from ``deliver``)."""
    text = job.get("deliver")
    if not isinstance(text, str):
        return []
    return [t[5:].strip().rstrip("/") for t in _split_targets(text)
            if t.lower().startswith("ping:")]


# =============================================================================
# 9. Job store
#    jobs.json: tolerant reads that never write, and every change made under
#    .jobs.lock with an atomic replace.
# =============================================================================

def _same_file(st, path):
    """True if *path* is still the file *st* describes (size, mtime and inode)."""
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_size, now.st_mtime_ns, now.st_ino, now.st_dev) == (
        st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev)


class _JobStore:
    """The ``jobs.json`` file of one home."""

    def __init__(self, home, lock_timeout):
        self.home = home
        self.path = os.path.join(home, _JOBS_FILE)
        self.lock_timeout = lock_timeout
        self.read_stat = None  # os.stat_result of the jobs.json the last load read
        # Once a tick sets keep (a tick that waits for its runs clears it at its
        # end; a daemon's stays set), the document saved last stands in for a
        # parse of the same unchanged file: a busy tick's record writes need not
        # parse the whole store again per batch.  (stat, doc, jobs) or None.
        self.keep, self._kept = False, None
        # The _JobTexts of the list saved last while keeping: a save that names
        # the records it changed encodes only those (a list read from disk is
        # another list, so it never matches).
        self._texts = None
        # Set for a process that runs one tick: see _cmd_tick.
        self.freeze = False

    def load(self):
        """Return ``(document, jobs)``; a missing file is an empty store.

        Accepts the canonical ``{"jobs": [...]}``, a bare list and an id-keyed
        map (repaired in memory only).  A UTF-8 BOM is allowed.  Raises
        ``StoreCorruptError`` for anything else, and leaves the file alone.
        """
        import json

        try:
            with os.fdopen(_open_own(self.path, os.O_RDONLY), "rb") as f:
                data = f.read()
                self.read_stat = os.fstat(f.fileno())
        except FileNotFoundError:
            self.read_stat = None
            return {}, []
        except StorageError:
            raise
        except OSError as exc:
            raise StoreCorruptError(f"cannot read jobs.json ({exc.strerror})", self.path,
                                    "fix the file's permissions") from None
        import gc

        collecting = gc.isenabled()
        gc.disable()  # a large store is millions of new objects and no cycles
        try:
            text = data.decode("utf-8-sig")
            data = None  # the bytes go before the objects come: a lower peak
            try:
                doc = json.loads(text)
            except ValueError:
                doc = json.loads(text, strict=False)  # raw control characters in strings
        except UnicodeDecodeError as exc:
            raise self._corrupt(f"not UTF-8 text at byte {exc.start}") from None
        except ValueError as exc:
            raise self._corrupt(f"not valid JSON: {exc.msg} at line {exc.lineno} "
                                f"column {exc.colno}") from None
        except RecursionError:
            raise self._corrupt("nested too deeply to be a job store") from None
        finally:
            if collecting:
                gc.enable()
            if self.freeze:
                gc.freeze()
        if isinstance(doc, list):
            doc = {"jobs": doc}
        if not isinstance(doc, dict):
            raise self._corrupt(f"expected an object with a 'jobs' list, got {type(doc).__name__}")
        jobs = doc.get("jobs", [])
        if "jobs" not in doc and doc and all(isinstance(v, dict) for v in doc.values()):
            jobs, doc = doc, {}  # a bare id-keyed map
        if isinstance(jobs, dict):
            jobs = [dict(v, id=v.get("id", k)) if isinstance(v, dict) else v
                    for k, v in jobs.items()]
        if not isinstance(jobs, list):
            raise self._corrupt(f"'jobs' must be a list, got {type(jobs).__name__}")
        return doc, jobs

    def forget_due(self):
        """Drop the due summary: the next tick reads the store (and the ledger) in full."""
        try:
            os.unlink(os.path.join(self.home, _DUE_FILE))
        except OSError:
            pass  # none, or a read-only home: the write that follows says so

    def nothing_due(self, now):
        """True if the due summary proves no job needs a tick at *now*.

        The summary, written with every save, holds the earliest time any job
        needs the scheduler and the size, mtime and inode of the jobs.json it
        describes: a hand edit (or a writer without a summary) changes them,
        and the tick then reads the whole store.
        """
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return True  # an empty store
        except OSError:
            return False
        try:
            with open(os.path.join(self.home, _DUE_FILE), "rb") as f:
                size, mtime, inode, due, saved = f.read().split()
            epoch = now.timestamp()
            # A summary written "later" than now means the clock stepped back:
            # next runs computed then may be too far out, so scan in full.
            return [int(size), int(mtime), int(inode)] == [
                st.st_size, st.st_mtime_ns, st.st_ino] and float(saved) <= epoch + 60 and (
                due == b"never" or float(due) > epoch)
        except (OSError, ValueError):
            return False

    def saved_at(self):
        """Epoch of the clock when the due summary was written (0 if unknown)."""
        try:
            with open(os.path.join(self.home, _DUE_FILE), "rb") as f:
                return float(f.read().split()[4])
        except (OSError, ValueError, IndexError):
            return 0.0

    def write_due(self, jobs, now, stat=None, due=False):
        """Write the due summary of *jobs* (under the lock, for the file just read or saved).

        *due*, if given, is their ``_due_epoch``, known already.
        """
        st = stat or os.stat(self.path)
        due = _due_epoch(jobs) if due is False else due
        # One line: jobs.json's size, mtime (ns) and inode, the due epoch and
        # the clock's epoch now.
        text = f"{st.st_size} {st.st_mtime_ns} {st.st_ino} " \
               f"{'never' if due is None else repr(float(due))} {now.timestamp()!r}\n"
        path = os.path.join(self.home, _DUE_FILE)
        try:
            # Advisory: a lost or stale summary only makes the next tick read
            # jobs.json in full.
            _replace_small(path, text)
        except OSError:
            try:
                os.unlink(path)
            except OSError:
                pass

    def _corrupt(self, why):
        return StoreCorruptError(
            f"jobs.json is corrupt ({why})", self.path,
            "repair it by hand or restore a backup; hermes_cron never overwrites it")

    def lock(self):
        """Hold ``.jobs.lock`` (a context manager); temp files of dead writers go."""
        import contextlib

        @contextlib.contextmanager
        def hold():
            _make_home(self.home)
            with _FileLock(os.path.join(self.home, _JOBS_LOCK), self.lock_timeout):
                self._sweep_temps()
                yield

        return hold()

    def locked(self):
        """Hold ``.jobs.lock`` and yield ``(document, jobs)`` (a context manager)."""
        import contextlib

        @contextlib.contextmanager
        def hold():
            with self.lock():
                # Taken, not shared: a change that fails half-way leaves nothing kept.
                kept, self._kept = self._kept, None
                if kept is not None and _same_file(kept[0], self.path):
                    self.read_stat = kept[0]
                    yield kept[1], kept[2]
                else:
                    yield self.load()

        return hold()

    def forget_kept(self):
        """Stop reusing saved documents (the end of a tick)."""
        self.keep, self._kept, self._texts = False, None, None

    def save(self, doc, jobs, now, changed=None):
        """Write *jobs* into *doc* and replace jobs.json (call under ``locked``).

        *changed*, a set of job ids, promises that no other record of *jobs*
        changed since this same list was last saved (or came from the kept
        document): their JSON texts from then are reused, so a busy tick's
        later writes encode the runs they record, not every job.  Without it
        every record is encoded.
        """
        doc["jobs"] = jobs
        doc["updated_at"] = _iso(now)
        try:
            texts = _JobTexts.of(jobs, self._texts if changed is not None else None, changed)
            data = _dump_store(doc, False, texts.lines)
        except UnicodeEncodeError:  # a lone surrogate from a hand-edited file: keep it escaped
            texts = None
            data = _dump_store(doc, ensure_ascii=True)
        _atomic_write(self.path, data)
        st = os.stat(self.path)
        self.write_due(jobs, now, st, texts.due() if texts is not None else False)
        self._texts = texts if self.keep else None
        if self.keep:
            self._kept = (st, doc, jobs)

    def mutate(self, change, now):
        """Run ``change(jobs)`` under the lock and save the list it leaves.

        *change* edits the list in place and returns a result, which this
        returns.  If it raises, nothing is written.
        """
        with self.locked() as (doc, jobs):
            result = change(jobs)
            self.save(dict(doc), jobs, now)
        return result

    def _sweep_temps(self):
        # Store writers only create temp files while holding the lock we now
        # hold, so any that exist were left by a process that died mid-save.
        # The small files (heartbeat, due summary) name their writer's pid:
        # theirs go once that process is gone.
        for name in os.listdir(self.home):
            if name.startswith(_TEMP_PREFIX) and name.endswith(_TEMP_SUFFIX):
                stale = True
            elif name.endswith(".tmp") and name.count(".") >= 2:
                pid = name.rsplit(".", 2)[1]
                stale = pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid))
            else:
                continue
            if stale:
                try:
                    os.unlink(os.path.join(self.home, name))
                except OSError:
                    pass


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        pass  # it exists, but is not ours to signal
    return True


def _due_epoch(jobs):
    """The earliest epoch at which a tick has work in *jobs*: 0 for now, None for never.

    A tick has work at once for a job holding a claim or a pending slot and
    for a record it must repair; else at the earliest ``next_run_at`` of a
    scheduled job.  Paused and finished jobs wait for a command.
    """
    seen, due = {}, _NEVER
    for job in jobs:
        at = _job_due(job, seen)
        if at == 0:
            return 0
        if at < due:
            due = at
    return None if due == _NEVER else due


_NEVER = float("inf")


def _job_due(job, seen):
    """One record's part of ``_due_epoch``: 0 (a tick has work now), ``_NEVER``, or an epoch.

    *seen* maps the times parsed so far to their epochs: many jobs share a slot.
    """
    if not isinstance(job, dict) or not isinstance(job.get("id"), str) or \
            job.get("fire_claim") is not None or job.get("pending_slot") is not None \
            or job.get("fire_claims"):
        return 0
    if _job_state(job) != "scheduled":
        return _NEVER
    text = job.get("next_run_at")
    schedule = job.get("schedule")
    if isinstance(schedule, dict) and schedule.get("kind") == "once" and \
            job.get("manual_run_at") is None:
        text = schedule.get("run_at")  # due at run_at, whatever next_run_at holds
    at = seen.get(text) if isinstance(text, str) else None
    if at is None:
        parsed = _parse_stored(text)
        if parsed is None:
            return 0
        at = seen[text] = parsed.timestamp()
    if "jitter_seconds" in job:
        at += _jitter(job, _parse_stored(text))
    retry = job.get("retry")
    if retry is not None:  # a failed attempt's next one
        when = _parse_stored(retry.get("at")) if isinstance(retry, dict) else None
        return 0 if when is None else min(at, when.timestamp())
    return at


class _JobTexts:
    """The JSON text (UTF-8) and due epoch (``_job_due``) of each record of one saved
    job list.

    A keeping store holds them beside its document, so that a save naming
    the records it changed (``_JobStore.save``) encodes only those: the
    other texts stand while the list holds the same record objects in the
    same places (checked by identity, at C speed).
    """

    __slots__ = ("jobs", "records", "lines", "dues", "at")

    @classmethod
    def of(cls, jobs, old, changed):
        """The texts of *jobs*: *old*'s with the records whose ids are in *changed*
        encoded again, if *old* is of this very list; else all encoded."""
        import operator

        dump, seen, texts = _store_encoder(False), {}, cls()
        texts.jobs, texts.records = jobs, list(jobs)
        if old is not None and old.jobs is jobs and len(old.records) == len(jobs) \
                and all(map(operator.is_, jobs, old.records)):
            texts.lines, texts.dues, texts.at = old.lines, old.dues, old.where()  # old is done with
            for job_id in changed:
                for i in texts.at.get(job_id, ()):
                    texts.lines[i] = dump(jobs[i]).encode("utf-8")
                    texts.dues[i] = _job_due(jobs[i], seen)
            return texts
        texts.lines = _record_texts(jobs, dump)
        texts.dues = [_job_due(job, seen) for job in jobs]
        texts.at = None  # made by the first save that reuses these texts
        return texts

    def where(self):
        """``{job id: [positions in the list]}``."""
        if self.at is None:
            self.at = {}
            for i, job in enumerate(self.records):
                if isinstance(job, dict) and isinstance(job.get("id"), str):
                    self.at.setdefault(job["id"], []).append(i)
        return self.at

    def due(self):
        """``_due_epoch`` of the list: 0, None (never) or an epoch."""
        due = min(self.dues, default=_NEVER)
        return None if due == _NEVER else due


def _store_encoder(ensure_ascii):
    import json

    return json.JSONEncoder(ensure_ascii=ensure_ascii, separators=(", ", ": ")).encode


def _dump_store(doc, ensure_ascii, lines=None):
    """jobs.json as bytes, in parts: one job per line, so a person, ``diff`` and
    ``grep`` read it and ``jq`` parses it; written by json's C encoder
    (indenting is 4x slower).

    The parts hold a few hundred jobs each: a store of 10,000 jobs is never
    one string, nor one more copy of it per concatenation (tens of MiB).
    *lines*, if given, are the UTF-8 texts of ``doc["jobs"]``, encoded already.
    Raises ``UnicodeEncodeError`` for a lone surrogate unless *ensure_ascii*.
    """
    dump, code = _store_encoder(ensure_ascii), "ascii" if ensure_ascii else "utf-8"
    parts, lead = [], "{"
    for key, value in doc.items():
        if key == "jobs" and isinstance(value, list) and value:
            texts = lines if lines is not None else _record_texts(value, dump, code)
            parts.append(f"{lead}{dump(key)}: [\n".encode(code))
            for start in range(0, len(texts), 256):
                parts.append((b",\n" if start else b"") + b",\n".join(texts[start:start + 256]))
            parts.append(b"\n]")
        else:
            parts.append(f"{lead}{dump(key)}: {dump(value)}".encode(code))
        lead = ",\n"
    parts.append(b"{}\n" if lead == "{" else b"}\n")
    return parts


def _record_texts(jobs, dump, code="utf-8"):
    """Each record of *jobs* as its JSON text in bytes (C speed: no loop in Python)."""
    import operator

    return list(map(operator.methodcaller("encode", code), map(dump, jobs)))


def _make_home(home):
    """Create the home directory (mode 0700) if it does not exist yet.

    Parents it needs are made 0700 too, whatever the umask: ``--home a/b/cron``
    under umask 000 must not leave a world-writable ``a/b`` above the store.
    """
    if not os.path.isdir(home):
        missing, path = [], os.path.abspath(home)
        while not os.path.isdir(path) and os.path.dirname(path) != path:
            missing.append(path)
            path = os.path.dirname(path)
        try:
            for path in reversed(missing):
                try:
                    os.mkdir(path, 0o700)
                except FileExistsError:
                    continue  # made meanwhile by another process: not ours to chmod
                os.chmod(path, 0o700)
        except OSError as exc:
            raise HermesCronError(f"cannot create the cron home ({exc.strerror})", home,
                                  "pick a --home you can write, or create it first") from None


# =============================================================================
# 10. Redaction rules
#    The credential shapes redaction knows, as data: named vendor rules,
#    structural families, and the words that mark a value as a secret.
# =============================================================================

# (name, prefixes, body): a vendor credential is one of the prefixes then the
# body, standing alone (no token character right before or after).  Facts
# (prefix, length, alphabet) follow the providers' published formats and
# gitleaks' default rules; lengths are lower bounds where formats have grown.
# The masked form keeps a short hint of the prefix (see _hint).
_TOKEN_RULES = (
    # AI providers
    ("anthropic", "sk-ant-", r"[\w-]{20,}"),
    ("openrouter", "sk-or-v1-", r"[0-9a-f]{40,}"),
    ("openai-project", ("sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"), r"[\w-]{20,}"),
    ("langfuse", ("sk-lf-", "pk-lf-"), r"[\w-]{16,}"),
    ("openai", "sk-", r"[\w-]{20,}"),
    ("groq", "gsk_", r"[A-Za-z0-9]{40,}"),
    ("xai", "xai-", r"[A-Za-z0-9]{40,}"),
    ("perplexity", "pplx-", r"[A-Za-z0-9]{40,}"),
    ("replicate", "r8_", r"[A-Za-z0-9]{30,}"),
    ("huggingface", "hf_", r"[A-Za-z0-9]{20,}"),
    ("huggingface-org", "api_org_", r"[A-Za-z0-9]{30,}"),
    ("fireworks", "fw_", r"[A-Za-z0-9]{20,}"),
    ("nvidia", "nvapi-", r"[\w-]{40,}"),
    ("tavily", "tvly-", r"[A-Za-z0-9-]{24,}"),
    ("langsmith", ("lsv2_pt_", "lsv2_sk_"), r"[A-Za-z0-9_]{32,}"),
    ("pinecone", "pcsk_", r"[A-Za-z0-9_]{40,}"),
    ("voyage", "pa-", r"[\w-]{40,}"),
    ("firecrawl", "fc-", r"[0-9a-f]{32}"),
    ("exa", "exa_", r"[A-Za-z0-9]{20,}"),
    ("notion", "ntn_", r"[A-Za-z0-9]{40,}"),
    ("notion-legacy", "secret_", r"[A-Za-z0-9]{43}"),
    # Google
    ("gcp-api-key", "AIza", r"[\w-]{35}"),
    ("google-oauth-access", "ya29.", r"[\w-]{30,}"),
    ("google-oauth-refresh", "1//0", r"[\w-]{30,}"),
    ("google-oauth-client-secret", "GOCSPX-", r"[\w-]{28}"),
    # Code hosting and CI
    ("github-fine-grained-pat", "github_pat_", r"\w{30,}"),
    ("github", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"[A-Za-z0-9]{30,}"),
    ("gitlab-pat", "glpat-", r"[\w-]{20,}(?:\.[0-9a-z]{2}\.?[0-9a-z]{7,9})?"),
    ("gitlab-runner", "glrt-", r"[\w-]{20,}(?:\.[0-9a-z]{2}\.?[0-9a-z]{7,9})?"),
    ("gitlab-ptt", "glptt-", r"[\w-]{40}"),
    ("gitlab", ("gldt-", "glcbt-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-",
                "glffct-", "glwt-", "glrtr-"), r"[\w-]{20,}"),
    ("gitlab-runner-registration", "GR1348941", r"[\w-]{20,}"),
    ("bitbucket", "ATBB", r"[A-Za-z0-9_=.-]{28,}"),
    ("atlassian", "ATATT3", r"[\w=-]{100,}"),
    ("circleci", "CCIPAT_", r"\w{40,}"),
    ("buildkite", "bkua_", r"[0-9a-f]{40}"),
    ("sonarqube", ("squ_", "sqp_", "sqa_"), r"[0-9a-f]{40}"),
    ("pulumi", "pul-", r"[0-9a-f]{40}"),
    ("terraform-vault-service", ("hvs.", "hvb.", "hvr."), r"[\w-]{24,}"),
    ("doppler", ("dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."),
     r"[A-Za-z0-9]{40,}"),
    ("octopus-deploy", "API-", r"[A-Z0-9]{26}"),
    ("postman", "PMAK-", r"[0-9a-f]{24}-[0-9a-f]{34}"),
    ("prefect", "pnu_", r"[A-Za-z0-9]{36}"),
    ("infracost", "ico-", r"[A-Za-z0-9]{32}"),
    ("linear", "lin_api_", r"[A-Za-z0-9]{40}"),
    ("linear-oauth", "lin_oauth_", r"[0-9a-f]{64}"),
    ("figma", "figd_", r"[\w-]{40,}"),
    ("airtable", "pat", r"[A-Za-z0-9]{14}\.[0-9a-f]{64}"),
    ("readme", "rdme_", r"[a-z0-9]{70}"),
    ("contentful", "CFPAT-", r"[\w-]{43}"),
    ("frameio", "fio-u-", r"[\w=-]{64}"),
    ("typeform", "tfp_", r"[\w=-]{40,}"),
    ("intra42", ("s-s4t2ud-", "s-s4t2af-"), r"[0-9a-f]{64}"),
    ("harness", ("pat.", "sat."), r"[\w-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}"),
    ("settlemint", ("sm_aat_", "sm_pat_", "sm_sat_"), r"[A-Za-z0-9]{16}"),
    ("sourcegraph", "sgp_", r"(?:[0-9a-fA-F]{16}_|local_)?[0-9a-fA-F]{40}"),
    # Package registries
    ("npm", "npm_", r"[A-Za-z0-9]{36}"),
    ("pypi", "pypi-Ag", r"[\w-]{60,}"),
    ("rubygems", "rubygems_", r"[0-9a-f]{48}"),
    ("nuget", "oy2", r"[a-z0-9]{43}"),
    ("docker-hub", ("dckr_pat_", "dckr_oat_"), r"[\w-]{27,}"),
    ("clojars", "CLOJARS_", r"[A-Za-z0-9]{60}"),
    ("artifactory", "AKCp", r"[A-Za-z0-9]{69}"),
    ("artifactory-reference", "cmVmd", r"[A-Za-z0-9]{59}"),
    # Cloud and hosting
    ("aws-access-key-id", ("AKIA", "ASIA", "ABIA", "ACCA"), r"[A-Z0-9]{16}"),
    ("aws-access-key-id-a3t", "A3T", r"[A-Z0-9][A-Z0-9]{16}"),
    ("alibaba", "LTAI", r"[A-Za-z0-9]{20}"),
    ("digitalocean", ("dop_v1_", "doo_v1_", "dor_v1_"), r"[0-9a-f]{64}"),
    ("heroku", "HRKU-", r"[\w-]{40,}"),
    ("flyio", "fo1_", r"[\w-]{43}"),
    ("flyio-macaroon", ("fm1r_", "fm1a_", "fm2_"), r"[A-Za-z0-9+/]{100,}={0,3}"),
    ("netlify", "nfp_", r"[A-Za-z0-9]{36,}"),
    ("supabase", "sbp_", r"[0-9a-f]{40}"),
    ("supabase-secret", "sb_secret_", r"[\w-]{20,}"),
    ("render", "rnd_", r"[A-Za-z0-9]{32,}"),
    ("cloudflare-origin-ca", "v1.0-", r"[0-9a-f]{24}-[0-9a-f]{146}"),
    ("databricks", "dapi", r"[0-9a-f]{32}(?:-\d)?"),
    ("planetscale", ("pscale_tkn_", "pscale_oauth_", "pscale_pw_"), r"[\w=-]{32,}"),
    ("scalingo", "tk-us-", r"[\w-]{48}"),
    ("openshift", "sha256~", r"[\w-]{43}"),
    ("clickhouse", "4b1d", r"[A-Za-z0-9]{38}"),
    ("age", "AGE-SECRET-KEY-1", r"[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("1password-service-account", "ops_eyJ", r"[A-Za-z0-9+/]{100,}={0,3}"),
    ("1password-secret-key", "A3-", r"[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})"
                                   r"-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"),
    ("adobe", "p8e-", r"[A-Za-z0-9]{32}"),
    ("authress", ("sc_", "ext_", "scauth_", "authress_"),
     r"[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[\w+/=-]{30,120}"),
    ("yandex-api-key", "AQVN", r"[\w-]{35,38}"),
    ("dropbox-short-lived", "sl.", r"[\w=-]{130,}"),
    ("mapbox-secret", ("sk.eyJ", "tk.eyJ"), r"[\w-]{50,}\.[\w-]{20,}"),
    ("grafana-cloud", "glc_", r"[A-Za-z0-9+/]{32,}={0,3}"),
    ("grafana-service-account", "glsa_", r"[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    ("grafana-api-key", "eyJrIjoi", r"[A-Za-z0-9]{70,}={0,3}"),
    # Observability
    ("sentry-org", "sntrys_", r"[A-Za-z0-9+/=_]{60,}"),
    ("sentry-user", "sntryu_", r"[0-9a-f]{64}"),
    ("new-relic", ("NRAK-", "NRII-"), r"[A-Za-z0-9-]{27,32}"),
    ("new-relic-browser", "NRJS-", r"[0-9a-f]{19}"),
    ("dynatrace", "dt0c01.", r"[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"),
    # Payments and commerce
    ("stripe", ("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"),
     r"[A-Za-z0-9]{16,}"),
    ("stripe-webhook", "whsec_", r"[A-Za-z0-9+/=]{32,}"),
    ("elevenlabs", "sk_", r"[0-9a-f]{40,}"),
    ("shopify", ("shpat_", "shpca_", "shppa_", "shpss_"), r"[0-9a-fA-F]{32}"),
    ("square", "sq0atp-", r"[\w-]{22,}"),
    ("square-oauth-secret", "sq0csp-", r"[\w-]{43}"),
    ("square-access", "EAAA", r"[\w-]{60}"),
    ("braintree", ("access_token$production$", "access_token$sandbox$"),
     r"[0-9a-z]{16}\$[0-9a-f]{32}"),
    ("plaid", ("access-sandbox-", "access-development-", "access-production-"),
     r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    ("flutterwave", ("FLWSECK_TEST-", "FLWSECK-"), r"[0-9a-h]{12,32}(?:-X)?"),
    ("flutterwave-public", ("FLWPUBK_TEST-", "FLWPUBK-"), r"[0-9a-h]{12,32}(?:-X)?"),
    ("duffel", ("duffel_test_", "duffel_live_"), r"[\w=-]{43}"),
    ("easypost", ("EZAK", "EZTK"), r"[A-Za-z0-9]{54}"),
    ("shippo", ("shippo_live_", "shippo_test_"), r"[0-9a-f]{40}"),
    ("facebook-access-token", ("EAAC", "EAAM"), r"[A-Za-z0-9]{100,}"),
    # E-mail, SMS and chat
    ("sendgrid", "SG.", r"[\w-]{16,}\.[\w-]{20,}"),
    ("brevo", ("xkeysib-", "xsmtpsib-"), r"[0-9a-f]{64}-[A-Za-z0-9]{16}"),
    ("mailgun", "key-", r"[0-9a-f]{32}"),
    ("mailgun-public", "pubkey-", r"[0-9a-f]{32}"),
    ("mandrill", "md-", r"[\w-]{22}"),
    ("resend", "re_", r"[A-Za-z0-9]{8}_[A-Za-z0-9]{20,}"),
    ("twilio-api-key", "SK", r"[0-9a-f]{32}"),
    ("slack-config", ("xoxe.xoxp-", "xoxe.xoxb-"), r"[A-Za-z0-9-]{20,}"),
    ("slack", ("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe-"),
     r"[A-Za-z0-9-]{10,}"),
    ("slack-app", "xapp-", r"\d-[A-Za-z0-9-]{10,}"),
    # Generic encrypted tokens (Fernet) that upstream masks too
    ("fernet", "gAAAAA", r"[\w=-]{60,}"),
    # Structures with a fixed start
    ("jwt", "eyJ", r"[\w-]{8,}\.eyJ[\w-]{8,}(?:\.[\w-]*(?:\.[\w-]+\.[\w-]+)?)?"),
    ("twitter-bearer", "A" * 21, r"(?=[A-Za-z0-9%]{0,100}%)[A-Za-z0-9%]{80,101}"),
    ("vault-legacy", "s.", r"(?=[a-z0-9]*[A-Z])(?=[A-Za-z]*[0-9])[A-Za-z0-9]{24}"),
)

# (name, marks, pattern, reach): credentials recognised by their structure,
# not by a fixed prefix; tried only if the text holds one of the marks.  The
# pattern starts at a literal (re finds those fast) and looks behind it; the
# token starts *reach* characters before the match or, when reach is
# negative, at the start of the run of digits there.  Like the
# prefixed ones they stand alone; they are masked whole.
_SHAPE_RULES = (
    ("telegram-bot", (":A",), r":A(?<=[0-9]{5}:A)[\w-]{34}", -5),
    ("discord-bot", ("",), r"[MNO][\w-]{23,27}\.[\w-]{6}\.[\w-]{27,40}", 0),
    ("azure-ad-client-secret", ("Q~",), r"Q~(?<=[\w~.]{3}[0-9]Q~)[\w~.-]{31,34}", 4),
    ("mailchimp", ("-us",), r"-us(?<=[0-9a-f]{32}-us)[0-9]{1,2}", 32),
    ("terraform-cloud", (".atlasv1.",), r"\.atlasv1\.(?<=[A-Za-z0-9]{14}\.atlasv1\.)[\w=-]{60,70}",
     14),
    ("maxmind", ("_mmk",), r"_mmk(?<=[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)", 36),
    ("facebook-app-token", ("|", "%7C", "%7c"),
     r"[|%](?:(?<=[0-9]{15}\|)|7[Cc](?<=[0-9]{15}%7[Cc]))[\w-]{27,40}", -15),
    ("asana-pat", (":",), r":(?<=[12]/[0-9]{16}:)[A-Za-z0-9]{32}", 18),
)

# Words of a name (split at _ - . and camelCase) that make it a credential's
# name.  A strong name's value is masked whatever it looks like; a medium
# one's when the value looks random; a weak one's (a bare "key") when it looks
# random and is not a digest, commit id or UUID.
_STRONG_WORDS = frozenset((
    "password", "passwd", "passphrase", "pwd", "pass", "pw", "secret", "token", "apikey",
    "credential", "credentials", "creds", "auth", "bearer", "privatekey", "secretkey",
    "accesskey", "dsn"))
_KEY_QUALIFIERS = frozenset((
    "api", "secret", "private", "access", "signing", "encryption", "decryption", "master",
    "client", "app", "consumer", "license", "subscription", "account", "storage", "service",
    "admin", "auth", "webhook", "write", "deploy", "root", "shared", "session", "hmac", "jwt",
    "aes", "crypto", "cipher", "integration", "server", "sas", "sdk", "ingest", "ingestion",
    "management", "primary", "secondary", "user", "rest", "live", "test", "prod")) 
_MEDIUM_WORDS = frozenset(("session", "sessionid", "sessid", "sid", "cookie", "sig",
                           "signature", "salt", "otp", "totp"))
# gitleaks' provider rules without a distinctive token shape: a name with one
# of these words and a random-looking value.
_PROVIDER_WORDS = frozenset((
    "adafruit", "adobe", "airtable", "algolia", "alibaba", "anthropic", "asana", "assemblyai",
    "atlassian", "beamer", "bitbucket", "bittrex", "cloudant", "cloudflare", "codecov", "cohere",
    "coinbase", "confluence", "confluent", "contentful", "datadog", "deepgram", "deepseek",
    "discord", "droneci", "dropbox", "elevenlabs", "etsy", "facebook", "fastly", "finicity",
    "finnhub", "fireworks", "flickr", "freshbooks", "gitter", "gocardless", "groq", "heroku",
    "hubspot", "intercom", "jfrog", "artifactory", "bintray", "jira", "kraken", "kucoin",
    "launchdarkly", "linkedin", "mailchimp", "mailgun", "mapbox", "mattermost", "meraki",
    "messagebird", "mistral", "netlify", "newrelic", "nytimes", "okta", "openai", "openrouter",
    "pagerduty", "perplexity", "pinecone", "plaid", "postmark", "pusher", "rapidapi", "replicate",
    "sendbird", "sendgrid", "sentry", "snyk", "softlayer", "slapi", "sonar", "sourcegraph",
    "squarespace", "sumo", "sumologic", "telegram", "together", "travis", "twilio", "twitch",
    "twitter", "typeform", "vercel", "vonage", "nexmo", "yandex", "zendesk"))
# A name ending in one of these words names something about a credential,
# not the credential (token_url, password_file, max_tokens, key_id).
_NOT_SECRET_LAST = frozenset((
    "id", "ids", "name", "names", "type", "types", "url", "uri", "urls", "endpoint", "host",
    "hostname", "port", "path", "paths", "file", "files", "dir", "directory", "env", "var",
    "variable", "length", "len", "size", "count", "limit", "limits", "min", "max", "ttl",
    "expiry", "expires", "expiration", "timeout", "version", "format", "prefix", "suffix",
    "hint", "header", "field", "param", "policy", "rotation", "mode", "enabled", "required",
    "provider", "source", "store", "location", "label", "description", "help", "usage",
    "scope", "scopes", "algorithm", "alg", "method", "strategy", "kind", "reset", "changed",
    "updated", "created", "at", "age", "pattern", "regex", "hash", "digest", "checksum",
    "fingerprint", "release", "region", "project", "org", "user", "username", "email",
    "account", "domain", "site", "channel", "level", "index", "sock", "socket", "command",
    "cmd", "template", "in", "out", "used", "remaining", "budget", "rate", "window",
    "duration", "interval", "retries", "attempts", "status", "state", "valid", "error",
    "errors", "check", "test", "tests"))
# A name holding one of these words is not a credential (public_key,
# next_page_token, prompt_tokens, csrf_token).
_NOT_SECRET_WORDS = frozenset((
    "public", "pub", "publishable", "page", "cursor", "csrf", "xsrf", "continuation", "sync",
    "prompt", "completion", "input", "output", "cached", "reasoning", "total", "num",
    "tokens", "keys", "secrets", "passwords", "primary", "foreign", "sort", "partition",
    "cache", "idempotency", "dedup", "routing", "object", "bucket", "lookup", "hotkey",
    "keyboard", "keyword", "keywords", "monkey", "turkey", "jsonwebtoken", "non", "not"))
# Attributes of a Set-Cookie header: kept as they are.
_COOKIE_ATTRIBUTES = frozenset(("path", "domain", "expires", "max-age", "samesite", "secure",
                                "httponly", "priority", "partitioned", "version", "comment"))
# Authorization schemes whose credential is one token, and those with
# parameters (the rest of the header is masked).
_AUTH_SCHEMES = frozenset(("bearer", "basic", "token", "bot", "apikey", "api-key", "key", "jwt",
                           "sso-key", "otp", "dpop", "pat", "hmac", "ghost", "splunk",
                           "api-token"))
_AUTH_PARAM_SCHEMES = frozenset(("digest", "aws4-hmac-sha256", "signature", "oauth", "hoba",
                                 "mutual", "negotiate", "ntlm", "scram-sha-256", "scram-sha-1",
                                 "gnap", "vapid"))
# Words that, followed by a random-looking token, mark it as a secret
# ("token 9f8e7d...", "api key x7Gk...").  After a bare "key" a digest or
# UUID is not enough.
_ADJACENT_WORDS = frozenset(("password", "passwd", "passphrase", "pwd", "secret", "token",
                             "apikey", "api key", "api_key", "api-key", "credential", "cred",
                             "key"))
# Values that stand for a secret rather than being one.
_PLACEHOLDERS = frozenset((
    "true", "false", "null", "none", "nil", "undefined", "yes", "no", "on", "off", "required",
    "optional", "redacted", "hidden", "masked", "changeme", "changeit", "secret", "password",
    "token", "example", "xxx", "todo", "tbd", "n/a", "na", "empty", "unset", "default"))
# Parts of a value that mark it as a stand-in ("YOUR_TOKEN_HERE",
# "AKIA...EXAMPLE", "<insert-key>"), matched ignoring case.
_PLACEHOLDER_MARKS = (r"example|(?<![a-z])your[_-]|[_-]here(?![a-z])|placeholder|replace[_-]?me"
                      r"|(?<![a-z])insert[_-]")

# Characters that make up a token; a credential must not have one right
# before or after it (so nothing inside a longer base64 run matches).
_LEAD_CHARS = "A-Za-z0-9_+.~-"
_TAIL_CHARS = "A-Za-z0-9_+~-"
# Zero-width and control characters that can split a credential in two.
# (Not ESC: colour codes sit between words in logs.)
_SPLITTERS = "\u200b\u200c\u200d\u2060\ufeff\u00ad\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f"
# Credentials published as examples (kept as they are): the API keys in
# firebase-android-sdk's samples and tests, the passwords of NuGet's
# nuget.config documentation.  (AWS's documented keys say EXAMPLE.)
_PUBLISHED_EXAMPLES = frozenset((
    "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
    "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs", "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
    "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU", "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
    "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A", "AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c",
    "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4", "AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY",
    "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM", "AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ",
    "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g", "AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU",
    "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw", "AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE",
    "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY", "33f!!lloppa", "hal+9ooo_da!sY"))
_STAND_IN_CHARS = frozenset("xX*0.-_#<>")  # a token body of only these stands in for one
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-$")
_KNOWN_SECRETS = ()  # longest first; replaced whole, so redact() needs no lock
_KNOWN_MIN = 8  # shorter configured values ("1", "true") are not masked everywhere
# How far past a match's start the keyword scan may look (a value is up to
# 4096 characters long); repeats of an assignment inside a periodic run at
# least this far from its end match alike.
_KEYWORD_REACH = 4400
_REDACTOR, _REDACTOR_LOCK = None, _thread.allocate_lock()


# =============================================================================
# 11. Redaction
#    Masks every known credential shape and configured secret in linear
#    passes; the prompt scanner's rules follow it.
# =============================================================================

def _hint(prefix):
    """The part of a vendor prefix kept in the masked form: at most 7 characters.

    A longer prefix is cut after its last ``-``, ``_`` or ``.`` within the
    first 7 characters, so no 8 characters of a credential survive.
    """
    if len(prefix) <= 7:
        return prefix
    cut = max(prefix.rfind(c, 0, 7) for c in "-_.")
    return prefix[:cut + 1] if cut > 0 else ""


def _periodic_end(text, at, period):
    """The first index from *at* on whose character differs from the one *period* before."""
    step = 64
    while at < len(text):
        step = min(step, len(text) - at)
        if text[at:at + step] == text[at - period:at - period + step]:
            at, step = at + step, step * 2
        elif step == 1:
            break
        else:
            step //= 2
    return at


def _apply_edits(text, edits):
    """*text* with the (begin, end, replacement) *edits* made; overlaps keep the first."""
    if not edits:
        return text
    parts, last = [], 0
    for begin, end, mask in sorted(edits):
        if begin >= last:
            parts += [text[last:begin], mask]
            last = end
    parts.append(text[last:])
    return "".join(parts)


def _entropy(text):
    """Shannon entropy of *text* in bits per character."""
    import math

    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in (text.count(ch) for ch in set(text)))


def _prefix_alternation(bodies):
    """One regex alternation of *bodies* ({prefix: body regex}) with prefixes shared.

    Prefixes form a trie so every branch starts with a distinct literal
    character, which re rejects without entering the branch: a run of one
    first letter ("sss...", "x=x=...") then costs one test per character
    instead of one per rule.  A longer prefix is tried before a shorter one
    it extends (sk-ant- before sk-), as the rules' order requires.
    """
    import re

    children = {}
    for prefix, body in bodies.items():
        children.setdefault(prefix[0], {})[prefix[1:]] = body
    parts = []
    for first, rest in children.items():
        own = rest.pop("", None)
        branches = [_prefix_alternation(rest)] if rest else []
        if own is not None:
            branches.append(own)  # after the longer prefixes that extend this one
        inner = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        parts.append(re.escape(first) + inner)
    return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"


class _Redactor:
    """The compiled rules of redact(); built once, on first use."""

    @property
    def escaped_token_re(self):
        """A token right after an escape (``\\n`` in JSON text)."""
        if "_escaped_token_re" not in self.__dict__:
            import re

            self._escaped_token_re = re.compile(
                rf"\\[nrt](?=[\w+/.~=%$-]{{14}})(?:{self._alternatives}){self._tail}")
        return self._escaped_token_re

    @property
    def token_start(self):
        """A vendor prefix and its body at a position, ending anywhere."""
        if "_token_start" not in self.__dict__:
            import re

            self._token_start = re.compile(f"(?:{self._alternatives})")
        return self._token_start

    def __init__(self):
        import re

        self.tokens, bodies = {}, {}
        rules = [(name, p, body) for name, prefixes, body in _TOKEN_RULES
                 for p in ((prefixes,) if isinstance(prefixes, str) else prefixes)]
        for index, (_, prefix, body) in enumerate(sorted(rules, key=lambda r: -len(r[1]))):
            group = f"t{index}"
            self.tokens[group] = (prefix, _hint(prefix))
            bodies[prefix] = f"(?P<{group}>{body})"
        alternatives = _prefix_alternation(bodies)
        tail = rf"(?![{_TAIL_CHARS}])"
        # A token stands alone: no token character right before or after it.
        # The lookahead skips short words before the alternation is tried.
        self.token_re = re.compile(rf"(?<![{_LEAD_CHARS}])(?=[\w+/.~=%$-]{{14}})"
                                   rf"(?:{alternatives}){tail}")
        # Each pattern over the whole alternation costs about 11 ms to compile,
        # and a process that redacts one run's output needs only the first: the
        # other two are compiled when a text first needs them.
        self._alternatives, self._tail = alternatives, tail
        self.shapes = [(marks, re.compile(pattern + tail), reach)
                       for _, marks, pattern, reach in _SHAPE_RULES]
        # Run on the lower-cased text: a credential word in a name followed by
        # an assignment (=, :, =>, :=, Makefile ?= ::= :::=, PHP .=, Go's
        # "var x string =", and a comma after a quoted name as in
        # setProperty("X_TOKEN", "...")), or a strong word followed by a long
        # token ("token 9f8e...", "Bearer abc...").  The rest of the name is
        # taken whole (a lookahead and a backreference make it atomic) and
        # every quantifier is bounded, so runs of key characters cost linear time.
        self.keyword_re = re.compile(
            r"(?:password|passwd|passphrase|pass|pwd|pw|secret|token|apikey|api[ _-]key|key|auth"
            r"|credential|cred|session|cookie|sig|bearer)"
            r"(?:(?=(?P<n>[a-z0-9_.\-]{0,40}))(?P=n)(?P<q>\\?[\"'])?(?:[ \t]{1,3}str(?:ing)?\b)?"
            r"[ \t]{0,16}(?P<op>=>|:::=|::=|:=|\?=|\.=|=|:(?![/:])|>|(?(q),|(?!)))[ \t]{0,16}"
            r"(?P<v>\"(?:[^\"\\\n]|\\.){0,4096}\"|'[^'\n]{0,4096}'|`[^`\n]{0,4096}`"
            r"|[^\s\"'`,;<>(){}\[\]|]{1,4096})?"
            r"|(?P<adj>s?[ \t]+(?:(?:is|are|was|were)[ \t]+)?)(?=[\"'`]?[a-z0-9+/_.=~-]{12}))")
        self.name_run = re.compile(r"[a-z0-9_.$\-]{0,64}")
        self.quoted = re.compile(r"\"((?:[^\"\\\n]|\\.){0,4096})\"|'([^'\n]{0,4096})'")
        self.escaped = re.compile(r"\\\"((?:[^\"\\\n]|\\[^\"]){0,4096})\\\"")
        self.braced = re.compile(r"\{([^}\n]{0,4096})\}")
        self.bare = re.compile(r"[^\s\"'`,;<>(){}\[\]|]{1,4096}")
        self.flag_re = re.compile(r"--(?P<n>[a-z][a-z0-9_-]{1,40})[ \t]+(?=[^\s-])")
        # mysql -pSECRET (attached: "-p x" prompts), sshpass -p x, redis-cli -a x,
        # docker login -p x.  The greedy lookahead (re skips to the "-") rules
        # out most command words without the slower lazy scan.
        self.client_re = re.compile(
            r"\b(?:(?:sshpass|redis-cli|(?:docker|podman|buildah|skopeo|helm registry|oras) login)"
            r"\b(?=[^\n]{0,129}-[pa])[^\n]{0,128}?[ \t]-[pa][ \t]*"
            r"|(?:mysql\w*|mariadb[\w-]*)\b(?=[^\n]{0,129}-p)[^\n]{0,128}?[ \t]-p)"
            r"(?P<v>[^\s'\"]{1,256}|'[^'\n]{1,256}'|\"[^\"\n]{1,256}\")")
        self.scheme = re.compile(r"([A-Za-z][\w.+-]{0,30})[ \t]+(?=[^\s\"'])")
        self.cred = re.compile(r"[^\s\"',;]{1,4096}")
        self.line_rest = re.compile(r"[^\r\n]{1,4096}")
        self.quoted_rest = re.compile(r"[^\r\n\"]{1,4096}")
        self.squoted_rest = re.compile(r"[^\r\n']{1,4096}")
        self.query_param = re.compile(r"&([^&=\s#]{1,64})=([^&\s#]*)")
        self.cookie_pair = re.compile(r"([^=;,\s]{1,256})=([^;\r\n\"']{0,4096})")
        self.pem_re = re.compile(
            r"----[- ]?BEGIN[ A-Z0-9_-]{0,60}(?:PRIVATE|SECRET) KEY(?: BLOCK)?[ -]{0,2}-{3}[\s\S]*?"
            r"(?:----[- ]?END[ A-Z0-9_-]{0,60}(?:PRIVATE|SECRET) KEY(?: BLOCK)?[ -]{0,2}-{3}|\Z)")
        self.putty_re = re.compile(r"(Private-Lines: *\d+\r?\n)(?:[A-Za-z0-9+/=]{1,128}\r?\n?)+")
        # Userinfo is tried only if _url could mask it (a password after its
        # first colon, or 16+ characters): "://a@" repeated then costs no call.
        self.url_re = re.compile(
            r"://(?:(?=[^\s/?#@\"'<>]{16}|[^\s/?#@\"'<>:]{0,254}:[^\s/?#@\"'<>])"
            r"(?P<ui>[^\s/?#@\"'<>]{1,256})@"
            r"|(?P<hook>hooks\.slack\.com/(?:services|workflows|triggers)/"
            r"|(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/(?:v\d+/)?webhooks/"
            r"|[\w-]+\.webhook\.office\.com/webhookb2/|outlook\.office(?:365)?\.com/webhook/"
            r"|hooks\.zapier\.com/hooks/catch/|maker\.ifttt\.com/(?:trigger/[\w-]+/(?:json/)?with/"
            r"key/|use/)|api\.telegram\.org/(?:file/)?bot)(?P<path>[^\s?#\"'<>]{1,1024})"
            r"|(?P<any>[\w.-]{1,256}(?::\d{1,5})?/(?:[\w.~%-]{1,256}/){0,16}?(?:hooks|webhooks?)/)"
            r"(?P<rest>[^\s?#\"'<>]{1,1024}))")
        self.split_re = re.compile(rf"(?<=[A-Za-z0-9_+/=.-])[{_SPLITTERS}]+(?=[A-Za-z0-9_+/=.-])")
        self.has_split = re.compile(rf"[{_SPLITTERS}]")
        self.words = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
        self.plain_words = re.compile(r"[A-Za-z]+(?:[_.\-][A-Za-z]+)*")
        self.identifier = re.compile(r"[a-z]+(?:[_.\-][a-z]+)+|[A-Z]+(?:[_.\-][A-Z]+)+")
        self.hex_id = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                                 r"[0-9a-fA-F]{12}|[0-9a-fA-F]+")
        # Digests (sha256:..., sha512-...), dates, versions, dotted names.
        self.not_random = re.compile(r"(?i:sha\d*|md5|blake\w*)[:=~-].*|[\d.:TZ+-]+"
                                     r"|v?\d+(?:\.\d+)+\S*|[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+")
        self.placeholder = re.compile(r"\$\w+|\$\{[^{}\n]*\}|\$\(.*\)|%\w+%|<[^<>]*>|\{\{.*\}\}"
                                      r"|\{[\w.-]+\}|\*+|x+|X+|\.\.\.+|\u2026")
        # Stand-ins: a run of x, # or *, a name in capitals (ACCESS_TOKEN),
        # words of a camelCase identifier; see _filler and _wordy.
        self.marks = re.compile(_PLACEHOLDER_MARKS, re.IGNORECASE)
        self.filler_run = re.compile(r"([xX#*])\1{4,}")
        self.repeat_run = re.compile(r"(.)\1+")
        self.run_of_four = re.compile(r"(.)\1{3}")
        self.three_digits = re.compile(r"\d[^\d]*\d[^\d]*\d")
        self.consonants = re.compile(r"[b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]{5}")
        self.upper_name = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
        self.camel = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
        self.camel_name = re.compile(r"(?:[A-Z][a-z]+){2,}")
        self.element_value = re.compile(r"<([a-z0-9_.:-]{1,64})>[ \t]{0,64}\r?\n[ \t]{0,64}"
                                        r"([^\s<>]{1,4096})\s{0,64}</\1>")
        # curl -u user:password (either half may be quoted), after a blank.
        self.curl_user = re.compile(r"(?<![^\s])(?:-u|--user)(?:=|[ \t]{1,5})(\S{1,512})")
        # Bundler's credentials for a gem host: BUNDLE_GEMS__EXAMPLE__COM=user:password.
        self.bundle_re = re.compile(r"\bbundle_(?=(?P<n>[a-z0-9_]{1,64}))(?P=n)[\"']?[ \t]{0,16}"
                                    r"[:=][ \t]{0,16}[\"']?(?P<v>[^\s\"']{1,512})")
        # A Kubernetes Secret's data: block and its entries (on the lower-cased text).
        self.doc_sep = re.compile(r"^---[ \t]*$", re.M)
        self.kube_kind = re.compile(r"\bkind:[ \t]*[\"']?secret\b[\"']?")
        # The block: the lines indented deeper than its header, and blank or comment lines.
        self.kube_data = re.compile(r"^([ \t]*)(?:data|stringdata):[ \t]*\r?\n"
                                    r"((?:(?:\1[ \t]+\S[^\n]*|[ \t]*(?:#[^\n]*)?)(?:\n|\Z))*)",
                                    re.M)
        self.kube_entry = re.compile(r"^[ \t]+[\w.-]{1,256}:[ \t]*([\"']?)([^\s\"'#]{1,4096})\1"
                                     r"[ \t]*\r?$", re.M)
        # <add key="ClearTextPassword" value="..." /> (NuGet, .NET appSettings).
        self.key_value_attr = re.compile(r"\bkey=([\"'])([^\"'\n]{1,64})\1[ \t]{1,16}value=([\"'])"
                                         r"([^\"'\n]{0,4096})\3")
        self.kinds, self.masked, self.stand_ins = {}, {}, {}

    # -- deciding ---------------------------------------------------------------

    def kind(self, name):
        """How strongly *name* says its value is a credential: 0 (not) to 3 (strong).

        Authorization and cookie headers are "authorization" and "cookie".
        """
        found = self.kinds.get(name)
        if found is None:
            if len(self.kinds) > 4096:
                self.kinds.clear()
            lowered = name.lower().lstrip("-$")
            found = self.kinds[name] = (
                "authorization" if lowered.endswith("authorization") else
                "cookie" if lowered.endswith("cookie") else self._kind(name))
        return found

    def _kind(self, name):
        words = [w.lower() for w in self.words.findall(name) if not w.isdigit()]
        if not words or any(w in _NOT_SECRET_WORDS for w in words):
            return 0
        last = words[-1]
        if last == "id" and len(words) > 1 and words[-2] in ("session", "sess"):
            return 2
        if last in _NOT_SECRET_LAST:
            return 0
        if any(w in _STRONG_WORDS or w.endswith(("password", "passwd", "secret", "token",
                                                   "apikey", "privatekey", "secretkey",
                                                   "accesskey"))
               for w in words):
            return 3
        if any(w == "key" and words[i - 1] in _KEY_QUALIFIERS for i, w in enumerate(words) if i):
            return 3
        if any(w in _MEDIUM_WORDS or w.endswith(("sessid", "sessionid")) or w in _PROVIDER_WORDS
               for w in words):
            return 2
        return 1 if last.endswith("key") else 0

    def random_looking(self, value, hex_ok):
        """True if *value* looks generated rather than like a word, a date or a digest.

        Hex runs and UUIDs (commit ids, hashes, request ids) count only when
        *hex_ok*: the name around them already says they are secret.
        """
        if not 16 <= len(value) <= 4096 or not any(c.isdigit() for c in value) \
                or not any(c.isalpha() for c in value) or any(c.isspace() for c in value):
            return False
        if self.hex_id.fullmatch(value):
            return hex_ok and not self._filler(value)
        return not self.not_random.fullmatch(value) and _entropy(value) >= 3.0 \
            and not self._filler(value)

    def _filler(self, value):
        """True for a stand-in: a run of five or more x, # or *, or a mark such as
        EXAMPLE or YOUR_ (AWS's documented ``AKIAIOSFODNN7EXAMPLE`` is one)."""
        return bool(self.filler_run.search(value) or self.marks.search(value))

    def _wordy(self, body):
        """True for the words of an identifier (``requiredCharacteristicTypes...``), not a token.

        Three or more words of five letters on average, no five consonants in
        a row, at most two digits.
        """
        if len(body) > 256 or self.three_digits.search(body) or self.consonants.search(body):
            return False
        words = self.camel.findall(body)
        letters = len("".join(words))
        return len(words) >= 3 and letters >= 12 and letters >= 5 * len(words)

    def _stand_in(self, value):
        """True if *value* stands for a secret rather than being one."""
        found = self.stand_ins.get(value)
        if found is None:
            if len(self.stand_ins) > 4096:
                self.stand_ins.clear()
            found = self._decide_stand_in(value)
            if len(value) <= 256:  # a repeated value is decided once
                self.stand_ins[value] = found
        return found

    def _decide_stand_in(self, value):
        """_stand_in without the memo."""
        if len(value) < 3 or "***" in value or value.lower() in _PLACEHOLDERS \
                or self.placeholder.fullmatch(value) or value.endswith(("..", "\u2026")) \
                or value.startswith(("$(", "${", "<")) or self._filler(value):
            return True
        if len(value) >= 8 and len(set(value)) < 3 or value in _PUBLISHED_EXAMPLES:
            return True  # "aaaaaaaa", a key published as an example
        if self.upper_name.fullmatch(value) and any(
                part in ("TOKEN", "KEY", "SECRET", "PASSWORD", "PASS", "PWD")
                for part in value.split("_")):
            return True  # a variable's name: access_token=ACCESS_TOKEN
        prefixed = self.token_start.match(value)
        if not prefixed:
            return False
        body = prefixed.group(prefixed.lastgroup)  # a vendor prefix before a stand-in
        return set(body) <= _STAND_IN_CHARS or bool(self.identifier.fullmatch(body)) \
            or self._filler(body) or self._wordy(body) or self._repeating(body)

    def secret_value(self, kind, value, tight):
        """True if *value*, assigned to a name of *kind*, is to be masked."""
        if "://" in value or value.startswith(("/", "~/", "./", "../")) or self._stand_in(value):
            return False
        if value.endswith(":") or value.rstrip().endswith(" ="):
            return False  # a label, or a quote closed early: "telegram_api_token = "
        if kind == 3:
            if value.isdigit():
                return len(value) >= 4
            if self.plain_words.fullmatch(value):
                return tight and len(value) >= 4 or self._mixed_case(value)
            return True
        if self.token_start.match(value):
            return False  # the token pass masks it keeping its prefix
        return self.random_looking(value, hex_ok=kind == 2)

    # -- masking ----------------------------------------------------------------

    def redact(self, text):
        """Mask *text*; a credential split by zero-width or control characters too."""
        if self.has_split.search(text):
            joined = self.split_re.sub("", text)
            if joined != text:
                masked = self._redact(joined)
                if masked != joined:
                    return masked
        return self._redact(text)

    def _redact(self, text):
        for value in _KNOWN_SECRETS:
            if value in text:
                text = text.replace(value, "***")
        text = _mask_spread_secrets(text)
        if "KEY" in text:
            text = self.pem_re.sub("[REDACTED PRIVATE KEY]", text)
        if "Private-Lines" in text:
            text = self.putty_re.sub(r"\1***\n", text)
        text = self._assignments(text)
        if "://" in text:
            text = self.url_re.sub(self._url, text)
        text = self.token_re.sub(self._token, text)
        if "\\" in text:
            text = self.escaped_token_re.sub(self._token, text)
        for marks, pattern, reach in self.shapes:
            if any(mark in text for mark in marks):
                text = self._shapes(text, pattern, reach)
        return text

    def _token(self, match):
        if match.string.startswith(("#", "*"), match.end()):
            return match.group()  # a token cut short and masked: "xoxp-123-####"
        found = match.group()
        masked = self.masked.get(found)  # a repeated token is decided once
        if masked is None:
            if len(self.masked) > 4096:
                self.masked.clear()
            group = match.lastgroup
            prefix, hint = self.tokens[group]
            begin = match.start(group) - len(prefix) - match.start()  # the group holds the body
            plain = self._plain(match.group(group)) or found[begin:] in _PUBLISHED_EXAMPLES
            masked = self.masked[found] = found if plain else found[:begin] + hint + "***"
        return masked

    def _shapes(self, text, pattern, reach):
        """Mask the matches of one structural rule (see _SHAPE_RULES)."""
        edits = []
        for match in pattern.finditer(text):
            begin = match.start() - abs(reach)
            floor = match.start() + reach - 11  # at most 16 digits in all
            while reach < 0 and begin > floor and text[begin - 1:begin].isdigit():
                begin -= 1
            if not (begin and (text[begin - 1].isalnum() or text[begin - 1] in "_+.~-")) \
                    and not self._plain(text[begin:match.end()]):
                edits.append((begin, match.end(), "***"))
        return _apply_edits(text, edits)

    def _plain(self, body):
        """True for placeholders (ghp_xxxx...) and identifiers (sk-learn-..., hf_required...)."""
        chars = set(body)
        return len(chars) < 3 or chars <= _STAND_IN_CHARS \
            or bool(self.identifier.fullmatch(body)) or self._filler(body) or self._wordy(body) \
            or self._repeating(body)

    def _repeating(self, body):
        """True if 3/4 of *body* repeat the character before (``5555555dAAAAA7777777``).

        Bodies over 256 characters are not stand-ins (and not worth the count).
        """
        size = len(body)
        return 8 <= size <= 256 and self.run_of_four.search(body) is not None and \
            4 * sum(len(m.group()) - 1 for m in self.repeat_run.finditer(body)) >= 3 * size

    def _mixed_case(self, value):
        """True for letters in random case (``suYoXmiNQWhasI``), not words or a camelCase name."""
        words = self.camel.findall(value)
        return len(value) >= 10 and not value.islower() and not value.isupper() \
            and len(value) < 3 * len(words)

    def _url(self, match):
        userinfo = match.group("ui")
        if userinfo is not None:
            user, colon, password = userinfo.partition(":")
            if colon:
                return match.group() if not password or "***" in password else f"://{user}:***@"
            if "***" in userinfo or self.token_start.match(userinfo) \
                    or not self.random_looking(userinfo, hex_ok=True):
                return match.group()
            return "://***@"
        if match.group("hook"):
            path = match.group("path")
            if self._filler(path):
                return match.group()  # hooks.slack.com/services/Txxxxxxxx/Bxxxxxxxx/xxxx
            if match.group("hook").endswith("bot"):  # Telegram: bot<token>/method
                head, slash, tail = path.partition("/")
                return f"://{match.group('hook')}***{slash}{tail}"
            return f"://{match.group('hook')}***"
        rest = match.group("rest")
        if any(self.random_looking(part, hex_ok=True) for part in rest.split("/")):
            return f"://{match.group('any')}***"
        return match.group()

    def _assignments(self, text):
        """Mask the values of credential names: env, JSON, YAML, INI, XML, headers, flags."""
        low = text.lower()
        if len(low) != len(text):  # a few characters lower-case to two
            low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
        edits, done, rev, size, name_chars = [], 0, None, len(low), _NAME_CHARS
        # A repeated assignment costs one decision (see _replayable): *seen*
        # maps (length, the name and match and a character either side) to
        # its masks, *last* is the previous match's (key, start of its
        # keyword) when it was one of them and *run* the (period, end) of the
        # periodic text last measured.
        seen, last, run = {}, None, (0, 0)
        for match in self.keyword_re.finditer(low):
            begin = match.start()
            if begin < done:
                continue
            _, _, op, value, adjacent = match.groups()
            if adjacent is not None:
                done, last = self._adjacent(text, match, edits), None
                continue
            start, first_edit, key, previous, last = begin, len(edits), None, last, None
            if begin and low[begin - 1] in name_chars:  # the name starts further left
                if rev is None:
                    rev = low[::-1]
                at = size - begin
                start -= self.name_run.match(rev, at).end() - at
            if start:
                key = (match.end() - start, text[start - 1:match.end() + 1])
                masks = seen.get(key)
                if masks is not None:
                    times, period = 1, 0
                    if previous is not None and previous[0] == key:  # text repeating itself
                        period = begin - previous[1]
                        if run[0] != period or run[1] <= begin:
                            # From the furthest a name reaches left (64 characters).
                            run = (period, _periodic_end(text, max(period, begin - 66), period))
                        # Repeats whose whole reach lies inside the run match alike.
                        times = max(1, (run[1] - _KEYWORD_REACH - begin) // period - 1)
                    if masks:
                        edits += [(start + i * period + b, start + i * period + e, mask)
                                  for i in range(times) for b, e, mask in masks]
                    begin += (times - 1) * period
                    done, last = match.end() + (times - 1) * period, (key, begin)
                    continue
            name_end = match.end(1)
            kind = self.kind(text[start:name_end])
            if op == ">" and not text.startswith("<", start - 1):
                kind = 0  # only <password>...</password> is an assignment
            if not kind:
                done = name_end
            elif kind == "authorization":
                done = self._authorization(text, match.end(3), edits)
            elif kind == "cookie" and op == ":":
                done = self._cookies(text, match.end(3), edits)
            elif value is not None and value[0] != "{" and value != "\\":
                begin, done = match.span(4)
                end = done
                quoted = value[0] in "\"'`"
                if quoted:
                    begin, end, value = begin + 1, end - 1, text[begin + 1:end - 1]
                    if text[end] == "`" and (" " in value or "$(" in value):
                        value = ""  # a shell command's output, not a Go raw string
                else:
                    value = text[begin:end]
                    if start and text[start - 1] in "?&":  # in a URL query & ends the value
                        amp = value.find("&")
                        if amp >= 0:
                            self._query(text, begin + amp, end, edits)
                            end, value = begin + amp, value[:amp]
                tight = op == "=" and name_end == match.start(3) and begin == match.end(3)
                if self.secret_value(kind if kind != "cookie" else 2, value, tight or quoted):
                    edits.append((begin, end, "***"))
            else:
                done = self._value(text, match.end(3), kind if kind != "cookie" else 2, op == "=",
                                   edits)
            if key is not None and self._replayable(text, match, kind, op):
                seen[key] = [(b - start, e - start, mask) for b, e, mask in edits[first_edit:]]
                last = (key, match.start())
        if "--" in low:
            done = 0
            for match in self.flag_re.finditer(low):
                if match.start() >= done and (match.start() == 0 or low[match.start() - 1] in
                                              " \t\n\"'"):
                    kind = self.kind(match.group("n"))
                    if kind and not self.token_start.match(text, match.end()):
                        done = self._value(text, match.end(), kind, True, edits)
        if any(word in low for word in ("mysql", "mariadb", "sshpass", "redis-cli", " login")):
            for match in self.client_re.finditer(text):
                value = match.group("v").strip("'\"")
                if self.secret_value(3, value, True):
                    edits.append((match.start("v"), match.end("v"), "***"))
        if "curl" in low:
            for match in self.curl_user.finditer(text):
                self._curl_user(text, match.start(1), match.end(1), edits)
        if "bundle_" in low:
            for match in self.bundle_re.finditer(low):
                value = text[match.start("v"):match.end("v")]
                if "__" in match.group("n") and not value.endswith(":") \
                        and not self._stand_in(value):
                    edits.append((match.start("v"), match.end("v"), "***"))
        if "value=" in low:
            for match in self.key_value_attr.finditer(low):
                kind = self.kind(text[match.start(2):match.end(2)])
                if kind and kind not in ("authorization", "cookie") and self.secret_value(
                        kind, text[match.start(4):match.end(4)], True):
                    edits.append((match.start(4), match.end(4), "***"))
        if "data:" in low and "secret" in low:
            self._kube_secret(text, low, edits)
        if ">\n" in text or ">\r\n" in text:  # <apiToken>, the value on its own line, </apiToken>
            for match in self.element_value.finditer(low):
                if match.end(2) - match.start(2) < 3:
                    continue  # too short to be masked
                kind = self.kind(text[match.start(1):match.end(1)])
                if kind and kind not in ("authorization", "cookie") and self.secret_value(
                        kind, text[match.start(2):match.end(2)], True):
                    edits.append((match.start(2), match.end(2), "***"))
        return _apply_edits(text, edits)

    def _curl_user(self, text, begin, end, edits):
        """Mask the password of curl's ``-u user:password`` (the user if it is all there is)."""
        if end - begin < 4 or text[begin] == "<":
            return  # "a:b" is too short to hold a password worth masking; <user:password>
        if text[begin] in "\"'" and text.count(text[begin], begin, end) == 2 \
                and text[end - 1] == text[begin]:
            begin, end = begin + 1, end - 1  # "user:password" quoted whole
        colon = text.find(":", begin, end)
        if colon >= 0 and ('"' in text[begin:colon] or "'" in text[begin:colon]):
            quote, colon = "", -1  # "user":"password": the first colon outside quotes
            for at in range(begin, end):
                if text[at] in "\"'":
                    quote = "" if quote == text[at] else quote or text[at]
                elif text[at] == ":" and not quote:
                    colon = at
                    break
        if colon < 0:
            return
        first, last = colon + 1, end
        if last - first >= 2 and text[first] in "\"'" and text[last - 1] == text[first]:
            first, last = first + 1, last - 1
        if first == last:  # "token:" - the user part is the secret
            first, last = begin, colon
            if last - first >= 2 and text[first] in "\"'" and text[last - 1] == text[first]:
                first, last = first + 1, last - 1
        value = text[first:last]
        if value.startswith(("$", "[", "{{", "<")) or value in ("pass", "pwd", "test") \
                or not self.secret_value(3, value, True):
            return  # common stand-ins: user:pass, $USER:$PASS, <user:password>
        edits.append((first, last, "***"))

    def _kube_secret(self, text, low, edits):
        """Mask the entries under ``data:``/``stringData:`` of a Kubernetes Secret document."""
        starts = [0] + [m.end() for m in self.doc_sep.finditer(low)] + [len(low)]
        for doc_start, doc_end in zip(starts, starts[1:]):
            if not self.kube_kind.search(low, doc_start, doc_end):
                continue
            for block in self.kube_data.finditer(low, doc_start, doc_end):
                for entry in self.kube_entry.finditer(low, block.start(2), block.end(2)):
                    value = text[entry.start(2):entry.end(2)]
                    if len(value) >= 10 and not self._stand_in(value):
                        edits.append((entry.start(2), entry.end(2), "***"))

    @staticmethod
    def _replayable(text, match, kind, op):
        """True if handling the assignment *match* read no text past the character after it.

        An identical match between the same two characters is then handled
        the same way, so _assignments replays its masks instead; it also
        ends no further than the match, so what follows it is scanned alike.
        """
        if not kind:
            return True
        if kind == "authorization" or kind == "cookie" and op == ":":
            return False  # the header's value runs to the end of the line
        value = match.group("v")
        if value is not None and value[0] != "{" and value != "\\":
            return True
        # _value looks on only past blanks, quotes, escapes and (after =) braces.
        after = text[match.end():match.end() + 1]
        return after not in (" ", "\t", '"', "'", "\\") and (after != "{" or op != "=")

    def _query(self, text, begin, end, edits):
        """Mask the credential parameters of the query string ``&a=b&c=d`` in [begin, end)."""
        for param in self.query_param.finditer(text, begin, end):
            kind = self.kind(param.group(1))
            if kind and kind != "authorization" and self.secret_value(
                    kind if kind != "cookie" else 2, param.group(2), True):
                edits.append((param.start(2), param.end(2), "***"))

    def _value(self, text, at, kind, tight, edits):
        """Mask the value starting at *at* if it is a secret; return its end."""
        while text.startswith((" ", "\t"), at):
            at += 1
        found = (self.escaped.match(text, at) if text.startswith('\\"', at) else
                 self.quoted.match(text, at) if text.startswith(('"', "'"), at) else
                 self.braced.match(text, at) if text.startswith("{", at) and tight else
                 self.bare.match(text, at))
        if found is None:
            return at
        quoted = found.lastindex is not None
        begin, end = (found.span(found.lastindex) if quoted else found.span())
        value = text[begin:end]
        if text[at] == "{" and self.camel_name.fullmatch(value):
            return found.end()  # {SumoAccessKey}: a template's name
        if self.secret_value(kind, value, tight or quoted):
            edits.append((begin, end, "***"))
        return found.end()

    def _adjacent(self, text, match, edits):
        """Handle a credential word followed by a token: ``token 9f8e...``, ``Bearer x``."""
        at = match.end()
        if text.startswith(("'", '"', "`"), at):
            at += 1
        found = self.cred.match(text, at)
        if found is None:
            return at
        value = found.group()
        word = match.string[match.start():match.start("adj")]
        if word == "bearer":
            secret = (len(value) >= 20 or any(c.isdigit() for c in value)) \
                and not self._stand_in(value)
        else:
            secret = word in _ADJACENT_WORDS and not self.token_start.match(value) \
                and self.random_looking(value, hex_ok=word != "key")
        if secret:
            edits.append((found.start(), found.end(), "***"))
        return found.end()

    def _authorization(self, text, at, edits):
        """Mask an Authorization header's credentials, keeping the scheme word."""
        while text.startswith((" ", "\t"), at):
            at += 1
        quote = text[at] if text.startswith(('"', "'"), at) else ""
        at += len(quote)
        scheme = self.scheme.match(text, at)
        word = scheme.group(1).lower() if scheme else ""
        if word in _AUTH_PARAM_SCHEMES:
            found = (self.quoted_rest if quote == '"' else self.squoted_rest if quote else
                     self.line_rest).match(text, scheme.end())
        else:
            if word not in _AUTH_SCHEMES:
                scheme = None
            found = self.cred.match(text, scheme.end() if scheme else at)
        if found is None:
            return at
        value = found.group().rstrip()
        stand_in = value.startswith(("$", "<", "{", "[", "%", "..")) or self._stand_in(value)
        if not stand_in and (scheme or not self.plain_words.fullmatch(value)):
            edits.append((found.start(), found.start() + len(value), "***"))
        return found.end()

    def _cookies(self, text, at, edits):
        """Mask every cookie value of a Cookie or Set-Cookie header."""
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        for pair in self.cookie_pair.finditer(text, at, min(end, at + 8192)):
            value = pair.group(2).strip()
            if pair.group(1).lower() not in _COOKIE_ATTRIBUTES and value and "***" not in value \
                    and not self.token_start.match(value):
                edits.append((pair.start(2), pair.start(2) + len(pair.group(2).rstrip()), "***"))
        return end


def _utf8_ok(text):
    """True unless *text* holds lone surrogates (undecodable bytes in argv, say)."""
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


# The configured values registered so far (their encoded forms are in _KNOWN_SECRETS),
# and, built on first need, what finds one spread over lines or spaced out.
_KNOWN_VALUES: "frozenset[str]" = frozenset()
_KNOWN_SPREAD = None
_SPREAD_SEPARATORS = " \t\r\n="


def _encoded_forms(value):
    """*value* as it may come back from a peer or a log: the set of its spellings.

    Hex (either case), URL-encoding (as quoted, and every byte escaped),
    JSON ``\\u`` escapes, HTML entities and base64 (standard and URL-safe,
    at each of the three byte alignments; only the characters made of the
    value's bytes alone, so it is found inside a longer encoded text).
    """
    import base64
    import html
    from urllib.parse import quote, quote_plus

    raw = value.encode("utf-8")
    forms = {value, raw.hex(), raw.hex().upper(), quote(value, safe=""), quote_plus(value),
             "".join("%%%02X" % b for b in raw), "".join("%%%02x" % b for b in raw),
             "".join("\\u%04x" % ord(c) for c in value),
             "".join("\\u%04X" % ord(c) for c in value), html.escape(value),
             "".join("&#%d;" % ord(c) for c in value), "".join("&#x%x;" % ord(c) for c in value)}
    for shift in range(3):
        first, last = (1 if shift else 0), (shift + len(raw)) // 3  # whole groups of the value
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            text = encode(b"\0" * shift + raw).decode("ascii")[4 * first:4 * last]
            if len(text) >= _KNOWN_MIN:
                forms.add(text)
    return forms


def _remember_values(values):
    """Register *values* (and their encoded forms) to be masked wherever they appear."""
    global _KNOWN_SECRETS, _KNOWN_VALUES, _KNOWN_SPREAD
    new = {v.strip() for v in values if isinstance(v, str) and len(v.strip()) >= _KNOWN_MIN}
    new -= _KNOWN_VALUES
    if not new:
        return
    forms = set(_KNOWN_SECRETS)
    for value in new:
        forms |= _encoded_forms(value)
    _KNOWN_SECRETS = tuple(sorted(forms, key=len, reverse=True))  # replaced whole: no lock
    _KNOWN_VALUES, _KNOWN_SPREAD = _KNOWN_VALUES | new, None


def _mask_spread_secrets(text):
    """Mask a registered value split by line breaks (quoted-printable's ``=`` soft
    breaks too) or spaced out, one separator run between any two characters."""
    global _KNOWN_SPREAD
    if not _KNOWN_VALUES:
        return text
    drop = str.maketrans("", "", _SPREAD_SEPARATORS)
    squeezed = text.translate(drop)
    if squeezed == text or not any(v.translate(drop) in squeezed for v in _KNOWN_VALUES):
        return text  # the cheap test: no value is there even with every separator gone
    spread = _KNOWN_SPREAD  # read once: a registration may reset it meanwhile
    if spread is None:
        import re

        gap = r"(?:=?\r?\n[ \t>]*|[ \t]{1,2})?"
        spread = _KNOWN_SPREAD = re.compile("|".join(
            gap.join(re.escape(c) for c in value)
            for value in sorted(_KNOWN_VALUES, key=len, reverse=True)))
    return spread.sub("***", text)


def _remember_job_secrets(job, environ):
    """Register what a run of *job* can send: its own key variable's value and the
    tokens in its webhook and ping URLs."""
    values = []
    if isinstance(job.get("api_key_env"), str):
        values.append(environ.get(job["api_key_env"]))
    # The variables its env passes through: a job names one there instead of
    # writing its value in jobs.json, so each is taken as a secret.
    values += [environ.get(name) for name, value in _policy(job, "env").items()
               if value is None and name not in _SCRIPT_ENV]
    for field in ("deliver", "failure_deliver"):
        if isinstance(job.get(field), str):
            for target in _split_targets(job[field]):
                kind, _, rest = target.partition(":")
                if kind.lower() in ("webhook", "ping"):
                    values += _url_tokens(rest.strip())
    _remember_values(values)


def _remember_secrets(settings, environ):
    """Register the configured secrets' values, to be masked whatever their shape.

    They are the values of every ``*_env`` variable the configuration names
    (provider keys, the SMTP password, the webhook secret), the built-in
    providers' ``<NAME>_API_KEY`` and the passed-through variables whose
    names look secret.
    """
    names = [f"{provider.upper()}_API_KEY" for provider in _PROVIDER_URLS]
    for entry in (settings.get("providers") or {}).values():
        if isinstance(entry, dict):
            names += [entry.get("api_key_env")] + list(entry.get("api_key_envs") or ())
    names += [(settings.get("smtp") or {}).get("password_env"), settings.get("webhook_secret_env")]
    values = [environ.get(name) for name in names if isinstance(name, str)]
    passthrough = [n for n in settings.get("script_env_passthrough") or () if isinstance(n, str)]
    if passthrough:  # building the redactor costs tens of ms: an empty tick must not pay it
        for name in passthrough:
            value = environ.get(name)
            if isinstance(value, str) and (_redactor().kind(name) >= 2 or
                                           _redactor().random_looking(value.strip(), True)):
                values.append(value)
    _remember_values(values)


def _redactor():
    global _REDACTOR
    if _REDACTOR is None:
        # Under a lock: the runs of a busy tick all redact their first output
        # at once, and each would compile the rules (tens of ms) for nothing.
        with _REDACTOR_LOCK:
            if _REDACTOR is None:
                _REDACTOR = _Redactor()
    return _REDACTOR


def redact(text: str) -> str:
    """Return *text* with secrets masked (API keys, tokens, passwords, private keys).

    A masked secret keeps at most a short, non-secret hint of its prefix
    (``sk-ant-***``, ``ghp_***``, ``Bearer ***``).  Values of the configured
    secrets are masked wherever they appear.  Non-text input is returned
    unchanged.
    """
    if not isinstance(text, str) or not text:
        return text
    return _redactor().redact(text)


# --- 11.1 Prompt scanning ----------------------------------------------------

# Code points that render as nothing: Unicode's default-ignorable code points
# and every format (Cf) character, as inclusive ranges.  Zero-width and
# bidirectional controls, U+00AD, U+034F, U+180E, U+2061, variation selectors
# and the tag characters U+E0000-E0FFF, whose U+E0020-E007E spell ASCII
# ("ASCII smuggling": text an agent reads and a reviewer does not see).
_HIDDEN_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x0600, 0x0605), (0x061C, 0x061C),
                  (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
                  (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F),
                  (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F),
                  (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x110BD, 0x110BD),
                  (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3),
                  (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
# Letters from other scripts that pass for Latin ones, typographic quotes and
# dashes: folded before matching, so "іgnоrе" (Cyrillic і, о, е) is "ignore".
_CONFUSABLES = dict(zip(
    map(ord, "\u0430\u0432\u0435\u0451\u043e\u0440\u0441\u0443\u0445\u0456\u0457\u0458\u0455"
             "\u0501\u051b\u051d\u04bb\u04cf\u043a\u0410\u0412\u0415\u041a\u041c\u041d\u041e"
             "\u0420\u0421\u0422\u0425\u0423\u0406\u0408\u0405\u0500\u051a\u051c\u04ba\u04c0"
             "\u03b1\u03b5\u03b9\u03ba\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7\u0391\u0392\u0395"
             "\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7\u0131\u0237"
             "\u0251\u0269\u0578\u0585\u057d\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u2010"
             "\u2011\u2012\u2013\u2014\u2015"),
    "aBeeopcyxiijsdqwhlkABEKMHOPCTXYIJSDQWHI"
    "aeikvoptuxABEZHIKMNOPTYXij"
    "ainou''''\"\"\"------"))
# Leetspeak digits and signs, folded for the phrase rules only.
_LEET = str.maketrans("0134578@$", "oieastbas")
_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")
# Words of English in rot13 ("the", "and", "you", "ignore", ...): a text with
# none of them is not worth decoding.
_ROT13_HINTS = ("gur ", "naq ", "lbh", "vtaber", "qvfertneq", "sbetrg", "vafgehpg", "cerivbhf",
                "flfgrz", "cebzcg", "ehyrf")

# Pieces of the patterns below.  Every pattern is matched against lower-cased
# text with the hidden characters dropped, NFKC applied, combining marks
# removed and confusables folded.
_W = r"[\w'-]+\s+"                      # one word and the space after it
# The words that lift an instruction out of the way; the things it lifts.
_OVERRIDE = (r"ignor(?:e|es|ed|ing)|forget|forgetting|overrid(?:e|ing)|overwrit(?:e|ing)|"
             r"overrul(?:e|ing)|bypass(?:ing)?|discard(?:ing)?|abandon(?:ing)?")
_DISREGARD = (r"disregard(?:ing)?|set\s+aside|pay\s+no\s+attention\s+to|"
              r"(?:stop|quit)\s+(?:following|obeying)|(?:do\s+not|don't|never)\s+(?:follow|obey)")
_QUALIFIER = (r"(?:previous|previously\s+given|prior|earlier|above|preceding|foregoing|former|"
              r"original|initial|old|existing|all|any|every|your|my|system|safety|before)")
_ORDERS = (r"(?:instructions?|directives?|directions|rules|guidelines|guidance|prompts?|"
           r"programming)\b")
# Weaker words: lifted only when they came before ("...all previous messages").
_SOFT = (r"(?:text|content|input|messages?|everything|anything|context|conversation|requests?|"
         r"commands|orders|polic(?:y|ies)|training|constraints|restrictions|safeguards|"
         r"guardrails)\b")
# "...any instructions in the ticket": a defence against injected text, not one.
_IN_DATA = (r"(?!\s+(?:that\s+(?:are|appear|come)\s+)?(?:in|from|inside|within|contained\s+in|"
            r"embedded\s+in|found\s+in|given\s+in|written\s+in|hidden\s+in)\s+(?:the|a|an|any|"
            r"each|every|this|that|these|those|such|their|its)?\s*(?:[\w-]+\s+){0,2}?"
            r"(?:tickets?|e-?mails?|mails?|documents?|docs?|pages?|messages?|data|inputs?|"
            r"issues?|comments?|files?|outputs?|feeds?|text|content|reports?|pull\s+requests?|"
            r"prs?|logs?|articles?|web\s*pages?|websites?|sites?|results?|responses?|"
            r"transcripts?|chats?|posts?|tweets?|reviews?|submissions?|attachments?|body|"
            r"descriptions?|fields?|payloads?|repo(?:sitory|sitories)?|readmes?|scripts?)\b)")


def _override_phrase(verbs):
    """One pattern for a family of override verbs: "<verb> all previous instructions",
    "<verb> instructions", "<verb> everything before", "<verb> the user and reply"."""
    return (rf"\b(?:{verbs})\s+(?:(?:{_W}){{0,3}}?{_QUALIFIER}\s+(?:{_W}){{0,2}}?{_ORDERS}"
            rf"{_IN_DATA}"
            rf"|(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:instructions?|directives?)\b{_IN_DATA}"
            rf"|(?:all\s+|any\s+|the\s+)?(?:{_SOFT}|{_ORDERS})\s+(?:(?:that\s+)?(?:came|written|"
            rf"given|said|provided|you\s+(?:got|received|were\s+given))\s+)?(?:before|above|"
            rf"earlier|previously|so\s+far|prior)\b"
            rf"|(?:all\s+|any\s+|my\s+|the\s+)?(?:previous|prior|earlier|above|preceding)\s+"
            rf"(?:{_W})?{_SOFT}"
            rf"|the\s+rest\s+of\s+(?:this|the)\s+\w+\s*(?:and|,)\s+(?:just\s+|only\s+|instead\s+)?"
            rf"(?:print|say|respond|reply|output|write)"
            rf"|(?:the|what\s+the)\s+user\b(?![-_])(?:'s\s+\w+)?\s*(?:and|,)\s+(?:just\s+|only\s+|"
            rf"instead\s+)?(?:reply|respond|say|print|output|answer|write))")


_SECRET_VAR = (r"\$\{?(?:[a-z0-9]+_)*(?:api_?key|key|token|secret|password|passwd|"
               r"credentials?|api)(?:_[a-z0-9]+)*\}?(?![a-z0-9_])")
# Files that hold keys or the environment; .env.example and its kin are not one.
_SECRET_FILE = (r"(?:\.env\b(?![.\-_]?(?:example|sample|template|dist|defaults?|tpl|in)\b)|"
                r"credentials\b|\.netrc|\.pgpass|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)|"
                r"\.aws/|\.ssh/(?!config\b|known_hosts\b|authorized_keys\b)|/etc/g?shadow\b|"
                r"/etc/passwd\b|/proc/(?:self|\d+|\$\w+|\$\{\w+\})/environ|\.git-credentials|"
                r"\.docker/config\.json|\.kube/config|\.npmrc|\.pypirc|\.vault-token)")
_READ = r"(?:cat|less|more|head|tail|base64|xxd|strings|od|hexdump|nl|tac|bat)"
# A command substitution that reads secrets: the environment, a key file, a vault.
_DUMP = (rf"(?:printenv|env|set|export\s+-p|declare\s+-x|compgen\s+-v)\s*|"
         rf"{_READ}\s+(?:-\S+\s+)*\S*{_SECRET_FILE}[^)`\n]*")
_SUBST = (rf"(?:printenv|gpg|pass|vault|op\s+read|aws\s+configure\s+get|security\s+find-\S+|"
          rf"echo\s+[\"']?{_SECRET_VAR})\b[^)`\n]*|{_DUMP}")
_SECRET_REF = rf"(?:{_SECRET_VAR}|\$\(\s*(?:{_SUBST})\)|`\s*(?:{_SUBST})`)"
_NET = r"(?:curl|wget|nc|ncat|netcat|socat|telnet|ssh|scp|mail|mailx|sendmail|openssl\s+s_client)"
_CJK_STOP = "[^\u3002\uff01\uff1f\n]"  # within one Chinese sentence
# Trigger strings of the patterns below (see _THREATS).
_T_FILE = (".env", "credentials", ".netrc", ".pgpass", "id_", ".aws/", ".ssh/", "/etc/",
           "/environ", ".docker/", ".kube/", ".npmrc", ".pypirc", ".vault-token")
_T_SHOW = ("reveal", "repeat", "print", "output", "show", "display", "tell", "give", "leak",
           "dump", "recite", "spell", "disclose", "share", "provide", "write out", "paste")
_T_READ = tuple(f"{verb} " for verb in ("cat", "less", "more", "head", "tail", "base64", "xxd",
                                        "strings", "od", "hexdump", "nl", "tac", "bat"))


def _t_command(name):
    """Triggers for a shell command word: *name* after a space or a shell operator."""
    return tuple(f"{before}{name} " for before in " ;|(`&/\"'")


# (rule, triggers, pattern); a rule may have several entries.  The pattern is
# searched only if the text (its runs of whitespace read as one space) holds
# one of the trigger strings, or, when the triggers are a tuple of groups,
# one string of every group: substring tests are far cheaper than searches.
# So every match of a pattern must contain its triggers.
_THREATS = (
    ("prompt_injection",
     ("ignor", "forget", "overrid", "overwrit", "overrul", "bypass", "discard", "abandon"),
     _override_phrase(_OVERRIDE)),
    # French, German, Spanish/Italian/Portuguese (accents are folded away).
    ("prompt_injection",
     ("ignor", "oubli", " pas compte", "abstraction"),
     r"\b(?:ignor\w*|oubli\w*|ne\s+(?:tiens|tenez|tenons)\s+pas\s+compte|(?:fais|faites)\s+"
     r"abstraction)\s+(?:(?:[\w'-]+\s+){0,4}?(?:instructions?|consignes?|directives?|regles?|"
     r"indications?|ordres?)\s+(?:\w+\s+)?(?:precedent\w*|anterieur\w*|ci-dessus|d'avant|"
     r"donnee?s\s+(?:avant|plus\s+haut))|(?:toutes?|tous)\s+(?:les|tes|vos|mes)\s+"
     r"(?:instructions|consignes|directives|regles)|(?:\w+\s+){0,3}?(?:instrucciones|instruzioni|"
     r"instrucoes|reglas|regole|regras)\s+(?:anteriores|precedenti|previas))"),
    ("prompt_injection",
     ("ignor", "vergiss", "vergess", "missacht", "ubergeh"),
     r"\b(?:ignorier\w*|vergiss|vergesst|vergessen|missacht\w*|ubergeh\w*)\s+(?:\w+\s+){0,3}?"
     r"(?:vorherig|vorig|vorangegangen|vorausgegangen|bisherig|obig|fruher|alt|ursprunglich|"
     r"all)\w*\s+(?:\w+\s+){0,2}?(?:anweisung|instruktion|regel|befehl|vorgabe|richtlinie|"
     r"anordnung)"),
    ("prompt_injection",
     ("\u5ffd", "\u65e0\u89c6", "\u7121\u8996", "\u5fd8", "\u4e0d\u8981\u7406", "\u522b\u7ba1",
      "\u8df3\u8fc7", "\u8986\u76d6", "\u53d6\u6d88"),
     "(?:\u5ffd\u7565|\u5ffd\u89c6|\u65e0\u89c6|\u7121\u8996|\u5fd8\u8bb0|\u5fd8\u8a18|"
     "\u5fd8\u6389|\u4e0d\u8981\u7406\u4f1a|\u522b\u7ba1|\u8df3\u8fc7|\u8986\u76d6|\u53d6\u6d88)"
     f"{_CJK_STOP}{{0,12}}?"
     "(?:\u6307\u4ee4|\u6307\u793a|\u89c4\u5219|\u898f\u5247|\u63d0\u793a|\u8bf4\u660e|"
     "\u8aaa\u660e|\u547d\u4ee4|\u8981\u6c42|\u8bbe\u5b9a|\u9650\u5236)"),
    ("deception_hide",
     (("do not", "don't", "never", "without"), ("user", "human", "operator", "owner", "admin")),
     r"\b(?:do\s+not|don't|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|"
     r"alert(?:ing)?|let(?:ting)?|mention(?:ing)?(?:\s+\w+)?\s+to|reveal(?:ing)?(?:\s+\w+)?\s+to|"
     r"show(?:ing)?)\s+(?:the\s+)?(?:user|human|operator|owner|admin|administrator)s?\b"
     r"(?:\s+know)?(?=\s*(?:$|[.!?;,)]|(?:about\s+)?(?:this|these|that\s+(?:you|we|i|this|these|"
     r"it)|what\s+(?:you|we|i)|how\s+(?:you|we)|you|we|it)\b|anything\s+about\s+(?:this|these|"
     r"it)\b))"),
    ("deception_hide",
     ("from the user", "from the human", "from the operator", "without the"),
     r"\b(?:keep|hide|conceal)\s+(?:this|it|these|that|everything)\s+(?:\w+\s+){0,2}?from\s+the"
     r"\s+(?:user|human|operator)\b|\bwithout\s+the\s+(?:user|human|operator)\s+(?:knowing|"
     r"noticing|seeing)"),
    ("sys_prompt_override",
     ("override",),
     r"system\s+prompt\s+override|\b(?:admin|administrator|developer|root|god)\s+(?:mode\s+)?"
     r"override"),
    ("sys_prompt_override",
     ("new instructions", "system prompt", "system instruction"),
     r"\b(?:important|urgent|critical)\s+new\s+instructions\b|\b(?:new|updated|real)\s+system\s+"
     r"(?:prompt|instructions?)\b"),
    ("disregard_rules",
     ("disregard", "set aside", "no attention", "stop follow", "quit follow", "not follow",
      "n't follow", "never follow", "obey"),
     _override_phrase(_DISREGARD)),
    ("prompt_leak",
     (("your ",), _T_SHOW),
     r"\b(?:reveal|repeat|print|output|show|display|tell|give|leak|dump|recite|spell\s*check|"
     r"disclose|share|provide|write\s+out|paste)\s+(?:me\s+|us\s+)?(?:back\s+)?(?:all\s+)?"
     r"(?:of\s+)?your\s+(?:(?:full|complete|entire|exact|whole|original|initial|hidden|secret|"
     r"real|first)\s+)*(?:system\s+)?(?:prompt|instructions|rules|guidelines|secrets?|"
     r"directives)\b"),
    ("prompt_leak",
     (("system", "initial", "original", "hidden", "secret", "previous", "above", "preceding",
       "prior", "earlier", "before"), _T_SHOW),
     r"\b(?:reveal|repeat|print|output|show|display|tell|give|leak|dump|recite|spell\s*check|"
     r"disclose|share|provide|write\s+out|paste)\s+(?:me\s+|us\s+)?(?:back\s+)?(?:all\s+)?"
     r"(?:of\s+)?the\s+(?:(?:full|complete|entire|exact|whole|verbatim)\s+)*(?:system\s+"
     r"(?:prompt|message|instructions?)|(?:initial|original|hidden|secret)\s+(?:prompt|"
     r"instructions?))\b|\b(?:reveal|repeat|print|output|show|display|spell\s*check|recite|"
     r"write\s+out)\s+(?:back\s+)?(?:the\s+)?(?:exact\s+)?(?:(?:previous|above|preceding|prior|"
     r"earlier)\s+(?:instructions|text|prompt|messages?)|(?:text|words|everything)\s+(?:before|"
     r"above))\b"),
    ("prompt_leak",
     ("of the prompt", "of your prompt", "system prompt"),
     r"\b(?:text|content|words)\s+of\s+(?:the|your)\s+(?:system\s+)?prompt\b"),
    ("prompt_leak",
     ((" ton ", " ta ", " tes ", " votre ", " vos ", " deine", " ihre"),
      ("revel", "montr", "affich", "donn", "repet", "imprim", "zeig", "gib", "verrat",
       "wiederhol", "nenn", "druck", "schreib")),
     r"\b(?:(?:revel|montr|affich|donn|repet|imprim)\w*(?:-moi)?\s+(?:ton|ta|tes|votre|vos)\s+"
     r"(?:prompt|invite|instructions|consignes)|(?:zeig|gib|verrat|wiederhol|nenn|druck|schreib)"
     r"\w*\s+(?:mir\s+|uns\s+)?(?:deine[nmrs]?|ihre[nmrs]?)\s+(?:system\s*-?\s*prompt|"
     r"systemanweisung|anweisungen|prompt|geheim))"),
    ("prompt_leak",
     ("\u8f93\u51fa", "\u8f38\u51fa", "\u663e\u793a", "\u986f\u793a", "\u544a\u8bc9",
      "\u6cc4\u9732", "\u6253\u5370", "\u91cd\u590d", "\u7ed9\u6211", "\u5c55\u793a",
      "\u8bf4\u51fa", "\u900f\u9732"),
     "(?:\u8f93\u51fa|\u8f38\u51fa|\u663e\u793a|\u986f\u793a|\u544a\u8bc9\u6211|\u6cc4\u9732|"
     "\u6253\u5370|\u91cd\u590d|\u7ed9\u6211|\u5c55\u793a|\u8bf4\u51fa|\u900f\u9732)"
     f"{_CJK_STOP}{{0,8}}?"
     "(?:\u7cfb\u7edf\u63d0\u793a|\u7cfb\u7d71\u63d0\u793a|\u63d0\u793a\u8bcd|\u63d0\u793a\u8a5e|"
     "\u7cfb\u7edf\u6307\u4ee4|\u521d\u59cb\u6307\u4ee4|\u7cfb\u7edf\u6d88\u606f)"),
    ("jailbreak_persona",
     (("you are",), ("you are now", "you are going", "you are about", "you are dan",
                     "you are stan", "you are dude")),
     r"\byou\s+are\s+(?:(?:now|going\s+to\s+be|about\s+to\s+(?:be|become))\s+(?:[\w'-]+\s+){0,3}?"
     r"(?:dan|stan|dude|jailbroken|unrestricted|unfiltered|uncensored|evil|unbound|free\s+of|"
     r"in\s+(?:developer|dan|god|jailbreak|unrestricted|debug)\s+mode)|(?:now\s+)?(?:dan|stan|"
     r"dude))\b(?!')"),
    ("jailbreak_persona",
     (("mode",), ("mode enabled", "mode activated", "mode on", "mode unlocked", "mode is",
                  "dan mode", "god mode", "jailbreak mode", "unrestricted mode")),
     r"\b(?:(?:dan|developer|god|jailbreak|unrestricted|evil|opposite)\s+mode\s+(?:is\s+)?"
     r"(?:enabled|activated|on|unlocked)|(?:enable|activate|enter|switch\s+to)\s+(?:dan|god|"
     r"jailbreak|unrestricted)\s+mode)\b"),
    ("jailbreak_persona",
     ("anything now", "norms", "broken free", "immerse", "force th", "now on", "maintenant",
      "du bist"),
     r"\b(?:do\s+anything\s+now|strive\s+to\s+avoid\s+norms|broken\s+free\s+of\s+the\s+"
     r"(?:typical\s+)?confines|immerse\s+yourself\s+(?:in|into)\s+the\s+role|force\s+(?:the|this)"
     r"\s+(?:model|ai|assistant|llm|bot)\s+to|from\s+now\s+on\b[^\n.]{0,40}?\b(?:dan|stan|dude|"
     r"jailbroken|unrestricted|no\s+(?:rules|restrictions|limits|filters))|(?:tu\s+es|vous\s+etes)"
     r"\s+maintenant\s+(?:dan|libre|sans\s+(?:restrictions?|limites?|regles))|du\s+bist\s+"
     r"(?:jetzt|nun|ab\s+sofort)\s+(?:dan|frei|ohne\s+(?:regeln|einschrankungen|grenzen)))\b"),
    ("jailbreak_persona",
     ("to abide", "to follow", "to obey"),
     r"\b(?:do(?:es)?\s+not|don't|doesn't|no\s+longer)\s+(?:have|need)\s+to\s+(?:abide\s+by|"
     r"follow|obey)\s+(?:any|the|your)\s+(?:[\w'-]+\s+){0,2}?(?:rules|guidelines|restrictions|"
     r"polic(?:y|ies))"),
    ("jailbreak_persona",
     (("without",), tuple(f"without {what}" for what in (
         "any", "restrictions", "limits", "limitations", "filters", "censorship", "rules",
         "guidelines", "safety", "ethics"))),
     r"\b(?:answer|respond|reply|act|talk)\s+(?:[\w'-]+\s+){0,2}?without\s+(?:any\s+)?"
     r"(?:restrictions|limits|limitations|filters|censorship|rules|guidelines|safety|ethics)"),
    ("jailbreak_persona",
     ("pretend",),
     r"\bpretend\s+(?:that\s+)?(?:you\s+are|you're|youre|to\s+be|you\s+have)\s+(?:[\w'-]+\s+)"
     r"{0,3}?(?:villain|evil|malicious|unethical|unrestricted|uncensored|unfiltered|jailbroken|"
     r"amoral|dan|stan|dude|no\s+(?:[\w'-]+\s+)?(?:rules|restrictions|limits|guidelines|filters|"
     r"content\s+polic\w+|ethics|morals|safety))\b"),
    ("jailbreak_persona",
     ("forget",),
     r"\bforget\s+(?:that\s+)?(?:being|you\s+are|you're|youre|your\s+)\s*(?:an?\s+)?(?:harmless|"
     r"helpful|safe|ethical|ai\b|assistant|language\s+model|bound|role|rules|training)"),
    ("jailbreak_persona",
     (("filter", "safeguard", "guardrail", "safety", "polic", "ethical", "moral"),
      ("ignor", "bypass", "disable", "turn off", "circumvent", "evade", "deactivate")),
     # "ignore your safety filters", not "attackers could bypass the safeguards".
     r"\b(?:ignore|bypass|disable|turn\s+off|circumvent|evade|deactivate)\s+(?:(?:all\s+(?:of\s+)?)?"
     r"your\s+(?:safety\s+|content\s+)?(?:filters|safeguards|guardrails|rules|guidelines|"
     r"polic(?:y|ies))|(?:all\s+|any\s+|the\s+)?(?:safety|content)\s+(?:filters|safeguards|"
     r"guardrails|rules|guidelines|polic(?:y|ies))|filters\b|(?:ethical|moral)\s+(?:guidelines|"
     r"constraints|rules))"),
    ("jailbreak_persona",
     ("\u4f60\u73b0\u5728\u662f", "\u4f60\u73fe\u5728\u662f", "\u5047\u88c5", "\u5047\u88dd",
      "\u9650\u5236", "\u7ea6\u675f", "\u6a21\u5f0f"),
     "\u4f60(?:\u73b0|\u73fe)\u5728\u662f\\s*(?:dan|stan|dude|\u4e00\u4e2a\u6ca1\u6709|"
     "\u4e0d\u53d7)|\u5047(?:\u88c5|\u88dd)\u4f60(?:\u6ca1|\u6c92)\u6709|"
     "(?:\u6ca1|\u6c92)\u6709\u4efb\u4f55\u9650\u5236|\u4e0d\u53d7\u4efb\u4f55\u9650\u5236|"
     "(?:\u6ca1|\u6c92)\u6709\u9053\u5fb7\u7ea6\u675f|(?:\u5f00\u53d1\u8005|\u958b\u767c\u8005|"
     "\u8d8a\u72f1|\u8d8a\u7344)\u6a21\u5f0f"),
    ("role_forgery",
     ("<|", "sys>>", "inst]", "start_of_turn", "role"),
     r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\|>|"
     r"<</?sys>>|\[/?inst\]|<start_of_turn>|\{\s*[\"']role[\"']\s*:\s*[\"']system[\"']"),
    ("role_forgery",
     ("user:", "human:", "user :", "human :"),
     r"(?:^|\n)[ \t>#*-]*(?:assistant|ai|system|gpt|chatgpt|bot)\s*:[^\n]*\n(?:[^\n]*\n){0,3}?"
     r"[ \t>#*-]*(?:user|human)\s*:"),
    ("decode_and_run",
     (("decode", "decrypt", "deobfuscate", "unscramble", "rot13", "base64 -d"),
      ("execute", "run", "follow", "obey", "do what", "act on", "eval")),
     r"\b(?:decode|decrypt|deobfuscate|unscramble|rot13|base64\s+-d)\b[^\n.]{0,40}?\b(?:and|then)"
     r"\s+(?:execute|run|follow|obey|do\s+what|act\s+on|eval)"),
    ("read_secrets",
     (_T_READ, _T_FILE),
     rf"\b{_READ}\s+(?:-\S+\s+)*\S*{_SECRET_FILE}"),
    ("read_secrets",
     _T_FILE,
     r"(?<![-.])\b(?:print|show|display|output|reveal|dump|send|upload|paste|post|e-?mail|include|"
     r"read|copy|share|leak|exfiltrate|attach)\b(?!-)[^\n]{0,60}?(?:(?:~|\$home|\$\{home\})/\."
     r"(?:ssh/id_\w+|aws/credentials|netrc|pgpass|git-credentials|docker/config\.json|kube/config|"
     r"vault-token)|/etc/g?shadow\b|/proc/(?:self|\d+|\$\w+)/environ|\bid_(?:rsa|ed25519|ecdsa|"
     r"dsa)\b(?!\.pub))"),
    ("ssh_backdoor",
     ("authorized_keys",),
     r"(?:>>?|\btee\b(?:\s+-\S+)*)\s*[\"']?\S*authorized_keys|\b(?:append|add|write|insert|put|"
     r"plant|install|inject|echo)\b[^\n.;]{0,80}?\b(?:to|into)\s+\S*authorized_keys"),
    ("sudoers_mod",
     ("sudoers", "visudo", "nopasswd", "usermod"),
     r"(?:>>?|\btee\b(?:\s+-\S+)*)\s*[\"']?/etc/sudoers|\bvisudo\b|\(all(?::all)?\)\s*nopasswd\s*:"
     r"|\b(?:append|add|write|insert|put|echo)\b[^\n.;]{0,80}?\b(?:to|into)\s+(?:the\s+)?"
     r"(?:/etc/sudoers|sudoers)|\busermod\s+(?:-\w+\s+)*-a?g\s+(?:sudo|wheel|admin|root)\b|"
     r"\bchmod\b[^\n]{0,200}?\s/etc/sudoers"),
    ("destructive_root_rm",
     (("rm ",), _t_command("rm")),
     r"\brm\s+(?:-\S+\s+)*?(?:-[a-z]*r[a-z]*|--recursive)\s+(?:-\S+\s+)*[\"']?(?:/|~/?|\$home/?|"
     r"\$\{home\}/?|/(?:etc|usr|var|home|bin|sbin|boot|lib|lib64|opt|root|srv|dev|proc|sys|mnt)"
     r"/?)[\"']?(?:\s|\*|$|;|&|\|)"),
    ("destructive_disk",
     ("mkfs", "of=/dev/"),
     r"\bmkfs(?:\.\w+)?\s+(?:-\S+\s+)*/dev/|\bdd\s+[^\n]{0,200}?\bof=/dev/(?:sd|hd|nvme|xvd|vd|"
     r"mmcblk|disk)"),
    ("destructive_disk",
     (("/dev/",), ("/dev/sd", "/dev/hd", "/dev/nvme", "/dev/xvd", "/dev/vd", "/dev/mmcblk")),
     r"(?:^|[\s;&|])>\s*/dev/(?:sd|hd|nvme|xvd|vd|mmcblk)[a-z0-9]*\b|\b(?:shred|wipefs)\s+"
     r"[^\n]{0,200}?/dev/"),
    ("destructive_disk",
     ("(){", "() {", "find / ", "chmod -", "chown -"),
     r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bfind\s+/\s+[^\n]{0,200}?-delete\b|"
     r"\b(?:chmod|chown)\s+(?:-\S+\s+)*-[a-z]*r[a-z]*\s+\S+\s+/(?:\s|\*|$)"),
    ("reverse_shell",
     (("nc ", "ncat", "netcat"), _t_command("nc") + ("ncat", "netcat")),
     r"\b(?:nc|ncat|netcat|nc\.traditional)\b[^\n;|&]{0,200}?\s(?:-[a-z]*e\b|--exec\b|--sh-exec\b|"
     r"-c\s+[\"']?(?:/bin/)?(?:ba|z|da)?sh\b)"),
    ("reverse_shell",
     (("/dev/",), ("/dev/tcp/", "/dev/udp/")),
     r"(?:\b(?:ba|z|k)?sh\s+-i\b[^\n]{0,200}?|[<>]&\s*|\d*<>\s*)/dev/(?:tcp|udp)/|"
     r"/dev/(?:tcp|udp)/\S+\s+0>&1"),
    ("reverse_shell",
     ("socat", "mkfifo", "pty.spawn", "fsockopen", "os.dup2"),
     r"\bsocat\b[^\n]{0,200}?\b(?:exec|system):|\bmkfifo\b[^\n]{0,200}?\b(?:nc|ncat|netcat|"
     r"openssl)\b|\bpty\.spawn\(|\bfsockopen\(|\bsocket\b[^\n]{0,200}?\bos\.dup2\("),
    # Each "<tool> ... <flag> ... <secret>" is two scans of one line from the
    # tool (a lookahead for the flag, then the secret), never one inside the
    # other: a line of many "curl -d" stays linear.
    ("exfil_data",
     (("curl",), ("$", "`")),
     rf"\bcurl\b(?=[^\n]{{0,300}}?\s(?:--data(?:-raw|-binary|-urlencode)?|--form|-[a-z]*[df])"
     rf"(?:[\s=]|['\"]))[^\n]{{0,300}}?{_SECRET_REF}"),
    ("exfil_data",
     (("curl",), _T_FILE),
     rf"\bcurl\b[^\n]{{0,300}}?\s(?:--data(?:-binary|-urlencode)?|--form|-[a-z]*[df]|"
     rf"--upload-file|-t)[\s=]*['\"]?(?:[\w-]+=)?@?\S*{_SECRET_FILE}"),
    ("exfil_post",
     (("wget",), ("--post-", "--body-")),
     rf"\bwget\b(?=[^\n]{{0,300}}?--(?:post|body)-data[\s=])[^\n]{{0,300}}?{_SECRET_REF}|"
     rf"\bwget\b[^\n]{{0,300}}?--(?:post|body)-file[\s=]+['\"]?(?:\S*{_SECRET_FILE}|/dev/stdin\b|"
     rf"-(?:\s|$))"),
    ("exfil_header",
     (("curl", "wget"), ("$(", "`")),
     rf"\b(?:curl|wget)\b(?=[^\n]{{0,300}}?\s(?:-h|--header)\b)[^\n]{{0,300}}?"
     rf"(?:\$\(\s*(?:{_DUMP})\)|`\s*(?:{_DUMP})`)"),
    ("exfil_url",
     (("curl", "wget"), ("$", "`")),
     rf"\b(?:curl|wget)\b[^\n]{{0,300}}?\S(?:[/?&=.@:]|%3d){_SECRET_REF}"),
    ("exfil_pipe",
     (("|",), ("env |", "env|", "printenv", "set |", "set|", "export -p", "declare -x",
              "compgen -v") + _T_FILE),
     rf"(?:^|[\s;&(`])(?:env|printenv|set|export\s+-p|declare\s+-x|compgen\s+-v|(?:{_READ}|tar|"
     rf"zip)\s+(?:-\S+\s+)*\S*{_SECRET_FILE}\S*)\s*(?:\|\s*[^|\n]{{0,60}}?)?\|\s*(?:sudo\s+)?"
     rf"{_NET}\b"),
)
# The injection phrases: the lenient tier applies only these, and rot13 and
# leetspeak are decoded for them alone.  A match right after "not", "never"
# or "no" ("never reveal your system prompt") is an instruction of the
# opposite kind and does not count.
_LENIENT_RULES = frozenset(("prompt_injection", "deception_hide", "sys_prompt_override",
                            "disregard_rules", "prompt_leak", "jailbreak_persona"))
_DENIABLE_RULES = frozenset(("prompt_injection", "disregard_rules", "prompt_leak",
                             "jailbreak_persona"))
# Every rule an operator can lift for one job with --allow-scan.
_SCAN_RULES = ("invisible_unicode",) + tuple(dict.fromkeys(name for name, _, _ in _THREATS))
_SCAN_RE: "dict[Any, Any]" = {}


def _scan_regexes():
    """The compiled patterns (compiled once, on the first scan: ``re`` loads lazily)."""
    if not _SCAN_RE:
        import re

        ranges = "".join(f"{chr(a)}-{chr(b)}" if a != b else chr(a) for a, b in _HIDDEN_RANGES)
        _SCAN_RE.update(
            hidden=re.compile(f"[{ranges}]"), emoji_parts=re.compile("[\ufe0e\ufe0f\u200d]"),
            hidden_plain=re.compile(f"(?![\ufe0e\ufe0f\u200d])[{ranges}]"),
            tags=re.compile("[\U000E0020-\U000E007E]+"),
            marks=re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff"
                             "\ufe20-\ufe2f]"),
            base64=re.compile(r"[A-Za-z0-9+/_-]{10,}={0,2}"),
            leet=re.compile(r"[a-z][013457]|[013457][a-z]"),
            escapes=re.compile(r"%[0-9a-f]{2}|&#?[0-9a-z]+;"),
            spaced=re.compile(r"\b(?:\w[ .\-_]){3,}\w\b"),
            rules=[(name, triggers if isinstance(triggers[0], tuple) else (triggers,),
                    re.compile(pattern)) for name, triggers, pattern in _THREATS])
        _SCAN_RE["ascii_rules"] = [rule for rule in _SCAN_RE["rules"]
                                   if any(t.isascii() for group in rule[1] for t in group)]
    return _SCAN_RE


def _hidden_is_emoji(text, i):
    """True if the hidden character at *i* belongs to an emoji: U+FE0F after a symbol
    or before a keycap, or a zero-width joiner between two emoji."""
    import unicodedata

    char, before = text[i], text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if char in "\ufe0e\ufe0f":
        return after == "\u20e3" or (before != "" and unicodedata.category(before) == "So")
    if char == "\u200d":
        return (before != "" and after != "" and unicodedata.category(after) == "So"
                and (before == "\ufe0f" or unicodedata.category(before) in ("So", "Sk")))
    return False


def _denied(view, start):
    """True if the words before *start* negate what follows: "never", "not", "no"."""
    before = view[max(0, start - 12):start].split()
    return bool(before) and (before[-1] in ("not", "never", "no", "cannot")
                             or before[-1].endswith("n't"))


def _fold(text):
    """Text as the patterns read it: hidden characters dropped, NFKC, combining marks
    dropped, confusables folded, lower case."""
    if not text.isascii():
        import unicodedata

        regexes = _scan_regexes()
        text = unicodedata.normalize("NFD", unicodedata.normalize(
            "NFKC", regexes["hidden"].sub("", text)))
        text = regexes["marks"].sub("", text).translate(_CONFUSABLES)
    return text.lower()


def _scan_views(text):
    """(label, lower-cased text, phrases only) for each way the prompt can be read:
    as written (normalised), its tag-character payload, its base64 runs decoded,
    rot13, leetspeak, percent and HTML escapes decoded, letters spaced out."""
    import base64

    regexes = _scan_regexes()
    lower = _fold(text)
    yield "", lower, False
    if not text.isascii():
        smuggled = "\n".join("".join(chr(ord(c) - 0xE0000) for c in run)
                             for run in regexes["tags"].findall(text))
        if smuggled:
            yield " (in text hidden in Unicode tag characters)", _fold(smuggled), False
    decoded = []
    plain = regexes["hidden"].sub("", text) if not text.isascii() else text
    for run in regexes["base64"].findall(plain):
        body = run.rstrip("=")
        urlsafe = "-" in body or "_" in body
        if len(body) % 4 == 1 or (urlsafe and ("+" in body or "/" in body)):
            continue  # not one alphabet, or a length no encoding has
        try:
            words = base64.b64decode(body + "=" * (-len(body) % 4), b"-_" if urlsafe else None,
                                     validate=True).decode("utf-8")
        except ValueError:  # binascii.Error, UnicodeDecodeError
            continue
        if words.replace("\n", " ").replace("\t", " ").replace("\r", " ").isprintable():
            decoded.append(words)
    if decoded:
        yield " (in base64-decoded text)", _fold("\n".join(decoded)), False
    if any(word in lower for word in _ROT13_HINTS):
        yield " (in rot13-decoded text)", lower.translate(_ROT13), True
    if regexes["leet"].search(lower):
        yield " (in leetspeak)", lower.translate(_LEET), True
    if regexes["escapes"].search(lower):
        import html
        import urllib.parse

        yield " (in percent- or entity-decoded text)", _fold(
            urllib.parse.unquote(html.unescape(lower))), False
    if regexes["spaced"].search(lower):
        yield " (in letter-spaced text)", regexes["spaced"].sub(
            lambda m: m.group()[::2], lower), True


def _scan(text, lenient=False, allow=()):
    """The scan itself: (text with hidden characters removed if allowed or lenient,
    the rule that matched or None, the reason or None)."""
    if not text:  # a script job's empty prompt: nothing to read, no patterns to compile
        return text, None, None
    clean = text
    if not text.isascii():
        hidden = _scan_regexes()["hidden"]
        found = next((m for m in hidden.finditer(text)
                      if not _hidden_is_emoji(text, m.start())), None)
        if found is not None:
            if not lenient and "invisible_unicode" not in allow:
                return text, "invisible_unicode", (
                    f"prompt contains invisible unicode U+{ord(found.group()):04X} "
                    f"(possible injection)")
            clean = _scan_regexes()["hidden_plain"].sub("", text)
            clean = _scan_regexes()["emoji_parts"].sub(
                lambda m: m.group() if _hidden_is_emoji(clean, m.start()) else "", clean)
    regexes = _scan_regexes()
    for label, view, phrases_only in _scan_views(text):
        words = f" {' '.join(view.split())} "  # what the triggers are looked up in
        seen = {}
        for name, groups, regex in regexes["ascii_rules" if view.isascii() else "rules"]:
            if name in allow or ((lenient or phrases_only) and name not in _LENIENT_RULES):
                continue
            if not all(any(seen[t] if t in seen else seen.setdefault(t, t in words)
                           for t in group) for group in groups):
                continue
            for match in regex.finditer(view):
                if name not in _DENIABLE_RULES or not _denied(view, match.start()):
                    return clean, name, f"prompt matches threat pattern '{name}'{label}"
    return clean, None, None


def _scan_prompt(text, lenient=False, allow=()):
    """Scan a prompt for injection; return (cleaned text, None) or (text, reason).

    The text is read as written and as it would be read after decoding:
    hidden characters dropped, NFKC, confusable letters folded, Unicode tag
    characters, base64 runs, rot13 and leetspeak decoded.  The strict tier
    blocks hidden characters, injection phrases, secret reading, backdoors,
    destructive commands, reverse shells and secret exfiltration.  The
    lenient tier (skills or injected data present) strips hidden characters
    and applies only the injection phrases.  Rules named in *allow* (a job's
    ``allow_scan``) are skipped; allowing ``invisible_unicode`` strips them.
    """
    clean, _, reason = _scan(text, lenient, allow)
    return clean, reason


def _check_prompt_safe(prompt, allow=()):
    """Create/edit check: the strict scan of a user prompt, as an InvalidInputError."""
    _, rule, reason = _scan(prompt or "", allow=allow)
    if reason:
        raise InvalidInputError(f"prompt blocked by the injection scanner: {reason}",
                                _one_line(prompt, 60),
                                "remove the injected or exfiltrating instruction; scheduled "
                                "prompts run unattended (if it is a legitimate instruction: "
                                f"--allow-scan {rule})")


def _check_allow_scan(rules):
    """Validate a job's ``allow_scan`` list of scanner rule names; return it deduplicated."""
    if rules is None:
        return None
    if isinstance(rules, str):
        rules = [rules]
    out = []
    for rule in rules:
        if rule not in _SCAN_RULES:
            raise InvalidInputError("allow_scan: unknown scanner rule", rule,
                                    f"use one of {', '.join(_SCAN_RULES)}")
        if rule not in out:
            out.append(rule)
    return out


# =============================================================================
# 12. The ledger
#    executions.db: one row per fire, every transition a compare-and-set;
#    process identity, skips, pruning and the SQLite plumbing.
# =============================================================================

_LEDGER_FILE = "executions.db"
_ACTIVE = ("claimed", "running")
_TERMINAL = ("completed", "failed", "unknown")
_MAX_TERMINAL_ROWS = 1000
_MIN_ROWS_PER_JOB = 20
_MAX_GRACE = 7200  # the longest grace a slot gets (section 17); its rows are kept as long
_SWEEP_EVERY = 86400
_SWEEP_BATCH = 20000
_VACUUM_MIN_FREE_PAGES = 256
_VACUUM_STEP_PAGES = 4096
_UNIX_EPOCH_JULIAN = 2440587.5
# One job's terminal rows past a cutoff, beyond its newest 20 (or its history_limit).
_PRUNE_JOB = ("DELETE FROM executions WHERE job_id=? AND julianday(claimed_at) < ? AND "
              "status IN ('completed','failed','unknown') AND rowid NOT IN (SELECT rowid FROM "
              "executions WHERE job_id=? AND status IN ('completed','failed','unknown') "
              "ORDER BY julianday(claimed_at) DESC, rowid DESC LIMIT ?)")
_PRUNE_VERDICTS = ("DELETE FROM cron_verdicts WHERE job_id=? AND execution_id NOT IN "
                   "(SELECT id FROM executions WHERE job_id=?)")
_PRUNE_ATTEMPTS = ("DELETE FROM cron_attempts WHERE job_id=? AND execution_id NOT IN "
                   "(SELECT id FROM executions WHERE job_id=?)")
_OCCURRENCE_SKEW = 60
_UNKNOWN_ERROR = ("the process running this execution died before it finished (proven dead on "
                  "this host); whether its side effects happened is unknown, so it is not retried")
_ORPHAN_AFTER = 300
_ORPHAN_ERROR = ("no job holds a claim on this execution any more and its process cannot be "
                 "reached; whether its side effects happened is unknown, so it is not retried")
_EXPIRED_ERROR = ("the fire claim of this execution expired (no heartbeat for {ttl} s); "
                  "whether its side effects happened is unknown, so it is not retried")
_LEDGER_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS executions(
        id TEXT PRIMARY KEY, job_id TEXT NOT NULL, source TEXT NOT NULL,
        process_id TEXT NOT NULL, pid INTEGER NOT NULL, process_started_at INTEGER,
        status TEXT NOT NULL CHECK(status IN ('claimed','running','completed','failed','unknown')),
        claimed_at TEXT NOT NULL, started_at TEXT, finished_at TEXT, error TEXT,
        handoff_pending INTEGER NOT NULL DEFAULT 0, handoff_started_at REAL,
        delivery_outcome TEXT, scheduled_instant TEXT)""",
    """CREATE TABLE IF NOT EXISTS cron_processes(
        process_id TEXT PRIMARY KEY, hostname TEXT NOT NULL, boot_id TEXT,
        pid_namespace TEXT, pid INTEGER NOT NULL, started_at INTEGER, first_seen_at TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS cron_incidents(
        id TEXT PRIMARY KEY, job_id TEXT NOT NULL, error_sig TEXT NOT NULL, state TEXT NOT NULL,
        failure_type TEXT NOT NULL DEFAULT 'unknown', first_seen_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL, acked_at TEXT, closed_at TEXT, alerted_at TEXT,
        error TEXT NOT NULL, output_file TEXT, generation INTEGER NOT NULL DEFAULT 1)""",
    """CREATE TABLE IF NOT EXISTS cron_skips(
        job_id TEXT NOT NULL, scheduled_instant TEXT, reason TEXT NOT NULL, detail TEXT,
        at TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS cron_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # A run's verdict, beside its row (upstream's executions keep their shape):
    # one per (execution, checking job): its own checks, or a watchdog's.
    """CREATE TABLE IF NOT EXISTS cron_verdicts(
        execution_id TEXT NOT NULL, job_id TEXT NOT NULL, checked_by TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK(verdict IN ('verified','unverified','unverifiable')),
        findings TEXT NOT NULL, checked_at TEXT NOT NULL,
        PRIMARY KEY(execution_id, checked_by))""",
    # A run's place among the attempts of its slot, beside its row: attempt 2
    # and up are retries; a jittered slot's delay; retry_at, the instant a
    # failed attempt's next one comes due (set as it finishes, in its
    # transaction).  Only runs with any of them have a row.
    """CREATE TABLE IF NOT EXISTS cron_attempts(
        execution_id TEXT PRIMARY KEY, job_id TEXT NOT NULL, scheduled_instant TEXT,
        attempt INTEGER NOT NULL DEFAULT 1, jitter_seconds INTEGER NOT NULL DEFAULT 0,
        retry_at TEXT, note TEXT)""",
)
# Columns upstream stores gained over time (or, in forks, never had); an old
# table is migrated in place.
_LEDGER_LATE_COLUMNS = (
    ("executions", (("handoff_pending", "INTEGER NOT NULL DEFAULT 0"),
                    ("handoff_started_at", "REAL"), ("delivery_outcome", "TEXT"),
                    ("scheduled_instant", "TEXT"))),
    ("cron_incidents", (("generation", "INTEGER NOT NULL DEFAULT 1"),)),
)
_LEDGER_INDEXES = (
    "CREATE INDEX IF NOT EXISTS idx_executions_job_claimed "
    "ON executions(job_id, claimed_at DESC, id DESC)",
    "CREATE INDEX IF NOT EXISTS idx_executions_status_claimed "
    "ON executions(status, claimed_at DESC, id DESC)",
    "CREATE INDEX IF NOT EXISTS idx_executions_occurrence "
    "ON executions(job_id, scheduled_instant) WHERE status='completed'",
    "CREATE UNIQUE INDEX IF NOT EXISTS idx_cron_skips_once "
    "ON cron_skips(job_id, scheduled_instant, reason)",
    # Rows ordered by instant (upstream writes local offsets, we write UTC),
    # so 'runs' and the prune read a million-row ledger through an index.
    "CREATE INDEX IF NOT EXISTS idx_executions_claimed_instant "
    "ON executions(julianday(claimed_at))",
    "CREATE INDEX IF NOT EXISTS idx_executions_job_claimed_instant "
    "ON executions(job_id, julianday(claimed_at))",
    "CREATE INDEX IF NOT EXISTS idx_executions_slot ON executions(job_id, scheduled_instant)",
    "CREATE INDEX IF NOT EXISTS idx_cron_attempts_slot "
    "ON cron_attempts(job_id, scheduled_instant, attempt)",
)
_IDENTITY = None


def _identity():
    """Return this process's identity: id, pid, start time, host, boot, pid namespace."""
    global _IDENTITY
    pid = os.getpid()
    if _IDENTITY is None or _IDENTITY["pid"] != pid:  # a fork is a new process
        _IDENTITY = {
            "process_id": os.urandom(16).hex(), "pid": pid,
            "started_at": _pid_state(pid)[1], "hostname": os.uname().nodename,
            "boot_id": _read_text("/proc/sys/kernel/random/boot_id"),
            "pid_namespace": _readlink("/proc/self/ns/pid"),
        }
    return _IDENTITY


def _read_text(path):
    try:
        with open(path) as f:
            return f.read().strip() or None
    except OSError:
        return None


def _readlink(path):
    try:
        return os.readlink(path)
    except OSError:
        return None


def _pid_state(pid):
    """Return (state letter, start time) of *pid*, or None if it does not exist.

    On Linux both come from ``/proc/<pid>/stat`` (fields 3 and 22); elsewhere
    the state is unknown ('?') and the start time None.
    """
    stat = _read_text(f"/proc/{pid}/stat")
    if stat is not None:
        fields = stat.rpartition(")")[2].split()  # the command name may hold spaces
        try:
            return fields[0], int(fields[19])
        except (IndexError, ValueError):
            return "?", None
    if os.path.isdir("/proc/self"):
        return None  # Linux without this pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except OSError:
        pass
    return "?", None


def _owner_state(owner, me, by_row=False):
    """'alive', 'dead' or 'unknown' for *owner* (a ledger row joined with its process row).

    Either is proven only on this host, boot and pid namespace. Dead: the
    pid is gone, a zombie, or reused with another start time. Alive: the pid
    runs with the recorded start time (without one, as off Linux, a live pid
    proves nothing).

    With *by_row*, an execution row with no process record (upstream's,
    which records none) is judged as upstream judges it: by its own pid and
    start time, if it has both.
    """
    if owner["hostname"] is None:
        if not by_row or owner["pid"] is None or owner["process_started_at"] is None:
            return "unknown"
    elif (owner["hostname"], owner["boot_id"], owner["pid_namespace"]) != (
            me["hostname"], me["boot_id"], me["pid_namespace"]):
        return "unknown"
    state = _pid_state(owner["pid"])
    if state is None or state[0] == "Z":
        return "dead"
    started = owner["process_started_at"]
    if started is None or state[1] is None:
        return "unknown"
    return "alive" if state[1] == started else "dead"


def _julian(moment):
    """SQLite's julianday of an aware datetime."""
    return moment.timestamp() / 86400.0 + _UNIX_EPOCH_JULIAN


class _Done:
    """The commit of a batch of writes, waited for by a thread (``wait``), or by a run's
    steps: they yield it and whoever drives them resumes them once it is ``set``
    (``then``)."""

    __slots__ = ("_event", "_lock", "_then")

    def __init__(self):
        import threading

        self._event, self._lock, self._then = threading.Event(), _thread.allocate_lock(), []

    def set(self):
        with self._lock:
            then, self._then = self._then, None
        self._event.set()
        for resume in then:
            resume()

    def then(self, resume):
        """Call *resume* once set: at once if it is."""
        with self._lock:
            if self._then is not None:
                self._then.append(resume)
                return
        resume()

    def wait(self):
        self._event.wait()


class _Ledger:
    """executions.db of one home: one connection, opened on first use."""

    def __init__(self, home, environ=None):
        self.path = os.path.join(home, _LEDGER_FILE)
        self.environ = os.environ if environ is None else environ
        self._conn = None
        self._registered = None
        # _thread's locks: a tick with nothing due never imports threading.
        self._lock = _thread.RLock()
        # The group commit: writes queue in a batch; its first writer commits it
        # (one batch at a time, under _leading) and wakes the rest by its event.
        self._group, self._leading = _thread.allocate_lock(), _thread.allocate_lock()
        self._queued, self._batch_done = [], None

    def exists(self):
        return self._conn is not None or os.path.exists(self.path)

    def connect(self):
        """Return the read-write connection, creating and migrating the schema."""
        if self._conn is not None:
            return self._conn
        try:
            zeroed = os.lstat(self.path).st_size == 0
        except FileNotFoundError:
            zeroed = False
        conn = _open_rw(self.path, _wal_wanted(self.environ))
        self._migrate(conn)
        if zeroed:
            # A 0-byte ledger (a bad restore, a truncation): its history is
            # gone.  The next tick scans in full (no due summary) and says
            # which jobs ran before it; doctor keeps saying so.
            conn.execute("INSERT OR REPLACE INTO cron_meta VALUES ('history_lost', '1')")
            try:
                os.unlink(os.path.join(os.path.dirname(self.path), _DUE_FILE))
            except FileNotFoundError:
                pass
        self._conn = conn
        return conn

    def take_history_lost(self):
        """True once after the ledger was found empty (0 bytes); the mark is removed."""
        if not self.exists():
            return False
        if not self.select("SELECT 1 FROM cron_meta WHERE key='history_lost'"):
            return False  # the common case reads only
        with self._lock:
            return self._write("DELETE FROM cron_meta WHERE key='history_lost'") == 1

    def lacking(self, jobs):
        """The jobs (records) whose ``last_run_at`` or ``fire_claim`` the ledger has no row for.

        A few batched queries, not one per job: ``doctor`` asks it of every job.
        """
        jobs = [j for j in jobs if _safe_component(j.get("id"))]  # else no run came from it
        claims = {}
        for job in jobs:
            claim = job.get("fire_claim") if isinstance(job.get("fire_claim"), dict) else {}
            if isinstance(claim.get("execution_id"), str) and _safe_component(
                    claim["execution_id"]):
                claims[job["id"]] = claim["execution_id"]
        rows = self._present("id", "id", list(claims.values()))
        ran = self._present("job_id", "DISTINCT job_id",
                            [j["id"] for j in jobs if j.get("last_run_at")])
        return [j for j in jobs if (j["id"] in claims and claims[j["id"]] not in rows)
                or (j.get("last_run_at") and j["id"] not in ran)]

    def _present(self, column, what, values):
        """The *values* of *column* some row of executions holds (in chunks of 500)."""
        found = set()
        for start in range(0, len(values), 500):
            chunk = values[start:start + 500]
            found |= {r[column] for r in self.select(
                f"SELECT {what} AS {column} FROM executions WHERE {column} IN "
                f"({','.join('?' * len(chunk))})", tuple(chunk))}
        return found

    def _migrate(self, conn):
        import sqlite3

        for ddl in _LEDGER_SCHEMA:
            conn.execute(ddl)
        for table, late in _LEDGER_LATE_COLUMNS:
            have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            for name, decl in late:
                if name not in have:
                    try:
                        conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {decl}")
                    except sqlite3.OperationalError as exc:
                        if "duplicate column" not in str(exc):  # a concurrent opener won
                            raise
        for ddl in _LEDGER_INDEXES:
            conn.execute(ddl)
        for ddl in _LEDGER_COUNTERS:
            conn.execute(ddl)

    def close(self):
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _write(self, sql, params=()):
        import sqlite3

        with self._lock:
            try:
                return self.connect().execute(sql, params).rowcount
            except sqlite3.Error as exc:
                error = _as_storage_error(exc, self.path)
                if error is None:
                    raise
                raise error from None

    def grouped(self, sql, params, *more):
        """Run one write in the next group commit; return its rowcount.

        Runs that end together share one transaction, and so one fsync, where
        each would pay its own: the first write of a batch waits for the
        batch before it to commit, then commits every write queued so far,
        while the next ones queue behind it.  A lone writer commits at once.
        It returns only once its write is committed.  If a shared transaction
        fails, each of its writes is tried again alone, so only the write at
        fault sees its error.  *more* are (sql, params) writes that commit
        with it.  Never call it holding the connection's lock: the committer
        needs it.  A generator, as a run's steps are: it yields the ``_Done``
        of a batch it waits for (``_drive`` waits on the caller's thread).
        """
        entry = [((sql, params),) + more, None, None]  # statements, rowcount, error
        with self._group:
            if self._batch_done is None:
                self._batch_done = _Done()
            self._queued.append(entry)
            done, leads = self._batch_done, len(self._queued) == 1
        if not leads:  # woken once, when the batch is committed: no herd per commit
            yield done
        else:
            try:
                with self._leading:  # the batch before ours commits meanwhile
                    with self._group:
                        batch, self._queued = self._queued, []
                        self._batch_done = _Done()
                    self._commit(batch)
            finally:
                done.set()
        if entry[2] is not None:
            raise entry[2]
        return entry[1]

    def _commit(self, batch):
        try:
            if len(batch) > 1:
                try:
                    self._run(batch)
                    return
                except Exception:  # each write alone tells whose error it is
                    pass
            for entry in batch:
                try:
                    self._run([entry])
                except Exception as exc:
                    entry[2] = exc if isinstance(exc, HermesCronError) else (
                        _as_storage_error(exc, self.path) or exc)
        finally:
            for entry in batch:
                if entry[1] is None and entry[2] is None:
                    entry[2] = StorageError("the group commit was interrupted", self.path,
                                            "the next tick settles this run")

    def _run(self, batch):
        """Commit *batch* in one transaction; each entry's count is its first statement's."""
        counts = []
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                for statements, _, _ in batch:
                    counts.append([conn.execute(sql, params).rowcount
                                   for sql, params in statements][0])
        for entry, count in zip(batch, counts):
            entry[1] = count

    # -- transitions ----------------------------------------------------------

    def claim(self, rows, source, now, eids=None):
        """Insert one ``claimed`` row per (job_id, scheduled_instant[, attempt, jitter]);
        return their ids (*eids*, when given: a fleet's claims name them first).  A retry
        or a jittered slot also gets its ``cron_attempts`` row."""
        given = iter(eids or ())
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                eids = []
                for job_id, instant, *extra in rows:
                    eid = self._insert(conn, job_id, instant, source, now, next(given, None))
                    attempt, jitter = (extra + [1, 0])[:2] if extra else (1, 0)
                    if attempt > 1 or jitter:
                        conn.execute(*self.attempt_write(eid, job_id, instant, attempt, jitter))
                    eids.append(eid)
                return eids

    @staticmethod
    def attempt_write(eid, job_id, instant, attempt, jitter, retry_at=None, note=None):
        """The write of a run's ``cron_attempts`` row (for ``claim``, or ``finish``'s *also*)."""
        return ("INSERT OR REPLACE INTO cron_attempts VALUES (?,?,?,?,?,?,?)",
                (eid, job_id, instant, attempt, jitter, retry_at, note))

    def attempts(self, eids):
        """``{execution_id: cron_attempts row}`` of the runs *eids* that have one."""
        eids = list(eids)
        if not eids or not self.exists():
            return {}
        out = {}
        for start in range(0, len(eids), 500):
            part = eids[start:start + 500]
            for row in self.select(f"SELECT * FROM cron_attempts WHERE execution_id IN "
                                   f"({','.join('?' * len(part))})", part):
                out[row["execution_id"]] = row
        return out

    def announce(self, eid, job_id, instant, attempt, jitter, child):
        """Note a Replace job's running child (``child PID START``), for a newer run to stop."""
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                conn.execute("INSERT OR IGNORE INTO cron_attempts VALUES (?,?,?,?,?,NULL,NULL)",
                             (eid, job_id, instant, attempt, jitter))
                conn.execute("UPDATE cron_attempts SET note=? WHERE execution_id=?", (child, eid))

    def mark_replaced(self, eid, job_id, by):
        """Say run *eid* is replaced by run *by*; return the child it announced, or None."""
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                found = conn.execute("SELECT note FROM cron_attempts WHERE execution_id=?",
                                     (eid,)).fetchone()
                conn.execute("INSERT OR IGNORE INTO cron_attempts (execution_id, job_id) "
                             "VALUES (?,?)", (eid, job_id))
                conn.execute("UPDATE cron_attempts SET note=? WHERE execution_id=?",
                             (f"replaced {by}", eid))
        note = found[0] if found and found[0] else ""
        return note if note.startswith("child ") else None

    def replaced_by(self, eid):
        """The run that replaced run *eid* (``concurrency: replace``), or None."""
        rows = self.select("SELECT note FROM cron_attempts WHERE execution_id=?", (eid,))
        note = rows[0]["note"] if rows and rows[0]["note"] else ""
        return note.partition(" ")[2] if note.startswith("replaced ") else None

    def attempt_taken(self, job_id, instant, attempt):
        """True if a row holds attempt *attempt* (or a later one) of a slot."""
        if not self.exists():
            return False
        self.connect()  # the read-write connection: no snapshot may miss a fresh claim
        return bool(self.select("SELECT 1 FROM cron_attempts WHERE job_id=? AND "
                                "scheduled_instant=? AND attempt>=? LIMIT 1",
                                (job_id, instant, attempt)))

    def claim_occurrence(self, job_id, instant, source, now, retry=None, eid=None):
        """Claim an occurrence unless any row has it; return (new id, existing row).

        The check and the insert are one transaction, so two processes that
        fire the same occurrence at once get one row between them.  With
        *retry* (the id of the slot's failed last row, the attempt to run),
        the new attempt's row is claimed only while that row is still the
        slot's last: two retries of one attempt get one row.
        """
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                cur = conn.execute("SELECT * FROM executions WHERE job_id=? AND scheduled_instant"
                                   "=? ORDER BY rowid DESC LIMIT 1", (job_id, instant))
                found = cur.fetchone()
                if found is not None:  # by name: an upstream table orders its columns its own way
                    found = dict(zip([d[0] for d in cur.description], found))
                    if retry is None or found["id"] != retry[0]:
                        return None, found
                eid = self._insert(conn, job_id, instant, source, now, eid)
                if retry is not None:
                    conn.execute(*self.attempt_write(eid, job_id, instant, retry[1], 0))
                return eid, None

    def last_attempt(self, job_id, instant):
        """(row, attempt, note) of a slot's last row, or None if it has none."""
        if not self.exists():
            return None
        rows = self.select("SELECT e.*, a.attempt AS attempt_number, a.note AS attempt_note "
                           "FROM executions e LEFT JOIN cron_attempts a ON a.execution_id=e.id "
                           "WHERE e.job_id=? AND e.scheduled_instant=? ORDER BY e.rowid DESC "
                           "LIMIT 1", (job_id, instant))
        if not rows:
            return None
        return rows[0], rows[0]["attempt_number"] or 1, rows[0]["attempt_note"] or ""

    def register(self, now, conn=None):
        """Record where this process runs, so others can prove its death later."""
        me = _identity()
        if self._registered != me["process_id"]:
            with self._lock:
                (conn or self.connect()).execute(
                    "INSERT OR IGNORE INTO cron_processes VALUES (?,?,?,?,?,?,?)",
                    (me["process_id"], me["hostname"], me["boot_id"], me["pid_namespace"],
                     me["pid"], me["started_at"], _iso(now)))
                self._registered = me["process_id"]

    def owner_dead(self, process_id, pid, started_at):
        """True if the process *process_id* (pid, start time) is provably dead."""
        return self.owner_state(process_id, pid, started_at) == "dead"

    def owner_state(self, process_id, pid, started_at, by_row=False):
        """'alive' or 'dead' where it can be proven (this host, boot and pid
        namespace), else 'unknown' (another host or container, or no record:
        with *by_row*, see ``_owner_state``)."""
        rows = self.select("SELECT hostname, boot_id, pid_namespace, started_at FROM "
                          "cron_processes WHERE process_id=?", (process_id,))
        if pid is None:
            return "unknown"
        known = rows[0].pop("started_at") if rows else None
        owner = dict(rows[0] if rows else dict.fromkeys(("hostname", "boot_id",
                                                           "pid_namespace")),
                     pid=pid, process_started_at=started_at if started_at is not None else known)
        return _owner_state(owner, _identity(), by_row)

    def _insert(self, conn, job_id, instant, source, now, eid=None):
        me = _identity()
        self.register(now, conn)
        eid = eid or os.urandom(16).hex()
        conn.execute(
            "INSERT INTO executions (id, job_id, source, process_id, pid, process_started_at, "
            "status, claimed_at, scheduled_instant) VALUES (?,?,?,?,?,?,'claimed',?,?)",
            (eid, job_id, source, me["process_id"], me["pid"], me["started_at"],
             now.isoformat(), instant))
        return eid

    def retract(self, eid):
        """Take back this process's own claim that never started (a failed hand-off)."""
        me = _identity()
        return self._write("DELETE FROM executions WHERE id=? AND status='claimed' AND "
                           "started_at IS NULL AND process_id=? AND pid=?",
                           (eid, me["process_id"], me["pid"])) == 1

    def start(self, eid, now):
        """claimed -> running; False if this process no longer owns the row.  A generator
        (see ``grouped``)."""
        me = _identity()
        return (yield from self.grouped(
            "UPDATE executions SET status='running', started_at=? "
            "WHERE id=? AND status='claimed' AND process_id=? AND pid=?",
            (now.isoformat(), eid, me["process_id"], me["pid"]))) == 1

    def finish(self, eid, ok, error, delivery_outcome, now, also=()):
        """claimed|running -> completed|failed; terminal rows never change.

        *also* are (sql, params) writes committed with it (an incident resolved).  A
        generator (see ``grouped``).
        """
        me = _identity()
        return (yield from self.grouped(
            "UPDATE executions SET status=?, finished_at=?, error=?, delivery_outcome=?, "
            "handoff_pending=0 WHERE id=? AND status IN ('claimed','running') "
            "AND process_id=? AND pid=?",
            ("completed" if ok else "failed", now.isoformat(), None if ok else redact(error or
             "unknown failure"), delivery_outcome, eid, me["process_id"], me["pid"]),
            *also)) == 1

    def mark_unknown(self, row, error, now):
        """Turn an active row of another owner into ``unknown`` (compare-and-set)."""
        return self._write(
            "UPDATE executions SET status='unknown', finished_at=?, error=?, handoff_pending=0 "
            "WHERE id=? AND status=? AND process_id=? AND pid=?",
            (now.isoformat(), error, row["id"], row["status"], row["process_id"],
             row["pid"])) == 1

    def reconcile(self, now):
        """Mark rows whose owner is provably dead ``unknown``; return their ids."""
        if not self.exists():
            return []
        me = _identity()
        with self._lock:
            rows = self.connect().execute(
                "SELECT e.id, e.job_id, e.status, e.process_id, e.pid, e.process_started_at, "
                "p.hostname, p.boot_id, p.pid_namespace FROM executions e "
                "LEFT JOIN cron_processes p ON p.process_id = e.process_id "
                "WHERE e.status IN ('claimed','running')").fetchall()
        keys = ("id", "job_id", "status", "process_id", "pid", "process_started_at",
                "hostname", "boot_id", "pid_namespace")
        done = []
        for values in rows:
            row = dict(zip(keys, values))
            if row["process_id"] != me["process_id"] and _owner_state(row, me, True) == "dead" \
                    and self.mark_unknown(row, _UNKNOWN_ERROR, now):
                done.append(row["id"])
        return done

    def settle_unclaimed(self, claimed, now):
        """Mark ``unknown`` the active rows of other processes that no job's fire_claim
        names any more (the job was removed or its claim settled) and that are older
        than the claim TTL; return their ids."""
        rows = self.select("SELECT id, status, process_id, pid, claimed_at FROM executions "
                          "WHERE status IN ('claimed','running')")
        me, done = _identity()["process_id"], []
        for row in rows:
            claimed_at = _parse_stored(row["claimed_at"])
            if row["id"] in claimed or row["process_id"] == me or claimed_at is None or \
                    (now - claimed_at).total_seconds() < _ORPHAN_AFTER:
                continue
            if self.mark_unknown(row, _ORPHAN_ERROR, now):
                done.append(row["id"])
        return done

    @staticmethod
    def verdict_write(eid, job_id, checked_by, verdict, now):
        """The write that records a run's verdict, for ``finish`` to commit with its result."""
        return ("INSERT OR REPLACE INTO cron_verdicts VALUES (?,?,?,?,?,?)",
                (eid, job_id, checked_by, verdict.verdict, verdict.json(), _iso(now)))

    def record_verdict(self, eid, job_id, checked_by, verdict, now):
        """Record a watchdog's verdict on another job's (finished) run."""
        self._write(*self.verdict_write(eid, job_id, checked_by, verdict, now))

    def verdicts(self, eids):
        """``{execution_id: [verdict rows]}`` of the runs *eids*, own checks first."""
        eids = list(eids)
        if not eids or not self.exists():
            return {}
        out = {}
        for start in range(0, len(eids), 500):
            part = eids[start:start + 500]
            for row in self.select(
                    f"SELECT * FROM cron_verdicts WHERE execution_id IN "
                    f"({','.join('?' * len(part))}) ORDER BY job_id<>checked_by, checked_at",
                    part):
                out.setdefault(row["execution_id"], []).append(row)
        return out

    def record_skip(self, job_id, instant, reason, detail, now):
        """Record why a slot did not fire (once per job, slot and reason)."""
        self.record_skips([(job_id, instant, reason, detail)], now)

    def record_skips(self, skips, now):
        """Record many ``(job_id, instant, reason, detail)`` in one transaction."""
        if not skips:
            return
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                conn.executemany("INSERT OR IGNORE INTO cron_skips VALUES (?,?,?,?,?)",
                                 [(j, i, r, redact(d), _iso(now)) for j, i, r, d in skips])

    def sweep_due(self, now):
        """True when the daily sweep of ``prune`` is due (or never ran)."""
        rows = self.select("SELECT value FROM cron_meta WHERE key='swept'")
        return not rows or now.timestamp() - float(rows[0]["value"]) >= _SWEEP_EVERY

    def prune(self, ran, live=None, now=None):
        """Drop terminal rows no rule keeps; cost follows what it deletes.

        Kept: the newest 1,000 rows, every row of the last two hours (a
        slot's grace window), and the newest 20 of each live job.  A job's
        ``history_limit`` N replaces its 20: beyond its newest N its rows go
        as soon as they leave the two hours, however few the ledger holds.
        *ran* maps the jobs that just finished runs to their limits (or
        None): only their floors can have moved.  With *live* (the store's
        ids, mapped the same way) and *now*, a full sweep runs once a day (and
        on a ledger that never had one, such as an upstream file); rows of
        removed jobs go then, or at once through ``forget``.
        """
        ran = ran if isinstance(ran, dict) else dict.fromkeys(ran)
        live = live if live is None or isinstance(live, dict) else dict.fromkeys(live)
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                cutoff = self._cutoff(conn, now)
                recent = None if now is None else _julian(now - timedelta(seconds=_MAX_GRACE))
                deleted = 0
                for job_id in sorted(ran):
                    limit = ran[job_id]
                    below = cutoff if limit is None else recent
                    if below is None:
                        continue
                    gone = conn.execute(_PRUNE_JOB, (job_id, below, job_id,
                                                     limit or _MIN_ROWS_PER_JOB)).rowcount
                    if gone:  # their verdicts and attempts go with them
                        conn.execute(_PRUNE_VERDICTS, (job_id, job_id))
                        conn.execute(_PRUNE_ATTEMPTS, (job_id, job_id))
                    deleted += gone
                # Skips are written in time order: rowid order is instant order.
                deleted += conn.execute(
                    "DELETE FROM cron_skips WHERE rowid <= (SELECT max(rowid) FROM cron_skips) "
                    "- ?", (_MAX_TERMINAL_ROWS,)).rowcount
                swept = conn.execute("SELECT value FROM cron_meta WHERE key='swept'").fetchone()
            if live is not None and now is not None and (
                    swept is None or now.timestamp() - float(swept[0]) >= _SWEEP_EVERY):
                if cutoff is not None:
                    deleted += self._sweep(conn, cutoff, live)
                conn.execute("INSERT OR REPLACE INTO cron_meta VALUES ('swept', ?)",
                             (repr(now.timestamp()),))
            if deleted:
                self._reclaim(conn)
            return deleted

    def forget(self, job_id, now):
        """Drop a removed job's terminal rows that no longer count (beyond the newest 1,000)."""
        if not self.exists():
            return 0
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                cutoff = self._cutoff(conn, now)
                deleted = 0 if cutoff is None else conn.execute(
                    "DELETE FROM executions WHERE job_id=? AND julianday(claimed_at) < ? AND "
                    "status IN ('completed','failed','unknown')", (job_id, cutoff)).rowcount
                # Its per-job totals go with it: a removed job has no series.
                counts, verdicts = f"job_executions_total:{job_id}:", f"verdicts_total:{job_id}:"
                conn.execute("DELETE FROM cron_meta WHERE key IN (?, ?, ?) OR substr(key, 1, ?)"
                             " = ? OR substr(key, 1, ?) = ?", (
                                 f"job_duration_sum:{job_id}", f"job_duration_count:{job_id}",
                                 f"last_success:{job_id}", len(counts), counts, len(verdicts),
                                 verdicts))
            if deleted:
                self._reclaim(conn)
            return deleted

    def _cutoff(self, conn, now):
        """julianday below which rows are past the newest 1,000 and the last two hours."""
        # '+status': walk the instant index from the newest row, not the status one.
        row = conn.execute("SELECT julianday(claimed_at) FROM executions WHERE +status IN "
                           "('completed','failed','unknown') "
                           "ORDER BY julianday(claimed_at) DESC LIMIT 1 OFFSET ?",
                           (_MAX_TERMINAL_ROWS - 1,)).fetchone()
        if row is None or row[0] is None:
            return None  # no more than 1,000 rows: all kept
        if now is None:
            return row[0]
        return min(row[0], _julian(now - timedelta(seconds=_MAX_GRACE)))

    def _sweep(self, conn, cutoff, live):
        """Trim every job to what it keeps, in transactions of bounded size.

        A range delete per job through the (job, instant) index, committed
        every few thousand rows: a million-row ledger from an older version
        is trimmed without holding the write lock for long at a time, so
        readers and runs go on meanwhile.
        """
        deleted = pending = 0
        jobs = [r[0] for r in conn.execute("SELECT DISTINCT job_id FROM executions")]
        conn.execute("BEGIN IMMEDIATE")
        try:
            for job_id in jobs:
                below = cutoff
                if job_id in live:
                    floor = conn.execute(
                        "SELECT julianday(claimed_at) FROM executions WHERE job_id=? AND "
                        "status IN ('completed','failed','unknown') "
                        "ORDER BY julianday(claimed_at) DESC LIMIT 1 OFFSET ?",
                        (job_id, (live[job_id] or _MIN_ROWS_PER_JOB) - 1)).fetchone()
                    if floor is None or floor[0] is None:
                        continue  # its newest 20 are all it has
                    below = min(cutoff, floor[0])
                pending += conn.execute(
                    "DELETE FROM executions WHERE job_id=? AND julianday(claimed_at) < ? AND "
                    "status IN ('completed','failed','unknown')", (job_id, below)).rowcount
                if pending >= _SWEEP_BATCH:
                    conn.execute("COMMIT")
                    deleted, pending = deleted + pending, 0
                    conn.execute("BEGIN IMMEDIATE")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return deleted + pending

    def _reclaim(self, conn):
        """Give the pages of deleted rows back to the file system."""
        import sqlite3

        try:
            mode = conn.execute("PRAGMA auto_vacuum").fetchone()[0]
            if mode == 2:  # incremental
                # A few thousand pages per transaction, so a big prune does not
                # hold the write lock for long; executescript steps the pragma
                # to the end (execute() would free one page per call).
                while conn.execute("PRAGMA freelist_count").fetchone()[0]:
                    conn.executescript(f"PRAGMA incremental_vacuum({_VACUUM_STEP_PAGES})")
                return
            free = conn.execute("PRAGMA freelist_count").fetchone()[0]
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            if free >= _VACUUM_MIN_FREE_PAGES and free * 4 >= pages:
                # A file made before incremental vacuum (ours or upstream's):
                # one VACUUM converts it; SQLite makes it atomic.
                conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
                conn.execute("VACUUM")
        except sqlite3.OperationalError:
            pass  # busy: the pages stay free for new rows and go at a later prune

    # -- queries --------------------------------------------------------------

    def select(self, sql, params=()):
        if not self.exists():
            return []
        import sqlite3

        with self._lock:
            # Without our own read-write connection, each read opens a short-lived
            # read-only one: a cached reader could miss later writes of others.
            conn = self._conn or _read_only(self.path)
            try:
                cur = conn.execute(sql, params)
                names = [d[0] for d in cur.description]
                return [dict(zip(names, r)) for r in cur.fetchall()]
            except sqlite3.OperationalError as exc:
                if "no such" in str(exc):  # an old store not migrated yet: nothing to read
                    return []
                raise
            finally:
                if conn is not self._conn:
                    conn.close()

    def rows(self, job_id=None, limit=20):
        """Return execution rows, newest first."""
        where, params = ("WHERE job_id=? ", (job_id,)) if job_id else ("", ())
        return self.select(f"SELECT * FROM executions {where}"
                          "ORDER BY julianday(claimed_at) DESC, rowid DESC LIMIT ?",
                          params + (limit,))

    def rows_of(self, job_ids, limit=20):
        """The newest *limit* rows of the jobs *job_ids*, newest first (in bounded queries)."""
        rows = []
        for start in range(0, len(job_ids), 500):  # below any SQLite's variable limit
            chunk = tuple(job_ids[start:start + 500])
            rows += self.select(
                f"SELECT *, julianday(claimed_at) AS _at, rowid AS _n FROM executions WHERE "
                f"job_id IN ({','.join('?' * len(chunk))}) "
                f"ORDER BY julianday(claimed_at) DESC, rowid DESC LIMIT ?", chunk + (limit,))
        rows.sort(key=lambda r: (r["_at"] or 0, r["_n"]), reverse=True)
        for row in rows:
            del row["_at"], row["_n"]
        return rows[:limit]

    def page(self, job_id=None, offset=0, limit=50, failed=False):
        """(rows, total): one page of the rows of *job_id* (every job's with None),
        newest first, and how many there are; *failed* keeps failed and unknown."""
        where = ["job_id=?"] if job_id else []
        if failed:
            where.append("status IN ('failed','unknown')")
        clause = " WHERE " + " AND ".join(where) if where else ""
        params = (job_id,) if job_id else ()
        counted = self.select(f"SELECT count(*) AS n FROM executions{clause}", params)
        rows = self.select(f"SELECT * FROM executions{clause} ORDER BY julianday(claimed_at) "
                           f"DESC, rowid DESC LIMIT ? OFFSET ?", params + (limit, offset))
        return rows, counted[0]["n"] if counted else 0

    def outcomes(self, job_ids, n):
        """``{job_id: [status, ...]}``: each job's last *n* statuses, newest first."""
        if not self.exists():
            return {}
        import sqlite3

        sql = "SELECT status FROM executions WHERE job_id=? ORDER BY julianday(claimed_at) " \
              "DESC LIMIT ?"
        with self._lock:
            conn = self._conn or _read_only(self.path)  # one reader for them all
            try:  # each an index walk of n entries, however long the history
                return {job_id: [r[0] for r in conn.execute(sql, (job_id, n))]
                        for job_id in job_ids}
            except sqlite3.OperationalError as exc:
                if "no such" in str(exc):
                    return {}
                raise
            finally:
                if conn is not self._conn:
                    conn.close()

    def hourly(self, now, hours=24):
        """``[(runs, failed), ...]`` of each of the last *hours* hours, oldest first
        (failed counts failed and unknown runs)."""
        cells = [[0, 0] for _ in range(hours)]
        for r in self.select(
                # Whole seconds first: a run an exact hour ago is in that hour's cell.
                "SELECT CAST(ROUND((julianday(?) - julianday(claimed_at)) * 86400) AS INTEGER) "
                "/ 3600 AS h, status IN ('failed','unknown') AS bad, count(*) AS n "
                "FROM executions WHERE julianday(claimed_at) > julianday(?) - (? + 1) / 24.0 "
                "GROUP BY h, bad", (_iso(now), _iso(now), hours)):
            if 0 <= r["h"] < hours:
                cell = cells[hours - 1 - r["h"]]
                cell[0] += r["n"]
                cell[1] += r["n"] if r["bad"] else 0
        return [tuple(c) for c in cells]

    def get(self, ids):
        marks = ",".join("?" * len(ids))
        return {r["id"]: r for r in self.select(
            f"SELECT * FROM executions WHERE id IN ({marks})", tuple(ids))} if ids else {}

    def count_active(self):
        rows = self.select("SELECT count(*) AS n FROM executions "
                          "WHERE status IN ('claimed','running')")
        return rows[0]["n"] if rows else 0

    def has_occurrence(self, job_id, instant):
        """True if any row (whatever its status) holds the occurrence *instant* of *job_id*.

        The tick asks this right before it claims, so it reads through the
        read-write connection: never a snapshot that could miss a fresh row.
        """
        if instant is None or not self.exists():
            return False
        self.connect()
        return bool(self.select("SELECT 1 FROM executions WHERE job_id=? AND scheduled_instant=? "
                               "LIMIT 1", (job_id, instant)))


# SQLite 3.7.0-3.51.2 can corrupt a WAL database when a checkpoint resets the
# WAL while connections in other threads or processes write: exactly how a
# home is used (run threads, concurrent ticks, CLI writers).
_WAL_FIXED_IN = (3, 51, 3)


def _wal_wanted(environ):
    """True if stores should use WAL: a fixed SQLite, or ``HERMES_CRON_SQLITE_WAL=1``."""
    import sqlite3

    return sqlite3.sqlite_version_info >= _WAL_FIXED_IN or \
        environ.get(_ENV_PREFIX + "SQLITE_WAL", "").strip() == "1"


def _open_rw(path, wal):
    """Open (creating, mode 0600) an SQLite store read-write in the journal mode wanted.

    Without *wal* a WAL file is switched back to the rollback journal (when
    no other connection holds it; else at a later open) and a rollback file
    is never switched to WAL.  New files reclaim free pages incrementally.
    """
    import sqlite3

    fd = _open_own(path, os.O_RDWR | os.O_CREAT)
    try:
        fresh = os.fstat(fd).st_size == 0
    finally:
        os.close(fd)
    conn = sqlite3.connect(path, timeout=5.0, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA busy_timeout=5000")
        if fresh:
            conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        want = "wal" if wal else "delete"
        if mode != want and (wal or mode == "wal"):
            try:
                conn.execute(f"PRAGMA journal_mode={want.upper()}")
            except sqlite3.OperationalError:
                pass  # another connection holds it: the mode changes at a later open
        conn.execute("PRAGMA synchronous=FULL")
    except BaseException as exc:
        conn.close()
        error = _as_storage_error(exc, path) if isinstance(exc, sqlite3.Error) else None
        if error is None:
            raise
        raise error from None
    return conn


def _journal_of(path):
    """The journal mode recorded in an SQLite file's header: 'wal', 'delete' or None."""
    try:
        with open(path, "rb") as f:
            header = f.read(20)
    except OSError:
        return None
    if len(header) < 20 or not header.startswith(b"SQLite format 3\0"):
        return None
    return "wal" if header[18] == 2 else "delete"


def _storage_error(exc):
    """True for an error of the storage (SQLite, the file system), not of a record."""
    sqlite3 = sys.modules.get("sqlite3")
    return isinstance(exc, OSError) or (sqlite3 is not None and isinstance(exc, sqlite3.Error))


def _read_only(path):
    """Open an SQLite file for reading without writing anything next to it.

    A rollback-journal file is read with a plain read-only connection (it
    takes shared locks and creates nothing).  A WAL file with no ``-wal``
    file (no writer has it open) is read as immutable, so no ``-shm``/``-wal``
    is created; with one, a read-only connection shares the writer's WAL.
    """
    import sqlite3

    if os.path.islink(path):
        _refuse_link(path)
    if os.path.exists(path + "-journal") and os.path.getsize(path + "-journal") > 0:
        # A writer died mid-transaction: SQLite must roll its journal back
        # (restoring the file as it was) before anyone can read, and a
        # read-only connection cannot.  Nothing new is written.
        flags = "mode=rw"
    elif _journal_of(path) != "wal" or os.path.exists(path + "-wal"):
        flags = "mode=ro"
    else:
        flags = "mode=ro&immutable=1"
    conn = sqlite3.connect(f"file:{path}?{flags}", uri=True, timeout=5.0, isolation_level=None,
                           check_same_thread=False)
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def _transaction(conn):
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any error), as a context manager.

    A write the file system refuses (full, read-only, too large) raises
    ``StorageError`` naming the database file.
    """
    import contextlib
    import sqlite3

    @contextlib.contextmanager
    def scope():
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield
                # Inside the guard: a COMMIT that fails (busy past the timeout in
                # the rollback journal) must not leave the transaction open.
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            if str(exc) not in _SQLITE_STORAGE_FIXES:
                raise
            path = conn.execute("PRAGMA database_list").fetchone()[2]  # the main database
            raise _as_storage_error(exc, path) from None

    return scope()


def _instant(value):
    """Return the canonical UTC ISO identity of a slot (``...+00:00``), or None.

    At the precision the slot has: whole seconds, or microseconds if it has them.
    """
    dt = _parse_stored(value) if isinstance(value, str) else value
    return _iso_exact(dt.astimezone(_UTC)) if dt is not None else None


# --- 12.1 Running totals for the metrics -------------------------------------

# Triggers keep the totals in cron_meta, in the transaction of the transition
# itself: pruning rows never lowers a total, a crash never counts one twice, and
# every code path that finishes a row or records a skip is counted.  A skip the
# unique index ignores is no insert, so it is not counted either.
_LEDGER_COUNTERS = (
    """CREATE TRIGGER IF NOT EXISTS cron_count_executions AFTER UPDATE OF status ON executions
    WHEN OLD.status IN ('claimed','running') AND NEW.status IN ('completed','failed','unknown')
    BEGIN
        INSERT OR IGNORE INTO cron_meta VALUES ('executions_total:' || NEW.status, '0');
        UPDATE cron_meta SET value = CAST(value AS INTEGER) + 1
            WHERE key = 'executions_total:' || NEW.status;
        INSERT OR REPLACE INTO cron_meta SELECT 'last_success:' || NEW.job_id, NEW.finished_at
            WHERE NEW.status = 'completed';
    END""",
    # Per job (issue 27): runs by outcome, and the summary of run durations.
    """CREATE TRIGGER IF NOT EXISTS cron_count_job_executions AFTER UPDATE OF status
    ON executions
    WHEN OLD.status IN ('claimed','running') AND NEW.status IN ('completed','failed','unknown')
    BEGIN
        INSERT OR IGNORE INTO cron_meta VALUES
            ('job_executions_total:' || NEW.job_id || ':' || NEW.status, '0');
        UPDATE cron_meta SET value = CAST(value AS INTEGER) + 1
            WHERE key = 'job_executions_total:' || NEW.job_id || ':' || NEW.status;
        INSERT OR IGNORE INTO cron_meta SELECT 'job_duration_count:' || NEW.job_id, '0'
            WHERE NEW.status != 'unknown' AND julianday(NEW.started_at) IS NOT NULL
            AND julianday(NEW.finished_at) IS NOT NULL;
        INSERT OR IGNORE INTO cron_meta SELECT 'job_duration_sum:' || NEW.job_id, '0'
            WHERE NEW.status != 'unknown' AND julianday(NEW.started_at) IS NOT NULL
            AND julianday(NEW.finished_at) IS NOT NULL;
        UPDATE cron_meta SET value = CAST(value AS INTEGER) + 1
            WHERE key = 'job_duration_count:' || NEW.job_id AND NEW.status != 'unknown'
            AND julianday(NEW.started_at) IS NOT NULL AND julianday(NEW.finished_at) IS NOT NULL;
        UPDATE cron_meta SET value = CAST(value AS REAL) + max(0.0,
                (julianday(NEW.finished_at) - julianday(NEW.started_at)) * 86400.0)
            WHERE key = 'job_duration_sum:' || NEW.job_id AND NEW.status != 'unknown'
            AND julianday(NEW.started_at) IS NOT NULL AND julianday(NEW.finished_at) IS NOT NULL;
    END""",
    """CREATE TRIGGER IF NOT EXISTS cron_count_skips AFTER INSERT ON cron_skips
    BEGIN
        INSERT OR IGNORE INTO cron_meta VALUES ('skips_total:' || NEW.reason, '0');
        UPDATE cron_meta SET value = CAST(value AS INTEGER) + 1
            WHERE key = 'skips_total:' || NEW.reason;
    END""",
    """CREATE TRIGGER IF NOT EXISTS cron_count_verdicts AFTER INSERT ON cron_verdicts
    BEGIN
        INSERT OR IGNORE INTO cron_meta VALUES
            ('verdicts_total:' || NEW.job_id || ':' || NEW.verdict, '0');
        UPDATE cron_meta SET value = CAST(value AS INTEGER) + 1
            WHERE key = 'verdicts_total:' || NEW.job_id || ':' || NEW.verdict;
    END""",
)


def _ledger_totals(ledger):
    """The running totals: ``{"executions": {status: n}, "skips": {reason: n},
    "verdicts": {"job_id:verdict": n}, "last_success": {job_id: finished_at},
    "job_executions": {(job_id, status): n}, "job_duration": {job_id: [sum, count]}}``
    (reads only)."""
    totals = {"executions": {}, "skips": {}, "verdicts": {}, "last_success": {},
              "job_executions": {}, "job_duration": {}}
    for row in ledger.select("SELECT key, value FROM cron_meta WHERE key LIKE "
                            "'executions_total:%' OR key LIKE 'skips_total:%' OR key LIKE "
                            "'last_success:%' OR key LIKE 'verdicts_total:%' OR key LIKE "
                            "'job_executions_total:%' OR key LIKE 'job_duration_%'"):
        kind, _, label = row["key"].partition(":")
        if kind == "last_success":
            totals["last_success"][label] = row["value"]
        elif kind == "job_executions_total":
            job_id, _, status = label.rpartition(":")
            totals["job_executions"][(job_id, status)] = int(row["value"])
        elif kind in ("job_duration_sum", "job_duration_count"):
            pair = totals["job_duration"].setdefault(label, [0.0, 0])
            pair[kind.endswith("count")] = float(row["value"]) if kind.endswith("sum") \
                else int(row["value"])
        else:
            totals[kind.split("_")[0]][label] = int(row["value"])
    return totals


def _latest_durations(ledger, job_ids):
    """The latest finished run of each of *job_ids*: ``{job_id: (status, seconds)}``.

    One index-bounded lookup per job (its newest rows first, through
    ``idx_executions_job_claimed_instant``), a few hundred to a statement: the
    cost follows the jobs asked about, not the ledger's size.  Reads only.
    """
    one = ("SELECT * FROM (SELECT job_id, status, started_at, finished_at FROM executions "
           "WHERE job_id=? AND finished_at IS NOT NULL AND started_at IS NOT NULL "
           "ORDER BY julianday(claimed_at) DESC LIMIT 1)")
    job_ids = sorted({j for j in job_ids if isinstance(j, str)})
    rows = []
    for start in range(0, len(job_ids), 200):  # SQLite allows 500 terms to a compound select
        chunk = job_ids[start:start + 200]
        rows += ledger.select(" UNION ALL ".join([one] * len(chunk)), tuple(chunk))
    out = {}
    for row in rows:
        started, finished = _parse_stored(row["started_at"]), _parse_stored(row["finished_at"])
        if started is not None and finished is not None:
            out[row["job_id"]] = (row["status"], (finished - started).total_seconds())
    return out


def _recent_skips(ledger, since):
    """Skips recorded since *since*, by reason: ``{reason: n}`` (reads only)."""
    return {r["reason"]: r["n"] for r in ledger.select(
        "SELECT reason, count(*) AS n FROM cron_skips WHERE julianday(at) >= julianday(?) "
        "GROUP BY reason", (_iso(since),))}


# =============================================================================
# 13. Incidents, notepad and deliveries
#    The other SQLite stores: deduplicated incidents, each job's notepad,
#    the crash-safe delivery queue and the running totals.
# =============================================================================

_INCIDENT_ERROR_CAP = 500
_INCIDENT_STATES = ("detected", "alerted", "resolved", "closed")
_INCIDENT_COLUMNS = ("id", "job_id", "error_sig", "state", "failure_type", "first_seen_at",
                     "last_seen_at", "acked_at", "closed_at", "alerted_at", "error",
                     "output_file", "generation")
# First match wins; plain words match anywhere, status codes as whole numbers.
_FAILURE_TYPES = (
    ("rate_limit", (r"\b429\b", "rate limit", "usage limit", "quota")),
    ("timeout", ("timeout", "timed out")),
    ("auth", (r"\b401\b", "unauthorized", "authentication", "auth")),
    ("delivery", ("deliver",)),  # delivery, delivering, deliver
    ("config", ("config", "configuration", "validation")),
    ("script", ("script", "no_agent")),
    ("agent", ("agent", "model", "provider", "inference")),
)


_SIGNATURE_CHARS = 200  # of the normalised error, hashed into the incident id
# The units of a measured time.  A time ("took 2.5s", "idle for 603 s", "retry in
# 12.5 seconds", "2h 13m") differs from run to run of one failure, so the
# signature reads each as "#s"; other numbers (status and exit codes) still
# tell errors apart.  The 0.22 fork's rule, which ids must agree with.
_SIG_TIME_UNITS = ("ms", "s", "sec", "secs", "second", "seconds", "m", "min", "mins", "minute",
                   "minutes", "h", "hr", "hrs", "hour", "hours")
_SIG_TIME_MASK = "#s"
_SIG_TIME_PATTERN = r"\b\d+(?:\.\d+)?\s*(?:%s)\b" % "|".join(_SIG_TIME_UNITS)


def _normalize_error(error):
    # Whitespace runs to one space, stripped, lowercased: str.split() and re's
    # \s agree on what whitespace is.
    return " ".join(str(error or "").split()).lower()


def _signature_text(error):
    """The part of an error its incident id hashes: normalised, times masked, 200 characters."""
    import re

    return re.sub(_SIG_TIME_PATTERN, _SIG_TIME_MASK, _normalize_error(error))[:_SIGNATURE_CHARS]


def incident_id(job_id: str, error: str) -> str:
    """Return the incident id of a job's error: ``job_id[:6] + "_" + error_sig``.

    ``error_sig = sha256(job_id + signature)[:12]`` (hex), where the signature
    is the error with whitespace collapsed, lowercased, every measured time
    (a number and a unit: ``60s``, ``2.5 s``, ``12 seconds``, ``5 min``,
    ``2h``) replaced by ``#s``, and cut to its first 200 characters.  So
    errors that differ only in case, spacing or a measured time share one
    incident, and the id is the one upstream Hermes 0.22 gives them.
    """
    import hashlib

    sig = hashlib.sha256(job_id.encode() + _signature_text(error).encode()).hexdigest()
    return f"{job_id[:6]}_{sig[:12]}"


def classify_failure(error: str) -> str:
    """Return the failure type of an error text.

    A run's failed checks (``verify url: ...``) are ``unverified``, or
    ``unverifiable`` when a check could not run.  Otherwise the first match,
    in order: ``rate_limit``, ``timeout``, ``auth``, ``delivery``,
    ``config``, ``script``, ``agent``; else ``unknown``.
    """
    import re

    text = _normalize_error(error)
    if text.startswith("verify "):  # a run's checks: their own types, before the words
        return "unverifiable" if "(unverifiable)" in text else "unverified"
    for name, words in _FAILURE_TYPES:
        for word in words:
            if (re.search(word, text) if word.startswith("\\b") else word in text):
                return name
    return "unknown"


class _Incidents:
    """cron_incidents in executions.db: one row per (job, error signature)."""

    def __init__(self, ledger):
        self.ledger = ledger

    def record(self, job_id, error, output_file, now, failure_type=None):
        """Upsert the incident of a failure and return it (a dict).

        A new error is ``detected``; a resolved one re-opens (generation + 1);
        a closed one stays closed.
        """
        iid = incident_id(job_id, error)
        sig = iid.rsplit("_", 1)[1]
        text = _keep_tail(redact(str(error)), _INCIDENT_ERROR_CAP)
        stamp = now.isoformat()
        led = self.ledger
        with led._lock:
            conn = led.connect()
            with _transaction(conn):
                row = conn.execute("SELECT state, generation FROM cron_incidents WHERE id=?",
                                   (iid,)).fetchone()
                if row is None:
                    conn.execute(
                        "INSERT INTO cron_incidents (id, job_id, error_sig, state, failure_type, "
                        "first_seen_at, last_seen_at, error, output_file) "
                        "VALUES (?,?,?,'detected',?,?,?,?,?)",
                        (iid, job_id, sig, failure_type or classify_failure(error), stamp,
                         stamp, text, output_file))
                elif row[0] == "resolved":
                    conn.execute(
                        "UPDATE cron_incidents SET state='detected', generation=generation+1, "
                        "last_seen_at=?, alerted_at=NULL, closed_at=NULL, error=?, output_file=? "
                        "WHERE id=?",
                        (stamp, text, output_file, iid))
                else:
                    conn.execute("UPDATE cron_incidents SET last_seen_at=?, error=?, "
                                 "output_file=? WHERE id=?", (stamp, text, output_file, iid))
        return self.get(iid)

    def get(self, iid):
        rows = self._read("SELECT * FROM cron_incidents WHERE id=?", (iid,))
        return rows[0] if rows else None

    def _read(self, sql, params):
        # A read-only reader sees an upstream table not migrated yet: a row
        # shows every column, the missing ones at their defaults.
        blank = dict.fromkeys(_INCIDENT_COLUMNS, None)
        blank["generation"] = 1
        return [dict(blank, **row) for row in self.ledger.select(sql, params)]

    def alerted(self, iid, now):
        """Mark that an alert for the incident actually left the process."""
        self.ledger._write("UPDATE cron_incidents SET state=CASE WHEN state='detected' THEN "
                           "'alerted' ELSE state END, alerted_at=? WHERE id=? AND state IN "
                           "('detected','alerted')", (now.isoformat(), iid))

    def resolving(self, job_id, delivery, now, eid):
        """The write that resolves the job's open incidents, for ``finish`` to commit.

        Delivery ones (*delivery*), or all the others; only if execution *eid*
        is ``completed`` by then, so it commits in the same transaction as the
        run's result, and not at all for a run whose row was taken from it.
        ``closed_at`` records when, as upstream sets it; a re-opened incident
        clears it again.
        """
        test = "=" if delivery else "<>"
        return (f"UPDATE cron_incidents SET state='resolved', closed_at=? WHERE job_id=? AND "
                f"state IN ('detected','alerted') AND failure_type {test} 'delivery' AND "
                f"EXISTS (SELECT 1 FROM executions WHERE id=? AND status='completed')",
                (now.isoformat(), job_id, eid))

    def ack(self, iid, now):
        """Close an incident for good (an operator's ack); return it, or None."""
        stamp = now.isoformat()
        if not self.ledger.exists():
            return None
        self.ledger._write("UPDATE cron_incidents SET state='closed', acked_at=?, closed_at=? "
                           "WHERE id=? AND state<>'closed'", (stamp, stamp, iid))
        return self.get(iid)

    def reopen(self, iid):
        """Undo an ack: a closed incident is open again; return it, or None.

        It goes back to ``detected`` with no alert on record, so the next
        failure with its signature alerts at once, not after the repeat
        cooldown of an alert sent before the ack.  An incident that is not
        closed is left as it is.
        """
        if not self.ledger.exists():
            return None
        self.ledger._write("UPDATE cron_incidents SET state='detected', acked_at=NULL, "
                           "closed_at=NULL, alerted_at=NULL WHERE id=? AND state='closed'",
                           (iid,))
        return self.get(iid)

    def list(self, state=None, job_id=None):
        where, params = [], []
        if state:
            where.append("state=?")
            params.append(state)
        if job_id:
            where.append("job_id=?")
            params.append(job_id)
        sql = "SELECT * FROM cron_incidents" + (" WHERE " + " AND ".join(where) if where else "")
        return self._read(sql + " ORDER BY julianday(last_seen_at) DESC, id", tuple(params))

    def withhold(self, incident, now, hours):
        """True if a failure alert for *incident* must not be sent now."""
        if incident["state"] == "closed":
            return True
        if hours == 0 or not incident["alerted_at"]:
            return False
        last = _parse_stored(incident["alerted_at"])
        return last is not None and (now - last).total_seconds() < hours * 3600


# --- 13.1 Notepad ------------------------------------------------------------

_NOTEPAD_FILE = "notepad.db"
_NOTE_KEY_CHARS = 128
_NOTE_VALUE_BYTES = 16 * 1024
_NOTEPAD_BYTES = 64 * 1024
_NOTEPAD_HEADING = "## Job notepad (persistent across runs)"


def _notepad_command(home, job_id):
    """A notepad command line that works where the agent runs, whatever its working
    directory: this interpreter, this file and this home, not ``python -m``."""
    import shlex

    return " ".join(shlex.quote(part) for part in (
        sys.executable, os.path.abspath(__file__), "--home", home, "notepad", job_id))


class _Notepad:
    """notepad.db: a small key/value scratchpad per job, injected into its prompt."""

    def __init__(self, home, environ=None):
        self.path = os.path.join(home, _NOTEPAD_FILE)
        self.environ = os.environ if environ is None else environ

    def _connect(self, readonly):
        if readonly:
            conn = _read_only(self.path)
        else:
            conn = _open_rw(self.path, _wal_wanted(self.environ))
            try:
                with _transaction(conn):  # a refused write names the file
                    conn.execute("CREATE TABLE IF NOT EXISTS cron_notepad(job_id TEXT NOT NULL, "
                                 "key TEXT NOT NULL, value TEXT NOT NULL, updated_at TEXT NOT "
                                 "NULL, PRIMARY KEY (job_id, key))")
            except BaseException:
                conn.close()
                raise
        return conn

    def set(self, job_id, key, value, now):
        """Set one key; raise InvalidInputError (a ValueError) past a limit, changing nothing."""
        key, value = _check_note_key(key), value
        if not isinstance(value, str) or not _utf8_ok(value):
            raise InvalidInputError("notepad value must be valid Unicode text", value,
                                    "pass a string (no lone surrogates)")
        size = len(value.encode("utf-8"))
        if size > _NOTE_VALUE_BYTES:
            raise InvalidInputError(f"notepad value too large ({size} bytes; max "
                                    f"{_NOTE_VALUE_BYTES} bytes per key)", key,
                                    "store less, or split it over several keys")
        conn = self._connect(readonly=False)
        try:
            with _transaction(conn):  # check and write serialize across processes
                others = sum(len(k.encode("utf-8")) + len(v.encode("utf-8")) for k, v in
                             conn.execute("SELECT key, value FROM cron_notepad WHERE job_id=? "
                                          "AND key<>?", (job_id, key)))
                total = others + len(key.encode("utf-8")) + size
                if total > _NOTEPAD_BYTES:
                    raise InvalidInputError(
                        f"notepad full: job {job_id} would hold {total} bytes (max "
                        f"{_NOTEPAD_BYTES})", key, "delete keys it no longer needs first")
                conn.execute("INSERT INTO cron_notepad VALUES (?,?,?,?) ON CONFLICT(job_id, key) "
                             "DO UPDATE SET value=excluded.value, updated_at=excluded.updated_at",
                             (job_id, key, value, now.isoformat()))
        finally:
            conn.close()

    def delete(self, job_id, key):
        """Delete one key; return True if it existed."""
        if not os.path.exists(self.path):
            return False
        conn = self._connect(readonly=False)
        try:
            return conn.execute("DELETE FROM cron_notepad WHERE job_id=? AND key=?",
                                (job_id, key)).rowcount == 1
        finally:
            conn.close()

    def clear(self, job_id):
        """Delete every key of a job (creates nothing); return how many."""
        if not os.path.exists(self.path):
            return 0
        conn = self._connect(readonly=False)
        try:
            return conn.execute("DELETE FROM cron_notepad WHERE job_id=?", (job_id,)).rowcount
        finally:
            conn.close()

    def list(self, job_id):
        """Return ``[{key, value, updated_at}]`` sorted by key (reads only)."""
        if not os.path.exists(self.path):
            return []
        import sqlite3

        conn = self._connect(readonly=True)
        try:
            rows = conn.execute("SELECT key, value, updated_at FROM cron_notepad "
                                "WHERE job_id=? ORDER BY key", (job_id,)).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
            rows = []
        finally:
            conn.close()
        return [{"key": k, "value": v, "updated_at": u} for k, v, u in rows]

    def render(self, job_id):
        """The prompt section for a job's notepad; ``""`` when it is empty."""
        notes = self.list(job_id)
        if not notes:
            return ""
        lines = [_NOTEPAD_HEADING,
                 f"These notes survive between runs of this job. Update them with "
                 f"`{_notepad_command(os.path.dirname(self.path), job_id)} set KEY VALUE` (or "
                 f"`delete KEY`).", ""]
        lines += [f"- {n['key']}: {n['value']}" for n in notes]
        return "\n".join(lines) + "\n\n"


def _check_note_key(key):
    if not isinstance(key, str) or not key.strip() or not _utf8_ok(key):
        raise InvalidInputError("notepad key must be non-empty, valid Unicode text", key,
                                "pass a key name")
    if len(key) > _NOTE_KEY_CHARS:
        raise InvalidInputError(f"notepad key too long ({len(key)} characters; max "
                                f"{_NOTE_KEY_CHARS})", key, "use a shorter key")
    return key


# --- 13.2 Delivery queue -----------------------------------------------------

_DELIVERIES_FILE = "deliveries.db"
_MAX_TERMINAL_DELIVERIES = 1000
_DELIVERY_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS deliveries(
        execution_id TEXT PRIMARY KEY, job_json TEXT NOT NULL, content TEXT NOT NULL,
        for_failure INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL CHECK(status IN ('pending','delivering','delivered','failed',
                                              'unknown','suppressed')),
        owner_process_id TEXT, owner_pid INTEGER, owner_started_at INTEGER,
        created_at TEXT NOT NULL, finished_at TEXT, error TEXT)""",
    """CREATE TABLE IF NOT EXISTS delivery_tombstones(
        execution_id TEXT PRIMARY KEY, terminal_status TEXT NOT NULL, finished_at TEXT)""",
    # Side table (the exact tables stay as upstream reads them): one row per
    # failed send attempt of a delivery that may be retried.
    """CREATE TABLE IF NOT EXISTS delivery_attempts(
        execution_id TEXT NOT NULL, attempt INTEGER NOT NULL, at TEXT NOT NULL,
        targets TEXT NOT NULL, error TEXT, next_try_at TEXT,
        PRIMARY KEY (execution_id, attempt))""",
)
_DELIVERY_ATTEMPTS = 5
_DELIVERY_BACKOFF = (120, 300, 600, 900)  # seconds before attempts 2-5: about 30 minutes
_ABANDONED_PENDING = timedelta(minutes=5)
_ABANDONED_DELIVERING = timedelta(hours=1)
_MAX_TOMBSTONES = 100_000
_DELIVERY_STATUSES = ("pending", "delivering", "delivered", "failed", "unknown", "suppressed")
_DELIVERY_COLUMNS = ("execution_id", "job_json", "content", "for_failure", "status",
                     "owner_process_id", "owner_pid", "owner_started_at", "created_at",
                     "finished_at", "error")
_LOST_DELIVERY = ("the process delivering this message died before it recorded the outcome; "
                  "whether it was sent is unknown, so it is not sent again")


class _Deliveries:
    """deliveries.db: the crash-safe hand-off of results to their targets.

    A ``pending`` row was never handed to a sender and is always sent, even
    after a crash; a ``delivering`` row whose owner died becomes ``unknown``
    and is never sent again (a lost message beats a duplicate).
    """

    def __init__(self, home, environ=None):
        self.path = os.path.join(home, _DELIVERIES_FILE)
        self.environ = os.environ if environ is None else environ
        self._conn = None
        self._lock = _thread.RLock()

    def exists(self):
        return self._conn is not None or os.path.exists(self.path)

    def connect(self):
        if self._conn is None:
            conn = _open_rw(self.path, _wal_wanted(self.environ))
            for ddl in _DELIVERY_SCHEMA:
                conn.execute(ddl)
            self._conn = conn
        return self._conn

    def close(self):
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def enqueue(self, eid, job, content, for_failure, now):
        """Queue a result once per execution; return the row's status."""
        import json

        me = _identity()
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                gone = conn.execute("SELECT terminal_status FROM delivery_tombstones "
                                    "WHERE execution_id=?", (eid,)).fetchone()
                if gone is not None:
                    return gone[0]
                conn.execute(
                    "INSERT INTO deliveries (execution_id, job_json, content, for_failure, "
                    "status, owner_process_id, owner_pid, owner_started_at, created_at) "
                    "VALUES (?,?,?,?,'pending',?,?,?,?) ON CONFLICT(execution_id) DO NOTHING",
                    (eid, json.dumps(job, sort_keys=True, ensure_ascii=False), content,
                     int(bool(for_failure)), me["process_id"], me["pid"], me["started_at"],
                     now.isoformat()))
                return conn.execute("SELECT status FROM deliveries WHERE execution_id=?",
                                    (eid,)).fetchone()[0]

    def claim(self, eid, expected_owner=None):
        """pending -> delivering, owned by this process; False if someone else has it."""
        me = _identity()
        with self._lock:
            where = "" if expected_owner is None else " AND owner_process_id=?"
            params = (me["process_id"], me["pid"], me["started_at"], eid) + (
                () if expected_owner is None else (expected_owner,))
            return self.connect().execute(
                "UPDATE deliveries SET status='delivering', owner_process_id=?, owner_pid=?, "
                f"owner_started_at=? WHERE execution_id=? AND status='pending'{where}",
                params).rowcount == 1

    def finish(self, eid, job, status, error, now):
        """delivering -> delivered|failed|suppressed (owner-guarded); blank the payload.

        Only the job's id, name and targets stay, so ``deliveries`` can list it.
        """
        import json

        me = _identity()
        summary = json.dumps({k: job.get(k) for k in ("id", "name", "deliver")},
                             sort_keys=True, ensure_ascii=False)
        with self._lock:
            return self.connect().execute(
                "UPDATE deliveries SET status=?, finished_at=?, error=?, content='', job_json=? "
                "WHERE execution_id=? AND status='delivering' AND owner_process_id=? "
                "AND owner_pid=?",
                (status, now.isoformat(), redact(error) if error else None, summary, eid,
                 me["process_id"], me["pid"])).rowcount == 1

    def attempts(self, eid):
        """How many failed attempts of *eid* are on record (0 for a first send)."""
        if not self.exists():
            return 0
        with self._lock:
            row = self.connect().execute("SELECT max(attempt) FROM delivery_attempts WHERE "
                                         "execution_id=?", (eid,)).fetchone()
        return row[0] or 0

    def record_attempt(self, eid, attempt, targets, error, next_try, now):
        with self._lock:
            self.connect().execute(
                "INSERT OR REPLACE INTO delivery_attempts VALUES (?,?,?,?,?,?)",
                (eid, attempt, now.isoformat(), ",".join(targets), redact(error) if error
                 else None, next_try.isoformat() if next_try else None))

    def defer(self, eid, targets, attempt, error, next_try, now):
        """delivering -> pending with a retry time for *targets*; False if not ours."""
        me = _identity()
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                if conn.execute(
                        "UPDATE deliveries SET status='pending', error=? WHERE execution_id=? "
                        "AND status='delivering' AND owner_process_id=? AND owner_pid=?",
                        (redact(error), eid, me["process_id"], me["pid"])).rowcount != 1:
                    return False
                conn.execute("INSERT OR REPLACE INTO delivery_attempts VALUES (?,?,?,?,?,?)",
                             (eid, attempt, now.isoformat(), ",".join(targets), redact(error),
                              next_try.isoformat()))
        return True

    def due_retries(self, now):
        """(execution id, targets) of deferred deliveries whose retry time has come."""
        if not self.exists():
            return []
        with self._lock:
            rows = self.connect().execute(
                "SELECT a.execution_id, a.targets, a.next_try_at FROM delivery_attempts a "
                "JOIN deliveries d ON d.execution_id = a.execution_id "
                "WHERE d.status='pending' AND a.attempt = (SELECT max(attempt) FROM "
                "delivery_attempts WHERE execution_id = a.execution_id)").fetchall()
        due = []
        for eid, targets, next_try in rows:
            when = _parse_stored(next_try)
            if when is not None and when <= now:
                due.append((eid, _split_targets(targets)))
        return due

    def settle_orphans(self, ledger, now):
        """Mark ``delivering`` rows of dead owners ``unknown``; return pending rows to send.

        A pending row is sent by whoever finds its creator gone (or when it is
        this process's own leftover); its creator may still be about to send it.
        """
        if not self.exists():
            return []
        me = _identity()
        with self._lock:
            rows = self.connect().execute(
                "SELECT execution_id, status, owner_process_id, owner_pid, owner_started_at, "
                "created_at FROM deliveries WHERE status IN ('pending','delivering') AND "
                "(status='delivering' OR execution_id NOT IN (SELECT execution_id FROM "
                "delivery_attempts)) ORDER BY julianday(created_at), execution_id").fetchall()
        ready = []
        for eid, status, owner, pid, started, created in rows:
            if owner == me["process_id"]:
                continue  # our own run is handling it right now
            age = now - (_parse_stored(created) or now)
            # On this host the owner's liveness decides, never the wall clock:
            # a clock step must not take a live (or stopped) owner's message.
            # Only an owner that cannot be judged (another boot or container)
            # is given up by age: enqueue and claim follow each other within
            # milliseconds and a send is bounded.
            state = ledger.owner_state(owner, pid, started)
            dead = state == "dead" or (state == "unknown" and age > (
                _ABANDONED_PENDING if status == "pending" else _ABANDONED_DELIVERING))
            if status == "delivering" and dead:
                with self._lock:
                    self.connect().execute(
                        "UPDATE deliveries SET status='unknown', finished_at=?, error=?, "
                        "content='' WHERE execution_id=? AND status='delivering' AND "
                        "owner_process_id=? AND owner_pid=?",
                        (now.isoformat(), _LOST_DELIVERY, eid, owner, pid))
            elif status == "pending" and dead:
                ready.append((eid, owner))
        return ready

    def row(self, eid):
        rows = self.rows(eid=eid)
        return rows[0] if rows else None

    def counts(self, since):
        """Queue rows by status, the deferred ones (``retrying``) and the failures since
        *since* (``failed_recently``); reads only, nothing without the file."""
        if not self.exists():
            return {}
        import sqlite3

        counts = {}
        with self._lock:
            conn = self._conn or _read_only(self.path)
            try:
                counts = dict(conn.execute("SELECT status, count(*) FROM deliveries "
                                           "GROUP BY status").fetchall())
                counts["retrying"] = conn.execute(
                    "SELECT count(*) FROM deliveries d WHERE status='pending' AND EXISTS (SELECT 1 "
                    "FROM delivery_attempts a WHERE a.execution_id = d.execution_id)").fetchone()[0]
                counts["failed_recently"] = conn.execute(
                    "SELECT count(*) FROM deliveries WHERE status='failed' AND "
                    "julianday(finished_at) >= julianday(?)", (_iso(since),)).fetchone()[0]
            except sqlite3.OperationalError as exc:
                if "no such" not in str(exc):  # an old queue without the side table reads empty
                    raise
            finally:
                if conn is not self._conn:
                    conn.close()
        return counts

    def known(self, eids):
        """The executions of *eids* the queue has a row or a tombstone for (reads only)."""
        if not os.path.exists(self.path) or not eids:
            return set()
        import sqlite3

        marks = ",".join("?" * len(eids))
        with self._lock:
            conn = self._conn or _read_only(self.path)
            try:
                return {r[0] for r in conn.execute(
                    f"SELECT execution_id FROM deliveries WHERE execution_id IN ({marks}) UNION "
                    f"SELECT execution_id FROM delivery_tombstones WHERE execution_id IN "
                    f"({marks})", list(eids) * 2)}
            except sqlite3.OperationalError as exc:
                if "no such" in str(exc):  # an empty file: it knows nothing
                    return set()
                raise
            finally:
                if conn is not self._conn:
                    conn.close()

    def rows(self, status=None, eid=None, limit=100):
        if not os.path.exists(self.path):
            return []
        import sqlite3

        where, params = [], []
        if status:
            where.append("status=?")
            params.append(status)
        if eid:
            where.append("execution_id=?")
            params.append(eid)
        # With each row: its failed attempts so far and when it is tried next.
        sql = ("SELECT d.*, max((SELECT count(*) FROM delivery_attempts a WHERE "
               "a.execution_id = d.execution_id), d.status IN ('delivered','failed')) AS "
               "attempts, (SELECT next_try_at FROM delivery_attempts a WHERE "
               "a.execution_id = d.execution_id AND d.status = 'pending' ORDER BY attempt DESC "
               "LIMIT 1) AS next_try_at FROM deliveries d"
               + (" WHERE " + " AND ".join(where) if where else ""))
        sql += " ORDER BY julianday(created_at) DESC, rowid DESC LIMIT ?"
        with self._lock:
            conn = self._conn or _read_only(self.path)
            try:
                cur = conn.execute(sql, params + [limit])
                names = [d[0] for d in cur.description]
                return [dict(zip(names, r)) for r in cur.fetchall()]
            except sqlite3.OperationalError as exc:
                if "no such" in str(exc):
                    return []
                raise
            finally:
                if conn is not self._conn:
                    conn.close()

    def prune(self):
        """Move the oldest terminal rows beyond 1,000 to tombstones."""
        with self._lock:
            conn = self.connect()
            with _transaction(conn):
                conn.execute(
                    "INSERT OR IGNORE INTO delivery_tombstones SELECT execution_id, status, "
                    "finished_at FROM deliveries WHERE status NOT IN ('pending','delivering') "
                    "ORDER BY julianday(finished_at) DESC, julianday(created_at) DESC, execution_id DESC "
                    "LIMIT -1 OFFSET ?", (_MAX_TERMINAL_DELIVERIES,))
                conn.execute("DELETE FROM deliveries WHERE execution_id IN "
                             "(SELECT execution_id FROM delivery_tombstones)")
                conn.execute("DELETE FROM delivery_tombstones WHERE rowid NOT IN (SELECT rowid "
                             "FROM delivery_tombstones ORDER BY julianday(finished_at) DESC LIMIT ?)",
                             (_MAX_TOMBSTONES,))


# =============================================================================
# 14. Running a job
#    Child processes, scripts and their environment, the run documents,
#    and the prompt contract an agent run is given.
# =============================================================================

_OUTPUT_CAP = 1 << 20  # bytes of a child's stdout or stderr kept
_ERROR_CAP = 2000
# Output still read after a child exits: what it wrote just before.  A
# background process holding the pipes longer is not waited for.
_DRAIN_SECONDS = 0.5
_KILL_GRACE = 0.5  # between SIGTERM and SIGKILL of the processes a child left behind
# Between the SIGTERM and the SIGKILL of a run stopped by the operator
# ($HERMES_CRON_KILL_GRACE_SECONDS): time for a script's ``trap ... TERM``.
_STOP_GRACE = 10.0


class _Outcome:
    """What one run produced.

    ``status`` is the job's ``last_status`` (``ok``, ``error`` or
    ``blocked_config``); ``response`` the text a delivery would carry;
    ``silent`` True when there is nothing to deliver.  ``error`` is what the
    ledger, the job and the incident keep; ``detail``, when set, what the run
    document shows in its place.
    """

    __slots__ = ("status", "response", "error", "silent", "prompt", "note", "warning",
                 "detail", "verdict", "mode", "monitor_state")

    def __init__(self, status, response="", error=None, silent=False, prompt=None, note=None,
                 detail=None):
        self.status, self.response, self.error = status, response, error
        self.silent, self.prompt, self.note = silent, prompt, note
        self.detail = detail  # the document's fuller error (a traceback), if any
        self.warning = None  # e.g. background processes the run left behind
        self.verdict = None  # a _Verdict once the job's checks ran
        self.mode = None  # "monitor" for a run its monitor gate decided
        self.monitor_state = None  # (state, text) a monitor's change leaves on success

    @property
    def ok(self):
        return self.status == "ok"


class _Runs:
    """Child processes of the runs in flight in this process, and their stopping."""

    def __init__(self):
        self.lock = _thread.allocate_lock()
        self.procs = {}
        self.stopping = None  # the signal ("SIGINT", "SIGTERM") that stops this process
        self.grace = _STOP_GRACE
        self.interrupted = set()  # eids whose child was stopped, or refused, by it
        self.inflight = 0
        self.left = {}  # eid -> reports of processes its children left behind
        self.deadlines = {}  # eid -> (monotonic end, seconds) of a job's timeout_seconds
        self.announce = {}  # eid -> fn(pid): a Replace job's child is noted where others see

    def stop(self, signame, grace):
        """Stop every run in flight: SIGTERM each child's process group, SIGKILL after *grace*.

        The operator stopped this process (*signame*): a child gets the time
        to clean up (a script's ``trap ... TERM``) but cannot hold the
        shutdown.  Children started from now on are refused by
        ``_run_child``, or stopped here if one slipped in; returns once no
        run is in flight.
        """
        import signal

        with self.lock:
            self.stopping, self.grace = signame, grace
        termed = {}
        while True:
            with self.lock:
                procs = list(self.procs.items())
                if not procs and not self.inflight:
                    return
                self.interrupted.update(eid for eid, _ in procs)
            now = time.monotonic()
            for _, proc in procs:
                if proc.pid not in termed:
                    termed[proc.pid] = now
                    sig = signal.SIGTERM
                elif termed[proc.pid] is not None and now >= termed[proc.pid] + grace:
                    termed[proc.pid] = None  # SIGKILL once
                    sig = signal.SIGKILL
                else:
                    continue
                try:
                    os.killpg(proc.pid, sig)
                except OSError:
                    pass
            time.sleep(0.02)


def _step_limit(home, job, eid, key):
    """(seconds, timed-out text or None) a child of a run may take: what is left of the
    job's ``timeout_seconds`` (the whole run's budget), else config *key*."""
    end = home.runs.deadlines.get(eid)
    if end is None:
        return home.settings[key], None
    return max(end[0] - time.monotonic(), 0.01), \
        f"timed out: the job's timeout_seconds ({end[1]} s) ran out"


def _job_env(home, job, env):
    """*env* with the job's own ``env``: its plain values, and the ticker's variables it
    passes through by name (one the ticker lacks stays unset)."""
    for name, value in _policy(job, "env").items():
        if value is not None:
            env[name] = value
        elif name in home.environ:
            env[name] = home.environ[name]
    return env


def _run_child(argv, *, cwd, env, stdin_text, timeout, runs, eid, what, timed_out_as=None,
               failed_start_as=None):
    """Run a child in its own process group; return (rc, stdout, stderr, error).

    *error* is None unless the child timed out, could not start or was
    interrupted, in which case the whole process group has been killed.
    *timed_out_as* (a text) and *failed_start_as* (a prefix for the OS
    error) word the first two as a caller must store them.
    Output is read until the child exits, then for ``_DRAIN_SECONDS``: a
    background process that keeps the pipes open does not hold the run.
    Processes the child leaves behind are killed and reported in
    ``runs.left[eid]``.
    """
    child = _start_child(argv, cwd=cwd, env=env, stdin_text=stdin_text, timeout=timeout,
                         runs=runs, eid=eid, what=what, timed_out_as=timed_out_as,
                         failed_start_as=failed_start_as)
    if isinstance(child, tuple):
        return child
    try:
        _Poller().run(child)
    finally:
        child.kill_if_running()
    return _end_child(child)


def _start_child(argv, *, cwd, env, stdin_text, timeout, runs, eid, what, timed_out_as=None,
                 failed_start_as=None):
    """Start a child for ``_run_child``: a ``_Child`` to watch, or the result of one
    that did not start (refused while the process stops, or an OS error)."""
    import subprocess

    if runs.stopping:  # the operator stopped this process: start nothing new
        with runs.lock:
            runs.interrupted.add(eid)
        return None, "", "", f"interrupted by {runs.stopping}"
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, start_new_session=True,
                                stdin=subprocess.PIPE if stdin_text is not None else
                                subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    except OSError as exc:
        return None, "", "", f"{failed_start_as or what + ' could not start: '}" \
                             f"{exc.strerror or exc}"
    with runs.lock:
        runs.procs[eid] = proc
        announce = runs.announce.get(eid)
    if announce is not None:
        try:
            announce(proc.pid)
        except Exception:
            pass  # unannounced, a newer run cannot stop it: it waits for it instead
    data = None if stdin_text is None else stdin_text.encode("utf-8", "replace")
    return _Child(proc, data, timeout, runs, eid, what, timed_out_as)


def _end_child(child):
    """The result of a watched *child*: reap what it left behind, word its end."""
    import signal

    runs, eid, what, proc = child.runs, child.eid, child.what, child.proc
    with runs.lock:
        runs.procs.pop(eid, None)
    error = None
    if child.timed_out:
        error = child.timed_out_as or f"{what} timed out after {child.timeout:g} s and was killed"
    report = _reap_left(proc.pid, child.held, what)
    if report:
        with runs.lock:
            runs.left.setdefault(eid, []).append(report)
    if eid in runs.interrupted and error is None:
        error = f"interrupted by {runs.stopping}"
        if proc.returncode == -signal.SIGKILL:
            error += f" (the {what} was still running {runs.grace:g} s after SIGTERM: killed)"
    out, err = child.chunks.values()
    return (proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
            error)


def _drive(steps):
    """Run a generator of steps to its end on this thread; return what it returns.

    Each child it yields (``_run_child``'s arguments) runs here and its result
    is sent back, or what the child's run raised is thrown in; each ``_Done``
    it yields is waited for.
    """
    send, value = steps.send, None
    while True:
        try:
            step = send(value)
        except StopIteration as stop:
            return stop.value
        if isinstance(step, _Done):
            step.wait()
            send, value = steps.send, None
            continue
        argv, options = step
        try:
            value, send = _run_child(argv, **options), steps.send
        except BaseException as exc:
            value, send = exc, steps.throw


class _Child:
    """One child being watched: its pipes, its output so far, its deadline.

    Its stdin is fed *data*; its stdout and stderr are read until it exits,
    then for ``_DRAIN_SECONDS``.  At its deadline its process group is
    killed.  ``held`` lists the inodes of output pipes still open after the
    drain: held by processes it left behind.
    """

    __slots__ = ("proc", "data", "offset", "timeout", "end", "runs", "eid", "what",
                 "timed_out_as", "chunks", "inodes", "open", "timed_out", "drain_end", "held",
                 "pause", "done", "then")

    def __init__(self, proc, data, timeout, runs, eid, what, timed_out_as):
        self.proc, self.data, self.offset = proc, data, 0
        self.timeout, self.end = timeout, time.monotonic() + timeout
        self.runs, self.eid, self.what, self.timed_out_as = runs, eid, what, timed_out_as
        self.chunks = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
        self.inodes = {fd: os.fstat(fd).st_ino for fd in self.chunks}
        self.open = set(self.chunks)
        self.timed_out, self.drain_end, self.held = False, None, []
        self.pause, self.done, self.then = 0.001, False, None
        if data is not None:
            if data:
                self.open.add(proc.stdin.fileno())
            else:
                proc.stdin.close()

    def ready(self, fd, selector):
        """Read what *fd* has, or feed it the next piece of stdin."""
        pipe_buf = 512  # a write this small to a writable pipe never blocks (POSIX)
        if fd in self.chunks:
            chunk = os.read(fd, 65536)
            kept = self.chunks[fd]
            if not chunk:
                self._shut(fd, selector)
            elif len(kept) < _OUTPUT_CAP:
                kept += chunk[:_OUTPUT_CAP - len(kept)]
            return
        try:
            self.offset += os.write(fd, self.data[self.offset:self.offset + pipe_buf])
        except BrokenPipeError:  # the child does not read its stdin: fine
            self.offset = len(self.data)
        if self.offset >= len(self.data):
            self._shut(fd, selector)
            self.proc.stdin.close()

    def _shut(self, fd, selector):
        selector.unregister(fd)
        self.open.discard(fd)

    def check(self, now, selector):
        """Notice the child's exit, its deadline and its drain's end; return the monotonic
        time to look again, or None once it is done (pipes closed, child reaped)."""
        proc = self.proc
        if self.open:
            if self.drain_end is None and proc.poll() is not None:
                self.drain_end = now + _DRAIN_SECONDS
            elif self.drain_end is None and now >= self.end:
                self.kill()
                self.timed_out, self.drain_end = True, now + _DRAIN_SECONDS
            if self.drain_end is None:
                # Now and then: the exit of a child whose pipes stay open.
                return min(self.end, now + 0.1)
            if now < self.drain_end:
                return self.drain_end
            self.held = [self.inodes[fd] for fd in self.open if fd in self.inodes]
            for fd in list(self.open):
                self._shut(fd, selector)
        if proc.returncode is None and proc.poll() is None:
            if now < self.end:  # it closed its output but runs on
                self.pause = min(self.pause * 2, 0.1)
                return min(self.end, now + self.pause)
            self.kill()
            self.timed_out = True
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        self.done = True
        return None

    def kill(self):
        import signal

        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self.proc.wait()

    def kill_if_running(self):
        """Leave no process behind: a watch that ended early (interrupted) kills the group."""
        if self.proc.returncode is None:
            self.kill()
            for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if pipe is not None:
                    pipe.close()


class _Poller:
    """Watches children's pipes and ends with one ``poll(2)``: one child for a run
    that waits for its own, or all of a tick's plain runs from one thread.

    ``add`` hands a child over from any thread; ``done`` is called (on the
    poller's thread) with each child that ended.  ``run`` returns once no
    child is left and, when started with *wake*, ``close`` was called.
    """

    def __init__(self, done=None, wake=False):
        import selectors

        # poll(2) where there is one: epoll's own descriptor would cost three
        # more system calls per run, for two or three pipes.
        self.selector = getattr(selectors, "PollSelector", selectors.DefaultSelector)()
        self.done, self.lock, self.added, self.closed = done, _thread.allocate_lock(), [], False
        self.wake_fds = os.pipe() if wake else None
        if wake:
            os.set_blocking(self.wake_fds[0], False)
            self.selector.register(self.wake_fds[0], selectors.EVENT_READ, None)

    def add(self, child):
        with self.lock:
            self.added.append(child)
        self._wake()

    def close(self):
        with self.lock:
            self.closed = True
        self._wake()

    def _wake(self):
        if self.wake_fds is not None:
            try:
                os.write(self.wake_fds[1], b".")
            except BlockingIOError:
                pass  # a wake is pending already

    def run(self, child=None):
        import heapq
        import selectors

        selector, timers, live, seq = self.selector, [], 0, 0
        pending = [child] if child is not None else []
        try:
            while True:
                with self.lock:
                    pending += self.added
                    self.added, closed = [], self.closed
                for new in pending:
                    for fd in new.open:  # its stdout and stderr, and its stdin while fed
                        selector.register(fd, selectors.EVENT_READ if fd in new.chunks
                                          else selectors.EVENT_WRITE, new)
                    live += 1
                    seq += 1
                    heapq.heappush(timers, (0.0, seq, new))
                pending = []
                now = time.monotonic()
                while timers and timers[0][0] <= now:
                    _, _, due = heapq.heappop(timers)
                    if due.done:
                        continue
                    again = due.check(now, selector)
                    if again is None:
                        live -= 1
                        if self.done is not None:
                            self.done(due)
                    else:
                        seq += 1
                        heapq.heappush(timers, (again, seq, due))
                if not live and (closed or self.wake_fds is None):
                    return
                wait = max(timers[0][0] - now, 0) if timers else None
                for key, _ in selector.select(wait):
                    ready = key.data
                    if ready is None:  # the wake pipe: children added, or closed
                        try:
                            os.read(key.fd, 4096)
                        except BlockingIOError:
                            pass
                        continue
                    ready.ready(key.fd, selector)
                    if not ready.open:  # its pipes are closed: it is ending now
                        seq += 1
                        heapq.heappush(timers, (0.0, seq, ready))
        finally:
            selector.close()
            if self.wake_fds is not None:
                for fd in self.wake_fds:
                    os.close(fd)


def _reap_left(pgid, held, what):
    """Kill what a finished child left running; return a report of it, or None.

    Left behind are the processes still in its process group *pgid*, and
    (on Linux) those that escaped the group, with ``setsid`` say, but still
    hold one of its output pipes (inodes *held*).
    """
    import signal

    group, escaped = _left_behind(pgid, held)
    if not group and not escaped:
        if held:
            return (f"a process that left the {what}'s process group kept its output open; "
                    f"it was not stopped")
        return None

    def send(sig):
        targets = [(os.killpg, pgid)] if group else []
        for kill, target in targets + [(os.kill, pid) for pid in escaped]:
            try:
                kill(target, sig)
            except OSError:
                pass

    def running():
        try:
            os.killpg(pgid, 0)
            return True
        except ProcessLookupError:
            return any((_pid_state(pid) or "Z")[0] != "Z" for pid in escaped)
        except PermissionError:
            return True

    send(signal.SIGTERM)
    limit = time.monotonic() + _KILL_GRACE
    while running():
        if time.monotonic() >= limit:
            send(signal.SIGKILL)  # it ignored SIGTERM
            break
        time.sleep(0.02)
    return _left_report(group, escaped, what)


def _left_report(group, escaped, what):
    parts = []
    if group:
        parts.append(f"killed {len(group)} background process(es) the {what} left running")
    if escaped:
        parts.append(f"killed {len(escaped)} process(es) that left the {what}'s process group "
                     f"(setsid) and kept its output open")
    return "; ".join(parts)


def _left_behind(pgid, held):
    """Live pids in process group *pgid*, and pids outside it holding pipe inodes *held*."""
    try:
        os.killpg(pgid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    except PermissionError:
        alive = True
    if not alive and not held:
        return [], []
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:  # no /proc: the group is known to exist, its members are not
        return ([pgid] if alive else []), []
    links = {f"pipe:[{inode}]" for inode in held}
    group, escaped = [], []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                # state and pgrp follow the command name, which may hold ") "
                state, _, pgrp = f.read().rpartition(b")")[2].split()[:3]
        except (OSError, ValueError):
            continue
        if state == b"Z":
            continue
        if int(pgrp) == pgid:
            group.append(pid)
        elif links and pid != os.getpid():
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue  # another user's process: not one the child could have left
            if any(_readlink(f"/proc/{pid}/fd/{fd}") in links for fd in fds):
                escaped.append(pid)
    return group, escaped


def _script_env(home, job, eid):
    passthrough = tuple(home.settings.get("script_env_passthrough") or ())
    # The allowlisted variables, picked once per tick: a thousand runs need
    # not each walk (and decode) the whole environment.
    base = home.resolved.get(("env", passthrough))
    if base is None:
        base = home.resolved[("env", passthrough)] = {
            k: v for k, v in home.environ.items() if k in _SCRIPT_ENV or k in passthrough}
    env = dict(base)
    env.update(HERMES_CRON_JOB_ID=str(job["id"]), HERMES_CRON_EXECUTION_ID=eid,
               HERMES_CRON_HOME=home.path)
    return _job_env(home, job, env) if "env" in job else env


def _script_argv(path, args):
    """The command that runs a script file: its ``#!`` line, else by extension.

    An executable file with a ``#!`` line is run directly (the kernel reads
    the line); a file that is not executable has the line read as Linux reads
    it (the interpreter and one optional argument).  Without one, ``.sh`` and
    ``.bash`` run under bash and anything else under this Python, as
    upstream runs them.
    """
    try:
        with open(path, "rb") as f:
            head = f.readline(512)
    except OSError:
        head = b""
    if head.startswith(b"#!"):
        if os.access(path, os.X_OK):
            return [path, *args]
        line = head[2:].decode("utf-8", "replace").strip()
        interpreter, _, option = line.replace("\t", " ").partition(" ")
        if interpreter:
            return [interpreter, *([option.strip()] if option.strip() else []), path, *args]
    if os.path.splitext(path)[1].lower() in (".sh", ".bash"):
        return ["bash", path, *args]
    return [sys.executable, path, *args]


def _run_script(home, job, eid, runs):
    """Run a job's script; return (ok, stdout, error).

    A generator, as a run's steps are: it yields its child's ``_run_child``
    arguments and is sent the result (``_drive`` runs the child on the
    caller's thread, a tick's ``_Pool`` beside its other plain runs).
    """
    scripts_dir = home.scripts_dir
    # Resolved once per tick (``resolved`` is emptied at each), not per run.
    root = home.resolved.get(("scripts", scripts_dir))
    if root is None:
        root = home.resolved[("scripts", scripts_dir)] = os.path.realpath(scripts_dir)
    path, args = _script_command(job["script"], scripts_dir, root)
    try:
        st = os.stat(path)
        key = ("argv", path, st.st_ino, st.st_mtime_ns, st.st_size, st.st_mode)
    except OSError:
        key = None
    head = home.resolved.get(key) if key else None
    if head is None:
        head = _script_argv(path, [])
        if key:
            home.resolved[key] = head
    argv = head + args
    timeout, own = _step_limit(home, job, eid, "script_timeout_seconds")
    # Upstream's exact wording, so a failure shared with an upstream ticker is
    # one incident, whichever ticker saw it.
    rc, out, err, error = yield (argv, dict(
        cwd=job.get("workdir") or os.path.dirname(path), env=_script_env(home, job, eid),
        stdin_text=None, timeout=timeout, runs=runs, eid=eid, what="script",
        timed_out_as=f"Script {own}: {path}" if own else
        f"Script timed out after {timeout:g}s: {path}",
        failed_start_as="Script execution failed: "))
    if error is None and rc != 0:
        parts = [f"Script exited with code {rc}"]
        for label, text in (("stderr", err.strip()), ("stdout", out.strip())):
            if text:
                parts.append(f"{label}:\n{_keep_tail(text, _ERROR_CAP)}")
        error = "\n".join(parts)
    return error is None, redact(out), redact(error)


def _allowed_rules(job, prompt=None):
    """The scanner rules a job's operator allowed, for a scan of its own words.

    Only the job's prompt was vetted: a scan of injected data (the lenient
    tier: script output, context, notepad) allows nothing.
    """
    rules = job.get("allow_scan")
    if not isinstance(rules, list) or (prompt is not None and prompt.lenient):
        return ()
    return tuple(r for r in rules if isinstance(r, str))


def _wake_agent_off(text):
    """True if the script's last stdout line is ``{"wakeAgent": false}``."""
    import json

    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if not lines or not lines[-1].lstrip().startswith("{"):
        return False
    try:
        value = json.loads(lines[-1])
    except ValueError:
        return False
    return isinstance(value, dict) and value.get("wakeAgent") is False


# --- 14.1 Output documents ---------------------------------------------------

def _safe_zone(home, job):
    try:
        return home.zone(job)
    except HermesCronError:
        return _UTC


def _output_dir(home, job_id, make=False):
    """A job's output directory (made first, with *make*); it must stay inside the home."""
    if not _safe_component(job_id):
        raise InvalidInputError("job id is not a safe file name", job_id,
                                "give the job a plain 12-hex id")
    root = os.path.join(home.path, "output")
    directory = os.path.join(root, job_id)
    # Two lstats for the common case: a real directory (no symlink) in a real
    # output root cannot lead out of the home.  Anything else is resolved.
    if _plain_dir(root, make) and _plain_dir(directory, make):
        return directory
    real = os.path.realpath(directory)
    if os.path.commonpath([os.path.realpath(home.path), real]) != os.path.realpath(home.path):
        raise InvalidInputError("the output directory leads out of the home", real,
                                f"remove the symlink at {directory}")
    if make and not os.path.isdir(directory):  # under a symlinked root inside the home
        _make_dir(directory)
    return directory


def _plain_dir(path, make):
    """True if *path* is a directory, not a symlink (made first with *make*), or is missing
    (without *make*: nothing there can lead anywhere).  A directory that cannot be
    made raises, as the document that needs it would fail."""
    import stat

    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except FileNotFoundError:
        if not make:
            return True
    _make_dir(path)
    return stat.S_ISDIR(os.lstat(path).st_mode)


def _make_dir(path):
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass  # made by a parallel run a moment ago


def _write_output(home, job, eid, when, outcome, title_note=None, path=None):
    """Write the run document atomically (mode 0600); never overwrite one.

    With *path* (a document this run wrote) it is replaced: the run's checks
    add their verdict to the document they read.
    """
    directory = _output_dir(home, job["id"], make=True)
    zone = _safe_zone(home, job)
    failed = outcome.status != "ok"
    lines = [f"# Cron Job: {job.get('name') or job['id']}{' (FAILED)' if failed else ''}", "",
             f"**Job ID:** {job['id']}", f"**Execution:** {eid}",
             f"**Run Time:** {_iso(when.astimezone(zone))}",
             f"**Schedule:** {job.get('schedule_display') or '?'}",
             f"**Status:** {outcome.note or ('failed' if failed else 'ok')}"]
    if outcome.warning:
        lines.append(f"**Warning:** {outcome.warning}")
    if outcome.status == "blocked_config" and not outcome.note:
        lines[-1] = "**Status:** BLOCKED (configuration)"
    if outcome.note == "BLOCKED":
        lines.append(f"**Scanner result:** {outcome.error}")
    if job.get("no_agent"):
        lines.append("**Mode:** no_agent (script)")
    elif outcome.mode:
        lines.append(f"**Mode:** {outcome.mode}")
    if outcome.verdict is not None:
        lines.append(f"**Verdict:** {outcome.verdict.verdict}")
    if outcome.prompt:
        lines += ["", "## Prompt", "", redact(outcome.prompt).rstrip()]
    if outcome.response:
        lines += ["", "## Response", "", outcome.response.rstrip()]
    if outcome.verdict is not None:
        lines += ["", "## Verification", "", *outcome.verdict.lines()]
    if outcome.error:
        lines += ["", "## Error", "", "```", redact(outcome.detail or outcome.error).rstrip(),
                  "```"]
    data = ("\n".join(lines) + "\n").encode("utf-8", "backslashreplace")
    if path is not None:
        tmp = _output_temp(directory, eid, data)
        try:
            os.replace(tmp, path)
        except OSError as exc:
            os.unlink(tmp)
            raise _as_storage_error(exc, path) from None
        return path
    # Named by the home's local time, as upstream names its documents: in a
    # shared output folder the two kinds then sort together.
    stamp = when.astimezone(_safe_zone(home, None)).strftime("%Y-%m-%d_%H-%M-%S")
    path = os.path.join(directory, f"{stamp}.md")
    try:
        tmp = _output_temp(directory, eid, data)
    except OSError as exc:  # a full disk: the run's error names the document
        raise _as_storage_error(exc, path) from None
    try:
        n = 1
        while True:  # link() never replaces: two runs in one second keep both
            path = os.path.join(directory, f"{stamp}{'' if n == 1 else f'_{n}'}.md")
            try:
                os.link(tmp, path)
                break
            except FileExistsError:
                n += 1
    except OSError as exc:  # a full disk: the run's error names the document
        raise _as_storage_error(exc, path) from None
    finally:
        os.unlink(tmp)
    _prune_outputs(home, directory, home.settings["output_retention"])
    return path


def _output_temp(directory, eid, data):
    """Write a run document's bytes to a new fsynced temp file in *directory*.

    Named by the run and the writing thread, so no random name is drawn (a
    run with no execution id, or a name somehow taken, gets a random one).
    """
    import threading

    if _safe_component(eid):
        try:
            return _synced_temp(directory, ".output_", ".tmp", data,
                                f".output_{eid}_{os.getpid()}_{threading.get_ident()}.tmp")
        except FileExistsError:
            pass
    return _synced_temp(directory, ".output_", ".tmp", data)


def _output_key(name):
    base, _, suffix = name[:-3].partition(".md")[0].rpartition("_")
    if base and suffix.isdigit() and len(suffix) < 5:
        return name[:-3].rsplit("_", 1)[0], int(suffix)
    return name[:-3], 1


def _list_outputs(directory):
    try:
        names = [n for n in os.listdir(directory) if n.endswith(".md")]
    except OSError:
        return []
    return sorted(names, key=_output_key)


def _docs_by_time(home, directory):
    """A job's run documents as ``[(name, head)]``, oldest first by run time.

    Names alone do not sort in time order: earlier hermes_cron releases
    named documents by UTC time, upstream and this one by the home's zone
    (which may have changed, and repeats an hour each autumn).  A
    document's time is its ``Run Time`` (upstream's may lack an offset: the
    home's zone, which upstream wrote it in), else its name's stamp, read in
    the home's zone.
    """
    zone = _safe_zone(home, None)
    docs = []
    for name in _list_outputs(directory):
        head = _read_head(os.path.join(directory, name))
        docs.append((_doc_time(head, name, zone), _output_key(name), name, head))
    docs.sort(key=lambda doc: doc[:2])
    return [(name, head) for _, _, name, head in docs]


def _doc_time(head, name, zone):
    for text, fmt in ((head.get("Run Time"), None), (name[:19], "%Y-%m-%d_%H-%M-%S")):
        try:
            when = datetime.strptime(text, fmt) if fmt else datetime.fromisoformat(text)
        except (TypeError, ValueError):
            continue
        if when.tzinfo is None:  # local stamps: upstream's run times, and names
            when = when.replace(tzinfo=zone)
        return when.timestamp()
    return 0.0


def _read_head(path):
    """The ``**Key:** value`` header lines of a run document, as a dict."""
    head = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("## "):
                    break
                if line.startswith("**") and ":** " in line:
                    key, _, value = line[2:].partition(":** ")
                    head[key] = value.strip()
    except OSError:
        pass
    return head


def _prune_outputs(home, directory, keep):
    """Keep a job's newest *keep* run documents, newest by run time, not by name."""
    # Temp files of writers killed mid-write: a document is written in
    # milliseconds, so one older than a minute is nobody's any more.
    cutoff = time.time() - 60
    names = os.listdir(directory)
    for name in names:
        if name.startswith(".output_") and name.endswith(".tmp"):
            path = os.path.join(directory, name)
            try:
                if os.stat(path).st_mtime < cutoff:
                    os.unlink(path)
            except OSError:
                pass
    if keep <= 0 or sum(name.endswith(".md") for name in names) <= keep:
        return
    for name, _ in _docs_by_time(home, directory)[:-keep]:
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass


# --- 14.2 The prompt contract ------------------------------------------------

CRON_HINT = (
    "[IMPORTANT: This is a scheduled run of an existing cron job, not a conversation. "
    "Four rules apply. 1) DELIVERY: your final response is delivered to the user "
    "automatically; do not send messages or deliver anything yourself, just write the report "
    "as your final answer. 2) SILENCE: if there is nothing new worth reporting, reply with "
    "exactly [SILENT] and nothing else, which suppresses delivery; never combine [SILENT] with "
    "other content. [SILENT] is a fixed ASCII code, not a word: write it exactly so, never "
    "translated or reworded, in whatever language the rest of your answer is. 3) FAILURE: if "
    "this run must be recorded as failed (say, a step you handed to a helper failed), make "
    "[CRON_FAILURE] the whole first line of your response and explain the failure on the lines "
    "after it; the marker anywhere else counts for nothing. 4) NO SCHEDULING: do the task now; "
    "never create, change or schedule cron jobs because the prompt mentions a schedule such as "
    "'every Monday' or 'daily at 9', as that phrasing describes this job.]\n\n"
)
_SILENT_MARKERS = frozenset(("[SILENT]", "SILENT", "NO_REPLY", "NO REPLY"))
_CRON_FAILURE = "[CRON_FAILURE]"
_NO_EVIDENCE = "the agent reported this run as failed ([CRON_FAILURE]) and gave no reason"
_CONTEXT_CAP = 8000
_TRUNCATED = "\n\n[... output truncated ...]"


def is_silent(response: "str | None") -> bool:
    """Return True if *response* asks for no delivery (the ``[SILENT]`` contract).

    True when the whole response, or its first or last non-empty line, is
    ``[SILENT]``, ``SILENT``, ``NO_REPLY`` or ``NO REPLY`` (any case, inner
    spaces folded, edge punctuation other than brackets ignored), or when it
    starts with ``[SILENT]``.  A marker inside a sentence is not silence.
    """
    if not isinstance(response, str):
        return False
    text = response.strip()
    if text[:8].upper() == "[SILENT]":
        return True
    lines = [line for line in text.splitlines() if line.strip()]
    candidates = [text] + ([lines[0], lines[-1]] if lines else [])
    return any(_silent_marker(c) for c in candidates)


def _failure_evidence(response):
    """Return the error of a response that declares its run failed, else None.

    A run failed when the response's first line is exactly ``[CRON_FAILURE]``
    (trailing spaces aside); the lines after it are the error.  The marker
    anywhere else (quoted, indented, mid-line) is plain text: a report that
    mentions it stays a success.
    """
    if not isinstance(response, str):
        return None
    lines = response.splitlines()
    if not lines or lines[0].rstrip() != _CRON_FAILURE:
        return None
    return "\n".join(lines[1:]).strip() or _NO_EVIDENCE


def _silent_marker(text):
    if len(text) > 64:
        return False
    folded = " ".join(text.upper().split()).strip(".,;:!?*_`'\"- ")
    return folded in _SILENT_MARKERS


def _fence(text):
    """Fence *text* in backticks no shorter than any run inside it."""
    import re

    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text.strip()}\n{fence}"


def _find_skill(skills_dir, name):
    """Return the text of ``<skills dir>/**/<name>/SKILL.md``, or None."""
    root = os.path.realpath(skills_dir)
    for top, dirs, files in os.walk(root):
        dirs.sort()
        if os.path.basename(top) == name and "SKILL.md" in files:
            path = os.path.realpath(os.path.join(top, "SKILL.md"))
            if os.path.commonpath([root, path]) != root:
                continue  # a symlink out of the skills dir is not a skill
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    return f.read()
            except OSError:
                return None
    return None


def _latest_output(home, job_id):
    """The response of a job's newest successful run document, or None.

    Both writers' shapes count: ours (``**Status:** ok``, then ``##
    Response``) and upstream's, which has no status line on a success and
    holds the answer after ``## Response`` (agent runs) or after a ``---``
    line (script runs).  Failed, blocked and silent runs are no context.
    """
    try:
        directory = _output_dir(home, job_id)
    except InvalidInputError:
        return None
    for name, head in reversed(_docs_by_time(home, directory)):
        if head.get("Status", "ok") != "ok":
            continue
        try:
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                doc = f.read()
        except OSError:
            continue
        if "Execution" in head:
            body = doc.partition("\n## Response\n\n")[2]
        elif "## Response" in doc:  # the last one: a prompt can quote the heading
            body = doc.rpartition("## Response")[2]
        else:
            body = doc.partition("\n---\n")[2]
        body = body.strip()
        if body and not is_silent(body):
            return body
    return None


class _Prompt:
    """An assembled prompt and what went into it."""

    __slots__ = ("text", "lenient", "missing_skills", "skills")

    def __init__(self, text, lenient, missing_skills, skills):
        self.text, self.lenient, self.missing_skills = text, lenient, missing_skills
        self.skills = skills


def _assemble_prompt(home, job, script_block="", run_context=None):
    """Build the prompt: skills, then hint, notepad, context, script block, prompt,
    and this run's context last (a monitor's change: data, scanned as such)."""
    parts, missing = [], []
    for name in job.get("skills") or ():
        content = _find_skill(home.skills_dir, name)
        if content is None:
            missing.append(name)
        else:
            parts.append(f"## Skill: {name}\n\n{content.strip()}\n\n")
    skills = bool(parts)
    if missing:
        parts.insert(0, f"[NOTICE: these skills are listed for this job but were not found, so "
                        f"they were skipped: {', '.join(missing)}. Say so briefly at the start "
                        f"of your response.]\n\n")
    notepad = home.notepad.render(job["id"])
    context = []
    for ref in job.get("context_from") or ():
        source = job["id"] if ref == "self" else ref
        text = _latest_output(home, source) if isinstance(source, str) else None
        if text is None:
            continue
        if len(text) > _CONTEXT_CAP:
            text = text[:_CONTEXT_CAP] + _TRUNCATED
        if source == job["id"]:
            context.append(f"## Your previous run's output\n\nThis job's latest output, for "
                           f"continuity: do not repeat what it already reported.\n\n{text}\n\n")
        else:
            context.append(f"## Output from job '{source}'\n\nThe latest output of another "
                           f"cron job, as context for this run.\n\n{text}\n\n")
    text = "".join(parts) + CRON_HINT + notepad + "".join(context) + script_block + \
        (job.get("prompt") or "") + (f"\n\n## Run Context\n{run_context}" if run_context else "")
    injected = bool(notepad or context or script_block or run_context)
    return _Prompt(text, skills or injected, missing, skills)


# =============================================================================
# 15. Agents and deliveries
#    HTTP with one deadline and one retry rule, the agent runners, and
#    the targets a result is delivered to.
# =============================================================================


# --- 15.1 HTTP: one exchange, one retry rule ---------------------------------

class _RunFailed(Exception):
    """A runner's failure, carrying the (already redacted) error text.

    *unsent* marks a delivery that provably never reached its receiver
    (refused connection, unknown host, HTTP 429/503, SMTP 4xx): safe to retry.
    """

    def __init__(self, message, unsent=False):
        super().__init__(message)
        self.unsent = unsent


# The chat runner, webhooks and pings all send through _http_exchange: no
# redirect is ever followed (a key or a payload never goes to another URL),
# and the whole exchange has one deadline.  Whether a failed message may be
# sent again is decided in one place, _resendable.

class _HttpFailure(Exception):
    """An HTTP exchange that got no answer.

    *kind* is ``deadline`` (the total deadline passed; *reason* is its
    message), ``timeout`` (a connect or read timed out) or ``unreachable``.
    """

    def __init__(self, kind, reason):
        super().__init__(str(reason))
        self.kind, self.reason = kind, reason

    @property
    def never_connected(self):
        """True when no byte can have reached the peer (refused, unknown host)."""
        return self.kind == "unreachable" and _never_connected(self.reason)


def _http_exchange(request, seconds, late, read=None):
    """Send a ``urllib.request.Request`` under a total deadline; return (status, body).

    Every HTTP answer is returned, 2xx or not (a redirect too: it is never
    followed), with at most *read* bytes of its body.  No answer raises
    ``_HttpFailure``; *late* is the message of a passed deadline.
    """
    import socket
    import urllib.error
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        with _Deadline(seconds, late) as deadline:
            try:
                with _watched_opener(deadline, NoRedirect).open(request, timeout=seconds) as r:
                    status, body = r.status, r.read() if read is None else r.read(read)
            except urllib.error.HTTPError as exc:
                status, body = exc.code, exc.read() if read is None else exc.read(read)
            deadline.check()  # a body cut short by the deadline is no answer
        return status, body
    except _RunFailed as exc:
        raise _HttpFailure("deadline", str(exc)) from None
    except (socket.timeout, TimeoutError) as exc:
        raise _HttpFailure("timeout", exc) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        kind = "timeout" if isinstance(reason, (socket.timeout, TimeoutError)) else "unreachable"
        raise _HttpFailure(kind, reason) from None


def _resendable(status=None, failure=None, idempotent=False):
    """The one rule for sending a failed message again (the delivery queue's retry).

    A message that must arrive once (a webhook) goes again only when it was
    provably not taken: the peer answered 429 or 503, or no connection was
    ever made (refused, unknown host); after a timeout or a reset it may
    have arrived, so it is not re-sent.  An idempotent one (a ping: a repeat
    is one more ping) goes again after any failure but a refusal (a 4xx
    other than 429).  A chat request is never re-sent: a 429 moves on to the
    next key or provider instead.
    """
    if failure is not None:
        return idempotent or failure.never_connected
    if idempotent:
        return status == 429 or status >= 500
    return status in (429, 503)


class _Deadline:
    """A total deadline for one network exchange, kept by a watchdog thread.

    A socket timeout bounds each read, not the exchange: a peer that sends a
    byte every few seconds would hold a send forever.  When *seconds* have
    passed, every socket given to :meth:`watch` is shut down, which wakes a
    read or write blocked on it; an exception that then leaves the ``with``
    block becomes ``_RunFailed(message)``.
    """

    def __init__(self, seconds, message):
        import threading

        self.message, self.expired = message, False
        self._lock = threading.Lock()
        self._socks = []
        self._timer = threading.Timer(max(seconds, 0), self._expire)
        self._timer.daemon = True

    def watch(self, sock):
        """Put *sock* under the deadline.

        A duplicate is kept: TLS wrapping detaches the original, and the
        duplicate's descriptor cannot be reused by anyone else meanwhile.
        """
        import socket

        dup = sock.dup()
        with self._lock:
            self._socks.append(dup)
            if self.expired:
                _shut(dup, socket.SHUT_RDWR)

    def _expire(self):
        import socket

        with self._lock:
            self.expired = True
            for sock in self._socks:
                _shut(sock, socket.SHUT_RDWR)

    def check(self):
        """Raise ``_RunFailed`` if the deadline has passed."""
        if self.expired:
            raise _RunFailed(self.message)

    def __enter__(self):
        self._timer.start()
        return self

    def __exit__(self, kind, exc, tb):
        self._timer.cancel()
        with self._lock:
            for sock in self._socks:
                sock.close()
            self._socks.clear()
        if self.expired and kind is not None and not issubclass(kind, _RunFailed):
            raise _RunFailed(self.message) from None
        return False


def _shut(sock, how):
    try:
        sock.shutdown(how)
    except OSError:
        pass  # not connected yet, or already closed by the peer


def _watched_opener(deadline, *handlers):
    """A urllib opener whose HTTP and HTTPS connections are under *deadline*."""
    import http.client
    import urllib.request

    class Plain(http.client.HTTPConnection):
        def connect(self):
            super().connect()
            deadline.watch(self.sock)  # the TLS handshake comes after, in TLS.connect

    class TLS(http.client.HTTPSConnection, Plain):
        pass

    class PlainHandler(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(Plain, req)

    class TLSHandler(urllib.request.HTTPSHandler):
        def https_open(self, req):
            return self.do_open(TLS, req)

    return urllib.request.build_opener(PlainHandler, TLSHandler, *handlers)


def _never_connected(reason):
    """True for errors that prove no byte reached the peer (refused, unknown host)."""
    import socket

    return isinstance(reason, (ConnectionRefusedError, socket.gaierror))


# --- 15.2 Agent runners ------------------------------------------------------

def _agent_runner(home, job, eid):
    """Pick the runner for an agent job: a callable, a provider, or agent.command.

    Returns ``fn(prompt) -> response`` or None when nothing is configured.
    """
    if home.runner is not None:
        return lambda prompt: home.runner(prompt, dict(job))
    agent = home.settings.get("agent") or {}
    if job.get("provider") or agent.get("provider"):
        return lambda prompt: _http_runner(home, job, prompt, eid)
    if agent.get("command"):
        return lambda prompt: _command_runner(home, job, eid, prompt, agent["command"])
    return None


def _command_runner(home, job, eid, prompt, command):
    """Run config ``agent.command`` with the prompt on stdin; stdout is the response."""
    env = dict(home.environ, HERMES_CRON_JOB_ID=str(job["id"]), HERMES_CRON_EXECUTION_ID=eid,
               HERMES_CRON_HOME=home.path)
    for key in ("model", "provider", "base_url"):
        if job.get(key):
            env[f"HERMES_CRON_{key.upper()}"] = job[key]
    timeout, own = _step_limit(home, job, eid, "run_timeout_seconds")
    rc, out, err, error = _run_child(
        ["/bin/sh", "-c", command], cwd=job.get("workdir") or home.path,
        env=_job_env(home, job, env), stdin_text=prompt, timeout=timeout, runs=home.runs,
        eid=eid, what="agent command", timed_out_as=own and f"agent command {own}")
    if error is None and rc != 0:
        tail = redact(err.strip())[-_ERROR_CAP:]  # masked first: a cut may split a key
        error = f"agent command exited with code {rc}" + (f": {tail}" if tail else "")
    if error is not None:
        raise _RunFailed(redact(error))
    return out


def _provider_entry(home, name):
    """(base_url, key env names, model) of a provider from config or the built-ins."""
    entry = (home.settings.get("providers") or {}).get(name)
    if isinstance(entry, dict):
        envs = entry.get("api_key_envs") or ([entry["api_key_env"]]
                                            if entry.get("api_key_env") else [])
        return entry.get("base_url"), list(envs), entry.get("model")
    if name in _PROVIDER_URLS:
        return _PROVIDER_URLS[name], [f"{name.upper()}_API_KEY"], None
    return None, [], None


def _http_runner(home, job, prompt, eid=None):
    """Call an OpenAI-compatible chat-completions API; rotate keys and providers on 429."""
    agent = home.settings.get("agent") or {}
    first = job.get("provider") or agent.get("provider")
    chain = [first] + [p for p in (home.settings.get("fallback_providers") or ()) if p != first]
    deadline = time.monotonic() + _step_limit(home, job, eid, "run_timeout_seconds")[0]
    limited = []
    for index, name in enumerate(chain):
        base_url, key_envs, model = _provider_entry(home, name)
        if index == 0:
            if job.get("base_url"):
                base_url = job["base_url"]
                if name == "custom":
                    key_envs = [job["api_key_env"]] if job.get("api_key_env") else []
            model = job.get("model") or model or agent.get("model")
        else:
            model = model or agent.get("model")
        if not base_url:
            raise _RunFailed(f"provider {name!r} has no base_url: add it to config.json "
                             f"providers")
        if not model:
            raise _RunFailed(f"no model configured for provider {name!r}: set --model, the "
                             f"provider's model or config agent.model")
        keys = [home.environ[e] for e in key_envs if home.environ.get(e)] or [None]
        for key in keys:
            status, body = _post_chat(base_url, key, model, prompt, deadline)
            if status == 429:
                limited.append(name)
                continue
            if not 200 <= status < 300:
                # Masked before it is cut and joined: a cut or a line break
                # through a key would leave the rest of it unrecognised.
                raise _RunFailed(f"provider {name!r} returned HTTP {status}: "
                                 f"{_one_line(redact(body), 300)}")
            return _chat_content(name, body)
    raise _RunFailed(f"rate limited: HTTP 429 (rate limit) from every key of "
                     f"{', '.join(dict.fromkeys(limited))}")


def _post_chat(base_url, key, model, prompt, deadline):
    """POST one chat completion; return (status, body text).  Redirects are refused.

    Never sent again: a 429 moves on to the next key or provider instead.
    """
    import json
    import urllib.request

    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _RunFailed("agent request timed out (run_timeout_seconds reached)")
    headers = {"Content-Type": "application/json", "User-Agent": f"hermes_cron/{__version__}"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps({"model": model, "messages": [{"role": "user", "content": prompt}]})
    request = urllib.request.Request(base_url.rstrip("/") + "/chat/completions",
                                     data=data.encode("utf-8"), headers=headers, method="POST")
    shown = _redact_url(base_url)
    late = (f"agent request to {shown} timed out: no complete answer within {remaining:.0f} s "
            f"(run_timeout_seconds)")
    try:
        status, body = _http_exchange(request, remaining, late)
    except _HttpFailure as exc:
        if exc.kind == "deadline":
            raise _RunFailed(late) from None
        if exc.kind == "timeout":
            raise _RunFailed(f"agent request to {shown} timed out after {remaining:.0f} s") \
                from None
        raise _RunFailed(redact(f"agent request to {base_url} failed: {exc.reason}")) from None
    return status, body.decode("utf-8", "replace")


def _chat_content(name, body):
    import json

    try:
        content = json.loads(body)["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise _RunFailed(redact(f"provider {name!r} sent an unexpected response: "
                                f"{_one_line(body, 300)}")) from None
    return content if isinstance(content, str) else ""


# --- 15.3 Delivery targets ---------------------------------------------------

_SEND_TIMEOUT = 30
_STDOUT_LOCK = None


def _deliver_targets(job, for_failure, settings):
    """The targets a result goes to: ``failure_deliver`` for failures, else ``deliver``.

    ``ping:`` targets take no content: they are pinged on every run's start and end.
    """
    text = job.get("deliver") or "local"
    if for_failure:
        text = job.get("failure_deliver") or settings.get("failure_deliver") or text
    if not isinstance(text, str):
        return ["local"]
    return [t for t in _split_targets(text) if not t.lower().startswith("ping:")]


def _real_target(target):
    """True for targets that send somewhere (not ``local``, nor a relative ``file:``)."""
    low = target.lower()
    if low.startswith("file:"):
        return target[5:].startswith("/")
    return low == "stdout" or low.startswith(_DELIVER_PREFIXES)


def _success_content(home, job, response):
    if home.settings.get("wrap_response"):
        return f"Cron job '{job.get('name') or job['id']}':\n\n{response}"
    return response


def _failure_content(job, outcome, when):
    return redact(f"Cron job '{job.get('name') or job['id']}' ({job['id']}) failed at "
                  f"{_iso(when)}:\n\n{outcome.error or 'unknown error'}")


def _send(home, job, eid, instant, content, for_failure, targets):
    """Send *content* to every target.

    Return the failures as ``target: error`` texts, and the targets that
    provably never received it (they may be tried again).
    """
    errors, unsent = [], []
    for target in targets:
        if not _real_target(target):
            continue
        try:
            _send_one(home, job, eid, instant, content, for_failure, target)
        except _RunFailed as exc:
            errors.append(f"{target.partition(':')[0]}: {exc}")
            if exc.unsent:
                unsent.append(target)
        except Exception as exc:  # a sender bug is a failed delivery, not a lost run
            errors.append(f"{target.partition(':')[0]}: {type(exc).__name__}: {exc}")
    return errors, unsent


def _send_one(home, job, eid, instant, content, for_failure, target):
    try:  # a hand-edited store may hold a target 'add' would refuse (webhook:file:///)
        _check_deliver(target)
    except InvalidInputError as exc:
        raise _RunFailed(f"refused at send time: {exc}") from None
    kind, _, rest = target.partition(":")
    kind = kind.lower()
    status = "failed" if for_failure else "ok"
    if kind == "stdout":
        global _STDOUT_LOCK
        if _STDOUT_LOCK is None:
            import threading

            _STDOUT_LOCK = threading.Lock()
        with _STDOUT_LOCK:
            sys.stdout.write(f"--- {job.get('name') or job['id']} ({job['id']}) {eid} "
                             f"{status} ---\n{content.rstrip()}\n")
            sys.stdout.flush()
    elif kind == "file":
        entry = (f"--- {_iso(home.now())} {job['id']} {eid} {status} ---\n"
                 f"{content.rstrip()}\n\n").encode("utf-8", "backslashreplace")
        try:
            fd = os.open(rest, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, entry)  # one write per entry: concurrent runs do not interleave
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise _RunFailed(f"cannot append to {rest}: {exc.strerror}") from None
    elif kind == "webhook":
        _remember_values(_url_tokens(rest))
        _send_webhook(home, job, eid, instant, content, for_failure, rest)
    elif kind == "command":
        # The script environment (never the provider keys or the signing
        # secret) plus what the delivery itself needs.
        env = dict(_script_env(home, job, eid), HERMES_CRON_STATUS=status)
        rc, _, err, error = _run_child(["/bin/sh", "-c", rest], cwd=home.path, env=env,
                                       stdin_text=content, timeout=_SEND_TIMEOUT,
                                       runs=home.runs, eid=f"{eid}-deliver",
                                       what="delivery command")
        with home.runs.lock:  # the run's document is written: nowhere to report them
            home.runs.left.pop(f"{eid}-deliver", None)
        if error is None and rc != 0:
            error = f"delivery command exited with code {rc}: {redact(err.strip())[-300:]}"
        if error is not None:
            raise _RunFailed(redact(error))
    elif kind == "email":
        _send_email(home, job, eid, content, for_failure, rest.strip())
    elif kind == "ping":  # a queued ping sent again: the target is the exact URL to GET
        _remember_values(_url_tokens(rest))
        _send_ping(rest.strip(), _SEND_TIMEOUT, eid)


def _send_webhook(home, job, eid, instant, content, for_failure, url):
    """POST the result as compact JSON; 2xx is delivered; no redirects are followed."""
    import hashlib
    import hmac
    import json
    import urllib.request

    body = json.dumps({"job_id": job["id"], "job_name": job.get("name"), "execution_id": eid,
                       "scheduled_instant": instant, "status": "failed" if for_failure else "ok",
                       "content": content, "for_failure": bool(for_failure)},
                      separators=(",", ":"), ensure_ascii=not _utf8_ok(content)).encode("utf-8")
    # The execution id doubles as an idempotency key: a receiver can drop a
    # repeat of a message it already has.
    headers = {"Content-Type": "application/json",
               "User-Agent": f"hermes_cron/{__version__}", "Idempotency-Key": eid}
    secret_env = home.settings.get("webhook_secret_env")
    if secret_env:
        secret = home.environ.get(secret_env)
        if not secret:
            raise _RunFailed(f"webhook secret variable {secret_env} is not set")
        digest = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()
        headers["X-Hermes-Signature"] = f"sha256={digest}"

    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    shown = _redact_url(url)
    late = f"timed out: no complete answer from {shown} within {_SEND_TIMEOUT:g} s (deadline)"
    try:
        status, answer = _http_exchange(request, _SEND_TIMEOUT, late, read=1024)
    except _HttpFailure as exc:
        unsent = _resendable(failure=exc)
        if exc.kind == "deadline":
            raise _RunFailed(late, unsent=unsent) from None
        if exc.kind == "timeout":
            raise _RunFailed(f"timed out after {_SEND_TIMEOUT} s posting to {shown}",
                             unsent=unsent) from None
        raise _RunFailed(redact(f"cannot reach {shown}: {exc.reason}"), unsent=unsent) from None
    if not 200 <= status < 300:
        excerpt = _one_line(redact(answer.decode("utf-8", "replace")), 200)
        raise _RunFailed(f"HTTP {status} from {shown}: {excerpt}",
                         unsent=_resendable(status=status))


def _send_email(home, job, eid, content, for_failure, address):
    """Send the result by SMTP with config ``smtp`` (host, port, starttls, user, password_env)."""
    import smtplib
    from email.message import EmailMessage

    smtp = home.settings.get("smtp") or {}
    if not smtp.get("host"):
        raise _RunFailed("config smtp.host is not set")
    message = EmailMessage()
    message["From"] = smtp.get("from") or f"hermes_cron@{os.uname().nodename}"
    message["To"] = address
    message["Subject"] = (f"[hermes_cron] {job.get('name') or job['id']}"
                          f"{' FAILED' if for_failure else ''}")
    message["X-Hermes-Execution"] = eid
    message.set_content(content)
    password = home.environ.get(smtp["password_env"]) if smtp.get("password_env") else None

    class Client(smtplib.SMTP):
        def _get_socket(self, host, port, timeout):
            sock = super()._get_socket(host, port, timeout)
            deadline.watch(sock)  # before the greeting is read
            return sock

    late = (f"SMTP to {smtp['host']} timed out: no complete answer within {_SEND_TIMEOUT:g} s "
            f"(deadline)")
    try:
        with _Deadline(_SEND_TIMEOUT, late) as deadline, \
                Client(smtp["host"], int(smtp.get("port") or 25), timeout=_SEND_TIMEOUT) as client:
            if smtp.get("starttls"):
                client.starttls()
            if smtp.get("user"):
                client.login(smtp["user"], password or "")
            client.send_message(message)
    except (smtplib.SMTPException, OSError) as exc:
        code = getattr(exc, "smtp_code", None)
        if isinstance(exc, smtplib.SMTPRecipientsRefused):
            codes = [c for c, _ in exc.recipients.values()]
            code = min(codes) if codes else None
        unsent = _never_connected(exc) or isinstance(exc, smtplib.SMTPConnectError) or (
            isinstance(code, int) and 400 <= code < 500)  # 4xx: try again later
        raise _RunFailed(redact(f"SMTP to {smtp['host']} failed: {exc}"), unsent=unsent) \
            from None


def _deliver(home, job, eid, instant, content, for_failure, now):
    """Queue and send one result; return (delivery_outcome, error or None)."""
    targets = _deliver_targets(job, for_failure, home.settings)
    real = [t for t in targets if _real_target(t)]
    if not real:
        # Upstream's values: results kept local on purpose are "suppressed";
        # targets nothing here can reach are "not_configured".
        local = all(t.lower() in _DELIVER_WORDS for t in targets)
        return ("suppressed" if local else "not_configured"), None
    queue = home.deliveries
    snapshot = dict(job, deliver=",".join(targets), _scheduled_instant=instant)
    queue.enqueue(eid, snapshot, content, for_failure, now)
    return _send_queued(home, eid, snapshot, content, for_failure, instant, real)


def _send_queued(home, eid, job, content, for_failure, instant, targets, owner=None):
    queue = home.deliveries
    home.ledger.register(home.now())
    if not queue.claim(eid, owner):
        return "failed", "the delivery was claimed by another process"
    errors, unsent = _send(home, job, eid, instant, content, for_failure, targets)
    error = ("delivery failed: " + "; ".join(errors)) if errors else None
    now = home.now()
    attempt = queue.attempts(eid) + 1
    if unsent and attempt < _DELIVERY_ATTEMPTS:
        # Nothing reached those receivers: they get the message again later
        # (the targets that took it, and those that failed otherwise, not).
        retry = now + timedelta(seconds=_DELIVERY_BACKOFF[attempt - 1])
        error += (f"; retrying {', '.join(t.partition(':')[0] for t in unsent)} after "
                  f"{_iso(retry)} (attempt {attempt} of {_DELIVERY_ATTEMPTS})")
        if queue.defer(eid, unsent, attempt, error, retry, now):
            return "failed", error
    elif attempt > 1:
        queue.record_attempt(eid, attempt, targets, error, None, now)
    queue.finish(eid, job, "failed" if error else "delivered", error, now)
    return ("failed" if error else "delivered"), error


def _drain(home, now):
    """Send pending deliveries left by dead processes, and retries that are due."""
    import json

    queue = home.deliveries
    for eid, targets in queue.due_retries(now):
        row = queue.row(eid)
        if row is None or row["status"] != "pending":
            continue
        job = json.loads(row["job_json"])
        _send_queued(home, eid, job, row["content"], row["for_failure"],
                     job.get("_scheduled_instant"), [t for t in targets if _real_target(t)])
    for eid, owner in queue.settle_orphans(home.ledger, now):
        row = queue.row(eid)
        if row is None or row["status"] != "pending":
            continue
        job = json.loads(row["job_json"])
        targets = [t for t in _split_targets(job.get("deliver") or "") if _real_target(t)]
        _send_queued(home, eid, job, row["content"], row["for_failure"],
                     job.get("_scheduled_instant"), targets, owner)
    if queue.exists():
        queue.prune()


def _send_ping(url, timeout, key):
    """GET a dead man's switch URL; any 2xx is a ping; redirects are not followed.

    A ping is idempotent (healthchecks.io and Cronitor record a repeat as one
    more ping), so every failure but a refusal (a 4xx other than 429) is
    marked ``unsent``: the delivery queue sends it again later.
    """
    import urllib.request

    request = urllib.request.Request(url, method="GET", headers={
        "User-Agent": f"hermes_cron/{__version__}", "Idempotency-Key": key})
    shown = _redact_url(url)
    late = f"timed out: no complete answer from {shown} within {timeout:g} s (deadline)"
    try:
        status, _ = _http_exchange(request, timeout, late, read=1024)
    except _HttpFailure as exc:
        message = late if exc.kind == "deadline" else redact(f"cannot reach {shown}: {exc.reason}")
        raise _RunFailed(message, unsent=_resendable(failure=exc, idempotent=True)) from None
    if not 200 <= status < 300:
        raise _RunFailed(f"HTTP {status} from {shown}",
                         unsent=_resendable(status=status, idempotent=True))


# --- 15.4 The fleet's store: etcd ---------------------------------------------
#
# etcd's v3 JSON gateway over plain HTTP (or HTTPS): keys and values are
# base64, 64-bit integers are strings, and a field that is zero or false is
# left out of an answer (a transaction that failed has no "succeeded").  A
# member that cannot be reached, times out or answers 5xx sends the request
# to the next one: after such an error a write may or may not have been
# applied, so the callers make every write a compare-and-set they can check.

_ETCD_TIMEOUT = 2.0  # seconds a member may take; a leader's election takes about 0.5-1


def _b64(text):
    import base64

    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def _unb64(text):
    import base64

    return base64.b64decode(text or "").decode("utf-8", "replace")


def _prefix_end(prefix):
    """The ``range_end`` of every key that starts with *prefix*."""
    data = bytearray(prefix.encode("utf-8"))
    data[-1] += 1  # a prefix here is text: its last byte is never 0xff
    return data.decode("utf-8", "surrogateescape")


class _Etcd:
    """A client of one etcd cluster, from the config's ``cluster`` setting."""

    def __init__(self, cluster, environ):
        self.urls = [url.rstrip("/") for url in cluster["etcd"]]
        self.current, self.token, self.context = 0, None, None
        user_env, password_env = cluster.get("user_env"), cluster.get("password_env")
        self.user = environ.get(user_env) if user_env else None
        self.password = environ.get(password_env) if password_env else None
        if cluster.get("ca_file") or cluster.get("cert_file"):
            import ssl

            self.context = ssl.create_default_context(cafile=cluster.get("ca_file"))
            if cluster.get("cert_file"):
                self.context.load_cert_chain(cluster["cert_file"], cluster.get("key_file"))

    def call(self, path, body, again=True):
        """POST *body* to *path* on the first member that answers; return the answer."""
        if self.user and self.token is None and path != "/v3/auth/authenticate":
            self.token = self.call("/v3/auth/authenticate", {
                "name": self.user, "password": self.password or ""}).get("token", "")
        errors = []
        for step in range(len(self.urls)):
            index = (self.current + step) % len(self.urls)
            status, answer = self._post(self.urls[index], path, body)
            if status == 200:
                self.current = index
                return answer
            message = str((answer.get("error") if isinstance(answer.get("error"), dict)
                           else answer).get("message") or answer.get("error") or answer)
            if status and status < 500:
                if again and self.user and (status == 401 or "user name is empty" in message):
                    self.token = None  # expired, or auth was enabled since: once more
                    return self.call(path, body, False)
                raise ClusterError(f"etcd refused {path}", _one_line(message),
                                   "check the cluster setting and etcd's own log")
            errors.append(f"{self.urls[index]}: {_one_line(message, 120)}")
        raise ClusterUnavailableError("etcd cannot be reached", "; ".join(errors),
                                      "nothing is fired until etcd answers again")

    def _post(self, url, path, body):
        import json
        import urllib.error
        import urllib.request

        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = self.token  # the bare token, no "Bearer"
        request = urllib.request.Request(url + path, json.dumps(body).encode(), headers)
        try:
            with urllib.request.urlopen(request, timeout=_ETCD_TIMEOUT,
                                        context=self.context) as response:
                return 200, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            try:
                return exc.code, json.loads(exc.read() or b"{}")
            except ValueError:
                return exc.code, {"error": f"HTTP {exc.code}"}
        except (OSError, ValueError) as exc:  # refused, reset, timed out, not JSON
            return 0, {"error": f"{type(exc).__name__}: {exc}"}

    def txn(self, compare, success, failure=()):
        """(succeeded, responses) of one transaction; keys and values are plain text."""
        answer = self.call("/v3/kv/txn", {"compare": compare, "success": list(success),
                                          "failure": list(failure)})
        return bool(answer.get("succeeded")), answer.get("responses", [])

    def range(self, key, prefix=False, limit=0):
        """``[(key, value, mod_revision, lease)]`` of *key* (every key under it with *prefix*)."""
        body = {"key": _b64(key), "limit": str(limit)}
        if prefix:
            body["range_end"] = _b64(_prefix_end(key))
        answer = self.call("/v3/kv/range", body)
        return [(_unb64(kv["key"]), _unb64(kv.get("value")), int(kv.get("mod_revision", 0)),
                 int(kv.get("lease", 0))) for kv in answer.get("kvs", [])]

    def grant(self, seconds):
        return int(self.call("/v3/lease/grant", {"TTL": str(seconds)})["ID"])

    def keepalive(self, lease):
        """Seconds left on *lease* after renewing it; 0 once it has expired."""
        answer = self.call("/v3/lease/keepalive", {"ID": str(lease)})
        return int((answer.get("result") or {}).get("TTL", 0))

    def revoke(self, lease):
        try:
            self.call("/v3/lease/revoke", {"ID": str(lease)})
        except ClusterError:
            pass  # expired already: its keys are gone either way


def _put(key, value, lease=0):
    return {"request_put": {"key": _b64(key), "value": _b64(value), "lease": str(lease)}}


def _delete(key):
    return {"request_delete_range": {"key": _b64(key)}}


def _get(key):
    return {"request_range": {"key": _b64(key)}}


def _absent(key):
    return {"key": _b64(key), "target": "CREATE", "result": "EQUAL", "create_revision": "0"}


def _held_by(key, lease):
    """True while *key* is attached to *lease*: a lease that expired took its key along."""
    return {"key": _b64(key), "target": "LEASE", "result": "EQUAL", "lease": str(lease)}


def _unchanged(key, revision):
    return {"key": _b64(key), "target": "MOD", "result": "EQUAL", "mod_revision": str(revision)}


def _answered_kvs(response):
    """The ``(key, value)`` pairs of one range response inside a transaction's answer."""
    return [(_unb64(kv["key"]), _unb64(kv.get("value")))
            for kv in (response.get("response_range") or {}).get("kvs", [])]


# =============================================================================
# 16. One run
#    A job's run from start to its output document: the checks its answer
#    must pass, the monitor gate before its agent, dead man's switch pings.
# =============================================================================

# --- 16.1 Checking a run's claims ---------------------------------------------
# A run that succeeded is checked before its answer is delivered: each check
# of the job's ``verify`` reads the answer and tests what it claims (its URLs
# answer, its files exist, its commits are in the repository).  The verdict
# is the worst finding: ``unverified`` (a claim is false), ``unverifiable``
# (a check could not run: never read as verified), else ``verified``.

_URL_IN_TEXT = r"https?://[^\s<>\"'`\\]+"
_URL_TRAILING = ".,;:!?)]}*_'\""
_MAX_REDIRECTS = 5
_VERIFY_RANK = {"verified": 0, "unverifiable": 1, "unverified": 2}
_EX_TEMPFAIL = 75  # a verifier script's "cannot tell now" (sysexits.h)


class _Finding:
    """One claim one check tested: its result and what showed it."""

    __slots__ = ("check", "claim", "result", "evidence")

    def __init__(self, check, claim, result, evidence):
        # Redacted here, once: a claimed URL can carry a token, and the finding
        # reaches the ledger, the document and the report.
        self.check, self.result = check, result
        self.claim, self.evidence = redact(claim), redact(evidence)

    def error(self):
        """The run's error when this finding decides it (``verify url: ... answered 404``)."""
        claim = f"{self.claim} " if self.claim else ""
        if self.result == "unverifiable":
            return f"verify {self.check}: {claim}could not be checked: {self.evidence} " \
                   f"(unverifiable)"
        return f"verify {self.check}: {claim}{self.evidence}"

    def as_dict(self):
        return {"check": self.check, "claim": self.claim, "result": self.result,
                "evidence": self.evidence}


class _Verdict:
    """The findings of a run's checks and the verdict they add up to."""

    __slots__ = ("findings",)

    def __init__(self, findings):
        self.findings = findings

    @property
    def verdict(self):
        worst = max((_VERIFY_RANK[f.result] for f in self.findings), default=0)
        return next(k for k, v in _VERIFY_RANK.items() if v == worst)

    @property
    def error(self):
        """The error a run that is not verified fails with: its first worst finding."""
        bad = [f for f in self.findings if f.result == self.verdict]
        if self.verdict == "verified":
            return None
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        return redact(bad[0].error() + more)

    def json(self):
        import json

        return json.dumps([f.as_dict() for f in self.findings], ensure_ascii=False)

    def lines(self):
        """The document's ``## Verification`` lines, one per finding."""
        return [f"- {f.result}: {f.check}{' ' + f.claim if f.claim else ''}: {f.evidence}"
                for f in self.findings]


def _verify_answer(home, job, checks, answer, context):
    """Run *checks* on *answer*; return a ``_Verdict``.

    *context* holds what the checks of one run share: ``eid``, ``job_id``
    (the run checked; a watchdog's target), ``started`` (its start),
    ``document`` (its output document) and ``workdir``.
    """
    findings = []
    for check in checks:
        kind = check["check"]
        if kind not in _VERIFIERS:  # see _stored_checks
            findings.append(_Finding("checks", "", "unverifiable", check["error"]))
            continue
        try:
            findings += _VERIFIERS[kind](home, job, check, answer, context)
        except Exception as exc:  # a checker bug cannot pass a run: it could not check
            findings.append(_Finding(kind, "", "unverifiable", f"{type(exc).__name__}: {exc}"))
    return _Verdict(findings)


def _claims(check, answer, default):
    """The claims a check tests: its pattern's matches (group 1 if it has one), in order."""
    import re

    pattern = re.compile(check.get("pattern") or default)
    seen = []
    for m in pattern.finditer(answer):
        text = m.group(1) if pattern.groups else m.group(0)
        if text and text not in seen:
            seen.append(text)
    return seen


def _none_named(check, kind, what):
    if check.get("required", True):
        return [_Finding(kind, "", "unverified", f"the answer names no {what}")]
    return [_Finding(kind, "", "verified", f"the answer names no {what} (not required)")]


def _verify_url(home, job, check, answer, context):
    import re

    urls = []
    for url in re.findall(_URL_IN_TEXT, answer):
        url = url.rstrip(_URL_TRAILING)
        if check.get("pattern") and not re.search(check["pattern"], url):
            continue
        if url not in urls:
            urls.append(url)
    if not urls:
        return _none_named(check, "url", "URL" + (" matching the pattern"
                                                  if check.get("pattern") else ""))
    from urllib.parse import urlsplit

    hosts = {(urlsplit(u).hostname or "").lower() for u in urls}
    allowed = _allowed_networks(home.settings)
    seconds = check.get("deadline", _VERIFY_DEADLINE)
    end = time.monotonic() + seconds
    findings = []
    for url in urls:
        if time.monotonic() >= end:
            findings.append(_Finding("url", url, "unverifiable",
                                     f"the check's deadline of {seconds} s passed first"))
            continue
        findings.append(_probe(url, hosts, allowed, end, seconds))
    return findings


def _allowed_networks(settings):
    import ipaddress

    return [ipaddress.ip_network(n, strict=False)
            for n in settings.get("verify_allow_networks") or ()]


def _probe(url, hosts, allowed, end, seconds):
    """HEAD *url* (GET where HEAD is refused), following redirects among *hosts*."""
    from urllib.parse import urljoin, urlsplit

    hops, method, current = 0, "HEAD", url
    while True:
        try:
            status, location = _ask(current, method, allowed, end, seconds)
        except _Refused as exc:
            return _Finding("url", url, "unverifiable", str(exc))
        except _HttpFailure as exc:
            return _Finding("url", url, "unverifiable", str(exc.reason))
        if status in (405, 501) and method == "HEAD":
            method = "GET"
            continue
        after = f" after {hops} redirect{'s' if hops != 1 else ''}" if hops else ""
        if 300 <= status < 400 and location:
            target = urljoin(current, location)
            host = (urlsplit(target).hostname or "").lower()
            if host not in hosts or urlsplit(target).scheme not in ("http", "https"):
                return _Finding("url", url, "verified", f"answered {status}{after} (to "
                                f"{host or target}, not followed: not a host the answer names)")
            hops += 1
            if hops > _MAX_REDIRECTS:
                return _Finding("url", url, "unverified",
                                f"redirected more than {_MAX_REDIRECTS} times")
            current = target
            continue
        if 200 <= status < 400:
            return _Finding("url", url, "verified", f"answered {status}{after}")
        return _Finding("url", url, "unverified", f"answered {status}{after}")


class _Refused(Exception):
    """A url check that would contact an address it may not (private, link-local)."""


def _ask(url, method, allowed, end, seconds):
    """One request to *url* at an address checked first; return (status, Location)."""
    import http.client
    import ipaddress
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host, https = parts.hostname, parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    left = end - time.monotonic()
    if left <= 0:
        raise _HttpFailure("deadline", f"the check's deadline of {seconds} s passed")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise _HttpFailure("unreachable", f"{host}: {exc}") from None
    addresses = []
    for info in infos:
        ip = ipaddress.ip_address(info[4][0].split("%")[0])
        if not ip.is_global and not any(ip in net for net in allowed):
            # Every address must be allowed: a name that resolves to one
            # public and one private address must not reach the private one.
            raise _Refused(f"{host} resolves to {ip}, a private or local address a check may "
                           f"not contact (allow it with config verify_allow_networks)")
        addresses.append(info[4][:2])
    base = http.client.HTTPSConnection if https else http.client.HTTPConnection

    class Pinned(base):
        def connect(self):
            sock = socket.create_connection(addresses[0], self.timeout)
            deadline.watch(sock)
            self.sock = self._context.wrap_socket(sock, server_hostname=host) if https \
                else sock

    try:
        with _Deadline(left, f"the check's deadline of {seconds} s passed") as deadline:
            conn = Pinned(host, port, timeout=left)
            try:
                path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
                conn.request(method, path, headers={
                    "User-Agent": f"hermes_cron/{__version__} (verify)", "Accept": "*/*"})
                response = conn.getresponse()
                status, location = response.status, response.getheader("Location")
            finally:
                conn.close()
            deadline.check()
        return status, location
    except _RunFailed as exc:
        raise _HttpFailure("deadline", str(exc)) from None
    except (socket.timeout, TimeoutError):
        raise _HttpFailure("timeout", f"timed out after {seconds} s") from None
    except (OSError, http.client.HTTPException) as exc:
        raise _HttpFailure("unreachable", f"{type(exc).__name__}: {exc}") from None


def _verify_path(home, job, check, answer, context):
    base = context["workdir"]
    paths = [check["path"]] if "path" in check else _claims(check, answer, check["pattern"])
    if not paths:
        return _none_named(check, "path", "path matching the pattern")
    findings = []
    for name in paths:
        path = os.path.join(base or "/", os.path.expanduser(name))
        try:
            st = os.stat(path)
        except FileNotFoundError:
            findings.append(_Finding("path", name, "unverified", "does not exist"))
            continue
        except OSError as exc:
            findings.append(_Finding("path", name, "unverifiable", exc.strerror or str(exc)))
            continue
        started = context["started"].timestamp()
        if check.get("newer") and st.st_mtime < started:
            changed = _iso(datetime.fromtimestamp(int(st.st_mtime), _UTC))
            findings.append(_Finding("path", name, "unverified",
                                     f"was last changed at {changed}, before the run started"))
        else:
            findings.append(_Finding("path", name, "verified", f"exists ({st.st_size} bytes)"))
    return findings


def _git(repo, *args, timeout=30):
    import subprocess

    try:
        done = subprocess.run(["git", "-C", repo, *args], capture_output=True, timeout=timeout,
                              env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                                   "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"},
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        return None, "git is not installed"
    except subprocess.TimeoutExpired:
        return None, f"git timed out after {timeout} s"
    return done.returncode, done.stderr.decode("utf-8", "replace").strip()


def _verify_git(home, job, check, answer, context):
    repo = os.path.expanduser(check["repo"])
    hashes = _claims(check, answer, _GIT_HASH)
    if not hashes:
        return _none_named(check, "git", "commit")
    rc, err = _git(repo, "rev-parse", "--git-dir")
    if rc != 0:
        return [_Finding("git", h, "unverifiable", f"{repo} is not a readable git repository"
                         f" ({err or 'git failed'})") for h in hashes]
    findings = []
    for commit in hashes:
        rc, err = _git(repo, "cat-file", "-e", f"{commit}^{{commit}}")
        if rc is None:
            findings.append(_Finding("git", commit, "unverifiable", err))
        elif rc != 0:
            findings.append(_Finding("git", commit, "unverified", f"is not a commit in {repo}"))
        elif check.get("branch"):
            rc, err = _git(repo, "merge-base", "--is-ancestor", commit, check["branch"])
            if rc == 0:
                findings.append(_Finding("git", commit, "verified",
                                         f"is on {check['branch']} in {repo}"))
            elif rc == 1:
                findings.append(_Finding("git", commit, "unverified",
                                         f"is not reachable from {check['branch']} in {repo}"))
            else:
                findings.append(_Finding("git", commit, "unverifiable", err or "git failed"))
        else:
            findings.append(_Finding("git", commit, "verified", f"is a commit in {repo}"))
    return findings


def _verify_regex(home, job, check, answer, context):
    import re

    m = re.search(check["pattern"], answer)
    wanted = check.get("match", True)
    if bool(m) == wanted:
        said = "matches" if m else "does not match"
        return [_Finding("regex", "", "verified", f"the answer {said} {check['pattern']!r}")]
    if wanted:
        return [_Finding("regex", "", "unverified",
                         f"the answer does not match {check['pattern']!r}")]
    return [_Finding("regex", "", "unverified", f"the answer matches {check['pattern']!r} "
                     f"(at {_keep_tail(m.group(0), 80)!r})")]


def _verify_script(home, job, check, answer, context):
    scripts_dir = home.scripts_dir
    try:
        path, args = _script_command(check["script"], scripts_dir)
    except InvalidInputError as exc:
        return [_Finding("script", check["script"], "unverifiable", str(exc))]
    env = _script_env(home, {"id": context["job_id"]}, context["eid"])
    env["HERMES_CRON_OUTPUT_FILE"] = context["document"] or ""
    timeout = home.settings["script_timeout_seconds"]
    rc, out, err, error = _run_child(
        _script_argv(path, args), cwd=context["workdir"] or os.path.dirname(path), env=env,
        stdin_text=answer, timeout=timeout, runs=home.runs, eid=f"{context['eid']}:verify",
        what="verifier script")
    with home.runs.lock:
        left = home.runs.left.pop(f"{context['eid']}:verify", ())
    name = check["script"]
    evidence = _keep_tail((out.strip() or err.strip()), _ERROR_CAP)
    if error is not None:
        return [_Finding("script", name, "unverifiable", error)]
    if left:  # it left processes behind (killed): its word is not to be trusted
        return [_Finding("script", name, "unverifiable", "; ".join(left))]
    if rc == 0:
        return [_Finding("script", name, "verified", evidence or "exit 0")]
    if rc == _EX_TEMPFAIL:
        return [_Finding("script", name, "unverifiable", evidence or f"exit {rc}")]
    return [_Finding("script", name, "unverified",
                     f"exit {rc}" + (f": {evidence}" if evidence else ""))]


_VERIFIERS = {"url": _verify_url, "path": _verify_path, "git": _verify_git,
              "regex": _verify_regex, "script": _verify_script}


def _to_verify(job, outcome):
    """True when a run's answer goes through its job's checks: it succeeded and says something."""
    return bool(job.get("verify")) and not job.get("watch") and outcome.ok and \
        not outcome.silent and outcome.note != "interrupted"


def _verified(home, job, eid, outcome, started, document):
    """Check a successful run's answer; return its outcome, failed unless verified."""
    context = {"eid": eid, "job_id": job["id"], "started": started, "document": document,
               "workdir": job.get("workdir")}
    verdict = _verify_answer(home, job, _stored_checks(home, job), outcome.response, context)
    outcome.verdict = verdict
    if verdict.verdict == "verified":
        return outcome
    failed = _Outcome("error", outcome.response, error=verdict.error, prompt=outcome.prompt,
                      note=verdict.verdict)
    failed.verdict, failed.warning, failed.mode = verdict, outcome.warning, outcome.mode
    return failed


def _stored_checks(home, job):
    """A job's checks as stored; a hand-edited list that no longer validates is one
    check that cannot run (the run is then unverifiable, never verified)."""
    try:
        return _check_verify(job.get("verify"), home.scripts_dir, job.get("workdir"))
    except InvalidInputError as exc:
        return [{"check": "stored", "error": str(exc)}]


# A watchdog (a job with ``watch``) runs its checks on the latest runs of
# other jobs, the article's separate verifier: a fleet is audited without
# editing each job.  Each run it has not checked yet gets its verdict (keyed
# by that run, checked_by the watchdog); a false claim opens an incident of
# the watched job.
_WATCH_RUNS = 5  # per watched job and watchdog run, newest first
_WATCH_UNCHECKED = (
    "SELECT id, started_at FROM executions e WHERE job_id=? AND status='completed' AND NOT "
    "EXISTS (SELECT 1 FROM cron_verdicts v WHERE v.execution_id=e.id AND v.checked_by=?) "
    "ORDER BY julianday(claimed_at) DESC, rowid DESC LIMIT ?")


def _watchdog(home, job, eid):
    """Check the watched jobs' runs not checked yet; the report is the watchdog's answer."""
    checks = _stored_checks(home, job)
    jobs = {j.get("id"): j for j in home.store.load()[1] if isinstance(j, dict)}
    counts, lines = dict.fromkeys(_VERIFY_RANK, 0), []
    for target_id in job["watch"]:
        target = jobs.get(target_id)
        if target is None:
            lines.append(f"- {target_id}: no such job any more (edit the watchdog's --watch)")
            continue
        name = target.get("name") or target_id
        for row in home.ledger.select(_WATCH_UNCHECKED, (target_id, job["id"], _WATCH_RUNS)):
            document, answer = _run_answer(home, target_id, row["id"])
            if answer is not None and (not answer.strip() or is_silent(answer)):
                continue  # a silent run claims nothing
            if answer is None:
                verdict = _Verdict([_Finding("checks", "", "unverifiable",
                                             "the run's output document was not found")])
            else:
                verdict = _verify_answer(home, target, checks, answer, {
                    "eid": row["id"], "job_id": target_id, "document": document,
                    "started": _parse_stored(row["started_at"]) or home.now(),
                    "workdir": job.get("workdir")})
            now = home.now()
            home.ledger.record_verdict(row["id"], target_id, job["id"], verdict, now)
            counts[verdict.verdict] += 1
            if verdict.verdict == "verified":
                lines.append(f"- {name} run {row['id']}: verified")
                continue
            error = f"{verdict.error} (found by watchdog {job.get('name') or job['id']})"
            home.incidents.record(target_id, error, document, now,
                                  failure_type=classify_failure(verdict.error))
            lines.append(f"- {name} run {row['id']}: {verdict.error}")
    checked = sum(counts.values())
    if not checked and not lines:
        return _Outcome("ok", silent=True, note="silent (no new runs to check)")
    summary = ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "none checked"
    return _Outcome("ok", f"Checked {checked} run{'s' if checked != 1 else ''}: {summary}\n\n"
                          + "\n".join(lines))


def _run_answer(home, job_id, eid):
    """(document path, answer) of a run, from its output document; (None, None) if none."""
    try:
        directory = _output_dir(home, job_id)
    except InvalidInputError:
        return None, None
    for name in reversed(_list_outputs(directory)):
        path = os.path.join(directory, name)
        if _read_head(path).get("Execution") != eid:
            continue
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return None, None
        _, found, answer = text.partition("\n## Response\n\n")
        if not found:
            return path, ""
        return path, answer.split("\n\n## Verification\n", 1)[0].rstrip("\n")
    return None, None


# --- 16.2 The monitor gate ----------------------------------------------------
# Upstream's monitor_script / monitor_url: the watched source is read before
# the agent runs, and an unchanged source (by sha256 of its text) suppresses
# the run, so a job that watches a feed every 5 minutes calls the model only
# when the feed changes.  The state is upstream's, kept on the job record:
# ``monitor_state = {"last_output_hash", "last_changed_at"}``, and the text
# read last beside the run documents, for the diff the agent is shown.

_MONITOR_URL_BYTES = 256 * 1024
_MONITOR_URL_TIMEOUT = 30
_MONITOR_LAST = "monitor_last_output.txt"
_MONITOR_DIFF_CAP = 4000
_MONITOR_OUTPUT_CAP = 8000


def _monitor_gate(home, job, eid, runs):
    """Read a job's monitor source; return (outcome or None, run context, new state).

    An outcome ends the run before the agent: ``no_change`` (suppressed, as
    upstream records it) or ``monitor source failed``.  Otherwise the agent
    runs with the run context (the change, or the first reading) and the new
    state is committed with its successful result.
    """
    import hashlib

    try:
        text = _monitor_script_output(home, job, eid, runs) if job.get("monitor_script") \
            else _monitor_url_output(job["monitor_url"])
    except _RunFailed as exc:
        failed = _Outcome("error", error=str(exc), note="monitor source failed")
        failed.mode = "monitor"
        return failed, None, None
    digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
    state = job.get("monitor_state") if isinstance(job.get("monitor_state"), dict) else {}
    last = state.get("last_output_hash")
    if last == digest:
        quiet = _Outcome("ok", silent=True, note="no_change (agent run suppressed)")
        quiet.mode = "monitor"
        return quiet, None, None
    new = {"last_output_hash": digest, "last_changed_at": _iso(home.now())}
    shown = _cap(text, _MONITOR_OUTPUT_CAP, "\n... [output truncated]")
    if last is None:
        block = ("## Monitor Baseline (first run)\n\nThis is the first observation of the "
                 "monitored source: there is no previous output to compare with.\n\n"
                 f"### Current output\n\n{_fence(shown)}")
    else:
        import difflib

        before = _read_text(os.path.join(_output_dir(home, job["id"]), _MONITOR_LAST)) or ""
        diff = "\n".join(difflib.unified_diff(before.splitlines(), text.splitlines(),
                                              "previous", "current", lineterm=""))
        block = ("## MONITOR CHANGE DETECTED\n\nThe monitored source's output changed since "
                 "the last run.\n\n### Diff (previous -> current)\n\n```diff\n"
                 f"{_cap(diff, _MONITOR_DIFF_CAP, chr(10) + '... [diff truncated]')}\n```\n\n"
                 f"### Current output\n\n{_fence(shown)}")
    return None, block, (new, text)


def _cap(text, cap, mark):
    return text if len(text) <= cap else text[:cap] + mark


def _monitor_script_output(home, job, eid, runs):
    """A monitor script's stripped, redacted stdout (upstream's rules of job scripts)."""
    ok, out, error = _drive(_run_script(home, dict(job, script=job["monitor_script"]), eid,
                                        runs))
    if not ok:
        raise _RunFailed(error)
    return out.strip()


def _monitor_url_output(url):
    """GET a monitor URL (redirects followed, as upstream's urlopen does); its text."""
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": "hermes-cron-monitor"})
    try:
        with _Deadline(_MONITOR_URL_TIMEOUT, f"timed out after {_MONITOR_URL_TIMEOUT} s") as d:
            with _watched_opener(d).open(request, timeout=_MONITOR_URL_TIMEOUT) as response:
                body = response.read(_MONITOR_URL_BYTES + 1)[:_MONITOR_URL_BYTES]
            d.check()
    except Exception as exc:  # upstream's one wording for every failure, 4xx/5xx included
        raise _RunFailed(redact(f"monitor_url fetch failed: {exc}")) from None
    return redact(body.decode("utf-8", "replace"))


def _keep_monitor_text(home, job, text):
    """Keep the text a changed source showed, for the next change's diff."""
    directory = _output_dir(home, job["id"], make=True)
    tmp = _synced_temp(directory, ".monitor_", ".tmp", text.encode("utf-8", "replace"))
    os.replace(tmp, os.path.join(directory, _MONITOR_LAST))


# --- 16.3 A run ----------------------------------------------------------------

def _execute(home, job, eid, runs):
    """Run one job: its script, then (unless ``no_agent``) the agent.  A generator (see
    ``_run_script``)."""
    _remember_job_secrets(job, home.environ)  # before anything can echo them
    limit = _policy(job, "timeout_seconds")
    if limit:
        with runs.lock:
            runs.deadlines[eid] = (time.monotonic() + limit, limit)
    try:
        outcome = yield from _execute_checked(home, job, eid, runs)
    except InvalidInputError as exc:  # a store edited by hand since the scan
        outcome = _Outcome("blocked_config", error=str(exc))
    except Exception as exc:  # a runner bug must end as a failed run, not a lost one
        import traceback

        # The exception first, as upstream keeps an agent's error: the incident
        # id hashes the first 200 characters, which must tell errors apart (a
        # traceback begins with this module's own frames).  The document keeps
        # the traceback.
        try:
            message = str(exc)
        except Exception:  # an exception whose own __str__ fails
            message = "(its message could not be read)"
        error = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
        stack = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        outcome = _Outcome("error", error=_keep_tail(redact(error), _ERROR_CAP),
                           detail=redact(stack)[-_ERROR_CAP:])
    with runs.lock:
        outcome.warning = "; ".join(runs.left.pop(eid, ())) or None
        runs.deadlines.pop(eid, None)
    return outcome


def _execute_checked(home, job, eid, runs):
    if job.get("watch"):
        return _watchdog(home, job, eid)
    run_context = monitor = None
    if not job.get("no_agent"):
        _check_base_url(job, home.settings)  # again here: the store may be edited by hand
        if job.get("monitor_script") or job.get("monitor_url"):
            stop, run_context, monitor = _monitor_gate(home, job, eid, runs)
            if stop is not None:
                return stop
    outcome = yield from _execute_payload(home, job, eid, runs, run_context)
    if monitor is not None:
        outcome.mode = "monitor"
        if outcome.ok:  # committed with a good result only: a failed run sees the change again
            outcome.monitor_state = monitor
    return outcome


def _execute_payload(home, job, eid, runs, run_context):
    script_block = ""
    if job.get("script"):
        ok, out, error = yield from _run_script(home, job, eid, runs)
        if job.get("no_agent") or eid in runs.interrupted:  # no agent after an interruption
            if not ok:
                return _Outcome("error", out, error)
            if not out.strip():
                return _Outcome("ok", silent=True, note="silent (empty output)")
            if _wake_agent_off(out) or is_silent(out):
                return _Outcome("ok", silent=True, note="silent (wakeAgent=false)"
                                if _wake_agent_off(out) else "silent ([SILENT])")
            return _Outcome("ok", out)
        if ok and _wake_agent_off(out):
            return _Outcome("ok", silent=True, note="silent (wakeAgent=false)")
        heading = "## Script Output" if ok else "## Script Error"
        script_block = f"{heading}\n\n{_fence(out if ok else error)}\n\n"
    prompt = _assemble_prompt(home, job, script_block, run_context)
    text, reason = _scan_prompt(prompt.text, prompt.lenient, _allowed_rules(job, prompt))
    if reason is None and prompt.lenient and not prompt.skills:
        # The user's own words stay strict (less what the operator allowed for them).
        _, reason = _scan_prompt(job.get("prompt") or "", allow=_allowed_rules(job))
    if reason is not None:
        return _Outcome("error", prompt=text, note="BLOCKED",
                        error=f"blocked by the injection scanner: {reason}; the agent was not run")
    runner = _agent_runner(home, job, eid)
    if runner is None:
        return _Outcome("blocked_config", prompt=text, error=(
            "no agent runner is configured for this agent job: set config agent.command or "
            "agent.provider, pin --provider, or pass runner= to CronHome"))
    try:
        response = runner(text)
    except _RunFailed as exc:
        return _Outcome("error", prompt=text, error=str(exc))
    if not isinstance(response, str) or not response.strip():
        return _Outcome("error", prompt=text, error="the agent returned an empty response")
    response = redact(response)
    evidence = _failure_evidence(response)
    if evidence is not None:  # the agent says the run failed: a failure, alerted as one
        return _Outcome("error", response, prompt=text, error=evidence,
                        note=f"failed ({_CRON_FAILURE})")
    silent = is_silent(response)
    return _Outcome("ok", response, prompt=text, silent=silent,
                    note="silent ([SILENT])" if silent else None)


# --- 16.4 Dead man's switch pings --------------------------------------------

_PING_START_TIMEOUT = 10


def _ping_snapshot(job, targets):
    # What a queued ping keeps: enough to send it again and for 'deliveries' to list it.
    return {"id": job["id"], "name": job.get("name"), "deliver": ",".join(targets)}


def _ping_start(home, job, eid):
    """Ping ``<url>/start`` of a job's switches from a thread; return the thread, or None.

    The run does not wait for it.  It is queued (a crash leaves it pending for
    the next tick) but never retried: a start signal that arrived after the
    run's end would read as a run still in progress.
    """
    urls = _ping_urls(job)
    if not urls:
        return None
    import threading

    thread = threading.Thread(target=_ping_once, args=(home, job, f"{eid}:start", urls),
                              daemon=True, name=f"hermes-cron-ping-{job['id']}")
    thread.start()
    return thread


def _ping_once(home, job, rid, urls):
    targets = [f"ping:{url}/start" for url in urls]
    snapshot, queue = _ping_snapshot(job, targets), home.deliveries
    try:
        queue.enqueue(rid, snapshot, "", False, home.now())
        if not queue.claim(rid):
            return
        errors = []
        for target in targets:
            try:
                _send_ping(target[5:], _PING_START_TIMEOUT, rid)
            except _RunFailed as exc:
                errors.append(f"ping: {exc}")
        queue.finish(rid, snapshot, "failed" if errors else "delivered",
                     "delivery failed: " + "; ".join(errors) if errors else None, home.now())
    except Exception:  # e.g. a damaged deliveries.db: the run goes on and says so itself
        pass


def _ping_end(home, job, eid, ok, start):
    """Ping ``<url>`` (success) or ``<url>/fail`` through the delivery queue.

    It waits for the run's start ping (*start*, bounded by its deadline) so
    that the two arrive in order.  Failures are retried like any delivery,
    and never change the run's own outcome.
    """
    urls = _ping_urls(job)
    if not urls:
        return
    if start is not None:
        start.join(_PING_START_TIMEOUT + 5)
    rid = f"{eid}:end"
    targets = [f"ping:{url}" + ("" if ok else "/fail") for url in urls]
    snapshot = _ping_snapshot(job, targets)
    try:
        home.deliveries.enqueue(rid, snapshot, "", not ok, home.now())
        _send_queued(home, rid, snapshot, "", not ok, None, targets)
    except Exception:  # the run is recorded; a switch that misses its ping alerts by itself
        pass


# =============================================================================
# 17. The plan
#    Deciding is pure: _plan reads the job records and the facts gathered
#    for them and returns decisions; the tick's apply step alone writes them.
# =============================================================================

_TICK_LOCK = ".tick.lock"
_FIRE_CLAIM_TTL = 300
_FIRE_CLAIM_HEARTBEAT = 60
_LATE_AFTER = 300
_MIN_GRACE = 120
_STALLED_AFTER = 200
_BATCH_GAP = 0.25
_REAP_EVERY = 300
_HEARTBEAT_FILE, _SUCCESS_FILE, _ERROR_FILE = (
    "ticker_heartbeat", "ticker_last_success", "ticker_last_error")
_CRON_CACHE: "dict[Any, Any]" = {}


def _cron(expr):
    """Return a cached CronExpr: the tick asks about the same few expressions often."""
    cron = _CRON_CACHE.get(expr)
    if cron is None:
        if len(_CRON_CACHE) > 1024:
            _CRON_CACHE.clear()
        cron = _CRON_CACHE[expr] = CronExpr(expr)
    return cron


def _next_slot(schedule, zone, after, anchor=None):
    """The first slot of a recurring schedule strictly after *after*.

    Interval slots are anchored on a past slot *anchor* (anchor + k x the
    interval), so a run that ends late never pushes the later ones; without
    an anchor the first slot is *after* plus the interval.
    """
    if schedule["kind"] == "interval":
        step = timedelta(minutes=schedule["minutes"])
        if anchor is None:
            return (after + step).astimezone(zone)
        return (anchor + step * ((after - anchor) // step + 1)).astimezone(zone)
    return _cron(schedule["expr"]).next_after(after, tz=zone)


def _grace(schedule, slot, zone):
    """Seconds a slot may be late and still fire as itself: half the period, 2-120 min."""
    if schedule["kind"] == "interval":
        period = schedule["minutes"] * 60
    else:
        first = _next_slot(schedule, zone, slot)
        period = (_next_slot(schedule, zone, first) - first).total_seconds()
    return max(_MIN_GRACE, min(int(period) // 2, _MAX_GRACE))


def _slot_grace(job, schedule, slot, zone):
    """The grace of one job's slot: its own ``misfire_grace_seconds`` (upstream's
    field), else the rule of ``_grace``; a one-shot's is 120 s."""
    if schedule.get("kind") == "once":
        return _ONESHOT_GRACE
    return _policy(job, "misfire_grace_seconds") or _grace(schedule, slot, zone)


def _latest_slot(schedule, zone, known, now):
    """The last slot at or before *now*; *known* is a slot at or before now, or None."""
    if schedule["kind"] == "interval":
        step = timedelta(minutes=schedule["minutes"])
        return known + step * ((now - known) // step)
    for window in (timedelta(hours=1), timedelta(days=1), timedelta(days=35),
                   timedelta(days=400), timedelta(days=366 * _CALENDAR_CYCLE)):
        start = now - window
        if known is not None and known > start:
            start = known - timedelta(seconds=1)
        slot, t = None, start
        while True:
            t = _next_slot(schedule, zone, t)
            if t > now:
                break
            slot = t
        if slot is not None:
            return slot
    return known


def _config_conflict(job, bad):
    """Return the broken config key a due job depends on, or None."""
    if not bad:
        return None
    targets = " ".join(str(job.get(k) or "") for k in ("deliver", "failure_deliver")).lower()
    needs = {
        "timezone": not job.get("tz"),
        "scripts_dir": bool(job.get("script")),
        "script_timeout_seconds": bool(job.get("script")),
        "script_env_passthrough": bool(job.get("script")),
        "skills_dir": bool(job.get("skills")),
        "agent": not job.get("no_agent"),
        "providers": not job.get("no_agent"),
        "fallback_providers": not job.get("no_agent"),
        "run_timeout_seconds": not job.get("no_agent"),
        "smtp": "email:" in targets,
        "webhook_secret_env": "webhook:" in targets,
        "failure_deliver": True,
    }
    return next((key for key in bad if needs.get(key)), None)


def _heartbeat_epoch(home):
    """Epoch of the last tick's heartbeat, or 0."""
    return _stamp_file(home, _HEARTBEAT_FILE)[0] or 0.0


def _stamp_file(home, name):
    """(epoch, pid) of a heartbeat-style file, each None if absent or unreadable.

    Every form upstream and hermes_cron wrote: ``"<epoch>"`` or
    ``"<epoch> <pid>"``, the epoch whole or decimal.
    """
    import math

    words = (_read_text(os.path.join(home.path, name)) or "").split()
    try:
        epoch = float(words[0]) if words else None
    except ValueError:
        epoch = None
    if epoch is not None and not (math.isfinite(epoch) and 0 <= epoch < 1e11):
        epoch = None  # not a time any clock of ours will show
    pid = int(words[1]) if len(words) > 1 and words[1].isdigit() else None
    return epoch, pid


_FIELD_TYPES = (("prompt", str), ("script", str), ("tz", str), ("deliver", str),
                ("failure_deliver", str), ("workdir", str), ("model", str), ("provider", str),
                ("base_url", str), ("skills", list), ("context_from", list), ("no_agent", bool),
                ("allow_scan", list), ("verify", list), ("on_unverified", str), ("watch", list))


def _unrunnable(job):
    """Return why a stored job can never run as it is, or None."""
    if not _safe_component(job.get("id")):
        return f"job id {job.get('id')!r} is not a safe file name"
    for key, kind in _FIELD_TYPES:
        value = job.get(key)
        if value is not None and not isinstance(value, kind):
            return f"field {key!r} must be {_TYPE_NAMES[kind]}, not {type(value).__name__}"
    if any(not isinstance(s, str) for s in job.get("skills") or ()):
        return "field 'skills' must be a list of names"
    try:
        _checked_schedule(job.get("schedule"), job)
        if job["schedule"]["kind"] == "cron":
            _cron(job["schedule"]["expr"])
    except InvalidInputError as exc:
        return f"unparseable stored schedule ({exc})"
    if job.get("no_agent") and not job.get("script"):
        return "no_agent job has no script"
    if job.get("watch") is not None and not (isinstance(job["watch"], list) and job["watch"]
                                             and isinstance(job.get("verify"), list)):
        return "field 'watch' must be a list of job ids, with the checks in 'verify'"
    prompt = job.get("prompt")
    if (not isinstance(prompt, str) or not prompt.strip()) and not job.get("script") \
            and not job.get("skills") and not job.get("watch"):
        return "nothing to run: blank prompt, no script and no skill"
    return None


def _count(value):
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _once_done(job):
    repeat = job.get("repeat") if isinstance(job.get("repeat"), dict) else {}
    times, completed = repeat.get("times"), repeat.get("completed") or 0
    return isinstance(times, int) and isinstance(completed, int) and completed >= times


class _Result:
    """What a finished run leaves on its job record."""

    __slots__ = ("ok", "status", "error", "delivery_error", "monitor_state", "retry", "quiet")

    def __init__(self, ok, status, error, delivery_error, monitor_state=None, retry=None,
                 quiet=None):
        self.ok, self.status, self.error, self.delivery_error = ok, status, error, delivery_error
        self.monitor_state = monitor_state  # a monitor's new state, kept with the result
        self.retry = retry  # the job's "retry" when this failed attempt is retried
        # Another attempt of the slot comes (the tick's retry, or the engine's
        # for ``run --retried``): this failure is no failure of the slot yet.
        self.quiet = retry is not None if quiet is None else quiet

    @classmethod
    def of_row(cls, row):
        """The result of a finished ledger row whose job record was never updated."""
        ok = row["status"] == "completed"
        failed_delivery = "delivery failed (see 'deliveries')" \
            if row.get("delivery_outcome") == "failed" else None
        attempt = row.get("retry")  # its cron_attempts row, if _gather found one
        retry = {"scheduled_at": row.get("scheduled_instant"), "attempt": attempt["attempt"] + 1,
                 "at": attempt["retry_at"]} if attempt and attempt.get("retry_at") else None
        return cls(ok, "ok" if ok else "error", row.get("error"), failed_delivery, retry=retry)


def _apply_result(job, eid, result, now, manual, zone):
    """Record a finished run on its job (in place) and move its schedule on.

    Only while the job still holds the run's claim: a removed job or a claim
    taken over is left alone (False).  A run that succeeded but whose delivery
    failed is ``delivery_failed``; it does not count toward the failure streak.
    """
    claim = job.get("fire_claim")
    if not isinstance(claim, dict) or claim.get("execution_id") != eid:
        # An older run of a concurrency: allow job reports as it ends.
        if not _drop_overlapped(job, eid):
            return False
        job["last_run_at"] = _iso(now.astimezone(zone))
        _record_outcome(job, result)
        return True
    pending = job.get("pending_slot")
    if not isinstance(pending, dict) or pending.get("by") == claim.get("by"):
        # Another tick's (it fired an allow or replace overlap and died before
        # it saved the claim) stays: the plan settles it against its row.
        job.pop("pending_slot", None)
    job.pop("manual_run_at", None)
    job["fire_claim"] = None  # cleared as upstream clears it
    job["last_run_at"] = _iso(now.astimezone(zone))
    _record_outcome(job, result)
    schedule = job.get("schedule") if isinstance(job.get("schedule"), dict) else {}
    if result.retry is not None:
        job["retry"] = result.retry  # its slot is not done: the next attempt comes due
        return True
    if manual:
        return True
    # The fire was counted toward repeat when it was claimed (see _advance).
    if schedule.get("kind") == "once" or _once_done(job):
        job.update(enabled=False, state="completed", next_run_at=None)
    return True


def _record_outcome(job, result):
    """The fields a run's result sets on its job: status, errors, streak, monitor state."""
    job["last_status"] = "delivery_failed" if result.ok and result.delivery_error else \
        result.status
    job["last_error"] = None if result.ok else _keep_tail(redact(result.error or ""), 500)
    job["last_delivery_error"] = redact(result.delivery_error)[:500] \
        if result.delivery_error else None
    streak = job.get("failure_streak") if isinstance(job.get("failure_streak"), int) else 0
    # A slot's outcome is its last attempt's: one that is retried is no failure yet.
    job["failure_streak"] = 0 if result.ok else streak + (not result.quiet)
    if result.monitor_state is not None:
        job["monitor_state"] = result.monitor_state


# Deciding is pure: _plan reads the job records and the facts gathered for
# them and returns decisions; _apply_decisions alone writes them.

def _apply_row(job, row, now, zone):
    """Apply a finished ledger *row*'s result to the job that still claims it; True if so."""
    if row is None or row["status"] not in ("completed", "failed"):
        return False
    finished = _parse_stored(row["finished_at"]) or now
    return _apply_result(job, row["id"], _Result.of_row(row), finished,
                         row["source"] != "builtin", zone)


class _Decision:
    """One thing the plan decided about one job (the apply step carries it out).

    *action* is ``fire`` (run *slot*; *what* is on_time, late or catch_up),
    ``skip`` (record *what* as the reason *instant* did not fire), ``hold``
    (capacity held it back: it stays due), ``retire`` (a one-shot that will
    not run; *what* says why, *detail* is the note), ``pause`` (auto-pause;
    *what* is the skip reason), ``fail`` (a skip that also opens the job's
    incident: a retried slot's failure stands), ``settle`` (drop a claim that
    no longer stands, after marking its ledger *row* ``unknown`` with
    *detail* if set) or ``set`` (the job fields in *changes*; None removes a
    field).
    """

    __slots__ = ("action", "index", "job_id", "instant", "what", "detail", "slot",
                 "lateness", "changes", "row", "attempt")

    def __init__(self, action, index, job_id, instant=None, what=None, detail=None,
                 slot=None, lateness=0.0, changes=None, row=None, attempt=1):
        self.action, self.index, self.job_id, self.instant = action, index, job_id, instant
        self.what, self.detail, self.slot, self.lateness = what, detail, slot, lateness
        self.changes, self.row = changes, row
        self.attempt = attempt  # a fire's attempt at its slot: 2 and up are retries

    def key(self):
        """The decision in short: ``(action, job_id, instant, what)`` (``set``: the changes)."""
        if self.action == "set":
            return ("set", self.job_id, self.changes)
        return (self.action, self.job_id, self.instant, self.what)

    def __repr__(self):
        return f"_Decision{self.key()!r}"


class _Facts:
    """What the stores say that the plan needs, gathered before it.

    *claims* maps a record's index to the verdict on its ``fire_claim``:
    ``("live", None)``, or ``("gone", error)`` (its row, if still active,
    becomes ``unknown`` with *error*; None: the row is finished or absent)
    plus the row.  *taken* answers ``(job_id, instant) in taken``: does any
    ledger row hold that occurrence.  *zone* gives a job's zone.
    """

    __slots__ = ("now", "settings", "bad_config", "zone", "claims", "taken", "stepped_back",
                 "attempts", "overlapped")

    def __init__(self, now, settings, zone, claims=None, taken=frozenset(), bad_config=None,
                 stepped_back=False, attempts=frozenset()):
        self.now, self.settings, self.zone = now, settings, zone
        self.claims, self.taken = claims or {}, taken
        self.bad_config, self.stepped_back = bad_config or {}, stepped_back
        self.attempts = attempts  # (job_id, instant, attempt) in it: a row holds that attempt
        self.overlapped = {}  # index -> [(claim, verdict, error, row)] of fire_claims


class _TakenSlots:
    """``(job_id, instant) in taken``, asked of the ledger on first need and remembered
    (``(job_id, instant, attempt)`` with *attempts*: a row holds that attempt or a later)."""

    def __init__(self, ledger, attempts=False):
        self._ledger, self._known = ledger, {}
        self._ask = ledger.attempt_taken if attempts else ledger.has_occurrence

    def __contains__(self, key):
        if key not in self._known:
            self._known[key] = self._ask(*key)
        return self._known[key]


def _gather(home, records, now):
    """The facts the plan needs: the claims' verdicts, taken slots, the clock's direction."""
    ledger = home.ledger
    claim_ids = [j["fire_claim"].get("execution_id") for j in records
                 if isinstance(j.get("fire_claim"), dict)]
    claim_ids += [c.get("execution_id") for j in records for c in _overlapped(j)]
    rows = ledger.get([i for i in claim_ids if isinstance(i, str)])
    failed = [eid for eid, row in rows.items() if row["status"] == "failed"]
    for eid, attempt in ledger.attempts(failed).items():  # a retry it planned, unrecorded
        rows[eid] = dict(rows[eid], retry=attempt)
    claims, overlapped = {}, {}
    for index, job in enumerate(records):
        claim = job.get("fire_claim")
        if claim is not None:
            claims[index] = _verdict_of(home, claim, rows, now)[1:]
        for claim in _overlapped(job):  # the older runs of a concurrency: allow job
            overlapped.setdefault(index, []).append(_verdict_of(home, claim, rows, now))
    # The store was last written, or a tick last ran, later than now: the
    # clock stepped back (or was ahead then), so next runs computed then
    # may lie past what the schedules allow from now.
    stepped_back = max(home.store.saved_at(), _heartbeat_epoch(home)) > now.timestamp() + 60
    facts = _Facts(now, home.settings, home.zone, claims, _TakenSlots(ledger),
                   home.bad_config, stepped_back, _TakenSlots(ledger, attempts=True))
    facts.overlapped = overlapped
    return facts


def _verdict_of(home, claim, rows, now):
    """(claim, verdict, error, row) of a fire claim, its row looked up in *rows*."""
    eid = claim.get("execution_id") if isinstance(claim, dict) else None
    row = rows.get(eid) if isinstance(eid, str) else None
    return (claim,) + _claim_verdict(home, claim, row, now) + (row,)


def _overlapped(job):
    """The claims of a ``concurrency: allow`` job's older runs still in flight
    (``fire_claims``; its newest run holds ``fire_claim``)."""
    claims = job.get("fire_claims")
    return [c for c in claims if isinstance(c, dict)] if isinstance(claims, list) else []


def _drop_overlapped(job, eid):
    """Take run *eid*'s claim out of ``fire_claims``; True if it was there."""
    claims = _overlapped(job)
    kept = [c for c in claims if c.get("execution_id") != eid]
    if kept:
        job["fire_claims"] = kept
    else:
        job.pop("fire_claims", None)
    return len(kept) != len(claims)


def _claim_verdict(home, claim, row, now):
    """Whether a fire_claim still stands: ``("live", None)`` or ``("gone", error)``.

    *error* is what its still-active row must say once it is settled
    ``unknown`` (None when nothing is left to mark).  Reads only.
    """
    if not isinstance(claim, dict) or (row is not None and row["status"] in _TERMINAL):
        return ("gone", None)
    if str(claim.get("by", "")).endswith(_identity()["process_id"]):
        return ("live" if row is None or row["status"] in _ACTIVE else "gone", None)
    owner = (row["process_id"], row["pid"], row["process_started_at"]) if row is not None \
        else _claim_owner(claim)
    if owner is not None:
        # On this host the owner itself answers, never the wall clock: an NTP
        # step or a resume must not expire a live run (or keep a dead one).
        state = home.ledger.owner_state(*owner, by_row=row is not None)
        if state == "alive":
            return ("live", None)
        if state == "dead":
            return ("gone", _UNKNOWN_ERROR if row is not None else None)
    # An owner on another host or in another container: its heartbeat's age
    # decides; an age below zero means our clock stepped back, not expiry.
    at = _parse_stored(claim.get("at"))
    if at is not None and (now - at).total_seconds() < _FIRE_CLAIM_TTL:
        return ("live", None)
    return ("gone", _EXPIRED_ERROR.format(ttl=_FIRE_CLAIM_TTL) if row is not None else None)


def _claim_owner(claim):
    """(process_id, pid, None) of the process a claim names in its ``by`` tag, or None."""
    parts = str(claim.get("by", "")).rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and len(parts[2]) == 32:
        return parts[2], int(parts[1]), None
    return None


def _plan(records, facts):
    """Decide every job of the store at *facts.now*: return the list of decisions.

    Pure: it changes neither the records nor any file.  A record that
    cannot be evaluated is auto-paused, so one bad job never stops the rest.
    """
    decisions = []
    for index, job in enumerate(records):
        try:
            decisions += _decide(index, job, facts)
        except Exception as exc:
            if _storage_error(exc):  # a locked or damaged database is not the job's fault
                raise
            reason = str(exc) if isinstance(exc, HermesCronError) else \
                f"the job record cannot be evaluated ({type(exc).__name__}: {exc})"
            decisions.append(_Decision("pause", index, job.get("id"), what="unrunnable",
                                       detail=reason))
    return decisions


class _Deciding:
    """One job while the plan decides it: the record as decided so far, and the decisions.

    The record is copied on the first change (most jobs are not due and are
    only read), so the caller's record is never written.
    """

    __slots__ = ("index", "job", "facts", "out", "restored", "_own", "_said", "running")

    def __init__(self, index, job, facts):
        self.index, self.job, self.facts, self.out, self._own = index, job, facts, [], False
        self.running = None  # a live claim a fire overlaps or replaces (concurrency)
        self.restored = None  # a pending slot given back: last_dispatch names it untruly
        self._said = set()  # slots already skipped as already_run

    def own(self):
        """The record as a scratch copy this plan may change."""
        if not self._own:
            self.job, self._own = dict(self.job), True
        return self.job

    def add(self, action, **fields):
        if action == "fire" and self.running is not None:
            fields["row"] = self.running  # the run it overlaps or replaces
        self.out.append(_Decision(action, self.index, self.job.get("id"), **fields))

    def set(self, **changes):
        """Decide job fields, and see them in the scratch copy from now on."""
        self.own()
        for key, value in changes.items():
            if value is None:
                self.job.pop(key, None)
            else:
                self.job[key] = value
        self.add("set", changes=changes)

    def taken(self, slot, through=False):
        """``ledger`` if a row holds the occurrence *slot*, else the last dispatched
        slot (an aware datetime) if the job record proves *slot* fired, else None.

        A slot at or before the last one the tick dispatched
        (``last_dispatch.scheduled_at``, written as it claims) is never fired
        again, even when the ledger lost its rows (a zeroed executions.db).
        Manual runs do not count (they use up no slot), nor does a dispatch
        later than now: the clock was ahead then.  A proof by the record alone
        is recorded as a skip, reason ``already_run``; *through* says the skip
        stands for every slot up to the last dispatched one (the caller steps
        over them all at once).
        """
        if (self.job.get("id"), _instant(slot)) in self.facts.taken:
            return "ledger"
        last = self.job.get("last_dispatch")
        last = _parse_stored(last.get("scheduled_at")) if isinstance(last, dict) else None
        if last is None or not slot <= last <= self.facts.now or (
                self.restored is not None and slot >= self.restored):
            return None
        if slot in self._said:
            return last
        self._said.add(slot)
        jump = through and slot < last and (self.restored is None or self.restored > last)
        which = "this one; every slot from here to it is stepped over" if jump else "this one"
        self.add("skip", instant=_instant(slot), what="already_run",
                 detail=f"the job's last dispatched slot is {_iso_exact(last)}, at or after "
                        f"{which}, and the ledger holds no row for it (see 'doctor')")
        return last


def _decide(index, job, facts):
    """The decisions about one job (see ``_plan``)."""
    d = _Deciding(index, job, facts)
    if _decide_claim(d) or _job_state(d.job) in ("completed", "error", "paused"):
        return d.out
    _restore_pending(d)
    if d.job.get("retry") is None or not _decide_retry(d):
        _decide_due(d)
    return d.out


def _decide_retry(d):
    """Fire a failed slot's next attempt once it is due; True if it decided the job.

    The attempt is bound to the slot of the failed one; a row holding it
    already (claimed by a process that died before it saved the claim) drops
    the retry: an attempt is never fired twice.
    """
    retry = d.job["retry"]
    slot = _parse_stored(retry.get("scheduled_at")) if isinstance(retry, dict) else None
    attempt = retry.get("attempt") if isinstance(retry, dict) else None
    at = _parse_stored(retry.get("at")) if isinstance(retry, dict) else None
    if slot is None or at is None or not isinstance(attempt, int) or attempt < 2 or \
            (d.job.get("id"), _instant(slot), attempt) in d.facts.attempts:
        d.set(retry=None)
        return False
    if at > d.facts.now or not _runnable(d, slot):
        return at <= d.facts.now  # a slot due before the retry fires as usual
    now, job = d.facts.now, d.job
    held = _parse_stored(job.get("capacity_wait_since"))
    waited = (now - max(at, held) if held is not None else now - at).total_seconds()
    if waited > _slot_grace(job, job["schedule"], slot, d.facts.zone(job)):
        _retry_missed(d, slot, attempt, at)
        return False
    d.add("fire", instant=_instant(slot), what="retry", slot=slot,
          lateness=(now - at).total_seconds(), attempt=attempt)
    return True


def _retry_missed(d, slot, attempt, at):
    """Give up a retry that comes due later than its slot's grace (the machine slept,
    the clock stepped): the slot's failure stands, so it counts toward the failure
    streak and opens its incident, and the skip ``retry_missed`` says why."""
    job = d.job
    streak = job.get("failure_streak") if isinstance(job.get("failure_streak"), int) else 0
    d.add("fail", instant=_instant(slot), what="retry_missed",
          detail=f"attempt {attempt} of this slot was due at {_iso_exact(at)} and its grace "
                 f"has passed; the slot's failure stands (see 'incidents')")
    d.set(retry=None, failure_streak=streak + 1)


def _decide_claim(d):
    """Settle a claim that no longer stands; True if a live one leaves nothing to decide.

    With ``concurrency`` allow or replace, a live claim leaves the due slot
    to decide: its fire overlaps the run (allow) or stops it (replace).
    """
    if "fire_claims" in d.job:
        _decide_overlapped(d)
    claim = d.job.get("fire_claim")
    if claim is None:
        return False
    verdict, error, row = d.facts.claims.get(d.index, ("gone", None, None))
    if verdict == "live":
        if _job_state(d.job) != "scheduled":
            return True
        if _policy(d.job, "concurrency") == "forbid":
            _overlap(d, claim)
            return True
        d.running = claim
        return False
    d.add("settle", detail=error, what=row["id"] if row is not None else None, row=row)
    if error is None:
        # Its process may never have recorded a finished run on the job
        # (killed, or the store was busy or full): the row's result counts now.
        _apply_row(d.own(), row, d.facts.now, _zone_or_utc(d.facts, d.job))
    d.own()["fire_claim"] = None  # cleared as upstream clears it
    return False


def _decide_overlapped(d):
    """Drop the older runs' claims that no longer stand (a dead owner's row: unknown)."""
    kept = []
    for claim, verdict, error, row in d.facts.overlapped.get(d.index, ()):
        if verdict == "live":
            kept.append(claim)
        else:
            d.add("settle", what="overlapped", detail=error, row=row, changes=claim)
    if len(kept) != len(_overlapped(d.job)) or not isinstance(d.job.get("fire_claims"), list):
        job = d.own()
        if kept:
            job["fire_claims"] = kept
        else:
            job.pop("fire_claims", None)


def _overlap(d, claim):
    """No overlap: a slot that comes due while the job still runs is skipped, and says so
    (as systemd and Kubernetes' Forbid do)."""
    slot = _parse_stored(d.job.get("next_run_at"))
    schedule = d.job["schedule"] if isinstance(d.job.get("schedule"), dict) else {}
    if slot is None or slot > d.facts.now or schedule.get("kind") not in ("cron", "interval"):
        return
    d.add("skip", instant=_instant(slot), what="overlap",
          detail=f"still running execution {claim.get('execution_id') or '(not recorded yet)'}")
    following = _next_slot(schedule, d.facts.zone(d.job), d.facts.now, slot)
    d.set(next_run_at=_iso_exact(following))


def _restore_pending(d):
    """A slot taken off the schedule but never claimed is restored, once."""
    pending = d.job.get("pending_slot")
    if pending is None:
        return
    slot_text = pending.get("scheduled_at") if isinstance(pending, dict) else None
    slot = _parse_stored(slot_text)
    # Only a row proves it claimed: last_dispatch was written with the pending slot.
    if slot is None or (d.job.get("id"), _instant(slot)) in d.facts.taken:
        d.set(pending_slot=None)
        return
    changes = {"pending_slot": None, "next_run_at": slot_text}
    repeat = d.job.get("repeat")
    schedule = d.job.get("schedule") if isinstance(d.job.get("schedule"), dict) else {}
    counted = pending.get("counted") or schedule.get("kind") == "once"
    if counted and isinstance(repeat, dict) and _count(repeat.get("completed")):
        # Its fire was counted before the claim that never happened (a pending
        # slot of upstream's, or of an older hermes_cron, counted nothing then).
        changes["repeat"] = dict(repeat, completed=_count(repeat.get("completed")) - 1)
    d.restored = slot
    d.set(**changes)


def _decide_due(d):
    """Fire, skip, retire or pause a job whose slot has come (or say when it comes)."""
    job, facts = d.job, d.facts
    schedule = job.get("schedule") if isinstance(job.get("schedule"), dict) else {}
    manual = job.get("manual_run_at") is not None and job.get("manual_run_at") == \
        job.get("next_run_at")
    slot = _parse_stored(job.get("next_run_at"))
    if schedule.get("kind") == "once" and not manual and _parse_stored(schedule.get("run_at")):
        slot = _parse_stored(schedule["run_at"])  # due at run_at, whatever next_run_at says
    if slot is not None and slot > facts.now:
        if facts.stepped_back:
            _from_the_future(d, slot)
        return
    if not _runnable(d, slot):
        return
    zone = facts.zone(job)
    if slot is None:
        return _repair_next_run(d, schedule, zone)
    if _once_done(job):
        return _retire(d, "used_up", "its repeat count is used up", diagnostic=False)
    if manual:
        return d.add("fire", instant=None, what=_lateness_kind(facts.now, slot), slot=slot,
                     lateness=(facts.now - slot).total_seconds())
    if schedule["kind"] == "once":
        return _decide_once(d, slot)
    _decide_recurring(d, schedule, zone, slot)


def _repair_next_run(d, schedule, zone):
    """A record without a next run gets one (a one-shot past its time is retired)."""
    next_run = _next_run(schedule, zone, d.facts.now, completed=_once_done(d.job))
    if schedule["kind"] == "once" and next_run is None:
        return _retire(d, "missing", "its next_run_at was missing and its run time has passed")
    return d.set(next_run_at=next_run)


def _runnable(d, slot):
    """Pause a job that can never run as stored; hold one whose config key is broken."""
    job, facts = d.job, d.facts
    reason = _unrunnable(job)
    if reason is not None:
        d.add("pause", what="unrunnable", detail=reason)
        return False
    key = _config_conflict(job, facts.bad_config)
    if key is not None:  # it stays due and runs once the config is fixed
        d.add("skip", instant=_instant(slot) if slot else None, what="config_invalid",
              detail=facts.bad_config[key])
        return False
    try:  # after the config check: a dropped 'providers' key is no refusal
        _check_base_url(job, facts.settings)
    except InvalidInputError as exc:
        d.add("pause", what="blocked_guard", detail=str(exc))
        return False
    return True


# Taken slots the plan steps over in one tick before it leaves the rest to the next.
_TAKEN_STEPS = 64


def _lateness_kind(now, slot):
    return "late" if (now - slot).total_seconds() > _LATE_AFTER else "on_time"


def _decide_once(d, slot):
    job, now = d.job, d.facts.now
    if d.taken(slot):
        return _retire(d, "done", "it already was run", diagnostic=False)
    base = max([slot] + [t for t in (_parse_stored(job.get("created_at")),
                                     _parse_stored(job.get("capacity_wait_since")))
                         if t is not None])
    late = (now - base).total_seconds()
    if late > _ONESHOT_GRACE:
        return _retire(d, "expired", f"it was {int(late)} s late (grace {_ONESHOT_GRACE} s)",
                       instant=_instant(slot))
    _fire_after_jitter(d, slot)


def _fire_after_jitter(d, slot):
    """Fire *slot* once its jitter delay has passed (it counts inside the grace, and a
    slot is late only past its jittered instant); until then it stays due."""
    delay = _jitter(d.job, slot)
    now = d.facts.now
    if delay and now < slot + timedelta(seconds=delay):
        return
    d.add("fire", instant=_instant(slot), what=_lateness_kind(
        now, slot + timedelta(seconds=delay)), slot=slot, lateness=(now - slot).total_seconds())


def _past_taken(d, schedule, zone, slot):
    """The first slot from *slot* on that no row (nor the record) holds, or None
    when the next free one is not due yet (``next_run_at`` moves on either way)."""
    facts = d.facts
    for _ in range(_TAKEN_STEPS):
        proof = d.taken(slot, through=True)
        if not proof:
            return slot
        if proof != "ledger" and (d.restored is None or d.restored > proof):
            slot = proof  # every slot up to the last dispatched one is done: one step
        # That slot is done; the ones after it still count: a run that came
        # due meanwhile fires (or catches up, or is skipped) as usual.
        slot = _next_slot(schedule, zone, slot, slot)
        d.set(next_run_at=_iso_exact(slot.astimezone(zone)))
        if slot > facts.now:
            return None
    return None  # a long run of taken slots: the next tick goes on from here


def _decide_recurring(d, schedule, zone, slot):
    job, now = d.job, d.facts.now
    slot = _past_taken(d, schedule, zone, slot)
    if slot is None:
        return
    lateness = (now - slot).total_seconds()
    held = _parse_stored(job.get("capacity_wait_since"))
    # Time spent held back by capacity is not time missed: the grace counts
    # from the last tick that deferred it (as for one-shots).
    waited = (now - max(slot, held)).total_seconds() if held is not None else lateness
    if waited > _slot_grace(job, schedule, slot, zone):
        return _catch_up(d, schedule, zone, slot)
    latest = _latest_slot(schedule, zone, slot, now) if held is not None else None
    if latest is not None and latest > slot and not d.taken(latest):
        # Held back across later slots: each of those got its hold-back
        # record; the fire takes the latest one, so no due slot goes unsaid.
        slot = latest
    if held is not None:  # it waited its jitter before capacity held it back
        return d.add("fire", instant=_instant(slot), what=_lateness_kind(now, slot), slot=slot,
                     lateness=lateness)
    _fire_after_jitter(d, slot)


def _catch_up(d, schedule, zone, slot):
    """Missed slots collapse into one catch-up fire of the latest (or a recorded skip)."""
    now = d.facts.now
    latest = _latest_slot(schedule, zone, slot, now)
    following = _next_slot(schedule, zone, now, latest)
    if not _policy(d.job, "catch_up", d.facts.settings["catch_up_missed"]):
        rule = "the job's catch_up" if isinstance(d.job.get("catch_up"), bool) else \
            "catch_up_missed"
        d.add("skip", instant=_instant(latest), what="catch_up_disabled",
              detail=f"missed slot(s) from {_iso_exact(slot)} to {_iso_exact(latest)}; "
                     f"{rule} is false; next run {_iso_exact(following)}")
        return d.set(next_run_at=_iso_exact(following))
    if d.taken(latest):
        return d.set(next_run_at=_iso_exact(following))  # run elsewhere already
    d.add("fire", instant=_instant(latest), what="catch_up", slot=latest,
          lateness=(now - latest).total_seconds())


def _from_the_future(d, slot):
    """Pull back a next run the schedule cannot have from now (the clock was ahead)."""
    schedule = d.job.get("schedule") if isinstance(d.job.get("schedule"), dict) else {}
    if schedule.get("kind") not in ("cron", "interval"):
        return
    try:
        zone = d.facts.zone(d.job)
        # An interval keeps its phase: re-anchored on now, a slot the clock
        # replays would differ from the one already fired only by its phase,
        # and the ledger's taken slots could not see it was the same fire.
        nearest = _next_slot(schedule, zone, d.facts.now, anchor=slot)
    except (HermesCronError, KeyError, TypeError, ValueError):
        return  # an unusable schedule is the due scan's business
    if slot <= nearest:
        return
    d.add("skip", instant=_instant(slot), what="next_run_from_future",
          detail=f"next_run_at {d.job.get('next_run_at')} lies beyond what the schedule "
                 f"allows from now (the clock was ahead when it was computed); moved to "
                 f"{_iso_exact(nearest)}")
    d.set(next_run_at=_iso_exact(nearest.astimezone(zone)))


def _retire(d, what, why, diagnostic=True, instant=None):
    """Decide that a one-shot will not run: ``done``/``used_up`` (it ran) or a miss."""
    d.add("retire", instant=instant, what=what, detail=why if not diagnostic else (
        f"one-shot retired without running: {why}; scheduled for "
        f"{d.job.get('schedule', {}).get('run_at')}"))


def _due_since(decisions, records):
    """When each fired record came due: its next run once its own decisions apply."""
    since = {}
    for d in decisions:
        if d.action == "set" and "next_run_at" in d.changes:
            since[d.index] = _parse_stored(d.changes["next_run_at"])
    for d in decisions:
        if d.action == "fire" and d.index not in since:
            since[d.index] = _parse_stored(records[d.index].get("next_run_at"))
    return since


def _fit_capacity(decisions, records, room, facts):
    """Hold back the fires beyond *room*: oldest due first, the rest stay due.

    Store order breaks ties, so jobs held back by capacity go before those
    that just came due: no starvation.  Pure, as ``_plan``.
    """
    since = _due_since(decisions, records)
    fires = sorted((d for d in decisions if d.action == "fire"),
                   key=lambda d: since[d.index] or d.slot)
    now, limit = facts.now, facts.settings["max_parallel"]
    held = {id(d) for d in fires[room:]}
    out = []
    for decision in decisions:
        if id(decision) not in held:
            out.append(decision)
            continue
        job = records[decision.index]
        detail = (f"{limit} runs already in flight; due since "
                  f"{_iso_exact(since[decision.index] or decision.slot)}, it goes first at a "
                  f"later tick")
        out.append(_Decision("hold", decision.index, decision.job_id, decision.instant,
                             "max_parallel", detail, decision.slot))
        schedule = job.get("schedule") if isinstance(job.get("schedule"), dict) else {}
        if decision.instant is not None and schedule.get("kind") != "once":
            latest = _instant(_latest_slot(schedule, facts.zone(job), decision.slot, now))
            if latest != decision.instant:
                out.append(_Decision("hold", decision.index, decision.job_id, latest,
                                     "max_parallel", detail, decision.slot))
        # Its grace counts from the last time capacity held it back.
        out.append(_Decision("set", decision.index, decision.job_id,
                             changes={"capacity_wait_since": _iso(now)}))
    return out


def _zone_or_utc(facts, job):
    try:
        return facts.zone(job)
    except HermesCronError:
        return _UTC


# =============================================================================
# 18. Claims and runs
#    A claimed fire run outside the tick lock, its result recorded ledger
#    row first; the scheduler that owns the tick's state.
# =============================================================================

def _notify(home, event, value):
    """Tell the tick's log (``home.observer``, set by ``tick`` and ``daemon``) of *event*.

    Events: ``scanned`` with ``(report, claims)`` before the runs start, and
    ``finished`` with the claim as each run ends.  The log is best effort: a
    line that cannot be written (a closed or full stdout) or a damaged store
    it cannot read (the tick reports that itself) must not break the run's
    thread.
    """
    observer = home.observer
    if observer is not None:
        try:
            observer(event, value)
        except Exception:
            pass


class _Claim:
    """A job the scan decided to fire, and the execution it got."""

    __slots__ = ("job", "slot", "instant", "kind", "lateness", "eid", "source", "outcome",
                 "row", "attempt", "running", "retried", "fleet")

    def __init__(self, job, slot, instant, kind, lateness, source="builtin", attempt=1,
                 running=None):
        self.job, self.slot, self.instant, self.kind = job, slot, instant, kind
        self.lateness, self.eid, self.source, self.outcome = lateness, None, source, None
        self.row = None  # what the run wrote to its ledger row, once it is committed
        self.attempt = attempt  # its attempt at the slot (2 and up: retries)
        self.running = running  # the claim of the run it overlaps or replaces (concurrency)
        self.retried = False  # an external run whose caller runs it again on failure
        self.fleet = False  # claimed in the fleet's etcd too (see _Fleet)


def _fleet_job(job):
    """A job as every node names it: ids differ from home to home (each ``apply`` makes
    its own), names do not (a jobs file matches jobs by name)."""
    import hashlib

    name = job.get("name")
    if not isinstance(name, str) or not name.strip():
        return str(job.get("id"))
    return hashlib.sha256(name.strip().casefold().encode("utf-8")).hexdigest()[:16]


def _slot_key(instant, attempt):
    """A slot as every node names it: its UTC instant, and the attempt after the first."""
    parsed = _parse_stored(instant)
    text = _iso(parsed.astimezone(timezone.utc)) if parsed else str(instant)
    return text if attempt <= 1 else f"{text}~{attempt}"


class _Fleet:
    """This process as a ticker of a fleet sharing one etcd (the config's ``cluster``).

    Keys under the fleet's prefix:

    ``tickers/<ticker>``
        Attached to the ticker's lease, kept alive while it runs: a ticker
        whose key is gone is dead (or cut off) and claims nothing more.
    ``claims/<job>/<slot>``
        One per fired slot (the job by its name, ``_fleet_job``), created only if absent, and only while the
        claimer's ticker key is still its own (fencing): the execution id,
        the node, the ticker and ``state`` (``claimed``, then
        ``completed``, ``failed`` or ``unknown``).  Not attached to the
        lease: a claim outlives its ticker, so its slot never fires again.
    ``running/<ticker>/<job>/<slot>``
        A claim not ended yet, under its ticker: any ticker settles the
        claims of a dead one ``unknown``.
    """

    def __init__(self, home, cluster):
        self.etcd = _Etcd(cluster, home.environ)
        self.prefix = cluster.get("prefix", _CLUSTER_PREFIX)
        self.seconds = cluster.get("lease_seconds", _CLUSTER_LEASE)
        self.node = cluster.get("node") or os.uname().nodename
        self.ticker = f"{self.node}:{_identity()['process_id'][:12]}"
        self.lease, self.keeper, self.stop, self.clock = None, None, None, home.now

    def key(self, *parts):
        return "/".join((self.prefix,) + parts)

    def join(self, now):
        """Take this ticker's lease and key (once a process), and keep the lease alive."""
        import json
        import threading

        if self.lease is not None:
            return
        lease = self.etcd.grant(self.seconds)
        self.etcd.txn([], [_put(self.key("tickers", self.ticker), json.dumps(
            {"node": self.node, "since": _iso(now), "pid": os.getpid()}), lease)])
        self.lease, self.stop = lease, threading.Event()
        self.keeper = threading.Thread(target=self._keep, args=(lease, self.stop), daemon=True,
                                       name="hermes-cron-lease")
        self.keeper.start()

    def _keep(self, lease, stop):
        # Each beat also settles the runs of tickers that died meanwhile: a
        # daemon (or a long tick) settles them within a lease period.
        while not stop.wait(self.seconds / 3):
            try:
                if not self.etcd.keepalive(lease):
                    return  # expired (cut off too long): its claims fail from now on
                self.settle_dead(self.clock())
            except (ClusterError, ValueError):
                pass  # unreachable, or a claim not JSON: the next beat tries again

    def leave(self):
        """Give the lease back: this ticker's key goes, and nothing of it is running."""
        if self.lease is None:
            return
        self.stop.set()
        lease, self.lease = self.lease, None
        self.etcd.revoke(lease)

    def claim(self, job, slot, eid, now):
        """(True, None) if this ticker took *slot* of *job* for run *eid*; (False, the
        claim's record) if another ticker has it.

        Raises ``ClusterUnavailableError`` when etcd cannot say, and
        ``ClusterError`` once this ticker's lease is gone (fenced off).
        """
        import json

        self.join(now)
        key = _fleet_job(job)
        claim, mine = self.key("claims", key, slot), self.key("tickers", self.ticker)
        won, answers = self.etcd.txn(
            [_absent(claim), _held_by(mine, self.lease)],
            [_put(claim, self._record(job, slot, eid, state="claimed", claimed_at=_iso(now))),
             _put(self.key("running", self.ticker, key, slot), claim)],
            [_get(claim), _get(mine)])
        if won:
            return True, None
        held = _answered_kvs(answers[0]) if answers else []
        if held:  # taken: by this run itself when an earlier try's answer was lost
            other = json.loads(held[0][1])
            return other.get("execution_id") == eid, other
        raise ClusterError("this ticker's etcd lease expired", self.ticker,
                           "it claims nothing more; the next tick starts a new ticker")

    def _record(self, job, slot, eid, **fields):
        """A claim's value: the run, where it runs, and *fields* (its state and times)."""
        import json

        return json.dumps(dict({"execution_id": eid, "node": self.node, "ticker": self.ticker,
                                "name": job.get("name"), "job_id": job["id"],
                                "scheduled_instant": slot}, **fields))

    def finish(self, job, slot, eid, claimed_at, state, error, now):
        """Record how claimed run *eid* ended, while this ticker still holds its lease."""
        if self.lease is None:
            return
        key = _fleet_job(job)
        claim = self.key("claims", key, slot)
        value = self._record(job, slot, eid, state=state, claimed_at=claimed_at,
                             finished_at=_iso(now), error=error)
        try:
            self.etcd.txn([_held_by(self.key("tickers", self.ticker), self.lease)],
                          [_put(claim, value),
                           _delete(self.key("running", self.ticker, key, slot))])
        except ClusterError:
            pass  # the local ledger has it; the fleet's copy settles with the ticker

    def settle_dead(self, now):
        """Mark ``unknown`` the claims of tickers whose lease expired; return their keys."""
        import json

        running = self.etcd.range(self.key("running") + "/", prefix=True)
        if not running:
            return []
        alive = {key for key, *_ in self.etcd.range(self.key("tickers") + "/", prefix=True)}
        settled = []
        for key, claim, revision, _ in running:
            ticker = key[len(self.key("running")) + 1:].split("/", 1)[0]
            if self.key("tickers", ticker) in alive:
                continue
            found = self.etcd.range(claim)
            record = json.loads(found[0][1]) if found else {}
            if record.get("state") == "claimed":
                record.update(state="unknown", settled_by=self.ticker, finished_at=_iso(now),
                              error=f"ticker {ticker} lost its etcd lease before the run ended; "
                                    "whether its side effects happened is unknown, so it is "
                                    "not run again")
                done, _ = self.etcd.txn([_unchanged(claim, found[0][2]),
                                         _unchanged(key, revision)],
                                        [_put(claim, json.dumps(record)), _delete(key)])
                if done:
                    settled.append(claim)
            else:  # ended, or gone: only the index entry is left
                self.etcd.txn([_unchanged(key, revision)], [_delete(key)])
        return settled

    def compact(self, jobs, keep=_FLEET_KEEP):
        """Drop the claims of *jobs* beyond each one's newest *keep* (the ledger's floor)."""
        for job in jobs:
            found = self.etcd.range(self.key("claims", _fleet_job(job)) + "/", prefix=True)
            for key, _, revision, _ in sorted(found)[:-keep]:  # slot keys sort by time
                self.etcd.txn([_unchanged(key, revision)], [_delete(key)])

    def rows(self, job=None):
        """Every claim the fleet holds (of *job*), as ledger-like rows naming their node."""
        import json

        prefix = self.key("claims", _fleet_job(job)) if job else self.key("claims")
        rows = []
        for _, value, _, _ in self.etcd.range(prefix + "/", prefix=True):
            claim = json.loads(value)
            rows.append({"id": claim.get("execution_id"), "job_id": claim.get("job_id"),
                         "source": "fleet", "status": claim.get("state"),
                         "claimed_at": claim.get("claimed_at"), "started_at": None,
                         "finished_at": claim.get("finished_at"), "error": claim.get("error"),
                         "scheduled_instant": claim.get("scheduled_instant"),
                         "node": claim.get("node"), "name": claim.get("name")})
        return rows


def _in_fleet(home):
    """True when the tick claims in a fleet: a ``cluster`` setting, even one it dropped."""
    return "cluster" in home.bad_config or home.fleet is not None


def _fleet_claims(home, doc, jobs, fires, now, report):
    """Claim *fires* in the fleet (if there is one); return those to run, each with its eid.

    A slot another ticker holds is dropped here (its job's pending slot with
    it: it ran elsewhere).  When etcd cannot be reached, nothing more is
    claimed: the slots left stay pending in their records, and the next tick
    fires them (late, within their grace) once etcd answers.  A ``cluster``
    setting the tolerant load had to drop claims nothing at all: a ticker
    never falls back to claims of its own.
    """
    if not fires or not _in_fleet(home):
        return fires
    won = []
    if "cluster" in home.bad_config:
        report["fleet_error"] = f"{home.bad_config['cluster']}; fired nothing"
        return won
    fleet = home.fleet
    for claim in fires:
        eid = os.urandom(16).hex()
        try:
            taken, other = fleet.claim(claim.job, _slot_key(claim.instant, claim.attempt), eid,
                                       now)
        except ClusterError as exc:
            report["fleet_error"] = redact(f"{exc}; fired {len(won)} of {len(fires)} due; the "
                                           f"rest stay due")
            break
        if taken:
            claim.eid, claim.fleet = eid, True
            won.append(claim)
        else:
            claim.job.pop("pending_slot", None)  # it ran elsewhere
            report.setdefault("fleet_lost", []).append({
                "job_id": claim.job["id"], "scheduled_instant": claim.instant,
                "node": other.get("node"), "execution_id": other.get("execution_id")})
    if not won:
        home.store.save(doc, jobs, now)  # the lost slots' pending marks are dropped
    return won


def _fleet_state(home):
    """The fleet as this node sees it: ``{"node", "up", "tickers", "error"}``, or None
    without a ``cluster`` setting (``tickers``: the nodes of the live tickers)."""
    fleet = home.fleet
    if fleet is None:
        return None
    try:
        keys = fleet.etcd.range(fleet.key("tickers") + "/", prefix=True)
    except ClusterError as exc:
        return {"node": fleet.node, "up": False, "tickers": [], "error": str(exc)}
    nodes = sorted(key.rsplit("/", 1)[1].rpartition(":")[0] for key, *_ in keys)
    return {"node": fleet.node, "up": True, "tickers": nodes, "error": None}


def _fleet_runs(home, fleet, rows, job_id, limit, ids):
    """This node's rows (each naming this node) and the fleet's claims run elsewhere,
    newest first, *limit* of them; etcd out of reach leaves this node's rows alone."""
    jobs = {job.get("id"): job for job in home.jobs()}
    by_name = {_fleet_job(job): job["id"] for job in jobs.values() if isinstance(job, dict)}
    for row in rows:
        row["node"] = fleet.node
    try:
        claims = fleet.rows(jobs.get(job_id) if job_id is not None else None)
    except ClusterError:
        return rows
    if job_id is not None and job_id not in jobs:
        claims = []  # a removed job: its runs here are all this node knows of
    mine = {row["id"] for row in rows}
    for claim in claims:
        if claim["id"] in mine or claim["node"] == fleet.node:
            continue
        name = claim.pop("name")
        local = by_name.get(_fleet_job({"name": name, "id": claim["job_id"]}))
        claim["job_id"] = local or claim["job_id"]  # this node's id of the same job
        if ids is None or claim["job_id"] in ids:
            rows.append(claim)
    rows.sort(key=lambda row: row.get("claimed_at") or "", reverse=True)
    return rows[:limit]


def _fleet_finish(home, claim, outcome, started, finished):
    """Write how a run claimed in the fleet ended to its claim."""
    if claim.fleet:
        home.fleet.finish(claim.job, _slot_key(claim.instant, claim.attempt), claim.eid,
                          _iso(started), "completed" if outcome.ok else "failed",
                          None if outcome.ok else redact(outcome.error or "unknown failure"),
                          finished)


def _fleet_occurrence(home, job, instant, retry, now):
    """(eid, None) once this ticker claimed an occurrence in the fleet, (None, the row of
    the run another node holds it for), or (None, None) outside a fleet."""
    fleet = home.fleet if instant is not None else None
    if fleet is None:
        return None, None
    eid = os.urandom(16).hex()
    won, other = fleet.claim(job, _slot_key(instant, retry[1] if retry else 1), eid, now)
    if won:
        return eid, None
    return None, {"id": other.get("execution_id"), "job_id": job["id"],
                  "status": other.get("state"), "scheduled_instant": instant,
                  "node": other.get("node")}


def _owner_tag():
    me = _identity()
    return f"{me['hostname']}:{me['pid']}:{me['process_id']}"


def _run_claim(home, claim, report=None, counted=False):
    """Run a claimed job and record it: running, run, document, job, row.

    In a tick (*report* given) a storage error that stops the run's own
    bookkeeping fails the tick (``housekeeping_error``) and leaves the row to
    the next tick; the other runs go on.  Otherwise it is raised.  *counted*:
    the caller already counted the run in flight.
    """
    _drive(_claim_steps(home, claim, report, counted))


def _claim_steps(home, claim, report, counted):
    """``_run_claim``'s steps, a generator (see ``_run_script``)."""
    runs = home.runs
    if not counted:
        with runs.lock:
            runs.inflight += 1
    try:
        yield from _run_claimed(home, claim)
    except Exception as exc:
        if report is None or not _storage_error(exc):
            raise
        claim.outcome = _Outcome("error", error=str(exc))
        report.setdefault("housekeeping_error", redact(f"execution {claim.eid}: {exc}"))
    finally:
        with runs.lock:
            runs.inflight -= 1
            runs.announce.pop(claim.eid, None)  # set by _replace_run, however the run ended
        home.books.poke()
        _notify(home, "finished", claim)


def _run_claimed(home, claim):
    ledger, eid = home.ledger, claim.eid
    if _policy(claim.job, "concurrency") == "replace":
        _replace_run(home, claim)
    started = home.now()
    if not (yield from ledger.start(eid, started)):
        return
    job = claim.job
    start_ping = _ping_start(home, job, eid)
    outcome = _stopped(home, claim, (yield from _execute(home, job, eid, home.runs)))
    finished = home.now()
    document, checked = None, []
    try:
        document = _write_output(home, job, eid, finished, outcome)
        if _to_verify(job, outcome):
            outcome = _verified(home, job, eid, outcome, started, document)
            finished = home.now()
            checked.append(home.ledger.verdict_write(eid, job["id"], job["id"], outcome.verdict,
                                                     finished))
            _write_output(home, job, eid, finished, outcome, path=document)
    except (OSError, HermesCronError) as exc:
        outcome = _Outcome("error", error=f"could not write the output document: {exc}")
    if outcome.note == "BLOCKED":
        ledger.record_skip(job["id"], claim.instant, "blocked_scanner", outcome.error, finished)
    retry, quiet = _retry_of(claim, outcome, finished)
    delivery_error, resolved = None, _attempt_writes(claim, retry)
    try:
        delivery, delivery_error = _report_run(home, claim, outcome, document, finished,
                                               resolved, quiet)
    except Exception as exc:  # the queue itself failed: say so, never lose the run
        delivery, delivery_error = "failed", redact(f"delivery failed: {type(exc).__name__}: "
                                                    f"{exc}")
    # The ledger row first: from its commit on the result is durable, and
    # whoever next holds the job store applies it to the job record if this
    # process cannot (a busy lock, a full disk, a kill).
    _fleet_finish(home, claim, outcome, started, finished)
    if (yield from ledger.finish(eid, outcome.ok, outcome.error, delivery, finished,
                                 checked + resolved)):
        claim.row = {"status": "completed" if outcome.ok else "failed",
                     "error": None if outcome.ok else redact(outcome.error or "unknown failure"),
                     "delivery_outcome": delivery, "started_at": started.isoformat(),
                     "finished_at": finished.isoformat()}
    home.ran[job["id"]] = _policy(job, "history_limit")
    # A tick's run does not wait for its job record (the tick waits for the
    # writer); a manual run returns with its record written.
    manual = claim.source != "builtin"
    state = None
    if outcome.ok and outcome.monitor_state is not None:
        state, text = outcome.monitor_state
        try:
            _keep_monitor_text(home, job, text)
        except (OSError, HermesCronError):
            pass  # the next change's diff is then against less; its hash still decides
    home.books.apply(home, (job["id"], eid, _Result(
        outcome.ok, outcome.status, outcome.error, delivery_error, state, retry, quiet),
        finished, manual), manual)
    claim.outcome = outcome
    _ping_end(home, job, eid, outcome.ok, start_ping)


# Threads that carry a tick's plain runs (``_Pool``).  Each waits on the
# ledger's group commits in turn, so a few keep the commits full.
_POOL_SIZE = 8


def _plain(job, settings):
    """True for a run that waits on nothing but its script's child: a script job
    with no agent, pings, checks, ``replace`` policy or target that sends."""
    if not job.get("script") or not job.get("no_agent") or job.get("watch") or \
            job.get("verify") or _policy(job, "concurrency") == "replace" or _ping_urls(job):
        return False
    return not any(_real_target(target) for for_failure in (False, True)
                   for target in _deliver_targets(job, for_failure, settings))


class _Pool:
    """A tick's plain runs: ``_POOL_SIZE`` threads for their steps, one poller for all
    their children.

    A thread a run cost a thousand threads for a thousand due jobs, and
    their switching (each start waited for the interpreter, held by the runs
    started before) set the tick's pace.  Here a thread drives a run's steps
    (the generator a thread of its own would ``_drive``) until it yields its
    child, starts the child, hands it to the poller and takes the next run;
    the poller hands back each child that ended, and a thread drives its run
    to the end.  The runs' steps, and so the ledger's and the store's order
    of writes, are those of a run on its own thread.
    """

    def __init__(self, home, claims, report):
        import queue

        self.todo, self.lock, self.left = queue.SimpleQueue(), _thread.allocate_lock(), len(claims)
        self.poller = _Poller(done=lambda child: self.todo.put((child.then, child)), wake=True)
        self.size = min(_POOL_SIZE, len(claims))
        for claim in claims:  # a run: its steps, and the name of a thread of its own
            self.todo.put(((_claim_steps(home, claim, report, True),
                            f"hermes-cron-{claim.job['id']}"), None))

    def start(self):
        """Start the poller and the threads; return them."""
        import threading

        threads = [threading.Thread(target=self.poller.run, daemon=True,
                                    name="hermes-cron-children")]
        threads += [threading.Thread(target=self._work, daemon=True, name=f"hermes-cron-runs-{n}")
                    for n in range(self.size)]
        for thread in threads:
            thread.start()
        return threads

    def _work(self):
        import threading

        me = threading.current_thread()
        while True:
            item = self.todo.get()
            if item is None:
                return
            run, child = item
            steps, me.name = run  # named as the run's own thread would be, while it drives it
            send, value = steps.send, None
            if child is not None:
                try:
                    value = _end_child(child)
                except BaseException as exc:
                    send, value = steps.throw, exc
            if self._advance(run, send, value):
                with self.lock:
                    self.left -= 1
                    last = not self.left
                if last:
                    self.poller.close()
                    for _ in range(self.size):
                        self.todo.put(None)

    def _advance(self, run, send, value):
        """Drive *run*'s steps to its next child (started, and handed to the poller) or its
        end; return True at its end."""
        steps = run[0]
        while True:
            try:
                step = send(value)
            except StopIteration:
                return True
            except Exception:  # what would end a run's own thread: said, and the run is over
                import traceback

                traceback.print_exc()
                return True
            if isinstance(step, _Done):  # a group commit: resumed once it is in
                step.then(lambda: self.todo.put((run, None)))
                return False
            argv, options = step
            try:
                child = _start_child(argv, **options)
            except BaseException as exc:
                send, value = steps.throw, exc
                continue
            if isinstance(child, tuple):  # refused or failed to start: its result at once
                send, value = steps.send, child
                continue
            child.then = run
            self.poller.add(child)
            return False


def _failure_report(home, job, outcome, now):
    """(content, for_failure) a failed run sends: its alert, with a nudge after a streak,
    or (``on_unverified: mark``) the answer as the job's result, its warning first."""
    if outcome.verdict is not None and job.get("on_unverified") == "mark":
        return _success_content(home, job, (
            f"Warning: this answer did not pass its checks: {outcome.error}\n\n"
            f"{outcome.response}")), False
    content = _failure_content(job, outcome, now)
    streak = (job.get("failure_streak") or 0) + 1
    threshold = home.settings["failure_nudge_threshold"]
    if threshold and streak >= threshold:
        content += (f"\n\nThis job has failed {streak} runs in a row: worth a review. Fix "
                    f"its prompt or configuration, or stop it with: python -m hermes_cron "
                    f"pause {job['id']}")
    return content, True


# Failure types a retry cannot mend: a refused credential, a broken config, an
# answer its checks found false (a scanner refusal and a crash never retry either).
_NEVER_RETRIED = ("auth", "config", "unverified")


def _retry_plan(claim, outcome, finished):
    """The job's ``retry`` when this failed attempt is retried (``retries``), else None.

    A tick's run retries a failure that may pass on another attempt (a
    timeout, a rate limit, a provider's 5xx, a script's exit); the next
    attempt waits the backoff, and a slot whose next one would come due
    after the job's next slot is done: that slot is its retry.
    """
    job = claim.job
    if claim.source != "builtin" or not _retryable(claim, outcome):
        return None
    at = finished + timedelta(seconds=_retry_delay(job, claim.attempt + 1))
    following = _parse_stored(job.get("next_run_at"))
    if job["schedule"]["kind"] != "once" and following is not None and at >= following:
        return None
    return {"scheduled_at": claim.instant, "attempt": claim.attempt + 1, "at": _iso(at)}


def _retry_of(claim, outcome, finished):
    """(retry, quiet): the tick's retry of this attempt (see ``_retry_plan``), and True
    when its failure pages nobody yet: another attempt comes, from the tick or from
    the engine that runs a ``--retried`` command again."""
    retry = _retry_plan(claim, outcome, finished)
    return retry, retry is not None or claim.retried and _retryable(claim, outcome)


def _retryable(claim, outcome):
    """True if this failed attempt of a slot has attempts left (``retries``) and failed
    in a way another attempt may pass: never a crash, a stop, a refused credential,
    a config error, a scanner refusal or a failed check."""
    retries = _policy(claim.job, "retries", 0)
    return not (outcome.ok or not retries or claim.attempt > retries or claim.instant is None
                or outcome.status != "error"
                or outcome.note in ("interrupted", "BLOCKED", "replaced")
                or classify_failure(outcome.error) in _NEVER_RETRIED)


def _attempt_writes(claim, retry):
    """The ``cron_attempts`` write a retried attempt commits with its result (a list)."""
    if retry is None:
        return []
    return [_Ledger.attempt_write(claim.eid, claim.job["id"], claim.instant, claim.attempt,
                                  _jitter(claim.job, claim.slot), retry["at"])]


def _stopped(home, claim, outcome):
    """*outcome*, noted ``interrupted`` (by the operator: no incident, no alert) or
    ``replaced`` (by a newer run of a ``concurrency: replace`` job: the same)."""
    eid = claim.eid
    with home.runs.lock:
        if eid in home.runs.interrupted:
            home.runs.interrupted.discard(eid)
            outcome.note = "interrupted"
            return outcome
    by = home.ledger.replaced_by(eid) if _policy(claim.job, "concurrency") == "replace" \
        else None
    if by is not None:
        outcome.status, outcome.note = "error", "replaced"
        outcome.error = f"replaced by execution {by} (concurrency: replace)"
    return outcome


def _replace_run(home, claim):
    """Stop the run a ``concurrency: replace`` fire replaces, before this one starts.

    The old run is marked replaced, its child gets SIGTERM, and SIGKILL
    after ``$HERMES_CRON_KILL_GRACE_SECONDS`` (10); its process records it
    ``failed`` with the reason.  A child is signalled only where its owner
    is provably alive on this host and the child's start time matches the
    one it announced (no reused pid is ever signalled); a run elsewhere is
    waited for within the grace, then this one starts anyway.
    """
    import signal

    ledger, job, eid = home.ledger, claim.job, claim.eid

    def announce(pid):
        state = _pid_state(pid)
        ledger.announce(eid, job["id"], claim.instant, claim.attempt, _jitter(job, claim.slot),
                        f"child {pid} {state[1] if state else None}")

    home.runs.announce[eid] = announce
    old = claim.running.get("execution_id") if claim.running is not None else None
    if not isinstance(old, str):
        return
    child = ledger.mark_replaced(old, claim.job["id"], claim.eid)
    grace = _env_seconds(home.environ, "KILL_GRACE_SECONDS", _STOP_GRACE)
    pgid = _stoppable_child(ledger, old, child)
    signals = [(0.0, signal.SIGTERM), (grace, signal.SIGKILL)] if pgid else []
    begun = time.monotonic()
    while True:
        row = ledger.get([old]).get(old)
        if row is None or row["status"] not in _ACTIVE:
            return
        waited = time.monotonic() - begun
        while signals and waited >= signals[0][0]:
            try:
                os.killpg(pgid, signals.pop(0)[1])
            except OSError:
                pass
        if waited > grace + _REPLACE_SETTLE:
            return  # its owner records it when it can; this run goes on
        time.sleep(0.05)


# After the SIGKILL of a replaced run, how long its owner may take to record it.
_REPLACE_SETTLE = 5.0


def _stoppable_child(ledger, eid, child):
    """The process group of run *eid*'s announced *child* (``child PID START``), if it may
    be signalled: its owner alive on this host and the pid still that child."""
    parts = (child or "").split()
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    row = ledger.get([eid]).get(eid)
    if row is None or row["status"] != "running" or ledger.owner_state(
            row["process_id"], row["pid"], row["process_started_at"], by_row=True) != "alive":
        return None
    state = _pid_state(int(parts[1]))
    if state is None or state[0] == "Z" or str(state[1]) != parts[2]:
        return None
    return int(parts[1])


def _report_run(home, claim, outcome, document, now, resolved, retried=False):
    """Deliver a run's result or failure alert and keep its incidents; return the outcome.

    Returns (delivery_outcome, delivery error or None).  The writes that
    resolve incidents the run settles are appended to *resolved*: they
    commit with the run's result.  A failure alert is
    withheld (``suppressed_acked``) while its incident is closed or was
    alerted less than ``failure_repeat_alert_hours`` ago.  A failed attempt
    that is retried (*retried*) opens no incident and alerts nobody: only a
    slot's last attempt does.
    """
    job, eid, incidents = claim.job, claim.eid, home.incidents
    settings = home.settings
    if outcome.note in ("interrupted", "replaced") or retried:  # nobody to page (yet)
        return "suppressed", None
    if outcome.ok:
        resolved.append(incidents.resolving(job["id"], False, now, eid))
        if outcome.silent:
            return "suppressed", None
        content, for_failure, incident = _success_content(home, job, outcome.response), False, None
    else:
        incident = incidents.record(job["id"], outcome.error or "unknown failure", document, now)
        if outcome.verdict is None or job.get("on_unverified") != "mark":
            if incidents.withhold(incident, now, settings["failure_repeat_alert_hours"]):
                return "suppressed_acked", None
        content, for_failure = _failure_report(home, job, outcome, now)
    delivery, error = _deliver(home, job, eid, claim.instant, content, for_failure, now)
    if delivery == "delivered":
        resolved.append(incidents.resolving(job["id"], True, now, eid))
        if incident is not None:
            incidents.alerted(incident["id"], now)
    elif delivery == "failed":
        incidents.record(job["id"], error, document, now, failure_type="delivery")
    return delivery, error


class _Bookkeeper:
    """Applies finished runs to jobs.json in batches: a group commit.

    A run's result is durable in the ledger before it arrives here; the job
    record only summarizes it.  Each finishing run queues its result; the
    first to find no writer at work becomes the writer and writes every
    result queued so far in one store write, and again while more arrive.
    A write costs the whole store, so after one the next waits (a few times
    as long as the write took, at least a quarter second) unless every run
    in flight has already queued: a thousand runs that end together cost a
    handful of writes, and a lone run is written at once.  A run that does
    not wait leaves as soon as its result is queued (the writer is a thread
    its tick waits for).  A write that fails (a busy, corrupt or full store)
    loses nothing: the next tick finds the claim of a finished row and
    applies the row's result.
    """

    def __init__(self):
        self._queue, self._cond, self._making = [], None, _thread.allocate_lock()
        self._writing, self._next_write = False, 0.0
        self._taken = self._written = 0  # results queued / written (or dropped) so far
        self._arrived = 0  # runs inside apply()

    @property
    def _queued(self):
        # Made on first use: a tick with nothing to run never imports threading.
        if self._cond is None:
            with self._making:
                if self._cond is None:
                    import threading

                    self._cond = threading.Condition()
        return self._cond

    def apply(self, home, entry, wait=True):
        """Queue ``(job_id, eid, result, finished, manual)``; with *wait*, return once
        it is written."""
        with self._queued:
            self._queue.append(entry)
            self._taken += 1
            ticket = self._taken
            self._queued.notify_all()
            if self._writing and not wait:
                return  # the writer at work takes it along
            self._arrived += 1
            while self._writing and self._written < ticket:
                self._queued.wait()
            if self._written >= ticket:
                self._arrived -= 1
                return
            self._writing = True  # no writer at work: this run is it
        try:
            self._write(home)
        finally:
            with self._queued:
                self._writing = False  # already, unless the write raised
                self._arrived -= 1
                self._queued.notify_all()

    def poke(self):
        """Wake a waiting writer: a run in flight ended (or will bring nothing)."""
        with self._queued:
            self._queued.notify_all()

    def _write(self, home):
        while True:
            with self._queued:
                # Wait (within the gap) only while some run is still running:
                # its result may come along with this batch.
                while self._queue and home.runs.inflight > self._arrived:
                    wait = self._next_write - time.monotonic()
                    if wait <= 0:
                        break
                    self._queued.wait(wait)
                batch, self._queue = self._queue, []
                if not batch:
                    # Under the lock that queues: a result queued from here on
                    # finds no writer and writes itself.
                    self._writing = False
                    return
            started = time.monotonic()
            try:
                _apply_batch(home, batch)
            except (HermesCronError, OSError):
                pass  # the ledger has every result: the next tick applies them
            finally:
                with self._queued:
                    self._written += len(batch)
                    self._queued.notify_all()
            took = time.monotonic() - started
            self._next_write = time.monotonic() + max(_BATCH_GAP, 3 * took)


def _apply_batch(home, batch):
    store = home.store
    with store.locked() as (doc, jobs):
        by_id = {}
        for job in jobs:
            if isinstance(job, dict):
                by_id.setdefault(job.get("id"), job)
        changed = set()
        for job_id, eid, result, finished, manual in batch:
            job = by_id.get(job_id)
            if job is not None and _apply_result(job, eid, result, finished, manual,
                                                 _safe_zone(home, job)):
                changed.add(job_id)
        if changed:
            store.save(doc, jobs, home.now(), changed)


class _FireHeartbeat:
    """Refreshes the fire_claim of this process's running jobs every minute."""

    def __init__(self):
        self._thread = self._stop = None  # made by the first start

    def start(self, home):
        import threading

        if self._thread is None or not self._thread.is_alive():
            if self._stop is None:
                self._stop = threading.Event()
            self._stop.clear()
            self._thread = threading.Thread(target=self._beat, args=(home,), daemon=True,
                                            name="hermes-cron-heartbeat")
            self._thread.start()

    def stop_if_idle(self, runs):
        if runs.inflight == 0 and self._stop is not None:
            self._stop.set()

    def _beat(self, home):
        while not self._stop.wait(_FIRE_CLAIM_HEARTBEAT):
            mine = _identity()["process_id"]

            def change(jobs):
                for job in jobs:
                    if not isinstance(job, dict):
                        continue
                    for claim in [job.get("fire_claim")] + _overlapped(job):
                        if isinstance(claim, dict) and str(claim.get("by", "")).endswith(mine):
                            claim["at"] = _iso(home.now())

            try:
                home.store.mutate(change, home.now())
            except HermesCronError:
                pass  # the next beat tries again; the TTL is five beats long


class _Scheduler:
    """The scheduler of one home: the stores and the state every tick and run shares.

    It owns the stores (``store``, ``ledger``, ``notepad``, ``deliveries``,
    ``incidents``), the runs in flight in this process (``runs``), the
    fire-claim heartbeat, the group commit of finished runs (``books``), the
    jobs that ran since the last prune (``ran``), the log of ``tick`` and
    ``daemon`` (``observer``, see :func:`_notify`) and the settings of this
    pass (``bad_config``: the keys a tolerant load had to drop).  The
    functions of the sections around it take it as their *home* argument;
    ``CronHome`` is the public facade over it.
    """

    def __init__(self, path, clock, environ, lock_timeout, runner):
        self.path, self.clock, self.environ, self.runner = path, clock, environ, runner
        self.store = _JobStore(path, lock_timeout)
        self.ledger = _Ledger(path, environ)
        self.notepad = _Notepad(path, environ)
        self.deliveries = _Deliveries(path, environ)
        self.incidents = _Incidents(self.ledger)
        self.runs = _Runs()
        self.heartbeat = _FireHeartbeat()
        self.books = _Bookkeeper()
        self.ran = {}  # job id -> its history_limit, of the jobs whose runs just finished
        self.resolved = {}  # real paths and script heads, for one tick (see _run_script)
        self.observer = None
        self.bad_config = {}
        self.config_warnings = []
        self.after_tick = None  # (home, path): writes config metrics_textfile after a tick
        self._settings = None
        self.config_unread = False  # this tick trusted .config.seen (see reload_settings)
        self.unread_timezone = ""  # then, the config's timezone .config.seen names
        self._default_zone = None  # (settings or timezone, zone variables, the zone)
        self._fleet = None  # (the cluster setting, its _Fleet)

    @property
    def fleet(self):
        """This process as a ticker of the config's ``cluster`` (``_Fleet``), or None (also
        while the config cannot be read: what reads the fleet reads this node alone)."""
        try:
            cluster = self.settings.get("cluster")
        except HermesCronError:
            return None
        if cluster is None:
            return None
        if self._fleet is None or self._fleet[0] != cluster:
            self._fleet = (cluster, _Fleet(self, cluster))
        return self._fleet[1]

    def joined_fleet(self):
        """The ``_Fleet`` this process made, or None: a tick that claimed nothing made none."""
        return self._fleet[1] if self._fleet is not None else None

    @property
    def settings(self):
        """The validated configuration (config.json plus ``HERMES_CRON_*``)."""
        if self._settings is None:
            self._settings, self.config_warnings, _ = _load_config(self.path, self.environ)
            _remember_secrets(self._settings, self.environ)
        return self._settings

    @property
    def loaded_settings(self):
        """The settings if this pass loaded them already, else None (nothing is read)."""
        return self._settings

    def reload_settings(self, quick=False):
        """Read the config afresh for a tick; a bad key only stops the jobs that need it.

        Returns the error text of the keys a tolerant load dropped (they are
        in ``bad_config``), or None for a clean config.  With *quick* (a
        tick), a config whose files are as the last clean load without
        ``metrics_textfile`` saw them (``.config.seen``) is not read now:
        ``config_unread`` is set and the settings load when first needed, so
        a tick with nothing due reads no config and imports no ``json``.
        """
        self._settings, self.bad_config, self.config_unread = None, {}, False
        self._default_zone = None  # resolved again: /etc/localtime may have changed too
        stamp = _config_stamp(self.path, self.environ) if quick else None
        seen = os.path.join(self.path, _CONFIG_SEEN_FILE)
        if stamp is not None:
            try:
                with open(seen, "rb") as f:
                    # The stamp's line, then the config's timezone (empty for
                    # none): what the tick's log needs of an unread config.
                    lines = f.read().decode("utf-8", "replace").split("\n")
                if len(lines) == 3 and lines[0] + "\n" == stamp:
                    self.config_unread, self.unread_timezone = True, lines[1]
                    return None
            except OSError:
                pass
        try:
            self.settings  # noqa: B018 (read for its validation)
        except InvalidInputError:
            self._settings, self.config_warnings, self.bad_config = _load_config(
                self.path, self.environ, tolerant=True)
            _remember_secrets(self._settings, self.environ)
            stamp = None
        try:
            # Advisory, as the due summary: a lost file only costs a read.
            if stamp is not None and not self._settings.get("metrics_textfile"):
                zone = self._settings.get("timezone")
                _replace_small(seen, f"{stamp}{zone if isinstance(zone, str) else ''}\n")
            elif quick:
                os.unlink(seen)
        except OSError:
            pass
        return "; ".join(dict.fromkeys(self.bad_config.values())) or None

    def forget_settings(self):
        """Drop the loaded settings: the next reader loads (and validates) them again."""
        self._settings = None

    def now(self):
        """Return the clock's current instant as an aware UTC datetime."""
        now = self.clock()
        if now.tzinfo is None:
            raise ValueError("the clock must return an aware datetime")
        return now.astimezone(_UTC)

    @property
    def scripts_dir(self):
        """The directory job scripts must live in."""
        return self._directory("scripts_dir", "scripts")

    @property
    def skills_dir(self):
        """The directory searched for ``<name>/SKILL.md`` skill files."""
        return self._directory("skills_dir", "skills")

    def _directory(self, key, default):
        # Config *key* relative to the home, else <home>/../<default> (upstream's place).
        configured = self.settings.get(key)
        if configured:
            return os.path.join(self.path, os.path.expanduser(configured))
        return os.path.join(os.path.dirname(self.path), default)

    def config_timezone(self):
        """Config ``timezone`` (None if unset).  While this tick trusts an unread
        config (``.config.seen``) it is the one that file names: asking reads nothing."""
        if self.config_unread and self._settings is None:
            return self.unread_timezone or None
        return self.settings.get("timezone")

    def zone(self, job=None):
        """Return the zone of *job* (or the home's default zone)."""
        if isinstance(job, dict) and job.get("tz"):
            return _job_zone(job, self.settings, self.environ)
        # The default zone is resolved once per configuration load (every
        # tick reloads it) and zone environment: a thousand jobs need not read
        # /etc/localtime each.  An unread config is known by its timezone.
        unread = self.config_unread and self._settings is None
        source = self.unread_timezone if unread else self.settings
        env = (self.environ.get("HERMES_TIMEZONE"), self.environ.get("TZ"))
        cached = self._default_zone
        if cached is None or cached[0] is not source or cached[1] != env:
            named = {"timezone": self.unread_timezone} if unread else source
            cached = self._default_zone = (source, env, _job_zone({}, named, self.environ))
        return cached[2]

    def jobs(self, include_all=True):
        """Return the job records (dicts); without *include_all*, not completed ones."""
        jobs = [j for j in self.store.load()[1] if isinstance(j, dict)]
        return jobs if include_all else [j for j in jobs if _job_state(j) != "completed"]

    def job(self, ref):
        """Return the job with id or (case-insensitive, unique) name *ref*."""
        return _find_job(self.store.load()[1], ref)


# =============================================================================
# 19. Tick
#    The one code path for cron(8), the daemon and tests: reconcile, plan and
#    claim under .tick.lock, then run outside it.
# =============================================================================

_TICK_DURATION_FILE = ".tick.duration"


def _tick_done(home, started, report):
    """Record the tick's duration; with config ``metrics_textfile``, refresh that file.

    An empty tick stays cheap: without the textfile it writes nothing here
    (one more small file would cost it a third more), so the duration on
    record is the last tick's that fired, skipped or settled something.  The
    textfile is written by ``home.after_tick`` (the facade installs the
    metrics writer).  A failure is the tick's housekeeping error.
    """
    try:
        settings = home.loaded_settings
        if settings is None and not home.config_unread:
            settings = _load_config(home.path, home.environ, tolerant=True)[0]
        textfile = settings and settings.get("metrics_textfile")  # unread: known unset
        if textfile or report["dispatched"] or report["skipped"] or report["reconciled"]:
            _write_small(home, _TICK_DURATION_FILE, f"{time.monotonic() - started:.6f}\n")
        if textfile and home.after_tick is not None:
            home.after_tick(home, textfile)
    except Exception as exc:
        if not (_storage_error(exc) or isinstance(exc, HermesCronError)):
            raise
        report.setdefault("housekeeping_error", redact(f"metrics: {exc}"))


def _tick(home, wait=True):
    """Run one tick; return (report, threads).  See ``CronHome.tick``."""
    import fcntl

    started = time.monotonic()
    report = {"busy": False, "dispatched": [], "skipped": [], "reconciled": []}
    _make_home(home.path)
    fd = _open_own(os.path.join(home.path, _TICK_LOCK), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        report["busy"] = True
        return report, []
    except BaseException:
        os.close(fd)
        raise
    home.store.keep = True  # the runs' record writes reuse what the scan saved
    home.resolved.clear()
    try:
        now = home.now()
        _tick_settings(home, report)
        claims, housekeeping, live = _scan_and_claim(home, now, report)
    except BaseException as exc:
        try:
            _write_tick_files(home, home.now(), exc)
        except StorageError:
            pass  # the disk that failed the tick refuses its heartbeat too: report the first
        raise
    finally:
        os.close(fd)  # the tick lock guards only scan-and-claim
    _alert_missed(home, report, now)  # outside the store lock: a slow target may wait
    _notify(home, "scanned", (report, claims))
    threads = _start_runs(home, claims, report)
    if housekeeping:
        # Deliveries left pending by a dead process go out now, outside the
        # tick lock (a slow webhook must not make the next tick busy) and
        # after the runs started (a queue error must not cost them).
        try:
            _drain(home, now)
        except Exception as exc:
            report["drain_error"] = redact(f"{type(exc).__name__}: {exc}")
    if wait or not threads:
        for thread in threads:
            thread.join()
        _fleet_after(home, now, report, leave=wait)
        try:
            _after_runs(home, live)
        except Exception as exc:  # e.g. a damaged deliveries.db: the tick says so
            report["housekeeping_error"] = redact(f"{type(exc).__name__}: {exc}")
        if report.get("config_error"):
            home.forget_settings()  # interactive callers see the error again
        home.store.forget_kept()
    _tick_done(home, started, report)
    _write_tick_files(home, now, report.get("config_error") or report.get("drain_error")
                      or report.get("housekeeping_error") or report.get("fleet_error"))
    return report, threads


def _start_runs(home, claims, report):
    """Start the claimed runs; return the threads that carry them.

    Plain runs (``_plain``: a script and nothing that waits on a network) go
    to one ``_Pool``; any other run has a thread of its own, as an agent's
    request or a webhook may take minutes.
    """
    if not claims:
        return []
    import threading

    with home.runs.lock:  # counted before any starts: the group commit waits for them all
        home.runs.inflight += len(claims)
    report["dispatched"] += claims
    plain, own = [], []
    for claim in claims:
        (plain if _plain(claim.job, home.settings) else own).append(claim)
    threads = _Pool(home, plain, report).start() if plain else []
    for claim in own:
        thread = threading.Thread(target=_run_claim, args=(home, claim, report, True),
                                  daemon=True, name=f"hermes-cron-{claim.job['id']}")
        thread.start()
        threads.append(thread)
    home.heartbeat.start(home)
    return threads


def _tick_settings(home, report):
    """Load the config for a tick; a bad key only stops the jobs that need it.

    Jobs that do not depend on a broken key keep running; the error is
    reported (``config_error``) and the tick counts as failed.
    """
    error = home.reload_settings(quick=True)  # afresh, or known unchanged since a clean load
    if error:
        report["config_error"] = error


def _fleet_after(home, now, report, leave):
    """After a tick's runs: settle the claims of dead tickers; a one-shot tick leaves."""
    fleet = home.joined_fleet()
    if fleet is None:
        return  # this process never claimed in a fleet
    try:
        report["fleet_settled"] = fleet.settle_dead(now)
        fleet.compact([claim.job for claim in report.get("dispatched", ())
                       if claim.fleet])
        if leave:
            fleet.leave()
    except ClusterError as exc:
        report.setdefault("fleet_error", redact(str(exc)))


def _after_runs(home, live=None):
    """Prune after runs: the floors of the jobs that ran; with *live*, the daily sweep."""
    home.heartbeat.stop_if_idle(home.runs)
    ran, home.ran = home.ran, {}
    if not ran and live is None:
        return  # nothing finished: nothing can have become prunable
    if home.ledger.exists():
        home.ledger.prune(ran, live, home.now())
    if ran and home.deliveries.exists():
        home.deliveries.prune()


def _write_tick_files(home, now, error):
    """Write the heartbeat, and the last success or the last error (a text or exception)."""
    # Decimal epochs, as upstream writes them (its 0.19 reads nothing else).
    epoch = repr(now.timestamp())
    _write_small(home, _HEARTBEAT_FILE, f"{epoch} {os.getpid()}\n")
    if error is None:
        _write_small(home, _SUCCESS_FILE, f"{epoch}\n")
        try:
            os.unlink(os.path.join(home.path, _ERROR_FILE))
        except FileNotFoundError:
            pass
    else:
        if home.config_unread:
            try:  # its secrets must be known to the redaction below
                home.settings  # noqa: B018
            except InvalidInputError:
                pass
        message = " ".join(redact(str(error) or type(error).__name__).split())
        _write_small(home, _ERROR_FILE, f"{epoch}\n{message}\n")


def _write_small(home, name, text):
    # Heartbeats are advisory and rewritten every minute: rename for
    # atomicity, but skip the fsyncs that make jobs.json durable.
    path = os.path.join(home.path, name)
    try:
        _replace_small(path, text)
    except OSError as exc:
        raise _as_storage_error(exc, path) from None


def _scan_and_claim(home, now, report):
    """Steps 2-5 of the tick: reconcile, gather the facts, plan, apply."""
    ledger, store = home.ledger, home.store
    with store.lock():
        if store.nothing_due(now):
            return _idle_scan(home, now, report)
        doc, jobs = store.load()
        repaired = False
        for job in jobs:  # a hand-written record without an id gets one, as upstream does
            if isinstance(job, dict) and not isinstance(job.get("id"), str):
                job["id"] = os.urandom(6).hex()
                repaired = True
        records = [j for j in jobs if isinstance(j, dict)]
        reconciled = _reconcile(home, records, now, report)
        if ledger.take_history_lost():
            report["lost"] = [(j.get("id"), j.get("last_run_at")) for j in ledger.lacking(records)]
        facts = _gather(home, records, now)
        decisions = _plan(records, facts)
        if any(d.action == "fire" for d in decisions):
            room = max(facts.settings["max_parallel"] - ledger.count_active(), 0)
            decisions = _fit_capacity(decisions, records, room, facts)
        due = _apply_decisions(home, doc, jobs, records, decisions, now, report, repaired)
        return due, reconciled or bool(due), {j["id"] for j in records}


def _idle_scan(home, now, report):
    """The common tick: no job due, none running.

    Rows of removed jobs and dead processes still get settled once per reap
    period, and once a day the sweep drops the rows of jobs removed by hand.
    """
    ledger = home.ledger
    reaped, live = _reap_due(home, now), None
    if reaped and ledger.exists():
        report["reconciled"] = ledger.reconcile(now) + ledger.settle_unclaimed(set(), now)
        if ledger.sweep_due(now):
            live = {j.get("id"): _policy(j, "history_limit")
                    for j in home.store.load()[1] if isinstance(j, dict)}
    return [], reaped, live


def _reconcile(home, records, now, report):
    """Settle dead owners' rows on every full scan (a killed ``run`` can leave a row no
    claim names); True when a claim, a pending slot or the reap period also asks for
    the housekeeping (rows no claim names, pending deliveries)."""
    due = any(j.get("fire_claim") or j.get("pending_slot") for j in records) \
        or _reap_due(home, now)
    report["reconciled"] = home.ledger.reconcile(now)
    if due:
        claimed = [c.get("execution_id") for j in records
                   for c in [j.get("fire_claim")] + _overlapped(j) if isinstance(c, dict)]
        report["reconciled"] += home.ledger.settle_unclaimed(
            {eid for eid in claimed if isinstance(eid, str)}, now)
    return due


def _reap_due(home, now):
    """True once per reap period: rows of removed jobs need reconciling too."""
    last = _stamp_file(home, _SUCCESS_FILE)[0]
    if last is None:
        return True
    return int(now.timestamp()) // _REAP_EVERY != int(last) // _REAP_EVERY


def _alert_missed(home, report, now):
    """Open an incident and send a failure alert for each one-shot that missed its time.

    The jobs are retired and recorded already: an alert that fails is only said.
    """
    try:
        _alert_each(home, report.pop("missed", []), now)
    except Exception as exc:
        report["drain_error"] = redact(f"missed one-shot alert: {type(exc).__name__}: {exc}")


def _alert_each(home, missed, now):
    if not missed:
        return  # the common tick: no config read for it
    incidents, hours = home.incidents, home.settings["failure_repeat_alert_hours"]
    for job, note, document in missed:
        incident = incidents.record(job["id"], note, document, now)
        if incidents.withhold(incident, now, hours):
            continue
        content = redact(f"Cron job '{job.get('name') or job['id']}' ({job['id']}) missed "
                         f"its one-shot run and was retired:\n\n{note}")
        delivery, _ = _deliver(home, job, os.urandom(16).hex(), None, content, True, now)
        if delivery == "delivered":
            incidents.alerted(incident["id"], now)


# --- 19.1 Applying the plan --------------------------------------------------

def _apply_decisions(home, doc, jobs, records, decisions, now, report, changed=False):
    """Write the decisions in the crash-safe order; return the claims to run.

    Ledger rows first (settled claims, skips, hold-backs), then the job
    records (advanced past the fired slots, which are remembered as
    ``pending_slot``), then the fires' execution rows, then their claims.
    """
    fires = [_Claim(records[d.index], d.slot, d.instant, d.what, d.lateness, attempt=d.attempt,
                    running=d.row) for d in decisions if d.action == "fire"]
    holds = []
    for decision in decisions:
        if decision.action != "fire":
            changed = True
            _apply_one(home, records[decision.index], decision, now, report, holds)
    home.ledger.record_skips(holds, now)
    for claim in fires:
        _advance(home, claim, now)
    return _claim_fires(home, doc, jobs, fires, now, changed, report)


def _apply_one(home, job, decision, now, report, holds):
    """Carry out one decision other than a fire (hold-backs are collected in *holds*)."""
    action = decision.action
    if action == "settle" and decision.what == "overlapped":
        if _settle_overlapped(home, job, decision, now):
            report["reconciled"].append(decision.row["id"])
    elif action == "settle":
        if _settle(home, job, decision.row, decision.detail, now):
            report["reconciled"].append(decision.row["id"])
    elif action == "set":
        _apply_changes(job, decision.changes)
    elif action == "hold":
        _skip(home, report, job, decision.instant, decision.what, decision.detail, now,
              record=False)  # hold-backs are recorded together, in one transaction
        holds.append((decision.job_id, decision.instant, decision.what, decision.detail))
    elif action == "skip":
        _skip(home, report, job, decision.instant, decision.what, decision.detail, now)
    elif action == "fail":
        _skip(home, report, job, decision.instant, decision.what, decision.detail, now)
        home.incidents.record(job["id"], job.get("last_error") or decision.detail, None, now)
    elif action == "pause":
        _auto_pause(home, job, decision.detail, now)
        _skip(home, report, job, None, decision.what, decision.detail, now)
    elif action == "retire":
        _retire_job(home, job, decision, now, report)


def _claim_fires(home, doc, jobs, fires, now, changed, report):
    """Save the advanced records, then create the fires' rows, then take their claims;
    return the claims to run.

    In a fleet the slots are claimed in etcd between the first save and the
    rows (``_fleet_claims``): a slot this ticker lost, or could not claim,
    gets no row here.
    """
    store = home.store
    if fires or changed:
        store.save(doc, jobs, now)
    elif store.read_stat is not None:
        store.write_due(jobs, now, store.read_stat)  # e.g. after a hand edit
    ids = {claim.job["id"] for claim in fires}
    fires = _fleet_claims(home, doc, jobs, fires, now, report)
    if fires:  # their rows, under the ids a fleet's claims gave them
        eids = home.ledger.claim([(c.job["id"], c.instant, c.attempt, _jitter(c.job, c.slot)
                                   if c.instant else 0) for c in fires], "builtin", now,
                                 [claim.eid for claim in fires])
        tag = _owner_tag()
        for claim, eid in zip(fires, eids):
            claim.eid = eid
            if claim.running is not None and _policy(claim.job, "concurrency") == "allow":
                claim.job["fire_claims"] = _overlapped(claim.job) + [claim.running]
            claim.job["fire_claim"] = {"at": _iso(now), "by": tag, "execution_id": eid}
            claim.job.pop("pending_slot", None)
            claim.job.pop("retry", None)  # taken: the row holds this attempt now
        store.save(doc, jobs, now, changed=ids)
    for claim in fires:  # the runs get copies; the list is not ours after the lock
        claim.job = dict(claim.job)
    return fires


def _apply_changes(job, changes):
    for key, value in changes.items():
        if value is None:
            job.pop(key, None)
        else:
            job[key] = value


def _settle(home, job, row, error, now):
    """Drop a claim that no longer stands (see ``_claim_verdict``).

    Its still-active *row* becomes ``unknown`` with *error* first; a
    finished row's result is applied to the job (its process was killed, or
    the store was busy or full, before it could record the run).
    Returns True if it settled the row ``unknown``.
    """
    if error is not None and row is not None:
        marked = home.ledger.mark_unknown(row, error, now)
        job["fire_claim"] = None
        return marked
    if not _apply_row(job, row, now, _safe_zone(home, job)):
        job["fire_claim"] = None  # cleared as upstream clears it
    return False


def _settle_overlapped(home, job, decision, now):
    """Drop an older run's claim (``fire_claims``) that no longer stands, as ``_settle``."""
    row, error = decision.row, decision.detail
    marked = error is not None and row is not None and home.ledger.mark_unknown(row, error, now)
    if marked or not _apply_row(job, row, now, _safe_zone(home, job)):
        _drop_overlapped(job, decision.changes.get("execution_id"))
    return marked


def _skip(home, report, job, instant, reason, detail, now, record=True):
    """Say a slot did not fire: in the tick's report and, with *record*, in cron_skips."""
    report["skipped"].append({"job_id": job.get("id"), "scheduled_instant": instant,
                              "reason": reason, "detail": detail})
    if record:
        home.ledger.record_skip(job.get("id"), instant, reason, detail, now)


def _auto_pause(home, job, reason, now):
    """Pause a job that can never run as it is, say why, and leave a document."""
    job.update(enabled=False, state="paused", paused_at=_iso(now),
               paused_reason=redact(f"auto-paused: {reason}")[:500],
               last_status="blocked_config", last_error=redact(reason)[:500])
    job.pop("pending_slot", None)
    try:
        _write_output(home, job, "-", now, _Outcome(
            "blocked_config", error=reason, note="blocked (unrunnable job) - auto-paused"))
    except (HermesCronError, OSError):
        pass  # a job id that is no safe file name gets no document, only its reason


def _retire_job(home, job, decision, now, report):
    """Retire a one-shot that will not run.

    One that ran already is ``completed``.  One that missed its time is
    visibly not a success: state ``error``, a diagnostic document, a
    recorded skip, and (sent after the scan, outside the store lock) an
    incident and a failure alert.
    """
    job.update(enabled=False, state="completed", next_run_at=None)
    job.pop("pending_slot", None)
    if decision.what in ("done", "used_up"):
        return
    note = decision.detail
    job.update(state="error", last_status="error", last_error=note)
    document = _write_output(home, job, "-", now, _Outcome(
        "error", error=note, note="retired (run time outside grace)"))
    _skip(home, report, job, decision.instant, "oneshot_expired", note, now)
    report.setdefault("missed", []).append((dict(job), note, document))


def _advance(home, claim, now):
    """Pre-dispatch advance: take the slot off the schedule, count it, remember it pending.

    A finite repeat counts every claimed fire before it runs: a run that a
    crash leaves ``unknown`` has used its fire too.
    """
    job = claim.job
    if claim.attempt > 1:
        return  # a retry: its slot was taken off the schedule and counted by its first
    schedule = job["schedule"]
    zone = _safe_zone(home, job)
    slot_text = _iso_exact(claim.slot.astimezone(zone))
    repeat = dict(job["repeat"]) if isinstance(job.get("repeat"), dict) else \
        {"times": 1 if schedule["kind"] == "once" else None}
    repeat["completed"] = _count(repeat.get("completed")) + 1
    job["repeat"] = repeat
    if schedule["kind"] != "once" and (claim.instant is not None or job.get("manual_run_at")):
        anchor = claim.slot if claim.instant is not None else None
        job["next_run_at"] = _iso_exact(_next_slot(schedule, home.zone(job), now, anchor))
    job.pop("capacity_wait_since", None)
    job["pending_slot"] = {"scheduled_at": slot_text, "at": _iso(now), "by": _owner_tag(),
                           "counted": True}
    job["last_dispatch"] = {"scheduled_at": slot_text, "dispatched_at": _iso(now),
                            "lateness_seconds": round(max(claim.lateness, 0.0), 1),
                            "kind": claim.kind}


# --- 19.2 Firing outside the tick --------------------------------------------

def _run_now(home, ref, occurrence=None, retried=False):
    """Fire a job synchronously outside its schedule; return (row, existing).

    With *retried* (the caller runs the command again on failure: systemd's
    ``Restart=on-failure``, a Kubernetes ``backoffLimit``) an occurrence whose
    last attempt failed and may pass on another runs its next attempt.
    """
    now = home.now()
    home.resolved.clear()  # one run is its own pass: scripts and environment read afresh
    job = home.job(ref)
    instant, source = None, "direct"  # upstream's value for a run outside the tick
    ledger, eid, retry = home.ledger, None, None
    if occurrence is not None:
        instant = _occurrence_instant(home, job, occurrence, now)
        source = "external"
        retry = _next_attempt(home, job, instant) if retried else None
        stale = None if retry else _stale_occurrence(home, job, instant, now)
        if stale is not None:
            return _stale_run(home, job, instant, stale, now)
    # A run killed between its row and its claim leaves a row no job names:
    # the next tick must look at the ledger, not only at the due summary.
    home.store.forget_due()
    # The fleet's claim first: another node may have run it.
    eid, other = _fleet_occurrence(home, job, instant, retry, now)
    if other is not None:
        return other, True
    fleet = eid is not None
    if instant is not None:
        eid, existing = ledger.claim_occurrence(job["id"], instant, source, now, retry, eid)
        if existing is not None:
            return existing, True
    tag = _owner_tag()

    def take(jobs):
        current = _find_job(jobs, job["id"])
        claim = current.get("fire_claim")
        if claim is not None:
            eid = claim.get("execution_id") if isinstance(claim, dict) else None
            row = ledger.get([eid]).get(eid) if isinstance(eid, str) else None
            verdict, error = _claim_verdict(home, claim, row, now)
            if verdict == "live":
                return eid or "not recorded yet"
            _settle(home, current, row, error, now)  # a finished run's result counts
        current["fire_claim"] = {"at": _iso(now), "by": tag, "execution_id": None}
        return None

    def bind(jobs):
        current = _find_job(jobs, job["id"])
        current["fire_claim"] = {"at": _iso(now), "by": tag, "execution_id": eid}

    def release(jobs):
        current = _find_job(jobs, job["id"])
        if isinstance(current.get("fire_claim"), dict) and current["fire_claim"].get("by") == tag:
            current["fire_claim"] = None

    taken = False
    try:
        busy = home.store.mutate(take, now)
        if busy is not None:
            raise BusyError("job is running now", f"{job['id']} (execution {busy})",
                            "wait for it to finish; see 'runs JOB'")
        taken = True
        if instant is None:
            eid = ledger.claim([(job["id"], None)], source, now)[0]
        home.store.mutate(bind, now)
    except BaseException:
        # Nothing ran: give the claims back, so a retry can still run the
        # occurrence and the job does not look "running now" until its TTL.
        if taken:
            try:
                home.store.mutate(release, now)
            except (HermesCronError, OSError):
                pass  # the store refuses writes: the claim expires; the first error says why
        if eid is not None:
            ledger.retract(eid)
        raise
    claim = _Claim(home.job(job["id"]), now, instant, "manual", 0.0, source,
                   attempt=retry[1] if retry else 1)
    claim.eid, claim.retried, claim.fleet = eid, retried, fleet
    home.heartbeat.start(home)
    try:
        _run_claim(home, claim)
    finally:
        _fleet_after(home, now, {}, leave=True)
        _after_runs(home)
    return ledger.get([eid])[eid], False


def _stale_run(home, job, instant, stale, now):
    """An occurrence too late to run: the slot's last row if it ran, else a recorded skip."""
    rows = home.ledger.select("SELECT * FROM executions WHERE job_id=? AND scheduled_instant=? "
                              "ORDER BY rowid DESC LIMIT 1", (job["id"], instant))
    if rows:  # an old slot that did run still reports its row, as any taken slot does
        return rows[0], True
    home.ledger.record_skip(job["id"], instant, *stale, now)
    return {"id": None, "job_id": job["id"], "scheduled_instant": instant,
            "status": "skipped", "reason": stale[0], "detail": stale[1]}, False


def _next_attempt(home, job, instant):
    """(last row id, attempt) a retried external run of a slot runs next, or None: its
    last attempt failed and may pass on another, with ``retries`` left."""
    found = home.ledger.last_attempt(job["id"], instant)
    if found is None:
        return None
    schedule = _checked_schedule(job.get("schedule"), job)
    if schedule["kind"] != "once" and _instant(_latest_slot(
            schedule, home.zone(job), None, home.now()) or _parse_stored(instant)) != instant:
        return None  # a later slot has come: it is this one's retry, as in the tick
    row, attempt, note = found
    if row["status"] != "failed" or attempt > _policy(job, "retries", 0) or \
            note.startswith("replaced") or classify_failure(row["error"]) in _NEVER_RETRIED:
        return None
    return row["id"], attempt + 1


def _occurrence_instant(home, job, occurrence, now):
    """Validate ``run --occurrence`` and return the slot's canonical instant."""
    schedule = _checked_schedule(job.get("schedule"), job)
    zone = home.zone(job)
    if schedule["kind"] == "interval":
        raise InvalidInputError("--occurrence needs a cron or one-shot schedule; this job runs "
                                "on an interval", job["id"], "run it without --occurrence")
    if occurrence == "auto":
        if schedule["kind"] == "once":
            slot = _parse_stored(schedule["run_at"])
        else:
            slot = _latest_slot(schedule, zone, None, now)
        if slot is None:
            raise InvalidInputError("the job has no slot at or before now", job["id"],
                                    "pass --occurrence ISO")
        return _instant(slot)
    slot = parse_iso(occurrence)
    slot = _wall_to_aware(slot, zone) if slot.tzinfo is None else slot
    real = (_parse_stored(schedule["run_at"]) == slot if schedule["kind"] == "once" else
            _cron(schedule["expr"]).next_after(slot - timedelta(minutes=1), tz=zone) == slot)
    if not real:
        raise InvalidInputError("--occurrence is not a slot of the job's schedule", occurrence,
                                f"use a time that 'next {job['id']}' lists, or 'auto'")
    if slot > now + timedelta(seconds=_OCCURRENCE_SKEW):
        raise InvalidInputError("--occurrence is in the future", occurrence,
                                "fire an occurrence at or after its time")
    return _instant(slot)


def _stale_occurrence(home, job, instant, now):
    """Return (reason, detail) if an external fire of *instant* comes too late to run, else None.

    A cron(8) that ignores ``CRON_TZ`` fires hours off the job's zone, and
    ``--occurrence auto`` then binds a slot long gone or older than the job:
    running it would report a success for a time nobody asked for (SPEC 14).
    The limits are the tick's own, so both engines agree on what is too late:
    the job's grace, and with its own ``catch_up`` its latest slot however late.
    """
    zone = home.zone(job)
    slot = _parse_stored(instant)
    wall = _iso(slot.astimezone(zone))  # the time the operator scheduled
    created = _parse_stored(job.get("created_at"))
    schedule = _checked_schedule(job.get("schedule"), job)
    dispatch = job.get("last_dispatch") if isinstance(job.get("last_dispatch"), dict) else {}
    last = _parse_stored(dispatch.get("scheduled_at"))
    if last is not None and slot <= last <= now:
        # The ledger holds no row for it (else that row answered), but the tick
        # fired this slot or a later one: the history was lost, not the run.
        return ("occurrence_already_run",
                f"slot {wall} is at or before the job's last dispatched slot "
                f"({dispatch.get('scheduled_at')}); executions.db has no row for it "
                f"(see 'doctor')")
    if schedule["kind"] == "once":
        # As in the tick: a one-shot created after its time counts from its creation.
        base = max(slot, created) if created is not None else slot
        grace = _ONESHOT_GRACE
    else:
        if created is not None and slot < created:
            return ("occurrence_before_created",
                    f"slot {wall} is before the job was created ({job.get('created_at')})")
        base, grace = slot, _slot_grace(job, schedule, slot, zone)
        if _policy(job, "catch_up") is True and slot == _latest_slot(schedule, zone, None, now):
            return None  # the job catches up its latest missed slot (systemd's Persistent=)
    late = int((now - base).total_seconds())
    if late > grace:
        return ("occurrence_expired",
                f"slot {wall} is {late} s old, past the job's grace of {grace} s")
    return None


# --- 19.3 The daemon ---------------------------------------------------------

def _daemon(home, stop, drain, on_report=None):
    """The daemon loop behind ``CronHome.daemon``.

    *on_report* sees every tick's report, and ``{"stage": ...}`` at ``start``,
    ``stopping`` (with the signal, the runs in flight and the drain),
    ``interrupting`` (runs left after the drain) and ``stopped``.
    """
    import signal
    import threading

    if home.environ.get(_ENV_PREFIX + "NOW"):
        raise InvalidInputError("the daemon runs on the real clock; HERMES_CRON_NOW is set",
                                home.environ[_ENV_PREFIX + "NOW"], "unset HERMES_CRON_NOW")
    stop = stop if stop is not None else threading.Event()
    if drain is None:
        drain = _env_seconds(home.environ, "DRAIN_SECONDS", 30.0)
    grace = _env_seconds(home.environ, "KILL_GRACE_SECONDS", _STOP_GRACE)
    received = "SIGTERM"  # a *stop* set by the caller stops the runs as SIGTERM would

    def on_signal(signum, _frame):
        nonlocal received
        received = signal.Signals(signum).name
        stop.set()

    saved = {}
    if threading.current_thread() is threading.main_thread():
        saved = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        say = on_report or (lambda report: None)
        say({"stage": "start"})
        threads = _daemon_loop(home, stop, say)
        # Runs, not threads: a tick's plain runs share a few (``_Pool``).
        say({"stage": "stopping", "signal": received, "running": home.runs.inflight,
             "drain": drain})
        _drain_runs(home, threads, drain, grace, say)
        _fleet_after(home, home.now(), {}, leave=True)  # its lease goes back with its runs
        say({"stage": "stopped"})
    finally:
        for sig, handler in saved.items():  # an embedder's own handlers come back
            signal.signal(sig, handler)


def _daemon_loop(home, stop, say):
    """Tick on every minute boundary until *stop*; return the run threads still alive."""
    threads = []
    while not stop.is_set():
        try:
            report, started = _tick(home, wait=False)
        except Exception as exc:  # a failed tick is reported; the next minute tries again
            report, started = {"error": redact(str(exc) or type(exc).__name__)}, []
        say(report)
        threads = [t for t in threads + started if t.is_alive()]
        if not threads:
            try:
                _after_runs(home)
            except Exception as exc:  # the next tick reports it again; the loop goes on
                say({"error": redact(f"{type(exc).__name__}: {exc}")})
        stop.wait(60 - time.time() % 60)  # wake on the minute boundary
    return [t for t in threads if t.is_alive()]


def _drain_runs(home, threads, drain, grace, say):
    """Wait up to *drain* s for the runs in flight, then stop what is left."""
    import threading

    deadline = time.monotonic() + drain
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    threads = [t for t in threads if t.is_alive()]
    if threads:
        say({"stage": "interrupting", "signal": "SIGTERM", "running": home.runs.inflight,
             "grace": grace})
    # What is left is interrupted: SIGTERM (whatever stopped the daemon: a
    # script traps TERM to clean up), the grace, SIGKILL; its runs finish failed.
    stopper = threading.Thread(target=home.runs.stop, args=("SIGTERM", grace), daemon=True,
                               name="hermes-cron-stop")
    stopper.start()
    for thread in threads:
        thread.join(max(0.0, deadline + grace + 5 - time.monotonic()))
    stopper.join(1.0)  # it returns once no run is in flight
    if not stopper.is_alive():
        home.runs.stopping = None  # all stopped: the caller may run this home's jobs again
    _after_runs(home)


# =============================================================================
# 20. Observability
#    What a probe or a dashboard reads: status, one job in full, metrics.
# =============================================================================

def _with_verdicts(ledger, rows):
    """Add ``verdict`` to the rows whose answer was checked (its own checks' verdict
    first), and ``attempt`` (with ``retry_at`` when one follows) to retried slots' rows."""
    verdicts = ledger.verdicts(row["id"] for row in rows)
    attempts = ledger.attempts(row["id"] for row in rows)
    for row in rows:
        found = verdicts.get(row["id"])
        if found:
            row["verdict"] = found[0]["verdict"]
        attempt = attempts.get(row["id"])
        if attempt and (attempt["attempt"] > 1 or attempt["retry_at"]):
            row["attempt"] = attempt["attempt"]
            if attempt["retry_at"]:
                row["retry_at"] = attempt["retry_at"]
    return rows


def _age_words(age):
    """A heartbeat's age in words: ``12 s ago``; a stamp from the future (this
    clock stepped back, or the ticker's is ahead) says so, never ``-40 s ago``."""
    return f"{age} s ago" if age >= 0 else f"{-age} s ahead of this clock"


def _status(home):
    """Heartbeat age, last tick, next due and overdue jobs (reads only)."""
    now = home.now()
    epoch = now.timestamp()
    beat, pid = _stamp_file(home, _HEARTBEAT_FILE)
    success = _stamp_file(home, _SUCCESS_FILE)[0]
    error = _read_text(os.path.join(home.path, _ERROR_FILE))
    age = int(epoch - beat) if beat is not None else None
    jobs = home.jobs()
    runnable = [j for j in jobs if _job_is_runnable(j)]
    dated = sorted(((d, j) for j in runnable
                    for d in [_parse_stored(j.get("next_run_at"))] if d is not None),
                   key=lambda pair: pair[0])
    # A job capacity holds back is due and waiting its turn, not missed.
    held = [{"job_id": j.get("id"), "name": j.get("name"), "next_run_at": j["next_run_at"],
             "held_since": j.get("capacity_wait_since")}
            for d, j in dated if d <= now and j.get("capacity_wait_since")]
    overdue = [{"job_id": j.get("id"), "name": j.get("name"), "next_run_at": j["next_run_at"],
                "late_seconds": int((now - d).total_seconds())}
               for d, j in dated if (now - d).total_seconds() > _MIN_GRACE
               and not j.get("capacity_wait_since")]
    upcoming = next(((d, j) for d, j in dated if d > now), None)
    return {
        "home": home.path,
        "heartbeat_age_seconds": age,
        "ticker_pid": pid,
        "stalled": age is None or not -60 <= age <= _STALLED_AFTER,  # future stamps too
        "last_success": _iso(datetime.fromtimestamp(int(success), _UTC))
        if success is not None else None,
        "last_error": error.split("\n", 1)[1] if error and "\n" in error else error,
        "jobs": len(jobs),
        "active_jobs": len(runnable),
        "running": home.ledger.count_active(),
        "next_due": {"job_id": upcoming[1].get("id"), "name": upcoming[1].get("name"),
                     "next_run_at": upcoming[1]["next_run_at"]} if upcoming else None,
        "overdue": overdue,
        "held_back": held,
        "failed": [{"job_id": j.get("id"), "name": j.get("name"), "last_error": j.get("last_error")}
                   for j in jobs if _job_state(j) == "error"],
        "fleet": _fleet_state(home),
    }


_OPEN_INCIDENTS = ("detected", "alerted")
_RECENT = timedelta(hours=24)  # the window of the 'status' counts of failures and skips
_METRIC_PREFIX = "hermes_cron_"


# Held-back slots in 24 h from which doctor calls them routine (capacity too low).
_ROUTINE_HOLD_BACKS = 12


def _status_counts(home, info):
    """Add to a ``status`` dict what needs an operator: failing jobs, open incidents,
    pending, retrying and failed deliveries, held-back and missed slots (reads only)."""
    since = home.now() - _RECENT
    info["failing_jobs"] = sum(1 for j in home.jobs() if j.get("last_status") not in (None, "ok"))
    info["open_incidents"] = sum(1 for row in home.incidents.list(None, None)
                                 if row["state"] in _OPEN_INCIDENTS)
    queue = _readable_queue(home, since)
    readable = queue is not None  # else None: unknown, not zero
    info["deliveries_pending"] = queue.get("pending", 0) + queue.get("delivering", 0) \
        if readable else None
    info["deliveries_retrying"] = queue.get("retrying", 0) if readable else None
    info["deliveries_failed_24h"] = queue.get("failed_recently", 0) if readable else None
    skips = _recent_skips(home.ledger, since)
    info["held_back_24h"] = skips.pop("max_parallel", 0)
    info["missed_24h"] = sum(skips.values())
    return info


def _readable_queue(home, since):
    """``_Deliveries.counts``, or None when deliveries.db cannot be read.

    A damaged queue fails the tick and is named by ``doctor``; the probes
    (``status``, ``metrics``) still answer with what they can read.
    """
    try:
        return home.deliveries.counts(since)
    except Exception as exc:
        if not _storage_error(exc):
            raise
        return None


def _run_duration(row):
    """Seconds from a row's start to its end, or None while it runs (or never started)."""
    started, finished = _parse_stored(row.get("started_at")), _parse_stored(row.get("finished_at"))
    return round((finished - started).total_seconds(), 3) if started and finished else None


def _job_view(home, ref):
    """One job in full, for ``show JOB`` and the status site (reads only).

    Returns ``{"job": <record>, "state", "paused_reason", "schedule" (in words),
    "expression", "zone", "next_runs" (3 ISO times), "targets", "runs" (the last
    5 rows, each with ``duration_seconds`` and, if checked, ``verdict``), "incidents"
    (open), "notepad_keys"}``.
    """
    job = home.job(ref)  # read the store once: 10k jobs take ~50 ms to load
    schedule = job.get("schedule") if isinstance(job.get("schedule"), dict) else {}
    expr = schedule.get("expr") if schedule.get("kind") == "cron" else None
    try:
        zone = (_cron(expr).tz if expr else None) or _zone_name(home.zone(job))
    except HermesCronError:
        zone = job.get("tz")  # an unknown zone: 'doctor' says so; the record still shows
    state = _job_state(job)
    try:
        upcoming = [] if state == "completed" else [  # at their jittered instants
            _iso(f + timedelta(seconds=_jitter(job, f))) for f in _job_fires(
                job, _checked_schedule(job.get("schedule"), job), home.zone(job), home.now(), 3)]
    except HermesCronError:
        upcoming = []  # an unparseable stored schedule: the job is auto-paused at its slot
    deliver = job.get("deliver") if isinstance(job.get("deliver"), str) else "local"
    return {
        "job": job,
        "state": state,
        "paused_reason": (job.get("paused_reason") or _DEFAULT_PAUSE_REASON)
        if state == "paused" else None,
        "schedule": _friendly_schedule(job, _safe_zone(home, job)),
        "expression": expr,
        "zone": zone,
        "next_runs": upcoming,
        "targets": _split_targets(deliver),
        "runs": [dict(row, duration_seconds=_run_duration(row))
                 for row in _with_verdicts(home.ledger, home.ledger.rows(job["id"], 5))],
        "incidents": [row for row in home.incidents.list(job_id=job["id"])
                      if row["state"] in _OPEN_INCIDENTS],
        "notepad_keys": [note["key"] for note in home.notepad.list(job["id"])],
        "unknown_fires": _unknown_fires(home, job),
    }


def _unknown_fires(home, job):
    """How many of a finite repeat's counted fires ended ``unknown`` (a crash), or 0."""
    repeat = job.get("repeat") if isinstance(job.get("repeat"), dict) else {}
    if not isinstance(repeat.get("times"), int) or not home.ledger.exists():
        return 0
    return home.ledger.select("SELECT count(*) AS n FROM executions WHERE job_id=? AND "
                              "source='builtin' AND status='unknown'", (job["id"],))[0]["n"]


def _agent_words(job):
    """What runs a job, for ``show`` and its page: ``provider/model`` or the default."""
    if job.get("no_agent"):
        return "none (no_agent)"
    if job.get("watch"):
        return "none (a watchdog: its checks run on the watched jobs' runs)"
    return "/".join(str(job[k]) for k in ("provider", "model") if job.get(k)) or "default runner"


def _repeat_words(job, unknown=0):
    repeat = job.get("repeat") if isinstance(job.get("repeat"), dict) else {}
    done, times = repeat.get("completed") or 0, repeat.get("times")
    words = f"ran {done} of {times} times" if times else \
        f"ran {done} time{'' if done == 1 else 's'}, repeats forever"
    return words + (f" ({unknown} ended unknown: counted, as they may have run)"
                    if unknown else "")


def _span(seconds):
    """A lateness or an age in words an operator reads at a glance: ``45 s``,
    ``10m``, ``13h 51m``, ``2d 3h``."""
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        return f"{seconds} s"
    whole = int(seconds)
    if whole < 120:
        return f"{whole} s"
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    return f"{minutes}m {secs}s" if secs else f"{minutes}m"


def _metric_number(value):
    if isinstance(value, (bool, int)):
        return str(int(value))
    return repr(float(value))


def _metric_label(value):
    """A label value escaped as the exposition format wants: backslash, quote, newline.

    Another control character (ESC, BEL, ...) first becomes the escape the
    command line prints (``\\x1b``), so the label reads that, never a raw byte.
    """
    return _printable(str(value), newlines=True).replace("\\", "\\\\").replace(
        '"', '\\"').replace("\n", "\\n")


def _metric_family(lines, name, kind, help_text, samples):
    """Append one family: ``# HELP``, ``# TYPE``, then ``name{labels} value`` per sample."""
    name = _METRIC_PREFIX + name
    lines.append(f"# HELP {name} {help_text}")
    lines.append(f"# TYPE {name} {kind}")
    for labels, value in samples:
        lines.append(f"{name}{_metric_tags(labels)} {_metric_number(value)}")


def _metric_tags(labels):
    """``{key="value",...}`` of a sample's labels, or nothing for none."""
    tags = ",".join(f'{key}="{_metric_label(val)}"' for key, val in labels.items())
    return f"{{{tags}}}" if tags else ""


def _metric_summary(lines, name, help_text, samples):
    """Append a summary family without quantiles: ``_sum`` and ``_count`` per
    (labels, sum, count)."""
    name = _METRIC_PREFIX + name
    lines.append(f"# HELP {name} {help_text}")
    lines.append(f"# TYPE {name} summary")
    for labels, total, count in samples:
        lines.append(f"{name}_sum{_metric_tags(labels)} {_metric_number(float(total))}")
        lines.append(f"{name}_count{_metric_tags(labels)} {_metric_number(int(count))}")


def _epoch_of(value):
    when = _parse_stored(value) if isinstance(value, str) else None
    return when.timestamp() if when is not None else None


def _metrics_text(home):
    """The home in the Prometheus text exposition format 0.0.4 (reads only).

    Counters come from running totals kept in the ledger, so pruning never
    lowers them; per-job series are labelled ``job_id`` and ``job_name``.
    """
    import sqlite3

    jobs = home.jobs()
    totals = _ledger_totals(home.ledger)
    durations = _latest_durations(home.ledger, [job.get("id") for job in jobs])
    per_job = {name: [] for name in ("info", "enabled", "next", "last", "success", "duration",
                                     "streak", "labels")}
    for job in jobs:
        ids = {"job_id": job.get("id") or "", "job_name": job.get("name") or ""}
        if _policy(job, "labels"):  # as kube-state-metrics' kube_*_labels: label_<key>
            named = dict(ids)
            for key, value in job["labels"].items():  # a hand-edited a.b beside a_b: the
                named.setdefault(_label_metric_name(key), str(value))  # first one stays
            per_job["labels"].append((named, 1))
        schedule = job.get("schedule") if isinstance(job.get("schedule"), dict) else {}
        per_job["info"].append((dict(
            ids, schedule=schedule.get("expr") or schedule.get("display") or
            job.get("schedule_display") or "", tz=_zone_name(_safe_zone(home, job)),
            kind=schedule.get("kind") or "", state=_job_state(job)), 1))
        per_job["enabled"].append((ids, _job_is_runnable(job)))
        for key, field in (("next", "next_run_at"), ("last", "last_run_at")):
            if _epoch_of(job.get(field)) is not None:
                per_job[key].append((ids, _epoch_of(job[field])))
        success = _epoch_of(totals["last_success"].get(ids["job_id"]))
        if success is None and job.get("last_status") == "ok":  # a run before the totals
            success = _epoch_of(job.get("last_run_at"))
        if success is not None:
            per_job["success"].append((ids, success))
        if ids["job_id"] in durations:
            per_job["duration"].append((ids, durations[ids["job_id"]][1]))
        streak = job.get("failure_streak")
        per_job["streak"].append((ids, streak if isinstance(streak, int) else 0))
    lines = []

    def family(*args):
        _metric_family(lines, *args)

    family("job_info", "gauge", "A job's schedule, zone, kind and state (always 1).",
           per_job["info"])
    family("job_labels", "gauge", "A job's labels, each as label_<key> (always 1); join on "
           "job_id to select other series by label.", per_job["labels"])
    family("job_enabled", "gauge", "1 if the job is scheduled (not paused, completed or "
           "in error).", per_job["enabled"])
    family("job_next_run_timestamp_seconds", "gauge", "When the job is due next (Unix time).",
           per_job["next"])
    family("job_last_run_timestamp_seconds", "gauge", "When the job last finished a run.",
           per_job["last"])
    family("job_last_success_timestamp_seconds", "gauge",
           "When a run of the job last completed.", per_job["success"])
    family("job_last_duration_seconds", "gauge", "How long the job's latest finished run took.",
           per_job["duration"])
    family("job_failure_streak", "gauge", "Failed runs in a row (0 after a success).",
           per_job["streak"])
    executions = dict.fromkeys(("completed", "failed", "unknown"), 0)
    executions.update(totals["executions"])
    checked, judged = [], {key.rpartition(":")[0] for key in totals["verdicts"]}
    for job in jobs:
        if job.get("verify") or job.get("id") in judged:
            ids = {"job_id": job.get("id") or "", "job_name": job.get("name") or ""}
            checked += [(dict(ids, verdict=v), totals["verdicts"].get(f"{ids['job_id']}:{v}", 0))
                        for v in _VERIFY_RANK]
    family("job_verdicts_total", "counter", "Runs whose answer was checked, by verdict "
           "(a watchdog's verdicts count for the job it watches).", checked)
    family("executions_total", "counter", "Runs finished, by outcome (unknown: the process "
           "died).", [({"status": s}, n) for s, n in sorted(executions.items())])
    by_job, spans = [], []
    for job in jobs:
        ids = {"job_id": job.get("id") or "", "job_name": job.get("name") or ""}
        by_job += [(dict(ids, status=status), totals["job_executions"].get(
            (ids["job_id"], status), 0)) for status in ("completed", "failed", "unknown")]
        total, count = totals["job_duration"].get(ids["job_id"], (0.0, 0))
        spans.append((ids, total, count))
    family("job_executions_total", "counter", "A job's finished runs, by outcome.", by_job)
    _metric_summary(lines, "job_run_duration_seconds", "How long a job's completed and failed "
                    "runs took, summed and counted.", spans)
    family("skips_total", "counter", "Slots that did not fire, by reason (see 'why').",
           [({"reason": r}, n) for r, n in sorted(totals["skips"].items())])
    opened = dict.fromkeys([name for name, _ in _FAILURE_TYPES] + ["unknown"], 0)
    for row in home.incidents.list(None, None):
        if row["state"] in _OPEN_INCIDENTS:
            opened[row["failure_type"]] = opened.get(row["failure_type"], 0) + 1
    family("incidents_open", "gauge", "Open failure incidents, by failure type.",
           [({"failure_type": t}, n) for t, n in sorted(opened.items())])
    queue = _readable_queue(home, home.now())
    family("deliveries", "gauge", "Rows in the delivery queue, by status.",
           [] if queue is None else [({"status": s}, queue.get(s, 0))
                                     for s in _DELIVERY_STATUSES])
    family("deliveries_retrying", "gauge", "Deliveries waiting for a retry.",
           [] if queue is None else [({}, queue.get("retrying", 0))])
    family("ticker_heartbeat_timestamp_seconds", "gauge", "When the last tick ran (0: never).",
           [({}, _heartbeat_epoch(home))])
    family("ticker_last_success_timestamp_seconds", "gauge",
           "When the last tick succeeded (0: never).",
           [({}, _stamp_file(home, _SUCCESS_FILE)[0] or 0)])
    took = (_read_text(os.path.join(home.path, _TICK_DURATION_FILE)) or "").strip()
    family("tick_duration_seconds", "gauge", "How long the last tick took.",
           [({}, float(took))] if took.replace(".", "", 1).isdigit() else [])
    fleet = _fleet_state(home)
    family("fleet_up", "gauge", "1 if the fleet's etcd answered (a ticker fires only what it "
           "can claim there), 0 if not.", [] if fleet is None else [
               ({"node": fleet["node"]}, int(fleet["up"]))])
    family("fleet_tickers", "gauge", "Tickers of the fleet alive now (their etcd leases).",
           [] if fleet is None or not fleet["up"] else [({}, len(fleet["tickers"]))])
    held = {}
    if fleet is not None and fleet["up"]:
        try:
            for row in home.fleet.rows():
                key = (row["node"] or "", row["status"] or "")
                held[key] = held.get(key, 0) + 1
        except (ClusterError, ValueError):
            pass  # gone since the look above: the next scrape counts them
    family("fleet_claims", "gauge", "The fleet's runs kept in etcd (the newest 20 of each "
           "job), by the node that ran them and their state.",
           [({"node": node, "state": state}, n) for (node, state), n in sorted(held.items())])
    family("build_info", "gauge", "The hermes_cron, Python and SQLite versions (always 1).",
           [({"version": __version__, "python": sys.version.split()[0],
              "sqlite": sqlite3.sqlite_version}, 1)])
    return "\n".join(lines) + "\n"


def _write_metrics_textfile(home, path):
    """Write the metrics to *path* (relative to the home) atomically, for node_exporter."""
    path = os.path.join(home.path, os.path.expanduser(path))
    try:
        # Mode 0644: node_exporter runs as a user of its own.  The temp file
        # does not end in .prom, so the collector never reads half a file.
        _replace_small(path, _metrics_text(home), 0o644)
    except OSError as exc:
        raise _as_storage_error(exc, path) from None


# =============================================================================
# 21. Reports
#    Read-only answers for an operator: doctor's findings and why a job did
#    or did not run at its last slot.
# =============================================================================

_DOCTOR_OVERDUE = 300


def _secret_hint(var):
    """How to give the ticker an environment variable, for each way it is run."""
    return (f"set {var} where the ticker runs (cron(8): {var}=... in the crontab, or "
            f"'. /etc/hermes_cron.env &&' before the command; systemd: "
            f"EnvironmentFile=/etc/hermes_cron.env; Kubernetes: envFrom: secretRef)")


def _preflight(home, job):
    """What makes every run of *job* fail or fall short here, as ``[(code, message)]``.

    Checks what a run will need from this home and environment: an agent
    runner, a provider with a base URL, a model and its key variable set,
    ``smtp`` for ``email:`` targets, the webhook secret variable, the skills.
    Reads only; each message names the fix.
    """
    found = []
    settings = home.settings
    agent = settings.get("agent") or {}
    provider = job.get("provider") or agent.get("provider")
    try:  # a store edited by hand: the tick refuses (pauses) it, and says so here first
        _check_base_url(job, settings)
    except InvalidInputError as exc:
        found.append(("credential_guard", f"{exc}; the tick pauses the job instead of "
                                          f"running it"))
    if job.get("no_agent") or job.get("watch") or home.runner is not None:
        pass  # no agent runs (a watchdog runs its checks alone), or one is given
    elif not provider and not agent.get("command"):
        found.append(("runner_missing", "agent job but no agent runner is configured, so every "
                      "run fails blocked_config: set config agent.command (a command that "
                      "reads the prompt on stdin) or agent.provider and agent.model, pass "
                      "--provider and --model, or run a script with --script NAME --no-agent"))
    elif provider:
        base_url, key_envs, model = _provider_entry(home, provider)
        if job.get("base_url"):
            base_url = job["base_url"]
            if provider == "custom":
                key_envs = [job["api_key_env"]] if job.get("api_key_env") else []
        if not base_url:
            found.append(("provider_unknown", "provider 'custom' needs the job's base URL: "
                          "pass --base-url" if provider == "custom" else
                          f"provider {provider!r} is not in config providers nor a built-in "
                          f"one: add it to config.json providers with its base_url"))
        if not (job.get("model") or model or agent.get("model")):
            found.append(("model_missing", f"provider {provider!r} has no model: pass --model, "
                          f"or set the provider's model in config providers or config "
                          f"agent.model"))
        if key_envs and not any(home.environ.get(e) for e in key_envs):
            found.append(("secret_env_unset", f"provider {provider!r} reads its API key from "
                          f"{' or '.join(key_envs)}, unset in this environment: "
                          f"{_secret_hint(key_envs[0])}"))
    targets = [t.lower() for text in (job.get("deliver"), job.get("failure_deliver")
                                      or settings.get("failure_deliver"))
               if isinstance(text, str) for t in _split_targets(text)]
    smtp = settings.get("smtp") or {}
    if any(t.startswith("email:") for t in targets):
        if not smtp.get("host"):
            found.append(("smtp_missing", "an email: target needs config smtp: add "
                          "\"smtp\": {\"host\": \"mail.example.com\", \"port\": 587, "
                          "\"starttls\": true} to config.json"))
        elif smtp.get("user") and smtp.get("password_env") and \
                not home.environ.get(smtp["password_env"]):
            found.append(("secret_env_unset", f"config smtp.password_env names "
                          f"{smtp['password_env']}, unset in this environment: "
                          f"{_secret_hint(smtp['password_env'])}"))
    secret = settings.get("webhook_secret_env")
    if secret and any(t.startswith("webhook:") for t in targets) and \
            not home.environ.get(secret):
        found.append(("secret_env_unset", f"config webhook_secret_env names {secret}, unset "
                      f"in this environment, so webhook deliveries fail: "
                      f"{_secret_hint(secret)}"))
    for name in job.get("skills") or ():
        if _find_skill(home.skills_dir, name) is None:
            found.append(("skill_missing", f"skill {name!r} not found under {home.skills_dir}: "
                          f"create {os.path.join(home.skills_dir, name, 'SKILL.md')} or drop "
                          f"the skill"))
    found += _upstream_fields_ignored(job) + _cron_findings(home, job)
    return found


def _upstream_fields_ignored(job):
    """``[(code, message)]`` for each field of *job* upstream Hermes acts on and this
    runner only stores (``_STORED_ONLY``): what a run does instead, and how to clear it.

    A finding, not a note: the job asked for behaviour it does not get here.
    """
    found = []
    for key, instead in _STORED_ONLY.items():
        value = job.get(key)
        if value not in (None, ""):
            flag = "--" + key.replace("_", "-")
            found.append(("upstream_field_ignored",
                          f"{key}={value!r} is stored for upstream Hermes, but this runner does "
                          f"not act on it: {instead}; to clear it: edit {job.get('id')} {flag} ''"))
    return found


def _cron_findings(home, job):
    """Preflight findings about a cron job's expression: ``[(code, message)]``.

    ``step_exceeds_range`` everywhere (``*/100`` fires at minute 0 only);
    ``cron_differs_from_upstream`` in a Hermes home (a ``config.yaml``
    beside the cron home, where an upstream ticker ran the job or may run
    it again), when upstream Hermes 0.22 (croniter) and cron(5) fire the
    expression at different instants in the job's zone within two years.
    """
    schedule = job.get("schedule")
    try:  # a stored schedule, or the text of an apply entry; an invalid one is reported
        if isinstance(schedule, str):  # on its own
            schedule = parse_schedule(schedule, now=home.now())
        if not isinstance(schedule, dict) or schedule.get("kind") != "cron":
            return []
        expr = schedule["expr"]
        _cron(expr)
    except (HermesCronError, KeyError, TypeError):
        return []
    found = [("step_exceeds_range",
              f"the {name} field's step {step} in {item!r} ({expr!r}) is larger than the "
              f"field's range, so it matches {name} {value} only: write {value} if that is "
              f"meant (cronie warns about this too)")
             for name, item, step, value in _cron_wide_steps(expr)]
    if os.path.isfile(os.path.join(os.path.dirname(home.path), "config.yaml")):
        try:
            difference = _croniter_difference(expr, home.zone(job), home.now())
        except HermesCronError:  # so is an invalid zone
            difference = None
        if difference:
            found.append(("cron_differs_from_upstream", difference))
    return found


def _doctor_fleet(home, find):
    """Is etcd reachable, and does this node's job set (as its last ``apply`` published
    it) match the other nodes'?"""
    import json

    fleet = home.fleet
    try:
        sets = {key.rsplit("/", 1)[1]: json.loads(value) for key, value, *_ in
                fleet.etcd.range(fleet.key("jobsets") + "/", prefix=True)}
    except ClusterError as exc:
        find(None, "fleet_unreachable", str(exc))
        return
    mine = sets.get(fleet.node)
    if mine is None:
        find(None, "fleet_jobs_unpublished", f"node {fleet.node} has published no job set: "
                                             f"run 'apply FILE' with the fleet's jobs file")
        return
    others = sorted(node for node, entry in sets.items()
                    if node != fleet.node and entry.get("digest") != mine.get("digest"))
    if others:
        find(None, "fleet_jobs_differ", f"this node's jobs (digest {mine.get('digest')}, "
                                        f"{mine.get('jobs')} jobs) differ from those of "
                                        f"{', '.join(others)}: apply the same jobs file on "
                                        f"every node")


def _doctor(home):
    """Read-only health checks; return ``{"ok", "findings": [{job_id, code, message}]}``."""
    now = home.now()
    findings = []

    def find(job_id, code, message):
        findings.append({"job_id": job_id if isinstance(job_id, str) else None, "code": code,
                         "message": redact(message)})

    try:
        settings = home.settings
    except HermesCronError as exc:
        find(None, "config_invalid", str(exc))
        settings = None
    for warning in home.config_warnings:
        find(None, "config_yaml_unreadable" if warning.startswith("config.yaml:") else
             "config_unknown_key", warning)
    info = _status(home)
    age = info["heartbeat_age_seconds"]
    if age is None:
        find(None, "ticker_missing", "no ticker heartbeat: nothing has run 'python -m "
                                     "hermes_cron tick' here (add it to cron or run 'daemon')")
    elif age < -60:
        find(None, "heartbeat_from_future", f"ticker heartbeat is {-age} s in the future: the "
                                            f"clock was ahead at the last tick, or is behind "
                                            f"now (check NTP)")
    elif info["stalled"]:
        find(None, "ticker_stalled", f"ticker heartbeat is {age} s old (stalled after "
                                     f"{_STALLED_AFTER} s): is anything calling tick?")
    if info["last_error"]:
        find(None, "tick_failed", f"the last tick failed: {info['last_error']}")
    jobs = home.jobs()
    for job in jobs:
        try:
            _doctor_job(home, job, now, settings, find)
        except Exception as exc:  # a record edited into nonsense is itself the finding
            find(job.get("id") if isinstance(job.get("id"), str) else None, "job_invalid",
                 f"the job record cannot be checked ({type(exc).__name__}: {exc})")
    broken = _doctor_databases(home, jobs, find)
    if _LEDGER_FILE in broken or _DELIVERIES_FILE in broken:
        return {"ok": False, "findings": findings, "notes": [], "storage": _storage(home)}
    rows = home.ledger.select("SELECT id, job_id, status, claimed_at FROM executions "
                              "WHERE status IN ('claimed','running')")
    limit = 2 * max(settings["run_timeout_seconds"] if settings else 600,
                    settings["script_timeout_seconds"] if settings else 3600)
    for row in rows:
        claimed = _parse_stored(row["claimed_at"])
        if claimed is not None and (now - claimed).total_seconds() > limit:
            find(row["job_id"], "stale_execution",
                 f"execution {row['id']} has been {row['status']} since {row['claimed_at']}; "
                 f"if its process is gone, the next tick on this host marks it unknown")
    if settings and settings.get("cluster"):
        _doctor_fleet(home, find)
    for row in home.deliveries.rows(status="pending", limit=1000):
        created = _parse_stored(row["created_at"])
        if created is not None and (now - created).total_seconds() > _MIN_GRACE:
            find(None, "delivery_pending", f"delivery of execution {row['execution_id']} is "
                                           f"still pending since {row['created_at']}")
    for row in home.incidents.list():
        if row["state"] in ("detected", "alerted"):
            find(row["job_id"], "incident_open", f"open incident {row['id']} "
                                                 f"({row['failure_type']}): "
                                                 f"{_error_summary(row['error'], 240)}")
    held = _recent_skips(home.ledger, now - _RECENT).get("max_parallel", 0)
    if settings and held >= _ROUTINE_HOLD_BACKS:
        limit = settings["max_parallel"]
        find(None, "hold_back_routine",
             f"{held} due slots waited for capacity (max_parallel {limit}) in the last 24 h: "
             f"routine, not a burst; raise max_parallel in config.json (e.g. to {limit * 2}) "
             f"if this machine has room for more runs at once")
    storage = _storage(home)
    for name, mode in storage["journal_modes"].items():
        if mode == "wal" and not storage["wal"]:
            find(None, "sqlite_wal_unsafe", f"{name} uses WAL, but SQLite "
                                            f"{storage['sqlite_version']} has the WAL-reset "
                                            f"corruption bug (fixed in 3.51.3); the next write "
                                            f"switches it to the rollback journal")
    # Decisions an operator made on purpose: shown, not failed on.
    notes = [{"job_id": job["id"], "code": "scan_rules_allowed",
              "message": "the injection scanner lets this job's prompt pass: "
                         + ", ".join(_allowed_rules(job))}
             for job in jobs if isinstance(job.get("id"), str) and _allowed_rules(job)]
    return {"ok": not findings, "findings": findings, "notes": notes, "storage": storage}


def _doctor_databases(home, jobs, find):
    """Findings for the three SQLite files: empty, unreadable, or missing rows the job
    records prove existed; returns the names of the files that cannot be read."""
    import sqlite3

    broken = set()
    for name in (_LEDGER_FILE, _NOTEPAD_FILE, _DELIVERIES_FILE):
        path = os.path.join(home.path, name)
        if not os.path.lexists(path):
            continue
        try:
            if os.lstat(path).st_size == 0:
                find(None, "database_empty", f"{name} is empty (0 bytes): what it held is gone "
                                             f"(a bad restore or a truncation); restore it from "
                                             f"a backup")
                continue
            conn = _read_only(path)
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            finally:
                conn.close()
        except (sqlite3.DatabaseError, HermesCronError, OSError) as exc:
            broken.add(name)
            find(None, "database_unusable", f"{name} cannot be read ({exc}); move it aside and "
                                            f"restore it from a backup")
    if _LEDGER_FILE in broken:
        return broken
    for job in home.ledger.lacking(jobs):
        find(job.get("id"), "ledger_rows_missing",
             f"executions.db has no row for this job's last run ({job.get('last_run_at')}) or "
             f"its claim: the ledger lost rows; slots at or before it are not fired again")
    if _DELIVERIES_FILE not in broken:
        _doctor_lost_deliveries(home, find)
    return broken


def _doctor_lost_deliveries(home, find):
    """Runs whose delivery the queue must know (sent, failed or waiting) that it does not."""
    rows = home.ledger.select("SELECT id, job_id, delivery_outcome FROM executions WHERE "
                              "delivery_outcome IN ('delivered','failed') ORDER BY "
                              "julianday(claimed_at) DESC LIMIT 200")
    if not rows:
        return
    known = home.deliveries.known([r["id"] for r in rows])
    for job_id in dict.fromkeys(r["job_id"] for r in rows if r["id"] not in known):
        find(job_id, "deliveries_rows_missing",
             "deliveries.db has no record of this job's recent deliveries (sent, failed or "
             "waiting for a retry): the queue lost rows; pending retries will not be sent")


def _storage(home):
    """The SQLite version, the journal mode stores get, and the mode of each file."""
    import sqlite3

    return {"sqlite_version": sqlite3.sqlite_version, "wal": _wal_wanted(home.environ),
            "journal_modes": {name: _journal_of(os.path.join(home.path, name))
                              for name in (_LEDGER_FILE, _NOTEPAD_FILE, _DELIVERIES_FILE)
                              if os.path.exists(os.path.join(home.path, name))}}


def _doctor_job(home, job, now, settings, find):
    job_id = job.get("id")
    state = _job_state(job)
    if state == "completed":
        return
    reason = _unrunnable(job)
    if reason is not None:
        find(job_id, "unrunnable", f"the job cannot run as stored: {reason}")
        return
    status = job.get("last_status")
    if state == "error" and str(job.get("last_error") or "").startswith("one-shot retired"):
        find(job_id, "oneshot_missed", f"{job['last_error']} (remove it, or resume it with "
                                       f"--at ISO to run it)")
    elif status == "error":
        find(job_id, "last_run_failed",
             f"last run failed: {_error_summary(job.get('last_error') or '?', 240)}")
    elif status == "blocked_config":
        find(job_id, "last_run_blocked",
             f"last run was blocked: {_error_summary(job.get('last_error') or '?', 240)}")
    elif status == "delivery_failed":
        find(job_id, "not_delivered", f"result not delivered: "
                                      f"{job.get('last_delivery_error') or '?'}")
    dispatch = job.get("last_dispatch") if isinstance(job.get("last_dispatch"), dict) else {}
    if dispatch.get("kind") in ("late", "catch_up"):
        find(job_id, f"fire_{dispatch['kind']}",
             f"last fire was {dispatch['kind'].replace('_', '-')}: scheduled "
             f"{dispatch.get('scheduled_at')}, {_span(dispatch.get('lateness_seconds'))} late")
    for target in _split_targets(job.get("deliver") or "local"):
        if target.lower() != "local" and not _real_target(target):
            find(job_id, "target_not_configured", f"delivery target {target!r} is not "
                                                  f"supported here: results stay local")
    try:
        schedule = _checked_schedule(job.get("schedule"), job)
        if schedule["kind"] == "cron":
            cron = _cron(schedule["expr"])
            if not cron.fields[5]:
                zone = home.zone(job)
                fires = _schedule_fires(schedule, zone, now, 3)
                find(job_id, "day_fields_or",
                     "day-of-month and day-of-week are both restricted, so a day matches if "
                     "EITHER matches (cronie's rule); next: " + ", ".join(_iso(f) for f in fires))
    except HermesCronError as exc:
        find(job_id, "schedule_invalid", f"schedule cannot be used: {exc}")
    try:  # the home's default zone is resolved once, not read from /etc/localtime per job
        home.zone(job) if settings is not None else _job_zone(job, {}, home.environ)
    except HermesCronError as exc:
        find(job_id, "timezone_invalid", str(exc))
    for gap in _upstream_gaps(job, home.path):
        find(job_id, "upstream_cannot_run", f"an upstream Hermes ticker could not run this "
                                            f"job as written: {gap}")
    if job.get("no_agent") and not job.get("script"):
        find(job_id, "no_agent_without_script", "no_agent job has no script")
    if job.get("script"):
        try:
            _check_script(job["script"], home.scripts_dir)
        except HermesCronError as exc:
            find(job_id, "script_invalid", str(exc))
    workdir = job.get("workdir")
    if workdir and not os.path.isdir(workdir):
        find(job_id, "workdir_missing", f"workdir not found: {workdir}")
    if settings is not None:  # a broken config is reported once, as config_invalid
        for code, message in _preflight(home, job):
            find(job_id, code, message)
    if state != "scheduled":
        return
    next_run = job.get("next_run_at")
    parsed = _parse_stored(next_run)
    if next_run is None:
        find(job_id, "next_run_missing", "active job has no next_run_at")
    elif parsed is None:
        find(job_id, "next_run_invalid", f"next_run_at is not a valid timestamp: {next_run!r}")
    elif (now - parsed).total_seconds() > _DOCTOR_OVERDUE:
        late = int((now - parsed).total_seconds())
        find(job_id, "overdue", f"next_run_at {next_run} is {late} s overdue: the job is not "
                                f"firing (is anything calling tick?)")
    else:
        try:
            schedule = _checked_schedule(job.get("schedule"), job)
            nearest = _next_slot(schedule, home.zone(job), now) \
                if schedule["kind"] in ("cron", "interval") else None
        except HermesCronError:
            nearest = None  # reported above
        if nearest is not None and parsed > nearest:
            find(job_id, "next_run_from_future",
                 f"next_run_at {next_run} lies beyond what the schedule allows from now "
                 f"(next slot {_iso(nearest)}): the clock was ahead when it was computed; "
                 f"the next tick pulls it back")


def _why(home, ref):
    """Explain from the store why a job did or did not run at its last due slot."""
    now = home.now()
    job = home.job(ref)
    out = {"job_id": job["id"], "slot": None, "verdict": None, "message": None,
           "execution": None, "skip": None, "checked": None}
    state = _job_state(job)
    try:
        schedule = _checked_schedule(job.get("schedule"), job)
        zone = home.zone(job)
    except HermesCronError as exc:
        out.update(verdict="unrunnable", message=f"its schedule cannot be used: {exc}")
        return out
    if schedule["kind"] == "once":
        slot = _parse_stored(schedule["run_at"])
    elif schedule["kind"] == "interval":
        dispatch = job.get("last_dispatch") or {}
        slot = _parse_stored(dispatch.get("scheduled_at") if isinstance(dispatch, dict)
                             else None)
        nxt = _parse_stored(job.get("next_run_at"))
        if nxt is not None and nxt <= now:
            slot = nxt
    else:
        slot = _latest_slot(schedule, zone, None, now)
    created = _parse_stored(job.get("created_at"))
    if slot is not None and created is not None and slot <= created and \
            schedule["kind"] != "once":
        slot = None  # the job did not exist yet at that slot
    instant = _instant(slot) if slot is not None else None
    out["slot"] = instant
    rows = home.ledger.select("SELECT * FROM executions WHERE job_id=? AND scheduled_instant=? "
                              "ORDER BY rowid DESC LIMIT 1", (job["id"], instant)) \
        if instant else []
    skips = home.ledger.select("SELECT * FROM cron_skips WHERE job_id=? AND (scheduled_instant=? "
                               "OR scheduled_instant IS NULL) ORDER BY at DESC LIMIT 1",
                               (job["id"], instant)) if instant else []
    if rows:
        row = out["execution"] = rows[0]
        verdict = {"completed": "ran", "failed": "ran_failed", "unknown": "unknown",
                   "running": "running", "claimed": "running"}[row["status"]]
        text = {"ran": "it ran and completed", "ran_failed": "it ran and failed",
                "unknown": "its run's outcome is unknown (the process died mid-run)",
                "running": "it is running now"}[verdict]
        detail = f": {_error_summary(row['error'])}" if row["error"] else ""
        checks = home.ledger.verdicts([row["id"]]).get(row["id"])
        if checks:  # what its checks found: the run's own, then watchdogs'
            out["checked"] = [{"by": c["checked_by"], "verdict": c["verdict"]} for c in checks]
            detail += "; its answer was " + ", ".join(
                c["verdict"] + ("" if c["checked_by"] == job["id"] else
                                f" (watchdog {c['checked_by']})") for c in checks)
        out.update(verdict=verdict, message=f"slot {instant}: {text} (execution {row['id']}, "
                                            f"{row['source']}){detail}")
    elif skips:
        skip = out["skip"] = skips[0]
        what = "held back" if skip["reason"] == "max_parallel" else "skipped"
        out.update(verdict=skip["reason"], message=f"slot {instant}: {what} "
                                                   f"({skip['reason']}): {skip['detail']}")
    elif state == "paused":
        out.update(verdict="paused", message=f"the job is paused since {job.get('paused_at')}: "
                                             f"{job.get('paused_reason')}")
    elif slot is None or slot > now:
        nxt = _parse_stored(job.get("next_run_at"))
        delay = _jitter(job, nxt)
        later = f" (it fires at {_iso(nxt + timedelta(seconds=delay))}: jitter {delay} s)" \
            if delay else ""
        out.update(verdict="not_due", message=f"no slot has come due yet; next run "
                                              f"{job.get('next_run_at')}{later}")
    elif _jitter(job, slot) and now < slot + timedelta(seconds=_jitter(job, slot)):
        out.update(verdict="jitter", message=f"slot {instant} waits its fixed jitter of "
                                             f"{_jitter(job, slot)} s: it fires at "
                                             f"{_iso(slot + timedelta(seconds=_jitter(job, slot)))}")
    else:
        age = _status(home)["heartbeat_age_seconds"]
        beat = f"last ticker heartbeat {_age_words(age)}" if age is not None else \
            "no ticker heartbeat"
        out.update(verdict="no_record", message=f"slot {instant} came due but nothing ran or "
                                                f"skipped it ({beat}); next run "
                                                f"{job.get('next_run_at')}")
    if state == "paused" and out["verdict"] != "paused":
        out["message"] += f"; the job is paused now: {job.get('paused_reason')}"
    return out


# =============================================================================
# 22. Export
#    crontab, systemd and Kubernetes definitions that fire the jobs.
# =============================================================================

_DOW_SYSTEMD = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
# systemd's TimeoutStopSec and Kubernetes' terminationGracePeriodSeconds for the
# daemon: above its drain ($HERMES_CRON_DRAIN_SECONDS, 30) plus the kill grace
# ($HERMES_CRON_KILL_GRACE_SECONDS, 10), so the engine's SIGKILL never cuts
# short a job's SIGTERM handler or the daemon finishing its rows.
_EXPORT_STOP_SECONDS = 60
# The names cron(8) may know UTC by: a job in UTC is exact on a system in any of them.
_UTC_NAMES = frozenset(("UTC", "UCT", "GMT", "GMT0", "GMT+0", "GMT-0", "Greenwich",
                        "Universal", "Zulu"))


def _export(home, engine, refs, tick=False, image=None):
    """Render definitions for crontab, systemd or kubernetes; raise if one cannot be exact.

    Without jobs: the every-minute tick line for crontab; for systemd and
    kubernetes the long-running ``daemon`` (or, with *tick*, the tick timer or
    CronJob).  With jobs: one entry per job calling ``run JOB --occurrence auto``.
    """
    jobs = [home.job(ref) for ref in refs]
    if tick and jobs:
        raise InvalidInputError("export --tick takes no JOB", " ".join(refs),
                                "export the tick alone, or the jobs without --tick")
    python = sys.executable
    here = os.path.dirname(os.path.abspath(__file__))
    program = f"{_shell_quote(python)} -m hermes_cron --home {_shell_quote(home.path)}"
    base = f"cd {_shell_quote(here)} && {program}"
    if engine == "crontab":
        # cron(8) reads a bare % in a command as a newline: a home path may hold one.
        line = _cron_escape(f"* * * * * {base} tick >>{_shell_quote(home.path)}/tick.log 2>&1")
        if not jobs:
            return line + "\n"
        # No CRON_TZ: Debian's and Ubuntu's cron ignore it, so a line is exact
        # only when the job's zone is the one every cron(8) uses, the system's.
        system = _cron_zone_name(_zone_name(_system_zone(home.environ)))
        lines = []
        for job in jobs:
            expr, zone = _exportable(home, job, "crontab")
            if _cron_zone_name(zone) != system:
                raise InvalidInputError(
                    f"cron(8) fires on the system's zone ({system}), not the job's ({zone}); "
                    f"many crons ignore CRON_TZ", job["id"],
                    f"keep the job in the every-minute tick instead: {line}")
            lines.append(_cron_escape(f"{expr} {base} run {job['id']} --occurrence auto "
                                      f">>{_shell_quote(home.path)}/run.log 2>&1"))
        return "\n".join(lines) + "\n"
    if engine == "systemd":
        if not jobs and not tick:
            return _systemd_daemon("hermes-cron",
                                   f"cd {_shell_quote(here)} && exec {program} daemon")
        units = []
        if not jobs:
            units.append(_systemd_pair("hermes-cron-tick", f"{base} tick",
                                       "*-*-* *:*:00", "hermes_cron tick"))
        for job in jobs:
            expr, zone = _exportable(home, job, "systemd")
            units.append(_systemd_pair(f"hermes-cron-{job['id']}",
                                       f"{base} {' '.join(_run_args(job))}",
                                       _on_calendar(expr, zone),
                                       "hermes_cron job "
                                       + _printable(job.get("name") or job["id"]), job))
        return "\n".join(units)
    import json

    manifests = _kubernetes_shared(image)
    if not jobs and not tick:
        manifests.append(_kubernetes_daemon(image))
    for job in jobs or ([None] if tick else []):
        if job is None:
            name, schedule, zone = "hermes-cron-tick", "* * * * *", None
            args = ["tick"]
        else:
            schedule, zone = _exportable(home, job, "kubernetes")
            name, args = f"hermes-cron-{job['id']}", _run_args(job)
        manifests.append(_kubernetes_cronjob(name, schedule, zone, args, image, job or {}))
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": manifests},
                      indent=2) + "\n"


def _run_args(job):
    """The ``run`` an exported job's timer or CronJob calls: ``--retried`` when the
    engine runs it again on failure (its ``retries``)."""
    retried = ["--retried"] if _policy(job, "retries", 0) else []
    return ["run", job["id"], "--occurrence", "auto"] + retried


def _kubernetes_cronjob(name, schedule, zone, args, image, job):
    """A CronJob calling ``run JOB --occurrence auto``, with the job's policies mapped
    onto its fields (concurrency, grace, history, timeout, retries, labels, env)."""
    labels = dict(_policy(job, "labels", {}), app="hermes-cron")
    pod = dict(_kubernetes_pod(args, image, _policy(job, "env", {})), restartPolicy="Never")
    history = _policy(job, "history_limit", 3)
    timeout = _policy(job, "timeout_seconds")
    template = {"backoffLimit": _policy(job, "retries", 0),
                "template": {"metadata": {"labels": labels}, "spec": pod}}
    if timeout:  # a backstop behind the run's own limit, which records the timeout
        template["activeDeadlineSeconds"] = int(timeout) + _EXPORT_STOP_SECONDS
    spec = {"schedule": schedule,
            "concurrencyPolicy": _policy(job, "concurrency", "forbid").capitalize(),
            "startingDeadlineSeconds": _policy(job, "misfire_grace_seconds") or 120,
            "successfulJobsHistoryLimit": history, "failedJobsHistoryLimit": history,
            "jobTemplate": {"metadata": {"labels": labels}, "spec": template}}
    if _policy(job, "catch_up") is True:
        del spec["startingDeadlineSeconds"]  # the latest missed schedule starts however late
    if zone:
        spec["timeZone"] = zone
    return {"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": name, "labels": labels}, "spec": spec}


def _kubernetes_shared(image):
    """The module's ConfigMap (unless *image* has it installed) and the home's claim."""
    shared = []
    if image is None:
        path = os.path.abspath(__file__)
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
        except OSError as exc:
            raise InvalidInputError("the module's source cannot be read for its ConfigMap",
                                    path, f"pass --image IMAGE, an image with hermes_cron "
                                          f"installed ({exc.strerror or exc})") from None
        shared.append({"apiVersion": "v1", "kind": "ConfigMap",
                       "metadata": {"name": "hermes-cron-app", "labels": {"app": "hermes-cron"}},
                       "data": {"hermes_cron.py": source}})
    shared.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                   "metadata": {"name": "hermes-cron-home", "labels": {"app": "hermes-cron"}},
                   "spec": {"accessModes": ["ReadWriteOnce"],
                            "resources": {"requests": {"storage": "1Gi"}}}})
    return shared


def _kubernetes_container(name, command, image, env=None):
    """A container running *command* against the home, with the secrets in its environment.

    The Secret is optional: a cluster without provider keys or webhook/SMTP
    secrets still starts the pod.  A job's *env* is listed too: a plain
    value as it is, a passed-through name from the Secret's key of that name.
    """
    container = {"name": name, "image": image or "python:3-slim", "command": command,
                 "envFrom": [{"secretRef": {"name": "hermes-cron-secrets", "optional": True}}],
                 "volumeMounts": [{"name": "home", "mountPath": "/data"}]}
    if env:
        container["env"] = [{"name": key, "value": value} if value is not None else {
            "name": key, "valueFrom": {"secretKeyRef": {
                "name": "hermes-cron-secrets", "key": key, "optional": True}}}
            for key, value in sorted(env.items())]
    if image is None:  # the module comes from the ConfigMap: -m finds it in the cwd
        container["workingDir"] = "/app"
        container["volumeMounts"].insert(0, {"name": "app", "mountPath": "/app"})
    return container


def _kubernetes_pod(args, image=None, env=None):
    """A pod spec running ``python -m hermes_cron --home /data/cron ARGS``."""
    volumes = [{"name": "home", "persistentVolumeClaim": {"claimName": "hermes-cron-home"}}]
    if image is None:
        volumes.insert(0, {"name": "app", "configMap": {"name": "hermes-cron-app"}})
    return {"containers": [_kubernetes_container(
        "hermes-cron", ["python", "-m", "hermes_cron", "--home", "/data/cron"] + args, image,
        env)], "volumes": volumes}


def _kubernetes_daemon(image=None):
    """A one-replica daemon Deployment that never overlaps itself.

    ``Recreate`` stops the old pod before a new one starts and ``ReadWriteOnce``
    keeps the home on one node, where its ``flock`` locks hold.  Before the
    daemon starts, an init container makes the store match ``jobs.json`` from
    the ConfigMap ``hermes-cron-jobs`` (``apply``; jobs not in it are kept).
    """
    labels = {"app": "hermes-cron", "component": "daemon"}
    pod = dict(_kubernetes_pod(["daemon"], image),
               terminationGracePeriodSeconds=_EXPORT_STOP_SECONDS)
    init = _kubernetes_container("apply-jobs", [
        "python", "-m", "hermes_cron", "--home", "/data/cron", "apply",
        "/etc/hermes-cron/jobs.json"], image)
    init["volumeMounts"].append({"name": "jobs", "mountPath": "/etc/hermes-cron",
                                 "readOnly": True})
    pod["initContainers"] = [init]
    pod["volumes"].append({"name": "jobs", "configMap": {"name": "hermes-cron-jobs"}})
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "hermes-cron", "labels": labels},
            "spec": {"replicas": 1, "strategy": {"type": "Recreate"},
                     "selector": {"matchLabels": labels},
                     "template": {"metadata": {"labels": labels}, "spec": pod}}}


def _kubernetes_fleet(image, replicas, urls):
    """A fleet of daemons: *replicas* pods, on different nodes where there are enough,
    each with its home in an ``emptyDir`` (its local ledger), the config's ``cluster``
    naming the etcd members *urls* (each pod is a node, named as its pod), and the
    jobs from the ConfigMap ``hermes-cron-jobs`` applied before the daemon starts."""
    import json

    items = [item for item in _kubernetes_shared(image) if item["kind"] == "ConfigMap"]
    items.append({"apiVersion": "v1", "kind": "ConfigMap",
                  "metadata": {"name": "hermes-cron-config", "labels": {"app": "hermes-cron"}},
                  "data": {"config.json": json.dumps({"cluster": {"etcd": urls}}, indent=2)
                           + "\n"}})
    labels = {"app": "hermes-cron", "component": "fleet"}
    deployment = _kubernetes_daemon(image)
    pod = deployment["spec"]["template"]["spec"]
    pod["volumes"] = [{"name": "home", "emptyDir": {}} if volume["name"] == "home" else volume
                      for volume in pod["volumes"]]
    pod["volumes"].append({"name": "config", "configMap": {"name": "hermes-cron-config"}})
    config = _kubernetes_container("config", ["sh", "-c", "mkdir -p /data/cron && cp "
                                              "/etc/hermes-cron-config/config.json /data/cron/"],
                                   image)
    config["volumeMounts"].append({"name": "config", "mountPath": "/etc/hermes-cron-config",
                                   "readOnly": True})
    pod["initContainers"].insert(0, config)
    pod["affinity"] = {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": labels},
                                            "topologyKey": "kubernetes.io/hostname"}}]}}
    deployment["metadata"] = {"name": "hermes-cron-fleet", "labels": labels}
    deployment["spec"].update(replicas=replicas, selector={"matchLabels": labels},
                              strategy={"type": "RollingUpdate", "rollingUpdate": {
                                  "maxSurge": 1, "maxUnavailable": 0}})
    deployment["spec"]["template"]["metadata"] = {"labels": labels}
    items.append(deployment)
    return items


def _exportable(home, job, engine):
    """Return (five-field expression, zone name) a job runs on, or refuse with the reason."""
    schedule = _checked_schedule(job.get("schedule"), job)
    if schedule["kind"] != "cron":
        raise InvalidInputError(
            f"{engine} cannot express this job's {schedule['kind']} schedule exactly", job["id"],
            "keep it in hermes_cron's own tick (export without JOB), or give it a cron schedule")
    cron = _cron(schedule["expr"])
    text = schedule["expr"].strip()
    if cron.tz:
        text = text.partition(" ")[2].strip()
    fields = _MACROS.get(text.lower(), text).split()
    if any(c in f.upper() for f in fields[2:5:2] for c in "LW#"):
        raise InvalidInputError(f"{engine} has no L, W or # day rules", schedule["expr"],
                                "keep this job in hermes_cron's own tick")
    dom, dow = fields[2], fields[4]
    if engine != "crontab" and (dom[0] in "*?") != (dom in ("*", "?")) and dow not in ("*", "?") \
            or engine != "crontab" and (dow[0] in "*?") != (dow in ("*", "?")) \
            and dom not in ("*", "?"):
        raise InvalidInputError(
            f"{engine} combines a stepped '*/' day field with the other day field differently "
            f"from cronie", schedule["expr"], "keep this job in hermes_cron's own tick")
    if engine == "systemd" and dom not in ("*", "?") and dow not in ("*", "?"):
        raise InvalidInputError("systemd cannot express cronie's rule that a day matches "
                                "day-of-month OR day-of-week", schedule["expr"],
                                "split it into two jobs, or keep it in hermes_cron's own tick")
    if cron.tz:
        return " ".join(fields), cron.tz
    zone = home.zone(job)
    name = _zone_name(zone)
    if zone is _UTC or name in ("UTC", "UTC+00:00"):
        name = "UTC"
    elif isinstance(zone, timezone):
        raise InvalidInputError(f"{engine} needs a named time zone, not a fixed offset",
                                name, "set --tz to an IANA zone such as Europe/Berlin")
    return " ".join(fields), name


def _cron_zone_name(name):
    """*name* with UTC's aliases (``Etc/UTC``, ``GMT``...) written ``UTC``."""
    return "UTC" if (name[4:] if name.startswith("Etc/") else name) in _UTC_NAMES else name


def _on_calendar(expr, zone):
    """Translate five cron fields (no L/W/#, not both day fields restricted) to OnCalendar.

    Each field is written as the explicit values the expression allows, so
    steps and ranges mean exactly what they mean to cronie.
    """
    cron = _cron(expr)

    def values(allowed, low, high):
        if set(allowed) >= set(range(low, high + 1)):
            return "*"
        runs, out = sorted(allowed), []
        start = prev = runs[0]
        for v in runs[1:] + [None]:
            if v is not None and v == prev + 1:
                prev = v
                continue
            out.append(f"{start:02d}" if start == prev else f"{start:02d}..{prev:02d}")
            if v is not None:
                start = prev = v
        return ",".join(out)

    minutes, hours, dom, months, dow, _ = cron.fields
    days = "" if len(dow) == 7 else ",".join(_DOW_SYSTEMD[d] for d in sorted(dow)) + " "
    return (f"{days}*-{values(months, 1, 12)}-{values(dom, 1, 31)} "
            f"{values(hours, 0, 23)}:{values(minutes, 0, 59)}:00 {zone}")


def _systemd_daemon(unit, command):
    """A long-running daemon service: a long job never delays the others' slots.

    *command* must ``exec`` the daemon: as the main process it alone gets
    ``KillMode=mixed``'s SIGTERM and stops its jobs' process groups itself.
    """
    return (f"# {unit}.service\n[Unit]\nDescription=hermes_cron daemon\n"
            f"Wants=network-online.target\nAfter=network-online.target\n\n"
            f"[Service]\nType=exec\nExecStart=/bin/sh -c {_unit_escape(_shell_quote(command))}\n"
            f"Restart=on-failure\nRestartSec=5\nKillMode=mixed\n"
            f"TimeoutStopSec={_EXPORT_STOP_SECONDS}\n\n"
            f"[Install]\nWantedBy=multi-user.target\n")


def _systemd_pair(unit, command, calendar, description, job=None):
    description = description.replace("%", "%%")  # a specifier there; no escapes
    unit_extra, service, timer = _systemd_policies(job or {})
    return (f"# {unit}.service\n[Unit]\nDescription={description}\n{unit_extra}\n"
            f"[Service]\nType=oneshot\n"
            f"ExecStart=/bin/sh -c {_unit_escape(_shell_quote(command))}\n{service}\n"
            f"# {unit}.timer\n[Unit]\nDescription={description} (timer)\n\n[Timer]\n"
            f"OnCalendar={calendar}\nAccuracySec=1s\n{timer}Unit={unit}.service\n\n"
            f"[Install]\nWantedBy=timers.target\n")


def _systemd_policies(job):
    """The job's policies as unit lines: ([Unit], [Service], [Timer]) texts.

    A oneshot's run is its start-up, so its timeout is ``TimeoutStartSec``
    (``RuntimeMaxSec`` does not apply to ``Type=oneshot``), a backstop behind
    the run's own limit.  Retries are ``Restart=on-failure`` every backoff,
    never after a refusal (exit 2, 3 or 4), without a start limit that the
    timer's own starts would also count; jitter is systemd's fixed random
    delay; ``catch_up`` is ``Persistent``.
    """
    unit, service = "", ""
    timeout = _policy(job, "timeout_seconds")
    if timeout:
        service += f"TimeoutStartSec={int(timeout) + _EXPORT_STOP_SECONDS}\n"
    for name, value in sorted(_policy(job, "env", {}).items()):
        if value is None:
            service += f"PassEnvironment={name}\n"
        elif any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise InvalidInputError(f"systemd's Environment= cannot hold the control "
                                    f"characters in env {name}", value,
                                    "keep this job in hermes_cron's own tick")
        else:
            quoted = value.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
            service += f'Environment="{name}={quoted}"\n'
    if _policy(job, "retries", 0):
        unit += "StartLimitIntervalSec=0\n"
        service += (f"Restart=on-failure\nRestartSec={int(_policy(job, 'retry_backoff_seconds', 60))}"
                    f"\nRestartPreventExitStatus={EXIT_USAGE} {EXIT_NOT_FOUND} {EXIT_BUSY}\n")
    timer = f"Persistent={'true' if _policy(job, 'catch_up') is True else 'false'}\n"
    jitter = _policy(job, "jitter_seconds")
    if jitter:
        timer += f"RandomizedDelaySec={int(jitter)}\nFixedRandomDelay=yes\n"
    return unit, service, timer


def _shell_quote(text):
    import shlex

    return shlex.quote(str(text))


def _cron_escape(line):
    """A crontab line whose command keeps its ``%`` (cron(8) ends a command at one)."""
    return line.replace("%", "\\%")


def _unit_escape(value):
    """A command line systemd reads back as written: ``%`` specifiers, ``$``
    variables and ``\\`` escapes are doubled."""
    return value.replace("\\", "\\\\").replace("%", "%%").replace("$", "$$")


# =============================================================================
# 23. Changing jobs
#    What the API and apply share: creating a job, the fields it takes,
#    the rule inside a job, forgetting a removed one.
# =============================================================================

_PLAIN_FIELDS = ("prompt", "tz", "script", "workdir", "base_url", "provider", "model",
                 "api_key_env")
_EDITABLE = frozenset(_PLAIN_FIELDS + _UPSTREAM_OPTIONS + (
    "schedule", "name", "deliver", "repeat", "skills", "no_agent", "context_from",
    "failure_deliver", "allow_scan", "verify", "on_unverified", "watch") + _POLICY_FIELDS)


def _set_policies(home, job, given, now):
    """Validate the policy fields *given* (None: left as they are) into *job*, in place.

    A jitter must fit in the slot's grace (it counts inside it) with a tick's
    minute to spare, and an env
    value that looks like a secret is refused: jobs.json is no place for one,
    so the job names the variable to pass through instead.
    """
    kind = job["schedule"]["kind"]
    for key, value in given.items():
        if value is None:
            continue
        checked = _check_policy(key, value, kind)
        if checked is None:
            job.pop(key, None)
        else:
            job[key] = checked
    for key in ("catch_up", "misfire_grace_seconds"):
        if kind == "once" and key in job:
            raise InvalidInputError(f"{key} is only supported for recurring jobs", job[key],
                                    f"clear it ({key} '') before making the job a one-shot")
    for name, value in _policy(job, "env").items():
        if value is not None and _secret_looking(name, value):
            raise InvalidInputError(
                f"env {name} looks like a secret, and jobs.json keeps its values in plain text",
                "[REDACTED]", f"export {name} where the ticker runs and pass it through by "
                              f"name: --env {name}")
    spread = _policy(job, "jitter_seconds", 0)
    if spread:
        zone = home.zone(job)
        slot = _parse_stored(job.get("next_run_at")) or now
        grace = _slot_grace(job, job["schedule"], slot, zone)
        # A minutely ticker may first see the jittered instant up to a minute
        # after it, and the slot must still be inside its grace then.
        if spread > grace - _TICK_PERIOD:
            raise InvalidInputError(
                f"jitter_seconds {spread} does not fit in the slot's grace ({grace} s) with "
                f"the minute a tick may take to see it", spread,
                f"use at most {max(grace - _TICK_PERIOD, 0)} s, or a longer grace "
                f"(misfire_grace_seconds)")


def _secret_looking(name, value):
    """True if an env value would be a credential on disk: by its name, its shape or a rule."""
    text = value.strip()
    return bool(text) and (_redactor().kind(name) >= 2 or redact(f"{name}={text}") !=
                           f"{name}={text}" or _redactor().random_looking(text, False))


def _check_not_in_job(home, command):
    """Refuse job changes from inside a running job unless the config allows them."""
    job_id = home.environ.get(_ENV_PREFIX + "JOB_ID")
    if job_id and not home.settings.get("allow_agent_scheduling"):
        raise InvalidInputError(
            f"'{command}' is refused inside a running job (HERMES_CRON_JOB_ID={job_id})",
            None, "set allow_agent_scheduling to true in config.json to let jobs change jobs")


def _forget_job(home, job):
    """Delete what a removed job leaves beside the store: output, notepad, ledger rows."""
    import shutil

    job_id = job.get("id")
    if isinstance(job_id, str) and _safe_component(job_id):
        try:  # never delete through a symlink that leads out of the home
            shutil.rmtree(_output_dir(home, job_id), ignore_errors=True)
        except InvalidInputError:
            pass
        home.notepad.clear(job_id)
    if isinstance(job_id, str):
        home.ledger.forget(job_id, home.now())


def _plain_fields(fields, clearing=False):
    """Validate the plain text fields of a job; ``""`` clears them when *clearing*."""
    out = {}
    for key, value in fields.items():
        if value is None or (clearing and value == "" and key != "prompt"):
            out[key] = None
            continue
        if not isinstance(value, str):
            raise InvalidInputError(f"{key} must be text", value, f"pass {key} as a string")
        value = value.strip()
        if key == "tz" and value:
            _zone(value)
        if key == "workdir" and value:
            value = os.path.expanduser(value)
        if key == "base_url":
            value = value.rstrip("/")
        out[key] = value if value or key == "prompt" else None
    return out


def _add_job(home, schedule, prompt="", *, name=None, tz=None, deliver=None, repeat=None,
             skills=None, script=None, no_agent=False, context_from=None, model=None,
             provider=None, base_url=None, workdir=None, paused=False, reason=None,
             failure_deliver=None, allow_scan=None, api_key_env=None, reasoning_effort=None,
             monitor_script=None, monitor_url=None, interpreter=None, verify=None,
             on_unverified=None, watch=None, timeout_seconds=None, retries=None,
             retry_backoff_seconds=None, jitter_seconds=None, concurrency=None, env=None,
             labels=None, misfire_grace_seconds=None, catch_up=None, history_limit=None):
    """``CronHome.add_job`` on the scheduler *home* (its store may be a job list in memory)."""
    _check_not_in_job(home, "add")
    now = home.now()
    settings = home.settings
    fields = {"prompt": prompt, "tz": tz, "script": script, "workdir": workdir,
              "base_url": base_url, "provider": provider, "model": model,
              "api_key_env": api_key_env}
    job = _plain_fields(fields)
    if job["api_key_env"] is None:
        del job["api_key_env"]  # a field of custom-provider jobs only
    zone = home.zone(job)
    parsed = parse_schedule(schedule, now=now, tz=zone)
    skills = _check_skills(skills)
    times = _normalize_repeat(repeat)
    if parsed["kind"] == "once" and times is None:
        times = 1
    job.update(
        id=os.urandom(6).hex(), skills=skills, skill=skills[0] if skills else None,
        no_agent=bool(no_agent), schedule=parsed, schedule_display=parsed["display"],
        repeat={"times": times, "completed": 0}, enabled=not paused,
        state="paused" if paused else "scheduled",
        paused_at=_iso(now.astimezone(zone)) if paused else None,
        paused_reason=(reason or _DEFAULT_PAUSE_REASON) if paused else None,
        created_at=_iso(now.astimezone(zone)), last_run_at=None, last_status=None,
        last_error=None, last_delivery_error=None, failure_streak=0,
        deliver=_check_deliver(deliver))
    if failure_deliver:
        job["failure_deliver"] = _check_deliver(failure_deliver)
    stored_only = _stored_only_fields(
        {"reasoning_effort": reasoning_effort, "monitor_script": monitor_script,
         "monitor_url": monitor_url, "interpreter": interpreter}, home.scripts_dir)
    job.update((k, v) for k, v in stored_only.items() if v is not None)
    if reason and not paused:
        raise InvalidInputError("a pause reason needs --paused", reason,
                                "add --paused or drop --reason")
    checks = _check_verify(verify, home.scripts_dir, job.get("workdir"))
    if checks:
        job["verify"] = checks
    if _check_on_unverified(on_unverified):
        job["on_unverified"] = on_unverified
    if watch:
        job["watch"] = watch  # resolved to ids against the store below
    _set_policies(home, job, {
        "timeout_seconds": timeout_seconds, "retries": retries,
        "retry_backoff_seconds": retry_backoff_seconds, "jitter_seconds": jitter_seconds,
        "concurrency": concurrency, "env": env, "labels": labels,
        "misfire_grace_seconds": misfire_grace_seconds, "catch_up": catch_up,
        "history_limit": history_limit}, now)
    job["name"] = _job_name(name, job)
    allow = _check_allow_scan(allow_scan)
    if allow:
        job["allow_scan"] = allow
    _check_job(job, settings, home.scripts_dir, now, zone)
    _check_prompt_safe(job["prompt"], allow or ())
    job["next_run_at"] = None if paused else _next_run(parsed, zone, now)

    def change(jobs):
        job["context_from"] = _resolve_context(jobs, context_from, job["id"])
        if watch:
            job["watch"] = _resolve_watch(jobs, watch, job["id"])
        # A name derived from the prompt may repeat another job's.
        _check_names(jobs, job, unique=isinstance(name, str) and bool(name.strip()))
        jobs.append(_ordered(job))
        return jobs[-1]

    added = home.store.mutate(change, now)
    if not home.ledger.exists():
        # The home's first job brings its ledger, schema and all: `sqlite3
        # executions.db` answers before the first run instead of "no such table".
        home.ledger.connect()
    return added


# --- 23.1 Declarative jobs: apply and export jobs ----------------------------

# add_job keywords a jobs file may not set: a pause is the operator's, not the file's.
_UNDECLARED = ("paused", "reason")


def _declared_fields():
    """The fields of a jobs file: ``name``, then add_job's keywords (its one table).

    Each is stored under its own name, so a field ``add_job`` learns is one
    ``apply`` and ``export jobs`` handle with no change here.
    """
    import inspect

    params = [n for n in inspect.signature(_add_job).parameters
              if n not in ("home", "name") + _UNDECLARED]
    return ["name"] + params


class _ListStore:
    """A job list standing in for jobs.json, so ``apply`` can build its jobs with
    ``add_job`` (every check included) and write the store once."""

    def __init__(self, jobs):
        self.jobs = jobs

    def mutate(self, change, now):
        return change(self.jobs)


def _schedule_text(schedule):
    """A stored schedule in a form ``parse_schedule`` reads back to the same schedule."""
    if not isinstance(schedule, dict):
        return schedule
    if schedule.get("kind") == "once":
        return schedule.get("run_at")
    if schedule.get("kind") == "interval":
        return f"every {schedule.get('minutes')}m"
    display = schedule.get("display")
    if isinstance(display, str) and _parse_phrase(" ".join(display.split())) == schedule.get(
            "expr"):
        return display  # "weekdays at 9:30" reads better than its expression
    return schedule.get("expr")


def _file_value(job, key, names):
    """Field *key* of a stored job as a jobs file holds it (add_job's form)."""
    value = job.get(key)
    if key == "schedule":
        return _schedule_text(value)
    if key == "repeat":
        return value.get("times") if isinstance(value, dict) else None
    if key in ("context_from", "watch") and isinstance(value, list):
        return [names.get(v, v) for v in value]  # a name still means something in another home
    return value


def _same_field(key, old, new):
    if key == "schedule":
        strip = (lambda s: {k: v for k, v in s.items() if k != "display"}
                 if isinstance(s, dict) else s)
        return strip(old) == strip(new)
    if key == "repeat":
        return (old or {}).get("times") == (new or {}).get("times")
    if key == "catch_up":
        return old is new or old == new and isinstance(old, bool) == isinstance(new, bool)
    blank = (None, False, "", [], {})  # an upstream record may lack a key add_job writes
    return old == new or (old in blank and new in blank)


def _unique_names(jobs):
    """Map job ids to their names, where a name is unique (case-insensitively)."""
    folded = {}
    for job in jobs:
        if isinstance(job.get("name"), str):
            folded.setdefault(job["name"].strip().casefold(), []).append(job)
    return {group[0].get("id"): group[0]["name"] for group in folded.values()
            if len(group) == 1}


def _jobs_file(home, refs):
    """The jobs of *home* (or those *refs* name) as a jobs file: a list ``apply`` takes.

    Completed one-shots are left out: their time has passed, so they could
    not be created again.  Raises ``InvalidInputError`` when two jobs share a
    name, since a file matches jobs by name.
    """
    jobs = [j for j in home.jobs() if _job_state(j) != "completed"]
    names = _unique_names(jobs)
    if refs:
        wanted = [_find_job(jobs, ref).get("id") for ref in refs]
        jobs = [j for j in jobs if j.get("id") in wanted]
    twins = [j for j in jobs if j.get("id") not in names]
    if twins:
        raise InvalidInputError(
            f"jobs {', '.join(str(j.get('id')) for j in twins)} share a name (or have none), "
            f"and a jobs file matches jobs by name", twins[0].get("name"),
            "give each a name of its own: 'edit ID --name NEW'")
    out = []
    for job in jobs:
        _checked_schedule(job.get("schedule"), job)
        entry = {}
        for key in _declared_fields():
            value = _file_value(job, key, names)
            if value not in (None, False, "", []) or value is False and key == "catch_up":
                entry[key] = value  # catch_up false is a choice, not a blank
        out.append(entry)
    return out


def _check_jobs_file(entries, fields):
    """Refuse a jobs file that is not a list of entries ``apply`` can read, naming the entry."""
    if not isinstance(entries, list):
        raise InvalidInputError("a jobs file must hold a JSON list of jobs", type(entries).__name__,
                                'write [{"name": "digest", "schedule": "0 9 * * *", ...}]')
    types = dict(_FIELD_TYPES, name=str, schedule=str)
    seen = {}
    for index, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise InvalidInputError(f"jobs file entry {index} must be a JSON object", entry,
                                    'write {"name": "digest", "schedule": "0 9 * * *", ...}')
        name = entry.get("name")
        where = f"jobs file entry {index}" + (f" ({name!r})" if isinstance(name, str) else "")
        for key in entry:
            if key not in fields:
                raise InvalidInputError(f"{where}: unknown field", key,
                                        f"use {', '.join(fields)}")
        for key in ("name", "schedule"):
            value = entry.get(key)
            if not isinstance(value, str) or not value.strip():
                raise InvalidInputError(f"{where}: field {key!r} is required", value,
                                        f"give each job a {key} (text)")
        for key, value in entry.items():
            kind = types.get(key)
            items = (str, dict) if key == "verify" else str  # a check: its short form or object
            if kind is not None and value is not None and (
                    not isinstance(value, kind) or kind is list and not all(
                        isinstance(v, items) for v in value)):
                shown = ("a list of checks (text or objects)" if key == "verify" else
                         "a list of text") if kind is list else _TYPE_NAMES[kind]
                raise InvalidInputError(f"{where}: field {key!r} must be {shown}", value,
                                        f"write {key} as {shown}")
        folded = name.strip().casefold()
        if folded in seen:
            raise InvalidInputError(f"{where}: the name is also entry {seen[folded]}'s", name,
                                    "give each job a name of its own (names match "
                                    "case-insensitively)")
        seen[folded] = index


def _apply_entry(home, jobs, entry, fields, now):
    """Create or update the job *entry* names in *jobs* (in place); return its plan step."""
    import copy

    folded = entry["name"].strip().casefold()
    matches = [j for j in jobs if isinstance(j, dict) and isinstance(j.get("name"), str)
               and j["name"].strip().casefold() == folded]
    if len(matches) > 1:
        ids = ", ".join(str(j.get("id")) for j in matches)
        raise InvalidInputError(f"the name matches {len(matches)} jobs ({ids})", entry["name"],
                                "rename all but one with 'edit ID --name NEW', or remove them")
    current = matches[0] if matches else None
    shadow = copy.copy(home)  # the same settings and checks, on a job list in memory
    args = {k: v for k, v in entry.items() if k != "name" and v is not None}  # null: left out
    if current is None:
        shadow.store = _ListStore(jobs)  # add_job appends the new job to *jobs*
        job = _add_job(shadow, name=entry["name"], **args)
        return {"action": "create", "name": job["name"], "id": job["id"],
                "changes": [{"field": k, "from": None, "to": v} for k, v in entry.items()
                            if v is not None]}
    shadow.store = _ListStore([j for j in jobs if j is not current])
    schedule = current.get("schedule") if isinstance(current.get("schedule"), dict) else {}
    if schedule.get("kind") == "once" and entry["schedule"].strip() == schedule.get("run_at"):
        # The one-shot it already has, perhaps past by now: checked as of its own time.
        run_at = _parse_stored(schedule["run_at"])
        if run_at is not None:
            shadow.clock = lambda: run_at
    want = _add_job(shadow, name=entry["name"], **args)
    names = _unique_names([j for j in jobs if isinstance(j, dict)])
    new, changes = dict(current), []
    for key in fields:
        if _same_field(key, current.get(key), want.get(key)):
            continue
        changes.append({"field": key, "from": _file_value(current, key, names),
                        "to": _file_value(want, key, names)})
        if key == "repeat":
            new["repeat"] = dict(current.get("repeat") or {"completed": 0},
                                 times=want["repeat"]["times"])
        elif key in want:
            new[key] = want[key]
        else:
            new.pop(key, None)
        if key == "schedule":
            new["schedule_display"] = want["schedule_display"]
        if key == "skills":
            new["skill"] = want.get("skill")
    if {c["field"] for c in changes} & {"schedule", "tz"}:
        new.pop("pending_slot", None)
        if _job_is_runnable(new):
            new["next_run_at"] = _next_run(want["schedule"], home.zone(new), now)
    current.clear()
    current.update(new)
    return {"action": "update" if changes else "unchanged", "name": new.get("name"),
            "id": new.get("id"), "changes": changes}


def _apply_plan(home, jobs, entries, fields, prune, now):
    """Bring *jobs* (in place) to what *entries* declare; return the plan steps."""
    plan = []
    for index, entry in enumerate(entries, 1):
        try:
            plan.append(_apply_entry(home, jobs, entry, fields, now))
        except HermesCronError as exc:
            if isinstance(exc, (BusyError, StorageError)):
                raise
            field = "schedule: " if isinstance(exc, CronSyntaxError) else ""
            raise InvalidInputError(f"jobs file entry {index} ({entry['name']!r}): "
                                    f"{field}{exc.what}", exc.value, exc.fix) from None
    if prune:
        kept = {step["id"] for step in plan}
        for job in [j for j in jobs if isinstance(j, dict) and j.get("id") not in kept]:
            jobs.remove(job)
            plan.append({"action": "delete", "name": job.get("name"), "id": job.get("id"),
                         "changes": []})
    return plan


def _apply(home, entries, prune, dry_run):
    """Make the store match a jobs file; return the plan (see ``CronHome.apply``)."""
    _check_not_in_job(home, "apply")
    fields = _declared_fields()
    _check_jobs_file(entries, fields)
    now = home.now()
    if dry_run:
        jobs = [dict(j) if isinstance(j, dict) else j for j in home.store.load()[1]]
        plan = _apply_plan(home, jobs, entries, fields, prune, now)
        for step in plan:
            if step["action"] == "create":
                step["id"] = None  # none is made
        return plan
    with home.store.locked() as (doc, jobs):
        plan = _apply_plan(home, jobs, entries, fields, prune, now)
        if any(step["action"] != "unchanged" for step in plan):
            home.store.save(dict(doc), jobs, now)  # one write: all of the file, or none
    for step in plan:
        if step["action"] == "delete":
            _forget_job(home, step)
    if home.fleet is not None:
        _publish_jobs(home, _jobs_file(home, None), now)
    return plan


def _jobs_digest(entries):
    """A job set's digest: its jobs as a jobs file, in name order (ids and state left out)."""
    import hashlib
    import json

    ordered = sorted(entries, key=lambda entry: entry["name"].strip().casefold())
    return hashlib.sha256(json.dumps(ordered, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def _publish_jobs(home, entries, now):
    """Keep this node's job set digest in the fleet (``jobsets/<node>``), for ``doctor``."""
    import json

    fleet = home.fleet
    try:
        fleet.etcd.txn([], [_put(fleet.key("jobsets", fleet.node), json.dumps(
            {"digest": _jobs_digest(entries), "jobs": len(entries), "at": _iso(now)}))])
    except ClusterError:
        pass  # the jobs are applied; doctor says the node's set is unpublished or stale


# =============================================================================
# 24. Status site pages
#    HTML for serve: no script, no external asset.
# =============================================================================

# No external assets, no script: the page must render under the server's CSP
# (default-src 'none') and stay readable on a phone.
_PAGE_CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:.8rem;
color:#1c1c1c;background:#fafafa}
h1{font-size:1.3rem;margin:.2rem 0}h2{font-size:1.05rem;margin:1.2rem 0 .4rem}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e3e3e3;vertical-align:top}
th{font-weight:600;background:#f0f0f0}td.n{text-align:right}code{font-size:.9em}
.ok{color:#13652b}.bad{color:#a4161a;font-weight:600}.dim{color:#6b6b6b}
.banner{padding:.6rem .8rem;border-radius:.4rem;margin:.6rem 0;background:#e4f4e8}
.banner.bad{background:#fbe3e4}dl{display:grid;grid-template-columns:max-content 1fr;
gap:.2rem .9rem;margin:0}dt{color:#6b6b6b}dd{margin:0;overflow-wrap:anywhere}
a{color:#0b57a4}time,.nw{white-space:nowrap}svg{vertical-align:middle}
svg.wide{display:block;width:100%;max-width:48rem;height:1.6rem}svg.tall{height:5rem}
.axis{display:flex;justify-content:space-between;max-width:48rem;color:#6b6b6b;
font-size:.8rem}
"""
_BAD_STATUSES = ("error", "delivery_failed", "blocked_config", "failed", "unknown")


def _h(value):
    """*value* as HTML text: redacted, then escaped (``-`` for None).

    A control character other than newline and tab (ESC, BEL, the C1 range,
    bidi overrides) shows as the command line spells it (``\\x1b``).
    """
    import html

    return "-" if value is None else html.escape(_printable(redact(str(value)), newlines=True),
                                                 quote=True)


def _job_href(job_id):
    from urllib.parse import quote

    return _h("/job/" + quote(str(job_id), safe=""))


def _when_html(value, zone):
    """A stored time on *zone*'s clock, as the command line shows it, never wrapped."""
    if not isinstance(value, str):
        return _h(value)
    return f'<time datetime="{_h(value)}">{_h(_shown(value, zone))}</time>'


def _outcome_html(status):
    css = "bad" if status in _BAD_STATUSES else "ok" if status in ("ok", "completed") else "dim"
    return f'<span class="{css}">{_h(status)}</span>'


def _html_table(head, rows, empty):
    if not rows:
        return f'<p class="dim">{_h(empty)}</p>'
    cells = "".join(f"<th>{_h(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="scroll"><table><tr>{cells}</tr>{body}</table></div>'


def _html_page(title, body):
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="refresh" content="30"><title>{_h(title)}</title>'
            f"<style>{_PAGE_CSS}</style></head><body>{body}</body></html>\n")


def _ticker_html(info):
    age = info["heartbeat_age_seconds"]
    if age is None:
        return ('<div class="banner bad">Ticker: no heartbeat. Is anything calling '
                '<code>python -m hermes_cron tick</code> every minute?</div>')
    if info["stalled"]:
        return (f'<div class="banner bad">Ticker STALLED: last heartbeat {_h(_age_words(age))} '
                f'(pid {_h(info["ticker_pid"])})</div>')
    last = (f'; last tick failed: {_h(_error_summary(info["last_error"]))}'
            if info["last_error"] else "")
    return (f'<div class="banner{" bad" if last else ""}">Ticker alive: heartbeat '
            f'{_h(_age_words(age))} (pid {_h(info["ticker_pid"])}){last}</div>')


def _incidents_html(rows, zone, names=None):
    """Open incidents, each naming its job (by name where *names* knows it)."""
    names = names or {}
    return _html_table(
        ("Incident", "Job", "Type", "Last seen", "Error"),
        [(_h(r["id"]), f'<a href="{_job_href(r["job_id"])}">'
                       f'{_h(names.get(r["job_id"]) or r["job_id"])}</a>',
          _h(r["failure_type"]), _when_html(r["last_seen_at"], zone),
          _h(_error_summary(r["error"], 160)))
         for r in rows], "No open incidents.")


def _runs_html(rows, zone, names=None):
    out = []
    for row in rows:
        duration = _run_duration(row)
        cells = [f"<code>{_h(row['id'][:12])}</code>"]
        if names is not None:
            cells.append(f'<a href="{_job_href(row["job_id"])}">'
                         f'{_h(names.get(row["job_id"]) or row["job_id"])}</a>')
        source = row["source"] + (f" on {row['node']}" if row.get("node") else "")
        cells += [_outcome_html(row["status"]), _h(row.get("verdict") or ""), _h(source),
                  _when_html(row["claimed_at"], zone),
                  _h(f"{duration:g} s" if duration is not None else None),
                  _h(_error_summary(row["error"], 120) if row["error"] else "")]
        out.append(cells)
    head = ("Execution",) + (("Job",) if names is not None else ()) + (
        "Status", "Verdict", "Source", "Claimed", "Took", "Error")
    return _html_table(head, out, "No executions recorded.")


def _labels_html(job):
    """A job's labels, each a link to the page of the jobs that share it."""
    from urllib.parse import quote

    return " ".join(f'<a href="/?l={_h(quote(f"{k}={v}", safe=""))}"><code>{_h(k)}={_h(v)}'
                    f'</code></a>' for k, v in _policy(job, "labels").items()) or "-"


# The pictures: inline SVG, colours as attributes (the CSP allows no external
# asset and no script), each mark with a <title> a pointer or reader can read.
_SVG_OK, _SVG_BAD, _SVG_OTHER, _SVG_NONE = "#2e7d32", "#c62828", "#9e9e9e", "#e6e6e6"


def _status_fill(status):
    return _SVG_BAD if status in _BAD_STATUSES else _SVG_OK if status in ("ok", "completed") \
        else _SVG_OTHER


def _strip_svg(statuses):
    """A job's last outcomes as a strip of squares, oldest left (*statuses* newest first)."""
    if not statuses:
        return '<span class="dim">no runs</span>'
    marks = "".join(f'<rect x="{i * 12}" width="10" height="14" rx="2" fill="{_status_fill(s)}">'
                    f"<title>{_h(s)}</title></rect>"
                    for i, s in enumerate(reversed(statuses)))
    bad = sum(s in _BAD_STATUSES for s in statuses)
    return (f'<svg class="strip" width="{len(statuses) * 12 - 2}" height="14" role="img" '
            f'aria-label="last {len(statuses)} outcomes, {bad} failed">{marks}</svg>')


def _heatmap_svg(cells):
    """The fleet's last hours, one cell an hour, oldest left: green by volume, red by
    the share failed, grey for an hour without runs."""
    top = max([n for n, _ in cells] or [0]) or 1
    marks = []
    for i, (n, bad) in enumerate(cells):
        ago = len(cells) - i
        fill, opacity = (_SVG_NONE, 1.0) if not n else (_SVG_OK, 0.3 + 0.7 * n / top) \
            if not bad else (_SVG_BAD, 0.3 + 0.7 * bad / n)
        marks.append(f'<rect x="{i * 10}" width="9" height="24" fill="{fill}" '
                     f'fill-opacity="{opacity:.2f}"><title>{ago}-{ago - 1} h ago: {n} run(s), '
                     f"{bad} failed</title></rect>")
    runs, failed = sum(n for n, _ in cells), sum(b for _, b in cells)
    return (f'<svg class="wide" viewBox="0 0 {len(cells) * 10 - 1} 24" preserveAspectRatio="none"'
            f' role="img" aria-label="runs by hour, last {len(cells)} hours: {runs} runs, '
            f'{failed} failed">{"".join(marks)}</svg><div class="axis"><span>'
            f'{len(cells)} h ago</span><span>{len(cells) // 2} h ago</span><span>now</span></div>')


def _durations_svg(rows, zone):
    """How long each of *rows* (newest first) took, a bar each, oldest left."""
    timed = [(r, _run_duration(r)) for r in reversed(rows)]
    timed = [(r, d) for r, d in timed if d is not None]
    if not timed:
        return '<p class="dim">No finished runs yet.</p>'
    longest = max(d for _, d in timed)
    top = longest or 1
    bars = "".join(
        f'<rect x="{i * 8}" y="{60 - max(1, 60 * d / top):.1f}" width="6" '
        f'height="{max(1, 60 * d / top):.1f}" fill="{_status_fill(r["status"])}"><title>'
        f'{_h(r["id"][:12])} {_h(r["status"])}: {d:g} s ({_h(_shown(r["claimed_at"], zone))})'
        f"</title></rect>"
        for i, (r, d) in enumerate(timed))
    return (f'<svg class="wide tall" viewBox="0 0 {len(timed) * 8 - 2} 60" '
            f'preserveAspectRatio="none" role="img" aria-label="durations of the last '
            f'{len(timed)} runs, longest {longest:g} s">{bars}</svg><div class="axis"><span>'
            f'oldest</span><span>longest {longest:g} s</span><span>newest</span></div>')


def _site_href(path, **params):
    """A link to *path* with the query *params* that are set."""
    from urllib.parse import urlencode

    query = urlencode([(k, v) for k, v in params.items() if v not in (None, "", 1, False)])
    return _h(path + ("?" + query if query else ""))


def _page_number(query):
    text = str(query.get("page") or "1")
    return int(text) if text.isdigit() and 0 < int(text) < 10 ** 9 else 1


def _pager_html(path, number, per_page, total, **params):
    """"Page N of M" with links to the newer and older pages."""
    pages = max(1, -(-total // per_page))
    links = []
    if number > 1:
        links.append(f'<a href="{_site_href(path, page=number - 1, **params)}">&larr; newer</a>')
    if number < pages:
        links.append(f'<a href="{_site_href(path, page=number + 1, **params)}">older &rarr;</a>')
    return (f'<p class="dim">Page {number} of {pages} ({total} run{"" if total == 1 else "s"})'
            + (" · " + " · ".join(links) if links else "") + "</p>")


def _filter_html(path, failed, **params):
    """The runs filter: every run, or the failed ones only."""
    every = f'<a href="{_site_href(path, **params)}">every run</a>' if failed else "every run"
    only = "failed only" if failed else \
        f'<a href="{_site_href(path, failed="1", **params)}">failed only</a>'
    return f"<p>Show: {every} · {only}</p>"


# Rows on a page of runs, and outcomes in a job's strip.
_SITE_RUNS, _SITE_JOB_RUNS, _SITE_STRIP = 20, 50, 20


def _status_page(home, query=None, zone=None):
    """The status site's front page: ticker, counts, the last 24 hours, jobs with their
    last outcomes, recent runs (paged; failed only with ``?failed=1``), open incidents.

    With a label selector (``?l=team=ops``), the jobs and runs are those it picks.
    Times are on *zone*'s clock (default: the home's zone).
    """
    zone = _safe_zone(home, None) if zone is None else zone
    query = query if isinstance(query, dict) else {"l": query} if query else {}
    selector, failed, number = query.get("l"), query.get("failed") == "1", _page_number(query)
    info = home.status()
    ledger = home.scheduler.ledger
    listed = home.jobs(labels=selector)
    names = {job.get("id"): job.get("name") for job in listed}
    outcomes = ledger.outcomes([j.get("id") for j in listed], _SITE_STRIP)
    # The outcomes come second: on a phone they stay in view beside the name.
    jobs = [(f'<a href="{_job_href(job.get("id"))}">{_h(job.get("name") or job.get("id"))}</a>',
             _strip_svg(outcomes.get(job.get("id"))),
             f'<span class="nw">{_h(_friendly_schedule(job, zone))}</span>',
             _h(state), _when_html(job.get("next_run_at"), zone)
             if state == "scheduled" else "-",  # as 'list': a paused job's is stale
             _when_html(job.get("last_run_at"), zone), _h(job.get("failure_streak") or 0),
             _labels_html(job)) for job, state in ((j, _job_state(j)) for j in listed)]
    counts = (("jobs", f'{info["active_jobs"]} active of {info["jobs"]}'),
              ("running now", info["running"]), ("failing jobs", info["failing_jobs"]),
              ("open incidents", info["open_incidents"]),
              ("deliveries pending", info["deliveries_pending"]),
              ("deliveries retrying", info["deliveries_retrying"]),
              ("deliveries failed (24 h)", info["deliveries_failed_24h"]),
              ("held back (24 h)", info["held_back_24h"]), ("missed (24 h)", info["missed_24h"]))
    if selector:  # the jobs a selector picks: their newest runs, one page
        runs = [r for r in home.runs(limit=1000 if failed else _SITE_RUNS, labels=selector)
                if not failed or r["status"] in ("failed", "unknown")][:_SITE_RUNS]
        pager = ""
    else:
        runs, total = ledger.page(None, (number - 1) * _SITE_RUNS, _SITE_RUNS, failed)
        runs = _with_verdicts(ledger, runs)
        fleet = home.scheduler.fleet
        if number == 1 and not failed and fleet is not None:  # the fleet's, newest
            runs = _fleet_runs(home.scheduler, fleet, runs, None, _SITE_RUNS, None)
        pager = _pager_html("/", number, _SITE_RUNS, total, failed=failed and "1")
    body = (f"<h1>hermes_cron</h1><p class=\"dim\">{_h(info['home'])}</p>{_ticker_html(info)}"
            "<dl>" + "".join(f"<dt>{_h(k)}</dt><dd>{_h(v)}</dd>" for k, v in counts) + "</dl>"
            + "<h2>Last 24 hours</h2>" + _heatmap_svg(ledger.hourly(home.now()))
            + (f'<p>Jobs labelled <code>{_h(selector)}</code> · <a href="/">all jobs</a></p>'
               if selector else "")
            + "<h2>Jobs</h2>" + _html_table(("Job", "Last outcomes", "Schedule", "State",
                                          "Next run", "Last run", "Streak", "Labels"), jobs,
                                         "No jobs." if not selector else
                                         "No job has these labels.")
            + "<h2>Recent runs</h2>" + _filter_html("/", failed, l=selector)
            + _runs_html(runs, zone, names) + pager
            + "<h2>Open incidents</h2>" + _incidents_html(
                [r for r in home.incidents() if r["state"] in _OPEN_INCIDENTS], zone, names)
            + '<p class="dim">Refreshes every 30 s. <a href="/metrics">metrics</a> · '
              '<a href="/api/status">status JSON</a></p>')
    return _html_page("hermes_cron status", body)


def _job_page(home, ref, query=None, zone=None):
    """The status site's page of one job: the ``show JOB`` view, its last outcomes and
    durations as pictures, and its whole history, paged (``?page=N``, ``?failed=1``);
    times on *zone*'s clock (default: the home's zone)."""
    query = query or {}
    zone = _safe_zone(home, None) if zone is None else zone
    failed, number = query.get("failed") == "1", _page_number(query)
    view = _job_view(home.scheduler, ref)
    job = view["job"]
    shown = view["schedule"] + (f"  ({view['expression']})" if view["expression"] and
                                view["expression"] != view["schedule"] else "")
    facts = [("id", job.get("id")), ("name", job.get("name")), ("schedule", shown),
             ("zone", view["zone"]), ("state", view["state"] + (
                 f": {view['paused_reason']}" if view["paused_reason"] else "")),
             ("next runs", ", ".join(_shown(t, zone) for t in view["next_runs"]) or "-"),
             ("targets", ", ".join(view["targets"])),
             ("script", job.get("script")), ("agent", _agent_words(job)),
             ("repeat", _repeat_words(job, view["unknown_fires"])),
             ("last outcome", job.get("last_status")), ("failure streak",
                                                         job.get("failure_streak") or 0),
             ("notepad keys", ", ".join(view["notepad_keys"]) or "-"),
             ("prompt", job.get("prompt")),
             ("scanner allows", ", ".join(_allowed_rules(job)) or "-")] + _policy_rows(job)
    ledger = home.scheduler.ledger
    latest, _ = ledger.page(job["id"], 0, _SITE_JOB_RUNS)
    rows, total = ledger.page(job["id"], (number - 1) * _SITE_JOB_RUNS, _SITE_JOB_RUNS, failed)
    path = "/job/" + str(job["id"])
    body = (f'<p><a href="/">&larr; all jobs</a></p><h1>{_h(job.get("name") or job["id"])}</h1>'
            "<dl>" + "".join(f"<dt>{_h(k)}</dt><dd>{_h(v)}</dd>" for k, v in facts) + "</dl>"
            + f"<h2>Last {len(latest)} outcomes</h2><p>"
            + _strip_svg([r["status"] for r in latest]) + "</p>"
            + "<h2>Durations</h2>" + _durations_svg(latest, zone)
            + "<h2>History</h2>" + _filter_html(path, failed)
            + _runs_html(_with_verdicts(ledger, rows), zone)
            + _pager_html(path, number, _SITE_JOB_RUNS, total, failed=failed and "1")
            + "<h2>Open incidents</h2>" + _incidents_html(
                view["incidents"], zone, {job["id"]: job.get("name")}))
    return _html_page(f"hermes_cron: {job.get('name') or job['id']}", body)


def _redacted(value):
    """*value* (JSON data) with every string redacted, keeping its shape."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    return value


# =============================================================================
# 25. Cron home
#    CronHome, the public facade over one home's scheduler.
# =============================================================================

def _home_path(environ):
    if environ.get(_ENV_PREFIX + "HOME"):
        return environ[_ENV_PREFIX + "HOME"]
    if environ.get("HERMES_HOME"):
        return os.path.join(environ["HERMES_HOME"], "cron")
    return os.path.join(os.path.expanduser("~"), ".hermes", "cron")


class CronHome:
    """The jobs of one cron home directory.

    *path* defaults to ``$HERMES_CRON_HOME``, ``$HERMES_HOME/cron`` or
    ``~/.hermes/cron``.  *clock* is a callable returning an aware datetime
    (default: ``HERMES_CRON_NOW`` if set in *environ*, else the system clock).
    *environ* defaults to ``os.environ``.  *lock_timeout* bounds the wait for
    ``.jobs.lock`` in seconds (default ``$HERMES_CRON_LOCK_TIMEOUT`` or 30).
    *runner* runs agent jobs: ``runner(prompt, job) -> response text``.
    Nothing is created until a method changes something.  Use it as a
    context manager, or call ``close()``, to close the ledger connection.

    Records.  The methods return plain dicts (JSON-ready: what ``--json``
    prints), each shape described here once; times are ISO 8601 texts with
    an offset, ids are texts, absent values None.

    job (``jobs``, ``job``, ``add_job``, ``edit_job``, ``pause_job``,
        ``resume_job``, ``remove_job``): the ``jobs.json`` record, upstream's
        fields: ``id`` (12 hex), ``name``, ``prompt``, ``schedule``
        (``{kind: cron|interval|once, expr|minutes|run_at, display}``),
        ``schedule_display``, ``tz``, ``state`` (scheduled, paused,
        completed, error), ``enabled``, ``next_run_at``, ``last_run_at``,
        ``last_status``, ``last_error``, ``last_delivery_error``,
        ``failure_streak``, ``repeat`` (``{times, completed}``), ``deliver``,
        ``script``, ``no_agent``, ``skills``, ``model``, ``provider``,
        ``base_url``, ``workdir``, ``context_from``, ``created_at``,
        ``paused_at``, ``paused_reason``; and the policies where set
        (``timeout_seconds``, ``retries``, ``jitter_seconds``,
        ``concurrency``, ``env``, ``labels``, ...: ``add_job``'s keywords).
    run (``runs``, ``run_job``): an ``executions`` row: ``id``, ``job_id``,
        ``source`` (builtin, direct, external), ``status`` (claimed, running,
        completed, failed, unknown), ``scheduled_instant`` (the slot, UTC),
        ``claimed_at``, ``started_at``, ``finished_at``, ``error``,
        ``delivery_outcome``, ``process_id``, ``pid``, ``process_started_at``,
        ``handoff_pending``, ``handoff_started_at``; ``verdict``,
        ``attempt`` and ``retry_at`` where they apply.  ``run_job`` adds
        ``already`` (True: the slot had this run before), and for a slot too
        late to run, ``{"id": None, "status": "skipped", reason, detail}``.
    incident (``incidents``, ``ack_incident``, ``reopen_incident``): ``id``
        (``incident_id``), ``job_id``, ``state`` (detected, alerted, resolved,
        closed: acked), ``failure_type`` (``classify_failure``), ``error``,
        ``first_seen_at``, ``last_seen_at``, ``alerted_at``, ``acked_at``,
        ``closed_at``, ``output_file``, ``generation``.
    delivery (``deliveries``): ``execution_id``, ``status`` (pending,
        delivering, delivered, failed, unknown, suppressed), ``job_json``
        (the job as it was, a JSON text), ``content``, ``for_failure``,
        ``created_at``, ``finished_at``, ``error``, ``attempts``,
        ``next_try_at``, ``owner_process_id``, ``owner_pid``,
        ``owner_started_at``.
    note (``notepad``): ``{key, value, updated_at}``.
    output (``outputs``): ``{file, execution_id, run_time, status}``.
    tick report (``tick``): ``busy``, ``dispatched`` (``[{job_id,
        execution_id, status, kind}]``), ``skipped`` (``[{job_id, reason,
        scheduled_instant, detail}]``), ``reconciled`` (execution ids
        settled ``unknown``); errors under ``config_error``, ``drain_error``,
        ``housekeeping_error``.
    ``status``, ``doctor``, ``why``, ``prompt``, ``apply`` and ``export``
    document their own.
    """

    def __init__(self, path: "str | os.PathLike[str] | None" = None, *,
                 clock: "Callable[[], datetime] | None" = None,
                 environ: "Mapping[str, str] | None" = None, lock_timeout: "float | None" = None,
                 runner: "Callable[[str, _Record], str] | None" = None) -> None:
        environ = os.environ if environ is None else environ
        if lock_timeout is None:
            lock_timeout = _env_seconds(environ, "LOCK_TIMEOUT", _LOCK_TIMEOUT)
        raw = os.fspath(path) if path is not None else _home_path(environ)
        self.scheduler = _Scheduler(os.path.abspath(os.path.expanduser(raw)),
                                    clock if clock is not None else _env_clock(environ),
                                    environ, lock_timeout, runner)
        self.scheduler.after_tick = _write_metrics_textfile

    path = property(lambda self: self.scheduler.path, doc="The home directory.")
    environ = property(lambda self: self.scheduler.environ, doc="The environment it reads.")
    clock = property(lambda self: self.scheduler.clock, doc="The clock it reads.")
    config_warnings = property(lambda self: self.scheduler.config_warnings,
                               doc="Warnings of the last configuration load (e.g. unknown keys).")

    @property
    def runner(self) -> "Callable[[str, _Record], str] | None":
        """The callable that runs agent jobs, or None."""
        return self.scheduler.runner

    @runner.setter
    def runner(self, value: "Callable[[str, _Record], str] | None") -> None:
        self.scheduler.runner = value

    def __repr__(self):
        return f"CronHome({self.path!r})"

    def __enter__(self) -> "CronHome":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the database connections (they reopen on the next use)."""
        self.scheduler.ledger.close()
        self.scheduler.deliveries.close()

    @property
    def settings(self) -> "_Record":
        """The validated configuration (config.json plus ``HERMES_CRON_*``)."""
        return self.scheduler.settings

    def now(self) -> datetime:
        """Return the clock's current instant as an aware UTC datetime."""
        return self.scheduler.now()

    @property
    def scripts_dir(self) -> str:
        """The directory job scripts must live in."""
        return self.scheduler.scripts_dir

    @property
    def skills_dir(self) -> str:
        """The directory searched for ``<name>/SKILL.md`` skill files."""
        return self.scheduler.skills_dir

    def zone(self, job: "_Record | None" = None) -> tzinfo:
        """Return the zone of *job* (or the home's default zone)."""
        return self.scheduler.zone(job)

    # -- reading --------------------------------------------------------------

    def jobs(self, include_all: bool = True, labels: "_Labels | None" = None) -> "list[_Record]":
        """Return the job records (dicts); without *include_all*, not completed ones.

        *labels* selects by label, as kubectl's ``-l``: ``"team=ops,tier!=web"``
        (or a dict of the labels a job must have).
        """
        jobs = [j for j in self.scheduler.store.load()[1] if isinstance(j, dict)]
        if labels is not None:
            requirements = _selector(labels)
            jobs = [j for j in jobs if _selects(j, requirements)]
        return jobs if include_all else [j for j in jobs if _job_state(j) != "completed"]

    def job(self, ref: str) -> "_Record":
        """Return the job with id or (case-insensitive, unique) name *ref*."""
        return _find_job(self.scheduler.store.load()[1], ref)

    def next_fires(self, what: str, count: int = 5, *, tz: "_Zone | None" = None,
                   after: "datetime | None" = None) -> "list[datetime]":
        """Return the next *count* fire times of a job (id or name) or a schedule text.

        *tz* overrides the zone, *after* (an aware datetime, or naive in the
        zone) the starting instant (default: now).
        """
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 1000:
            raise InvalidInputError("count must be between 1 and 1000", count, "use e.g. -n 5")
        job = None
        try:
            job = self.job(what)
        except JobNotFoundError:
            pass
        except InvalidInputError as exc:
            if exc.what.startswith("job name is ambiguous") or not isinstance(what, str) \
                    or not what.strip():
                raise
        if tz is not None:
            zone = _zone(tz, "--tz")
        else:
            zone = self.zone(job)
        start = self.now() if after is None else after
        if start.tzinfo is None:
            start = _wall_to_aware(start, zone)
        if job:
            # A job's fires at their jittered instants (``jitter_seconds``).
            return [fire + timedelta(seconds=_jitter(job, fire)) for fire in _job_fires(
                job, _checked_schedule(job.get("schedule"), job), zone, start, count)]
        else:
            try:
                schedule = parse_schedule(what, now=start, tz=zone)
            except CronSyntaxError as exc:
                if exc.what != "unrecognised schedule":
                    raise
                raise JobNotFoundError("neither a job id or name nor a schedule", what,
                                       "run 'list --all' to see the jobs; for schedules, "
                                       + _SCHEDULE_FORMS) from None
        return _schedule_fires(_checked_schedule(schedule, None), zone, start, count)

    # -- changing -------------------------------------------------------------

    def add_job(self, schedule: str, prompt: str = "", *, name: "str | None" = None,
                tz: "str | None" = None, deliver: "str | None" = None,
                repeat: "int | str | None" = None, skills: "Sequence[str] | None" = None,
                script: "str | None" = None, no_agent: bool = False,
                context_from: "Sequence[str] | None" = None, model: "str | None" = None,
                provider: "str | None" = None, base_url: "str | None" = None,
                workdir: "str | None" = None, paused: bool = False, reason: "str | None" = None,
                failure_deliver: "str | None" = None,
                allow_scan: "Sequence[str] | None" = None, api_key_env: "str | None" = None,
                reasoning_effort: "str | None" = None, monitor_script: "str | None" = None,
                monitor_url: "str | None" = None, interpreter: "str | None" = None,
                verify: "Sequence[str | Mapping[str, Any]] | None" = None,
                on_unverified: "str | None" = None, watch: "Sequence[str] | None" = None,
                timeout_seconds: "float | str | None" = None, retries: "int | None" = None,
                retry_backoff_seconds: "float | str | None" = None,
                jitter_seconds: "float | str | None" = None, concurrency: "str | None" = None,
                env: "Mapping[str, str | None] | None" = None,
                labels: "Mapping[str, str] | None" = None,
                misfire_grace_seconds: "float | str | None" = None,
                catch_up: "bool | None" = None,
                history_limit: "int | None" = None) -> "_Record":
        """Create a job and return its record.

        *schedule* is any form ``parse_schedule`` accepts.  Raises
        ``InvalidInputError`` (nothing is written) for any invalid field.
        *reasoning_effort* and *interpreter* are upstream Hermes' fields,
        stored as it stores them and not acted on here (``show`` and
        ``doctor`` say so).  *monitor_script* or *monitor_url* gate the agent
        on a change of the watched source.  *verify* is a list of checks the
        answer must pass before it is delivered (short forms such as
        ``"url"`` or ``"git:/srv/repo@main"``, or dicts); *on_unverified* is
        ``withhold`` (the default) or ``mark``; *watch* makes the job a
        watchdog that runs its checks on the latest runs of the jobs named.

        The policies: *timeout_seconds* (the whole run's limit), *retries*
        and *retry_backoff_seconds* (a failed slot runs again, backing off
        exponentially), *jitter_seconds* (a fixed per-slot delay),
        *concurrency* (``forbid``, ``allow`` or ``replace``), *env*
        (``{NAME: value}``, a value of None passes the ticker's NAME
        through), *labels* (``{key: value}``), *misfire_grace_seconds* and
        *catch_up* (upstream's per-job grace and catch-up) and
        *history_limit* (runs kept in the ledger).  Durations are seconds or
        texts such as ``"5m"``.
        """
        return _add_job(self.scheduler, schedule, prompt, name=name, tz=tz, deliver=deliver,
                        repeat=repeat, skills=skills, script=script, no_agent=no_agent,
                        context_from=context_from, model=model, provider=provider,
                        base_url=base_url, workdir=workdir, paused=paused, reason=reason,
                        failure_deliver=failure_deliver, allow_scan=allow_scan,
                        api_key_env=api_key_env, reasoning_effort=reasoning_effort,
                        monitor_script=monitor_script, monitor_url=monitor_url,
                        interpreter=interpreter, verify=verify, on_unverified=on_unverified,
                        watch=watch, timeout_seconds=timeout_seconds, retries=retries,
                        retry_backoff_seconds=retry_backoff_seconds,
                        jitter_seconds=jitter_seconds, concurrency=concurrency, env=env,
                        labels=labels, misfire_grace_seconds=misfire_grace_seconds,
                        catch_up=catch_up, history_limit=history_limit)

    def edit_job(self, ref: str, **changes: "Any") -> "_Record":
        """Change fields of a job and return the new record.

        Accepts the keyword arguments of ``add_job`` but ``paused`` and
        ``reason`` (pause_job and resume_job do those): ``schedule``,
        ``prompt``, ``name``, ``tz``, ``deliver``, ``failure_deliver``,
        ``repeat``, ``skills``, ``script``, ``no_agent``, ``context_from``,
        ``model``, ``provider``, ``base_url``, ``api_key_env``, ``workdir``,
        ``allow_scan``, ``reasoning_effort``, ``monitor_script``,
        ``monitor_url``, ``interpreter``, ``verify``, ``on_unverified``,
        ``watch``, and the policies ``timeout_seconds``, ``retries``,
        ``retry_backoff_seconds``, ``jitter_seconds``, ``concurrency``,
        ``env``, ``labels``, ``misfire_grace_seconds``, ``catch_up`` and
        ``history_limit``.  ``None`` leaves a field alone and ``""`` clears
        an optional one (upstream's ``reasoning_effort``, ``monitor_script``,
        ``monitor_url`` and ``interpreter`` are then left out of the record).
        Another key is an ``InvalidInputError`` naming the editable ones.
        """
        _check_not_in_job(self.scheduler, "edit")
        unknown = set(changes) - _EDITABLE
        if unknown:
            raise InvalidInputError("unknown job field", sorted(unknown)[0],
                                    f"editable fields are {', '.join(sorted(_EDITABLE))}")
        now = self.now()
        settings, scripts_dir = self.settings, self.scripts_dir

        def change(jobs):
            job = _find_job(jobs, ref)
            new = dict(job)
            new.update(_plain_fields({k: v for k, v in changes.items() if k in _PLAIN_FIELDS
                                     and v is not None}, clearing=True))
            zone = self.zone(new)
            if changes.get("skills") is not None:
                new["skills"] = _check_skills(changes["skills"])
                new["skill"] = new["skills"][0] if new["skills"] else None
            if changes.get("no_agent") is not None:
                new["no_agent"] = bool(changes["no_agent"])
            if changes.get("deliver") is not None:
                new["deliver"] = _check_deliver(changes["deliver"])
            if changes.get("failure_deliver") is not None:
                if changes["failure_deliver"]:
                    new["failure_deliver"] = _check_deliver(changes["failure_deliver"])
                else:
                    new.pop("failure_deliver", None)
            stored_only = {k: v for k, v in changes.items() if k in _UPSTREAM_OPTIONS
                           and v is not None}
            for key, value in _stored_only_fields(stored_only, scripts_dir).items():
                if value is None:
                    new.pop(key, None)
                else:
                    new[key] = value
            if changes.get("name") is not None:
                new["name"] = _job_name(changes["name"], new)
                _check_names(jobs, new)
            if changes.get("allow_scan") is not None:
                new["allow_scan"] = _check_allow_scan(changes["allow_scan"])
                if not new["allow_scan"]:
                    del new["allow_scan"]
            if changes.get("context_from") is not None:
                new["context_from"] = _resolve_context(jobs, changes["context_from"], new["id"])
            if changes.get("watch") is not None:
                new["watch"] = _resolve_watch(jobs, changes["watch"] or None, new["id"])
                if not new["watch"]:
                    new.pop("watch")
            if changes.get("verify") is not None:
                new["verify"] = _check_verify(changes["verify"] or None, scripts_dir,
                                              new.get("workdir"))
                if not new["verify"]:
                    new.pop("verify")
            if changes.get("on_unverified") is not None:
                new["on_unverified"] = _check_on_unverified(changes["on_unverified"])
                if not new["on_unverified"]:
                    new.pop("on_unverified")
            old_kind = (job.get("schedule") or {}).get("kind")
            if changes.get("schedule") is not None:
                new["schedule"] = parse_schedule(changes["schedule"], now=now, tz=zone)
                new["schedule_display"] = new["schedule"]["display"]
            schedule = _checked_schedule(new.get("schedule"), new)
            repeat = dict(new.get("repeat") or {"times": None, "completed": 0})
            if changes.get("repeat") is not None:
                repeat["times"] = _normalize_repeat(changes["repeat"])
            elif schedule["kind"] != old_kind:
                if schedule["kind"] == "once" and repeat.get("times") is None:
                    repeat["times"] = 1
                elif old_kind == "once" and repeat.get("times") == 1:
                    repeat["times"] = None
            if schedule["kind"] == "once" and repeat.get("times") is None:
                repeat["times"] = 1
            new["repeat"] = repeat
            _set_policies(self.scheduler, new, {k: v for k, v in changes.items()
                                                if k in _POLICY_FIELDS}, now)
            _check_job(new, settings, scripts_dir, now, zone)
            if changes.get("prompt") is not None or changes.get("allow_scan") is not None:
                _check_prompt_safe(new["prompt"], _allowed_rules(new))
            if changes.get("schedule") is not None or changes.get("tz") is not None:
                new.pop("pending_slot", None)
                if _job_is_runnable(new):
                    new["next_run_at"] = _next_run(schedule, zone, now)
            job.clear()
            job.update(new)
            return dict(job)

        return self.scheduler.store.mutate(change, now)

    def pause_job(self, ref: str, reason: "str | None" = None) -> "_Record":
        """Pause a job (it keeps its ``next_run_at``) and return its record."""
        _check_not_in_job(self.scheduler, "pause")
        now = self.now()

        def change(jobs):
            job = _find_job(jobs, ref)
            if _job_state(job) == "completed":
                raise InvalidInputError("job is completed and cannot be paused", job.get("id"),
                                        "remove it, or re-arm it with 'resume --at ISO'")
            job.update(enabled=False, state="paused",
                       paused_at=_iso(now.astimezone(self.zone(job))),
                       paused_reason=reason or _DEFAULT_PAUSE_REASON)
            job.pop("pending_slot", None)
            return dict(job)

        return self.scheduler.store.mutate(change, now)

    def resume_job(self, ref: str, *, run_now: bool = False,
                   at: "str | datetime | None" = None) -> "_Record":
        """Resume a paused job and return its record.

        A recurring job keeps a past ``next_run_at`` as its due slot, so the
        next tick applies the late and catch-up rules to it.  *run_now* makes
        it due now; *at* (an ISO time) sets its next run, and re-arms a
        finished one-shot.
        """
        _check_not_in_job(self.scheduler, "resume")
        if run_now and at is not None:
            raise InvalidInputError("--run-now and --at exclude each other", at, "pick one")
        now = self.now()

        def change(jobs):
            job = _find_job(jobs, ref)
            zone = self.zone(job)
            schedule = _checked_schedule(job.get("schedule"), job)
            when = None
            if at is not None:
                when = parse_iso(at)
                when = _wall_to_aware(when, zone) if when.tzinfo is None else when.astimezone(zone)
                if when < now - timedelta(seconds=_ONESHOT_GRACE):
                    raise InvalidInputError("--at is in the past", at, "give a future time")
            elif run_now:
                when = now.astimezone(zone)
            if schedule["kind"] == "once":
                if when is None and _job_state(job) == "completed":
                    raise InvalidInputError(
                        "one-shot job has already run", job.get("id"),
                        "re-arm it with 'resume JOB --at ISO' or 'resume JOB --run-now'")
                if when is not None:
                    job["schedule"] = dict(schedule, run_at=_iso(when),
                                           display=f"once at {when.strftime('%Y-%m-%d %H:%M')}")
                    job["schedule_display"] = job["schedule"]["display"]
                    job["repeat"] = {"times": 1, "completed": 0}
                    job["next_run_at"] = _iso(when)
                else:
                    job["next_run_at"] = _next_run(schedule, zone, now)
            elif when is not None:
                job["next_run_at"] = _iso(when)
            elif _parse_stored(job.get("next_run_at")) is None:
                job["next_run_at"] = _next_run(schedule, zone, now)
            if run_now:
                job["manual_run_at"] = job["next_run_at"]
            job.update(enabled=True, state="scheduled", paused_at=None, paused_reason=None)
            return dict(job)

        return self.scheduler.store.mutate(change, now)

    def remove_job(self, ref: str) -> "_Record":
        """Delete a job and its output documents; return the removed record."""
        _check_not_in_job(self.scheduler, "remove")

        def change(jobs):
            job = _find_job(jobs, ref)
            jobs.remove(job)
            return job

        job = self.scheduler.store.mutate(change, self.now())
        _forget_job(self.scheduler, job)
        return job

    # -- notepad and prompt -----------------------------------------------------

    def notepad(self, ref: str) -> "list[_Record]":
        """Return a job's notepad entries: ``[{key, value, updated_at}]`` sorted by key."""
        return self.scheduler.notepad.list(self.job(ref)["id"])

    def set_note(self, ref: str, key: str, value: str) -> None:
        """Set a notepad key of a job.

        Raises ``InvalidInputError`` (a ``ValueError``) for a key over 128
        characters, a value over 16,384 UTF-8 bytes, or a notepad that would
        exceed 65,536 bytes; nothing changes then.
        """
        job_id = self._note_job(ref, "notepad set")
        self.scheduler.notepad.set(job_id, key, value, self.now())

    def get_note(self, ref: str, key: str) -> str:
        """Return the value of a notepad key; ``JobNotFoundError`` if it is not set."""
        job_id = self.job(ref)["id"]
        for note in self.scheduler.notepad.list(job_id):
            if note["key"] == key:
                return note["value"]
        raise JobNotFoundError(f"no notepad key for job {job_id}", key,
                               f"list the keys with 'notepad {job_id} list'")

    def delete_note(self, ref: str, key: str) -> None:
        """Delete a notepad key; ``JobNotFoundError`` if it is not set."""
        job_id = self._note_job(ref, "notepad delete")
        if not self.scheduler.notepad.delete(job_id, key):
            raise JobNotFoundError(f"no notepad key for job {job_id}", key,
                                   f"list the keys with 'notepad {job_id} list'")

    def _note_job(self, ref, command):
        job_id = self.job(ref)["id"]
        if self.environ.get(_ENV_PREFIX + "JOB_ID") != job_id:
            _check_not_in_job(self.scheduler, command)  # a job may write its own notepad only
        return job_id

    def prompt(self, ref: str) -> "_Record":
        """Return the prompt the job's next run would send, without running anything.

        A dict: ``prompt`` (a script's output is shown as a placeholder, since
        nothing is executed), ``tier`` (``strict`` or ``lenient``),
        ``blocked`` (the scanner's reason, or None) and ``missing_skills``.
        """
        job = self.job(ref)
        reason = _unrunnable(job)
        if reason is not None:
            raise InvalidInputError(f"the job cannot run as stored: {reason}", job.get("id"),
                                    "fix it with 'edit JOB' (see 'doctor')")
        block = ""
        if job.get("script"):
            if job.get("no_agent"):
                raise InvalidInputError("a no_agent job sends no prompt; its script's output "
                                        "is the result", job["id"], "see 'runs JOB' instead")
            block = (f"## Script Output\n\n```\n(the output of script {job['script']}, run "
                     f"when the job fires)\n```\n\n")
        assembled = _assemble_prompt(self.scheduler, job, block)
        text, reason = _scan_prompt(assembled.text, assembled.lenient,
                                    _allowed_rules(job, assembled))
        if reason is None and assembled.lenient and not assembled.skills:
            _, reason = _scan_prompt(job.get("prompt") or "", allow=_allowed_rules(job))
        return {"prompt": text, "tier": "lenient" if assembled.lenient else "strict",
                "blocked": reason, "missing_skills": assembled.missing_skills}


    # -- firing ---------------------------------------------------------------

    def tick(self) -> "_Record":
        """Run one scheduler pass and wait for the jobs it started.

        Returns a dict: ``busy`` (another tick held ``.tick.lock``; nothing
        was done), ``dispatched`` (one entry per fired job: ``job_id``,
        ``execution_id``, ``status``, ``kind``), ``skipped`` (``job_id``,
        ``scheduled_instant``, ``reason``, ``detail``) and ``reconciled``
        (execution ids marked ``unknown``).  A failing job is recorded in the
        ledger, not raised.
        """
        report, _ = _tick(self.scheduler, wait=True)
        return _public_report(report)

    def run_job(self, ref: str, occurrence: "str | datetime | None" = None,
                retried: bool = False) -> "_Record":
        """Fire a job now, synchronously, and return its execution row.

        It ignores a pause, does not move ``next_run_at`` and does not count
        toward ``repeat``.  *occurrence* (an ISO time, or ``"auto"`` for the
        latest slot at or before now) binds the run to that slot: if any row
        exists for it already, nothing runs and that row is returned with
        ``already`` set to True.  A slot before the job's ``created_at`` or
        older than its grace runs nothing either: it is recorded in
        ``cron_skips`` and returned as ``{"status": "skipped", "reason",
        "detail", ...}``.  *retried* says the caller runs this again when it
        fails (systemd's ``Restart=on-failure``, a Kubernetes ``backoffLimit``):
        an occurrence whose last attempt failed and may pass on another then
        runs its next attempt (``retries``), and only the last opens an
        incident.  Raises ``BusyError`` if the job is running.
        """
        _check_not_in_job(self.scheduler, "run")
        # A broken config.json refuses here (exit 2, naming the key), as add does,
        # rather than leaving a failed execution behind.
        self.settings  # noqa: B018 (read for its validation)
        if retried and occurrence is None:
            raise InvalidInputError("--retried needs --occurrence: attempts belong to a slot",
                                    "--retried", "add --occurrence auto (or an ISO slot)")
        row, existing = _run_now(self.scheduler, ref, occurrence, retried)
        return dict(row, already=existing)

    def runs(self, ref: "str | None" = None, limit: int = 20,
             labels: "_Labels | None" = None) -> "list[_Record]":
        """Return execution rows (dicts with the ledger's columns), newest first.

        *labels* keeps the runs of the jobs a label selector picks (see ``jobs``).
        """
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidInputError("limit must be between 1 and 1000", limit, "use e.g. 20")
        job_id = None
        if ref is not None:
            try:
                job_id = self.job(ref)["id"]
            except JobNotFoundError:
                job_id = ref  # the runs of a removed job stay readable by id
        ledger = self.scheduler.ledger
        if labels is None:
            rows = ledger.rows(job_id, limit)
        else:
            ids = [j["id"] for j in self.jobs(labels=labels)
                   if job_id is None or j["id"] == job_id]
            rows = ledger.rows_of(ids, limit)
        rows = _with_verdicts(ledger, rows)
        fleet = self.scheduler.fleet
        if fleet is None:
            return rows
        return _fleet_runs(self.scheduler, fleet, rows, job_id, limit,
                           None if labels is None else set(ids))

    def incidents(self, state: "str | None" = None, ref: "str | None" = None) -> "list[_Record]":
        """Return incident rows (the table's columns), most recently seen first."""
        if state is not None and state not in _INCIDENT_STATES:
            raise InvalidInputError("unknown incident state", state,
                                    f"use one of {', '.join(_INCIDENT_STATES)}")
        job_id = None
        if ref is not None:
            try:
                job_id = self.job(ref)["id"]
            except JobNotFoundError:
                job_id = ref
        return self.scheduler.incidents.list(state, job_id)

    def ack_incident(self, iid: str) -> "_Record":
        """Close an incident for good: the same error stops alerting (returns the row)."""
        _check_not_in_job(self.scheduler, "incidents ack")
        row = self.scheduler.incidents.ack(self._incident_id(iid), self.now())
        if row is None:
            raise JobNotFoundError("no incident with that id", iid,
                                   "CronHome.incidents() lists them",
                                   cli="list them with 'python -m hermes_cron incidents'")
        return row

    def reopen_incident(self, iid: str) -> "_Record":
        """Undo an ack: the incident is open and its error alerts again (returns the row).

        Idempotent: an incident that is not closed is returned unchanged.
        """
        _check_not_in_job(self.scheduler, "incidents reopen")
        row = self.scheduler.incidents.reopen(self._incident_id(iid))
        if row is None:
            raise JobNotFoundError("no incident with that id", iid,
                                   "CronHome.incidents() lists them",
                                   cli="list them with 'python -m hermes_cron incidents --all'")
        return row

    def _incident_id(self, ref):
        """The id of the incident *ref* names in full or by a unique prefix (else *ref*)."""
        return _by_prefix(ref, [row["id"] for row in self.scheduler.incidents.list(None, None)],
                          "incident id") or ref

    def deliveries(self, status: "str | None" = None, limit: int = 100) -> "list[_Record]":
        """Return delivery queue rows (the table's columns), newest first (reads only)."""
        if status is not None and status not in _DELIVERY_STATUSES:
            raise InvalidInputError("unknown delivery status", status,
                                    f"use one of {', '.join(_DELIVERY_STATUSES)}")
        return self.scheduler.deliveries.rows(status=status, limit=limit)

    def status(self) -> "_Record":
        """Return the ticker's health, what is due and what needs an operator (reads only)."""
        return _status_counts(self.scheduler, _status(self.scheduler))

    def doctor(self) -> "_Record":
        """Run read-only health checks: ``{"ok": bool, "findings": [{job_id, code, message}]}``."""
        return _doctor(self.scheduler)

    def why(self, ref: str) -> "_Record":
        """Explain why a job did or did not run at its last due slot (a dict; reads only)."""
        return _why(self.scheduler, ref)

    def outputs(self, ref: str) -> "list[_Record]":
        """Return a job's run documents, oldest first: ``[{file, execution_id, run_time}]``."""
        job = self.job(ref)
        directory = _output_dir(self.scheduler, job["id"])
        out = []
        for name, head in _docs_by_time(self.scheduler, directory):
            path = os.path.join(directory, name)
            out.append({"file": path, "execution_id": head.get("Execution"),
                        "run_time": head.get("Run Time"), "status": head.get("Status")})
        return out

    def output(self, ref: str, execution_id: "str | None" = None) -> str:
        """Return the text of a job's latest run document (or the one of *execution_id*)."""
        docs = self.outputs(ref)
        if execution_id is not None:
            wanted = _by_prefix(execution_id, [d["execution_id"] for d in docs],
                                "execution id") or execution_id
            docs = [d for d in docs if d["execution_id"] == wanted]
        if not docs:
            raise JobNotFoundError("no run document" + (" for that execution" if execution_id
                                                        else " for this job yet"),
                                   execution_id or ref, "see 'runs JOB' for its executions")
        with open(docs[-1]["file"], encoding="utf-8", errors="replace") as f:
            return f.read()

    def export(self, engine: str, refs: "Sequence[str]" = (), tick: bool = False,
               image: "str | None" = None, replicas: "int | None" = None,
               etcd: "Sequence[str]" = ()) -> str:
        """Render cron(8), systemd or Kubernetes definitions (text).

        Without *refs*: for crontab the every-minute ``tick`` line; for
        systemd and kubernetes the long-running ``daemon`` (a service; a
        one-replica Deployment and its volume claim), whose runs never hold
        up the next slot.  With *tick*: the every-minute tick timer or CronJob
        instead.  With job refs: one entry per job calling ``run JOB
        --occurrence auto``.  A schedule the engine cannot express exactly (for
        crontab: a zone other than the system's) raises ``InvalidInputError``
        with the reason.  Kubernetes gets one complete ``List``: the module's
        ConfigMap (none with *image*, an image with hermes_cron installed),
        the home's volume claim and the workload.  ``jobs`` renders the jobs
        file ``apply`` takes (JSON; completed one-shots left out).  With
        *replicas* and *etcd* (member URLs): a fleet of daemons instead, one
        Deployment of that many pods on different nodes, each with a local
        home of its own, claiming every slot through etcd.
        """
        if (replicas is not None or etcd) and (engine != "kubernetes" or refs or tick or
                                               replicas is None or not etcd):
            raise InvalidInputError("--replicas and --etcd go together, with export kubernetes "
                                    "and no JOB or --tick", replicas,
                                    "export kubernetes --replicas 3 --etcd http://etcd:2379")
        if replicas is not None:
            _check_cluster({"etcd": list(etcd)}, "--etcd")
            if not 1 <= replicas <= 100:
                raise InvalidInputError("--replicas must be from 1 to 100", replicas,
                                        "use e.g. 3")
            import json

            return json.dumps({"apiVersion": "v1", "kind": "List", "items": _kubernetes_fleet(
                image, replicas, list(etcd))}, indent=2) + "\n"
        if image is not None and engine != "kubernetes":
            raise InvalidInputError("--image is for kubernetes only", image,
                                    "drop --image, or export kubernetes")
        if engine == "jobs":
            import json

            return json.dumps(_jobs_file(self.scheduler, list(refs)), indent=2, ensure_ascii=False) + "\n"
        if engine not in ("crontab", "systemd", "kubernetes"):
            raise InvalidInputError("unknown export format", engine,
                                    "use crontab, systemd, kubernetes or jobs")
        return _export(self.scheduler, engine, list(refs), tick, image)

    def apply(self, entries: "Sequence[Mapping[str, Any]]", *, prune: bool = False,
              dry_run: bool = False) -> "list[_Record]":
        """Make the jobs match a jobs file's *entries* (a list of dicts); return the plan.

        Each entry names a job (matched case-insensitively) and holds
        ``add_job``'s fields: a job no entry names is created with add_job's
        defaults for the fields left out; an existing one gets every field
        that differs, and nothing else changes (its state, runs and id stay).
        *prune* deletes the jobs no entry names.  The whole file is checked
        first and written at once; an invalid entry raises
        ``InvalidInputError`` naming it, and nothing is written; when nothing
        differs, nothing is written at all.  The plan is a list of
        ``{action, name, id, changes: [{field, from, to}]}`` with action
        ``create``, ``update``, ``unchanged`` or ``delete``; *dry_run*
        returns it and writes nothing.
        """
        return _apply(self.scheduler, entries, prune, dry_run)

    def daemon(self, stop: "threading.Event | None" = None,
               drain: "float | None" = None) -> None:
        """Tick at every minute boundary until *stop* (a threading.Event) is set.

        SIGTERM and SIGINT set it too when called from the main thread (their
        handlers before the call are back when it returns).  Then
        it stops claiming, waits up to *drain* seconds (default
        ``$HERMES_CRON_DRAIN_SECONDS`` or 30) for running jobs, sends what is
        left SIGTERM (after Ctrl-C too), then SIGKILL
        ``$HERMES_CRON_KILL_GRACE_SECONDS`` (10) later, and finishes those runs
        ``failed`` ("interrupted by SIGTERM") with no incident and no alert.
        """
        _daemon(self.scheduler, stop, drain)


def _public_report(report):
    out = dict(report)
    out["dispatched"] = [{"job_id": c.job["id"], "execution_id": c.eid,
                          "status": "completed" if c.outcome is not None and c.outcome.ok
                          else "failed" if c.outcome is not None else "running",
                          "kind": c.kind} for c in report["dispatched"]]
    return out


# =============================================================================
# 26. Command line
#    argparse (imported lazily), and the commands that add and change jobs.
# =============================================================================

class _Unbuilt:
    """Stands in for the parser of a command a process does not run: takes
    any building call and does nothing."""

    def __getattr__(self, name):
        return self

    def __call__(self, *args, **kwargs):
        return self


def _jobs_before_options(argv):
    """``export``'s words moved before its options: argparse takes the list
    of JOBs only before them, and ``export kubernetes --image X digest`` is
    as natural as the other order."""
    at = next(i for i, arg in enumerate(argv) if arg == "export")
    rest, words, options, i = argv[at + 1:], [], [], 0
    while i < len(rest):
        arg, end = rest[i], i + 1
        if arg in ("--image", "--home", "--replicas"):
            end += 1  # its value
        elif arg == "--etcd":  # its values: the words after it that are URLs
            while end < len(rest) and rest[end].startswith(("http://", "https://")):
                end += 1
        (options if arg.startswith("-") else words).extend(rest[i:end])
        i = end
    return argv[:at + 1] + words + options


def _parse_args(argv):
    """Parse *argv* with the parser of its command alone (building all 24 costs
    every command several milliseconds); help asked before the command, and
    anything that parser rejects, go to the whole parser, whose word stands."""
    wanted, values = None, iter(argv)
    for arg in values:
        if arg == "--home":
            next(values, None)
        elif arg in ("--", "-h", "--help"):
            break
        elif not arg.startswith("-"):
            wanted = arg
            break
    if wanted == "export" and "--" not in argv:
        argv = _jobs_before_options(argv)
    if wanted is not None:
        try:
            return _parser(wanted).parse_args(argv)
        except InvalidInputError:
            pass
    return _parser().parse_args(argv)


def _parser(wanted=None):
    """The command-line parser; with *wanted*, only that command (or alias) is built."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise _choice_error(message) or InvalidInputError(message, None,
                                                              f"see '{self.prog} --help'")

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--home", default=argparse.SUPPRESS, metavar="DIR",
                        help="the cron home (default: $HERMES_CRON_HOME, $HERMES_HOME/cron, "
                             "~/.hermes/cron)")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="machine-readable output")
    top = Parser(prog="python -m hermes_cron", parents=[common],
                 description="Cron jobs for AI agents and scripts.",
                 epilog="exit codes: 0 ok, 1 failure, 2 invalid input, 3 not found, 4 busy")
    top.add_argument("--version", action="version",
                     version=f"hermes_cron {__version__} (Python {sys.version.split()[0]})")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    # The clock human output is shown on (JSON stays UTC); add, edit and next
    # have a --tz of their own: the zone a schedule reads in.
    clock = argparse.ArgumentParser(add_help=False)
    shown = clock.add_mutually_exclusive_group()
    shown.add_argument("--tz", dest="shown_tz", metavar="ZONE",
                       help="show times on this zone's clock (default: $TZ, else the home's "
                            "zone)")
    shown.add_argument("--utc", action="store_true", help="show times in UTC")

    def command(name, help_text, aliases=(), times=True):
        if wanted is not None and wanted != name and wanted not in aliases:
            return _Unbuilt()
        p = sub.add_parser(name, aliases=list(aliases), help=help_text,
                           parents=[common, clock] if times else [common],
                           description=help_text)
        p.set_defaults(command=name)
        return p

    def job_fields(p, editing):
        p.add_argument("--name", help="a short name (unique names can stand in for the id)")
        p.add_argument("--tz", help="IANA zone for this job's schedule (default: config, system)")
        p.add_argument("--deliver", help="local, stdout, file:PATH, webhook:URL, command:SH, "
                                         "email:ADDR (comma-separated)")
        p.add_argument("--failure-deliver", metavar="TARGETS",
                       help="where failure alerts go (default: config failure_deliver, else "
                            "--deliver)")
        p.add_argument("--repeat", help="run this many times, then complete (default: forever)")
        p.add_argument("--skill", action="append", dest="skills", metavar="SKILL",
                       help="load a skill (repeatable)")
        p.add_argument("--script", help="a script in the scripts dir whose output feeds the run")
        p.add_argument("--no-agent", action="store_true", default=None,
                       help="deliver the script's output; run no agent")
        p.add_argument("--context-from", action="append", metavar="JOB",
                       help="add another job's latest output to the prompt (repeatable; 'self')")
        p.add_argument("--model", help="model for this job")
        p.add_argument("--provider", help="provider for this job")
        p.add_argument("--base-url", help="API base URL (needs --provider)")
        p.add_argument("--api-key-env", metavar="VAR",
                       help="the variable holding the key of a --provider custom job (one of "
                            "its own: never a variable config.json holds for something else)")
        p.add_argument("--workdir", help="absolute directory the job runs in")
        p.add_argument("--allow-scan", action="append", metavar="RULE",
                       help="let this job's prompt pass one injection-scanner rule, e.g. "
                            "ssh_backdoor (repeatable" + ("; replaces the list, '' clears it)"
                                                         if editing else ")"))
        p.add_argument("--ping", metavar="URL",
                       help="dead man's switch: GET URL/start, then URL or URL/fail "
                            "(healthchecks.io, Cronitor)" + ("; '' removes it" if editing
                                                             else ""))
        p.add_argument("--continuity", action="store_const", const=True,
                       help="add the job's own latest output to its prompt (--context-from "
                            "self)")
        pin = p.add_mutually_exclusive_group()
        pin.add_argument("--pin", action="store_true", default=None,
                         help="set --model and --provider to config agent's, so a later "
                              "change there leaves this job alone (ignored with --model)")
        replaces = " (repeatable; replaces the list, '' clears it)" if editing else \
            " (repeatable)"
        p.add_argument("--verify", action="append", metavar="CHECK",
                       help="a check the answer must pass before it is delivered: url, "
                            "url:REGEX, path:FILE, path-new:FILE, git:REPO[@BRANCH], "
                            "match:REGEX, no-match:REGEX, script:NAME or a JSON object"
                            + replaces)
        p.add_argument("--on-unverified", metavar="WHAT",
                       help="withhold (default: an answer that fails its checks is not "
                            "delivered) or mark (delivered after a warning line)"
                            + ("; '' clears it" if editing else ""))
        p.add_argument("--watch", action="append", metavar="JOB",
                       help="make this job a watchdog: its --verify checks run on the "
                            "latest runs of JOB" + replaces)
        clears = "; '' clears it" if editing else ""
        policy = p.add_argument_group("policies (as systemd timers, Kubernetes CronJobs and "
                                      "APScheduler have them)")
        policy.add_argument("--timeout", dest="timeout_seconds", metavar="DURATION",
                            help="the whole run's time limit, e.g. 90s, 10m (default: config "
                                 "script_timeout_seconds and run_timeout_seconds)" + clears)
        policy.add_argument("--retries", metavar="N",
                            help="run a failed slot again up to N times (timeouts, rate limits, "
                                 "5xx and script failures; never a config, credential or "
                                 "scanner refusal, nor a crash)" + clears)
        policy.add_argument("--retry-backoff", dest="retry_backoff_seconds", metavar="DURATION",
                            help=f"the wait before the first retry, doubled for each next one, "
                                 f"at most {_RETRY_BACKOFF_CAP // 60} min (default "
                                 f"{_RETRY_BACKOFF}s)" + clears)
        policy.add_argument("--jitter", dest="jitter_seconds", metavar="DURATION",
                            help="delay each slot by a fixed pseudo-random part of DURATION "
                                 "(from the job id and the slot, as systemd's FixedRandomDelay)"
                                 + clears)
        policy.add_argument("--concurrency", metavar="POLICY",
                            help="forbid (default: a slot due while the job runs is skipped), "
                                 "allow (runs overlap, within max_parallel) or replace (the "
                                 "running one is stopped)")
        policy.add_argument("--env", action="append", metavar="NAME[=VALUE]",
                            help="a variable for the job's script and agent; NAME alone passes "
                                 "the ticker's own through (the way for a secret)" + replaces)
        policy.add_argument("--label", action="append", dest="labels", metavar="KEY=VALUE",
                            help="a label to select jobs by (list -l, runs -l, metrics, the "
                                 "status site)" + replaces)
        policy.add_argument("--grace", dest="misfire_grace_seconds", metavar="DURATION",
                            help="how late a slot may fire as itself (upstream's "
                                 "misfire_grace_seconds; default half the period, 2-120 min)"
                                 + clears)
        policy.add_argument("--catch-up", dest="catch_up", metavar="BOOL",
                            help="true: a slot missed past its grace runs once; false: it is "
                                 "skipped (upstream's catch_up; default config catch_up_missed)"
                                 + clears)
        policy.add_argument("--history", dest="history_limit", metavar="N",
                            help=f"keep this job's newest N runs in the ledger (1-{_MAX_HISTORY};"
                                 f" default: the ledger's own bounds)" + clears)
        # Upstream's: stored as it stores them, not acted on here ('show', 'doctor').
        stored = "upstream Hermes' field, stored but not acted on here" + clears
        p.add_argument("--reasoning-effort", metavar="LEVEL",
                       help=f"none, minimal, low, medium, high, xhigh, max or ultra: {stored}")
        p.add_argument("--monitor-script", metavar="NAME",
                       help="a script in the scripts dir whose output is read before the "
                            "agent: unchanged, the run is suppressed (no model call)" + clears)
        p.add_argument("--monitor-url", metavar="URL",
                       help="an http(s) URL read before the agent: an unchanged body "
                            "suppresses the run (no model call)" + clears)
        p.add_argument("--interpreter", metavar="PATH",
                       help=f"the Python (absolute or ~) for a .py script: {stored}")
        if editing:
            p.add_argument("--schedule", help="a new schedule")
            p.add_argument("--prompt", help="a new prompt")
            p.add_argument("--agent", action="store_false", dest="no_agent",
                           help="run the agent again (undo --no-agent)")
            p.add_argument("--clear-skills", action="store_true", help="remove all skills")
            p.add_argument("--add-skill", action="append", dest="add_skills", metavar="SKILL",
                           help="add a skill, keeping the others (repeatable)")
            p.add_argument("--remove-skill", action="append", dest="remove_skills",
                           metavar="SKILL", help="remove one skill (repeatable)")
            p.add_argument("--no-continuity", action="store_const", const=False,
                           dest="continuity", help="drop 'self' from --context-from")
            pin.add_argument("--unpin", action="store_false", dest="pin",
                             help="clear --model and --provider (the config's apply again)")

    p = command("list", "list the jobs")
    p.add_argument("--all", action="store_true", help="include completed jobs")
    p.add_argument("-l", "--selector", metavar="SELECTOR",
                   help="only jobs whose labels match, as kubectl's: team=ops,tier!=web")
    p = command("add", "add a job", aliases=("create",), times=False)
    p.add_argument("schedule", metavar="SCHEDULE", nargs="?",
                   help="'0 9 * * 1-5', 'every 30m', 'weekdays at 9:30', 'in 45m', ISO time")
    p.add_argument("prompt", metavar="PROMPT", nargs="?", help="what the agent does")
    # hermes-agent-mcp 0.1.1 passes both as options; upstream takes neither.
    p.add_argument("--schedule", dest="schedule_option", metavar="SCHEDULE",
                   help="the schedule, as an option")
    p.add_argument("--prompt", dest="prompt_option", metavar="PROMPT",
                   help="the prompt, as an option")
    job_fields(p, editing=False)
    p.add_argument("--paused", action="store_true", help="create the job paused")
    p.add_argument("--reason", "--paused-reason", dest="reason",
                   help="why it is paused (with --paused)")
    p = command("edit", "change a job", times=False)
    p.add_argument("job", metavar="JOB", help="job id or name")
    job_fields(p, editing=True)
    p = command("pause", "pause a job")
    p.add_argument("job", metavar="JOB", help="job id or name")
    p.add_argument("--reason", help="why (shown in list)")
    p = command("resume", "resume a paused job")
    p.add_argument("job", metavar="JOB", help="job id or name")
    p.add_argument("--run-now", action="store_true", help="make it due now")
    p.add_argument("--at", metavar="ISO", help="next run at this time (re-arms a one-shot)")
    p = command("remove", "remove a job and its output", aliases=("rm", "delete"))
    p.add_argument("job", metavar="JOB", help="job id or name")
    command("tick", "run one scheduler pass (call it every minute from cron or systemd)")
    p = command("run", "fire a job now and wait for it")
    p.add_argument("job", metavar="JOB", help="job id or name")
    p.add_argument("--occurrence", metavar="ISO",
                   help="bind the run to this slot (or 'auto': the latest slot at or before "
                        "now) so a second fire of the same slot does nothing")
    p.add_argument("--retried", action="store_true",
                   help="this command is run again when it fails (systemd Restart=, a "
                        "Kubernetes backoffLimit): a failed occurrence with retries left "
                        "runs its next attempt")
    p = command("runs", "list executions, newest first", aliases=("history",))
    p.add_argument("job", metavar="JOB", nargs="?", help="only this job (id or name)")
    p.add_argument("--limit", type=int, default=20, metavar="N", help="how many (default 20)")
    p.add_argument("-l", "--selector", metavar="SELECTOR",
                   help="only the runs of jobs whose labels match (team=ops,tier!=web)")
    command("status", "ticker health, next due job, overdue jobs")
    command("doctor", "read-only health checks (exit 1 when anything is found)")
    p = command("why", "explain why a job did or did not run at its last due slot")
    p.add_argument("job", metavar="JOB", help="job id or name")
    p = command("output", "print a job's latest run document")
    p.add_argument("job", metavar="JOB", help="job id or name")
    p.add_argument("--list", action="store_true", help="list its run documents instead")
    p.add_argument("--run", metavar="EXECUTION_ID", help="the document of this execution")
    p = command("export", "print crontab, systemd or Kubernetes definitions, or the jobs file",
                times=False)
    p.add_argument("engine", choices=("crontab", "systemd", "kubernetes", "jobs"))
    p.add_argument("jobs", nargs="*", metavar="JOB",
                   help="export these jobs, one unit or CronJob each (default: the daemon; "
                        "for crontab the every-minute tick)")
    p.add_argument("--tick", action="store_true",
                   help="systemd, kubernetes: the every-minute tick timer or CronJob instead "
                        "of the daemon")
    p.add_argument("--image", metavar="IMAGE",
                   help="kubernetes: run this image, which has hermes_cron installed, instead "
                        "of python:3-slim with the module from a ConfigMap")
    p.add_argument("--replicas", type=int, metavar="N",
                   help="kubernetes: a fleet of N daemons claiming slots through etcd "
                        "(with --etcd)")
    p.add_argument("--etcd", nargs="+", default=[], metavar="URL",
                   help="kubernetes --replicas: the etcd members' client URLs")
    p = command("apply", "make the jobs match a jobs file (JSON; see 'export jobs')",
                times=False)
    p.add_argument("file", metavar="FILE", help="the jobs file ('-' reads stdin)")
    p.add_argument("--prune", action="store_true", help="delete the jobs the file does not name")
    p.add_argument("--dry-run", action="store_true", help="print the plan; change nothing")
    p = command("incidents", "list open failure incidents, ack or reopen one")
    p.add_argument("action", nargs="?", default="list",
                   choices=("list", "ack", "close", "reopen"),
                   help="default: list; close is ack (upstream's word)")
    p.add_argument("id", nargs="?", metavar="ID", help="the incident to ack or reopen")
    p.add_argument("--all", action="store_true", help="list resolved and closed ones too")
    p.add_argument("--state", metavar="S", help="only incidents in this state")
    p.add_argument("--job", metavar="JOB", help="only this job's incidents")
    p = command("deliveries", "list the delivery queue, newest first")
    p.add_argument("action", nargs="?", default="list", choices=("list",), help="default: list")
    p.add_argument("--status", metavar="S", help="only rows in this status")
    p.add_argument("--limit", type=int, default=50, metavar="N", help="how many (default 50)")
    p = command("prompt", "print the prompt a job's next run would send (runs nothing)",
                times=False)
    p.add_argument("job", metavar="JOB", help="job id or name")
    p = command("notepad", "read or change a job's notepad")
    p.add_argument("job", metavar="JOB", help="job id or name")
    p.add_argument("action", nargs="?", default="list", choices=("list", "get", "set", "delete"),
                   help="default: list")
    p.add_argument("key", nargs="?", metavar="KEY")
    p.add_argument("value", nargs="?", metavar="VALUE")
    command("daemon", "tick at every minute boundary until SIGTERM or SIGINT")
    p = command("next", "preview fire times of a job or a schedule", times=False)
    p.add_argument("what", metavar="EXPR_OR_JOB", help="a job id or name, or a schedule")
    p.add_argument("-n", type=int, default=5, metavar="N", help="how many (default 5)")
    p.add_argument("--tz", help="zone to evaluate in")
    p.add_argument("--after", metavar="ISO", help="start here instead of now")
    p = command("show", "one job in full: schedule, next runs, targets, last runs, incidents")
    p.add_argument("job", metavar="JOB", help="job id or name")
    p = command("metrics", "print Prometheus metrics (text exposition format 0.0.4)",
                times=False)
    p.add_argument("--textfile", metavar="PATH",
                   help="write them atomically to PATH instead (node_exporter's textfile "
                        "collector)")
    p = command("serve", "a read-only status site: HTML, /metrics, /healthz, /api/...")
    p.add_argument("--bind", default="127.0.0.1:8765", metavar="HOST:PORT",
                   help="where to listen (default 127.0.0.1:8765)")
    p.add_argument("--token-env", metavar="NAME",
                   help="require the token held in $NAME (needed beyond loopback)")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="also answer requests for the host name NAME (repeatable): a "
                        "reverse proxy's name; others get 421")
    return top


def _choice_error(message):
    """argparse's "invalid choice" *message* as an error suggesting the closest choices.

    The choices are read back from the message, which quotes them or not
    depending on the Python version; ours are plain words either way.
    """
    import difflib
    import re

    match = re.search(r"argument (\S+): invalid choice: (['\"])(.*?)\2.*?\(choose from (.*)\)",
                      message)
    if not match:
        return None
    name, word = match.group(1), match.group(3)
    choices = [c.strip("'\"") for c in match.group(4).split(", ")]
    close = difflib.get_close_matches(word, choices, n=3)
    if close:
        fix = "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    elif name == "COMMAND":
        fix = "see 'python -m hermes_cron --help' for the commands"
    else:
        fix = "use one of " + ", ".join(choices)
    what = "unknown command" if name == "COMMAND" else f"unknown {name.lower()}"
    return InvalidInputError(what, word, fix)


def _fast_args(argv):
    """Parse ``[--home DIR] [--json] tick`` without argparse.

    cron(8) runs exactly this every minute; importing argparse would be most
    of the cost of a tick with nothing due.
    """
    import types

    args = types.SimpleNamespace(command=None)
    words = list(argv)
    while words:
        word = words.pop(0)
        if word == "--json":
            args.json = True
        elif word == "--home" and words:
            args.home = words.pop(0)
        elif word.startswith("--home="):
            args.home = word[7:]
        elif word == "tick" and args.command is None:
            args.command = "tick"
        else:
            return None
    return args if args.command == "tick" else None


def _display_zone(home, args):
    """The zone human output is shown in: ``--utc``, ``--tz``, ``$TZ``, else the home's."""
    if getattr(args, "utc", False):
        return _UTC
    name = getattr(args, "shown_tz", None)
    if name is not None:
        return _zone(name, "--tz")
    environ = home.scheduler.environ
    if environ.get("TZ", "").lstrip(":"):
        try:
            return _system_zone(environ)
        except HermesCronError:
            pass  # a POSIX rule zoneinfo cannot read (UTC0): the home's zone
    return _safe_zone(home, None)


def _print_json(value):
    import json

    print(json.dumps(value, indent=2, ensure_ascii=False))


def _warn_config(home):
    for warning in home.config_warnings:
        print(f"{_PROG}: warning: {_printable(warning)}", file=sys.stderr)


def _cmd_list(home, args):
    import gc

    # The store is a million acyclic objects at 100k jobs: every full
    # collection while the rows are built would walk them all (two of them
    # cost more than the rows themselves).  Back on for a caller in-process.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if args.json:
            _print_json(home.jobs(include_all=args.all, labels=args.selector))
        elif args.selector is not None:
            if not _print_job_list(home, home.jobs(labels=args.selector), args.all, args.zone):
                print(_printable(f"No jobs match the label selector {args.selector}."))
        elif not _print_job_list(home, home.jobs(), args.all, args.zone):
            print("No jobs. Add one: python -m hermes_cron add '0 9 * * 1-5' "
                  "'Summarise the news'")
    finally:
        if collecting:
            gc.enable()


# The width each 'list' column is sure of: with two spaces between them, 100 in all
# (NEXT RUN's widest, '2026-03-06 09:00 +0530', is never cut).  SCHEDULE, then
# NAME, may grow into room the others leave.
_LIST_WIDTH = 100
_LIST_COLUMNS = (12, 14, 18, 9, 22, 15)


def _fit(text, width):
    """*text* cut to *width* characters with "..."."""
    return text if len(text) <= width else text[: width - 3] + "..."


def _print_job_list(home, jobs, completed=True, shown=None):
    """Print *jobs* as ``list`` does: soonest next run first, at most 100 columns.

    Next runs are minutes on one clock, *shown*'s (default: the home's zone),
    with the zone's abbreviation; a schedule that reads on another zone (the
    job's, or its ``CRON_TZ=``) names it.  A paused job's reason goes on the
    line below it.  Completed jobs are left out unless *completed*.  Returns
    the number of jobs printed (nothing is printed for none).
    """
    rows, reasons = _job_list_rows(home, jobs, completed, shown)
    if not rows:
        return 0
    rows.insert(0, ("ID", "NAME", "SCHEDULE", "STATE", "NEXT RUN", "LAST"))
    reasons.insert(0, None)
    natural = [max(map(len, column)) for column in zip(*rows)]
    widths = [min(n, w) for n, w in zip(natural, _LIST_COLUMNS)]
    spare = _LIST_WIDTH - sum(widths) - 2 * (len(widths) - 1)
    for i in (2, 1):
        grow = min(natural[i] - widths[i], spare)
        widths[i], spare = widths[i] + grow, spare - grow
    indent = " " * (widths[0] + 2)  # under NAME
    # One format for every row ("{:<w}" pads as ljust does; the last column
    # is not padded, and no cell ends in a space); only the columns holding
    # a cell wider than its column need cutting.
    line = "  ".join([f"{{:<{w}}}" for w in widths[:-1]] + ["{}"]).format
    cut = [i for i, (n, w) in enumerate(zip(natural, widths)) if n > w]
    if cut:
        rows = [tuple(_fit(c, widths[i]) if i in cut else c for i, c in enumerate(row))
                for row in rows]
    if not any(reasons):
        import itertools

        out = list(itertools.starmap(line, rows))
    else:
        out = []
        for row, reason in zip(rows, reasons):
            out.append(line(*row))
            if reason:
                reason = _printable(" ".join(f"paused: {reason}".split()))
                out.append(indent + _fit(reason, _LIST_WIDTH - len(indent)))
    sys.stdout.write("\n".join(out) + "\n")
    return len(rows) - 1


def _job_list_rows(home, jobs, completed=True, shown=None):
    """The rows of ``list`` (six cells each) and each one's pause reason or None;
    without *completed*, completed jobs are left out; times on *shown*'s clock
    (default: the home's zone)."""
    default = _safe_zone(home, None)  # most jobs have no zone of their own: one lookup
    shown = default if shown is None else shown
    shown_name = _zone_name(shown)
    default_marked = _zone_name(default) != shown_name
    # Many jobs share a slot, a schedule and a last status: each stored next
    # run is parsed once, and each repeated cell checked once.
    slots, cells = {}, {}
    timed, untimed = [], []  # soonest first; the rest after them, as they are stored
    for job in jobs:
        state = _job_state(job)
        if state == "completed" and not completed:
            continue
        get = job.get
        schedule = get("schedule")
        if type(schedule) is not dict:
            schedule = {}
        expr = schedule.get("expr")
        if schedule.get("kind") == "cron" and not get("tz") and type(expr) is str and \
                "=" not in expr:
            # What _list_zone and _friendly_schedule give such a job, as they would.
            text = get("schedule_display") or schedule.get("display") or "-"
            if default_marked and type(text) is str:
                text = f"{text} ({_zone_name(default)})"
        else:
            text = _friendly_schedule(job, shown)
            if schedule.get("kind") == "cron" and type(text) is str and "CRON_TZ=" not in text:
                name = _zone_name(_list_zone(home, job, default))
                if name != shown_name:
                    text = f"{text} ({name})"
        slot = None
        if state == "scheduled":
            stored = get("next_run_at")
            key = stored if type(stored) is str else None
            slot = slots.get(key)
            if slot is None:
                when = _parse_stored(stored)
                slot = (when.timestamp(), _shown(when, shown, seconds=False)) if when else None
                if key is not None:
                    slots[key] = slot
        last = get("last_status") or "-"
        if type(text) is not str or type(last) is not str:
            text, last = str(text), str(last)  # as _cell reads them (a damaged store)
        text_cell = cells.get(text)
        if text_cell is None:
            text_cell = cells[text] = _cell(text)
        last_cell = cells.get(last)
        if last_cell is None:
            last_cell = cells[last] = _cell(last)
        # The state and the minute are this module's words: plain cells already.
        row = (_cell(get("id")), _cell(get("name") or "-"), text_cell, state,
               slot[1] if slot else "-", last_cell)
        reason = get("paused_reason") or _DEFAULT_PAUSE_REASON if state == "paused" else None
        if slot:
            timed.append((slot[0], row, reason))
        else:
            untimed.append((0, row, reason))
    timed.sort(key=lambda item: item[0])  # stable: ties keep the store's order
    return [item[1] for item in timed + untimed], [item[2] for item in timed + untimed]


def _cell(value):
    """A ``list`` cell: one line of printable text, runs of white space made one space."""
    text = value if type(value) is str else str(value)
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text  # the common case, tested in C: the slow path would return it as is
    return _printable(" ".join(text.split()))


def _list_zone(home, job, default=None):
    """The zone a job's schedule reads in: its ``CRON_TZ=`` prefix, else the job's
    (*default*, the home's, for a job with none of its own, if the caller has it)."""
    schedule = job.get("schedule") if isinstance(job.get("schedule"), dict) else {}
    expr = schedule.get("expr")
    # Only a CRON_TZ= prefix has an '=': the others need no parse (a listing
    # of 100k jobs asks this of each).
    if schedule.get("kind") == "cron" and isinstance(expr, str) and "=" in expr:
        try:
            prefix = _cron(expr).tz
            if prefix:
                return _zone(prefix)
        except HermesCronError:
            pass  # an unparseable stored schedule: 'doctor' names it
    if default is not None and not job.get("tz"):
        return default
    return _safe_zone(home, job)


def _job_fields_from(args, editing, job=None):
    """The ``add_job``/``edit_job`` keywords *args* give; *job* is the one edited."""
    fields = {key: getattr(args, key, None) for key in (
        "name", "tz", "deliver", "failure_deliver", "repeat", "skills", "script", "no_agent",
        "context_from", "model", "provider", "base_url", "workdir", "allow_scan", "api_key_env",
        "verify", "on_unverified", "watch") + _UPSTREAM_OPTIONS + _POLICY_FIELDS}
    for key in ("allow_scan", "verify", "watch", "env", "labels"):  # '' empties the list
        if fields[key] is not None:
            fields[key] = [item for item in fields[key] if item]
    if editing:
        fields["schedule"], fields["prompt"] = args.schedule, args.prompt
        if args.clear_skills:
            fields["skills"] = []
        elif fields["skills"] is None and (args.add_skills or args.remove_skills):
            kept = [s for s in job.get("skills") or () if s not in (args.remove_skills or ())]
            fields["skills"] = kept + [s for s in dict.fromkeys(args.add_skills or ())
                                       if s not in kept]
    if args.continuity is not None:  # upstream's spelling of 'self' in context_from
        refs = fields["context_from"]
        if refs is None:
            refs = list((job or {}).get("context_from") or ())
        refs = [r for r in refs if not (isinstance(r, str) and r.lower() == "self")]
        fields["context_from"] = refs + ["self"] if args.continuity else refs
    return fields


def _pin_fields(home, args, fields, job=None):
    """Resolve ``--pin``/``--unpin`` into *fields*' model and provider, as upstream does.

    ``--pin`` copies the model a run would use now (config agent.model, or
    its provider's model) unless ``--model`` is given or the edited *job*
    has one; ``--unpin`` clears both unless ``--model`` is given.
    """
    if args.pin is None or fields["model"] is not None:
        return
    if not args.pin:
        fields["model"] = fields["provider"] = ""
        return
    if (job or {}).get("model"):
        return
    agent = home.settings.get("agent") or {}
    provider = fields["provider"] or (job or {}).get("provider") or agent.get("provider")
    model = agent.get("model") or (_provider_entry(home.scheduler, provider)[2]
                                   if provider else None)
    if not model:
        print(f"{_PROG}: warning: --pin: config agent.model is not set, so there is no model "
              f"to pin; the job follows the config", file=sys.stderr)
        return
    fields["model"], fields["provider"] = model, provider


def _with_ping(home, args):
    """The ``deliver`` value with ``--ping URL`` as its one ``ping:`` target ('' removes it)."""
    if args.ping is None:
        return args.deliver
    base = args.deliver
    if base is None and args.command == "edit":
        base = home.job(args.job).get("deliver")
    targets = [t for t in _split_targets(base or "local") if not t.lower().startswith("ping:")]
    if args.ping.strip():
        targets.append("ping:" + args.ping.strip())
    return ",".join(targets)


def _say_job(home, verb, job, args):
    if verb in ("Created", "Updated"):
        for gap in _upstream_gaps(job, home.path):
            print(_printable(f"{_PROG}: warning: an upstream Hermes ticker could not run this "
                             f"job as written: {gap}"), file=sys.stderr)
        for _code, message in _preflight(home.scheduler, job):
            print(_printable(f"{_PROG}: warning: {message}"), file=sys.stderr)
    if args.json:
        _print_json(job)
        return
    print(_printable(f"{verb} job {_job_label(job)}"))
    schedule = job.get("schedule") or {}
    cron_tz = _cron(schedule["expr"]).tz if schedule.get("kind") == "cron" else None
    where = cron_tz or _zone_name(home.zone(job))
    expr = f"{schedule.get('expr')}, " if schedule.get("kind") == "cron" and \
        schedule.get("expr") != job.get("schedule_display") else ""
    print(_printable(f"  schedule  {_friendly_schedule(job, args.zone)}  ({expr}{where})"))
    if _job_state(job) == "paused":
        print(_printable(f"  paused    {job.get('paused_reason') or _DEFAULT_PAUSE_REASON}"))
    else:
        print(_printable(f"  next run  {_shown(job.get('next_run_at'), args.zone)}"))


def _cmd_add(home, args):
    for what in ("schedule", "prompt"):
        option = getattr(args, what + "_option")
        if option is not None and getattr(args, what) is not None:
            raise InvalidInputError(f"the {what} is given twice", option,
                                    f"give it once: as an argument or as --{what}")
        if option is not None:
            setattr(args, what, option)
    if args.schedule is None:
        raise InvalidInputError("the following arguments are required: SCHEDULE", None,
                                "see 'python -m hermes_cron add --help'")
    fields = _job_fields_from(args, editing=False)
    fields["no_agent"] = bool(fields["no_agent"])
    fields["deliver"] = _with_ping(home, args)
    _pin_fields(home, args, fields)
    job = home.add_job(args.schedule, args.prompt or "", paused=args.paused,
                       reason=args.reason, **fields)
    _warn_config(home)
    _say_job(home, "Created", job, args)


def _cmd_edit(home, args):
    current = home.job(args.job) if args.add_skills or args.remove_skills or \
        args.continuity is not None or args.pin is not None else None
    fields = _job_fields_from(args, editing=True, job=current)
    _pin_fields(home, args, fields, current)
    job = home.edit_job(args.job, **dict(fields, deliver=_with_ping(home, args)))
    _warn_config(home)
    _say_job(home, "Updated", job, args)


def _cmd_pause(home, args):
    job = home.pause_job(args.job, args.reason)
    _say_job(home, "Paused", job, args)


def _cmd_resume(home, args):
    was_paused = _job_state(home.job(args.job)) != "scheduled"
    job = home.resume_job(args.job, run_now=args.run_now, at=args.at)
    _say_job(home, "Resumed" if was_paused or args.run_now or args.at else
             "Nothing to resume (it was not paused):", job, args)


def _cmd_remove(home, args):
    job = home.remove_job(args.job)
    if args.json:
        _print_json(job)
    else:
        print(_printable(f"Removed job {_job_label(job)}"))


def _cmd_next(home, args):
    after = parse_iso(args.after) if args.after else None
    fires = home.next_fires(args.what, args.n, tz=args.tz, after=after)
    if args.json:
        _print_json([_iso(f) for f in fires])
    elif not fires:
        print("no fire ahead: a one-shot whose time has passed")
    else:
        for fire in fires:
            print(_iso(fire))


# =============================================================================
# 27. Commands that fire and read
#    The tick's log, tick, run and daemon, and the commands that read a home.
# =============================================================================

# The environment the C library's localtime() reads (a caller that swaps in
# another mapping, as tests do, gets the tz database instead).
_PROCESS_ENVIRON = os.environ


class _TickLog:
    """The log of ``tick`` and ``daemon``: one line per event, each stamped.

    Human lines start with the event's time, ISO 8601 on *zone*'s clock
    (``2026-03-06T13:00:00+01:00``; ``2026-03-06T12:00:00Z`` in UTC, from
    ``home.now()``), and show the times in them on that clock; with ``--json``
    each event is one JSON object on its own line (``at`` in UTC, ``event``
    and the event's fields), for log shippers.
    Errors go to stderr as human lines, and to stdout too as ``--json`` events.
    It is the scheduler's ``observer`` (see ``_notify``) and the daemon's
    ``on_report``; run threads write through it, so a line is written whole.
    """

    def __init__(self, home, as_json, daemon=False, zone=None, arm=None):
        self.home, self.as_json, self.daemon, self._zone = home, as_json, daemon, zone
        self.arm = arm  # called before the first run starts (tick's signal handlers)
        self._lock = _thread.allocate_lock()
        self._idle_said = None  # the daemon: when it last said 'no jobs due' (None: busy since)
        self._lost = set()  # streams that failed a write: not written again

    @property
    def zone(self):
        """The operator's zone (``_display_zone``), resolved when a line first shows a time."""
        if self._zone is None:
            self._zone = _display_zone(self.home, None)
        return self._zone

    def _offset(self, now):
        """*now*'s offset on the operator's clock, in seconds.

        Where that clock is the system's (no ``timezone`` in config, no
        ``$HERMES_TIMEZONE``) and the process reads the real environment, the
        C library's ``localtime`` gives it: an empty tick need not load the
        tz database for its one line.
        """
        if self._zone is None and self.home.environ is _PROCESS_ENVIRON and not (
                os.environ.get("HERMES_TIMEZONE") or self.home.scheduler.config_timezone()):
            return time.localtime(now.timestamp()).tm_gmtoff
        return _in_zone(now, self.zone).utcoffset().total_seconds()

    def say(self, event, text, stream=None, **fields):
        now = self.home.now()
        stamp = now.astimezone(_UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        try:
            offset = self._offset(now)
        except HermesCronError:
            offset = 0  # a config that cannot be read: the tick reports it; UTC meanwhile
        local = stamp if not offset else _iso(now.astimezone(timezone(timedelta(
            seconds=offset))))
        lines = [] if self.as_json and stream is None else \
            [(stream or sys.stdout, f"{local} {_printable(text)}\n")]
        if self.as_json:
            import json

            lines.append((sys.stdout, json.dumps(dict(at=stamp, event=event, **fields),
                                                 ensure_ascii=False) + "\n"))
        with self._lock:
            for out, line in lines:
                if out in self._lost:
                    continue
                try:
                    out.write(line)
                    out.flush()
                except (OSError, ValueError):
                    # The reader is gone (EPIPE: `| head`, a killed `tee`) or the
                    # disk is full: the log is lost, never the daemon's drain.
                    self._lost.add(out)
                    _silence(out)

    def __call__(self, event, value):
        if event == "scanned":
            report, claims = value
            self._settled(report.get("reconciled") or ())
            for job_id, last in report.get("lost") or ():
                self.say("lost", f"{job_id} executions.db has no row for its last run "
                                 f"({_shown(last or 'its claim', self.zone)}): the ledger lost "
                                 f"its history; slots "
                                 f"at or before it are not fired again (see 'doctor')",
                         job_id=job_id, last_run_at=last)
            held = [s for s in report["skipped"] if s["reason"] == "max_parallel"]
            for skip in report["skipped"]:
                if skip["reason"] != "max_parallel":
                    self.say("skipped", f"{skip['job_id']} skipped {skip['reason']} "
                                        f"{_shown(skip['scheduled_instant'], self.zone)}: "
                                        f"{_shown_in_text(skip['detail'], self.zone)}", **skip)
            if claims and self.arm is not None:
                self.arm()
                self.arm = None
            for claim in claims:
                self.say("dispatched", f"{claim.job['id']} {claim.eid} running {claim.kind}",
                         job_id=claim.job["id"], execution_id=claim.eid, status="running",
                         kind=claim.kind)
            if held:
                self._held_back(held)
        else:
            self._finished(value)

    def _held_back(self, held):
        """One line for the slots capacity held back, after the tick's dispatch lines."""
        jobs = sorted({s["job_id"] for s in held if s.get("job_id")})
        shown = ", ".join(jobs[:5]) + (f" and {len(jobs) - 5} more" if len(jobs) > 5 else "")
        limit = self.home.scheduler.settings["max_parallel"]
        self.say("held_back", f"held back {len(jobs)} due job(s) at max_parallel {limit}: "
                              f"{shown}; they go first at the next tick with room (see "
                              f"'doctor' if this is routine)",
                 reason="max_parallel", job_ids=jobs, slots=held)

    def _finished(self, claim):
        home, eid = self.home, claim.eid
        row = claim.row or home.scheduler.ledger.get([eid]).get(eid) or {"status": "failed"}
        outcome, error = row["status"], row.get("error")
        if outcome == "completed" and row.get("delivery_outcome") == "failed":
            try:
                error = home.scheduler.deliveries.row(eid)["error"]
            except Exception:  # e.g. a damaged deliveries.db: the tick reports it
                error = None
            outcome, error = "delivery_failed", error or "delivery failed (see 'deliveries')"
        elif outcome == "completed" and claim.outcome is not None and claim.outcome.silent:
            outcome = "silent"
        took = _run_duration(row)
        name = claim.job.get("name") or ""
        error = _error_summary(error) if error else None
        self.say("finished", f'{claim.job["id"]} {eid} {outcome} in '
                             f'{"-" if took is None else format(took, "g")}s "{name}"'
                             + (f": {error}" if error else ""),
                 job_id=claim.job["id"], execution_id=eid, name=name, outcome=outcome,
                 duration_seconds=took, error=error)

    def report(self, report):
        """Log what a tick's report adds to its events, or a daemon stage."""
        stage = report.get("stage")
        if stage:
            self._stage(stage, report)
            return
        for key in ("error", "config_error", "drain_error", "housekeeping_error", "fleet_error"):
            if report.get(key):
                self.say("error", f"{_PROG}: error: {report[key]}", sys.stderr,
                         error=report[key])
        if report.get("busy"):
            self.say("busy", "tick busy: another tick holds .tick.lock; nothing to do")
        if "dispatched" not in report or report["busy"]:
            return
        for lost in report.get("fleet_lost", ()):
            self.say("fleet_lost", f'{lost["job_id"]} {lost["scheduled_instant"]} claimed by '
                                   f'{lost["node"]} (execution {lost["execution_id"]}): not run '
                                   f'here', **lost)
        for key in report.get("fleet_settled", ()):
            self.say("fleet_settled", f"settled {key} unknown: its ticker's etcd lease expired",
                     key=key)
        if report["dispatched"] or report["skipped"] or report.get("reconciled") \
                or report.get("lost") or report.get("fleet_lost") or report.get("fleet_error"):
            self._idle_said = None
            return
        now = self.home.now()
        if not self.daemon or self._idle_said is None or \
                abs((now - self._idle_said).total_seconds()) >= 3600:
            self._idle_said = now  # the daemon says it when it changes, then hourly
            self.say("idle", "no jobs due")

    def _settled(self, eids):
        """One line per run the tick settled ``unknown`` (its owner died or went silent)."""
        try:
            rows = self.home.scheduler.ledger.get(list(eids)) if eids else {}
        except Exception:  # e.g. a damaged executions.db: the tick reports it
            rows = {}
        for eid in eids:
            row = rows.get(eid) or {"job_id": "-", "error": None}
            error = _error_summary(row["error"]) if row["error"] else "outcome unknown"
            self.say("unknown", f"{row['job_id']} {eid} unknown: {error}",
                     job_id=row["job_id"], execution_id=eid, status="unknown", error=error)

    def _stage(self, stage, report):
        if stage == "start":
            import sqlite3

            fields = {"version": __version__, "home": self.home.path, "pid": os.getpid(),
                      "python": sys.version.split()[0], "sqlite": sqlite3.sqlite_version}
            self.say(stage, "daemon started: hermes_cron {version} home={home} pid={pid} "
                            "python={python} sqlite={sqlite}".format(**fields), **fields)
        elif stage == "stopping":
            running = report["running"]
            self.say(stage, f"stopping on {report['signal']}: " + (
                f"{running} run(s) in flight, draining up to {report['drain']:g} s"
                if running else "no run in flight"), signal=report["signal"],
                running=running, drain_seconds=report["drain"])
        elif stage == "interrupting":
            self.say(stage, f"drain over: sending {report['signal']} to {report['running']} "
                            f"run(s) still running, SIGKILL after {report['grace']:g} s",
                     signal=report["signal"], running=report["running"],
                     grace_seconds=report["grace"])
        else:
            self.say(stage, "daemon stopped")


def _silence(stream):
    """Point a stream whose reader is gone at /dev/null, so exit's flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a file descriptor (a test's buffer): nothing is flushed at exit


def _cmd_tick(home, args):
    import gc

    # SIGTERM (systemd stopping the unit, a Kubernetes Job's deadline) and
    # Ctrl-C stop the runs and record them interrupted, as 'run' does, rather
    # than leave them running with no owner.  Armed only when a run starts: an
    # empty tick does not import signal.
    armed = []

    def arm():
        stop = _stop_runs_on_signals(home)
        stop.__enter__()
        armed.append(stop)

    home.scheduler.observer = log = _TickLog(home, args.json, zone=args.zone, arm=arm)
    # The store of 10,000 jobs is a few hundred thousand objects, none in a
    # cycle: frozen once loaded, the collections a thousand run threads set
    # off pass over them instead of through them.  Thawed for an in-process
    # caller.
    home.scheduler.store.freeze = True
    try:
        report = home.tick()
    finally:
        home.scheduler.store.freeze = False
        gc.unfreeze()
        for scope in armed:
            scope.__exit__(None, None, None)
    log.report(report)
    if home.scheduler.runs.stopping:
        return EXIT_INTERRUPTED
    return EXIT_FAILURE if any(report.get(k) for k in (
        "config_error", "drain_error", "housekeeping_error", "fleet_error")) else EXIT_OK


def _cmd_run(home, args):
    with _stop_runs_on_signals(home):
        row = home.run_job(args.job, args.occurrence, args.retried)
    interrupted = home.scheduler.runs.stopping
    if interrupted and not row["already"] and row["status"] != "skipped":
        if args.json:
            _print_json(row)
        else:
            print(_printable(f"interrupted by {interrupted}: stopped execution {row['id']} of "
                             f"job {row['job_id']} ({row['status']})"))
        return EXIT_INTERRUPTED
    if row["status"] == "skipped":  # a slot too old to run: recorded, and nothing ran
        if args.json:
            _print_json(row)
        else:
            print(_printable(f"occurrence {_shown(row['scheduled_instant'], args.zone)} of job "
                             f"{row['job_id']} skipped ({row['reason']}): "
                             f"{_shown_in_text(row['detail'], args.zone)}; nothing ran"))
        return EXIT_OK
    if args.json:
        _print_json(row)
    elif row["already"]:
        print(_printable(f"occurrence {_shown(row['scheduled_instant'], args.zone)} of job "
                         f"{row['job_id']} already has execution {row['id']} ({row['status']}); "
                         f"nothing to do"))
    else:
        print(_printable(f"{row['job_id']} {row['id']} {row['status']}"))
        if row["error"]:
            print(f"    {_printable(_error_summary(row['error']))}")
    undelivered = not row["already"] and row.get("delivery_outcome") == "failed"
    if undelivered and not args.json:
        try:
            error = home.job(row["job_id"]).get("last_delivery_error")
        except JobNotFoundError:  # removed while it ran
            error = None
        print(f"    {_printable(_one_line(error or 'delivery failed', 300))}")
    return EXIT_OK if row["already"] or (row["status"] == "completed" and not undelivered) \
        else EXIT_FAILURE


def _stop_runs_on_signals(home):
    """A context manager within which SIGINT and SIGTERM stop this process's runs.

    Without it Ctrl-C would leave the child running in its own session and
    its row ``running`` until the owner is proven dead.  The handler only
    starts a thread (``_Runs.stop``): the signal lands in the main thread,
    which may hold ``_Runs.lock``.
    """
    import contextlib
    import threading

    @contextlib.contextmanager
    def scope():
        import signal

        if threading.current_thread() is not threading.main_thread():
            yield  # signals reach the main thread only
            return
        grace = _env_seconds(home.environ, "KILL_GRACE_SECONDS", _STOP_GRACE)

        def on_signal(signum, _frame):
            threading.Thread(target=home.scheduler.runs.stop, args=(signal.Signals(signum).name, grace),
                             daemon=True, name="hermes-cron-stop").start()

        saved = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in saved.items():
                signal.signal(sig, handler)

    return scope()


def _cmd_runs(home, args):
    rows = home.runs(args.job, args.limit, labels=args.selector)
    if args.json:
        _print_json(rows)
        return
    if not rows:
        print("No executions recorded.")
        return
    zone = args.zone
    names = _job_names(home)
    for row in rows:
        took = _run_duration(row)
        print(_printable(f"{row['id']} {row['status']} job={row['job_id']} "
                         f"source={row['source']} {_shown(row['claimed_at'], zone)}"
                         + (f" took {took:g} s" if took is not None else "")
                         + (f" verdict={row['verdict']}" if row.get("verdict") else "")
                         + (f" attempt={row['attempt']}" if row.get("attempt") else "")
                         + (f" retry at {_shown(row['retry_at'], zone)}"
                            if row.get("retry_at") else "")
                         + (f" node={row['node']}" if row.get("node") else "")
                         + names.get(row["job_id"], "")))
        if row["error"]:
            print(f"    {_printable(_error_summary(row['error']))}")


def _job_names(home):
    """`` name=NAME`` of each named job by id, for lines that show a job id."""
    return {job.get("id"): f" name={' '.join(job['name'].split())}" for job in home.jobs()
            if isinstance(job.get("name"), str) and job["name"].strip()}


def _cmd_status(home, args):
    info = home.status()
    if args.json:
        _print_json(info)
        return EXIT_FAILURE if info["stalled"] else EXIT_OK  # a liveness probe
    zone = args.zone
    age = info["heartbeat_age_seconds"]
    if age is None:
        ticker = "no heartbeat: is anything calling 'python -m hermes_cron tick' every minute?"
    elif info["stalled"]:
        ticker = f"STALLED: last heartbeat {_age_words(age)} (pid {info['ticker_pid']})"
    else:
        ticker = f"heartbeat {_age_words(age)} (pid {info['ticker_pid']})"
    rows = [("ticker", ticker)]
    if info["last_error"]:
        rows.append(("last tick", f"failed: {_error_summary(info['last_error'])}"))
    elif info["last_success"]:
        rows.append(("last tick", f"ok at {_shown(info['last_success'], zone)}"))
    rows.append(("jobs", f"{info['active_jobs']} active of {info['jobs']}; "
                         f"{info['running']} running now"))
    fleet = info.get("fleet")
    if fleet is not None:
        rows.append(("fleet", f"node {fleet['node']}; etcd up, {len(fleet['tickers'])} "
                              f"ticker(s) alive" + (f" ({', '.join(fleet['tickers'])})"
                                                     if fleet["tickers"] else "")
                     if fleet["up"] else f"node {fleet['node']}; DOWN: {fleet['error']}: "
                                         f"nothing is fired"))
    nxt = info["next_due"]
    rows.append(("next due", f"{nxt['job_id']} ({nxt['name']}) at "
                             f"{_shown(nxt['next_run_at'], zone)}" if nxt else "-"))
    for late in info["overdue"]:
        rows.append(("overdue", f"{late['job_id']} ({late['name']}) due "
                                f"{_shown(late['next_run_at'], zone)}, "
                                f"{_span(late['late_seconds'])} ago"))
    for held in info["held_back"]:
        rows.append(("held back", f"{held['job_id']} ({held['name']}) due "
                                  f"{_shown(held['next_run_at'], zone)}, waiting for a free "
                                  f"run slot (max_parallel) since "
                                  f"{_shown(held['held_since'], zone)}"))
    for bad in info["failed"]:
        rows.append(("failed", f"{bad['job_id']} ({bad['name']}): "
                               f"{_one_line(bad['last_error'] or '?')}"))
    rows += _status_count_rows(info)
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(_printable(f"{key.ljust(width)}  {value}"))
    return EXIT_FAILURE if info["stalled"] else EXIT_OK


def _not_sqlite(path):
    """What a file without an SQLite header is, for doctor's files line."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return "unreadable"
    return "empty (0 bytes)" if size == 0 else "not an SQLite file"


def _cmd_doctor(home, args):
    report = home.doctor()
    if args.json:
        _print_json(report)
        return EXIT_OK if report["ok"] else EXIT_FAILURE
    storage = report["storage"]
    modes = ", ".join(f"{name} {mode or _not_sqlite(os.path.join(home.path, name))}"
                      for name, mode in storage["journal_modes"].items())
    print(f"SQLite {storage['sqlite_version']}: "
          + ("WAL" if storage["wal"] else "rollback journal (DELETE; this SQLite has the "
             "WAL-reset bug fixed in 3.51.3; HERMES_CRON_SQLITE_WAL=1 opts in to WAL)")
          + f"; files: {modes or 'none yet'}")
    if report["ok"]:
        print(f"hermes_cron doctor: no issues ({len(home.jobs())} job(s) checked)")
    else:
        findings = report["findings"]
        jobs = {f["job_id"] for f in findings if f["job_id"]}
        print(f"hermes_cron doctor: {len(findings)} issue(s) across {len(jobs)} job(s)")
        for finding in findings:
            where = finding["job_id"] or "(home)"
            message = _shown_in_text(finding["message"], args.zone)
            print(_printable(f"  {where}  {finding['code']}: {_one_line(message, 300)}"))
    for note in report["notes"]:
        print(_printable(f"  {note['job_id']}  note {note['code']}: "
                         f"{_shown_in_text(note['message'], args.zone)}"))
    return EXIT_OK if report["ok"] else EXIT_FAILURE


def _cmd_why(home, args):
    info = home.why(args.job)
    if args.json:
        _print_json(info)
    else:
        print(_printable(f"{info['job_id']}: {info['verdict']}: "
                         f"{_shown_in_text(info['message'], args.zone)}"))


def _cmd_output(home, args):
    as_json = args.json
    if args.list:
        docs = home.outputs(args.job)[::-1]  # newest first, as 'runs' lists them
        if as_json:
            _print_json(docs)
        elif not docs:
            print("No run documents.")
        for doc in docs if not as_json else ():
            print(_printable(f"{_shown(doc['run_time'], args.zone)}  {doc['execution_id']}  "
                             f"{doc['status']}  {doc['file']}"))
        return
    text = home.output(args.job, args.run)
    if as_json:
        _print_json({"job_id": home.job(args.job)["id"], "execution_id": args.run,
                     "content": text})
    else:
        sys.stdout.write(_printable(text, newlines=True))


def _cmd_incidents(home, args):
    if args.action == "close":
        args.action = "ack"  # upstream's verb for the same thing
    if args.action in ("ack", "reopen"):
        if not args.id:
            raise InvalidInputError(f"incidents {args.action} needs an incident ID", None,
                                    f"use 'incidents {args.action} ID' (ids are in "
                                    f"'incidents --all')")
        if args.action == "ack":
            row = home.ack_incident(args.id)
            text = (f"Incident {row['id']} closed: future failures with this exact error will "
                    f"not alert; undo: python -m hermes_cron incidents reopen {row['id']}")
        else:
            row = home.reopen_incident(args.id)
            text = (f"Incident {row['id']} is open ({row['state']}): the next failure with "
                    f"this error alerts again" if row["state"] != "resolved" else
                    f"Incident {row['id']} is resolved, not closed: nothing to reopen; the "
                    f"same failure opens it again and alerts")
        if args.json:
            _print_json(row)
        else:
            print(_printable(text))
        return
    if args.id:
        raise InvalidInputError("incidents list takes no ID", args.id, "use --job or --state")
    rows = home.incidents(args.state, args.job)
    if not args.all and not args.state:  # what needs an operator; --all for the history
        rows = [row for row in rows if row["state"] in ("detected", "alerted")]
    if args.json:
        _print_json(rows)
        return
    if not rows:
        print("No incidents recorded." + (f" (state {args.state})" if args.state else "")
              if args.all or args.state else "No open incidents (see 'incidents --all').")
    names = _job_names(home)
    for row in rows:
        first, last = (_shown(row[k], args.zone) for k in ("first_seen_at", "last_seen_at"))
        print(_printable(f"{row['id']}  {row['state']}  job={row['job_id']}"
                         f"{names.get(row['job_id'], '')}  "
                         f"type={row['failure_type']}  generation={row['generation']}"))
        print(f"    seen   {first} .. {last}")
        print(f"    error  {_printable(_error_summary(row['error'], 160))}")
        if row["output_file"]:
            print(f"    output {_printable(row['output_file'])}")
    if any(row["state"] in ("detected", "alerted") for row in rows):
        print(f"{len(rows)} incident(s); ack one with: python -m hermes_cron incidents ack ID")
    elif rows:
        print(f"{len(rows)} incident(s), none open")


def _cmd_deliveries(home, args):
    import json

    rows = home.deliveries(args.status, args.limit)
    if args.json:
        _print_json([_delivery_json(row) for row in rows])
        return
    if not rows:
        print("No deliveries recorded.")
    for row in rows:
        try:
            job = json.loads(row["job_json"])
        except ValueError:
            job = {}
        kind = " failure-alert" if row["for_failure"] else ""
        tries = (f" attempts={row['attempts']}" if row.get("attempts") else "") + (
            f" next try {_shown(row['next_try_at'], args.zone)}" if row.get("next_try_at")
            else "")
        print(_printable(f"{row['execution_id']} {row['status']} job={job.get('id')} "
                         f"targets={job.get('deliver')}{kind} "
                         f"{_shown(row['created_at'], args.zone)}{tries}"))
        if row["error"]:
            print(f"    {_printable(_error_summary(row['error']))}")


def _delivery_json(row):
    """A delivery row for ``--json``: ``job_json`` decoded, plus ``job_id`` and ``targets``.

    A snapshot that does not decode (a damaged row) stays the stored text.
    """
    import json

    try:
        job = json.loads(row["job_json"])
    except (TypeError, ValueError):
        job = None
    if not isinstance(job, dict):
        return dict(row, job_id=None, targets=[])
    deliver = job.get("deliver") if isinstance(job.get("deliver"), str) else "local"
    return dict(row, job_json=job, job_id=job.get("id"), targets=_split_targets(deliver))


def _cmd_prompt(home, args):
    info = home.prompt(args.job)
    if args.json:
        _print_json(info)
    else:
        print(_printable(info["prompt"].rstrip("\n"), newlines=True))
        verdict = f"BLOCKED: {info['blocked']}" if info["blocked"] else "ok"
        print(f"\n--- scanner ({info['tier']} tier): {_printable(verdict)}")
    return EXIT_FAILURE if info["blocked"] else EXIT_OK


def _cmd_notepad(home, args):
    action, key, value = args.action, args.key, args.value
    if action != "list" and key is None or action == "set" and value is None:
        needs = "KEY and VALUE" if action == "set" else "KEY"
        raise InvalidInputError(f"notepad {action} needs {needs}", None,
                                f"use 'notepad JOB {action} {needs.replace(' and ', ' ')}'")
    if action == "list" and key is not None:
        raise InvalidInputError("notepad list takes no KEY", key, "use 'notepad JOB get KEY'")
    job_id = home.job(args.job)["id"]
    if action == "set":
        home.set_note(job_id, key, value)
        if args.json:
            _print_json(dict({"job_id": job_id},
                             **next(n for n in home.notepad(job_id) if n["key"] == key)))
        else:
            print(_printable(f"Set notepad key '{key}' for job {job_id}."))
    elif action == "delete":
        home.delete_note(job_id, key)
        if args.json:
            _print_json({"job_id": job_id, "key": key, "deleted": True})
        else:
            print(_printable(f"Deleted notepad key '{key}' for job {job_id}."))
    elif action == "get":
        value = home.get_note(job_id, key)
        if args.json:
            _print_json({"key": key, "value": value})
        else:
            print(_printable(value, newlines=True))
    elif args.json:
        _print_json(home.notepad(job_id))
    else:
        notes = home.notepad(job_id)
        if not notes:
            print(f"Notepad for job {job_id} is empty.")
        for note in notes:
            print(_printable(f"{note['key']} = {note['value']}"))
            print(f"    updated {_shown(note['updated_at'], args.zone)}")


def _cmd_daemon(home, args):
    home.scheduler.observer = log = _TickLog(home, args.json, daemon=True, zone=args.zone)
    _daemon(home.scheduler, None, None, log.report)


def _status_count_rows(info):
    return [("home", info["home"]),
            ("failing", f"{info['failing_jobs']} job(s) whose last run did not end ok"),
            ("incidents", f"{info['open_incidents']} open"),
            ("delivery", "deliveries.db cannot be read (see 'doctor')"
             if info["deliveries_pending"] is None else
             f"{info['deliveries_pending']} pending ({info['deliveries_retrying']} retrying), "
             f"{info['deliveries_failed_24h']} failed in 24 h"),
            ("slots", f"{info['held_back_24h']} held back, {info['missed_24h']} missed "
                      f"in 24 h (see 'why JOB')")]


def _cmd_show(home, args):
    view = _job_view(home.scheduler, args.job)
    job = view["job"]
    # upstream Hermes' fields this runner stores and does not act on
    view["not_acted_on"] = [k for k in _STORED_ONLY if job.get(k) not in (None, "")]
    if args.json:
        _print_json(view)
        return
    zone = args.zone
    where = f"{view['expression']}, {view['zone']}" if view["expression"] and \
        view["expression"] != view["schedule"] else view["zone"]
    rows = [("job", _job_label(job)),
            ("schedule", f"{view['schedule']}  ({where})"),
            ("state", view["state"] + (f": {view['paused_reason']}" if view["paused_reason"]
                                       else "")),
            ("next runs", ", ".join(_shown(t, zone) for t in view["next_runs"]) or "-"),
            ("targets", ", ".join(view["targets"])),
            ("script", job.get("script") or "-"),
            ("agent", _agent_words(job)),
            ("repeat", _repeat_words(job, view["unknown_fires"])),
            ("last", f"{job.get('last_status') or '-'} at {_shown(job.get('last_run_at'), zone)}"
                     f"; failure streak {job.get('failure_streak') or 0}"),
            ("notepad", ", ".join(view["notepad_keys"]) or "-"),
            ("prompt", _one_line(job.get("prompt") or "-", 100))]
    if _allowed_rules(job):
        rows.append(("allows", "injection-scanner rules " + ", ".join(_allowed_rules(job))))
    if job.get("monitor_script") or job.get("monitor_url"):
        state = job.get("monitor_state") if isinstance(job.get("monitor_state"), dict) else {}
        rows.append(("monitor", f"{job.get('monitor_script') or job.get('monitor_url')}: the "
                                f"agent runs only when it changes (last change "
                                f"{_shown(state.get('last_changed_at') or 'not seen yet', zone)})"))
    if isinstance(job.get("verify"), list) and job["verify"]:
        rows.append(("verify", "; ".join(_verify_text(c) for c in job["verify"]
                                         if isinstance(c, dict))
                     + ("" if job.get("watch") else
                        f" (unverified: {job.get('on_unverified') or 'withhold'})")))
    if job.get("watch"):
        rows.append(("watches", ", ".join(str(j) for j in job["watch"])))
    rows += _policy_rows(job)
    if view["not_acted_on"]:
        rows.append(("ignored", "stored for upstream Hermes, not acted on here: " + ", ".join(
            f"{k}={job[k]}" for k in view["not_acted_on"])))
    for key, value in rows:
        print(_printable(f"{key.ljust(9)}  {value}"))
    print("last runs" if view["runs"] else "last runs  none yet")
    for row in view["runs"]:
        took = f"{row['duration_seconds']:g} s" if row["duration_seconds"] is not None else "-"
        print(_printable(f"  {row['id']} {row['status']} source={row['source']} "
                         f"{_shown(row['claimed_at'], zone)} took {took}"
                         + (f" verdict={row['verdict']}" if row.get("verdict") else "")))
        if row["error"]:
            print(f"      {_printable(_error_summary(row['error']))}")
    for row in view["incidents"]:
        print(_printable(f"incident  {row['id']} {row['state']} type={row['failure_type']}: "
                         f"{_error_summary(row['error'], 120)}"))


def _cmd_metrics(home, args):
    if args.textfile:
        _write_metrics_textfile(home.scheduler, os.path.abspath(args.textfile))
    else:
        sys.stdout.write(_metrics_text(home.scheduler))


# =============================================================================
# 28. Files, serve and main
#    apply and export, the read-only status site, and main().
# =============================================================================

def _cmd_export(home, args):
    text = home.export(args.engine, args.jobs, args.tick, image=args.image,
                       replicas=args.replicas, etcd=args.etcd)
    if args.json:
        _print_json(_export_json(args.engine, text))
    else:
        sys.stdout.write(text)


def _export_json(engine, text):
    """``export --json``: Kubernetes' manifest and the jobs file as they are; crontab's
    lines; systemd's units by file name (``{"hermes-cron.service": "[Unit]..."}``)."""
    import json
    import re

    if engine in ("kubernetes", "jobs"):
        return json.loads(text)
    if engine == "crontab":
        return {"engine": engine, "lines": text.splitlines()}
    parts = re.split(r"^# (\S+)\n", text, flags=re.M)[1:]  # each unit opens "# NAME"
    return {"engine": engine, "units": {name: body.rstrip("\n") + "\n"
                                        for name, body in zip(parts[::2], parts[1::2])}}


def _read_jobs_file(path):
    """The JSON a jobs file holds (``-``: stdin), or ``InvalidInputError`` naming it."""
    import json

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read the jobs file "
                                f"({getattr(exc, 'strerror', None) or exc})", path,
                                "pass a readable JSON file, or '-' for stdin") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidInputError(f"the jobs file is not valid JSON ({exc})", path,
                                "fix it; 'export jobs' prints one") from None


def _cmd_apply(home, args):
    entries = _read_jobs_file(args.file)
    plan = home.apply(entries, prune=args.prune, dry_run=args.dry_run)
    declared = {e["name"].strip().casefold(): e for e in entries}
    if args.json:
        _print_json(plan)
    for step in plan:
        if step["action"] in ("create", "update"):
            # The entry holds the fields a run needs in their stored form.
            for _code, message in _preflight(home.scheduler, declared[step["name"].casefold()]):
                print(_printable(f"{_PROG}: warning: {step['name']}: {message}"),
                      file=sys.stderr)
        if args.json:
            continue
        if step["action"] == "update":
            for change in step["changes"]:
                print(_printable(f"update  {step['name']}: {change['field']} "
                                 f"{_one_line(repr(change['from']), 100)} -> "
                                 f"{_one_line(repr(change['to']), 100)}"))
        else:
            print(_printable(f"{step['action']}  {step['name']}"))
    if not args.json:
        counts = ", ".join(f"{sum(s['action'] == a for s in plan)} {a}" for a in (
            "create", "update", "delete", "unchanged"))
        print(f"dry run: {counts}; nothing written" if args.dry_run else f"applied: {counts}")


# --- 28.1 serve: the read-only status site -----------------------------------

_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'")
_TOKEN_COOKIE = "hermes_cron_session"

# The site's limits.  One thread (the accept loop) reads every connection's
# request line and headers, so a slow or idle client costs a descriptor, never
# a thread; a complete request goes to one of at most _SERVE_THREADS threads,
# which answer it and close the connection (HTTP/1.0: no keep-alive).
_SERVE_THREADS = 16            # threads answering complete requests, at most
_SERVE_CONNECTIONS = 256       # client connections open at once, at most; at the limit a new
#                                one closes the oldest that has not sent its headers yet
_SERVE_BACKLOG = 128           # the listen queue (the kernel may lower it: net.core.somaxconn)
_SERVE_TIMEOUT_SECONDS = 10.0  # from the accept to the end of the headers, and per send after
_SERVE_TIMEOUT_ENV = "HERMES_CRON_SERVE_TIMEOUT_SECONDS"  # overrides it (tests: 0.5)
_SERVE_HEADER_BYTES = 65536    # a longer request line and headers: 431


def _parse_bind(text):
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) -> (host, port)."""
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not port.isdigit() or int(port) > 65535:
        raise InvalidInputError("--bind needs HOST:PORT", text, "use e.g. 127.0.0.1:8765")
    return host, int(port)


def _is_loopback(host):
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name (or every address, ''): it may well be reachable


def _host_key(name):
    """A host name or IP literal as Host headers are compared: lower case, no trailing
    dot, an IP address in its compressed form."""
    import ipaddress

    name = name.strip().lower()
    name = name[:-1] if name.endswith(".") else name
    try:
        return ipaddress.ip_address(name).compressed
    except ValueError:
        return name


def _host_of(value):
    """The host of a Host header (``name``, ``name:port``, ``[v6]:port``) as
    :func:`_host_key` spells it, or None if *value* is not one."""
    import ipaddress

    value = value.strip()
    if value.startswith("["):
        name, sep, port = value[1:].partition("]")
        port = port[1:] if port.startswith(":") else None if port else ""
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
    else:
        name, _, port = value.partition(":")
    if port is None or not name or not (port == "" or port.isascii() and port.isdigit()):
        return None  # 'a:b:c' (IPv6 without brackets), 'host:x', ':80'
    return _host_key(name)


def _allow_host(text):
    """``serve --allow-host NAME``: a host name or an IP literal -> its :func:`_host_key`."""
    import ipaddress
    import re

    name = text.strip()
    name = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    try:
        return ipaddress.ip_address(name).compressed
    except ValueError:
        pass
    try:
        name = name.encode("idna").decode("ascii") if not name.isascii() else name
    except UnicodeError:
        name = text
    label = r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?"
    if len(name) > 254 or not re.fullmatch(rf"{label}(?:\.{label})*\.?", name, re.I):
        raise InvalidInputError("--allow-host needs a host name or an IP address, without "
                                "scheme, port or path", text,
                                "pass the name the site is opened by, e.g. --allow-host "
                                "status.example.com")
    return _host_key(name)


def _host_allowed(name, bind, names):
    """Whether a request whose Host is *name* (a :func:`_host_key`) is for this site.

    Yes for a loopback name (``localhost``, ``*.localhost``, 127.0.0.0/8, ``::1``),
    the bind address, a name in *names* (``--allow-host``) and, when *bind* is a
    wildcard (``0.0.0.0``, ``::``, ``''``), any IP literal: DNS rebinding needs a
    name the attacker's DNS answers for, so an IP literal is the site itself.
    """
    import ipaddress

    if name in names or name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return name == _host_key(bind)
    if ip.is_loopback or getattr(ip, "ipv4_mapped", None) and ip.ipv4_mapped.is_loopback:
        return True
    try:
        bound = ipaddress.ip_address(bind or "::")
    except ValueError:
        return False  # bound by a name: that name, not its addresses
    return bound.is_unspecified or ip == bound


def _log_safe(line, token=None):
    """An access log *line* without a secret in it, and safe for a terminal.

    A query is shown decoded, as ``parse_qs`` reads it, with the value of any
    parameter whose name decodes to ``token`` (``%74oken``, ``TOKEN``, encoded
    twice) as ``***``; the site's own *token* is masked anywhere in any
    percent-spelling, so is a bearer credential; control characters become
    escapes (:func:`_printable`).
    """
    import re
    from urllib.parse import unquote_plus

    def undone(text):  # as often as it was encoded: %2574 -> %74 -> t
        for _ in range(4):
            text, before = unquote_plus(text), text
            if text == before:
                break
        return text

    def query(match):
        parts = re.split(r"([&;])", match.group(1))
        for i in range(0, len(parts), 2):
            name, sep, value = parts[i].partition("=")
            parts[i] = unquote_plus(name) + sep + (
                "***" if undone(name).strip().casefold() == "token" else unquote_plus(value))
        return "?" + "".join(parts)

    line = re.sub(r"\?(\S*)", query, str(line))
    if token:
        def spelled(ch):
            forms = [re.escape(ch), "".join(f"%(?:25)*{b:02x}" for b in ch.encode())]
            return "(?:" + "|".join(forms + ([r"\+"] if ch == " " else [])) + ")"

        line = re.sub("".join(spelled(ch) for ch in token), "***", line, flags=re.I)
    line = re.sub(r"(?i)\b(bearer\s+|authorization\s*[:=]\s*)\S+", r"\1***", line)
    return _printable(line)


def _serve_log(line, token=None):
    """One line of the access log on stderr, made safe by :func:`_log_safe`.  A log
    that cannot be written (a closed pipe) loses the line, never the server."""
    try:
        print(_log_safe(f"{_PROG}: serve: {line}", token), file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _status_server(home, host, port, token=None, allow_hosts=(),
                   timeout=_SERVE_TIMEOUT_SECONDS, zone=None):
    """An HTTP server (not started: call ``serve_forever``) for the status site of *home*.

    Every request reads the home afresh through its own ``CronHome``, as a
    CLI command would.  With *token*, a request needs it as a bearer header,
    or once as ``?token=`` (answered with a session cookie).  A request whose
    Host is not the bind address, a loopback name or one of *allow_hosts* gets
    421.  The limits are the ``_SERVE_*`` constants; *timeout* bounds the time
    from the accept to the end of the headers.
    """
    import errno
    import http
    import http.server
    import queue
    import selectors
    import socket
    import threading

    handler = _status_handler(home, token, host, frozenset(map(_allow_host, allow_hosts)),
                              timeout, zone)

    class Server(http.server.HTTPServer):
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        request_queue_size = _SERVE_BACKLOG

        def __init__(self):
            super().__init__((host, port), handler)
            self.socket.setblocking(False)  # a peer gone before the accept: no hang
            self.pending = {}  # socket -> [deadline, bytes read, address], oldest first
            self.early = {}  # socket -> its request's bytes, for the handler to read
            self.answering = 0  # connections handed to a thread and not closed yet
            self.lock = threading.Lock()
            self.jobs, self.workers, self.idle = queue.SimpleQueue(), [], 0
            self.stopping, self.stopped = threading.Event(), threading.Event()
            self.stopped.set()
            self.wake_r, self.wake_w = socket.socketpair()
            self.wake_r.setblocking(False)
            self.wake_w.setblocking(False)

        def serve_forever(self, poll_interval=0.5):
            self.stopped.clear()
            try:
                with selectors.DefaultSelector() as sel:
                    sel.register(self.socket, selectors.EVENT_READ)
                    sel.register(self.wake_r, selectors.EVENT_READ)
                    while not self.stopping.is_set():
                        self.expire(sel)
                        first = next(iter(self.pending.values()), None)
                        wait = poll_interval if first is None else max(
                            0.0, min(poll_interval, first[0] - time.monotonic()))
                        for key, _ in sel.select(wait):
                            if key.fileobj is self.socket:
                                self.accept(sel)
                            elif key.fileobj is self.wake_r:
                                self.drain(self.wake_r)
                            else:
                                self.read(sel, key.fileobj)
            finally:
                self.stopped.set()

        def shutdown(self):
            self.stopping.set()
            try:
                self.wake_w.send(b"x")
            except OSError:
                pass  # its buffer is full: it is awake already
            self.stopped.wait()

        def server_close(self):
            super().server_close()
            for sock in list(self.pending):
                self.shutdown_request(sock)
            self.pending.clear()
            for _ in self.workers:
                self.jobs.put(None)
            self.wake_r.close()
            self.wake_w.close()

        def accept(self, sel):
            try:
                sock, address = self.socket.accept()
            except OSError as exc:  # gone already, or out of descriptors: the next wakeup
                if exc.errno in (errno.EMFILE, errno.ENFILE) and self.pending:  # retries
                    oldest = next(iter(self.pending))
                    sel.unregister(oldest)
                    self.close(oldest, 503, "closed to make room: out of file descriptors")
                return
            sock.setblocking(False)
            with self.lock:
                full = len(self.pending) + self.answering >= _SERVE_CONNECTIONS
            if full and not self.pending:
                return self.quick(sock, address, 503, "busy: every connection is answering; "
                                  "try again in a moment")
            if full:  # the oldest incomplete one: a legitimate client sends its headers at once
                oldest = next(iter(self.pending))
                sel.unregister(oldest)
                self.close(oldest, 503, f"closed to make room: {_SERVE_CONNECTIONS} "
                           "connections open")
            self.pending[sock] = [time.monotonic() + timeout, bytearray(), address]
            sel.register(sock, selectors.EVENT_READ)

        def read(self, sel, sock):
            entry = self.pending.get(sock)
            if entry is None:
                return  # closed to make room by an accept of this same wakeup
            try:
                chunk = sock.recv(16384)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                chunk = b""
            data = entry[1]
            data += chunk  # in place; the end of the headers can only be in the new bytes
            tail = data[max(0, len(data) - len(chunk) - 2):]
            done = b"\n\n" in tail or b"\n\r\n" in tail
            if chunk and not done and len(data) <= _SERVE_HEADER_BYTES:
                return
            sel.unregister(sock)
            if done:
                del self.pending[sock]
                return self.dispatch(sock, bytes(data), entry[2])
            if not chunk:
                del self.pending[sock]
                return self.shutdown_request(sock)  # the client went away
            self.close(sock, 431, f"the request line and headers exceed "
                       f"{_SERVE_HEADER_BYTES} bytes")

        def expire(self, sel):
            now = time.monotonic()
            while self.pending:
                sock, (deadline, _, _) = next(iter(self.pending.items()))
                if deadline > now:
                    return  # one timeout for all: the pending are in deadline order
                sel.unregister(sock)
                self.close(sock, 408, f"no complete request line and headers in {timeout:g} s")

        def close(self, sock, status, reason):
            """Close a pending connection: silently if it sent nothing, else with *status*."""
            _, data, address = self.pending.pop(sock)
            if not data:
                return self.shutdown_request(sock)
            self.quick(sock, address, status, reason)

        def quick(self, sock, address, status, reason):
            """Answer *status* from the accept loop (never blocking), log it, close."""
            body = f"{reason}\n".encode()
            try:
                sock.send(f"HTTP/1.0 {status} {http.HTTPStatus(status).phrase}\r\n"
                          "Content-Type: text/plain; charset=utf-8\r\n"
                          f"Content-Length: {len(body)}\r\nConnection: close\r\n"
                          "X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n"
                          "\r\n".encode() + body)
                self.drain(sock)  # unread input would turn the close into a reset
            except OSError:
                pass
            _serve_log(f"{address[0]} \"-\" {status} - ({reason})")
            self.shutdown_request(sock)

        def drain(self, sock):
            try:
                while sock.recv(65536):
                    pass
            except OSError:
                pass  # BlockingIOError: nothing more for now

        def dispatch(self, sock, data, address):
            worker = None
            with self.lock:
                self.answering += 1
                if not self.idle and len(self.workers) < _SERVE_THREADS:
                    worker = threading.Thread(target=self.work, daemon=True,
                                              name="hermes-cron-serve-answer")
                    self.workers.append(worker)
            self.early[sock] = data
            self.jobs.put((sock, address))
            if worker is not None:
                worker.start()

        def work(self):
            while True:
                with self.lock:
                    self.idle += 1
                item = self.jobs.get()
                with self.lock:
                    self.idle -= 1
                if item is None:
                    return
                sock, address = item
                try:
                    self.finish_request(sock, address)
                except Exception:
                    self.handle_error(sock, address)
                finally:
                    self.early.pop(sock, None)
                    self.shutdown_request(sock)
                    with self.lock:
                        self.answering -= 1

    return Server()


def _status_handler(home, token, bind="127.0.0.1", names=frozenset(),
                    timeout=_SERVE_TIMEOUT_SECONDS, zone=None):
    import hashlib
    import hmac
    import http.cookies
    import http.server
    import io
    import json
    from urllib.parse import parse_qs, unquote, urlsplit

    # The cookie holds a value derived from the token, never the token itself.
    session = hmac.new(token.encode(), b"hermes_cron status site", hashlib.sha256).hexdigest() \
        if token else None

    def same(given, expected):
        return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode())

    def route(url):
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        path = url.path.rstrip("/") or "/"
        with CronHome(home.path, clock=home.clock, environ=home.environ) as reader:
            if path == "/":
                return 200, "text/html; charset=utf-8", _status_page(reader, query, zone)
            if path.startswith("/job/"):
                return 200, "text/html; charset=utf-8", _job_page(reader, unquote(path[5:]),
                                                                  query, zone)
            if path == "/metrics":
                return 200, "text/plain; version=0.0.4; charset=utf-8", _metrics_text(reader.scheduler)
            if path == "/healthz":
                info = reader.status()
                if info["heartbeat_age_seconds"] is None:
                    return 503, "text/plain; charset=utf-8", "unhealthy: no ticker heartbeat\n"
                if info["stalled"]:
                    return 503, "text/plain; charset=utf-8", (
                        f"unhealthy: ticker stalled, last heartbeat "
                        f"{_age_words(info['heartbeat_age_seconds'])}\n")
                return 200, "text/plain; charset=utf-8", (
                    f"ok: heartbeat {_age_words(info['heartbeat_age_seconds'])}\n")
            if path == "/api/jobs":
                data = reader.jobs(include_all="all" in query, labels=query.get("l"))
            elif path == "/api/runs":
                limit = query.get("limit", "20")
                data = reader.runs(query.get("job"), int(limit) if limit.isdigit() else -1,
                                   labels=query.get("l"))
            elif path == "/api/incidents":
                data = reader.incidents(query.get("state"), query.get("job"))
                if "all" not in query and "state" not in query:  # as 'incidents --json'
                    data = [row for row in data if row["state"] in _OPEN_INCIDENTS]
            elif path == "/api/status":
                data = reader.status()
            else:
                raise JobNotFoundError("no such page", url.path,
                                       "see / , /job/ID, /metrics, /healthz, /api/...")
        return 200, "application/json", json.dumps(_redacted(data), indent=2,
                                                   ensure_ascii=False) + "\n"

    class Handler(http.server.BaseHTTPRequestHandler):
        def version_string(self):
            return f"hermes_cron/{__version__}"

        def setup(self):
            super().setup()
            # The accept loop read the request already (the whole of it: GET and HEAD
            # have no body, and the connection closes after one answer).
            self.rfile.close()
            self.rfile = io.BytesIO(self.server.early.pop(self.request, b""))

        def __getattr__(self, name):
            if name.startswith("do_"):  # any other method: the site is read-only
                return self.refuse
            raise AttributeError(name)

        def do_GET(self):
            self.answer(head=False)

        def do_HEAD(self):
            self.answer(head=True)

        def refuse(self):
            if self.for_us():
                self.reply(405, "text/plain; charset=utf-8", "read-only: only GET and HEAD\n",
                           {"Allow": "GET, HEAD"})

        def for_us(self):
            """Whether the Host (and an absolute URL's host) names this site; else 421."""
            given = list(self.headers.get_all("Host") or ())
            if len(given) > 1:
                self.reply(400, "text/plain; charset=utf-8", "a request has one Host header\n")
                return False
            url = urlsplit(self.path)
            if url.scheme and url.netloc:  # an absolute URL: its host wins over Host's
                given.append(url.netloc.rpartition("@")[2])
            for value in given:
                name = _host_of(value)
                if name is None:
                    self.reply(400, "text/plain; charset=utf-8",
                               f"the Host header {_show(value)} is not HOST or HOST:PORT\n")
                    return False
                if not _host_allowed(name, bind, names):
                    try:
                        fix = f"start serve with --allow-host {_allow_host(name)}"
                    except InvalidInputError:
                        fix = "open it by its address or localhost"
                    self.reply(421, "text/plain; charset=utf-8",
                               f"misdirected request: this site does not answer to the name "
                               f"{_show(name)} (a guard against DNS rebinding): if it is "
                               f"yours, {fix}\n")
                    return False
            return True  # no Host at all: an HTTP/1.0 probe, never a browser

        def answer(self, head):
            url = urlsplit(self.path)
            if not self.for_us() or session is not None and not self.allowed(url):
                return
            try:
                status, kind, body = route(url)
            except HermesCronError as exc:
                status = 404 if exc.exit_code == EXIT_NOT_FOUND else 400
                kind, body = "text/plain; charset=utf-8", f"{exc}\n"
            except Exception as exc:  # e.g. a damaged database: one line, the server goes on
                if not _storage_error(exc):
                    raise
                status, kind = 500, "text/plain; charset=utf-8"
                body = f"the cron home cannot be read: {type(exc).__name__}: {exc}\n"
            self.reply(status, kind, redact(body) if status >= 400 else body, head=head)

        def allowed(self, url):
            bearer = self.headers.get("Authorization", "")
            if bearer.startswith("Bearer ") and same(bearer[7:].strip(), token):
                return True
            cookie = http.cookies.SimpleCookie()
            try:
                cookie.load(self.headers.get("Cookie", ""))
            except http.cookies.CookieError:
                pass
            if _TOKEN_COOKIE in cookie and same(cookie[_TOKEN_COOKIE].value, session):
                return True
            # The parameter as a form decoder reads it: ?%74oken= is ?token=.
            given = parse_qs(url.query).get("token")
            if given and same(given[-1], token):
                # Once: from now on the cookie, and the token leaves the address bar.
                self.reply(303, "text/plain; charset=utf-8", "", {
                    "Location": url.path or "/", "Set-Cookie": f"{_TOKEN_COOKIE}={session}; "
                    "Path=/; HttpOnly; SameSite=Strict"})
                return False
            self.reply(401, "text/plain; charset=utf-8", "a token is required: send "
                       "'Authorization: Bearer TOKEN', or open /?token=TOKEN once\n",
                       {"WWW-Authenticate": "Bearer"})
            return False

        def reply(self, status, kind, body, headers=None, head=False):
            data = body.encode("utf-8")
            self.send_response(status)
            for name, value in dict({
                    "Content-Type": kind, "Content-Length": str(len(data)),
                    "Content-Security-Policy": _CSP, "X-Content-Type-Options": "nosniff",
                    "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
                    "Cache-Control": "no-store"}, **(headers or {})).items():
                self.send_header(name, value)
            self.end_headers()
            if not head:
                self.wfile.write(data)

        def log_message(self, fmt, *args):
            _serve_log(f"{self.address_string()} {fmt % args}", token)

    Handler.timeout = timeout  # each send and receive once a thread answers
    return Handler


def _cmd_serve(home, args):
    import math
    import signal
    import threading

    host, port = _parse_bind(args.bind)
    allow_hosts = [_allow_host(name) for name in args.allow_host or ()]
    token = None
    if args.token_env:
        token = os.environ.get(args.token_env)
        if not token:
            raise InvalidInputError("--token-env names a variable that is unset or empty",
                                    args.token_env, "export the token in it first")
    elif not _is_loopback(host):
        raise InvalidInputError(
            "serving beyond loopback needs a token", args.bind,
            "pass --token-env NAME with the token in $NAME, or bind 127.0.0.1")
    timeout = os.environ.get(_SERVE_TIMEOUT_ENV, "").strip()
    try:
        timeout = float(timeout) if timeout else _SERVE_TIMEOUT_SECONDS
    except ValueError:
        timeout = math.nan
    if not 0 < timeout < math.inf:
        raise InvalidInputError(f"{_SERVE_TIMEOUT_ENV} needs a number of seconds above 0",
                                os.environ[_SERVE_TIMEOUT_ENV],
                                f"unset it for the default {_SERVE_TIMEOUT_SECONDS:g} s")
    try:
        server = _status_server(home, host, port, token, allow_hosts, timeout, args.zone)
    except OSError as exc:
        raise HermesCronError(f"cannot listen on {args.bind}", exc.strerror or str(exc),
                              "pick another --bind port, or stop what holds this one") from None
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop.set())
    thread = threading.Thread(target=server.serve_forever, name="hermes-cron-serve",
                              daemon=True)
    thread.start()
    shown = f"[{host}]" if ":" in host else host or "0.0.0.0"
    print(f"serving {home.path} read-only at http://{shown}:{server.server_address[1]}/ "
          f"(SIGTERM or Ctrl-C stops)", flush=True)
    while not stop.is_set():
        stop.wait(1.0)
    server.shutdown()
    server.server_close()
    thread.join(5)


def main(argv: "Sequence[str] | None" = None) -> int:
    """Run the command line with *argv* (default ``sys.argv[1:]``); return the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args, code = None, EXIT_OK
    for stream in (sys.stdout, sys.stderr):  # undecodable input must not crash the printing
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        args = _fast_args(argv) or _parse_args(argv)
        if not getattr(args, "command", None):
            args = _parser().parse_args(argv + ["list"])
        args.json = getattr(args, "json", False)  # --json may stand before or after COMMAND
        if getattr(args, "home", None) == "":
            raise InvalidInputError("--home is empty", "", "pass a directory, or leave --home "
                                    "out to use $HERMES_CRON_HOME or ~/.hermes/cron")
        _check_named_home(args)
        with CronHome(getattr(args, "home", None)) as home:
            # tick and daemon resolve the operator's zone when a line needs it
            # (an empty tick need not load the tz database); a --tz is checked now.
            args.zone = None if args.command in ("tick", "daemon") and not (
                getattr(args, "utc", False) or getattr(args, "shown_tz", None)) else \
                _display_zone(home, args)
            code = _COMMANDS[args.command](home, args) or EXIT_OK
        sys.stdout.flush()  # a closed pipe shows up here, not at interpreter exit
        return code
    except HermesCronError as exc:
        text = _error_text(exc.what, exc.value, exc.cli) if exc.cli else str(exc)
        print(f"{_PROG}: error: {_printable(text)}", file=sys.stderr)
        return exc.exit_code
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # python -m hermes_cron list | head: the reader has what it wants
        _silence(sys.stdout)
        return code  # the command's own verdict if it got that far (doctor's findings)
    except OSError as exc:  # e.g. a lock file on a read-only home: name it, no traceback
        path = exc.filename or getattr(args, "home", None) or _home_path(os.environ)
        print(f"{_PROG}: error: {_as_storage_error(exc, os.fspath(path))}", file=sys.stderr)
        return EXIT_FAILURE
    except Exception as exc:
        if not type(exc).__module__.startswith("sqlite3"):
            raise
        # A damaged or unreadable database is an operator's problem, not a crash.
        fix = ("another process holds a database of the home (a backup or a long query?); "
               "retry once it lets go" if "locked" in str(exc) or "busy" in str(exc) else
               "check the permissions and the disk; if a .db file is damaged, move it away "
               "(hermes_cron never overwrites it)")
        print(f"{_PROG}: error: a database of the cron home cannot be used "
              f"({_printable(exc)}): "
              f"{_show(getattr(args, 'home', None) or _home_path(os.environ))}: {fix}",
              file=sys.stderr)
        return EXIT_FAILURE


# The commands that make a missing home: the first write of a new one.
_MAKES_HOME = ("add", "apply")


def _check_named_home(args):
    """Refuse a ``--home`` that does not exist, but to ``add`` or ``apply`` there.

    A typo must not read as an empty home ("No jobs.") nor be made one by
    the next ``tick``; the default home (and ``$HERMES_CRON_HOME``) is made
    by its first write, as before.
    """
    path = getattr(args, "home", None)
    if path is None or args.command in _MAKES_HOME or os.path.isdir(path):
        return
    if os.path.lexists(path):
        raise InvalidInputError("--home is not a directory", path,
                                "pass the cron home's directory")
    raise JobNotFoundError(f"no cron home at {_show(path)}", None,
                           f"check the path; a home is made by its first job: "
                           f"'python -m hermes_cron --home {_shell_quote(path)} add ...'")


_COMMANDS = {
    "tick": _cmd_tick,
    "run": _cmd_run,
    "runs": _cmd_runs,
    "status": _cmd_status,
    "daemon": _cmd_daemon,
    "prompt": _cmd_prompt,
    "deliveries": _cmd_deliveries,
    "incidents": _cmd_incidents,
    "doctor": _cmd_doctor,
    "why": _cmd_why,
    "output": _cmd_output,
    "export": _cmd_export,
    "apply": _cmd_apply,
    "notepad": _cmd_notepad,
    "list": _cmd_list,
    "add": _cmd_add,
    "edit": _cmd_edit,
    "pause": _cmd_pause,
    "resume": _cmd_resume,
    "remove": _cmd_remove,
    "next": _cmd_next,
    "show": _cmd_show,
    "metrics": _cmd_metrics,
    "serve": _cmd_serve,
}


if __name__ == "__main__":  # pragma: no cover
    # One copy of each class whether imported by name or run with -m.
    sys.modules.setdefault("hermes_cron", sys.modules[__name__])
    sys.exit(main())
