"""Report wording from the product's own translations (never from the model)."""

from __future__ import annotations

_EN = {
    "title": "Council synthesis",
    "simulated": "**Simulated model — the content below is placeholder text produced "
                 "offline; configure a real model for real debates.**",
    "question": "Question",
    "protocol": "Protocol",
    "protocol_line": "{protocol} · {mode} ({agents} agents, threshold {threshold:.2f}, "
                     "max {rounds} rounds) · model {model}",
    "stopped": "Stopped",
    "stopped_line": "{reason} after round {rounds} — {explanation}",
    "diagnostic": "Diagnostic",
    "diagnostic_line": "{label} — mean {mean_trend} {mean_before:.2f} → {mean_after:.2f}, "
                       "dispersion {disp_trend} {disp_before:.3f} → {disp_after:.3f}",
    "degraded": "Degraded",
    "recommended_path": "Recommended path",
    "divergence_report": "Divergence report (no recommendation: the panel genuinely disagrees)",
    "stakes": "What is at stake",
    "strongest": "Strongest evidence",
    "weakest": "Weakest evidence",
    "depends": "What each path depends on",
    "recommendation": "Recommendation",
    "path_risks": "Risks of this path",
    "what_resolves": "What would resolve it",
    "convergence": "Convergence",
    "metrics_header": "| round | mean | dispersion | new arguments | concessions | decision |",
    "positions_round": "0 (positions)",
    "majority": "Round 0 majority (before debate): \"{before}\" ({bs} of {bo}). "
                "Final: \"{after}\" ({as_} of {ao}).",
    "risks": "Risks raised before anyone took a position (premortem)",
    "risks_header": "| risk | raised by | severity | after the debate |",
    "concerns": "Concerns that survived cross-examination",
    "disagreements": "Where they still disagree",
    "consensus": "Agreed",
    "assumptions": "Assumptions behind each final position",
    "claims": "Claims to verify before acting",
    "no_claims": "The verifier found no unverified factual claims.",
    "verifier_failed": "The verifier did not run successfully; treat factual claims as unchecked.",
    "none": "(none)",
    "agents": "Panel",
    "footer": "Cost: {cost} · {calls} calls · {prompt} prompt + {completion} completion tokens "
              "· {wall:.1f} s · prompt {version}",
    "cost_unknown": "unknown (no price for this model)",
    "cost_simulated": "free (simulated)",
    "continue": "continue",
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
    "trend.rose": "rose", "trend.fell": "fell", "trend.stable": "stable",
    "trend.widened": "widened", "trend.narrowed": "narrowed",
    "follow.mitigated": "mitigated", "follow.partially": "partially", "follow.open": "open",
    "severity.high": "high", "severity.medium": "medium", "severity.low": "low",
}

_ZH = {
    "title": "专家组综合结论",
    "simulated": "**模拟模型——以下内容为离线生成的占位文本；请配置真实模型以进行真实讨论。**",
    "question": "问题",
    "protocol": "协议",
    "protocol_line": "{protocol} · {mode}（{agents} 位专家，阈值 {threshold:.2f}，"
                     "最多 {rounds} 轮）· 模型 {model}",
    "stopped": "停止",
    "stopped_line": "第 {rounds} 轮后{reason}——{explanation}",
    "diagnostic": "诊断",
    "diagnostic_line": "{label}——平均置信度{mean_trend} {mean_before:.2f} → {mean_after:.2f}，"
                       "离散度{disp_trend} {disp_before:.3f} → {disp_after:.3f}",
    "degraded": "降级运行",
    "recommended_path": "建议路径",
    "divergence_report": "分歧报告（不给出建议：专家组存在真正的分歧）",
    "stakes": "利害所在",
    "strongest": "最有力的证据",
    "weakest": "最薄弱的证据",
    "depends": "各路径的依赖条件",
    "recommendation": "建议",
    "path_risks": "该路径的风险",
    "what_resolves": "如何化解分歧",
    "convergence": "收敛过程",
    "metrics_header": "| 轮次 | 平均值 | 离散度 | 新论点 | 让步 | 决定 |",
    "positions_round": "0（初始立场）",
    "majority": "第 0 轮多数意见（讨论前）：“{before}”（{bs}/{bo}）。"
                "最终：“{after}”（{as_}/{ao}）。",
    "risks": "表态之前提出的风险（事前验尸）",
    "risks_header": "| 风险 | 提出者 | 严重程度 | 讨论后 |",
    "concerns": "经交叉质询后仍存在的顾虑",
    "disagreements": "仍存在分歧之处",
    "consensus": "共识",
    "assumptions": "各最终立场背后的假设",
    "claims": "行动前需核实的说法",
    "no_claims": "核查器未发现未经核实的事实性说法。",
    "verifier_failed": "核查器未能成功运行；事实性说法均未经核查。",
    "none": "（无）",
    "agents": "专家组",
    "footer": "费用：{cost} · {calls} 次调用 · {prompt} 输入 + {completion} 输出 token "
              "· {wall:.1f} 秒 · 提示词 {version}",
    "cost_unknown": "未知（该模型无价格信息）",
    "cost_simulated": "免费（模拟）",
    "continue": "继续",
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
    "trend.rose": "上升", "trend.fell": "下降", "trend.stable": "稳定",
    "trend.widened": "扩大", "trend.narrowed": "缩小",
    "follow.mitigated": "已缓解", "follow.partially": "部分缓解", "follow.open": "未解决",
    "severity.high": "高", "severity.medium": "中", "severity.low": "低",
}

TRANSLATIONS = {"en": _EN, "zh": _ZH}


def translator(language: str):  # noqa: ANN201 - a small closure is clearer than a class
    table = TRANSLATIONS.get(language, _EN)

    def t(key: str, **values: object) -> str:
        text = table.get(key, _EN[key])
        return text.format(**values) if values else text

    return t
