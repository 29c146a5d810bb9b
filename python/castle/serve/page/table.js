// Draws a View (docs/serve.md) on the board: slots, then every card as one absolutely placed
// element that keeps its identity from view to view, so a moved card slides (CSS transitions)
// and a new deal flies in. It decides no rule: what is marked comes from the view.

import { cardName, drawBack, drawFace, parseCard, SUIT_NAMES, SUIT_SYMBOLS } from "./cards.js";

const SUITS = ["C", "D", "H", "S"];

/** The player asked for less motion: no flights, no cascade (the cards simply stand). */
function still() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// A covered face-up card shows at least this much of its height: its top corner (rank and
// suit, 4% down and about a fifth of the height tall in the largest corner style) stays whole.
const READABLE = 0.3;
// A face-down card gives up its space first, down to this strip.
const DOWN_STRIP = 0.06;
// The smallest card: past it, tall columns are squeezed after all.
const SMALLEST_CW = 28;

/** Where everything stands on a board of ``width`` x ``height`` for ``view``: the largest
 * cards that leave every covered face-up card's corner in sight. The tallest column first
 * lets its face-down cards close up, then its face-up ones down to the corner, and only then
 * are the cards made smaller. */
export function geometry(view, width, height) {
  const spider = view.game === "spider";
  const n = view.columns.length;
  const cells = view.cells ? view.cells.length : 0;
  // The free-cell games have a top row (the cells, then the foundations), as Spider has; when
  // it is wider than the columns (Eight Off), the cells take a row of their own under it.
  const narrow = spider || cells > 0 || width < 640 || width < height * 0.95;
  const twoRows = cells + 4 > n;
  const across = cells && !twoRows ? Math.max(n, cells + 4.5) : n;
  const gap = Math.max(4, Math.min(14, width / 90));
  let cw;
  if (narrow) {
    cw = Math.min(104, (width - gap * (across + 1)) / across, (height - 3 * gap) / (twoRows && cells ? 5.4 : 4.2));
  } else {
    cw = Math.min(112, (width - gap * 14) / 10, (height - 3 * gap) / 4.2);
  }
  cw = Math.max(SMALLEST_CW, Math.floor(cw));
  let g = layout(view, width, height, { spider, narrow, gap, cw });
  while (!g.readable && cw > SMALLEST_CW) {
    cw = Math.max(SMALLEST_CW, Math.floor(cw * 0.95));
    g = layout(view, width, height, { spider, narrow, gap, cw });
  }
  return g;
}

/** Where a free-cell game's top row puts its ``cells`` and its foundations (``g.cells``,
 * ``g.foundations``), over columns ``columnsWidth`` wide from ``x0``; the row(s)' height. */
function cellsRow(g, cells, x0, columnsWidth) {
  const { cw, ch, gap } = g;
  const twoRows = cells + 4 > g.columnsCount;
  const rowWidth = twoRows ? 4 * cw + 3 * gap : (cells + 4) * cw + (cells + 3) * gap + cw / 2;
  const left = Math.round(x0 + (columnsWidth - Math.max(rowWidth, columnsWidth)) / 2);
  const right = left + Math.max(rowWidth, columnsWidth);
  const foundationsWidth = 4 * cw + 3 * gap;
  const fx = twoRows ? Math.round(x0 + (columnsWidth - foundationsWidth) / 2) : right - foundationsWidth;
  SUITS.forEach((s, i) => {
    g.foundations[s] = { x: Math.round(fx + i * (cw + gap)), y: gap };
  });
  const cellsY = twoRows ? gap + ch + gap : gap;
  for (let i = 0; i < cells; i++) g.cells.push({ x: left + i * (cw + gap), y: cellsY });
  return cellsY + ch - gap;
}

/** The places for cards ``cw`` wide; ``readable``: every column's covered face-up cards show
 * their corners. */
function layout(view, width, height, { spider, narrow, gap, cw }) {
  const n = view.columns.length;
  const ch = Math.round(cw * 1.4);
  // Each column's number stands over it (the hints and the keys name columns by number).
  const label = Math.max(13, Math.round(cw * 0.2));
  const g = { narrow, gap, cw, ch, label, columns: [], foundations: {}, cells: [], stock: null, off: [], readable: true, columnsCount: n };
  const columnsWidth = n * cw + (n - 1) * gap;
  let x0 = Math.round((width - columnsWidth) / 2);
  let y0 = gap;
  if (spider) {
    g.stock = { x: x0, y: gap };
    const offStep = Math.min(cw * 0.5, (columnsWidth - 2 * cw - gap) / 8);
    for (let i = 0; i < 8; i++) {
      g.off.push({ x: x0 + columnsWidth - cw - (7 - i) * offStep, y: gap });
    }
    y0 = gap + ch;
  } else if (view.cells) {
    y0 = gap + cellsRow(g, view.cells.length, x0, columnsWidth);
  } else if (narrow) {
    const fWidth = 4 * cw + 3 * gap;
    const fx = Math.round((width - fWidth) / 2);
    SUITS.forEach((s, i) => {
      g.foundations[s] = { x: fx + i * (cw + gap), y: gap };
    });
    y0 = gap + ch;
  } else {
    const side = gap * 2;
    x0 = Math.round((width - columnsWidth) / 2);
    SUITS.forEach((s, i) => {
      const left = i < 2;
      const x = left ? x0 - side - cw : x0 + columnsWidth + side;
      g.foundations[s] = { x, y: gap + (i % 2) * (ch + gap) };
    });
    y0 = 0;
  }
  y0 += gap + label;
  const bottom = height - gap;
  view.columns.forEach((column, i) => {
    const x = x0 + i * (cw + gap);
    const { down, up, readable } = steps(column, ch, narrow, bottom - y0 - ch);
    g.readable &&= readable;
    g.columns.push({ x, y: y0, down, up, height: Math.max(ch, bottom - y0), label: y0 - label });
  });
  return g;
}

/** How far apart a column's face-down and face-up cards stand in ``room`` (below its top
 * card's place): at ease where it fits; else the face-down cards close up, then the face-up
 * ones down to their corners (``readable`` false: even that is too tall). */
function steps(column, ch, narrow, room) {
  const covered = Math.max(0, column.cards.length - 1);
  let down = Math.round(ch * (narrow ? 0.16 : 0.12));
  let up = Math.round(ch * (narrow ? 0.32 : 0.27));
  if (column.down * down + covered * up <= room) return { down, up, readable: true };
  down = Math.max(ch * DOWN_STRIP, column.down ? (room - covered * up) / column.down : 0);
  if (column.down * down + covered * up <= room) return { down, up, readable: true };
  down = ch * DOWN_STRIP;
  const readableUp = Math.min(up, ch * READABLE);
  up = covered ? Math.max(readableUp, (room - column.down * down) / covered) : up;
  if (column.down * down + covered * up <= room) return { down, up, readable: true };
  // Too tall even so at this size (the caller makes the cards smaller): squeezed to fit.
  const scale = Math.max(0.05, room / (column.down * down + covered * up));
  return { down: down * scale, up: up * scale, readable: false };
}

/** The cards of ``view`` as placed items: each {key, text (null: a back), x, y, z, where, col, index}. */
export function items(view, g) {
  const out = [];
  const seen = new Map();
  const key = (text) => {
    const n = (seen.get(text) ?? 0) + 1;
    seen.set(text, n);
    return n === 1 ? text : `${text}#${n}`;
  };
  view.columns.forEach((column, col) => {
    const place = g.columns[col];
    let y = place.y;
    for (let i = 0; i < column.down; i++) {
      out.push({ key: `down:${col}:${i}`, text: null, x: place.x, y, z: 10 + i, where: "column", col, index: i });
      y += place.down;
    }
    column.cards.forEach((text, i) => {
      const index = column.down + i;
      out.push({ key: key(text), text, x: place.x, y, z: 10 + index, where: "column", col, index });
      y += place.up;
    });
  });
  (view.cells ?? []).forEach((cell, i) => {
    const at = g.cells[i];
    const col = view.columns.length + i;
    cell.cards.forEach((text) => {
      out.push({ key: key(text), text, x: at.x, y: at.y, z: 10, where: "column", col, index: 0 });
    });
  });
  if (view.foundations) {
    for (const suit of SUITS) {
      const rank = view.foundations[suit] ?? 0;
      if (rank > 0) {
        const text = `${"A23456789TJQK"[rank - 1]}${suit}`;
        const at = g.foundations[suit];
        out.push({ key: key(text), text, x: at.x, y: at.y, z: 5, where: "foundation", suit });
      }
    }
  }
  if (view.stock) {
    // One back for each ten cards left (a deal each), a little apart.
    const deals = Math.ceil(view.stock / 10);
    for (let i = 0; i < deals; i++) {
      out.push({ key: `stock:${i}`, text: null, x: g.stock.x + i * 4, y: g.stock.y, z: 5 + i, where: "stock" });
    }
  }
  (view.off ?? []).forEach((suit, i) => {
    const at = g.off[i];
    out.push({ key: key(`K${suit}`), text: `K${suit}`, x: at.x, y: at.y, z: 5 + i, where: "off" });
  });
  return out;
}

/** "clubs foundation: jack of clubs" (or "clubs foundation, empty"). */
function foundationName(suit, rank) {
  const name = `${SUIT_NAMES[suit]} foundation`;
  return rank ? `${name}: ${cardName(`${"A23456789TJQK"[rank - 1]}${suit}`)}` : `${name}, empty`;
}

/** Place ``col`` of ``view``: a column, or past them a cell (the view numbers the cells after
 * the columns, as actions do). */
export function pileOf(view, col) {
  const n = view.columns.length;
  return col < n ? view.columns[col] : (view.cells ?? [])[col - n];
}

/** How a place is named: "column 3", "cell 2". */
function placeName(view, col) {
  const n = view.columns.length;
  return col < n ? `column ${col + 1}` : `cell ${col - n + 1}`;
}

/** Where the hint shown goes: a column or a cell, the suit of the foundation, or null. */
function hintTo(view) {
  const hint = view.hint;
  if (!hint || hint.action !== "drop") return null;
  if (hint.dst !== "foundation") return hint.dst;
  const cards = pileOf(view, hint.src).cards;
  return cards.length ? parseCard(cards[cards.length - 1]).suit : null;
}

export class TableView {
  constructor(board) {
    this.board = board;
    this.cards = new Map();
    this.slots = new Map();
    this.view = null;
    this.geometry = null;
  }

  /**
   * Draw ``view``; ``deal``: the cards fly in from the corner, one after another.
   *
   * Every card and place keeps its element from view to view, and the board's elements stand
   * in reading order (the foundations, then each column and its cards bottom to top, then the
   * stock and the runs off), which is the order of Tab and of a screen reader. A card that
   * changed place slides from where it was seen (a FLIP animation: first, last, invert,
   * play), so a dropped card glides from where it was let go and a refused one goes back.
   */
  render(view, { deal = false } = {}) {
    this.view = view;
    const board = this.board;
    const focused = board.contains(document.activeElement) ? document.activeElement : null;
    // First: where each card is seen now (its drag or flight included).
    const seen = new Map();
    for (const [key, el] of this.cards) seen.set(key, el.getBoundingClientRect());
    const g = geometry(view, board.clientWidth, board.clientHeight);
    this.geometry = g;
    board.dataset.game = view.game;
    board.dataset.layout = g.narrow ? "narrow" : "wide";
    board.style.setProperty("--cw", `${g.cw}px`);
    board.style.setProperty("--ch", `${g.ch}px`);
    board.style.setProperty("--label", `${g.label}px`);
    const slots = this.drawSlots(view, g);
    const placed = items(view, g);
    const keep = new Set();
    const fresh = new Set();
    const cardOf = new Map();
    for (const item of placed) {
      keep.add(item.key);
      let el = this.cards.get(item.key);
      if (!el) {
        el = document.createElement("div");
        el.dataset.key = item.key;
        this.cards.set(item.key, el);
        fresh.add(el);
      }
      el.style.transform = "";
      this.drawCard(el, item, view);
      cardOf.set(item, el);
    }
    for (const [k, el] of this.cards) {
      if (!keep.has(k)) {
        el.remove();
        this.cards.delete(k);
      }
    }
    // The reading order: a place's slot, then the cards on it.
    const order = [];
    const slotFor = (item) =>
      item.where === "column" ? `col:${item.col}` : item.where === "foundation" ? `found:${item.suit}` : item.where;
    const bySlot = new Map();
    for (const item of placed) {
      const k = slotFor(item);
      if (!bySlot.has(k)) bySlot.set(k, []);
      bySlot.get(k).push(cardOf.get(item));
    }
    for (const [k, el] of slots) {
      order.push(el);
      order.push(...(bySlot.get(k) ?? []));
      bySlot.delete(k);
    }
    for (const rest of bySlot.values()) order.push(...rest);
    let anchor = board.firstChild;
    for (const node of order) {
      if (node === anchor) anchor = anchor.nextSibling;
      else board.insertBefore(node, anchor);
    }
    if (focused && focused.isConnected && document.activeElement !== focused) {
      focused.focus({ preventScroll: true });
    }
    if (still()) return;
    // Last, invert, play.
    let flight = 0;
    for (const item of placed) {
      const el = cardOf.get(item);
      const before = seen.get(item.key);
      if (deal && item.where === "column") {
        this.fly(el, flight++);
        continue;
      }
      if (!before || fresh.has(el)) continue;
      for (const running of el.getAnimations()) running.cancel();
      const now = el.getBoundingClientRect();
      const dx = before.left - now.left;
      const dy = before.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) < 1) continue;
      el.animate(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
        { duration: 200, easing: "ease-out" },
      );
    }
  }

  /** A dealt card flies in from the top left, after the ``n`` before it. */
  fly(el, n) {
    for (const running of el.getAnimations()) running.cancel();
    const x = el.offsetLeft + 120;
    const y = el.offsetTop + 160;
    el.animate(
      [{ transform: `translate(${-x}px, ${-y}px) rotate(-25deg)` }, { transform: "none" }],
      { duration: 380, delay: Math.min(n * 12, 900), easing: "ease-out", fill: "backwards" },
    );
  }

  /** The places: one element each, kept from view to view; returned in reading order. */
  drawSlots(view, g) {
    const wanted = new Map();
    const place = (key, className, x, y, h, attrs) => {
      let el = this.slots.get(key);
      if (!el) {
        el = document.createElement("div");
        this.slots.set(key, el);
      }
      el.className = `slot ${className}`;
      el.style.left = `${x}px`;
      el.style.top = `${y}px`;
      el.style.height = h ? `${h}px` : "";
      el.style.width = "";
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      wanted.set(key, el);
      return el;
    };
    if (view.foundations) {
      for (const suit of SUITS) {
        const at = g.foundations[suit];
        const el = place(`found:${suit}`, "foundation", at.x, at.y, 0, {
          "data-found": suit,
          role: "button",
          tabindex: "0",
          "aria-label": foundationName(suit, view.foundations[suit] ?? 0),
        });
        el.textContent = SUIT_SYMBOLS[suit];
        el.classList.add(suit === "H" || suit === "D" ? "red" : "black");
        el.classList.toggle("target", view.foundation_target);
        el.classList.toggle("hint-dst", hintTo(view) === suit);
      }
    }
    view.columns.forEach((column, col) => {
      const at = g.columns[col];
      const empty = !column.down && !column.cards.length;
      const el = place(`col:${col}`, "column", at.x, at.y, at.height, {
        "data-col": col,
        "aria-label": `column ${col + 1}${empty ? ", empty" : ""}`,
      });
      el.classList.toggle("target", column.target);
      el.classList.toggle("hinted", column.hinted);
      el.classList.toggle("hint-dst", empty && hintTo(view) === col);
      el.classList.toggle("empty", empty);
      const number = place(`num:${col}`, "column-number", at.x, at.label, g.label, { "aria-hidden": "true" });
      number.textContent = String(col + 1);
      number.classList.toggle("hinted", column.hinted);
      if (empty) {
        el.tabIndex = 0;
        el.setAttribute("role", "button");
      } else {
        el.removeAttribute("tabindex");
        el.setAttribute("role", "group");
      }
    });
    (view.cells ?? []).forEach((cell, i) => {
      const at = g.cells[i];
      const col = view.columns.length + i;
      const empty = !cell.cards.length;
      const el = place(`col:${col}`, "column cell", at.x, at.y, g.ch, {
        "data-col": col,
        "aria-label": `cell ${i + 1}${empty ? ", empty" : ""}`,
      });
      el.textContent = empty ? String(i + 1) : "";
      el.classList.toggle("target", cell.target);
      el.classList.toggle("hinted", cell.hinted);
      el.classList.toggle("hint-dst", empty && hintTo(view) === col);
      el.classList.toggle("empty", empty);
      el.tabIndex = empty ? 0 : -1;
      el.setAttribute("role", empty ? "button" : "group");
    });
    if (view.stock !== null && g.stock) {
      const el = place("stock", "stock", g.stock.x, g.stock.y, 0, {
        "data-stock": "",
        role: "button",
        tabindex: view.stock ? "-1" : "0",
        "aria-label": `the stock: ${view.stock} cards`,
      });
      el.textContent = view.stock ? "" : "\u2205";
      const deals = Math.ceil(view.stock / 10);
      const label = place("stock-count", "stock-count", g.stock.x + g.cw + 4 * deals + 6, g.stock.y, 0, {
        "aria-hidden": "true",
      });
      label.textContent = `${view.stock}`;
      const offAt = g.off[0];
      const off = place("off", "off", offAt.x, offAt.y, 0, {
        "data-off": "",
        role: "button",
        tabindex: "0",
        "aria-label": `runs off: ${view.off.length} of 8; take a complete run off`,
      });
      off.style.width = `${g.off[7].x - offAt.x + g.cw}px`;
      off.textContent = `${view.off.length}/8 off`;
    }
    for (const [key, el] of this.slots) {
      if (!wanted.has(key)) {
        el.remove();
        this.slots.delete(key);
      }
    }
    return wanted;
  }

  drawCard(el, item, view) {
    if (el.dataset.face !== (item.text ?? "")) {
      if (item.text) drawFace(el, item.text);
      else drawBack(el);
      el.dataset.face = item.text ?? "";
    }
    el.classList.add("card");
    el.style.left = `${item.x}px`;
    el.style.top = `${item.y}px`;
    el.style.zIndex = String(item.z);
    el.dataset.where = item.where;
    for (const name of ["col", "index", "found", "card", "stock", "off"]) delete el.dataset[name];
    el.classList.remove("picked", "target-top", "hint-src", "hint-dst");
    el.removeAttribute("role");
    el.removeAttribute("tabindex");
    if (item.text) el.dataset.card = item.text;
    if (item.where === "column") {
      el.dataset.col = item.col;
      el.dataset.index = item.index;
      const column = pileOf(view, item.col);
      const total = column.down + column.cards.length;
      if (item.text) {
        el.setAttribute("role", "button");
        el.tabIndex = 0;
        const fromTop = total - item.index;
        if (column.picked && fromTop <= column.picked) el.classList.add("picked");
        const hint = view.hint;
        if (hint && hint.action === "drop" && hint.src === item.col && fromTop <= (hint.count ?? 1)) {
          el.classList.add("hint-src");
        }
        if (hint && hint.action === "take_off" && hint.column === item.col && fromTop <= 13) {
          el.classList.add("hint-src");
        }
        el.setAttribute("aria-pressed", column.picked && fromTop <= column.picked ? "true" : "false");
        if (item.index === total - 1) {
          if (column.target) el.classList.add("target-top");
          if (hintTo(view) === item.col) el.classList.add("hint-dst");
          el.setAttribute("aria-label", `${cardName(item.text)}, ${placeName(view, item.col)}`);
        } else {
          el.setAttribute("aria-label", cardName(item.text));
        }
      } else {
        el.setAttribute("role", "img");
      }
    } else if (item.where === "foundation") {
      el.dataset.found = item.suit;
      el.setAttribute("role", "button");
      el.tabIndex = -1;
      el.setAttribute("aria-label", `${cardName(item.text)}, on its foundation`);
      if (view.foundation_target) el.classList.add("target-top");
    } else if (item.where === "stock") {
      el.dataset.stock = "";
      el.setAttribute("role", "button");
      el.tabIndex = item.key === "stock:0" ? 0 : -1;
      if (view.hint && view.hint.action === "deal") el.classList.add("hint-src");
      el.setAttribute("aria-label", `the stock: ${view.stock} cards; deal a row`);
    } else if (item.where === "off") {
      el.dataset.off = "";
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", `a run of ${SUIT_NAMES[parseCard(item.text).suit]}, off`);
    }
  }

  /** The cards of column ``col`` from ``index`` up (what a drag holds). */
  run(col, index) {
    return [...this.cards.values()]
      .filter((el) => el.dataset.col === String(col) && Number(el.dataset.index) >= index)
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
  }

  /** The cards shake, then stand where the view has them. */
  shake(els) {
    for (const el of els) {
      el.classList.remove("shake");
      void el.offsetWidth;
      el.classList.add("shake");
      el.addEventListener("animationend", () => el.classList.remove("shake"), { once: true });
    }
  }

  /** The end: the kings, then the rest of each foundation, bounce off the table. */
  cascade() {
    if (still()) return Promise.resolve();
    const g = this.geometry;
    const board = this.board;
    const width = board.clientWidth;
    const height = board.clientHeight;
    const starts = g.narrow || !this.view.foundations
      ? SUITS.map((s, i) => g.foundations[s] ?? { x: width / 2 + (i - 2) * (g.cw + g.gap), y: g.gap })
      : SUITS.map((s) => g.foundations[s]);
    const flights = [];
    let order = 0;
    for (let rank = 13; rank >= 1; rank--) {
      SUITS.forEach((suit, i) => {
        const el = document.createElement("div");
        drawFace(el, `${"A23456789TJQK"[rank - 1]}${suit}`);
        el.classList.add("flying");
        el.setAttribute("aria-hidden", "true");
        const at = starts[i];
        el.style.left = `${at.x}px`;
        el.style.top = `${at.y}px`;
        el.style.zIndex = String(500 + order);
        board.append(el);
        const dir = at.x < width / 2 ? 1 : -1;
        const dx = dir * (width * (0.35 + ((rank * 7 + i * 3) % 10) / 25));
        const dy = height - at.y + g.ch;
        const keyframes = [];
        for (let t = 0; t <= 10; t++) {
          const f = t / 10;
          const bounce = Math.abs(Math.cos(f * Math.PI * 1.5)) * (1 - f) * height * 0.45;
          keyframes.push({ transform: `translate(${dx * f}px, ${dy * f * f - bounce * 0.2}px) rotate(${dir * f * 200}deg)` });
        }
        const flight = el.animate(keyframes, { duration: 1100, delay: order * 28, easing: "linear", fill: "forwards" });
        flights.push(flight.finished.then(() => el.remove(), () => el.remove()));
        order++;
      });
    }
    for (const el of this.cards.values()) {
      if (el.dataset.where === "foundation") el.style.visibility = "hidden";
    }
    return Promise.all(flights);
  }
}
