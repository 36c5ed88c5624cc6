"""Standing instructions said in another language than English: the words that put a
condition on all later work.

The preference rules read English ("from now on …", "before every commit …"). A user who
writes in Spanish, German, Russian or Japanese sets a rule for all later work with the same
kinds of words in their language: a marker of time from here on ("a partir de ahora",
"ab jetzt", "今後", "с этого момента") or a step before or after every later occurrence of
another ("antes de cada commit", "vor jedem Push", "перед каждым коммитом"). A sentence of
the user's with one of them is a standing instruction, kept in the user's own words (it is
not translated or paraphrased), in the project where it was said.

Only markers that point at later work count: "always", "never" and "each time" alone do
not ("la prueba siempre falla", "每次运行都失败" report a state, they set no rule). "Always"
with a step it comes before, the sentence opening on one of them ("siempre ejecuta los tests
antes de hacer commit"), is a step of all later work.
Questions, quoted lines and code blocks are not instructions; a sentence longer than
`MAX_SENTENCE_CHARS` is a pasted text. A message whose instructions the English rules
already found is theirs.
"""

from __future__ import annotations

import hashlib
import re

from squirrel_memory.extractors.firmness import STANDING_IMPORTANCE, STANDING_TAG, StatedPreference
from squirrel_memory.extractors.own_words import own_words
from squirrel_memory.extractors.said_requests import words_of
from squirrel_memory.extractors.wording import strip_markdown
from squirrel_memory.models import Scope

PREFIX = "pref:said:"
TAG = "own_words"
MAX_SENTENCE_CHARS = 240
#: Content words a sentence needs besides its marker (the rule has to say something).
MIN_WORDS = 2
MAX_PER_MESSAGE = 3
_LEAD = "Standing instruction, in the user's words"

#: From here on: the rule holds for all later work.
_FROM_NOW_ON = (
    # Spanish, Portuguese
    r"a partir de ahora|de ahora en adelante|en adelante|en lo sucesivo|a partir de agora|"
    r"daqui (?:para|pra) (?:frente|a frente)|de agora em diante|"
    # French, Italian
    r"à partir de maintenant|dorénavant|désormais|à l'avenir|d'ora in (?:poi|avanti)|"
    r"da ora in poi|d'ora innanzi|"
    # German, Dutch
    r"ab jetzt|ab sofort|von nun an|in zukunft|künftig|zukünftig|vanaf nu|voortaan|"
    # Russian, Ukrainian, Polish, Turkish
    r"с этого момента|впредь|отныне|в дальнейшем|відтепер|надалі|od teraz|odtąd|od tej pory|"
    r"bundan böyle|bundan sonra|şu andan itibaren|"
    # Vietnamese, Indonesian and Malay, Hindi written in Latin letters
    r"từ giờ|từ nay|từ bây giờ|mulai sekarang|mulai saat ini|mulai hari ini|ke depannya|"
    r"aage se|"
    # Chinese, Japanese, Korean
    r"从现在开始|從現在開始|从今以后|從今以後|今后|今後|以后都|以後都|これからは|앞으로는?|지금부터"
)
#: Before or after each later occurrence of a step ("antes de cada commit", "vor jedem Push").
#: "Each time" alone is not one: "cada vez que hago commit falla el hook" reports a failure.
_EVERY_TIME = (
    r"antes de cada|después de cada|depois de cada|avant chaque|après chaque|prima di ogni|"
    r"dopo ogni|vor jedem|vor jeder|nach jedem|nach jeder|voor elke|na elke|"
    r"перед каждым|перед каждой|после каждого|после каждой|przed każdym|przed każdą|po każdym"
)
#: A rule word ("always", "never") and a step it comes before, the sentence opening on one of
#: them ("siempre ejecuta los tests antes de hacer commit", "commit atmadan önce her zaman
#: testleri çalıştır", "перед коммитом всегда запускай тесты"): a step of all later work. A
#: sentence opening on what it is said of ("el test siempre falla antes del commit") reports.
_RULE_WORD = (
    r"siempre|nunca|jamás|sempre|jamais|mai|toujours|jamais|immer|niemals|stets|всегда|никогда|"
    r"завжди|ніколи|zawsze|nigdy|her zaman|hiçbir zaman|asla"
)
_BEFORE = r"antes de|antes del|prima di|prima del|avant de|avant d'|bevor|vor dem|vor der|" + (
    r"перед|прежде чем|przed"
)
_PLEASE = (
    r"(?:(?:por favor|per favore|s'il te plaît|bitte|пожалуйста|будь ласка|proszę|lütfen),?\s+)?"
)
_RULE_BEFORE = re.compile(
    rf"^{_PLEASE}(?:{_RULE_WORD})\s+\S.*?(?<!\w)(?:{_BEFORE})(?=\s+\S)"
    rf"|^{_PLEASE}(?:{_BEFORE})\s+[^,]{{2,60}}?,?\s+{_PLEASE}(?:{_RULE_WORD})(?=\s+\S)"
    # Turkish puts "before" after the step it follows: "commit atmadan önce her zaman …"
    rf"|^(?:\S+\s+){{1,3}}?(?:önce|öncesinde)\s+(?:{_RULE_WORD})(?=\s+\S)",
    re.IGNORECASE,
)
#: A rule word opening a sentence whose verb is in a form only an instruction takes: the
#: Russian or Ukrainian imperative ("Всегда пиши тесты", not "Всегда падает"), the Polish one
#: ("Zawsze uruchamiaj testy"), the Turkish negative imperative closing a "never" sentence
#: ("Asla main'e push yapma", not "Asla çalışmıyor").
_RULE_IMPERATIVE = re.compile(
    r"^(?:(?:пожалуйста|будь ласка|proszę),?[ \t]+)?"
    r"(?:(?:всегда|завжди)|(?:никогда|ніколи)[ \t]+не)[ \t]+\w+(?:и|й|ь|йте|ите|ьте|іть)(?!\w)"
    r"|^(?:proszę,?[ \t]+)?(?:zawsze|nigdy[ \t]+nie)[ \t]+\w+(?:j|jcie|sz|cie)(?!\w)"
    r"|^(?:lütfen,?[ \t]+)?(?:asla|hiçbir zaman|hiç bir zaman)[ \t][^.!?]*\w(?:ma|me|mayın|"
    r"meyin|mayınız|meyiniz)[ \t]*[.!]*$",
    re.IGNORECASE,
)
#: Words after which a rule word reports how something behaves or what happened ("siempre
#: falla", "sempre dá erro", "fallisce sempre", "het faalt altijd", "nunca vi isso"): a
#: pronoun, an article, a form of "be" or "have", a verb of failing, working or returning.
_REPORTED = (
    r"(?:me|te|se|nos|lo|la|le|les|los|las|mi|ti|si|ci|vi|ne|o|a|os|as|lhe|el|un|una|um|uma|il|"
    r"gli|de|het|een|dat|dit|er|ik|je|jij|we|wij|hij|zij|ze|yo|tú|él|ella|eu|você|ele|ela|io|tu|"
    r"lui|lei|que|quando|cuando|che|dove|donde|onde|als|wanneer|es|está|están|son|hay|era|fue|"
    r"é|são|era|foi|tem|têm|è|sono|ha|hanno|c'è|is|zijn|was|heeft|hebben|tengo|tiene|tenemos|"
    r"estamos|somos|hemos|podemos|temos|estamos|abbiamo|siamo|falla|fallan|funciona|funcionan|"
    r"pasa|sale|da|dan|tarda|devuelve|rompe|falha|falham|dá|quebra|retorna|trava|acontece|fica|"
    r"demora|passa|fallisce|falliscono|funziona|dà|va|crasha|restituisce|ritorna|succede|esce|"
    r"rimane|resta|faalt|werkt|gaat|lukt|loopt|geeft|crasht|blijft|aparece|aparecen|termina|"
    r"compila|ocurre|sucede|explota|peta|cuelga|muestra|roda|corre|trava|appare|compare|parte|"
    r"gira|komt|staat)(?![\w'])"
)
#: A rule word next to a verb in a language whose instruction and report can both open on it
#: ("Nunca commite direto na develop", "Usa sempre le f-string", "Gebruik altijd type hints",
#: "siempre usamos comillas simples"): a rule unless what sits by the rule word reports
#: (`_REPORTED`), or the verb is a past tense of the speaker ("nunca usé eso", "nunca usei").
_RULE_BY_VERB = re.compile(
    r"^(?:(?:por favor|per favore|alsjeblieft|graag),?[ \t]+)?"
    rf"(?:(?:siempre|nunca|jamás|sempre|jamais|altijd|nooit)[ \t]+(?!{_REPORTED})"
    r"(?:[^\W\d_]+(?<![éíóú])(?<!ei)(?<!ou)(?<!iu))(?=[ \t]+\S)"
    rf"|(?!{_REPORTED})[^\W\d_]+[ \t]+(?:siempre|sempre|altijd|nooit)(?=[ \t]+\S))"
    # "en este proyecto siempre usamos …", "noi usiamo sempre …": the team's way
    r"|(?:siempre|nunca|sempre)[ \t]+(?!(?:tenemos|estamos|somos|hemos|podemos|temos)\b)"
    r"\w+(?:amos|emos|imos)(?!\w)|\w+iamo[ \t]+sempre(?!\w)",
    re.IGNORECASE,
)
#: A time word that names things ahead ("今後の課題", "今后的计划": the plans ahead) sets no rule.
_MARKER = re.compile(rf"(?:{_FROM_NOW_ON}|{_EVERY_TIME})(?![の的])", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!;])\s+|[。！；]+|\n+")
_QUESTION = re.compile(r"[?？]|¿")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def standing_sentences(text: str) -> list[str]:
    """The sentences of a user message that set a rule for all later work in a language other
    than English (see the module's rules)."""
    plain = strip_markdown(own_words(text))
    found: list[str] = []
    for raw in _SENTENCE_END.split(plain):
        flat = " ".join(raw.split())
        if not flat or len(flat) > MAX_SENTENCE_CHARS or _QUESTION.search(flat):
            continue
        match = (
            _MARKER.search(flat)
            or _RULE_BEFORE.search(flat)
            or _RULE_IMPERATIVE.search(flat)
            or _RULE_BY_VERB.search(flat)
        )
        if match is None or not _bounded(flat, match):
            continue
        marker_only = match.re is _MARKER
        rest = flat[: match.start()] + " " + flat[match.end() :] if marker_only else flat
        if len(set(words_of(rest))) < MIN_WORDS:
            continue
        found.append(flat)
    return found[:MAX_PER_MESSAGE]


def _bounded(flat: str, match: re.Match[str]) -> bool:
    """A marker of a spaced script stands as whole words ("en adelante", not "en adelantado");
    one of Chinese, Japanese or Korean is followed by particles without a space."""
    if _CJK.search(match.group(0)):
        return True
    before = flat[match.start() - 1] if match.start() else " "
    after = flat[match.end()] if match.end() < len(flat) else " "
    return not before.isalpha() and not after.isalpha()


def standing_instructions(text: str) -> list[StatedPreference]:
    """The standing instructions a user message states in another language than English."""
    return [
        StatedPreference(
            key=_key(said),
            content=f"{_LEAD}: “{said.rstrip('.!;。！；')}”.",
            tags=("preference", TAG, STANDING_TAG),
            scope=Scope.PROJECT,
            importance=STANDING_IMPORTANCE,
            standing=True,
        )
        for said in standing_sentences(text)
    ]


def _key(said: str) -> str:
    digest = hashlib.sha256(" ".join(sorted(set(words_of(said)))).encode()).hexdigest()
    return f"{PREFIX}{digest[:12]}"
