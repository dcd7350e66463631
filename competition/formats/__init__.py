"""Tournament formats and standings as pure functions: no database, no Django."""
