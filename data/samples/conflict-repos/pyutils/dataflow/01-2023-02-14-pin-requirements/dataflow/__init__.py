"""dataflow: small batch pipelines."""
