"""Middleware of the whole site: NUL characters refused, the content security policy, abuse limits,
CPU time per answer."""

import time
from functools import wraps

from django.http import JsonResponse
from django.shortcuts import render
from rest_framework.permissions import SAFE_METHODS

from puzzlehub import limits


class RefuseNulCharacters:
    """Refuse requests whose path or query carries a NUL character: PostgreSQL cannot hold one in
    text, so it could only end in a server error further in. (Form and JSON fields refuse NUL
    themselves.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.GET.lists()
        if "\x00" in request.path or any("\x00" in key + "".join(values) for key, values in query):
            return JsonResponse({"detail": "the address contains a NUL character"}, status=400)
        return self.get_response(request)


class ServerTimingCpu:
    """Every answer says how much CPU its process spent on it (`Server-Timing: cpu;dur=<ms>`): the
    figure the one-second rule for requests is about, which wall time on a busy machine is not."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.thread_time()
        response = self.get_response(request)
        response["Server-Timing"] = f"cpu;dur={(time.thread_time() - started) * 1000:.1f}"
        return response


# Scripts, styles and pictures from this site only: user text (descriptions, comments, puzzle
# names) can never run as script, even if some escaping were missed. Drawings are inline SVG and
# the player's state lives in JSON script elements, which the policy does not execute.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
                           "form-action 'self'; frame-ancestors {ancestors}")


class ContentSecurityPolicy:
    """The policy on every answer; pages made to be framed elsewhere (the player's embed, marked
    xframe_options_exempt) may be framed by any site, every other page by none."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        ancestors = "*" if getattr(response, "xframe_options_exempt", False) else "'none'"
        policy = CONTENT_SECURITY_POLICY.format(ancestors=ancestors)
        if getattr(response, "inline_styles_allowed", False):
            policy = policy.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        response["Content-Security-Policy"] = policy
        return response


def inline_styles_allowed(view):
    """A view whose page has inline styles of code not ours (Swagger UI); scripts stay refused."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response.inline_styles_allowed = True
        return response
    return wrapped


class AbuseLimits:
    """Every write through a page form counts against the user's (or address's) rate, and a
    `limits.Refused` raised anywhere below (sign-up, wrong passwords, comments, on pages and the API
    alike) becomes 429 with Retry-After: JSON for the API, a page otherwise."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in SAFE_METHODS and not request.path.startswith("/api/"):
            user = getattr(request, "user", None)
            try:
                limits.hit("page_write", user.pk if user is not None and user.is_authenticated else limits.address(request))
            except limits.Refused as refused:
                return self.refusal(request, refused)
        return self.get_response(request)

    def process_exception(self, request, exception):
        return self.refusal(request, exception) if isinstance(exception, limits.Refused) else None

    @staticmethod
    def refusal(request, refused):
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": str(refused), "retry_after": refused.retry_after}, status=429)
        else:
            response = render(request, "web/429.html", {"message": str(refused)}, status=429)
        response["Retry-After"] = str(refused.retry_after)
        return response
