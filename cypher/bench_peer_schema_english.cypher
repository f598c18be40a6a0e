// The peer benchmark: the vector and full-text indexes neo4j-graphrag's hybrid retriever reads, over the
// peer's documents only (one pack at a time), with the english analyzer; 512 is the built-in model's width.
// Parameters: none.
CREATE VECTOR INDEX bench_peer_vectors IF NOT EXISTS FOR (e:BenchPeer) ON e.peer_embedding
OPTIONS {indexConfig: {`vector.dimensions`: 512, `vector.similarity_function`: 'cosine'}};
CREATE FULLTEXT INDEX bench_peer_text IF NOT EXISTS FOR (e:BenchPeer) ON EACH [e.title, e.alias_text, e.summary, e.body, e.body_ru]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
