// Practice mode (cards/practice.md) and the reader's progress on the cards index.
// The build writes every card with its steps and the controls with their words
// (lockstep/cards/practice.py); this script only filters, reveals, marks and remembers.
// Marks and the session live in localStorage under one key per site, shared by both
// languages (a card is the same card in either), and work from file:// too.
(function () {
  "use strict";

  var MARKS = ["known", "shaky", "missed"]; // keys 1, 2, 3
  var STEPS = 3; // the answer, the key points, how to answer (lockstep/cards/practice.py)

  function load(key) {
    try {
      var saved = JSON.parse(localStorage.getItem(key) || "{}");
      return { marks: saved.marks || {}, session: saved.session || null };
    } catch (e) {
      return { marks: {}, session: null }; // unreadable: start again
    }
  }

  function save(key, state) {
    try {
      localStorage.setItem(key, JSON.stringify(state));
    } catch (e) {
      // storage full or refused (private mode): practice still works for this visit
    }
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, name) {
      return values[name];
    });
  }

  function practice(root) {
    var key = root.dataset.storageKey;
    var state = load(key);
    var cards = Array.prototype.slice.call(document.querySelectorAll(".practice-card"));
    var byId = {};
    cards.forEach(function (card) {
      byId[card.dataset.card] = card;
    });
    var filters = {};
    root.querySelectorAll("[data-filter]").forEach(function (input) {
      filters[input.dataset.filter] = input;
    });
    var status = root.querySelector(".practice-status");
    var session; // {filters, order: [ids], pos, step}

    function chosen() {
      return {
        module: filters.module.value,
        tag: filters.tag.value,
        difficulty: filters.difficulty.value,
        unsure: filters.unsure.checked,
      };
    }

    function pool(f) {
      return cards
        .filter(function (card) {
          var d = card.dataset;
          var mark = state.marks[d.card];
          return (
            (!f.module || d.module === f.module) &&
            (!f.tag || d.tags.split(" ").indexOf(f.tag) >= 0) &&
            (!f.difficulty || d.difficulty === f.difficulty) &&
            (!f.unsure || mark === "shaky" || mark === "missed")
          );
        })
        .map(function (card) {
          return card.dataset.card;
        });
    }

    function start(order) {
      session = { filters: chosen(), order: order || pool(chosen()), pos: 0, step: 0 };
      persist();
      show();
    }

    function persist() {
      state.session = session;
      save(key, state);
    }

    function current() {
      return byId[session.order[session.pos]];
    }

    function show() {
      var card = current();
      cards.forEach(function (c) {
        c.hidden = c !== card;
      });
      var n = session.order.length;
      if (!n) {
        status.textContent = root.dataset.empty;
      } else if (!card) {
        status.textContent = root.dataset.done;
      } else {
        status.textContent = fill(root.dataset.position, { i: session.pos + 1, n: n });
        card.querySelectorAll(".practice-step").forEach(function (step) {
          step.hidden = Number(step.dataset.step) > session.step;
        });
      }
      var mark = card ? state.marks[card.dataset.card] : null;
      root.querySelectorAll("[data-mark]").forEach(function (button) {
        button.setAttribute("aria-pressed", String(button.dataset.mark === mark));
        button.disabled = !card;
      });
      root.querySelector('[data-action="reveal"]').disabled = !card || session.step >= STEPS;
    }

    var actions = {
      reveal: function () {
        if (current() && session.step < STEPS) {
          session.step += 1;
          persist();
          show();
        }
      },
      next: function () {
        var n = session.order.length;
        session.pos = session.pos >= n ? 0 : session.pos + 1; // past the last: the end message
        session.step = 0;
        persist();
        show();
      },
      shuffle: function () {
        var order = pool(chosen());
        for (var i = order.length - 1; i > 0; i--) {
          var j = Math.floor(Math.random() * (i + 1));
          var t = order[i];
          order[i] = order[j];
          order[j] = t;
        }
        start(order);
      },
      reset: function (button) {
        if (!window.confirm(button.dataset.confirm)) return;
        state = { marks: {}, session: null };
        save(key, state);
        start();
      },
    };

    function mark(value) {
      var card = current();
      if (!card) return;
      state.marks[card.dataset.card] = value;
      persist();
      show();
    }

    root.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      if (button.dataset.mark) mark(button.dataset.mark);
      else if (actions[button.dataset.action]) actions[button.dataset.action](button);
    });
    root.addEventListener("change", function (event) {
      if (event.target.dataset.filter) start();
    });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
      var target = event.target;
      if (target.closest("input, select, textarea, [contenteditable]")) return;
      if (event.key === " " || event.key === "Spacebar") {
        if (target.closest("button, a, summary")) return; // Space presses what has focus
        event.preventDefault(); // not a page scroll
        actions.reveal();
      } else if (event.key === "ArrowRight") {
        event.preventDefault();
        actions.next();
      } else if (MARKS[Number(event.key) - 1]) {
        mark(MARKS[Number(event.key) - 1]);
      }
    });

    // Resume the saved session if its cards still exist, else start over with the filters.
    var saved = state.session;
    if (saved && saved.filters && Array.isArray(saved.order)) {
      filters.module.value = saved.filters.module || "";
      filters.tag.value = saved.filters.tag || "";
      filters.difficulty.value = saved.filters.difficulty || "";
      filters.unsure.checked = !!saved.filters.unsure;
      var order = saved.order.filter(function (id) {
        return byId[id];
      });
      session = {
        filters: chosen(),
        order: order,
        pos: Math.min(saved.pos || 0, order.length),
        step: Math.min(saved.step || 0, STEPS),
      };
      show();
    } else {
      start();
    }
    root.hidden = false;
  }

  // The cards index: each card's mark in the table, and the count per module.
  function progress(summary) {
    var marks = load(summary.dataset.storageKey).marks;
    var labels = JSON.parse(summary.dataset.labels);
    document.querySelectorAll(".card-mark[data-card]").forEach(function (slot) {
      var mark = marks[slot.dataset.card];
      slot.textContent = mark ? labels[mark] : "";
      slot.className = "card-mark" + (mark ? " card-mark--" + mark : "");
    });
    summary.querySelectorAll("tr[data-cards]").forEach(function (row) {
      var counts = { known: 0, shaky: 0, missed: 0, new: 0 };
      row.dataset.cards.split(" ").forEach(function (id) {
        counts[marks[id] || "new"] += 1;
      });
      row.querySelectorAll("[data-count]").forEach(function (cell) {
        cell.textContent = counts[cell.dataset.count];
      });
    });
    summary.hidden = false;
  }

  var root = document.querySelector(".practice[data-storage-key]");
  if (root) practice(root);
  var summary = document.querySelector(".practice-summary[data-storage-key]");
  if (summary) progress(summary);
})();
