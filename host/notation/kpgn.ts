// KPGN: Kriegspiel PGN, in the style of the Berkeley/UMD "v0.9" transcripts, extended for the
// rule sets krieg supports. docs/rules-and-notation.md ("Record notation") is the reference; in short:
//
//   [Variant "berkeley"]              preset name; [Rules "key=value …"] lists flags that differ
//   [Filtered "no"]                   "no": a full record; "white"/"black": that player's view
//   [FEN "…"]                         only when the game did not start from the initial position
//   1. e2e4 {,:}                      White's turn: the legal attempt, then {capture,checks:attempts}
//   1... ?? {e4p,RN:2;T1}             Black's turn as White hears it: 2 Illegal attempts
//   2. d1h5 {,:d1d3 a2b3?;A+}         Illegal d1d3, Nonsense a2b3, then d1h5 legal; "Any?" answered yes
//   5. * {,:c1g5}                     a turn still in progress (the view ends while this side is to move)
//
// capture: square, then p (a pawn) or x (a piece) under pawn-or-piece rules, then ep if announced.
// checks: N R F L S (Knight, Rank, File, Long, Short diagonal), or C for a plain "check".
// attempts: own attempts before the legal one, in order, a Nonsense one marked ?, and "Any?" (A+ or
// A-) where it was asked after other attempts; for an opponent turn in a view, the number of
// Illegal attempts heard (empty when the rules hide it).
// extras after ;: pawn tries T<count> / T+ / T- / T@<squares> (T@- none), Any? A+ / A- asked first,
// promotion announced P, game end checkmate | stalemate | draw-material | draw-fifty | draw-repetition.
// Moves are written in UCI coordinates; a full record's legal moves may also be read in SAN.
//
// The parts: kpgn/read.ts (parseKpgn), kpgn/write.ts (makeRecordKpgn, makeViewKpgn), kpgn/games.ts
// (splitting a text or a file into games: KpgnGameScanner, parseKpgnGames); this file is their
// one entrance.
export { parseKpgn, type ParsedKpgn, type SourcePosition } from './kpgn/read';
export { makeRecordKpgn, makeViewKpgn, makePerceptKpgn, makePawnTriesKpgn } from './kpgn/write';
export {
  KpgnGameScanner,
  kpgnGameSpans,
  kpgnGameText,
  kpgnGameComplete,
  parseKpgnGames,
  type GameStart,
  type GameSpan,
} from './kpgn/games';
