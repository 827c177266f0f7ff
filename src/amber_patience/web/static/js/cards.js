// Cards: notation, full names (English and Russian, as amber_patience.cards.Card.name) and faces
// drawn as SVG in code. The front end knows no rules: this is only how cards look and are named.

export const TAROT = "tarot";
export const FRENCH = "french";

const SVG_NS = "http://www.w3.org/2000/svg";
const SUIT_ORDER = ["c", "h", "s", "d"];
const SUIT_COLOUR = { c: "#2d6a3e", h: "#b3261e", s: "#1d2330", d: "#1f5a9e" };
const SUIT_GLYPH = { c: "\u2663", h: "\u2665", s: "\u2660", d: "\u2666" };
const SUIT_EN = { c: "clubs", h: "hearts", s: "spades", d: "diamonds" };
const SUIT_RU = { c: "крестей", h: "червей", s: "пик", d: "бубен" };
const PIPS_EN = ["", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];
const PIPS_RU = ["", "Единица", "Двойка", "Тройка", "Четвёрка", "Пятёрка", "Шестёрка", "Семёрка", "Восьмёрка",
  "Девятка", "Десятка"];
const TAROT_COURTS = { V: 11, C: 12, D: 13, R: 14 };
const FRENCH_COURTS = { A: 1, J: 11, Q: 12, K: 13 };
const TAROT_COURTS_EN = { 11: "Valet (Jack)", 12: "Cavalier (Knight)", 13: "Dame (Queen)", 14: "Roi (King)" };
const TAROT_COURTS_RU = { 11: "Валет", 12: "Рыцарь", 13: "Дама", 14: "Король" };
const FRENCH_COURTS_EN = { 1: "Ace", 11: "Jack", 12: "Queen", 13: "King" };
const FRENCH_COURTS_RU = { 1: "Туз", 11: "Валет", 12: "Дама", 13: "Король" };
const ROMAN = ["0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
  "XVI", "XVII", "XVIII", "XIX", "XX", "XXI"];
// Short names of the trumps, after the major arcana (Marseille order), for the face only.
const TRUMP_NAMES_EN = ["The Fool", "Magician", "High Priestess", "Empress", "Emperor", "Hierophant", "Lovers",
  "Chariot", "Justice", "Hermit", "Wheel", "Strength", "Hanged Man", "Death", "Temperance", "Devil", "Tower",
  "Star", "Moon", "Sun", "Judgement", "World"];
const TRUMP_NAMES_RU = ["Шут", "Маг", "Жрица", "Императрица", "Император", "Иерофант", "Влюблённые", "Колесница",
  "Правосудие", "Отшельник", "Колесо", "Сила", "Повешенный", "Смерть", "Умеренность", "Дьявол", "Башня", "Звезда",
  "Луна", "Солнце", "Суд", "Мир"];

/** The pattern of the deck a game uses. */
export function patternOf(gameName) {
  return ["path", "arden", "kolvir", "pattern"].includes(gameName) ? TAROT : FRENCH;
}

/** Parse a card notation ("Qh", "10s", "Vc", "T0") into {trump, suit, rank, rankText} or null. */
export function parseCard(text, pattern = TAROT) {
  if (typeof text !== "string" || text.length < 2) return null;
  const t = text.trim();
  const m = /^[Tt](\d{1,2})$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    return n <= 21 && String(n) === m[1] ? { trump: true, suit: null, rank: n, rankText: String(n), text: t } : null;
  }
  const suit = t.slice(-1).toLowerCase();
  if (!SUIT_ORDER.includes(suit)) return null;
  const r = t.slice(0, -1).toUpperCase();
  let rank = null;
  if (/^\d+$/.test(r)) {
    const n = Number(r);
    if (String(n) === r && n >= (pattern === TAROT ? 1 : 2) && n <= 10) rank = n;
  } else if (pattern === TAROT && r in TAROT_COURTS) {
    rank = TAROT_COURTS[r];
  } else if (pattern === FRENCH && r in FRENCH_COURTS) {
    rank = FRENCH_COURTS[r];
  }
  if (rank === null) return null;
  return { trump: false, suit, rank, rankText: r, text: t, pattern };
}

/** The card's full name, as amber_patience.cards.Card.name(lang). */
export function cardName(text, pattern = TAROT, lang = "en") {
  const c = parseCard(text, pattern);
  if (!c) return text;
  if (c.trump) {
    if (c.rank === 0) return lang === "ru" ? "Шут" : "The Fool";
    return lang === "ru" ? `Старший козырь ${c.rank}` : `Trump ${c.rank}`;
  }
  let courts;
  if (pattern === TAROT) courts = lang === "ru" ? TAROT_COURTS_RU : TAROT_COURTS_EN;
  else courts = lang === "ru" ? FRENCH_COURTS_RU : FRENCH_COURTS_EN;
  const pips = lang === "ru" ? PIPS_RU : PIPS_EN;
  const rank = courts[c.rank] || pips[c.rank];
  return lang === "ru" ? `${rank} ${SUIT_RU[c.suit]}` : `${rank} of ${SUIT_EN[c.suit]}`;
}

/** A short label for people: "5♠", "T11", "Fool". */
export function shortLabel(text, pattern = TAROT) {
  const c = parseCard(text, pattern);
  if (!c) return text;
  if (c.trump) return c.rank === 0 ? "T0" : `T${c.rank}`;
  return c.rankText + SUIT_GLYPH[c.suit];
}

export function suitColour(suit) {
  return SUIT_COLOUR[suit];
}

/** Canonical order of a deck's cards (clubs, hearts, spades, diamonds, then trumps 1..21, Fool). */
export function cardOrder(text, pattern = TAROT) {
  const c = parseCard(text, pattern);
  if (!c) return 9999;
  if (c.trump) return 1000 + (c.rank === 0 ? 22 : c.rank);
  let rank = c.rank;
  if (pattern === FRENCH && rank === 1) rank = 14; // aces after kings reads naturally in a list
  return SUIT_ORDER.indexOf(c.suit) * 20 + rank;
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Add the shared SVG definitions (suit symbols, card back) to the document once. */
export function installDefs() {
  if (document.getElementById("card-defs")) return;
  const svg = el("svg", { id: "card-defs", width: "0", height: "0", "aria-hidden": "true" });
  svg.style.position = "absolute";
  const defs = el("defs", {}, svg);
  const heart = el("symbol", { id: "suit-h", viewBox: "0 0 100 100" }, defs);
  el("path", { d: "M50 90 C22 68 6 50 10 30 C14 10 40 6 50 28 C60 6 86 10 90 30 C94 50 78 68 50 90 Z" }, heart);
  const diamond = el("symbol", { id: "suit-d", viewBox: "0 0 100 100" }, defs);
  el("path", { d: "M50 5 C60 22 70 36 84 50 C70 64 60 78 50 95 C40 78 30 64 16 50 C30 36 40 22 50 5 Z" }, diamond);
  const spade = el("symbol", { id: "suit-s", viewBox: "0 0 100 100" }, defs);
  el("path", {
    d: "M50 6 C64 26 92 40 90 62 C88 80 66 82 55 70 C57 82 62 90 70 95 L30 95 C38 90 43 82 45 70 "
      + "C34 82 12 80 10 62 C8 40 36 26 50 6 Z",
  }, spade);
  const club = el("symbol", { id: "suit-c", viewBox: "0 0 100 100" }, defs);
  el("circle", { cx: "50", cy: "28", r: "19" }, club);
  el("circle", { cx: "28", cy: "58", r: "19" }, club);
  el("circle", { cx: "72", cy: "58", r: "19" }, club);
  el("path", { d: "M45 45 L55 45 C55 70 60 86 70 95 L30 95 C40 86 45 70 45 45 Z" }, club);
  const crown = el("symbol", { id: "crown", viewBox: "0 0 100 60" }, defs);
  el("path", { d: "M8 55 L4 14 L28 34 L50 4 L72 34 L96 14 L92 55 Z" }, crown);
  const star = el("symbol", { id: "star", viewBox: "0 0 100 100" }, defs);
  el("path", { d: "M50 4 L61 38 L97 38 L68 59 L79 94 L50 72 L21 94 L32 59 L3 38 L39 38 Z" }, star);
  const pat = el("pattern", { id: "back-pattern", width: "14", height: "14", patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" }, defs);
  el("rect", { width: "14", height: "14", fill: "#35606b" }, pat);
  el("path", { d: "M0 7 H14 M7 0 V14", stroke: "#4f8390", "stroke-width": "2" }, pat);
  document.body.prepend(svg);
}

function text(parent, x, y, content, attrs) {
  const t = el("text", { x, y, ...attrs }, parent);
  t.textContent = content;
  return t;
}

/** The SVG face of a card (viewBox 100 x 140); `lang` picks the language of a trump's name. */
export function cardFace(notation, pattern = TAROT, lang = "en") {
  const svg = el("svg", { viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false", class: "face" });
  const c = parseCard(notation, pattern);
  if (!c) {
    el("rect", { x: "1.5", y: "1.5", width: "97", height: "137", rx: "9", fill: "#fff", stroke: "#999" }, svg);
    text(svg, 50, 80, notation || "?", { "text-anchor": "middle", "font-size": "30" });
    return svg;
  }
  if (c.trump) return trumpFace(svg, c, lang);
  const colour = SUIT_COLOUR[c.suit];
  const court = pattern === TAROT ? c.rank >= 11 : c.rank >= 11 || c.rank === 1;
  el("rect", { x: "1.5", y: "1.5", width: "97", height: "137", rx: "9", fill: "#fffdf8", stroke: "#cbbfa4",
    "stroke-width": "2" }, svg);
  if (court) {
    el("rect", { x: "38", y: "52", width: "54", height: "78", rx: "6", fill: colour, "fill-opacity": "0.09",
      stroke: colour, "stroke-opacity": "0.35", "stroke-width": "1.5" }, svg);
    if (c.rank !== 1) el("use", { href: "#crown", x: "47", y: "58", width: "36", height: "22", fill: "#c49a2c" }, svg);
  }
  const rankText = c.rankText;
  text(svg, 7, 41, rankText, {
    "font-size": rankText.length > 1 ? "36" : "42", "font-weight": "700", fill: colour,
    "font-family": "'DejaVu Sans', 'Segoe UI', system-ui, sans-serif", "letter-spacing": rankText.length > 1 ? "-3" : "0",
  });
  el("use", { href: `#suit-${c.suit}`, x: "66", y: "9", width: "27", height: "27", fill: colour }, svg);
  const big = court ? { x: "46", y: "82", s: "38" } : { x: "26", y: "58", s: "60" };
  el("use", { href: `#suit-${c.suit}`, x: big.x, y: big.y, width: big.s, height: big.s, fill: colour,
    "fill-opacity": court ? "0.95" : "0.9" }, svg);
  return svg;
}

function trumpFace(svg, c, lang) {
  const fool = c.rank === 0;
  const band = fool ? "#8a4b22" : "#4a3566";
  el("rect", { x: "1.5", y: "1.5", width: "97", height: "137", rx: "9", fill: "#f4ecdb", stroke: "#a88d5c",
    "stroke-width": "2" }, svg);
  el("path", { d: "M1.5 50 V10.5 A9 9 0 0 1 10.5 1.5 H89.5 A9 9 0 0 1 98.5 10.5 V50 Z", fill: band }, svg);
  const num = fool ? "0" : String(c.rank);
  text(svg, 7, 41, num, {
    "font-size": num.length > 1 ? "36" : "42", "font-weight": "700", fill: "#f6d77e",
    "font-family": "'DejaVu Sans', 'Segoe UI', system-ui, sans-serif", "letter-spacing": num.length > 1 ? "-3" : "0",
  });
  el("path", { d: "M82 14 L88 25 L82 36 L76 25 Z", fill: "#f6d77e", "fill-opacity": "0.6" }, svg);
  el("rect", { x: "10", y: "58", width: "80", height: "50", rx: "4", fill: "none", stroke: band,
    "stroke-opacity": "0.35", "stroke-width": "1.5" }, svg);
  text(svg, 50, 95, fool ? "\u2736" : ROMAN[c.rank], {
    "text-anchor": "middle", "font-size": ROMAN[c.rank].length > 3 ? "24" : "30", fill: band,
    "font-family": "Georgia, 'DejaVu Serif', serif", "font-weight": "700",
  });
  const names = lang === "ru" ? TRUMP_NAMES_RU : TRUMP_NAMES_EN;
  const name = names[c.rank];
  text(svg, 50, 127, name, {
    "text-anchor": "middle", "font-size": name.length > 11 ? "10" : "12.5", fill: "#5d4a6e",
    "font-family": "Georgia, 'DejaVu Serif', serif",
  });
  return svg;
}

/** The back of a face-down card. */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false", class: "face" });
  el("rect", { x: "1.5", y: "1.5", width: "97", height: "137", rx: "9", fill: "#fbf6ea", stroke: "#8fa9ad",
    "stroke-width": "2" }, svg);
  el("rect", { x: "8", y: "8", width: "84", height: "124", rx: "6", fill: "url(#back-pattern)" }, svg);
  el("use", { href: "#star", x: "36", y: "56", width: "28", height: "28", fill: "#e8c873" }, svg);
  return svg;
}
