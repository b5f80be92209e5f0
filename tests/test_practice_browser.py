"""Practice mode and the knowledge map in headless Chromium, in both languages, from the served
site and from file://: grades on a fixed clock give the due dates, the queue and the buttons'
intervals the reference FSRS implementation computes for the same log (tests/test_scheduler.py),
and survive a reload; the old marks migrate; progress goes out as a file, is reset and comes
back whole, and a malformed or foreign file changes nothing; unreadable storage is kept aside;
the mock interview's timers and its summary; the keyboard alone; axe's WCAG 2.2 AA rules in
both colour schemes; each card's references inside its own steps; the map's boxes. The tests
of the scheduling, the progress file, the mock interview and the offline edition each drive
one language, taking turns (`one_language`)."""

import json
import math
import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from lockstep.cards.deck import Deck
from lockstep.cards.practice import BUDGETS, storage_key
from tests.browser_support import refuse_foreign, require_chromium, screenshot
from tests.conftest import LANGS, SITE
from tests.test_scheduler import expected_due, fsrs, iso, reference, scheduler, when

require_chromium()

pytestmark = pytest.mark.browser

DECK = Deck(SITE)
KEY = storage_key(DECK)
PREFIX = {lang: SITE.languages.prefix(lang) for lang in LANGS}  # "" or "en/"
TZ = "Asia/Shanghai"  # the reader's day starts at 16:00 UTC: not the UTC day
T0 = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
GRADES = ("again", "hard", "good", "easy")
NEW_PER_DAY = 10  # scheduler.js's default, read back from the page below


def one_language(turn: int) -> list[str]:
    """The language a test of practice mode's behaviour drives, the tests taking turns: the
    behaviour is one script for every language, and what each language's page shows is
    checked in both (keyboard, axe, references, the page without scripts)."""
    return [LANGS[turn % len(LANGS)]]


def _page(browser, allowed: tuple[str, ...], scheme: str = "light", height: int = 1000):
    """A page in a context of its own (fresh storage, the reader's time zone) that refuses and
    records every request to a URL starting with none of `allowed`."""
    context = browser.new_context(
        timezone_id=TZ,
        color_scheme=scheme,
        viewport={"width": 1280, "height": height},
        accept_downloads=True,
    )
    pg = context.new_page()
    pg.foreign, pg.errors = [], []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    refuse_foreign(context, pg, allowed)
    return pg


def _clock(pg, at: datetime) -> None:
    """Fake time, paused at `at`: it moves only when the test moves it."""
    pg.clock.install(time=at - timedelta(minutes=1))
    pg.clock.pause_at(at)


def _w(word: str, lang: str, **values) -> str:
    """A word of practice mode, with its {placeholders} filled as the script fills them."""
    text = DECK.vocabulary.practice[word][lang]
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m[1], m[0])), text)


def _stored(pg, key: str = KEY):
    raw = pg.evaluate(f"localStorage.getItem({json.dumps(key)})")
    return raw if raw is None else json.loads(raw)


def _shown(pg) -> tuple[list[str], list[str]]:
    """Ids of the cards shown, and the steps shown of the card shown."""
    cards = pg.locator(".practice-card:visible")
    ids = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
    steps = pg.locator(".practice-card:visible .practice-step:visible")
    return ids, [steps.nth(i).get_attribute("data-step") for i in range(steps.count())]


def _grade(pg, grade: int) -> None:
    """By keyboard: show the answer, then grade it."""
    pg.keyboard.press("Space")
    pg.keyboard.press(str(grade))


def _number(n: float) -> str:
    return f"{n:g}"


def _js_round(x: float) -> int:
    return math.floor(x + 0.5)  # Math.round, not Python's round half to even


def _interval(seconds: float, lang: str) -> str:
    """An interval as the buttons write it (the rule of scheduler.js's span, restated)."""
    minutes, hours, days = seconds / 60, seconds / 3600, seconds / 86400
    tenth = lambda x: _js_round(x * 10) / 10 if x < 10 else _js_round(x)  # noqa: E731
    if minutes < 60:
        return _w("minutes", lang, n=max(1, _js_round(minutes)))
    if hours < 24:
        return _w("hours", lang, n=_number(tenth(hours)))
    if days < 30:
        return _w("days", lang, n=_js_round(days))
    if days < 365:
        return _w("months", lang, n=_number(tenth(days / 30)))
    return _w("years", lang, n=_number(tenth(days / 365)))


def _expected_buttons(card, at: datetime) -> dict[int, datetime]:
    """The due date per grade at `at`: the reference's, with the documented differences."""
    card = card or fsrs.Card(card_id=1)  # a new card
    out = {}
    for g in (1, 2, 3, 4):
        e = {"grade": g, "at": iso(at), "retention": 0.9}
        after = scheduler(0.9).review_card(card, fsrs.Rating(g), at)[0]
        out[g] = expected_due(card, after, e)
    return out


def _buttons(pg) -> dict[int, tuple[datetime, str]]:
    out = {}
    for g in (1, 2, 3, 4):
        button = pg.locator(f'[data-grade="{g}"]')
        text = button.locator(".practice-interval").inner_text()
        out[g] = (when(button.get_attribute("data-due")), text)
    return out


def _assert_states(stored: dict, log: list[dict]) -> dict:
    """Every card of the stored progress as the reference has it after `log` (its due date
    with the documented differences); the reference's states."""
    ref = reference(log)
    got = {e["card"]: stored["cards"][e["card"]] for e in log}
    last = {e["card"]: i for i, e in enumerate(log)}
    for cid, card in ref["cards"].items():
        mine, i = got[cid]["card"], last[cid]
        assert when(mine["due"]) == expected_due(ref["before"][i], card, log[i]), cid
        assert abs(mine["stability"] - card.stability) <= 1e-6 * card.stability, cid
        assert abs(mine["difficulty"] - card.difficulty) <= 1e-6, cid
    logged = sorted((cid, e["grade"], e["at"]) for cid, r in got.items() for e in r["log"])
    assert logged == sorted((e["card"], e["grade"], e["at"]) for e in log)
    return ref["cards"]


def _local_midnight(at: datetime) -> datetime:
    from zoneinfo import ZoneInfo

    local = at.astimezone(ZoneInfo(TZ))
    return (
        local.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    ).astimezone(UTC)


@pytest.mark.parametrize("lang", one_language(0))
def test_grades_give_the_reference_schedule_and_survive_a_reload(browser, base_url, lang):
    pg = _page(browser, (base_url,))
    _clock(pg, T0)
    url = base_url + PREFIX[lang] + "cards/practice/"
    pg.goto(url)
    ids = [c.id for c in DECK.cards(lang)]
    assert pg.locator('[data-setting="new_per_day"]').input_value() == str(NEW_PER_DAY)
    fresh = min(NEW_PER_DAY, len(ids))
    assert pg.locator(".practice-status").inner_text() == _w(
        "queue", lang, n=fresh, due=0, fresh=fresh
    )
    assert _shown(pg) == ([ids[0]], [])
    assert pg.locator('[data-grade="3"]').is_disabled(), "a grade before the answer shows"
    # A new card's buttons: the reference's due dates (Hard: the documented 6 minutes).
    buttons, expected = _buttons(pg), _expected_buttons(None, T0)
    assert {g: due for g, (due, _) in buttons.items()} == expected
    assert [text for _, text in buttons.values()] == [
        _interval((expected[g] - T0).total_seconds(), lang) for g in (1, 2, 3, 4)
    ]
    a, b = ids[0], ids[1]
    _grade(pg, 3)  # Good: the second learning step, in ten minutes
    assert _shown(pg)[0] == [b]
    _grade(pg, 4)  # Easy: straight to review
    log = [
        {"card": a, "grade": 3, "at": iso(T0), "retention": 0.9},
        {"card": b, "grade": 4, "at": iso(T0), "retention": 0.9},
    ]
    _assert_states(_stored(pg), log)

    t = T0 + timedelta(minutes=10)
    pg.clock.pause_at(t)
    pg.reload()  # the progress survives; a is due again, before any new card
    assert _shown(pg) == ([a], [])
    _grade(pg, 3)  # a graduates
    log.append({"card": a, "grade": 3, "at": iso(t), "retention": 0.9})
    cards = _assert_states(_stored(pg), log)

    t1 = cards[a].due  # days later, the same time of day: both count the days alike
    pg.clock.pause_at(t1)
    pg.reload()
    due_today = sorted((c.due, cid) for cid, c in cards.items() if c.due < _local_midnight(t1))
    assert _shown(pg) == ([due_today[0][1]], []) and due_today[0][1] == a
    room = min(NEW_PER_DAY, len(ids) - 2)  # nothing was new on this day yet
    status = _w("queue", lang, n=len(due_today) + room, due=len(due_today), fresh=room)
    assert pg.locator(".practice-status").inner_text() == status
    pg.keyboard.press("Space")
    buttons, expected = _buttons(pg), _expected_buttons(cards[a], t1)
    assert {g: due for g, (due, _) in buttons.items()} == expected
    assert [text for _, text in buttons.values()] == [
        _interval((expected[g] - t1).total_seconds(), lang) for g in (1, 2, 3, 4)
    ]
    screenshot(pg, f"{lang}-practice", full_page=False)
    pg.keyboard.press("2")  # Hard
    log.append({"card": a, "grade": 2, "at": iso(t1), "retention": 0.9})
    cards = _assert_states(_stored(pg), log)

    # The cards index: each practised card's next due date, and the counts per module.
    pg.goto(base_url + PREFIX[lang] + "cards/")
    end = _local_midnight(t1)
    for cid in ids:
        slot = pg.locator(f'.card-mark[data-card="{cid}"]').first
        if cid not in cards:
            assert slot.inner_text() == ""
        elif cards[cid].due < end:
            assert slot.inner_text() == _w("due_today", lang)
        else:
            date = pg.evaluate(
                "d => new Intl.DateTimeFormat(document.documentElement.lang,"
                " {dateStyle: 'medium'}).format(new Date(d))",
                iso(cards[cid].due),
            )
            assert slot.inner_text() == _w("due_on", lang, date=date)
    rows = pg.locator(".practice-summary tr[data-cards]")
    for i in range(rows.count()):
        row = rows.nth(i)
        members = row.get_attribute("data-cards").split()
        kinds = [
            "new" if m not in cards else "due" if cards[m].due < end else "later" for m in members
        ]
        for kind in ("due", "later", "new"):
            assert row.locator(f'[data-count="{kind}"]').inner_text() == str(kinds.count(kind))
    screenshot(pg.locator(".practice-summary"), f"{lang}-cards-progress", full_page=False)
    assert pg.foreign == [] and pg.errors == []
    pg.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_control_is_reached_and_used_by_keyboard(browser, base_url, lang):
    pg = _page(browser, (base_url,))
    _clock(pg, T0)
    pg.goto(base_url + PREFIX[lang] + "cards/practice/")
    ids = [c.id for c in DECK.cards(lang)]
    for shown in (["1"], ["1", "2"], ["1", "2", "3"]):  # answer, key points, how to answer
        pg.keyboard.press("Space")
        assert _shown(pg) == ([ids[0]], shown)
    assert pg.evaluate("window.scrollY") == 0, "Space scrolled the page"
    pg.keyboard.press("ArrowRight")  # later: the next card comes first
    assert _shown(pg) == ([ids[1]], [])
    pg.keyboard.press("Tab")  # the skip link ...
    pg.keyboard.press("Enter")  # ... to the content
    reached = set()
    for _ in range(60):
        pg.keyboard.press("Tab")
        el = pg.evaluate(
            "(() => { const e = document.activeElement; if (!e.closest('.practice')) return null;"
            " return e.dataset.filter || e.dataset.mode || e.dataset.action || e.dataset.grade"
            " || e.dataset.setting || e.tagName; })()"
        )
        if el == "SUMMARY":  # the settings: opened with the keyboard too
            pg.keyboard.press("Enter")
        if el:
            reached.add(el)
        if el == "reset":
            break
    expected = {"review", "mock", "module", "tag", "difficulty", "unsure", "reveal", "skip"}
    expected |= {"SUMMARY", "retention", "new_per_day", "export", "import", "reset"}
    assert expected <= reached, expected - reached  # the grades are off until the answer shows
    pg.keyboard.press("Enter")  # reset: the dialog asks first, and Escape leaves it
    assert pg.locator(".practice-dialog").is_visible()
    pg.keyboard.press("Escape")
    assert not pg.locator(".practice-dialog").is_visible()
    assert pg.evaluate("document.activeElement.dataset.action") == "reset"
    assert pg.foreign == [] and pg.errors == []
    pg.context.close()


@pytest.mark.parametrize("lang", one_language(1))
def test_marks_migrate_and_progress_goes_out_comes_back_and_refuses_bad_files(
    browser, base_url, lang, tmp_path
):
    pg = _page(browser, (base_url,))
    _clock(pg, T0)
    ids = [c.id for c in DECK.cards(lang)]
    marks = dict(zip(ids, ("known", "shaky", "missed"), strict=False))
    old = json.dumps({"marks": marks, "session": {"order": ids, "pos": 1, "step": 2}})
    pg.goto(base_url + PREFIX[lang] + "glossary/")  # a page that reads no progress
    pg.evaluate(f"localStorage.setItem({json.dumps(KEY)}, {json.dumps(old)})")
    pg.goto(base_url + PREFIX[lang] + "cards/practice/")
    message = pg.locator(".practice .practice-message")
    words = {w: _w(w, lang) for w in ("known", "shaky", "missed", "again", "hard", "good")}
    expect(message).to_have_text(_w("migrated", lang, key=KEY + ".v1", **words))
    assert pg.evaluate(f"localStorage.getItem({json.dumps(KEY + '.v1')})") == old  # kept
    stored = _stored(pg)
    grade = {"known": 3, "shaky": 2, "missed": 1}
    log = [
        {"card": c, "grade": grade[m], "at": iso(T0), "retention": 0.9} for c, m in marks.items()
    ]
    _assert_states(stored, log)
    assert {c: stored["cards"][c]["mark"] for c in marks} == marks

    # Export, reset (it asks, and offers an export first), import: every card as it was.
    pg.locator(".practice-settings summary").click()
    with pg.expect_download() as download:
        pg.locator('.practice-settings [data-action="export"]').click()
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    assert exported.name == f"{KEY}-2026-12-01.json"
    assert json.loads(exported.read_text(encoding="utf-8")) == _stored(pg)
    pg.locator('[data-action="reset"]').click()
    dialog = pg.locator(".practice-dialog")
    assert dialog.is_visible()
    with pg.expect_download() as second:
        dialog.locator('[data-action="export"]').click()
    assert json.loads(open(second.value.path(), encoding="utf-8").read()) == stored
    dialog.locator('[data-action="reset-now"]').click()
    expect(message).to_have_text(_w("reset_done", lang))
    assert _stored(pg)["cards"] == {}
    pg.locator('[data-action="import"]').set_input_files(exported)
    expect(message).to_have_text(_w("imported", lang, added=len(marks), updated=0))
    assert _stored(pg)["cards"] == stored["cards"]

    # Bad files: a clear message, and nothing changes.
    before = _stored(pg)
    bad = {
        "not-json.json": (b"{progress", "import_malformed", {"detail": "JSON"}),
        "other-site.json": (
            json.dumps({"format": "someone-else", "version": 2, "cards": {}}).encode(),
            "import_foreign",
            {},
        ),
        "broken.json": (
            json.dumps(
                {**before, "cards": {ids[0]: {"card": {"due": "soon"}, "log": []}}}
            ).encode(),
            "import_malformed",
            {"detail": f"cards.{ids[0]}.card.stability"},
        ),
        "newer.json": (
            json.dumps({**before, "version": 3}).encode(),
            "import_newer",
            {"detail": "version 3"},
        ),
    }
    for name, (data, word, values) in bad.items():
        pg.locator('[data-action="import"]').set_input_files(
            files=[{"name": name, "mimeType": "application/json", "buffer": data}]
        )
        expect(message).to_have_text(_w(word, lang, **values))
        assert _stored(pg) == before, name

    # Unreadable storage: reported, kept aside unchanged, practice starts afresh.
    pg.evaluate(f"localStorage.setItem({json.dumps(KEY)}, '{{broken')")
    pg.reload()
    aside = f"{KEY}.corrupt.{iso(T0)}"
    expect(message).to_have_text(_w("corrupt", lang, detail="JSON", key=aside))
    assert pg.evaluate(f"localStorage.getItem({json.dumps(aside)})") == "{broken"
    assert _stored(pg)["cards"] == {}
    assert pg.foreign == [] and pg.errors == []
    pg.context.close()


def _clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _budget(seconds: int, lang: str) -> str:
    return _w("seconds", lang, n=seconds) if seconds < 60 else _w("minutes", lang, n=seconds // 60)


@pytest.mark.parametrize("lang", one_language(2))
def test_mock_interview_times_each_part_and_sums_up_the_round_by_keyboard(browser, base_url, lang):
    pg = _page(browser, (base_url,), height=1100)
    _clock(pg, T0)
    pg.goto(base_url + PREFIX[lang] + "cards/practice/")
    ids = [c.id for c in DECK.cards(lang)]
    titles = {c.id: c.title for c in DECK.cards(lang)}

    def tab_to(test: str) -> None:
        for _ in range(40):
            pg.keyboard.press("Tab")
            if pg.evaluate(f"(e => {test})(document.activeElement)"):
                return
        raise AssertionError(f"no tab stop where {test}")

    pg.keyboard.press("Tab")  # the skip link first, past the header and the navigation
    assert "md-skip" in pg.evaluate("document.activeElement.className")
    pg.keyboard.press("Enter")
    tab_to("e.dataset.mode === 'mock'")
    pg.keyboard.press("Enter")
    tab_to("e.dataset.mock === 'count'")
    pg.keyboard.press("Control+A")
    pg.keyboard.type("2")
    tab_to("e.dataset.mock === 'shuffle'")
    pg.keyboard.press("Space")  # in deck order, not at random
    tab_to("e.dataset.action === 'mock-start'")
    pg.keyboard.press("Enter")
    timer, what = pg.locator(".mock-timer"), pg.locator(".mock-what")
    answer, full = BUDGETS["answer"], BUDGETS["full"]
    assert pg.locator(".mock-position").inner_text() == _w("position", lang, i=1, n=2)
    assert what.inner_text() == _w("mock_answer", lang, budget=_budget(answer, lang))
    assert timer.inner_text() == _w("mock_left", lang, time=_clock_text(answer))
    assert _shown(pg) == ([ids[0]], [])
    # Question 1: 5 s for the one-sentence answer, 20 s over for the full answer.
    pg.clock.run_for(5_000)
    assert timer.inner_text() == _w("mock_left", lang, time=_clock_text(answer - 5))
    pg.keyboard.press("Space")
    assert _shown(pg) == ([ids[0]], ["1"])
    assert what.inner_text() == _w("mock_full", lang, budget=_budget(full, lang))
    pg.clock.run_for((full + 20) * 1000)
    assert timer.inner_text() == _w("mock_over", lang, time=_clock_text(20))
    assert what.inner_text() == _w("mock_time_up", lang)
    screenshot(pg, f"{lang}-mock-interview", full_page=False)
    pg.keyboard.press("Space")
    assert _shown(pg) == ([ids[0]], ["1", "2", "3"])
    pg.keyboard.press("ArrowRight")
    # Question 2: 1 s over for the one-sentence answer, a minute for the full answer.
    assert _shown(pg) == ([ids[1]], [])
    pg.clock.run_for((answer + 1) * 1000)
    assert timer.inner_text() == _w("mock_over", lang, time=_clock_text(1))
    pg.keyboard.press("Space")
    pg.clock.run_for(60_000)
    pg.keyboard.press("Space")
    pg.keyboard.press("ArrowRight")
    # Grade yourself: the first by the arrows, the second forgotten, then given.
    form = pg.locator(".mock-grades")
    assert form.is_visible() and _shown(pg) == ([], [])
    tab_to("e.name === 'grade-" + ids[0] + "'")
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")  # Good
    tab_to("e.type === 'submit'")
    pg.keyboard.press("Enter")
    assert form.locator(".mock-error").inner_text() == _w("mock_ungraded", lang, n=1)
    assert pg.evaluate("document.activeElement.name") == "grade-" + ids[1]
    pg.keyboard.press("ArrowRight")  # Hard
    tab_to("e.type === 'submit'")
    finished = T0 + timedelta(seconds=5 + full + 20 + answer + 1 + 60)
    pg.keyboard.press("Enter")
    summary = pg.locator(".mock-summary")
    assert summary.is_visible()
    assert pg.evaluate("document.activeElement.tagName") == "H2"
    rows = summary.locator("tbody tr")
    cells = [
        [rows.nth(i).locator("th, td").nth(j).inner_text() for j in range(4)] for i in range(2)
    ]

    def spent(seconds: int, budget: int) -> str:
        text = _w("mock_time", lang, time=_clock_text(seconds), budget=_budget(budget, lang))
        over = seconds - budget
        return text + (" · " + _w("mock_over", lang, time=_clock_text(over)) if over > 0 else "")

    assert cells == [
        [titles[ids[0]], _w("good", lang), spent(5, answer), spent(full + 20, full)],
        [titles[ids[1]], _w("hard", lang), spent(answer + 1, answer), spent(60, full)],
    ]
    assert summary.locator("p").inner_text() == _w("mock_within", lang, answer=1, full=1, n=2)
    screenshot(pg, f"{lang}-mock-summary", full_page=False)
    stored = _stored(pg)
    round_ = stored["rounds"][-1]
    assert [(i["card"], i["grade"], i["answer_ms"], i["full_ms"]) for i in round_["items"]] == [
        (ids[0], 3, 5_000, (full + 20) * 1000),
        (ids[1], 2, (answer + 1) * 1000, 60_000),
    ]
    log = [
        {"card": ids[0], "grade": 3, "at": iso(finished), "retention": 0.9},
        {"card": ids[1], "grade": 2, "at": iso(finished), "retention": 0.9},
    ]
    _assert_states(stored, log)  # the grades went into the schedule
    assert pg.foreign == [] and pg.errors == []
    pg.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_wcag_2_2_aa_violation_in_any_state_of_practice(browser, base_url, lang):
    from axe_playwright_python.sync_playwright import Axe

    # Both languages' pages whole, each in one scheme (the default language's in the light, the
    # other's in the dark), then each state once, the languages taking turns as the behaviour
    # tests do: the reset dialog in the light; a mock interview over time, grading and the
    # round's summary in the dark. Last, the cards index with due counts, in the same scheme.
    axe, failures = Axe(), []
    scheme = "light" if lang == LANGS[0] else "dark"
    # After the page whole, axe reads only what a state changes: the practice controls and the
    # card on show, not the hidden rest of the deck (20,000 elements; about half of each run).
    shown = {"include": [[".practice"], [".practice-deck > :not([hidden])"]]}

    def check(where: str, whole: bool = False) -> None:
        pg.clock.resume()  # axe waits on timers: a paused clock would keep it waiting for ever
        options = {"runOnly": {"type": "tag", "values": WCAG}, "resultTypes": ["violations"]}
        context = None if whole else shown
        for v in axe.run(pg, context=context, options=options).response["violations"]:
            nodes = [" ".join(n["target"]) for n in v["nodes"][:3]]
            failures.append(f"{where}, {scheme}: {v['id']} at {nodes}")

    pg = _page(browser, (base_url,), scheme=scheme)
    _clock(pg, T0)
    pg.goto(base_url + PREFIX[lang] + "cards/practice/")
    pg.keyboard.press("Space")
    pg.locator(".practice-settings summary").click()
    check("practice", whole=True)
    if scheme == "light":
        pg.locator('[data-action="reset"]').click()
        check("reset dialog")
        pg.keyboard.press("Escape")
        pg.locator('[data-grade="3"]').click()
    else:
        pg.locator('[data-mode="mock"]').click()
        pg.locator('[data-mock="count"]').fill("1")
        pg.locator('[data-action="mock-start"]').click()
        pg.clock.run_for((BUDGETS["answer"] + 1) * 1000)  # over time
        check("mock interview")
        pg.keyboard.press("Space")
        pg.keyboard.press("Space")
        pg.keyboard.press("ArrowRight")
        check("grading")
        pg.locator(".mock-grades input[type=radio]").first.check()
        pg.locator(".mock-grades [type=submit]").click()
        check("round summary")
    pg.goto(base_url + PREFIX[lang] + "cards/")
    check("cards index", whole=True)
    pg.context.close()
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize("lang", LANGS)
def test_each_card_lists_its_references_in_the_step_that_first_cites_them(browser, base_url, lang):
    pg = _page(browser, (base_url,))
    pg.goto(base_url + PREFIX[lang] + "cards/practice/")
    assert pg.locator("article h2", has_text=re.compile("^(References|参考文献)")).count() == 0
    # One call for the whole deck: a locator per marker is a round trip to the browser each.
    found = pg.evaluate(
        """ids => ids.map(id => {
            const section = document.getElementById('practice-' + id);
            const step = el => Number(el.closest('.practice-step').dataset.step);
            return [...section.querySelectorAll('a.citation')].map(marker => {
                const target = marker.getAttribute('href').replace(/^#/, '');
                const entries = section.querySelectorAll(`[id="${CSS.escape(target)}"]`);
                return [id, target, entries.length, entries.length ? step(entries[0]) : null,
                        step(marker)];
            });
        }).flat()""",
        [card.id for card in DECK.cards(lang)],
    )
    for card_id, target, entries, entry_step, marker_step in found:
        assert entries == 1, f"{card_id}: {target} is not in the card"
        assert entry_step <= marker_step, f"{card_id}: {target} comes later"
    cited = len(found)
    assert cited, "no card cites anything: the test checks nothing"
    # A marker leads to its entry, in its collapsed list, opened.
    card = next(c for c in DECK.cards(lang) if pg.locator(f"#practice-{c.id} a.citation").count())
    for _ in DECK.cards(lang):  # "later" until it comes
        if _shown(pg)[0] == [card.id]:
            break
        pg.keyboard.press("ArrowRight")
    for _ in range(3):
        pg.keyboard.press("Space")
    marker = pg.locator(f"#practice-{card.id} a.citation").first
    marker.click()
    target = marker.get_attribute("href").removeprefix("#")
    assert pg.locator(f'[id="{target}"]').is_visible(), "the entry stayed folded away"
    assert pg.foreign == [] and pg.errors == []
    pg.context.close()


@pytest.mark.parametrize("lang", one_language(3))
def test_offline_edition_schedules_exports_and_imports_from_file(
    browser, offline_site, lang, tmp_path
):
    pg = _page(browser, ("file://", "data:", "blob:", "about:"))
    _clock(pg, T0)
    root = offline_site.as_uri() + "/" + PREFIX[lang]
    pg.goto(root + "cards/practice.html")
    first = DECK.cards(lang)[0].id
    _grade(pg, 4)
    pg.reload()
    assert _shown(pg)[0] != [first], "progress lost on reload"
    stored = _stored(pg)
    _assert_states(stored, [{"card": first, "grade": 4, "at": iso(T0), "retention": 0.9}])
    pg.locator(".practice-settings summary").click()
    with pg.expect_download() as download:
        pg.locator('.practice-settings [data-action="export"]').click()
    path = tmp_path / "progress.json"
    download.value.save_as(path)
    pg.locator('[data-action="reset"]').click()
    pg.locator('.practice-dialog [data-action="reset-now"]').click()
    assert _stored(pg)["cards"] == {}
    pg.locator('[data-action="import"]').set_input_files(path)
    expect(pg.locator(".practice .practice-message")).to_have_text(
        _w("imported", lang, added=1, updated=0)
    )
    assert _stored(pg)["cards"] == stored["cards"]
    pg.goto(root + "cards/index.html")
    assert pg.locator(".card-mark:not(:empty)").count() == 1
    href = pg.locator(".card-map a.map-node").first.get_attribute("href")
    assert href.endswith(".html") and (offline_site / PREFIX[lang] / "cards" / href).is_file()
    assert pg.foreign == [] and pg.errors == []
    pg.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_map_boxes_lead_to_their_cards(page, base_url, built_site, lang):
    page.goto(base_url + PREFIX[lang] + "cards/")
    nodes = page.locator(".card-map a.map-node")
    assert nodes.count() == len(DECK.cards(lang))
    for i in range(nodes.count()):
        href = nodes.nth(i).get_attribute("href")
        card = nodes.nth(i).get_attribute("data-card")
        assert href == f"{card}/"
        assert (built_site / PREFIX[lang] / "cards" / card / "index.html").is_file()
    screenshot(page.locator(".card-map"), f"{lang}-cards-map", full_page=False)
    target = DECK.cards(lang)[-1]
    page.locator(f'.card-map a[data-card="{target.id}"]').click()
    page.wait_for_url(f"**/cards/{target.id}/")
    assert page.locator("h1").inner_text().strip().removesuffix("¶") == target.title
    assert page.foreign == []


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_script_the_practice_page_lists_every_card_with_its_answers(
    browser, base_url, lang
):
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(base_url + PREFIX[lang] + "cards/practice/")
    assert pg.locator(".practice").is_hidden(), "controls that nothing would drive"
    assert pg.locator(".practice-card:visible").count() == len(DECK.cards(lang))
    assert pg.locator(".practice-step:visible").count() == 3 * len(DECK.cards(lang))
    context.close()
