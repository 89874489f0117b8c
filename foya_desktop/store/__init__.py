"""Local persistence: one SQLite database (Peewee) plus content-addressed artifacts."""
