// `npm run dev`: the API (restarting on change) on PORT (8080) and Vite's dev server (VITE_PORT,
// 5173) in front of it, proxying /api, so the app reloads on every edit. Links in mails point at
// Vite's page unless APP_URL says otherwise.
import { spawn } from 'node:child_process';
import { requireNode } from './require-node.mjs';

requireNode();

const vitePort = process.env.VITE_PORT || '5173';
const apiEnv = { ...process.env, STATIC_DIR: '', APP_URL: process.env.APP_URL || `http://localhost:${vitePort}` };
const api = spawn('npx', ['tsx', 'watch', 'server/main.ts'], { stdio: 'inherit', env: apiEnv });
const vite = spawn('npx', ['vite'], { stdio: 'inherit' });
const stop = () => {
  api.kill();
  vite.kill();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
api.on('exit', stop);
vite.on('exit', stop);
