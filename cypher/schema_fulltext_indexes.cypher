// The full-text indexes as they exist, with their analyzer, consistency, labels and properties (to find
// one whose definition changed: it is dropped and created again).
// Parameters: none.
SHOW FULLTEXT INDEXES
YIELD name, labelsOrTypes, properties, options
RETURN name, labelsOrTypes AS labels, properties, options.indexConfig.`fulltext.analyzer` AS analyzer,
       options.indexConfig.`fulltext.eventually_consistent` AS eventually_consistent
