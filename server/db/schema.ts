// The whole database as Kysely sees it: one interface per area, each in db/tables/.
import type { Kysely, Transaction } from 'kysely';
import type { CoreTables } from './tables/core';
import type { MiningTables } from './tables/mining';
import type { PushTables } from './tables/push';
import type { QuestTables } from './tables/quests';
import type { SeasonTables } from './tables/season';
import type { TelegramTables } from './tables/telegram';

export interface DB extends CoreTables, QuestTables, MiningTables, SeasonTables, PushTables, TelegramTables {}

export type Db = Kysely<DB>;
export type Tx = Transaction<DB> | Kysely<DB>;
export type Dialect = 'sqlite' | 'postgres';
