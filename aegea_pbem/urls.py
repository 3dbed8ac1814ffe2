"""URL routes. Each app adds its routes with one include() line below."""

from django.contrib import admin
from django.contrib.auth.views import PasswordResetView
from django.urls import include, path

from aegea_pbem.accounts import SiteUrlPasswordResetForm
from games import views_home

urlpatterns = [
    path("", views_home.home, name="home"),
    path("healthz", views_home.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Before Django's own: the reset email's link is SITE_URL's, not the Host header's.
    path(
        "accounts/password_reset/",
        PasswordResetView.as_view(form_class=SiteUrlPasswordResetForm),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    # Issue 6: the ESPs' webhooks (email orders), the inbound ones bounded in size.
    path("anymail/", include("notifications.webhooks")),
    path("", include("games.urls")),
]

# Django's own error answers, translated, and JSON under /api/ (aegea_pbem/errors.py).
handler400 = "aegea_pbem.errors.bad_request"
handler403 = "aegea_pbem.errors.forbidden"
handler404 = "aegea_pbem.errors.not_found"
handler500 = "aegea_pbem.errors.server_error"
