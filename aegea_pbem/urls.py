"""URL routes. Each app adds its routes with one include() line below."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from aegea_pbem.accounts import SiteUrlPasswordResetForm
from aegea_pbem.rate_limits import mailing_an_address, rate_limited
from games.web.views import home as views_home
from games.web.views.frontdoor import too_many_resets

# An organiser's password is the key to their games (and staff's to the admin): guesses are limited
# per client address; a reset mails an address, limited as a sign-in link is (docs/front-door.md).
signed_in = rate_limited(None, post="logins")
reset = rate_limited(None, posts=mailing_an_address("resets"), refused=too_many_resets)

urlpatterns = [
    path("", views_home.home, name="home"),
    path("healthz", views_home.healthz, name="healthz"),
    path("admin/login/", signed_in(admin.site.login)),
    path("admin/", admin.site.urls),
    path("accounts/login/", signed_in(auth_views.LoginView.as_view()), name="login"),
    # Before Django's own: the reset email's link is SITE_URL's, not the Host header's.
    path(
        "accounts/password_reset/",
        reset(auth_views.PasswordResetView.as_view(form_class=SiteUrlPasswordResetForm)),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    # The ESPs' webhooks (email orders), the inbound ones bounded in size.
    path("anymail/", include("notifications.webhooks")),
    path("", include("games.web.urls")),
]

# Django's own error answers, translated, and JSON under /api/ (aegea_pbem/errors.py).
handler400 = "aegea_pbem.errors.bad_request"
handler403 = "aegea_pbem.errors.forbidden"
handler404 = "aegea_pbem.errors.not_found"
handler500 = "aegea_pbem.errors.server_error"
