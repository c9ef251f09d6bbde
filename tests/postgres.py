"""A throwaway PostgreSQL cluster for the tests: initdb and pg_ctl in a temporary folder, a
free port on 127.0.0.1 (password only) and a unix socket in the folder (for the admin),
a database, and a role with no rights but a schema it owns for each test.

As root (CI), the cluster runs as the ``postgres`` user, since PostgreSQL will not run as
root. Without the binaries (Debian's ``postgresql`` package), or psycopg, the tests that
need it are skipped, saying why.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serving import free_port

ROLE = "forage_app"
DATABASE = "forage"
START_SECONDS = 60


def binaries() -> Path | None:
    """The folder of PostgreSQL's server programs (the newest installed), or None."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    found_dirs = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    numbered = [d for d in found_dirs if d.parent.name.isdigit()]
    return max(numbered, key=lambda d: int(d.parent.name)) if numbered else None


def missing() -> str | None:
    """Why the PostgreSQL tests cannot run here, or None."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (uv sync installs it with the dev group)"
    if binaries() is None:
        return "PostgreSQL's initdb is not installed (Debian: apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run PostgreSQL as"
    return None


@dataclass(frozen=True)
class StoreAt:
    """Where a test's store is: an SQLite file in ``folder``, or PostgreSQL at ``url``."""

    folder: Path
    url: str | None

    @property
    def kind(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return "sqlite" if self.url is None else "postgresql"


@dataclass
class Cluster:
    """A running throwaway cluster."""

    folder: Path
    port: int
    password: str
    bin: Path
    user: str | None

    def admin(self) -> Any:
        """A connection as the cluster's superuser, through the socket, to the database."""
        import psycopg

        return psycopg.connect(
            host=str(self.folder), port=self.port, user="admin", dbname=DATABASE, autocommit=True
        )

    def schema(self) -> str:
        """A fresh schema that only the role owns; the URL the role reaches it by."""
        name = f"t_{secrets.token_hex(6)}"
        with self.admin() as conn:
            conn.execute(f"CREATE SCHEMA {name} AUTHORIZATION {ROLE}")
        return self.url(name)

    def url(self, schema: str) -> str:
        """The address of the database as the role, over TCP, on a schema."""
        return (
            f"postgresql://{ROLE}:{self.password}@127.0.0.1:{self.port}/{DATABASE}"
            f"?options=-csearch_path%3D{schema}"
        )

    def stop(self, mode: str = "fast") -> None:
        """Stop the cluster."""
        run(self, "pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "stop")

    def start(self) -> None:
        """Start the cluster (again), waiting until it takes connections."""
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c max_connections=200 -c shared_buffers=32MB"
        )
        run(
            self,
            "pg_ctl",
            "-D",
            str(self.folder / "data"),
            "-o",
            options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "-t",
            str(START_SECONDS),
            "start",
        )


def run(cluster: Cluster, program: str, *args: str) -> None:
    """Run one of PostgreSQL's programs as the cluster's user."""
    subprocess.run(
        [str(cluster.bin / program), *args],
        check=True,
        capture_output=True,
        user=cluster.user,
        timeout=START_SECONDS,
    )


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    """A throwaway cluster with the database and the role, stopped and removed at the end."""
    bin_dir = binaries()
    assert bin_dir is not None
    folder = Path(tempfile.mkdtemp(prefix="forage-pg-"))
    user = "postgres" if os.geteuid() == 0 else None
    if user is not None:
        shutil.chown(folder, user)
    made = Cluster(folder, free_port(), secrets.token_hex(12), bin_dir, user)
    try:
        run(
            made,
            "initdb",
            "-D",
            str(folder / "data"),
            "-U",
            "admin",
            "-E",
            "UTF8",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "--no-sync",
        )
        made.start()
        import psycopg

        with psycopg.connect(
            host=str(folder), port=made.port, user="admin", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
            conn.execute(
                f"CREATE ROLE {ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE"
                f" PASSWORD '{made.password}'"
            )
        yield made
    finally:
        with contextlib.suppress(Exception):
            made.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)
