"""Short HTML views: full pages, HTMX fragments, exports and actions.

Access always goes through ``debates.access``; reads through ``debates.selectors``;
writes through ``debates.services``. Refusals from the services become form
errors (bad input) or a message on the page (a transition the debate's state
does not allow).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from pydantic import BaseModel, ValidationError

from accounts.models import Team
from debates import selectors
from debates.access import can_write, current_team_access, debate_access
from debates.debate_sources import (
    DebateSourceError,
    Upload,
    debate_sources,
    remember_links,
)
from debates.engine import (
    MAX_SOURCE_BYTES,
    DebateConfig,
    InputError,
    detect_language,
    get_protocol,
    options_from_question,
)
from debates.estimates import estimate
from debates.limits import LimitExceeded, refuses_unpriced
from debates.models import Debate
from debates.page_words import PageWords
from debates.services import (
    IllegalTransition,
    debate_cancel,
    debate_more_round,
    debate_rerun,
    debate_start,
    debate_stop,
    plan_debate,
)
from debates.web import export_sections
from debates.web.compare import compare_results
from debates.web.export_sections import (
    THREADS,
    attachment,
    export_filename,
    extra_json,
)
from debates.web.forms import DebateForm, RerunForm, SettingsForm
from debates.web.list_filters import PAGE_SIZE, DebateFilterForm
from debates.web.page_cache import finished_body
from debates.web.pages import debate_page
from debates.web.run_changes import run_changes
from debates.web.transcript_page import transcript_language, transcript_sections
from view_kit.http import AuthenticatedHttpRequest
from view_kit.site_words import ui


def _page_context(debate: Debate, role: str) -> dict[str, object]:
    detailed = selectors.debate_detail(team=debate.team, code=debate.code)
    page = debate_page(detailed, role=role, can_write=can_write(role))
    # The debate's sources (the sources app's, through debates.debate_sources), in its
    # head; while one is being read the list polls itself.
    links = debate_sources().links(debate=detailed)
    remember_links(detailed, links)  # the citations' links (debates.debate_sources)
    # A re-run says what it changed from its parent (docs/web.md, "Compare").
    changes = run_changes(detailed.parent, detailed) if detailed.parent else None
    return {"page": page, "debate": detailed, "role": role, "source_links": links,
            "parent_changes": changes,
            "sources_waiting": any(link.status in ("pending", "extracting") for link in links)}


def _form_source_chars(request: HttpRequest, team: Team) -> int:
    """What the form's sources add to its estimate: the picked and kept ones (their
    text, or their file's size until read) and the files chosen for upload (their size,
    which the page counts: the files themselves are not sent for an estimate)."""
    codes = [*request.GET.getlist("library_sources"), *request.GET.getlist("keep_sources")]
    try:
        picked = debate_sources().chars_of(team=team, codes=codes)
    except DebateSourceError:
        picked = 0  # the form says why when it is sent
    return picked + _int(request.GET.get("upload_bytes"))


def _int(value: str | None) -> int:
    try:
        return max(0, int(value or 0))
    except ValueError:
        return 0


def _result_or_404(debate: Debate) -> BaseModel:
    result = selectors.debate_result(debate=debate)
    if result is None:
        raise Http404("this debate has no synthesis yet")
    return result


def _options(request: HttpRequest) -> set[str]:
    """The export's optional parts the query asks for (``?threads=1``)."""
    return {THREADS} if wants(request, THREADS) else set()


def _markdown(debate: Debate, *, options: set[str]) -> str:
    """The debate's report (debates.web.export_sections.export_markdown, the API's too)."""
    return export_sections.export_markdown(debate, _result_or_404(debate), options=options)


def wants(request: HttpRequest, flag: str) -> bool:
    """``?threads=1`` (or true, yes, on) asks an export for an optional part."""
    return request.GET.get(flag, "").strip().lower() in ("1", "true", "yes", "on")


# ------------------------------------------------------------------------ lists and forms


@login_required
@require_GET
def debate_list(request: HttpRequest) -> HttpResponse:
    """The current team's debates (also the home page)."""
    try:
        team, role = current_team_access(request)
    except PermissionDenied:  # no team yet: an empty list, not an error page
        return render(request, "home.html", {"team": None, "debates": [], "can_write": False})
    form = DebateFilterForm(request.GET)
    found = selectors.debate_search(team=team, filters=form.filters())
    page = Paginator(found, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "home.html", {
        "team": team, "debates": page.object_list, "page": page, "form": form,
        "query": query.urlencode(), "choices": selectors.debate_filter_choices(team=team),
        "can_write": can_write(role),
    })


def _uploads(request: HttpRequest) -> list[Upload]:
    return [Upload(f.name or "file", f.read(MAX_SOURCE_BYTES + 1))  # no more: refused anyway
            for f in request.FILES.getlist("source_files")]


def _uploaded_codes(request: AuthenticatedHttpRequest, team: Team) -> list[str]:
    """The uploaded files stored in the team's library, as source codes the debate
    lists after its chosen ones (so its estimate and limits count them). Called in the
    debate's transaction: a refused file (its message raised as ``InputError``) leaves
    no debate and no file (docs/web.md, "Sources")."""
    uploads = _uploads(request)
    if not uploads:
        return []
    try:
        return debate_sources().upload(team=team, user=request.user, files=uploads)
    except DebateSourceError as exc:
        raise InputError(str(exc)) from None


@login_required
@require_http_methods(["GET", "POST"])
def debate_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    team, _ = current_team_access(request, write=True)
    form = DebateForm(request.POST or None, team=team)
    plan = None
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                spec = form.spec()
                spec = replace(spec, sources=[*spec.sources,
                                              *_uploaded_codes(request, team)])
                debate = debate_start(team=team, user=request.user, spec=spec)
        except InputError as exc:  # bad input or a limit: nothing was saved
            form.add_error(None, str(exc))
            try:  # the estimate of what was asked, with its personas, where it can be had
                plan = plan_debate(team=team, spec=form.spec())
            except InputError:
                pass
        else:
            return redirect("debates:detail", code=debate.code)
    return render(request, "debates/new.html", {
        "form": form, "refuses_unpriced": refuses_unpriced(team),
        "estimate": plan.estimate if plan else estimate(
            SettingsForm.default_config(), text_chars=len(request.POST.get("question", ""))
            + len(request.POST.get("context", ""))),
    }, status=400 if request.method == "POST" else 200)


@login_required
@require_GET
def debate_estimate(request: HttpRequest) -> HttpResponse:
    """The estimate fragment the form fetches (hx-get) whenever a setting changes."""
    team, _ = current_team_access(request)
    form = SettingsForm(request.GET)
    # The chosen protocol plans the calls (the new-debate radios; a re-run's hidden field).
    protocol = {"protocol": request.GET["protocol"]} if request.GET.get("protocol") else {}
    config = form.build_config(protocol) if form.is_valid() else None
    return render(request, "debates/_estimate.html", {
        "refuses_unpriced": refuses_unpriced(team),
        "estimate": estimate(config, text_chars=_int(request.GET.get("question_chars"))
                             + _int(request.GET.get("context_chars")),
                             source_chars=_form_source_chars(request, team)) if config else None,
        "errors": [f"{form.fields[f].label or f}: {e}" if f != "__all__" else e
                   for f, errs in form.errors.items() for e in errs],
    })


@login_required
@require_GET
def debate_options(request: HttpRequest) -> HttpResponse:
    """The automatic options for the question typed so far (hx-get from the form), so
    the user sees what verdicts will choose from before the debate starts."""
    current_team_access(request)
    return render(request, "debates/_options_preview.html", {
        "options": options_from_question(request.GET.get("question", "")[:2000])})


# ------------------------------------------------------------------------ a debate


# The ids of the action forms in debates/_status.html.
ACTION_FORMS = ("action-stop", "action-cancel", "action-more-round")


@login_required
@require_GET
def debate_detail(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    debate, role = debate_access(user=request.user, code=code)

    def body() -> SafeString:
        # No request, so no CSRF token in it: the body may be shared from the cache,
        # and detail.html adds each viewer's.
        return render_to_string("debates/_detail_body.html", _page_context(debate, role))

    # An active debate changes with every step: nothing worth keeping.
    html = body() if debate.is_active else finished_body(debate, role, body)
    return render(request, "debates/detail.html",
                  {"debate": debate, "body": html, "action_forms": ACTION_FORMS,
                   "role": role, "lang": detect_language(debate.question)})


@login_required
@require_GET
def debate_synthesis(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    """The synthesis; ``?version=<code>`` shows one that "One more round" replaced."""
    debate, role = debate_access(user=request.user, code=code)
    context = _page_context(debate, role)
    detailed: Debate = context["debate"]  # type: ignore[assignment]
    context["earlier_versions"] = selectors.earlier_syntheses(debate=detailed)
    version = request.GET.get("version")
    if version:
        try:
            found = selectors.earlier_result(debate=detailed, code=uuid.UUID(version))
        except ValueError:
            found = None
        if found is None:
            raise Http404("no such earlier synthesis")
        context["earlier"], context["result"] = found
    else:
        context["result"] = _result_or_404(detailed)
    result = context["result"]
    assert isinstance(result, BaseModel)
    # Comments on a selected passage where the protocol marks passages to quote.
    context["quotable"] = bool(get_protocol(detailed.protocol).quote_passages(result))
    return render(request, "debates/synthesis.html", context)


@login_required
@require_GET
def debate_transcript(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    debate, _ = debate_access(user=request.user, code=code)
    detailed = selectors.debate_detail(team=debate.team, code=debate.code)
    result = selectors.debate_result(debate=detailed)
    return render(request, "debates/transcript.html", {
        "debate": detailed, "result": result, "lang": transcript_language(detailed),
        "sections": transcript_sections(detailed, getattr(result, "quality_reasons", ())),
    })


@login_required
@require_GET
def debate_print(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    """The Markdown export, rendered for reading and printing; ``?threads=1`` includes
    the comment threads, as the download does."""
    debate, role = debate_access(user=request.user, code=code)
    context = _page_context(debate, role)
    detailed: Debate = context["debate"]  # type: ignore[assignment]
    options = _options(request)
    context.update(result=_result_or_404(detailed), markdown=_markdown(detailed, options=options),
                   with_threads=THREADS in options)
    return render(request, "debates/print.html", context)


@login_required
@require_GET
def export_markdown(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    debate, _ = debate_access(user=request.user, code=code)
    options = _options(request)
    response = HttpResponse(_markdown(debate, options=options),
                            content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = attachment(export_filename(debate, "md", options=options))
    return response


@login_required
@require_GET
def export_json(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    debate, _ = debate_access(user=request.user, code=code)
    # The result, with what other apps add (the team's decision, its actions).
    body = json.dumps({**_result_or_404(debate).model_dump(mode="json"), **extra_json(debate)},
                      ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = attachment(export_filename(debate, "json"))
    return response


@login_required
@require_GET
def debate_compare(request: HttpRequest) -> HttpResponse:
    codes = [request.GET.get("a", ""), request.GET.get("b", "")]
    if not all(codes):
        # Without both runs named, let the user pick them from the team's debates.
        team, role = current_team_access(request)
        return render(request, "debates/compare_pick.html", {
            "debates": selectors.debate_list(team=team, limit=100), "a": codes[0],
            "b": codes[1], "can_write": can_write(role),
        })
    debates = [debate_access(user=request.user, code=c)[0] for c in codes]
    results = [selectors.debate_result(debate=d) for d in debates]
    # Two runs of a protocol that compares its results item by item show its comparison
    # (its "compare" partial); others show side by side with what every result has
    # (stop, cost), and a note saying so.
    first, second = results
    comparison = compare_results(first, second) if first and second else None
    compared = comparison is not None
    # Both runs in one language: the page's fixed words in it; else English.
    languages = {detect_language(d.question) for d in debates}
    lang = languages.pop() if len(languages) == 1 else "en"
    return render(request, "debates/compare.html", {
        "lang": lang, "changes": run_changes(debates[0], debates[1]),
        "a": debates[0], "b": debates[1], "result_a": results[0], "result_b": results[1],
        "comparison": comparison,
        "compare_partial": get_protocol(debates[0].protocol).page_partials()["compare"],
        "lead_a": get_protocol(debates[0].protocol).page_partials()["compare_side"],
        "lead_b": get_protocol(debates[1].protocol).page_partials()["compare_side"],
        "not_council": "" if compared or not all(results) else ", ".join(
            sorted({protocol_name(lang, d.protocol) for d in debates})),
    })


def protocol_name(language: str, protocol: str) -> str:
    """A protocol's name in ``language`` where the pages' catalogue has one (the
    built-ins), else its registered label."""
    words, key = PageWords(language), f"protocol.{protocol}"
    return words(key) if key in words else get_protocol(protocol).label


# ------------------------------------------------------------------------ actions


# Actions that cannot be undone ask first. With JS the button's data-confirm asks in a
# dialog and sends confirm=yes; without JS (or from an old page) this page asks.
# Each step's title, text and two buttons are site keys site.confirm.<action>.<part>,
# in the request's language.
CONFIRM = ("cancel", "more_round")


def _action(request: HttpRequest, code: uuid.UUID, service: Callable[..., Debate],
            done: str, confirm: str = "") -> HttpResponse:
    debate, _ = debate_access(user=request.user, code=code, write=True)
    if confirm and request.POST.get("confirm") != "yes":
        assert confirm in CONFIRM
        # The cancel step names the stop button as the page shows it.
        stop = PageWords()("action.stop")
        title, text, yes, no = (ui(f"site.confirm.{confirm}.{part}", stop=stop)
                                for part in ("title", "text", "yes", "no"))
        return render(request, "debates/confirm.html", {
            "debate": debate, "title": title, "text": text, "yes": yes, "no": no,
            "action": f"debates:{confirm}"})
    try:
        service(debate=debate)
    except IllegalTransition as exc:
        messages.error(request, ui("site.debate.msg.not_possible", reason=exc))
    except LimitExceeded as exc:  # one more round spends: the team's limits apply
        messages.error(request, ui("site.debate.msg.not_started", reason=exc))
    else:
        messages.success(request, done)
    return redirect("debates:detail", code=debate.code)


@login_required
@require_POST
def debate_cancel_view(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    return _action(request, code, partial(debate_cancel, user=request.user),
                   ui("site.debate.msg.cancelled"), confirm="cancel")


@login_required
@require_POST
def debate_stop_view(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    return _action(request, code, debate_stop,
                   ui("site.debate.msg.stopping"))


@login_required
@require_POST
def debate_more_round_view(request: AuthenticatedHttpRequest, code: uuid.UUID
                           ) -> HttpResponse:
    return _action(request, code, partial(debate_more_round, user=request.user),
                   ui("site.debate.msg.more_round"), confirm="more_round")


@login_required
@require_http_methods(["GET", "POST"])
def debate_rerun_view(request: AuthenticatedHttpRequest, code: uuid.UUID) -> HttpResponse:
    debate, _ = debate_access(user=request.user, code=code, write=True)
    form = RerunForm(request.POST or None, debate=debate)
    if request.method == "POST" and form.is_valid() and form.config is not None:
        try:
            with transaction.atomic():
                uploaded = _uploaded_codes(request, debate.team)
                chosen = form.sources()
                if uploaded and chosen is None:
                    chosen = debate_sources().codes(debate=debate)
                child = debate_rerun(debate=debate, user=request.user,
                                     overrides=form.settings_overrides(),
                                     question=form.cleaned_data["question"],
                                     context=form.cleaned_data["context"],
                                     panel=form.cleaned_data["panel"],
                                     sources=None if chosen is None else [*chosen, *uploaded])
        except (InputError, ValidationError) as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, ui("site.debate.msg.rerun_started"))
            return redirect("debates:detail", code=child.code)
    return render(request, "debates/rerun.html", {
        "form": form, "debate": debate, "refuses_unpriced": refuses_unpriced(debate.team),
        "panel_names": list(debate.agents.order_by("index").values_list("name", flat=True)),
        "estimate": estimate(form.config or DebateConfig.model_validate(debate.settings),
                             text_chars=len(debate.question) + len(debate.context),
                             source_chars=debate_sources().chars(debate=debate)),
    }, status=400 if request.method == "POST" else 200)

