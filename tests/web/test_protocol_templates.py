"""Each protocol's page partials are found in its own package, through the template
loader that asks the registry, so a plugin's are found the same way."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import get_template

from debates.engine import get_protocol, known_protocols
from debates.web.protocol_templates import protocol_template_dirs

ENGINE = Path(__file__).resolve().parents[2] / "debates" / "engine" / "protocols"


@pytest.mark.parametrize("name", ["council", "adversarial", "workflow"])
def test_a_built_in_protocols_folder_is_its_packages_templates(name):
    assert get_protocol(name).page_templates() == ENGINE / name / "templates"


def test_the_loader_searches_every_registered_protocols_folder():
    folders = [get_protocol(n).page_templates() for n in known_protocols()]
    assert protocol_template_dirs() == [f for f in folders if f is not None]


@pytest.mark.parametrize("name", ["council", "adversarial", "workflow"])
def test_every_partial_a_protocol_names_is_found(name):
    protocol = get_protocol(name)
    own = protocol.page_templates()
    for template_name in filter(None, protocol.page_partials().values()):
        origin = Path(get_template(template_name).origin.name)
        shared = origin.is_relative_to(Path(__file__).resolve().parents[2] / "templates")
        assert shared or (own is not None and origin.is_relative_to(own)), template_name


def test_each_protocols_filters_are_registered_under_its_name():
    from debates.templatetags.council import register

    for name in known_protocols():
        for filter_name, function in get_protocol(name).page_filters().items():
            assert register.filters[f"{name}_{filter_name}"] is function
    assert "adversarial_domain" in register.filters
    assert "shown_domain" not in register.filters  # the protocol's own, not the app's
