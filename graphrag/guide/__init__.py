"""Neo4j Browser, ready for analysts: a guide whose questions are the service's own Cypher (cypher/browser_*),
and a style that keeps titles as captions and sets placeholders apart. Browser fetches both at connect."""
