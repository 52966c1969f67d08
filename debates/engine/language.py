"""Which language a question is in: the answer language of agents and reports.

Two passes, no dependency:

1. **Script.** Letters are counted per script. Kana means Japanese even when most
   characters are kanji (Japanese is not Chinese because it uses kanji), Hangul
   means Korean, Han alone means Chinese; Cyrillic, Greek, Arabic, Hebrew, Thai and
   Devanagari name their main language. A non-Latin script wins once it holds a
   fifth of the letters, so product names in Latin letters ("PostgreSQLに移行すべき
   ですか") do not turn a Japanese question into an English one — unless the Latin
   part is itself a sentence (three or more function words of one language).
2. **Vocabulary.** Latin-script text is scored by its function words (articles,
   pronouns, auxiliaries — the words every question has) and a few letters only one
   language uses (ß, ñ, ã). Ties and texts without any such word are English.

A statistical detector (py3langid) was measured against this: same answers on our
samples, but it needs numpy (45 MB) and takes ~3 s to load its model in every
worker, for languages whose fixed strings we would show in English anyway.
"""

from __future__ import annotations

import re
from functools import lru_cache

# English names for prompts ("Write ... in Japanese (日本語)"): a model follows a
# named language more reliably than "the language of the question".
LANGUAGE_NAMES = {
    "en": "English",
    "zh": "Simplified Chinese (简体中文)",
    "ja": "Japanese (日本語)",
    "ko": "Korean (한국어)",
    "fr": "French (français)",
    "de": "German (Deutsch)",
    "es": "Spanish (español)",
    "it": "Italian (italiano)",
    "pt": "Portuguese (português)",
    "nl": "Dutch (Nederlands)",
    "ru": "Russian (русский)",
    "uk": "Ukrainian (українська)",
    "el": "Greek (Ελληνικά)",
    "ar": "Arabic (العربية)",
    "fa": "Persian (فارسی)",
    "he": "Hebrew (עברית)",
    "th": "Thai (ไทย)",
    "hi": "Hindi (हिन्दी)",
}

_SCRIPTS: dict[str, re.Pattern[str]] = {
    "kana": re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]"),
    "han": re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"),
    "hangul": re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]"),
    "cyrillic": re.compile(r"[\u0400-\u04ff]"),
    "greek": re.compile(r"[\u0370-\u03ff]"),
    "arabic": re.compile(r"[\u0600-\u06ff\u0750-\u077f]"),
    "hebrew": re.compile(r"[\u0590-\u05ff]"),
    "thai": re.compile(r"[\u0e00-\u0e7f]"),
    "devanagari": re.compile(r"[\u0900-\u097f]"),
}
_NON_LATIN_SHARE = 0.2

# Function words: short, frequent, and (in this set) mostly unique to one language.
_WORDS: dict[str, set[str]] = {
    "en": set("the a an and or of to in on for with is are was be should we our you your "
              "it this that what which how why do does can will would not than from by at "
              "have has they their there who when".split()),
    "fr": set("le la les un une des et ou du de au aux est sont nous notre nos vous votre "
              "il elle ce cette ces que qui quoi pour avec sur dans pas ne faut-il "
              "devrions-nous doit-on devons-nous est-ce faut quel quelle plus pourquoi "
              "comment quand".split()),
    "de": set("der die das ein eine einen und oder ist sind wir unser unsere unseren sie "
              "es nicht mit auf für von zu zum zur im dem den des sollen sollten wie was "
              "warum wann lohnt sich auch noch nach bei".split()),
    "es": set("el la los las un una y o es son nosotros nuestro nuestra nuestros usted "
              "para con por en del al que qué cómo debemos deberíamos debería no más "
              "este esta".split()),
    "it": set("il lo la gli le un una e o è sono noi nostro nostra nostri per con su "
              "nel della del che come dovremmo dobbiamo non più questo questa".split()),
    "pt": set("o a os as um uma e ou é são nós nosso nossa nossos para com por em no na "
              "do da que como devemos deveríamos não mais este esta".split()),
    "nl": set("de het een en of is zijn wij we ons onze u jullie voor met op in van naar "
              "niet moeten moet zouden hoe wat waarom dit dat".split()),
}
_LETTERS: dict[str, str] = {"de": "äöüß", "es": "ñ¿¡", "pt": "ãõ", "fr": "œçèêë"}
_WORD = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")


def _script_counts(letters: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(_SCRIPTS, 0)
    for c in letters:
        for script, pattern in _SCRIPTS.items():
            if pattern.match(c):
                counts[script] += 1
                break
    return counts


def _vocabulary_scores(text: str) -> dict[str, float]:
    words = [w.lower().replace("’", "'") for w in _WORD.findall(text)]
    scores = {lang: float(sum(1 for w in words if w in vocab)) for lang, vocab in _WORDS.items()}
    lowered = text.lower()
    for lang, letters in _LETTERS.items():
        if any(c in lowered for c in letters):
            scores[lang] += 1.5
    # French elision (l'équipe, qu'il, d'un) is a strong sign on its own.
    scores["fr"] += sum(1 for w in words if re.match(r"^(?:l|d|qu|n|s|j|c)'", w))
    return scores


def _latin_language(text: str) -> tuple[str, float]:
    scores = _vocabulary_scores(text)
    best = max(scores, key=lambda lang: (scores[lang], lang == "en"))
    if scores[best] == 0 or scores[best] == scores["en"]:
        return "en", scores["en"]
    return best, scores[best]


def _non_latin_language(counts: dict[str, int], text: str) -> str | None:
    cjk = counts["kana"] + counts["han"] + counts["hangul"]
    if counts["hangul"] and counts["hangul"] >= counts["kana"]:
        return "ko"
    if counts["kana"] and counts["kana"] >= 0.1 * cjk:
        return "ja"
    if counts["han"]:
        return "zh"
    if counts["cyrillic"]:
        return "uk" if re.search(r"[іїєґІЇЄҐ]", text) else "ru"
    if counts["arabic"]:
        return "fa" if re.search(r"[پچژگ]", text) else "ar"
    for script, lang in (("greek", "el"), ("hebrew", "he"), ("thai", "th"),
                         ("devanagari", "hi")):
        if counts[script]:
            return lang
    return None


# The opening of a question decides its language; a 20,000-character context need not
# be read for that.
_SAMPLE_CHARS = 2000


@lru_cache(maxsize=256)  # every prompt of a debate asks again for the same question
def detect_language(text: str) -> str:
    """ISO 639-1 code of the language ``text`` is written in (``en`` when unsure)."""
    text = text[:_SAMPLE_CHARS]
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "en"
    counts = _script_counts(letters)
    non_latin = sum(counts.values())
    share = non_latin / len(letters)
    if share >= _NON_LATIN_SHARE:
        language = _non_latin_language(counts, text)
        latin, hits = _latin_language(text)
        # A Latin sentence quoting a few foreign words is still that sentence's language.
        if language is not None and (hits < 3 or share >= 0.5):
            return language
        return latin
    return _latin_language(text)[0]


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)
