"""Files users already keep in their repositories: rules, skills and agent definitions."""
