"""The project files a stdio MCP server runs, found and hashed for its trust.

Trust of a project server covers the files its command executes from inside the
project, so a script changed after the person trusted it (a ``git pull``, an edit
in an auto-edit turn) is a changed server that waits for trust again. The rule
(:func:`run_files`), applied to the command line with ``${VAR}`` expanded, relative
to the project folder the server starts in:

1. the command, when it names a file (``./run.sh``, ``bin/server``) or is a bare name
   that Foya's ``PATH`` finds inside the project;
2. every word of the arguments (split at spaces and ``=``, so ``--config=x.py`` and
   ``bash -c "python s.py"`` count) that names an existing file in the project:
   ``python server.py``, ``node ./dist/index.js``, ``bash run.sh``, ``uv run srv/main.py``;
3. ``-m pkg.mod`` (Python runs modules from its folder first): ``pkg/mod.py`` or
   ``pkg/mod/__main__.py`` with the package's ``__init__.py`` files; while the module is
   not in the project, ``pkg.py`` and ``pkg/__init__.py`` are recorded as missing, so one
   that appears later (and would shadow the installed module) is a change;
4. beside each code file found so far, the files of the same suffix in its folder (a
   script imports its neighbours: ``server.py`` → ``tools.py``);
5. every folder in the project that an environment value names (``PYTHONPATH=.``,
   ``NODE_PATH=lib``, each part): the code files directly in it (``sitecustomize.py``,
   ``*.pth``, ``index.js``…).

Not followed: imports further away, sub-folders, a folder named by an argument
(``server-filesystem .`` serves data, it does not run it), files outside the project
(the person's own: a symbolic link from the project to outside is recorded with where
it points and never read). At most :data:`MAX_FILES` files are recorded; the rest are
counted. A file is opened without following links; one with several hard links is
hashed but its content is neither kept nor shown, nor is a secret-looking file's. The
text of the others (up to :data:`KEEP_BYTES`) is kept with the trust, so a changed
file can be shown as a diff.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import shutil
import stat
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from foya_desktop.tools.fdwalk import walk_to
from foya_desktop.tools.sensitive import is_secret_looking

MAX_FILES = 100
"""Files recorded per server; beyond that they are only counted."""
KEEP_BYTES = 64_000
"""Text files up to this size are kept with the trust, for the diff shown when they change."""
KEEP_TOTAL = 512_000
"""At most this much text is kept per server."""
CODE_SUFFIXES = frozenset({".py", ".pth", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx",
                           ".sh", ".bash", ".zsh", ".rb", ".pl", ".php", ".lua", ".jar"})
"""Files whose neighbours (rule 4) and whose presence in a named folder (rule 5) count."""

FileState = Literal["file", "missing", "outside", "unreadable"]
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_SPLIT = re.compile(r"[\s=" + re.escape(os.pathsep) + r"]+")
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)


@dataclass(frozen=True, slots=True)
class RunFile:
    """One project file a server runs, as it is now."""

    path: str
    """Relative to the project folder (``/`` separators), symbolic links resolved."""
    state: FileState
    """``outside``: a link in the project that leads out of it (``note`` says where; never read)."""
    sha256: str = ""
    size: int = 0
    note: str = ""
    """Why it could not be read, where an outside link points, or that it has other hard links."""
    text: str | None = None
    """Its text, kept for a later diff (``None``: binary, too large, secret-looking, hard-linked)."""
    hidden: str = ""
    """Why ``text`` is ``None`` for a readable file (not part of the fingerprint)."""

    def key(self) -> list[object]:
        """What the fingerprint covers (the text is covered by the hash)."""
        return [self.path, self.state, self.sha256, self.note]


def run_files(command: str, args: Iterable[str], env: Mapping[str, str], root: Path,
              environ: Mapping[str, str] | None = None) -> tuple[tuple[RunFile, ...], int]:
    """The files the command line runs from ``root`` (expanded words), and how many more were
    left out past :data:`MAX_FILES`. Blocking (reads and hashes files)."""
    real = Path(os.path.realpath(root))
    if not real.is_dir():
        return (), 0
    args = list(args)
    named: dict[str, Path] = {}
    for full in [*_command_file(command, real, environ), *_argument_files(args, real),
                 *_module_files(args, real)]:
        named.setdefault(str(full), full)
    around: dict[str, Path] = {}
    for full in named.values():
        if full.suffix in CODE_SUFFIXES and os.path.isfile(full):
            for near in _code_in(Path(os.path.realpath(full)).parent, real, {full.suffix}):
                around.setdefault(str(near), near)
    for value in env.values():
        for word in _words(value):
            folder = _inside(real, word, folder=True)
            if folder is not None and os.path.isdir(folder):
                for near in _code_in(Path(os.path.realpath(folder)), real, CODE_SUFFIXES):
                    around.setdefault(str(near), near)
    chosen = list(named.values()) + sorted(p for k, p in around.items() if k not in named)
    found: dict[str, RunFile] = {}
    for full in chosen:
        entry = _entry(real, full)
        found.setdefault(entry.path, entry)
    files = list(found.values())
    extra = max(0, len(files) - MAX_FILES)
    return _kept_within_budget(sorted(files[:MAX_FILES], key=lambda f: f.path)), extra


def _words(text: str) -> list[str]:
    return [w for w in _SPLIT.split(text) if w]


def _inside(root: Path, word: str, *, folder: bool = False) -> Path | None:
    """``word`` as a path relative to the server's folder, when by name it lies in the project
    (the project folder itself only as a ``folder``)."""
    if not word or "\x00" in word or len(word) > 4096 or word.startswith("-"):
        return None
    path = Path(os.path.expanduser(word))
    full = Path(os.path.normpath(path if path.is_absolute() else root / path))
    return full if (folder or full != root) and full.is_relative_to(root) else None


def _command_file(command: str, root: Path, environ: Mapping[str, str] | None) -> list[Path]:
    if os.sep in command or command.startswith(("~", ".")):
        full = _inside(root, command)
        return [full] if full is not None else []
    found = shutil.which(command, path=(os.environ if environ is None else environ).get("PATH", os.defpath))
    full = _inside(root, found) if found else None
    return [full] if full is not None else []


def _argument_files(args: list[str], root: Path) -> list[Path]:
    out = []
    for arg in args:
        for word in _words(arg):
            full = _inside(root, word)
            if full is not None and os.path.lexists(full) and not os.path.isdir(full):
                out.append(full)
    return out


def _module_files(args: list[str], root: Path) -> list[Path]:
    """Rule 3: what ``-m pkg.mod`` runs from the project (or would, once it appears)."""
    out: list[Path] = []
    for flag, module in itertools.pairwise(args):
        if flag != "-m" or not _MODULE.fullmatch(module):
            continue
        parts = module.split(".")
        top = root / parts[0]
        if not (root.joinpath(parts[0] + ".py").exists() or top.is_dir()):
            out += [root / (parts[0] + ".py"), top / "__init__.py"]
            continue
        for depth in range(1, len(parts)):
            out.append(root.joinpath(*parts[:depth], "__init__.py"))
        as_file = root.joinpath(*parts).with_name(parts[-1] + ".py")
        out.append(as_file if as_file.exists() else root.joinpath(*parts, "__main__.py"))
    return out


def _code_in(folder: Path, root: Path, suffixes: Iterable[str]) -> list[Path]:
    """The files with one of ``suffixes`` directly in ``folder`` (a folder in the project)."""
    wanted = set(suffixes)
    if not folder.is_relative_to(root):
        return []
    try:
        with os.scandir(folder) as entries:
            return sorted(folder / e.name for e in entries
                          if Path(e.name).suffix in wanted and not e.is_dir(follow_symlinks=False))
    except OSError:
        return []


_cache_lock = threading.Lock()
_cache: dict[tuple[object, ...], RunFile] = {}
_CACHE_SIZE = 256


def _entry(root: Path, full: Path) -> RunFile:
    """``full`` (a path in the project by name) as it is now."""
    name = full.relative_to(root).as_posix()
    real = Path(os.path.realpath(full))
    if not real.is_relative_to(root) or any(real.is_relative_to(p) for p in ("/proc", "/dev", "/sys")):
        return RunFile(name, "outside", note=str(real))
    rel = real.relative_to(root).as_posix()
    try:
        st = os.stat(real, follow_symlinks=False)
    except FileNotFoundError:
        return RunFile(rel, "missing")
    except OSError as exc:
        return RunFile(rel, "unreadable", note=exc.strerror or type(exc).__name__)
    if not stat.S_ISREG(st.st_mode):
        return RunFile(rel, "unreadable", note="not a regular file")
    signature = (str(real), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_nlink)
    with _cache_lock:
        cached = _cache.get(signature)
    if cached is not None:
        return cached
    entry = _hashed(root, real, rel)
    with _cache_lock:
        if len(_cache) >= _CACHE_SIZE:
            _cache.clear()
        _cache[signature] = entry
    return entry


def _hashed(root: Path, real: Path, rel: str) -> RunFile:
    """Hash the file, opened by walking from the root without following any link."""
    try:
        parent = walk_to(root, real.relative_to(root).parts[:-1])
        try:
            fd = os.open(real.name, _READ, dir_fd=parent)
        finally:
            os.close(parent)
    except OSError as exc:
        return RunFile(rel, "unreadable", note=exc.strerror or type(exc).__name__)
    except Exception as exc:  # a link swapped in on the way (ToolError from fdwalk)
        return RunFile(rel, "unreadable", note=str(exc))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            return RunFile(rel, "unreadable", note="not a regular file")
        digest, head, size = hashlib.sha256(), bytearray(), 0
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
            if len(head) <= KEEP_BYTES:
                head += chunk[:KEEP_BYTES + 1 - len(head)]
    note = f"has {st.st_nlink} hard links" if st.st_nlink > 1 else ""
    text, hidden = _keepable(real, bytes(head), size, st.st_nlink)
    return RunFile(rel, "file", digest.hexdigest(), size, note, text, hidden)


def _keepable(real: Path, head: bytes, size: int, links: int) -> tuple[str | None, str]:
    """(text kept for a diff, or why none)."""
    if links > 1:
        return None, "it has other hard links (another name may lie outside the project)"
    if is_secret_looking(real):
        return None, "it looks like it holds secrets"
    if size > KEEP_BYTES:
        return None, f"it is larger than {KEEP_BYTES:,} bytes"
    if b"\x00" in head:
        return None, "it is binary"
    try:
        return head.decode("utf-8"), ""
    except UnicodeDecodeError:
        return None, "it is not UTF-8 text"


def _kept_within_budget(files: list[RunFile]) -> tuple[RunFile, ...]:
    out, used = [], 0
    for f in files:
        used += len(f.text or "")
        out.append(f if f.text is None or used <= KEEP_TOTAL else RunFile(
            f.path, f.state, f.sha256, f.size, f.note, None,
            f"more than {KEEP_TOTAL:,} bytes of this server's files are kept already"))
    return tuple(out)
