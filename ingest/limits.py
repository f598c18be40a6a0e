"""The bounds a pack file must stay within, in one place (README, "Writing packs", lists them).

Each keeps a hostile or broken file from crossing a boundary: the memory and time of one run,
Python's stack, or what Neo4j can index. A file past one is rejected with path, line and field;
the rest of the run goes on.
"""

from __future__ import annotations

from graphrag.names import MAX_ID_LENGTH  # ids are one rule for packs and for the server's arguments

__all__ = ["MAX_ID_LENGTH"]

# Read at most this much of a file: a larger one is rejected without being read whole.
MAX_FILE_BYTES = 4 * 1024 * 1024
# The frontmatter block, in characters: bounds the memory of the YAML nodes composed from it.
MAX_FRONTMATTER_CHARS = 100_000
# Mappings and lists inside one another.
MAX_YAML_DEPTH = 32
# Values (entries of mappings and lists) once aliases are expanded: an alias bomb stops here. A block
# of MAX_FRONTMATTER_CHARS holds fewer without aliases, so only aliases can reach it.
MAX_YAML_VALUES = 100_000
# Passages (sections, and windows of long ones) of one body: each is a node written in the file's
# transaction, which Neo4j holds in its heap (a 4 MiB file of one-line sections would make a million).
MAX_PASSAGES_PER_FILE = 10_000
# Distinct relation names in one file: each becomes a relationship type of the database.
MAX_RELATIONS_PER_FILE = 100
# A title and a summary, in characters: longer ones are cut there with a warning (the rest of the file is kept).
# A title names the entity in every answer, a summary is embedded and shown beside it.
MAX_TITLE_CHARS = 300
MAX_SUMMARY_CHARS = 2_000
# Integers are stored as Neo4j's 64-bit integers.
MIN_INTEGER, MAX_INTEGER = -(2**63), 2**63 - 1
