// The peer benchmark (bench/peer.py): each entity of one pack with the text the peer embeds, its title and
// summary, as the service embeds them.
// Parameters: $pack (the pack id).
MATCH (e:Entity {pack: $pack})
WHERE NOT e:Missing
RETURN e.id AS id, coalesce(e.title, '') + '. ' + coalesce(e.summary, '') AS text
