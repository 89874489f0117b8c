"""Waiting for the person: approval requests and AskUser questions, answered by id."""
