// The card table: lays out a GameState's position (the Amber cells, or the generic `piles` table format),
// highlights what `legal_moves` allow, and turns clicks, drags and keys into moves. It knows no rules.

import { cardBack, cardFace, cardName, parseCard, patternOf, shortLabel, suitColour } from "./cards.js";
import { lang, t } from "./i18n.js";

const ASPECT = 100 / 140; // card width / height
const GAP_X = 0.08; // between cells, in card widths
const GAP_Y = 0.07; // between cells, in card heights
const BLOCK_GAP = 0.32; // between Amber blocks, in card units
const FAN_DOWN = 0.33; // a face-up card of a column fanned down, in card heights
const FAN_DOWN_HIDDEN = 0.12;
const FAN_RIGHT = 0.3;
const MAX_CARD_WIDTH = 150;
const DRAG_THRESHOLD = 6;

/** Origins (top-left, card units) of an Amber layout's blocks, and their sizes. */
export function amberBlockFrames(game, blocks) {
  const size = (b) => ({ w: b.columns * (1 + GAP_X) - GAP_X, h: b.rows * (1 + GAP_Y) - GAP_Y });
  const by = Object.fromEntries(blocks.map((b) => [b.name, { ...b, ...size(b) }]));
  const frames = {};
  const put = (name, x, y) => { frames[name] = { x, y, w: by[name].w, h: by[name].h, rows: by[name].rows, columns: by[name].columns }; };
  if (game === "kolvir" && by.top && by.lone && by.bottom) {
    const width = Math.max(by.top.w, by.bottom.w);
    put("top", (width - by.top.w) / 2, 0);
    put("lone", (width - 1) / 2, by.top.h + BLOCK_GAP);
    put("bottom", (width - by.bottom.w) / 2, frames.lone.y + 1 + BLOCK_GAP);
  } else if (game === "pattern" && by.centre) {
    const tl = by["top-left"], tr = by["top-right"], bl = by["bottom-left"];
    const width = tl.w + BLOCK_GAP + tr.w;
    put("top-left", 0, 0);
    put("top-right", tl.w + BLOCK_GAP, 0);
    put("centre", (width - by.centre.w) / 2, tl.h + BLOCK_GAP);
    const yb = frames.centre.y + by.centre.h + BLOCK_GAP;
    put("bottom-left", 0, yb);
    put("bottom-right", bl.w + BLOCK_GAP, yb);
  } else {
    let y = 0;
    for (const b of blocks) {
      put(b.name, 0, y);
      y += by[b.name].h + BLOCK_GAP;
    }
  }
  return frames;
}

function moveKey(move) {
  return JSON.stringify(move);
}

export class Table {
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers; // { play(move) -> Promise, message(text), error(text) }
    this.elements = new Map(); // key -> element
    this.extras = []; // block panels and pile slots
    this.state = null;
    this.selected = null; // key of the selected card
    this.showGoal = false;
    this.busy = false;
    this.drag = null;
    this.suppressClick = false;
    this.focusKey = null;
    root.addEventListener("click", (e) => this.onClick(e));
    root.addEventListener("dblclick", (e) => this.onDoubleClick(e));
    root.addEventListener("keydown", (e) => this.onKey(e));
    root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    window.addEventListener("pointermove", (e) => this.onPointerMove(e));
    window.addEventListener("pointerup", (e) => this.onPointerUp(e));
    window.addEventListener("pointercancel", () => this.endDrag(null));
    window.addEventListener("resize", () => this.layout());
  }

  get isAmber() {
    return this.state && this.state.family === "amber";
  }

  // ---- model -------------------------------------------------------------------------------

  buildItems(state) {
    const pos = state.position;
    const pattern = patternOf(state.game);
    const items = [];
    const extras = [];
    if (state.family === "amber") {
      const frames = amberBlockFrames(state.game, pos.blocks);
      for (const [name, f] of Object.entries(frames)) {
        extras.push({ key: `block:${name}`, kind: "block", block: name, x: f.x - 0.07, y: f.y - 0.05, w: f.w + 0.14, h: f.h + 0.1 });
      }
      for (const cell of pos.cells) {
        const f = frames[cell.block];
        items.push({
          key: cell.card, card: cell.card, faceUp: true, pattern, cell: cell.id,
          x: f.x + cell.column * (1 + GAP_X), y: f.y + cell.row * (1 + GAP_Y), z: 1,
          start: cell.start, goal: cell.goal, inPlace: cell.in_place,
        });
      }
    } else {
      const seen = new Map();
      let z = 1;
      for (const pile of pos.piles || []) {
        extras.push({ key: `pile:${pile.id}`, kind: "slot", pile: pile.id, pileKind: pile.kind, x: pile.x, y: pile.y, w: 1, h: 1, count: pile.count });
        const cards = pile.cards || [];
        const shown = pile.fan === "none" ? cards.slice(-1) : cards;
        const first = cards.length - shown.length;
        let dx = 0, dy = 0;
        shown.forEach((c, i) => {
          const index = first + i;
          let key;
          if (c.card && c.face_up !== false) {
            const n = (seen.get(c.card) || 0) + 1;
            seen.set(c.card, n);
            key = n === 1 ? c.card : `${c.card}#${n}`;
          } else {
            key = `back:${pile.id}:${index}`;
          }
          items.push({
            key, card: c.face_up !== false ? c.card : null, faceUp: c.face_up !== false && !!c.card, pattern,
            pile: pile.id, pileKind: pile.kind, index, top: index === cards.length - 1,
            x: pile.x + dx, y: pile.y + dy, z: z++, count: pile.fan === "none" && index === cards.length - 1 ? pile.count : 0,
          });
          if (pile.fan === "down") dy += c.face_up !== false && c.card ? FAN_DOWN : FAN_DOWN_HIDDEN;
          if (pile.fan === "right") dx += FAN_RIGHT;
        });
      }
    }
    return { items, extras };
  }

  // ---- rendering ---------------------------------------------------------------------------

  render(state, { showGoal = this.showGoal, rebuild = false } = {}) {
    const sameGame = this.state && state && this.state.id === state.id && !rebuild;
    this.state = state;
    this.showGoal = showGoal;
    if (!sameGame) {
      for (const e of this.elements.values()) e.remove();
      this.elements.clear();
      this.focusKey = null;
    }
    this.selected = null;
    for (const e of this.extras) e.remove();
    this.extras = [];
    if (!state) return;
    const { items, extras } = this.buildItems(state);
    this.items = new Map(items.map((it) => [it.key, it]));
    this.indexMoves(state);
    for (const ex of extras) {
      const e = document.createElement("div");
      e._pos = ex;
      if (ex.kind === "block") {
        e.className = "block-panel";
        e.dataset.block = ex.block;
      } else {
        e.className = `slot slot-${ex.pileKind}`;
        e.dataset.pile = ex.pile;
        e.dataset.kind = ex.pileKind;
        const suit = /foundation-([chsd])/.exec(ex.pile);
        const label = document.createElement("span");
        label.className = "slot-label";
        if (suit) {
          label.textContent = { c: "\u2663", h: "\u2665", s: "\u2660", d: "\u2666" }[suit[1]];
          label.style.color = suitColour(suit[1]);
          if (/-down$/.test(ex.pile)) label.textContent += "\u2193";
          else if (/-up$/.test(ex.pile)) label.textContent += "\u2191";
        } else if (ex.pileKind === "stock" && ex.count === 0) {
          label.textContent = "\u21bb";
        }
        e.appendChild(label);
      }
      this.root.appendChild(e);
      this.extras.push(e);
    }
    const keep = new Set();
    for (const it of items) {
      keep.add(it.key);
      let e = this.elements.get(it.key);
      if (!e) {
        e = document.createElement("div");
        e.className = "card";
        e.tabIndex = -1;
        e.setAttribute("role", "button");
        e.appendChild(it.faceUp ? cardFace(it.card, it.pattern, lang()) : cardBack());
        this.elements.set(it.key, e);
        this.root.appendChild(e);
      }
      e._item = it;
      e._pos = it;
      if (it.faceUp) {
        e.dataset.card = it.card;
        e.setAttribute("aria-label", cardName(it.card, it.pattern, lang()));
      } else {
        delete e.dataset.card;
        e.setAttribute("aria-label", lang() === "ru" ? "Карта рубашкой вверх" : "Face-down card");
      }
      if (it.cell !== undefined) e.dataset.cell = it.cell;
      if (it.pile !== undefined) e.dataset.pile = it.pile;
      e.classList.toggle("start", !!it.start);
      e.classList.toggle("in-place", !!it.inPlace);
      e.classList.toggle("trump", !!(it.faceUp && parseCard(it.card, it.pattern)?.trump));
      e.classList.remove("selected", "target", "hint", "dragging");
      e.setAttribute("aria-pressed", "false");
      this.decorate(e, it);
    }
    for (const [key, e] of this.elements) {
      if (!keep.has(key)) {
        e.remove();
        this.elements.delete(key);
      }
    }
    this.root.classList.toggle("show-goal", this.isAmber && this.showGoal);
    this.root.classList.toggle("amber", this.isAmber);
    this.root.classList.toggle("won", state.status === "won");
    this.layout();
    this.updateFocus();
  }

  decorate(e, it) {
    let goal = e.querySelector(".goal");
    if (this.isAmber && it.goal) {
      if (!goal) {
        goal = document.createElement("span");
        goal.className = "goal";
        goal.setAttribute("aria-hidden", "true");
        e.appendChild(goal);
      }
      goal.textContent = shortLabel(it.goal, it.pattern);
      const g = parseCard(it.goal, it.pattern);
      goal.style.color = g && !g.trump ? suitColour(g.suit) : "#4a3566";
    } else if (goal) {
      goal.remove();
    }
    let badge = e.querySelector(".count");
    if (it.count > 1) {
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "count";
        e.appendChild(badge);
      }
      badge.textContent = String(it.count);
    } else if (badge) {
      badge.remove();
    }
  }

  /** Size the cards from the space available and place every element. */
  layout() {
    if (!this.state) return;
    const all = [...this.elements.values(), ...this.extras];
    let maxX = 0.0001, maxY = 0.0001, minX = 0, minY = 0;
    for (const e of all) {
      const p = e._pos;
      maxX = Math.max(maxX, p.x + (p.w || 1));
      maxY = Math.max(maxY, p.y + (p.h || 1));
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
    }
    const W = this.root.clientWidth - 8;
    const H = this.root.clientHeight - 8;
    const bw = maxX - minX, bh = maxY - minY;
    const cw = Math.max(8, Math.floor(Math.min(W / bw, (H * ASPECT) / bh, MAX_CARD_WIDTH)));
    const ch = Math.floor(cw / ASPECT);
    this.cw = cw;
    this.ch = ch;
    this.root.style.setProperty("--cw", `${cw}px`);
    this.root.style.setProperty("--ch", `${ch}px`);
    this.root.style.setProperty("--cf", `${Math.max(7, cw * 0.2)}px`);
    const ox = Math.max(4, Math.floor((this.root.clientWidth - bw * cw) / 2)) - minX * cw;
    const oy = Math.max(4, Math.floor((this.root.clientHeight - bh * ch) / 2.4)) - minY * ch;
    this.origin = { ox, oy };
    for (const e of all) {
      const p = e._pos;
      const x = Math.round(ox + p.x * cw), y = Math.round(oy + p.y * ch);
      e._px = { x, y };
      e.style.transform = `translate(${x}px, ${y}px)`;
      if (p.w !== undefined && e.classList.contains("block-panel")) {
        e.style.width = `${Math.round(p.w * cw)}px`;
        e.style.height = `${Math.round(p.h * ch)}px`;
      }
      if (p.z !== undefined) e.style.zIndex = String(p.z);
    }
  }

  // ---- moves and highlights ----------------------------------------------------------------

  indexMoves(state) {
    this.moves = state.status === "playing" ? state.legal_moves || [] : [];
    this.partners = new Map(); // Amber: cell -> Set of cells it may swap with
    if (state.family === "amber") {
      for (const m of this.moves) {
        const pair = m.move && m.move.swap;
        if (!pair) continue;
        const [a, b] = pair;
        if (!this.partners.has(a)) this.partners.set(a, new Set());
        if (!this.partners.has(b)) this.partners.set(b, new Set());
        this.partners.get(a).add(b);
        this.partners.get(b).add(a);
      }
    }
  }

  elementOfCell(cell) {
    for (const e of this.elements.values()) if (e._item.cell === cell) return e;
    return null;
  }

  elementOfCard(card) {
    return this.elements.get(card) || null;
  }

  slotOf(pile) {
    return this.extras.find((e) => e.dataset.pile === pile) || null;
  }

  clearMarks(...classes) {
    for (const e of this.root.querySelectorAll(classes.map((c) => `.${c}`).join(","))) {
      e.classList.remove(...classes);
      if (classes.includes("selected")) e.setAttribute("aria-pressed", "false");
    }
  }

  cancel() {
    this.selected = null;
    this.clearMarks("selected", "target");
  }

  select(key) {
    this.cancel();
    const e = this.elements.get(key);
    if (!e) return;
    this.selected = key;
    e.classList.add("selected");
    e.setAttribute("aria-pressed", "true");
    for (const target of this.targetsOf(key)) target.classList.add("target");
  }

  /** The elements a selected card may go to or pair with. */
  targetsOf(key) {
    const it = this.items.get(key);
    if (!it) return [];
    if (this.isAmber) {
      return [...(this.partners.get(it.cell) || [])].map((c) => this.elementOfCell(c)).filter(Boolean);
    }
    const out = [];
    if (it.top) {
      // A move without cards from this card's pile (turn the stock onto the waste) goes where it goes.
      for (const m of this.pileMoves(it.pile)) {
        const slot = m.info.to && this.slotOf(m.info.to);
        if (slot) out.push(slot);
      }
    }
    for (const m of this.candidates(it)) {
      m.info.cards.forEach((c, i) => {
        const other = c !== it.card && this.elementOfPileCard(c, m.info.from[i]);
        if (other) out.push(other);
      });
      if (m.info.to) {
        const slot = this.slotOf(m.info.to);
        if (slot) out.push(slot);
        const top = this.topOf(m.info.to);
        if (top) out.push(top);
      }
    }
    return out;
  }

  topOf(pile) {
    let best = null;
    for (const e of this.elements.values()) {
      if (e._item.pile === pile && e._item.top) best = e;
    }
    return best;
  }

  /** Moves that take no card but act on a pile: turn the stock, recycle the waste. */
  pileMoves(pile) {
    return this.moves.filter((m) => m.info && !(m.info.cards || []).length && (m.info.from || []).includes(pile));
  }

  /** The move that a selected card `s` makes when put on `pile` (or paired with card `other`). */
  moveFor(s, pile, other = null) {
    const mine = this.candidates(s);
    const pair = other && mine.find((m) => m.info.cards.includes(other));
    const onto = mine.find((m) => m.info.to === pile);
    const turn = s.top && this.pileMoves(s.pile).find((m) => m.info.to === pile);
    return pair || onto || turn || null;
  }

  /** The legal moves that take this card (the card in this pile: Zodiac has two of each). */
  candidates(it) {
    if (!it || !it.card) return [];
    return this.moves.filter((m) => m.info && (m.info.cards || []).some((c, i) => c === it.card
      && (!m.info.from || m.info.from[i] === undefined || m.info.from[i] === it.pile)));
  }

  /** The element of `card` in `pile` (or anywhere when the pile is not given). */
  elementOfPileCard(card, pile) {
    for (const e of this.elements.values()) {
      if (e._item.card === card && (pile === undefined || e._item.pile === pile)) return e;
    }
    return this.elements.get(card) || null;
  }

  async play(move) {
    if (this.busy) return;
    this.busy = true;
    this.cancel();
    try {
      await this.handlers.play(move);
    } finally {
      this.busy = false;
    }
  }

  /** A card (by key) is clicked or chosen with Enter. */
  activate(key) {
    const it = this.items.get(key);
    if (!it || !this.state) return;
    if (this.isAmber) return this.activateAmber(it);
    return this.activatePile(it);
  }

  activateAmber(it) {
    if (this.selected === null) {
      this.select(it.key);
      const name = cardName(it.card, it.pattern, lang());
      if (it.start) this.handlers.message(t("startNever", { card: name }));
      else if (!(this.partners.get(it.cell) || new Set()).size) this.handlers.message(t("noSwaps", { card: name }));
      else this.handlers.message(`${t("selected", { card: name })} ${t("selectHelp")}`);
      return;
    }
    if (this.selected === it.key) {
      this.cancel();
      return;
    }
    const a = this.items.get(this.selected).cell;
    const b = it.cell;
    // Legal or not, the swap goes to the server: a refused one comes back with the rules' reason.
    return this.play({ swap: [Math.min(a, b), Math.max(a, b)] });
  }

  activatePile(it) {
    const pile = it.pile;
    if (this.selected !== null) {
      const s = this.items.get(this.selected);
      if (s && s.key === it.key) {
        this.cancel();
        return;
      }
      const m = s && this.moveFor(s, pile, it.faceUp ? it.card : null);
      if (m) return this.play(m.move);
      this.cancel();
    }
    const cand = it.faceUp ? this.candidates(it) : [];
    if (cand.length) {
      this.select(it.key);
      const name = cardName(it.card, it.pattern, lang());
      const alone = cand.some((m) => m.info.cards.length === 1 && m.info.to === null);
      this.handlers.message(alone ? t("dblToRemove", { card: name }) : t("selected", { card: name }));
      return;
    }
    const turn = this.pileMoves(pile)[0];
    if (turn) return this.play(turn.move);
    if (it.faceUp) this.handlers.message(t("cantMove", { card: cardName(it.card, it.pattern, lang()) }));
  }

  activateSlot(pile) {
    if (this.selected !== null) {
      const s = this.items.get(this.selected);
      const m = s && this.moveFor(s, pile);
      if (m) return this.play(m.move);
      this.cancel();
      return;
    }
    const turn = this.pileMoves(pile)[0];
    if (turn) return this.play(turn.move);
  }

  pileKind(id) {
    const slot = this.slotOf(id);
    return slot ? slot.dataset.kind : null;
  }

  onDoubleClick(e) {
    const el = e.target.closest(".card");
    if (!el || this.isAmber || !el._item.faceUp) return;
    const mine = this.candidates(el._item);
    const m = mine.find((x) => x.info.cards.length === 1 && x.info.to && this.pileKind(x.info.to) === "foundation")
      || mine.find((x) => x.info.to && this.pileKind(x.info.to) === "foundation")
      || mine.find((x) => x.info.cards.length === 1 && x.info.to === null)
      || (el._item.top ? this.pileMoves(el._item.pile)[0] : null);
    if (m) {
      e.preventDefault();
      this.play(m.move);
    }
  }

  onClick(e) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const el = e.target.closest(".card");
    if (el) {
      this.focusKey = el._item.key;
      this.updateFocus(false);
      this.activate(el._item.key);
      return;
    }
    const slot = e.target.closest(".slot");
    if (slot) this.activateSlot(slot.dataset.pile);
    else this.cancel();
  }

  // ---- hints -------------------------------------------------------------------------------

  showHint(hint) {
    this.clearMarks("hint");
    const marked = [];
    if (this.isAmber && hint.move && hint.move.swap) {
      for (const c of hint.move.swap) marked.push(this.elementOfCell(c));
    } else if (hint.info) {
      (hint.info.cards || []).forEach((c, i) => marked.push(this.elementOfPileCard(c, (hint.info.from || [])[i])));
      if (hint.info.to) marked.push(this.topOf(hint.info.to) || this.slotOf(hint.info.to));
      if (!(hint.info.cards || []).length) for (const p of hint.info.from || []) marked.push(this.topOf(p) || this.slotOf(p));
    }
    for (const e of marked) if (e) e.classList.add("hint");
    return marked.filter(Boolean).length;
  }

  // ---- drag and drop -----------------------------------------------------------------------

  onPointerDown(e) {
    if (e.button !== 0 || this.busy) return;
    const el = e.target.closest(".card");
    if (!el || !el._item.faceUp) return;
    this.drag = { el, key: el._item.key, sx: e.clientX, sy: e.clientY, active: false, id: e.pointerId };
  }

  onPointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const dx = e.clientX - d.sx, dy = e.clientY - d.sy;
    if (!d.active) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      d.active = true;
      this.select(d.key);
      d.el.classList.add("dragging");
    }
    e.preventDefault();
    d.el.style.transform = `translate(${d.el._px.x + dx}px, ${d.el._px.y + dy}px)`;
    for (const o of this.root.querySelectorAll(".drop-over")) o.classList.remove("drop-over");
    const over = this.dropTarget(e.clientX, e.clientY, d.el);
    if (over) over.classList.add("drop-over");
  }

  dropTarget(x, y, dragged) {
    for (const el of document.elementsFromPoint(x, y)) {
      if (el === dragged || dragged.contains(el)) continue;
      const card = el.closest(".card");
      if (card && this.root.contains(card)) return card;
      const slot = el.closest(".slot");
      if (slot && this.root.contains(slot)) return slot;
    }
    return null;
  }

  onPointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.endDrag(d.active ? this.dropTarget(e.clientX, e.clientY, d.el) : undefined);
  }

  endDrag(target) {
    const d = this.drag;
    this.drag = null;
    if (!d || !d.active) return;
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    d.el.classList.remove("dragging");
    d.el.style.transform = `translate(${d.el._px.x}px, ${d.el._px.y}px)`;
    for (const o of this.root.querySelectorAll(".drop-over")) o.classList.remove("drop-over");
    if (!target) {
      this.cancel();
      return;
    }
    if (target.classList.contains("card")) this.activate(target._item.key);
    else this.activateSlot(target.dataset.pile);
  }

  // ---- keyboard ----------------------------------------------------------------------------

  focusable() {
    return [...this.elements.values()].filter((e) => e._px);
  }

  updateFocus(move = false) {
    const list = this.focusable();
    if (!list.length) return;
    let current = this.focusKey && this.elements.get(this.focusKey);
    if (!current) {
      current = list.reduce((a, b) => (a._px.y < b._px.y || (a._px.y === b._px.y && a._px.x <= b._px.x) ? a : b));
      this.focusKey = current._item.key;
    }
    for (const e of list) e.tabIndex = e === current ? 0 : -1;
    if (move) current.focus();
  }

  onKey(e) {
    const el = e.target.closest && e.target.closest(".card");
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key in dirs && el) {
      e.preventDefault();
      const [dx, dy] = dirs[e.key];
      const next = this.nearest(el, dx, dy);
      if (next) {
        this.focusKey = next._item.key;
        this.updateFocus(true);
      }
    } else if ((e.key === "Enter" || e.key === " ") && el) {
      e.preventDefault();
      this.activate(el._item.key);
    } else if (e.key === "Escape") {
      this.cancel();
      this.handlers.message("");
    }
  }

  nearest(from, dx, dy) {
    const cx = from._px.x, cy = from._px.y;
    let best = null, bestScore = Infinity;
    for (const e of this.focusable()) {
      if (e === from) continue;
      const ex = e._px.x - cx, ey = e._px.y - cy;
      const along = ex * dx + ey * dy;
      if (along <= 2) continue;
      const across = Math.abs(dx ? ey : ex);
      const score = along + 3 * across;
      if (score < bestScore) {
        bestScore = score;
        best = e;
      }
    }
    return best;
  }
}

export { moveKey };
