// Versioned schema for the shared PostgreSQL store, applied at start. Every replica runs this; an advisory
// lock held for the whole run makes replicas that start together take turns, so each migration runs once.
import type { Pool } from "pg";

/** Append only: a deployed migration is never edited, the next change is a new entry. */
const MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      create table switchboard_data (
        key text primary key,
        value bytea not null,
        updated_at timestamptz not null default now()
      );
      -- Every committed change names its key on one channel; replicas re-read what they hold.
      create function switchboard_data_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('switchboard_data', coalesce(new.key, old.key));
        return null;
      end $$;
      create trigger switchboard_data_changed after insert or update or delete on switchboard_data
        for each row execute function switchboard_data_notify();
      create table switchboard_embeddings (
        embedder text not null,
        text_hash text not null,
        vector float4[] not null,
        primary key (embedder, text_hash)
      );
      create table switchboard_executions (
        id bigserial primary key,
        call_id text not null,
        tool text not null,
        status text not null,
        record jsonb not null,
        finished_at timestamptz not null default now()
      );
      create index switchboard_executions_finished on switchboard_executions (finished_at);
    `,
  },
];

/** An arbitrary constant naming this lock among the database's advisory locks. */
const LOCK = 0x5b0a_4d01;

export async function migrate(pool: Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [LOCK]);
    await client.query(
      "create table if not exists switchboard_migrations (version int primary key, applied_at timestamptz not null default now())",
    );
    const { rows } = await client.query<{ v: number | null }>(
      "select max(version) as v from switchboard_migrations",
    );
    const current = rows[0]?.v ?? 0;
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query("begin");
      try {
        await client.query(migration.sql);
        await client.query("insert into switchboard_migrations (version) values ($1)", [migration.version]);
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw error;
      }
    }
    return MIGRATIONS.at(-1)?.version ?? 0;
  } finally {
    await client.query("select pg_advisory_unlock($1)", [LOCK]).catch(() => undefined);
    client.release();
  }
}
