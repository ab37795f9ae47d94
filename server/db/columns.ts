// Column helpers that hide the few places where SQLite and PostgreSQL DDL differ.
import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from './schema';

/** An auto-incrementing integer primary key named `id`. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
