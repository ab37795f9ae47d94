// What the server writes to DATA_DIR when it starts, apart from reading its configuration
// (config.ts parses; this writes): the folder itself, private to the server's user (0700), and on
// SQLite the secrets the environment does not give, generated once into secrets.json
// (lib/kept-secrets.ts). On PostgreSQL those are kept in the database instead (kept-secrets-db.ts).
import { type KeptSecrets, keptSecrets } from './kept-secrets';
import { privateDir } from './private-files';

export function prepareDataDir(dataDir: string, keepSecretsHere: boolean): KeptSecrets | null {
  privateDir(dataDir);
  return keepSecretsHere ? keptSecrets(dataDir) : null;
}
