// Stable error ids and messages for every status the core returns; only the CLI prints them.

export class KriegError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'KriegError';
  }
}

/** loadSetup statuses (assembly/chess/position.ts SETUP_*), by value. */
export const SETUP_STATUS: readonly { id: string; message: string }[] = [
  { id: 'ok', message: 'ok' },
  { id: 'bad-piece', message: 'unknown piece code' },
  { id: 'king-count', message: 'each side must have exactly one king' },
  { id: 'pawn-on-back-rank', message: 'a pawn stands on the first or eighth rank' },
  { id: 'too-many-pieces', message: 'more pieces than pawns could have promoted to (pawns + extra pieces > 8 for a side)' },
  { id: 'opponent-in-check', message: 'the side not to move is in check' },
  { id: 'bad-side', message: 'side to move must be w or b' },
  { id: 'bad-clock', message: 'halfmove clock must be >= 0 and fullmove number >= 1' },
  { id: 'bad-handle', message: 'position handle outside the arena' },
];

export function setupError(status: number): KriegError {
  const entry = SETUP_STATUS[status] ?? { id: 'unknown', message: `unknown setup status ${status}` };
  return new KriegError(`setup-${entry.id}`, entry.message);
}
