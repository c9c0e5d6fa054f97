import type { Db } from '../db.js';

/** Shards per vec0 table; see m005VectorShards. Changing it needs a migration that rebuilds the tables. */
export const VECTOR_SHARDS = 8;

/**
 * Sign-bit vectors gain a third partition key, `shard` (= vectors.pk % VECTOR_SHARDS). sqlite-vec's KNN
 * selects its k best per chunk in O(chunk · k), so one query for the 250 candidates that float re-scoring
 * needs for recall@10 ≥ 0.95 at 100k vectors costs 3–4 times a query for 50; eight queries for 38 each
 * over an eighth of the rows cost about what one query for 50 did. Each vec0 table `vec_<kind>_<dims>`
 * is rebuilt from the stored floats (the source of truth) as `vecs_<kind>_<dims>`; sqlite-vec's
 * vec_quantize_binary sets the same bits as the indexer's signBits (value > 0).
 */
export function m005VectorShards(db: Db): void {
  const tables = db.prepare('SELECT DISTINCT table_name, kind, dims FROM vector_spaces').all() as { table_name: string; kind: string; dims: number }[];
  for (const t of tables) {
    const next = `vecs_${t.kind}_${t.dims}`;
    db.exec(
      `CREATE VIRTUAL TABLE ${next} USING vec0(
         collection_pk INTEGER PARTITION KEY,
         space_id INTEGER PARTITION KEY,
         shard INTEGER PARTITION KEY,
         embedding BIT[${t.dims}]
       )`,
    );
    db.exec(
      `INSERT INTO ${next} (rowid, collection_pk, space_id, shard, embedding)
       SELECT v.pk, v.collection_pk, v.space_id, v.pk % ${VECTOR_SHARDS}, vec_quantize_binary(v.embedding)
       FROM vectors v JOIN vector_spaces s ON s.id = v.space_id WHERE s.table_name = '${t.table_name}'`,
    );
    db.exec(`DROP TABLE IF EXISTS ${t.table_name}`);
    db.prepare('UPDATE vector_spaces SET table_name = ? WHERE table_name = ?').run(next, t.table_name);
  }
}
