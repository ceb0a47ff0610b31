// Starts the store for browser tests: a fresh seeded SQLite database in a temporary folder and a
// free loopback port. STORE_BIN names the binary (default: the debug build).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = process.env.STORE_BIN ?? path.join(root, 'target/debug/store');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function startStore() {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-e2e-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: path.join(dir, 'store.db'),
    BIND: `127.0.0.1:${port}`,
    SSR_THREADS: '2',
    WORKERS: '2',
    RUST_LOG: 'warn',
  };
  const seed = spawnSync(bin, ['seed'], { cwd: root, env, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`store seed failed: ${seed.stderr}`);
  const child = spawn(bin, ['serve'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`${base}/api/v3/packagings`, { method: 'POST' });
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`store exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const chromiumOptions = {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
