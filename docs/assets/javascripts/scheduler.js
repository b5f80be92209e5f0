// Practice scheduling, with no page in it: FSRS through ts-fsrs (fuzz off), the day's queue,
// and the reader's progress as stored and exported (its format, the migration from the old
// marks, merging two files, checking a file before it is trusted). One file for the browser
// (after vendor/ts-fsrs.umd.js) and for Node (tests/test_scheduler.py), so the tests run the
// code readers run. practice.js draws the page from what this returns.
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("ts-fsrs"));
  else root.PracticeScheduler = factory(root.FSRS);
})(typeof globalThis !== "undefined" ? globalThis : this, function (FSRS) {
  "use strict";

  var VERSION = 2; // 1 was {marks, session}: marks without a schedule
  var GRADES = [1, 2, 3, 4]; // Again, Hard, Good, Easy: the keys 1 to 4
  var FROM_MARK = { known: 3, shaky: 2, missed: 1 }; // the old marks as grades
  var DEFAULTS = { retention: 0.9, new_per_day: 10 };
  var RETENTION = [0.7, 0.99]; // the range Anki offers
  var NEW_PER_DAY = [0, 999];
  var STATES = [0, 1, 2, 3]; // ts-fsrs: New, Learning, Review, Relearning
  var MINUTE = 6e4;
  var HOUR = 60 * MINUTE;
  var DAY = 24 * HOUR;

  var engines = {};
  // Fuzz off: the same log gives the same schedule here, in another browser and in the
  // Python reference, so a schedule can be checked. The rest is ts-fsrs's defaults (FSRS-6
  // weights, learning steps 1 and 10 minutes, relearning 10 minutes, at most 36500 days).
  function engine(settings) {
    var r = settings.retention;
    if (!engines[r]) engines[r] = FSRS.fsrs({ request_retention: r, enable_fuzz: false });
    return engines[r];
  }

  function iso(date) {
    return new Date(date).toISOString();
  }

  function isDate(value) {
    return typeof value === "string" && !isNaN(Date.parse(value));
  }

  function settingsOf(saved) {
    var s = saved || {};
    var r = Number(s.retention);
    var n = Number(s.new_per_day);
    return {
      retention: r >= RETENTION[0] && r <= RETENTION[1] ? r : DEFAULTS.retention,
      new_per_day:
        Number.isInteger(n) && n >= NEW_PER_DAY[0] && n <= NEW_PER_DAY[1]
          ? n
          : DEFAULTS.new_per_day,
    };
  }

  function empty(tag) {
    return { format: tag, version: VERSION, settings: settingsOf(), cards: {}, rounds: [] };
  }

  // A stored card is ts-fsrs's Card with its dates as ISO strings.
  function toCard(stored) {
    var card = Object.assign({}, stored, { due: new Date(stored.due) });
    if (stored.last_review) card.last_review = new Date(stored.last_review);
    else delete card.last_review;
    return card;
  }

  function fromCard(card) {
    return {
      due: iso(card.due),
      stability: card.stability,
      difficulty: card.difficulty,
      elapsed_days: card.elapsed_days,
      scheduled_days: card.scheduled_days,
      learning_steps: card.learning_steps,
      reps: card.reps,
      lapses: card.lapses,
      state: card.state,
      last_review: card.last_review ? iso(card.last_review) : null,
    };
  }

  /** The record after one review: its new schedule, and the review added to its log. */
  function review(record, grade, now, settings) {
    if (GRADES.indexOf(grade) < 0) throw new RangeError("a grade is 1, 2, 3 or 4: " + grade);
    var card = record ? toCard(record.card) : FSRS.createEmptyCard(now);
    if (card.last_review && now < card.last_review) {
      throw new RangeError("a review before the previous one: " + iso(now));
    }
    var next = engine(settings).next(card, now, grade).card;
    var entry = { grade: grade, at: iso(now), retention: settings.retention };
    var out = { card: fromCard(next), log: (record ? record.log : []).concat([entry]) };
    if (record && record.mark) out.mark = record.mark;
    return out;
  }

  /** When the card would be due after each grade, given now: {1: Date, ..., 4: Date}. */
  function preview(record, now, settings) {
    var card = record ? toCard(record.card) : FSRS.createEmptyCard(now);
    var next = engine(settings).repeat(card, now);
    var out = {};
    GRADES.forEach(function (g) {
      out[g] = next[g].card.due;
    });
    return out;
  }

  /** The reader's day: from local midnight to the next. */
  function day(now) {
    var start = new Date(now);
    start.setHours(0, 0, 0, 0);
    var end = new Date(start);
    end.setDate(end.getDate() + 1);
    return { start: start, end: end };
  }

  function firstReview(record) {
    var first = record.log[0];
    return first && !first.migrated ? Date.parse(first.at) : null; // a migrated mark is no new card
  }

  /** How many new cards were first reviewed on the reader's day (over the whole deck). */
  function introduced(progress, now) {
    var today = day(now);
    return Object.keys(progress.cards).filter(function (id) {
      var t = firstReview(progress.cards[id]);
      return t !== null && t >= today.start && t < today.end;
    }).length;
  }

  /** What to practise now among `ids` (deck order): the cards due now (earliest first), then
   * new cards up to what is left of the day's limit, then the cards due later today (the
   * learning steps) — those last ones early, as Anki does when nothing else is left. */
  function queue(progress, ids, now, settings) {
    var end = day(now).end;
    var dueNow = [];
    var later = [];
    var fresh = [];
    ids.forEach(function (id, i) {
      var record = progress.cards[id];
      if (!record) return fresh.push(id);
      var due = Date.parse(record.card.due);
      if (due <= now) dueNow.push([due, i, id]);
      else if (due < end) later.push([due, i, id]);
    });
    function byDue(a, b) {
      return a[0] - b[0] || a[1] - b[1];
    }
    function id(entry) {
      return entry[2];
    }
    var room = Math.max(0, settings.new_per_day - introduced(progress, now));
    var due = dueNow.sort(byDue).map(id);
    var ahead = later.sort(byDue).map(id);
    var fresh_today = fresh.slice(0, room);
    return {
      order: due.concat(fresh_today, ahead),
      due: due.length + ahead.length, // due today, now or later
      fresh: fresh_today.length,
      unseen: fresh.length,
    };
  }

  /** A span as the buttons say it: {unit, n} in minutes, hours, days, months or years. */
  function span(from, to) {
    var ms = Math.max(0, to - from);
    function round(x, unit) {
      return { unit: unit, n: x < 10 ? Math.round(x * 10) / 10 : Math.round(x) };
    }
    if (ms < HOUR) return { unit: "minutes", n: Math.max(1, Math.round(ms / MINUTE)) };
    if (ms < DAY) return round(ms / HOUR, "hours");
    var days = ms / DAY;
    if (days < 30) return { unit: "days", n: Math.round(days) };
    if (days < 365) return round(days / 30, "months");
    return round(days / 365, "years");
  }

  // --- The stored progress: checked, migrated, merged -------------------------------------

  function problem(kind, detail) {
    return { ok: false, kind: kind, detail: detail || "" };
  }

  function cardProblem(where, card) {
    if (!card || typeof card !== "object") return where;
    var numbers = ["stability", "difficulty", "scheduled_days", "reps", "lapses"];
    for (var i = 0; i < numbers.length; i++) {
      var v = card[numbers[i]];
      if (typeof v !== "number" || !isFinite(v) || v < 0) return where + "." + numbers[i];
    }
    if (STATES.indexOf(card.state) < 0) return where + ".state";
    if (!isDate(card.due)) return where + ".due";
    if (card.last_review !== null && !isDate(card.last_review)) return where + ".last_review";
    return null;
  }

  function logProblem(where, log) {
    if (!Array.isArray(log)) return where;
    for (var i = 0; i < log.length; i++) {
      var e = log[i];
      if (!e || GRADES.indexOf(e.grade) < 0) return where + "[" + i + "].grade";
      if (!isDate(e.at)) return where + "[" + i + "].at";
    }
    return null;
  }

  /** Whether `data` is progress of this site (`tag`) in this format: {ok: true, unknown:
   * [ids the deck lacks, kept]} or {ok: false, kind: "foreign" | "newer" | "malformed",
   * detail: where}. With `known` ids, a file none of whose cards is known is foreign. */
  function check(data, tag, known) {
    if (!data || typeof data !== "object" || Array.isArray(data)) return problem("foreign");
    if (data.format !== tag) return problem("foreign", "format");
    if (typeof data.version === "number" && data.version > VERSION) {
      return problem("newer", "version " + data.version);
    }
    if (data.version !== VERSION) return problem("malformed", "version");
    if (!data.cards || typeof data.cards !== "object" || Array.isArray(data.cards)) {
      return problem("malformed", "cards");
    }
    if (data.rounds !== undefined && !Array.isArray(data.rounds)) {
      return problem("malformed", "rounds");
    }
    var ids = Object.keys(data.cards);
    for (var i = 0; i < ids.length; i++) {
      var record = data.cards[ids[i]];
      var where = "cards." + ids[i];
      var bad =
        !record || typeof record !== "object"
          ? where
          : cardProblem(where + ".card", record.card) || logProblem(where + ".log", record.log);
      if (bad) return problem("malformed", bad);
    }
    var unknown = known
      ? ids.filter(function (id) {
          return known.indexOf(id) < 0;
        })
      : [];
    if (known && ids.length && unknown.length === ids.length) return problem("foreign", "cards");
    return { ok: true, unknown: unknown };
  }

  /** Progress made from the old marks: each marked card reviewed once, now, with the grade its
   * mark stands for, the mark kept in its record. */
  function migrate(old, tag, now, settings) {
    var progress = empty(tag);
    progress.settings = settings;
    Object.keys(old.marks).forEach(function (id) {
      var mark = old.marks[id];
      var record = review(null, FROM_MARK[mark], now, settings);
      record.log[0].migrated = true;
      record.mark = mark;
      progress.cards[id] = record;
    });
    return progress;
  }

  function isOldFormat(data) {
    if (!data || typeof data !== "object" || "version" in data) return false;
    var marks = data.marks;
    if (!marks || typeof marks !== "object" || Array.isArray(marks)) return false;
    return Object.keys(marks).every(function (id) {
      return FROM_MARK.hasOwnProperty(marks[id]);
    });
  }

  /** The progress from what localStorage holds (`raw`, a string or null): {progress,
   * migrated: bool, problem: null | {kind, detail}}. A value that cannot be read is reported,
   * never used: the caller keeps it aside before saving anything over it. */
  function load(raw, tag, now) {
    if (raw === null || raw === undefined) return { progress: empty(tag), problem: null };
    var data;
    try {
      data = JSON.parse(raw);
    } catch (e) {
      return { progress: empty(tag), problem: problem("malformed", "JSON") };
    }
    if (isOldFormat(data)) {
      return { progress: migrate(data, tag, now, settingsOf()), problem: null, migrated: true };
    }
    var verdict = check(data, tag, null);
    if (!verdict.ok) return { progress: empty(tag), problem: verdict };
    data.settings = settingsOf(data.settings);
    data.rounds = data.rounds || [];
    return { progress: data, problem: null };
  }

  function lastReview(record) {
    return record.card.last_review ? Date.parse(record.card.last_review) : -Infinity;
  }

  function unitedLogs(a, b) {
    var seen = {};
    return a
      .concat(b)
      .filter(function (e) {
        var key = e.at + " " + e.grade;
        return seen[key] ? false : (seen[key] = true);
      })
      .sort(function (x, y) {
        return Date.parse(x.at) - Date.parse(y.at);
      });
  }

  /** `local` with `incoming` merged in, card by card: the record whose last review is newer
   * wins (on a tie, local), the logs of both are kept; rounds are united; local settings
   * stay. Returns {progress, added, updated} (how many cards came in new, or replaced). */
  function merge(local, incoming) {
    var out = JSON.parse(JSON.stringify(local));
    var added = 0;
    var updated = 0;
    Object.keys(incoming.cards).forEach(function (id) {
      var theirs = incoming.cards[id];
      var ours = out.cards[id];
      if (!ours) {
        out.cards[id] = JSON.parse(JSON.stringify(theirs));
        added += 1;
        return;
      }
      var winner = lastReview(theirs) > lastReview(ours) ? theirs : ours;
      if (winner === theirs) updated += 1;
      var merged = JSON.parse(JSON.stringify(winner));
      merged.log = unitedLogs(ours.log, theirs.log);
      var mark = ours.mark || theirs.mark;
      if (mark) merged.mark = mark;
      out.cards[id] = merged;
    });
    var started = {};
    out.rounds.forEach(function (r) {
      started[r.started] = true;
    });
    (incoming.rounds || []).forEach(function (r) {
      if (!started[r.started]) out.rounds.push(r);
    });
    return { progress: out, added: added, updated: updated };
  }

  return {
    VERSION: VERSION,
    GRADES: GRADES,
    FROM_MARK: FROM_MARK,
    DEFAULTS: DEFAULTS,
    RETENTION: RETENTION,
    NEW_PER_DAY: NEW_PER_DAY,
    settingsOf: settingsOf,
    empty: empty,
    review: review,
    preview: preview,
    day: day,
    queue: queue,
    span: span,
    check: check,
    migrate: migrate,
    load: load,
    merge: merge,
  };
});
