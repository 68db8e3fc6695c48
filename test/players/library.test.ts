// The library's way to players and matches (host/node.ts): playMatch plays the games `krieg match`
// writes (runMatch, the same seeds, colours and records) and reports them alike; createPlayer, given
// the seeds a match gives its players, plays that match's game through runGame move for move.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createEngine } from '../../host/node';
import { START_FEN } from '../../host/notation/fen';
import { createPlayer } from '../../host/players/engines.node';
import { runGame } from '../../host/players/game';
import { GameSession } from '../../host/referee/session';
import { gameSeeds, matchParams, matchReport, playMatch, runMatch } from '../../host/players/match.node';

const DIR = mkdtempSync(join(tmpdir(), 'krieg-library-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe.each(BACKENDS)('players and matches from the library (%s)', (backend) => {
  const options = {
    players: ['random', 'krieg:mate=50'] as [string, string],
    games: 2,
    nodes: 300,
    maxPlies: 10,
    backend,
  };

  it("playMatch plays krieg match's games and reports them alike", async () => {
    const match = await playMatch(options);
    const p = matchParams(options);
    const written = await runMatch(p, join(DIR, `${backend}.kpgn`), 1);
    expect(match.records).toEqual(written.records);
    expect(match.summary).toEqual(matchReport(p, written).summary);
    expect(match.records.map((r) => [r.white, r.black])).toEqual([
      ['random', 'krieg:mate=50'],
      ['krieg:mate=50', 'random'],
    ]);
    expect(match.summary.wins + match.summary.draws + match.summary.losses).toBe(2);
  });

  it("createPlayer with a match's seeds plays its game through runGame", async () => {
    const p = matchParams(options);
    const [game] = (await playMatch({ ...options, games: 1 })).records;
    const seeds = gameSeeds(p, 1); // game 1: the first player has White
    const common = { rules: p.rules, nodes: 300, backend };
    const white = createPlayer('random', { ...common, side: 'white', seed: seeds.white });
    const black = createPlayer('krieg:mate=50', { ...common, side: 'black', seed: seeds.black });
    const referee = createEngine(backend);
    referee.setRules(p.rules);
    const record = runGame(new GameSession(referee, { start: START_FEN, maxPlies: 10 }), { white, black });
    expect(record.events).toEqual(game.events);
    expect(record.result).toBe(game.result);
  });
});
