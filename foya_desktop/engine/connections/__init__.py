"""Model connections: one provider client per configured connection, created on first use."""
