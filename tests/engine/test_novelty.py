"""Near-duplicate detection: paraphrases are not new arguments."""

import pytest

from debates.engine.novelty import cluster, count_new_items, similarity

PARAPHRASES = [
    ("We lack evidence about the migration cost.", "Evidence on the cost of migration is missing."),
    ("The team has no experience running Kubernetes.",
     "Our team lacks experience with running Kubernetes."),
    ("Customer churn could rise after the pricing change.",
     "After the pricing change, churn among customers could rise."),
    ("Hiring two platform engineers will be hard.",
     "It will be hard to hire two platform engineers."),
    ("数据迁移的成本尚不清楚", "数据迁移成本不清楚"),
]

DISTINCT = [
    ("We lack evidence about the migration cost.", "On-call load will double for the team."),
    ("Customer churn could rise after the pricing change.", "Kubernetes expertise is scarce."),
    ("数据迁移的成本尚不清楚", "团队缺乏云平台经验"),
]


@pytest.mark.parametrize(("a", "b"), PARAPHRASES)
def test_paraphrases_are_near_duplicates(a, b):
    assert similarity(a, b) >= 0.5


@pytest.mark.parametrize(("a", "b"), DISTINCT)
def test_different_points_are_not(a, b):
    assert similarity(a, b) < 0.5


def test_paraphrase_of_an_earlier_round_item_is_not_new():
    earlier = ["We lack evidence about the migration cost."]
    current = ["Evidence on the cost of migration is missing.", "On-call load will double."]
    assert count_new_items(current, earlier) == 1


def test_near_duplicates_within_a_round_count_once():
    current = [
        "The team has no experience running Kubernetes.",
        "Our team lacks experience with running Kubernetes.",
        "Billing data boundaries are unclear.",
    ]
    assert count_new_items(current, []) == 2


def test_exact_repeats_are_not_new():
    assert count_new_items(["Same point."], ["same point"]) == 0


def test_punctuation_and_case_are_ignored():
    assert similarity("Costs are UNKNOWN!", "costs are unknown") == 1.0


def test_cluster_lists_distinct_sources_largest_first():
    items = [
        ("Distributed transactions corrupt invoices", "Kenji"),
        ("On-call load doubles", "Kenji"),
        ("Invoices get corrupted by distributed transactions", "Amara"),
        ("distributed transactions corrupt invoices", "Amara"),
    ]
    clusters = cluster(items)
    assert clusters[0] == ("Distributed transactions corrupt invoices", ["Kenji", "Amara"])
    assert clusters[1] == ("On-call load doubles", ["Kenji"])
