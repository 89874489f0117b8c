"""The background agent: tray icon and menu, notifications, one running instance."""
