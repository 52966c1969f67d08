"""What the pages and exports say about a result's ``quality`` (docs/web.md, "Quality").

The engine's content checks fill ``quality`` and ``quality_reasons`` on every result
(docs/engine.md); this module only words them for a reader: the banner, the label over a
recommendation that is not to be acted on, the transcript's markers, the list's and
the decisions' badges (the Markdown export's quality lines are the protocol report's
own). The words are the web's own (page strings stay out of the Django-free engine),
in the languages the engine's tables cover (en, zh, ja; English for the others).
"""

from __future__ import annotations

from collections.abc import Iterable

from debates.engine.schemas import Quality, QualityReason

_EN = {
    "title.doubtful": "Doubtful result",
    "title.unusable": "Unusable result",
    "text.doubtful": "the content checks found turns or a synthesis that look like noise; "
                     "read it with care and check what it says before relying on it.",
    "text.unusable": "the content checks found that the models' words carry no content. "
                     "Act on nothing here; re-run with a stronger model.",
    "hold.doubtful": "Read with care:",
    "hold.doubtful_text": "this result is doubtful (see the warning above).",
    "hold.unusable": "Not to act on:",
    "hold.unusable_text": "this result is unusable; what follows is shown for the record "
                          "only, not as a recommendation.",
    "marker": "flagged",
    "badge.doubtful": "doubtful", "badge.unusable": "unusable",
    "decided_on.doubtful": "decided on a doubtful result",
    "decided_on.unusable": "decided on an unusable result",
}
_ZH = {
    "title.doubtful": "结果存疑",
    "title.unusable": "结果不可用",
    "text.doubtful": "内容检查发现部分发言或综合看起来像噪声；请谨慎阅读，依赖之前先核实其内容。",
    "text.unusable": "内容检查发现模型的文字没有实际内容。请勿据此采取任何行动；"
                     "请换用更强的模型重新运行。",
    "hold.doubtful": "请谨慎阅读：",
    "hold.doubtful_text": "此结果存疑（见上方警告）。",
    "hold.unusable": "不可据此行动：",
    "hold.unusable_text": "此结果不可用；以下内容仅作记录，不是建议。",
    "marker": "已标记",
    "badge.doubtful": "存疑", "badge.unusable": "不可用",
    "decided_on.doubtful": "基于存疑结果的决定", "decided_on.unusable": "基于不可用结果的决定",
}
_JA = {
    "title.doubtful": "疑わしい結果",
    "title.unusable": "使えない結果",
    "text.doubtful": "内容チェックで、雑音のように見える発言や総括が見つかりました。"
                     "頼る前に内容を確かめながら慎重に読んでください。",
    "text.unusable": "内容チェックで、モデルの文章に中身がないことが分かりました。"
                     "ここに基づいて行動しないでください。より強いモデルで再実行してください。",
    "hold.doubtful": "慎重に読んでください：",
    "hold.doubtful_text": "この結果は疑わしいものです（上の警告を参照）。",
    "hold.unusable": "行動の根拠にしないでください：",
    "hold.unusable_text": "この結果は使えません。以下は記録として示すだけで、推奨ではありません。",
    "marker": "要注意",
    "badge.doubtful": "疑わしい", "badge.unusable": "使えない",
    "decided_on.doubtful": "疑わしい結果に基づく決定",
    "decided_on.unusable": "使えない結果に基づく決定",
}
TABLES = {"en": _EN, "zh": _ZH, "ja": _JA}


def quality_word(language: str, key: str) -> str:
    """``key``'s words in ``language`` (English where there is no table)."""
    return TABLES.get(language, _EN).get(key, _EN[key])


def is_flagged(quality: object) -> bool:
    """Whether a quality is worth a warning (doubtful or unusable)."""
    return str(quality or Quality.SOUND) != Quality.SOUND


def reasons_on_turn(reasons: Iterable[QualityReason], phase: str, round_: int,
                    agent: int) -> list[QualityReason]:
    """The reasons that name this turn: its phase, and its round and agent unless the
    reason leaves them open. Debate-wide reasons (no phase) belong to the banner."""
    return [q for q in reasons if q.phase == phase
            and q.round in (None, round_) and q.agent in (None, agent)]
