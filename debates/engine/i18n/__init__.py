"""Fixed wording of reports, pages, stop explanations and notes, from the product's
own translations (never from the model).

English, Simplified Chinese and Japanese are complete (a test checks every key).
Any other language gets English headings around the model's native content
(protocols.md, "Language"). The Markdown report, the exports and the web synthesis
page all read these tables, so a debate reads the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable

Translator = Callable[..., str]

_EN = {
    # ---------------------------------------------------------------- report and page
    "title": "Council synthesis",
    "simulated": "**Simulated model — the content below is placeholder text produced "
                 "offline; configure a real model for real debates.**",
    "simulated_title": "Simulated model",
    "simulated_text": "the content below is placeholder text produced offline; configure a "
                      "real model for real debates.",
    "question": "Question",
    "protocol": "Protocol",
    "protocol_line": "{protocol} · {mode} ({agents} agents, threshold {threshold:.2f}, "
                     "max {rounds} rounds) · model {model}",
    "prompt_version": "prompt {version}",
    "stopped": "Stopped",
    "stopped_line": "{reason} after round {rounds} — {explanation}",
    "diagnostic": "Diagnostic",
    "diagnostic_line": "{label} — mean {mean_trend} {mean_before:.2f} → {mean_after:.2f}, "
                       "dispersion {disp_trend} {disp_before:.3f} → {disp_after:.3f}",
    "degraded": "Degraded",
    "recommended_path": "Recommended path",
    "divergence_report": "Divergence report (no recommendation: the panel genuinely disagrees)",
    "divergence_title": "Divergence report",
    "no_recommendation": "No recommendation: the panel genuinely disagrees.",
    "stakes": "What is at stake",
    "strongest": "Strongest evidence",
    "weakest": "Weakest evidence",
    "depends": "What each path depends on",
    "recommendation": "Recommendation",
    "path_risks": "Risks of this path",
    "what_resolves": "What would resolve it",
    "convergence": "Convergence",
    "convergence_chart": "Convergence chart",
    "metrics_header": "| round | mean | dispersion | agreement | new arguments | concessions "
                      "| decision |",
    "col.round": "round", "col.agents": "agents", "col.mean": "mean",
    "col.dispersion": "dispersion", "col.delta": "Δ mean", "col.new": "new arguments",
    "col.concessions": "concessions", "col.decision": "decision",
    "positions_round": "0 (positions)",
    "not_live": "Round {round}: {live} of {agents} agents live; the others' last stance and "
                "confidence are carried forward.",
    "live_of": "{live} of {agents} live",
    "verdicts": "Verdicts",
    "verdicts_line": "before the debate {before} · after the debate {after}",
    "verdicts_before": "Before the debate",
    "verdicts_after": "After the debate",
    "options": "Options",
    "split.first": "{n} of {of} {option}",
    "split.more": "{n} {option}",
    "split.sep": ", ",
    "split.none": "no verdicts among {of} agents",
    "verdict.for": "for", "verdict.against": "against", "verdict.conditional": "conditional",
    "col.agreement": "agreement", "col.verdict": "verdict",
    "agreement_legend": "agreement (share on the leading verdict)",
    "majority_badge": "majority",
    "risks": "Risks raised before anyone took a position (premortem)",
    "risks_header": "| risk | raised by | severity | after the debate |",
    "col.id": "id", "col.risk": "risk", "col.raised_by": "raised by",
    "col.severity": "severity", "col.after": "after the debate",
    "col.agent": "agent", "col.trail": "confidence by round", "col.final_stance": "final stance",
    "no_risks": "No risks were raised in the premortem.",
    "concerns": "Concerns that survived cross-examination",
    "no_concerns": "No concern survived cross-examination.",
    "disagreements": "Where they still disagree",
    "no_disagreements": "No disagreement left.",
    "consensus": "Agreed",
    "no_consensus": "No points everyone agreed on.",
    "assumptions": "Assumptions behind each final position",
    "claims": "Claims to verify before acting",
    "no_claims": "The verifier found no unverified factual claims.",
    "verifier_failed": "The verifier did not run successfully; treat factual claims as unchecked.",
    "none": "(none)",
    "agents": "Panel",
    "failed_in": "failed in {step}",
    "footer": "Cost: {cost} · {calls} calls · {prompt} prompt + {completion} completion tokens "
              "· {wall:.1f} s · prompt {version}",
    "usage": "Cost and tokens",
    "usage_line": "{cost} · {calls} calls{failed} · {prompt} prompt + {completion} completion "
                  "tokens · {wall:.1f} s · synthesis by {model}",
    "failed_calls": " ({n} failed)",
    "free_simulated": "free (simulated)",
    "cost_unknown": "unknown (no price for this model)",
    "continue": "continue",
    # ---------------------------------------------------------------- navigation
    "nav.debates": "Debates", "nav.debate": "Debate", "nav.synthesis": "Synthesis",
    "nav.debate_page": "Debate page", "nav.transcript": "Transcript",
    "nav.comments": "Comments", "nav.export_md": "Export Markdown",
    "nav.export_json": "Export JSON", "nav.printable": "Printable", "nav.comment": "comment",
    "comments_help": "Discuss the synthesis with your team; use comment next to a risk, "
                     "concern or disagreement to start a thread about it.",
    "open_comments": "Open the comments",
    "follow_up": "Follow-up",
    # ---------------------------------------------------------------- enumerations
    "reason.converged": "converged",
    "reason.genuine_disagreement": "genuine disagreement",
    "reason.diminishing_returns": "diminishing returns",
    "reason.max_rounds": "max rounds",
    "reason.stopped_by_user": "stopped by user",
    "label.healthy_doubt": "healthy doubt",
    "label.genuine_convergence": "genuine convergence",
    "label.false_consensus_risk": "false consensus risk",
    "label.polarization": "polarization",
    "label.mixed": "mixed",
    "label.still_apart": "still apart",
    "meaning.healthy_doubt": "confidence fell and spread out: the council surfaced genuine doubt",
    "meaning.genuine_convergence": "confidence rose and drew together on a shared verdict: agents "
                                 "convinced each other",
    "meaning.false_consensus_risk": "confidence drew together while the mean held: agents met in "
                                  "the middle without growing surer, a possible shared blind "
                                  "spot",
    "meaning.false_consensus_risk_unmoved": "they agreed without any agent moving by 0.03 or "
                                          "more: a possible shared blind spot",
    "meaning.polarization": "confidence rose and spread out: agents became more entrenched",
    "meaning.mixed": "no clear pattern",
    "meaning.still_apart_split": "confidence drew together, but verdicts stay split (agreement "
                                 "{agreement:.2f} < {needed:.2f}): not a consensus",
    "meaning.still_apart_spread": "confidence drew together, but the spread {disp:.3f} is still "
                                  "above the disagreement limit {limit:.3f}: not a consensus",
    "trend.rose": "rose", "trend.fell": "fell", "trend.stable": "stable",
    "trend.widened": "widened", "trend.narrowed": "narrowed",
    "follow.mitigated": "mitigated", "follow.partially": "partially", "follow.open": "open",
    "severity.high": "high", "severity.medium": "medium", "severity.low": "low",
    "claim.price": "price", "claim.statistic": "statistic", "claim.date": "date",
    "claim.availability": "availability", "claim.product_behaviour": "product behaviour",
    "claim.other": "other",
    "step.compose": "compose", "step.premortem": "premortem", "step.position": "position",
    "step.round": "round {round}", "step.synthesis": "synthesis", "step.verify": "verify",
    # ---------------------------------------------------------------- stop explanations
    "explain.converged": "dispersion {disp:.3f} < {threshold:.2f} and mean moved {delta:+.3f} "
                         "(|Δ| < {stable:.2f})",
    "explain.genuine_disagreement": "no new arguments and no concessions in round {round}, "
                                    "dispersion {disp:.3f} > 1.5 × {threshold:.2f} = "
                                    "{limit:.3f}",
    "explain.diminishing_returns": "no new arguments and no concessions in round {round}, "
                                   "dispersion {disp:.3f} <= 1.5 × {threshold:.2f} = "
                                   "{limit:.3f}",
    "explain.max_rounds": "reached the cap of {max_rounds} rounds (dispersion {disp:.3f}, "
                          "mean moved {delta:+.3f}, {new} new arguments, {conc} concessions)",
    "explain.verdicts": "; verdicts: {split} (agreement {agreement:.2f})",
    "explain.split_verdicts": "no new arguments and no concessions in round {round}, "
                              "verdicts split: agreement {agreement:.2f} < {needed:.2f}",
    "explain.continue": "continue",
    "explain.forced": "the rule said {reason} ({explanation}); a user asked for one more round",
    "explain.stopped_by_user": "stopped by a user after {rounds} round(s)",
    "explain.one_more_round": "stopped after round {round}, the one more round a user asked for",
    # ---------------------------------------------------------------- degraded notes
    "note.failed": "{name} failed in {step} ({error}); their last stance and confidence "
                   "still count, carried forward and marked not live.",
    "note.failed_early": "{name} failed in {step} ({error}); later steps ran without them.",
    "note.composed": "The panel was composed with {got} of {wanted} requested personas.",
    "note.final_round": "The final round ran with {live} of {total} agents live.",
    "note.verifier": "The claim verifier failed ({error}); claims are unchecked.",
    "fallback_divergence": "The panel ended in genuine disagreement; no path is recommended.",
    "not_assessed": "not assessed by the synthesis",
}

_ZH = {
    "title": "专家组综合结论",
    "simulated": "**模拟模型——以下内容为离线生成的占位文本；请配置真实模型以进行真实讨论。**",
    "simulated_title": "模拟模型",
    "simulated_text": "以下内容为离线生成的占位文本；请配置真实模型以进行真实讨论。",
    "question": "问题",
    "protocol": "协议",
    "protocol_line": "{protocol} · {mode}（{agents} 位专家，阈值 {threshold:.2f}，"
                     "最多 {rounds} 轮）· 模型 {model}",
    "prompt_version": "提示词 {version}",
    "stopped": "停止",
    "stopped_line": "第 {rounds} 轮后{reason}——{explanation}",
    "diagnostic": "诊断",
    "diagnostic_line": "{label}——平均置信度{mean_trend} {mean_before:.2f} → {mean_after:.2f}，"
                       "离散度{disp_trend} {disp_before:.3f} → {disp_after:.3f}",
    "degraded": "降级运行",
    "recommended_path": "建议路径",
    "divergence_report": "分歧报告（不给出建议：专家组存在真正的分歧）",
    "divergence_title": "分歧报告",
    "no_recommendation": "不给出建议：专家组存在真正的分歧。",
    "stakes": "利害所在",
    "strongest": "最有力的证据",
    "weakest": "最薄弱的证据",
    "depends": "各路径的依赖条件",
    "recommendation": "建议",
    "path_risks": "该路径的风险",
    "what_resolves": "如何化解分歧",
    "convergence": "收敛过程",
    "convergence_chart": "收敛图",
    "metrics_header": "| 轮次 | 平均值 | 离散度 | 一致度 | 新论点 | 让步 | 决定 |",
    "col.round": "轮次", "col.agents": "专家数", "col.mean": "平均值",
    "col.dispersion": "离散度", "col.delta": "平均值变化", "col.new": "新论点",
    "col.concessions": "让步", "col.decision": "决定",
    "positions_round": "0（初始立场）",
    "not_live": "第 {round} 轮：{agents} 位专家中 {live} 位在线；"
                "其余专家沿用其最后的立场和置信度。",
    "live_of": "{agents} 位中 {live} 位在线",
    "verdicts": "裁决",
    "verdicts_line": "讨论前 {before} · 讨论后 {after}",
    "verdicts_before": "讨论前",
    "verdicts_after": "讨论后",
    "options": "选项",
    "split.first": "{of} 位中 {n} 位{option}",
    "split.more": "{n} 位{option}",
    "split.sep": "，",
    "split.none": "{of} 位专家均未给出裁决",
    "verdict.for": "赞成", "verdict.against": "反对", "verdict.conditional": "有条件赞成",
    "col.agreement": "一致度", "col.verdict": "裁决",
    "agreement_legend": "一致度（持主流裁决者的比例）",
    "majority_badge": "多数",
    "risks": "表态之前提出的风险（事前验尸）",
    "risks_header": "| 风险 | 提出者 | 严重程度 | 讨论后 |",
    "col.id": "编号", "col.risk": "风险", "col.raised_by": "提出者",
    "col.severity": "严重程度", "col.after": "讨论后",
    "col.agent": "专家", "col.trail": "各轮置信度", "col.final_stance": "最终立场",
    "no_risks": "事前验尸中未提出风险。",
    "concerns": "经交叉质询后仍存在的顾虑",
    "no_concerns": "没有顾虑在交叉质询后仍然存在。",
    "disagreements": "仍存在分歧之处",
    "no_disagreements": "已无分歧。",
    "consensus": "共识",
    "no_consensus": "没有所有人都认同的观点。",
    "assumptions": "各最终立场背后的假设",
    "claims": "行动前需核实的说法",
    "no_claims": "核查器未发现未经核实的事实性说法。",
    "verifier_failed": "核查器未能成功运行；事实性说法均未经核查。",
    "none": "（无）",
    "agents": "专家组",
    "failed_in": "在{step}失败",
    "footer": "费用：{cost} · {calls} 次调用 · {prompt} 输入 + {completion} 输出 token "
              "· {wall:.1f} 秒 · 提示词 {version}",
    "usage": "费用与 token",
    "usage_line": "{cost} · {calls} 次调用{failed} · {prompt} 输入 + {completion} 输出 token "
                  "· {wall:.1f} 秒 · 综合由 {model} 完成",
    "failed_calls": "（{n} 次失败）",
    "free_simulated": "免费（模拟）",
    "cost_unknown": "未知（该模型无价格信息）",
    "continue": "继续",
    "nav.debates": "讨论列表", "nav.debate": "讨论", "nav.synthesis": "综合结论",
    "nav.debate_page": "讨论页面", "nav.transcript": "完整记录",
    "nav.comments": "评论", "nav.export_md": "导出 Markdown",
    "nav.export_json": "导出 JSON", "nav.printable": "打印版", "nav.comment": "评论",
    "comments_help": "与团队讨论这份综合结论；点击风险、顾虑或分歧旁的“评论”即可发起讨论。",
    "open_comments": "打开评论",
    "follow_up": "后续行动",
    "reason.converged": "已收敛",
    "reason.genuine_disagreement": "真正的分歧",
    "reason.diminishing_returns": "收益递减",
    "reason.max_rounds": "达到最大轮数",
    "reason.stopped_by_user": "用户停止",
    "label.healthy_doubt": "健康的怀疑",
    "label.genuine_convergence": "真正的收敛",
    "label.false_consensus_risk": "虚假共识风险",
    "label.polarization": "两极分化",
    "label.mixed": "混合",
    "label.still_apart": "仍有分歧",
    "meaning.healthy_doubt": "置信度下降且更分散：专家组揭示了真正的疑虑",
    "meaning.genuine_convergence": "置信度上升并趋于一致，且结论相同：专家们说服了彼此",
    "meaning.false_consensus_risk": "平均置信度不变而分散度收窄：专家们折中靠拢却没有更确定，"
                                    "可能存在共同盲点",
    "meaning.false_consensus_risk_unmoved": "没有任何专家的置信度变化达到 0.03 就达成一致："
                                            "可能存在共同盲点",
    "meaning.polarization": "置信度上升且更分散：专家们的立场更加固化",
    "meaning.mixed": "没有明显规律",
    "meaning.still_apart_split": "置信度趋于一致，但结论仍然分裂（一致度 {agreement:.2f} < "
                                "{needed:.2f}）：并非共识",
    "meaning.still_apart_spread": "置信度趋于一致，但分散度 {disp:.3f} 仍高于分歧界限 "
                                  "{limit:.3f}：并非共识",
    "trend.rose": "上升", "trend.fell": "下降", "trend.stable": "稳定",
    "trend.widened": "扩大", "trend.narrowed": "缩小",
    "follow.mitigated": "已缓解", "follow.partially": "部分缓解", "follow.open": "未解决",
    "severity.high": "高", "severity.medium": "中", "severity.low": "低",
    "claim.price": "价格", "claim.statistic": "统计数据", "claim.date": "日期",
    "claim.availability": "可用性", "claim.product_behaviour": "产品行为", "claim.other": "其他",
    "step.compose": "组建专家组", "step.premortem": "事前验尸", "step.position": "初始立场",
    "step.round": "第 {round} 轮", "step.synthesis": "综合", "step.verify": "核查",
    "explain.converged": "离散度 {disp:.3f} < {threshold:.2f}，平均值变化 {delta:+.3f}"
                         "（|Δ| < {stable:.2f}）",
    "explain.genuine_disagreement": "第 {round} 轮没有新论点也没有让步，"
                                    "离散度 {disp:.3f} > 1.5 × {threshold:.2f} = {limit:.3f}",
    "explain.diminishing_returns": "第 {round} 轮没有新论点也没有让步，"
                                   "离散度 {disp:.3f} <= 1.5 × {threshold:.2f} = {limit:.3f}",
    "explain.max_rounds": "达到 {max_rounds} 轮上限（离散度 {disp:.3f}，平均值变化 {delta:+.3f}，"
                          "{new} 个新论点，{conc} 次让步）",
    "explain.verdicts": "；裁决：{split}（一致度 {agreement:.2f}）",
    "explain.split_verdicts": "第 {round} 轮没有新论点也没有让步，"
                              "裁决分歧：一致度 {agreement:.2f} < {needed:.2f}",
    "explain.continue": "继续",
    "explain.forced": "规则判定为{reason}（{explanation}）；用户要求再进行一轮",
    "explain.stopped_by_user": "用户在第 {rounds} 轮后停止",
    "explain.one_more_round": "在第 {round} 轮后停止，即用户要求的再一轮",
    "note.failed": "{name} 在{step}失败（{error}）；"
                   "其最后的立场和置信度仍计入，沿用并标记为不在线。",
    "note.failed_early": "{name} 在{step}失败（{error}）；后续步骤在没有其参与的情况下进行。",
    "note.composed": "专家组仅组建了所请求的 {wanted} 位中的 {got} 位。",
    "note.final_round": "最后一轮 {total} 位专家中有 {live} 位在线。",
    "note.verifier": "说法核查器失败（{error}）；说法未经核查。",
    "fallback_divergence": "专家组最终存在真正的分歧；不推荐任何路径。",
    "not_assessed": "综合结论未评估",
}

_JA = {
    "title": "評議会の総括",
    "simulated": "**シミュレーションモデル — 以下はオフラインで生成された仮のテキストです。"
                 "実際の議論には実在のモデルを設定してください。**",
    "simulated_title": "シミュレーションモデル",
    "simulated_text": "以下はオフラインで生成された仮のテキストです。"
                      "実際の議論には実在のモデルを設定してください。",
    "question": "質問",
    "protocol": "プロトコル",
    "protocol_line": "{protocol} · {mode}（エージェント {agents} 名、しきい値 {threshold:.2f}、"
                     "最大 {rounds} ラウンド）· モデル {model}",
    "prompt_version": "プロンプト {version}",
    "stopped": "終了",
    "stopped_line": "ラウンド {rounds} の後に{reason} — {explanation}",
    "diagnostic": "診断",
    "diagnostic_line": "{label} — 平均確信度は{mean_trend} {mean_before:.2f} → {mean_after:.2f}、"
                       "ばらつきは{disp_trend} {disp_before:.3f} → {disp_after:.3f}",
    "degraded": "縮退運転",
    "recommended_path": "推奨される方針",
    "divergence_report": "意見の相違レポート（推奨なし：パネルの意見が本当に分かれています）",
    "divergence_title": "意見の相違レポート",
    "no_recommendation": "推奨なし：パネルの意見が本当に分かれています。",
    "stakes": "何が懸かっているか",
    "strongest": "最も強い根拠",
    "weakest": "最も弱い根拠",
    "depends": "各方針が前提とするもの",
    "recommendation": "推奨",
    "path_risks": "この方針のリスク",
    "what_resolves": "何があれば決着するか",
    "convergence": "収束の経過",
    "convergence_chart": "収束グラフ",
    "metrics_header": "| ラウンド | 平均 | ばらつき | 一致度 | 新しい論点 | 譲歩 | 判定 |",
    "col.round": "ラウンド", "col.agents": "エージェント数", "col.mean": "平均",
    "col.dispersion": "ばらつき", "col.delta": "平均の変化", "col.new": "新しい論点",
    "col.concessions": "譲歩", "col.decision": "判定",
    "positions_round": "0（初期見解）",
    "not_live": "ラウンド {round}：{agents} 名中 {live} 名が応答。"
                "他のエージェントは最後の見解と確信度を引き継いでいます。",
    "live_of": "{agents} 名中 {live} 名が応答",
    "verdicts": "判断",
    "verdicts_line": "議論前 {before} · 議論後 {after}",
    "verdicts_before": "議論前",
    "verdicts_after": "議論後",
    "options": "選択肢",
    "split.first": "{of} 名中 {n} 名が{option}",
    "split.more": "{n} 名が{option}",
    "split.sep": "、",
    "split.none": "{of} 名とも判断なし",
    "verdict.for": "賛成", "verdict.against": "反対", "verdict.conditional": "条件付き",
    "col.agreement": "一致度", "col.verdict": "判断",
    "agreement_legend": "一致度（最多の判断を選んだ割合）",
    "majority_badge": "多数派",
    "risks": "見解表明前に挙げられたリスク（プレモーテム）",
    "risks_header": "| リスク | 指摘者 | 深刻度 | 議論後 |",
    "col.id": "ID", "col.risk": "リスク", "col.raised_by": "指摘者",
    "col.severity": "深刻度", "col.after": "議論後",
    "col.agent": "エージェント", "col.trail": "ラウンドごとの確信度",
    "col.final_stance": "最終見解",
    "no_risks": "プレモーテムではリスクは挙げられませんでした。",
    "concerns": "反対尋問を経ても残った懸念",
    "no_concerns": "反対尋問を経て残った懸念はありません。",
    "disagreements": "まだ意見が分かれている点",
    "no_disagreements": "意見の相違は残っていません。",
    "consensus": "合意点",
    "no_consensus": "全員が合意した点はありません。",
    "assumptions": "各最終見解の前提",
    "claims": "行動前に確認すべき主張",
    "no_claims": "検証器は未確認の事実に関する主張を見つけませんでした。",
    "verifier_failed": "検証器が正常に実行されませんでした。"
                       "事実に関する主張は未確認として扱ってください。",
    "none": "（なし）",
    "agents": "パネル",
    "failed_in": "{step}で失敗",
    "footer": "費用：{cost} · {calls} 回の呼び出し · 入力 {prompt} + 出力 {completion} トークン "
              "· {wall:.1f} 秒 · プロンプト {version}",
    "usage": "費用とトークン",
    "usage_line": "{cost} · {calls} 回の呼び出し{failed} · 入力 {prompt} + 出力 {completion} "
                  "トークン · {wall:.1f} 秒 · 総括モデル {model}",
    "failed_calls": "（{n} 回失敗）",
    "free_simulated": "無料（シミュレーション）",
    "cost_unknown": "不明（このモデルの価格情報なし）",
    "continue": "継続",
    "nav.debates": "議論一覧", "nav.debate": "議論", "nav.synthesis": "総括",
    "nav.debate_page": "議論ページ", "nav.transcript": "記録",
    "nav.comments": "コメント", "nav.export_md": "Markdown で書き出し",
    "nav.export_json": "JSON で書き出し", "nav.printable": "印刷用", "nav.comment": "コメント",
    "comments_help": "この総括についてチームで話し合えます。リスク、懸念、相違点の横にある"
                     "「コメント」からスレッドを始めてください。",
    "open_comments": "コメントを開く",
    "follow_up": "フォローアップ",
    "reason.converged": "収束",
    "reason.genuine_disagreement": "本質的な意見の相違",
    "reason.diminishing_returns": "収穫逓減",
    "reason.max_rounds": "最大ラウンド数に到達",
    "reason.stopped_by_user": "ユーザーによる停止",
    "label.healthy_doubt": "健全な疑念",
    "label.genuine_convergence": "真の収束",
    "label.false_consensus_risk": "見せかけの合意のリスク",
    "label.polarization": "二極化",
    "label.mixed": "混在",
    "label.still_apart": "なお隔たりあり",
    "meaning.healthy_doubt": "確信度が下がり、ばらつきが広がった：評議会が本当の疑念を"
                             "浮かび上がらせた",
    "meaning.genuine_convergence": "確信度が上がって近づき、判断も一致した：エージェント同士が"
                                   "互いを納得させた",
    "meaning.false_consensus_risk": "平均は変わらずばらつきが縮んだ：確信を強めないまま歩み寄った、"
                                    "共通の盲点の可能性",
    "meaning.false_consensus_risk_unmoved": "どのエージェントも 0.03 以上動かないまま合意した："
                                            "共通の盲点の可能性",
    "meaning.polarization": "確信度が上がり、ばらつきが広がった：エージェントの立場がより固まった",
    "meaning.mixed": "明確な傾向なし",
    "meaning.still_apart_split": "確信度は近づいたが、判断は割れたまま（一致度 {agreement:.2f} < "
                                 "{needed:.2f}）：合意ではない",
    "meaning.still_apart_spread": "確信度は近づいたが、ばらつき {disp:.3f} はなお不一致の基準 "
                                  "{limit:.3f} を上回る：合意ではない",
    "trend.rose": "上昇", "trend.fell": "低下", "trend.stable": "横ばい",
    "trend.widened": "拡大", "trend.narrowed": "縮小",
    "follow.mitigated": "緩和済み", "follow.partially": "一部対応", "follow.open": "未解決",
    "severity.high": "高", "severity.medium": "中", "severity.low": "低",
    "claim.price": "価格", "claim.statistic": "統計", "claim.date": "日付",
    "claim.availability": "入手可能性", "claim.product_behaviour": "製品の挙動",
    "claim.other": "その他",
    "step.compose": "パネル編成", "step.premortem": "プレモーテム", "step.position": "初期見解",
    "step.round": "ラウンド {round}", "step.synthesis": "総括", "step.verify": "検証",
    "explain.converged": "ばらつき {disp:.3f} < {threshold:.2f}、平均の変化 {delta:+.3f}"
                         "（|Δ| < {stable:.2f}）",
    "explain.genuine_disagreement": "ラウンド {round} で新しい論点も譲歩もなく、"
                                    "ばらつき {disp:.3f} > 1.5 × {threshold:.2f} = {limit:.3f}",
    "explain.diminishing_returns": "ラウンド {round} で新しい論点も譲歩もなく、"
                                   "ばらつき {disp:.3f} <= 1.5 × {threshold:.2f} = {limit:.3f}",
    "explain.max_rounds": "上限の {max_rounds} ラウンドに到達（ばらつき {disp:.3f}、"
                          "平均の変化 {delta:+.3f}、新しい論点 {new} 件、譲歩 {conc} 件）",
    "explain.verdicts": "。判断：{split}（一致度 {agreement:.2f}）",
    "explain.split_verdicts": "ラウンド {round} で新しい論点も譲歩もなく、"
                              "判断が割れている：一致度 {agreement:.2f} < {needed:.2f}",
    "explain.continue": "継続",
    "explain.forced": "ルールの判定は{reason}（{explanation}）。ユーザーがもう 1 ラウンドを要求",
    "explain.stopped_by_user": "{rounds} ラウンドの後にユーザーが停止",
    "explain.one_more_round": "ユーザーが要求したもう 1 ラウンド（第 {round} ラウンド）の後に停止",
    "note.failed": "{name} は{step}で失敗しました（{error}）。最後の見解と確信度は"
                   "引き継がれて集計に残り、応答なしとして示されます。",
    "note.failed_early": "{name} は{step}で失敗しました（{error}）。以降の手順は {name} なしで"
                         "進みました。",
    "note.composed": "パネルは要求された {wanted} 名のうち {got} 名で編成されました。",
    "note.final_round": "最終ラウンドで応答したのは {total} 名中 {live} 名です。",
    "note.verifier": "主張の検証器が失敗しました（{error}）。主張は未確認です。",
    "fallback_divergence": "パネルの意見は最後まで本当に分かれたため、方針は推奨しません。",
    "not_assessed": "総括では評価されていません",
}

TRANSLATIONS = {"en": _EN, "zh": _ZH, "ja": _JA}


def translator(language: str) -> Translator:
    """``t(key, **values)``: the key's text in ``language`` (English for languages
    without a table, and for a key a table lacks)."""
    table = TRANSLATIONS.get(language, _EN)

    def t(key: str, **values: object) -> str:
        text = table.get(key, _EN[key])
        return text.format(**values) if values else text

    return t


def step_words(t: Translator, label: str) -> str:
    """A step's label (``premortem``, ``round 2`` — what ``Step.label`` and
    ``AgentResult.failed_in`` hold) in the translator's language."""
    if label.startswith("round "):
        return t("step.round", round=label.removeprefix("round "))
    return t(f"step.{label}") if f"step.{label}" in _EN else label
