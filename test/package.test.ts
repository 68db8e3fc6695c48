// The package as a user gets it: `npm pack` (the build outputs are fresh: test/lib/globalSetup.ts),
// the tarball installed into an empty project (its dependencies from the npm registry, nothing
// compiled there), then the README's library example run with `import … from 'krieg'`, a match
// between two exported players and a view tracked through the exported tracker, `npx krieg` run,
// and a TypeScript file using the package's types type-checked.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/cli';

let DIR = '';
let PROJECT = '';
let packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };

function run(command: string, args: string[], cwd: string, timeout = 1_800_000) {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

/** The README block after the library-example marker. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('<!-- library example');
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || !block) throw new Error('README.md has no library example block');
  return block[1];
}

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-pack-'));
  const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', DIR], ROOT);
  expect(pack.status, pack.stderr).toBe(0);
  packed = JSON.parse(pack.stdout)[0];
  PROJECT = join(DIR, 'project');
  mkdirSync(PROJECT);
  writeFileSync(
    join(PROJECT, 'package.json'),
    JSON.stringify({ name: 'krieg-user', version: '1.0.0', private: true, type: 'module' }),
  );
  const install = run('npm', ['install', join(DIR, packed.filename), '--prefer-offline', '--no-save'], PROJECT);
  expect(
    install.status,
    `npm install of the tarball failed (the npm registry must be reachable for its dependencies):\n${install.stderr}`,
  ).toBe(0);
  expect(install.stderr, 'no engine warning').not.toMatch(/EBADENGINE/);
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships the built core, CLI, library, types, shipped databases, the bot examples and licence; no sources, tests or benches', () => {
    const files = packed.files.map((f) => f.path);
    for (const f of [
      'dist/krieg.js',
      'dist/cli.js',
      'dist/types/node.d.ts',
      'dist/web/krieg.js',
      'build/krieg.wasm',
      'data/problems.sqlite',
      'examples/first-bot.mjs',
      'examples/first-bot.py',
      'LICENSE',
      'README.md',
      'package.json',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.filter((f) => /^(test|bench|assembly|scripts|host)\//.test(f))).toEqual([]);
    expect(packed.size).toBeLessThan(8 * 2 ** 20);
  });

  it("runs the README library example with `import … from 'krieg'`", () => {
    writeFileSync(join(PROJECT, 'example.mjs'), readmeExample());
    const r = run(process.execPath, ['example.mjs'], PROJECT);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Black's belief: 2742 positions \(complete\)$/m);
    expect(r.stdout).toMatch(/^mate within 3 ply: proven/m);
    expect(r.stdout).toMatch(/try e1e8\n\s+if check \(Rank\), checkmate: won/);
    expect(r.stdout).toMatch(/^tracked: 2742 positions \(exact\)$/m);
    expect(r.stdout).toMatch(/^random v krieg: 0 won, 2 drawn, 0 lost$/m);
  });

  it('plays a match between two exported players and tracks a view through the exported tracker', () => {
    writeFileSync(
      join(PROJECT, 'players.mjs'),
      [
        "import { createEngine, createPlayer, runGame, GameSession, playMatch, validateRecord, viewOf, estimateBelief, Tracker, preset } from 'krieg';",
        "const rules = preset('berkeley');",
        "const match = await playMatch({ players: ['random', 'krieg'], games: 2, nodes: 300, maxPlies: 12 });",
        'const engine = createEngine();',
        'for (const record of match.records) validateRecord(engine, record); // throws on a record the referee refutes',
        "const white = createPlayer('krieg', { side: 'white', rules, seed: 3, nodes: 300 });",
        "const black = createPlayer('random', { side: 'black', rules, seed: 4 });",
        'const referee = createEngine();',
        'referee.setRules(rules);',
        'const names = { white: white.name, black: black.name };',
        'const game = runGame(new GameSession(referee, { maxPlies: 6, names }), { white, black });',
        'validateRecord(engine, game);',
        "const view = viewOf(game, 'black');",
        "const tracker = Tracker.create(createEngine(), { rules: view.rules, as: 'black', start: view.start });",
        'for (const event of view.events) tracker.observe(event, { work: 50_000_000 });',
        "const belief = estimateBelief(engine, view, 'dfs');",
        'const exact = belief.handles.map((h) => engine.fen(h)).sort();',
        'console.log(JSON.stringify({',
        '  games: match.records.map((r) => [r.white, r.black, r.events.filter((e) => e.type === "attempt" && e.percept.answer === "legal").length]),',
        '  summary: [match.summary.games, match.summary.wins, match.summary.draws, match.summary.losses],',
        '  game: [game.white, game.black],',
        '  tracked: [tracker.mode, tracker.size()],',
        '  belief: [belief.outcome, exact.length],',
        '  same: JSON.stringify(tracker.positions().sort()) === JSON.stringify(exact),',
        '}));',
        '',
      ].join('\n'),
    );
    const r = run(process.execPath, ['players.mjs'], PROJECT);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // colours alternate (the first player has White in odd games); each game stops at the 12-ply cap at most
    expect(out.games.map((g: [string, string, number]) => [g[0], g[1]])).toEqual([
      ['random', 'krieg'],
      ['krieg', 'random'],
    ]);
    for (const [, , plies] of out.games) expect(plies).toBeLessThanOrEqual(12);
    expect(out.summary[0]).toBe(2);
    expect(out.summary[1] + out.summary[2] + out.summary[3]).toBe(2);
    expect(out.game).toEqual(['krieg', 'random']);
    // the tracker, fed Black's view event by event, holds exactly the estimator's belief
    expect(out.belief[0]).toBe('complete');
    expect(out.belief[1]).toBeGreaterThan(1);
    expect(out.tracked).toEqual(['exact', out.belief[1]]);
    expect(out.same).toBe(true);
  });

  it('runs `npx krieg perft startpos 3` and `npx krieg --help`', () => {
    const perft = run('npx', ['--no-install', 'krieg', 'perft', 'startpos', '3'], PROJECT);
    expect(perft.status, perft.stderr).toBe(0);
    expect(perft.stdout).toMatch(/^nodes: 8902$/m);
    const help = run('npx', ['--no-install', 'krieg', '--help'], PROJECT);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/krieg <command>/);
    const db = run('npx', ['--no-install', 'krieg', 'db', 'show', '4'], PROJECT);
    expect(db.status, db.stderr).toBe(0); // the shipped database, found in the installed package
    expect(db.stdout).toMatch(/^instance 4 of /);
  });

  it('gives TypeScript users the types', () => {
    writeFileSync(
      join(PROJECT, 'check.ts'),
      [
        "import { createEngine, estimateBelief, type EstimateResult, type View } from 'krieg';",
        "import { createPlayer, playMatch, type Algorithm, type Player, type MatchSummary } from 'krieg';",
        "import type { KriegWebApi } from 'krieg/browser';",
        'export function count(view: View): number {',
        '  const result: EstimateResult = estimateBelief(createEngine(), view, "bfs");',
        '  return result.handles.length;',
        '}',
        "export const algorithm: Algorithm = 'auto';",
        "export const player = (): Player => createPlayer('krieg:mate=100', { side: 'white', nodes: 300 });",
        "export const score = async (): Promise<MatchSummary> => (await playMatch({ players: ['random', 'hs'], games: 2 })).summary;",
        'export type Api = KriegWebApi;',
        '',
      ].join('\n'),
    );
    const tsc = run(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        // TypeScript's own lib files (es2022, dom) are not checked again: about a third of the CPU
        // spent; the shipped declarations and @types/node are still checked with this file
        '--skipDefaultLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--lib',
        'es2022,dom',
        '--types',
        'node',
        '--typeRoots',
        join(ROOT, 'node_modules/@types'),
        'check.ts',
      ],
      PROJECT,
      120_000,
    );
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
  });
});
