"""Peewee tables. The schema version is recorded in ``meta``.

Bump ``SCHEMA_VERSION`` and add a function to ``MIGRATIONS`` for every change;
the database is copied to ``backups/`` before any migration runs.
"""

from __future__ import annotations

from typing import Any

import peewee as pw

SCHEMA_VERSION = 12

database_proxy = pw.DatabaseProxy()


class BaseModel(pw.Model):
    """Binds every table to the store's database."""

    class Meta:
        database = database_proxy
        legacy_table_names = False


class MetaRow(BaseModel):
    """Key/value facts about the database itself (``schema_version``)."""

    key = pw.CharField(primary_key=True)
    value = pw.TextField()


class ProjectRow(BaseModel):
    """A registered folder (only its path; the folder is never touched)."""

    id = pw.CharField(primary_key=True)
    name = pw.TextField()
    path = pw.TextField(unique=True)
    instruction = pw.TextField(default="")
    sort_order = pw.IntegerField(default=0)
    created_at = pw.BigIntegerField()
    scoped_recall = pw.BooleanField(default=False)
    """Member sessions get read-only summaries of their siblings (schema 7; off by default)."""


class SessionRow(BaseModel):
    """Session metadata (Foya fields plus Yeaft's workdir, announcement, roster…)."""

    id = pw.CharField(primary_key=True)
    title = pw.TextField(default="")
    project = pw.ForeignKeyField(ProjectRow, null=True, on_delete="RESTRICT", backref="sessions")
    project_id: str | None  # accessor Peewee adds for the foreign key
    parent_id = pw.CharField(null=True, index=True)
    origin = pw.TextField(default="user")
    connection = pw.TextField(default="")
    model = pw.TextField(default="")
    reasoning_effort = pw.TextField(default="")
    approval_mode = pw.TextField(default="ask")
    agent_mode = pw.TextField(default="execute")
    workdir = pw.TextField(default="")
    announcement = pw.TextField(default="")
    roster = pw.TextField(default='["omni"]')
    default_vp = pw.TextField(default="omni")
    pinned = pw.BooleanField(default=False)
    sort_order = pw.IntegerField(default=0)
    phase = pw.TextField(default="idle")
    child_snapshot = pw.TextField(default="{}")
    head_seq = pw.IntegerField(default=0)
    created_at = pw.BigIntegerField()
    updated_at = pw.BigIntegerField()
    base_session_id = pw.CharField(null=True, index=True)
    """Copy-on-write history (schema 9, ``store/history_view.py``): the session whose valid
    messages with ``seq <= base_seq`` begin this one's history. Branches and forks share instead
    of copying; ``None`` for a session that stores its whole history."""
    base_seq = pw.IntegerField(default=0)
    inherited_seq = pw.IntegerField(default=0)
    """The seq up to which this session's history was inherited when it was made: those messages
    are shown without provider signatures and with ``unavailable`` attachments marked."""
    unavailable = pw.TextField(default="[]")
    """JSON list of attachment hashes that could not be read when the history was inherited (fork)."""


class EventRow(BaseModel):
    """The append-only per-session event log."""

    session = pw.ForeignKeyField(SessionRow, on_delete="CASCADE", backref="events", index=False)
    """No index of its own (schema 8): ``(session, seq)`` below serves every lookup by session."""
    seq = pw.IntegerField()
    type = pw.TextField()
    payload = pw.TextField()
    created_at = pw.BigIntegerField()

    class Meta:
        indexes = ((("session", "seq"), True),)


class MessageRow(BaseModel):
    """The valid-message projection derived from the event log."""

    id = pw.CharField(primary_key=True)
    session = pw.ForeignKeyField(SessionRow, on_delete="CASCADE", backref="messages", index=False)
    """No index of its own (schema 8): ``(session, valid, seq)`` below serves every lookup by session."""
    session_id: str
    seq = pw.IntegerField()
    role = pw.TextField()
    speaker = pw.TextField(null=True)
    parts = pw.TextField()
    status = pw.TextField(default="complete")
    turn_id = pw.TextField(default="")
    meta = pw.TextField(default="{}")
    valid = pw.BooleanField(default=True)
    created_at = pw.BigIntegerField()

    class Meta:
        indexes = ((("session", "valid", "seq"), False),)


class VPRow(BaseModel):
    """The VP library: user-defined personas and the built-in ``omni`` (stored so it can be edited)."""

    id = pw.CharField(primary_key=True)
    name = pw.TextField(unique=True)
    display_name = pw.TextField()
    soul = pw.TextField()
    model_hint = pw.TextField(default="")
    tools = pw.TextField(default="[]")
    max_steps = pw.IntegerField(default=25)
    builtin = pw.BooleanField(default=False)
    color = pw.TextField(default="")


class ConnectionRow(BaseModel):
    """Model services. Never holds an API key."""

    name = pw.CharField(primary_key=True)
    kind = pw.TextField()
    base_url = pw.TextField()
    model = pw.TextField(default="")
    api_key_env = pw.TextField(default="")
    context_window = pw.IntegerField(default=128_000)


class ArtifactRow(BaseModel):
    """A content-addressed blob known to the store."""

    sha = pw.CharField(primary_key=True)
    mime = pw.TextField(default="application/octet-stream")
    size = pw.IntegerField()
    created_at = pw.BigIntegerField()


class ArtifactRefRow(BaseModel):
    """Which session references which blob (deletion keeps shared blobs)."""

    session = pw.ForeignKeyField(SessionRow, on_delete="CASCADE", backref="artifact_refs")
    artifact = pw.ForeignKeyField(ArtifactRow, on_delete="RESTRICT")
    artifact_id: str

    class Meta:
        primary_key = pw.CompositeKey("session", "artifact")


class FileChangeRow(BaseModel):
    """Before/after content of a file changed by a tool, for rewind."""

    id: int  # the implicit auto-increment key: global recording order across sessions
    session = pw.ForeignKeyField(SessionRow, on_delete="CASCADE", backref="file_changes")
    seq = pw.IntegerField()
    path = pw.TextField()
    before_sha = pw.CharField(null=True)
    after_sha = pw.CharField(null=True)
    kind = pw.TextField(default="tool")
    """``tool`` (contents known) or ``command`` (only known to have changed)."""

    class Meta:
        indexes = ((("session", "seq"), False),)


class ProjectRuleRow(BaseModel):
    """A persisted "always allow in this project" rule: an exact, narrow key."""

    project = pw.ForeignKeyField(ProjectRow, on_delete="CASCADE", backref="rules")
    key = pw.TextField()
    created_at = pw.BigIntegerField()

    class Meta:
        indexes = ((("project", "key"), True),)


class McpTrustRow(BaseModel):
    """A project-level MCP server the person trusted for this project (schema 6).

    ``fingerprint`` covers everything that decides what runs and what is sent
    (``tools.mcp.trust_spec.TrustSpec.fingerprint``: the entry as written, env and
    header values included, and the hashes of the project files it runs): anything
    changed no longer matches, so the person is asked again.
    """

    project = pw.ForeignKeyField(ProjectRow, on_delete="CASCADE", backref="mcp_trust")
    server = pw.TextField()
    fingerprint = pw.TextField()
    target = pw.TextField()
    """The command line or URL as written (``${VAR}`` unexpanded) when the person trusted it."""
    created_at = pw.BigIntegerField()
    spec = pw.TextField(default="")
    """(schema 11) The trusted ``TrustSpec`` as JSON (with the run files' texts, for diffs);
    ``""`` for a trust an older Foya recorded."""

    class Meta:
        indexes = ((("project", "server"), True),)


class UsageRow(BaseModel):
    """Token usage ledger, keyed by session id but kept after deletion."""

    session_id = pw.CharField(index=True)
    turn_id = pw.TextField(default="")
    speaker = pw.TextField(default="")
    connection = pw.TextField(default="")
    """The connection name the request went to (schema 2; '' for older rows)."""
    model = pw.TextField(default="")
    input_tokens = pw.IntegerField(null=True)
    """All prompt tokens, cache reads and writes included (see ``core.figures.Usage``)."""
    output_tokens = pw.IntegerField(null=True)
    cache_read_tokens = pw.IntegerField(null=True)
    cache_write_tokens = pw.IntegerField(null=True)
    created_at = pw.BigIntegerField()


class TaskRow(BaseModel):
    """A session-scoped background job record (shell command or sub-agent)."""

    id = pw.CharField(primary_key=True)
    session = pw.ForeignKeyField(SessionRow, on_delete="CASCADE", backref="tasks")
    session_id: str
    kind = pw.TextField()
    title = pw.TextField()
    state = pw.TextField(default="running")
    exit_code = pw.IntegerField(null=True)
    output_tail = pw.TextField(default="")
    consumed = pw.BooleanField(default=False)
    created_at = pw.BigIntegerField()
    finished_at = pw.BigIntegerField(null=True)
    lease_id = pw.TextField(null=True)
    """The process lease that runs the job (``store.leases``): only its death makes the job lost."""


class CheckpointRow(BaseModel):
    """A compaction checkpoint: the summary that replaces messages up to ``covers_seq`` in requests.

    ``valid`` turns false when a rewind removes messages it covers, so an old
    summary never re-enters a history that no longer contains its messages.
    """

    id = pw.CharField(primary_key=True)
    session = pw.ForeignKeyField(SessionRow, on_delete="CASCADE", backref="checkpoints")
    session_id: str
    seq = pw.IntegerField()
    covers_seq = pw.IntegerField()
    summary = pw.TextField()
    automatic = pw.BooleanField(default=False)
    valid = pw.BooleanField(default=True)
    created_at = pw.BigIntegerField()

    class Meta:
        indexes = ((("session", "valid", "covers_seq"), False),)


class RewindJournalRow(BaseModel):
    """A confirmed rewind whose files are being restored.

    Written (and committed) before the first file is touched and deleted in the
    transaction that commits ``history_rewound``; one left over after a crash is
    rolled forward at start-up, so disk and database end up both "after".
    """

    id = pw.CharField(primary_key=True)
    session = pw.ForeignKeyField(SessionRow, on_delete="CASCADE", backref="rewind_journals")
    session_id: str
    message_id = pw.TextField()
    from_seq = pw.IntegerField()
    head_seq = pw.IntegerField()
    workdir = pw.TextField()
    plan = pw.TextField()
    """JSON list of file operations: path, target sha (``null``: remove), undo sha."""
    created_at = pw.BigIntegerField()


class SubagentRow(BaseModel):
    """The child session behind a ``subagent`` task record of its parent."""

    task = pw.ForeignKeyField(TaskRow, primary_key=True, on_delete="CASCADE", backref="subagent")
    task_id: str
    child_session_id = pw.CharField(index=True)
    call_id = pw.TextField()
    parent_seq = pw.IntegerField()
    """Seq of the parent's assistant message that made the call (rewind includes the child's
    file changes when it removes that message)."""
    agent = pw.TextField()


class PriceRow(BaseModel):
    """A price per million tokens for one connection and model (USD), set by the person."""

    connection = pw.TextField()
    model = pw.TextField()
    input_per_mtok = pw.FloatField()
    output_per_mtok = pw.FloatField()
    cache_read_per_mtok = pw.FloatField(null=True)
    """``None``: cache reads cost the input price."""
    cache_write_per_mtok = pw.FloatField(null=True)

    class Meta:
        primary_key = pw.CompositeKey("connection", "model")


class DebugTraceRow(BaseModel):
    """One model step or tool call of a turn as sent and received, for the debug panel.

    Stored per session and deleted with it (cascade); never copied by branch, fork or
    merge. May contain project text and tool output: for the owner only.
    """

    session = pw.ForeignKeyField(SessionRow, on_delete="CASCADE", backref="debug_traces")
    session_id: str
    turn_id = pw.TextField(index=True)
    speaker = pw.TextField(default="")
    kind = pw.TextField()
    """``step`` (a provider request) or ``tool`` (a tool call)."""
    data = pw.TextField()
    """JSON, already redacted."""
    created_at = pw.BigIntegerField()


class MemoryRow(BaseModel):
    """One memory entry (schema 7; Yeaft "Memory 边界", ``store/memory.py``).

    ``scope`` is ``user`` (lasting preferences), ``vp`` (one VP's knowledge),
    ``session-vp`` (one VP's knowledge in one session) or ``session`` (shared
    facts of one collaboration). ``session`` is set for the two session scopes
    only and cascades: deleting the session deletes them; branch, fork and merge
    never copy them. ``author``/``source_session_id`` say who wrote it and where.
    """

    id = pw.CharField(primary_key=True)
    scope = pw.TextField()
    vp_id = pw.TextField(default="")
    """The VP whose scope it is (``vp``, ``session-vp``); "" for user and session."""
    session = pw.ForeignKeyField(SessionRow, null=True, on_delete="CASCADE", backref="memories")
    session_id: str | None
    text = pw.TextField()
    author = pw.TextField(default="person")
    """The VP id that saved it, or ``person``."""
    source_session_id = pw.TextField(default="")
    """The session it was written in ("" from the CLI or the Memory window without one)."""
    created_at = pw.BigIntegerField()
    updated_at = pw.BigIntegerField()

    class Meta:
        indexes = ((("scope", "vp_id"), False),)


class TombstoneRow(BaseModel):
    """Ids of deleted sessions: late writes for them are refused forever."""

    session_id = pw.CharField(primary_key=True)
    deleted_at = pw.BigIntegerField()


class LeaseRow(BaseModel):
    """A live (or crashed) process using this database; ``store.leases`` asks the OS which."""

    id = pw.CharField(primary_key=True)
    pid = pw.IntegerField()
    start_time = pw.BigIntegerField()
    kind = pw.TextField()
    created_at = pw.BigIntegerField()

    class Meta:
        table_name = "process_lease"


class ClaimRow(BaseModel):
    """A session some process is running a turn or an operation in (one per session)."""

    session_id = pw.CharField(primary_key=True)
    lease_id = pw.TextField(index=True)
    what = pw.TextField()
    since = pw.BigIntegerField()

    class Meta:
        table_name = "session_claim"


class WorkItemRow(BaseModel):
    """A WorkItem of the Work Center (``store/work_items.py``): the contract and the action graph
    as JSON in ``data``, the fields lists and scripts filter on as columns (schema 12)."""

    id = pw.CharField(primary_key=True)
    title = pw.TextField()
    state = pw.TextField(index=True)
    source_session_id = pw.TextField(default="", index=True)
    data = pw.TextField()
    created_at = pw.BigIntegerField()
    updated_at = pw.BigIntegerField()

    class Meta:
        table_name = "work_item"


class WorkRunRow(BaseModel):
    """One execution of a WorkItem action; an agent run's transcript is a hidden child session."""

    id = pw.CharField(primary_key=True)
    item_id = pw.TextField(index=True)
    action_id = pw.TextField()
    data = pw.TextField()
    started_at = pw.BigIntegerField()

    class Meta:
        table_name = "work_run"


TABLES: list[type[BaseModel]] = [
    MetaRow, ProjectRow, SessionRow, EventRow, MessageRow, VPRow, ConnectionRow,
    ArtifactRow, ArtifactRefRow, FileChangeRow, ProjectRuleRow, UsageRow, TaskRow, TombstoneRow,
    CheckpointRow, RewindJournalRow, SubagentRow, PriceRow, DebugTraceRow, LeaseRow, ClaimRow,
    McpTrustRow, MemoryRow, WorkItemRow, WorkRunRow,
]

def _add_search_index(db: Any) -> None:
    """1 → 2: the FTS5 message index (``store/search.py``; created on open) gets every stored message."""
    from foya_desktop.store.search import backfill

    backfill(db)


def _v2_vp_library(db: pw.SqliteDatabase) -> None:
    """2 → 3: VPs remember whether they are built in and their chosen colour."""
    columns = {c.name for c in db.get_columns("vp_row")}
    if "builtin" not in columns:
        db.execute_sql("ALTER TABLE vp_row ADD COLUMN builtin INTEGER NOT NULL DEFAULT 0")  # type: ignore[no-untyped-call]
    if "color" not in columns:
        db.execute_sql("ALTER TABLE vp_row ADD COLUMN color TEXT NOT NULL DEFAULT ''")  # type: ignore[no-untyped-call]




def _v3_to_v4(db: pw.SqliteDatabase) -> None:
    """3 → 4: usage rows learn their connection; prices and debug traces are new tables."""
    if "connection" not in {c.name for c in db.get_columns("usage_row")}:
        db.execute_sql("ALTER TABLE usage_row ADD COLUMN connection TEXT NOT NULL DEFAULT ''")  # type: ignore[no-untyped-call]


def _v4_process_leases(db: pw.SqliteDatabase) -> None:
    """4 → 5: process leases and session claims (new tables, made by ``create_tables``); task owners."""
    columns = {c.name for c in db.get_columns("task_row")}
    if "lease_id" not in columns:
        db.execute_sql("ALTER TABLE task_row ADD COLUMN lease_id TEXT")  # type: ignore[no-untyped-call]


def _v5_mcp_trust(db: pw.SqliteDatabase) -> None:
    """5 → 6: trusted project MCP servers (a new table, made by ``create_tables``); nothing to copy."""


def _v6_memory(db: pw.SqliteDatabase) -> None:
    """6 → 7: memory entries (a new table, made by ``create_tables``); projects learn scoped recall."""
    if "scoped_recall" not in {c.name for c in db.get_columns("project_row")}:
        db.execute_sql("ALTER TABLE project_row ADD COLUMN scoped_recall INTEGER NOT NULL DEFAULT 0")  # type: ignore[no-untyped-call]


def _v7_cheaper_appends(db: pw.SqliteDatabase) -> None:
    """7 → 8: cheaper single-message appends (issue 14).

    The search index is fed in batches from a queue (``store/search.py``: new queue table and
    triggers), and the two single-column session indexes that the composite ones already cover
    are dropped (each was one more B-tree written per append).
    """
    from foya_desktop.store import search

    search.reinstall_triggers(db)
    db.execute_sql("DROP INDEX IF EXISTS event_row_session_id")  # type: ignore[no-untyped-call]
    db.execute_sql("DROP INDEX IF EXISTS message_row_session_id")  # type: ignore[no-untyped-call]


def _v8_shared_history(db: pw.SqliteDatabase) -> None:
    """8 → 9: copy-on-write branch and fork history (issue 14: branch ≤ 2× from 500 to 50,000
    messages). Sessions learn their base; the search index follows a row that changes session
    (a shared prefix handed to a branch when its source is deleted or rewound)."""
    from foya_desktop.store import search

    columns = {c.name for c in db.get_columns("session_row")}
    for name, kind in (("base_session_id", "VARCHAR(255)"), ("base_seq", "INTEGER NOT NULL DEFAULT 0"),
                       ("inherited_seq", "INTEGER NOT NULL DEFAULT 0"),
                       ("unavailable", "TEXT NOT NULL DEFAULT '[]'")):
        if name not in columns:
            db.execute_sql(f"ALTER TABLE session_row ADD COLUMN {name} {kind}")  # type: ignore[no-untyped-call]
    db.execute_sql("CREATE INDEX IF NOT EXISTS session_row_base_session_id "  # type: ignore[no-untyped-call]
                   "ON session_row (base_session_id)")
    search.reinstall_triggers(db)


def _v9_search_tail(db: pw.SqliteDatabase) -> None:
    """9 → 10: an append writes nothing for the search index (issue 14: append ≥ 0.5× raw
    ``sqlite3``). New rows are the index's tail above its mark (``search_state``, created on open
    with the largest rowid, every older row being indexed or queued); the insert trigger that queued
    each one is dropped and the tail trigger added (``store/search.py``)."""
    from foya_desktop.store import search

    search.reinstall_triggers(db)


def _v10_mcp_trust_spec(db: pw.SqliteDatabase) -> None:
    """10 → 11: trust of a project MCP server covers env and header values and the files it runs.

    Rows from before keep their fingerprint, which never matches a new one (those start with
    ``v2:``), so those servers wait for trust again instead of staying trusted. Their ``target``
    held the command line with variables expanded — secrets included — so it is blanked, with
    ``secure_delete`` so the old bytes are overwritten rather than left in free pages.
    """
    if "spec" not in {c.name for c in db.get_columns("mcp_trust_row")}:
        db.execute_sql("ALTER TABLE mcp_trust_row ADD COLUMN spec TEXT NOT NULL DEFAULT ''")  # type: ignore[no-untyped-call]
    secure = db.execute_sql("PRAGMA secure_delete").fetchone()[0]  # type: ignore[no-untyped-call]
    db.execute_sql("PRAGMA secure_delete = ON")  # type: ignore[no-untyped-call]
    try:
        db.execute_sql("UPDATE mcp_trust_row SET target = '' WHERE spec = ''")  # type: ignore[no-untyped-call]
    finally:
        db.execute_sql(f"PRAGMA secure_delete = {int(secure)}")  # type: ignore[no-untyped-call]


def _v11_work_center(db: pw.SqliteDatabase) -> None:
    """11 → 12: the Work Center's WorkItems and runs (new tables, made by ``create_tables``)."""


MIGRATIONS: dict[int, Any] = {1: _add_search_index, 2: _v2_vp_library, 3: _v3_to_v4, 4: _v4_process_leases,
                              5: _v5_mcp_trust, 6: _v6_memory, 7: _v7_cheaper_appends, 8: _v8_shared_history,
                              9: _v9_search_tail, 10: _v10_mcp_trust_spec,
                              11: _v11_work_center}
"""``{from_version: callable(db)}`` upgrading one step."""
