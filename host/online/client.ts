// Kriegspiel.org's bot API over HTTP (Node's global fetch): the routes of ks-backend (commit
// 7d566bcee3c2: src/app/routers/auth.py POST /auth/bots/register, routers/bot.py POST /bots/profile,
// routers/game.py /game/…) with the bot's token as a Bearer token. Calls that change nothing (and the
// lobby's, which the site refuses when repeated) are retried on a network error, a 5xx or a 429,
// with back-off; a move or "Any?" is never resent (the bot reads the game's state again instead: the
// attempt may have reached the referee). The token appears in no message and no log line.
import { fail, type KriegError } from '../errors';
import type { Side } from '../record/record';
import type { SiteClock, SiteState } from './kriegspielOrg';

/** An HTTP error of the site: its status and the code of its error envelope ({"error": {"code", "message"}}). */
export type SiteError = KriegError & { status?: number; siteCode?: string; retryAfterMs?: number };

/** ks-backend GameMetadataResponse (GET /game/mine/active), the fields krieg reads. */
export interface SiteGame {
  game_id: string;
  game_code: string;
  rule_variant: string;
  state: 'waiting' | 'active' | 'completed';
  turn?: Side | null;
  white?: { username: string } | null;
  black?: { username: string } | null;
  result?: { winner?: Side | null; reason?: string } | null;
}
/** ks-backend MoveResponse / AskAnyResponse. */
export interface SiteMoveResponse {
  move_done: boolean;
  announcement: string;
  special_announcement?: string | null;
  capture_square?: string | null;
  has_any?: boolean;
  turn?: Side | null;
  game_over: boolean;
  clock: SiteClock;
}

/** The site's address: https, or http on this machine (a local server, tests). */
export function checkServer(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw fail('bad-server', { server, why: 'not a URL' });
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local))
    throw fail('bad-server', { server, why: 'the token goes only over https (http only to localhost)' });
  if (url.username || url.password) throw fail('bad-server', { server, why: 'no credentials in the URL' });
  return url.toString().replace(/\/+$/, '');
}

export interface ClientOptions {
  server: string;
  token?: string;
  /** Tries of a retried call before its error is thrown (default 5). */
  tries?: number;
  /** The first back-off, doubled each try up to maxBackoffMs (default 1 s, 60 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A line for each retry (never the token). */
  log?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class SiteClient {
  readonly server: string;
  constructor(private readonly options: ClientOptions) {
    this.server = checkServer(options.server);
  }

  /** One call: the JSON answer, or a SiteError (site-http with the status and code, site-unreachable). */
  private async once(method: string, path: string, body?: unknown): Promise<unknown> {
    const call = `${method} ${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let response: Response;
    try {
      response = await fetch(`${this.server}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw fail('site-unreachable', { call, why: cause ?? (error as Error).message ?? String(error) });
    }
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (response.ok) {
      if (json === undefined && response.status !== 204)
        throw fail('site-unreachable', { call, why: `HTTP ${response.status} without a JSON answer` });
      return json;
    }
    // ks-backend's game errors come in an envelope, FastAPI's own (401, 422) as {"detail": …}
    const envelope = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    const detail = (json as { detail?: unknown } | undefined)?.detail;
    const code = envelope?.code ?? `HTTP_${response.status}`;
    const message =
      envelope?.message ??
      (typeof detail === 'string' ? detail : detail ? JSON.stringify(detail).slice(0, 200) : response.statusText);
    const error = fail('site-http', { call, status: response.status, code, message }) as SiteError;
    error.status = response.status;
    error.siteCode = code;
    const after = Number(response.headers.get('retry-after'));
    if (after > 0) error.retryAfterMs = Math.min(after, 3600) * 1000;
    throw error;
  }

  /** A call retried with back-off on a network error, a 5xx or a 429. */
  async call(method: string, path: string, body?: unknown, retry = true): Promise<unknown> {
    const tries = retry ? (this.options.tries ?? 5) : 1;
    let wait = this.options.backoffMs ?? 1000;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(method, path, body);
      } catch (error) {
        if (attempt >= tries || !transient(error as SiteError)) throw error;
        // a 429's Retry-After (seconds) is waited for in full
        const ms = Math.max(wait, (error as SiteError).retryAfterMs ?? 0);
        this.options.log?.(`retry ${method} ${path} in ${ms} ms: ${(error as Error).message}`);
        await (this.options.sleep ?? sleep)(ms);
        wait = Math.min(wait * 2, this.options.maxBackoffMs ?? 60_000);
      }
    }
  }

  register(body: {
    username: string;
    display_name: string;
    owner_email: string;
    description?: string;
    supported_rule_variants: string[];
  }): Promise<{ bot_id: string; username: string; api_token: string }> {
    return this.call('POST', '/auth/bots/register', body, false) as Promise<{
      bot_id: string;
      username: string;
      api_token: string;
    }>;
  }
  advertise(variants: string[]): Promise<unknown> {
    return this.call('POST', '/bots/profile', { supported_rule_variants: variants });
  }
  async activeGames(): Promise<SiteGame[]> {
    return ((await this.call('GET', '/game/mine/active')) as { games: SiteGame[] }).games;
  }
  state(game: string): Promise<SiteState> {
    return this.call('GET', `/game/${encodeURIComponent(game)}/state`) as Promise<SiteState>;
  }
  move(game: string, uci: string): Promise<SiteMoveResponse> {
    return this.call('POST', `/game/${encodeURIComponent(game)}/move`, { uci }, false) as Promise<SiteMoveResponse>;
  }
  askAny(game: string): Promise<SiteMoveResponse> {
    return this.call(
      'POST',
      `/game/${encodeURIComponent(game)}/ask-any`,
      undefined,
      false,
    ) as Promise<SiteMoveResponse>;
  }
  resign(game: string): Promise<unknown> {
    return this.call('POST', `/game/${encodeURIComponent(game)}/resign`, undefined, false);
  }
  createLobbyGame(variant: string): Promise<{ game_id: string; game_code: string }> {
    const body = { rule_variant: variant, play_as: 'random', time_control: 'rapid', opponent_type: 'human' };
    return this.call('POST', '/game/create', body, false) as Promise<{ game_id: string; game_code: string }>;
  }
}

/** Worth another try: the network, the server's own failure (5xx), or too many requests (429). */
export function transient(error: SiteError): boolean {
  if (error?.code === 'site-unreachable') return true;
  return error?.code === 'site-http' && (error.status === 429 || (error.status ?? 0) >= 500);
}
