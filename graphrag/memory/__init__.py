"""Agents' working memory beside the packs: records, their provenance, statuses and the archivist's links."""
