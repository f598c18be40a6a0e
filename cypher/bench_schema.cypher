// Benchmark baseline: the same uniqueness constraint the real entities have.
// Parameters: none.
CREATE CONSTRAINT bench_bare_id IF NOT EXISTS FOR (e:BenchBare) REQUIRE e.id IS UNIQUE
