"""The persona libraries, the sources and the evaluations pages speak the user's
language (issue 41, item 4; docs/web.md, "Languages"): every page of the three (lists,
empty states, details with objects made through the services, forms with their
refusals, the polled parts, the messages after an action) carries no English in
Japanese or Chinese but the user content it shows; French shows its own words; English
reads as before."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from debates.debate_sources import Upload
from debates.engine import Persona
from debates.services import DebateSpec, debate_start
from evaluations import runner
from evaluations.models import Evaluation
from evaluations.services import EvaluationRequest, evaluation_start
from personas import services as personas
from sources.services import extract_version, sources_upload
from tests.factories import versions_mixed
from tests.web.english_left import english_left
from tests.web.english_left import main_part as _main
from tests.web.test_site_languages import _speaking
from view_kit.site_words import ui

pytestmark = pytest.mark.django_db

# The user content the pages show: names, texts, file names the test made.
LIBRARY, FORK = "Architecture panel", "Architecture panel (fork)"
PERSONA = Persona(name="Grace", background="Staff engineer at a payments company.",
                  expertise="Queues and event streams.", approach="Asks for the failure modes.",
                  bias="Prefers boring technology.")
EDIT_NOTE = "Sharper expertise"
SOURCE_TEXT = "# Costs\n\nKafka costs 4,200 USD a month.\n\nSQS costs 900 USD a month."
QUESTION = "Kafka or SQS for the event bus?"



@pytest.fixture
def library(team, owner):
    library = personas.library_create(team=team, user=owner, name=LIBRARY,
                                      description="Reviewers of our platform choices.")
    persona = personas.persona_create(library=library, user=owner, data=PERSONA)
    personas.persona_update(persona=persona, user=owner, note=EDIT_NOTE, data=PERSONA.model_copy(
        update={"expertise": "Queues, event streams and their bills."}))
    personas.persona_restore(persona=persona, user=owner, number=1)
    personas.library_fork(library=library, user=owner, name=FORK)
    return library


@pytest.fixture
def sources(team, owner, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    [ready] = sources_upload(team=team, user=owner,
                             files=[Upload("costs.md", SOURCE_TEXT.encode())])
    extract_version(str(ready.code))
    [waiting] = sources_upload(team=team, user=owner, files=[Upload("notes.txt", b"Notes.")])
    ready.refresh_from_db()
    debate = debate_start(team=team, user=owner, spec=DebateSpec(
        question=QUESTION, mode="quick", model="sim/default", sources=[str(ready.code)]))
    return ready, waiting, debate


def _finished(team, owner, **given) -> Evaluation:
    evaluation = evaluation_start(team=team, user=owner, request=EvaluationRequest(**{
        "set_name": "compare", "n": 12, "seed": 3, "agents": 3, "sim_accuracy": 0.6,
        "arms": ("single", "vote", "council"), **given}))
    while runner.run(evaluation.code):
        pass
    evaluation.refresh_from_db()
    return evaluation


def _persona_pages(client: Client, library) -> dict[str, str]:
    persona = library.personas.get()
    fork = library.team.persona_libraries.get(name=FORK)
    pages = {path: client.get(path).content.decode() for path in [
        "/personas/", f"/personas/libraries/{library.code}/",
        f"/personas/libraries/{fork.code}/", f"/personas/{persona.code}/",
        f"/personas/libraries/{library.code}/personas/new", f"/personas/{persona.code}/edit"]}
    # A form with errors: a blank persona, and an import with nothing in it or no text.
    pages["blank persona"] = client.post(
        f"/personas/libraries/{library.code}/personas/new", {"name": ""}).content.decode()
    pages["empty import"] = client.post(
        f"/personas/libraries/{library.code}/import", {"format": "yaml"}).content.decode()
    pages["binary import"] = client.post(f"/personas/libraries/{library.code}/import", {
        "file": SimpleUploadedFile("team.yaml", b"\xff\xfe\x00bad"), "format": "yaml",
    }).content.decode()
    # The messages after an action, on the page it leads to.
    pages["imported"] = client.post(f"/personas/libraries/{fork.code}/import", {
        "text": "- name: Linus\n  background: Kernel maintainer.\n  expertise: Filesystems.\n"
                "  approach: Reads the code.\n  bias: Distrusts abstractions.\n",
        "format": "yaml"}, follow=True).content.decode()
    pages["archived"] = client.post(f"/personas/{persona.code}/archive",
                                    follow=True).content.decode()
    pages["restored"] = client.post(f"/personas/{persona.code}/restore", {"number": "1"},
                                    follow=True).content.decode()
    pages["saved"] = client.post(f"/personas/libraries/{library.code}/edit",
                                 {"name": LIBRARY}, follow=True).content.decode()
    pages["nameless library"] = client.post("/personas/libraries/new", {"name": ""},
                                            follow=True).content.decode()
    pages["taken library name"] = client.post("/personas/libraries/new", {"name": LIBRARY},
                                              follow=True).content.decode()
    pages["taken persona name"] = client.post(
        f"/personas/libraries/{library.code}/personas/new",
        PERSONA.model_dump(exclude_none=True)).content.decode()
    return pages


def _source_pages(client: Client, ready, waiting, debate) -> dict[str, str]:
    pages = {path: client.get(path).content.decode() for path in [
        "/sources/", f"/sources/{ready.source.code}/", f"/sources/{waiting.source.code}/",
        f"/sources/{waiting.source.code}/status", f"/debates/{debate.code}/sources/",
        f"/debates/{debate.code}/sources/S1?cited=S1.1"]}
    pages["uploaded"] = client.post("/sources/upload", {
        "files": [SimpleUploadedFile("plan.txt", b"The plan.")]}, follow=True).content.decode()
    pages["new version"] = client.post(f"/sources/{waiting.source.code}/versions", {
        "files": [SimpleUploadedFile("notes.txt", b"Notes, again.")]},
        follow=True).content.decode()
    pages["no file"] = client.post("/sources/upload", {}, follow=True).content.decode()
    return pages


def _evaluation_pages(client: Client, team, owner) -> dict[str, str]:
    done = _finished(team, owner)
    mixed = _finished(team, owner, arms=("vote", "council", "mixed_vote", "mixed_council"),
                      panel_models="sim/a, sim/b")
    queued = evaluation_start(team=team, user=owner, request=EvaluationRequest(
        set_name="arithmetic", n=40, seed=1, agents=3, sim_accuracy=0.7))
    versions_mixed(mixed)
    pages = {path: client.get(path).content.decode() for path in [
        "/evaluations/", "/evaluations/new", f"/evaluations/{done.code}/",
        f"/evaluations/{done.code}/progress", f"/evaluations/{queued.code}/",
        f"/evaluations/{mixed.code}/"]}
    assert 'id="mixed-pairs"' in pages[f"/evaluations/{mixed.code}/"]
    assert 'id="mixed-prompt-versions"' in pages[f"/evaluations/{mixed.code}/"]
    pages["invalid form"] = client.post("/evaluations/new", {
        "set_name": "compare", "n": "0", "seed": "7", "agents": "3", "model": "sim/default",
    }).content.decode()
    pages["cancelled"] = client.post(f"/evaluations/{queued.code}/cancel",
                                     follow=True).content.decode()
    pages["cancel a finished one"] = client.post(f"/evaluations/{done.code}/cancel",
                                                 follow=True).content.decode()
    form = {"n": "12", "seed": "7", "agents": "3", "model": "sim/default", "arms": ["vote"]}
    pages["no upload"] = client.post("/evaluations/new", {**form, "set_name": "upload"}
                                     ).content.decode()
    pages["no decisions"] = client.post("/evaluations/new", {**form, "set_name": "decisions"}
                                        ).content.decode()
    return pages


# Names every language writes as they are: the evaluation's generated sets and arms
# (the API, the exports' columns and the debate list's protocol filter name them so),
# the statistics' and the products' names, and acronyms.
NAMES = {"compare", "arithmetic", "chain", "single", "vote", "confidence", "council",
         "mixed_vote", "mixed_council", "adversarial", "Brier", "McNemar", "Wilson", "litellm",
         "Word", "Excel", "OCR", "RFC", "UTF-8", "MARKDOWN", "TXT"}
# The keys of the files the forms read (a persona file's list, a question set's columns).
FILE_KEYS = {'"personas"', '"question"', '"options"', '"answer"'}


def _user_content(team, owner) -> set[str]:
    """What the pages show as it was written: names, texts, file names and titles."""
    return {team.name, owner.username, LIBRARY, FORK, "Reviewers of our platform choices.",
            *PERSONA.model_dump(exclude_none=True).values(), EDIT_NOTE,
            "Queues, event streams and their bills.", "Linus", "Kernel maintainer.",
            "Filesystems.", "Reads the code.", "Distrusts abstractions.", "costs", "notes", "plan",
            "Kafka costs 4,200 USD a month.", "SQS costs 900 USD a month.", "Costs", "Notes.",
            QUESTION, *NAMES, *FILE_KEYS}


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_every_library_page_speaks_japanese_and_chinese(owner, team, library, sources,
                                                        language):
    client = _speaking(owner, language)
    pages = {**_persona_pages(client, library), **_source_pages(client, *sources),
             **_evaluation_pages(client, team, owner)}
    allowed = _user_content(team, owner)
    left = {path: found for path, page in pages.items()
            if (found := english_left(_main(page), allowed=allowed))}
    assert left == {}, '\n'.join(f'{p}: {f}' for p, f in left.items())
    assert all(f'<html lang="{language}">' in page for page in pages.values()
               if "<html" in page)
    # Each refusal and message is there, in the language (not an error page instead).
    said = {
        "empty import": ui("site.personas.import_empty", language),
        "binary import": ui("site.personas.import_not_utf8", language, name="team.yaml"),
        "imported": ui("site.personas.msg.imported.count", language, n=1),
        "restored": ui("site.personas.refused.same_version", language, number=1),
        "archived": ui("site.personas.msg.archived", language, name=PERSONA.name),
        "nameless library": ui("site.personas.msg.needs_name", language),
        "taken library name": ui("site.personas.refused.library_taken", language, name=LIBRARY),
        "taken persona name": ui("site.personas.refused.persona_taken", language,
                                 name=PERSONA.name, library=LIBRARY),
        "uploaded": ui("site.sources.msg.uploaded.count", language, n=1),
        "new version": ui("site.sources.msg.version_uploaded", language),
        "no file": ui("site.sources.refused.no_file", language),
        "cancelled": ui("site.eval.msg.cancelled", language),
        "cancel a finished one": ui("site.eval.refused.not_active", language,
                                    status=ui("site.eval.status.done", language)),
        "no upload": ui("site.eval.refused.no_file", language),
        "no decisions": ui("site.eval.refused.no_decisions", language),
    }
    missing = {name: text for name, text in said.items() if text not in pages[name]}
    assert missing == {}, missing
    assert pages["blank persona"].count('class="error small"') >= 4  # each blank field
    assert 'class="error small"' in pages["invalid form"]


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_the_empty_states_speak_japanese_and_chinese(owner, team, language):
    client = _speaking(owner, language)
    for path, key in [("/personas/", "site.personas.empty"), ("/sources/", "site.sources.empty"),
                      ("/evaluations/", "site.eval.empty")]:
        page = _main(client.get(path).content.decode())
        assert ui(key, language) in page, path
        assert english_left(page, allowed={owner.username, team.name, *NAMES}) == [], path


def test_french_pages_show_french_words(owner, team, library, sources):
    client = _speaking(owner, "fr")
    persona = library.personas.get()
    ready, _, _ = sources
    evaluation = _finished(team, owner)
    checks = {
        "/personas/": ["Bibliothèques de personas", "Nouvelle bibliothèque"],
        f"/personas/libraries/{library.code}/": ["Hors de la majorité finale", "Importer"],
        f"/personas/{persona.code}/": ["Historique", "Restaurer cette version", "Parcours"],
        "/sources/": ["Téléverser", "Fichiers"],
        f"/sources/{ready.source.code}/": ["Passages", "prête"],
        "/evaluations/new": ["Lancer l’évaluation", "Jeu de questions"],
        f"/evaluations/{evaluation.code}/": ["Exactitude par bras", "pas un résultat",
                                             "12 questions"],
    }
    for path, words in checks.items():
        page = client.get(path).content.decode()
        assert '<html lang="fr">' in page, path
        for word in words:
            assert word.replace("’", "&#x27;") in page or word in page, (path, word)
    # French counts 0 as one: "0 décision revue", not "0 décisions revues".
    assert ui("site.personas.reviewed.count", "fr", n=0) == "0 décision revue"
    assert ui("site.personas.msg.imported.count", "fr", n=2) == "2 personas importés."


def test_english_pages_read_as_before(owner_client, team, owner, library, sources):
    persona = library.personas.get()
    page = owner_client.get("/personas/").content.decode()
    assert "<h1>Persona libraries</h1>" in page and "Create library</button>" in page
    page = owner_client.get(f"/personas/{persona.code}/").content.decode()
    assert "Used in 0 debates;" in page and "<dt>Background</dt>" in page
    assert "Restored version 1" in page and f"by {owner.username}" in page
    page = owner_client.post(f"/personas/libraries/{library.code}/import",
                             {"format": "yaml"}).content.decode()
    assert "Choose a file or paste its contents." in page
    page = owner_client.get("/sources/").content.decode()
    assert "<strong>No sources yet.</strong>" not in page and "waiting to be read" in page
    evaluation = _finished(team, owner, n=1)
    page = owner_client.get(f"/evaluations/{evaluation.code}/").content.decode()
    assert "1 of 1 question<" in page and "not a finding: 1 question, fewer than 30" in page
    assert "Accuracy by arm" in page and "single: one agent, one call" not in page
    page = owner_client.get("/evaluations/new").content.decode()
    assert "single: one agent, one call" in page and "compare (generated)" in page
