// `npm run web` (scripts/serve-web.mjs) on a port another server holds (issue 38): one line naming
// the port with a free one to use instead, exit 2, no stack trace, nothing built; and on a free
// port it serves the app, its script compressed. The ports are ones the system hands out, never 8080.
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { join } from 'node:path';
import { ROOT } from '../lib/cli';

const SCRIPT = join(ROOT, 'scripts/serve-web.mjs');

/** A server listening on a port the system chose, and the port. */
async function occupy(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port };
}

describe('npm run web', () => {
  it('on a busy port says so in one line with a free port to use, exit 2', async () => {
    const { server, port } = await occupy();
    try {
      // spawned asynchronously: the server in this process must answer while the script runs
      const child = spawn(process.execPath, [SCRIPT, '--port', String(port)], { cwd: ROOT });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const status = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      expect(status, stderr).toBe(2);
      expect(stdout).toBe('');
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^serve-web: port ${port} is busy .*: npm run web -- --port (\\d+)$`));
      expect(lines[0]).not.toMatch(/EADDRINUSE|at .*\.mjs/);
      const suggested = Number(/--port (\d+)$/.exec(lines[0])![1]);
      expect(suggested).not.toBe(port);
    } finally {
      server.close();
    }
  });

  it('on a free port serves the app and prints its address', async () => {
    const child = spawn(process.execPath, [SCRIPT, '--port', '0'], { cwd: ROOT });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (d) => {
          stdout += d;
          const m = /krieg web app: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`serve-web ended with ${code}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html/i);
      // the script compressed for a browser that takes brotli, and the same bytes once decoded
      const script = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) =>
        get(`${url}app.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
      expect(script.encoding).toBe('br');
      const raw = readFileSync(join(ROOT, 'dist/web/app.js'));
      expect(script.body.length).toBeLessThan(raw.length / 2);
      expect(brotliDecompressSync(script.body).equals(raw)).toBe(true);
    } finally {
      child.kill();
    }
  });
});
