// A belief of hand-built positions for the players' screen tests: the positions `fens` set as
// records 10 …, searched at depth 0 (every attempt's score) and screened whole (countThreats).
import { createEngine } from '../../host/node';
import { ChooseRun, countThreats } from '../../host/core/players';
import { edgeOf } from '../../host/players/values';

const STACK = 100;

export function screenedBelief(backend: 'wasm' | 'js', fens: string[]) {
  const engine = createEngine(backend, 256);
  fens.forEach((fen, i) => engine.setFen(10 + i, fen));
  const handles = fens.map((_, i) => 10 + i);
  const run = new ChooseRun(engine, 10, { depth: 0 }, STACK);
  run.add(handles);
  const scores = run.over(() => true).filter((r) => r.legal > 0);
  const threat = (attempt: number) => countThreats(engine, handles, attempt, STACK);
  return { engine, scores, threat, edge: edgeOf(engine, 10) };
}
