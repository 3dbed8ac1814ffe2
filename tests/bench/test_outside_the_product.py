"""The bench is dev-only (bench/__init__.py): installed by bench/settings.py, never by the product's
settings, and imported by no module of the product."""

from __future__ import annotations

import pytest

import aegea_pbem.settings
import bench.settings
from tests.import_support import imports_of


@pytest.mark.parametrize("package", ["games", "notifications", "aegea_pbem"])
def test_no_product_module_imports_the_bench(package: str) -> None:
    assert imports_of(package, "bench") == []


def test_only_the_bench_settings_install_the_bench() -> None:
    assert "bench" not in aegea_pbem.settings.INSTALLED_APPS
    assert [*aegea_pbem.settings.INSTALLED_APPS, "bench"] == bench.settings.INSTALLED_APPS
