// Practice mode (cards/practice.md) and the reader's progress on the cards index.
// The build writes every card with its steps and the controls with their words
// (lockstep/cards/practice.py); the schedule is scheduler.js (FSRS, on ts-fsrs). This script
// draws the page: today's queue, the grades with their next intervals, the mock interview,
// settings, and the progress as a file. The progress lives in localStorage under one key per
// site, shared by both languages (a card is the same card in either), and works from file://.
(function () {
  "use strict";

  var S = window.PracticeScheduler;
  var STEPS = 3; // the answer, the key points, how to answer (lockstep/cards/practice.py)
  var lang = document.documentElement.lang || "en";

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? values[name] : whole;
    });
  }

  function number(n, decimals) {
    var digits = { maximumFractionDigits: decimals || 1, minimumFractionDigits: decimals || 0 };
    return new Intl.NumberFormat(lang, digits).format(n);
  }

  function clock(ms) {
    var s = Math.floor(Math.abs(ms) / 1000);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function localDate(date) {
    var d = new Date(date);
    var two = function (n) {
      return String(n).padStart(2, "0");
    };
    return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate());
  }

  function keep(key, value) {
    try {
      localStorage.setItem(key, value);
      return true;
    } catch (e) {
      return false;
    }
  }

  // The stored progress, read once per page. What cannot be read is copied aside under
  // another key before anything is saved over it; the old marks are kept the same way.
  function open(key) {
    var raw = null;
    try {
      raw = localStorage.getItem(key);
    } catch (e) {
      // storage refused: practice works for this visit only (the save reports it)
    }
    var now = new Date();
    var loaded = S.load(raw, key, now);
    var store = { progress: loaded.progress, notice: null, writable: true };
    var aside = null;
    if (loaded.problem) {
      aside = key + ".corrupt." + now.toISOString();
      store.notice = ["corrupt", { detail: loaded.problem.detail || loaded.problem.kind }];
    } else if (loaded.migrated) {
      aside = key + ".v1";
      store.notice = ["migrated", {}];
    }
    if (aside) {
      store.writable = keep(aside, raw); // never write over what could not be kept
      store.notice[1].key = store.writable ? aside : key;
    }
    store.save = function () {
      return store.writable && keep(key, JSON.stringify(store.progress));
    };
    if (aside) store.save();
    return store;
  }

  function noticeText(W, notice) {
    var values = Object.assign({}, notice[1]);
    ["known", "shaky", "missed", "again", "hard", "good", "easy"].forEach(function (w) {
      values[w] = W[w];
    });
    return fill(W[notice[0]], values);
  }

  function practice(root) {
    var W = JSON.parse(root.dataset.words);
    var budgets = JSON.parse(root.dataset.budgets);
    var key = root.dataset.storageKey;
    var store = open(key);
    var cards = Array.prototype.slice.call(document.querySelectorAll(".practice-card"));
    var byId = {};
    var ids = cards.map(function (card) {
      byId[card.dataset.card] = card;
      return card.dataset.card;
    });
    var $ = function (selector) {
      return root.querySelector(selector);
    };
    var filters = {};
    root.querySelectorAll("[data-filter]").forEach(function (input) {
      filters[input.dataset.filter] = input;
    });
    var message = $(".practice-message");
    var status = $(".practice-status");
    var reveal = $('[data-action="reveal"]');
    var skip = $('[data-action="skip"]');
    var gradeButtons = Array.prototype.slice.call(root.querySelectorAll("[data-grade]"));
    var dialog = $(".practice-dialog");
    var mode = "review";
    var current = null; // the card shown in today's practice
    var step = 0; // how many of its steps are shown
    var skipped = []; // put off with "Later" during this visit

    function say(name, values) {
      message.textContent = fill(W[name], values);
    }

    function save() {
      if (!store.save()) say("unsaved");
    }

    function budgetText(seconds) {
      if (seconds < 60) return fill(W.seconds, { n: seconds });
      return fill(W.minutes, { n: number(seconds / 60) });
    }

    function spanText(from, to) {
      var s = S.span(from, to);
      return fill(W[s.unit], { n: number(s.n) });
    }

    function chosen() {
      return {
        module: filters.module.value,
        tag: filters.tag.value,
        difficulty: filters.difficulty.value,
        unsure: filters.unsure.checked,
      };
    }

    function lastGrade(id) {
      var record = store.progress.cards[id];
      return record && record.log.length ? record.log[record.log.length - 1].grade : null;
    }

    function pool() {
      var f = chosen();
      return ids.filter(function (id) {
        var d = byId[id].dataset;
        var last = lastGrade(id);
        return (
          (!f.module || d.module === f.module) &&
          (!f.tag || d.tags.split(" ").indexOf(f.tag) >= 0) &&
          (!f.difficulty || d.difficulty === f.difficulty) &&
          (!f.unsure || last === 1 || last === 2)
        );
      });
    }

    function showCard(id, shown) {
      cards.forEach(function (card) {
        card.hidden = card.dataset.card !== id;
      });
      if (!byId[id]) return;
      byId[id].querySelectorAll(".practice-step").forEach(function (s) {
        s.hidden = Number(s.dataset.step) > shown;
      });
    }

    function persist() {
      store.progress.session = { mode: mode, filters: chosen(), card: current, step: step };
      save();
    }

    // --- Today's practice -------------------------------------------------------------------

    function nextDue(among, now) {
      var dues = among
        .map(function (id) {
          var r = store.progress.cards[id];
          return r ? Date.parse(r.card.due) : Infinity;
        })
        .filter(function (t) {
          return t > now && t < Infinity;
        });
      return dues.length ? Math.min.apply(null, dues) : null;
    }

    function showReview() {
      var now = new Date();
      var settings = store.progress.settings;
      var among = pool();
      var q = S.queue(store.progress, among, now, settings);
      var order = q.order
        .filter(function (id) {
          return skipped.indexOf(id) < 0;
        })
        .concat(
          q.order.filter(function (id) {
            return skipped.indexOf(id) >= 0;
          })
        );
      var id = order[0] || null;
      if (id !== current) step = 0;
      current = id;
      showCard(id, step);
      if (!among.length) {
        status.textContent = W.empty;
      } else if (!id) {
        var next = nextDue(among, now);
        status.textContent =
          W.done + (next ? " " + fill(W.next_due, { when: spanText(now, next) }) : "");
      } else {
        status.textContent = fill(W.queue, { n: order.length, due: q.due, fresh: q.fresh });
      }
      var due = id ? S.preview(store.progress.cards[id] || null, now, settings) : null;
      gradeButtons.forEach(function (button) {
        var g = Number(button.dataset.grade);
        button.disabled = !id || step < 1; // grade once the answer is shown
        button.querySelector(".practice-interval").textContent = due ? spanText(now, due[g]) : "";
        button.dataset.due = due ? due[g].toISOString() : "";
      });
      reveal.disabled = !id || step >= STEPS;
      skip.disabled = order.length < 2;
      persist();
    }

    function grade(g) {
      if (mode !== "review" || !current || step < 1) return;
      var record = store.progress.cards[current] || null;
      store.progress.cards[current] = S.review(record, g, new Date(), store.progress.settings);
      skipped = skipped.filter(function (id) {
        return id !== current;
      });
      current = null;
      showReview();
      (reveal.disabled ? status : reveal).focus(); // the pressed button may be disabled now
    }

    // --- The mock interview -----------------------------------------------------------------

    var mock = $(".practice-mock");
    var round = null; // {started, items: [{card, answer_ms, full_ms}], i, phase, since, over}
    var ticking = null;

    function item() {
      return round.items[round.i];
    }

    function mockButtons() {
      var going = round && (round.phase === "answer" || round.phase === "full");
      $('[data-action="mock-reveal"]').disabled = !going;
      $('[data-action="mock-next"]').disabled = !(round && round.phase === "done");
    }

    function tick() {
      if (!round || (round.phase !== "answer" && round.phase !== "full")) return;
      var left = budgets[round.phase] * 1000 - (Date.now() - round.since);
      var timer = mock.querySelector(".mock-timer");
      timer.textContent = fill(W[left >= 0 ? "mock_left" : "mock_over"], { time: clock(left) });
      timer.classList.toggle("mock-timer--over", left < 0);
      if (left < 0 && !round.over) {
        round.over = true; // once per part: the live region says it, the timer shows it
        mock.querySelector(".mock-what").textContent = W.mock_time_up;
      }
    }

    function phase(name) {
      round.phase = name;
      round.since = Date.now();
      round.over = false;
      var i = round.i;
      mock.querySelector(".mock-position").textContent = fill(W.position, {
        i: i + 1,
        n: round.items.length,
      });
      var words = { answer: "mock_answer", full: "mock_full", done: "mock_done" }[name];
      mock.querySelector(".mock-what").textContent = fill(W[words], {
        budget: budgetText(budgets[name]),
      });
      showCard(item().card, { answer: 0, full: 1, done: STEPS }[name]);
      if (name === "done") mock.querySelector(".mock-timer").textContent = "";
      tick();
      mockButtons();
    }

    function shuffled(list) {
      for (var i = list.length - 1; i > 0; i--) {
        var j = Math.floor(Math.random() * (i + 1));
        var t = list[i];
        list[i] = list[j];
        list[j] = t;
      }
      return list;
    }

    function mockStart() {
      var picked = pool();
      if (mock.querySelector('[data-mock="shuffle"]').checked) shuffled(picked);
      var n = Math.max(1, Math.round(Number(mock.querySelector('[data-mock="count"]').value)));
      picked = picked.slice(0, n || 1);
      if (!picked.length) return say("empty");
      round = {
        started: new Date().toISOString(),
        items: picked.map(function (id) {
          return { card: id, answer_ms: null, full_ms: null };
        }),
        i: 0,
      };
      mock.querySelector(".mock-setup").hidden = true;
      mock.querySelector(".mock-summary").hidden = true;
      mock.querySelector(".mock-grades").hidden = true;
      mock.querySelector(".mock-round").hidden = false;
      phase("answer");
      clearInterval(ticking);
      ticking = setInterval(tick, 250);
      $('[data-action="mock-reveal"]').focus();
    }

    function mockReveal() {
      if (!round || (round.phase !== "answer" && round.phase !== "full")) return;
      item()[round.phase + "_ms"] = Date.now() - round.since;
      phase(round.phase === "answer" ? "full" : "done");
      if (round.phase === "done") $('[data-action="mock-next"]').focus();
    }

    function mockNext() {
      if (!round || round.phase !== "done") return;
      round.i += 1;
      if (round.i < round.items.length) {
        phase("answer");
        $('[data-action="mock-reveal"]').focus();
      } else {
        clearInterval(ticking);
        round.phase = "grading";
        mockButtons();
        gradeForm();
      }
    }

    function timeText(ms, seconds) {
      if (ms === null) return "—";
      var text = fill(W.mock_time, { time: clock(ms), budget: budgetText(seconds) });
      var over = ms - seconds * 1000;
      return over > 0 ? text + " · " + fill(W.mock_over, { time: clock(over) }) : text;
    }

    function element(tag, attrs, text) {
      var el = document.createElement(tag);
      Object.keys(attrs || {}).forEach(function (name) {
        el.setAttribute(name, attrs[name]);
      });
      if (text !== undefined) el.textContent = text;
      return el;
    }

    function title(id) {
      return byId[id].querySelector(".practice-question").textContent;
    }

    function gradeForm() {
      mock.querySelector(".mock-round").hidden = true;
      showCard(null, 0);
      var form = mock.querySelector(".mock-grades");
      form.textContent = "";
      form.appendChild(element("h2", { tabindex: "-1" }, W.mock_grade));
      round.items.forEach(function (it) {
        var set = element("fieldset");
        set.appendChild(element("legend", {}, title(it.card)));
        set.appendChild(
          element(
            "p",
            { class: "mock-times" },
            W.mock_answer_col +
              " " +
              timeText(it.answer_ms, budgets.answer) +
              " · " +
              W.mock_full_col +
              " " +
              timeText(it.full_ms, budgets.full)
          )
        );
        ["again", "hard", "good", "easy"].forEach(function (g, i) {
          var label = element("label");
          var radio = element("input", { type: "radio", name: "grade-" + it.card, value: i + 1 });
          label.appendChild(radio);
          label.appendChild(document.createTextNode(" " + W[g]));
          set.appendChild(label);
        });
        form.appendChild(set);
      });
      form.appendChild(element("p", { class: "mock-error", "aria-live": "polite" }));
      var finish = element("button", { type: "submit", class: "md-button md-button--primary" });
      finish.textContent = W.mock_finish;
      form.appendChild(finish);
      form.hidden = false;
      form.querySelector("h2").focus();
    }

    function mockFinish() {
      var form = mock.querySelector(".mock-grades");
      var missing = round.items.filter(function (it) {
        return !form.querySelector('input[name="grade-' + it.card + '"]:checked');
      });
      if (missing.length) {
        var error = form.querySelector(".mock-error");
        error.textContent = fill(W.mock_ungraded, { n: missing.length });
        form.querySelector('input[name="grade-' + missing[0].card + '"]').focus();
        return;
      }
      var now = new Date();
      var settings = store.progress.settings;
      round.items.forEach(function (it) {
        it.grade = Number(form.querySelector('input[name="grade-' + it.card + '"]:checked').value);
        var record = store.progress.cards[it.card] || null;
        store.progress.cards[it.card] = S.review(record, it.grade, now, settings);
      });
      var done = {
        started: round.started,
        finished: now.toISOString(),
        budgets: budgets,
        items: round.items,
      };
      store.progress.rounds.push(done);
      round = null;
      save();
      form.hidden = true;
      showSummary(done);
    }

    function showSummary(done) {
      var box = mock.querySelector(".mock-summary");
      box.textContent = "";
      box.appendChild(element("h2", { tabindex: "-1" }, W.mock_summary));
      var table = element("table");
      var head = element("tr");
      ["mock_question", "mock_grade_col", "mock_answer_col", "mock_full_col"].forEach(function (w) {
        head.appendChild(element("th", { scope: "col" }, W[w]));
      });
      table.appendChild(element("thead")).appendChild(head);
      var body = table.appendChild(element("tbody"));
      var within = { answer: 0, full: 0 };
      done.items.forEach(function (it) {
        var row = element("tr");
        row.appendChild(element("th", { scope: "row" }, title(it.card)));
        row.appendChild(element("td", {}, W[["again", "hard", "good", "easy"][it.grade - 1]]));
        row.appendChild(element("td", {}, timeText(it.answer_ms, budgets.answer)));
        row.appendChild(element("td", {}, timeText(it.full_ms, budgets.full)));
        body.appendChild(row);
        ["answer", "full"].forEach(function (part) {
          var ms = it[part + "_ms"];
          if (ms !== null && ms <= budgets[part] * 1000) within[part] += 1;
        });
      });
      box.appendChild(element("div", { class: "md-typeset__table" })).appendChild(table);
      var n = done.items.length;
      var counts = { answer: within.answer, full: within.full, n: n };
      box.appendChild(element("p", {}, fill(W.mock_within, counts)));
      var again = element("button", { type: "button", class: "md-button" });
      again.dataset.action = "mock-again";
      again.textContent = W.mock_again;
      box.appendChild(again);
      box.hidden = false;
      box.querySelector("h2").focus();
    }

    function mockSetup() {
      clearInterval(ticking);
      round = null;
      mock.querySelector(".mock-setup").hidden = false;
      ["mock-round", "mock-grades", "mock-summary"].forEach(function (name) {
        mock.querySelector("." + name).hidden = true;
      });
      showCard(null, 0);
      mockButtons();
    }

    // --- Modes, settings, the progress file ----------------------------------------------

    function setMode(name) {
      mode = name;
      root.querySelectorAll("[data-mode]").forEach(function (button) {
        button.setAttribute("aria-pressed", String(button.dataset.mode === name));
        button.classList.toggle("md-button--primary", button.dataset.mode === name);
      });
      root.querySelectorAll("[data-panel]").forEach(function (panel) {
        panel.hidden = panel.dataset.panel !== name;
      });
      if (name === "review") {
        mockSetup();
        showReview();
      } else {
        mockSetup();
        persist();
      }
    }

    function refresh() {
      if (mode === "review") showReview();
      else persist();
    }

    var retention = $('[data-setting="retention"]');
    var perDay = $('[data-setting="new_per_day"]');
    retention.min = String(S.RETENTION[0]);
    retention.max = String(S.RETENTION[1]);
    perDay.min = String(S.NEW_PER_DAY[0]);
    perDay.max = String(S.NEW_PER_DAY[1]);
    $(".practice-hint").textContent = fill(W.retention_hint, {
      min: number(S.RETENTION[0], 2),
      max: number(S.RETENTION[1], 2),
      default: number(S.DEFAULTS.retention, 2),
    });

    function showSettings() {
      retention.value = store.progress.settings.retention.toFixed(2);
      perDay.value = String(store.progress.settings.new_per_day);
    }

    function changeSetting(input) {
      var next = Object.assign({}, store.progress.settings);
      next[input.dataset.setting] = Number(input.value);
      var checked = S.settingsOf(next);
      if (checked[input.dataset.setting] === next[input.dataset.setting]) {
        store.progress.settings = checked;
        save();
        refresh();
      }
      showSettings(); // an out-of-range value returns to the one in use
    }

    function exportFile() {
      var name = key + "-" + localDate(new Date()) + ".json";
      var blob = new Blob([JSON.stringify(store.progress, null, 2) + "\n"], {
        type: "application/json",
      });
      var link = element("a", { href: URL.createObjectURL(blob), download: name });
      document.body.appendChild(link);
      link.click();
      link.remove();
      say("exported", { file: name });
    }

    function importFile(input) {
      var file = input.files && input.files[0];
      if (!file) return;
      file.text().then(function (text) {
        input.value = "";
        var data;
        try {
          data = JSON.parse(text);
        } catch (e) {
          return say("import_malformed", { detail: "JSON" });
        }
        var verdict = S.check(data, key, ids);
        if (!verdict.ok) return say("import_" + verdict.kind, { detail: verdict.detail });
        var merged = S.merge(store.progress, data);
        store.progress = merged.progress;
        current = null;
        save();
        refresh();
        message.textContent =
          fill(W.imported, { added: merged.added, updated: merged.updated }) +
          (verdict.unknown.length
            ? " " + fill(W.imported_unknown, { n: verdict.unknown.length })
            : "");
      });
    }

    function resetNow() {
      var settings = store.progress.settings;
      store.progress = S.empty(key);
      store.progress.settings = settings;
      current = null;
      skipped = [];
      if (dialog.open) dialog.close();
      save();
      setMode(mode);
      say("reset_done");
    }

    var actions = {
      reveal: function () {
        if (mode === "review" && current && step < STEPS) {
          step += 1;
          showReview();
        }
      },
      skip: function () {
        if (mode !== "review" || !current) return;
        skipped = skipped.filter(function (id) {
          return id !== current;
        });
        skipped.push(current);
        current = null;
        showReview();
      },
      "mock-start": mockStart,
      "mock-reveal": mockReveal,
      "mock-next": mockNext,
      "mock-again": function () {
        mockSetup();
        mock.querySelector('[data-action="mock-start"]').focus();
      },
      export: exportFile,
      reset: function (button) {
        if (dialog.showModal) dialog.showModal();
        else if (window.confirm(dialog.querySelector("p").textContent)) resetNow();
      },
      "reset-now": resetNow,
      cancel: function () {
        dialog.close();
      },
    };

    root.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || button.type === "submit") return;
      if (button.dataset.grade) grade(Number(button.dataset.grade));
      else if (button.dataset.mode) setMode(button.dataset.mode);
      else if (actions[button.dataset.action]) actions[button.dataset.action](button);
    });
    root.addEventListener("change", function (event) {
      var target = event.target;
      if (target.dataset.filter) {
        current = null;
        refresh();
      } else if (target.dataset.setting) changeSetting(target);
      else if (target.dataset.action === "import") importFile(target);
    });
    root.addEventListener("submit", function (event) {
      event.preventDefault();
      mockFinish();
    });
    dialog.addEventListener("close", function () {
      $('[data-action="reset"]').focus();
    });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
      if (dialog.open) return;
      var target = event.target;
      if (target.closest("input, select, textarea, [contenteditable]")) return;
      var key = event.key;
      if (key === " " || key === "Spacebar") {
        if (target.closest("button, a, summary")) return; // Space presses what has focus
        event.preventDefault(); // not a page scroll
        if (mode === "review") actions.reveal();
        else mockReveal();
      } else if (key === "ArrowRight") {
        event.preventDefault();
        if (mode === "review") actions.skip();
        else mockNext();
      } else if (mode === "review" && /^[1-4]$/.test(key)) {
        grade(Number(key));
      }
    });

    // Resume: the mode and filters of the last visit, and the card shown if it is still next.
    var saved = store.progress.session || {};
    var f = saved.filters || {};
    filters.module.value = f.module || "";
    filters.tag.value = f.tag || "";
    filters.difficulty.value = f.difficulty || "";
    filters.unsure.checked = !!f.unsure;
    current = saved.card || null;
    step = Math.min(Number(saved.step) || 0, STEPS);
    showSettings();
    if (store.notice) message.textContent = noticeText(W, store.notice);
    setMode(saved.mode === "mock" ? "mock" : "review");
    root.hidden = false;
  }

  // The cards index: each card's next due date in the table, and the count per module.
  function progress(summary) {
    var W = JSON.parse(summary.dataset.words);
    var store = open(summary.dataset.storageKey);
    var cards = store.progress.cards;
    var end = S.day(new Date()).end;
    var format = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
    function kind(id) {
      if (!cards[id]) return "new";
      return Date.parse(cards[id].card.due) < end ? "due" : "later";
    }
    document.querySelectorAll(".card-mark[data-card]").forEach(function (slot) {
      var id = slot.dataset.card;
      var k = kind(id);
      slot.textContent =
        k === "new"
          ? ""
          : k === "due"
            ? W.due_today
            : fill(W.due_on, { date: format.format(new Date(cards[id].card.due)) });
      slot.className = "card-mark" + (k === "new" ? "" : " card-mark--" + k);
    });
    summary.querySelectorAll("tr[data-cards]").forEach(function (row) {
      var counts = { due: 0, later: 0, new: 0 };
      row.dataset.cards.split(" ").forEach(function (id) {
        counts[kind(id)] += 1;
      });
      row.querySelectorAll("[data-count]").forEach(function (cell) {
        cell.textContent = counts[cell.dataset.count];
      });
    });
    if (store.notice) {
      summary.querySelector(".practice-message").textContent = noticeText(W, store.notice);
    }
    summary.hidden = false;
  }

  if (!S) return; // the scheduler did not load: the page stays a plain list of cards
  var root = document.querySelector(".practice[data-storage-key]");
  if (root) practice(root);
  var summary = document.querySelector(".practice-summary[data-storage-key]");
  if (summary) progress(summary);
})();
