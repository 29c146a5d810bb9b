// Pointer events on the board: one code path for the mouse, a pen and a finger. A press that
// does not travel is a tap (what it means is main.js's); one that travels drags the card
// pressed and the cards above it, and lets go over a place: a drop. The page asks the server
// where the held cards may go (marked while held) and whether the drop is legal.

const TRAVEL = 6; // pixels a press moves before it is a drag

/** What is under a point: {where: "column", col, index, card} | {where: "foundation"} |
{where: "stock"} | {where: "off"} (Spider's runs off) | null. */
export function placeOf(el) {
  if (!el) return null;
  const thing = el.closest("[data-col], [data-found], [data-stock], [data-off]");
  if (!thing) return null;
  if (thing.dataset.stock !== undefined) return { where: "stock" };
  if (thing.dataset.off !== undefined) return { where: "off" };
  if (thing.dataset.found !== undefined) return { where: "foundation" };
  const col = Number(thing.dataset.col);
  const index = thing.dataset.index === undefined ? null : Number(thing.dataset.index);
  const card = thing.dataset.card ?? null;
  return { where: "column", col, index, card, el: thing };
}

/**
 * Follow presses on ``board``. ``handlers``:
 *  - ``tap(place)``: a press that did not travel;
 *  - ``canDrag(place)``: the cards a drag from ``place`` would hold (elements), or null;
 *  - ``lift(place, held)``: the drag began (the page asks where they may go);
 *  - ``drop(place, held, dst)``: let go over ``dst`` (a place, or null: nowhere).
 */
export function attachPointer(board, handlers) {
  let press = null;

  board.addEventListener("pointerdown", (event) => {
    if (press || (event.pointerType === "mouse" && event.button !== 0)) return;
    const place = placeOf(event.target);
    if (!place) return;
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, place, held: null };
    board.setPointerCapture(event.pointerId);
  });

  board.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.held) {
      if (Math.hypot(dx, dy) < TRAVEL) return;
      const held = handlers.canDrag(press.place);
      if (!held || !held.length) {
        press.dead = true;
        return;
      }
      press.held = held;
      for (const el of held) el.classList.add("held");
      handlers.lift(press.place, held);
    }
    for (const el of press.held) el.style.transform = `translate(${dx}px, ${dy}px)`;
  });

  const finish = (event, cancelled) => {
    if (!press || event.pointerId !== press.id) return;
    const done = press;
    press = null;
    if (board.hasPointerCapture(event.pointerId)) board.releasePointerCapture(event.pointerId);
    if (!done.held) {
      if (!cancelled && !done.dead) handlers.tap(done.place);
      return;
    }
    // The held cards let no pointer through, so the point shows what lies under them.
    const dst = cancelled ? null : placeOf(document.elementFromPoint(event.clientX, event.clientY));
    handlers.drop(done.place, done.held, dst);
  };
  board.addEventListener("pointerup", (event) => finish(event, false));
  board.addEventListener("pointercancel", (event) => finish(event, true));
}

/** The held cards are let go where they are: the next drawing of the table slides them to
their place (the new one, or back). */
export function release(held) {
  for (const el of held) el.classList.remove("held");
}
