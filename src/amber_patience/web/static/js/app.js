// The application: controls, dialogs, the timer, "show solution", languages. Talks to the server through api.js.

import { api, ApiError } from "./api.js";
import { cardName, cardOrder, installDefs, parseCard, patternOf, shortLabel } from "./cards.js";
import { hasString, lang, setLang, t, translatePage } from "./i18n.js";
import { Table } from "./table.js";

const $ = (id) => document.getElementById(id);

const app = {
  state: null,
  games: [],
  showGoal: localStorage.getItem("amber-goal") === "1",
  fetchedAt: 0,
  solution: null, // { moves, i, playing, timer }
  bannerDismissed: null,
};
window.amberApp = app; // for the browser tests and the curious

let table;

let lastMessage = null; // { key, vars } of the last message given by key, to translate it again

function message(text) {
  lastMessage = null;
  $("status").textContent = text || "";
}

function say(key, vars = {}) {
  $("status").textContent = t(key, vars);
  lastMessage = { key, vars };
}

let toastTimer = null;
function toast(text, kind = "error") {
  const e = $("toast");
  e.textContent = text;
  e.className = kind;
  e.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { e.hidden = true; }, 6000);
}

function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}

function elapsed() {
  const s = app.state;
  if (!s) return 0;
  // The server's clock runs from the deal and stops counting a pause longer than ten minutes.
  const running = s.status === "playing";
  return s.elapsed_seconds + (running ? Math.min((performance.now() - app.fetchedAt) / 1000, 600) : 0);
}

function gameTitle(state) {
  return (state.title && (state.title[lang()] || state.title.en)) || state.game;
}

function gameInfo(name) {
  return app.games.find((g) => g.name === name);
}

// ---- showing a state ----------------------------------------------------------------------

function setState(state, { rebuild = false } = {}) {
  const previous = app.state;
  app.state = state;
  app.fetchedAt = performance.now();
  if (state && state.id) localStorage.setItem("amber-game", state.id);
  table.render(state, { showGoal: app.showGoal, rebuild });
  updateBar();
  if (state && state.status !== "playing" && !(previous && previous.id === state.id && previous.status === state.status)) {
    showBanner();
  } else if (state && state.status === "playing") {
    $("banner").hidden = true;
  }
}

function updateBar() {
  const s = app.state;
  const amber = s && s.family === "amber";
  $("game-title").textContent = s ? gameTitle(s) : t("newGame");
  document.title = s ? `${gameTitle(s)} — Amber Patience` : "Amber Patience";
  $("deal-label").textContent = s && s.deal !== null && s.deal !== undefined ? t("deal_n", { n: s.deal }) : "";
  const band = s && s.difficulty ? s.difficulty.level : null;
  $("level-label").hidden = !(band === "easy" || band === "hard");
  $("level-label").textContent = band === "easy" || band === "hard" ? t(`band_${band}`) : "";
  $("level-label").dataset.level = band || "";
  $("level-label").title = s && s.difficulty ? t("difficultyTitle", { figure: s.difficulty.figure }) : "";
  $("practice-label").hidden = !(s && s.practice);
  $("move-counter").textContent = s ? String(s.moves_played) : "0";
  $("timer").textContent = formatTime(elapsed());
  $("btn-undo").hidden = !(s && s.practice);
  $("btn-undo").disabled = !(s && s.can_undo);
  $("btn-goal").hidden = !amber;
  $("btn-goal").setAttribute("aria-pressed", String(app.showGoal));
  $("btn-setup").hidden = !(amber && !s.started && s.status === "playing");
  $("in-place-box").hidden = !amber;
  if (amber && s.result) $("in-place").textContent = `${s.result.cards_in_place}/${s.result.cards}`;
  for (const id of ["btn-restart", "btn-hint", "btn-solution", "btn-export"]) $(id).disabled = !s;
  $("btn-hint").disabled = !s || s.status !== "playing";
  $("btn-solution").disabled = !s || s.status !== "playing";
  $("btn-lang").textContent = lang() === "en" ? "RU" : "EN";
  $("btn-lang").setAttribute("aria-label", lang() === "en" ? "Русский язык" : "English language");
  $("table").setAttribute("aria-label", t("tableLabel"));
}

function resultText(result) {
  if (!result) return "";
  const parts = [];
  for (const [k, v] of Object.entries(result)) {
    if (k === "won" || k === "stranded") continue;
    const key = `result_${k}`;
    parts.push(`${hasString(key) ? t(key) : k.replace(/_/g, " ")}: ${v}`);
  }
  return parts.join(", ");
}

function showBanner() {
  const s = app.state;
  if (!s || s.status === "playing") return;
  const won = s.status === "won";
  $("banner").classList.toggle("won", won);
  $("banner-title").textContent = won ? t("won") : t("lost");
  const stranded = s.result && Array.isArray(s.result.stranded) ? s.result.stranded : [];
  $("banner-text").textContent = won
    ? t("wonText", { moves: s.moves_played, time: formatTime(s.elapsed_seconds) })
    : stranded.length
      ? t("lostStranded", { block: t(`block_${stranded[0].block}`), kind: t(`kind_${stranded[0].kind}`) })
      : t("lostText", { result: resultText(s.result) });
  $("banner").hidden = false;
}

// ---- talking to the server ----------------------------------------------------------------

async function guarded(fn) {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError) toast(err.status ? err.message : t("serverError", { msg: err.message }));
    else {
      console.error(err);
      toast(String(err));
    }
    return null;
  }
}

async function playMove(move) {
  if (!app.state) return false;
  try {
    const state = await api.move(app.state.id, move);
    table.clearMarks("hint");
    setState(state);
    message("");
    return true;
  } catch (err) {
    // Refused: the position is unchanged; the server says why.
    toast(err.message);
    message(err.message);
    table.render(app.state);
    return false;
  }
}

async function newGame(body) {
  const state = await api.newGame(body);
  stopSolution();
  setState(state, { rebuild: true });
  message("");
  return state;
}

async function loadGame(id) {
  const state = await api.game(id);
  stopSolution();
  setState(state, { rebuild: true });
  return state;
}

// ---- dialogs ------------------------------------------------------------------------------

function wireCancel(dialog) {
  for (const b of dialog.querySelectorAll(".cancel")) b.addEventListener("click", () => dialog.close());
}

function optionLabel(name) {
  const key = `option_${name}`;
  return hasString(key) ? t(key) : name;
}

function fillNewDialog(selected) {
  const sel = $("new-game");
  sel.innerHTML = "";
  for (const g of app.games) {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = (g.title && (g.title[lang()] || g.title.en)) || g.name;
    sel.appendChild(o);
  }
  if (selected && gameInfo(selected)) sel.value = selected;
  fillOptions();
}

// The deal levels the chosen game offers: easy and hard only for games with difficulty bands.
function fillLevels() {
  const g = gameInfo($("new-game").value);
  const offered = new Set(["any", "winnable", ...((g && g.levels) || [])]);
  const sel = $("new-level");
  for (const o of sel.options) o.hidden = o.disabled = !offered.has(o.value);
  if (!offered.has(sel.value)) sel.value = "winnable";
}

function fillOptions() {
  const box = $("new-options");
  box.innerHTML = "";
  const g = gameInfo($("new-game").value);
  for (const opt of (g && g.options) || []) {
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.textContent = optionLabel(opt.name);
    const s = document.createElement("select");
    s.dataset.option = opt.name;
    for (const choice of opt.choices) {
      const o = document.createElement("option");
      o.value = JSON.stringify(choice);
      const key = `choice_${choice}`;
      o.textContent = typeof choice === "boolean" ? (choice ? t("yes") : t("no")) : (hasString(key) ? t(key) : String(choice));
      s.appendChild(o);
    }
    const current = app.state && app.state.game === g.name && app.state.options ? app.state.options[opt.name] : opt.default;
    s.value = JSON.stringify(current === undefined ? opt.default : current);
    label.append(span, " ", s);
    box.appendChild(label);
  }
  fillLevels();
}

function openNewDialog() {
  fillNewDialog(app.state ? app.state.game : "path");
  $("new-error").textContent = "";
  $("new-number").placeholder = t("random");
  $("new-practice").checked = !!(app.state && app.state.practice);
  $("dlg-new").showModal();
}

async function submitNew(e) {
  e.preventDefault();
  const number = $("new-number").value.trim();
  const options = {};
  for (const s of $("new-options").querySelectorAll("select")) options[s.dataset.option] = JSON.parse(s.value);
  const body = {
    game: $("new-game").value, number: number === "" ? null : Number(number),
    level: $("new-level").value, options, practice: $("new-practice").checked,
  };
  $("new-error").textContent = body.level !== "any" ? t("searching") : "";
  $("new-ok").disabled = true;
  try {
    await newGame(body);
    $("dlg-new").close();
  } catch (err) {
    $("new-error").textContent = err.message;
  } finally {
    $("new-ok").disabled = false;
  }
}

function cardSelect(cards, pattern, value) {
  const s = document.createElement("select");
  for (const c of cards) {
    const o = document.createElement("option");
    o.value = c;
    o.textContent = `${shortLabel(c, pattern)} — ${cardName(c, pattern, lang())}`;
    s.appendChild(o);
  }
  s.value = value;
  return s;
}

function openSetupDialog() {
  const s = app.state;
  if (!s || s.family !== "amber") return;
  const pos = s.position;
  const pattern = patternOf(s.game);
  const all = pos.cells.map((c) => c.card).sort((a, b) => cardOrder(a, pattern) - cardOrder(b, pattern));
  const box = $("setup-fields");
  box.innerHTML = "";
  const starts = pos.start_cells.map((id) => pos.cells[id].card);
  const kinds = s.game === "kolvir" ? ["trump", "minor"] : s.game === "pattern" ? ["minor", "trump"] : null;
  const isTrump = (c) => !!parseCard(c, pattern)?.trump;
  starts.forEach((card, i) => {
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.textContent = t("startCard", { n: i + 1 });
    let choices = all;
    if (kinds) choices = all.filter((c) => isTrump(c) === (kinds[i] === "trump"));
    const sel = cardSelect(choices, pattern, card);
    sel.dataset.start = String(i);
    label.append(span, " ", sel);
    box.appendChild(label);
  });
  const typed = document.createElement("label");
  const typedSpan = document.createElement("span");
  typedSpan.textContent = t("typeStart");
  const typedInput = document.createElement("input");
  typedInput.id = "setup-text";
  typedInput.type = "text";
  typedInput.spellcheck = false;
  typedInput.autocomplete = "off";
  typed.append(typedSpan, " ", typedInput);
  const syncText = () => {
    typedInput.value = [...box.querySelectorAll("select[data-start]")].map((x) => x.value).join(" ");
  };
  if (s.game === "arden") {
    const first = box.querySelector('select[data-start="0"]');
    const second = box.querySelector('select[data-start="1"]');
    const refill = () => {
      const wantTrump = !isTrump(first.value);
      const keep = second.value;
      const choices = all.filter((c) => isTrump(c) === wantTrump);
      second.replaceChildren(...cardSelect(choices, pattern, keep).children);
      second.value = choices.includes(keep) ? keep : choices[0];
    };
    first.addEventListener("change", refill);
    refill();
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.textContent = t("secondStartCell", { max: pos.cells.length - 1 });
    const input = document.createElement("input");
    input.type = "number";
    input.min = "1";
    input.max = String(pos.cells.length - 1);
    input.id = "setup-second-cell";
    input.value = String(pos.start_cells[1]);
    label.append(span, " ", input);
    box.appendChild(label);
  }
  box.appendChild(typed);
  for (const sel of box.querySelectorAll("select[data-start]")) sel.addEventListener("change", syncText);
  syncText();
  $("setup-error").textContent = "";
  $("dlg-setup").showModal();
}

async function submitSetup(e) {
  e.preventDefault();
  const s = app.state;
  const setup = { Start: $("setup-text").value.trim() };
  const second = $("setup-second-cell");
  if (second && Number(second.value) !== s.position.start_cells[1]) setup.SecondStart = String(second.value);
  try {
    setState(await api.setup(s.id, setup));
    $("dlg-setup").close();
  } catch (err) {
    $("setup-error").textContent = err.message;
  }
}

function showInfo(title, node) {
  $("info-title").textContent = title;
  $("info-body").replaceChildren(node);
  if (!$("dlg-info").open) $("dlg-info").showModal();
}

async function openRules(game) {
  const name = game || (app.state && app.state.game) || "path";
  const r = await guarded(() => api.rules(name, lang()));
  if (!r) return;
  const div = document.createElement("div");
  div.className = "rules";
  div.innerHTML = r.html; // served by our own server from its own rules text
  showInfo(r.title || t("rules"), div);
}

function tableOf(headers, rows) {
  const tbl = document.createElement("table");
  const head = tbl.createTHead().insertRow();
  for (const h of headers) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  const body = tbl.createTBody();
  for (const r of rows) {
    const tr = body.insertRow();
    for (const v of r) {
      const td = tr.insertCell();
      if (v instanceof Node) td.appendChild(v);
      else td.textContent = v;
    }
  }
  return tbl;
}

function titleOf(name) {
  const g = gameInfo(name);
  return (g && g.title && (g.title[lang()] || g.title.en)) || name;
}

async function openStats() {
  const rows = await guarded(() => api.stats());
  if (!rows) return;
  if (!rows.length) {
    const p = document.createElement("p");
    p.textContent = t("noStats");
    showInfo(t("statistics"), p);
    return;
  }
  const opts = (o) => Object.entries(o || {}).map(([k, v]) => `${k}=${v}`).join(", ");
  const node = tableOf(
    [t("game"), t("options"), t("practice"), t("played"), t("wonCol"), t("streak"), t("bestStreak"), t("bestTime"), t("fewestMoves")],
    rows.map((r) => [titleOf(r.game), opts(r.options), r.practice ? t("yes") : t("no"), r.played, r.won, r.current_streak,
      r.best_streak, r.best_seconds === null || r.best_seconds === undefined ? "—" : formatTime(r.best_seconds),
      r.fewest_moves ?? "—"]),
  );
  node.id = "stats-table";
  showInfo(t("statistics"), node);
}

async function openSaved() {
  const rows = await guarded(() => api.saved());
  if (!rows) return;
  if (!rows.length) {
    const p = document.createElement("p");
    p.textContent = t("noSaved");
    showInfo(t("savedGames"), p);
    return;
  }
  const node = tableOf([t("game"), t("dealNumber"), t("moves"), t("updated"), ""], rows.map((r) => {
    const span = document.createElement("span");
    span.className = "row";
    const resume = document.createElement("button");
    resume.type = "button";
    resume.textContent = t("resume");
    resume.dataset.resume = r.id;
    resume.addEventListener("click", async () => {
      const st = await guarded(() => loadGame(r.id));
      if (st) $("dlg-info").close();
    });
    const drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = t("abandon");
    drop.dataset.abandon = r.id;
    drop.addEventListener("click", async () => {
      if ((await guarded(() => api.abandon(r.id))) === null) return;
      if (app.state && app.state.id === r.id) {
        localStorage.removeItem("amber-game");
        await guarded(() => newGame({ game: app.state.game, number: null, winnable: false,
          options: app.state.options || {}, practice: app.state.practice }));
      }
      openSaved();
    });
    span.append(resume, drop);
    return [titleOf(r.game), r.deal ?? "—", r.moves_played, String(r.updated || "").replace("T", " ").slice(0, 19), span];
  }));
  node.id = "saved-table";
  showInfo(t("savedGames"), node);
}

async function exportRecord() {
  const s = app.state;
  if (!s) return;
  const text = await guarded(() => api.record(s.id));
  if (text === null) return;
  const blob = new Blob([typeof text === "string" ? text : JSON.stringify(text)], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `${s.game}-${s.deal ?? "position"}.txt`;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

async function submitImport(e) {
  e.preventDefault();
  try {
    setState(await api.importRecord($("import-text").value), { rebuild: true });
    $("dlg-import").close();
  } catch (err) {
    $("import-error").textContent = err.message;
  }
}

// ---- hint and solution ---------------------------------------------------------------------

async function hint() {
  const s = app.state;
  if (!s) return;
  message(t("thinking"));
  try {
    const h = await api.hint(s.id);
    table.showHint(h);
    message(t("hintIs", { text: h.description || h.text }));
  } catch (err) {
    message(t("noHint", { reason: err.message }));
  }
}

function stopSolution() {
  const sol = app.solution;
  if (sol) clearTimeout(sol.timer);
  app.solution = null;
  $("solution-bar").hidden = true;
  requestAnimationFrame(() => table && table.layout());
}

function updateSolutionBar() {
  const sol = app.solution;
  if (!sol) return;
  $("solution-progress").textContent = t("stepOf", { i: sol.i, n: sol.moves.length });
  $("sol-play").textContent = sol.playing ? t("pause") : t("play");
  $("sol-play").dataset.i18n = sol.playing ? "pause" : "play";
}

async function solutionStep() {
  const sol = app.solution;
  if (!sol || sol.stepping) return;
  if (sol.i >= sol.moves.length) {
    stopSolution();
    say("solutionDone");
    return;
  }
  sol.stepping = true;
  const ok = await playMove(sol.moves[sol.i].move);
  sol.stepping = false;
  if (app.solution !== sol) return;
  if (!ok) {
    stopSolution();
    return;
  }
  sol.i += 1;
  updateSolutionBar();
  if (sol.i >= sol.moves.length || app.state.status !== "playing") {
    stopSolution();
    say("solutionDone");
    return;
  }
  if (sol.playing) sol.timer = setTimeout(solutionStep, Number($("sol-speed").value));
}

async function showSolution() {
  const s = app.state;
  if (!s) return;
  stopSolution();
  message(t("thinking"));
  $("btn-solution").disabled = true;
  let sol;
  try {
    sol = await api.solution(s.id);
  } catch (err) {
    message(err.message);
    toast(err.message);
    return;
  } finally {
    $("btn-solution").disabled = false;
  }
  if (!sol.moves || !sol.moves.length || sol.status !== "won") {
    say("solutionNone", { status: sol.status });
    return;
  }
  message("");
  app.solution = { moves: sol.moves, i: 0, playing: true, timer: null };
  $("solution-bar").hidden = false;
  table.layout();
  updateSolutionBar();
  app.solution.timer = setTimeout(solutionStep, 150);
}

// ---- start-up -----------------------------------------------------------------------------

function wire() {
  $("btn-new").addEventListener("click", openNewDialog);
  $("banner-new").addEventListener("click", () => { $("banner").hidden = true; openNewDialog(); });
  $("banner-close").addEventListener("click", () => { $("banner").hidden = true; });
  $("btn-restart").addEventListener("click", () => guarded(async () => {
    stopSolution();
    setState(await api.restart(app.state.id), { rebuild: true });
    say("restarted");
  }));
  $("btn-undo").addEventListener("click", () => guarded(async () => {
    stopSolution();
    setState(await api.undo(app.state.id));
    say("undone");
  }));
  $("btn-hint").addEventListener("click", hint);
  $("btn-solution").addEventListener("click", showSolution);
  $("btn-goal").addEventListener("click", () => {
    app.showGoal = !app.showGoal;
    localStorage.setItem("amber-goal", app.showGoal ? "1" : "0");
    table.render(app.state, { showGoal: app.showGoal });
    updateBar();
    if (app.showGoal) say("goalOn");
    else message("");
  });
  $("btn-setup").addEventListener("click", openSetupDialog);
  const closeMenu = () => { $("more-menu").open = false; };
  $("btn-rules").addEventListener("click", () => { closeMenu(); openRules(); });
  $("btn-stats").addEventListener("click", () => { closeMenu(); openStats(); });
  $("btn-saved").addEventListener("click", () => { closeMenu(); openSaved(); });
  $("btn-export").addEventListener("click", () => { closeMenu(); exportRecord(); });
  $("btn-import").addEventListener("click", () => {
    closeMenu();
    $("import-error").textContent = "";
    $("import-text").placeholder = t("importPaste");
    $("dlg-import").showModal();
  });
  $("btn-lang").addEventListener("click", () => {
    setLang(lang() === "en" ? "ru" : "en");
    translatePage();
    updateSolutionBar();
    if (app.state) table.render(app.state, { rebuild: true });
    updateBar();
    if (lastMessage) say(lastMessage.key, lastMessage.vars);
    else message("");
    if (!$("banner").hidden) showBanner();
  });
  $("new-game").addEventListener("change", fillOptions);
  $("form-new").addEventListener("submit", submitNew);
  $("new-rules").addEventListener("click", () => openRules($("new-game").value));
  $("form-setup").addEventListener("submit", submitSetup);
  $("form-import").addEventListener("submit", submitImport);
  for (const d of document.querySelectorAll("dialog")) wireCancel(d);
  $("sol-play").addEventListener("click", () => {
    const sol = app.solution;
    if (!sol) return;
    sol.playing = !sol.playing;
    clearTimeout(sol.timer);
    if (sol.playing) solutionStep();
    updateSolutionBar();
  });
  $("sol-step").addEventListener("click", () => {
    const sol = app.solution;
    if (!sol) return;
    sol.playing = false;
    clearTimeout(sol.timer);
    updateSolutionBar();
    solutionStep();
  });
  $("sol-stop").addEventListener("click", stopSolution);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !document.querySelector("dialog[open]")) table.cancel();
  });
  setInterval(() => { if (app.state) $("timer").textContent = formatTime(elapsed()); }, 500);
}

async function start() {
  installDefs();
  setLang(lang());
  translatePage();
  table = new Table($("table"), {
    play: playMove,
    message,
  });
  wire();
  updateBar();
  app.games = (await guarded(() => api.games())) || [];
  const params = new URLSearchParams(location.search);
  const wanted = params.get("game");
  const last = localStorage.getItem("amber-game");
  let loaded = null;
  if (wanted && gameInfo(wanted)) {
    const n = params.get("deal");
    loaded = await guarded(() => newGame({ game: wanted, number: n === null ? null : Number(n), winnable: false,
      options: {}, practice: params.get("practice") === "1" }));
  } else if (params.get("id")) {
    loaded = await guarded(() => loadGame(params.get("id")));
  } else if (last) {
    try {
      loaded = await loadGame(last);
    } catch {
      localStorage.removeItem("amber-game");
    }
  }
  if (!loaded && app.games.length) {
    loaded = await guarded(() => newGame({ game: gameInfo("path") ? "path" : app.games[0].name, number: null,
      winnable: false, options: {}, practice: false }));
  }
  if (params.has("game") || params.has("id")) history.replaceState(null, "", "/");
  if (loaded) say(loaded.family === "amber" ? "welcomeAmber" : "welcome");
  document.body.dataset.ready = "1";
}

start();
