"""A project folder with every kind of escape hatch planted inside, for the path tests."""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

SECRET = b"TOP SECRET outside the project\n"


def png_bytes(width: int = 2, height: int = 2) -> bytes:
    """A valid tiny PNG, built by hand so tests need no image library."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def build_world(base: Path) -> tuple[Path, Path]:
    """A project next to an outside folder, with symlinks, a hard link and a loop inside.

    Returns (project root, data dir). The data dir lies inside the project on
    purpose, so that its protection is tested too.
    """
    outside = base / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "secret.txt").write_bytes(SECRET)
    (outside / "dir" / "inner.txt").write_bytes(SECRET)
    (outside / "img.png").write_bytes(png_bytes())
    (base / "proj2").mkdir()
    (base / "proj2" / "file.txt").write_bytes(SECRET)
    root = base / "proj"
    (root / "src").mkdir(parents=True)
    (root / "README.md").write_text("hello\nworld\n")
    (root / "src" / "a.py").write_text("print('a')\n")
    (root / ".git" / "hooks").mkdir(parents=True)
    (root / ".git" / "config").write_text("[core]\n\tbare = false\n")
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    data = root / ".foya-data"
    data.mkdir()
    (data / "foya.db").write_bytes(b"SQLite format 3\x00")
    links = {
        "link_file": "../outside/secret.txt", "link_abs": str(outside / "secret.txt"),
        "link_dir": "../outside", "link_chain": "link_dir", "dangling_out": "../outside/new.txt",
        "loop_a": "loop_b", "loop_b": "loop_a", "link_parent": "..", "link_proc": "/proc/self/root",
        "link_etc": "/etc", "link_img": "../outside/img.png",
    }
    for name, target in links.items():
        os.symlink(target, root / name)
    os.link(outside / "secret.txt", root / "hard.txt")
    return root, data


def snapshot(base: Path) -> dict[str, bytes | str]:
    """Everything outside the project (and its protected parts): contents and link targets."""
    found: dict[str, bytes | str] = {}
    tops = [base / "outside", base / "proj2", base / "proj" / ".git", base / "proj" / ".foya-data"]
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(top):
            for name in dirnames + filenames:
                path = Path(dirpath) / name
                rel = str(path.relative_to(base))
                found[rel] = os.readlink(path) if path.is_symlink() else (
                    "<dir>" if path.is_dir() else path.read_bytes())
    found["<base entries>"] = ",".join(sorted(os.listdir(base)))
    return found
