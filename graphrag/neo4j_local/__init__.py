"""A local Neo4j 5.26 Community server run from Maven Central jars, because our machines have no Docker.

``distribution`` lays out ``$GRAPHRAG_HOME/neo4j`` (jars, config, initial password),
``process`` starts, stops and inspects the server (the ``graphrag neo4j`` command is ``graphrag.cli.neo4j``).
"""
