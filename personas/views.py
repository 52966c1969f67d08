"""Persona library pages. Every view starts with ``library_access`` or ``persona_access``
(or the current team's role for the library list)."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.access import WRITE_ROLES, Need, current_team_access
from accounts.models import Team
from debates.engine import PersonaFileError
from personas import selectors, services
from personas.access import library_access, persona_access
from personas.forms import (
    ForkForm,
    ImportForm,
    LibraryForm,
    PersonaEditForm,
    PersonaForm,
    RestoreForm,
)
from personas.models import PersonaLibrary
from view_kit.http import AuthenticatedHttpRequest
from view_kit.site_words import said, ui


def _current(request: HttpRequest, need: str) -> tuple[Team, str]:
    return current_team_access(request, need=need)


def _add_persona_error(form: PersonaForm, exc: services.PersonaError) -> None:
    """A refusal about one field (a name already taken) is shown next to that field."""
    if exc.field in form.fields:
        form.add_error(exc.field, said(exc))
    else:
        form.add_error(None, said(exc))


@login_required
@require_GET
def library_list(request: HttpRequest) -> HttpResponse:
    team, role = _current(request, Need.READ)
    return render(request, "personas/library_list.html", {
        "team": team, "can_write": role in WRITE_ROLES,
        "libraries": selectors.libraries_for_team(team=team), "form": LibraryForm(),
    })


@login_required
@require_POST
def library_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    team, _ = _current(request, Need.WRITE)
    form = LibraryForm(request.POST)
    if not form.is_valid():
        messages.error(request, ui("site.personas.msg.needs_name"))
        return redirect("personas:library_list")
    try:
        library = services.library_create(team=team, user=request.user, **form.cleaned_data)
    except services.PersonaError as exc:
        messages.error(request, said(exc))  # the page says it without "field 'name':"
        return redirect("personas:library_list")
    return redirect("personas:library_detail", code=library.code)


def _library_page(request: HttpRequest, library: PersonaLibrary, role: str, *,
                  import_form: ImportForm | None = None, status: int = 200) -> HttpResponse:
    personas = list(selectors.library_personas(library=library))
    usage = selectors.persona_usage(team=library.team, personas=personas)
    return render(request, "personas/library_detail.html", {
        "library": library, "can_write": role in WRITE_ROLES,
        "rows": [(p, usage[p.code]) for p in personas],
        "form": LibraryForm(initial={"name": library.name, "description": library.description}),
        "import_form": import_form or ImportForm(),
    }, status=status)


@login_required
@require_GET
def library_detail(request: HttpRequest, code: str) -> HttpResponse:
    library, role = library_access(request, code)
    return _library_page(request, library, role)


@login_required
@require_POST
def library_edit(request: HttpRequest, code: str) -> HttpResponse:
    library, _ = library_access(request, code, need=Need.WRITE)
    form = LibraryForm(request.POST)
    if form.is_valid():
        try:
            services.library_update(library=library, **form.cleaned_data)
        except services.PersonaError as exc:
            messages.error(request, said(exc))
        else:
            messages.success(request, ui("site.personas.msg.saved"))
    else:
        messages.error(request, ui("site.personas.msg.needs_name"))
    return redirect("personas:library_detail", code=library.code)


def _library_archive(request: HttpRequest, code: str, archived: bool) -> HttpResponse:
    library, _ = library_access(request, code, need=Need.WRITE)
    services.library_set_archived(library=library, archived=archived)
    messages.success(request, ui("site.personas.msg.archived" if archived
                                 else "site.personas.msg.restored", name=library.name))
    return redirect("personas:library_detail", code=library.code)


@login_required
@require_POST
def library_archive(request: HttpRequest, code: str) -> HttpResponse:
    return _library_archive(request, code, True)


@login_required
@require_POST
def library_unarchive(request: HttpRequest, code: str) -> HttpResponse:
    return _library_archive(request, code, False)


@login_required
@require_POST
def library_fork(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    library, _ = library_access(request, code, need=Need.WRITE)
    try:
        fork = services.library_fork(library=library, user=request.user,
                                     name=request.POST.get("name"))
    except services.PersonaError as exc:
        messages.error(request, said(exc))
        return redirect("personas:library_detail", code=library.code)
    messages.success(request, ui("site.personas.msg.forked_library", name=fork.name))
    return redirect("personas:library_detail", code=fork.code)


@login_required
@require_GET
def library_export(request: HttpRequest, code: str) -> HttpResponse:
    library, _ = library_access(request, code)
    fmt = request.GET.get("format", "yaml")
    if fmt not in ("yaml", "json"):
        return HttpResponse("format must be yaml or json\n", status=400, content_type="text/plain")
    text, filename = services.personas_export(library=library,
                                              fmt="json" if fmt == "json" else "yaml")
    kind = "application/json" if fmt == "json" else "application/yaml"
    response = HttpResponse(text, content_type=f"{kind}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_POST
def library_import(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """A refused file answers 400 with the library page and the form showing why (the
    pasted text kept), so the answer's status says what happened."""
    library, role = library_access(request, code, need=Need.WRITE)
    form = ImportForm(request.POST, request.FILES)
    source = form.source() if form.is_valid() else None
    if source is not None:
        try:
            created = services.personas_import(library=library, user=request.user,
                                               text=source[0], filename=source[1])
        except PersonaFileError as exc:
            form.add_error(None, ui("site.personas.msg.nothing_imported", why=exc))
        else:
            messages.success(request, ui("site.personas.msg.imported.count", n=len(created)))
            return redirect("personas:library_detail", code=library.code)
    return _library_page(request, library, role, import_form=form, status=400)


@login_required
def persona_new(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    library, _ = library_access(request, code, need=Need.WRITE)
    form = PersonaForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and (data := form.persona()):
        try:
            persona = services.persona_create(library=library, user=request.user, data=data)
        except services.PersonaError as exc:
            _add_persona_error(form, exc)
        else:
            return redirect("personas:persona_detail", code=persona.code)
    return render(request, "personas/persona_form.html", {"library": library, "form": form})


# The notes the services write on a version (personas/services.py), said in the page's
# language; a note a person wrote stays as written.
_SERVICE_NOTES = (
    (re.compile(r"Created"), "site.personas.note.created"),
    (re.compile(r"Edited"), "site.personas.note.edited"),
    (re.compile(r"Restored version (?P<number>\d+)"), "site.personas.note.restored"),
    (re.compile(r"Forked from (?P<source>.+)"), "site.personas.note.forked"),
    (re.compile(r"Imported from (?P<source>.+)"), "site.personas.note.imported"),
)


def _note_words(note: str) -> str:
    for pattern, key in _SERVICE_NOTES:
        if found := pattern.fullmatch(note):
            return ui(key, **found.groupdict())
    return note


@login_required
@require_GET
def persona_detail(request: HttpRequest, code: str) -> HttpResponse:
    persona, role = persona_access(request, code)
    team = persona.library.team
    return render(request, "personas/persona_detail.html", {
        "persona": persona, "library": persona.library, "can_write": role in WRITE_ROLES,
        "usage": selectors.persona_usage(team=team, personas=[persona])[persona.code],
        "history": [(item, _note_words(item.version.note))
                    for item in selectors.persona_history(persona=persona)],
        "libraries": PersonaLibrary.objects.filter(team=team, archived=False),
    })


@login_required
def persona_edit(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    persona, _ = persona_access(request, code, need=Need.WRITE)
    initial = {**services.persona_data(persona.as_persona())}
    form = PersonaEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid() and (data := form.persona()):
        try:
            services.persona_update(persona=persona, user=request.user, data=data,
                                    note=form.cleaned_data["note"])
        except services.PersonaError as exc:
            _add_persona_error(form, exc)
        else:
            return redirect("personas:persona_detail", code=persona.code)
    return render(request, "personas/persona_form.html",
                  {"library": persona.library, "persona": persona, "form": form})


def _persona_archive(request: HttpRequest, code: str, archived: bool) -> HttpResponse:
    persona, _ = persona_access(request, code, need=Need.WRITE)
    services.persona_set_archived(persona=persona, archived=archived)
    messages.success(request, ui("site.personas.msg.archived" if archived
                                 else "site.personas.msg.restored", name=persona.name))
    return redirect("personas:persona_detail", code=persona.code)


@login_required
@require_POST
def persona_archive(request: HttpRequest, code: str) -> HttpResponse:
    return _persona_archive(request, code, True)


@login_required
@require_POST
def persona_unarchive(request: HttpRequest, code: str) -> HttpResponse:
    return _persona_archive(request, code, False)


@login_required
@require_POST
def persona_fork(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    persona, _ = persona_access(request, code, need=Need.WRITE)
    form = ForkForm(request.POST)
    target = persona.library
    if form.is_valid() and form.cleaned_data["target"]:
        chosen = PersonaLibrary.objects.filter(
            code=form.cleaned_data["target"], team=persona.library.team
        ).first()
        if chosen is None:
            raise Http404("No such library in this team.")
        target = chosen
    fork = services.persona_fork(persona=persona, user=request.user, target=target)
    messages.success(request, ui("site.personas.msg.forked_persona", library=target.name,
                                 name=fork.name))
    return redirect("personas:persona_detail", code=fork.code)


@login_required
@require_POST
def persona_restore(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    persona, _ = persona_access(request, code, need=Need.WRITE)
    form = RestoreForm(request.POST)
    if not form.is_valid():
        messages.error(request, ui("site.personas.msg.choose_version"))
    else:
        try:
            services.persona_restore(persona=persona, user=request.user,
                                     number=form.cleaned_data["number"])
            messages.success(request, ui("site.personas.msg.restored_version",
                                         number=form.cleaned_data["number"]))
        except services.PersonaError as exc:
            messages.error(request, said(exc))
    return redirect("personas:persona_detail", code=persona.code)
