"""The builds the suite shares: the site as published (strict, under a sub-path, with what
`make downloads` adds) and the offline edition, made side by side once per test session and
read by every test worker (tests/conftest.py starts this as a process).

    python -m tests.site_builds FOLDER     writes FOLDER/site, FOLDER/offline, FOLDER/status.json
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import OFFLINE_ZIP, PUBLISHED, REPOSITORY, ROOT, SITE

BUILDS = ("site", "offline")


def build_command(site_dir: Path) -> list[str]:
    """`mkdocs build --strict` into `site_dir`, as the Makefile runs it."""
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]


def main(folder: Path) -> int:
    """Both builds at once (one per core), then the single-file handbook and the offline zip."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    site, offline = folder / "site", folder / "offline" / "attention-verified"
    logs = {
        name: open(folder / f"{name}.log", "w", encoding="utf-8") for name in ("site", "offline")
    }
    procs = {
        "site": subprocess.Popen(
            build_command(site),
            cwd=ROOT,
            env={**env, "SITE_URL": PUBLISHED, "REPO_URL": REPOSITORY},
            stdout=logs["site"],
            stderr=subprocess.STDOUT,
        ),
        "offline": subprocess.Popen(
            build_command(offline),
            cwd=ROOT,
            env={**env, "OFFLINE": "true"},
            stdout=logs["offline"],
            stderr=subprocess.STDOUT,
        ),
    }
    status = {name: proc.wait() for name, proc in procs.items()}
    for log in logs.values():
        log.close()
    from lockstep.browser import available

    if status["site"] == 0 and available():  # `make downloads`: the handbook file and PDF
        cmd = [sys.executable, "-m", "lockstep", "handbook", os.path.relpath(site, ROOT)]
        with open(folder / "handbook.log", "w", encoding="utf-8") as log:
            status["handbook"] = subprocess.run(
                cmd, cwd=ROOT, env={**env, "SITE_URL": PUBLISHED}, stdout=log, stderr=log
            ).returncode
    if status["offline"] == 0:
        archive = folder / OFFLINE_ZIP
        zipped = [sys.executable, "-m", "zipfile", "-c", str(archive), str(offline)]
        status["zip"] = subprocess.run(zipped, capture_output=True).returncode
        if status["site"] == 0 and status["zip"] == 0:
            shutil.copy(archive, site / SITE.options.cards.anki_dest / OFFLINE_ZIP)
    (folder / "status.json").write_text(json.dumps(status), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
