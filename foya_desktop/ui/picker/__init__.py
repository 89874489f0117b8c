"""The working-directory picker: one dialog for new sessions, binding and new projects."""
