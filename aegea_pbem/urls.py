"""URL routes. Each app adds its routes with one include() line below."""

from django.contrib import admin
from django.urls import include, path

from games import views_home

urlpatterns = [
    path("", views_home.home, name="home"),
    path("healthz", views_home.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    # Issue 6: the ESPs' webhooks (email orders), the inbound ones bounded in size.
    path("anymail/", include("notifications.webhooks")),
    path("", include("games.urls")),
]
