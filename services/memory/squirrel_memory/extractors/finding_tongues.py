"""What tells a finding from the assistant's own steps in languages other than English.

`finding_sentences` reads English with English words ("I", "we", "might", "let me", "the issue
is that …"). A reply in Russian, Ukrainian, Chinese, Japanese, Korean, Spanish, Portuguese,
French, German or Italian is read here with the same kinds of marker, and only those: grammar
words every speaker uses, never a word of one task —

- the speaker: first-person pronouns, and the first-person verb forms that need none (Russian
  and Ukrainian past tense opening the sentence with no subject, "Записал …", "Зберіг …";
  Spanish "Revisé …", Portuguese "Salvei …", Italian "ho …", German "Habe …"; Japanese and
  Korean past polite endings, "保存しました", "저장했습니다", and the Korean ending of intent,
  "수정하겠습니다");
- a plan's opening ("дальше", "ahora", "als Nächstes", "接下来", "次に", "다음으로") and the
  near future said of oneself ("voy a", "je vais", "vou");
- a hedge ("наверное", "quizá", "vielleicht", "可能", "たぶん", "아마");
- a lead-in that announces the next sentence ("… не случайно", "no es casualidad", "kein
  Zufall", "并非偶然") and a status line behind a mark ("✅ …");
- a sentence whose subject is only a pronoun ("Это …", "C'est …", "Das ist …", "这 …");
- the openings of an explanation ("причина в том, что", "la razón es que", "der Grund ist",
  "原因是", "原因は", "원인은") and the words of a rule (a negation, "only", "always", "by
  default", "requires").

Languages written with spaces are matched word by word, case-insensitively; Chinese, Japanese
and Korean as character runs. A sentence's language is its script's (`tongue_markers`), or for
Latin letters the language whose grammar words it holds more of than English's; an English
sentence is never read here.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.tongue_markers import compiled, script_language

#: Languages whose words are not parted by spaces: their sentences are counted in characters.
UNSPACED = frozenset({"zh", "ja", "ko"})
#: The fewest characters a finding in those languages has (a dense script says more per sign).
MIN_UNSPACED_CHARS = 12

#: Grammar words (articles, prepositions, conjunctions) that tell Latin-script languages apart.
_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    lang: frozenset(words.split())
    for lang, words in {
        "en": "the is are and of to that it with for this be not when only was does from by i "
        "we you have has in on at can will a an",
        "es": "el los las que es por con una del para se está están cuando solo pero como lo "
        "al sus hay muy también yo he y en la mi ya fue son de a voy vamos ahora esto eso sin "
        "desde sobre",
        "pt": "o os que é não do da dos das com uma para em quando só mas ao pelo pela está "
        "são também eu e na no um isso foi já de a vou agora sem ainda mais",
        "fr": "le les est des du une que pour pas avec dans qui ce sur ne au aux sont cette "
        "c'est n'est je j'ai nous il la en et ai avons mais ou été de a vais maintenant aussi "
        "sans très déjà",
        "de": "der die das ist nicht und ein eine mit für den dem auf wird nur sich sind "
        "auch dass wenn ich habe hat wir es von zu im bei noch werden kann aus schon jetzt aber "
        "oder nach wie über",
        "it": "il lo gli che è non di della del per con una sono quando solo anche nel alla "
        "dei delle io ho e la un ma già ci a ora perché più questo senza sul dalla",
    }.items()
}

#: Each language's markers by kind: a regular expression, matched at word boundaries (spaced
#: languages) or anywhere (unspaced ones).
PERSONAL = "personal"
PLAN = "plan"
HEDGE = "hedge"
ANNOUNCES = "announces"
PRONOUN = "pronoun"
OPENING = "opening"
RULE = "rule"

_RU_PAST = (
    # a past-tense verb opening the sentence, no subject before it: the speaker's own step
    r"^(?:за|со|с(?=[бвгджзклмнпрстфхцчшщ])|до|по|про|пере|вы|от|об|у|на|при|раз|рас|под|ис|"
    r"из|в(?=[бвгджзклмнпрстфхцчшщ]))[а-яё]*[бвгджзклмнпрстфхцчшщ][аяиеыуё]л(?:а|и)?(?:ся|сь)?"
    r"(?<!раздел)(?<!пробел)(?<!провал)(?<!портал)(?<!отдел)(?<!предел)"
)
_UK_PAST = (
    r"^(?:за|з(?=[бвгджклмнпрстфхцчшщ])|до|по|про|пере|ви|від|об|у|на|при|роз|під|в(?=[бвгджзклмнп"
    r"рстфхцчшщ]))[а-яіїєґ']*(?:[бвгджзклмнпрстфхцчшщ][аяиеіу](?:в|ла|ли)|іг|ік)(?:ся|сь)?"
)
_SPACED: dict[str, dict[str, str]] = {
    "ru": {
        PERSONAL: r"я|мы|мне|меня|мной|мой|моя|моё|мое|мои|моих|нам|нас|нами|наш\w*|" + _RU_PAST,
        PLAN: r"^(?:дальше|далее|теперь|сейчас|затем|потом|сначала|следующим шагом|давайте|"
        r"давай)",
        HEDGE: r"наверное|наверно|возможно|вероятно|может быть|похоже|кажется|видимо|"
        r"скорее всего|предположительно",
        ANNOUNCES: r"не случайно|неслучайно|неспроста|не просто так",
        PRONOUN: r"^(?:это|этот|эта|эти|так|она|он|оно|они|там|тут|поэтому)",
        OPENING: r"(?:настоящая |истинная |реальная |главная |основная )?(?:причина|проблема|"
        r"загвоздка|суть)(?: была)? в том,? что|дело в том,? что|оказалось,? что|"
        r"оказывается,|это потому,? что",
        RULE: r"не|нет|только|лишь|всегда|никогда|по умолчанию|требует|нужно|нужен|нужна|"
        r"нельзя|должен|должна|должно|обязательно|автоматически|сам по себе|сама по себе",
    },
    "uk": {
        PERSONAL: r"я|ми|мені|мене|мною|мій|моя|моє|мої|моїх|нам|нас|нами|наш\w*|" + _UK_PAST,
        PLAN: r"^(?:далі|тепер|зараз|потім|спочатку|наступним кроком|давайте|давай)",
        HEDGE: r"напевно|напевне|можливо|ймовірно|мабуть|здається|схоже|певно|видно",
        ANNOUNCES: r"не випадково|невипадково|не просто так",
        PRONOUN: r"^(?:це|цей|ця|ці|так|вона|він|воно|вони|там|тут|тому)",
        OPENING: r"(?:справжня |головна )?(?:причина|проблема|суть) (?:була )?в тому,? що|"
        r"справа в тому,? що|річ у тім,? що|виявилося,? що|це тому,? що",
        RULE: r"не|немає|лише|тільки|завжди|ніколи|за замовчуванням|потребує|треба|"
        r"потрібно|не можна|автоматично|сам по собі",
    },
    "es": {
        PERSONAL: r"yo|mi|mis|me|nosotros|nosotras|nos|nuestro\w*|nuestra\w*|"
        r"(?:he|hemos) \w+(?:ado|ido)|"
        r"^(?:(?:lo|la|los|las|le|les|me) )?\w{3,}(?:é|í)(?<!aquí)(?<!allí)",
        PLAN: r"^(?:ahora|luego|a continuación|primero|vamos a|voy a)|voy a|vamos a",
        HEDGE: r"quizá|quizás|tal vez|probablemente|posiblemente|puede que|parece|"
        r"a lo mejor|seguramente|supongo|creo que",
        ANNOUNCES: r"no es casualidad|no por casualidad|no es casual|hay dos cosas|"
        r"hay tres cosas",
        PRONOUN: r"^(?:esto|eso|ello|esta|este|estos|estas|así)",
        OPENING: r"(?:la |el )?(?:verdadera |verdadero |real )?(?:razón|causa|problema|motivo) "
        r"(?:real )?(?:es|era|está en) que|resulta que|lo que pasa es que|es porque",
        RULE: r"no|solo|sólo|únicamente|siempre|nunca|jamás|por defecto|requiere|necesita|"
        r"hay que|ignora|por su cuenta|automáticamente",
    },
    "pt": {
        PERSONAL: r"eu|meu|minha|meus|minhas|nós|nosso\w*|nossa\w*|^(?:(?:o|a|os|as) )?\w{2,}ei",
        PLAN: r"^(?:agora|em seguida|primeiro|vamos)|vou|vamos",
        HEDGE: r"talvez|provavelmente|possivelmente|pode ser|parece|acho que|quem sabe",
        ANNOUNCES: r"não é por acaso|não por acaso|não é coincidência",
        PRONOUN: r"^(?:isso|isto|ele|ela|eles|elas|assim)",
        OPENING: r"(?:o |a )?(?:verdadeiro |real )?(?:motivo|problema|causa|razão) (?:real )?"
        r"(?:é|era|está em) que|acontece que|é porque",
        RULE: r"não|só|somente|apenas|sempre|nunca|por padrão|exige|requer|precisa|"
        r"é preciso|ignora|sozinho|sozinha|automaticamente",
    },
    "fr": {
        PERSONAL: r"je|j'\w+|moi|nous|mon|ma|mes|notre|nos|m'\w+",
        PLAN: r"^(?:maintenant|ensuite|puis|d'abord|allons|on va)|je vais|nous allons|on va",
        HEDGE: r"peut-être|probablement|sans doute|il semble|semble|possiblement|je pense|"
        r"je crois|apparemment",
        ANNOUNCES: r"pas un hasard|pas par hasard|ce qui se passe",
        PRONOUN: r"^(?:cela|ça|ceci|c'est|c'était|ce|il|elle|ils|elles)",
        OPENING: r"(?:la |le )?(?:vraie |véritable |vrai )?(?:cause|raison|problème),? "
        r"(?:c'est|est) que|il (?:s'avère|se trouve) que|c'est parce que",
        RULE: r"ne|n'\w+|pas|seulement|uniquement|toujours|jamais|par défaut|exige|nécessite|"
        r"il faut|ignore|automatiquement|tout seul",
    },
    "de": {
        PERSONAL: r"ich|mich|mir|mein\w*|wir|uns|unser\w*|^habe",
        PLAN: r"^(?:jetzt|nun|als nächstes|danach|zuerst|dann|lass uns|lasst uns)|ich werde|"
        r"wir werden",
        HEDGE: r"vielleicht|wahrscheinlich|vermutlich|möglicherweise|eventuell|scheint|wohl|"
        r"ich glaube|ich denke",
        ANNOUNCES: r"kein zufall|nicht zufällig|nicht umsonst",
        # "Das ist …", "Es …": a pronoun, where "Das Feld …" opens on a noun (capitalised)
        PRONOUN: r"^(?:dies|dieses|es|das|er)(?=\s+(?-i:[a-zäöüß]))",
        OPENING: r"(?:der (?:eigentliche |wahre )?grund|das (?:eigentliche )?problem|die "
        r"(?:eigentliche )?ursache) (?:ist|war),? dass|es stellt sich heraus,? dass|"
        r"(?:es|das) liegt daran,? dass",
        RULE: r"nicht|kein\w*|nur|immer|nie|niemals|standardmäßig|benötigt|braucht|erfordert|"
        r"muss|müssen|ignoriert|automatisch|von selbst",
    },
    "it": {
        PERSONAL: r"io|mio|mia|miei|mie|noi|nostro|nostra|nostri|nostre|ho|abbiamo|l'ho|"
        r"l'abbiamo",
        PLAN: r"^(?:ora|adesso|poi|passo successivo)",
        HEDGE: r"forse|probabilmente|magari|sembra|pare|possibilmente|credo|penso",
        ANNOUNCES: r"non è un caso|non a caso|non per caso",
        PRONOUN: r"^(?:questo|questa|questi|ciò|esso|essa|così)",
        OPENING: r"(?:il |la )?(?:vero |vera )?(?:motivo|problema|causa|ragione) è che|"
        r"il punto è che|risulta che|salta fuori che|è perché",
        RULE: r"non|solo|soltanto|sempre|mai|di default|per impostazione predefinita|"
        r"richiede|serve|bisogna|ignora|automaticamente|da solo",
    },
}
_UNSPACED: dict[str, dict[str, str]] = {
    "zh": {
        PERSONAL: r"我|咱们",
        PLAN: r"^(?:接下来|下一步|然后|现在|首先|先)|让我",
        HEDGE: r"(?<!不)可能|也许|或许|大概|似乎|好像|估计|应该是",
        ANNOUNCES: r"并非偶然|不是偶然|不是巧合|两个要点|几个要点",
        PRONOUN: r"^(?:这|那|它)",
        OPENING: r"原因是|原因在于|问题在于|问题是|根本原因|真正的原因|是因为",
        RULE: r"不|没|只|仅|必须|需要|默认|总是|从不|无法|才",
    },
    "ja": {
        PERSONAL: r"私|僕|俺|こちらで|ました[。.]?$",
        PLAN: r"^(?:次に|次は|これから|まず|では|それでは)|しましょう",
        HEDGE: r"たぶん|多分|おそらく|恐らく|かもしれ|ようです|みたいです|らしい|でしょう",
        ANNOUNCES: r"偶然ではない|偶然じゃない|偶然ではありません",
        PRONOUN: r"^(?:これ|それ|この|その|あれ|つまり)",
        OPENING: r"原因は|問題は|理由は|実は|というのも",
        RULE: r"ない|ません|しか|だけ|のみ|必ず|必要|デフォルト|常に|自動",
    },
    "ko": {
        PERSONAL: r"제가|저는|저희|내가|나는|우리|[았었였했]습니다[.]?$|겠습니다|할게요|볼게요",
        PLAN: r"^(?:다음으로|다음은|이제|먼저|우선)",
        HEDGE: r"아마|것 같|수도 있|일지도|듯합니다|듯해요",
        ANNOUNCES: r"우연이 아니",
        PRONOUN: r"^(?:이것|그것|이는|그래서|이렇게|이 |그 )",
        OPENING: r"원인은|이유는|문제는|알고 보니|사실은",
        RULE: r"않|안 |못|없|만 |기본적으로|항상|반드시|필요",
    },
}


_MARKERS = compiled(_SPACED, _UNSPACED)
_CODE = re.compile(r"`[^`\n]*`")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
#: A mark that opens a status line ("✅ …", "❌ …").
_MARK = re.compile(r"^[^\w`\"'«“(\[]")


def tongue(text: str) -> str | None:
    """The language of `text` when it is one of those read here (never English): its script's,
    or for Latin letters the one whose grammar words it holds more of than English's."""
    prose = _CODE.sub(" ", text)
    lang = script_language(prose)
    if lang is not None:
        return lang if lang in _MARKERS else None
    words = [w.lower() for w in _WORD.findall(prose)]
    counts = {
        lang: sum(1 for w in words if w in function) for lang, function in _FUNCTION_WORDS.items()
    }
    best = max(counts, key=lambda lang: counts[lang])
    return best if best != "en" and counts[best] > counts["en"] else None


def marked(lang: str, kind: str, text: str) -> bool:
    """Whether `text`, written in `lang`, carries a marker of `kind`."""
    pattern = _MARKERS.get(lang, {}).get(kind)
    return pattern is not None and pattern.search(_CODE.sub("`…`", text)) is not None


def not_a_finding(lang: str, text: str) -> bool:
    """Whether a sentence in `lang` is the speaker's own step, a plan, a hedge, a lead-in, a
    status line or leans on the sentence before it."""
    if _MARK.match(text):
        return True
    return any(marked(lang, kind, text) for kind in (PERSONAL, PLAN, HEDGE, ANNOUNCES, PRONOUN))


def opens_a_cause(lang: str, text: str) -> bool:
    """Whether a sentence in `lang` opens as an explanation ("причина в том, что …") and states a
    rule (a negation, "only", "by default", …)."""
    opening = _MARKERS.get(lang, {}).get(OPENING)
    head = _CODE.sub("`…`", text)[:60]
    return opening is not None and opening.search(head) is not None and marked(lang, RULE, text)
