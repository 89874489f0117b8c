"""Git without repository-controlled programs, for the git reads that run without asking.

Git runs programs named by configuration: ``core.fsmonitor``, hooks, pagers,
``diff.external``, diff drivers (``textconv``, ``command``), filters
(``clean``/``smudge``/``process``), ssh and credential helpers, gpg. It also
*discovers* repositories: from a subfolder laid out like a bare repository
(``HEAD``, ``config``, ``objects/``, ``refs/``) ``git status`` would read that
folder's config. A project is a folder the person may not have written, so a
``git status`` that runs unasked must run none of that. The policy (used by
``shell_readonly``):

- git runs unasked only when the project folder itself holds the repository
  (``<project>/.git`` is a folder); the repository is pinned with
  ``GIT_DIR``/``GIT_WORK_TREE`` so no other one is discovered, and
  ``safe.bareRepository=explicit`` and ``GIT_CEILING_DIRECTORIES`` back that up;
- the program-naming settings git consults on reads are overridden on the
  command line (``GIT_CONFIG_COUNT``; command-line config beats every file),
  the system config is ignored, optional locks are off;
- driver programs cannot be overridden by name (the repository chooses the
  names), so a repository whose own config defines any diff driver command,
  textconv, filter or merge driver makes its git reads ask.

Commands the person approved, and commands auto mode runs confined, use git
as it is: the person chose them, or the sandbox bounds what they do (and
``.git`` is read-only there, so nothing is planted for later).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

SAFE_CONFIG: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"), ("core.hooksPath", "/dev/null"), ("core.pager", "cat"),
    ("core.sshCommand", "false"), ("core.gitProxy", "false"),
    ("core.askPass", "false"), ("core.editor", "false"), ("sequence.editor", "false"),
    ("credential.helper", ""), ("protocol.allow", "never"), ("safe.bareRepository", "explicit"),
    ("gpg.program", "false"), ("gpg.ssh.program", "false"), ("gpg.x509.program", "false"),
    ("log.showSignature", "false"), ("submodule.recurse", "false"),
    ("diff.submodule", "short"), ("status.submoduleSummary", "false"), ("core.untrackedCache", "false"),
)
"""Settings forced for unasked git reads (``false`` as a program fails at once; an empty
``credential.helper`` clears the list). ``diff.external`` cannot be switched off by a value,
so a repository that sets it asks instead."""

_RUNS_PROGRAM = re.compile(r"^(diff|merge|filter)\..+\.(textconv|command|clean|smudge|process|driver)$"
                           r"|^diff\.external$", re.IGNORECASE)
"""Program settings that cannot be overridden by value: their presence in the repository asks."""
_REPO_SCOPES = ("local", "worktree")


def repository(root: Path) -> Path | None:
    """The repository folder Foya pins unasked git to: ``<root>/.git`` when it is a real folder."""
    git_dir = root / ".git"
    return git_dir if git_dir.is_dir() and not git_dir.is_symlink() else None


def safe_env(root: Path) -> dict[str, str]:
    """Environment for an unasked git read in the project at ``root``."""
    env = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_ATTR_NOSYSTEM": "1", "GIT_OPTIONAL_LOCKS": "0",
           "GIT_TERMINAL_PROMPT": "0", "GIT_NO_REPLACE_OBJECTS": "1", "GIT_PAGER": "cat",
           "GIT_ALLOW_PROTOCOL": "", "GIT_PROTOCOL_FROM_USER": "0", "GIT_ASKPASS": "false",
           "SSH_ASKPASS": "false", "GIT_SSH": "false", "GIT_SSH_COMMAND": "false",
           "GIT_CEILING_DIRECTORIES": str(root.parent)}
    git_dir = repository(root)
    if git_dir is not None:
        env |= {"GIT_DIR": str(git_dir), "GIT_WORK_TREE": str(root)}
    env["GIT_CONFIG_COUNT"] = str(len(SAFE_CONFIG))
    for index, (key, value) in enumerate(SAFE_CONFIG):
        env[f"GIT_CONFIG_KEY_{index}"] = key
        env[f"GIT_CONFIG_VALUE_{index}"] = value
    return env


def repository_programs(root: Path) -> list[str]:
    """Settings in the repository's own config (and what it includes) that name programs.

    Read with git itself (``git config --list --show-scope --includes``), under
    the safe environment: listing config runs nothing.
    """
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(Path.home()), **safe_env(root)}
    try:
        done = subprocess.run(["git", "config", "--list", "--show-scope", "--includes", "-z"],
                              cwd=root, env=env, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ["(git could not list the repository's config)"]
    if done.returncode != 0:
        return [f"(git could not list the repository's config: {done.stderr.decode(errors='replace')[:200]})"]
    fields = done.stdout.decode("utf-8", "replace").split("\0")
    found: list[str] = []
    for scope, entry in zip(fields[0::2], fields[1::2], strict=False):  # -z: scope NUL key LF value NUL
        key = entry.partition("\n")[0]
        if scope in _REPO_SCOPES and _RUNS_PROGRAM.match(key):
            found.append(key)
    return found


def unasked_git_problem(root: Path) -> str | None:
    """Why git may not run unasked in this project, or ``None`` when it may."""
    if repository(root) is None:
        return ("the project folder is not the top of a git repository, so git would look for one "
                "in other folders")
    programs = repository_programs(root)
    if programs:
        shown = ", ".join(sorted(set(programs))[:4])
        return f"the repository's config names programs git would run ({shown})"
    return None
