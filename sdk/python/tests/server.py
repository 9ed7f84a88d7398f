"""A real burraco-server on loopback for the tests: a free port, a scratch data directory,
server bots without their thinking pause; stopped by its pid."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[3]


def server_binary() -> str:
    """``BURRACO_SERVER_BIN``, else the debug build of this tree."""
    path = os.environ.get("BURRACO_SERVER_BIN") or str(REPO / "target/debug/burraco-server")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"no server binary at {path}: build it (cargo build -p burraco-server) "
                           "or set BURRACO_SERVER_BIN")
    return path


class Server:
    def __init__(self, *extra: str) -> None:
        self.data = tempfile.mkdtemp(prefix="burraco-sdk-test-")
        self.log_path = os.path.join(self.data, "server.log")
        self._log = open(self.log_path, "wb")
        # `--listen 127.0.0.1:0`: the kernel picks a free port; the server prints it first.
        self.proc = subprocess.Popen(
            [server_binary(), "--listen", "127.0.0.1:0", "--data", self.data,
             "--bot-delay-ms", "0", "--next-hand-delay-secs", "30", *extra],
            stdout=subprocess.PIPE, stderr=self._log)
        self.port = self._read_port()

    def _read_port(self) -> int:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline().decode()
            if not line:
                break
            if line.startswith("listening on "):
                return int(line.rsplit(":", 1)[1])
        self.stop()
        raise RuntimeError(f"the server did not start; its log: {self.log()}")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def log(self) -> str:
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._log.close()
        shutil.rmtree(self.data, ignore_errors=True)


_shared: Optional[Server] = None


def shared_server() -> Server:
    """One server for the whole run (started on first use, stopped by ``stop_shared``)."""
    global _shared
    if _shared is None:
        _shared = Server()
    return _shared


def stop_shared() -> None:
    global _shared
    if _shared is not None:
        _shared.stop()
        _shared = None
