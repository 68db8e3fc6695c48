// An outside program as a player (`ext:python3 bot.py`): spawned for one game, spoken to in the
// engine protocol (./engineProtocol.ts, docs/protocol.md). It is a blind AsyncPlayer like any
// other: it hears the events of its own view and, on its turn, is asked for an attempt, which it
// answers in its own time (runGameAsync awaits it). Whatever goes wrong with it — it does not start,
// exits, answers late or not at all, sends a line that is not the protocol, attempts what it may
// not — is thrown from choose as an `ext-*` error, by which it forfeits the game (./forfeit.ts);
// the program is killed then, and at the end of every game.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../io/packageRoot';
import { fail, type KriegError } from '../errors';
import { makeUci, parseUci } from '../notation/move';
import { eventToJson } from '../notation/recordJson';
import { describeRules } from '../record/rules';
import type { Result, ViewEvent } from '../record/record';
import { playerFactory, type PlayerSpec } from './registry';
import type { AsyncPlayer, AsyncPlayerFactory, PlayerSetup, Turn } from './player';
import {
  PROTOCOL_VERSION,
  MAX_LINE,
  readMessage,
  quoteLine,
  lineOf,
  type DriverMessage,
  type Message,
} from './engineProtocol';

/** Milliseconds a program has to exit after `quit` before it is killed. */
const QUIT_MS = 1000;
/** Characters of a program's standard error kept for the message of its exit (its last words). */
const STDERR_TAIL = 2000;

/** Programs running, killed if krieg exits first (a match stopped by an error, Ctrl-C). */
const running = new Set<ChildProcess>();
let hooked = false;
function track(child: ChildProcess): void {
  running.add(child);
  child.on('close', () => running.delete(child));
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const c of running) c.kill('SIGKILL');
  });
}

/** The last non-empty line of a program's standard error, cut to 200 characters. */
function lastWords(stderr: string): string | undefined {
  const line = stderr.trimEnd().split('\n').pop()?.trim();
  return line ? line.slice(0, 200) : undefined;
}

/** The program to spawn: `krieg …` is this krieg's own executable (dist/cli.js run by this Node), whatever PATH holds. */
export function commandLine(command: string[]): string[] {
  if (command[0] !== 'krieg') return command;
  return [process.execPath, join(packageRoot(), 'dist', 'cli.js'), ...command.slice(1)];
}

export class ExtPlayer implements AsyncPlayer {
  readonly name: string;
  private readonly child: ChildProcess;
  private readonly spawned = performance.now();
  private readonly lines: string[] = [];
  private partial = '';
  private stderr = '';
  /** Why the program can be heard no more: it did not start, exited, or overflowed a line. */
  private gone?: KriegError;
  private wake?: () => void;
  private greeted = false;
  private readonly closed: Promise<void>;
  private readonly timePerMove?: number;

  constructor(
    private readonly spec: PlayerSpec,
    setup: PlayerSetup,
  ) {
    this.name = spec.text;
    this.timePerMove = setup.budget.timePerMove;
    const [file, ...args] = commandLine(spec.command!);
    this.child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    track(this.child);
    this.closed = new Promise((resolve) => this.child.on('close', () => resolve()));
    this.child.on('error', (error) => this.lose(fail('ext-start', { program: this.name, reason: error.message })));
    this.child.on('close', (code, signal) =>
      this.lose(
        fail('ext-exit', {
          program: this.name,
          how: signal ? `was killed (${signal})` : `exited with code ${code}`,
          ...(lastWords(this.stderr) ? { stderr: lastWords(this.stderr) } : {}),
        }),
      ),
    );
    this.child.stdin!.on('error', () => {}); // a program gone: its exit says why
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.hear(chunk));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    const { variant } = describeRules(setup.rules);
    this.send({ type: 'hello', protocol: PROTOCOL_VERSION });
    this.send({
      type: 'game',
      variant,
      rules: setup.rules,
      side: setup.side,
      start: setup.start,
      seed: setup.seed,
      budget: setup.budget,
    });
  }

  private lose(error: KriegError): void {
    this.gone ??= error;
    this.wake?.();
  }

  private hear(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop()!;
    for (const line of parts) if (line.trim() !== '') this.lines.push(line.replace(/\r$/, ''));
    if (this.partial.length > MAX_LINE) {
      this.lose(
        fail('ext-bad-line', {
          program: this.name,
          line: quoteLine(this.partial),
          reason: `no end of line in ${MAX_LINE} characters`,
        }),
      );
      this.partial = ''; // heard no more
      this.lines.length = 0;
    }
    this.wake?.();
  }

  private send(message: DriverMessage): void {
    if (this.gone || !this.child.stdin!.writable) return;
    this.child.stdin!.write(`${lineOf(message)}\n`);
  }

  /** The next message (info skipped; an error message is the program's failure), by `until` (performance.now() ms). */
  private async next(until: number, waiting: string, limit: number): Promise<Message> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) {
        const message = readMessage(line);
        if (typeof message === 'string')
          throw fail('ext-bad-line', { program: this.name, line: quoteLine(line), reason: message });
        if (message.type === 'info') continue;
        if (message.type === 'error')
          throw fail('ext-error', { program: this.name, message: String(message.message ?? '(no message)') });
        return message;
      }
      if (this.gone) throw this.gone;
      const left = until - performance.now();
      if (left <= 0) throw fail('ext-timeout', { program: this.name, seconds: limit, waiting });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private unexpected(line: Message, expected: string): KriegError {
    return fail('ext-bad-line', {
      program: this.name,
      line: quoteLine(JSON.stringify(line)),
      reason: `expected ${expected}`,
    });
  }

  /** The handshake, read once (the hello and the game went out at the start): the hello, then ready. */
  private async greet(): Promise<void> {
    const limit = this.spec.options.startup;
    const until = this.spawned + limit * 1000;
    const hello = await this.next(until, 'its hello', limit);
    if (hello.type !== 'hello' || typeof hello.name !== 'string')
      throw this.unexpected(hello, '{"type":"hello","protocol":1,"name":…}');
    if (hello.protocol !== PROTOCOL_VERSION)
      throw fail('ext-start', {
        program: this.name,
        reason: `it speaks protocol ${JSON.stringify(hello.protocol)}, krieg speaks ${PROTOCOL_VERSION}`,
      });
    const ready = await this.next(until, '"ready" after the game', limit);
    if (ready.type !== 'ready') throw this.unexpected(ready, '{"type":"ready"}');
    this.greeted = true;
  }

  observe(event: ViewEvent): void {
    this.send({ type: 'event', event: eventToJson(event) });
  }

  async choose(turn: Turn): Promise<number | 'any'> {
    try {
      let deadline = turn.deadline;
      if (!this.greeted) {
        await this.greet();
        // its start-up is not its move's time: the first move gets the whole of it from now
        if (deadline !== undefined && this.timePerMove !== undefined)
          deadline = Math.max(deadline, performance.now() + this.timePerMove * 1000);
      }
      const now = performance.now();
      const timeMs = deadline === undefined ? undefined : Math.max(0, Math.round(deadline - now));
      this.send({
        type: 'go',
        attempts: turn.attempts.map(makeUci),
        tried: turn.tried.map(makeUci),
        canAskAny: turn.canAskAny,
        ...(timeMs === undefined ? {} : { timeMs }),
      });
      const { grace, move } = this.spec.options;
      // the move's time left and the grace (at least the grace), or `move` seconds without a time budget
      const until = now + (timeMs === undefined ? move * 1000 : timeMs + grace * 1000);
      const limit = Math.round((until - now) / 100) / 10; // seconds, as the message gives them
      const answer = await this.next(until, 'an attempt', limit);
      if (answer.type === 'any') {
        if (!turn.canAskAny)
          throw fail('ext-bad-attempt', {
            program: this.name,
            attempt: '"Any?"',
            reason: 'the rules have no "Any?", or it was asked this turn',
          });
        return 'any';
      }
      if (answer.type !== 'attempt' || typeof answer.attempt !== 'string')
        throw this.unexpected(answer, '{"type":"attempt","attempt":"e2e4"} or {"type":"any"}');
      const code = parseUci(answer.attempt);
      if (code === undefined)
        throw this.unexpected(answer, "an attempt in UCI (e2e4, e7e8q; castling as the king's step e1g1)");
      if (!turn.attempts.includes(code))
        throw fail('ext-bad-attempt', {
          program: this.name,
          attempt: answer.attempt,
          reason: turn.tried.includes(code)
            ? 'it was rejected this turn already'
            : 'Nonsense (not among the attempts "go" listed)',
        });
      return code;
    } catch (error) {
      this.gone ??= error as KriegError; // heard no more: gameOver only makes sure it is dead
      this.kill();
      throw error;
    }
  }

  /** Tells the program the game's end and lets it quit (killed if it does not, or has failed). */
  async gameOver(result: Result, termination?: string): Promise<void> {
    if (!this.gone) {
      this.send({ type: 'end', result, ...(termination ? { termination } : {}) });
      this.send({ type: 'quit' });
      this.child.stdin!.end();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.closed, new Promise((resolve) => (timer = setTimeout(resolve, QUIT_MS)))]);
      clearTimeout(timer);
    }
    this.kill();
  }

  private kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** The factory of any player but a person: an outside program (`ext:…`) or one of krieg's. */
export function playerOf(spec: PlayerSpec): AsyncPlayerFactory {
  if (spec.name !== 'ext') return playerFactory(spec);
  return (setup: PlayerSetup) => new ExtPlayer(spec, setup);
}
