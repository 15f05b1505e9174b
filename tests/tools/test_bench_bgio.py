"""benchmarks/bench_bgio.py on a machine without node: a clear message and exit 2 (nothing run,
nothing installed)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_without_node_it_says_so_and_exits_2(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)  # a PATH with Python and nothing else
    env = dict(os.environ, PATH=str(bin_dir), DEVIL_BENCH_DIR=str(tmp_path / "bench"))
    done = subprocess.run([sys.executable, "-m", "benchmarks.bench_bgio", "--seconds", "1"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "needs node (v18 or later) and npm" in done.stderr
    assert "not found: node, npm" in done.stderr
    assert not (tmp_path / "bench").exists()
