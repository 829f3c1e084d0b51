"""ingest: CSV exports into a warehouse."""
