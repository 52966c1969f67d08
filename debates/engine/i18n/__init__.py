"""Fixed wording of reports, pages, stop explanations and notes, from the product's
own translations (never from the model).

English, Simplified Chinese and Japanese are complete (a test checks every key).
Any other language gets English headings around the model's native content
(docs/protocols.md 0, "Language"). The Markdown report, the exports and the web synthesis
page all read these tables, so a debate reads the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable

Translator = Callable[..., str]

_EN = {
    # ---------------------------------------------------------------- the live page
    "diagnostic_so_far": "Diagnostic so far",
    "diag.trends": "Mean {mean_trend} {mean_before} → {mean_after}, dispersion {disp_trend} "
                   "{disp_before} → {disp_after}.",
    "now": "now",
    "chart.title": "Each agent's confidence by round, the panel's dispersion (dashed) and "
                   "its agreement on a verdict (dotted)",
    "chart.empty": "The chart appears once the first positions are in.",
    "chart.point": "{name}, round {round}: {score}",
    "chart.positions": "pos.",
    "nav.action": "action",
    "nav.new_action": "New action…",
    "field.expertise": "Expertise", "field.background": "Background",
    "field.approach": "Approach", "field.bias": "Bias on this question",
    "field.failure_scenario": "How it failed", "field.root_causes": "Root causes",
    "field.early_warning_signals": "Early warning signals", "field.stance": "Stance",
    "field.confidence": "Confidence", "field.reasoning": "Reasoning",
    "field.key_assumptions": "Key assumptions", "field.updated_position": "Updated position",
    "field.updated_confidence": "Updated confidence", "field.concessions": "Concessions",
    "field.remaining_disagreements": "Remaining disagreements",
    "field.new_evidence_needed": "New evidence needed", "field.reflection": "Reflection",
    "value.none": "none", "value.unchanged": "unchanged", "value.yes": "yes", "value.no": "no",
    "panel.premortem": "Premortem", "panel.position": "Positions (round 0)",
    "turns_in": "{n}/{of} turns", "metric.new": "new",
    "participants.Agents": "Agents", "thinking": "thinking…",
    "conf_trail": "confidence: first position → now",
    "transcript.compose": "Compose: the panel",
    "transcript.synthesis": "Synthesis (the model's narrative)", "transcript.verify": "Verifier",
    "transcript.cross_exam": "Cross-examination, {round}", "transcript.expand": "Expand all",
    "transcript.collapse": "Collapse all", "transcript.verifier": "Verifier's report",
    "transcript.draft": "Synthesis model's draft", "transcript.failed": "failed",
    "transcript.library": "Library personas on the panel ({n}) are not composed and are "
                          "not listed here.",
    "transcript.empty": "No turns yet.",
    "head.council": "{agents} agents · up to {rounds} rounds · threshold {threshold} · model",
    "head.anonymised": "anonymised peers", "head.started": "started {when}",
    "head.by": "by {who}", "head.full_question": "Full question",
    "head.characters": "{n} characters", "head.background": "Background",
    "status.queued": "Queued", "status.running": "Running", "status.succeeded": "Succeeded",
    "status.failed": "Failed", "status.cancelled": "Cancelled",
    "event.answered": "{step}: {who} answered", "event.turn_failed": "{step}: {who} failed",
    "event.panel": "panel", "event.started": "{step} started",
    "event.finished": "{step} finished", "event.debate_created": "debate created",
    "event.debate_finished": "debate finished", "event.debate_failed": "debate failed",
    "event.debate_cancelled": "debate cancelled", "event.stop_requested": "stop requested",
    "event.resumed": "resumed", "event.resume_stalled": "resume stalled",
    "live_usage_line": "{cost} · {calls} calls · {prompt} prompt + {completion} completion "
                       "tokens · {seconds} s",
    "cost.simulated": "free (simulated)", "cost.unknown": "cost unknown",
    "action.more_round": "One more round", "action.rerun": "Re-run…",
    "action.stop": "Stop now & synthesise", "action.cancel": "Cancel",
    "nav.read_synthesis": "Read the full synthesis", "activity_log": "Activity log",
    "nav.no_actions": "No actions yet.",
    "state.done": "done", "state.running": "running", "state.pending": "pending",
    "state.failed": "failed", "state.cancelled": "cancelled", "state.skipped": "skipped",
    "check.mark": "Mark checked", "check.change": "Change the check",
    "check.question": "What did you find?", "check.undo": "Not checked after all",
    "check.checked": "checked", "check.by": "by {who} on {date}", "check.someone": "someone",
    "nav.action_hint": "or use “action” next to a risk or a claim to verify.",
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
    "nav.export_md_threads": "Markdown with comments",
    "decision.team": "Team decision:",
    "decision.another": "(another choice)",
    "decision.state.decided": "Decided",
    "decision.state.review_due": "Review due",
    "decision.state.reviewed": "Reviewed",
    "decision.decided": "Decided {date} by {who}",
    "decision.review_on": "review on {date}",
    "decision.no_review": "no review",
    "decision.earlier": "{n} earlier version(s)",
    "decision.change": "change",
    "decision.none": "No decision recorded yet.",
    "decision.record": "Record the team's decision",
    "decision.outcome": "Outcome:",
    "decision.proved_right": "proved right",
    "decision.result.worked": "result: worked",
    "decision.result.mixed": "result: mixed",
    "decision.result.failed": "result: failed",
    "decision.cant_tell": "Last review ({date}): can't tell yet.",
    "decision.review_now": "Review it now",
    "decision.review_again": "review again",
    "decision.record_outcome": "record the outcome",
    "nav.export_json": "Export JSON", "nav.printable": "Printable", "nav.comment": "comment",
    "comments_help": "Discuss the synthesis with your team: select text in it and press "
                     "Comment, or use comment next to a risk, concern or disagreement.",
    "comments_help_read": "Your team's discussion of this synthesis.",
    "nav.comment_selection": "Comment", "nav.your_comment": "Your comment",
    "nav.cancel": "Cancel",
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
    "step.phase": "phase {n}", "step.propose": "propose {n}", "step.critique": "critique {n}",
    "step.convergence check": "convergence check",
    "step.convergence": "convergence {n}", "phase.propose": "propose",
    "phase.critique": "critique", "phase.analysis": "analysis",
    "phase.discussion": "discussion", "phase.convergence": "convergence",
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
    # ---------------------------------------------------------------- the live page
    "diagnostic_so_far": "目前的诊断",
    "diag.trends": "平均置信度{mean_trend} {mean_before} → {mean_after}，分散度{disp_trend} "
                   "{disp_before} → {disp_after}。",
    "now": "当前",
    "chart.title": "每位成员各轮的置信度、专家组的分散度（虚线）及其在裁决上的一致度（点线）",
    "chart.empty": "第一批立场给出后显示图表。",
    "chart.point": "{name}，第 {round} 轮：{score}",
    "chart.positions": "立场",
    "nav.action": "行动",
    "nav.new_action": "新建行动…",
    "field.expertise": "专长", "field.background": "背景",
    "field.approach": "分析方法", "field.bias": "在此问题上的偏向",
    "field.failure_scenario": "失败经过", "field.root_causes": "根本原因",
    "field.early_warning_signals": "早期预警信号", "field.stance": "立场",
    "field.confidence": "置信度", "field.reasoning": "理由",
    "field.key_assumptions": "关键假设", "field.updated_position": "更新后的立场",
    "field.updated_confidence": "更新后的置信度", "field.concessions": "让步",
    "field.remaining_disagreements": "仍存在的分歧",
    "field.new_evidence_needed": "需要的新证据", "field.reflection": "反思",
    "value.none": "无", "value.unchanged": "未变", "value.yes": "是", "value.no": "否",
    "panel.premortem": "事前验尸", "panel.position": "初始立场（第 0 轮）",
    "turns_in": "{n}/{of} 个发言", "metric.new": "新论点",
    "participants.Agents": "成员", "thinking": "思考中…",
    "conf_trail": "置信度：初始立场 → 当前",
    "transcript.compose": "组建专家组", "transcript.synthesis": "综合（模型的叙述）",
    "transcript.verify": "核查", "transcript.cross_exam": "交叉质询，{round}",
    "transcript.expand": "全部展开", "transcript.collapse": "全部收起",
    "transcript.verifier": "核查报告", "transcript.draft": "综合模型的草稿",
    "transcript.failed": "失败",
    "transcript.library": "专家组中的库成员（{n} 位）不是组建的，此处不列出。",
    "transcript.empty": "尚无发言。",
    "head.council": "{agents} 位成员 · 最多 {rounds} 轮 · 阈值 {threshold} · 模型",
    "head.anonymised": "匿名同伴", "head.started": "开始于 {when}",
    "head.by": "发起人 {who}", "head.full_question": "完整问题",
    "head.characters": "{n} 个字符", "head.background": "背景",
    "status.queued": "排队中", "status.running": "进行中", "status.succeeded": "已完成",
    "status.failed": "失败", "status.cancelled": "已取消",
    "event.answered": "{step}：{who} 已回答", "event.turn_failed": "{step}：{who} 失败",
    "event.panel": "专家组", "event.started": "{step} 开始",
    "event.finished": "{step} 完成", "event.debate_created": "讨论已创建",
    "event.debate_finished": "讨论已结束", "event.debate_failed": "讨论失败",
    "event.debate_cancelled": "讨论已取消", "event.stop_requested": "已请求停止",
    "event.resumed": "已恢复", "event.resume_stalled": "恢复停滞",
    "live_usage_line": "{cost} · {calls} 次调用 · 输入 {prompt} + 输出 {completion} token · "
                       "{seconds} 秒",
    "cost.simulated": "免费（模拟）", "cost.unknown": "费用未知",
    "action.more_round": "再进行一轮", "action.rerun": "重新运行…",
    "action.stop": "立即停止并综合", "action.cancel": "取消",
    "nav.read_synthesis": "阅读完整综合结论", "activity_log": "活动记录",
    "nav.no_actions": "尚无行动。",
    "state.done": "已完成", "state.running": "进行中", "state.pending": "等待中",
    "state.failed": "失败", "state.cancelled": "已取消", "state.skipped": "已跳过",
    "check.mark": "标记为已核实", "check.change": "修改核实结果",
    "check.question": "你发现了什么？", "check.undo": "撤销核实",
    "check.checked": "已核实", "check.by": "由 {who} 于 {date}", "check.someone": "某人",
    "nav.action_hint": "或在风险或待核实的说法旁使用“行动”。",
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
    "nav.export_md_threads": "含评论的 Markdown",
    "decision.team": "团队决定：",
    "decision.another": "（其他选择）",
    "decision.state.decided": "已决定",
    "decision.state.review_due": "待复盘",
    "decision.state.reviewed": "已复盘",
    "decision.decided": "{who} 于 {date} 决定",
    "decision.review_on": "复盘日期 {date}",
    "decision.no_review": "不复盘",
    "decision.earlier": "早先版本：{n}",
    "decision.change": "修改",
    "decision.none": "尚未记录决定。",
    "decision.record": "记录团队的决定",
    "decision.outcome": "结果：",
    "decision.proved_right": "被证明是对的",
    "decision.result.worked": "结果：成功",
    "decision.result.mixed": "结果：好坏参半",
    "decision.result.failed": "结果：失败",
    "decision.cant_tell": "上次复盘（{date}）：尚无法判断。",
    "decision.review_now": "现在复盘",
    "decision.review_again": "再次复盘",
    "decision.record_outcome": "记录结果",
    "nav.export_json": "导出 JSON", "nav.printable": "打印版", "nav.comment": "评论",
    "comments_help": "与团队讨论这份综合结论：选中其中的文字并点击“评论”，"
                     "或点击风险、顾虑或分歧旁的“评论”。",
    "comments_help_read": "团队对这份综合结论的讨论。",
    "nav.comment_selection": "评论", "nav.your_comment": "你的评论", "nav.cancel": "取消",
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
    "step.phase": "阶段 {n}", "step.propose": "第 {n} 轮提案", "step.critique": "第 {n} 轮评审",
    "step.convergence check": "收敛检查",
    "step.convergence": "第 {n} 次收敛检查", "phase.propose": "提案",
    "phase.critique": "评审", "phase.analysis": "分析",
    "phase.discussion": "讨论", "phase.convergence": "收敛检查",
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
    # ---------------------------------------------------------------- the live page
    "diagnostic_so_far": "現時点の診断",
    "diag.trends": "平均確信度は{mean_trend} {mean_before} → {mean_after}、分散は{disp_trend} "
                   "{disp_before} → {disp_after}。",
    "now": "実行中",
    "chart.title": "各エージェントのラウンドごとの確信度、パネルの分散（破線）と"
                   "判断の一致度（点線）",
    "chart.empty": "最初の見解がそろうとグラフが表示されます。",
    "chart.point": "{name}、ラウンド {round}：{score}",
    "chart.positions": "見解",
    "nav.action": "アクション",
    "nav.new_action": "新しいアクション…",
    "field.expertise": "専門分野", "field.background": "経歴",
    "field.approach": "分析の方法", "field.bias": "この問いに対する偏り",
    "field.failure_scenario": "失敗の経緯", "field.root_causes": "根本原因",
    "field.early_warning_signals": "早期の警告サイン", "field.stance": "見解",
    "field.confidence": "確信度", "field.reasoning": "理由",
    "field.key_assumptions": "主要な前提", "field.updated_position": "更新後の見解",
    "field.updated_confidence": "更新後の確信度", "field.concessions": "譲歩",
    "field.remaining_disagreements": "残る相違点",
    "field.new_evidence_needed": "必要な新しい根拠", "field.reflection": "振り返り",
    "value.none": "なし", "value.unchanged": "変化なし", "value.yes": "はい", "value.no": "いいえ",
    "panel.premortem": "プレモーテム", "panel.position": "初期見解（ラウンド 0）",
    "turns_in": "{n}/{of} 件の発言", "metric.new": "新しい論点",
    "participants.Agents": "エージェント", "thinking": "考え中…",
    "conf_trail": "確信度：初期見解 → 現在",
    "transcript.compose": "パネル編成", "transcript.synthesis": "総括（モデルの記述）",
    "transcript.verify": "検証", "transcript.cross_exam": "相互検討、{round}",
    "transcript.expand": "すべて開く", "transcript.collapse": "すべて閉じる",
    "transcript.verifier": "検証レポート", "transcript.draft": "総括モデルの草稿",
    "transcript.failed": "失敗",
    "transcript.library": "パネルのライブラリのペルソナ（{n} 名）は編成されたものではないため、"
                          "ここには表示されません。",
    "transcript.empty": "まだ発言はありません。",
    "head.council": "エージェント {agents} 名 · 最大 {rounds} ラウンド · しきい値 {threshold} "
                    "· モデル",
    "head.anonymised": "匿名の相手", "head.started": "開始 {when}",
    "head.by": "開始者 {who}", "head.full_question": "質問の全文",
    "head.characters": "{n} 文字", "head.background": "背景",
    "status.queued": "待機中", "status.running": "実行中", "status.succeeded": "完了",
    "status.failed": "失敗", "status.cancelled": "中止",
    "event.answered": "{step}：{who} が回答", "event.turn_failed": "{step}：{who} が失敗",
    "event.panel": "パネル", "event.started": "{step} 開始",
    "event.finished": "{step} 完了", "event.debate_created": "議論を作成",
    "event.debate_finished": "議論が終了", "event.debate_failed": "議論が失敗",
    "event.debate_cancelled": "議論を中止", "event.stop_requested": "停止を要求",
    "event.resumed": "再開", "event.resume_stalled": "再開が停滞",
    "live_usage_line": "{cost} · {calls} 回の呼び出し · 入力 {prompt} + 出力 {completion} "
                       "トークン · {seconds} 秒",
    "cost.simulated": "無料（シミュレーション）", "cost.unknown": "費用不明",
    "action.more_round": "もう1ラウンド", "action.rerun": "再実行…",
    "action.stop": "今すぐ停止して総括", "action.cancel": "中止",
    "nav.read_synthesis": "総括をすべて読む", "activity_log": "アクティビティログ",
    "nav.no_actions": "アクションはまだありません。",
    "state.done": "完了", "state.running": "実行中", "state.pending": "待機中",
    "state.failed": "失敗", "state.cancelled": "中止", "state.skipped": "省略",
    "check.mark": "確認済みにする", "check.change": "確認内容を変更",
    "check.question": "何がわかりましたか？", "check.undo": "確認を取り消す",
    "check.checked": "確認済み", "check.by": "{who}（{date}）", "check.someone": "だれか",
    "nav.action_hint": "またはリスクや要確認の主張の横の「アクション」を使ってください。",
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
    "nav.export_md_threads": "コメント付き Markdown",
    "decision.team": "チームの決定：",
    "decision.another": "（別の選択）",
    "decision.state.decided": "決定済み",
    "decision.state.review_due": "振り返り期限",
    "decision.state.reviewed": "振り返り済み",
    "decision.decided": "{date} に {who} が決定",
    "decision.review_on": "振り返り日 {date}",
    "decision.no_review": "振り返りなし",
    "decision.earlier": "以前の版：{n}",
    "decision.change": "変更",
    "decision.none": "まだ決定が記録されていません。",
    "decision.record": "チームの決定を記録",
    "decision.outcome": "結果：",
    "decision.proved_right": "が正しかった",
    "decision.result.worked": "結果：成功",
    "decision.result.mixed": "結果：一長一短",
    "decision.result.failed": "結果：失敗",
    "decision.cant_tell": "前回の振り返り（{date}）：まだ判断できません。",
    "decision.review_now": "今すぐ振り返る",
    "decision.review_again": "もう一度振り返る",
    "decision.record_outcome": "結果を記録",
    "nav.export_json": "JSON で書き出し", "nav.printable": "印刷用", "nav.comment": "コメント",
    "comments_help": "この総括についてチームで話し合えます。本文を選択して「コメント」を押すか、"
                     "リスク、懸念、相違点の横にある「コメント」からスレッドを始めてください。",
    "comments_help_read": "この総括についてのチームの議論です。",
    "nav.comment_selection": "コメント", "nav.your_comment": "あなたのコメント",
    "nav.cancel": "キャンセル",
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
    "step.phase": "フェーズ {n}", "step.propose": "提案 {n}", "step.critique": "批評 {n}",
    "step.convergence check": "収束チェック",
    "step.convergence": "収束チェック {n}", "phase.propose": "提案",
    "phase.critique": "批評", "phase.analysis": "分析",
    "phase.discussion": "議論", "phase.convergence": "収束チェック",
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


# The field names inside the turns the transcript shows (synthesis, verifier, the
# adversarial and workflow turns): English is the field's name in words, as before.
_FIELDS = {  # key: (zh, ja)
    "consensus_points": ("共识要点", "合意点"), "disagreements": ("分歧", "相違点"),
    "recommended_path": ("推荐路径", "推奨される方針"),
    "divergence_report": ("分歧报告", "意見の相違レポート"), "summary": ("摘要", "要約"),
    "camps": ("阵营", "陣営"), "what_would_resolve_it": ("什么能化解分歧", "何があれば決着するか"),
    "risk_follow_up": ("风险跟进", "リスクのフォローアップ"), "claims": ("说法", "主張"),
    "topic": ("主题", "論点"), "views": ("观点", "見解"), "agent": ("专家", "エージェント"),
    "view": ("观点", "見解"), "stakes": ("利害", "懸かっているもの"),
    "recommendation": ("建议", "推奨"), "strongest_evidence": ("最强证据", "最も強い根拠"),
    "weakest_evidence": ("最弱证据", "最も弱い根拠"),
    "path_dependencies": ("路径依赖", "方針の前提"), "path_forward": ("前进路径", "今後の進め方"),
    "post_positional_concerns": ("表态后的担忧", "見解表明後の懸念"),
    "pre_positional_risks": ("表态前的风险", "見解表明前のリスク"),
    "supporters": ("支持者", "支持者"), "argument": ("论点", "論点"),
    "rebuttal": ("反驳", "反論"), "risk_id": ("风险编号", "リスク ID"),
    "status": ("状态", "状態"), "note": ("说明", "メモ"), "quote": ("原文", "引用"),
    "type": ("类型", "種類"), "why": ("原因", "理由"), "replies": ("回复", "回答"),
    "proposal": ("提案", "提案"), "assessment": ("评估", "評価"),
    "resolutions": ("处理结果", "解決状況"), "issues": ("问题", "課題"),
    "claimed_counts": ("自报数量", "自己申告の件数"), "severity": ("严重度", "重大度"),
    "title": ("标题", "タイトル"), "detail": ("详情", "詳細"),
    "suggested_fix": ("建议的修正", "修正案"), "id": ("编号", "ID"),
    "issue_id": ("问题编号", "課題 ID"), "reply": ("回复", "回答"),
    "resolved": ("已解决", "解決済み"), "red": ("红", "赤"), "yellow": ("黄", "黄"),
    "green": ("绿", "緑"), "final_solution": ("最终方案", "最終案"),
    "key_decisions": ("关键决策", "主な決定"), "remaining_risks": ("遗留风险", "残るリスク"),
    "issue": ("问题", "課題"), "decision": ("决策", "決定"), "rationale": ("理由", "理由"),
    "findings": ("发现", "調査結果"), "claim": ("说法", "主張"), "evidence": ("证据", "根拠"),
    "kind": ("类别", "種別"), "alternatives": ("替代方案", "代替案"),
    "evidence_gaps": ("证据缺口", "根拠の欠落"), "falsifiability": ("可证伪性", "反証可能性"),
    "risks": ("风险", "リスク"), "risk": ("风险", "リスク"),
    "challenged_assumption": ("受质疑的假设", "疑わしい前提"),
    "mitigation": ("缓解措施", "緩和策"), "likelihood": ("可能性", "可能性"),
    "impact": ("影响", "影響"), "weaknesses": ("弱点", "弱点"), "patterns": ("模式", "パターン"),
    "options": ("选项", "選択肢"), "decision_framework": ("决策框架", "意思決定の枠組み"),
    "criterion": ("标准", "基準"), "favours": ("倾向", "有利な選択"),
    "response": ("回应", "応答"), "citations": ("引用", "引用"),
    "source_role": ("来源角色", "引用元の役割"),
    "acknowledged_missed": ("承认遗漏", "見落としを認めた点"),
    "key_recommendation": ("关键建议", "主要な提言"), "basis": ("依据", "根拠"),
    "key_agreement": ("主要共识", "主な合意"), "remaining_tension": ("遗留分歧", "残る対立"),
    "disagreement": ("分歧", "相違"), "consensus": ("共识", "合意"),
    "tensions": ("张力", "対立点"), "next_steps": ("后续步骤", "次のステップ"),
    "verdict": ("裁决", "判断"), "updated_verdict": ("更新后的裁决", "更新後の判断"),
    "purpose": ("目的", "目的"), "focus": ("重点", "観点"), "name": ("名称", "名前"),
}
_EN.update({f"field.{k}": k.replace("_", " ").capitalize() for k in _FIELDS
            if f"field.{k}" not in _EN})
_ZH.update({f"field.{k}": zh for k, (zh, _) in _FIELDS.items() if f"field.{k}" not in _ZH})
_JA.update({f"field.{k}": ja for k, (_, ja) in _FIELDS.items() if f"field.{k}" not in _JA})
# The workflow's stop reasons are its convergence labels.
_EN.update({"reason.partially_converged": "partially converged", "reason.divergent": "divergent"})
_ZH.update({"reason.partially_converged": "部分收敛", "reason.divergent": "分歧"})
_JA.update({"reason.partially_converged": "部分的に収束", "reason.divergent": "発散"})
_EN.update({"mode.quick": "quick", "mode.medium": "medium", "mode.deep": "deep"})
_ZH.update({"mode.quick": "快速", "mode.medium": "中等", "mode.deep": "深入"})
_JA.update({"mode.quick": "クイック", "mode.medium": "標準", "mode.deep": "ディープ"})
_EN.update({"nav.back_to_debate": "← back to the debate", "nav.synthesis_link": "synthesis",
            "nav.download_md": "download Markdown", "nav.print": "Print…"})
_ZH.update({"nav.back_to_debate": "← 返回讨论", "nav.synthesis_link": "综合",
            "nav.download_md": "下载 Markdown", "nav.print": "打印…"})
_JA.update({"nav.back_to_debate": "← 議論に戻る", "nav.synthesis_link": "総括",
            "nav.download_md": "Markdown をダウンロード", "nav.print": "印刷…"})
# The debate page's exports menu and the fold over its rounds (docs/web.md, "The look").
_EN.update({"nav.export": "Export", "nav.rounds": "Rounds and turns"})
_ZH.update({"nav.export": "导出", "nav.rounds": "各轮与发言"})
_JA.update({"nav.export": "書き出し", "nav.rounds": "ラウンドと発言"})
_EN.update({"value.true": "True", "value.false": "False",
            "claims_to_verify": "{n} claims to verify",
            "claims_to_verify.one": "{n} claim to verify"})
_ZH.update({"value.true": "是", "value.false": "否", "claims_to_verify": "{n} 条待核实的说法",
            "claims_to_verify.one": "{n} 条待核实的说法"})
_JA.update({"value.true": "はい", "value.false": "いいえ",
            "claims_to_verify": "要確認の主張 {n} 件",
            "claims_to_verify.one": "要確認の主張 {n} 件"})

# The compare page (both runs in one language: that language).
_EN.update({
    "cmp.title": "Compare runs",
    "cmp.crumb": "Compare",
    "cmp.h1": "Compare two runs",
    "cmp.only_title": "What only one run found",
    "cmp.matched": ("Items are matched across runs by meaning (near-duplicate text "
        "similarity), not exact wording."),
    "cmp.verdicts": "How the verdicts moved",
    "cmp.col_run": "run",
    "cmp.before": "before the debate",
    "cmp.after": "after the debate",
    "cmp.metrics": "Metrics side by side",
    "cmp.mean": "{run} mean",
    "cmp.dispersion": "{run} dispersion",
    "cmp.agreement": "{run} agreement",
    "cmp.decision": "{run} decision",
    "cmp.not_council": ("Compare is for council debates: the item-by-item comparison "
                        "(risks, concerns, metrics) is not available for {protocols} runs. "
                        "Open each run's synthesis to read them side by side."),
    "cmp.waiting": "The side-by-side comparison appears once both runs have a synthesis.",
    "cmp.run": "Run {label}",
    "cmp.rerun": "re-run",
    "cmp.original": "original",
    "cmp.open": "Open run {label}",
    "cmp.simulated": "simulated",
    "cmp.after_round": "after round {n}",
    "cmp.mean_disp": "(mean {mb} → {ma}, dispersion {db} → {da})",
    "cmp.divergence": "Divergence",
    "cmp.full_synthesis": "Full synthesis",
    "cmp.calls": "{n} calls",
    "cmp.degraded": "degraded",
    "cmp.no_synthesis": "No synthesis yet ({status}).",
    "cmp.only_in": "Only in run {label}",
    "cmp.nothing": "Nothing the other run missed.",
    "cmp.risks": "Premortem risks",
    "cmp.concerns": "Surviving concerns",
    "cmp.disagreements": "Disagreements",
    "cmp.agreed": "Agreed points",
})
_ZH.update({
    "cmp.title": "比较运行",
    "cmp.crumb": "比较",
    "cmp.h1": "比较两次运行",
    "cmp.only_title": "只有一次运行发现的内容",
    "cmp.matched": "各项按含义（近似文本相似度）而非字面在两次运行之间匹配。",
    "cmp.verdicts": "裁决如何变化",
    "cmp.col_run": "运行",
    "cmp.before": "讨论前",
    "cmp.after": "讨论后",
    "cmp.metrics": "指标对照",
    "cmp.mean": "{run} 平均值",
    "cmp.dispersion": "{run} 离散度",
    "cmp.agreement": "{run} 一致度",
    "cmp.decision": "{run} 判定",
    "cmp.not_council": ("比较功能用于专家组讨论：{protocols} 运行无法逐项比较（风险、担忧、指标）。"
                        "请分别打开各次运行的综合并排阅读。"),
    "cmp.waiting": "两次运行都有综合之后才会显示对照比较。",
    "cmp.run": "运行 {label}",
    "cmp.rerun": "重新运行",
    "cmp.original": "原始运行",
    "cmp.open": "打开运行 {label}",
    "cmp.simulated": "模拟",
    "cmp.after_round": "第 {n} 轮后",
    "cmp.mean_disp": "（平均值 {mb} → {ma}，离散度 {db} → {da}）",
    "cmp.divergence": "分歧",
    "cmp.full_synthesis": "完整综合",
    "cmp.calls": "{n} 次调用",
    "cmp.degraded": "降级",
    "cmp.no_synthesis": "尚无综合（{status}）。",
    "cmp.only_in": "只在运行 {label} 中",
    "cmp.nothing": "没有另一次运行遗漏的内容。",
    "cmp.risks": "事前验尸风险",
    "cmp.concerns": "保留下来的担忧",
    "cmp.disagreements": "分歧",
    "cmp.agreed": "共识要点",
})
_JA.update({
    "cmp.title": "実行の比較",
    "cmp.crumb": "比較",
    "cmp.h1": "2 つの実行を比較",
    "cmp.only_title": "一方の実行だけが見つけたもの",
    "cmp.matched": "項目は文言ではなく意味（近似テキストの類似度）で実行間を対応づけています。",
    "cmp.verdicts": "判断の動き",
    "cmp.col_run": "実行",
    "cmp.before": "議論前",
    "cmp.after": "議論後",
    "cmp.metrics": "指標の比較",
    "cmp.mean": "{run} 平均",
    "cmp.dispersion": "{run} ばらつき",
    "cmp.agreement": "{run} 一致度",
    "cmp.decision": "{run} 判定",
    "cmp.not_council": ("比較は評議会の議論向けです。{protocols} の実行では項目ごとの比較"
                        "（リスク、懸念、指標）はできません。各実行の総括を開いて並べて読んでください。"),
    "cmp.waiting": "両方の実行に総括がそろうと比較が表示されます。",
    "cmp.run": "実行 {label}",
    "cmp.rerun": "再実行",
    "cmp.original": "元の実行",
    "cmp.open": "実行 {label} を開く",
    "cmp.simulated": "シミュレーション",
    "cmp.after_round": "ラウンド {n} の後",
    "cmp.mean_disp": "（平均 {mb} → {ma}、ばらつき {db} → {da}）",
    "cmp.divergence": "意見の相違",
    "cmp.full_synthesis": "総括の全文",
    "cmp.calls": "{n} 回の呼び出し",
    "cmp.degraded": "縮退",
    "cmp.no_synthesis": "総括はまだありません（{status}）。",
    "cmp.only_in": "実行 {label} のみ",
    "cmp.nothing": "もう一方が見落としたものはありません。",
    "cmp.risks": "プレモーテムのリスク",
    "cmp.concerns": "残った懸念",
    "cmp.disagreements": "相違点",
    "cmp.agreed": "合意点",
})

# Issue 32: the print view's thread option, the adversarial issue categories and page
# lines, the protocol and mode names on the synthesis pages.
_EN.update({"nav.print_with_threads": "include the comment threads",
            "nav.print_without_threads": "without the comment threads"})
_ZH.update({"nav.print_with_threads": "包含评论串", "nav.print_without_threads": "不含评论串"})
_JA.update({"nav.print_with_threads": "コメントスレッドを含める",
            "nav.print_without_threads": "コメントスレッドを除く"})
# The protocol's and the mode's names in the settings line (English: as stored).
_EN.update({"protocol_name.council": "council", "protocol_name.adversarial": "adversarial",
            "protocol_name.workflow": "workflow"})
_ZH.update({"protocol_name.council": "专家组", "protocol_name.adversarial": "对抗式评审",
            "protocol_name.workflow": "工作流"})
_JA.update({"protocol_name.council": "評議会", "protocol_name.adversarial": "敵対的レビュー",
            "protocol_name.workflow": "ワークフロー"})
# The content checks' verdict (docs/engine.md, "Content checks"), at the top of every
# report when the result is not sound.
_EN.update({
    "quality": "Quality",
    "quality.doubtful": "**doubtful** — some turns or the synthesis look like noise; read "
                        "with care ({reasons})",
    "quality.unusable": "**unusable** — the words carry no content; act on nothing here "
                        "({reasons})",
    "quality.not_advice": "*Not to be acted on: the content checks found this result "
                          "unusable.*",
    "step.judge": "judge", "phase.judge": "judge",
})
_ZH.update({
    "quality": "质量",
    "quality.doubtful": "**存疑** — 部分发言或综合看起来像噪声，请谨慎阅读（{reasons}）",
    "quality.unusable": "**不可用** — 这些文字没有实际内容，请勿据此行事（{reasons}）",
    "quality.not_advice": "*请勿据此行事：内容检查判定此结果不可用。*",
    "step.judge": "评判", "phase.judge": "评判",
})
_JA.update({
    "quality": "品質",
    "quality.doubtful": "**疑わしい** — 一部の発言または総括がノイズのようです。注意して読んで"
                        "ください（{reasons}）",
    "quality.unusable": "**使用不可** — 文章に中身がありません。ここに書かれたことに基づいて"
                        "行動しないでください（{reasons}）",
    "quality.not_advice": "*行動の根拠にしないでください：内容チェックはこの結果を使用不可と"
                          "判定しました。*",
    "step.judge": "審査", "phase.judge": "審査",
})

# The pages' words for a doubtful or unusable result (docs/web.md, "Quality"): the
# banner, the hold over a recommendation, the transcript's marker, the badges.
_EN.update({
    "quality_page.title.doubtful": 'Doubtful result',
    "quality_page.title.unusable": 'Unusable result',
    "quality_page.text.doubtful": 'the content checks found turns or a synthesis that look like '
                                  'noise; read it with care and check what it says before '
                                  'relying on it.',
    "quality_page.text.unusable": "the content checks found that the models' words carry no "
                                  'content. Act on nothing here; re-run with a stronger model.',
    "quality_page.hold.doubtful": 'Read with care:',
    "quality_page.hold.doubtful_text": 'this result is doubtful (see the warning above).',
    "quality_page.hold.unusable": 'Not to act on:',
    "quality_page.hold.unusable_text": 'this result is unusable; what follows is shown for the '
                                       'record only, not as a recommendation.',
    "quality_page.marker": 'flagged',
    "quality_page.badge.doubtful": 'doubtful',
    "quality_page.badge.unusable": 'unusable',
    "quality_page.decided_on.doubtful": 'decided on a doubtful result',
    "quality_page.decided_on.unusable": 'decided on an unusable result',
})
_ZH.update({
    "quality_page.title.doubtful": '结果存疑',
    "quality_page.title.unusable": '结果不可用',
    "quality_page.text.doubtful": '内容检查发现部分发言或综合看起来像噪声；请谨慎阅读，依赖之前先'
                                  '核实其内容。',
    "quality_page.text.unusable": '内容检查发现模型的文字没有实际内容。请勿据此采取任何行动；请换'
                                  '用更强的模型重新运行。',
    "quality_page.hold.doubtful": '请谨慎阅读：',
    "quality_page.hold.doubtful_text": '此结果存疑（见上方警告）。',
    "quality_page.hold.unusable": '不可据此行动：',
    "quality_page.hold.unusable_text": '此结果不可用；以下内容仅作记录，不是建议。',
    "quality_page.marker": '已标记',
    "quality_page.badge.doubtful": '存疑',
    "quality_page.badge.unusable": '不可用',
    "quality_page.decided_on.doubtful": '基于存疑结果的决定',
    "quality_page.decided_on.unusable": '基于不可用结果的决定',
})
_JA.update({
    "quality_page.title.doubtful": '疑わしい結果',
    "quality_page.title.unusable": '使えない結果',
    "quality_page.text.doubtful": '内容チェックで、雑音のように見える発言や総括が見つかりました。'
                                  '頼る前に内容を確かめながら慎重に読んでください。',
    "quality_page.text.unusable": '内容チェックで、モデルの文章に中身がないことが分かりました。こ'
                                  'こに基づいて行動しないでください。より強いモデルで再実行してく'
                                  'ださい。',
    "quality_page.hold.doubtful": '慎重に読んでください：',
    "quality_page.hold.doubtful_text": 'この結果は疑わしいものです（上の警告を参照）。',
    "quality_page.hold.unusable": '行動の根拠にしないでください：',
    "quality_page.hold.unusable_text": 'この結果は使えません。以下は記録として示すだけで、推奨で'
                                       'はありません。',
    "quality_page.marker": '要注意',
    "quality_page.badge.doubtful": '疑わしい',
    "quality_page.badge.unusable": '使えない',
    "quality_page.decided_on.doubtful": '疑わしい結果に基づく決定',
    "quality_page.decided_on.unusable": '使えない結果に基づく決定',
})

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
    # The adversarial ("propose 2") and workflow ("phase 2b") protocols' numbered steps.
    word, _, number = label.partition(" ")
    if number and word in ("phase", "propose", "critique", "convergence") \
            and number != "check":
        return t(f"step.{word}", n=number)
    if f"phase.{label}" in _EN:  # a phase named without its round (activity log)
        return t(f"phase.{label}")
    return t(f"step.{label}") if f"step.{label}" in _EN else label


def option_label(option: str, t: Callable[..., str]) -> str:
    """An option in the debate's language: the fixed ones (for, against, conditional:
    those with a ``verdict.`` entry in the table) translated, named ones as the
    question or the user wrote them."""
    key = f"verdict.{option}"
    return t(key) if key in _EN else option
