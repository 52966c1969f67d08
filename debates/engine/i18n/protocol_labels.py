"""Fixed wording of the adversarial and workflow reports, in English, Simplified
Chinese and Japanese (other languages: English headings around native content).
Kept beside the protocols that use them; the shared strings (title of a simulated
run, stop reasons) come from ``i18n``."""

from __future__ import annotations

from collections.abc import Callable

_EN = {
    "adv.title": "Adversarial review",
    "adv.domain": "Domain",
    "adv.roles": "Roles",
    "adv.roles_line": "proposer: {proposer} · critic: {critic}",
    "adv.focus": "Critic's focus",
    "adv.stopped": "Outcome",
    "adv.rounds": "Rounds",
    "adv.final_solution": "Final solution",
    "adv.key_decisions": "Key decisions",
    "adv.decisions_header": "| issue | decision | rationale |",
    "adv.remaining_risks": "Remaining risks",
    "adv.issues": "Issues by id",
    "adv.issues_header": "| id | severity | title | raised | status |",
    "adv.open": "open", "adv.resolved_in": "resolved in round {round}",
    "adv.claimed": "the critic counted red×{red} yellow×{yellow} green×{green}",
    "adv.history": "Rounds in full",
    "adv.proposal": "Proposal",
    "adv.critique": "Critique",
    "adv.replies": "Replies to the previous critique",
    "wf.title": "Workflow analysis",
    "wf.mode": "Mode",
    "wf.perspectives": "Individual perspectives",
    "wf.discussion": "Discussion",
    "wf.convergence": "Convergence status",
    "wf.status": "Status",
    "wf.key_agreement": "Key agreement",
    "wf.remaining_tension": "Remaining tension",
    "wf.final_synthesis": "Final synthesis",
    "wf.consensus": "Consensus",
    "wf.tensions": "Tensions",
    "wf.framework": "Decision framework",
    "wf.next_steps": "Next steps",
    "wf.contract": "Contract check",
    "wf.contract_ok": "met",
    "wf.contract_failed": "failed: {problems}",
    "wf.key_recommendation": "Key recommendation",
    "wf.citations": "Citations",
    "wf.acknowledged": "Points acknowledged as missed",
    "wf.phase2b": "Phase 2b (resolving the disagreement)",
    "wf.status.converged": "Converged",
    "wf.status.partially_converged": "Partially Converged",
    "wf.status.divergent": "Divergent",
    "common.question": "Question",
    "common.model": "Model",
    "common.degraded": "Degraded",
    "common.unverified": "Claims to verify",
    "common.verifier_failed": "The verifier failed: claims are unchecked.",
    "common.none": "none",
}

_ZH = {
    "adv.title": "对抗式评审", "adv.domain": "领域", "adv.roles": "角色",
    "adv.roles_line": "提案方：{proposer} · 评审方：{critic}", "adv.focus": "评审重点",
    "adv.stopped": "结果", "adv.rounds": "轮次", "adv.final_solution": "最终方案",
    "adv.key_decisions": "关键决策", "adv.decisions_header": "| 问题 | 决策 | 理由 |",
    "adv.remaining_risks": "遗留风险", "adv.issues": "问题清单（按编号）",
    "adv.issues_header": "| 编号 | 严重度 | 标题 | 提出轮次 | 状态 |",
    "adv.open": "未解决", "adv.resolved_in": "第 {round} 轮解决",
    "adv.claimed": "评审方自报 红×{red} 黄×{yellow} 绿×{green}",
    "adv.history": "各轮详情", "adv.proposal": "提案", "adv.critique": "评审",
    "adv.replies": "对上一轮评审的回复",
    "wf.title": "工作流分析", "wf.mode": "模式", "wf.perspectives": "各角色观点",
    "wf.discussion": "讨论", "wf.convergence": "收敛状态", "wf.status": "状态",
    "wf.key_agreement": "主要共识", "wf.remaining_tension": "遗留分歧",
    "wf.final_synthesis": "最终综合", "wf.consensus": "共识", "wf.tensions": "张力",
    "wf.framework": "决策框架", "wf.next_steps": "后续步骤", "wf.contract": "契约检查",
    "wf.contract_ok": "满足", "wf.contract_failed": "未满足：{problems}",
    "wf.key_recommendation": "关键建议", "wf.citations": "引用",
    "wf.acknowledged": "承认遗漏的要点", "wf.phase2b": "阶段 2b（化解分歧）",
    "wf.status.converged": "已收敛", "wf.status.partially_converged": "部分收敛",
    "wf.status.divergent": "分歧",
    "common.question": "问题", "common.model": "模型", "common.degraded": "降级",
    "common.unverified": "待核实的说法", "common.verifier_failed": "核查失败：说法未经检查。",
    "common.none": "无",
}

_JA = {
    "adv.title": "敵対的レビュー", "adv.domain": "領域", "adv.roles": "役割",
    "adv.roles_line": "提案者：{proposer} · 批評者：{critic}", "adv.focus": "批評の観点",
    "adv.stopped": "結果", "adv.rounds": "ラウンド", "adv.final_solution": "最終案",
    "adv.key_decisions": "主な決定", "adv.decisions_header": "| 課題 | 決定 | 理由 |",
    "adv.remaining_risks": "残るリスク", "adv.issues": "課題一覧（ID順）",
    "adv.issues_header": "| ID | 重大度 | タイトル | 提起 | 状態 |",
    "adv.open": "未解決", "adv.resolved_in": "第 {round} ラウンドで解決",
    "adv.claimed": "批評者の自己集計 赤×{red} 黄×{yellow} 緑×{green}",
    "adv.history": "各ラウンドの全文", "adv.proposal": "提案", "adv.critique": "批評",
    "adv.replies": "前回の批評への回答",
    "wf.title": "ワークフロー分析", "wf.mode": "モード", "wf.perspectives": "各役割の視点",
    "wf.discussion": "議論", "wf.convergence": "収束状況", "wf.status": "状態",
    "wf.key_agreement": "主な合意", "wf.remaining_tension": "残る対立",
    "wf.final_synthesis": "最終統合", "wf.consensus": "合意", "wf.tensions": "対立点",
    "wf.framework": "意思決定の枠組み", "wf.next_steps": "次のステップ",
    "wf.contract": "契約チェック", "wf.contract_ok": "満たす",
    "wf.contract_failed": "未達：{problems}", "wf.key_recommendation": "主要な提言",
    "wf.citations": "引用", "wf.acknowledged": "見落としを認めた点",
    "wf.phase2b": "フェーズ 2b（対立の解消）",
    "wf.status.converged": "収束", "wf.status.partially_converged": "部分的に収束",
    "wf.status.divergent": "発散",
    "common.question": "質問", "common.model": "モデル", "common.degraded": "縮退",
    "common.unverified": "要検証の主張", "common.verifier_failed": "検証に失敗：主張は未確認です。",
    "common.none": "なし",
}

TABLES = {"en": _EN, "zh": _ZH, "ja": _JA}


def labels(language: str) -> Callable[..., str]:
    table = TABLES.get(language, _EN)

    def t(key: str, **values: object) -> str:
        text = table.get(key) or _EN[key]
        return text.format(**values) if values else text

    return t
