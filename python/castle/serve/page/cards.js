// Card faces, drawn by the page itself (CSS and text): no image files, nothing from another host.
// A card comes from the server as its text: rank A 2-9 T J Q K, then suit C D H S ("7H").

const RANKS = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
const RANK_SHOWN = { 1: "A", 10: "10", 11: "J", 12: "Q", 13: "K" };
const RANK_NAMES = [
  "", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
  "queen", "king",
];
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** {rank, suit} of a card's text. */
export function parseCard(text) {
  const r = text.slice(0, -1);
  const suit = text.slice(-1);
  const rank = RANKS[r] ?? Number(r);
  return { rank, suit };
}

export function rankName(rank) {
  return RANK_NAMES[rank];
}

/** "seven of hearts": what a screen reader says. */
export function cardName(text) {
  const { rank, suit } = parseCard(text);
  return `${RANK_NAMES[rank]} of ${SUIT_NAMES[suit]}`;
}

/** The short written form: "7♥". */
export function cardShort(text) {
  const { rank, suit } = parseCard(text);
  return `${RANK_SHOWN[rank] ?? rank}${SUIT_SYMBOLS[suit]}`;
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

function span(className, text) {
  const el = document.createElement("span");
  el.className = className;
  el.textContent = text;
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** Fill ``el`` with the face of ``text`` (classes, corners, pips or a court letter). */
export function drawFace(el, text) {
  const { rank, suit } = parseCard(text);
  const symbol = SUIT_SYMBOLS[suit];
  const shown = RANK_SHOWN[rank] ?? String(rank);
  el.className = `card face ${isRed(suit) ? "red" : "black"}`;
  el.replaceChildren();
  const corner = span("corner top", "");
  corner.append(span("rank", shown), span("suit", symbol));
  const bottom = span("corner bottom", "");
  bottom.append(span("rank", shown), span("suit", symbol));
  const middle = span("middle", "");
  // A number card shows one big suit (easier to read at a glance than pips); a court card its
  // letter over its suit.
  if (rank <= 10) {
    middle.classList.add("number");
    middle.append(span("big-suit", symbol));
  } else {
    middle.classList.add("court");
    middle.append(span("court-rank", shown), span("court-suit", symbol));
  }
  el.append(corner, middle, bottom);
  el.setAttribute("aria-label", cardName(text));
}

/** A face-down card: the back. */
export function drawBack(el) {
  el.className = "card back";
  el.replaceChildren();
  el.setAttribute("aria-label", "face-down card");
}
