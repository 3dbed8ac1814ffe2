"""Shared helpers of tests/aegea_pbem/ (and of the tests elsewhere that need them), so that no test
imports another test module.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps({'debug': s.DEBUG, 'engine': s.DATABASES['default']['ENGINE'], "
    "'db': str(s.DATABASES['default']['NAME']), 'eager': s.CELERY_TASK_ALWAYS_EAGER, "
    "'broker': s.CELERY_BROKER_URL, 'email': s.EMAIL_BACKEND, 'mailbox': s.EMAIL_FILE_PATH, "
    "'hosts': s.ALLOWED_HOSTS, 'site': s.SITE_URL, 'anymail': s.ANYMAIL, "
    "'db_options': s.DATABASES['default'].get('OPTIONS', {})}))"
)


def settings_with(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    """Import aegea_pbem.settings in a fresh interpreter with only `env` set (plus PATH)."""
    environ = {"PATH": os.environ["PATH"], "AEGEA_VAR_DIR": str(tmp_path), **env}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'aegea_pbem.settings'; {SHOW}",
        ],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
