"""The grammatical markers an instruction carries in languages other than English.

The English rules (`preferences`, `instruction_forms`) decide on a handful of markers: "always",
"never", "every time", "from now on", "don't", "I prefer", "please", "you must", "no, …" after
the assistant acted, "as I said", "for now". This module holds the same markers, and only
those, for French, German, Spanish, Portuguese, Italian, Russian, Ukrainian, Chinese, Japanese
and Korean: grammar words every speaker uses for the meaning, never a word of one task.

Languages written with spaces are matched word by word, case-insensitively; Chinese, Japanese
and Korean (no spaces between words, or particles glued to the word) are matched as character
runs. A prohibition is the language's prohibitive form, not any negation: "ne … pas" with no
subject before it (an imperative), Spanish "no" before a second-person subjunctive, Italian
"non" before an infinitive, Russian and Ukrainian "не" before an imperative, Chinese 不要/别,
Japanese ないで/な at the end, Korean 지 마: "it does not build" is no prohibition in any of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The kinds of marker a clause can carry.
STANDING = "standing"  # always, never, every time, by default
FROM_NOW = "from_now"  # from now on, in future: makes the rest of the message standing
PROHIBIT = "prohibit"  # the prohibitive form ("don't …", "no …")
PREFER = "prefer"  # I prefer, rather
WANT = "want"  # I want, I would like
MUST = "must"  # you must, one has to
POLITE = "polite"  # please, the polite imperative
CORRECT = "correct"  # "no, …", "that's wrong" opening a reply to the assistant
SAID = "said"  # as I said, I already told you
ONE_OFF = "one_off"  # for now, this time, yet
EMPHASIS = "emphasis"  # important, absolutely
HEDGE = "hedge"  # I think, maybe, probably
TAKEN_BACK = "taken_back"  # never mind, you were right
DID = "did"  # did you …?, have you …? (the past of a question to the assistant)

#: Each language's markers, by kind. Latin and Cyrillic entries are regular expressions matched
#: at word boundaries; Chinese, Japanese and Korean ones are matched anywhere in the clause.
_SPACED: dict[str, dict[str, str]] = {
    "fr": {
        STANDING: r"toujours|jamais|(?:à )?chaque fois|systématiquement|par défaut|"
        r"en règle générale",
        FROM_NOW: r"désormais|dorénavant|à partir de maintenant|à l'avenir|la prochaine fois",
        PROHIBIT: r"^(?:s'il te plaît,?\s+|s'il vous plaît,?\s+|merci de\s+)?(?:ne|n')\s*\w+"
        r"|^pas de\b|^(?:évite|évitez|arrête|arrêtez) de\b|^évitez?\b|^jamais\b",
        PREFER: r"je préfère|je préférerais|j'aime mieux",
        WANT: r"je veux|je voudrais|je souhaite|j'aimerais",
        MUST: r"il faut|tu dois|vous devez|on doit",
        POLITE: r"s'il te plaît|s'il vous plaît|merci de|veuillez",
        CORRECT: r"^(?:non|pas comme ça|c'est faux|ce n'est pas (?:ça|ce que))",
        SAID: r"comme je (?:l'ai |te l'ai |vous l'ai )?(?:dit|disais)|je (?:te|vous) l'ai déjà dit|"
        r"je t'ai déjà dit",
        ONE_OFF: r"pour l'instant|pour le moment|cette fois|pas encore|maintenant|aujourd'hui",
        EMPHASIS: r"important|surtout|absolument|impérativement",
        HEDGE: r"je pense|je crois|peut-être|probablement|sans doute",
        TAKEN_BACK: r"oublie ça|laisse tomber|tu avais raison|au temps pour moi|autant pour moi",
        DID: r"as-tu|avez-vous|tu as|vous avez",
    },
    "de": {
        STANDING: r"immer|niemals|nie|jedes mal|grundsätzlich|standardmäßig|stets",
        FROM_NOW: r"ab jetzt|von nun an|ab sofort|künftig|in zukunft|zukünftig|nächstes mal",
        PROHIBIT: r"^(?:bitte\s+)?(?:nicht|kein\w*|nie(?:mals)?)\b|^(?:vermeide|vermeiden sie)\b"
        r"|\bbitte\b.*\b(?:nicht|kein\w*)\b|\bnicht\s+\w+en\s*[.!]*$",
        PREFER: r"ich bevorzuge|ich hätte lieber|mir ist lieber",
        WANT: r"ich will|ich möchte|ich hätte gern|ich wünsche",
        MUST: r"du musst|sie müssen|man muss|du sollst|du solltest",
        POLITE: r"bitte",
        CORRECT: r"^(?:nein|nicht so|das ist falsch|falsch)",
        SAID: r"wie (?:ich )?(?:schon )?gesagt|ich habe (?:dir |es dir )?(?:doch )?schon gesagt|"
        r"(?:das )?hatten wir (?:doch )?schon (?:mal |einmal )?besprochen",
        ONE_OFF: r"vorerst|diesmal|noch nicht|erstmal|jetzt|heute",
        EMPHASIS: r"wichtig|unbedingt|auf keinen fall",
        HEDGE: r"ich glaube|ich denke|vielleicht|wahrscheinlich|vermutlich",
        TAKEN_BACK: r"vergiss es|vergiss das|du hattest recht|mein fehler",
        DID: r"hast du|haben sie",
    },
    "es": {
        STANDING: r"siempre|nunca|jamás|cada vez|por defecto|en general",
        FROM_NOW: r"a partir de ahora|de ahora en adelante|en adelante|en el futuro|"
        r"la próxima vez",
        PROHIBIT: r"^(?:por favor,?\s+)?no\s+(?:(?:me|te|se|lo|la|los|las|le|les)"
        r"\s+)?\w+(?:es|as)\b|^(?:nunca|jamás)\s+\w+|^(?:evita|evite)\b|^deja de\b",
        PREFER: r"prefiero|preferiría",
        WANT: r"quiero|me gustaría|quisiera",
        MUST: r"debes|tienes que|hay que|debe",
        POLITE: r"por favor",
        CORRECT: r"^(?:no(?=[\s,.!])|así no|eso no|está mal|incorrecto)",
        SAID: r"como (?:te )?dije|ya te (?:lo )?dije|te lo he dicho",
        ONE_OFF: r"por ahora|esta vez|todavía|aún|ahora|hoy",
        EMPHASIS: r"importante|muy importante|absolutamente",
        HEDGE: r"creo que|quizás|quizá|tal vez|probablemente",
        TAKEN_BACK: r"olvídalo|olvida eso|tenías razón|error mío",
        DID: r"(?:ya )?(?:has|hiciste|\w+aste|\w+iste)",
    },
    "pt": {
        STANDING: r"sempre|nunca|jamais|toda vez|cada vez|por padrão|em geral",
        FROM_NOW: r"a partir de agora|daqui (?:em|pra) diante|de agora em diante|no futuro|"
        r"da próxima vez",
        PROHIBIT: r"^(?:por favor,?\s+)?não\s+\w+e\b|^(?:nunca|jamais)\s+\w+|^(?:evite|evita)\b"
        r"|^pare de\b",
        PREFER: r"prefiro|preferiria",
        WANT: r"quero|gostaria",
        MUST: r"você deve|deve|tem que|precisa",
        POLITE: r"por favor",
        CORRECT: r"^(?:não(?=[\s,.!])|assim não|está errado|errado)",
        SAID: r"como (?:eu )?(?:te )?disse|já (?:te )?disse",
        ONE_OFF: r"por enquanto|desta vez|dessa vez|ainda|agora|hoje",
        EMPHASIS: r"importante|muito importante|absolutamente",
        HEDGE: r"acho que|talvez|provavelmente",
        TAKEN_BACK: r"esquece|deixa pra lá|você tinha razão|erro meu",
        DID: r"você (?:já )?\w+(?:ou|eu|iu)|já \w+(?:ou|eu|iu)",
    },
    "it": {
        STANDING: r"sempre|mai|ogni volta|di default|in generale",
        FROM_NOW: r"d'ora in poi|da ora in poi|da adesso in poi|in futuro|la prossima volta",
        PROHIBIT: r"^(?:per favore,?\s+)?non\s+\w+(?:are|ere|ire)\b|^(?:evita|eviti)\b"
        r"|^smetti di\b",
        PREFER: r"preferisco|preferirei",
        WANT: r"voglio|vorrei",
        MUST: r"devi|bisogna|deve",
        POLITE: r"per favore|per piacere",
        CORRECT: r"^(?:no(?=[\s,.!])|non così|è sbagliato|sbagliato)",
        SAID: r"come (?:ti )?ho (?:già )?detto|te l'ho già detto",
        ONE_OFF: r"per ora|per adesso|questa volta|ancora|adesso|oggi",
        EMPHASIS: r"importante|assolutamente",
        HEDGE: r"penso che|credo che|forse|probabilmente",
        TAKEN_BACK: r"lascia perdere|dimentica|avevi ragione|colpa mia",
        DID: r"hai",
    },
    "ru": {
        STANDING: r"всегда|никогда|каждый раз|по умолчанию|всякий раз",
        FROM_NOW: r"с этого момента|отныне|впредь|в дальнейшем|в будущем|теперь всегда|"
        r"в следующий раз",
        PROHIBIT: r"\bне\s+\w+(?:й|йте|ите|ь|ьте)\b|^(?:никогда)\b|^(?:хватит|перестань)\b"
        r"|\bнельзя\b",
        PREFER: r"предпочитаю|я бы предпоч\w+",
        WANT: r"хочу|хотел(?:а)? бы",
        MUST: r"нужно|надо|должен|должна|необходимо|обязательно",
        POLITE: r"пожалуйста",
        CORRECT: r"^(?:нет|не так|неправильно|это не то)",
        SAID: r"как я (?:уже )?(?:говорил|сказал)|я (?:же )?уже (?:говорил|сказал)",
        ONE_OFF: r"пока|сейчас|в этот раз|ещё не|еще не|сегодня",
        EMPHASIS: r"важно|обязательно|ни в коем случае",
        HEDGE: r"думаю|кажется|может быть|наверное|возможно",
        TAKEN_BACK: r"забудь|неважно|ты был прав|ты была права|моя ошибка",
        DID: r"ты (?:уже )?\w+л|вы (?:уже )?\w+ли",
    },
    "uk": {
        STANDING: r"завжди|ніколи|щоразу|кожного разу|за замовчуванням",
        FROM_NOW: r"відтепер|надалі|з цього моменту|у майбутньому|наступного разу",
        PROHIBIT: r"\bне\s+\w+(?:й|йте|іть|и|ь|ьте)\b|^ніколи\b|^(?:годі|перестань)\b"
        r"|\bне можна\b",
        PREFER: r"віддаю перевагу|волію",
        WANT: r"хочу|хотів би|хотіла б",
        MUST: r"треба|потрібно|маєш|мусиш|обов'язково",
        POLITE: r"будь ласка",
        CORRECT: r"^(?:ні|не так|неправильно)",
        SAID: r"як я (?:вже )?(?:казав|казала|сказав)|я вже (?:казав|казала)",
        ONE_OFF: r"поки що|поки|зараз|цього разу|ще не|сьогодні",
        EMPHASIS: r"важливо|обов'язково",
        HEDGE: r"думаю|здається|можливо|мабуть",
        TAKEN_BACK: r"забудь|неважливо|ти мав рацію|моя помилка",
        DID: r"ти (?:вже )?\w+в|ви (?:вже )?\w+ли",
    },
}
_UNSPACED: dict[str, dict[str, str]] = {
    "zh": {
        STANDING: r"总是|始终|永远|每次|每一次|一律|默认|一直都|统一(?:用|使用|采用)",
        # "以后" opening a clause is "from now on"; after a step ("做完以后") it is "after", and
        # "以后再说" puts the matter off
        FROM_NOW: r"从现在开始|从今以后|以后都|以后每次|今后|下次|^以后(?!再|的)",
        PROHIBIT: r"不要|别|不许|不准|禁止|勿|不可以",
        PREFER: r"更喜欢|偏好|宁可|宁愿|优先使用",
        WANT: r"我想|我希望|希望你|我要",
        MUST: r"必须|应该|务必|需要|一定要",
        POLITE: r"请",
        CORRECT: r"^(?:不对|不是这样|错了|不是的)",
        SAID: r"我(?:已经|之前)?说过|跟你说过|我说了",
        ONE_OFF: r"暂时|这次|先不|先别|还没|现在|今天",
        EMPHASIS: r"重要|一定|千万",
        HEDGE: r"我觉得|可能|也许|大概|好像",
        TAKEN_BACK: r"算了|你是对的|我搞错了|忽略",
        DID: r"了吗|了没|有没有",
    },
    "ja": {
        STANDING: r"常に|いつも|必ず|毎回|絶対に|絶対|デフォルトで",
        FROM_NOW: r"今後|以後|次回から|次から|これからは",
        PROHIBIT: r"ないで(?!す|し)|ないように|な[。！!]?$|禁止|てはいけない|ではいけない|ちゃだめ|"
        r"じゃだめ|ないこと[。！!]?$|を避け",
        PREFER: r"ほうがいい|方がいい|好み|優先して",
        WANT: r"てほしい|でほしい|て欲しい|で欲しい",
        MUST: r"べき|なければ|必要があ",
        POLITE: r"ください|下さい|お願い|すること|してね",
        CORRECT: r"^(?:違う|ちがう|いいえ|そうじゃな)",
        SAID: r"言ったでしょ|言ったよね|前にも言った|言いました",
        ONE_OFF: r"今回|とりあえず|一旦|まだ|今日",
        EMPHASIS: r"重要|大事|絶対",
        HEDGE: r"たぶん|多分|かも|と思う|おそらく",
        TAKEN_BACK: r"やっぱりいい|忘れて|あなたが正しい|私の間違い",
        DID: r"しましたか|ましたか|した[？?]|った[？?]",
    },
    "ko": {
        STANDING: r"항상|언제나|절대|매번|기본적으로|반드시",
        FROM_NOW: r"앞으로|이제부터|다음부터|향후",
        PROHIBIT: r"지\s?마|지\s?말|금지|하면 안",
        PREFER: r"선호",
        WANT: r"원해|원합니다|좋겠|했으면",
        MUST: r"해야|야 해|야 합니다",
        POLITE: r"주세요|세요|십시오|해라|하라",
        CORRECT: r"^(?:아니|틀렸|그게 아니)",
        SAID: r"말했잖아|말했듯이|이미 말했",
        ONE_OFF: r"이번|일단|우선|아직|지금|오늘",
        EMPHASIS: r"중요|꼭",
        HEDGE: r"아마|같아|것 같|생각해",
        TAKEN_BACK: r"됐어|잊어|네 말이 맞|내 실수",
        DID: r"했어|했나요|했습니까|했니",
    },
}


def compiled(
    spaced: dict[str, dict[str, str]], unspaced: dict[str, dict[str, str]]
) -> dict[str, dict[str, re.Pattern[str]]]:
    """Each language's markers by kind, compiled: those of `spaced` languages at word boundaries
    and case-insensitively, those of `unspaced` ones (Chinese, Japanese, Korean) anywhere."""

    def one(lang: str, pattern: str) -> re.Pattern[str]:
        if lang in unspaced:
            return re.compile(pattern)
        # a word boundary around each alternative, unless it anchors itself (^, \b, $)
        return re.compile(rf"(?<!\w)(?:{pattern})(?![\w'])", re.IGNORECASE)

    return {
        lang: {kind: one(lang, pattern) for kind, pattern in kinds.items()}
        for lang, kinds in (spaced | unspaced).items()
    }


_MARKERS = compiled(_SPACED, _UNSPACED)

_PART = re.compile(r"[,:;，、：；]\s*")
#: The languages this module has markers for.
LANGUAGES = frozenset(_MARKERS)


@dataclass(frozen=True, slots=True)
class Marked:
    """The kinds of marker found in a clause, and where the first of each starts."""

    kinds: frozenset[str]

    def has(self, *kinds: str) -> bool:
        """Whether any of `kinds` is marked."""
        return any(kind in self.kinds for kind in kinds)


#: Languages whose imperative puts the verb first and the rule word right after it ("Lance
#: toujours les tests", "Verwende niemals var"), where a statement opens on its subject ("Il
#: échoue toujours", "Das ist immer so"): the words a statement may open on, and the rule words
#: that mean "still" when a word follows ("toujours pas", "immer noch").
_VERB_FIRST: dict[str, tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]] = {
    "fr": (
        re.compile(
            r"^(?:il|elle|on|je|j|tu|nous|vous|ils|elles|ça|ca|ce|c|cela|le|la|les|l|un|une|"
            r"des|du|mon|ma|mes|ton|ta|tes|son|sa|ses|y|en|qui|que|quand|si|et|mais|ou|donc|"
            r"toujours|jamais|ne|n|pas)$",
            re.IGNORECASE,
        ),
        re.compile(r"^(?:toujours|jamais)$", re.IGNORECASE),
        re.compile(r"^(?:pas|rien|plus|aucun|aucune|personne|le même|la même)\b", re.IGNORECASE),
    ),
    "de": (
        re.compile(
            r"^(?:er|sie|es|ich|du|wir|ihr|das|der|die|den|dem|des|ein|eine|einen|man|mein|"
            r"meine|dein|sein|dieser|diese|dieses|heute|jetzt|hier|da|dann|und|aber|oder|wenn|"
            r"immer|nie|niemals|stets|nicht|geht|ist|sind|war|hat|funktioniert|läuft|klappt)$",
            re.IGNORECASE,
        ),
        re.compile(r"^(?:immer|niemals|nie|stets)$", re.IGNORECASE),
        re.compile(r"^(?:noch|wieder|mehr|weiter)\b", re.IGNORECASE),
    ),
}


def verb_first_rule(lang: str, clause: str) -> bool:
    """Whether `clause` is an imperative with a rule word right after its verb, in a language
    whose statements open on their subject ("Lance toujours les tests avant de commit",
    "Verwende niemals var in JavaScript"); not "Il échoue toujours", "toujours pas de
    réponse" or "Geht immer noch nicht"."""
    shapes = _VERB_FIRST.get(lang)
    words = re.findall(r"[\w'-]+", clause)
    if shapes is None or len(words) < 3:
        return False
    not_a_verb, rule_word, still = shapes
    head = words[0].split("'")[0]
    rest = " ".join(words[2:])
    return not not_a_verb.match(head) and bool(rule_word.match(words[1])) and not still.match(rest)


def markers(lang: str, clause: str) -> Marked:
    """The kinds of marker `clause`, written in `lang`, carries (none for an unknown one)."""
    found = _MARKERS.get(lang, {})
    # a marker that opens a clause opens each of its comma-joined parts too ("Désormais, ne …")
    parts = [clause.strip(), *(p.strip() for p in _PART.split(clause) if p.strip())]
    return Marked(
        frozenset(kind for kind, pattern in found.items() if any(pattern.search(p) for p in parts))
    )


def script_language(text: str) -> str | None:
    """The language the letters of `text` point at when most of them are of one script that
    only one or two languages here use (kana: Japanese; Hangul: Korean; Han: Chinese; Cyrillic:
    Ukrainian with its own letters, else Russian); None for Latin letters or a mix."""
    counts = {"ja": 0, "ko": 0, "zh": 0, "cyr": 0, "other": 0}
    ukrainian = False
    for char in text:
        if not char.isalpha():
            continue
        code = ord(char)
        if 0x3040 <= code <= 0x30FF:
            counts["ja"] += 1
        elif 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF:
            counts["ko"] += 1
        elif 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF:
            counts["zh"] += 1
        elif 0x0400 <= code <= 0x04FF:
            counts["cyr"] += 1
            ukrainian = ukrainian or char.lower() in "іїєґ"
        else:
            counts["other"] += 1
    if counts["ja"]:  # Japanese writes Han and kana together
        counts["ja"] += counts.pop("zh")
    lang, count = max(((k, n) for k, n in counts.items() if k != "other"), key=lambda kn: kn[1])
    if not count or count < counts["other"]:
        return None
    if lang == "cyr":
        return "uk" if ukrainian else "ru"
    return lang


#: "for now we code in relative", "pour l'instant on code en relatif": an interim convention,
#: the time word ("for now") right before the inclusive "we" and a verb done *in* a manner
#: ("en relatif", "em local", "auf Deutsch"), no object of the task at hand ("for now we add a
#: column" has one). Each language's form, matched as a whole; not a marker of `markers`, whose
#: spans would swallow the user's own words.
_INTERIM_WAYS: dict[str, re.Pattern[str]] = {
    lang: re.compile(pattern, re.IGNORECASE)
    for lang, pattern in {
        "fr": r"(?<!\w)(?:pour l'instant|pour le moment),?\s+(?:on|nous)\s+\w+\s+"
        r"en\s+(?!train\b|l'|cours\b|attendant\b)\w+",
        "pt": r"(?<!\w)(?:por enquanto|por agora|por ora),?\s+(?:a gente|nós)\s+\w+\s+"
        r"em\s+(?!andamento\b)\w+",
        "es": r"(?<!\w)(?:por ahora|de momento|por el momento),?\s+(?:nosotros\s+)?\w+mos\s+"
        r"en\s+(?!curso\b)\w+",
        "it": r"(?<!\w)(?:per ora|per il momento|per adesso),?\s+(?:noi\s+)?\w+iamo\s+"
        r"in\s+(?!corso\b)\w+",
        "de": r"(?<!\w)(?:vorerst|erstmal|fürs erste),?\s+\w+en\s+wir\s+(?:auf|in)\s+\w+",
        "ru": r"(?<!\w)(?:пока что|пока),?\s+мы\s+\w+\s+(?:на|в)\s+\w+",
        "uk": r"(?<!\w)(?:поки що|наразі),?\s+ми\s+\w+\s+(?:на|в|у)\s+\w+",
    }.items()
}


def interim_way(lang: str, clause: str) -> bool:
    """Whether `clause`, written in `lang`, states an interim convention of the project: "for
    now" before "we <verb> in <manner>" ("pour l'instant on code en relatif"); a task of the
    moment ("for now we add a column") has an object instead of a manner and is none."""
    pattern = _INTERIM_WAYS.get(lang)
    return pattern is not None and pattern.search(" ".join(clause.split())) is not None


def without_correction(lang: str, clause: str) -> str:
    """`clause` without the "no, …" that opens it as a correction ("Non, ne pousse pas" →
    "ne pousse pas"); unchanged without one."""
    pattern = _MARKERS.get(lang, {}).get(CORRECT)
    if pattern is None or not (found := pattern.match(clause.strip())):
        return clause
    return clause.strip()[found.end() :].lstrip(" ,.!:;—-、，。！")


def marker_spans(lang: str, clause: str) -> list[tuple[int, int]]:
    """Where the markers of `clause` are, for telling its own words from the markers'."""
    spans: list[tuple[int, int]] = []
    for pattern in _MARKERS.get(lang, {}).values():
        spans.extend(m.span() for m in pattern.finditer(clause) if m.end() > m.start())
    return spans


__all__ = [
    "CORRECT",
    "DID",
    "EMPHASIS",
    "FROM_NOW",
    "HEDGE",
    "LANGUAGES",
    "MUST",
    "ONE_OFF",
    "POLITE",
    "PREFER",
    "PROHIBIT",
    "SAID",
    "STANDING",
    "TAKEN_BACK",
    "WANT",
    "Marked",
    "interim_way",
    "marker_spans",
    "markers",
    "script_language",
    "without_correction",
]
