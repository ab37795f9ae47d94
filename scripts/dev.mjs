// `npm run dev`: the API (restarting on change) on PORT 8080 and Vite's dev server in front of it,
// proxying /api, so the app reloads on every edit.
import { spawn } from 'node:child_process';

const api = spawn('npx', ['tsx', 'watch', 'server/main.ts'], { stdio: 'inherit', env: { ...process.env, STATIC_DIR: '' } });
const vite = spawn('npx', ['vite'], { stdio: 'inherit' });
const stop = () => { api.kill(); vite.kill(); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
api.on('exit', stop);
vite.on('exit', stop);
