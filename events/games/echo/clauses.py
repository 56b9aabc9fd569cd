"""The clauses of Echo's Movement phase, in our own words, in English and Russian.

Digest: shared/rules/echo.md; original text (Russian): shared/seeds/003_db5c0e40590f32eb.txt.
``CATALOGUE`` is the game's catalogue (``events.rules.Catalogue``, the API every game shares):
its titles read ``English · Русский`` and its texts give the English wording, then the Russian,
so every citation (log, ``chronicle explain``, the page's clause badges) exists in both
languages. ``ENGLISH`` and ``RUSSIAN`` hold each language alone, with the same IDs.
"""

from __future__ import annotations

from events.rules import Catalogue, Clause

# (id, English title, English text, Russian title, Russian text)
CLAUSES = (
    ("EC-1", "Scope", "In the Movement phase investigators move between locations in Echo and beyond, trade "
     "items and fight enemies.",
     "Фаза движения", "В фазе движения сыщики перемещаются между локациями Ехо и за его пределами, обмениваются "
     "вещами и сражаются с врагами."),
    ("EC-2", "Movement points", "An investigator has as many movement points as its Speed; a step along a white "
     "arrow costs 1, a step along the Dark Path costs 1.",
     "Единицы движения", "У сыщика столько единиц движения, сколько его скорость; шаг по белой стрелке стоит 1, "
     "шаг по Тёмному Пути тоже 1."),
    ("EC-3", "Enemies block", "To leave a location that holds an enemy, or to pass through one, the investigator "
     "must evade the enemy or defeat it in combat.",
     "Враги преграждают путь", "Чтобы уйти из локации с врагом или пройти через неё, сыщик должен уйти от врага "
     "или победить его в битве."),
    ("EC-4", "Evasion", "Evasion is a Stealth check with the enemy's evasion penalty: Stealth − penalty dice, "
     "success on a 5 or 6 (Stealth 5, penalty 1: 4 dice). A failed evasion means combat.",
     "Уход от врага", "Уход — проверка скрытности со штрафом врага: скрытность − штраф кубиков, успех на 5 или 6 "
     "(скрытность 5, штраф 1: 4 кубика). Неудачный уход — битва."),
    ("EC-5", "Evading again", "After any combat round the investigator may try again to slip away with a new "
     "Stealth check.",
     "Повторный уход", "После любого раунда битвы сыщик может снова попытаться ускользнуть, пройдя проверку "
     "скрытности."),
    ("EC-6", "Combat round", "Combat goes in rounds of three steps: who strikes first, the first strike, the "
     "other's strike back if it survived.",
     "Раунд битвы", "Битва идёт раундами из трёх шагов: очерёдность ударов, удар первого, контрудар соперника, "
     "если он выжил."),
    ("EC-7", "Strike order", "An Attention check with the enemy's attention penalty: on a success the "
     "investigator strikes first, otherwise the enemy does.",
     "Очерёдность ударов", "Проверка внимательности со штрафом врага: при успехе первым бьёт сыщик, иначе враг."),
    ("EC-8", "Stealth the first time", "The first time the investigator may use Stealth instead of Attention; "
     "after a failed evasion there is no check and the enemy strikes first.",
     "Скрытность в первый раз", "В первый раз вместо внимательности можно использовать скрытность; после "
     "неудачного ухода проверки нет и первым бьёт враг."),
    ("EC-9", "Striking", "The investigator strikes with its items or its spells.",
     "Удар", "Сыщик наносит удар вещами или заклинаниями."),
    ("EC-10", "Casting", "Obvious magic is cast with Knowledge, true magic with Intuition; the spell's "
     "difficulty is the penalty (Banishing Spark: Knowledge − 3 dice).",
     "Колдовство", "Очевидная магия колдуется знанием, истинная — интуицией; сложность заклинания — штраф "
     "(Изгнание искры: знание − 3 кубика)."),
    ("EC-11", "Price of power", "A cast costs the spell's price of power in Sanity whether it succeeds or not; "
     "the card says if it can be cast in combat (Banishing Spark: price 1, in combat).",
     "Цена могущества", "Колдовство стоит цену могущества в рассудке, удачное или нет; на карте указано, "
     "колдуется ли оно в битве (Изгнание искры: цена 1, в битве)."),
    ("EC-12", "Spell effects", "Most spells take Health or Sanity from the enemy; an enemy starts with the "
     "Sanity (blue) and Health (red) printed on its card.",
     "Действие заклинаний", "Большинство заклинаний отнимают у врага здоровье или рассудок; начальные рассудок "
     "(синий) и здоровье (красное) врага указаны на карточке."),
    ("EC-13", "Enemy attack", "The card's back gives blue dice for Sanity and red dice for Health, each 5 or 6 "
     "a point lost; the player to the left of the fighting investigator's player rolls them.",
     "Атака врага", "На обороте карты: синие кубики на рассудок, красные на здоровье, каждая 5 или 6 — потеря "
     "1; бросает игрок слева от игрока, чей сыщик сражается."),
    ("EC-14", "Fixed damage", "An enemy card may deal damage with every attack without any roll.",
     "Урон без проверки", "Карточка врага может наносить урон при каждой атаке без всяких проверок."),
    ("EC-15", "Rounds cost movement", "Each combat round costs 1 movement point; even with none left the "
     "investigator must defeat every enemy in the location or escape them all.",
     "Раунды стоят движения", "Каждый раунд битвы отнимает 1 единицу движения; даже без единиц сыщик должен "
     "победить всех врагов в локации или скрыться от них всех."),
    ("EC-16", "Group combat", "Investigators and enemies in one location fight together; an investigator who "
     "passes against every enemy strikes first, one who fails against any is struck first by all.",
     "Общая битва", "Сыщики и враги в одной локации сражаются вместе; прошедший проверки со всеми врагами бьёт "
     "первым, не прошедший хотя бы с одним — после всех врагов."),
    ("EC-17", "Defeated enemies", "An enemy at 0 or −1 Sanity or Health is detained (its card taken, to be "
     "exchanged for clues); at 0 or below in both, or −2 or below in either, it is dead.",
     "Побеждённые враги", "Враг с рассудком или здоровьем 0 или −1 задержан (карточку берут себе и могут "
     "обменять на улики); при обоих 0 и ниже или любом −2 и ниже он мёртв."),
    ("EC-18", "Defeated investigators", "Below −1 in either track, or 0/−1 in both, the investigator dies; "
     "Sanity alone at 0/−1: to the Asylum for the Insane with Sanity 1; Health alone: to the Ministry of "
     "Perfect Order with Health 1.",
     "Побеждённые сыщики", "Ниже −1 в любом или 0/−1 в обоих — сыщик погиб; только рассудок 0/−1 — в Приют "
     "Безумных с рассудком 1; только здоровье — в Управление Полного Порядка со здоровьем 1."),
    ("EC-19", "Dark Side", "An investigator ending its move in a Ministry of Perfect Order location may spend 1 "
     "movement point to go to the Dark Side.",
     "Тёмная Сторона", "Сыщик, закончивший движение в локации Управления Полного Порядка, может потратить 1 "
     "единицу движения и оказаться на Тёмной Стороне."),
    ("EC-20", "Trading", "Investigators in the same location may trade items, but not skills, allies, clues "
     "or spells.",
     "Обмен", "Сыщики в одной локации могут обмениваться вещами, но не навыками, союзниками, уликами и "
     "заклинаниями."),
    ("EC-C1", "Map as data", "Locations (Russian and English names), white-arrow and Dark Path links, the "
     "Asylum, the Ministry of Perfect Order locations and the Dark Side are a data file.",
     "Карта как данные", "Локации (русские и английские названия), белые стрелки и Тёмный Путь, Приют "
     "Безумных, локации Управления Полного Порядка и Тёмная Сторона — файл данных."),
    ("EC-C2", "Cards as data", "Enemy, spell and item cards are data, with the numbers the text gives for the "
     "Novice of the Order of the Barking Fish and Banishing Spark.",
     "Карты как данные", "Карточки врагов, заклинаний и вещей — данные, с числами из текста для Послушника "
     "Ордена Лающей Рыбы и Изгнания искры."),
    ("EC-C3", "Who acts", "The moving investigator's seat chooses its moves, evasions and strikes; seats move "
     "in seat order, the seat to the left is the next one; 'the first time' is a combat's first round.",
     "Кто ходит", "Игрок двигающегося сыщика выбирает шаги, уходы и удары; игроки ходят по порядку мест, "
     "слева сидит следующий; «в первый раз» — первый раунд битвы."),
    ("EC-C4", "Enemy kinds", "Only people can be detained; undead and artifacts at the detaining thresholds are "
     "destroyed.",
     "Виды врагов", "Задержать можно только людей; нежить и артефакты при порогах задержания уничтожаются."),
)

CATALOGUE = Catalogue(
    tuple(Clause(cid, f"{en_title} · {ru_title}", f"{en_text} / {ru_text}")
          for cid, en_title, en_text, ru_title, ru_text in CLAUSES)
)
ENGLISH = Catalogue(tuple(Clause(cid, en_title, en_text) for cid, en_title, en_text, _t, _x in CLAUSES))
RUSSIAN = Catalogue(tuple(Clause(cid, ru_title, ru_text) for cid, _t, _x, ru_title, ru_text in CLAUSES))
