"""Dialogs, shown with open() and awaited, never exec()."""
