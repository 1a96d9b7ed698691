"""`make demo`, the README's first command, run whole: it must keep working as the CLI and the state file
change (it broke once when the CLI's state file became the library's own)."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_demo_signs_in_refreshes_and_revokes():
    result = subprocess.run(["bash", "scripts/demo.sh"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "== refresh token rotated and saved: yes" in result.stdout
    assert "(exit code 3: signed out, as expected)" in result.stdout
