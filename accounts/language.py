"""Which language the site speaks to a request (docs/web.md, "Languages"): the user's
own setting (``AccountSettings.language``) when signed in and set, else the browser's
``Accept-Language`` among the site's languages, else English. The middleware activates
it for the request, so ``{% tr %}`` on a page that is not a debate's, the messages and
the mails read it (``debates.page_words.PageWords`` takes the active language); a
debate's own pages keep the debate's language (``page_language``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from accounts.models import AccountSettings
from audit.services import record

# The user's setting, kept in the session so a page costs no query for it ("" = unset).
SESSION_KEY = "council_language"
# The catalogues name Chinese "zh" (debates/locale/zh); Django's own words (form errors,
# password rules) are in its "zh-hans" catalogue, so that is the code Django activates.
DJANGO_CODE = {"zh": "zh-hans"}


def catalogue_language(django_code: str) -> str:
    """"zh-hans" → "zh", "en-us" → "en": the catalogues' name of a language."""
    return django_code.split("-")[0].lower()


def site_languages() -> list[str]:
    return [catalogue_language(code) for code, _ in settings.LANGUAGES]


def activate(language: str) -> None:
    translation.activate(DJANGO_CODE.get(language, language))


def override(language: str) -> translation.override:
    """``with override(language):`` what is rendered outside a request (a socket's
    fragments) speaks ``language``."""
    return translation.override(DJANGO_CODE.get(language, language))


def scope_language(scope: dict[str, Any]) -> str:
    """A websocket's language, as its page's: the user's setting, else the
    Accept-Language its handshake sent."""
    request = HttpRequest()
    request.user = scope["user"]
    request.session = scope.get("session")  # type: ignore[assignment]
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return request_language(request)


def user_language(user: Any) -> str:
    """The user's own setting, "" when they left it to the browser."""
    found = AccountSettings.objects.filter(user=user).values_list("language", flat=True).first()
    return found or ""


def language_set(*, request: HttpRequest, language: str) -> None:
    """Stores the signed-in user's choice ("" for the browser's) and speaks it from this
    request on."""
    if language and language not in site_languages():
        raise ValueError(f"unknown language {language!r}")
    with transaction.atomic():
        AccountSettings.objects.update_or_create(user=request.user,
                                                 defaults={"language": language})
        record("account.language", user=request.user, kind="user",
               code=request.user.get_username(), data={"language": language})
    request.session[SESSION_KEY] = language
    activate(language or _browser_language(request))


@receiver(user_logged_in, dispatch_uid="accounts.language.remember")
def _remember_on_login(sender: Any, request: HttpRequest | None, user: Any,
                       **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = user_language(user)


def _browser_language(request: HttpRequest) -> str:
    # Django's reading of Accept-Language, among settings.LANGUAGES ("zh-CN" is zh).
    return catalogue_language(translation.get_language_from_request(request)
                              or settings.LANGUAGE_CODE)


def request_language(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        chosen = request.session.get(SESSION_KEY)
        if chosen is None:  # a session from before the setting existed
            chosen = request.session[SESSION_KEY] = user_language(user)
        if chosen:
            return str(chosen)
    return _browser_language(request)


class LanguageMiddleware:
    """Activates the request's language (after authentication); the answer says which
    (Content-Language) and that it varies with Accept-Language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = request_language(request)
        activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        try:
            response = self.get_response(request)
        finally:
            translation.deactivate()
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", language)
        return response
