"""Every sample persona file (tests/fixtures/cases/personas) loads or names its problem."""

from pathlib import Path

import pytest

from debates.engine.persona_files import PersonaFileError, load_persona_file, load_persona_text

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "personas"


def test_the_cases_folder_is_there():
    assert sorted(p.name for p in CASES.iterdir() if p.name.startswith("valid_"))


def test_valid_list_loads_three_personas():
    personas = load_persona_file(CASES / "valid_list.yaml")
    assert [p.name for p in personas] == ["Dana Reyes", "Kenji Watanabe", "Amara Okafor"]


def test_valid_object_loads_with_per_persona_model():
    personas = load_persona_file(CASES / "valid_object.json")
    assert [p.name for p in personas] == ["Lena Fischer", "Omar Haddad"]
    assert personas[0].model == "sim/default" and personas[1].model is None


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("invalid_duplicate_names.yaml", ["persona 1", "'name'", "Same", "duplicates persona 0"]),
        ("invalid_missing_field.yaml", ["persona 1", "'approach'", "required"]),
        ("invalid_not_a_list.json", ["expected a list of personas"]),
        ("invalid_syntax.yaml", ["not valid YAML", "line"]),
        ("invalid_unknown_field.json", ["persona 0", "unknown field 'salary'"]),
    ],
)
def test_invalid_files_are_refused_naming_file_index_and_field(name, expected):
    with pytest.raises(PersonaFileError) as info:
        load_persona_file(CASES / name)
    message = str(info.value)
    assert name in message
    for fragment in expected:
        assert fragment in message
    assert "\n" not in message


def test_every_case_file_is_covered():
    covered = {"valid_list.yaml", "valid_object.json", "invalid_duplicate_names.yaml",
               "invalid_missing_field.yaml", "invalid_not_a_list.json", "invalid_syntax.yaml",
               "invalid_unknown_field.json"}
    assert {p.name for p in CASES.iterdir()} == covered


def test_blank_field_is_refused():
    with pytest.raises(PersonaFileError, match="persona 0.*'bias'"):
        load_persona_text('[{"name": "A", "background": "b", "expertise": "c", '
                          '"approach": "d", "bias": "  "}]', "x.json")


def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(PersonaFileError, match="cannot read"):
        load_persona_file(tmp_path / "nope.yaml")
