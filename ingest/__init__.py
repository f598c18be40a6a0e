"""Packs -> rows for the stores: parse frontmatter, resolve links, plan an incremental ingest.

Nothing here writes to a pack: the files are the authors' source of truth.
"""
