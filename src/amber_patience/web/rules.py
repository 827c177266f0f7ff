"""Each game's rules as HTML, in English and Russian, written from the project's rules
(``/work/shared/spec/rules.md`` at the time of writing; ``docs/rules.md`` for the details).

:func:`rules_html` returns an HTML fragment (headings, paragraphs, lists; no scripts, no styles)
that the front end shows as it is. The texts are short: what a player needs to play.
"""

from __future__ import annotations

from ..games import GAME_NAMES, GameError

_EN: dict[str, str] = {}
_RU: dict[str, str] = {}

# -- the Amber layouts ---------------------------------------------------------------------------------

_EN["amber"] = """
<h3>How to play</h3>
<ul>
<li>All cards lie face up, one in each cell. The <b>start cards</b> (marked) never move.</li>
<li>A move <b>swaps two cards</b>: each goes to the other's cell. The two cells need not touch.</li>
<li>A swap is allowed only if, after it, <b>each of the two cards</b> has a <b>neighbour</b> in a cell
that touches it (up, down, left or right, in the same block). The other swapped card counts, so two
touching neighbours may always trade places.</li>
<li><b>Neighbours</b> are cards of the same suit (or two trumps) next to each other in rank, round the
corner: after the highest rank comes the lowest again.</li>
<li>A move cannot be taken back. Only a <b>practice</b> game allows undo, and its wins are counted
apart.</li>
<li><b>The goal</b>: starting from the start card, all cards in rising order along the <b>snake</b>:
the first row of a block left to right, the next row right to left, and so on.</li>
<li>Before the first move you may <b>choose the start card(s)</b>: each chosen card trades places with
the dealt start card; the start cells stay where they are.</li>
</ul>
<h3>Cards</h3>
<p>Tarot minor cards run 1, 2 … 10, V (valet), C (cavalier), D (dame), R (roi); there is no ace. Suits
follow each other in the order clubs, hearts, spades, diamonds, then clubs again. Trumps run 1 … 21;
where the Fool is in the game it stands between 21 and 1.</p>
"""
_RU["amber"] = """
<h3>Как играть</h3>
<ul>
<li>Все карты лежат открыто, по одной в каждой ячейке. <b>Стартовые карты</b> (они отмечены) никогда не
двигаются.</li>
<li>Ход — <b>обмен двух карт</b> местами. Ячейки не обязаны соприкасаться.</li>
<li>Обмен разрешён, только если после него <b>у каждой из двух карт</b> в соседней ячейке (сверху, снизу,
слева или справа, в том же блоке) лежит её <b>соседка</b>. Вторая карта обмена тоже считается: две
соседки, лежащие рядом, всегда могут поменяться местами.</li>
<li><b>Соседки</b> — карты одной масти (или два козыря), идущие подряд по старшинству, по кругу: за
старшей картой снова идёт младшая.</li>
<li>Ход нельзя взять назад. Отмена хода есть только в <b>тренировочной</b> игре, и её победы считаются
отдельно.</li>
<li><b>Цель</b>: от стартовой карты все карты по возрастанию вдоль <b>змейки</b>: первый ряд блока слева
направо, следующий справа налево и так далее.</li>
<li>До первого хода можно <b>выбрать стартовые карты</b>: выбранная карта меняется местами с выпавшей
стартовой; стартовые ячейки остаются на месте.</li>
</ul>
<h3>Карты</h3>
<p>Младшие карты таро: 1, 2 … 10, V (валет), C (рыцарь), D (дама), R (король); туза нет. Масти идут
по кругу: трефы, червы, пики, бубны и снова трефы. Козыри — от 1 до 21; где в игре есть Шут, он стоит
между 21 и 1.</p>
"""

_EN["path"] = """
<p>56 tarot minor cards in 4 rows of 14. The start card is the top-left one.</p>
<h3>Goal</h3>
<p>Each row holds one suit, the rows in suit order from the start card's suit. Along the snake each row
runs from the start card's rank round to the rank before it. Example: start card R of spades: row 1
spades R, 1 … D left to right; row 2 diamonds R, 1 … D right to left; row 3 clubs left to right;
row 4 hearts right to left.</p>
"""
_RU["path"] = """
<p>56 младших карт таро в 4 ряда по 14. Стартовая карта — левая верхняя.</p>
<h3>Цель</h3>
<p>В каждом ряду одна масть, ряды по порядку мастей начиная с масти стартовой карты. Вдоль змейки
каждый ряд идёт от старшинства стартовой карты по кругу до предыдущего. Пример: стартовая карта —
король пик: ряд 1 — пики R, 1 … D слева направо; ряд 2 — бубны R, 1 … D справа налево; ряд 3 — трефы
слева направо; ряд 4 — червы справа налево.</p>
"""
_EN["path-52"] = """
<p>The Path in Shadow with an ordinary 52-card deck: 4 rows of 13. Ranks A, 2 … 10, J, Q, K, and after
K comes A again. The start card is the top-left one; each row holds one suit, the rows in suit order
(clubs, hearts, spades, diamonds) from the start card's suit, each from the start card's rank round to
the rank before it, along the snake.</p>
"""
_RU["path-52"] = """
<p>Путь в Отражении обычной колодой в 52 карты: 4 ряда по 13. Старшинство: A (туз), 2 … 10, J (валет), Q (дама),
K (король), а за королём снова туз. Стартовая карта — левая верхняя; в каждом ряду одна масть, ряды по порядку мастей
(трефы, червы, пики, бубны) от масти стартовой карты, каждый — от старшинства стартовой карты по кругу
до предыдущего, вдоль змейки.</p>
"""
_EN["path-36"] = """
<p>The Path in Shadow with a 36-card deck: 4 rows of 9. Ranks 6, 7 … 10, J, Q, K, A, and after A comes
6 again. The start card is the top-left one; each row holds one suit, the rows in suit order (clubs,
hearts, spades, diamonds) from the start card's suit, each from the start card's rank round to the rank
before it, along the snake.</p>
"""
_RU["path-36"] = """
<p>Путь в Отражении колодой в 36 карт: 4 ряда по 9. Старшинство: 6, 7 … 10, J, Q, K, A, а за тузом
снова шестёрка. Стартовая карта — левая верхняя; в каждом ряду одна масть, ряды по порядку мастей
(трефы, червы, пики, бубны) от масти стартовой карты, каждый — от старшинства стартовой карты по кругу
до предыдущего, вдоль змейки.</p>
"""
_EN["arden"] = """
<p>All 78 tarot cards in 6 rows of 13. Two start cards: the top-left card, and the first card dealt of
the other kind (minor card or trump), wherever it falls.</p>
<h3>Goal</h3>
<p>Along the snake of the whole grid: the cards of the first start card's kind run from it up to the
cell before the second start card; from the second start card run all the cards of its kind; then the
first kind goes on where it stopped, to the end.</p>
<p>Example: start cards 6 of spades (top-left) and trump 9 (7th cell of the snake): 6 … C of spades,
then trumps 9 … 21, the Fool, 1 … 8, then D of spades and on to the 5 of hearts.</p>
<p>Choosing the start cards, you may also choose where the second one stands, as long as all cards of
its kind still fit after it along the snake.</p>
"""
_RU["arden"] = """
<p>Все 78 карт таро в 6 рядов по 13. Две стартовые карты: левая верхняя и первая сданная карта другого
рода (младшая карта или козырь), где бы она ни легла.</p>
<h3>Цель</h3>
<p>Вдоль змейки всей раскладки: карты рода первой стартовой карты идут от неё до ячейки перед второй
стартовой картой; от второй стартовой карты идут все карты её рода; затем первый род продолжается с
того места, где прервался, до конца.</p>
<p>Пример: стартовые карты — шестёрка пик (левая верхняя) и козырь 9 (седьмая ячейка змейки): 6 … C
пик, затем козыри 9 … 21, Шут, 1 … 8, затем D пик и дальше до пятёрки червей.</p>
<p>Выбирая стартовые карты, можно выбрать и место второй, если после неё вдоль змейки помещаются все
карты её рода.</p>
"""
_EN["kolvir"] = """
<p>All 78 tarot cards in two blocks with a lone cell between them: the top block 3 rows of 7, the lone
cell, the bottom block 4 rows of 14. The first trump dealt goes to the top-left cell of the top block,
the first minor card dealt to the top-left cell of the bottom block: these are the start cards.</p>
<ul>
<li>Within a block, cards swap by the common rules.</li>
<li>No card moves directly between the two blocks: only by a swap with the <b>lone cell</b>.</li>
<li>Any card may go into the lone cell (it touches nothing, so it needs no neighbour there); the card
leaving it for a block needs a neighbour there as usual.</li>
</ul>
<h3>Goal</h3>
<p>The top block holds the trumps along its snake from its start card, and the lone cell the last trump
(22 trumps with the Fool: 21 in the block, one in the cell). The bottom block holds the minor cards as
in the Path in Shadow, from its start card.</p>
"""
_RU["kolvir"] = """
<p>Все 78 карт таро в двух блоках и одиночной ячейке между ними: верхний блок 3 ряда по 7, одиночная
ячейка, нижний блок 4 ряда по 14. Первый сданный козырь ложится в левую верхнюю ячейку верхнего блока,
первая сданная младшая карта — в левую верхнюю ячейку нижнего: это стартовые карты.</p>
<ul>
<li>Внутри блока карты меняются по общим правилам.</li>
<li>Напрямую между блоками карты не переходят: только обменом с <b>одиночной ячейкой</b>.</li>
<li>В одиночную ячейку может пойти любая карта (у неё нет соседних ячеек, соседка не нужна); карта,
уходящая из неё в блок, как обычно, должна оказаться рядом со своей соседкой.</li>
</ul>
<h3>Цель</h3>
<p>В верхнем блоке козыри вдоль змейки от стартовой карты, в одиночной ячейке — последний козырь
(22 козыря с Шутом: 21 в блоке и один в ячейке). В нижнем блоке младшие карты, как в Пути в Отражении,
от своей стартовой карты.</p>
"""
_EN["pattern"] = """
<p>77 tarot cards (no Fool) in five blocks: top-left 2×7, top-right 2×7, centre 3×7, bottom-left 2×7,
bottom-right 2×7. The first minor card dealt goes to the top-left cell of the top-left block, the first
trump dealt to the top-left cell of the centre block: these are the start cards.</p>
<p>Cards may be swapped between any two blocks; a neighbour counts only in the same block as the cell it
touches.</p>
<h3>Goal</h3>
<p>The centre holds trumps 1 … 21 along its snake from its start card. Each side block holds one whole
suit along its own snake, starting in its top-left cell with the start card's rank. The suits go
clockwise from the start card's suit: top-left, top-right, bottom-right, bottom-left.</p>
"""
_RU["pattern"] = """
<p>77 карт таро (без Шута) в пяти блоках: левый верхний 2×7, правый верхний 2×7, центр 3×7, левый нижний
2×7, правый нижний 2×7. Первая сданная младшая карта ложится в левую верхнюю ячейку левого верхнего
блока, первый сданный козырь — в левую верхнюю ячейку центра: это стартовые карты.</p>
<p>Карты можно менять между любыми блоками; соседка засчитывается, только если лежит в том же блоке, что
и ячейка рядом с ней.</p>
<h3>Цель</h3>
<p>В центре козыри 1 … 21 вдоль змейки от стартовой карты. В каждом боковом блоке одна масть целиком
вдоль своей змейки, от левой верхней ячейки, начиная со старшинства стартовой карты. Масти идут по
часовой стрелке от масти стартовой карты: левый верхний, правый верхний, правый нижний, левый нижний.</p>
"""

# -- Pyramid ----------------------------------------------------------------------------------------------

_EN["pyramid"] = """
<h3>How to play</h3>
<ul>
<li>Remove cards in <b>pairs</b> whose values add up to the target; a card worth the target alone is
removed by itself.</li>
<li>Available cards: pyramid cards covered by no other card, the top card of the stock (always face
up) and the top card of the waste.</li>
<li>A stock card you do not use may be moved to the waste.</li>
<li>You win when every card is removed. Otherwise the result is the number of cards left.</li>
</ul>
<h3>Options</h3>
<ul>
<li><b>Passes</b>: one pass through the stock (as in the old texts), three, or unlimited (the waste is
turned over as the new stock).</li>
<li><b>Relaxed</b>: the game is won as soon as the pyramid is cleared.</li>
</ul>
"""
_RU["pyramid"] = """
<h3>Как играть</h3>
<ul>
<li>Карты снимаются <b>парами</b>, сумма которых равна заданному числу; карта, которая одна стоит
столько же, снимается одна.</li>
<li>Доступны: карты пирамиды, не прикрытые другими картами, верхняя карта колоды (она всегда открыта)
и верхняя карта отбоя.</li>
<li>Неиспользованную карту колоды можно переложить в отбой.</li>
<li>Победа — когда сняты все карты. Иначе итог — сколько карт осталось.</li>
</ul>
<h3>Варианты</h3>
<ul>
<li><b>Проходы</b>: один проход через колоду (как в старых текстах), три или без ограничения (отбой
переворачивается и становится колодой).</li>
<li><b>Облегчённый</b>: победа, как только разобрана пирамида.</li>
</ul>
"""
_EN["pyramid-52"] = """
<p>52 cards: a pyramid of 7 rows (28 cards) and a stock of 24. Target 13: A = 1, 2–10 face value,
J = 11, Q = 12, K = 13 (a king goes alone). Deal number N is the same deal as PySolFC's Pyramid game
N.</p>
"""
_RU["pyramid-52"] = """
<p>52 карты: пирамида из 7 рядов (28 карт) и колода из 24. Сумма 13: A = 1, 2–10 по номиналу,
J = 11, Q = 12, K = 13 (король снимается один). Расклад номер N тот же, что игра Pyramid номер N в
PySolFC.</p>
"""
_EN["pyramid-36"] = """
<p>36 cards: a pyramid of 6 rows (21 cards) and a stock of 15. Target 19: 6–10 face value, A = 11,
J = 12, Q = 13, K = 19. Pairs: 6 + Q, 7 + J, 8 + A, 9 + 10; kings go alone.</p>
"""
_RU["pyramid-36"] = """
<p>36 карт: пирамида из 6 рядов (21 карта) и колода из 15. Сумма 19: 6–10 по номиналу, A = 11,
J = 12, Q = 13, K = 19. Пары: 6 + Q, 7 + J, 8 + A, 9 + 10; короли снимаются по одному.</p>
"""

# -- Zodiac -----------------------------------------------------------------------------------------------

_EN["zodiac"] = """
<p>Two 52-card decks. 8 cards in a row (the <b>Equator</b>, one card a cell) and 24 cards round it (the
<b>Zodiac</b>, 24 piles); the rest is the stock. Eight foundations: for each suit one built up from ace
to king and one built down from king to ace.</p>
<h3>Phase 1 (while the stock or waste holds cards)</h3>
<ul>
<li>Turn the stock one card at a time onto the waste, through as many passes as needed.</li>
<li>The turned card or the waste top may go onto a Zodiac pile, in suit, one rank up or down (a pile may
change direction; no ace–king wrap), or into an empty Equator cell.</li>
<li>An Equator card may go onto a Zodiac pile the same way.</li>
<li>Zodiac cards never move in phase 1. If a whole pass through the stock places no card, the game is
lost.</li>
</ul>
<h3>Phase 2</h3>
<p>The top cards of the Zodiac piles and the Equator cards go to the foundations. No card moves between
foundations or from one Zodiac pile to another. You win when all 104 cards are on the foundations.</p>
"""
_RU["zodiac"] = """
<p>Две колоды по 52 карты. 8 карт в ряд (<b>Экватор</b>, по одной в ячейке) и 24 карты вокруг
(<b>Зодиак</b>, 24 стопки); остальное — колода. Восемь базовых стопок: для каждой масти одна от туза до
короля вверх и одна от короля до туза вниз.</p>
<h3>Первый этап (пока в колоде или отбое есть карты)</h3>
<ul>
<li>Колода открывается по одной карте в отбой, столько раз подряд, сколько нужно.</li>
<li>Открытая карта или верхняя карта отбоя может лечь на стопку Зодиака в масть, на одну ступень выше
или ниже (стопка может менять направление; туз и король не смыкаются), или в пустую ячейку Экватора.</li>
<li>Карта Экватора может лечь на стопку Зодиака так же.</li>
<li>Карты Зодиака на первом этапе не двигаются. Если за целый проход колоды не пристроено ни одной
карты, пасьянс проигран.</li>
</ul>
<h3>Второй этап</h3>
<p>Верхние карты стопок Зодиака и карты Экватора идут на базовые стопки. Между базовыми стопками и между
стопками Зодиака карты не перекладываются. Победа — когда все 104 карты на базовых стопках.</p>
"""
_EN["zodiac-only"] = """
<p>In this version (as in the seed text), aces and kings among the 32 dealt cards go straight to the
foundations at the deal; a Zodiac gap this leaves is filled at once from the stock, an Equator gap stays
empty. In phase 1 an Equator card or the waste top may also go to a foundation; if both aces (or kings)
of a suit are dealt, only the first goes to the foundation.</p>
"""
_RU["zodiac-only"] = """
<p>В этом варианте (как в исходном тексте) тузы и короли среди 32 сданных карт сразу уходят на базовые
стопки; пустое место в Зодиаке тут же заполняется из колоды, пустая ячейка Экватора остаётся пустой. На
первом этапе карта Экватора или верхняя карта отбоя может пойти и на базовую стопку; если сданы оба туза
(или оба короля) одной масти, на базовую стопку уходит только первый.</p>
"""
_EN["zodiac-classic"] = """
<p>Classic rules (Cadogan, 1914; as in PySolFC): nothing goes to a foundation before phase 2, and aces
and kings stay where they are dealt. The deal turns one stock card onto the waste. As in the seed
version, a whole pass through the stock that places no card loses the game.</p>
"""
_RU["zodiac-classic"] = """
<p>Классические правила (Кадоган, 1914; как в PySolFC): до второго этапа на базовые стопки ничего не
кладётся, тузы и короли остаются там, где их сдали. При сдаче одна карта колоды открывается в отбой. Как и
в исходном варианте, проход колоды, за который не пристроено ни одной карты, проигрывает пасьянс.</p>
"""

# -- Simplest -----------------------------------------------------------------------------------------------

_EN["simplest"] = """
<p>An easy open patience, a relative of Klondike. 52 cards: 10 columns of 4 cards, all face up; the other
12 form the stock. Four free cells above the columns each hold one card. Foundations: one per suit, ace
up to king.</p>
<ul>
<li>Only the top card of a column moves, one card at a time.</li>
<li>On a column, build down in alternating colours (a red 7 on a black 8).</li>
<li>An empty column takes a king (option: any card).</li>
<li>A free cell takes the top card of a column or of the waste; a card in a free cell may go to a column
or a foundation (not to another free cell). Cards on the foundations stay there.</li>
<li>Turn the stock one card at a time onto the waste, whose top card is playable; the waste is turned
over as a new stock as often as needed.</li>
<li>You win when all cards are on the foundations.</li>
</ul>
"""
_RU["simplest"] = """
<p>Лёгкий открытый пасьянс, родственник «Косынки». 52 карты: 10 столбцов по 4 карты, все открыты;
остальные 12 — колода. Над столбцами четыре свободные ячейки, по одной карте в каждой. Базовые стопки:
по одной на масть, от туза до короля.</p>
<ul>
<li>Двигается только верхняя карта столбца, по одной карте.</li>
<li>В столбцах карты кладутся по убыванию, чередуя цвет (красная семёрка на чёрную восьмёрку).</li>
<li>В пустой столбец кладётся король (вариант: любая карта).</li>
<li>В свободную ячейку кладётся верхняя карта столбца или отбоя; карта из ячейки идёт в столбец или на
базовую стопку (не в другую ячейку). С базовых стопок карты не возвращаются.</li>
<li>Колода открывается по одной карте в отбой, верхняя карта отбоя доступна; отбой переворачивается и
снова становится колодой сколько угодно раз.</li>
<li>Победа — когда все карты на базовых стопках.</li>
</ul>
"""

#: The sections of each game's rules, in order.
_SECTIONS: dict[str, tuple[str, ...]] = {
    "path": ("path", "amber"),
    "path-52": ("path-52", "amber"),
    "path-36": ("path-36", "amber"),
    "arden": ("arden", "amber"),
    "kolvir": ("kolvir", "amber"),
    "pattern": ("pattern", "amber"),
    "pyramid-52": ("pyramid-52", "pyramid"),
    "pyramid-36": ("pyramid-36", "pyramid"),
    "zodiac": ("zodiac", "zodiac-only"),
    "zodiac-classic": ("zodiac", "zodiac-classic"),
    "simplest": ("simplest",),
}

LANGUAGES = ("en", "ru")


def rules_html(game: str, lang: str = "en") -> str:
    """The rules of ``game`` as an HTML fragment in ``lang`` (``en`` or ``ru``)."""
    if lang not in LANGUAGES:
        raise GameError(f"the rules are written in {' and '.join(LANGUAGES)}, not {lang!r}")
    if game not in GAME_NAMES:
        raise GameError(f"unknown game {game!r}; the games are: {', '.join(GAME_NAMES)}")
    if game not in _SECTIONS:
        return ("<p>The rules of this game are in the project's rules documents.</p>\n" if lang == "en"
                else "<p>Правила этой игры — в документации проекта.</p>\n")
    texts = _EN if lang == "en" else _RU
    return "\n".join(texts[section].strip() for section in _SECTIONS[game]) + "\n"
