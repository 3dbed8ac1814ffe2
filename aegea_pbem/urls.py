"""URL routes. Each app adds its routes with one include() line below."""

from django.contrib import admin
from django.urls import include, path

from games import views_home

urlpatterns = [
    path("", views_home.home, name="home"),
    path("healthz", views_home.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("anymail/", include("anymail.urls")),  # issue 6: the ESPs' inbound webhooks (email orders)
    path("", include("games.urls")),
]
