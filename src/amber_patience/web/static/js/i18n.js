// Every string of the interface, in English and Russian.

const STRINGS = {
  en: {
    practice: "Practice", moves: "Moves", time: "Time", inPlace: "In place", newDeal: "New deal",
    restart: "Restart", undo: "Undo", hint: "Hint", showSolution: "Show solution", showGoal: "Goal",
    startCards: "Start cards", more: "More", rules: "Rules", statistics: "Statistics", savedGames: "Saved games",
    exportRecord: "Export record", importRecord: "Import record", solution: "Solution", pause: "Pause",
    play: "Play", step: "Step", speed: "Speed", slow: "slow", normal: "normal", fast: "fast", stop: "Stop",
    close: "Close", newGame: "New game", game: "Game", dealNumber: "Deal number", random: "random",
    levelLabel: "Deals", level_any: "any deal", level_winnable: "winnable only", level_easy: "easy (winnable)",
    level_hard: "hard (winnable)", band_easy: "easy", band_hard: "hard",
    difficultyTitle: "The solver's difficulty figure: {figure} states searched", practiceMode: "Practice (undo allowed, not counted)", deal: "Deal",
    cancel: "Cancel", setupHelp: "Before the first move you may choose the start cards.", apply: "Apply",
    import: "Import", deal_n: "Deal #{n}", won: "Well played!", wonText: "Won in {moves} moves, {time}.",
    lost: "No way on", lostText: "No move is left. {result}", startCard: "Start card {n}",
    lostStranded: "The {block} block holds no {kind} any more, and a card enters a block only beside a neighbour of it there: this game can no longer be won.",
    block_top: "top", block_bottom: "bottom", "block_top-left": "top-left", "block_top-right": "top-right",
    block_centre: "centre", "block_bottom-left": "bottom-left", "block_bottom-right": "bottom-right",
    kind_clubs: "clubs", kind_hearts: "hearts", kind_spades: "spades", kind_diamonds: "diamonds", kind_trumps: "trumps",
    secondStartCell: "Second start cell (0–{max})", selectHelp: "Click a highlighted card to swap, or Escape.",
    noSwaps: "{card} has no legal swap now.", startNever: "{card} is a start card: it never moves.",
    selected: "Selected: {card}.", cantMove: "{card} cannot move now.", hintIs: "Hint: {text}",
    noHint: "No hint: {reason}", thinking: "Thinking…", searching: "Looking for a deal…",
    solutionNone: "The solver found no solution from here ({status}).", solutionDone: "Solution played.",
    stepOf: "{i} of {n}", noSaved: "No games in progress.", resume: "Resume", abandon: "Abandon",
    noStats: "No games played yet.", played: "Played", wonCol: "Won", streak: "Streak", bestStreak: "Best streak",
    bestTime: "Best time", fewestMoves: "Fewest moves", options: "Options", updated: "Updated",
    welcome: "Click a card: where it may go lights up. Double-click sends a card to its foundation.",
    welcomeAmber: "Click a card: the cards it may swap with light up. Drag, or use the arrow keys and Enter.", goalOn: "Goal shown: the small label is the card each cell wants.",
    serverError: "The server did not answer: {msg}", undone: "Move taken back.", restarted: "Deal restarted.",
    importPaste: "Paste a game record here.", yes: "yes", no: "no", language: "Language", cell: "cell",
    option_passes: "Passes through the stock", option_relaxed: "Relaxed (won when the pyramid is cleared)",
    option_empty: "An empty column takes", choice_king: "a king", choice_any: "any card", choice_unlimited: "unlimited",
    tableLabel: "Card table", noMoves: "No legal moves.",
    result_cards_in_place: "cards in place", result_cards: "cards", result_cards_left: "cards left",
    result_points_left: "points left", result_pyramid_left: "left in the pyramid", result_foundation_cards: "on the foundations",
    result_cards_on_foundations: "on the foundations", result_phase: "phase",
    legal: "{n} legal moves", dblToRemove: "{card}: double-click to remove it.", typeStart: "Start cards as text (e.g. Rs T11)",
  },
  ru: {
    practice: "Тренировка", moves: "Ходы", time: "Время", inPlace: "На месте", newDeal: "Новая раздача",
    restart: "Заново", undo: "Отменить", hint: "Подсказка", showSolution: "Показать решение", showGoal: "Цель",
    startCards: "Стартовые карты", more: "Ещё", rules: "Правила", statistics: "Статистика",
    savedGames: "Сохранённые игры", exportRecord: "Сохранить запись", importRecord: "Загрузить запись",
    solution: "Решение", pause: "Пауза", play: "Играть", step: "Шаг", speed: "Скорость", slow: "медленно",
    normal: "обычно", fast: "быстро", stop: "Стоп", close: "Закрыть", newGame: "Новая игра", game: "Игра",
    dealNumber: "Номер раздачи", random: "случайная", levelLabel: "Раздачи", level_any: "любая раздача",
    level_winnable: "только решаемые", level_easy: "лёгкая (решаемая)", level_hard: "трудная (решаемая)",
    band_easy: "лёгкая", band_hard: "трудная",
    difficultyTitle: "Оценка трудности от решателя: просмотрено состояний: {figure}",
    practiceMode: "Тренировка (можно отменять ходы, не в статистике)", deal: "Раздать", cancel: "Отмена",
    setupHelp: "До первого хода можно выбрать стартовые карты.", apply: "Применить", import: "Загрузить",
    deal_n: "Раздача №{n}", won: "Пасьянс сошёлся!", wonText: "Победа за {moves} ходов, {time}.",
    lost: "Ходов больше нет", lostText: "Не осталось ни одного хода. {result}", startCard: "Стартовая карта {n}",
    lostStranded: "В блоке «{block}» не осталось {kind}, а карта входит в блок только рядом со своей соседкой: этот расклад уже не сложить.",
    block_top: "верхний", block_bottom: "нижний", "block_top-left": "верхний левый", "block_top-right": "верхний правый",
    block_centre: "центральный", "block_bottom-left": "нижний левый", "block_bottom-right": "нижний правый",
    kind_clubs: "крестей", kind_hearts: "червей", kind_spades: "пик", kind_diamonds: "бубен", kind_trumps: "козырей",
    secondStartCell: "Ячейка второй стартовой карты (0–{max})",
    selectHelp: "Щёлкните подсвеченную карту, чтобы поменять местами, или Escape.",
    noSwaps: "Для карты «{card}» сейчас нет разрешённого обмена.",
    startNever: "«{card}» — стартовая карта: она не двигается.", selected: "Выбрана: {card}.",
    cantMove: "Карту «{card}» сейчас нельзя сдвинуть.", hintIs: "Подсказка: {text}", noHint: "Подсказки нет: {reason}",
    thinking: "Думаю…", searching: "Ищу раздачу…", solutionNone: "Решатель не нашёл решения отсюда ({status}).",
    solutionDone: "Решение показано.", stepOf: "{i} из {n}", noSaved: "Нет начатых игр.", resume: "Продолжить",
    abandon: "Бросить", noStats: "Ещё не сыграно ни одной игры.", played: "Сыграно", wonCol: "Выиграно",
    streak: "Серия", bestStreak: "Лучшая серия", bestTime: "Лучшее время", fewestMoves: "Меньше всего ходов",
    options: "Настройки", updated: "Изменена",
    welcome: "Щёлкните карту — подсветится, куда её можно положить. Двойной щелчок отправляет карту в дом.",
    welcomeAmber: "Щёлкните карту — подсветятся карты, с которыми её можно поменять. Можно перетаскивать или играть стрелками и Enter.",
    goalOn: "Цель показана: маленькая подпись — карта, которая должна лежать в ячейке.",
    serverError: "Сервер не ответил: {msg}", undone: "Ход отменён.", restarted: "Раздача начата заново.",
    importPaste: "Вставьте сюда запись партии.", yes: "да", no: "нет", language: "Язык", cell: "ячейка",
    option_passes: "Проходов по колоде", option_relaxed: "Облегчённо (победа, когда пирамида разобрана)",
    option_empty: "Пустой столбец принимает", choice_king: "короля", choice_any: "любую карту",
    choice_unlimited: "без ограничений", tableLabel: "Игровой стол", noMoves: "Ходов нет.",
    result_cards_in_place: "карт на месте", result_cards: "карт", result_cards_left: "карт осталось",
    result_points_left: "очков осталось", result_pyramid_left: "осталось в пирамиде", result_foundation_cards: "в домах",
    result_cards_on_foundations: "в домах", result_phase: "фаза",
    legal: "разрешённых ходов: {n}", dblToRemove: "{card}: двойной щелчок убирает карту.", typeStart: "Стартовые карты текстом (например, Rs T11)",
  },
};

let current = localStorage.getItem("amber-lang") === "ru" ? "ru" : "en";

export function lang() {
  return current;
}

export function setLang(code) {
  current = code === "ru" ? "ru" : "en";
  localStorage.setItem("amber-lang", current);
  document.documentElement.lang = current;
}

/** The string `key` in the current language, with {name} placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const s = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in vars ? String(vars[k]) : `{${k}}`));
}

export function hasString(key) {
  return key in STRINGS.en;
}

/** Fill every element marked data-i18n (text) in `root`. */
export function translatePage(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  document.documentElement.lang = current;
}

export const ALL_STRINGS = STRINGS;
