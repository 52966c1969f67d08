"""The comments panel of a debate (an HTMX fragment, or a page of its own), comment
actions, carrying comments into a re-run, and the user's mentions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.access import WRITE_ROLES, Need
from accounts.models import Membership
from collab import selectors, services
from collab.access import comment_access, debate_comments_access
from collab.forms import CommentForm, EditForm
from collab.models import TargetKind
from debates.limits import LimitExceeded
from debates.models import Debate
from view_kit.http import AuthenticatedHttpRequest, HtmxHttpRequest
from view_kit.site_words import ui

_FIELD_NAMES = {"body": "comment", "target_kind": "about", "target_ref": "which one",
                "quote": "quoted passage", "quote_offset": "quote position"}
PREFILL = ("target_kind", "target_ref", "quote", "quote_offset")
# The recommendation's parts a comment may be about, named in the site catalogue.
RECOMMENDATION_PARTS = ("recommendation", "stakes", "strongest_evidence", "weakest_evidence",
                        "path_dependencies", "risks")


def _short(text: object, limit: int = 70) -> str:
    words = " ".join(str(text or "").split())
    return words if len(words) <= limit else words[: limit - 1] + "…"


def _target_kinds(result: selectors.ResultView | None) -> list[tuple[str, str]]:
    """(kind, label) of what the form's "About" offers: the synthesis, the kinds of
    part the result has (in TargetKind's order, a plugin's after them) and a quoted
    passage where the result has passages to quote."""
    kinds = {p.kind for p in result.parts} if result else set()
    if result and result.passages:
        kinds.add(TargetKind.QUOTE)
    known = [(k, ui(f"site.about.{k}")) for k in TargetKind.values
             if k == TargetKind.SYNTHESIS or k in kinds]
    own = [(k, selectors.kind_words(k).capitalize()) for k in
           dict.fromkeys(p.kind for p in result.parts) if k not in TargetKind.values] \
        if result else []
    return known + own


def _kind_label(kind: str) -> str:
    """A part's kind in the reader's language; one no catalogue names (a plugin's) in
    its own words."""
    key = "site.collab.claim_to_verify" if kind == TargetKind.CLAIM else f"site.kind.{kind}"
    try:
        return ui(key)
    except KeyError:
        return selectors.kind_words(kind)


def _target_choices(result: selectors.ResultView | None) -> list[tuple[str, str]]:
    """(target_ref, label) of what the synthesis offers to comment on, for the form's
    suggestion list (the service still checks whatever is typed): its protocol's parts,
    the parts of the recommendation last."""
    if result is None:
        return []
    choices = [(p.ref, f"{_kind_label(p.kind)}: {_short(p.text)}")
               for p in result.parts if p.kind != TargetKind.RECOMMENDATION]
    recommendation = _kind_label(TargetKind.RECOMMENDATION)
    return choices + [(p.ref, f"{recommendation}: " + (
        ui(f"site.rec.{p.ref}") if p.ref in RECOMMENDATION_PARTS else p.ref.replace("_", " ")))
                      for p in result.of_kind(TargetKind.RECOMMENDATION)]


def _panel(request: HtmxHttpRequest, debate: Debate, role: str, *,
           form: CommentForm | None = None, error: str = "", status: int = 200) -> HttpResponse:
    """The panel: a fragment for HTMX requests, otherwise a full page."""
    can_write = role in WRITE_ROLES
    result = selectors.synthesis_result(debate)
    context = {
        "debate": debate,
        "can_write": can_write,
        "can_moderate": role == Membership.Role.OWNER,
        # For @-mention autocompletion in the comment boxes.
        "members": [u.get_username() for u in selectors.team_members(debate=debate)]
        if can_write else [],
        "threads": selectors.debate_threads(debate=debate),
        "form": form or CommentForm(),
        "error": error,
        "target_kinds": _target_kinds(result),
        "target_choices": _target_choices(result) if role in WRITE_ROLES else [],
    }
    template = "collab/_panel.html" if request.htmx else "collab/comments.html"
    return render(request, template, context, status=status)


def _after_write(request: HtmxHttpRequest, debate: Debate, role: str, error: str = "",
                 form: CommentForm | None = None) -> HttpResponse:
    if request.htmx:
        # htmx swaps only 2xx responses, so a refusal is shown inside the panel, with
        # what the user typed kept in the form.
        return _panel(request, debate, role, error=error, form=form if error else None)
    if error:
        messages.error(request, error)
    return redirect("collab:comments", code=debate.code)


@login_required
@require_http_methods(["GET", "POST"])
def comments(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """GET lists the threads; POST starts a thread, or replies when ``parent`` is set."""
    need = Need.WRITE if request.method == "POST" else Need.READ
    debate, role = debate_comments_access(request, code, need=need)
    if request.method == "GET":
        # ?target_kind=risk&target_ref=R2 (or quote=...) prefills the new-comment form,
        # so a link next to a part of the synthesis opens a thread about that part.
        initial = {k: request.GET[k] for k in PREFILL if k in request.GET}
        return _panel(request, debate, role, form=CommentForm(initial=initial))
    form = CommentForm(request.POST)
    if not form.is_valid():
        return _after_write(request, debate, role, form=form, error=(
            "The comment was not saved: " + "; ".join(
                f"{_FIELD_NAMES.get(name, name)}: {' '.join(map(str, errors))}"
                for name, errors in form.errors.items())))
    data = form.cleaned_data
    parent = None
    if data["parent"]:
        parent = selectors.debate_comment(debate=debate, code=data["parent"])
        if parent is None:
            return _after_write(request, debate, role, form=form,
                                error="That thread no longer exists.")
    try:
        services.comment_create(
            debate=debate, author=request.user, body=data["body"],
            target_kind=data["target_kind"] or TargetKind.SYNTHESIS,
            target_ref=data["target_ref"], quote=data["quote"],
            quote_offset=data["quote_offset"], parent=parent,
        )
    except services.CommentError as exc:
        if request.htmx and request.POST.get("via") == "selection":
            return _selection_refused(f"The comment was not saved: {exc}")
        # A reply's text belongs to its thread's reply box, not the new-comment form.
        return _after_write(request, debate, role, error=f"The comment was not saved: {exc}",
                            form=None if parent else form)
    return _after_write(request, debate, role)


def _selection_refused(error: str) -> HttpResponse:
    """A comment on selected text that was refused: the message goes into the small
    form next to the selection (which keeps what was typed), not the panel below."""
    response = render_to_string("collab/_form_error.html", {"error": error})
    refused = HttpResponse(response)
    refused["HX-Retarget"] = "#selection-comment-error"
    refused["HX-Reswap"] = "innerHTML"
    return refused


@login_required
@require_http_methods(["GET", "POST"])
def comment_edit(request: AuthenticatedHttpRequest, code: str, comment: str) -> HttpResponse:
    found, role = comment_access(request, code, comment, need=Need.WRITE)
    if found.author_id != request.user.pk:
        raise services.NotYourComment("You can only edit your own comments.")
    if request.method == "GET":
        template = "collab/_edit.html" if request.htmx else "collab/edit.html"
        return render(request, template, {"comment": found, "debate": found.debate,
                                          "form": EditForm(initial={"body": found.body})})
    form = EditForm(request.POST)
    error = ""
    if not form.is_valid():
        error = "A comment cannot be empty."
    else:
        try:
            services.comment_edit(comment=found, user=request.user, body=form.cleaned_data["body"])
        except services.CommentError as exc:
            error = str(exc)
    return _after_write(request, found.debate, role, error=error)


def _act(request: AuthenticatedHttpRequest, code: str, comment: str, action: str) -> HttpResponse:
    found, role = comment_access(request, code, comment, need=Need.WRITE)
    error = ""
    try:
        if action == "delete":
            services.comment_delete(comment=found, user=request.user)
        else:
            services.thread_set_resolved(comment=found, user=request.user,
                                         resolved=action == "resolve")
    except services.CommentError as exc:
        error = str(exc)
    return _after_write(request, found.debate, role, error=error)


def _moderate(request: AuthenticatedHttpRequest, code: str, comment: str,
              hidden: bool) -> HttpResponse:
    found, role = comment_access(request, code, comment, need=Need.WRITE)
    error = ""
    try:
        services.comment_set_hidden(comment=found, user=request.user, hidden=hidden)
    except services.CommentError as exc:
        error = str(exc)
    return _after_write(request, found.debate, role, error=error)


@login_required
@require_POST
def comment_hide(request: AuthenticatedHttpRequest, code: str, comment: str) -> HttpResponse:
    return _moderate(request, code, comment, hidden=True)


@login_required
@require_POST
def comment_show(request: AuthenticatedHttpRequest, code: str, comment: str) -> HttpResponse:
    return _moderate(request, code, comment, hidden=False)


@login_required
@require_GET
def comment_history(request: AuthenticatedHttpRequest, code: str, comment: str) -> HttpResponse:
    """The comment's earlier texts, newest first. A hidden comment's history is for
    owners (and its author) only, like its text."""
    found, role = comment_access(request, code, comment)
    if found.is_hidden and role != Membership.Role.OWNER and found.author_id != request.user.pk:
        raise services.NotYourComment("An owner hid this comment.")
    return render(request, "collab/history.html", {
        "debate": found.debate, "comment": found,
        "revisions": selectors.comment_history(comment=found)})


@login_required
@require_GET
def moderation(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """The log of owners hiding, showing and deleting others' comments on this debate."""
    debate, role = debate_comments_access(request, code)
    if role != Membership.Role.OWNER:
        raise PermissionDenied("Only team owners can read the moderation log.")
    return render(request, "collab/moderation.html", {
        "debate": debate, "entries": selectors.moderation_log(debate=debate)[:500]})


@login_required
@require_POST
def comment_delete(request: AuthenticatedHttpRequest, code: str, comment: str) -> HttpResponse:
    return _act(request, code, comment, "delete")


@login_required
@require_POST
def comment_resolve(request: AuthenticatedHttpRequest, code: str, comment: str) -> HttpResponse:
    return _act(request, code, comment, "resolve")


@login_required
@require_POST
def comment_reopen(request: AuthenticatedHttpRequest, code: str, comment: str) -> HttpResponse:
    return _act(request, code, comment, "reopen")


@login_required
@require_POST
def comments_carry(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """Re-runs the debate with the chosen comments added to its context as objections."""
    debate, role = debate_comments_access(request, code, need=Need.WRITE)
    try:
        rerun = services.debate_rerun_with_objections(
            debate=debate, user=request.user, comment_codes=request.POST.getlist("comments"),
        )
    except (services.CommentError, LimitExceeded, ValueError) as exc:
        return _after_write(request, debate, role, error=f"No re-run started: {exc}")
    messages.success(request, "Re-run started with your objections.")
    url = reverse("debates:detail", kwargs={"code": rerun.code})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@login_required
@require_GET
def mentions(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "collab/mentions.html",
                  {"mentions": selectors.user_mentions(user=request.user)
                   .select_related("comment__debate__team")[:200]})


