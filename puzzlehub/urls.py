"""Top-level URL routing: each app includes its own urls module (API under /api/, pages at /)."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from puzzlehub.health import healthz
from puzzlehub.middleware import inline_styles_allowed
from puzzlehub.web.views import not_found

api_patterns = [
    path("", include("puzzlehub.accounts.api_urls")),
    path("", include("puzzlehub.repos.api_urls")),
    path("", include("puzzlehub.algorithms.api_urls")),
    path("", include("puzzlehub.jobs.api_urls")),
    path("", include("puzzlehub.web.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # the split view serves Swagger UI's start-up script as a file: no inline script (the CSP);
    # its page keeps an inline stylesheet
    path("docs/", inline_styles_allowed(SpectacularSwaggerSplitView.as_view(url_name="api-schema")), name="api-docs"),
    # any other API path is a JSON 404 under DEBUG too (whose own 404 page is HTML, not handler404);
    # only paths ending in a slash, so that a missing slash is still redirected (APPEND_SLASH)
    re_path(r"^.*/$", not_found, name="api-not-found"),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("api/", include(api_patterns)),
    path("", include("puzzlehub.ops.urls")),
    path("", include("puzzlehub.jobs.urls")),
    path("", include("puzzlehub.algorithms.urls")),
    path("", include("puzzlehub.web.urls")),
]

handler400 = "puzzlehub.web.views.bad_request"
handler404 = "puzzlehub.web.views.not_found"
handler500 = "puzzlehub.web.views.server_error"
handler403 = "puzzlehub.web.views.forbidden"
