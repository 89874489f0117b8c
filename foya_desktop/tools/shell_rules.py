"""The command tables behind ``classify_command``: what is read-only, what fetches, what destroys.

Kept apart from the walking logic so that reviewing the policy means reading
data, not code. Every entry on the read-only list names the options that
would make the command write, execute or follow symlinks out of the project
(``sort -o``, ``rg --pre``, ``tail -f``…); options are matched the way GNU
getopt matches them, abbreviations included.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Spec:
    """How one read-only command takes its arguments."""

    text_short: str = ""
    """Short options whose value is text (a count, a pattern): not a path.

    Only options whose value is *required* belong here: reading an optional
    value as the next word would hide a real operand from the path check."""
    path_short: str = ""
    """Short options whose value is a file: checked like an operand."""
    text_long: frozenset[str] = frozenset()
    path_long: frozenset[str] = frozenset()
    bad_short: str = ""
    """Short options that write, execute or follow symlinks: never auto-allowed."""
    bad_long: tuple[str, ...] = ()
    pattern_first: bool = False
    """The first operand is a search pattern (grep, rg) unless ``-e``/``-f`` gave one."""
    paths: bool = True
    """Operands are file paths (``echo``'s are not)."""
    max_operands: int | None = None
    """``uniq IN OUT`` writes OUT: cap the operands to stay read-only."""


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


_GREP = Spec(
    text_short="emABCdD", path_short="f",
    text_long=_set("regexp", "max-count", "after-context", "before-context", "context", "devices",
                   "directories", "include", "exclude", "exclude-dir", "label", "binary-files",
                   "group-separator"),
    path_long=_set("file", "exclude-from"),
    pattern_first=True)
"""``-r``/``-R`` are checked by walking the folders searched (``shell_readonly._recursive``)."""

_RG = Spec(
    text_short="emABCgjMrtTEd", path_short="f",
    text_long=_set("regexp", "max-count", "after-context", "before-context", "context", "glob", "iglob",
                   "threads", "max-columns", "replace", "type", "type-not", "encoding", "max-depth",
                   "max-filesize", "sort", "sortr", "colors", "color", "path-separator", "type-add",
                   "type-clear", "context-separator", "engine", "pre-glob", "dfa-size-limit",
                   "regex-size-limit", "field-match-separator", "field-context-separator"),
    path_long=_set("file", "ignore-file"),
    bad_short="Lz", bad_long=("pre", "follow", "search-zip", "hostname-bin"), pattern_first=True)

READ_ONLY: dict[str, Spec] = {
    "ls": Spec(text_short="IwT", text_long=_set("ignore", "hide", "width", "tabsize", "format", "sort",
                                                 "time", "time-style", "block-size", "quoting-style",
                                                 "indicator-style"),
               bad_short="L", bad_long=("dereference",)),
    "cat": Spec(),
    "head": Spec(text_short="nc", text_long=_set("lines", "bytes")),
    "tail": Spec(text_short="ncs", text_long=_set("lines", "bytes", "sleep-interval"),
                 bad_short="fF", bad_long=("follow", "retry", "pid")),
    "wc": Spec(bad_long=("files0-from",)),
    "pwd": Spec(),
    "echo": Spec(paths=False),
    "grep": _GREP, "egrep": _GREP, "fgrep": _GREP,
    "rg": _RG,
    "sort": Spec(text_short="ktS", text_long=_set("key", "field-separator", "buffer-size", "parallel",
                                                  "sort"),
                 bad_short="oT", bad_long=("output", "compress-program", "temporary-directory",
                                           "files0-from", "random-source")),
    "uniq": Spec(text_short="fsw", text_long=_set("skip-fields", "skip-chars", "check-chars"),
                 max_operands=1),
    "cut": Spec(text_short="bcdf", text_long=_set("bytes", "characters", "delimiter", "fields",
                                                  "output-delimiter")),
    "tr": Spec(paths=False),
    "file": Spec(text_short="FP", path_short="m", text_long=_set("separator", "parameter"),
                 path_long=_set("magic-file"), bad_short="Cf", bad_long=("compile", "files-from")),
    "stat": Spec(text_short="c", text_long=_set("format", "printf")),
    "du": Spec(text_short="dBt", path_short="X", text_long=_set("max-depth", "block-size", "threshold",
                                                                "exclude", "time-style"),
               path_long=_set("exclude-from"), bad_short="L", bad_long=("dereference", "files0-from")),
    "tree": Spec(text_short="LPIHT", text_long=_set("filelimit", "timefmt", "charset"),
                 bad_short="olR", bad_long=("fromfile", "output")),
    "which": Spec(paths=False),
    "basename": Spec(paths=False), "dirname": Spec(paths=False),
    "realpath": Spec(), "readlink": Spec(),
    "nl": Spec(text_short="bdfhilnsvw"),
    "diff": Spec(text_short="CUIxF", path_short="X", bad_long=("to-file", "from-file")),
    "cmp": Spec(text_short="in"),
    "md5sum": Spec(bad_short="c", bad_long=("check",)),
    "sha1sum": Spec(bad_short="c", bad_long=("check",)),
    "sha256sum": Spec(bad_short="c", bad_long=("check",)),
    "sha512sum": Spec(bad_short="c", bad_long=("check",)),
    "true": Spec(), "false": Spec(),
    "date": Spec(text_short="d", path_short="fr", bad_short="s", bad_long=("set",)),
    "whoami": Spec(), "uname": Spec(), "id": Spec(paths=False), "groups": Spec(paths=False),
    "sed": Spec(text_short="el", text_long=_set("expression", "line-length"), bad_short="if",
                bad_long=("in-place", "file", "follow-symlinks"), pattern_first=True),
}
SED_SCRIPT = r"^(?:[0-9]+|\$)(?:,(?:[0-9]+|\$))?[pd]$|^[0-9]+q$|^p$"
"""The only sed scripts that run unasked: print or delete line ranges (``1,20p``), quit (``5q``)."""

GIT_READ: dict[str, Spec] = {
    "status": Spec(),
    "log": Spec(text_short="nSGL", path_short="O",
                text_long=_set("max-count", "skip", "since", "until", "after", "before", "author",
                               "committer", "grep", "format", "date"),
                bad_long=("output", "ext-diff", "textconv")),
    "diff": Spec(text_short="USG", path_short="O", text_long=_set("unified", "diff-filter"),
                 bad_long=("output", "ext-diff", "textconv")),
    "show": Spec(text_short="nUSG", text_long=_set("format"),
                 bad_long=("output", "ext-diff", "textconv")),
    "rev-parse": Spec(),
    "ls-files": Spec(text_short="x", path_short="X", text_long=_set("exclude", "format"),
                     path_long=_set("exclude-from")),
    "blame": Spec(text_short="L", path_short="S", path_long=_set("contents"), bad_long=("textconv",)),
    "branch": Spec(),
}
"""``git`` subcommands that only read. ``branch`` is also checked for listing-only use."""

GIT_BRANCH_LISTING = _set("-a", "-r", "-v", "-vv", "-l", "-i", "--all", "--remotes", "--verbose", "--list",
                          "--show-current", "--no-color", "--color", "--column", "--no-column",
                          "--ignore-case", "--omit-empty")
GIT_BRANCH_FILTERS = _set("--contains", "--no-contains", "--merged", "--no-merged", "--points-at",
                          "--sort", "--format")
GIT_GLOBAL_OK = _set("--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs")
GIT_NETWORK = _set("clone", "fetch", "pull", "push", "ls-remote", "submodule", "send-email", "svn",
                   "request-pull", "remote")
GIT_GLOBAL_WITH_VALUE = _set("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
                             "--exec-path", "--super-prefix")

FIND_BAD = _set("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf",
                "-fls", "-follow", "-files0-from")
FIND_PATH_VALUES = _set("-newer", "-anewer", "-cnewer", "-samefile")

NETWORK_ALWAYS = _set(
    "curl", "wget", "aria2c", "http", "https", "xh", "nc", "ncat", "netcat", "socat", "telnet", "ftp",
    "sftp", "tftp", "ssh", "scp", "rsync", "mosh", "ping", "ping6", "dig", "nslookup", "host", "whois",
    "traceroute", "lynx", "w3m", "npx", "pnpx", "bunx", "gh", "aws", "gcloud", "az", "ssh-copy-id")
NETWORK_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "pip": _set("install", "download", "wheel", "index", "search"),
    "pipx": _set("install", "run", "upgrade", "upgrade-all", "inject"),
    "uv": _set("pip", "add", "sync", "lock", "run", "tool", "python"),
    "poetry": _set("install", "add", "update", "lock", "publish", "self"),
    "npm": _set("install", "i", "ci", "add", "update", "up", "upgrade", "publish", "exec", "x", "audit",
                "outdated", "view", "info", "create", "init"),
    "pnpm": _set("install", "i", "add", "update", "up", "publish", "dlx", "create", "exec"),
    "yarn": _set("install", "add", "upgrade", "up", "dlx", "create", "publish", "npm"),
    "bun": _set("install", "i", "add", "update", "x", "create", "publish"),
    "cargo": _set("install", "fetch", "update", "publish", "add", "search", "login"),
    "go": _set("get", "install", "mod"),
    "gem": _set("install", "update", "fetch", "push"),
    "bundle": _set("install", "update", "add"),
    "composer": _set("install", "update", "require", "create-project"),
    "apt": _set("install", "update", "upgrade", "full-upgrade", "download", "source"),
    "apt-get": _set("install", "update", "upgrade", "dist-upgrade", "download", "source"),
    "dnf": _set("install", "update", "upgrade", "download"),
    "yum": _set("install", "update", "upgrade"),
    "brew": _set("install", "update", "upgrade", "tap", "fetch", "reinstall"),
    "docker": _set("pull", "push", "run", "build", "login", "search", "create"),
    "podman": _set("pull", "push", "run", "build", "login", "search", "create"),
    "conda": _set("install", "create", "update", "upgrade"),
    "mamba": _set("install", "create", "update", "upgrade"),
    "helm": _set("install", "upgrade", "repo", "pull", "push"),
}
"""Package managers and tools that reach the network for some subcommands (first operand)."""

FETCHERS = _set("curl", "wget", "aria2c", "http", "https", "xh", "nc", "ncat", "netcat", "socat", "lynx",
                "w3m", "ftp", "tftp")
INTERPRETERS = _set("sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "csh", "tcsh", "python",
                    "python2", "python3", "perl", "ruby", "node", "nodejs", "php", "lua", "tclsh",
                    "pwsh", "deno", "bun", "source", ".", "eval", "osascript", "Rscript")
SHELLS = _set("sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "csh", "tcsh")
PRIVILEGED = _set("sudo", "su", "doas", "pkexec", "runuser", "sg", "newgrp", "chroot")

WRAPPER_VALUES: dict[str, str] = {
    "env": "uCS", "nice": "n", "nohup": "", "timeout": "sk", "xargs": "IndPLsEa", "exec": "a",
    "command": "", "builtin": "", "time": "fo", "stdbuf": "ioe", "ionice": "cnpt", "setsid": "",
    "watch": "nd", "flock": "wEc", "unbuffer": "", "strace": "eoOpsuP", "ltrace": "eoOpsuP",
    "caffeinate": "tw", "chronic": "", "systemd-run": "pu", "firejail": "", "torsocks": "",
    "proxychains": "fq", "proxychains4": "fq", "then": "", "script": "cq", "faketime": "f",
    "coproc": "",
}
"""Commands that run another command: short options taking a value, to find the inner command."""

WRAPPER_OPERANDS: dict[str, int] = {"timeout": 1, "flock": 1, "faketime": 1}
"""Wrappers whose first N operands come before the inner command (``timeout 5 cmd``)."""

DESTRUCTIVE = _set("rm", "rmdir", "unlink", "shred", "truncate", "chmod", "chown", "chgrp", "chattr",
                   "setfacl")
"""Every operand is changed or deleted: any outside the project is a deny."""
COPIERS = _set("mv", "cp", "ln", "install", "rsync", "scp")
"""The last operand (or ``-t DIR``) is written."""
WRITERS = _set("tee", "touch", "mkdir", "mkfifo", "mknod")
"""Every operand is written."""
DISK_TOOLS = _set("mke2fs", "mkswap", "wipefs", "fdisk", "sfdisk", "gdisk", "parted", "shutdown",
                  "reboot", "halt", "poweroff", "kexec", "init", "telinit")
