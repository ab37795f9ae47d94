// Types of scripts/build-server.mjs for the TypeScript that imports it (tests).
export function buildServer(outdir?: string, entryPoints?: Record<string, string>): Promise<void>;
