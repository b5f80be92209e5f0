"""Practice mode's scheduler (docs/assets/javascripts/scheduler.js on ts-fsrs, run in Node as
the browser runs it) against the reference FSRS implementation (`fsrs` on PyPI, pinned): the
same review log through both gives the same due dates, stability and difficulty; a changed
grade makes the comparison fail; and the three ways ts-fsrs 5.4.2 schedules differently from
fsrs 6.3.2 are shown to be the only ones. Then the parts of the scheduler that are the site's
own: the day's queue, the migration of the old marks, merging and checking progress files.

Both run without fuzz (the same log must give the same schedule) and with the same defaults:
the 21 FSRS-6 weights, learning steps of 1 and 10 minutes, relearning 10 minutes, at most
36500 days. Measured differences (tests below):
- elapsed days: ts-fsrs counts UTC calendar dates, fsrs whole 24-hour periods; they agree when
  a review is at the same or a later time of day (UTC) than the card's previous one;
- Hard while learning: ts-fsrs waits the mean of the first two steps rounded to minutes (6 min)
  at every step, fsrs the exact mean (5.5 min) at the first step and the current step after;
- a card in review: ts-fsrs keeps Hard <= Good < Easy a day apart at least, fsrs does not;
- ts-fsrs rounds intermediate values to 8 decimals: stability agrees to a relative 1e-6,
  difficulty to 1e-6 (measured: at most about 1.2e-7 and 2.5e-8 over the random logs below).
The last three never change stability or difficulty; only the calendar difference does.
"""

import itertools
import json
import random
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from importlib.metadata import version

import pytest

from tests.browser_support import missing_tool
from tests.conftest import ROOT

fsrs = pytest.importorskip("fsrs", reason="the reference scheduler: pip install fsrs==6.3.2")

SCRIPTS = ROOT / "docs/assets/javascripts"
SCHEDULER = SCRIPTS / "scheduler.js"
VENDORED = SCRIPTS / "vendor/ts-fsrs.umd.js"
PACKAGE = ROOT / "node_modules/ts-fsrs"
STATES = ("New", "Learning", "Review", "Relearning")  # ts-fsrs's State, in order
S_RELATIVE, D_ABSOLUTE = 1e-6, 1e-6  # the rounding ts-fsrs's 8 decimals need
NODE = shutil.which("node")
if not NODE:
    missing_tool("node not found: the scheduler runs in Node (apt-get install nodejs)")

# Replays a log through PracticeScheduler (S): each card's state after each review, and at
# `now` each card's due date per grade and the day's queue. The same function runs on the CJS
# build (require) and, in a fresh context, on the files the site ships, loaded as a page does.
REPLAY = """(function (S, text) {
  var input = JSON.parse(text), records = {}, steps = [];
  input.log.forEach(function (e) {
    var r = S.review(records[e.card] || null, e.grade, new Date(e.at), {retention: e.retention});
    records[e.card] = r;
    steps.push(r.card);
  });
  var out = {steps: steps, records: records};
  if (input.now) {
    var now = new Date(input.now), settings = S.settingsOf(input.settings);
    out.preview = {};
    Object.keys(records).forEach(function (id) {
      var p = S.preview(records[id], now, settings);
      out.preview[id] = {};
      S.GRADES.forEach(function (g) { out.preview[id][g] = p[g].toISOString(); });
    });
    var progress = S.empty("test");
    progress.cards = records;
    out.queue = S.queue(progress, input.ids || Object.keys(records), now, settings);
  }
  return JSON.stringify(out);
})"""

NODE_MAIN = """
const fs = require("fs"), vm = require("vm");
const [mode, scheduler, vendored] = process.argv.slice(1);
const input = fs.readFileSync(0, "utf8");
let out;
if (mode === "cjs") {
  out = eval(REPLAY)(require(scheduler), input);
} else {
  const page = vm.createContext({});
  for (const file of [vendored, scheduler]) {
    vm.runInContext(fs.readFileSync(file, "utf8"), page, { filename: file });
  }
  out = vm.runInContext(REPLAY, page)(page.PracticeScheduler, input);
}
process.stdout.write(out);
"""


def node(log: list[dict], mode: str = "cjs", **extra) -> dict:
    """The site's scheduler on `log` (and `now`, `settings`, `ids` in `extra`)."""
    script = NODE_MAIN.replace("REPLAY", json.dumps(REPLAY))
    done = subprocess.run(
        [NODE, "-e", script, mode, str(SCHEDULER), str(VENDORED)],
        input=json.dumps({"log": log, **extra}),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"TZ": "UTC", "PATH": ""},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def js(body: str, tz: str = "UTC", **inputs):
    """The value of `body` (a function body of S, the scheduler, and `input`) in Node."""
    script = (
        f"const S = require({json.dumps(str(SCHEDULER))});"
        "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        f"process.stdout.write(JSON.stringify((function (S, input) {{ {body} }})(S, input)));"
    )
    done = subprocess.run(
        [NODE, "-e", script],
        input=json.dumps(inputs),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"TZ": tz, "PATH": ""},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def when(text: str) -> datetime:
    """An ISO time (JavaScript's or Python's) as an aware UTC datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def iso(t: datetime) -> str:
    """A UTC time as JavaScript's toISOString writes it."""
    return t.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# --- The reference --------------------------------------------------------------------------


def scheduler(retention: float) -> fsrs.Scheduler:
    """The reference scheduler, with the site's settings: fuzz off, defaults otherwise."""
    return fsrs.Scheduler(desired_retention=retention, enable_fuzzing=False)


def reference(log: list[dict], now: str | None = None, retention: float = 0.9) -> dict:
    """The reference on `log`: each card's state after each review, the state before it, and
    at `now` each card's due date per grade."""
    cards: dict[str, fsrs.Card] = {}
    steps, before = [], []
    for e in log:
        card = cards.get(e["card"]) or fsrs.Card(card_id=len(cards) + 1)
        before.append(card)
        rating = fsrs.Rating(e["grade"])
        card, _ = scheduler(e["retention"]).review_card(card, rating, when(e["at"]))
        cards[e["card"]] = card
        steps.append(card)
    out = {"steps": steps, "before": before, "cards": cards}
    if now:
        out["preview"] = {
            cid: {
                str(g): iso(scheduler(retention).review_card(c, fsrs.Rating(g), when(now))[0].due)
                for g in (1, 2, 3, 4)
            }
            for cid, c in cards.items()
        }
    return out


def mismatches(site: dict, ref: dict, log: list[dict]) -> list[str]:
    """Where the site's states differ from the reference's, one line each."""
    out = []
    for i, (e, mine, theirs) in enumerate(zip(log, site["steps"], ref["steps"], strict=True)):
        where = f"review {i} ({e['card']}, grade {e['grade']} at {e['at']})"
        state = STATES[mine["state"]]
        if state != theirs.state.name:
            out.append(f"{where}: state {state} != {theirs.state.name}")
        if when(mine["due"]) != theirs.due:
            out.append(f"{where}: due {mine['due']} != {iso(theirs.due)}")
        if abs(mine["stability"] - theirs.stability) > S_RELATIVE * theirs.stability:
            out.append(f"{where}: stability {mine['stability']} != {theirs.stability}")
        if abs(mine["difficulty"] - theirs.difficulty) > D_ABSOLUTE:
            out.append(f"{where}: difficulty {mine['difficulty']} != {theirs.difficulty}")
        if state in ("Learning", "Relearning") and mine["learning_steps"] != theirs.step:
            out.append(f"{where}: step {mine['learning_steps']} != {theirs.step}")
    for cid, grades in ref.get("preview", {}).items():
        for g, due in grades.items():
            if site["preview"][cid][g] != due:
                out.append(f"preview of {cid}, grade {g}: {site['preview'][cid][g]} != {due}")
    return out


# --- The log both must agree on -------------------------------------------------------------

START = datetime(2026, 3, 2, tzinfo=UTC)


def at(day: int, hour: int, minute: int = 0) -> str:
    """Day `day` after START at hh:mm UTC."""
    return iso(START + timedelta(days=day, hours=hour, minutes=minute))


def entry(card: str, grade: int, time: str, retention: float = 0.9) -> dict:
    return {"card": card, "grade": grade, "at": time, "retention": retention}


# Five cards through new, learning, review, lapses and relearning with all four grades, two
# other retentions, early and overdue reviews. Each card's reviews keep or advance the time of
# day, none is Hard while learning, and each review card's reference intervals are in order.
LOG = sorted(
    [
        entry("a", 3, at(0, 9)), entry("a", 3, at(0, 9, 10)), entry("a", 3, at(3, 9, 30)),
        entry("a", 1, at(10, 10)), entry("a", 3, at(10, 10, 12)), entry("a", 4, at(15, 11)),
        entry("a", 2, at(40, 11)), entry("a", 3, at(120, 12)),
        entry("b", 4, at(0, 9, 5)), entry("b", 3, at(9, 9, 5)), entry("b", 2, at(30, 9, 30)),
        entry("b", 1, at(70, 10)), entry("b", 2, at(70, 10, 10)), entry("b", 3, at(70, 10, 30)),
        entry("b", 3, at(75, 10, 30)),
        entry("c", 1, at(0, 9, 20)), entry("c", 1, at(0, 9, 21)), entry("c", 4, at(0, 9, 22)),
        entry("c", 3, at(4, 9, 40)), entry("c", 3, at(8, 10)),
        entry("c", 4, at(30, 10)),
        entry("d", 3, at(1, 8), 0.85), entry("d", 4, at(1, 8, 10), 0.85),
        entry("d", 2, at(6, 8, 10), 0.95), entry("d", 1, at(25, 9), 0.95),
        entry("d", 3, at(25, 9, 10), 0.95), entry("d", 3, at(33, 9, 10)),
        entry("e", 4, at(2, 7)), entry("e", 3, at(90, 7, 30)), entry("e", 3, at(400, 8)),
    ],
    key=lambda e: e["at"],
)  # fmt: skip
NOW = at(460, 23)  # later in the day than every review: the previews count days alike too


def utc_days(earlier: datetime, later: datetime) -> int:
    """Elapsed days as ts-fsrs counts them (dateDiffInDays): UTC calendar dates."""
    return (later.date() - earlier.date()).days


def test_the_shipped_ts_fsrs_is_the_locked_one():
    assert VENDORED.read_bytes() == (PACKAGE / "dist/index.umd.js").read_bytes()
    licence = SCRIPTS / "vendor/ts-fsrs.LICENSE.txt"  # MIT: the notice travels with the copy
    assert licence.read_bytes() == (PACKAGE / "LICENSE").read_bytes()
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    installed = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))
    assert lock["packages"]["node_modules/ts-fsrs"]["version"] == installed["version"] == "5.4.2"
    assert version("fsrs") == "6.3.2"
    assert "fsrs==6.3.2" in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()


def test_the_log_is_one_on_which_both_count_and_order_alike():
    ref = reference(LOG, NOW)
    last: dict[str, datetime] = {}
    for e, card in zip(LOG, ref["before"], strict=True):
        t = when(e["at"])
        if e["card"] in last:  # the time of day keeps or advances
            assert utc_days(last[e["card"]], t) == (t - last[e["card"]]).days, e
        last[e["card"]] = t
        assert not (card.state.name == "Learning" and e["grade"] == 2), f"Hard while learning: {e}"
        if card.state.name == "Review":
            assert in_order(card, t, e["retention"]), f"intervals out of order: {e}"
    assert all(utc_days(t, when(NOW)) == (when(NOW) - t).days for t in last.values())
    for card in ref["cards"].values():  # the previews at NOW: review cards, in order
        assert card.state.name == "Review" and in_order(card, when(NOW), 0.9)
    grades = {(b.state.name, e["grade"]) for e, b in zip(LOG, ref["before"], strict=True)}
    assert {("Review", g) for g in (1, 2, 3, 4)} <= grades  # every grade of a review card
    assert {("Learning", 1), ("Learning", 3), ("Learning", 4), ("Relearning", 2)} <= grades


def intervals(card: fsrs.Card, t: datetime, retention: float) -> list[int]:
    """The reference's days until due for Hard, Good and Easy."""
    return [
        (scheduler(retention).review_card(card, fsrs.Rating(g), t)[0].due - t).days
        for g in (2, 3, 4)
    ]


def in_order(card: fsrs.Card, t: datetime, retention: float) -> bool:
    hard, good, easy = intervals(card, t, retention)
    return hard < good < easy


@pytest.mark.parametrize("mode", ["cjs", "shipped"])
def test_the_site_schedules_the_log_as_the_reference_does(mode):
    site = node(LOG, mode, now=NOW)
    ref = reference(LOG, NOW)
    assert mismatches(site, ref, LOG) == []
    assert len(site["steps"]) == len(LOG) and len(site["preview"]) == 5


def test_a_changed_grade_makes_the_comparison_fail():
    ref = reference(LOG, NOW)
    i = next(i for i, e in enumerate(LOG) if e["card"] == "b" and e["grade"] == 3)
    changed = [dict(e, grade=4) if j == i else e for j, e in enumerate(LOG)]
    found = mismatches(node(changed, now=NOW), ref, LOG)
    assert found and found[0].startswith(f"review {i} "), found[:3]
    assert any("preview of b" in line for line in found)  # and b's future changes with it


def test_the_site_keeps_every_review_in_its_log():
    site = node(LOG)
    kept = sorted(
        (cid, e["grade"], e["at"], e["retention"])
        for cid, r in site["records"].items()
        for e in r["log"]
    )
    assert kept == sorted((e["card"], e["grade"], e["at"], e["retention"]) for e in LOG)


# --- The differences, each shown to be the only one -----------------------------------------


def test_a_review_earlier_in_the_day_than_the_last_is_the_only_calendar_difference():
    # 23:00, then 01:00 two calendar days later: ts-fsrs counts 2 days, fsrs 1 (26 hours).
    early = [entry("x", 3, at(0, 23)), entry("x", 3, at(0, 23, 10)), entry("x", 3, at(2, 1))]
    assert utc_days(when(early[1]["at"]), when(early[2]["at"])) == 2
    assert (when(early[2]["at"]) - when(early[1]["at"])).days == 1
    found = mismatches(node(early), reference(early), early)
    assert found and all(line.startswith("review 2 ") for line in found), found
    # The same calendar days, the review moved to a later time of day: they agree.
    realigned = [*early[:2], entry("x", 3, at(2, 23, 30))]
    assert mismatches(node(realigned), reference(realigned), realigned) == []


def expected_due(before: fsrs.Card, after: fsrs.Card, e: dict) -> datetime:
    """The due date ts-fsrs gives, from the reference's, for the two documented differences:
    Hard while learning waits round((1 + 10) / 2) = 6 minutes; a review card's Hard, Good and
    Easy intervals are kept in order, each a day after the one before."""
    t = when(e["at"])
    if before.state.name == "Learning" and e["grade"] == 2:
        return t + timedelta(minutes=6)
    if before.state.name == "Review" and e["grade"] > 1:
        hard, good, easy = intervals(before, t, e["retention"])
        hard = min(hard, good)
        good = max(good, hard + 1)
        easy = max(easy, good + 1)
        return t + timedelta(days={2: hard, 3: good, 4: easy}[e["grade"]])
    return after.due


def random_log(rng: random.Random, card: str) -> list[dict]:
    """A card's reviews at random, minutes or days apart, each at the same or a later time of
    day (UTC) than the one before."""
    t = START + timedelta(minutes=rng.randrange(24 * 60))
    log = []
    for _ in range(rng.randint(3, 14)):
        log.append(entry(card, rng.choice((1, 2, 3, 4)), iso(t), rng.choice((0.8, 0.9, 0.95))))
        left = 24 * 60 - 1 - (t.hour * 60 + t.minute)  # minutes left in this day
        if rng.random() < 0.4 and left >= 1:
            t += timedelta(minutes=rng.randint(1, min(30, left)))
        else:
            t += timedelta(days=rng.randint(1, 90), minutes=rng.randint(0, left))
    return log


def test_in_random_logs_the_site_differs_from_the_reference_only_as_documented():
    rng = random.Random(20261203)
    logs = [random_log(rng, f"c{n}") for n in range(300)]
    for card in logs:
        times = [when(e["at"]) for e in card]
        assert all(utc_days(a, b) == (b - a).days for a, b in itertools.pairwise(times))
    log = [e for card in logs for e in card]
    site, ref = node(log), reference(log)
    seen = {"learning hard": 0, "review order": 0}
    worst_s = worst_d = 0.0
    for e, mine, before, after in zip(log, site["steps"], ref["before"], ref["steps"], strict=True):
        if STATES[mine["state"]] != after.state.name:
            pytest.fail(f"{e}: state {STATES[mine['state']]} != {after.state.name}")
        worst_s = max(worst_s, abs(mine["stability"] - after.stability) / after.stability)
        worst_d = max(worst_d, abs(mine["difficulty"] - after.difficulty))
        expected = expected_due(before, after, e)
        assert when(mine["due"]) == expected, e
        if expected != after.due:
            kind = "learning hard" if before.state.name == "Learning" else "review order"
            seen[kind] += 1
    assert worst_s <= S_RELATIVE and worst_d <= D_ABSOLUTE, (worst_s, worst_d)
    assert all(seen.values()), f"a documented difference never occurred: {seen}"


# --- The site's own rules: the day's queue, marks, files ------------------------------------


def test_the_queue_puts_due_cards_first_then_new_ones_up_to_the_limit_then_later_today():
    # 09:00 in Shanghai is 01:00 UTC; the reader's day there runs from 16:00 UTC the day before.
    out = js(
        """
        var s = S.settingsOf({new_per_day: 2}), now = new Date(input.now), p = S.empty("t");
        p.cards.late = S.review(null, 3, new Date(input.yesterday), s);  // due in 10 minutes: past
        p.cards.early = S.review(null, 1, new Date(input.yesterday_earlier), s);  // 1 minute
        p.cards.soon = S.review(null, 3, new Date(input.now_minus_5), s);  // due 5 minutes ahead
        p.cards.today = S.review(null, 4, new Date(input.local_morning), s);  // new today, in days
        var q = S.queue(p, ["n1", "late", "n2", "soon", "early", "n3", "today"], now, s);
        return {queue: q, introduced_today: ["today", "soon"].length};
        """,
        tz="Asia/Shanghai",
        now="2026-12-03T01:00:00Z",
        yesterday="2026-12-02T03:00:00Z",
        yesterday_earlier="2026-12-02T02:00:00Z",
        now_minus_5="2026-12-03T00:55:00Z",
        local_morning="2026-12-02T23:30:00Z",  # 07:30 in Shanghai: today there, not in UTC
    )
    queue = out["queue"]
    # due now: "early" (02:01) before "late" (03:10); the limit of 2 is used up by "soon" and
    # "today" (first reviewed on the reader's day), so no new card; then "soon", due at 01:05.
    assert queue["order"] == ["early", "late", "soon"]
    assert queue == {"order": ["early", "late", "soon"], "due": 3, "fresh": 0, "unseen": 3}


def test_new_cards_fill_what_is_left_of_the_daily_limit_in_deck_order():
    queue = js(
        """
        var s = S.settingsOf({new_per_day: 3}), p = S.empty("t");
        p.cards.seen = S.review(null, 3, new Date(input.yesterday), s);
        p.cards.met = S.review(null, 4, new Date(input.today), s);
        return S.queue(p, ["n1", "seen", "n2", "met", "n3", "n4"], new Date(input.now), s);
        """,
        now="2026-12-03T12:00:00Z",
        yesterday="2026-12-02T12:00:00Z",
        today="2026-12-03T08:00:00Z",
    )
    assert queue["order"] == ["seen", "n1", "n2"]  # one of three new cards already met today


def test_old_marks_become_grades_reviewed_once_with_the_mark_kept():
    out = js(
        """
        var now = new Date(input.now);
        var loaded = S.load(JSON.stringify(input.old), "t", now);
        var s = S.settingsOf();
        var alone = {known: S.review(null, 3, now, s), shaky: S.review(null, 2, now, s),
                     missed: S.review(null, 1, now, s)};
        var q = S.queue(loaded.progress, ["a", "b", "c", "d"], now, S.settingsOf({new_per_day: 1}));
        return {loaded: loaded, alone: alone, queue: q};
        """,
        now="2026-12-03T10:00:00Z",
        old={"marks": {"a": "known", "b": "shaky", "c": "missed"}, "session": {"pos": 2}},
    )
    loaded = out["loaded"]
    assert loaded["migrated"] is True and loaded["problem"] is None
    cards = loaded["progress"]["cards"]
    for cid, mark, grade in (("a", "known", 3), ("b", "shaky", 2), ("c", "missed", 1)):
        assert cards[cid]["mark"] == mark
        assert cards[cid]["log"] == [
            {"grade": grade, "at": "2026-12-03T10:00:00.000Z", "retention": 0.9, "migrated": True}
        ]
        assert cards[cid]["card"] == out["alone"][mark]["card"]  # as if reviewed with that grade
    assert out["queue"]["fresh"] == 1, "a migrated mark used up the day's new cards"


def _progress(**cards) -> dict:
    return {"format": "t", "version": 2, "settings": {}, "cards": cards, "rounds": []}


def test_stored_values_that_cannot_be_read_are_reported_not_used():
    good = js(
        "return S.review(null, 3, new Date('2026-12-03T10:00:00Z'), S.settingsOf());",
    )
    broken = dict(good, card=dict(good["card"], due="yesterday"))
    cases = {
        "{not json": ("malformed", "JSON"),
        json.dumps([1, 2]): ("foreign", ""),
        json.dumps({"format": "other", "version": 2, "cards": {}}): ("foreign", "format"),
        json.dumps({**_progress(), "version": 3}): ("newer", "version 3"),
        json.dumps({**_progress(), "version": "2"}): ("malformed", "version"),
        json.dumps(_progress(x=broken)): ("malformed", "cards.x.card.due"),
        json.dumps(_progress(x=dict(good, log=[{"grade": 5, "at": "2026-12-03"}]))): (
            "malformed",
            "cards.x.log[0].grade",
        ),
        json.dumps({"marks": {"a": "sure"}}): ("foreign", "format"),  # not one of the old marks
    }
    out = js(
        "return input.raws.map(function (raw) { var r = S.load(raw, 't', new Date());"
        " return [r.problem && r.problem.kind, r.problem && r.problem.detail,"
        " Object.keys(r.progress.cards).length]; });",
        raws=list(cases),
    )
    assert [tuple(o) for o in out] == [(*kind, 0) for kind in cases.values()]
    fine = js("return S.load(input.raw, 't', new Date());", raw=json.dumps(_progress(x=good)))
    assert fine["problem"] is None and fine["progress"]["cards"]["x"] == good


def test_a_file_none_of_whose_cards_the_site_has_is_foreign_and_unknown_ones_are_kept():
    good = js("return S.review(null, 3, new Date('2026-12-03T10:00:00Z'), S.settingsOf());")
    out = js(
        "return [S.check(input.a, 't', ['x', 'y']), S.check(input.b, 't', ['x', 'y'])];",
        a=_progress(gone=good, old=good),
        b=_progress(x=good, gone=good),
    )
    assert out[0] == {"ok": False, "kind": "foreign", "detail": "cards"}
    assert out[1] == {"ok": True, "unknown": ["gone"]}


def test_merging_keeps_the_newest_review_of_each_card_and_every_review_of_both():
    out = js(
        """
        var s = S.settingsOf(), t = function (x) { return new Date(x); };
        var a1 = S.review(null, 3, t("2026-12-01T09:00:00Z"), s);
        var both = S.review(null, 2, t("2026-12-01T09:00:00Z"), s);
        var here = S.review(both, 3, t("2026-12-02T09:00:00Z"), s);   // reviewed here ...
        var there = S.review(both, 4, t("2026-12-05T09:00:00Z"), s);  // ... and later there
        var local = S.empty("t"), incoming = S.empty("t");
        local.cards = {a: a1, shared: here, tie: a1};
        local.rounds = [{started: "r1"}];
        local.settings = S.settingsOf({retention: 0.8});
        var other = S.review(null, 1, t("2026-12-01T09:00:00Z"), s);  // the same moment as a1
        incoming.cards = {b: a1, shared: there, tie: other};
        incoming.rounds = [{started: "r1"}, {started: "r2"}];
        return {merged: S.merge(local, incoming), here: here, there: there, a1: a1};
        """
    )
    merged, progress = out["merged"], out["merged"]["progress"]
    assert (merged["added"], merged["updated"]) == (1, 1)
    cards = progress["cards"]
    assert sorted(cards) == ["a", "b", "shared", "tie"]
    assert cards["shared"]["card"] == out["there"]["card"]  # the newer review wins ...
    assert [e["grade"] for e in cards["shared"]["log"]] == [2, 3, 4]  # ... and no review is lost
    assert cards["tie"]["card"] == out["a1"]["card"]  # the same moment: the reader's copy stays
    assert [e["grade"] for e in cards["tie"]["log"]] == [3, 1]
    assert [r["started"] for r in progress["rounds"]] == ["r1", "r2"]
    assert progress["settings"]["retention"] == 0.8


def test_intervals_read_in_the_unit_a_reader_would_use():
    spans = js(
        "var t0 = Date.parse('2026-12-01T00:00:00Z');"
        "return input.ms.map(function (m) { return S.span(t0, t0 + m); });",
        ms=[
            60_000,
            10 * 60_000,
            90 * 60_000,
            26 * 3_600_000,
            8 * 86_400_000,
            45 * 86_400_000,
            400 * 86_400_000,
        ],
    )
    assert [(s["unit"], s["n"]) for s in spans] == [
        ("minutes", 1),
        ("minutes", 10),
        ("hours", 1.5),
        ("days", 1),
        ("days", 8),
        ("months", 1.5),
        ("years", 1.1),
    ]


def test_a_review_before_the_previous_one_is_refused():
    out = js(
        "var s = S.settingsOf(), r = S.review(null, 3, new Date('2026-12-02T00:00:00Z'), s);"
        "try { S.review(r, 3, new Date('2026-12-01T00:00:00Z'), s); return 'accepted'; }"
        "catch (e) { return e.message; }"
    )
    assert out.startswith("a review before the previous one")
