"""A throwaway TLS reverse proxy for the tests: Debian's nginx in a temporary prefix, in the
foreground on a free 127.0.0.1 port, configured with docs/serve.md's nginx block (only its
ports, paths and name substituted, so that the documented configuration is the tested one),
and a certificate for a public-looking name signed by a throwaway certificate authority,
both made with the ``openssl`` command.

Without nginx (Debian's ``nginx-light``) or openssl the tests that need them are skipped,
saying why. As root, nginx's workers run as root (``user root;``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from serving import free_port

PUBLIC_NAME = "forage.test"
"""The name the proxy is reached by (never resolved: the clients are told 127.0.0.1)."""
DOCS = Path(__file__).resolve().parents[1] / "docs" / "serve.md"
DOCUMENTED_NAME = "forage.example.org"
DOCUMENTED_UPSTREAM = "http://127.0.0.1:8000"
START_SECONDS = 30.0
STOP_SECONDS = 10.0


def nginx() -> str | None:
    """The nginx program, or None."""
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
    )


def missing() -> str | None:
    """Why the proxy tests cannot run here, or None."""
    if nginx() is None:
        return "nginx is not installed (Debian: apt-get install nginx-light)"
    if shutil.which("openssl") is None:
        return "the openssl command is not installed (Debian: apt-get install openssl)"
    return None


@dataclass(frozen=True)
class Certificates:
    """A throwaway certificate authority and a server certificate it signed."""

    authority: Path
    """The authority's certificate: what a client is told to trust."""
    chain: Path
    """The server's certificate."""
    key: Path
    """The server's private key."""


def _openssl(folder: Path, *words: str) -> None:
    """Run openssl in ``folder``; its output in the failure if it fails."""
    done = subprocess.run(
        ["openssl", *words], cwd=folder, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"openssl {' '.join(words)}: {done.stderr}"


def make_certificates(folder: Path, names: Sequence[str]) -> Certificates:
    """A certificate authority for the test and a certificate it signed for ``names``, with
    the extensions a strict TLS client asks for (Python 3.13 checks them)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ca.cnf").write_text(
        "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = forage tests CA\n"
        "[ca]\nbasicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign\n"
        "subjectKeyIdentifier = hash\n"
    )
    alternatives = ",".join(f"DNS:{name}" for name in names)
    (folder / "server.cnf").write_text(
        f"[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = {names[0]}\n"
        "[server]\nbasicConstraints = critical,CA:FALSE\n"
        "keyUsage = critical,digitalSignature\nextendedKeyUsage = serverAuth\n"
        f"subjectAltName = {alternatives}\nsubjectKeyIdentifier = hash\n"
        "authorityKeyIdentifier = keyid\n"
    )
    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl(
        folder,
        *("req", "-x509", "-config", "ca.cnf", "-extensions", "ca", *curve),
        *("-days", "2", "-keyout", "ca.key", "-out", "ca.pem"),
    )
    _openssl(
        folder,
        *("req", "-new", "-config", "server.cnf", *curve),
        *("-keyout", "server.key", "-out", "server.csr"),
    )
    _openssl(
        folder,
        *("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key"),
        *("-set_serial", "1", "-days", "2", "-out", "server.pem"),
        *("-extfile", "server.cnf", "-extensions", "server"),
    )
    return Certificates(folder / "ca.pem", folder / "server.pem", folder / "server.key")


def documented_nginx() -> str:
    """The nginx configuration docs/serve.md gives (its first ``nginx`` code block)."""
    found = re.search(r"```nginx\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)
    assert found is not None, f"{DOCS} has no nginx code block"
    return found.group(1)


def _substituted(text: str, old: str, new: str) -> str:
    """``text`` with its one ``old`` replaced (the test fails if the docs lost it)."""
    assert text.count(old) == 1, f"docs/serve.md's nginx block should hold {old!r} once"
    return text.replace(old, new)


def nginx_configuration(prefix: Path, port: int, upstream: int, certs: Certificates) -> str:
    """A whole nginx.conf: the documented block listening on 127.0.0.1:``port`` for
    PUBLIC_NAME in front of ``forage serve`` on ``upstream``, its files in ``prefix``."""
    block = documented_nginx()
    block = _substituted(block, "listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    block = _substituted(
        block, f"/etc/letsencrypt/live/{DOCUMENTED_NAME}/fullchain.pem", str(certs.chain)
    )
    block = _substituted(
        block, f"/etc/letsencrypt/live/{DOCUMENTED_NAME}/privkey.pem", str(certs.key)
    )
    block = _substituted(block, DOCUMENTED_NAME, PUBLIC_NAME)
    block = _substituted(block, DOCUMENTED_UPSTREAM, f"http://127.0.0.1:{upstream}")
    program = nginx()
    assert program is not None
    built = subprocess.run([program, "-V"], capture_output=True, text=True, timeout=30).stderr
    temps = "".join(
        f"    {kind.replace('-', '_')}_temp_path {prefix / kind};\n"
        for kind in re.findall(r"--http-([a-z-]+)-temp-path=", built)
    )
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} info;\n"
        "events {\n    worker_connections 256;\n}\n"
        f"http {{\n    access_log {prefix / 'access.log'};\n{temps}{block}}}\n"
    )


@dataclass
class Proxy:
    """A running nginx: its port, process and error log."""

    port: int
    process: subprocess.Popen[bytes]
    prefix: Path

    def errors(self) -> str:
        """What nginx has logged so far."""
        log = self.prefix / "error.log"
        return log.read_text(errors="replace") if log.exists() else ""


def _listening(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:port."""
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def nginx_proxy(folder: Path, upstream: int, certs: Certificates) -> Iterator[Proxy]:
    """nginx with the documented configuration in front of 127.0.0.1:``upstream``, until
    the block ends."""
    program = nginx()
    assert program is not None
    prefix = folder / "nginx"
    prefix.mkdir(parents=True, exist_ok=True)
    port = free_port()
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_configuration(prefix, port, upstream, certs))
    command = [program, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log")]
    out = (prefix / "stderr.log").open("wb")
    process = subprocess.Popen(
        [*command, "-g", "daemon off;"],
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    proxy = Proxy(port, process, prefix)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _listening(port):
            if process.poll() is not None or time.monotonic() > deadline:
                said = (prefix / "stderr.log").read_text(errors="replace")
                raise AssertionError(f"nginx did not start: {said}{proxy.errors()}")
            time.sleep(0.05)
        yield proxy
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(STOP_SECONDS)
        out.close()
