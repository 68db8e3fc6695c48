// Types of scripts/static-server.mjs for the TypeScript that imports it (test/web, bench/web.ts).
import type { Server } from 'node:http';

export interface ServeOptions {
  port?: number;
  /** URL path → file served besides the directory. */
  extra?: Record<string, string>;
  /** Each file served: its size, and the bytes sent (compressed when the browser accepted it). */
  onRequest?: (path: string, file: string, bytes: number, sent: number) => void;
}
export function serveStatic(dir: string, options?: ServeOptions): Promise<{ server: Server; url: string }>;
export const WEB_DIR: string;
export const SHIPPED_DB: Record<string, string>;
