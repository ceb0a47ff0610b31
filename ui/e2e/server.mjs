// Starts the store for browser tests: a fresh seeded SQLite database in a temporary folder and a
// free loopback port. STORE_BIN names the binary (default: the debug build, under CARGO_TARGET_DIR when set);
// FIXTURES_BIN the `fixtures` binary that writes a large catalog and serves the PayMongo simulator
// (default: beside the store's).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = process.env.STORE_BIN ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(root, 'target'), 'debug/store');
const fixtures = process.env.FIXTURES_BIN ?? path.join(path.dirname(bin), 'fixtures');

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

/**
 * Starts `fixtures paymongo` (the PayMongo simulator) delivering its events to `webhook`: its
 * address and the process.
 */
async function startPayMongo(webhook) {
  const child = spawn(fixtures, ['paymongo', '--webhook', webhook], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`fixtures paymongo exited with ${code}`)));
  });
  return { url, child };
}

/**
 * `generatedProducts`: that many generated products besides the seed's (`fixtures catalog N`).
 * `paymongo`: the store takes payments online, through the PayMongo simulator (`store.payMongo`).
 */
export async function startStore({ generatedProducts = 0, paymongo = false } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-e2e-'));
  const port = await freePort();
  const outbox = path.join(dir, 'outbox');
  const sim = paymongo ? await startPayMongo(`http://127.0.0.1:${port}/api/v1/payments/paymongo/events`) : null;
  const env = {
    ...process.env,
    DATABASE_URL: path.join(dir, 'store.db'),
    BIND: `127.0.0.1:${port}`,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    MAIL_OUTBOX: outbox,
    MEDIA_DIR: path.join(dir, 'media'),
    SSR_THREADS: '2',
    WORKERS: '2',
    RUST_LOG: 'warn',
    // Checkout's hours are real: the store's clock is a Tuesday afternoon in Manila, so a run at
    // night passes as one by day (a page's own testdate still wins).
    STORE_TESTDATE: '2026-11-24T14:00',
    ...(sim
      ? {
          PAYMONGO_SECRET_KEY: 'sk_test_simulated',
          PAYMONGO_WEBHOOK_SECRET: 'whsk_simulated',
          PAYMONGO_METHODS: 'gcash,paymaya,qrph,card',
          PAYMONGO_API_URL: sim.url,
        }
      : {}),
  };
  const seed = spawnSync(bin, ['seed'], { cwd: root, env, encoding: 'utf8' });
  if (seed.status !== 0) {
    sim?.child.kill('SIGTERM');
    throw new Error(`store seed failed: ${seed.stderr}`);
  }
  if (generatedProducts > 0) {
    const more = spawnSync(fixtures, ['catalog', String(generatedProducts)], { cwd: root, env, encoding: 'utf8' });
    if (more.status !== 0) throw new Error(`fixtures catalog failed: ${more.stderr ?? more.error}`);
  }
  const child = spawn(bin, ['serve'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`${base}/api/v3/packagings`, { method: 'POST' });
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) {
      sim?.child.kill('SIGTERM');
      throw new Error(`store exited with ${child.exitCode}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    /** The PayMongo simulator's address, when the store takes payments online. */
    payMongo: sim?.url,
    /** The newest link to `pathPrefix` in a message to `to` (waits for it to arrive). */
    async mailedLink(to, pathPrefix) {
      for (let i = 0; i < 100; i++) {
        const files = (() => {
          try {
            return readdirSync(outbox).map((f) => path.join(outbox, f));
          } catch {
            return [];
          }
        })().sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
        for (const f of files) {
          const text = decodeQuotedPrintable(readFileSync(f, 'utf8'));
          if (!new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(text)) continue;
          const m = text.match(new RegExp(`https?://[^\\s"<>]*${pathPrefix}[^\\s"<>]*`));
          if (m) return m[0];
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no mail to ${to} with ${pathPrefix}`);
    },
    /** Runs a command of the store binary against this store's database (`staff add ...`); answers its output. */
    command(args) {
      const run = spawnSync(bin, args, { cwd: root, env, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`store ${args.join(' ')} failed: ${run.stderr}`);
      return run.stdout;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      sim?.child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function decodeQuotedPrintable(s) {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}
