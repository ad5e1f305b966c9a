// Versioned schema for the shared PostgreSQL store, applied at start. Every replica runs this; an advisory
// lock held for the whole run makes replicas that start together take turns, so each migration runs once.
import type { Pool } from "pg";

/** The channel every committed change is announced on, as "<change id> <key>". */
export const CHANGES_CHANNEL = "switchboard_changes";
/** Advisory lock ordering change ids (distinct from LOCK below and from per-key hashes in practice). */
const CHANGES_LOCK = 0x5b0a_4d02;

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
  {
    version: 2,
    sql: `
      -- A log of committed changes (which key, never the data), so a replica that cannot LISTEN, or was
      -- not listening for a while, finds what it missed by asking for the changes after the last it applied.
      create table switchboard_changes (
        id bigserial primary key,
        key text not null,
        at timestamptz not null default now()
      );
      create or replace function switchboard_data_notify() returns trigger language plpgsql as $$
      declare
        change bigint;
      begin
        -- Held until commit, so change ids are taken in commit order: a poller that has seen id n has
        -- seen every change below n (a later-committing writer cannot still hold a smaller id).
        perform pg_advisory_xact_lock(${CHANGES_LOCK});
        insert into switchboard_changes (key) values (coalesce(new.key, old.key)) returning id into change;
        perform pg_notify('${CHANGES_CHANNEL}', change || ' ' || coalesce(new.key, old.key));
        return null;
      end $$;
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
