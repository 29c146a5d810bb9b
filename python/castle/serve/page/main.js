// The page: the level picker, the table, the bar, the menu, the results. It draws what the
// server says (docs/serve.md) and sends what the player did; it decides no rule.

import { api, ApiError } from "./api.js";
import { cardName, cardShort, isRed } from "./cards.js";
import { attachPointer, release } from "./drag.js";
import { setSound, soundOn, sounds } from "./sound.js";
import { pileOf, TableView } from "./table.js";

const $ = (id) => document.getElementById(id);
const DOUBLE_TAP_MS = 300;
// A hint quicker than this shows no "thinking…" (a sign that came and went would flicker).
const THINKING_MS = 300;

const state = {
  screen: "start",
  view: null,
  levels: [],
  level: localStorage.getItem("castle-level") || "easy",
  continueInfo: null,
  pausedBy: null, // "menu" | "cover" | "hidden" | "guide": who stopped the clock
  viewAt: 0, // when the view came (for the running clock)
  pendingTap: null,
  held: null,
  busy: 0,
  queue: Promise.resolve(),
  queued: 0, // requests of the queue not yet answered
  hinting: null, // the hint asked and not yet answered: {moves, level, deal} once sent
  celebrated: false,
};

const table = new TableView($("board"));

// --- talking to the server ---------------------------------------------------------------

function busy(delta) {
  state.busy += delta;
  if (state.busy > 0) document.body.dataset.busy = "";
  else delete document.body.dataset.busy;
}

/** Requests go one after another, in the order the player made them. */
function queued(task) {
  busy(1);
  state.queued += 1;
  const run = state.queue
    .then(task)
    .catch(failed)
    .finally(() => {
      state.queued -= 1;
      busy(-1);
    });
  state.queue = run;
  return run;
}

/** A request refused: no game at the table any more (the server started again, or another
tab dealt) goes back to the picker; anything else is said. */
function failed(error) {
  if (error instanceof ApiError && error.status === 409 && state.screen !== "start") {
    showStart();
  }
  showError(error);
}

function showError(error) {
  const el = $("error");
  el.textContent = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  el.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => {
    el.hidden = true;
  }, 5000);
}

/** Send one action; draw the answer. Resolves to the reply. */
function act(action, options = {}) {
  return queued(async () => {
    let answer;
    try {
      answer = await api.act(action);
    } catch (error) {
      if (options.held) {
        release(options.held); // nothing changed: the cards go back
        if (state.view) table.render(state.view);
      }
      throw error;
    }
    const { reply, view, notices } = answer;
    handleReply(reply, view, options);
    tell(notices);
    return reply;
  });
}

/** What went wrong with the player's files (a save that cannot be written), told once. */
function tell(notices) {
  if (notices && notices.length) showError(new Error(notices.join(" ")));
}

function handleReply(reply, view, { held = null, column = null } = {}) {
  const before = state.view;
  if (held) release(held); // the table drawn next slides them from where they were let go
  if (reply.question) {
    ask(reply.question);
  }
  if (view) showView(view);
  else if (held && state.view) table.render(state.view);
  if (!reply.done && !reply.question) {
    sounds.refused();
    say(reply.message);
    if (held) table.shake(held);
    else {
      // The cards that go back (the game says which), else the card tapped.
      const shaken = reply.shake ?? column;
      const col = view && shaken !== null ? pileOf(view, shaken) : null;
      if (col) table.shake(table.run(shaken, col.down + Math.max(0, col.cards.length - 1)));
    }
    return;
  }
  if (view && before && reply.done) {
    const up = (v) => (v.cards_up ?? 0) + (v.off ? v.off.length : 0);
    if (up(view) > up(before)) sounds.up();
    else if (view.moves !== before.moves) sounds.move();
  }
}

// --- the screens -------------------------------------------------------------------------

function show(screen) {
  state.screen = screen;
  document.body.dataset.screen = screen;
  $("start").hidden = screen !== "start";
  $("table").hidden = screen === "start";
  $("bar").hidden = screen === "start";
  $("results").hidden = screen !== "results";
  if (screen !== "table") closeMenu(false);
}

async function showStart() {
  stopThinking();
  show("start");
  busy(1);
  try {
    const data = await api.levels();
    state.levels = data.levels;
    state.continueInfo = data.continue;
    drawLevels();
    $("notices").textContent = (data.notices || []).join(" ");
  } catch (error) {
    showError(error);
  } finally {
    busy(-1);
  }
}

function statsText(record) {
  if (!record) return "no games yet";
  const pct = record.win_percentage === null ? "–" : `${Math.round(record.win_percentage)}`;
  return `${record.wins} won · ${record.losses} lost · ${pct}% · streak ${record.streak} (best ${record.best_streak})`;
}

function drawLevels() {
  const box = $("levels");
  box.replaceChildren();
  if (!state.levels.some((l) => l.id === state.level)) state.level = state.levels[0]?.id ?? "easy";
  for (const level of state.levels) {
    const button = document.createElement("button");
    button.className = "level";
    button.setAttribute("role", "radio");
    button.dataset.level = level.id;
    button.setAttribute("aria-checked", level.id === state.level ? "true" : "false");
    button.tabIndex = level.id === state.level ? 0 : -1;
    const name = document.createElement("span");
    name.className = "level-name";
    name.textContent = level.name;
    const blurb = document.createElement("span");
    blurb.className = "blurb";
    blurb.textContent = level.blurb;
    const stats = document.createElement("span");
    stats.className = "stats";
    stats.textContent = statsText(level.record);
    button.append(name, blurb, stats);
    button.addEventListener("click", () => chooseLevel(level.id));
    button.addEventListener("dblclick", () => play());
    box.append(button);
  }
  const info = state.continueInfo;
  $("continue").hidden = !info;
  $("continue-about").textContent = info
    ? `Unfinished: ${info.level_name}, ${info.deal_name}, ${info.moves} moves, ${info.clock}.`
    : "";
}

function chooseLevel(id) {
  state.level = id;
  localStorage.setItem("castle-level", id);
  for (const el of $("levels").children) {
    const on = el.dataset.level === id;
    el.setAttribute("aria-checked", on ? "true" : "false");
    el.tabIndex = on ? 0 : -1;
  }
}

/** The deal number the picker's field names: null when empty (the level picks), undefined
 * when it is not a number (said where the player is). */
function dealNumber() {
  const text = $("deal-number").value.trim();
  if (text === "") return null;
  if (/^[0-9]{1,12}$/.test(text) && Number(text) >= 1) return Number(text);
  showError(new Error(`not a deal number: ${text} (a whole number from 1, as 617)`));
  return undefined;
}

function play(level = state.level, confirmed = false) {
  const deal = dealNumber();
  if (deal === undefined) return Promise.resolve();
  return queued(async () => {
    const { reply, view, notices } = await api.newDeal(level, confirmed, deal);
    tell(notices);
    if (reply.question) {
      ask(reply.question, () => play(level, true));
      return;
    }
    if (!reply.done) {
      showError(new Error(reply.message)); // said where the player is: the picker
      return;
    }
    $("deal-number").value = ""; // the next PLAY deals what the level picks
    startTable(view, true);
  });
}

function continueGame() {
  return queued(async () => {
    const { view, notices } = await api.continueGame();
    tell(notices);
    startTable(view, true);
  });
}

function startTable(view, deal) {
  state.celebrated = view.won;
  state.pausedBy = null;
  show("table");
  $("cover").hidden = true;
  showView(view, { deal });
  if (deal) sounds.deal();
}

/** Draw ``view`` and the bar. */
function showView(view, { deal = false } = {}) {
  const wasWon = state.view?.won;
  if (state.hinting && !sameTable(state.hinting, view)) stopThinking(); // moved on: dropped
  state.view = view;
  state.viewAt = performance.now();
  if (state.screen === "start") return;
  table.render(view, { deal });
  $("board").classList.toggle("tiny", table.geometry.cw < 54);
  $("level-name").textContent = `${view.level_name} · ${view.deal_name}`;
  $("moves").textContent = String(view.moves);
  $("score").textContent = String(view.score);
  $("clock").textContent = view.clock;
  $("undo").disabled = !view.can_undo;
  $("hint").disabled = !view.can_hint; // a won game has no hint to give
  // A hint shown: the same button plays it.
  $("hint").textContent = view.hint ? "Play it" : "Hint";
  $("off").hidden = view.game !== "spider";
  say(view.message);
  document.body.dataset.game = view.game;
  document.body.dataset.moves = String(view.moves);
  document.body.dataset.paused = view.paused ? "true" : "false";
  document.body.dataset.won = view.won ? "true" : "false";
  if (view.won && !wasWon && !state.celebrated) celebrate(view);
}

/** The game's message, each card it names ("TH") written as on the table ("10♥", in its
 * colour) and named for a screen reader ("ten of hearts"). */
function say(text) {
  const line = $("message");
  line.replaceChildren();
  if (!text) {
    line.textContent = "\u00a0";
    return;
  }
  let end = 0;
  for (const match of text.matchAll(CARD_TOKEN)) {
    line.append(text.slice(end, match.index));
    const card = document.createElement("span");
    card.className = `message-card ${isRed(match[2]) ? "red" : "black"}`;
    card.textContent = cardShort(match[0]);
    card.setAttribute("aria-label", cardName(match[0]));
    line.append(card);
    end = match.index + match[0].length;
  }
  line.append(text.slice(end));
}

/** A card as the game's messages write it: rank, then suit letter. */
const CARD_TOKEN = /\b([A2-9TJQK])([CDHS])\b/g;

async function celebrate(view) {
  state.celebrated = true;
  sounds.win();
  await table.cascade();
  showResults(view);
}

function showResults(view) {
  const list = $("results-list");
  list.replaceChildren();
  const rows = [
    ["Moves", view.moves],
    ["Time", view.clock],
    ["Score", view.score],
  ];
  const s = view.statistics;
  if (s) {
    rows.push(["Won", s.wins], ["Lost", s.losses]);
    rows.push(["Win %", s.win_percentage === null ? "–" : `${Math.round(s.win_percentage)}%`]);
    rows.push(["Streak", s.streak], ["Best streak", s.best_streak]);
  }
  for (const [k, v] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = String(v);
    list.append(dt, dd);
  }
  $("results-record").textContent = view.record ? `${view.level_name}: ${view.record}` : "";
  show("results");
  $("results-new").focus();
}

// --- asking ------------------------------------------------------------------------------

let answer = null;
function ask(question, yes) {
  $("ask-text").textContent = question;
  $("ask").hidden = false;
  answer = yes ?? (() => newDeal(true));
  $("ask-no").focus();
}
function answered(yes) {
  $("ask").hidden = true;
  const then = answer;
  answer = null;
  if (yes && then) then();
  else resumeFrom("ask");
}

function newDeal(confirmed = false) {
  const level = state.view?.level ?? state.level;
  return queued(async () => {
    const { reply, view, notices } = await api.newDeal(level, confirmed);
    tell(notices);
    if (reply.question) {
      // The clock stops while the player thinks it over (as in the menu, which may have
      // asked).
      if (state.pausedBy === "menu") state.pausedBy = "ask";
      else pauseFor("ask");
      ask(reply.question, () => newDeal(true));
      return;
    }
    if (reply.done && view) startTable(view, true);
    else say(reply.message);
  });
}

// --- the menu, pause, the guide ----------------------------------------------------------

function pauseFor(who) {
  if (state.pausedBy || !state.view || state.view.won || state.screen !== "table") return;
  state.pausedBy = who;
  act({ action: "pause" });
}
function resumeFrom(who) {
  if (state.pausedBy !== who) return;
  state.pausedBy = null;
  if (state.screen === "table") act({ action: "resume" });
}

function openMenu() {
  $("menu").hidden = false;
  $("menu-button").setAttribute("aria-expanded", "true");
  if (state.screen === "table") pauseFor("menu");
  $("menu").querySelector("button").focus();
}
function closeMenu(resume = true) {
  if ($("menu").hidden) return;
  $("menu").hidden = true;
  $("menu-button").setAttribute("aria-expanded", "false");
  if (resume) resumeFrom("menu");
}

function coverTable() {
  if (state.pausedBy === "menu") state.pausedBy = "cover";
  else pauseFor("cover");
  closeMenu(false);
  $("cover").hidden = false;
  $("resume").focus();
}
function uncover() {
  $("cover").hidden = true;
  resumeFrom("cover");
}

async function openGuide() {
  closeMenu(false);
  if (state.screen === "table" && !state.pausedBy) pauseFor("guide");
  else if (state.pausedBy === "menu") state.pausedBy = "guide";
  $("guide").hidden = false;
  $("guide-close").focus();
  // The guide of the level played at the table, else of the level chosen in the picker.
  const atTable = state.screen !== "start" && state.view;
  const level = atTable ? state.view.level : state.level;
  const chosen = state.levels.find((l) => l.id === level);
  const name = atTable ? state.view.level_name : chosen?.name ?? level;
  const game = atTable ? state.view.game : chosen?.game ?? "castle";
  $("guide-title").textContent = `How to play ${name}`;
  for (const part of document.querySelectorAll(".guide-here")) part.hidden = part.dataset.game !== game;
  if ($("guide-text").dataset.level !== level) {
    $("guide-text").replaceChildren();
    try {
      const { html } = await api.guide(level);
      $("guide-text").innerHTML = html; // the server renders docs/rules.md, raw HTML escaped
      $("guide-text").dataset.level = level;
    } catch (error) {
      showError(error);
    }
  }
}
function closeGuide() {
  $("guide").hidden = true;
  resumeFrom("guide");
}

async function toggleSound() {
  const on = !soundOn();
  setSound(on);
  drawSound();
  try {
    await api.saveSettings({ sound: on });
  } catch (error) {
    showError(error);
  }
}
function drawSound() {
  $("menu-sound").textContent = `Sound: ${soundOn() ? "on" : "off"}`;
  $("menu-sound").setAttribute("aria-pressed", soundOn() ? "true" : "false");
}

function toLevels() {
  closeMenu(false);
  if (state.screen === "table" && !state.pausedBy && state.view && !state.view.won) {
    act({ action: "pause" });
  }
  state.pausedBy = null;
  $("cover").hidden = true;
  showStart();
}

// --- the table: taps and drags -----------------------------------------------------------

function isSpider() {
  return state.view?.game === "spider";
}

function selected() {
  return state.view?.selection ?? null;
}

function tapPlace(place) {
  if (!state.view || state.view.won) return;
  if (place.where === "stock") {
    act({ action: "deal" });
    return;
  }
  if (place.where === "off") {
    act({ action: "take_off" }); // the selected run's column, else the first with one
    return;
  }
  const sel = selected();
  if (place.where === "foundation") {
    if (sel) act({ action: "put", dst: "foundation" });
    return;
  }
  const col = place.col;
  const column = pileOf(state.view, col);
  if (sel && sel.src !== col) {
    act({ action: "pick", column: col }); // the selection goes there
    return;
  }
  if (isSpider()) {
    if (place.card === null || place.index === null) {
      if (sel) act({ action: "cancel" });
      return;
    }
    const count = column.down + column.cards.length - place.index;
    if (sel && sel.count === count) act({ action: "cancel" });
    else act({ action: "pick", column: col, count });
    return;
  }
  if (!column.cards.length || place.card === null) return; // a tap is on a card
  if (sel) {
    act({ action: "cancel" });
    return;
  }
  // Castle: one tap sends the top card to its best place, two to its foundation; the tap
  // waits for a second one, so a double tap never taps first.
  if (state.pendingTap && state.pendingTap.col === col) {
    flushTap();
    act({ action: "double_tap", column: col }, { column: col });
    return;
  }
  if (state.pendingTap) {
    const earlier = state.pendingTap.col;
    flushTap();
    act({ action: "tap", column: earlier }, { column: earlier });
  }
  busy(1);
  const pending = {
    col,
    release: () => busy(-1),
    timer: setTimeout(() => {
      state.pendingTap = null;
      pending.release();
      act({ action: "tap", column: col }, { column: col });
    }, DOUBLE_TAP_MS),
  };
  state.pendingTap = pending;
}

function flushTap() {
  if (!state.pendingTap) return;
  clearTimeout(state.pendingTap.timer);
  state.pendingTap.release();
  state.pendingTap = null;
}

function canDrag(place) {
  if (!state.view || state.view.won || place.where !== "column" || place.card === null) return null;
  if (place.index === null) return null;
  flushTap();
  return table.run(place.col, place.index);
}

function dragCount(place) {
  const column = pileOf(state.view, place.col);
  return column.down + column.cards.length - place.index;
}

function lifted(place) {
  const count = dragCount(place);
  const view = state.view;
  api.lift(place.col, count).then(({ lift }) => {
    if (state.view !== view || !state.held) return;
    if (lift.refusal) say(lift.refusal);
    markTargets(lift.refusal ? [] : lift.targets);
  }, () => {});
  state.held = { place, count };
}

/** Mark where the held cards may go: an empty column or a foundation's slot, else the top
card of the column. */
function markTargets(targets) {
  const board = $("board");
  for (const el of board.querySelectorAll(".slot.column, .slot.foundation")) {
    const t = el.dataset.found !== undefined ? "foundation" : Number(el.dataset.col);
    el.classList.toggle("target", targets.includes(t));
  }
  for (const el of board.querySelectorAll(".card.target-top")) el.classList.remove("target-top");
  for (const t of targets) {
    if (t === "foundation") continue;
    const cards = table.run(t, 0);
    if (cards.length) cards[cards.length - 1].classList.add("target-top");
  }
}

function dropped(place, held, dst) {
  const count = state.held ? state.held.count : dragCount(place);
  state.held = null;
  markTargets([]);
  if (!dst || (dst.where === "column" && dst.col === place.col) || dst.where === "stock") {
    release(held);
    if (state.view) table.render(state.view);
    return;
  }
  if (dst.where === "off") {
    act({ action: "take_off", column: place.col }, { held }); // a complete run, off
    return;
  }
  const to = dst.where === "foundation" ? "foundation" : dst.col;
  act({ action: "drop", src: place.col, dst: to, count }, { held });
}

attachPointer($("board"), { tap: tapPlace, canDrag, lift: lifted, drop: dropped });
// A long press is a drag, not the browser's menu.
$("board").addEventListener("contextmenu", (event) => event.preventDefault());

// --- the keyboard (the terminal player's keys) -------------------------------------------

function focusedPlace() {
  const el = document.activeElement;
  if (!el || !$("board").contains(el)) return null;
  if (el.dataset.stock !== undefined) return { where: "stock" };
  if (el.dataset.off !== undefined) return { where: "off" };
  if (el.dataset.found !== undefined) return { where: "foundation" };
  if (el.dataset.col === undefined) return null;
  const index = el.dataset.index === undefined ? null : Number(el.dataset.index);
  return { where: "column", col: Number(el.dataset.col), index, card: el.dataset.card ?? null };
}

function onKey(event) {
  if (event.target instanceof HTMLInputElement) return; // typing a deal number
  const key = event.key;
  const mod = event.ctrlKey || event.metaKey;
  if (key === "Escape") {
    if (!$("ask").hidden) answered(false);
    else if (!$("guide").hidden) closeGuide();
    else if (!$("menu").hidden) closeMenu();
    else if (!$("cover").hidden) uncover();
    else if (state.screen === "table" && selected()) act({ action: "cancel" });
    return;
  }
  if (!$("ask").hidden || !$("guide").hidden) return;
  if (state.screen === "start") {
    if (key === "?") openGuide();
    return;
  }
  if (state.screen === "results") {
    if (key === "n") newDeal();
    return;
  }
  if (state.screen !== "table" || !$("cover").hidden || !$("menu").hidden) {
    if (key === "m" && !$("menu").hidden) closeMenu();
    return;
  }
  const lower = key.toLowerCase();
  if (mod && lower === "z" && !event.shiftKey) {
    event.preventDefault();
    act({ action: "undo" });
    return;
  }
  if (mod && (lower === "y" || (lower === "z" && event.shiftKey))) {
    event.preventDefault();
    act({ action: "redo" });
    return;
  }
  if (mod || event.altKey) return;
  const spider = isSpider();
  if (/^[0-9]$/.test(key)) {
    const col = key === "0" ? 9 : Number(key) - 1;
    if (col < state.view.columns.length) act({ action: "pick", column: col });
    return;
  }
  if ((key === "Enter" || key === " ") && focusedPlace()) {
    event.preventDefault();
    const place = focusedPlace();
    if (place.where === "column" && !spider && !selected()) {
      act({ action: "tap", column: place.col });
    } else {
      tapPlace(place);
    }
    return;
  }
  if (key === "Enter" || key === " ") {
    const sel = selected();
    if (sel && !spider) {
      event.preventDefault();
      act({ action: "tap", column: sel.src });
    }
    return;
  }
  const commands = {
    u: () => act({ action: "undo" }),
    r: () => act({ action: "redo" }),
    h: hint,
    n: () => newDeal(),
    m: openMenu,
    "?": openGuide,
    // Like c, f reads the selection once the requests before it are answered.
    f: () => queued(async () => (selected() ? act({ action: "put", dst: "foundation" }) : say("select a column first (its number), then f"))),
    c: cellKey,
    d: () => act({ action: "deal" }),
    o: () => act({ action: "take_off" }),
  };
  const command = commands[key];
  if (command) {
    event.preventDefault();
    command();
  }
}
document.addEventListener("keydown", onKey);

/** The free-cell games' c (the terminal's): the selected column's card into the first free
 * cell; else the card of the next cell that holds one selected. It reads the table once the
 * requests before it are answered (a pick just typed selects first), and its own requests
 * follow in turn. */
function cellKey() {
  queued(async () => cellAction());
}

function cellAction() {
  const view = state.view;
  if (!view || !view.cells) return;
  const first = view.columns.length;
  const sel = selected();
  if (sel && sel.src < first) {
    const free = view.cells.findIndex((cell) => !cell.cards.length);
    if (free < 0) {
      sounds.refused();
      say("no cell is free");
    } else {
      act({ action: "put", dst: first + free });
    }
    return;
  }
  const held = view.cells.flatMap((cell, i) => (cell.cards.length ? [first + i] : []));
  if (!held.length) {
    say("the cells are empty: select a column (its number), then c");
    return;
  }
  const after = held.filter((place) => !sel || place > sel.src);
  if (sel) act({ action: "cancel" }); // a pick now would move the selected card there
  act({ action: "pick", column: (after.length ? after : held)[0] });
}

/** Ask for a hint. It is sent after the requests before it (it is of the table they leave)
 * but not queued: the server thinks outside the player's lock, so the player may move, drag
 * and open the menu meanwhile. Past THINKING_MS the message line says "thinking…". Asked
 * again while it thinks, no second search is sent (its answer is on the way: the sign shows
 * at once). An answer that comes after the player moved (or dealt again) is dropped. With a
 * hint shown, Hint plays it. */
function hint() {
  if (!state.view || !state.view.can_hint) return;
  if (state.hinting) {
    showThinking(state.hinting);
    return;
  }
  if (state.view.hint) {
    act({ action: "play_hint" }); // Hint again: the hint shown is played
    return;
  }
  const peek = isSpider() && state.fairHints === false;
  const asked = { moves: null, level: null, deal: null, timer: null };
  asked.timer = setTimeout(() => showThinking(asked), THINKING_MS);
  state.hinting = asked;
  busy(1);
  state.queue
    .then(async () => {
      if (state.hinting !== asked || !state.view) return;
      const { moves, level, deal_name: deal } = state.view;
      Object.assign(asked, { moves, level, deal });
      let answer;
      try {
        answer = await api.act(peek ? { action: "hint", peek: true } : { action: "hint" });
      } catch (error) {
        if (state.hinting === asked) failed(error);
        return;
      }
      tell(answer.notices);
      // Dropped when the player moved on (the server says so too: reply.done false).
      if (state.hinting !== asked || !answer.reply.done) return;
      if (!sameTable(asked, answer.view) || !sameTable(asked, state.view)) return;
      stopThinking();
      if (answer.reply.question) {
        // No move left to give: a new deal is offered (the hint's words stay on the message
        // line under the question, for a player who keeps playing).
        ask(answer.reply.question, () => newDeal(true));
      }
      if (state.queued) {
        // A request of the player's is still out: the table is drawn as the server has it
        // after that one (with the hint, unless that request cleared it).
        queued(async () => {
          const { view } = await api.view();
          if (view) showView(view);
        });
        return;
      }
      showView(answer.view);
    })
    .finally(() => {
      if (state.hinting === asked) stopThinking();
      busy(-1);
    });
}

/** Whether ``view`` is the table a hint was asked of (not yet sent: any). */
function sameTable(asked, view) {
  if (asked.moves === null) return true;
  return view.moves === asked.moves && view.level === asked.level && view.deal_name === asked.deal;
}

/** The sign: "thinking…" on the message line, and the Hint button pulses (busy). */
function showThinking(asked) {
  if (state.hinting !== asked) return;
  $("thinking").hidden = false;
  $("hint").setAttribute("aria-busy", "true");
}

function stopThinking() {
  if (state.hinting) clearTimeout(state.hinting.timer);
  state.hinting = null;
  $("thinking").hidden = true;
  $("hint").removeAttribute("aria-busy");
}

// --- the clock ---------------------------------------------------------------------------

setInterval(() => {
  const view = state.view;
  if (!view || state.screen !== "table" || view.paused || view.won || state.pausedBy) return;
  const seconds = view.seconds + (performance.now() - state.viewAt) / 1000;
  const whole = Math.floor(seconds);
  $("clock").textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}, 250);

document.addEventListener("visibilitychange", () => {
  if (state.screen !== "table" || !state.view || state.view.won) return;
  if (document.visibilityState === "hidden") {
    if (!state.pausedBy) {
      state.pausedBy = "hidden";
      api.act({ action: "pause" }, { keepalive: true }).catch(() => {});
    }
  } else {
    resumeFrom("hidden");
  }
});

window.addEventListener("resize", () => {
  if (state.view && state.screen !== "start") table.render(state.view);
});

// --- the buttons -------------------------------------------------------------------------

function on(id, handler) {
  $(id).addEventListener("click", handler);
}
on("play", () => play());
$("deal-number").addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    event.preventDefault();
    play();
  }
});
on("continue", continueGame);
on("start-guide", openGuide);
on("undo", () => act({ action: "undo" }));
on("hint", hint);
on("off", () => act({ action: "take_off" }));
on("guide-button", openGuide);
on("guide-close", closeGuide);
on("menu-button", () => ($("menu").hidden ? openMenu() : closeMenu()));
on("menu-pause", coverTable);
on("menu-new", () => {
  closeMenu(false); // still paused: the question, if any, is asked with the clock stopped
  newDeal().then(() => {
    if ($("ask").hidden) resumeFrom("menu");
  });
});
on("menu-sound", toggleSound);
on("menu-levels", toLevels);
on("menu-guide", openGuide);
on("menu-close", () => closeMenu());
on("resume", uncover);
on("results-new", () => newDeal());
on("results-levels", toLevels);
on("ask-yes", () => answered(true));
on("ask-no", () => answered(false));
$("levels").addEventListener("keydown", (event) => {
  const ids = state.levels.map((l) => l.id);
  const i = ids.indexOf(state.level);
  let next = null;
  if (event.key === "ArrowDown" || event.key === "ArrowRight") next = ids[(i + 1) % ids.length];
  if (event.key === "ArrowUp" || event.key === "ArrowLeft") next = ids[(i - 1 + ids.length) % ids.length];
  if (event.key === "Enter") {
    event.preventDefault();
    play();
  }
  if (next) {
    event.preventDefault();
    chooseLevel(next);
    $("levels").querySelector(`[data-level="${next}"]`).focus();
  }
});

// --- full screen and the service worker ----------------------------------------------------

/** The page full screen (the browser's Esc, or the button again, leaves it). Shown only
 * where the browser can do it (not an iPhone's Safari, say). */
async function toggleFullscreen() {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen({ navigationUI: "hide" });
  } catch {
    showError(new Error("the browser did not go full screen"));
  }
}
function drawFullscreen() {
  const on = Boolean(document.fullscreenElement);
  $("fullscreen").setAttribute("aria-pressed", on ? "true" : "false");
  $("fullscreen").setAttribute("aria-label", on ? "Leave full screen (Esc)" : "Full screen");
  $("fullscreen").title = on ? "Leave full screen (Esc)" : "Full screen";
}
$("fullscreen").hidden = !document.fullscreenEnabled;
document.addEventListener("fullscreenchange", drawFullscreen);
drawFullscreen();
on("fullscreen", toggleFullscreen);

/** The service worker keeps the page's own files (sw.js), so that the table opens at once.
 * Browsers allow one on loopback and https only; without one the page works as before. */
function keepPageFiles() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}

// --- start -------------------------------------------------------------------------------

async function start() {
  try {
    const { settings } = await api.settings();
    setSound(settings.sound);
    state.fairHints = settings.fair_hints;
  } catch {
    // the defaults
  }
  drawSound();
  await showStart();
  document.body.dataset.ready = "true";
  keepPageFiles();
}
start();
