"""``foya install-desktop``: put Foya in the desktop's application menu, or take it out again.

Writes, under ``$XDG_DATA_HOME`` (default ``~/.local/share``) or ``--prefix``:

- ``applications/<id>.desktop`` whose ``Exec`` is the absolute path of *this*
  installation (a venv's ``foya`` is not on a desktop launch's PATH);
- the icon in every hicolor size plus the scalable SVG;
- ``metainfo/<id>.metainfo.xml`` (AppStream) so software centres describe it.

``--uninstall`` removes exactly those files and nothing else. Menu and icon
caches are refreshed when their tools exist. No Qt: the PNGs are pre-rendered
(``packaging/render_icons.py``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from foya_desktop import DESKTOP_ID
from foya_desktop.core.errors import FoyaError
from foya_desktop.resources import ICON_SIZES, icon_png, icon_svg, metainfo_template


def add_install_desktop_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``foya install-desktop [--uninstall] [--prefix DIR]``."""
    p = sub.add_parser("install-desktop", help="add Foya to the desktop's application menu (or --uninstall)")
    p.add_argument("--uninstall", action="store_true", help="remove the menu entry, icons and metainfo")
    p.add_argument("--prefix", metavar="DIR", help="data directory to install into "
                   "(default: $XDG_DATA_HOME or ~/.local/share)")


@dataclass(frozen=True, slots=True)
class DesktopFiles:
    """Where each installed file goes under one data directory."""

    root: Path

    @property
    def desktop_entry(self) -> Path:
        return self.root / "applications" / f"{DESKTOP_ID}.desktop"

    @property
    def metainfo(self) -> Path:
        return self.root / "metainfo" / f"{DESKTOP_ID}.metainfo.xml"

    @property
    def scalable_icon(self) -> Path:
        return self.root / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg"

    def png_icon(self, size: int) -> Path:
        return self.root / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{DESKTOP_ID}.png"

    def all(self) -> list[Path]:
        """Every file install writes (and uninstall removes)."""
        icons = [self.png_icon(size) for size in ICON_SIZES]
        return [self.desktop_entry, self.metainfo, self.scalable_icon, *icons]


def data_home(prefix: str | None) -> Path:
    """``--prefix``, else ``$XDG_DATA_HOME``, else ``~/.local/share``."""
    if prefix:
        return Path(prefix).expanduser().resolve()
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    return Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"


def launch_command() -> list[str]:
    """The absolute command that starts this installation's window.

    The ``foya`` script beside the running interpreter when it exists (a venv or
    a system install), else ``<python> -m foya_desktop``.
    """
    script = Path(sys.executable).parent / ("foya.exe" if os.name == "nt" else "foya")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "foya_desktop"]


def _quote_exec_arg(arg: str) -> str:
    """Quote one argument for a desktop entry's ``Exec`` key (freedesktop spec, "The Exec key")."""
    if not any(c in arg for c in ' \t\n"\'\\><~|&;$*?#()`'):
        return arg.replace("%", "%%")
    escaped = arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return '"' + escaped.replace("%", "%%") + '"'


def desktop_entry_text(command: list[str]) -> str:
    """The ``.desktop`` file for ``command`` (one place: there is no second copy in the tree)."""
    # %f: a folder dropped on the launcher opens the window with a new session there (`foya FOLDER`).
    exec_line = " ".join(_quote_exec_arg(a) for a in command) + " %f"
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=Foya",
        "GenericName=AI agent workbench",
        "GenericName[zh_CN]=AI 智能体工作台",
        "Comment=Work with AI agents on your project folders",
        "Comment[zh_CN]=在项目文件夹中与 AI 智能体协作",
        f"Exec={exec_line}",
        f"TryExec={_quote_exec_arg(command[0])}",
        f"Icon={DESKTOP_ID}",
        "Terminal=false",
        "Categories=Development;",
        "Keywords=AI;agent;LLM;assistant;code;",
        "StartupNotify=true",
        "StartupWMClass=Foya",  # Qt sets WM_CLASS to (argv0, applicationName); measured with xprop
        "",
    ])


def install(root: Path, command: list[str]) -> list[Path]:
    """Write every file under ``root``; return what was written."""
    files = DesktopFiles(root)
    try:
        files.desktop_entry.parent.mkdir(parents=True, exist_ok=True)
        files.desktop_entry.write_text(desktop_entry_text(command), encoding="utf-8")
        files.metainfo.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(metainfo_template(), files.metainfo)
        files.scalable_icon.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(icon_svg(), files.scalable_icon)
        for size in ICON_SIZES:
            files.png_icon(size).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(icon_png(size), files.png_icon(size))
    except OSError as error:
        raise FoyaError(f"Could not install the desktop entry under {root}: "
                        f"{error.strerror or error}.") from error
    return files.all()


def uninstall(root: Path) -> list[Path]:
    """Remove the files :func:`install` writes; return those that existed."""
    removed = []
    for path in DesktopFiles(root).all():
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise FoyaError(f"Could not remove {path}: {error.strerror or error}.") from error
        removed.append(path)
    return removed


def _refresh_caches(root: Path) -> None:
    """Best effort: menus and icon themes pick the change up without a log-out."""
    for tool, args in (("update-desktop-database", [str(root / "applications")]),
                       ("gtk-update-icon-cache", ["-q", "-t", str(root / "icons" / "hicolor")])):
        exe = shutil.which(tool)
        if exe:
            subprocess.run([exe, *args], check=False, capture_output=True, timeout=30)


def install_desktop_command(args: argparse.Namespace) -> int:
    """Run ``foya install-desktop``; prints what changed."""
    root = data_home(args.prefix)
    if args.uninstall:
        removed = uninstall(root)
        if not removed:
            print(f"Foya was not installed under {root}; nothing to remove.")
            return 0
        _refresh_caches(root)
        print(f"Removed Foya's menu entry, icons and metainfo ({len(removed)} files) from {root}.")
        return 0
    command = launch_command()
    written = install(root, command)
    _refresh_caches(root)
    print(f"Installed {written[0]}")
    print(f"  launches: {' '.join(command)}")
    print(f"  icons and metainfo: {len(written) - 1} files under {root}")
    print("Foya is in the application menu now (some desktops show it after a few seconds).")
    return 0
