// Players are blind to the game's seed (issue 38): every view a player is handed — the view of each
// Turn and the events it observes — carries no tag of the game (Seed, Match, Round …: each player's
// random stream is drawn from the game's seed, so a Seed tag would let it recompute its opponent's
// random choices). A spy wraps every player the registry makes, under krieg play and krieg match.
import { describe, expect, it, vi } from 'vitest';
import { BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import type { Player, PlayerFactory } from '../../host/players/player';

const seen: { tags: Record<string, string>[]; events: number } = { tags: [], events: 0 };

vi.mock('../../host/players/registry', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../host/players/registry')>();
  return {
    ...original,
    playerFactory: (...args: Parameters<typeof original.playerFactory>): PlayerFactory => {
      const make = original.playerFactory(...args);
      return (setup, engine) => {
        const player = make(setup, engine);
        const spy: Player = {
          name: player.name,
          observe(event) {
            seen.events++;
            if ('tags' in event) seen.tags.push((event as { tags: Record<string, string> }).tags);
            player.observe(event);
          },
          choose(turn) {
            seen.tags.push(turn.view.tags);
            return player.choose(turn);
          },
        };
        return spy;
      };
    },
  };
});

const { parsePlayerSpec } = await import('../../host/players/registry');
const { playWithPlayers } = await import('../../host/players/play.node');
const { GamePlayer } = await import('../../host/players/match.node');

describe.each(BACKENDS)('views handed to players on %s', (backend) => {
  it('krieg play: no tag of the game (no Seed, Match, Round) in any view a player is given', async () => {
    seen.tags = [];
    seen.events = 0;
    const { records } = await playWithPlayers(
      { white: parsePlayerSpec('rw'), black: parsePlayerSpec('random') },
      { games: 2, seed: 5, maxPlies: 12, rules: preset('berkeley'), budget: { nodes: 500 }, backend },
    );
    expect(records[1].tags.Seed).toBe('6'); // the record has them
    expect(seen.tags.length).toBeGreaterThan(10);
    expect(seen.events).toBeGreaterThan(10);
    for (const tags of seen.tags) expect(tags).toEqual({});
  });

  it('krieg match: likewise', async () => {
    seen.tags = [];
    const params = {
      players: [parsePlayerSpec('random'), parsePlayerSpec('los')] as [
        ReturnType<typeof parsePlayerSpec>,
        ReturnType<typeof parsePlayerSpec>,
      ],
      games: 2,
      seed: 9,
      rules: preset('wild16'),
      maxPlies: 12,
      nodes: 500,
      backend,
    };
    const record = await new GamePlayer(backend).play(params, 2);
    expect(record.tags.Match).toBeTruthy();
    expect(record.tags.Seed).toBeTruthy();
    expect(seen.tags.length).toBeGreaterThan(5);
    for (const tags of seen.tags) expect(tags).toEqual({});
  });
});
